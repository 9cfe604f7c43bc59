package main

import (
	"fmt"
	"os"
	"path/filepath"
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
				pages := map[string]string{}
				for k, v := range reviewPages {
					pages[k] = v
				}
				pages["a.test/th/"] = "/th/1 /th/2"
				w.mu.Lock()
				w.pages = pages
				w.mu.Unlock()
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
