package crawl

import (
	"net"
	"sync"

	"github.com/langcrawl/langcrawl/scope"
)

// domainSlots bounds the fetches under way to the hosts of one registered
// domain (Config.DomainConnections). Politeness is per site, a host and
// port, so one server that answers many host names (a subdomain trap:
// every page links to fresh random.example.org names; a site's www, m and
// cdn names) would otherwise get as many connections at once as the crawl
// has workers. A lease holds its domain's slot from the moment it is
// handed out (robots.txt fetch included) until the URL is done. Keyed by
// registered domain, so per-site state stays keyed by site and domain.
// Safe for concurrent use.
type domainSlots struct {
	max  int // 0: no limit
	mu   sync.Mutex
	busy map[string]int // registered domain -> leases under way
}

// siteDomain is the registered domain of a site key ("www.example.org:8080"
// -> "example.org"); an IP address is its own.
func siteDomain(site string) string {
	host := site
	if h, _, err := net.SplitHostPort(site); err == nil {
		host = h
	}
	return scope.RegisteredDomain(host)
}

// tryTake counts a lease of site as under way and reports true, unless
// its registered domain has max under way already. Check and count are
// one step, under the lock, so that workers searching at once cannot all
// pass the check (they did, to six at once under a bound of two, when the
// count came after the search).
func (d *domainSlots) tryTake(site string) bool {
	if d.max <= 0 {
		return true
	}
	k := siteDomain(site)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.busy[k] >= d.max {
		return false
	}
	if d.busy == nil {
		d.busy = map[string]int{}
	}
	d.busy[k]++
	return true
}

// release ends a lease of site taken with tryTake.
func (d *domainSlots) release(site string) {
	if d.max <= 0 {
		return
	}
	k := siteDomain(site)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.busy[k] <= 1 {
		delete(d.busy, k) // no entry for an idle domain: the map holds only those under way
		return
	}
	d.busy[k]--
}
