package wacz

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
)

// packaged writes the WACZ of the WARC files at files into a new file and
// returns its path.
func packaged(t *testing.T, files []string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "c.wacz")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(f, files, Options{Now: func() time.Time { return t0 }, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIndexLoadedByReplayWebPage (from a WACZ 1.1.1 review): ReplayWeb.page
// (wabac.js, src/wacz/multiwacz.ts, loadIndex) loads a WACZ's index from
// the entries whose names end in ".cdx" or ".cdxj" (whole) or ".idx" (a
// ZipNum summary of a gzipped index, "!meta 0 {"format":
// "cdxj-gzip-1.0", ...}", each line locating one gzip member of the
// .cdx.gz it names). A lone indexes/index.cdx.gz, one gzip stream, is
// none of these: ReplayWeb.page finds no index and replays nothing from
// it. py-wacz, the reference implementation, writes index.cdx.gz with
// index.idx. Each summary line must locate one gzip member that reads
// alone and starts with the key the line gives, the members in order
// making up the whole index.
func TestIndexLoadedByReplayWebPage(t *testing.T) {
	dir := crawl(t)
	own, _ := os.ReadFile(filepath.Join(dir, archive.IndexName))
	checkLoadable(t, packaged(t, warcs(t, dir)), own)
}

// TestIndexLoadedByReplayWebPageLarge: the same with an index of several
// blocks.
func TestIndexLoadedByReplayWebPageLarge(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.NewWriter(archive.Config{Dir: dir, Compress: true, Hostname: "h", IsPartOf: "c",
		Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7000 {
		u := fmt.Sprintf("http://a%d.th/p%d", i%97, i)
		if _, err := w.WriteExchange(&archive.Exchange{URL: u, RawRequest: req(u),
			RawResponse: resp("200 OK", "image/png", "x")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var own bytes.Buffer
	if err := archive.IndexFiles(&own, t.TempDir(), nil, warcs(t, dir)...); err != nil {
		t.Fatal(err)
	}
	if blocks := checkLoadable(t, packaged(t, warcs(t, dir)), own.Bytes()); blocks < 3 {
		t.Errorf("%d blocks for 7000 lines", blocks)
	}
}

// checkLoadable checks the WACZ at out as wabac.js loads its index, which
// must be own, and returns the number of blocks of a ZipNum index.
func checkLoadable(t *testing.T, out string, own []byte) int {
	t.Helper()
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	entries := map[string]*zip.File{}
	var idx *zip.File
	for _, f := range zr.File {
		entries[f.Name] = f
		if strings.HasPrefix(f.Name, "indexes/") {
			switch {
			case strings.HasSuffix(f.Name, ".cdx"), strings.HasSuffix(f.Name, ".cdxj"):
				return 1 // loaded whole: fine
			case strings.HasSuffix(f.Name, ".idx"):
				idx = f
			}
		}
	}
	if idx == nil {
		t.Fatalf("no index ReplayWeb.page loads: no indexes/*.cdx, *.cdxj or *.idx entry (entries: %v)", names(zr.File))
	}
	lines := strings.Split(strings.TrimSuffix(string(readEntry(t, idx)), "\n"), "\n")
	var meta struct{ Format, Filename string }
	if m, ok := strings.CutPrefix(lines[0], "!meta 0 "); !ok || json.Unmarshal([]byte(m), &meta) != nil ||
		meta.Format != "cdxj-gzip-1.0" || meta.Filename == "" {
		t.Fatalf("%s starts with %q, want a !meta line of format cdxj-gzip-1.0 naming the .cdx.gz", idx.Name, lines[0])
	}
	var whole []byte
	var next int64
	for _, l := range lines[1:] {
		at := strings.Index(l, " {")
		if at < 0 {
			t.Fatalf("%s line %q", idx.Name, l)
		}
		prefix := l[:at]
		var v struct {
			Offset, Length int64
			Filename       string
		}
		if err := json.Unmarshal([]byte(l[at+1:]), &v); err != nil {
			t.Fatalf("%s line %q: %v", idx.Name, l, err)
		}
		if v.Filename == "" {
			v.Filename = meta.Filename
		}
		zf := entries["indexes/"+v.Filename]
		if zf == nil || zf.Method != zip.Store {
			t.Fatalf("%s names %s, not a stored entry of the WACZ", idx.Name, v.Filename)
		}
		if v.Offset != next {
			t.Errorf("%s: block at %d, want %d (blocks back to back)", idx.Name, v.Offset, next)
		}
		next = v.Offset + v.Length
		// Read the block as wabac.js does: a range of the stored entry.
		data, _ := zf.DataOffset()
		block := make([]byte, v.Length)
		f, _ := os.Open(out)
		_, err := f.ReadAt(block, data+v.Offset)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		gz, err := gzip.NewReader(bytes.NewReader(block))
		if err != nil {
			t.Fatalf("block at %d: %v", v.Offset, err)
		}
		text, err := io.ReadAll(gz)
		if err != nil {
			t.Fatalf("block at %d: %v", v.Offset, err)
		}
		if !strings.HasPrefix(string(text), prefix+" ") {
			t.Errorf("block at %d starts %.60q, its summary line says %q", v.Offset, text, prefix)
		}
		if bytes.Count(text, []byte("\n")) > 3000 {
			t.Errorf("block at %d holds %d lines: a client reads a block whole", v.Offset, bytes.Count(text, []byte("\n")))
		}
		whole = append(whole, text...)
	}
	if next != int64(entries[IndexPath].UncompressedSize64) && len(lines) > 1 {
		t.Errorf("the blocks end at %d, %s has %d bytes", next, IndexPath, entries[IndexPath].UncompressedSize64)
	}
	if !bytes.Equal(whole, own) {
		t.Errorf("the blocks the summary locates hold:\n%.2000s\nwant the index:\n%.2000s", whole, own)
	}
	return len(lines) - 1
}

// zipEntries opens the zip file at path for the rest of the test and
// returns its entries by name.
func zipEntries(t *testing.T, path string) map[string]*zip.File {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { zr.Close() })
	entries := map[string]*zip.File{}
	for _, f := range zr.File {
		entries[f.Name] = f
	}
	return entries
}

// zipEntry returns the content of the entry name of the zip file at
// path, failing the test if there is none.
func zipEntry(t *testing.T, path, name string) []byte {
	t.Helper()
	f := zipEntries(t, path)[name]
	if f == nil {
		t.Fatalf("%s holds no %s", path, name)
	}
	return readEntry(t, f)
}

func names(fs []*zip.File) []string {
	var n []string
	for _, f := range fs {
		n = append(n, f.Name)
	}
	return n
}

// TestIndexLinesLocateTheirRecords: each index line's filename, offset and
// length, read as a replay tool reads them (a range of the stored
// archive/<filename> entry of the WACZ), give one whole gzip member
// holding the record the line is about (its URL, date and type).
func TestIndexLinesLocateTheirRecords(t *testing.T) {
	dir := crawl(t)
	out := packaged(t, warcs(t, dir))
	entries := zipEntries(t, out)
	raw, _ := os.Open(out)
	defer raw.Close()
	gz, err := gzip.NewReader(bytes.NewReader(readEntry(t, entries[IndexPath])))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(gz)
	n, last := 0, ""
	for sc.Scan() {
		l := sc.Text()
		n++
		if l < last {
			t.Errorf("index not sorted: %q after %q", l, last)
		}
		last = l
		parts := strings.SplitN(l, " ", 3)
		var v struct{ URL, Filename, Offset, Length, Mime string }
		if err := json.Unmarshal([]byte(parts[2]), &v); err != nil {
			t.Fatal(err)
		}
		if parts[0] != archive.SURT(v.URL) {
			t.Errorf("key %q, archive.SURT(%q) is %q", parts[0], v.URL, archive.SURT(v.URL))
		}
		zf := entries["archive/"+v.Filename]
		if zf == nil || zf.Method != zip.Store {
			t.Fatalf("line names %q: no stored archive/%s", v.Filename, v.Filename)
		}
		off, _ := strconv.ParseInt(v.Offset, 10, 64)
		length, _ := strconv.ParseInt(v.Length, 10, 64)
		data, _ := zf.DataOffset()
		b := make([]byte, length)
		if _, err := raw.ReadAt(b, data+off); err != nil {
			t.Fatal(err)
		}
		var recs []archive.Record
		if err := archive.Scan(bytes.NewReader(b), v.Filename, 0, func(r archive.Record, _ []byte) error {
			recs = append(recs, r)
			return nil
		}); err != nil || len(recs) != 1 {
			t.Fatalf("line %q: %d records at its offset: %v", l, len(recs), err)
		}
		r := recs[0]
		date, _ := time.Parse(time.RFC3339, r.Header("WARC-Date"))
		wantType := "response"
		if v.Mime == "warc/revisit" {
			wantType = "revisit"
		}
		if r.TargetURI != v.URL || date.UTC().Format("20060102150405") != parts[1] || r.Type != wantType {
			t.Errorf("line %q locates a %s of %s at %s", l, r.Type, r.TargetURI, r.Header("WARC-Date"))
		}
	}
	if n != 6 {
		t.Errorf("%d index lines, want 6", n)
	}
}

// TestResourceNamesFrictionless (from a WACZ 1.1.1 review): WACZ 1.1.1
// requires datapackage.json to conform to the Frictionless Data Package
// specification, whose Data Resource "name" "MUST consist only of
// lowercase alphanumeric characters plus '.', '-' and '_'" (py-wacz's
// validator runs frictionless on it; py-wacz lowercases every name). A
// WARC file is named after the crawling machine, often in capitals
// (DESKTOP-7QK2, MacBook-Pro.local).
func TestResourceNamesFrictionless(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.NewWriter(archive.Config{Dir: dir, Compress: true, Hostname: "Archive-Box", IsPartOf: "c",
		Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteExchange(&archive.Exchange{URL: "http://a.th/", RawRequest: req("http://a.th/"),
		RawResponse: resp("200 OK", "text/html", "<title>x</title>")}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out := packaged(t, warcs(t, dir))
	var dp DataPackage
	json.Unmarshal(zipEntry(t, out, DataPackagePath), &dp)
	valid := regexp.MustCompile(`^[-a-z0-9._]+$`)
	seen := map[string]bool{}
	for _, r := range dp.Resources {
		if !valid.MatchString(r.Name) || seen[r.Name] {
			t.Errorf("resource name %q (path %s): not a Frictionless name (lowercase a-z, 0-9, '.', '-', '_', unique)", r.Name, r.Path)
		}
		seen[r.Name] = true
	}
}

// TestPageWithoutContentType (from a WACZ 1.1.1 review): the crawler takes
// a 2xx response without a Content-Type as HTML (crawl.isHTML of ""),
// parses it and describes it with its language in the metadata record
// that follows. pages.jsonl left that capture out, yet listed its revisit
// (an identical payload next generation: a revisit the crawler described
// with a language is a page): the page was listed only by the capture
// that refers to the one not listed. Both are pages, with the title.
func TestPageWithoutContentType(t *testing.T) {
	dir := t.TempDir()
	now := t0
	w, err := archive.NewWriter(archive.Config{Dir: dir, Compress: true, Hostname: "h", IsPartOf: "c",
		Now: func() time.Time { now = now.Add(time.Second); return now }})
	if err != nil {
		t.Fatal(err)
	}
	body := "<html><head><title>หน้าแรก</title></head><body>ข่าว</body></html>"
	raw := []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
	lang := []archive.Field{{Name: "charset", Value: "utf-8"}, {Name: "language", Value: "th"}}
	ref, err := w.WriteExchange(&archive.Exchange{URL: "http://a.th/", RawRequest: req("http://a.th/"), RawResponse: raw, Metadata: lang})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteRevisit(&archive.Revisit{URL: "http://a.th/", RawRequest: req("http://a.th/"), RawResponse: raw,
		Profile: archive.ProfileIdenticalPayloadDigest, RefersTo: ref.ResponseID, RefersToTargetURI: "http://a.th/",
		RefersToDate: t0, PayloadDigest: ref.PayloadDigest, Metadata: lang}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out := packaged(t, warcs(t, dir))
	var pages []Page
	for _, l := range strings.Split(strings.TrimSpace(string(zipEntry(t, out, PagesPath))), "\n")[1:] {
		var p Page
		json.Unmarshal([]byte(l), &p)
		pages = append(pages, p)
	}
	if len(pages) != 2 || pages[0].Title != "หน้าแรก" || pages[0].Lang != "th" {
		t.Errorf("pages %+v, want the capture (title หน้าแรก, th) and its revisit", pages)
	}
}
