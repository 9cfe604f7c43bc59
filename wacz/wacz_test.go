package wacz

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"github.com/langcrawl/langcrawl/archive"
)

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func resp(status, ctype, body string, extra ...string) []byte {
	h := "HTTP/1.1 " + status + "\r\nContent-Type: " + ctype + "\r\n"
	for _, e := range extra {
		h += e + "\r\n"
	}
	return []byte(h + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body)
}

func req(u string) []byte { return []byte("GET " + u + " HTTP/1.1\r\nHost: a.th\r\n\r\n") }

// crawl writes a small crawl into a new directory with the archive
// Writer, as the engine does, and returns the directory.
func crawl(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	now := t0
	w, err := archive.NewWriter(archive.Config{Dir: dir, Compress: true, Hostname: "h", MaxSize: 3000,
		IsPartOf: "thai-2026", Software: "langcrawl/test",
		Now: func() time.Time { now = now.Add(time.Second); return now }})
	if err != nil {
		t.Fatal(err)
	}
	tis, _ := charmap.Windows874.NewEncoder().String("หน้าแรก &amp; ข่าว")
	pages := []struct {
		url  string
		raw  []byte
		meta []archive.Field
	}{
		{"http://a.th/", resp("200 OK", "text/html", "<html><head><title>\n Home  page </title></head><body>x</body></html>"),
			[]archive.Field{{Name: "charset", Value: "utf-8"}, {Name: "language", Value: "th"}}},
		{"http://a.th/tis", resp("200 OK", "text/html; charset=tis-620", "<title>"+tis+"</title><p>"+strings.Repeat("ก", 3000)),
			[]archive.Field{{Name: "charset", Value: "windows-874"}, {Name: "language", Value: "th"}}},
		{"http://a.th/img.png", resp("200 OK", "image/png", "\x89PNG"), nil},
		{"http://a.th/old", resp("301 Moved Permanently", "text/html", "", "Location: /"), nil},
		{"http://a.th/en", resp("200 OK", "application/xhtml+xml", "<html><title>English</title></html>"),
			[]archive.Field{{Name: "language", Value: "en"}}},
	}
	var home archive.Ref
	for _, p := range pages {
		ref, err := w.WriteExchange(&archive.Exchange{URL: p.url, RawRequest: req(p.url), RawResponse: p.raw, Metadata: p.meta})
		if err != nil {
			t.Fatal(err)
		}
		if p.url == "http://a.th/" {
			home = ref
		}
	}
	_, err = w.WriteRevisit(&archive.Revisit{URL: "http://a.th/", RawResponse: []byte("HTTP/1.1 304 Not Modified\r\n\r\n"),
		Profile: archive.ProfileServerNotModified, RefersTo: home.ResponseID, RefersToTargetURI: "http://a.th/",
		RefersToDate: t0, PayloadDigest: home.PayloadDigest, Metadata: []archive.Field{{Name: "language", Value: "th"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(w.Files()) < 2 {
		t.Fatalf("%d WARC files; the test wants several", len(w.Files()))
	}
	return dir
}

func warcs(t *testing.T, dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	return files
}

func readEntry(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc) // checks the CRC-32
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	return b
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:])
}

// TestWrite packages a crawl and reads the WACZ back: its layout, stored
// WARCs equal to the files, every hash and size in datapackage.json, the
// digest of datapackage.json, the index (the Writer's own, byte for byte)
// and the pages.
func TestWrite(t *testing.T) {
	dir := crawl(t)
	files := warcs(t, dir)
	out := filepath.Join(t.TempDir(), "c.wacz")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Write(f, files, Options{Software: "langcrawl/test", Now: func() time.Time { return t0 }, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if st.WARCs != len(files) || st.Captures != 6 || st.Pages != 4 {
		t.Errorf("stats %+v, want %d WARCs, 6 captures, 4 pages", st, len(files))
	}

	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	entries := map[string][]byte{}
	var names []string
	for _, zf := range zr.File {
		names = append(names, zf.Name)
		entries[zf.Name] = readEntry(t, zf)
		if strings.HasPrefix(zf.Name, "archive/") || strings.HasSuffix(zf.Name, ".gz") {
			if zf.Method != zip.Store {
				t.Errorf("%s is deflated (method %d); compressed files must be stored", zf.Name, zf.Method)
			}
		}
	}
	var want []string
	for _, p := range files {
		want = append(want, "archive/"+filepath.Base(p))
		orig, _ := os.ReadFile(p)
		if !bytes.Equal(entries["archive/"+filepath.Base(p)], orig) {
			t.Errorf("archive/%s differs from the WARC file", filepath.Base(p))
		}
	}
	want = append(want, IndexPath, SummaryPath, PagesPath, DataPackagePath, DigestPath)
	if !slices.Equal(names, want) {
		t.Errorf("entries %v, want %v", names, want)
	}

	var dp DataPackage
	if err := json.Unmarshal(entries[DataPackagePath], &dp); err != nil {
		t.Fatal(err)
	}
	if dp.Profile != "data-package" || dp.WACZVersion != "1.1.1" || dp.Title != "thai-2026" ||
		dp.Created != "2026-03-04T05:06:07Z" || dp.Software != "langcrawl/test" {
		t.Errorf("datapackage.json: %+v", dp)
	}
	listed := map[string]bool{}
	for _, r := range dp.Resources {
		listed[r.Path] = true
		b, ok := entries[r.Path]
		if !ok {
			t.Errorf("datapackage.json lists %s, not in the WACZ", r.Path)
			continue
		}
		if r.Hash != sum(b) || r.Bytes != int64(len(b)) || r.Name != filepath.Base(r.Path) {
			t.Errorf("resource %+v; the entry has %s, %d bytes", r, sum(b), len(b))
		}
	}
	for _, n := range names {
		if !listed[n] && n != DataPackagePath && n != DigestPath {
			t.Errorf("%s not listed in datapackage.json", n)
		}
	}
	var dg Digest
	if err := json.Unmarshal(entries[DigestPath], &dg); err != nil {
		t.Fatal(err)
	}
	if dg.Path != DataPackagePath || dg.Hash != sum(entries[DataPackagePath]) {
		t.Errorf("datapackage-digest.json %+v, want the sha256 of datapackage.json %s", dg, sum(entries[DataPackagePath]))
	}

	gz, err := gzip.NewReader(bytes.NewReader(entries[IndexPath]))
	if err != nil {
		t.Fatal(err)
	}
	index, _ := io.ReadAll(gz)
	own, _ := os.ReadFile(filepath.Join(dir, archive.IndexName))
	if !bytes.Equal(index, own) {
		t.Errorf("index.cdx.gz:\n%s\nthe Writer's index:\n%s", index, own)
	}

	lines := strings.Split(strings.TrimSuffix(string(entries[PagesPath]), "\n"), "\n")
	if lines[0] != `{"format":"json-pages-1.0","id":"pages","title":"All Pages"}` {
		t.Errorf("pages header %s", lines[0])
	}
	var got []Page
	for _, l := range lines[1:] {
		var p Page
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("pages line %q: %v", l, err)
		}
		if _, err := time.Parse(time.RFC3339, p.TS); err != nil {
			t.Errorf("page %s ts %q: %v", p.URL, p.TS, err)
		}
		p.TS = ""
		got = append(got, p)
	}
	wantPages := []Page{
		{URL: "http://a.th/", Title: "Home page", Lang: "th"},
		{URL: "http://a.th/tis", Title: "หน้าแรก & ข่าว", Lang: "th"},
		{URL: "http://a.th/en", Title: "English", Lang: "en"},
		{URL: "http://a.th/", Lang: "th"}, // the revisit
	}
	if !slices.Equal(got, wantPages) {
		t.Errorf("pages:\n%+v\nwant:\n%+v", got, wantPages)
	}
}

func TestWriteNoWARC(t *testing.T) {
	if _, err := Write(io.Discard, nil, Options{}); err != ErrNoWARC {
		t.Errorf("Write with no file: %v", err)
	}
}

// TestWriteCorruptWARC: a WARC file cut in the middle of a record is
// refused, naming it.
func TestWriteCorruptWARC(t *testing.T) {
	dir := crawl(t)
	files := warcs(t, dir)
	b, _ := os.ReadFile(files[0])
	os.WriteFile(files[0], b[:len(b)-40], 0o644)
	_, err := Write(io.Discard, files, Options{TempDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), files[0]) {
		t.Errorf("Write of a cut file: %v", err)
	}
}

// TestPywbUnpack loads the WACZ with pywb 2.9.1's `wb-manager add
// --unpack-wacz`, when pywb is installed in the checkout's .cache/pywb
// (scripts/test installs it): every capture must reach the collection's
// index, under the names pywb gave the WARC files.
func TestPywbUnpack(t *testing.T) {
	bin, _ := filepath.Abs(filepath.Join("..", ".cache", "pywb", "bin"))
	if _, err := os.Stat(filepath.Join(bin, "wb-manager")); err != nil {
		t.Skip("pywb not installed in .cache/pywb")
	}
	dir := crawl(t)
	work := t.TempDir()
	out := filepath.Join(work, "crawl.wacz")
	f, _ := os.Create(out)
	st, err := Write(f, warcs(t, dir), Options{TempDir: t.TempDir()})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, args := range [][]string{{"init", "c"}, {"add", "--unpack-wacz", "c", out}} {
		cmd := exec.CommandContext(ctx, filepath.Join(bin, "wb-manager"), args...)
		cmd.Dir = work
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("wb-manager %v: %v\n%s", args, err, b)
		}
	}
	index, err := os.ReadFile(filepath.Join(work, "collections", "c", "indexes", "index.cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(index), "\n"), "\n")
	if int64(len(lines)) != st.Captures {
		t.Fatalf("pywb's collection index has %d lines, want the %d captures:\n%s", len(lines), st.Captures, index)
	}
	for _, l := range lines {
		var v struct{ Filename string }
		if err := json.Unmarshal([]byte(strings.SplitN(l, " ", 3)[2]), &v); err != nil || v.Filename == "" {
			t.Errorf("pywb index line %q: %v", l, err)
		}
		if _, err := os.Stat(filepath.Join(work, "collections", "c", "archive", v.Filename)); err != nil {
			t.Errorf("index line names %q, not in the collection: %v", v.Filename, err)
		}
	}
}
