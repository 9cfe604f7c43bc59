package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/frontier"
)

// dirSums returns the SHA-256 of every file under dir, by relative path.
func dirSums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	sums := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		sums[rel] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// TestPreviousRecrawl: --previous (recrawl.previous) starts a new output
// directory from the fetch history of a finished crawl. The unchanged
// pages become revisits naming the earlier crawl's records; the earlier
// crawl's directory is left byte for byte as it was (it may sit on
// read-only, fixity-checked storage); and the new crawl's profile names
// the earlier one by its absolute path.
func TestPreviousRecrawl(t *testing.T) {
	w := startWeb(t)
	prev := t.TempDir()
	if _, err := runCrawl(context.Background(), w.profile(t, prev, ""), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := responses(warcRecords(t, filepath.Join(prev, warcDir)))
	before := dirSums(t, prev)

	out := t.TempDir()
	cfg := w.profile(t, out, fmt.Sprintf("recrawl:\n  previous: %s\n", prev))
	var stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "re-crawl from "+prev+": ") {
		t.Errorf("stderr does not name the import:\n%s", stderr.String())
	}
	after := dirSums(t, prev)
	for name, sum := range before {
		if after[name] != sum {
			t.Errorf("%s of the earlier crawl changed", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("the earlier crawl's directory held %d files, now %d", len(before), len(after))
	}
	byID := map[string]bool{}
	for _, rs := range first {
		for _, r := range rs {
			byID[r.ID] = true
		}
	}
	revisits := 0
	for _, r := range warcRecords(t, filepath.Join(out, warcDir)) {
		if r.Type == "revisit" {
			revisits++
			if !byID[r.RefersTo] {
				t.Errorf("revisit of %s names no record of the earlier crawl: %q", r.TargetURI, r.RefersTo)
			}
		}
	}
	if revisits < 100 {
		t.Errorf("%d revisits of the earlier crawl's pages, want the unchanged pages (100 or more)", revisits)
	}
	profile, _ := os.ReadFile(filepath.Join(out, "profile.yaml"))
	if !strings.Contains(string(profile), "previous: "+prev+"\n") {
		t.Errorf("profile.yaml does not name the earlier crawl as %s:\n%s", prev, profile)
	}
	// Its WACZ alone cannot replay those revisits, and wacz says so.
	var wstderr bytes.Buffer
	if err := packageCrawl(context.Background(), out, filepath.Join(t.TempDir(), "b.wacz"), "", io.Discard, &wstderr); err != nil {
		t.Fatal(err)
	}
	if want := "was set to deduplicate against captures outside it (" + prev + ")"; !strings.Contains(wstderr.String(), want) {
		t.Errorf("wacz's stderr lacks %q:\n%s", want, wstderr.String())
	}
}

// TestPreviousNotACrawl: --previous naming a folder that holds no crawl
// is refused before anything is made, naming the key; it used to make an
// empty frontier there and crawl from nothing.
func TestPreviousNotACrawl(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(p, []byte("seeds: [http://a.example/]\nuser_agent: \"test/1 (+http://library.example/)\"\n"), 0o644)
	// A path that does not exist (a typo), and a folder that exists and
	// holds no crawl (README: "refused before anything is made").
	typo := filepath.Join(t.TempDir(), "A_gen1_typo")
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("not a crawl\n"), 0o644)
	for _, prev := range []string{typo, empty} {
		out := filepath.Join(t.TempDir(), "new")
		code := run([]string{"crawl", "--profile", p, "--out", out, "--previous", prev})
		if code != 2 {
			t.Errorf("--previous %s: exit %d, want 2", prev, code)
		}
		if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("--previous %s: the refused start made --out %s: %v", prev, out, err)
		}
	}
	if _, err := os.Stat(typo); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused start made %s: %v", typo, err)
	}
	if ents, _ := os.ReadDir(empty); len(ents) != 1 {
		t.Errorf("the refused start wrote into %s: %d entries", empty, len(ents))
	}
}

// TestPreviousIsOut: --previous naming the output directory itself is a
// usage error that says how to re-crawl in place; it was read as a crawl
// held by a running one (this one), "stop it first".
func TestPreviousIsOut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(p, []byte("seeds: [http://a.example/]\nuser_agent: \"test/1 (+http://library.example/)\"\n"), 0o644)
	out := t.TempDir()
	cfg, err := config.Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Out, cfg.Recrawl.Previous = out, out+"/."
	_, err = runCrawl(context.Background(), cfg, io.Discard, io.Discard)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "is the output directory itself") || !strings.Contains(err.Error(), "without --previous") {
		t.Errorf("--previous OUT: %v, want a usage error saying how to re-crawl in place", err)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("the refused start wrote into %s: %d entries", out, len(ents))
	}
}

