package logfiles

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSegments: rotated segments, compressed or not, in the order they were written (by
// stamp, then by number, 10 after 2), the live file last; other names
// beside them are not segments.
func TestSegments(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"crawl.log", "crawl.log.20261126170000-10", "crawl.log.20261126170000",
		"crawl.log.20261126170000-2", "crawl.log.20261125000000", "crawl.log.tmp", "crawl.log.2026",
		"crawl.log.20261126170000-02", "crawl.log.20261126170000-x", "other.log.20261126170000", "langcrawl.log",
		"crawl.log.20261124000000.gz", "crawl.log.20261126170000.gz", "crawl.log.20261126170000-10.gzip"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Segments(filepath.Join(dir, "crawl.log"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range got {
		names = append(names, filepath.Base(g))
	}
	// A .gz segment stands for its plain one, unless that is still there
	// (gzip at work).
	want := []string{"crawl.log.20261124000000.gz", "crawl.log.20261125000000", "crawl.log.20261126170000", "crawl.log.20261126170000-2",
		"crawl.log.20261126170000-10", "crawl.log"}
	if !slices.Equal(names, want) {
		t.Errorf("Segments = %q, want %q", names, want)
	}
	if got, err := Segments(filepath.Join(dir, "missing", "crawl.log")); err != nil || got != nil {
		t.Errorf("Segments of a missing directory = %q, %v", got, err)
	}
}

// TestRotated: the UTC time of the rotation, with a number when the name
// is taken, by a segment or by its compressed form.
func TestRotated(t *testing.T) {
	at := time.Date(2026, 11, 26, 18, 4, 12, 0, time.FixedZone("x", 3600))
	taken := map[string]bool{"l.20261126170412": true, "l.20261126170412-1.gz": true}
	if got := Rotated("l", at, func(p string) bool { return taken[p] }); got != "l.20261126170412-2" {
		t.Errorf("Rotated = %q", got)
	}
	if got := Rotated("l", at, func(string) bool { return false }); got != "l.20261126170412" {
		t.Errorf("Rotated = %q", got)
	}
}
