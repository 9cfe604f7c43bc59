package crawl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

// farmWeb is a seed site a.test with its own pages /1 and /2, whose home
// page links to a farm: host(0, i) for i < width, each of whose pages
// links to width fresh hosts of the next level, levels deep.
func farmWeb(host func(level, i int) string, width, levels int) fakeWeb {
	links := []string{"/1", "/2"}
	for i := 0; i < width; i++ {
		links = append(links, "http://"+host(0, i)+"/")
	}
	web := fakeWeb{"http://a.test/": page("th", links...), "http://a.test/1": page("th"), "http://a.test/2": page("th")}
	n := width
	for level := 0; level < levels; level++ {
		for i := 0; i < n; i++ {
			var out []string
			if level+1 < levels {
				for j := 0; j < width; j++ {
					out = append(out, "http://"+host(level+1, i*width+j)+"/")
				}
			}
			web["http://"+host(level, i)+"/"] = page("th", out...)
		}
		n *= width
	}
	return web
}

// fetchedHosts counts the hosts the crawl fetched a page of.
func fetchedHosts(got []string, keep func(host string) bool) int {
	seen := map[string]bool{}
	for _, g := range got {
		u, err := url.Parse(g)
		if err == nil && keep(u.Host) {
			seen[u.Host] = true
		}
	}
	return len(seen)
}

// TestDomainBudget: max_pages_per_domain bounds a subdomain farm, whose
// every page links to fresh hosts under its own registered domain (each
// a site of its own, under max_pages_per_site), counts across restarts,
// logs -5002 with the domain named, and yields to a per-domain override.
func TestDomainBudget(t *testing.T) {
	web := farmWeb(func(level, i int) string { return fmt.Sprintf("s%d-%d.farm.test", level, i) }, 3, 3) // 39 hosts
	inFarm := func(h string) bool { return strings.HasSuffix(h, ".farm.test") }

	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{MaxPagesPerDomain: 6, MaxPages: 4}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A second run on the same frontier, as after a restart.
	c = r.crawler(t, Config{MaxPagesPerDomain: 6}, nil)
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := fetchedHosts(r.f.got, inFarm); n != 6 {
		t.Errorf("fetched %d hosts of farm.test over two runs, want the domain's budget of 6", n)
	}
	if !r.archived("http://a.test/2") {
		t.Error("a.test, another domain, was held back by farm.test's budget")
	}
	log := r.lines(t)
	over := 0
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		if strings.Contains(line, " -5002 ") {
			over++
			if !strings.Contains(line, "max-pages-per-domain:farm.test") {
				t.Errorf("-5002 line without the domain budget named: %s", line)
			}
		}
	}
	if over == 0 {
		t.Errorf("no -5002 line for the farm's hosts over budget:\n%s", log)
	}

	// The same farm under an override of 0 (no limit) for .farm.test.
	r = newRetryRig(t, web, nil)
	c = r.crawler(t, Config{MaxPagesPerDomain: 6, DomainBudgets: map[string]int{".farm.test": 0}}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := fetchedHosts(r.f.got, inFarm); n != 39 {
		t.Errorf("fetched %d hosts of farm.test under its override of no limit, want all 39", n)
	}

	// A site budget lifted to no limit for .farm.test lifts its domain's
	// too, unless a domain budget is set for it as well.
	for _, tc := range []struct {
		domains map[string]int
		want    int
	}{{nil, 39}, {map[string]int{".farm.test": 5}, 5}} {
		r = newRetryRig(t, web, nil)
		c = r.crawler(t, Config{MaxPagesPerDomain: 6, SiteBudgets: map[string]int{".farm.test": 0}, DomainBudgets: tc.domains}, nil, "http://a.test/")
		if _, err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := fetchedHosts(r.f.got, inFarm); n != tc.want {
			t.Errorf("site budget lifted, domain overrides %v: fetched %d hosts of farm.test, want %d", tc.domains, n, tc.want)
		}
	}
}

