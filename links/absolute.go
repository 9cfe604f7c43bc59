package links

import "strings"

// fastAbsolute answers the commonest absolute reference, a link to
// another server written the way the WHATWG parser would print it
// ("http://news.example.co.th/a/b.html?x=1"), without running the parser:
// for such a reference its result is the reference itself. ok is false
// for any other reference, and resolve must decide. The shape accepted:
//
//   - "http://" or "https://", lower case;
//   - a host of lower-case letters, digits, '-' and '.', in non-empty
//     labels, with no port, no "xn--" label (the parser checks Punycode)
//     and a last label of letters only (the parser reads a host whose last
//     label looks like a number as an IPv4 address, and rewrites it);
//   - nothing more, or '/' and then a path and query of plainRefByte bytes
//     (nothing either parser escapes or rewrites) with no "." or ".."
//     segment and no "//".
//
// With no path the parser adds "/". FuzzFastAbsolute checks the result
// against the parser's.
func fastAbsolute(ref string) (abs string, ok bool) {
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
		if !plainRefByte[path[i]] {
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
// is (see fastAbsolute).
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
