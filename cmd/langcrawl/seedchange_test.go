package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecrawlSeedAddedWithinDepth: an archivist adds a section's index,
// already reached by a link at the depth limit, as a seed of the next
// generation, keeping the limit. The seed is depth 0 of its own tree, so
// the page one hop behind it is within the limit and must be fetched.
// Before, the seed kept the entry its link gave it (depth 1): the scope
// check at lease time found it within the limit and took it for that
// link, so its links were decided at depth 2 and rejected. Whether the
// profile names the seed or a seeds file does, and whether the seed
// answers 304 or a changed page: with a seeds file the profile's text
// was the same, so the generation counted as crawled with the same
// profile, and a 304 read no link at all.
func TestRecrawlSeedAddedWithinDepth(t *testing.T) {
	for _, tc := range []struct {
		name      string
		seedsFile bool
		changed   bool
	}{
		{"profile seeds, unchanged page", false, false},
		{"profile seeds, changed page", false, true},
		{"seeds file, unchanged page", true, false},
		{"seeds file, changed page", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := startReviewWeb(t, reviewPages)
			out := t.TempDir()
			dir := t.TempDir()
			profile := func(seeds ...string) string {
				if !tc.seedsFile {
					s := "seeds: ["
					for i, sd := range seeds {
						if i > 0 {
							s += ", "
						}
						s += sd
					}
					return s + "]\ndepth: 1\n"
				}
				p := filepath.Join(dir, "seeds.txt")
				body := ""
				for _, sd := range seeds {
					body += sd + "\n"
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				return fmt.Sprintf("seeds_file: %q\ndepth: 1\n", p)
			}
			w.crawl(t, out, profile("http://a.test/"))
			if w.count("a.test/th/") != 1 || w.count("a.test/th/1") != 0 {
				t.Fatalf("the first crawl, depth 1, fetched %v", w.snapshot())
			}
			if tc.changed {
				w.set("a.test/th/", "/th/1 /th/2")
			}
			before := w.snapshot()
			w.crawl(t, out, profile("http://a.test/", "http://a.test/th/"))
			got := fetchedSince(w, before)
			if got["a.test/th/"] == 0 {
				t.Fatalf("generation 2 did not fetch its seed /th/: %v", got)
			}
			if got["a.test/th/1"] == 0 {
				t.Errorf("generation 2 never fetched http://a.test/th/1, one hop from its seed /th/ under depth 1 (fetched %v); crawl.log: %q",
					got, crawlLogLines(t, out, "http://a.test/th/1"))
			}
			if tc.changed && got["a.test/th/2"] == 0 {
				t.Errorf("generation 2 never fetched http://a.test/th/2, one hop from its seed /th/ (fetched %v)", got)
			}
		})
	}
}

// TestDiffReviewKnownURLShallowerNow: a page the first generation found
// at depth 3 is linked from the home page by the time of the second
// (a site reorganised; a "popular" box), whose profile lowers the depth
// limit to 1. The new generation queued the known URL again with its old
// depth, 3; the home page's link to it, at depth 1, was a duplicate; and
// the scope check at the lease rejected it as too deep (-5004 depth 3,
// limit 1), so a page at depth 1 of the crawl's own tree was never
// fetched. A known URL past the depth limit is now not queued again from
// the history: a link nearer its seed queues it at its new depth. (from a
// diff review in the twenty-ninth session; the fix in the thirtieth)
func TestDiffReviewKnownURLShallowerNow(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 8\n")
	if w.count("a.test/th/2") != 1 {
		t.Fatalf("the first crawl did not reach /th/2: %v", w.snapshot())
	}
	w.set("a.test/", "/th/ /en/ /th/2")
	before := w.snapshot()
	stderr := w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 1\n")
	got := fetchedSince(w, before)
	if got["a.test/"] == 0 {
		t.Fatalf("generation 2 did not fetch the home page: %v", got)
	}
	if got["a.test/th/2"] == 0 {
		t.Errorf("generation 2 never fetched /th/2, linked from the home page (depth 1, limit 1) (fetched %v); crawl.log: %q",
			got, crawlLogLines(t, out, "http://a.test/th/2"))
	}
	// Still held to the limit: the pages past it that nothing nearer
	// links are not fetched, and the start says how many it left out.
	for _, p := range []string{"a.test/th/1", "a.test/en/1"} {
		if got[p] > 0 {
			t.Errorf("generation 2, depth 1, fetched %s (depth 2) %d times", p, got[p])
		}
	}
	if !strings.Contains(stderr, "past the depth limit") {
		t.Errorf("the start does not say that known URLs past the depth limit are left out:\n%s", stderr)
	}
}