// TestImportHistoryResumes: an import that a kill cut short is taken up
// again at the next start, and copies what it had not; a URL the new
// frontier knows keeps its own history; once whole, the import is not
// done again.
func TestImportHistoryResumes(t *testing.T) {
	prev := t.TempDir()
	old, err := frontier.Open(filepath.Join(prev, frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	hist := func(i int, status int) frontier.History {
		return frontier.History{URL: fmt.Sprintf("http://a.example/%d", i), Fetched: at, Status: status, Digest: "sha1:X"}
	}
	for i := range 50 {
		if err := old.SetHistory(hist(i, 200).URL, hist(i, 200)); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	q, err := frontier.Open(filepath.Join(t.TempDir(), frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	// What a kill left: ten copied, and one URL crawled anew since.
	for i := range 10 {
		q.SetHistory(hist(i, 200).URL, hist(i, 200))
	}
	q.SetHistory(hist(49, 404).URL, hist(49, 404))
	n, done, err := importHistory(q, prev, false)
	if err != nil || done || n != 39 {
		t.Fatalf("importHistory after a kill = %d, %v, %v; want 39 copied", n, done, err)
	}
	count := 0
	q.EachHistory(func(h frontier.History) error {
		count++
		if h.URL == hist(49, 0).URL && h.Status != 404 {
			t.Errorf("%s: its own history was overwritten by the earlier crawl's", h.URL)
		}
		return nil
	})
	if count != 50 {
		t.Errorf("%d URLs with history, want 50", count)
	}
	if n, done, err := importHistory(q, prev, false); err != nil || !done || n != 0 {
		t.Errorf("importHistory again = %d, %v, %v; want it done before", n, done, err)
	}
}

// TestImportCutShortWARC: captures past the end of a previous crawl's WARC
// file that was cut short, and the one nearest the cut, are imported with
// no capture (fetched in full); those before it keep theirs. The capture
// nearest the cut is found again when a kill cut the import short after
// it had copied everything.
func TestImportCutShortWARC(t *testing.T) {
	prev := t.TempDir()
	if err := os.MkdirAll(filepath.Join(prev, warcDir), 0o755); err != nil {
		t.Fatal(err)
	}
	const name = "langcrawl-20260101000000000-00000-h.warc.gz"
	if err := os.WriteFile(filepath.Join(prev, warcDir, name), make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := frontier.Open(filepath.Join(prev, frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	offsets := []int64{0, 300, 600, 900, 1200, 1500}
	hist := func(off int64) frontier.History {
		return frontier.History{URL: fmt.Sprintf("http://a.example/%d", off), Status: 200, Digest: "sha1:X",
			RecordID: fmt.Sprintf("<urn:uuid:%d>", off), File: "/elsewhere/" + name, Offset: off, Fetched: time.Unix(1700000000, 0)}
	}
	for _, off := range offsets {
		if err := old.SetHistory(hist(off).URL, hist(off)); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	check := func(q *frontier.Queue, how string) {
		t.Helper()
		for _, off := range offsets {
			h, _, err := q.History(hist(off).URL)
			if err != nil {
				t.Fatal(err)
			}
			if kept := h.RecordID != ""; kept != (off < 900) {
				t.Errorf("%s: capture at %d kept %v (file of 1000 bytes, cut short)", how, off, kept)
			}
		}
	}

	q, err := frontier.Open(filepath.Join(t.TempDir(), frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if _, _, err := importHistory(q, prev, false); !errors.Is(err, errWARCsMissing) || !strings.Contains(err.Error(), name+" (cut short)") {
		t.Errorf("import: %v, want the warning naming the file cut short", err)
	}
	check(q, "import")

	// A kill after every history was copied, before the capture nearest
	// the cut was cleared and the import marked done.
	q2, err := frontier.Open(filepath.Join(t.TempDir(), frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q2.Close()
	for _, off := range offsets {
		h := hist(off)
		if off >= 1000 {
			noCapture(&h)
		}
		if err := q2.SetHistory(h.URL, h); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := importHistory(q2, prev, false); !errors.Is(err, errWARCsMissing) {
		t.Errorf("import taken up: %v, want the warning", err)
	}
	check(q2, "import taken up after a kill")
}

// TestImportHistoryNotACrawl: an import taken up at a later start whose
// recrawl.previous no longer holds a crawl (moved, a typo in an edited
// profile) is a usage error saying so, not a LevelDB error.
func TestImportHistoryNotACrawl(t *testing.T) {
	q, err := frontier.Open(filepath.Join(t.TempDir(), frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	_, _, err = importHistory(q, t.TempDir(), false)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "not a langcrawl crawl") {
		t.Errorf("importHistory of a folder with no crawl: %v, want a usage error saying it is not a crawl", err)
	}
}

// TestPreviousUnreadableMakesNothing: a --previous crawl whose frontier
// cannot be read (its CURRENT file damaged) is refused before anything
// is made. Before, the start made OUT (frontier, logs, warcs, a profile
// naming --previous) and failed at the import; the next start without
// --previous took OUT for a new crawl, and `wacz` warned of captures
// outside it. (from a README trial)
func TestPreviousUnreadableMakesNothing(t *testing.T) {
	prev := t.TempDir()
	old, err := frontier.Open(filepath.Join(prev, frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := frontier.History{URL: "http://a.example/", Fetched: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Status: 200, Digest: "sha1:X"}
	if err := old.SetHistory(h.URL, h); err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(prev, warcDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prev, warcDir, "A-00000.warc.gz"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prev, frontierDir, "CURRENT"), []byte("garbage\x00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(p, []byte("seeds: [http://a.example/]\nuser_agent: \"test/1 (+http://library.example/)\"\n"), 0o644)
	cfg, err := config.Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "new")
	cfg.Out, cfg.Recrawl.Previous = out, prev
	_, err = runCrawl(context.Background(), cfg, io.Discard, io.Discard)
	if err == nil {
		t.Fatalf("a --previous crawl whose frontier cannot be read started")
	}
	if _, serr := os.Stat(out); !errors.Is(serr, fs.ErrNotExist) {
		t.Errorf("the refused start made --out %s: %v (error: %v)", out, serr, err)
	}
	if !strings.Contains(err.Error(), prev) || !strings.Contains(err.Error(), "nothing was made") {
		t.Errorf("the error does not name --previous and say nothing was made: %v", err)
	}
}
