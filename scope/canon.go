package scope

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/langcrawl/langcrawl/internal/plainurl"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// Errors that Canonicalize and CanonicalizeRef wrap, with the URL, for errors.Is.
var (
	// ErrScheme is returned for URLs whose scheme is not http or https.
	ErrScheme = errors.New("scope: not an http or https URL")
	// ErrHost is returned for URLs with an empty host or one that DNS cannot hold.
	ErrHost = errors.New("scope: bad host")
	// ErrParse is returned for strings that are not URLs at all.
	ErrParse = errors.New("scope: cannot parse URL")
)

// parser is the WHATWG parser with the one lenience the crawler needs: a stray '%'
// becomes "%25" instead of staying bare (which net/url would refuse).
var parser = whatwg.NewParser(whatwg.WithPercentEncodeSinglePercentSign())

// Canonicalize parses the absolute URL raw and returns its canonical form (see the
// package documentation). The error names raw and wraps ErrParse, ErrScheme or ErrHost.
func Canonicalize(raw string) (*url.URL, error) {
	if u := plain(raw); u != nil {
		return u, nil
	}
	w, err := parser.Parse(raw)
	if err != nil {
		return nil, urlErr(raw, "", fmt.Errorf("%w: %s", ErrParse, parserReason(err)))
	}
	return finish(raw, w)
}

// CanonicalizeRef resolves ref (an href as found in a page) against base and returns
// the canonical form of the result. base is usually a URL that Canonicalize returned.
// The error names ref and wraps ErrParse, ErrScheme or ErrHost.
func CanonicalizeRef(base *url.URL, ref string) (*url.URL, error) {
	if base == nil {
		return Canonicalize(ref)
	}
	w, err := parser.ParseRef(base.String(), ref)
	if err != nil {
		return nil, urlErr(ref, base.String(), fmt.Errorf("%w: %s", ErrParse, parserReason(err)))
	}
	return finish(ref, w)
}

