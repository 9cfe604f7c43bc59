package crawl

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/links"
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
// anchor texts the crawl reads (text/plain). With target set, a page in
// that language is relevant (fakeDetector's target is Thai).
type anchorDetector struct {
	real   *detect.Detector
	read   *atomic.Int64 // anchors read
	target string
}

func (d anchorDetector) Detect(body []byte, ct string) detect.Result {
	if strings.HasPrefix(ct, "text/plain") {
		d.read.Add(1)
		return d.real.Detect(body, ct)
	}
	r := fakeDetector{}.Detect(body, ct)
	if d.target != "" {
		r.Relevant = r.Lang == d.target
	}
	return r
}

func htmlResponse(body string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body
}

// realDetector is the real detector for the target langs.
func realDetector(t testing.TB, langs ...string) *detect.Detector {
	t.Helper()
	d, err := detect.New(detect.Options{Targets: langs})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// anchorCrawl crawls web from seeds under cfg with the real detector real
// reading anchors (anchorDetector, pages in target relevant when target
// is set), and returns the harness and the count of anchors read.
func anchorCrawl(t *testing.T, real *detect.Detector, target string, cfg focus.Config, web fakeWeb, seeds ...string) (*harness, int64) {
	t.Helper()
	det := anchorDetector{real: real, read: new(atomic.Int64), target: target}
	h := newHarnessWith(t, det, web, Config{Focus: mustPolicy(t, cfg)}, seeds...)
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	return h, det.read.Load()
}

// linkList is a web of an English page, http://en.test/, holding n links,
// the i-th to http://member<i>.test/ (an English page) with the anchor
// anchor(i).
func linkList(n int, anchor func(i int) string) fakeWeb {
	var b strings.Builder
	b.WriteString(`<html lang="en"><body>`)
	web := fakeWeb{}
	for i := range n {
		u := fmt.Sprintf("http://member%d.test/", i)
		fmt.Fprintf(&b, `<p><a href="%s">%s</a></p>`, u, anchor(i))
		web[u] = page("en")
	}
	b.WriteString(`</body></html>`)
	web["http://en.test/"] = htmlResponse(b.String())
	return web
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
	real := realDetector(t, "da")
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
		h, n := anchorCrawl(t, real, "", focus.Config{Strategy: tc.strategy, Langs: []string{"da"}, LinkEvidence: tc.links},
			web, "http://en.test/", "http://nb.test/")
		if !h.fetched("http://nb.test/") {
			t.Fatal("the Bokmål seed was not fetched")
		}
		for u, want := range tc.want {
			if got := h.fetched(u); got != want {
				t.Errorf("%s (link evidence %v): fetched %s: %v, want %v", tc.strategy, tc.links, u, got, want)
			}
		}
		if (n > 0) != tc.reads {
			t.Errorf("%s (link evidence %v): %d anchors read", tc.strategy, tc.links, n)
		}
	}
}

