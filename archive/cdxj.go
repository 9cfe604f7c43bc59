package archive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/langcrawl/langcrawl/internal/plainurl"
)

// cdxLine is one line of the CDXJ index.
type cdxLine struct {
	URL      string
	Date     time.Time
	Mime     string
	Status   string
	Digest   string
	Length   int64
	Offset   int64
	Filename string
}

// fromHTTP fills Mime and Status from a raw HTTP response.
func (l *cdxLine) fromHTTP(msg []byte) {
	l.Status = statusOf(msg)
	l.Mime = "unk"
	head := msg[:headerEnd(msg)]
	for _, line := range bytes.Split(head, []byte("\n"))[1:] {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !asciiEqualFold(bytes.TrimSpace(name), "content-type") {
			continue
		}
		mt, _, _ := bytes.Cut(value, []byte(";"))
		if mt = bytes.TrimSpace(mt); len(mt) > 0 {
			l.Mime = strings.ToLower(string(mt))
		}
		break
	}
}

// appendTo appends the line, in pywb's CDXJ form, to b. pywb keeps the
// JSON values as strings and the digest without its "sha1:" prefix.
func (l *cdxLine) appendTo(b []byte) []byte {
	b = append(b, SURT(l.URL)...)
	b = append(b, ' ')
	b = l.Date.UTC().AppendFormat(b, "20060102150405")
	b = append(b, ' ')
	var j bytes.Buffer
	enc := json.NewEncoder(&j)
	enc.SetEscapeHTML(false)
	_, digest, ok := strings.Cut(l.Digest, ":")
	if !ok {
		digest = l.Digest
	}
	status := l.Status
	if status == "" {
		status = "-"
	}
	// A struct keeps the key order pywb's own indexer writes.
	_ = enc.Encode(struct {
		URL      string `json:"url"`
		Mime     string `json:"mime"`
		Status   string `json:"status"`
		Digest   string `json:"digest"`
		Length   string `json:"length"`
		Offset   string `json:"offset"`
		Filename string `json:"filename"`
	}{l.URL, l.Mime, status, digest, strconv.FormatInt(l.Length, 10),
		strconv.FormatInt(l.Offset, 10), l.Filename})
	return append(b, j.Bytes()...) // Encode ends with '\n'
}

// SURT returns the Sort-friendly URI Reordering Transform of rawURL as
// pywb's index keys use it: the key pywb 2.9.1 computes with surt.surt
// (python surt 0.3, the Internet Archive's DefaultIAURLCanonicalizer, a
// port of archive-commons' GoogleURLCanonicalizer then IAURLCanonicalizer),
// so that a line of our index is found by the key pywb looks a URL up with.
// Scheme, user info and fragment are dropped; the host is unescaped,
// lower-cased, stripped of dots at its ends and of a leading
// "www<digits>.", a dotted or all-digit IPv4 address is normalised, and its
// labels are reversed and joined by commas (IPv4 addresses too); the
// default port is dropped. The path and the query are percent-decoded
// repeatedly and re-escaped minimally (only bytes outside printable ASCII,
// space, '#' and '%'); the path's dot segments and empty segments are
// removed; both are lower-cased; session ids are stripped (jsessionid,
// phpsessid, sid, ASPSESSIONID, cfid/cftoken, ASP.NET's (S(...)) path
// segment); the path loses a trailing slash unless it is "/"; the query's
// arguments are sorted and an empty query is dropped. A URL that does not
// parse is returned lower-cased.
func SURT(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		// net/url refuses a '%' that starts no escape ("100%off", as
		// older archives hold); surt reads it as itself and re-escapes it
		// as "%25", which is what the key comes to with it so written.
		u, err = url.Parse(escapeStrayPercent(rawURL))
	}
	if err != nil || u.Host == "" {
		return strings.ToLower(rawURL)
	}
	host := string(unescapeRepeatedly(u.Hostname()))
	for strings.Contains(host, "..") {
		host = strings.ReplaceAll(host, "..", ".")
	}
	host = strings.ToLower(strings.Trim(host, "."))
	if ip := ipv4Form(host); ip != "" {
		host = ip
	} else {
		host = escapeOnce(host)
	}
	if m := wwwDigits.FindString(host); m != "" {
		host = host[len(m):]
	}
	var b strings.Builder
	// An IPv6 literal is one label, written without its brackets, as surt does.
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	b.WriteString(strings.Join(labels, ","))
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || !(n == 80 && u.Scheme == "http") && !(n == 443 && u.Scheme == "https") {
			b.WriteString(":" + strconv.Itoa(n))
		}
	}
	b.WriteString(")")
	path := strings.ToLower(escapeOnce(normalizePath(string(unescapeRepeatedly(u.EscapedPath())))))
	for _, re := range pathSessionIDs {
		if m := re.FindStringSubmatch(path); m != nil {
			path = m[1] + m[3]
		}
	}
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	b.WriteString(path)
	if q := u.RawQuery; q != "" {
		q = escapeOnce(string(unescapeRepeatedly(q)))
		for _, re := range querySessionIDs {
			if m := re.FindStringSubmatch(q); m != nil {
				q = m[1] + m[2]
			}
		}
		q = strings.ToLower(q)
		if q != "" {
			b.WriteString("?" + alphaReorderQuery(q))
		}
	}
	return b.String()
}

