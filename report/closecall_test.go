package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestCloseCallServerCandidate: a sequential crawl turns away a server
// whose one page the detector called Malay as a close call (metadata
// relevant: true, languageRival: id), judged irrelevant at T+1. Such a
// host is among the candidates a curator reads; a review found it left out
// with every host that had a page recorded relevant, which before close
// calls were counted apart was never turned away.
func TestCloseCallServerCandidate(t *testing.T) {
	crawl := []page{
		{url: "http://ms.test/", depth: 0, tree: "ms.test", lang: "ms", charset: "utf-8", relevant: true, status: "relevant", key: "ms.test",
			outlinks: []string{`http://mix.test/ L a/@href`, `http://mix.test/1 L a/@href`}},
		{url: "http://mix.test/", depth: 1, tree: "ms.test", lang: "ms", charset: "utf-8", relevant: true, status: "undecided", key: "mix.test",
			outlinks: []string{`http://mix.test/2 L a/@href`}},
		{url: "http://mix.test/1", depth: 1, tree: "ms.test", lang: "en", charset: "utf-8", status: "irrelevant", key: "mix.test",
			outlinks: []string{`http://mix.test/3 L a/@href rejected:focus:irrelevant-server anchor:"Berita"`}},
	}
	log := `2026-01-01T00:00:01.000Z   200       1000 http://ms.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:ms,charset:utf-8
2026-01-01T00:00:02.000Z   200        500 http://mix.test/ L http://ms.test/ text/html #002 20260101000100000+12 sha1:BBB - lang:ms,charset:utf-8
2026-01-01T00:00:03.000Z   200        500 http://mix.test/1 L http://ms.test/ text/html #002 20260101000100000+12 sha1:CCC - lang:en,charset:utf-8
2026-01-01T00:00:05.000Z -5003          0 http://mix.test/2 L http://mix.test/ - #002 - - - focus:dropped:mix.test
`
	profile := "depth: 2\nseeds:\n  - http://ms.test/\nfocus:\n  language: ms\n  strategy: sequential\n  tolerance: 1\n"
	r, err := Build(writeCrawlOut(t, crawl, log, profile))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := r.Server("mix.test"); !ok || s.Status != "irrelevant" {
		t.Fatalf("mix.test %+v, want judged irrelevant", s)
	}
	for _, c := range r.Candidates {
		if c.Host == "mix.test" {
			return
		}
	}
	t.Errorf("mix.test, turned away by focusing after a close call, is not among the candidates %+v", r.Candidates)
}

// TestSeedServerJudgedIrrelevant: a seed whose own server focusing judged
// irrelevant is flagged, in Seed.Server, in seeds.csv and under the
// markdown's seeds table (a trial: two of three Slovak seed shops, their
// pages read as Czech, were cut at T+1 and the report's seeds table said
// only "11 pages, 0 target pages").
func TestSeedServerJudgedIrrelevant(t *testing.T) {
	crawl := []page{
		{url: "http://shop.test/", depth: 0, tree: "shop.test", lang: "cs", charset: "utf-8", status: "undecided", key: "shop.test",
			outlinks: []string{`http://shop.test/1 L a/@href`}},
		{url: "http://shop.test/1", depth: 1, tree: "shop.test", lang: "cs", charset: "utf-8", status: "irrelevant", key: "shop.test",
			outlinks: []string{`http://shop.test/2 L a/@href rejected:focus:irrelevant-server`}},
		{url: "http://news.test/", depth: 0, tree: "news.test", lang: "sk", charset: "utf-8", relevant: true, status: "relevant", key: "news.test"},
	}
	log := `2026-01-01T00:00:01.000Z   200       1000 http://shop.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:cs,charset:utf-8
2026-01-01T00:00:02.000Z   200        500 http://shop.test/1 L http://shop.test/ text/html #002 20260101000100000+12 sha1:BBB - lang:cs,charset:utf-8
2026-01-01T00:00:03.000Z   200        500 http://news.test/ - - text/html #001 20260101000200000+12 sha1:CCC - lang:sk,charset:utf-8
`
	profile := "depth: 2\nseeds:\n  - http://shop.test/\n  - http://news.test/\nfocus:\n  language: sk\n  strategy: sequential\n  tolerance: 1\n"
	out := writeCrawlOut(t, crawl, log, profile)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range r.Seeds {
		got[s.URL] = s.Server
	}
	if got["http://shop.test/"] != "irrelevant" || got["http://news.test/"] != "relevant" {
		t.Fatalf("seeds' servers %v, want shop.test irrelevant, news.test relevant", got)
	}
	var md strings.Builder
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	i := strings.Index(md.String(), "1 seed whose own server focusing judged irrelevant")
	if i < 0 {
		t.Fatalf("no flag under the seeds table:\n%s", md.String())
	}
	if rest := md.String()[i:]; !strings.Contains(rest, "- http://shop.test/") || strings.Contains(rest[:strings.Index(rest, "\n## ")+1], "news.test") {
		t.Errorf("the flag does not list exactly shop.test:\n%s", rest)
	}
}

