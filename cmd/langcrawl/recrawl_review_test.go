package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// reviewWeb is a small web on one 127.0.0.1 server, routed by r.Host,
// whose pages send an ETag and answer a matching If-None-Match with 304,
// as many servers on the open web do. It counts the requests for each
// host+path, and which of them were answered 304. (from a re-crawl review)
type reviewWeb struct {
	mu      sync.Mutex
	pages   map[string]string // host+path -> links, space-separated
	hits    map[string]int
	answers map[string][]int
	addr    string
}

func startReviewWeb(t *testing.T, pages map[string]string) *reviewWeb {
	t.Helper()
	w := &reviewWeb{pages: pages, hits: map[string]int{}, answers: map[string][]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		host := strings.Split(r.Host, ":")[0]
		key := host + r.URL.Path
		w.mu.Lock()
		links, ok := w.pages[key]
		w.hits[key]++
		w.mu.Unlock()
		status := http.StatusOK
		defer func() {
			w.mu.Lock()
			w.answers[key] = append(w.answers[key], status)
			w.mu.Unlock()
		}()
		if !ok {
			status = http.StatusNotFound
			http.NotFound(rw, r)
			return
		}
		var b strings.Builder
		b.WriteString(`<html lang="en"><body><p>A page of the review web.</p>`)
		for _, l := range strings.Fields(links) {
			fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
		}
		b.WriteString("</body></html>")
		etag := fmt.Sprintf(`"%x"`, sha256.Sum256([]byte(b.String())))
		rw.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			status = http.StatusNotModified
			rw.WriteHeader(status)
			return
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(rw, b.String())
	}))
	t.Cleanup(srv.Close)
	w.addr = srv.Listener.Addr().String()
	return w
}

// set changes the links of host+path key, as a site changed between
// generations.
func (w *reviewWeb) set(key, links string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	pages := make(map[string]string, len(w.pages)+1)
	for k, v := range w.pages {
		pages[k] = v
	}
	pages[key] = links
	w.pages = pages
}

// count returns the requests for host+path so far.
func (w *reviewWeb) count(key string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hits[key]
}

// snapshot returns a copy of the request counts.
func (w *reviewWeb) snapshot() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := map[string]int{}
	for k, v := range w.hits {
		m[k] = v
	}
	return m
}

// crawl runs `langcrawl crawl` on out with a profile for w plus extra
// (which holds the seeds and the keys the test changes), and returns
// its stderr.
func (w *reviewWeb) crawl(t *testing.T, out, extra string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "profile.yaml")
	cfg := loadProfileText(t, p, localProfile(out, w.addr, extra))
	var stderr strings.Builder
	if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
		t.Fatalf("crawl: %v\n%s", err, stderr.String())
	}
	return stderr.String()
}

// crawlLogLines returns the lines of out's crawl.log that name u.
func crawlLogLines(t *testing.T, out, u string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "logs", "crawl.log"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) > 3 && f[3] == u {
			lines = append(lines, l)
		}
	}
	return lines
}

// fetchedSince returns the host+paths w was asked for after before.
func fetchedSince(w *reviewWeb, before map[string]int) map[string]int {
	now := w.snapshot()
	m := map[string]int{}
	for k, v := range now {
		if k2 := v - before[k]; k2 > 0 && !strings.HasSuffix(k, "/robots.txt") {
			m[k] = k2
		}
	}
	return m
}

var reviewPages = map[string]string{
	"a.test/":     "/th/ /en/",
	"a.test/th/":  "/th/1",
	"a.test/th/1": "/th/2",
	"a.test/th/2": "",
	"a.test/en/":  "/en/1",
	"a.test/en/1": "",
}

