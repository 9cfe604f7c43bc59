package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// sharedHost is one HTTP server answering many unrelated domains, as a
// shared-hosting server does: each domain has a home page linking to five
// pages, and every answer takes 20 ms. It counts the most requests it
// handles at once, robots.txt included.
type sharedHost struct {
	mu    sync.Mutex
	now   int
	most  int
	pages int
}

func (s *sharedHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.now++
	s.most = max(s.most, s.now)
	if r.URL.Path != "/robots.txt" {
		s.pages++
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.now--
		s.mu.Unlock()
	}()
	time.Sleep(20 * time.Millisecond) // the server's time to answer, during which others may come
	switch r.URL.Path {
	case "/robots.txt":
		http.NotFound(w, r)
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><body><p>หน้าแรกของร้านค้า</p>")
		for i := range 5 {
			fmt.Fprintf(w, `<a href="/p%d">หน้า %d</a>`, i, i)
		}
		fmt.Fprint(w, "</body></html>")
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><body><p>สินค้าของร้านค้า</p></body></html>")
	}
}

// TestAddressConnectionsEndToEnd: thirty domains served from one address
// get at most scheduling.address_connections requests at once from an
// eight-worker crawl, robots.txt and each domain's first page included:
// the address of a site no connection has told yet is looked up first
// (the connect_to target here; fetch.Client.Address). Every page is still
// fetched. With the bound off the same count reaches the workers'.
func TestAddressConnectionsEndToEnd(t *testing.T) {
	crawl := func(bound int) *sharedHost {
		srv := &sharedHost{}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hs := &http.Server{Handler: srv}
		go hs.Serve(ln)
		defer hs.Close()
		var seeds strings.Builder
		for i := range 30 {
			fmt.Fprintf(&seeds, "  - http://shop%d.test/\n", i)
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "profile.yaml")
		text := fmt.Sprintf(`seeds:
%sout: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: 8
delay: 2ms
network:
  connect_to:
    "*": %s
scheduling: {address_connections: %d}
`, seeds.String(), filepath.Join(dir, "out"), ln.Addr(), bound)
		cfg := loadProfileText(t, p, text)
		if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		if srv.pages != 30*6 {
			t.Errorf("bound %d: %d pages fetched, want %d", bound, srv.pages, 30*6)
		}
		return srv
	}
	if m := crawl(2).most; m > 2 || m < 1 {
		t.Errorf("address_connections 2: %d requests at once to the one address, want 1 or 2", m)
	}
	// The count can fail: with the bound off, the workers meet there.
	if m := crawl(0).most; m <= 2 {
		t.Errorf("address_connections 0: %d requests at once, want more than 2 (the count cannot tell)", m)
	}
}
