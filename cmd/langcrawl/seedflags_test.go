package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// hostWeb is a web of small HTML pages on one 127.0.0.1 server, routed by
// r.Host; it records every path asked of each host.
type hostWeb struct {
	mu    sync.Mutex
	hits  map[string][]string // host -> paths
	pages map[string]string   // host+path -> links, space-separated
	addr  string
}

func startHostWeb(t *testing.T, pages map[string]string) *hostWeb {
	t.Helper()
	w := &hostWeb{hits: map[string][]string{}, pages: pages}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		host := strings.Split(r.Host, ":")[0]
		w.mu.Lock()
		w.hits[host] = append(w.hits[host], r.URL.Path)
		w.mu.Unlock()
		links, ok := w.pages[host+r.URL.Path]
		if !ok && r.URL.Path != "/" {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(rw, "<html><body>")
		for _, l := range strings.Fields(links) {
			fmt.Fprintf(rw, `<a href="%s">x</a>`, l)
		}
		fmt.Fprint(rw, "</body></html>")
	}))
	t.Cleanup(srv.Close)
	w.addr = srv.Listener.Addr().String()
	return w
}

// fetched lists the pages fetched, as host+path, robots.txt left out.
func (w *hostWeb) fetched() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for h, paths := range w.hits {
		for _, p := range paths {
			if p != "/robots.txt" {
				out = append(out, h+p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// crawlWith runs `langcrawl crawl` with args on a profile for w plus
// extra, and returns its stderr.
func (w *hostWeb) crawlWith(t *testing.T, extra string, args ...string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	prof := filepath.Join(dir, "profile.yaml")
	text := localProfile(filepath.Join(dir, "out"), w.addr, extra)
	if err := os.WriteFile(prof, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := crawlCmd()
	var stderr bytes.Buffer
	cmd.SetOut(io.Discard)
	cmd.SetErr(&stderr)
	cmd.SetArgs(append([]string{"--profile", prof}, args...))
	err := cmd.ExecuteContext(context.Background())
	return stderr.String(), err
}

// TestSeedFlagAndSkipBadSeeds: --seed adds seeds (a bare host gets
// http://, and one notice says so); a seeds file with bad lines refuses to
// start, naming FILE:LINE, unless --skip-bad-seeds is given, when each bad
// line is reported and the good ones are crawled.
func TestSeedFlagAndSkipBadSeeds(t *testing.T) {
	w := startHostWeb(t, nil)
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	// Line 2 has a comment after the seed, line 7 two URLs: the first is
	// c.test, the second a bad line (they were the seeds "c.test%20" and
	// "http://a.test/xhttp://b.test/y" before: an archivist's trial).
	os.WriteFile(seeds, []byte("# seeds\nc.test   # a note\nhttp://[bad\nftp://d.test/\nmailto:someone@e.test\nhttp://e.test/#top\nhttp://a.test/x\thttp://b.test/y\n"), 0o644)

	// Without --skip-bad-seeds: nothing is crawled, every bad line named
	// (a mailto: seed too, not read as a user name on e.test), and
	// nothing is made in --out.
	out := filepath.Join(t.TempDir(), "out")
	_, err := w.crawlWith(t, "", "--seed", "a.test", "--seeds", seeds, "--out", out)
	if err == nil || !errors.Is(err, errUsage) {
		t.Fatalf("crawl with bad seed lines: %v, want a usage error", err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("a start refused for bad seed lines made %s (%v)", out, serr)
	}
	for _, want := range []string{seeds + ":3:", seeds + ":4:", seeds + ":5:", seeds + ":7:", "--skip-bad-seeds"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q:\n%v", want, err)
		}
	}
	// Each bad URL is named once, with the parser's reason and without its
	// decoration ("Error: ...", ". Url: '...'").
	for _, bad := range []string{"http://[bad", "ftp://d.test/"} {
		if n := strings.Count(err.Error(), bad); n != 1 {
			t.Errorf("error names %q %d times, want once:\n%v", bad, n, err)
		}
	}
	if strings.Contains(err.Error(), "Url: '") || strings.Contains(err.Error(), "Error: ") {
		t.Errorf("error keeps the URL parser's decoration:\n%v", err)
	}
	if got := w.fetched(); len(got) != 0 {
		t.Fatalf("fetched %v from a crawl that should not have started", got)
	}

	// With it: the good seeds are crawled, each bad line reported.
	out2 := filepath.Join(t.TempDir(), "out")
	stderr, err := w.crawlWith(t, "", "--out", out2, "--seed", "a.test", "--seed", "http://b.test/", "--seeds", seeds, "--skip-bad-seeds")
	if err != nil {
		t.Fatalf("crawl --skip-bad-seeds: %v\n%s", err, stderr)
	}
	if got, want := strings.Join(w.fetched(), " "), "a.test/ b.test/ c.test/ e.test/"; got != want {
		t.Errorf("fetched %s, want %s", got, want)
	}
	for _, want := range []string{"skipping bad seed: " + seeds + ":3:", "skipping bad seed: " + seeds + ":4:", "skipping bad seed: " + seeds + ":5:", "skipping bad seed: " + seeds + ":7:"} {
		if strings.Count(stderr, want) != 1 {
			t.Errorf("stderr reports %q %d times, want once:\n%s", want, strings.Count(stderr, want), stderr)
		}
	}
	// And langcrawl.log keeps each report (README, --skip-bad-seeds).
	logged, err := os.ReadFile(filepath.Join(out2, "logs", "langcrawl.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []int{3, 4, 5, 7} {
		if want := fmt.Sprintf("%s:%d:", seeds, line); !strings.Contains(string(logged), want) {
			t.Errorf("langcrawl.log does not report the bad seed %s:\n%s", want, logged)
		}
	}
	if n := strings.Count(stderr, "without a scheme"); n != 1 || !strings.Contains(stderr, "2 seeds were") {
		t.Errorf("the http:// notice appears %d times, want once for both bare seeds:\n%s", n, stderr)
	}
}

// TestProfileScopeRules: the profile's exclude rule and a prefix-scoped
// seed reach the engine; the excluded page and the page outside the
// prefix are not fetched.
func TestProfileScopeRules(t *testing.T) {
	w := startHostWeb(t, map[string]string{
		"a.test/":           "/keep /calendar/2031",
		"a.test/keep":       "",
		"f.test/docs/":      "/docs/guide /other/",
		"f.test/docs/guide": "",
	})
	stderr, err := w.crawlWith(t, `seeds:
  - http://a.test/
  - {url: "http://f.test/docs/", scope: prefix, depth: 2}
scope:
  exclude: ['/calendar/\d+']
`)
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, stderr)
	}
	if got, want := strings.Join(w.fetched(), " "), "a.test/ a.test/keep f.test/docs/ f.test/docs/guide"; got != want {
		t.Errorf("fetched %s, want %s", got, want)
	}
}

// localProfile is the profile text of a test crawl into out whose every
// host is dialled to addr (a 127.0.0.1 listener), two workers, no delay,
// short timeouts, with extra (more keys, YAML) after it.
func localProfile(out, addr, extra string) string {
	return fmt.Sprintf(`out: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: 2
delay: 0s
timeouts: {connect: 2s, fetch: 5s, read: 2s}
durability: {min_free_space: 0}
network:
  connect_to:
    "*": %s
%s`, out, addr, extra)
}