// TestRecrawlReviewNarrowedScope: an archivist crawls a site, then runs
// it again (in place, and with --previous) from a profile whose
// scope.include now keeps only the Thai section. The README says include
// rules narrow the crawl ("a link is followed only if one matches");
// the known URLs a new generation queues again were not held to them, so
// the English section the new profile leaves out was fetched again in
// full, and archived. (from a re-crawl review)
func TestRecrawlReviewNarrowedScope(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://a.test/]\n")
	for _, p := range []string{"a.test/en/", "a.test/en/1", "a.test/th/2"} {
		if w.count(p) != 1 {
			t.Fatalf("the first crawl asked for %s %d times, want 1", p, w.count(p))
		}
	}
	narrowed := "seeds: [http://a.test/]\nscope:\n  include: ['^http://a\\.test/(th/.*)?$']\n"

	before := w.snapshot()
	w.crawl(t, out, narrowed)
	got := fetchedSince(w, before)
	if got["a.test/"] == 0 || got["a.test/th/2"] == 0 {
		t.Fatalf("the new generation did not re-crawl the Thai section: %v", got)
	}
	for _, p := range []string{"a.test/en/", "a.test/en/1"} {
		if got[p] > 0 {
			t.Errorf("generation 2, whose scope.include leaves out /en/, fetched %s again (%d requests)", p, got[p])
		}
	}
	// Each is said in crawl.log, as an exclusion's URL is (-5004).
	for _, u := range []string{"http://a.test/en/", "http://a.test/en/1"} {
		said := false
		for _, l := range crawlLogLines(t, out, u) {
			said = said || strings.Fields(l)[1] == "-5004" && strings.Contains(l, "scope:not-included")
		}
		if !said {
			t.Errorf("crawl.log has no -5004 scope:not-included line for %s: %q", u, crawlLogLines(t, out, u))
		}
	}

	// The same from a new directory with --previous.
	before = w.snapshot()
	w.crawl(t, t.TempDir(), fmt.Sprintf("%srecrawl:\n  previous: %s\n", narrowed, out))
	got = fetchedSince(w, before)
	for _, p := range []string{"a.test/en/", "a.test/en/1"} {
		if got[p] > 0 {
			t.Errorf("a --previous re-crawl whose scope.include leaves out /en/ fetched %s (%d requests)", p, got[p])
		}
	}
}

// TestRecrawlReviewLoweredDepth: the profile's depth limit lowered
// between generations (8 to 1): the pages deeper than the new limit were
// queued again with their old depth and fetched, as if the limit were
// still 8. (from a re-crawl review)
func TestRecrawlReviewLoweredDepth(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 8\n")
	if w.count("a.test/th/2") != 1 {
		t.Fatalf("the first crawl did not reach depth 3: %v", w.snapshot())
	}
	before := w.snapshot()
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 1\n")
	got := fetchedSince(w, before)
	if got["a.test/th/"] == 0 {
		t.Fatalf("generation 2 did not fetch the depth-1 pages: %v", got)
	}
	for p, depth := range map[string]int{"a.test/th/1": 2, "a.test/th/2": 3, "a.test/en/1": 2} {
		if got[p] > 0 {
			t.Errorf("generation 2, with depth: 1, fetched %s, at depth %d (%d requests)", p, depth, got[p])
		}
	}
}

// TestRecrawlReviewRaisedDepth: the depth limit raised between
// generations (1 to 8). The pages the first generation left beyond its
// limit were never fetched, so they have no history; the new generation
// can only find them through the links of the pages above them, and those
// pages, unchanged, answer 304: a 304 has no body to parse, so their
// links were never followed and the deeper pages were never crawled, in
// this generation or any later one while the pages above stay unchanged.
// (from a re-crawl review)
func TestRecrawlReviewRaisedDepth(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 1\n")
	if w.count("a.test/th/1") != 0 || w.count("a.test/th/") != 1 {
		t.Fatalf("the first crawl, depth 1, fetched %v", w.snapshot())
	}
	before := w.snapshot()
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 8\n")
	got := fetchedSince(w, before)
	for _, p := range []string{"a.test/th/1", "a.test/th/2", "a.test/en/1"} {
		if got[p] == 0 {
			t.Errorf("generation 2, with depth: 8, never fetched %s (fetched %v)", p, got)
		}
	}
}

