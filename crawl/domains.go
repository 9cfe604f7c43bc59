package crawl

import (
	"errors"
	"net"
	"sync"
	"time"

	"github.com/langcrawl/langcrawl/scope"
)

// serverSlots bounds the fetches under way to the hosts of one registered
// domain (Config.DomainConnections) and to the sites served from one
// address (Config.AddressConnections). Politeness is per site, a host and
// port, so one server that answers many host names would otherwise get as
// many connections at once as the crawl has workers:
//   - a subdomain trap (every page links to fresh random.example.org
//     names) and a site's www, m and cdn names share a registered domain;
//   - a shared-hosting server answers hundreds of unrelated domains from
//     one address.
//
// A lease holds its slots from the moment it is handed out (robots.txt
// fetch included) until the URL is done. A site's address is learnt from
// its connections (learn); before its first, it is looked up
// (Crawler.placeAddress) where the crawl can, and without a lookup the
// first lease of a site is bound by its domain alone. Counts are keyed by registered
// domain and by address, the address book by site; in a crawl spread over
// nodes by site, each node bounds its own fetches. Safe for concurrent use.
type serverSlots struct {
	domainMax int // 0: no limit
	addrMax   int // 0: no limit
	// book keeps the address book (addrOf) even with no addrMax: the
	// sites-per-address guard reads it (guards.go).
	book    bool
	mu      sync.Mutex
	domains map[string]int    // registered domain -> leases under way
	addrs   map[string]int    // address -> leases under way
	addrOf  map[string]string // site -> its last connection's address
	// unresolved holds the sites whose address lookup failed, until
	// their next lookup is due (Crawler.placeAddress).
	unresolved map[string]time.Time
	// lowered holds the addresses whose bound a busy answer has lowered
	// below addrMax (answered); an address not in it has addrMax.
	lowered map[string]*lowBound
	// busySites holds the sites whose last answer was busy: a run of
	// busy answers from one site counts once against its address.
	busySites map[string]bool
	// warned holds, per address, the most sites the guard warned of.
	warned map[string]int64
	// parked holds the sites refused for a full domain ("d " key) or
	// address ("a " key) since one of its fetches last ended: put aside
	// for domainWait, they are woken when a fetch there ends (done), so
	// that the freed slot goes by the frontier's order, not to a site
	// found meanwhile, which is ready at once (a trial: friends of the
	// seeds, put aside again and again, lost every freed slot to a farm's
	// fresh sites, whose address was not known yet).
	parked map[string]map[string]struct{}
	now    func() time.Time // the crawl's clock (Config.Now); nil: time.Now
	// heldDomain and heldAddr count the leases refused for a full domain
	// or address, for the operator to see which bound holds the crawl
	// back (langcrawl_held_back_total).
	heldDomain, heldAddr int64
}

// held is what one lease holds: the keys its slots were counted under, ""
// for a bound that did not apply. Released with the same keys it was
// taken with, whatever the site's address has become meanwhile.
type held struct{ domain, addr string }

// lowBound is the bound of an address after busy answers: max, the
// answers that were not busy since it last changed, and the time of the
// last busy answer.
type lowBound struct {
	max, fine int
	busy      time.Time
}

// lowQuiet is how long after its last busy answer an address's bound is
// back at AddressConnections, whatever answers came meanwhile: an address
// whose sites moved away, were given up on or are done has no answers to
// raise it again, and would otherwise be slowed for good, and counted so.
const lowQuiet = time.Minute

// maxAddressBook bounds serverSlots.addrOf: a site forgotten when the book
// is full is bound by its domain alone until its next connection. About
// 100 bytes a site, 6.5 MB in all.
const maxAddressBook = 1 << 16

