package politeness

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/langcrawl/langcrawl/internal/hostmatch"
)

// minSweep is the number of sites below which Acquire never sweeps idle
// site state.
const minSweep = 1024

// site is the Acquire state of one host.
type site struct {
	token   chan struct{} // holds one value while a fetch is in progress
	lastEnd time.Time     // end of the previous fetch; guarded by Gate.mu
	lastDur time.Duration // how long the previous fetch took; guarded by Gate.mu
	refs    int           // Acquire calls holding or waiting; guarded by Gate.mu
}

// noteDelay records the capped Crawl-delay cd of host; 0 forgets it.
// siteKey is the key the crawl's sites go by (scope.SiteKey, which the
// crawler hands Delay and Acquire) for a canonical URL's host and port:
// lower-case, without the trailing dot of a fully qualified name, so that
// the Crawl-delay of "example.org." holds for its site, "example.org".
func siteKey(hostport string) string {
	h := strings.ToLower(hostport)
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		return strings.TrimSuffix(h[:i], ".") + h[i:]
	}
	return strings.TrimSuffix(h, ".")
}

func (g *Gate) noteDelay(host, scheme string, cd time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := delayKey(host, scheme)
	if cd > 0 {
		if old, ok := g.delays.get(k); !ok || old != cd {
			g.delays.put(k, cd)
		}
	} else {
		g.delays.remove(k)
	}
}

// delayKey is the key of a Crawl-delay: http://host/robots.txt and
// https://host/robots.txt are two files, and a site (one host, one delay
// queue) may answer both; each keeps its own, and the site waits the
// larger. Keyed by host alone, the latest Check's file won, so a site
// whose http robots.txt asks 10 s and whose https one says nothing was
// asked every w whenever the crawl had last checked an https URL.
func delayKey(host, scheme string) string { return host + " " + strings.ToLower(scheme) }

// crawlDelayLocked is the larger capped Crawl-delay of the robots.txt
// files of host (its http and https ones), with g.mu held.
func (g *Gate) crawlDelayLocked(host string) time.Duration {
	a, _ := g.delays.get(delayKey(host, "http"))
	b, _ := g.delays.get(delayKey(host, "https"))
	return max(a, b)
}

// Delay returns the effective delay for host after a fetch: max(w,
// min(Crawl-delay, MaxCrawlDelay)), where w is Config.Delay and Crawl-delay
// is the one the latest Check of a URL on host found (0 if none, if robots
// are ignored, or if the host was evicted from the table). host is
// url.URL.Host, compared case-insensitively; the caller is expected to pass
// canonical URLs, so that "example.com" and "example.com:80" do not occur
// side by side.
func (g *Gate) Delay(host string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.delayLocked(strings.ToLower(host))
}

// delayLocked is Delay for a lower-cased host, with g.mu held: the host's
// own fixed delay if the Config names one for it, else the adaptive delay
// if DelayFactor is set, else w; and never less than the capped
// Crawl-delay.
func (g *Gate) delayLocked(key string) time.Duration {
	cd := g.crawlDelayLocked(key)
	w := g.cfg.Delay
	r, ok := hostmatch.Lookup(g.cfg.Hosts, key)
	switch {
	case ok && r.Delay != nil:
		w = *r.Delay
	case g.cfg.DelayFactor > 0:
		var last time.Duration
		if s := g.sites[key]; s != nil {
			last = s.lastDur
		}
		w = min(max(time.Duration(g.cfg.DelayFactor*float64(last)), g.cfg.MinDelay), g.cfg.MaxDelay)
	}
	if k, ok := g.busy.get(key); ok && k > 0 {
		// The server said it is busy (429, 503): double the delay for
		// each such answer in a row, from at least a second, up to
		// MaxDelay.
		w = min(max(w, time.Second)<<k, max(g.cfg.MaxDelay, w))
	}
	return max(w, min(cd, g.cfg.MaxCrawlDelay))
}

// maxBusy bounds the doublings of a busy server's delay.
const maxBusy = 6

// Busy tells the gate how host answered its last request: busy (429 Too
// Many Requests, 503 Service Unavailable) doubles its delay, up to
// Config.MaxDelay, for each such answer in a row; any other answer halves
// the extra delay again. The server's Retry-After is the caller's to
// honour; this slows the site down after it.
func (g *Gate) Busy(host string, busy bool) {
	key := strings.ToLower(host)
	g.mu.Lock()
	defer g.mu.Unlock()
	k, _ := g.busy.get(key)
	switch {
	case busy:
		g.busy.put(key, min(k+1, maxBusy))
	case k > 1:
		g.busy.put(key, k-1)
	case k == 1:
		g.busy.remove(key)
	}
}

