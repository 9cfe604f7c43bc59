package report

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestFallenToleranceVerdicts (from a soak review): a conservative-server
// crawl's tolerance falls by focus.tolerance_decay_every (default 25,000
// HTML pages, floor 5), so a long crawl judges foreign servers irrelevant
// after 6 pages and drops their queues (-5003 focus:dropped). The report
// judged every server by the rule at the profile's T = 10 and read each
// such server as undecided ("the crawl stopped before it could judge
// them"): in the review's crawl of a 25,000-server web (378,043 HTML pages,
// frontier empty) 8,490 relevant, 16,465 undecided, 1 irrelevant, with
// 141,381 -5003 lines in crawl.log. It now reads the crawl's own verdict,
// as for the sequential strategy.
//
// Here the decay is made fast (every page, floor 5) so that six foreign
// pages suffice; the last page's metadata records the crawl's verdict.
func TestFallenToleranceVerdicts(t *testing.T) {
	var pages []page
	for i := 0; i < 6; i++ {
		st := "undecided"
		if i == 5 {
			st = "irrelevant"
		}
		pages = append(pages, page{url: fmt.Sprintf("http://en.test/%d.html", i), lang: "en", charset: "utf-8", status: st, key: "en.test"})
	}
	pages = append(pages, page{url: "http://th.test/", lang: "th", charset: "utf-8", relevant: true, status: "relevant", key: "th.test"})
	out := t.TempDir()
	writeWARC(t, filepath.Join(out, WARCDir), t0, pages)
	prof := "focus:\n  language: th\n  strategy: conservative-server\n  tolerance: 10\n  tolerance_decay_every: 1\n  tolerance_floor: 5\n"
	if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte(prof), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := r.Server("en.test")
	if !ok {
		t.Fatal("en.test not in the report")
	}
	if s.Status == "undecided" {
		t.Errorf("en.test: %d foreign pages, judged irrelevant by the crawl (T decayed to 5; focusStatus %q), reported %q under T = %d",
			s.Pages, s.Verdict, s.Status, r.Tolerance)
	}
}
