package politeness

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/langcrawl/langcrawl/internal/hostmatch"
)

// Steered is a Gate whose per-host delays an operator may change while
// the crawl runs (SetHostDelay), as a Heritrix operator edits a sheet. A
// delay set here replaces w for the hosts it names, as Config.Hosts does:
// the adaptive delay is off for them, and a longer robots.txt Crawl-delay
// and the slow-down after 429 or 503 answers still apply.
//
// It wraps the Gate rather than changing its Config because Check reads
// Config.Hosts without a lock: a Config changed while the crawl runs
// would race. A Steered with no delay set behaves as its Gate. Use
// Steered's Acquire and Delay in place of the Gate's; the other methods
// are the Gate's own.
//
// Safe for concurrent use.
type Steered struct {
	*Gate

	mu     sync.Mutex
	delays map[string]time.Duration // keyed as Config.Hosts
	// lastEnd is when the previous fetch of each host under a steered
	// delay ended. The Gate is told an early end time for those hosts, so
	// that its own wait is over and this one decides; entries go when the
	// host's delay is cleared, or once it has passed (sweepLocked).
	lastEnd map[string]time.Time
	sweepAt int // sweep lastEnd when it grows past this many hosts
}

// minSteeredSweep is the fewest hosts lastEnd holds before it is swept.
const minSteeredSweep = 1024

// sweepLocked drops from lastEnd the hosts whose delay has passed, which
// an absent entry means as well: a delay set on ".fr" covers every .fr
// host the crawl meets, and a weeks-long crawl meets a great many. The
// delay a host may wait is at most the largest of its steered delay, the
// Gate's MaxDelay (a busy server's slow-down) and MaxCrawlDelay. The next
// sweep comes when lastEnd has doubled, so the work stays in proportion
// to the fetches. (A delay raised after a host was swept counts from the
// host's next fetch: that one fetch does not wait the raised delay after
// its previous one, which ended longer ago than the old delay.) Called
// with s.mu held.
func (s *Steered) sweepLocked(now time.Time) {
	cfg := s.Gate.cfg
	for host, end := range s.lastEnd {
		w, ok := hostmatch.Lookup(s.delays, host)
		if !ok || now.Sub(end) > max(w, cfg.MaxDelay, cfg.MaxCrawlDelay) {
			delete(s.lastEnd, host)
		}
	}
	s.sweepAt = max(2*len(s.lastEnd), minSteeredSweep)
}

// NewSteered returns g with no delay changed.
func NewSteered(g *Gate) *Steered {
	return &Steered{Gate: g, delays: map[string]time.Duration{}, lastEnd: map[string]time.Time{}, sweepAt: minSteeredSweep}
}

// longAgo is the end time the Gate is given for a fetch of a steered
// host: its own wait is then over at once.
var longAgo = time.Unix(1, 0)

// SetHostDelay sets the delay w of host: "example.org" for that host,
// ".example.org" for it and every host under it, the most specific key
// winning, as in Config.Hosts. The next fetch of a host it covers waits
// the new delay after the end of the previous one. A negative delay is an
// error.
func (s *Steered) SetHostDelay(host string, d time.Duration) error {
	key, err := hostKey(host)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("politeness: delay %v for %s: negative", d, host)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delays[key] = d
	return nil
}

// ClearHostDelay forgets the delay SetHostDelay set for host (the same
// key), so that the Gate's configuration applies again.
func (s *Steered) ClearHostDelay(host string) error {
	key, err := hostKey(host)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.delays[key]; !ok {
		return fmt.Errorf("politeness: no delay is set for %s (%s), so there is none to clear", host, key)
	}
	delete(s.delays, key)
	for h := range s.lastEnd {
		if _, ok := hostmatch.Lookup(s.delays, h); !ok {
			delete(s.lastEnd, h)
		}
	}
	return nil
}

// HostDelays returns a copy of the delays set, by key.
func (s *Steered) HostDelays() map[string]time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.delays)
}

func hostKey(host string) (string, error) {
	key, err := hostmatch.Key(host)
	if err != nil {
		return "", fmt.Errorf("politeness: bad host: %w", err)
	}
	return key, nil
}

// steered returns the delay set for host and whether one is.
func (s *Steered) steered(host string) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return hostmatch.Lookup(s.delays, host)
}

// Delay is Gate.Delay, with the delay set for host in place of w.
func (s *Steered) Delay(host string) time.Duration {
	w, ok := s.steered(host)
	if !ok {
		return s.Gate.Delay(host)
	}
	return s.withRobots(strings.ToLower(host), w)
}

// withRobots applies to w what Gate.delayLocked applies after w: the
// slow-down of a busy server and the capped Crawl-delay.
func (s *Steered) withRobots(key string, w time.Duration) time.Duration {
	g := s.Gate
	g.mu.Lock()
	defer g.mu.Unlock()
	cd := g.crawlDelayLocked(key)
	if k, ok := g.busy.get(key); ok && k > 0 {
		w = min(max(w, time.Second)<<k, max(g.cfg.MaxDelay, w))
	}
	return max(w, min(cd, g.cfg.MaxCrawlDelay))
}

// Ready is Gate.Ready, with the delay set for host when one is.
func (s *Steered) Ready(host string) time.Time {
	t := s.Gate.Ready(host)
	key := strings.ToLower(host)
	w, ok := s.steered(key)
	if !ok {
		return t
	}
	s.mu.Lock()
	last := s.lastEnd[key]
	s.mu.Unlock()
	if last.IsZero() {
		return t
	}
	if r := last.Add(s.withRobots(key, w)); r.After(t) {
		t = r
	}
	return t
}

// Hold is Gate.Hold, for the delay set for host too.
func (s *Steered) Hold(host string, end time.Time) {
	key := strings.ToLower(host)
	s.mu.Lock()
	if _, ok := hostmatch.Lookup(s.delays, key); ok && end.After(s.lastEnd[key]) {
		s.lastEnd[key] = end
	}
	s.mu.Unlock()
	s.Gate.Hold(host, end)
}

// Acquire is Gate.Acquire, waiting the delay set for host when one is.
func (s *Steered) Acquire(ctx context.Context, host string) (func(end time.Time), error) {
	release, err := s.Gate.Acquire(ctx, host)
	if err != nil {
		return nil, err
	}
	key := strings.ToLower(host)
	for {
		w, ok := s.steered(key)
		if !ok {
			return release, nil
		}
		s.mu.Lock()
		last := s.lastEnd[key]
		s.mu.Unlock()
		wait := time.Until(last.Add(s.withRobots(key, w)))
		if last.IsZero() || wait <= 0 {
			break
		}
		// The delay is read again after the wait: it may have changed.
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			release(time.Time{})
			return nil, fmt.Errorf("politeness: acquire %s: %w", host, context.Cause(ctx))
		}
	}
	var once sync.Once
	return func(end time.Time) {
		once.Do(func() {
			if end.IsZero() {
				end = time.Now()
			}
			s.mu.Lock()
			_, ok := hostmatch.Lookup(s.delays, key)
			if ok {
				s.lastEnd[key] = end
				if len(s.lastEnd) > s.sweepAt {
					s.sweepLocked(time.Now())
				}
			}
			s.mu.Unlock()
			if ok {
				end = longAgo
			}
			release(end)
		})
	}, nil
}
