package links

import "testing"

// FuzzFastAbsolute checks that fastAbsolute, where it answers, answers as
// the WHATWG parser does.
func FuzzFastAbsolute(f *testing.F) {
	for _, s := range []string{"http://a.test", "http://a.test/", "https://news.a.co.th/x/y.html?q=1&r=2",
		"http://a.test/./x", "http://a.test/a/../b", "http://a.test//x", "http://A.test/", "http://a.test:80/",
		"http://1.2.3", "http://a.0x10/", "http://xn--o3cw4h.test/", "http://a..b/", "http://-0", "http://a.b-1/", "http://a.test/x?y//z",
		"http://a.test/.x/..y", "http://a-b.test/~u/@x;y,z+w", "http://a.test.", "http://a.test/x/..", "http://-0", "http://a.b-1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		got, ok := fastAbsolute(ref)
		if !ok {
			return
		}
		want, wok := resolve(nil, ref)
		if !wok || got != want {
			t.Fatalf("ref %q: fast %q, WHATWG %q (ok %v)", ref, got, want, wok)
		}
	})
}

// TestFastAbsoluteAnswers makes sure the fast path is taken for plain
// absolute links, so that FuzzFastAbsolute tests something, and refused
// for what the parser may rewrite.
func TestFastAbsoluteAnswers(t *testing.T) {
	for ref, want := range map[string]string{
		"http://a.test":                       "http://a.test/",
		"https://news.a.co.th/x/y.html?q=1&r": "https://news.a.co.th/x/y.html?q=1&r",
		"http://a.test/x?y//z":                "http://a.test/x?y//z",
	} {
		if got, ok := fastAbsolute(ref); !ok || got != want {
			t.Errorf("%q: fast path gave %q, %v; want %q", ref, got, ok, want)
		}
	}
	for _, ref := range []string{"http://A.test/", "http://a.test:80/", "http://1.2.3", "http://a.0x10/",
		"http://xn--o3cw4h.test/", "http://a..b/", "http://-0", "http://a.b-1/", "http://a.test/./x", "http://a.test/a/../b", "http://a.test//x",
		"http://a.test/%41", "http://a.test/x#f", "ftp://a.test/", "HTTP://a.test/", "http://u@a.test/", "page.html", ""} {
		if got, ok := fastAbsolute(ref); ok {
			t.Errorf("%q: fast path taken (%q)", ref, got)
		}
	}
}
