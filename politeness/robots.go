package politeness

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/temoto/robotstxt"
)

// rules is a robots.txt reduced to what applies to one product token.
type rules struct {
	// group holds our Allow and Disallow rules; nil means allow all.
	group *robotstxt.Group
	// crawlDelay is the largest Crawl-delay of the groups that apply, 0 if
	// none.
	crawlDelay time.Duration
}

// allowed reports whether the URL path (with query) p, as returned by
// matchPath, may be fetched.
func (r rules) allowed(p string) bool {
	return r.group == nil || r.group.Test(p)
}

// anchor starts every rule and every path handed to temoto/robotstxt. temoto
// compiles wildcard rules into regular expressions that are not anchored at
// the start, so "/a*b" would match "/x/a/b". '^' never occurs in a
// normalised path (normPath encodes it as %5E), so a rule that starts with
// anchor can only match at the start of a path that does too.
const anchor = "/^"

// maxCrawlDelaySeconds keeps a huge Crawl-delay from overflowing
// time.Duration; Config.MaxCrawlDelay caps it far lower anyway.
const maxCrawlDelaySeconds = 1e6

// group is one group of a robots.txt file while it is pre-parsed.
type group struct {
	ours, star bool // names our product token; names "*"
	allow      []string
	disallow   []string
	delay      float64 // seconds, -1 if none
}

// parseRobots reads a robots.txt body leniently (RFC 9309 section 2.2) and
// returns the rules for product token. Lines it cannot use are skipped, as
// the RFC requires, instead of failing the whole file.
func parseRobots(body []byte, token string) (rules, error) {
	body = truncate(body)
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))

	var groups []*group
	var cur *group
	inAgents := false // the previous group line was a user-agent line
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key := strings.ToLower(string(bytes.TrimSpace(k)))
		val := string(bytes.TrimSpace(v))
		switch key {
		case "user-agent", "useragent", "user agent":
			if !inAgents {
				cur = &group{delay: -1}
				groups = append(groups, cur)
				inAgents = true
			}
			if strings.HasPrefix(val, "*") {
				cur.star = true
			} else if t := ProductToken(val); t != "" && t == token {
				cur.ours = true
			}
		case "allow", "disallow":
			inAgents = false
			if cur == nil || val == "" {
				continue
			}
			p := normPath(val)
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			if key == "allow" {
				cur.allow = append(cur.allow, p)
			} else {
				cur.disallow = append(cur.disallow, p)
			}
		case "crawl-delay", "crawldelay":
			inAgents = false
			if cur == nil {
				continue
			}
			d, err := strconv.ParseFloat(val, 64)
			if err != nil || d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
				continue
			}
			cur.delay = max(cur.delay, min(d, maxCrawlDelaySeconds))
		}
	}

	// RFC 9309 section 2.2.1: obey the groups that name our product token,
	// combined; failing that the "*" groups, combined; failing that, none.
	var use []*group
	for _, g := range groups {
		if g.ours {
			use = append(use, g)
		}
	}
	if len(use) == 0 {
		for _, g := range groups {
			if g.star {
				use = append(use, g)
			}
		}
	}

	var r rules
	delay := -1.0
	var canon strings.Builder
	canon.WriteString("User-agent: *\n")
	n := 0
	// Allow rules first: temoto keeps the first of equally specific rules,
	// and RFC 9309 section 2.2.2 says the Allow rule wins.
	for _, field := range []string{"Allow", "Disallow"} {
		for _, g := range use {
			list := g.allow
			if field == "Disallow" {
				list = g.disallow
			}
			for _, p := range list {
				fmt.Fprintf(&canon, "%s: %s%s\n", field, anchor, p)
				n++
			}
		}
	}
	for _, g := range use {
		delay = max(delay, g.delay)
	}
	if delay > 0 {
		r.crawlDelay = time.Duration(delay * float64(time.Second))
	}
	if n == 0 {
		return r, nil
	}
	data, err := robotstxt.FromString(canon.String())
	if err != nil {
		return rules{}, fmt.Errorf("parse robots.txt: %w", err)
	}
	r.group = data.FindGroup("*")
	return r, nil
}

// truncate cuts body to MaxRobotsSize, back to the last line break so that
// no rule is cut in half.
func truncate(body []byte) []byte {
	if len(body) <= MaxRobotsSize {
		return body
	}
	body = body[:MaxRobotsSize]
	if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
		body = body[:i]
	}
	return body
}

// normPath normalises the percent-encoding of a rule path or a URL path
// with query, so that the two compare octet by octet (RFC 9309 section
// 2.2.2): %-escapes of unreserved characters are decoded, other escapes are
// upper-cased, and octets that are not allowed in a URI path or query (and
// '^', which anchor uses) are percent-encoded. '*' and '$' are kept.
func normPath(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '%' || !keep(c) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[v>>4])
				b.WriteByte(hex[v&15])
			}
			i += 2
		case c != '%' && keep(c):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// keep reports whether c stands for itself in a normalised path.
func keep(c byte) bool { return keepTable[c] }

var keepTable = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isUnreserved(byte(c)) || strings.IndexByte("!$&'()*+,;=:@/?", byte(c)) >= 0
	}
	return t
}()

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}
