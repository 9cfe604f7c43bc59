package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/frontier"
)

// TestDedupIndexURLWithLineBreak (from a review): a
// recrawl.dedup_index line whose url holds a line break (a damaged or
// hostile CDXJ file: JSON lets "\r\n" sit in a string) is imported as
// deduplication history as it is. The first payload of the new crawl that
// it lists is then written as a revisit naming that URL in
// WARC-Refers-To-Target-URI; the archive refuses the header (a line break
// would forge header fields), and that refusal stops the whole crawl, at
// every start, as the URL comes back each time; the digest, once
// imported, is never replaced, so taking the line out of the file did not
// cure the frontier either. The import now refuses such a line, naming
// it, and the crawl runs once the index is mended.
func TestDedupIndexURLWithLineBreak(t *testing.T) {
	w := startWeb(t)
	first := t.TempDir()
	crawlInto(t, w, first, "max_pages: 40\n")
	// The first crawl's own index, each url given a line break and a
	// forged header field.
	in, err := os.Open(filepath.Join(first, warcDir, archive.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var hostile strings.Builder
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 3)
		if len(f) < 3 {
			continue
		}
		var j map[string]any
		if err := json.Unmarshal([]byte(f[2]), &j); err != nil {
			t.Fatal(err)
		}
		j["url"] = fmt.Sprint(j["url"]) + "\r\nWARC-Type: response"
		b, _ := json.Marshal(j)
		fmt.Fprintf(&hostile, "%s %s %s\n", f[0], f[1], b)
		lines++
	}
	if lines == 0 {
		t.Fatal("the first crawl's index is empty")
	}
	idx := filepath.Join(t.TempDir(), "hostile.cdxj")
	if err := os.WriteFile(idx, []byte(hostile.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	second := t.TempDir()
	cfg := w.profile(t, second, fmt.Sprintf("max_pages: 40\nrecrawl:\n  dedup_index: [%q]\n", idx))
	var stderr strings.Builder
	_, err = runCrawl(context.Background(), cfg, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), "hostile.cdxj:1") {
		t.Errorf("a dedup index line whose url holds a line break: %v, want the start refused naming hostile.cdxj:1", err)
	}

	// The archivist mends the index (the first crawl's own, as it was) and
	// starts again: the crawl must run.
	clean, err := os.ReadFile(filepath.Join(first, warcDir, archive.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idx, clean, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatalf("after the index was mended, the crawl still stops: the bad capture stays in the frontier: %v", err)
	}
	// The crawl ran, and what it wrote reads strictly.
	warcRecords(t, filepath.Join(second, warcDir))
}

// TestDedupIndexSpaceSkipped: an index of an older archive may hold a url
// with a space, which no WARC header can name. Before, such a line stopped
// the start, and an archivist with millions of lines had to filter the
// file by hand; now it is skipped with a warning that counts the lines and
// names the first, and the rest deduplicates as before. A line break still
// stops the start (TestDedupIndexURLWithLineBreak).
func TestDedupIndexSpaceSkipped(t *testing.T) {
	w := startWeb(t)
	first := t.TempDir()
	crawlInto(t, w, first, "max_pages: 40\n")
	clean, err := os.ReadFile(filepath.Join(first, warcDir, archive.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	spaced := `test,old)/a%20b 20250102030405 {"url": "http://old.test/a b", "mime": "text/html", "status": "200", "digest": "sha1:SPACEDSPACEDSPACEDSPACEDSPACEDSP"}` + "\n"
	idx := filepath.Join(t.TempDir(), "old.cdxj")
	if err := os.WriteFile(idx, append([]byte(spaced), clean...), 0o644); err != nil {
		t.Fatal(err)
	}
	second := t.TempDir()
	cfg := w.profile(t, second, fmt.Sprintf("max_pages: 40\nrecrawl:\n  dedup_index: [%q]\n", idx))
	var stderr strings.Builder
	if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
		t.Fatalf("a dedup index with one url holding a space stopped the start: %v", err)
	}
	if !strings.Contains(stderr.String(), "warning:") || !strings.Contains(stderr.String(), "old.cdxj: 1 line ") ||
		!strings.Contains(stderr.String(), "line 1") {
		t.Errorf("no warning counting the skipped line and naming it:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "deduplication history from") {
		t.Errorf("the rest of the index was not imported:\n%s", stderr.String())
	}
	revisits := 0
	for _, r := range warcRecords(t, filepath.Join(second, warcDir)) {
		if r.Type == "revisit" {
			revisits++
		}
	}
	if revisits == 0 {
		t.Errorf("no revisit of the first crawl's captures: the good lines were not taken")
	}
}

// TestIndexTmpCheckedFirst (from a review): `langcrawl index
// --tmp DIR` takes DIR for its sorted runs only once 64 MiB of index lines
// are held, which on a large crawl comes after many gigabytes of WARC
// files read; a --tmp that is not there (a typo, an unmounted scratch
// disk) failed the run late, the reading lost. wacz names a -o folder
// that is not there before it reads anything; index does so for --tmp.
func TestIndexTmpCheckedFirst(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	crawlInto(t, w, out, "max_pages: 10\n")
	dest := filepath.Join(t.TempDir(), "index.cdxj")
	missing := filepath.Join(t.TempDir(), "no-such-scratch")
	cmd := indexCmd()
	cmd.SetArgs([]string{filepath.Join(out, warcDir), "-o", dest, "--tmp", missing})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	err := cmd.Execute()
	if !errors.Is(err, errUsage) || !strings.Contains(fmt.Sprint(err), missing) {
		t.Errorf("index --tmp %s (not there): %v; want a usage error naming it, before any WARC file is read", missing, err)
	}
}

// TestIndexSweepsKilledRun: `langcrawl index -o OUT` writes OUT.tmp-*
// and renames it; a run killed before the rename left that file, as large
// as the lines it had written, for good. The next run removes it, as wacz
// and report do theirs (left open last session).
func TestIndexSweepsKilledRun(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	crawlInto(t, w, out, "max_pages: 10\n")
	dest := filepath.Join(t.TempDir(), "index.cdxj")
	killed := dest + ".tmp-4711"
	other := filepath.Join(filepath.Dir(dest), "other.cdxj.tmp-1")
	for _, f := range []string{killed, other} {
		if err := os.WriteFile(f, []byte("half a line"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := indexCmd()
	cmd.SetArgs([]string{filepath.Join(out, warcDir), "-o", dest})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(killed); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s, a killed run's file, still there (%v)", killed, err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("%s, not index's, removed: %v", other, err)
	}
	if b, err := os.ReadFile(dest); err != nil || !bytes.Contains(b, []byte(" {")) {
		t.Errorf("index written: %v %.80q", err, b)
	}
}

// TestDedupIndexDamagedGzipNotKept (from a review): a gzipped
// recrawl.dedup_index damaged in a copy (a byte of a url changed; the
// gzip checksum says so at the stream's end) was streamed into the
// frontier line by line before the checksum was read: the start was
// refused, but the damaged URL stayed, and as a capture once added is
// never replaced, the good copy imported later did not mend it. The
// stream is now checked whole before a line is imported.
func TestDedupIndexDamagedGzipNotKept(t *testing.T) {
	line := func(u string) string {
		return `test,old)/doc.pdf 20250102030405 {"url": "` + u + `", "mime": "application/pdf", "status": "200", "digest": "AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH"}` + "\n"
	}
	good, damaged := line("http://old.test/doc.pdf"), line("http://old.test/doc.pdg")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(damaged))
	zw.Close()
	b := gz.Bytes()
	binary.LittleEndian.PutUint32(b[len(b)-8:], crc32.ChecksumIEEE([]byte(good))) // the checksum of what was written
	idx := filepath.Join(t.TempDir(), "old.cdxj.gz")
	if err := os.WriteFile(idx, b, 0o644); err != nil {
		t.Fatal(err)
	}
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, fmt.Sprintf("max_pages: 5\nrecrawl:\n  dedup_index: [%q]\n", idx))
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), idx) {
		t.Fatalf("a damaged gzipped index: %v, want the start refused naming it", err)
	}
	// Copied again, whole.
	gz.Reset()
	zw = gzip.NewWriter(&gz)
	zw.Write([]byte(good))
	zw.Close()
	if err := os.WriteFile(idx, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	q, err := frontier.Open(filepath.Join(out, frontierDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	c, ok, err := q.Capture("sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH")
	if err != nil || !ok || c.URL != "http://old.test/doc.pdf" {
		t.Errorf("capture after the good copy: %+v, %v, %v; want http://old.test/doc.pdf (the damaged copy's URL kept)", c, ok, err)
	}
}
