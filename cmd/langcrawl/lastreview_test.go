package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLastReviewResumedGenerationMixedProfile (from a review of the last
// commits): a generation whose first run excluded /en/ (and stopped at
// max_pages 1, after the home page), resumed under a profile that lifts
// the exclusion. The home page's links were decided under the first run's
// profile, /en/ rejected; the generation's mark is the resumed run's
// profile alone (MarkProfile keeps a run's last word), so the next
// generation, under that same profile, took its 304 home page as decided
// under the same rules, read no link of its capture, and never found
// /en/, which TestRecrawlReviewLiftedExclusion finds without the resume.
func TestLastReviewResumedGenerationMixedProfile(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://a.test/]\nmax_pages: 1\nscope:\n  exclude: ['/en/']\n")
	if w.count("a.test/") != 1 || w.count("a.test/th/") != 0 {
		t.Fatalf("the first run, max_pages 1, fetched %v", w.snapshot())
	}
	w.crawl(t, out, "seeds: [http://a.test/]\n") // the same generation, resumed
	if w.count("a.test/th/") != 1 || w.count("a.test/en/") != 0 {
		t.Fatalf("the resumed run fetched %v", w.snapshot())
	}
	before := w.snapshot()
	w.crawl(t, out, "seeds: [http://a.test/]\n") // generation 2
	got := fetchedSince(w, before)
	if got["a.test/"] == 0 {
		t.Fatalf("generation 2 did not visit the home page: %v", got)
	}
	for _, p := range []string{"a.test/en/", "a.test/en/1"} {
		if got[p] == 0 {
			t.Errorf("generation 2, the exclusion of its first run lifted, never fetched %s (fetched %v)", p, got)
		}
	}
}

// TestLastReviewUnexcludeByOperator (from a review of the last commits):
// the operator excluded /en/ through the action directory in generation
// 1, and lifts it the same way before generation 2 starts. The profile
// file is the same, so its hash is, and generation 2 read no link of its
// 304 home page: /en/ was never found. The rules a generation decided
// its links under are the profile's and the operator's (control.json).
func TestLastReviewUnexcludeByOperator(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	act := func(cmd string) {
		t.Helper()
		dir := filepath.Join(out, "action")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "steer.txt")
		if err := os.WriteFile(p, []byte(cmd+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour) // settled: read before the first fetch
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	act("exclude /en/")
	w.crawl(t, out, "seeds: [http://a.test/]\n")
	if w.count("a.test/") != 1 || w.count("a.test/en/") != 0 {
		t.Fatalf("generation 1, /en/ excluded by the operator, fetched %v", w.snapshot())
	}
	act("unexclude /en/")
	before := w.snapshot()
	w.crawl(t, out, "seeds: [http://a.test/]\n")
	got := fetchedSince(w, before)
	if got["a.test/"] == 0 {
		t.Fatalf("generation 2 did not visit the home page: %v", got)
	}
	for _, p := range []string{"a.test/en/", "a.test/en/1"} {
		if got[p] == 0 {
			t.Errorf("generation 2, the operator's exclusion lifted, never fetched %s (fetched %v)", p, got)
		}
	}
}
