package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb/storage"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/politeness"
)

type nopParts struct{}

func (nopParts) WriteExchange(*archive.Exchange) (archive.Ref, error) { return archive.Ref{}, nil }
func (nopParts) WriteRevisit(*archive.Revisit) (archive.Ref, error)   { return archive.Ref{}, nil }
func (nopParts) Do(context.Context, string, string, http.Header) (*fetch.Result, error) {
	return nil, fmt.Errorf("no network in this test")
}
func (nopParts) Check(context.Context, *url.URL, time.Time) (politeness.Decision, error) {
	return politeness.Decision{Allowed: true}, nil
}
func (nopParts) Acquire(context.Context, string) (func(time.Time), error) {
	return func(time.Time) {}, nil
}
func (nopParts) Delay(string) time.Duration          { return 0 }
func (nopParts) Busy(string, bool)                   {}
func (nopParts) Ready(string) time.Time              { return time.Time{} }
func (nopParts) Detect([]byte, string) detect.Result { return detect.Result{} }

// A seeds file is streamed into the frontier in batches, bare host names
// get http://, and bad seeds are named by file and line before anything
// of the file is queued.
func TestSeedsFileStreamed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "seeds.txt")
	var b strings.Builder
	b.WriteString("# national web\n")
	const n = 25_000 // more than two batches
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "host%d.test\n", i) // bare host name
		} else {
			fmt.Fprintf(&b, "http://host%d.test/\n", i)
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage()})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	c, err := crawl.New(crawl.Config{}, crawl.Parts{Queue: q, Archive: nopParts{}, Fetcher: nopParts{}, Gate: nopParts{}, Detector: nopParts{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Seeds: []string{"http://inline.test/"}, SeedsFile: path}
	got, err := seedAll(c, cfg)
	if err != nil || got != n+1 || q.Stats().Queued != n+1 {
		t.Fatalf("seedAll = %d, %v; queued %d; want %d", got, err, q.Stats().Queued, n+1)
	}
	if ok, _ := q.Seen("http://host0.test/"); !ok {
		t.Error("the bare host name host0.test was not queued as http://host0.test/")
	}

	// Bad lines: each is named; nothing of the file is queued.
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("http://ok1.test/\nhttp://[bad\nftp://x.test/\nhttp://ok2.test/\n"), 0o644)
	q2, _ := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage()})
	defer q2.Close()
	c2, _ := crawl.New(crawl.Config{}, crawl.Parts{Queue: q2, Archive: nopParts{}, Fetcher: nopParts{}, Gate: nopParts{}, Detector: nopParts{}})
	_, err = seedAll(c2, &config.Config{SeedsFile: bad})
	for _, want := range []string{bad + ":2:", bad + ":3:"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %s", err, want)
		}
	}
	if q2.Stats().Queued != 0 {
		t.Errorf("%d seeds queued from a file with bad lines, want 0", q2.Stats().Queued)
	}

	note, err := seedsFileNote(path)
	if err != nil || !strings.Contains(note, "sha256:") || strings.Contains(note, "host1.test") {
		t.Errorf("warcinfo note = %q, %v; want the file's size and digest, not its seeds", note, err)
	}
}
