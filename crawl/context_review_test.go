package crawl

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/links"
)

// TestNeighbourDescriptionOpensNothing (from a review): in "A (about A),
// B (about B)" the text between two links is the first one's. A first
// version gave it to both: on an English page listing sites inline, a
// Danish description of the first site was read as the second's text
// around, at AnchorSure, and opened the second, English, server.
func TestNeighbourDescriptionOpensNothing(t *testing.T) {
	real := realDetector(t, "da")
	const desc = "Her kan du læse om skolen og hvad der sker"
	// The description reads as Danish at AnchorSure: given to the
	// travel link, it would open its server.
	if r := real.Detect([]byte("("+desc+"),"), "text/plain; charset=utf-8"); r.Lang != "da" || min(r.Confidence, r.RivalConfidence) < focus.AnchorSure {
		t.Fatalf("precondition: the description read as %s %.3f (rival %s %.3f)", r.Lang, r.Confidence, r.Rival, r.RivalConfidence)
	}
	en := `<html lang="en"><body><h1>Links</h1>` +
		`<p>Sites we like: <a href="http://skole.test/">www.skoledebat.com</a> (` + desc + `), ` +
		`<a href="http://travel.test/">www.travel-bags.com</a> (bags), ` +
		`<a href="http://recipes.test/">www.recipes-online.com</a>.</p></body></html>`
	u, _ := url.Parse("http://en.test/")
	ctx := map[string]string{}
	for _, l := range links.Extract(u, []byte(en), links.Options{}).Links {
		ctx[l.URL] = l.Context
	}
	if c := ctx["http://travel.test/"]; strings.Contains(c, "skolen") {
		t.Errorf("the travel link's text around holds the first link's description: %q", c)
	}
	web := fakeWeb{"http://en.test/": htmlResponse(en), "http://skole.test/": page("da"),
		"http://travel.test/": page("en"), "http://recipes.test/": page("en")}
	h, _ := anchorCrawl(t, real, "", focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}}, web, "http://en.test/")
	if !h.fetched("http://skole.test/") {
		t.Error("the Danish site, described in Danish after its link, was not opened")
	}
	for _, u := range []string{"http://travel.test/", "http://recipes.test/"} {
		if h.fetched(u) {
			t.Errorf("English server %s opened by another link's Danish description (context %q)", u, ctx[u])
		}
	}
}

// TestContextNotReadAfterSureAnchor (from a review): the anchor and the text around
// count as one cue, the stronger reading (focus.Policy.Score). Once the
// anchor is read as the target at AnchorSure (the most a reading gives),
// reading the text around cannot change the score; yet it is read when
// another cue (a .de host) leaves the link short of Strong. A wasted
// detection and a slot of the page's cap.
func TestContextNotReadAfterSureAnchor(t *testing.T) {
	real := realDetector(t, "da")
	const anchor = "Debat: Skolen skal have mere tid"
	if r := real.Detect([]byte(anchor), "text/plain; charset=utf-8"); r.Lang != "da" || min(r.Confidence, r.RivalConfidence) < focus.AnchorSure {
		t.Fatalf("precondition: %q read as %s %.3f", anchor, r.Lang, r.Confidence)
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}})
	l := focus.Link{URL: "http://skole.de/", Anchor: anchor, AnchorLang: "da", AnchorConfidence: 0.95,
		Context: "– Her kan du læse om skolen og hvad der sker"}
	base := pol.Score(l)
	if base >= focus.Strong {
		t.Fatalf("precondition: score %d with the anchor read", base)
	}
	l.ContextLang, l.ContextConfidence = "da", 0.99
	if s := pol.Score(l); s != base {
		t.Fatalf("precondition: the text around changed the score %d → %d", base, s)
	}
	en := `<html lang="en"><body><ul><li><a href="http://skole.de/">` + anchor + `</a> – Her kan du læse om skolen og hvad der sker</li></ul></body></html>`
	web := fakeWeb{"http://en.test/": htmlResponse(en), "http://skole.de/": page("da")}
	_, n := anchorCrawl(t, real, "", focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}}, web, "http://en.test/")
	if n != 1 {
		t.Errorf("%d texts read, want 1: the text around cannot add to an anchor read at AnchorSure", n)
	}
}

