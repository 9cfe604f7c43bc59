package archive

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
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
// pywb's index keys use it (the Internet Archive canonicalization):
// scheme and user info dropped, host lower-cased without a leading
// "www<digits>." and with its labels reversed and joined by commas, default
// port dropped, then ")" and the lower-cased path (without a trailing slash
// unless it is "/") and the lower-cased query with its arguments sorted. The
// fragment is dropped. Session-id stripping is not done. A URL that does not
// parse is returned lower-cased.
func SURT(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return strings.ToLower(rawURL)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if i := strings.Index(host, "."); i >= 3 && strings.HasPrefix(host, "www") && allDigits(host[3:i]) {
		host = host[i+1:]
	}
	var b strings.Builder
	if strings.Contains(host, ":") { // IPv6 literal
		b.WriteString("[" + host + "]")
	} else if net4(host) {
		b.WriteString(host)
	} else {
		labels := strings.Split(host, ".")
		slices.Reverse(labels)
		b.WriteString(strings.Join(labels, ","))
	}
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http") && !(p == "443" && u.Scheme == "https") {
		b.WriteString(":" + p)
	}
	b.WriteString(")")
	path := strings.ToLower(u.EscapedPath())
	if path == "" {
		path = "/"
	}
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	b.WriteString(path)
	if q := strings.ToLower(u.RawQuery); q != "" {
		args := strings.Split(q, "&")
		slices.SortFunc(args, func(a, c string) int {
			ak, av, aok := strings.Cut(a, "=")
			ck, cv, cok := strings.Cut(c, "=")
			if r := strings.Compare(ak, ck); r != 0 {
				return r
			}
			if aok != cok { // "k" sorts before "k=..."
				if !aok {
					return -1
				}
				return 1
			}
			return strings.Compare(av, cv)
		})
		b.WriteString("?" + strings.Join(args, "&"))
	}
	return b.String()
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
