package archive

import "testing"

// TestSURTStrayPercent (from a review of the session's diff): a WARC-Target-URI with a '%' that starts
// no escape ("100%off", as wget and older crawlers archive it; `langcrawl
// index` indexes such WARC files) made net/url refuse the URL, and SURT
// returned the URL itself, lower-cased: a key that sorts among the "h"s
// and that pywb, which decodes and re-escapes the stray '%' as "%25",
// never looks up. Each want is pywb 2.9.1's surt.surt.
func TestSURTStrayPercent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://example.com/100%off", "com,example)/100%25off"},
		{"http://example.com/a%", "com,example)/a%25"},
		{"http://example.com/a%2", "com,example)/a%252"},
		{"http://www.Example.com/S%zz/x?b=1&a=%", "com,example)/s%25zz/x?a=%25&b=1"},
	} {
		if got := SURT(tc.in); got != tc.want {
			t.Errorf("SURT(%q) = %q; pywb's key %q", tc.in, got, tc.want)
		}
	}
}