// Ready returns when host may next be fetched: Delay(host) after the end of
// its previous fetch (its robots.txt's included), or the zero time if none
// is on record. A fetch in progress is not considered: the crawl runs one
// per site.
func (g *Gate) Ready(host string) time.Time {
	key := strings.ToLower(host)
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sites[key]
	if s == nil || s.lastEnd.IsZero() {
		return time.Time{}
	}
	return s.lastEnd.Add(g.delayLocked(key))
}

// Acquire blocks until host has no fetch in progress and Delay(host) has
// passed since the end of the previous fetch to it (Castillo et al. 2004:
// one connection per site, w seconds between accesses). It returns a
// release function that the caller must call exactly once when the fetch is
// over, with the time the fetch ended (the zero time means time.Now()).
// Calls after the first are ignored.
//
// Acquire uses the wall clock (time.Now and timers), which testing/synctest
// replaces in tests. If ctx ends first, Acquire returns its cause and holds
// nothing. Waiters are not served in any guaranteed order.
func (g *Gate) Acquire(ctx context.Context, host string) (release func(end time.Time), err error) {
	key := strings.ToLower(host)
	s := g.site(key)
	waited := false

	select {
	case s.token <- struct{}{}:
	default:
		waited = true
		select {
		case s.token <- struct{}{}:
		case <-ctx.Done():
			g.unref(s)
			return nil, fmt.Errorf("politeness: acquire %s: %w", host, context.Cause(ctx))
		}
	}
	// We hold the site. Wait out the delay since the previous fetch; the
	// delay is read now, so a Crawl-delay learned meanwhile applies.
	for {
		g.mu.Lock()
		last := s.lastEnd
		next := last.Add(g.delayLocked(key))
		g.mu.Unlock()
		wait := time.Until(next)
		if last.IsZero() || wait <= 0 {
			break
		}
		waited = true
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			<-s.token
			g.unref(s)
			return nil, fmt.Errorf("politeness: acquire %s: %w", host, context.Cause(ctx))
		}
	}
	if waited {
		g.waits.Add(1)
	}
	start := time.Now()
	var once sync.Once
	return func(end time.Time) {
		once.Do(func() {
			if end.IsZero() {
				end = time.Now()
			}
			g.mu.Lock()
			s.lastEnd = end
			s.lastDur = max(end.Sub(start), 0)
			g.mu.Unlock()
			<-s.token
			g.unref(s)
		})
	}, nil
}

// Hold records that a fetch of host may have ended as late as end, a
// fetch nobody released: one in flight when the previous run was killed.
// The next Acquire of host waits Delay(host) after end, as after a fetch
// of its own; an end before the one on record changes nothing.
func (g *Gate) Hold(host string, end time.Time) {
	key := strings.ToLower(host)
	s := g.site(key)
	g.mu.Lock()
	if end.After(s.lastEnd) {
		s.lastEnd = end
	}
	g.mu.Unlock()
	g.unref(s)
}

// site returns the Acquire state of host key, creating it if needed, and
// counts the caller as a user of it until unref.
func (g *Gate) site(key string) *site {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sites[key]
	if s == nil {
		if len(g.sites) >= g.sweepAt {
			g.sweepLocked(time.Now())
		}
		s = &site{token: make(chan struct{}, 1)}
		g.sites[key] = s
	}
	s.refs++
	return s
}

func (g *Gate) unref(s *site) {
	g.mu.Lock()
	s.refs--
	g.mu.Unlock()
}

// sweepLocked forgets the sites that nobody holds or waits for and whose
// delay has passed at now: Acquire would not wait for them anyway. This
// keeps the site table bounded by the sites active within one delay. It
// runs when the table has doubled since the last sweep, so its cost is
// amortised over the Acquire calls that grew it.
func (g *Gate) sweepLocked(now time.Time) {
	for k, s := range g.sites {
		if s.refs == 0 && !now.Before(s.lastEnd.Add(g.delayLocked(k))) {
			delete(g.sites, k)
		}
	}
	g.sweepAt = max(minSweep, 2*len(g.sites))
}