// TestContextLanguageOpensServer: where the anchor says nothing (a host
// name, "Website"), the text around the link is read as the anchor is. On
// an English link list, a host name beside a Danish line read at 0.9 or
// more opens its server; one read under 0.9 only beside a .dk host; an
// English line, a Norwegian one and a Danish line on a Bokmål page open
// nothing; an anchor and its line each read as Danish under 0.9 are one
// cue, not two.
func TestContextLanguageOpensServer(t *testing.T) {
	real := realDetector(t, "da")
	const (
		sure      = "Her kan du læse om skolen og hvad der sker"
		likely    = "debat om folkeskolen hver uge"
		norwegian = "standard søkjemotor i private"
		english   = "a Danish school debate site from Aarhus"
	)
	// The readings the test rests on, of the text around each link as
	// the crawl has it (links.Link.Context: the dash included).
	for _, tc := range []struct {
		text     string
		lang     string
		min, max float64
	}{
		{sure, "da", focus.AnchorSure, 1},
		{likely, "da", focus.AnchorLikely, focus.AnchorSure},
		{english, "en", 0, 1},
		{norwegian, "nb", 0, 1},
	} {
		r := real.Detect([]byte("– "+tc.text), "text/plain; charset=utf-8")
		if c := min(r.Confidence, r.RivalConfidence); r.Lang != tc.lang || c < tc.min || c >= tc.max {
			t.Fatalf("precondition: %q read as %s at %.3f (rival %s %.3f), want %s in [%g, %g)",
				tc.text, r.Lang, r.Confidence, r.Rival, r.RivalConfidence, tc.lang, tc.min, tc.max)
		}
	}
	if r := real.Detect([]byte("Ugens opskrift"), "text/plain; charset=utf-8"); r.Lang != "da" || r.Confidence < focus.AnchorLikely || r.Confidence >= focus.AnchorSure {
		t.Fatalf("precondition: the anchor read as %s %.3f", r.Lang, r.Confidence)
	}
	item := func(u, anchor, text string) string {
		return fmt.Sprintf(`<li><a href="%s">%s</a> – %s</li>`, u, anchor, text)
	}
	en := `<html lang="en"><body><p>Links</p><ul>` +
		item("http://skole.test/", "www.skoledebat.com", sure) +
		item("http://ribe.test/", "Website", likely) +
		item("http://ribe.dk/", "Website", likely) +
		item("http://two.test/", "Ugens opskrift", likely) +
		item("http://travel.test/", "www.travel-bags.com", english) +
		item("http://sok.test/", "www.sok.com", norwegian) +
		`</ul></body></html>`
	nb := `<html lang="nb"><body><ul>` + item("http://fromnb.test/", "www.skoledebat.com", sure) + `</ul></body></html>`
	web := fakeWeb{"http://en.test/": htmlResponse(en), "http://nb.test/": htmlResponse(nb), "http://travel.test/": page("en"),
		"http://sok.test/": page("nn")}
	for _, u := range []string{"http://skole.test/", "http://ribe.test/", "http://ribe.dk/", "http://two.test/", "http://fromnb.test/"} {
		web[u] = page("da")
	}
	opened := map[string]bool{"http://skole.test/": true, "http://ribe.dk/": true}
	for _, tc := range []struct {
		strategy focus.Strategy
		links    bool
		reads    bool
	}{
		{focus.Evidence, false, true},
		{focus.Sequential, true, true},
		{focus.Sequential, false, false},
		{focus.ConservativeServer, false, false},
	} {
		h, n := anchorCrawl(t, real, "", focus.Config{Strategy: tc.strategy, Langs: []string{"da"}, LinkEvidence: tc.links},
			web, "http://en.test/", "http://nb.test/")
		if !h.fetched("http://nb.test/") {
			t.Fatal("the Bokmål seed was not fetched")
		}
		for u := range web {
			if u == "http://en.test/" || u == "http://nb.test/" {
				continue
			}
			if want := tc.reads && opened[u]; h.fetched(u) != want {
				t.Errorf("%s (link evidence %v): fetched %s: %v, want %v", tc.strategy, tc.links, u, h.fetched(u), want)
			}
		}
		if (n > 0) != tc.reads {
			t.Errorf("%s (link evidence %v): %d texts read", tc.strategy, tc.links, n)
		}
	}
}

// TestThaiCrawlReadsNoAnchor: a target with a script of its own is read
// by the script test; no anchor goes to the detector, not even one long
// enough to read (a review found the first version of this test using
// one-letter anchors, which the letter count drops anyway).
func TestThaiCrawlReadsNoAnchor(t *testing.T) {
	web := fakeWeb{
		"http://en.test/":  htmlResponse(`<html lang="en"><body><a href="http://new.test/">Bangkok Post Thailand news today</a></body></html>`),
		"http://new.test/": page("th"),
	}
	_, n := anchorCrawl(t, realDetector(t, "th"), "", focus.Config{Strategy: focus.Evidence, Langs: []string{"th"}}, web, "http://en.test/")
	if n != 0 {
		t.Errorf("%d anchors read for a Thai crawl", n)
	}
}

// TestAnchorRivalConfidence (from a review): a Norwegian anchor on an
// English page that the detector reads as Danish at 0.9 or more, but only
// at 0.26 to 0.41 against Bokmål (its Rival), opens no Norwegian server
// for a Danish crawl: the reading counts at its rival decision's
// confidence, as a page's close call does.
func TestAnchorRivalConfidence(t *testing.T) {
	real := realDetector(t, "da")
	anchors := map[string]string{
		"http://sok.test/": "standard søkjemotor i private",       // Nynorsk
		"http://lvm.test/": "aktuelle logiske volumer startes og", // Bokmål
	}
	var b strings.Builder
	b.WriteString(`<html lang="en"><body><p>Nordic links:</p>`)
	for u, a := range anchors {
		r := real.Detect([]byte(a), "text/plain; charset=utf-8")
		if r.Lang != "da" || r.Confidence < focus.AnchorSure || r.Rival != "nb" || r.RivalConfidence >= focus.AnchorLikely {
			t.Fatalf("precondition: %q read as %s %.3f rival %s %.3f", a, r.Lang, r.Confidence, r.Rival, r.RivalConfidence)
		}
		fmt.Fprintf(&b, `<p><a href="%s">%s</a></p>`, u, a)
	}
	b.WriteString(`</body></html>`)
	web := fakeWeb{"http://en.test/": htmlResponse(b.String()), "http://sok.test/": page("nn"), "http://lvm.test/": page("nb")}
	h, _ := anchorCrawl(t, real, "", focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}}, web, "http://en.test/")
	for u := range anchors {
		if h.fetched(u) {
			t.Errorf("Norwegian server %s opened for a Danish crawl", u)
		}
	}
}

