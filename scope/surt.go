package scope

import (
	"fmt"
	"net/url"
	"strings"
)

// SURT returns the Sort-friendly URI Reordering Transform of the canonical
// URL u, as Heritrix writes it: the host's labels reversed, each followed
// by a comma, inside parentheses, then the port (when not the default),
// the path and the query.
//
//	http://www.example.co.th/a?b   -> http://(th,co,example,www,)/a?b
//	http://example.com:8080/       -> http://(com,example,:8080)/
//	http://127.0.0.1/x             -> http://(127.0.0.1,)/x
//
// An IP address is not reversed.
func SURT(u *url.URL) string {
	return u.Scheme + "://" + surtBody(u)
}

// surtBody is SURT without "scheme://".
func surtBody(u *url.URL) string {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(surtHost(u.Hostname()))
	if p := u.Port(); p != "" && p != defaultPort(u.Scheme) {
		b.WriteString(":" + p)
	}
	b.WriteString(")")
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	b.WriteString(p)
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteString("?" + u.RawQuery)
	}
	return b.String()
}

// surtHost reverses the labels of host, each followed by a comma:
// "www.example.com" -> "com,example,www,". IP addresses stay as they are.
func surtHost(host string) string {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if isIP(h) {
		if strings.Contains(h, ":") {
			h = "[" + h + "]"
		}
		return h + ","
	}
	labels := strings.Split(h, ".")
	var b strings.Builder
	for i := len(labels) - 1; i >= 0; i-- {
		b.WriteString(labels[i])
		b.WriteString(",")
	}
	return b.String()
}

// SURTPrefix turns a SURT prefix as an operator writes it into the form
// the Decider compares: without the scheme, the host part lowercased. The
// scheme is not compared, so http://(th,co, and https://(th,co, are the
// same prefix, and it may be left out: (th,co,.
//
// A rule without "(" is a plain URL or host name and is converted as
// Heritrix converts seeds: with no path it is open at the end of the host
// (www.example.com -> (com,example,www, which also covers every host under
// www.example.com); with a path it stops after the path's last '/'
// (http://example.com/a/b -> (com,example,)/a/).
//
// The error wraps ErrRule.
func SURTPrefix(rule string) (string, error) {
	r := strings.TrimSpace(rule)
	if r == "" || strings.ContainsAny(r, " \t\r\n") {
		return "", fmt.Errorf("%w: SURT prefix %q: empty or has spaces", ErrRule, rule)
	}
	if strings.Contains(r, "(") {
		if i := strings.Index(r, "://"); i >= 0 && i < strings.Index(r, "(") {
			r = r[i+3:]
		}
		if !strings.HasPrefix(r, "(") {
			return "", fmt.Errorf("%w: SURT prefix %q: want the form http://(th,co, or (th,co,", ErrRule, rule)
		}
		host, rest, closed := strings.Cut(r, ")")
		if !validSURTHost(host[1:]) {
			return "", fmt.Errorf("%w: SURT prefix %q: bad host part %q", ErrRule, rule, host)
		}
		r = strings.ToLower(host)
		if closed {
			r += ")" + rest
		}
		return r, nil
	}
	raw := r
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := Canonicalize(raw)
	if err != nil {
		return "", fmt.Errorf("%w: SURT prefix %q: %v", ErrRule, rule, err)
	}
	_, rest, _ := strings.Cut(raw, "://")
	hasPath := strings.ContainsAny(rest, "/?")
	host := "(" + surtHost(u.Hostname())
	if p := u.Port(); p != "" && p != defaultPort(u.Scheme) {
		host += ":" + p
	}
	if !hasPath {
		return host, nil
	}
	p := u.EscapedPath()
	return host + ")" + p[:strings.LastIndexByte(p, '/')+1], nil
}

// validSURTHost accepts the host part of a SURT prefix: labels, commas, a
// port after ':', brackets of an IPv6 address.
func validSURTHost(h string) bool {
	for _, c := range strings.ToLower(h) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', strings.ContainsRune("-_.,:[]", c):
		default:
			return false
		}
	}
	return true
}
