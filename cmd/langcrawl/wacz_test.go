package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/wacz"
)

// TestIndexAndWACZCommands crawls part of the demo web, then checks the
// provenance in every warcinfo record (isPartOf, the build's version), the
// profile kept for the run, `langcrawl index` against the crawl's own
// index, and `langcrawl wacz` by reading the WACZ back.
func TestIndexAndWACZCommands(t *testing.T) {
	w := startWeb(t)
	out := filepath.Join(t.TempDir(), "thai-job")
	// Two runs: the crawl, then a re-crawl generation on the same --out.
	for range 2 {
		cfg := w.profile(t, out, "")
		if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	warcs := filepath.Join(out, warcDir)
	files, _ := filepath.Glob(filepath.Join(warcs, "*.warc.gz"))
	if len(files) < 2 {
		t.Fatalf("%d WARC files; the test wants several", len(files))
	}
	// Serial numbers continue across the runs: 00000, 00001, ...
	for i, f := range files {
		if want := fmt.Sprintf("-%05d-", i); !strings.Contains(filepath.Base(f), want) {
			t.Errorf("WARC file %d is %s, want serial %s", i, filepath.Base(f), want)
		}
	}

	// Provenance.
	for _, f := range files {
		var info []byte
		archive.Each(f, 1<<20, func(r archive.Record) error {
			if r.Type == "warcinfo" && info == nil {
				info = r.Block
			}
			return nil
		})
		if !bytes.Contains(info, []byte("\r\nisPartOf: thai-job\r\n")) {
			t.Errorf("%s: warcinfo without isPartOf: thai-job:\n%s", f, info)
		}
		if !bytes.HasPrefix(info, []byte("software: langcrawl/"+buildVersion()+"\r\n")) {
			t.Errorf("%s: warcinfo software is not langcrawl/%s:\n%s", f, buildVersion(), info)
		}
	}
	kept, _ := filepath.Glob(filepath.Join(out, profilesDir, "profile-*.yaml"))
	latest, _ := os.ReadFile(filepath.Join(out, "profile.yaml"))
	if len(kept) != 2 {
		t.Fatalf("%d profiles kept, want one for each of the 2 runs", len(kept))
	}
	if b, _ := os.ReadFile(kept[1]); !bytes.Equal(b, latest) || !bytes.Contains(b, []byte("collection: thai-job")) {
		t.Errorf("kept profile %s differs from profile.yaml or lacks the collection", kept[1])
	}

	// langcrawl index reproduces the crawl's own index.
	own, err := os.ReadFile(filepath.Join(warcs, archive.IndexName))
	if err != nil || len(own) == 0 {
		t.Fatalf("crawl's index: %v (%d bytes)", err, len(own))
	}
	var stdout, stderr bytes.Buffer
	cmd := indexCmd()
	cmd.SetArgs([]string{warcs})
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stdout.Bytes(), own) {
		t.Errorf("langcrawl index differs from the crawl's index.cdxj (%d bytes, want %d)", stdout.Len(), len(own))
	}
	// The progress line (TestFileMeter) goes to stderr, its last one after
	// the last file.
	if want := fmt.Sprintf("index: %d of %d WARC files, ", len(files), len(files)); !strings.Contains(stderr.String(), want) {
		t.Errorf("langcrawl index's stderr is %q, want a line with %q", stderr.String(), want)
	}

	// Interrupted (Ctrl-C cancels the command's context), wacz and index
	// stop after a file and keep nothing: no output, no temporary file.
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	empty := t.TempDir()
	if err := packageCrawl(stopped, out, filepath.Join(empty, "c.wacz"), "", io.Discard, io.Discard); !errors.Is(err, context.Canceled) {
		t.Errorf("wacz interrupted: %v, want context.Canceled", err)
	}
	cmd = indexCmd()
	cmd.SetArgs([]string{warcs, "--out", filepath.Join(empty, "index.cdxj")})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.ExecuteContext(stopped); !errors.Is(err, context.Canceled) {
		t.Errorf("index interrupted: %v, want context.Canceled", err)
	}
	if left, _ := os.ReadDir(empty); len(left) != 0 {
		t.Errorf("interrupted wacz and index left %v", left)
	}
	// A -o in a folder that is not there is named before anything is read.
	missing := filepath.Join(empty, "no-such-folder", "c.wacz")
	if err := packageCrawl(context.Background(), out, missing, "", io.Discard, io.Discard); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), filepath.Dir(missing)) {
		t.Errorf("wacz -o %s: %v, want a usage error naming the folder", missing, err)
	}

	// Without --out, OUT.wacz beside OUT (README, "WACZ").
	if err := packageCrawl(context.Background(), out, "", "", io.Discard, io.Discard); err != nil {
		t.Fatalf("wacz with no --out: %v", err)
	}
	if zr, err := zip.OpenReader(filepath.Clean(out) + ".wacz"); err != nil {
		t.Errorf("wacz with no --out did not write OUT.wacz: %v", err)
	} else {
		zr.Close()
		os.Remove(filepath.Clean(out) + ".wacz")
	}

	// langcrawl wacz.
	waczPath := filepath.Join(t.TempDir(), "c.wacz")
	cmd = waczCmd()
	cmd.SetArgs([]string{out, "--out", waczPath})
	cmd.SetOut(io.Discard)
	stderr.Reset()
	cmd.SetErr(&stderr)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("wacz: %d of %d WARC files, ", len(files), len(files)); !strings.Contains(stderr.String(), want) {
		t.Errorf("langcrawl wacz's stderr is %q, want a line with %q", stderr.String(), want)
	}
	zr, err := zip.OpenReader(waczPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	got := map[string]*zip.File{}
	for _, f := range zr.File {
		got[f.Name] = f
	}
	for _, f := range files {
		if zf := got["archive/"+filepath.Base(f)]; zf == nil || zf.Method != zip.Store {
			t.Errorf("%s missing from the WACZ, or deflated", f)
		}
	}
	read := func(name string) []byte {
		zf := got[name]
		if zf == nil {
			t.Fatalf("%s missing from the WACZ", name)
		}
		rc, _ := zf.Open()
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	gz, err := gzip.NewReader(bytes.NewReader(read(wacz.IndexPath)))
	if err != nil {
		t.Fatal(err)
	}
	if idx, _ := io.ReadAll(gz); !bytes.Equal(idx, own) {
		t.Error("the WACZ's index.cdx.gz differs from the crawl's index.cdxj")
	}
	var dp wacz.DataPackage
	if err := json.Unmarshal(read(wacz.DataPackagePath), &dp); err != nil {
		t.Fatal(err)
	}
	if dp.Title != "thai-job" || dp.WACZVersion != "1.1.1" || len(dp.Resources) != len(files)+3 {
		t.Errorf("datapackage.json: title %q, version %q, %d resources", dp.Title, dp.WACZVersion, len(dp.Resources))
	}
	pages := strings.Split(strings.TrimSpace(string(read(wacz.PagesPath))), "\n")
	withLang := 0
	for _, l := range pages[1:] {
		var p wacz.Page
		json.Unmarshal([]byte(l), &p)
		if p.Lang != "" {
			withLang++
		}
	}
	if len(pages) < 2 || withLang == 0 {
		t.Errorf("%d pages, %d with a language", len(pages)-1, withLang)
	}
}