// TestSitesPerAddress: max_sites_per_address bounds a farm of fresh
// domains served from one address (farm-N.test, no registered domain in
// common), counts across restarts, and never turns away a site already
// taken: a.test, counted first, is crawled whole. With no limit the crawl
// warns once the address passes addressWarnAt sites instead.
func TestSitesPerAddress(t *testing.T) {
	web := farmWeb(func(level, i int) string { return fmt.Sprintf("farm-%d-%d.test", level, i) }, 3, 3)
	inFarm := func(h string) bool { return strings.HasPrefix(h, "farm-") }
	same := func(context.Context, string) (string, error) { return "127.0.0.1", nil } // the fake fetcher's address

	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{MaxSitesPerAddress: 5, MaxPages: 3, Resolve: same}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	c = r.crawler(t, Config{MaxSitesPerAddress: 5, Resolve: same}, nil)
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := fetchedHosts(r.f.got, inFarm); n != 4 {
		t.Errorf("fetched %d farm sites over two runs, want 4 (5 sites at the address, a.test one of them)", n)
	}
	for _, u := range []string{"http://a.test/1", "http://a.test/2"} {
		if !r.archived(u) {
			t.Errorf("%s not fetched: a site already taken was turned away", u)
		}
	}
	if log := r.lines(t); !strings.Contains(log, "max-sites-per-address:127.0.0.1") {
		t.Errorf("crawl.log does not name the guard for the farm's sites:\n%s", log)
	}
}

// TestManySitesWarned: with no max_sites_per_address, an address that
// passes addressWarnAt sites is warned of once, naming it, and each site
// is counted once.
func TestManySitesWarned(t *testing.T) {
	web := farmWeb(func(level, i int) string { return fmt.Sprintf("farm-%d-%d.test", level, i) }, 33, 2) // 1,122 hosts
	var warned logLines
	r := newRetryRig(t, web, nil)
	// No address lookups and no bound per address: the warning counts
	// the address each site answered from (a review found none without
	// scheduling.address_connections).
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	c.p.Log = slog.New(slog.NewTextHandler(&warned, nil))
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := fetchedHosts(r.f.got, func(string) bool { return true }); n != 1+33+33*33 {
		t.Errorf("fetched %d sites, want every one of %d with no limit set", n, 1+33+33*33)
	}
	if got := strings.Count(warned.String(), "many sites served from one address"); got != 1 {
		t.Errorf("%d warnings, want one at %d sites:\n%s", got, addressWarnAt, warned.String())
	}
	if !strings.Contains(warned.String(), "address=127.0.0.1") || !strings.Contains(warned.String(), "sites=1000") {
		t.Errorf("the warning does not name the address and its count:\n%s", warned.String())
	}
	if n, err := r.q.BudgetCount(addressCountKey("127.0.0.1")); err != nil || n != 1+33+33*33 {
		t.Errorf("address count %d, %v; want each of the %d sites once", n, err, 1+33+33*33)
	}
}

// TestWarnLevels: the warning of many sites on one address comes at
// addressWarnAt sites and again at each tenfold, once per level and
// address; after a restart (new books) it comes once more at the level
// the address has reached (README: "again after a restart").
func TestWarnLevels(t *testing.T) {
	var s serverSlots
	for _, c := range []struct {
		addr  string
		sites int64
		want  bool
	}{
		{"a", 999, false}, {"a", 1000, true}, {"a", 1001, false}, {"a", 9999, false},
		{"b", 1200, true}, // each address on its own
		{"a", 10000, true}, {"a", 10001, false}, {"a", 99999, false}, {"a", 100000, true}, {"a", 100001, false},
	} {
		if got := s.warnDue(c.addr, c.sites); got != c.want {
			t.Errorf("%s at %d sites: warn %v, want %v", c.addr, c.sites, got, c.want)
		}
	}
	var restarted serverSlots
	if !restarted.warnDue("a", 1500) || restarted.warnDue("a", 1501) {
		t.Error("after a restart: want one warning at the level reached, then none")
	}
}

