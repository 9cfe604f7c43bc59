package crawl

import (
	"context"
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
// passes addressWarnAt sites is warned of once, naming it.
func TestManySitesWarned(t *testing.T) {
	web := farmWeb(func(level, i int) string { return fmt.Sprintf("farm-%d-%d.test", level, i) }, 33, 2) // 1,122 hosts
	var warned logLines
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{AddressConnections: 4, Resolve: func(context.Context, string) (string, error) { return "127.0.0.1", nil }}, nil, "http://a.test/")
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
}
