package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
)

// TestCutInsideLastCapture (from a review): a previous crawl's WARC file
// cut short inside its last response record (no capture starts past the
// cut) was taken for whole, named in no warning, and the re-crawl wrote
// revisits of the cut records, which no replay can resolve. The record of
// the capture nearest each file's end is now read whole or not.
func TestCutInsideLastCapture(t *testing.T) {
	w, prev, files := previousInFiles(t)
	// Every file cut 40 bytes into its last response record.
	var cutIDs = map[string]bool{}
	for _, f := range files {
		recs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		var last *archive.Record
		for i := range recs {
			if recs[i].Type == "response" {
				last = &recs[i]
			}
		}
		if last == nil {
			continue
		}
		for _, r := range recs {
			if r.Offset >= last.Offset {
				cutIDs[r.ID] = true
			}
		}
		if err := os.Truncate(f, last.Offset+40); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	var stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), w.profile(t, out, fmt.Sprintf("recrawl:\n  previous: %s\n", prev)), io.Discard, &stderr); err != nil {
		t.Fatalf("re-crawl: %v\n%s", err, stderr.String())
	}
	dangling := 0
	for _, r := range warcRecords(t, filepath.Join(out, warcDir)) {
		if r.Type == "revisit" && cutIDs[r.RefersTo] {
			dangling++
			t.Logf("revisit of cut record %s (%s)", r.RefersTo, r.TargetURI)
		}
	}
	if dangling > 0 {
		t.Errorf("%d revisits refer to records cut short; warning: %q", dangling, stderr.String())
	}
	if !bytes.Contains(stderr.Bytes(), []byte("(cut short)")) {
		t.Errorf("the start names no file cut short: %q", stderr.String())
	}
}
