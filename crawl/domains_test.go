package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb/storage"

	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
)

// overlapFetcher is a fakeFetcher that holds each fetch a little and
// records the most fetches under way at once per registered domain.
type overlapFetcher struct {
	*fakeFetcher
	hold time.Duration
	mu   sync.Mutex
	now  map[string]int
	most map[string]int
}

func (o *overlapFetcher) Do(ctx context.Context, m, u string, h http.Header) (*fetch.Result, error) {
	res, err := o.fakeFetcher.Do(ctx, m, u, h)
	pu, _ := url.Parse(u)
	d := siteDomain(pu.Host)
	o.mu.Lock()
	o.now[d]++
	o.most[d] = max(o.most[d], o.now[d])
	o.mu.Unlock()
	time.Sleep(o.hold) // the server's time to answer, during which others may start
	o.mu.Lock()
	o.now[d]--
	o.mu.Unlock()
	return res, err
}

// crawlBounded crawls web from seeds to its end with workers workers and
// DomainConnections 2, through an overlapFetcher that holds each fetch
// 5 ms, and returns the fetcher and the crawler.
func crawlBounded(t *testing.T, web fakeWeb, workers int, seeds ...string) (*overlapFetcher, *Crawler) {
	t.Helper()
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	f := &overlapFetcher{fakeFetcher: &fakeFetcher{web: web}, hold: 5 * time.Millisecond, now: map[string]int{}, most: map[string]int{}}
	c, err := New(Config{Workers: workers, Retries: fastRetries, DomainConnections: 2},
		Parts{Queue: q, Archive: &fakeArchive{}, Fetcher: f, Gate: fakeGate{}, Detector: fakeDetector{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed(seeds); err != nil {
		t.Fatal(err)
	}
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	return f, c
}

// TestDomainConnections: a subdomain trap (every page links to fresh
// host names under one registered domain, all one server) gets at most
// DomainConnections fetches at once, however many workers the crawl has;
// every page is still fetched, and another domain's sites are not held
// back by it. Before, it got one fetch per worker.
func TestDomainConnections(t *testing.T) {
	web := fakeWeb{}
	var hosts []string
	for i := range 24 {
		hosts = append(hosts, fmt.Sprintf("http://h%d.trap.test/", i))
	}
	web["http://seed.trap.test/"] = page("th", hosts...)
	for _, h := range hosts {
		web[h] = page("th")
	}
	web["http://other.test/"] = page("th")
	f, c := crawlBounded(t, web, 8, "http://seed.trap.test/", "http://other.test/")
	if m := f.most["trap.test"]; m > 2 || m < 1 {
		t.Errorf("at most %d fetches at once to trap.test, want 1 or 2", m)
	}
	if len(f.got) != len(hosts)+2 {
		t.Errorf("%d pages fetched, want %d", len(f.got), len(hosts)+2)
	}
	if len(c.domains.busy) != 0 {
		t.Errorf("slots still held after the crawl: %v", c.domains.busy)
	}
}

func TestSiteDomain(t *testing.T) {
	for site, want := range map[string]string{
		"a.b.example.org":      "example.org",
		"www.example.co.th:81": "example.co.th",
		"127.0.0.1:8080":       "127.0.0.1",
		"[::1]:81":             "::1",
		"example.org":          "example.org",
	} {
		if got := siteDomain(site); got != want {
			t.Errorf("siteDomain(%q) = %q, want %q", site, got, want)
		}
	}
}

// TestDomainBoundPassesOver: sites held back by their domain's bound do
// not hold back the sites below them. Twenty trap hosts with three pages
// queued each sort above five one-page sites (most pending first); with two
// fetches at once allowed to the trap, the other workers fetch the five
// early on, long before the trap is done. Before, the search looked at the
// same sixteen trap sites again and again and left the workers idle.
func TestDomainBoundPassesOver(t *testing.T) {
	web := fakeWeb{}
	var seeds []string
	for i := range 20 {
		h := fmt.Sprintf("http://h%d.trap.test/", i)
		// All three queued from the start: each trap site holds three
		// pending pages, the others one.
		seeds = append(seeds, h, h+"a", h+"b")
		web[h], web[h+"a"], web[h+"b"] = page("th"), page("th"), page("th")
	}
	var others []string
	for i := range 5 {
		o := fmt.Sprintf("http://other%d.test/", i)
		others = append(others, o)
		web[o] = page("th")
	}
	f, _ := crawlBounded(t, web, 6, append(seeds, others...)...)
	if len(f.got) != 65 {
		t.Fatalf("%d pages fetched, want 65", len(f.got))
	}
	last := 0
	for i, u := range f.got {
		if slices.Contains(others, u) {
			last = i
		}
	}
	if last >= len(f.got)/2 {
		t.Errorf("the last of the five other sites was fetch %d of %d: held back behind the trap\n%v", last+1, len(f.got), f.got)
	}
	if m := f.most["trap.test"]; m > 2 {
		t.Errorf("%d fetches at once to trap.test, want at most 2", m)
	}
}
