package crawl

import (
	"context"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// pauseState is a Crawler's pause switch: the crawl is paused while any
// source holds it (the operator, the free-space watch), each with its own
// reason, so that one source's resume does not undo another's pause.
type pauseState struct {
	on      atomic.Bool // fast path for the workers
	mu      sync.Mutex
	reasons map[string]string // source -> reason
	resumed chan struct{}     // closed when the last source lets go; nil when not paused
	since   time.Time         // when the pause in force began
	total   time.Duration     // the pauses over, added up
}

// pauseState returns the Crawler's pause switch. (It was kept in a
// package-level map keyed by the Crawler, which held every Crawler a
// process made, with its frontier and caches, until the process ended:
// the simulator, which makes one per run, grew by each run's whole state,
// TestCrawlerFreed.)
func (c *Crawler) pauseState() *pauseState { return &c.pause }

// PauseOperator is the source of Pause and Resume: the operator's own
// pause.
const PauseOperator = "operator"

// Pause makes the workers stop taking new URLs: each finishes the URL it
// holds, then waits until Resume (or until Run is told to stop). It is the
// operator's pause, PauseFor(PauseOperator, reason). Safe to call from any
// goroutine, before or during Run.
func (c *Crawler) Pause(reason string) { c.PauseFor(PauseOperator, reason) }

// Resume lifts the operator's pause, ResumeFor(PauseOperator). The crawl
// goes on unless another source still holds it paused.
func (c *Crawler) Resume() { c.ResumeFor(PauseOperator) }

// PauseFor pauses the crawl on behalf of source, with reason for Paused; a
// second PauseFor of one source replaces its reason. Pausing is for
// conditions outside the crawl that will pass, such as a disk running out
// of space (source "disk") or an operator's hold.
func (c *Crawler) PauseFor(source, reason string) {
	p := c.pauseState()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reasons == nil {
		p.reasons = map[string]string{}
	}
	p.reasons[source] = reason
	if p.resumed == nil {
		p.resumed = make(chan struct{})
		p.since = time.Now()
	}
	p.on.Store(true)
}

// ResumeFor lets go of source's pause. The workers take URLs again once
// no source holds the crawl paused. It does nothing when source does not.
func (c *Crawler) ResumeFor(source string) {
	p := c.pauseState()
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.reasons[source]; !ok {
		return
	}
	delete(p.reasons, source)
	if len(p.reasons) > 0 {
		return
	}
	close(p.resumed)
	p.resumed = nil
	p.total += time.Since(p.since)
	p.on.Store(false)
}

// pausedFor is how long the crawl has been paused since the Crawler was
// made, the pause in force included.
func (c *Crawler) pausedFor() time.Duration {
	p := c.pauseState()
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.total
	if p.resumed != nil {
		d += time.Since(p.since)
	}
	return d
}

// Paused reports whether the crawl is paused, and why: the reasons of
// every source that holds it, in the order of their sources' names,
// joined by "; ".
func (c *Crawler) Paused() (reason string, paused bool) {
	p := c.pauseState()
	p.mu.Lock()
	defer p.mu.Unlock()
	sources := make([]string, 0, len(p.reasons))
	for s := range p.reasons {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	why := make([]string, len(sources))
	for i, s := range sources {
		why[i] = p.reasons[s]
	}
	return strings.Join(why, "; "), p.resumed != nil
}

// waitUnpaused returns at once when the crawl is not paused; otherwise it
// waits for Resume, or returns ctx's error when ctx is done first.
func (c *Crawler) waitUnpaused(ctx context.Context) error {
	p := c.pauseState()
	for p.on.Load() {
		p.mu.Lock()
		ch := p.resumed
		p.mu.Unlock()
		if ch == nil {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
	return ctx.Err()
}
