package archive

import "testing"

// TestSURTIsPywbKey (from a replay review): the key of every index line langcrawl writes
// (index.cdxj, `langcrawl index`, the WACZ's index) must be the key pywb
// 2.9.1 looks the URL up with, surt.surt(url) (pywb/utils/canonicalize.py),
// or pywb never finds the line: `wb-manager add --unpack-wacz` merges the
// WACZ's index as it is, and a collection given index.cdxj reads it as it is.
// Each want below is what surt 0.3.1, the one pywb 2.9.1 installs from
// ../shared/pywb, returns for the URL: as the crawler archives it
// (WARC-Target-URI, percent-escapes kept as written).
// TestWACZKeysFoundByPywb replays such URLs from a WACZ in pywb itself.
func TestSURTIsPywbKey(t *testing.T) {
	tests := []struct{ in, want string }{
		// surt decodes percent-escapes and re-escapes only what must be.
		{"http://odd.test/%7Euser/", "test,odd)/~user"},
		{"http://odd.test/a%2Fb", "test,odd)/a/b"},
		{"http://odd.test/a%3Fb", "test,odd)/a?b"},
		{"http://odd.test/%41%42", "test,odd)/ab"},
		{"http://odd.test/pct%2525", "test,odd)/pct%25"},
		{"http://odd.test/upper?Q=%7e", "test,odd)/upper?q=~"},
		{"http://odd.test/q4?a=%3D&b=%26", "test,odd)/q4?&a==&b="},
		// Empty path segments go.
		{"http://odd.test/double//slash", "test,odd)/double/slash"},
		// Session ids are stripped.
		{"http://odd.test/y?PHPSESSID=0123456789abcdef0123456789abcdef", "test,odd)/y"},
		{"http://odd.test/q6?sid=0123456789abcdef0123456789abcdef", "test,odd)/q6"},
		{"http://odd.test/x?a=1&jsessionid=ABCDEF0123456789ABCDEF0123456789&b=2", "test,odd)/x?a=1&b=2"},
		{"http://odd.test/cart?cfid=1234&cftoken=5678", "test,odd)/cart"},
		{"http://odd.test/(S(abcdefghijklmnopqrstuvwx))/page.aspx", "test,odd)/page.aspx"},
		// IPv4 addresses are reversed like host names.
		{"http://93.184.216.34/ip", "34,216,184,93)/ip"},
		// Already agreeing: kept so that a fix does not break them.
		{"http://odd.test/%E0%B8%97%E0%B8%94", "test,odd)/%e0%b8%97%e0%b8%94"},
		{"http://odd.test/q1?q=a+b&Z=%20", "test,odd)/q1?q=a+b&z=%20"},
		{"http://www.Example.co.th/News/?page=2&cat=1", "th,co,example)/news?cat=1&page=2"},
	}
	for _, tc := range tests {
		if got := SURT(tc.in); got != tc.want {
			t.Errorf("SURT(%q) = %q; pywb 2.9.1 looks it up as %q", tc.in, got, tc.want)
		}
	}
}
