package crawl

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/langcrawl/langcrawl/detect"
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

// anchorDetector is fakeDetector for pages and the real detector for the
// anchor texts the crawl reads (text/plain), for a Danish crawl.
type anchorDetector struct {
	real *detect.Detector
	read *atomic.Int64 // anchors read
}

func (d anchorDetector) Detect(body []byte, ct string) detect.Result {
	if strings.HasPrefix(ct, "text/plain") {
		d.read.Add(1)
		return d.real.Detect(body, ct)
	}
	return fakeDetector{}.Detect(body, ct)
}

// TestAnchorLanguageOpensServer: for a target written in Latin letters
// the script test reads nothing in an anchor, so the anchor's language is
// read. A Danish sentence as an anchor on an English page, on a server
// with no Danish page yet, opens a new server (read as Danish at 0.9 or
// more: strong); a two-word anchor read as Danish under 0.9 opens one
// only beside another cue (a .dk host); a Danish anchor on a Bokmål page
// opens nothing (the two are told apart by their words, and a few words
// decide nothing between them), nor does an English one. Neither
// conservative-server nor the sequential strategy without
// focus.link_evidence reads anchors at all.
func TestAnchorLanguageOpensServer(t *testing.T) {
	real, err := detect.New(detect.Options{Targets: []string{"da"}})
	if err != nil {
		t.Fatal(err)
	}
	// The detector's readings the test rests on, so that a change to
	// the detector fails here with its reason, not as a crawl's.
	for _, tc := range []struct {
		text string
		min  float64
		max  float64
	}{
		{"Debat: Skolen skal have mere tid", focus.AnchorSure, 1},
		{"Ugens opskrift", focus.AnchorLikely, focus.AnchorSure},
	} {
		r := real.Detect([]byte(tc.text), "text/plain; charset=utf-8")
		if r.Lang != "da" || r.Confidence < tc.min || r.Confidence >= tc.max {
			t.Fatalf("%q read as %s at %.3f, want da in [%g, %g)", tc.text, r.Lang, r.Confidence, tc.min, tc.max)
		}
	}
	en := `<html lang="en"><body><p>Our partners:</p>` +
		`<p><a href="http://skole.test/">Debat: Skolen skal have mere tid</a></p>` +
		`<p><a href="http://opskrift.test/">Ugens opskrift</a></p>` +
		`<p><a href="http://opskrift.dk/">Ugens opskrift</a></p>` +
		`<p><a href="http://travel.test/">Travel Backpack 30L</a></p></body></html>`
	nb := `<html lang="nb"><body>` +
		`<p><a href="http://fromnb.test/">Debat: Skolen skal have mere tid</a></p></body></html>`
	web := fakeWeb{
		"http://en.test/":       "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + en,
		"http://skole.test/":    page("da"),
		"http://opskrift.test/": page("da"),
		"http://opskrift.dk/":   page("da"),
		"http://travel.test/":   page("en"),
		"http://nb.test/":       "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + nb,
		"http://fromnb.test/":   page("da"),
	}
	evidence := map[string]bool{"http://skole.test/": true, "http://opskrift.test/": false, "http://opskrift.dk/": true,
		"http://travel.test/": false, "http://fromnb.test/": false}
	none := map[string]bool{"http://skole.test/": false, "http://opskrift.test/": false, "http://opskrift.dk/": false,
		"http://travel.test/": false}
	for _, tc := range []struct {
		strategy focus.Strategy
		links    bool
		want     map[string]bool
		reads    bool
	}{
		{focus.Evidence, false, evidence, true},
		{focus.Sequential, true, evidence, true},
		{focus.Sequential, false, none, false},
		{focus.ConservativeServer, false, none, false},
	} {
		pol := mustPolicy(t, focus.Config{Strategy: tc.strategy, Langs: []string{"da"}, LinkEvidence: tc.links})
		det := anchorDetector{real: real, read: new(atomic.Int64)}
		h := newHarnessWith(t, det, web, Config{Focus: pol}, "http://en.test/", "http://nb.test/")
		if _, err := h.run(); err != nil {
			t.Fatal(err)
		}
		if !h.fetched("http://nb.test/") {
			t.Fatal("the Bokmål seed was not fetched")
		}
		for u, want := range tc.want {
			if got := h.fetched(u); got != want {
				t.Errorf("%s (link evidence %v): fetched %s: %v, want %v", tc.strategy, tc.links, u, got, want)
			}
		}
		if n := det.read.Load(); (n > 0) != tc.reads {
			t.Errorf("%s (link evidence %v): %d anchors read", tc.strategy, tc.links, n)
		}
	}
}

// TestThaiCrawlReadsNoAnchor: a target with a script of its own is read
// by the script test; no anchor goes to the detector.
func TestThaiCrawlReadsNoAnchor(t *testing.T) {
	web := fakeWeb{
		"http://en.test/":  page("en", "http://new.test/"),
		"http://new.test/": page("th"),
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.Evidence, Langs: []string{"th"}})
	det := anchorDetector{read: new(atomic.Int64)}
	h := newHarnessWith(t, det, web, Config{Focus: pol}, "http://en.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	if n := det.read.Load(); n != 0 {
		t.Errorf("%d anchors read for a Thai crawl", n)
	}
}
