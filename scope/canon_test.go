package scope

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestCanonicalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"case", "HTTP://Www.Example.COM/Path/File.HTML", "http://www.example.com/Path/File.HTML"},
		{"idn", "http://Bücher.de/x", "http://xn--bcher-kva.de/x"},
		{"idn thai", "http://ตัวอย่าง.ไทย/", "http://xn--72c1a1bt4awk9o.xn--o3cw4h/"},
		{"punycode kept", "http://xn--bcher-kva.de/", "http://xn--bcher-kva.de/"},
		{"default http port", "http://example.com:80/a", "http://example.com/a"},
		{"default https port", "https://example.com:443/a", "https://example.com/a"},
		{"other port kept", "http://example.com:8080/a", "http://example.com:8080/a"},
		{"https on 80 kept", "https://example.com:80/", "https://example.com:80/"},
		{"empty port", "http://example.com:/a", "http://example.com/a"},
		{"empty path", "http://example.com", "http://example.com/"},
		{"dot segments", "http://example.com/a/./b/../c/", "http://example.com/a/c/"},
		{"dot segments above root", "http://example.com/../../a", "http://example.com/a"},
		{"encoded dot segment", "http://example.com/a/%2e%2E/b", "http://example.com/b"},
		{"fragment dropped", "http://example.com/a?b=1#frag", "http://example.com/a?b=1"},
		{"query order kept", "http://example.com/s?z=1&a=2&z=0", "http://example.com/s?z=1&a=2&z=0"},
		{"empty query kept", "http://example.com/s?", "http://example.com/s?"},
		{"space encoded", "http://example.com/a b?c d", "http://example.com/a%20b?c%20d"},
		{"utf8 encoded", "http://example.com/é?q=é", "http://example.com/%C3%A9?q=%C3%A9"},
		{"escapes kept as written", "http://example.com/%7e%7E/%41", "http://example.com/%7e%7E/%41"},
		{"stray percent", "http://example.com/100%/x%2", "http://example.com/100%25/x%252"},
		{"pipe and caret", "http://example.com/a|b^c", "http://example.com/a%7Cb%5Ec"},
		{"backslash", `http://example.com\a\b`, "http://example.com/a/b"},
		{"whitespace trimmed", " \thttp://example.com/a\n ", "http://example.com/a"},
		{"tab in path removed", "http://example.com/a\tb", "http://example.com/ab"},
		{"userinfo dropped", "http://user:pw@example.com/", "http://example.com/"},
		{"ipv4 normalised", "http://0x7F.1/", "http://127.0.0.1/"},
		{"ipv6", "http://[0:0::1]:80/", "http://[::1]/"},
		{"percent-encoded host", "http://%65xample.com/", "http://example.com/"},
		{"missing slashes", "http:example.com/a", "http://example.com/a"},
		{"trailing dot host kept", "http://example.com./", "http://example.com./"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := Canonicalize(tt.in)
			if err != nil {
				t.Fatalf("Canonicalize(%q): %v", tt.in, err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("Canonicalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			// A canonical URL is a fixed point.
			again, err := Canonicalize(u.String())
			if err != nil || again.String() != u.String() {
				t.Errorf("Canonicalize(%q) = %v, %v; not idempotent", u, again, err)
			}
		})
	}
}

func TestCanonicalizeErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     error
	}{
		{"empty", "", ErrParse},
		{"relative", "/a/b", ErrParse},
		{"no scheme", "example.com/a", ErrParse},
		{"ftp", "ftp://example.com/", ErrScheme},
		{"javascript", "javascript:alert(1)", ErrScheme},
		{"mailto", "mailto:a@example.com", ErrScheme},
		{"data", "data:text/html,hi", ErrScheme},
		{"file", "file:///etc/passwd", ErrScheme},
		{"space in host", "http://exa mple.com/", ErrParse},
		{"port out of range", "http://example.com:70000/", ErrParse},
		{"bad port", "http://example.com:8x/", ErrParse},
		{"empty host", "http:///", ErrParse},
		{"brace in host", "http://a{b}.com/", ErrHost},
		{"bad ipv6", "http://[::1/", ErrParse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := Canonicalize(tt.in)
			if err == nil {
				t.Fatalf("Canonicalize(%q) = %q, want error", tt.in, u)
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("Canonicalize(%q) error %v, want %v", tt.in, err, tt.want)
			}
			if !strings.Contains(err.Error(), quote(tt.in)) {
				t.Errorf("error %q does not name the URL %q", err, tt.in)
			}
			if !strings.HasPrefix(err.Error(), "canonicalize ") {
				t.Errorf("error %q does not say what was being done", err)
			}
		})
	}
}

func TestCanonicalizeRef(t *testing.T) {
	base, err := url.Parse("http://example.com/dir/page.html?x=1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref, want string
		err       error
	}{
		{ref: "other.html", want: "http://example.com/dir/other.html"},
		{ref: "../up.html", want: "http://example.com/up.html"},
		{ref: "/abs", want: "http://example.com/abs"},
		{ref: "//OTHER.example.org/p", want: "http://other.example.org/p"},
		{ref: "?y=2", want: "http://example.com/dir/page.html?y=2"},
		{ref: "#top", want: "http://example.com/dir/page.html?x=1"},
		{ref: "", want: "http://example.com/dir/page.html?x=1"},
		{ref: "https://example.com:443/s", want: "https://example.com/s"},
		{ref: `sub\file`, want: "http://example.com/dir/sub/file"},
		{ref: "javascript:void(0)", err: ErrScheme},
		{ref: "mailto:me@example.com", err: ErrScheme},
		{ref: "http://exa mple.com/", err: ErrParse},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			u, err := CanonicalizeRef(base, tt.ref)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("CanonicalizeRef(%q) = %v, %v; want error %v", tt.ref, u, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("CanonicalizeRef(%q): %v", tt.ref, err)
			}
			if u.String() != tt.want {
				t.Errorf("CanonicalizeRef(%q) = %q, want %q", tt.ref, u, tt.want)
			}
		})
	}
	if u, err := CanonicalizeRef(nil, "HTTP://A.example/"); err != nil || u.String() != "http://a.example/" {
		t.Errorf("CanonicalizeRef(nil, abs) = %v, %v", u, err)
	}
}

func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{
		"http://example.com/", "HTTP://Www.Example.COM:80/a/../b?q#f", "http://bücher.de/",
		"http://[::1]:8080/x", "http://example.com/%zz|^", "https://a.b/?", "http://0x7f.1/",
		"javascript:x", "http://a.com/a/b/a/b/a/b/", "http://u:p@h/", "http://a.com./%2e%2e/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Canonicalize(raw)
		if err != nil {
			return
		}
		s := u.String()
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("Canonicalize(%q) = %q: scheme %q", raw, s, u.Scheme)
		}
		if u.Host == "" || u.Fragment != "" || u.User != nil {
			t.Fatalf("Canonicalize(%q) = %q: host %q fragment %q user %v", raw, s, u.Host, u.Fragment, u.User)
		}
		again, err := Canonicalize(s)
		if err != nil {
			t.Fatalf("Canonicalize(%q) = %q, which does not canonicalise: %v", raw, s, err)
		}
		if again.String() != s {
			t.Fatalf("not idempotent: %q -> %q -> %q", raw, s, again)
		}
		back, err := url.Parse(s)
		if err != nil || back.String() != s {
			t.Fatalf("net/url does not round-trip %q: %v, %v", s, back, err)
		}
		// The keys never panic and are consistent with the URL.
		if k := QueryKey(u); (k == "") != (u.RawQuery == "" && !u.ForceQuery) {
			t.Fatalf("QueryKey(%q) = %q", s, k)
		}
		if d := DirKey(u); !strings.HasPrefix(d, SiteKey(u)+"/") {
			t.Fatalf("DirKey(%q) = %q, SiteKey %q", s, d, SiteKey(u))
		}
		_ = DefaultRules().Trap(u)
		_ = RegisteredDomain(u.Hostname())
	})
}

