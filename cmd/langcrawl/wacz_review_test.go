package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/wacz"
)

// TestWACZOfRecrawlReplayable (from a WACZ 1.1.1 review) packages a crawl
// of two generations (responses, then revisits) and reads it back as
// ReplayWeb.page does (wabac.js, multiwacz.ts): the index through the
// ZipNum summary indexes/*.idx (a lone index.cdx.gz is not loaded), each
// block a range of the stored index.cdx.gz, each line's record a range of
// the stored archive/<filename>; and each page of pages.jsonl is a
// capture of the index, a 200 or a revisit, with an RFC 3339 ts.
func TestWACZOfRecrawlReplayable(t *testing.T) {
	w := startWeb(t)
	out := filepath.Join(t.TempDir(), "job")
	for range 2 {
		if _, err := runCrawl(context.Background(), w.profile(t, out, ""), io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	waczPath := filepath.Join(t.TempDir(), "c.wacz")
	if err := packageCrawl(context.Background(), out, waczPath, "", io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(waczPath)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]*zip.File{}
	var summary *zip.File
	for _, f := range zr.File {
		entries[f.Name] = f
		if strings.HasPrefix(f.Name, "indexes/") && strings.HasSuffix(f.Name, ".idx") {
			summary = f
		}
	}
	if summary == nil {
		t.Fatal("no indexes/*.idx: ReplayWeb.page loads no index from this WACZ")
	}
	// rangeOf reads n bytes at off of a stored entry, as a range request.
	rangeOf := func(f *zip.File, off, n int64) []byte {
		t.Helper()
		if f == nil || f.Method != zip.Store {
			t.Fatalf("not a stored entry: %v", f)
		}
		at, _ := f.DataOffset()
		if off < 0 || n <= 0 || off+n > int64(f.UncompressedSize64) {
			t.Fatalf("%s: range %d+%d outside the entry", f.Name, off, n)
		}
		return raw[at+off : at+off+n]
	}
	rc, _ := summary.Open()
	sb, _ := io.ReadAll(rc)
	rc.Close()
	type line struct{ key, ts, url, mime, status, filename, offset, length string }
	var lines []line
	for _, l := range strings.Split(strings.TrimSpace(string(sb)), "\n")[1:] {
		var v struct {
			Offset, Length int64
			Filename       string
		}
		json.Unmarshal([]byte(l[strings.Index(l, " {")+1:]), &v)
		gz, err := gzip.NewReader(bytes.NewReader(rangeOf(entries["indexes/"+v.Filename], v.Offset, v.Length)))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(gz)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p := strings.SplitN(sc.Text(), " ", 3)
			var j struct{ URL, Mime, Status, Filename, Offset, Length string }
			if err := json.Unmarshal([]byte(p[2]), &j); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line{p[0], p[1], j.URL, j.Mime, j.Status, j.Filename, j.Offset, j.Length})
		}
	}
	revisits := 0
	for i, l := range lines {
		if i > 0 && l.key+" "+l.ts < lines[i-1].key+" "+lines[i-1].ts {
			t.Errorf("index out of order: %s %s after %s %s", l.key, l.ts, lines[i-1].key, lines[i-1].ts)
		}
		if l.key != archive.SURT(l.url) {
			t.Errorf("key %s, archive.SURT(%s) = %s", l.key, l.url, archive.SURT(l.url))
		}
		off, _ := strconv.ParseInt(l.offset, 10, 64)
		n, _ := strconv.ParseInt(l.length, 10, 64)
		var recs []archive.Record
		err := archive.Scan(bytes.NewReader(rangeOf(entries["archive/"+l.filename], off, n)), l.filename, 0,
			func(r archive.Record, _ []byte) error { recs = append(recs, r); return nil })
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s %s: %d records at %s+%s of archive/%s: %v", l.url, l.ts, len(recs), l.offset, l.length, l.filename, err)
		}
		d, _ := time.Parse(time.RFC3339, recs[0].Header("WARC-Date"))
		if recs[0].TargetURI != l.url || d.UTC().Format("20060102150405") != l.ts {
			t.Errorf("line %s %s locates %s %s", l.url, l.ts, recs[0].TargetURI, recs[0].Header("WARC-Date"))
		}
		if recs[0].Type == "revisit" {
			revisits++
		}
	}
	if len(lines) == 0 || revisits == 0 {
		t.Fatalf("%d index lines, %d revisits: the test wants a re-crawl's revisits", len(lines), revisits)
	}
	rc, _ = entries[wacz.PagesPath].Open()
	pb, _ := io.ReadAll(rc)
	rc.Close()
	for _, l := range strings.Split(strings.TrimSpace(string(pb)), "\n")[1:] {
		var p wacz.Page
		json.Unmarshal([]byte(l), &p)
		ts, err := time.Parse(time.RFC3339, p.TS)
		if err != nil {
			t.Errorf("page %s: ts %q: %v", p.URL, p.TS, err)
			continue
		}
		found := false
		for _, c := range lines {
			if c.url == p.URL && c.ts == ts.UTC().Format("20060102150405") && (c.status == "200" || c.mime == "warc/revisit") {
				found = true
			}
		}
		if !found {
			t.Errorf("page %s %s is no 200 or revisit capture of the index", p.URL, p.TS)
		}
	}
}
