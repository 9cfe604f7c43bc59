package scope

import (
	"net/url"
	"testing"
)

// TestSeenKey: the spellings of one resource share a key; what may name
// another resource does not.
func TestSeenKey(t *testing.T) {
	same := [][]string{
		{"http://a.test/~u/", "http://a.test/%7eu/", "http://a.test/%7Eu/"},
		{"http://a.test/b/B.html", "http://a.test/b/%42.html"},
		{"http://a.test/g.html", "http://a.test/g.html?"},
		{"http://a.test/x.jsp", "http://a.test/x.jsp;jsessionid=0123456789ABCDEF0123456789ABCDEF"},
		{"http://a.test/p.php?id=1", "http://a.test/p.php?id=1&PHPSESSID=0123456789abcdef01234567ab", "http://a.test/p.php?PHPSESSID=x&id=1"},
		{"http://a.test/q?a=1", "http://a.test/q?a=1&sid=0123456789abcdef0123456789abcdef"},
		{"http://a.test/c?x=1", "http://a.test/c?x=1&CFID=12&CFTOKEN=34"},
		{"http://a.test/page.html", "http://www.a.test/page.html", "http://www2.a.test/page.html"},
		{"http://a.test/%c3%a9", "http://a.test/%C3%A9"},
	}
	for _, group := range same {
		k := key(t, group[0])
		for _, u := range group[1:] {
			if got := key(t, u); got != k {
				t.Errorf("SeenKey(%s) = %s, SeenKey(%s) = %s: want one key", group[0], k, u, got)
			}
		}
	}
	apart := [][2]string{
		{"http://a.test/A.html", "http://a.test/a.html"},
		{"http://a.test/q?a=1&b=2", "http://a.test/q?b=2&a=1"},
		{"http://a.test/d/", "http://a.test/d/index.html"},
		{"http://a.test/t", "http://a.test/t/"},
		{"http://a.test/k", "https://a.test/k"},
		{"http://a.test/k", "http://a.test/k?utm_source=x"},
		{"http://a.test/", "http://www.a.test/"}, // home pages: both fetched
		{"http://www.test/x", "http://test/x"},   // www is the registered name
		{"http://a.test/q?sid=short", "http://a.test/q"},
		{"http://a.test/%2F", "http://a.test//"},
	}
	for _, p := range apart {
		if key(t, p[0]) == key(t, p[1]) {
			t.Errorf("SeenKey(%s) = SeenKey(%s) = %s: want two keys", p[0], p[1], key(t, p[0]))
		}
	}
}

func key(t testing.TB, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return SeenKey(u)
}

// BenchmarkSeenKey is the key's cost per link, on a plain link and on
// one with a session id and escapes.
func BenchmarkSeenKey(b *testing.B) {
	for _, raw := range []string{"http://www.example.co.th/news/2026/11/story-1234.html", "http://www.example.co.th/a%7eb/x.jsp;jsessionid=0123456789ABCDEF0123456789ABCDEF?id=7&PHPSESSID=abc"} {
		u, _ := url.Parse(raw)
		b.Run(u.Path[:6], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				SeenKey(u)
			}
		})
	}
}
