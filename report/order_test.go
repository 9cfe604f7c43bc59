package report

import (
	"fmt"
	"testing"
)

// TestCandidateOrderTargetReferrers: a host that 20 Thai pages link to,
// sampled once and judged foreign (the English splash page of a Thai
// server, say), comes before a host never fetched that one foreign page
// links to. A version of the order that put every host never fetched
// first buried it (a review): in a real crawl those are mostly the
// outlinks of the foreign pages sampled, T+1 per foreign server.
func TestCandidateOrderTargetReferrers(t *testing.T) {
	var crawl []page
	for i := range 20 {
		crawl = append(crawl, page{url: fmt.Sprintf("http://th.test/%d", i), depth: 0, tree: "th.test", lang: "th", charset: "utf-8", relevant: true,
			outlinks: []string{`http://splash.test/x L a/@href rejected:focus:irrelevant-dest`}})
	}
	crawl = append(crawl,
		page{url: "http://splash.test/", depth: 0, tree: "splash.test", lang: "en", charset: "utf-8"},
		page{url: "http://en.test/", depth: 0, tree: "en.test", lang: "en", charset: "utf-8",
			outlinks: []string{`http://ads.example/ L a/@href rejected:focus:unvisited-server`}})
	got := candidateRows(t, crawl)
	if len(got) < 2 || got[0][:len("splash.test")] != "splash.test" {
		t.Errorf("candidates (host:referrers/in th/pages): %v; the host 20 Thai pages link to is not first", got)
	}
}