// TestSitesPerAddressTakenStayTaken: a site with a page counted is never
// turned away by max_sites_per_address, whatever address it answers from
// later, nor one whose address lookup failed; such a site is counted by
// the address it answered from (a review: the lookup said 10.0.0.1, the
// fetch answered from 127.0.0.1, and the seed site's second page got
// -5002).
func TestSitesPerAddressTakenStayTaken(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/1", "http://c.test/"), "http://a.test/1": page("th"),
		"http://b.test/": page("th", "/1"), "http://b.test/1": page("th"), "http://c.test/": page("th")}
	for _, tc := range []struct {
		name    string
		resolve func(context.Context, string) (string, error)
	}{
		{"address changed", func(context.Context, string) (string, error) { return "10.0.0.1", nil }},
		{"lookup failed", func(context.Context, string) (string, error) { return "", errors.New("lookup timed out") }},
	} {
		r := newRetryRig(t, web, nil)
		c := r.crawler(t, Config{MaxSitesPerAddress: 1, Resolve: tc.resolve}, nil, "http://a.test/", "http://b.test/")
		if _, err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{"http://a.test/1", "http://b.test/1"} {
			if !r.archived(u) {
				t.Errorf("%s: %s not fetched: a seed's site already taken was turned away\n%s", tc.name, u, r.lines(t))
			}
		}
		// Every site answered from 127.0.0.1 (the fake fetcher) and is
		// counted there once; c.test, not a seed, was checked against
		// the address looked up (none, or 10.0.0.1 with no site counted)
		// and taken.
		if n, err := r.q.BudgetCount(addressCountKey("127.0.0.1")); err != nil || n != 3 {
			t.Errorf("%s: 127.0.0.1 counted %d sites, %v; want a.test, b.test and c.test once each", tc.name, n, err)
		}
		if n, _ := r.q.BudgetCount(addressCountKey("10.0.0.1")); n != 0 {
			t.Errorf("%s: 10.0.0.1, where no site answered from, counted %d sites", tc.name, n)
		}
	}
}

// TestDomainBudgetSparesSeeds: links to fresh names under a domain with
// wildcard DNS (a third party's, at no cost to it) do not spend the
// domain's budget for the seed's own site: a trial's seed www.big.test
// got 6 of its 30 pages. The seed's pages count; the fresh names stop.
func TestDomainBudgetSparesSeeds(t *testing.T) {
	r := newRetryRig(t, wildcardWeb(), nil)
	c := r.crawler(t, Config{MaxPagesPerDomain: 4}, nil, "http://hostile.test/", "http://www.big.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		if u := fmt.Sprintf("http://www.big.test/%d", i); !r.archived(u) {
			t.Errorf("%s not fetched: the seed's site was turned away by its domain's budget", u)
		}
	}
	if n := fetchedHosts(r.f.got, func(h string) bool { return strings.HasPrefix(h, "w") && h != "www.big.test" }); n > 4 {
		t.Errorf("fetched %d fresh hosts under big.test, more than its budget of 4", n)
	}
}

// TestDomainBudgetSparesRedirectedSeed: where a seed redirects is spared
// as the seed's own site is (a review: the seed http://big.test/ moved to
// www.big.test, the usual case, which the budget then cut), and stays
// spared in a later run on the same frontier.
func TestDomainBudgetSparesRedirectedSeed(t *testing.T) {
	web := wildcardWeb()
	web["http://big.test/"] = "HTTP/1.1 301 Moved Permanently\r\nLocation: http://www.big.test/\r\nContent-Length: 0\r\n\r\n"
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{MaxPagesPerDomain: 4, MaxPages: 6}, nil, "http://hostile.test/", "http://big.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A second run, as after a restart, with no seeds given again.
	c = r.crawler(t, Config{MaxPagesPerDomain: 4}, nil)
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		if u := fmt.Sprintf("http://www.big.test/%d", i); !r.archived(u) {
			t.Errorf("%s not fetched: where the seed redirected was turned away by its domain's budget\n%s", u, r.lines(t))
		}
	}
}

// wildcardWeb is a domain with wildcard DNS: the site www.big.test of six
// pages, and hostile.test, whose page links to 30 fresh names under
// big.test.
func wildcardWeb() fakeWeb {
	var fresh []string
	for i := range 30 {
		fresh = append(fresh, fmt.Sprintf("http://w%d.big.test/", i))
	}
	web := fakeWeb{"http://hostile.test/": page("th", fresh...),
		"http://www.big.test/": page("th", "/1", "/2", "/3", "/4", "/5")}
	for _, u := range fresh {
		web[u] = page("th")
	}
	for i := 1; i <= 5; i++ {
		web[fmt.Sprintf("http://www.big.test/%d", i)] = page("th")
	}
	return web
}