// FuzzCanonicalizePlain checks that the plain-URL shortcut (plain) gives
// what the WHATWG parser gives, wherever it answers.
func FuzzCanonicalizePlain(f *testing.F) {
	for _, s := range []string{"http://a.test", "https://news.a.co.th/x/y.html?q=1&r=2", "http://a.test/./x",
		"http://a.test//x", "http://A.test/", "http://a.test:80/", "http://1.2.3", "http://-0", "http://xn--o3cw4h.test/",
		"http://a.test/x?y//z", "http://a-b.test/~u/@x;y,z+w", "http://a.test/x?", "http://a.test?q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := plain(raw)
		if got == nil {
			return
		}
		w, err := parser.Parse(raw)
		if err != nil {
			t.Fatalf("plain(%q) = %q; the parser refuses it: %v", raw, got, err)
		}
		want, err := finish(raw, w)
		if err != nil || want.String() != got.String() {
			t.Fatalf("plain(%q) = %q; the parser gives %v, %v", raw, got, want, err)
		}
	})
}

// TestCanonicalizePlainAnswers makes sure the shortcut is taken for plain
// URLs, so that FuzzCanonicalizePlain tests something.
func TestCanonicalizePlainAnswers(t *testing.T) {
	for raw, want := range map[string]string{
		"http://a.test":                   "http://a.test/",
		"https://news.a.co.th/x/y?q=1&r=": "https://news.a.co.th/x/y?q=1&r=",
	} {
		if u := plain(raw); u == nil || u.String() != want {
			t.Errorf("plain(%q) = %v, want %q", raw, u, want)
		}
	}
	for _, raw := range []string{"http://A.test/", "http://a.test:80/", "http://a.test/%41", "http://1.2.3"} {
		if u := plain(raw); u != nil {
			t.Errorf("plain(%q) = %q, want the parser to decide", raw, u)
		}
	}
}

func BenchmarkCanonicalize(b *testing.B) {
	urls := []string{
		"HTTP://Www.Example.COM:80/a/./b/../c/index.php?id=2&lang=th#top",
		"http://ตัวอย่าง.ไทย/หน้า/ข่าว.html",
		"https://example.co.th/news/2024/05/article-12345.html",
		"http://example.com/search?q=%E0%B8%82&page=3",
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := Canonicalize(urls[i%len(urls)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// TestURLErrorWhy: a refused URL's error names it once, keeps its kind for
// errors.Is, and Why gives the reason alone, without the WHATWG parser's
// decoration, for messages that name the URL themselves.
func TestURLErrorWhy(t *testing.T) {
	for _, c := range []struct {
		raw  string
		kind error
	}{{"http://[::1", ErrParse}, {"http://x.test:99999/", ErrParse}, {"ftp://x.test/", ErrScheme},
		{"http://[::1/. Url: 'zz", ErrParse}} { // a URL holding the parser's own decoration
		_, err := Canonicalize(c.raw)
		if !errors.Is(err, c.kind) || !errors.Is(Why(err), c.kind) {
			t.Errorf("%s: %v, want %v from the error and its Why", c.raw, err, c.kind)
			continue
		}
		if n := strings.Count(err.Error(), c.raw); n != 1 {
			t.Errorf("%s: error %q names the URL %d times, want once", c.raw, err, n)
		}
		if w := Why(err).Error(); strings.Contains(w, c.raw) || strings.Contains(w, "Url: '") || strings.Contains(w, "Error: ") {
			t.Errorf("%s: Why = %q, want the reason alone", c.raw, w)
		}
	}
	if err := errors.New("other"); Why(err) != err {
		t.Error("Why changed an error that is not a URLError")
	}
}
