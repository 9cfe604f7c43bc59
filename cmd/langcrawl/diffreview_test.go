package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestDiffReviewSeedKnownAsLink: a URL the first generation reached by a
// link is a seed of the profile of the second (an archivist adds a
// section's index as a seed, and lowers the depth limit to keep the crawl
// near the seeds). The new generation queues the known URLs before the
// seeds, so the seed is already queued, with its old hop path (a link)
// and its old depth, and Seed skips it; at its lease the scope check held
// it to the depth limit as a link: the seed was never fetched, nor
// anything behind it. Before the scope check at lease time it was
// fetched. (from a diff review)
func TestDiffReviewSeedKnownAsLink(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 8\n")
	if w.count("a.test/th/1") != 1 {
		t.Fatalf("the first crawl did not reach /th/1: %v", w.snapshot())
	}
	// A page new behind the seed: one hop from it.
	w.set("a.test/th/1", "/th/2 /th/new")
	w.set("a.test/th/new", "")
	before := w.snapshot()
	w.crawl(t, out, "seeds: [http://a.test/, http://a.test/th/1]\ndepth: 1\n")
	got := fetchedSince(w, before)
	if got["a.test/th/1"] == 0 {
		t.Errorf("generation 2 never fetched its seed http://a.test/th/1 (fetched %v); crawl.log: %q",
			got, crawlLogLines(t, out, "http://a.test/th/1"))
	}
	// And it is a seed: its new link, at depth 1 from it, is followed.
	if got["a.test/th/new"] == 0 {
		t.Errorf("generation 2 never fetched http://a.test/th/new, a link of its seed /th/1, depth 1 (fetched %v); crawl.log: %q",
			got, crawlLogLines(t, out, "http://a.test/th/new"))
	}
}

// TestDiffReviewPreviousMoved: a crawl's directory moved (to another disk,
// an archive store) before a re-crawl begun from it with --previous and a
// raised depth limit. importHistory finds the WARC files in the moved
// directory's warcs/ by base name and keeps the captures, so the pages
// answer 304; captureLinks looked only at the path the history names
// (the old place), found nothing, and the 304s followed no link: the
// pages behind the unchanged ones, which the raised limit admits, were
// never fetched. (from a diff review)
func TestDiffReviewPreviousMoved(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	base := t.TempDir()
	first := filepath.Join(base, "first")
	w.crawl(t, first, "seeds: [http://a.test/]\ndepth: 1\n")
	if w.count("a.test/th/1") != 0 || w.count("a.test/th/") != 1 {
		t.Fatalf("the first crawl, depth 1, fetched %v", w.snapshot())
	}
	moved := filepath.Join(base, "moved")
	if err := os.Rename(first, moved); err != nil {
		t.Fatal(err)
	}
	before := w.snapshot()
	w.crawl(t, filepath.Join(base, "second"), fmt.Sprintf("seeds: [http://a.test/]\ndepth: 8\nrecrawl:\n  previous: %s\n", moved))
	got := fetchedSince(w, before)
	if got["a.test/th/"] == 0 {
		t.Fatalf("the re-crawl did not visit /th/: %v", got)
	}
	for _, p := range []string{"a.test/th/1", "a.test/en/1"} {
		if got[p] == 0 {
			t.Errorf("the --previous re-crawl of a moved crawl, depth 8, never fetched %s (fetched %v)", p, got)
		}
	}
}

// TestDiffReviewRelativeOut: the same for a crawl run with a relative
// --out, re-crawled in place from another working directory (a cron job
// that names the directory in full): the history names its WARC files
// relative to the first run's working directory. (from a diff review)
func TestDiffReviewRelativeOut(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	base := t.TempDir()
	t.Chdir(base)
	w.crawl(t, "crawl", "seeds: [http://a.test/]\ndepth: 1\n")
	if w.count("a.test/th/1") != 0 || w.count("a.test/th/") != 1 {
		t.Fatalf("the first crawl, depth 1, fetched %v", w.snapshot())
	}
	t.Chdir(t.TempDir())
	before := w.snapshot()
	w.crawl(t, filepath.Join(base, "crawl"), "seeds: [http://a.test/]\ndepth: 8\n")
	got := fetchedSince(w, before)
	for _, p := range []string{"a.test/th/1", "a.test/en/1"} {
		if got[p] == 0 {
			t.Errorf("generation 2, run from another directory, depth 8, never fetched %s (fetched %v)", p, got)
		}
	}
}
