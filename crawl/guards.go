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
// max_pages_per_site bounds one host, not a farm of hosts:
//   - a subdomain farm, whose every page links to fresh names under its
//     own domain (a1.farm.example, a2.farm.example, ...), stays in one
//     site tree, which the depth limit bounds only at (links a page) to
//     the power depth; it shares a registered domain, and
//     max_pages_per_domain bounds it;
//   - a farm of fresh domains (farm-1.example, farm-2.example, ...)
//     starts a new site tree at depth 0 with every link, and has no
//     domain in common, only the server that answers them all:
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

// seedSiteKey flags the site of a seed (Crawler.Seed), or of where a seed
// redirected.
func seedSiteKey(site string) string { return "seed " + site }

// seedURLKey flags a seed URL of this generation (Crawler.Seed).
func seedURLKey(u string) string { return "seed-url " + u }

// addressWarnAt is the number of sites on one address at which a crawl
// warns, and again at each tenfold of it: a shared host, a CDN address
// or a farm of fresh domains, for the operator to tell apart.
const addressWarnAt = 1000

// maxStylesheetLinks caps the references taken from one stylesheet (fonts,
// images, @imports): a stylesheet is a requisite, fetched from any host
// and counted by no site budget, so a generated one listing a million
// url()s would queue them all (README, scope.max_embed_hops).
const maxStylesheetLinks = 1000

// trapGuards applies the guards to the lease of e. It returns the outcome
// of a URL a guard turns away (codeSiteBudget, with the guard named in the
// annotation), or the budget keys that count the page against the guards
// if it is fetched (Completion.Budgets; the address's is added after the
// fetch, by addressCounted). Requisites are not counted and never turned
// away, as for the site budget: a page that was taken must replay.
//
// A guard reads its count before the fetch and the completion raises it,
// so fetches under way at once may pass a bound together: a domain's by
// at most scheduling.domain_connections (the workers, with no such
// limit), an address's by the sites taken at once from it.
func (c *Crawler) trapGuards(l *frontier.Lease) (*outcome, []string, error) {
	e := l.Entry
	if e.Requisite {
		return nil, nil, nil
	}
	// The site's budget. The frontier keeps the count (only responses
	// count: finish marks them); one lease per site keeps it exact.
	siteBudget, siteSet := hostmatch.Lookup(c.cfg.SiteBudgets, e.Site)
	budget := c.cfg.MaxPagesPerSite
	if siteSet {
		budget = siteBudget
	}
	if budget > 0 && l.SiteBudget >= int64(budget) {
		// The site named, as the domain's guard names its domain: the
		// report then lists the sites a budget stopped (a trap trial
		// found only crawl.log's URLs told which).
		return &outcome{status: codeSiteBudget, annot: []string{"max-pages-per-site:" + e.Site}}, nil, nil
	}
	var keys []string

	// The registered domain's budget: the host's override, else none for
	// a host whose site budget an override lifted (the operator asked for
	// all of it), else max_pages_per_domain. A seed's site, or where a
	// seed redirected, is never turned away, though counted: links to
	// fresh names under a domain with wildcard DNS cost a third party
	// nothing, and spent the budget of the seed www.big.test before its
	// pages (a trial: 6 of its 30). The flag is read only when a guard
	// would turn the URL away; where a seed redirects is flagged with the
	// page's completion.
	if seeded(e) {
		keys = append(keys, seedSiteKey(e.Site))
	}
	budget = c.cfg.MaxPagesPerDomain
	if b, ok := hostmatch.Lookup(c.cfg.DomainBudgets, e.Site); ok {
		budget = b
	} else if siteSet && siteBudget == 0 {
		budget = 0
	}
	if budget > 0 {
		dom := siteDomain(e.Site)
		k := domainCountKey(dom)
		if over, err := c.overBudget(e, k, budget, "max-pages-per-domain:"+dom); over != nil || err != nil {
			return over, nil, err
		}
		keys = append(keys, k)
	}

	// The sites of the site's address. A site is taken once a page of it
	// is counted (Lease.SiteBudget > 0, this generation), whatever address
	// it answers from later: round-robin DNS and a restart's new lookup
	// must not turn away a site half crawled. One not taken yet is turned
	// away once its address has the bound, unless the operator named it:
	// a seed's site, or where a seed redirected (hops R only). Without that, a
	// farm found early filled the bound before the seeds on its address
	// had their first turn (the hostile suite, where every host shares
	// 127.0.0.1). The address is the one looked up before the site's
	// first fetch (placeAddress); a site whose lookup failed is not
	// turned away, and is counted by the address it answered from.
	limit := c.cfg.MaxSitesPerAddress
	if limit <= 0 || l.SiteBudget > 0 {
		return nil, keys, nil
	}
	addr := c.slots.addressOf(e.Site)
	if addr == "" {
		return nil, keys, nil
	}
	over, err := c.overBudget(e, addressCountKey(addr), limit, "max-sites-per-address:"+addr)
	return over, keys, err
}

// overBudget returns the outcome of e turned away by the guard whose count
// is under k, annotated annot, if the count has reached limit and the
// operator did not name e's site (seedSite); nil otherwise.
func (c *Crawler) overBudget(e frontier.Entry, k string, limit int, annot string) (*outcome, error) {
	n, err := c.p.Queue.BudgetCount(k)
	if err != nil {
		return nil, fmt.Errorf("frontier budget %s: %w", k, err)
	}
	if n < int64(limit) {
		return nil, nil
	}
	if spared, err := c.seedSite(e); err != nil || spared {
		return nil, err
	}
	return &outcome{status: codeSiteBudget, annot: []string{annot}}, nil
}

// addressCounted returns the budget key that counts a site's first page
// against ip, the address it answered from, and warns when the address
// passes a warning level; "" for a page that is not a site's first
// (Lease.SiteBudget), a requisite, or one with no address. It reads the
// count once per site, whether max_sites_per_address is set or not.
func (c *Crawler) addressCounted(l *frontier.Lease, ip string) (string, error) {
	if l.Entry.Requisite || l.SiteBudget > 0 || ip == "" {
		return "", nil
	}
	k := addressCountKey(ip)
	a, err := c.p.Queue.BudgetCount(k)
	if err != nil {
		return "", fmt.Errorf("frontier budget %s: %w", k, err)
	}
	if n := a + 1; c.slots.warnDue(ip, n) {
		c.p.Log.Warn("many sites served from one address: a shared host, a CDN or a farm of fresh domains; "+
			"the status page's top hosts and crawl.log tell which, and max_sites_per_address or an exclusion bounds it",
			slog.String("address", ip), slog.Int64("sites", n), slog.String("latest", l.Entry.Site),
			slog.Int("max_sites_per_address", c.cfg.MaxSitesPerAddress))
	}
	return k, nil
}

// seedSite reports whether the operator named e's site: a seed's site
// or where a seed redirected (flagged in the frontier), or e is a seed or
// the end of redirects from one.
func (c *Crawler) seedSite(e frontier.Entry) (bool, error) {
	if seeded(e) {
		return true, nil
	}
	k := seedSiteKey(e.Site)
	n, err := c.p.Queue.BudgetCount(k)
	if err != nil {
		return false, fmt.Errorf("frontier budget %s: %w", k, err)
	}
	return n > 0, nil
}

// seeded reports whether the operator named e: a seed, or the end of
// redirects from one.
func seeded(e frontier.Entry) bool { return strings.Trim(e.Hops, "R") == "" }
