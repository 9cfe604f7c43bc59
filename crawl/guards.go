package crawl

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/internal/hostmatch"
)

// The trap guards of step 2 of process: page budgets per site and per
// registered domain, and a bound on the sites taken from one address.
// Each counts in the frontier (BudgetCount, bumped by the completion's
// Budgets), so it holds across restarts as the job's budgets do, and a
// new generation starts them again, as it does the sites' budgets.
//
// A link to another site starts a new site tree at depth 0, so neither
// the depth limit nor max_pages_per_site bounds a farm of hosts:
//   - a subdomain farm, whose every page links to fresh names under its
//     own domain (a1.farm.example, a2.farm.example, ...), shares a
//     registered domain: max_pages_per_domain bounds it;
//   - a farm of fresh domains (farm-1.example, farm-2.example, ...) has
//     none in common, only the server that answers them all:
//     max_sites_per_address bounds it. Shared hosts and CDN addresses
//     serve thousands of real sites, so it is off by default; a crawl
//     warns instead when an address passes addressWarnAt sites.
//
// The counts are keyed by registered domain and by address. In a crawl
// spread over nodes by site, each node keeps its own, as it does for the
// connections per domain and address (serverSlots); spread by registered
// domain, the domain budget is exact.

// Budget keys of the guards.
func domainCountKey(domain string) string { return "domain " + domain }
func addressCountKey(addr string) string  { return "address " + addr }

// addressSiteKey marks site as counted against addr.
func addressSiteKey(addr, site string) string { return "address " + addr + " " + site }

// addressWarnAt is the number of sites on one address at which a crawl
// warns, and again at each tenfold of it: a shared host, a CDN address
// or a farm of fresh domains, for the operator to tell apart.
const addressWarnAt = 1000

// trapGuards applies the guards to the lease of e. It returns the outcome
// of a URL a guard turns away (codeSiteBudget, with the guard named in the
// annotation), or the budget keys that count the page against the guards
// if it is fetched (Completion.Budgets). Requisites are not counted and never turned away, as for
// the site budget: a page that was taken must replay.
func (c *Crawler) trapGuards(l *frontier.Lease) (*outcome, []string, error) {
	e := l.Entry
	if e.Requisite {
		return nil, nil, nil
	}
	// The site's budget. The frontier keeps the count (only responses
	// count: finish marks them); one lease per site keeps it exact.
	budget := c.cfg.MaxPagesPerSite
	if b, ok := hostmatch.Lookup(c.cfg.SiteBudgets, e.Site); ok {
		budget = b
	}
	if budget > 0 && l.SiteBudget >= int64(budget) {
		return &outcome{status: codeSiteBudget, annot: []string{"max-pages-per-site"}}, nil, nil
	}
	var keys []string

	// The registered domain's budget. Its hosts are leased at once, so a
	// domain may pass its budget by the leases under way, at most
	// scheduling.domain_connections.
	budget = c.cfg.MaxPagesPerDomain
	if b, ok := hostmatch.Lookup(c.cfg.DomainBudgets, e.Site); ok {
		budget = b
	}
	if budget > 0 {
		dom := siteDomain(e.Site)
		k := domainCountKey(dom)
		n, err := c.p.Queue.BudgetCount(k)
		if err != nil {
			return nil, nil, fmt.Errorf("frontier budget %s: %w", k, err)
		}
		if n >= int64(budget) {
			return &outcome{status: codeSiteBudget, annot: []string{"max-pages-per-domain:" + dom}}, nil, nil
		}
		keys = append(keys, k)
	}

	// The sites of the site's address: a site is counted against the
	// address once, with its first page fetched; a site not counted yet
	// is turned away once the address has its bound, unless the operator
	// named it: a seed, or where a seed redirected (hops R only), is
	// always taken, and counted. Without that, a farm found early filled
	// the bound before the seeds on its address had their first turn
	// (the hostile suite, where every host shares 127.0.0.1). The address is the
	// one looked up before the site's first fetch (placeAddress) or last
	// connected to; a site whose address is unknown (its lookup failed)
	// is counted from its next lease on.
	addr := ""
	if c.slots.keepsBook() {
		addr = c.slots.addressOf(e.Site)
	}
	if addr == "" || c.slots.counted(e.Site, addr) {
		return nil, keys, nil
	}
	mark := addressSiteKey(addr, e.Site)
	m, err := c.p.Queue.BudgetCount(mark)
	if err != nil {
		return nil, nil, fmt.Errorf("frontier budget %s: %w", mark, err)
	}
	if m > 0 {
		c.slots.markCounted(e.Site, addr)
		return nil, keys, nil
	}
	k := addressCountKey(addr)
	a, err := c.p.Queue.BudgetCount(k)
	if err != nil {
		return nil, nil, fmt.Errorf("frontier budget %s: %w", k, err)
	}
	if limit := c.cfg.MaxSitesPerAddress; limit > 0 && a >= int64(limit) && !seeded(e) {
		return &outcome{status: codeSiteBudget, annot: []string{"max-sites-per-address:" + addr}}, nil, nil
	}
	if n := a + 1; c.slots.warnDue(addr, n) {
		c.p.Log.Warn("many sites served from one address: a shared host, a CDN or a farm of fresh domains; "+
			"the status page's top hosts and crawl.log tell which, and max_sites_per_address or an exclusion bounds it",
			slog.String("address", addr), slog.Int64("sites", n), slog.String("latest", e.Site),
			slog.Int("max_sites_per_address", c.cfg.MaxSitesPerAddress))
	}
	return nil, append(keys, mark, k), nil
}

// seeded reports whether the operator named e: a seed, or the end of
// redirects from one.
func seeded(e frontier.Entry) bool { return strings.Trim(e.Hops, "R") == "" }