// plain returns the canonical form of raw without the WHATWG parser when
// raw is a plain absolute URL (plainurl.Absolute), whose canonical form is
// the parser's result as it is; nil otherwise. FuzzCanonicalizePlain
// checks it against the parser.
func plain(raw string) *url.URL {
	s, ok := plainurl.Absolute(raw)
	if !ok {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || u.String() != s {
		return nil
	}
	return u
}

// finish turns a parsed WHATWG URL into the canonical net/url form.
func finish(raw string, w *whatwg.Url) (*url.URL, error) {
	scheme := w.Scheme()
	if scheme != "http" && scheme != "https" {
		return nil, urlErr(raw, "", fmt.Errorf("%w (scheme %q)", ErrScheme, scheme))
	}
	host := w.Hostname()
	if !validHost(host) {
		return nil, urlErr(raw, "", fmt.Errorf("%w (host %q)", ErrHost, host))
	}
	var b strings.Builder
	b.Grow(len(raw) + 16)
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(host)
	if p := w.Port(); p != "" {
		b.WriteByte(':')
		b.WriteString(p)
	}
	path := w.Pathname()
	if path == "" {
		path = "/"
	}
	writePath(&b, path)
	// Href distinguishes "no query" from an empty one ("?"); Query does not.
	href := w.Href(true)
	if i := strings.IndexByte(href, '?'); i >= 0 {
		b.WriteByte('?')
		writeQuery(&b, href[i+1:])
	}
	s := b.String()
	u, err := url.Parse(s)
	if err != nil {
		return nil, urlErr(raw, "", fmt.Errorf("%w: %v", ErrParse, err))
	}
	if u.String() != s {
		// Not reachable for the inputs the WHATWG parser lets through; kept so that a
		// canonical URL always round-trips.
		return nil, urlErr(raw, "", fmt.Errorf("%w: %q does not round-trip", ErrParse, s))
	}
	return u, nil
}

// writePath writes p, percent-encoding the bytes that net/url would not keep as
// they are in an escaped path.
func writePath(b *strings.Builder, p string) {
	for i := 0; i < len(p); i++ {
		if c := p[i]; pathByteOK(c) {
			b.WriteByte(c)
		} else {
			plainurl.WriteEscape(b, c)
		}
	}
}

// pathByteOK reports whether c may stand bare in an RFC 3986 path (pchar
// and "/", section 3.3), '%' included: the parser has encoded a stray one.
// Not '[' and ']', which net/url keeps but RFC 3986 allows only in a host.
func pathByteOK(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-_.~$&+,/:;=@!'()*%", c) >= 0
}

// writeQuery writes the query q (without its '?') as an RFC 3986 query
// (section 3.4): the bytes the WHATWG parser leaves bare but RFC 3986 does
// not allow ('{', '}', '|', '^', '`', '\', '[', ']') are percent-encoded,
// and so is a '%' not followed by two hex digits. Escapes already there
// are kept as written.
func writeQuery(b *strings.Builder, q string) {
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '%':
			if i+2 < len(q) && isHex(q[i+1]) && isHex(q[i+2]) {
				b.WriteByte(c)
			} else {
				plainurl.WriteEscape(b, c)
			}
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0:
			b.WriteByte(c)
		default:
			plainurl.WriteEscape(b, c)
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// validHost reports whether h (as the WHATWG parser returns it: lowercase, punycode,
// IPv6 in brackets) is a host the crawler can connect to.
func validHost(h string) bool {
	if h == "" {
		return false
	}
	if h[0] == '[' {
		return len(h) > 2 && h[len(h)-1] == ']'
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// URLError is the error of Canonicalize and CanonicalizeRef: the URL
// refused, the base it was resolved against (for a reference), and why.
// Its message names the URL; Why is the reason alone, for a message that
// names the URL already (a bad seed: `FILE:LINE: seed "URL": why`).
type URLError struct {
	URL  string // the URL or reference as given
	Base string // the base a reference was resolved against; "" for an absolute URL
	Why  error  // wraps ErrParse, ErrScheme or ErrHost
}

func (e *URLError) Error() string {
	if e.Base != "" {
		return "canonicalize " + quote(e.URL) + " against " + quote(e.Base) + ": " + e.Why.Error()
	}
	return "canonicalize " + quote(e.URL) + ": " + e.Why.Error()
}

func (e *URLError) Unwrap() error { return e.Why }

func urlErr(raw, base string, why error) error {
	return &URLError{URL: raw, Base: base, Why: why}
}

// Why returns the reason err gives for refusing a URL, without the URL,
// when err is a URLError; err itself otherwise.
func Why(err error) error {
	var ue *URLError
	if errors.As(err, &ue) {
		err = ue.Why
	}
	// Said beside the seed it is about, the package's prefix ("scope:
	// not an http or https URL") reads as the profile's scope key (a
	// README trial); the error itself is kept for errors.Is.
	if msg, ok := strings.CutPrefix(err.Error(), "scope: "); ok {
		return reasonError{err: err, msg: msg}
	}
	return err
}

// reasonError is an error said without its package's prefix.
type reasonError struct {
	err error
	msg string
}

func (e reasonError) Error() string { return e.msg }
func (e reasonError) Unwrap() error { return e.err }

// parserReason is the WHATWG parser's account of a URL it refused, without
// the decoration it adds ("Error: " before, ". Url: '...'" after, which
// repeats the URL).
func parserReason(err error) string {
	s := strings.TrimPrefix(err.Error(), "Error: ")
	// The reason comes first and never holds this text; the URL after it
	// may.
	if i := strings.Index(s, ". Url: '"); i >= 0 {
		s = s[:i]
	}
	return s
}

// quote quotes s for an error message, shortening very long strings.
func quote(s string) string {
	const max = 256
	if len(s) > max {
		return fmt.Sprintf("%q...(%d bytes)", s[:max], len(s))
	}
	return fmt.Sprintf("%q", s)
}