// TestKanjiAnchorOnJapanesePage (from a review): a Traditional Chinese
// crawl reads no anchor of a Japanese page, whose kanji-only names read as
// Traditional Chinese at 0.9 and more and would open Japanese servers.
func TestKanjiAnchorOnJapanesePage(t *testing.T) {
	real := realDetector(t, "zh-hant")
	anchors := map[string]string{
		"http://nakanoshima-lib.test/": "大阪府立中之島図書館",
		"http://bank.test/":            "株式会社三菱東京銀行",
		"http://toritsu-lib.test/":     "東京都立中央図書館",
	}
	var b strings.Builder
	b.WriteString(`<html lang="ja"><body><p>リンク集</p>`)
	for u, a := range anchors {
		r := real.Detect([]byte(a), "text/plain; charset=utf-8")
		if r.Tag != "zh-Hant" || r.Confidence < focus.AnchorSure {
			t.Fatalf("precondition: %q read as %s %.3f", a, r.Tag, r.Confidence)
		}
		fmt.Fprintf(&b, `<p><a href="%s">%s</a></p>`, u, a)
	}
	b.WriteString(`</body></html>`)
	web := fakeWeb{"http://ja.test/": htmlResponse(b.String())}
	for u := range anchors {
		web[u] = page("ja")
	}
	h, n := anchorCrawl(t, real, "", focus.Config{Strategy: focus.Evidence, Langs: []string{"zh-hant"}}, web, "http://ja.test/")
	for u, a := range anchors {
		if h.fetched(u) {
			t.Errorf("Japanese server %s opened for a zh-hant crawl by %q", u, a)
		}
	}
	if n != 0 {
		t.Errorf("%d anchors of a Japanese page read", n)
	}
}

// TestAnchorReadOnlyWhereItCounts (from a review): no detection where
// Score would ignore the reading or it cannot change the decision: an
// anchor with a lang attribute, a link already Strong by its hreflang, a
// Thai anchor in a Thai and Vietnamese crawl (the script test reads it),
// an anchor under minAnchorLetters, a host name or URL as anchor (an
// independent trial), and a link on a page in the target language (its
// anchors are in the target whatever they lead to).
func TestAnchorReadOnlyWhereItCounts(t *testing.T) {
	real := realDetector(t, "da", "th", "vi")
	for _, tc := range []struct {
		name  string
		langs []string
		page  string // the seed's language
		body  string
	}{
		{"lang attribute", []string{"da"}, "en", `<a lang="en" href="http://a.test/">Read the whole story here</a>` +
			`<a lang="da" href="http://b.test/">Læs hele historien her</a>`},
		{"hreflang names the target", []string{"da"}, "en", `<a hreflang="da" href="http://c.test/">Læs hele historien her</a>`},
		{"thai anchor in a th+vi crawl", []string{"th", "vi"}, "en", `<a href="http://d.test/">ข่าววันนี้ประเทศไทยล่าสุด</a>`},
		{"seven letters", []string{"da"}, "en", `<a href="http://a.test/">Nyheder</a>`},
		{"a host name", []string{"da"}, "en", `<a href="http://a.test/">www.skolebladet-aarhus.dk</a>`},
		{"a url", []string{"da"}, "en", `<a href="http://a.test/">http://sommerhusudlejning.dk/</a>`},
		{"a page in the target", []string{"da"}, "da", `<a href="http://a.test/">Debat: Skolen skal have mere tid</a>`},
	} {
		web := fakeWeb{"http://seed.test/": htmlResponse(`<html lang="` + tc.page + `"><body>` + tc.body + `</body></html>`)}
		for _, h := range []string{"a", "b", "c", "d"} {
			web["http://"+h+".test/"] = page("en")
		}
		if _, n := anchorCrawl(t, real, tc.langs[0], focus.Config{Strategy: focus.Evidence, Langs: tc.langs}, web, "http://seed.test/"); n != 0 {
			t.Errorf("%s: %d anchors read", tc.name, n)
		}
	}
}

