package crawl

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/fetch"
)

// movingFetcher is a fake fetcher for the address and DNS review: each
// response says the address it came from (Result.IP), as ipOf tells for
// the URL, and it counts the fetches under way at the shared address.
// A fetch there is held until more than bound are under way at once (the
// fault, seen) or its server time has passed.
type movingFetcher struct {
	*fakeFetcher
	ipOf   func(u *url.URL) string
	shared string
	crowd
}

// crowd counts the requests under way at one place and the most at once.
// hold holds a request until more than bound are under way (the fault,
// seen) or wait has passed, the server's time to answer, during which
// others may come.
type crowd struct {
	mu        sync.Mutex
	now, most int
	bound     int
	over      chan struct{} // closed once more than bound were under way
	once      sync.Once
}

func newCrowd(bound int) crowd { return crowd{bound: bound, over: make(chan struct{})} }

func (g *crowd) hold(wait time.Duration) {
	g.mu.Lock()
	g.now++
	g.most = max(g.most, g.now)
	if g.now > g.bound {
		g.once.Do(func() { close(g.over) })
	}
	g.mu.Unlock()
	select {
	case <-g.over:
	case <-time.After(wait):
	}
	g.mu.Lock()
	g.now--
	g.mu.Unlock()
}

func (m *movingFetcher) Do(ctx context.Context, method, u string, h http.Header) (*fetch.Result, error) {
	pu, _ := url.Parse(u)
	ip := m.ipOf(pu)
	// Connected to ip, nothing sent yet: the check fetch.Client makes
	// of each new connection (every fetch here is one).
	if check := fetch.AddressCheck(ctx); check != nil {
		if err := check(ip); err != nil {
			return nil, err
		}
	}
	res, err := m.fakeFetcher.Do(ctx, method, u, h)
	if res != nil {
		res.IP = ip
	}
	if ip == m.shared {
		m.hold(50 * time.Millisecond)
	}
	return res, err
}

// sharedWeb is a seed page linking to n sites, each a home page linking
// to three pages of its own.
func sharedWeb(n int) (fakeWeb, []string) {
	web := fakeWeb{}
	var homes []string
	for i := range n {
		home := fmt.Sprintf("http://shop%d.test/", i)
		homes = append(homes, home)
		web[home] = page("th", home+"a", home+"b", home+"c")
		web[home+"a"], web[home+"b"], web[home+"c"] = page("th"), page("th"), page("th")
	}
	web["http://seed.test/"] = page("th", homes...)
	return web, homes
}

// TestDNSReviewTransientLookupFailureUnbound (from an address and DNS
// review): thirty shops on one shared-hosting address, whose DNS fails
// once in a while (a timeout, a SERVFAIL: here every site's first lookup
// times out and its next answers). The fetch after a failed lookup
// resolves the name again, reaches the shared server, and was counted
// under no address: the server got up to every worker's fetch at once
// under scheduling.address_connections 2. A lookup that failed for a
// moment says nothing about the site; only "no such host" lets the fetch
// go unbound (it reaches no one). Now the fetch's connection is counted
// under the address it reached before its request goes out
// (serverSlots.moveTo), as a moved site's is.
func TestDNSReviewTransientLookupFailureUnbound(t *testing.T) {
	const shared, bound = "192.0.2.7", 2
	web, homes := sharedWeb(30)
	f := &movingFetcher{fakeFetcher: &fakeFetcher{web: web}, shared: shared, crowd: newCrowd(bound),
		ipOf: func(u *url.URL) string {
			if u.Host == "seed.test" {
				return "192.0.2.1"
			}
			return shared
		}}
	resolve := flakyResolve(func(host string) bool { return host != "seed.test" },
		func(_ context.Context, raw string) (string, error) {
			u, err := url.Parse(raw)
			if err != nil {
				return "", err
			}
			return f.ipOf(u), nil
		})
	c := seededCrawler(t, Config{Workers: 8, Retries: fastRetries, AddressConnections: bound, Resolve: resolve}, f, "http://seed.test/")
	runToEnd(t, c)
	f.checkBound(t, c, homes, "after lookups that failed for a moment")
}

// TestDNSReviewMovedSitesBound (from an address and DNS review): thirty
// sites, each first reached at an address of its own, all move to one
// shared-hosting address (a host's migration; or a hostile DNS that
// answers each name with a public address of its own, then with the
// victim's). Their next fetches were counted under the addresses the
// sites were last reached at, one each, so the new address got every
// worker's fetch at once under scheduling.address_connections 2, a
// fetch per site until each connection told the move.
func TestDNSReviewMovedSitesBound(t *testing.T) {
	const shared, bound = "192.0.2.7", 2
	web, homes := sharedWeb(30)
	index := map[string]int{}
	for i, h := range homes {
		u, _ := url.Parse(h)
		index[u.Host] = i
	}
	f := &movingFetcher{fakeFetcher: &fakeFetcher{web: web}, shared: shared, crowd: newCrowd(bound),
		ipOf: func(u *url.URL) string {
			switch {
			case u.Host == "seed.test":
				return "192.0.2.1"
			case u.Path == "/" || u.Path == "/robots.txt":
				return fmt.Sprintf("198.51.100.%d", index[u.Host]) // before the move
			}
			return shared // moved
		}}
	resolve := func(_ context.Context, raw string) (string, error) {
		// What DNS answered before the move: a lookup comes before a
		// site's first lease only.
		u, err := url.Parse(raw)
		if err != nil {
			return "", err
		}
		return f.ipOf(&url.URL{Host: u.Host, Path: "/"}), nil
	}
	c := seededCrawler(t, Config{Workers: 8, Retries: fastRetries, AddressConnections: bound, Resolve: resolve}, f, "http://seed.test/")
	runToEnd(t, c)
	f.checkBound(t, c, homes, "thirty sites moved to")
}

// checkBound: no more than bound fetches at once at the shared address
// (what says how they got there), every page of the seed and of homes
// fetched, and no slot left held.
func (m *movingFetcher) checkBound(t *testing.T, c *Crawler, homes []string, what string) {
	t.Helper()
	if m.most > m.bound {
		t.Errorf("%d fetches at once at the shared address, %s; bound %d", m.most, what, m.bound)
	}
	if want := 1 + 4*len(homes); len(m.got) != want {
		t.Errorf("%d pages fetched, want %d", len(m.got), want)
	}
	if c.slots.underWay() {
		t.Errorf("slots still held after the crawl: %v %v", c.slots.domains, c.slots.addrs)
	}
}

// flakyResolve is a Config.Resolve whose first lookup of each host flaky
// names times out (a DNS that fails for a moment); every other lookup is
// answer's.
func flakyResolve(flaky func(host string) bool, answer func(ctx context.Context, raw string) (string, error)) func(context.Context, string) (string, error) {
	var mu sync.Mutex
	looked := map[string]int{}
	return func(ctx context.Context, raw string) (string, error) {
		u, err := url.Parse(raw)
		if err != nil {
			return "", err
		}
		mu.Lock()
		looked[u.Host]++
		n := looked[u.Host]
		mu.Unlock()
		if flaky(u.Host) && n == 1 {
			return "", &net.DNSError{Err: "i/o timeout", Name: u.Host, IsTimeout: true, IsTemporary: true}
		}
		return answer(ctx, raw)
	}
}
