package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
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
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	f := &overlapFetcher{fakeFetcher: &fakeFetcher{web: web}, hold: 5 * time.Millisecond, now: map[string]int{}, most: map[string]int{}}
	c, err := New(Config{Workers: 8, Retries: fastRetries, DomainConnections: 2},
		Parts{Queue: q, Archive: &fakeArchive{}, Fetcher: f, Gate: fakeGate{}, Detector: fakeDetector{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed([]string{"http://seed.trap.test/", "http://other.test/"}); err != nil {
		t.Fatal(err)
	}
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
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