// TestRecrawlReviewLiftedExclusion: an exclusion of the profile removed
// between generations (an archivist had excluded /en/, and now wants it).
// The excluded pages were never fetched, so have no history; their links
// are on the home page, which answers 304, so the new generation never
// saw them and never fetched the section. (from a re-crawl review)
func TestRecrawlReviewLiftedExclusion(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://a.test/]\nscope:\n  exclude: ['/en/']\n")
	if w.count("a.test/en/") != 0 {
		t.Fatalf("the first crawl fetched the excluded /en/")
	}
	before := w.snapshot()
	w.crawl(t, out, "seeds: [http://a.test/]\n")
	got := fetchedSince(w, before)
	for _, p := range []string{"a.test/en/", "a.test/en/1"} {
		if got[p] == 0 {
			t.Errorf("generation 2, with the exclusion lifted, never fetched %s (fetched %v)", p, got)
		}
	}
}

// TestRecrawlReviewRaisedSiteBudget: max_pages_per_site raised between
// generations. The pages the first generation turned away at the budget
// (-5002) were never fetched and have no history; the new generation
// could reach them only through the home page's links, and the home page,
// unchanged, answered 304, so they were never crawled. (from a re-crawl
// review)
func TestRecrawlReviewRaisedSiteBudget(t *testing.T) {
	pages := map[string]string{"b.test/": "/p1 /p2 /p3 /p4 /p5"}
	for i := 1; i <= 5; i++ {
		pages[fmt.Sprintf("b.test/p%d", i)] = ""
	}
	w := startReviewWeb(t, pages)
	out := t.TempDir()
	w.crawl(t, out, "seeds: [http://b.test/]\nmax_pages_per_site: 2\n")
	first := w.snapshot()
	if n := len(fetchedSince(w, map[string]int{})); n != 2 {
		t.Fatalf("the first crawl, max_pages_per_site 2, fetched %d pages: %v", n, first)
	}
	w.crawl(t, out, "seeds: [http://b.test/]\nmax_pages_per_site: 100\n")
	got := fetchedSince(w, first)
	for i := 1; i <= 5; i++ {
		p := fmt.Sprintf("b.test/p%d", i)
		if first[p]+got[p] == 0 {
			t.Errorf("%s was never fetched, in either generation, with max_pages_per_site raised to 100 in the second (fetched %v)", p, got)
		}
	}
}

// TestSameProfileReadsNoCapture: a generation crawled with the profile of
// the generation before reads no capture for its 304s (their links were
// decided under the same rules; reading them costs about 40% of a re-crawl
// generation's CPU, BENCHMARKS.md), and the generation after an edit does,
// so that TestRecrawlReviewRaisedDepth's pages are found even after a
// generation that changed nothing.
func TestSameProfileReadsNoCapture(t *testing.T) {
	w := startReviewWeb(t, reviewPages)
	out := t.TempDir()
	logged := func() string {
		b, err := os.ReadFile(filepath.Join(out, "logs", "langcrawl.log"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 1\n")
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 1\n")
	if l := logged(); !strings.Contains(l, "profile against the generation before") || !strings.Contains(l, "same=true") {
		t.Fatalf("generation 2, the profile unchanged, not told so:\n%s", l)
	}
	before := w.snapshot()
	w.crawl(t, out, "seeds: [http://a.test/]\ndepth: 8\n")
	if l := logged(); !strings.Contains(l, "generation=3 same=false known=true") {
		t.Errorf("generation 3, depth raised, not told its profile changed:\n%s", l)
	}
	got := fetchedSince(w, before)
	for _, p := range []string{"a.test/th/1", "a.test/th/2", "a.test/en/1"} {
		if got[p] == 0 {
			t.Errorf("generation 3, with depth: 8, never fetched %s (fetched %v)", p, got)
		}
	}
}