// TestCapCountsDetectionsOnly (from a review): maxAnchorReads bounds detections
// (its doc: "a reading costs 5 to 16 µs ... 256 keep such a page's
// readings under about 5 ms"), but every text looked up takes a slot,
// read or not: a directory whose anchors are host names (never read)
// spends half its cap on them, and the Danish lines beside links past the
// 128th are never read, though only 200 detections would be made.
func TestCapCountsDetectionsOnly(t *testing.T) {
	real := realDetector(t, "da")
	const n = 200
	line := func(i int) string { return fmt.Sprintf("– Her kan du læse om skole nummer %d og hvad der sker", i) }
	for _, i := range []int{0, n - 1} {
		if r := real.Detect([]byte(line(i)), "text/plain; charset=utf-8"); r.Lang != "da" || min(r.Confidence, r.RivalConfidence) < focus.AnchorSure {
			t.Fatalf("precondition: %q read as %s %.3f", line(i), r.Lang, r.Confidence)
		}
	}
	var b strings.Builder
	b.WriteString(`<html lang="en"><body><ul>`)
	web := fakeWeb{}
	for i := range n {
		u := fmt.Sprintf("http://member%d.test/", i)
		fmt.Fprintf(&b, `<li><a href="%s">www.member%d.com</a> %s</li>`, u, i, line(i))
		web[u] = page("en")
	}
	b.WriteString(`</ul></body></html>`)
	web["http://en.test/"] = htmlResponse(b.String())
	h, got := anchorCrawl(t, real, "", focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}}, web, "http://en.test/")
	if !h.fetched("http://member0.test/") {
		t.Fatal("precondition: the first line's server was not opened")
	}
	if got != n {
		t.Errorf("%d links with a host name as anchor and a Danish line beside: %d detections, want %d (the cap is %d)",
			n, got, n, maxAnchorReads)
	}
}

// TestHostNameInContextNotRead (from a review): readable keeps a host name written as
// the anchor from being read ("a Swedish host name as Bokmål at 0.98"),
// but the same name written beside a link ("Website – www.skanegarden.se",
// a directory linking through a booking or tracking URL) has a separator
// and a space in it, and is read: for a Bokmål crawl it opens the Swedish
// server.
func TestHostNameInContextNotRead(t *testing.T) {
	real := realDetector(t, "nb")
	const host = "www.skanegarden.se"
	if !hostWord(host) {
		t.Fatal("precondition: the host name is not a hostWord")
	}
	if r := real.Detect([]byte("– "+host), "text/plain; charset=utf-8"); r.Lang != "nb" || min(r.Confidence, r.RivalConfidence) < focus.AnchorSure {
		t.Fatalf("precondition: %q read as %s %.3f", "– "+host, r.Lang, r.Confidence)
	}
	en := `<html lang="en"><body><h2>Hotels in Skåne</h2><ul>` +
		`<li><a href="http://booking.test/hotel?id=17">Website</a> – ` + host + `</li></ul></body></html>`
	web := fakeWeb{"http://en.test/": htmlResponse(en), "http://booking.test/hotel?id=17": page("sv")}
	h, _ := anchorCrawl(t, real, "", focus.Config{Strategy: focus.Evidence, Langs: []string{"nb"}}, web, "http://en.test/")
	if h.fetched("http://booking.test/hotel?id=17") {
		t.Error("a host name written beside a link was read as Bokmål and opened a Swedish server")
	}
}

// TestRejectedLinkTextAround: a link focusing turns away has the text
// around it written in its outlink field, before the anchor, for the
// report's candidate hosts (report.ParseOutlink); an admitted link does
// not.
func TestRejectedLinkTextAround(t *testing.T) {
	en := `<html lang="en"><body><ul>` +
		`<li><a href="http://fado.test/">www.fado.test</a> – arquivo de música popular</li>` +
		`<li><a href="/about">About</a> – who we are</li></ul></body></html>`
	web := fakeWeb{"http://en.test/": htmlResponse(en), "http://en.test/about": page("en"), "http://fado.test/": page("pt")}
	h := newHarnessWith(t, fakeDetector{}, web, Config{Focus: mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Langs: []string{"th"}})}, "http://en.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	var rejected, admitted string
	for _, f := range h.a.meta["http://en.test/"] {
		switch {
		case f.Name == "outlink" && strings.HasPrefix(f.Value, "http://fado.test/ "):
			rejected = f.Value
		case f.Name == "outlink" && strings.HasPrefix(f.Value, "http://en.test/about "):
			admitted = f.Value
		}
	}
	if want := `rejected:focus:unvisited-server around:"– arquivo de música popular" anchor:"www.fado.test"`; !strings.HasSuffix(rejected, want) {
		t.Errorf("rejected link's field %q, want it to end %q", rejected, want)
	}
	if admitted == "" || strings.Contains(admitted, "around:") {
		t.Errorf("admitted link's field %q: want one, without the text around", admitted)
	}
}
