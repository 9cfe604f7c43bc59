package crawl

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/frontier"
)

// TestMendMemoryBounded (from a soak review): after a kill, the start
// calls Mend on the two newest WARC files, whose records bar a few all have
// their crawl.log lines. Mend kept every capture's fields and every logged
// URL at once, about 900 bytes a capture: a kill -9 with 679 MB + 434 MB of
// WARC in the two newest files took the restart to 2.25 GB of RSS against
// 1.1-1.2 GB for the running crawl, so a crawl sized for its steady state
// and OOM-killed would be killed again at the restart. It now keeps a hash a
// capture and a hash a logged URL, and reads again only what lacks a line.
//
// Here: 50,000 responses, every one already logged; the live heap Mend
// holds stays well under what 900 bytes a capture would be (43 MiB).
func TestMendMemoryBounded(t *testing.T) {
	const n = 50_000
	dir := t.TempDir()
	w, err := archive.NewWriter(archive.Config{Dir: dir, Compress: true, Hostname: "h", MaxSize: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	body := "<html>x</html>"
	raw := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 14\r\n\r\n" + body)
	for i := 0; i < n; i++ {
		u := fmt.Sprintf("http://site%d.test/page%d.html", i%5000, i)
		if _, err := w.WriteExchange(&archive.Exchange{URL: u, Date: now, RawRequest: []byte("GET / HTTP/1.1\r\n\r\n"),
			RawResponse: raw, Metadata: []archive.Field{{Name: "via", Value: "http://site0.test/"}, {Name: "hopsFromSeed", Value: "LLLLLLLLLL"}}}); err != nil {
			t.Fatal(err)
		}
		if err := l.Write(now, 1, frontier.Entry{URL: u, Hops: "LLLLLLLLLL"}, outcome{status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.GC() // live heap, not garbage
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
		}
	}()
	added, err := l.Mend(files)
	close(stop)
	<-done
	l.Close()
	if err != nil || added != 0 {
		t.Fatalf("Mend = %d, %v; want 0 lines added", added, err)
	}
	grew := int64(peak.Load()) - int64(base)
	t.Logf("Mend of %d logged responses: live heap grew by %.1f MiB at its peak", n, float64(grew)/(1<<20))
	if grew > 12<<20 {
		t.Errorf("Mend held %.1f MiB live for %d responses that all had their crawl.log lines (about %d bytes each); it grows with the WARC files, not with what a kill can leave unlogged",
			float64(grew)/(1<<20), n, grew/n)
	}
}
