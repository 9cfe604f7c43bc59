package crawl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/frontier"
)

// TestMend plays the kill between a URL's completion and its crawl.log
// line: the URL is in the WARC, not in the log. Mend adds its line, once.
func TestMend(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.NewWriter(archive.Config{Dir: dir, Compress: true, Hostname: "h"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	for _, u := range []string{"http://a.test/logged", "http://a.test/lost"} {
		body := "<html>x</html>"
		raw := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 14\r\n\r\n" + body
		if _, err := w.WriteExchange(&archive.Exchange{URL: u, Date: now, RawRequest: []byte("GET / HTTP/1.1\r\n\r\n"),
			RawResponse: []byte(raw), Metadata: []archive.Field{{Name: "via", Value: "http://a.test/"}, {Name: "hopsFromSeed", Value: "L"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Write(now, 1, frontier.Entry{URL: "http://a.test/logged", Hops: "L"}, outcome{status: 200}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	for i, want := range []int{1, 0} {
		n, err := l.Mend(files)
		if err != nil || n != want {
			t.Fatalf("Mend #%d = %d, %v; want %d", i+1, n, err, want)
		}
	}
	l.Close()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("log has %d lines:\n%s", len(lines), data)
	}
	f := strings.Fields(lines[1])
	if f[1] != "200" || f[3] != "http://a.test/lost" || f[4] != "L" || f[5] != "http://a.test/" || f[6] != "text/html" ||
		!strings.HasPrefix(f[9], "sha1:") || f[11] != "recovered-from-warc" {
		t.Errorf("mended line %q", lines[1])
	}
}
