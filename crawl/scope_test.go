package crawl

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/scope"
)

// TestScopeRules runs the engine with include and exclude rules and a
// host-scoped seed: an excluded URL is never fetched and the page's
// metadata record names the rule; a requisite on another host, outside
// every include rule, is fetched for an in-scope page; links outside the
// seed's host or the include rules are not.
func TestScopeRules(t *testing.T) {
	png := "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1\r\n\r\nP"
	web := fakeWeb{
		"http://a.test/": page("th", "/news/1", "/calendar/2031", "http://shop.a.test/", "http://b.test/",
			"http://c.th.test/", "img:http://cdn.test/logo.png", "img:http://ads.test/banner.png"),
		"http://a.test/news/1":        page("th"),
		"http://a.test/calendar/2031": page("th"),
		"http://shop.a.test/":         page("th"),
		"http://b.test/":              page("th"),
		"http://c.th.test/":           page("th"),
		"http://cdn.test/logo.png":    png,
		"http://ads.test/banner.png":  png,
	}
	f := &scope.Filter{}
	for _, r := range []string{"surt:http://(test,a,", "surt:(test,th,"} {
		if err := f.AddInclude(r); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []string{`/calendar/\d+$`, "surt:http://(test,ads,"} {
		if err := f.AddExclude(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.AddSeed("http://a.test/", scope.Host, 0); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, web, Config{Scope: scope.Decider{Filter: f}}, "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]bool{
		"http://a.test/news/1":        true,  // in the seed's host
		"http://a.test/calendar/2031": false, // excluded by a regular expression
		"http://shop.a.test/":         false, // outside the seed's host scope
		"http://b.test/":              false, // matches no include rule
		"http://c.th.test/":           true,  // matches the SURT include
		"http://cdn.test/logo.png":    true,  // a requisite, from any host
		"http://ads.test/banner.png":  false, // a requisite, but excluded
	} {
		if h.fetched(u) != want {
			t.Errorf("fetched %s = %v, want %v", u, !want, want)
		}
	}
	var outlinks []string
	for _, fl := range h.a.meta["http://a.test/"] {
		if fl.Name == "outlink" {
			outlinks = append(outlinks, fl.Value)
		}
	}
	all := strings.Join(outlinks, "\n")
	for _, want := range []string{
		`http://a.test/calendar/2031 L a/@href rejected:scope:exclude:/calendar/\d+$`,
		"http://ads.test/banner.png E img/@src rejected:scope:exclude:surt:(test,ads,",
		"http://shop.a.test/ L a/@href rejected:scope:outside-seed:host:a.test",
		"http://b.test/ L a/@href rejected:scope:not-included",
		// Followed links name the operator's rules that let them in.
		"http://a.test/news/1 L a/@href admitted:include:surt:(test,a,;seed:host:a.test",
		"http://c.th.test/ L a/@href admitted:include:surt:(test,th,",
		"http://cdn.test/logo.png E img/@src admitted:requisite",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("metadata outlinks lack %q:\n%s", want, all)
		}
	}
	for _, o := range outlinks {
		if strings.HasPrefix(o, "http://cdn.test/logo.png ") && strings.Contains(o, "rejected") {
			t.Errorf("the off-host requisite was rejected: %s", o)
		}
	}
	// The queued entry keeps the rule for the URL's crawl.log line.
	for u, want := range map[string]string{
		"http://a.test/news/1":     "admitted:include:surt:(test,a,;seed:host:a.test",
		"http://c.th.test/":        "admitted:include:surt:(test,th,",
		"http://cdn.test/logo.png": "admitted:requisite",
	} {
		if got := h.annotations(t, u); len(got) != 1 || !strings.Contains(got[0], want) {
			t.Errorf("crawl.log annotations of %s = %q, want one line with %q", u, got, want)
		}
	}
	if n := h.c.Stats().Rejects[`scope:exclude:/calendar/\d+$`]; n != 1 {
		t.Errorf("rejects counted under the rule = %d, want 1 (%v)", n, h.c.Stats().Rejects)
	}
}

// An exclusion added while the crawl runs applies to URLs queued before
// it: they are skipped when leased (-5004), not fetched.
func TestRuntimeExclusionSkipsQueued(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/keep", "/calendar/1", "/calendar/2")}
	web["http://a.test/keep"] = page("th")
	web["http://a.test/calendar/1"] = page("th")
	web["http://a.test/calendar/2"] = page("th")
	f := &scope.Filter{}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{Scope: scope.Decider{Filter: f}}, nil, "http://a.test/")
	// The seed page is fetched and its links queued; then the operator
	// excludes the calendar.
	l, _, err := r.q.Next(time.Now())
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	if err := c.process(context.Background(), 1, l, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.AddExclude("/calendar/"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, g := range r.f.got {
		if strings.Contains(g, "/calendar/") {
			t.Errorf("%s fetched after its exclusion", g)
		}
	}
	if log := r.lines(t); strings.Count(log, " -5004 ") != 2 {
		t.Errorf("want two -5004 lines:\n%s", log)
	}
	// Skipped by choice, not failed: the status page's latest errors
	// stay for what went wrong.
	if errs := c.Sites(0).Errors; len(errs) != 0 {
		t.Errorf("the exclusion's skips are listed as errors: %+v", errs)
	}
	// The operator lifts the rule: the skipped URLs can be queued again,
	// as seeds here (they stayed in the seen set before, and a seed of
	// one was passed over: lost for the crawl).
	if err := f.RemoveExclude("/calendar/"); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Seed([]string{"http://a.test/calendar/1", "http://a.test/keep"}); err != nil || n != 1 {
		t.Fatalf("Seed after the rule was lifted = %d, %v; want the skipped URL queued, the fetched one not", n, err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.f.got, "http://a.test/calendar/1") {
		t.Errorf("the skipped URL was not fetched once seeded again: %v", r.f.got)
	}
}

// TestEmbedHopsBound: a chain of stylesheets each @importing a new one is
// followed to MaxEmbedHops embed hops (E, DefaultMaxEmbedHops by default) and no further, with the
// rejection in the metadata record of the last stylesheet fetched; a trap
// trial's server was fetched until max_time this way. MaxEmbedHops
// negative lifts the bound.
func TestEmbedHopsBound(t *testing.T) {
	web := fakeWeb{
		"http://a.test/": raw("text/html", `<html lang="th"><head><link rel="stylesheet" href="/c1.css"></head><body>x</body></html>`),
	}
	for i := 1; i <= 8; i++ {
		web[fmt.Sprintf("http://a.test/c%d.css", i)] = raw("text/css", fmt.Sprintf("@import url(/c%d.css);\nbody{background:url(/i%d.png)}", i+1, i))
		web[fmt.Sprintf("http://a.test/i%d.png", i)] = raw("image/png", "png")
	}
	for _, tc := range []struct {
		limit int
		want  []string // stylesheets fetched
	}{
		{0, []string{"c1", "c2", "c3", "c4", "c5"}},
		{3, []string{"c1", "c2", "c3"}},
		{-1, []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"}}, // c9 is a 404
	} {
		h := newHarness(t, web, Config{Requisites: true, MaxEmbedHops: tc.limit}, "http://a.test/")
		if _, err := h.run(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for i := 1; i <= 9; i++ {
			if h.fetched(fmt.Sprintf("http://a.test/c%d.css", i)) {
				got = append(got, fmt.Sprintf("c%d", i))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("MaxEmbedHops %d: stylesheets fetched %v, want %v", tc.limit, got, tc.want)
		}
		if tc.limit == 0 {
			if !h.fetched("http://a.test/i4.png") || h.fetched("http://a.test/i5.png") {
				t.Errorf("the images of c4 (EEEEE) should be fetched, those of c5 (EEEEEE) not: %v", h.f.got)
			}
			found := false
			for _, f := range h.a.meta["http://a.test/c5.css"] {
				found = found || (f.Name == "outlink" && strings.Contains(f.Value, "rejected:scope:embed-hops:5"))
			}
			if !found {
				t.Errorf("c5.css's metadata does not say its links were rejected: %v", h.a.meta["http://a.test/c5.css"])
			}
		}
	}
}

func TestEmbedHops(t *testing.T) {
	for hops, want := range map[string]int{"": 0, "L": 0, "LE": 1, "LEE": 2, "LERE": 2, "LEL": 0, "E": 1, "IE": 1, "LERRE": 2} {
		if got := embedHops(hops); got != want {
			t.Errorf("embedHops(%q) = %d, want %d", hops, got, want)
		}
	}
}

// TestEscapeRef: a reference that does not resolve is written so that the
// outlink field's parts still split on white space.
func TestEscapeRef(t *testing.T) {
	for in, want := range map[string]string{
		"http://bad host.test/": "http://bad%20host.test/",
		"http://[::1/":          "http://[::1/",
		"http://a.test/%zz\t":   "http://a.test/%25zz%09",
	} {
		if got := escapeRef(in); got != want {
			t.Errorf("escapeRef(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestChildThemeFonts: a WordPress child theme's fonts are fetched: page >
// child stylesheet > parent stylesheet (@import) > font service's
// stylesheet (@import) > font, five embed hops. A review found the first
// default bound, 3, dropping them.
func TestChildThemeFonts(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":                       raw("text/html", `<html lang="th"><head><link rel="stylesheet" href="/child/style.css"></head><body>x</body></html>`),
		"http://a.test/child/style.css":        raw("text/css", `@import url("../parent/style.css"); .x{color:red}`),
		"http://a.test/parent/style.css":       raw("text/css", `@import url("http://fonts.test/css?family=Sarabun");`),
		"http://fonts.test/css?family=Sarabun": raw("text/css", `@font-face{font-family:Sarabun;src:url(http://fonts.test/s/sarabun.woff2) format("woff2")}`),
		"http://fonts.test/s/sarabun.woff2":    raw("font/woff2", "wOF2"),
	}
	// The font is four embed hops from the page (E, EE, EEE, EEEE): the
	// default (5) fetches it, a bound of 4 still does, and one of 3, the
	// first default, does not.
	for _, tc := range []struct {
		limit int
		want  bool
	}{{0, true}, {4, true}, {3, false}} {
		h := newHarness(t, web, Config{Requisites: true, MaxEmbedHops: tc.limit}, "http://a.test/")
		if _, err := h.run(); err != nil {
			t.Fatal(err)
		}
		if got := h.fetched("http://fonts.test/s/sarabun.woff2"); got != tc.want {
			t.Errorf("max_embed_hops %d (0: the default): the page's font fetched %v, want %v: %v", tc.limit, got, tc.want, h.f.got)
		}
	}
}

// raw is a 200 response of type ct with body.
func raw(ct, body string) string {
	return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", ct, len(body), body)
}

// TestStylesheetLinksCapped: a stylesheet's references are capped at
// maxStylesheetLinks (1,000), as README says: one listing 1,500 url()s
// queues the first 1,000 and no more.
func TestStylesheetLinksCapped(t *testing.T) {
	var css strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&css, ".c%d{background:url(/i%04d.png)}\n", i, i)
	}
	web := fakeWeb{
		"http://a.test/":      raw("text/html", `<html lang="th"><head><link rel="stylesheet" href="/s.css"></head><body>x</body></html>`),
		"http://a.test/s.css": raw("text/css", css.String()),
	}
	h := newHarness(t, web, Config{Requisites: true}, "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range 1500 {
		if h.fetched(fmt.Sprintf("http://a.test/i%04d.png", i)) {
			n++
			if i >= maxStylesheetLinks {
				t.Fatalf("i%04d.png, past the cap, was fetched", i)
			}
		}
	}
	if n != maxStylesheetLinks {
		t.Errorf("%d of the stylesheet's 1,500 images fetched, want %d", n, maxStylesheetLinks)
	}
}