// TestSeedRedirectServerJudged: a seed that redirects to another host
// (shop.test to www.shop.test, as shops' bare domains do) is judged by the
// server its redirects led to. A review found such a seed "undecided", its
// own server holding the redirect record only, and the www server judged
// irrelevant unflagged.
func TestSeedRedirectServerJudged(t *testing.T) {
	crawl := []page{
		{url: "http://shop.test/", depth: 0, tree: "shop.test"}, // the 301, no language fields
		{url: "http://www.shop.test/", depth: 1, tree: "shop.test", lang: "cs", charset: "utf-8", status: "undecided", key: "www.shop.test",
			outlinks: []string{`http://www.shop.test/1 L a/@href`}},
		{url: "http://www.shop.test/1", depth: 2, tree: "shop.test", lang: "cs", charset: "utf-8", status: "irrelevant", key: "www.shop.test",
			outlinks: []string{`http://www.shop.test/2 L a/@href rejected:focus:irrelevant-server`}},
	}
	log := `2026-01-01T00:00:01.000Z   301          0 http://shop.test/ - - text/html #001 20260101000000000+12 sha1:AAA - -
2026-01-01T00:00:02.000Z   200       1000 http://www.shop.test/ R http://shop.test/ text/html #002 20260101000100000+12 sha1:BBB - lang:cs,charset:utf-8
2026-01-01T00:00:03.000Z   200        500 http://www.shop.test/1 RL http://www.shop.test/ text/html #001 20260101000200000+12 sha1:CCC - lang:cs,charset:utf-8
`
	profile := "depth: 3\nseeds:\n  - http://shop.test/\nfocus:\n  language: sk\n  strategy: sequential\n  tolerance: 1\n"
	r, err := Build(writeCrawlOut(t, crawl, log, profile))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Seeds) != 1 {
		t.Fatalf("seeds %+v", r.Seeds)
	}
	if s := r.Seeds[0]; s.Server != "irrelevant" || s.ServerHost != "www.shop.test" {
		t.Errorf("seed %s redirects to www.shop.test, judged irrelevant; Server = %q, ServerHost = %q (pages %d), want irrelevant, www.shop.test", s.URL, s.Server, s.ServerHost, s.Pages)
	}
}

// TestFlaggedSeedsCapped: the markdown lists at most TopCandidates of the
// seeds whose server was judged irrelevant, and says how many more
// seeds.csv holds (a seeds file may give 40,000 seeds).
func TestFlaggedSeedsCapped(t *testing.T) {
	r := &Report{Profile: Profile{Language: "sk"}}
	for i := range TopCandidates + 5 {
		r.Seeds = append(r.Seeds, Seed{URL: fmt.Sprintf("http://s%d.test/", i), Server: "irrelevant"})
	}
	var md strings.Builder
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	if !strings.Contains(out, fmt.Sprintf("**%d seeds whose own server", TopCandidates+5)) ||
		!strings.Contains(out, "- http://s24.test/") || strings.Contains(out, "- http://s25.test/") ||
		!strings.Contains(out, "- and 5 more") {
		t.Errorf("flagged seeds not listed as the first %d and 5 more:\n%s", TopCandidates, out)
	}
}
