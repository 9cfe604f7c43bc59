// Package plainurl recognises URLs written the way the WHATWG URL parser
// (https://url.spec.whatwg.org/) would print them, so that links and scope
// can skip the parser, the costliest step of link extraction, for the
// commonest links. It is internal: both leaves use it, and neither may
// import the other.
package plainurl

import "strings"

// Absolute answers for the commonest absolute reference, a link to
// another server written the way the WHATWG parser would print it
// ("http://news.example.co.th/a/b.html?x=1"): for such a reference the
// parser's result is the reference itself, or with "/" added when it has
// no path. ok is false for any other reference, which the parser must
// decide. The shape accepted:
//
//   - "http://" or "https://", lower case;
//   - a host of lower-case letters, digits, '-' and '.', in non-empty
//     labels, with no port, no "xn--" label (the parser checks Punycode)
//     and a last label of letters only (the parser reads a host whose last
//     label looks like a number as an IPv4 address, and rewrites it);
//   - nothing more, or '/' and then a path and query of RefByte bytes
//     with no "." or ".." segment and no "//" in the path.
//
// The fuzz tests of packages links and scope check it against the parser.
func Absolute(ref string) (abs string, ok bool) {
	rest, found := strings.CutPrefix(ref, "http://")
	if !found {
		if rest, found = strings.CutPrefix(ref, "https://"); !found {
			return "", false
		}
	}
	host, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	if !plainHost(host) {
		return "", false
	}
	if path == "" {
		return ref + "/", true
	}
	p, _, _ := strings.Cut(path, "?")
	if strings.Contains(p, "//") {
		return "", false
	}
	for i := 0; i < len(path); i++ {
		if !refByte[path[i]] {
			return "", false
		}
	}
	for seg := range strings.SplitSeq(p[1:], "/") {
		if seg == "." || seg == ".." {
			return "", false
		}
	}
	return ref, true
}

// plainHost reports whether h is a host name the WHATWG parser keeps as it
// is (see Absolute).
func plainHost(h string) bool {
	if h == "" {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || strings.HasPrefix(label, "xn--") {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	// A top-level label of letters only: nothing the parser could read as
	// a number ("1", "0x1f", even "-0") and so as an IPv4 address.
	for _, c := range []byte(h[strings.LastIndexByte(h, '.')+1:]) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// refByte holds the bytes a plain path and query may consist of: those
// that neither the WHATWG nor the RFC 3986 parser escapes, rewrites or
// gives a meaning the other does not ("/", "?", "=", "&" and "." alike in
// both); not ":" (schemes, ports), "%", "#", backslashes, quotes, spaces
// or controls.
var refByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-._~/?=&+,;@" {
		t[c] = true
	}
	return t
}()

// RefByte reports whether c may stand in a plain path or query.
func RefByte(c byte) bool { return refByte[c] }