// TestRepeatedAnchorReadOnce (from a review): one anchor text repeated
// over a page's links into many new servers is read once.
func TestRepeatedAnchorReadOnce(t *testing.T) {
	web := linkList(50, func(int) string { return "Visit their website" })
	_, n := anchorCrawl(t, realDetector(t, "da"), "", focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}}, web, "http://en.test/")
	if n != 1 {
		t.Errorf("one anchor text on one page read %d times, want once", n)
	}
}

// TestAnchorReadsCapped: a page with more distinct anchors into new
// servers than maxAnchorReads has that many read, not more.
func TestAnchorReadsCapped(t *testing.T) {
	n := maxAnchorReads + 40
	web := linkList(n, func(i int) string { return fmt.Sprintf("Visit member number %d", i) })
	_, got := anchorCrawl(t, realDetector(t, "da"), "", focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}}, web, "http://en.test/")
	if got != maxAnchorReads {
		t.Errorf("%d distinct anchors on one page: %d read, want %d", n, got, maxAnchorReads)
	}
}

// BenchmarkAnchorRead: one reading (textLang, on a page of its own: host
// names dropped, the detector run) with the real detector, for
// a Danish crawl, of a short anchor, of the longest text around a link
// (links.MaxContextLen either side and a space) and of an anchor at
// MaxAnchorLen.
func BenchmarkAnchorRead(b *testing.B) {
	c := &Crawler{p: Parts{Detector: realDetector(b, "da")}}
	pol := mustPolicy(b, focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}})
	text := strings.Repeat("Debat: Skolen skal have mere tid til ", 6)
	for _, a := range []string{"Debat: Skolen skal have mere tid", text[:2*links.MaxContextLen+1], text[:links.MaxAnchorLen]} {
		b.Run(fmt.Sprintf("%dB", len(a)), func(b *testing.B) {
			for range b.N {
				c.textLang(pol, &linkPage{lang: "en"}, a)
			}
		})
	}
}

// TestDescriptionApartOpensServer: a link directory that writes a site's
// description apart from its link (the next cell of the row, the cells
// before it, the <dd> after its <dt>, the line after a <br>) opens the
// target site as a link with the description beside it does, and a site
// described in another language stays closed.
func TestDescriptionApartOpensServer(t *testing.T) {
	real := realDetector(t, "da")
	const (
		sure    = "Her kan du læse om skolen og hvad der sker"
		english = "a Danish school debate site from Aarhus"
	)
	en := `<html lang="en"><body><h2>Links</h2><table>` +
		`<tr><td><a href="http://cell.test/">www.cell.com</a></td><td>` + sure + `</td></tr>` +
		`<tr><td>Skoledebat</td><td>` + sure + `</td><td><a href="http://row.test/">www.row.com</a></td></tr>` +
		`<tr><td><a href="http://encell.test/">www.encell.com</a></td><td>` + english + `</td></tr>` +
		`</table><dl><dt><a href="http://dd.test/">www.dd.com</a></dt><dd>` + sure + `</dd></dl>` +
		`<p><a href="http://br.test/">www.br.com</a><br>` + sure + `</p>` +
		`<ul><li><a href="http://li.test/">www.li.com</a></li><li>` + sure + `</li></ul></body></html>`
	web := fakeWeb{"http://en.test/": htmlResponse(en), "http://encell.test/": page("en")}
	for _, u := range []string{"http://cell.test/", "http://row.test/", "http://dd.test/", "http://br.test/", "http://li.test/"} {
		web[u] = page("da")
	}
	// The next item of a list is not a description: li.test stays closed.
	opened := map[string]bool{"http://cell.test/": true, "http://row.test/": true, "http://dd.test/": true, "http://br.test/": true}
	h, _ := anchorCrawl(t, real, "", focus.Config{Strategy: focus.Evidence, Langs: []string{"da"}}, web, "http://en.test/")
	for u := range web {
		if u == "http://en.test/" {
			continue
		}
		if h.fetched(u) != opened[u] {
			t.Errorf("fetched %s: %v, want %v", u, h.fetched(u), opened[u])
		}
	}
}