var (
	wwwDigits      = regexp.MustCompile(`^www\d*\.`)
	pathSessionIDs = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$`),
		regexp.MustCompile(`(?i)^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$`),
	}
	querySessionIDs = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$`),
	}
)

// escapeStrayPercent writes each '%' of s not followed by two hex digits
// as "%25".
func escapeStrayPercent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && !(i+2 < len(s) && plainurl.IsHex(s[i+1]) && plainurl.IsHex(s[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeRepeatedly percent-decodes s until it no longer changes, as
// Python's unquote_to_bytes does: a '%' not followed by two hex digits
// stays as it is.
func unescapeRepeatedly(s string) []byte {
	b := []byte(s)
	for {
		out := make([]byte, 0, len(b))
		for i := 0; i < len(b); i++ {
			if b[i] == '%' && i+2 < len(b) && plainurl.IsHex(b[i+1]) && plainurl.IsHex(b[i+2]) {
				out = append(out, plainurl.Unhex(b[i+1])<<4|plainurl.Unhex(b[i+2]))
				i += 2
				continue
			}
			out = append(out, b[i])
		}
		if bytes.Equal(out, b) {
			return b
		}
		b = out
	}
}

// escapeOnce percent-encodes, in upper-case hex, every byte but
// alphanumerics and !"$&'()*+,-./:;<=>?@[\]^_`{|}~ (Python's quote with
// surt's safe set): control bytes, space, '#', '%' and non-ASCII bytes.
func escapeOnce(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c > ' ' && c < 0x7f && c != '#' && c != '%' {
			b.WriteByte(c)
		} else {
			plainurl.WriteEscape(&b, c)
		}
	}
	return b.String()
}

// normalizePath removes "." segments, resolves ".." ones and drops empty
// segments but a last one, as surt's normalizePath does.
func normalizePath(p string) string {
	if p == "" {
		return "/"
	}
	var kept []string
	for _, s := range strings.Split(p, "/")[1:] {
		switch s {
		case ".":
		case "..":
			if len(kept) > 0 {
				kept = kept[:len(kept)-1]
			} else {
				kept = append(kept, s)
			}
		default:
			kept = append(kept, s)
		}
	}
	var b strings.Builder
	b.WriteByte('/')
	for i, s := range kept {
		if i == len(kept)-1 {
			b.WriteString(s)
		} else if s != "" {
			b.WriteString(s + "/")
		}
	}
	return b.String()
}

// alphaReorderQuery sorts the arguments of q as surt does: as (name) or
// (name, value) pairs, a name alone before the same name with a value.
func alphaReorderQuery(q string) string {
	if len(q) <= 1 {
		return q
	}
	args := strings.Split(q, "&")
	slices.SortStableFunc(args, func(a, c string) int {
		ak, av, aok := strings.Cut(a, "=")
		ck, cv, cok := strings.Cut(c, "=")
		if r := strings.Compare(ak, ck); r != 0 {
			return r
		}
		if aok != cok {
			if !aok {
				return -1
			}
			return 1
		}
		return strings.Compare(av, cv)
	})
	return strings.Join(args, "&")
}

// ipv4Form returns host as a dotted IPv4 address when surt reads it as one:
// all digits (a 32-bit number) or a dotted quad of decimal numbers up to
// 255; "" otherwise. (surt also asks the resolver about other numeric
// forms; a crawler's URLs, canonicalised by the WHATWG parser, never hold
// them.)
func ipv4Form(host string) string {
	if host != "" && allDigits(host) {
		n, err := strconv.ParseUint(host, 10, 64)
		if err != nil {
			return ""
		}
		n &= 0xffffffff
		return fmt.Sprintf("%d.%d.%d.%d", n>>24, n>>16&255, n>>8&255, n&255)
	}
	if net4(host) {
		for _, p := range strings.Split(host, ".") {
			if n, _ := strconv.Atoi(p); n > 255 {
				return ""
			}
		}
		return host
	}
	return ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// net4 reports whether host is a dotted IPv4 address, which SURT keeps in
// order.
func net4(host string) bool {
	parts := strings.Split(host, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || !allDigits(p) {
			return false
		}
	}
	return true
}
