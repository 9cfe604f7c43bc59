package crawl

import (
	"context"
	"errors"
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
	f := &overlapFetcher{fakeFetcher: &fakeFetcher{web: web}, hold: 5 * time.Millisecond, now: map[string]int{}, most: map[string]int{}}
	c := seededCrawler(t, Config{Workers: workers, Retries: fastRetries, DomainConnections: 2}, f, seeds...)
	runToEnd(t, c)
	return f, c
}

// seededCrawler is a crawler over an in-memory frontier, fetching with f,
// seeded with seeds.
func seededCrawler(t *testing.T, cfg Config, f Fetcher, seeds ...string) *Crawler {
	t.Helper()
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	c, err := New(cfg, Parts{Queue: q, Archive: &fakeArchive{}, Fetcher: f, Gate: fakeGate{}, Detector: fakeDetector{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed(seeds); err != nil {
		t.Fatal(err)
	}
	return c
}

// runToEnd runs c until its frontier is empty.
func runToEnd(t *testing.T, c *Crawler) {
	t.Helper()
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
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
	if c.slots.underWay() {
		t.Errorf("slots still held after the crawl: %v %v", c.slots.domains, c.slots.addrs)
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

// addrFetcher is a fakeFetcher that answers each host from the address
// addrOf gives it, holds each fetch a little, and records the most fetches
// under way at once per address; home pages are left out unless all is
// set: without a lookup (Config.Resolve), a site's first lease comes
// before any connection tells its address, so only the leases after it
// are bound.
type addrFetcher struct {
	*fakeFetcher
	addrOf map[string]string // host -> address
	all    bool
	mu     sync.Mutex
	now    map[string]int
	most   map[string]int
	// A fetch from the shared address waits (up to 2 s) until one from
	// the other has started, and heldBack says if one never did: under a
	// bound shared by all addresses, the other server's sites would wait
	// behind the shared one's.
	shared, other string
	started       chan struct{} // closed at the first fetch from other
	once          sync.Once
	heldBack      bool
}

// resolve is a Config.Resolve answering from addrOf, as DNS would.
func (a *addrFetcher) resolve(_ context.Context, u string) (string, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	return a.addrOf[pu.Host], nil
}

func (a *addrFetcher) Do(ctx context.Context, m, u string, h http.Header) (*fetch.Result, error) {
	res, err := a.fakeFetcher.Do(ctx, m, u, h)
	pu, _ := url.Parse(u)
	ip := a.addrOf[pu.Host]
	if res != nil {
		res.IP = ip
	}
	if ip == a.other {
		a.once.Do(func() { close(a.started) })
	}
	if !a.all && (pu.Path == "/" || pu.Path == "/robots.txt") {
		return res, err
	}
	if ip == a.shared {
		select {
		case <-a.started:
		case <-time.After(2 * time.Second):
			a.mu.Lock()
			a.heldBack = true
			a.mu.Unlock()
		}
	}
	a.mu.Lock()
	a.now[ip]++
	a.most[ip] = max(a.most[ip], a.now[ip])
	a.mu.Unlock()
	time.Sleep(5 * time.Millisecond) // the server's time to answer, during which others may start
	a.mu.Lock()
	a.now[ip]--
	a.mu.Unlock()
	return res, err
}

// TestAddressConnections: a shared-hosting server (24 unrelated domains
// on one address, each with four pages) gets at most AddressConnections
// fetches at once once its sites' address is known, however many workers
// the crawl has; every page is still fetched, and the sites of another
// address are not held back. Before, only the domain bound and one lease
// per site held, and the shared server got one fetch per worker.
func TestAddressConnections(t *testing.T) {
	t.Run("learnt", func(t *testing.T) { testAddressConnections(t, false) })
	// With a lookup before a site's first lease, every fetch is bound,
	// the first of each site too.
	t.Run("looked-up", func(t *testing.T) { testAddressConnections(t, true) })
}

func testAddressConnections(t *testing.T, lookup bool) {
	web := fakeWeb{}
	addrOf := map[string]string{"seed.test": "192.0.2.1"}
	var homes []string
	for i := range 28 {
		host, ip := fmt.Sprintf("site%d.test", i), "192.0.2.7" // shared hosting
		if i >= 24 {
			ip = "192.0.2.9" // a server of its own
		}
		addrOf[host] = ip
		home := "http://" + host + "/"
		homes = append(homes, home)
		web[home] = page("th", home+"a", home+"b", home+"c")
		web[home+"a"], web[home+"b"], web[home+"c"] = page("th"), page("th"), page("th")
	}
	web["http://seed.test/"] = page("th", homes...)
	f := &addrFetcher{fakeFetcher: &fakeFetcher{web: web}, addrOf: addrOf, all: lookup, now: map[string]int{}, most: map[string]int{},
		shared: "192.0.2.7", other: "192.0.2.9", started: make(chan struct{})}
	cfg := Config{Workers: 8, Retries: fastRetries, DomainConnections: 2, AddressConnections: 2}
	if lookup {
		cfg.Resolve = f.resolve
	}
	c := seededCrawler(t, cfg, f, "http://seed.test/")
	runToEnd(t, c)
	if m := f.most["192.0.2.7"]; m > 2 || m < 1 {
		t.Errorf("at most %d fetches at once to the shared server, want 1 or 2", m)
	}
	if f.heldBack {
		t.Errorf("no fetch of the other server's sites started while the shared server's waited: held back behind it")
	}
	// /metrics says which bound held sites back: the address's here.
	held := scrape(t, c, Leaves{})
	if n := held["langcrawl_held_back_total{address}"]; n < 1 {
		t.Errorf("langcrawl_held_back_total{address} = %v: want the address bound's refusals counted", n)
	}
	if want := 1 + 28*4; len(f.got) != want {
		t.Errorf("%d pages fetched, want %d", len(f.got), want)
	}
	if c.slots.underWay() {
		t.Errorf("slots still held after the crawl: %v %v", c.slots.domains, c.slots.addrs)
	}
}

// TestServerSlots: the two bounds together, a refusal that counts
// nothing, and a release by the keys the lease was taken with when the
// site's address changed under it.
func TestServerSlots(t *testing.T) {
	s := serverSlots{domainMax: 2, addrMax: 1}
	a, ok := s.tryTake("www.one.test")
	if !ok || a.addr != "" || a.domain != "one.test" {
		t.Fatalf("first lease, address unknown: %+v %v", a, ok)
	}
	s.learn("www.one.test", "192.0.2.1")
	s.learn("two.test", "192.0.2.1")
	b, ok := s.tryTake("two.test")
	if !ok || b.addr != "192.0.2.1" {
		t.Fatalf("lease at a known address: %+v %v", b, ok)
	}
	if _, ok := s.tryTake("www.one.test"); ok {
		t.Fatal("a second lease at 192.0.2.1 under a bound of 1")
	}
	if s.domains["one.test"] != 1 {
		t.Errorf("the refused lease counted against its domain: %v", s.domains)
	}
	s.learn("two.test", "192.0.2.2") // moved while its lease is under way
	s.release(b)
	if s.addrs["192.0.2.1"] != 0 || s.addrs["192.0.2.2"] != 0 {
		t.Errorf("address counts after release: %v", s.addrs)
	}
	s.release(a)
	if s.underWay() {
		t.Errorf("slots still held: %v %v", s.domains, s.addrs)
	}
	for i := range maxAddressBook + 10 {
		s.learn(fmt.Sprintf("h%d.test", i), "192.0.2.3")
	}
	if n := len(s.addrOf); n > maxAddressBook {
		t.Errorf("address book holds %d sites, bound %d", n, maxAddressBook)
	}
	off := serverSlots{}
	off.learn("a.test", "192.0.2.1")
	if h, ok := off.tryTake("a.test"); !ok || h != (held{}) || off.addrOf != nil {
		t.Errorf("no bounds: %+v %v, book %v", h, ok, off.addrOf)
	}
}

// BenchmarkServerSlots is the bookkeeping per lease of the bounds: take,
// learn the address again (and tell the answer, as the busy bound has
// each fetch do) and release, over 10,000 sites on 100
// addresses, each site's address known; with the domain bound alone (as
// before the address bound) and with both.
func BenchmarkServerSlots(b *testing.B) {
	for _, c := range []struct {
		name     string
		addr     int
		answered bool // tell the answer too, as each fetch does (the busy bound)
	}{{"domain", 0, false}, {"domain+address", 4, false}, {"domain+address+answered", 4, true}} {
		b.Run(c.name, func(b *testing.B) {
			s := serverSlots{domainMax: 2, addrMax: c.addr}
			sites := make([]string, 10000)
			for i := range sites {
				sites[i] = fmt.Sprintf("www.site%d.example.co.th", i)
				s.learn(sites[i], fmt.Sprintf("192.0.2.%d", i%100))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				site := sites[i%len(sites)]
				h, ok := s.tryTake(site)
				if !ok {
					b.Fatal("refused")
				}
				s.learn(site, "192.0.2.1")
				if c.answered {
					s.answered(site, false)
				}
				s.release(h)
			}
		})
	}
}

// lookupCrawler is a crawler with AddressConnections 2 and Resolve, seeded
// with seeds, over web.
func lookupCrawler(t *testing.T, web fakeWeb, resolve func(context.Context, string) (string, error), seeds ...string) (*fakeFetcher, *Crawler) {
	t.Helper()
	f := &fakeFetcher{web: web}
	return f, seededCrawler(t, Config{Workers: 4, Retries: fastRetries, AddressConnections: 2, Resolve: resolve}, f, seeds...)
}

// TestFailedLookupNotRepeated: a site whose address lookup fails is not
// looked up again for each of its leases: a dead site's queued URLs,
// tried and given up, each waited on DNS before (53 lookups for 50 URLs
// in a review's run).
func TestFailedLookupNotRepeated(t *testing.T) {
	var seeds []string
	for i := range 20 {
		seeds = append(seeds, fmt.Sprintf("http://down.test/p%d", i))
	}
	var mu sync.Mutex
	lookups := 0
	_, c := lookupCrawler(t, fakeWeb{}, func(context.Context, string) (string, error) {
		mu.Lock()
		lookups++
		mu.Unlock()
		return "", errors.New("lookup down.test: no such host")
	}, seeds...)
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	if lookups != 1 {
		t.Errorf("%d lookups of down.test for %d URLs, want 1", lookups, len(seeds))
	}
}

// TestStopDuringLookup: a crawl stopped while a lookup is under way hands
// the lease back instead of fetching its URL unbound.
func TestStopDuringLookup(t *testing.T) {
	entered := make(chan struct{})
	var once sync.Once
	f, c := lookupCrawler(t, fakeWeb{"http://slow-dns.test/": page("th")}, func(ctx context.Context, _ string) (string, error) {
		once.Do(func() { close(entered) })
		<-ctx.Done()
		return "", ctx.Err()
	}, "http://slow-dns.test/")
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-entered; cancel() }()
	if reason, err := c.Run(ctx); err != nil || reason != StopCanceled {
		t.Fatalf("Run = %q, %v; want %q", reason, err, StopCanceled)
	}
	if len(f.got) != 0 {
		t.Errorf("fetched after the stop: %v", f.got)
	}
	if st := c.p.Queue.Stats(); st.Queued != 1 {
		t.Errorf("%d URLs queued after the stop, want the one handed back", st.Queued)
	}
}

// TestBusyAddress: a 429 or 503 from one site halves the bound of its
// address, to one at least, for the address's other sites too; answers
// that are not busy raise it again by one per run of as many answers as
// the bound, back to AddressConnections. Other addresses keep theirs.
func TestBusyAddress(t *testing.T) {
	s := serverSlots{addrMax: 4}
	for _, site := range []string{"a.test", "b.test", "c.test", "d.test"} {
		s.learn(site, "192.0.2.1")
	}
	s.learn("other.test", "192.0.2.2")
	take := func(site string) int { // leases granted of 6 tries
		n := 0
		var hs []held
		for range 6 {
			if h, ok := s.tryTake(site); ok {
				n++
				hs = append(hs, h)
			}
		}
		for _, h := range hs {
			s.release(h)
		}
		return n
	}
	if n := take("b.test"); n != 4 {
		t.Fatalf("%d leases before any busy answer, want 4", n)
	}
	s.answered("a.test", true)
	if n := take("b.test"); n != 2 {
		t.Errorf("%d leases at the address after one busy answer from another site, want 2", n)
	}
	if n := take("other.test"); n != 4 {
		t.Errorf("%d leases at another address, want 4", n)
	}
	// A site's busy answers in a row count once (one site's rate limit,
	// met at each retry, on an address many sites share).
	s.answered("a.test", true)
	s.answered("a.test", true)
	if n := take("b.test"); n != 2 {
		t.Errorf("%d leases after a site's busy answers in a row, want 2: they count once", n)
	}
	s.answered("c.test", true)
	s.answered("d.test", true)
	if n := take("d.test"); n != 1 {
		t.Errorf("%d leases after busy answers from three sites, want 1 (never 0)", n)
	}
	if s.slowed() != 1 {
		t.Errorf("%d addresses slowed, want 1", s.slowed())
	}
	// 1, then 2 answers to reach 3, then 3 to reach 4: six in all.
	for i, want := range []int{2, 2, 3, 3, 3, 4} {
		s.answered("d.test", false)
		if n := take("a.test"); n != want {
			t.Errorf("after %d answers not busy: %d leases, want %d", i+1, n, want)
		}
	}
	if s.slowed() != 0 {
		t.Errorf("the address is still slowed once back at its bound: %v", s.lowered)
	}
	// An address with no answers to raise it (its sites moved, or were
	// given up on) is back at its bound lowQuiet after its last busy one.
	clock := time.Unix(1000, 0)
	s.now = func() time.Time { return clock }
	s.answered("a.test", false) // a.test's run of busy answers ends
	s.answered("a.test", true)
	s.answered("b.test", true)
	clock = clock.Add(lowQuiet - time.Second)
	if n := take("b.test"); n != 1 || s.slowed() != 1 {
		t.Errorf("%d leases, %d addresses slowed, a second before the quiet time; want 1 and 1", n, s.slowed())
	}
	clock = clock.Add(time.Second)
	if s.slowed() != 0 || take("b.test") != 4 {
		t.Errorf("%d addresses slowed after the quiet time: %v; want none, and the bound back", s.slowed(), s.lowered)
	}
	s.now = nil
	s.answered("unknown.test", true) // no address known: nothing to slow
	if s.slowed() != 0 {
		t.Errorf("a site of unknown address slowed an address: %v", s.lowered)
	}
	for i := range maxAddressBook + 10 {
		site := fmt.Sprintf("h%d.test", i)
		s.learn(site, fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255))
		s.answered(site, true)
	}
	if n := s.slowed(); n > maxAddressBook {
		t.Errorf("%d addresses slowed, bound %d", n, maxAddressBook)
	}
	one := serverSlots{addrMax: 1}
	one.learn("a.test", "192.0.2.1")
	one.answered("a.test", true)
	if one.slowed() != 0 {
		t.Errorf("a bound of 1 was lowered: %v", one.lowered)
	}
}

// busyFetcher answers 429 to every fetch, robots.txt included, of the
// sites at one address.
type busyFetcher struct {
	*fakeFetcher
	addrOf map[string]string
	busy   string
}

func (b *busyFetcher) Do(ctx context.Context, m, u string, h http.Header) (*fetch.Result, error) {
	pu, _ := url.Parse(u)
	ip := b.addrOf[pu.Host]
	if ip == b.busy {
		b.fakeFetcher.Do(ctx, m, u, h) // counted as fetched
		return &fetch.Result{URL: u, IP: ip, Status: http.StatusTooManyRequests, Started: time.Now(),
			RawRequest: []byte("GET / HTTP/1.1\r\n\r\n"), Header: http.Header{},
			RawResponse: []byte("HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\n\r\n"), BodyOffset: 58}, nil
	}
	res, err := b.fakeFetcher.Do(ctx, m, u, h)
	if res != nil {
		res.IP = ip
	}
	return res, err
}

// TestBusyAddressCrawl: the crawl tells the bounds how each site
// answered. A shared server that answers 429 to everything ends the crawl
// at one fetch at a time, and /metrics says one address is slowed; the
// other server, whose answers are fine, keeps its bound.
func TestBusyAddressCrawl(t *testing.T) {
	web := fakeWeb{}
	addrOf := map[string]string{"seed.test": "192.0.2.1"}
	var homes []string
	for i := range 8 {
		host, ip := fmt.Sprintf("site%d.test", i), "192.0.2.7"
		if i >= 4 {
			ip = "192.0.2.9"
		}
		addrOf[host] = ip
		home := "http://" + host + "/"
		homes = append(homes, home)
		web[home] = page("th", home+"a")
		web[home+"a"] = page("th")
	}
	web["http://seed.test/"] = page("th", homes...)
	f := &busyFetcher{fakeFetcher: &fakeFetcher{web: web}, addrOf: addrOf, busy: "192.0.2.7"}
	// The busy sites were looked up at an old address, 192.0.2.5: the
	// busy answers count against the address they came from.
	resolve := func(_ context.Context, u string) (string, error) {
		pu, _ := url.Parse(u)
		if ip := addrOf[pu.Host]; ip != "192.0.2.7" {
			return ip, nil
		}
		return "192.0.2.5", nil
	}
	cfg := Config{Workers: 4, Retries: Retries{Max: 2, Delay: time.Millisecond, MaxDelay: time.Millisecond}, AddressConnections: 4, Resolve: resolve}
	c := seededCrawler(t, cfg, f, "http://seed.test/")
	runToEnd(t, c)
	c.slots.mu.Lock()
	shared, other, old := c.slots.bound("192.0.2.7"), c.slots.bound("192.0.2.9"), c.slots.bound("192.0.2.5")
	c.slots.mu.Unlock()
	if shared != 1 || other != 4 || old != 4 {
		t.Errorf("bounds after the crawl: busy server %d, want 1; the other %d, want 4; the old address %d, want 4", shared, other, old)
	}
	if n := scrape(t, c, Leaves{})["langcrawl_slowed_addresses"]; n != 1 {
		t.Errorf("langcrawl_slowed_addresses = %v, want 1", n)
	}
}

// TestBusyRobotsSlowsAddress: a 429 to robots.txt, often a site's first
// request, slows its address as a page's does (a review: robots.txt
// answers were never told to the bounds).
func TestBusyRobotsSlowsAddress(t *testing.T) {
	addrOf := map[string]string{"a.test": "192.0.2.7"}
	f := &busyFetcher{fakeFetcher: &fakeFetcher{web: fakeWeb{}}, addrOf: addrOf, busy: "192.0.2.7"}
	c := seededCrawler(t, Config{Workers: 1, AddressConnections: 4}, f)
	slot := func(context.Context, string) (func(time.Time), error) { return func(time.Time) {}, nil }
	robots := RobotsFetcher(f, &fakeArchive{}, slot, nil, c.Answered)
	if status, _, _ := robots(context.Background(), "http://a.test/robots.txt"); status != 0 && status != 429 {
		t.Fatalf("robots.txt answered %d, want the 429", status)
	}
	c.slots.mu.Lock()
	b := c.slots.bound("192.0.2.7")
	c.slots.mu.Unlock()
	if b != 2 {
		t.Errorf("bound of the address after a 429 to robots.txt: %d, want 2", b)
	}
}

// TestFreedSlotWakesParked: a site refused for its address's bound and
// put aside is woken when a fetch at that address ends, so the freed slot
// goes to it, ready before a site found meanwhile, not to the newcomer (a
// trial: friends of the seeds, put aside again and again, lost every
// freed slot to a farm's fresh sites until the address bound turned them
// away for good).
func TestFreedSlotWakesParked(t *testing.T) {
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	now := time.Unix(1000, 0)
	s := serverSlots{addrMax: 1}
	s.learn("busy.test", "192.0.2.1")
	s.learn("friend.test", "192.0.2.1")
	busy, ok := s.tryTake("busy.test")
	if !ok {
		t.Fatal("busy.test refused with the address idle")
	}
	if _, err := q.PushMany([]frontier.Entry{{URL: "http://friend.test/", Site: "friend.test"}}); err != nil {
		t.Fatal(err)
	}
	// The engine's search: friend.test refused for its full address, and
	// put aside.
	var full []string
	l, _, err := q.NextFit(now, 4, func(site string) bool {
		if _, ok := s.tryTake(site); !ok {
			full = append(full, site)
			return false
		}
		return true
	})
	if err != nil || l != nil || len(full) != 1 {
		t.Fatalf("search with the address full: lease %v, %v, refused %v", l, err, full)
	}
	q.Postpone(full, now.Add(domainWait))
	// A farm's fresh site, its address unknown, found meanwhile.
	if _, err := q.PushMany([]frontier.Entry{{URL: "http://farm-1.test/", Site: "farm-1.test"}}); err != nil {
		t.Fatal(err)
	}
	// busy.test's fetch ends.
	q.Wake(s.done(busy), 1, now)
	l, _, err = q.Next(now)
	if err != nil || l == nil {
		t.Fatalf("Next after the slot freed: %v, %v", l, err)
	}
	if l.Entry.Site != "friend.test" {
		t.Errorf("the freed slot went to %s; friend.test, waiting for it, must come first", l.Entry.Site)
	}
}

// TestFailedLookupRetriedAfterFiveMinutes: a site whose lookup failed is
// not looked up again for lookupRetry (README: 5 minutes), and is after.
func TestFailedLookupRetriedAfterFiveMinutes(t *testing.T) {
	if lookupRetry != 5*time.Minute {
		t.Errorf("lookupRetry = %v, README says 5 minutes", lookupRetry)
	}
	s := serverSlots{domainMax: 2, addrMax: 1}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.lookupFailed("down.test", t0.Add(lookupRetry))
	for _, c := range []struct {
		at  time.Duration
		due bool
	}{{0, false}, {lookupRetry - time.Second, false}, {lookupRetry, true}} {
		if got := s.lookupDue("down.test", t0.Add(c.at)); got != c.due {
			t.Errorf("%v after the failure: lookup due %v, want %v", c.at, got, c.due)
		}
	}
	if !s.lookupDue("other.test", t0) {
		t.Error("a site never looked up is not due")
	}
}
