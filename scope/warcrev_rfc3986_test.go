package scope

import (
	"net/url"
	"regexp"
	"testing"
)

// rfc3986 matches an absolute http(s) URI of RFC 3986 (section 3, appendix
// A): reg-name or IP-literal host, optional port, path of pchar and "/",
// query of pchar, "/" and "?", every '%' starting pct-encoded.
var rfc3986 = regexp.MustCompile(`^https?://(\[[0-9A-Fa-f:.]+\]|([A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(:[0-9]*)?` +
	`(/([A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*` +
	`(\?([A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$`)

// TestCanonicalURLIsRFC3986 (a WARC review): the canonical URL is what
// the crawl writes as WARC-Target-URI (and WARC-Refers-To-Target-URI and
// the index's url), which WARC 1.1 section 5 defines as "uri = <'URI' per
// RFC3986>" ("shall be written as specified in [RFC 3986]"), and which
// the package documentation promises: "a valid RFC 3986 URL", "a '%' not
// followed by two hex digits is encoded as %25". The WHATWG parser leaves
// '{', '}', '|', '^', '`', '\', '[', ']' and a stray '%' bare in a query,
// and '[' and ']' bare in a path, and so did the canonical form: jwarc's
// WarcTargetRecord.targetURI() (java.net.URI.create) throws on such a
// record. Percent-encoding them is what RFC 3986 (2.1, 2.4) asks of a
// producer; a server decodes them to the same bytes.
func TestCanonicalURLIsRFC3986(t *testing.T) {
	base, _ := url.Parse("http://odd.test/dir/")
	for _, ref := range []string{
		"/s?q={x}|y^z`w", "/s?a[]=1&b[c]=2", `/s?path=C:\x`, "/s?q=%zz&r=100%", "/p[1]/x",
		"/p|q{r}^s`t", "/s?q=a b", `/s?q="x"<y>`, "http://ไทย.test/ภาษา?q=ภาษา#frag", "/%7e?q=%7E&x=%41",
		"http://[::1]:8080/x?y=1",
	} {
		u, err := CanonicalizeRef(base, ref)
		if err != nil {
			t.Errorf("%q: %v", ref, err)
			continue
		}
		s := u.String()
		if !rfc3986.MatchString(s) {
			t.Errorf("%q canonicalizes to %q, not an RFC 3986 URI", ref, s)
		}
		if again, err := Canonicalize(s); err != nil || again.String() != s {
			t.Errorf("%q: canonical %q is not a fixed point (%v, %v)", ref, s, again, err)
		}
	}
	// Escapes already there are kept as written, as before.
	for in, want := range map[string]string{
		"http://odd.test/%7e?q=%7E&x=%41": "http://odd.test/%7e?q=%7E&x=%41",
		"http://odd.test/s?q={x}|y":       "http://odd.test/s?q=%7Bx%7D%7Cy",
		"http://odd.test/s?a[]=1":         "http://odd.test/s?a%5B%5D=1",
		"http://odd.test/s?q=%zz":         "http://odd.test/s?q=%25zz",
	} {
		if u, err := Canonicalize(in); err != nil || u.String() != want {
			t.Errorf("Canonicalize(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
}
