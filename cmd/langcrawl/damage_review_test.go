package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
)

func countType(t *testing.T, dir, typ string) int {
	t.Helper()
	n := 0
	for _, r := range warcRecords(t, dir) {
		if r.Type == typ {
			n++
		}
	}
	return n
}

// TestChainedRecrawlKeepsRevisits (from a review): crawl 0, crawl 1 with
// recrawl.previous crawl 0, crawl 2 with recrawl.previous crawl 1, all
// WARC files in place. Crawl 1 writes its unchanged pages as revisits,
// and their histories keep the capture they refer to: File names crawl
// 0's WARC file (crawl/loop.go, notModified). recrawl.previous looks for
// that file in crawl 1's warcs/ only, took it for missing, warned that
// WARC files were missing, and crawl 2 fetched every unchanged page in
// full: a chain of re-crawls lost its deduplication at the third.
func TestChainedRecrawlKeepsRevisits(t *testing.T) {
	w := startWeb(t)
	c0, c1, c2 := t.TempDir(), t.TempDir(), t.TempDir()
	crawlInto(t, w, c0, "")
	var e1 bytes.Buffer
	if _, err := runCrawl(context.Background(), w.profile(t, c1, fmt.Sprintf("recrawl:\n  previous: %s\n", c0)), io.Discard, &e1); err != nil {
		t.Fatalf("crawl 1: %v\n%s", err, e1.String())
	}
	r1 := countType(t, filepath.Join(c1, warcDir), "revisit")
	if r1 == 0 {
		t.Fatalf("crawl 1 wrote no revisit: the test shows nothing")
	}
	var e2 bytes.Buffer
	if _, err := runCrawl(context.Background(), w.profile(t, c2, fmt.Sprintf("recrawl:\n  previous: %s\n", c1)), io.Discard, &e2); err != nil {
		t.Fatalf("crawl 2: %v\n%s", err, e2.String())
	}
	r2 := countType(t, filepath.Join(c2, warcDir), "revisit")
	for _, l := range strings.Split(e2.String(), "\n") {
		if strings.Contains(l, "WARC files missing") {
			t.Errorf("crawl 2 warns with every WARC file in place: %s", l)
		}
	}
	if r2 < r1*9/10 {
		t.Errorf("crawl 2 wrote %d revisits, crawl 1 %d: the unchanged pages were fetched in full", r2, r1)
	}
}

// TestTruncatedWARCNotRevisited (from a review): the previous crawl's WARC file is
// there but cut short (a copy interrupted, a full disk on the archive
// side). Only an empty file counted as gone: the captures past the cut
// were taken as present and the re-crawl wrote revisits of records that
// exist nowhere.
func TestTruncatedWARCNotRevisited(t *testing.T) {
	w, prev, files := previousInFiles(t)
	all := warcRecords(t, filepath.Join(prev, warcDir))
	cutFile := files[0]
	fi, err := os.Stat(cutFile)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the first tenth of the file: the records starting at or
	// after the cut are gone.
	cut := fi.Size() / 10
	if err := os.Truncate(cutFile, cut); err != nil {
		t.Fatal(err)
	}
	existing := make(map[string]bool)
	for _, f := range files {
		rs, _ := readAllLenient(f)
		for _, id := range rs {
			existing[id] = true
		}
	}
	goneIDs := 0
	for _, r := range all {
		if !existing[r.ID] {
			goneIDs++
		}
	}
	if goneIDs == 0 {
		t.Fatalf("cut removed no record")
	}
	out := t.TempDir()
	var stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), w.profile(t, out, fmt.Sprintf("recrawl:\n  previous: %s\n", prev)), io.Discard, &stderr); err != nil {
		t.Fatalf("re-crawl: %v\n%s", err, stderr.String())
	}
	own := make(map[string]bool)
	outRecs := warcRecords(t, filepath.Join(out, warcDir))
	for _, r := range outRecs {
		own[r.ID] = true
	}
	dangling := 0
	for _, r := range outRecs {
		if r.Type == "revisit" && !existing[r.RefersTo] && !own[r.RefersTo] {
			dangling++
		}
	}
	if dangling > 0 {
		t.Errorf("%d revisits refer to records cut from %s (%d records gone)", dangling, filepath.Base(cutFile), goneIDs)
	}
}

// readAllLenient lists the IDs of the records of a WARC file up to where
// it stops reading.
func readAllLenient(f string) ([]string, error) {
	recs, err := archive.ReadAll(f)
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	return ids, err
}

// TestDamagedManifestSaid (from a review): a frontier whose MANIFEST (or a
// table) is damaged is refused by LevelDB; the start reported it as
// "is another program using this directory?", sending the operator to
// look for a process instead of a backup.
func TestDamagedManifestSaid(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	crawlInto(t, w, out, "")
	ms, _ := filepath.Glob(filepath.Join(out, frontierDir, "MANIFEST-*"))
	if len(ms) != 1 {
		t.Fatalf("manifests: %v", ms)
	}
	data, err := os.ReadFile(ms[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	if err := os.WriteFile(ms[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = runCrawl(context.Background(), w.profile(t, out, ""), io.Discard, io.Discard)
	if err == nil {
		t.Fatalf("a frontier with a damaged MANIFEST opened")
	}
	if strings.Contains(err.Error(), "is another program using this directory") || !strings.Contains(err.Error(), "from a backup") {
		t.Errorf("damaged MANIFEST not said as such: %v", err)
	}
}