// putBounded sets m[k] = v, making m if it is nil; a full m (maxAddressBook
// keys) forgets any one key first, in map order. It returns m.
func putBounded[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	if _, ok := m[k]; !ok && len(m) >= maxAddressBook {
		for old := range m {
			delete(m, old)
			break
		}
	}
	m[k] = v
	return m
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

// tryTake counts a lease of site as under way and reports true, unless its
// registered domain, or the address it was last reached at, has its bound
// under way already. Check and count are one step, under the lock, so that
// workers searching at once cannot all pass the check (they did, to six at
// once under a bound of two, when the count came after the search).
func (s *serverSlots) tryTake(site string) (held, bool) {
	if s.domainMax <= 0 && s.addrMax <= 0 {
		return held{}, true
	}
	var h held
	if s.domainMax > 0 {
		h.domain = siteDomain(site)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.addrMax > 0 {
		h.addr = s.addrOf[site]
	}
	if h.domain != "" && s.domains[h.domain] >= s.domainMax {
		s.heldDomain++
		s.park("d "+h.domain, site)
		return held{}, false
	}
	if h.addr != "" && s.addrs[h.addr] >= s.bound(h.addr) {
		s.heldAddr++
		s.park("a "+h.addr, site)
		return held{}, false
	}
	if h.domain != "" {
		if s.domains == nil {
			s.domains = map[string]int{}
		}
		s.domains[h.domain]++
	}
	if h.addr != "" {
		if s.addrs == nil {
			s.addrs = map[string]int{}
		}
		s.addrs[h.addr]++
	}
	return h, true
}

// addAddress counts the lease h under addr too, a lease taken while its
// site's address was unknown, and reports true, unless addr has its bound
// under way already.
func (s *serverSlots) addAddress(h *held, site, addr string) bool {
	if s.addrMax <= 0 || h.addr != "" {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.addrs[addr] >= s.bound(addr) {
		s.heldAddr++
		s.park("a "+addr, site)
		return false
	}
	if s.addrs == nil {
		s.addrs = map[string]int{}
	}
	s.addrs[addr]++
	h.addr = addr
	return true
}

// bound is the most leases under way to addr now: addrMax, or less after
// busy answers. s.mu is held.
func (s *serverSlots) bound(addr string) int {
	if l := s.lowered[addr]; l != nil {
		if s.clock().Sub(l.busy) < lowQuiet {
			return l.max
		}
		delete(s.lowered, addr)
	}
	return s.addrMax
}

func (s *serverSlots) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// answered tells the bounds how site, at the address it was last reached
// at, answered a fetch: busy (429 Too Many Requests, 503 Service
// Unavailable) or not. The gate slows the site itself after a busy
// answer (politeness.Gate.Busy); this slows the address's other sites,
// which a shared-hosting server answers from the same machine, and which
// the per-site delay does not slow. As TCP's congestion control does
// (additive increase, multiplicative decrease; RFC 5681), a busy answer,
// the first of a run from one site, halves the address's bound, to one
// fetch at least, and each run of as
// many answers that are not busy as the bound allows raises it by one,
// back to AddressConnections, or at once after lowQuiet without a busy
// answer. A 503 from one site in maintenance so lowers its neighbours'
// bound too, for a few answers; the cost is bounded, where a server that
// is really overloaded gets the relief at once.
func (s *serverSlots) answered(site string, busy bool) {
	if s.addrMax <= 1 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	addr := s.addrOf[site]
	if addr == "" {
		return
	}
	if busy {
		// Once per run of busy answers from one site: on an address many
		// sites share (a CDN's), one site's rate limit met again at each
		// retry would otherwise hold all of them low (a review's
		// simulation: a tenth of answers busy kept the bound near 3 of 4).
		if s.busySites[site] {
			return
		}
		s.busySites = putBounded(s.busySites, site, true)
	} else {
		delete(s.busySites, site)
	}
	l := s.lowered[addr]
	switch {
	case busy && l == nil:
		s.lowered = putBounded(s.lowered, addr, &lowBound{max: max(1, s.addrMax/2), busy: s.clock()})
	case busy:
		l.max, l.fine, l.busy = max(1, l.max/2), 0, s.clock()
	case l != nil:
		if l.fine++; l.fine >= l.max {
			l.max, l.fine = l.max+1, 0
			if l.max >= s.addrMax {
				delete(s.lowered, addr)
			}
		}
	}
}

// slowed returns how many addresses have their bound lowered now; those
// quiet for lowQuiet are let go.
func (s *serverSlots) slowed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for addr := range s.lowered {
		s.bound(addr)
	}
	return len(s.lowered)
}

// release ends a lease taken with tryTake.
func (s *serverSlots) release(h held) {
	if h == (held{}) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	down(s.domains, h.domain)
	down(s.addrs, h.addr)
}

// park records site as refused for key. s.mu is held.
func (s *serverSlots) park(key, site string) {
	if s.parked == nil {
		s.parked = map[string]map[string]struct{}{}
	}
	m := s.parked[key]
	if m == nil {
		if len(s.parked) >= maxAddressBook {
			// Bounded, as the address book is. Keys whose fetches all
			// ended before their parked sites came back are never
			// cleared by done; start again rather than park no more
			// (a review). The sites forgotten wait out domainWait.
			clear(s.parked)
		}
		m = map[string]struct{}{}
		s.parked[key] = m
	}
	m[site] = struct{}{}
}

// done ends a lease that was fetched (release), and returns the sites
// parked for its domain and its address, now to be woken: a slot of
// theirs is free.
func (s *serverSlots) done(h held) []string {
	if h == (held{}) {
		return nil
	}
	s.release(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	var wake []string
	for _, k := range []string{"d " + h.domain, "a " + h.addr} {
		for site := range s.parked[k] {
			wake = append(wake, site)
		}
		delete(s.parked, k)
	}
	return wake
}

// down takes one from m[k]; an idle key leaves the map, which holds only
// those under way.
func down(m map[string]int, k string) {
	if k == "" {
		return
	}
	if m[k] <= 1 {
		delete(m, k)
		return
	}
	m[k]--
}

// learn records the address site was just reached at (the fetch's remote
// IP, the connect_to target for a mapped host). Leases taken from now on
// count against it; one under way keeps the key it was taken with.
func (s *serverSlots) learn(site, addr string) {
	if !s.keepsBook() || addr == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.addrOf[site] == addr {
		return
	}
	s.addrOf = putBounded(s.addrOf, site, addr)
	delete(s.unresolved, site)
}

// errAddressFull is what moveTo answers when the address a fetch's new
// connection reached has its bound under way: the fetch is given up
// before its request goes out, and its lease handed back.
var errAddressFull = errors.New("crawl: the address the site now answers from has its fetches under way")

// moveTo counts the lease h of site, whose fetch has just connected to
// ip, under ip, the address its request will go to, rather than the one
// it was taken under (the site's last known address, or none when its
// lookup failed). It reports errAddressFull, and counts nothing, when ip
// has its bound under way already; the site's next leases count against
// ip either way. Before, a site that had moved (or a hostile DNS that
// switched its names to one victim) was counted under its old address
// until its connection told the move, and thirty such sites put three
// fetches at once on an address bound to two (an address and DNS review).
func (s *serverSlots) moveTo(h *held, site, ip string) error {
	if !s.keepsBook() || ip == "" || h.addr == ip {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addrOf = putBounded(s.addrOf, site, ip)
	delete(s.unresolved, site)
	if s.addrMax <= 0 {
		return nil
	}
	if s.addrs[ip] >= s.bound(ip) {
		s.heldAddr++
		s.park("a "+ip, site)
		return errAddressFull
	}
	down(s.addrs, h.addr)
	if s.addrs == nil {
		s.addrs = map[string]int{}
	}
	s.addrs[ip]++
	h.addr = ip
	return nil
}

// keepsBook reports whether the slots keep each site's address.
func (s *serverSlots) keepsBook() bool { return s.addrMax > 0 || s.book }

// addressOf returns the address site was last reached at, or looked up
// at before its first connection; "" if unknown.
func (s *serverSlots) addressOf(site string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addrOf[site]
}

// warnDue reports whether an address with sites sites has passed a
// warning level (addressWarnAt, then each tenfold) not yet warned of in
// this run, and records it as warned.
func (s *serverSlots) warnDue(addr string, sites int64) bool {
	if sites < addressWarnAt {
		return false
	}
	level := int64(addressWarnAt)
	for level <= sites/10 {
		level *= 10
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.warned[addr] >= level {
		return false
	}
	s.warned = putBounded(s.warned, addr, level)
	return true
}

// lookupDue reports whether site's address may be looked up at now: not
// while a failed lookup's wait runs (lookupFailed).
func (s *serverSlots) lookupDue(site string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	until, ok := s.unresolved[site]
	if ok && !now.Before(until) {
		delete(s.unresolved, site)
	}
	return !ok || !now.Before(until)
}

// lookupFailed puts off site's next lookup until until.
func (s *serverSlots) lookupFailed(site string, until time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unresolved = putBounded(s.unresolved, site, until)
}

// heldBack returns the leases refused so far for a full domain and for a
// full address.
func (s *serverSlots) heldBack() (domain, addr int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.heldDomain, s.heldAddr
}

// underWay reports whether any lease holds a slot (for tests).
func (s *serverSlots) underWay() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.domains)+len(s.addrs) > 0
}
