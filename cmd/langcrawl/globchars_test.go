package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOutWithGlobCharacters: a crawl whose --out holds glob characters
// (/data/thai[2026]) is a crawl like any other. Its files were looked for
// with filepath.Glob, which read the folder as a pattern and matched
// nothing: the index runs were never merged into warcs/index.cdxj, a WARC
// file a kill left open was never closed, and the crawl.log lines a kill
// lost were not rebuilt (found reading the code after a kill-edge
// review's fix, in the thirtieth session).
func TestOutWithGlobCharacters(t *testing.T) {
	w := startWeb(t)
	out := filepath.Join(t.TempDir(), "thai[2026]")
	cfg := w.profile(t, out, "")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(out, warcDir, "index.cdxj"))
	if err != nil || len(index) == 0 {
		t.Fatalf("the crawl in %s wrote no index.cdxj (%v, %d bytes)", out, err, len(index))
	}
	runs, _ := os.ReadDir(filepath.Join(out, warcDir, "index.d"))
	for _, r := range runs {
		if strings.HasSuffix(r.Name(), ".cdxj") {
			t.Errorf("index run %s left unmerged", r.Name())
		}
	}
	// A WARC file a kill left open is closed by the next start.
	warcs := newestWARCs(filepath.Join(out, warcDir), 1)
	if len(warcs) != 1 {
		t.Fatalf("no WARC file found in %s", out)
	}
	if err := os.Rename(warcs[0], warcs[0]+".open"); err != nil {
		t.Fatal(err)
	}
	if _, err := runCrawl(context.Background(), w.profile(t, out, ""), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(warcs[0] + ".open"); err == nil {
		t.Errorf("%s.open was not closed by the next start", warcs[0])
	}
}

// TestNewestWARCsByTime: the WARC files a kill's start reads again are the
// newest by when they were written, not by name: a warc.prefix changed
// between runs sorted the file a kill left open before the older ones.
func TestNewestWARCsByTime(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i, name := range []string{"zzz-20261101000000000-00000-h.warc.gz", "zzz-20261101000000000-00001-h.warc.gz", "aaa-20261102000000000-00002-h.warc.gz"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old.Add(time.Duration(i)*time.Minute), old.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	got := newestWARCs(dir, 2)
	if len(got) != 2 || filepath.Base(got[1]) != "aaa-20261102000000000-00002-h.warc.gz" || filepath.Base(got[0]) != "zzz-20261101000000000-00001-h.warc.gz" {
		t.Errorf("newestWARCs = %v; want the two written last, aaa-… last", got)
	}
}
