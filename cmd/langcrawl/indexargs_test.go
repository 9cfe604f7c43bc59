package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestIndexArguments: `langcrawl index` given a crawl's output directory
// indexes its warcs/, and a WARC file still open is refused whether it is
// named or found in a directory. A README trial found `index OUT` refused
// ("holds no .warc or .warc.gz file") and a named .open file indexed
// without a word, where the directory holding it was refused.
func TestIndexArguments(t *testing.T) {
	out := t.TempDir()
	w := filepath.Join(out, warcDir)
	if err := os.MkdirAll(w, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"A-00001.warc.gz", "A-00000.warc.gz", "index.cdxj"} {
		if err := os.WriteFile(filepath.Join(w, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(out, frontierDir), 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := warcFiles([]string{out})
	want := []string{filepath.Join(w, "A-00000.warc.gz"), filepath.Join(w, "A-00001.warc.gz")}
	if err != nil || !slices.Equal(files, want) {
		t.Errorf("index OUT: %v, %v; want %v", files, err, want)
	}
	open := filepath.Join(w, "A-00002.warc.gz.open")
	if err := os.WriteFile(open, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{open}, {w}, {out}} {
		if _, err := warcFiles(args); err == nil || !strings.Contains(err.Error(), "still open") {
			t.Errorf("index %v with an open WARC file: %v, want it refused as still open", args, err)
		}
	}
	// A directory with no WARC file and no warcs/ is still an error.
	if _, err := warcFiles([]string{t.TempDir()}); err == nil {
		t.Errorf("index of an empty directory: no error")
	}
}
