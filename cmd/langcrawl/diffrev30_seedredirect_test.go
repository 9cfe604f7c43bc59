package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestDiffRev30SeedKnownAsRedirectTarget: a section's index that the
// first generation reached as a redirect's target (a link at the depth
// limit, /old, moved to /th/) is added as a seed of the next generation,
// the depth limit kept. The seed is depth 0 of its own tree, so /th/1,
// one hop behind it, is within the limit. The new generation queues /th/
// from the history with the redirect's hop path ("LR", depth 1); the
// seed is skipped as queued, and outOfScope returns before it looks up
// the seed flag for a hop path ending in R, so /th/ is fetched as the
// redirect target at depth 1 and /th/1 is rejected at depth 2.
// (from a diff review of the thirtieth session)
func TestDiffRev30SeedKnownAsRedirectTarget(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	pages := map[string]string{
		"/":     `<a href="/old">old</a>`,
		"/th/":  `<a href="/th/1">1</a>`,
		"/th/1": `leaf`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		if r.URL.Path == "/old" {
			http.Redirect(rw, r, "/th/", http.StatusMovedPermanently)
			return
		}
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(rw, `<html lang="en"><body><p>A page.</p>%s</body></html>`, body)
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	count := func(p string) int {
		mu.Lock()
		defer mu.Unlock()
		return hits[p]
	}
	out := t.TempDir()
	crawl := func(extra string) {
		t.Helper()
		p := filepath.Join(t.TempDir(), "profile.yaml")
		cfg := loadProfileText(t, p, localProfile(out, addr, extra))
		var stderr strings.Builder
		if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
			t.Fatalf("crawl: %v\n%s", err, stderr.String())
		}
	}
	crawl("seeds: [http://a.test/]\ndepth: 1\n")
	if count("/th/") != 1 || count("/th/1") != 0 {
		t.Fatalf("first crawl: /th/ %d, /th/1 %d", count("/th/"), count("/th/1"))
	}
	crawl("seeds: [http://a.test/, http://a.test/th/]\ndepth: 1\n")
	if count("/th/") < 2 {
		t.Fatalf("generation 2 did not fetch its seed /th/")
	}
	if count("/th/1") == 0 {
		t.Errorf("generation 2 never fetched http://a.test/th/1, one hop from its seed /th/ under depth 1; crawl.log: %q",
			crawlLogLines(t, out, "http://a.test/th/1"))
	}
}
