package crawl

import (
	"fmt"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
)

// TestEvidenceCuesInTheLoop: a page detected as English that declares Thai
// (Content-Language), on a server with no Thai page yet, may open a new
// server when its link carries one more cue for Thai (a .th host, Thai
// text around it), and only then; so does the sequential strategy with
// focus.link_evidence; conservative-server, and the sequential strategy
// without it, open none of them (step 4.5).
func TestEvidenceCuesInTheLoop(t *testing.T) {
	body := `<html lang="en"><body>` +
		`<p><a href="http://new.co.th/">shop</a></p>` +
		`<p>ร้านค้า <a href="http://around.test/">shop</a> ออนไลน์</p>` +
		`<p><a href="http://plain.test/">shop</a></p></body></html>`
	web := fakeWeb{
		"http://en.test/": fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Language: th, en\r\nContent-Length: %d\r\n\r\n%s",
			len(body), body),
		"http://new.co.th/":   page("th"),
		"http://around.test/": page("th"),
		"http://plain.test/":  page("th"),
	}
	for _, tc := range []struct {
		strategy focus.Strategy
		links    bool // focus.Config.LinkEvidence
		want     map[string]bool
	}{
		{focus.Evidence, false, map[string]bool{"http://new.co.th/": true, "http://around.test/": true, "http://plain.test/": false}},
		{focus.Sequential, true, map[string]bool{"http://new.co.th/": true, "http://around.test/": true, "http://plain.test/": false}},
		{focus.Sequential, false, map[string]bool{"http://new.co.th/": false, "http://around.test/": false, "http://plain.test/": false}},
		{focus.ConservativeServer, false, map[string]bool{"http://new.co.th/": false, "http://around.test/": false, "http://plain.test/": false}},
	} {
		pol := mustPolicy(t, focus.Config{Strategy: tc.strategy, Langs: []string{"th"}, LinkEvidence: tc.links})
		h := newHarness(t, web, Config{Focus: pol}, "http://en.test/")
		if _, err := h.run(); err != nil {
			t.Fatal(err)
		}
		for u, want := range tc.want {
			if got := h.fetched(u); got != want {
				t.Errorf("%s (link evidence %v): fetched %s: %v, want %v", tc.strategy, tc.links, u, got, want)
			}
		}
	}
}

func TestDeclaredLang(t *testing.T) {
	for _, tc := range []struct{ header, html, want string }{
		{"", "", ""},
		{"", "th", "th"},
		{"th-TH", "en", "th-TH"},
		{" en , th", "th", "en"},
		{" , th", "lo", "lo"},
	} {
		if got := declaredLang(tc.header, tc.html); got != tc.want {
			t.Errorf("declaredLang(%q, %q) = %q, want %q", tc.header, tc.html, got, tc.want)
		}
	}
}
