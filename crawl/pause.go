package crawl

import (
	"context"
	"sync"
	"sync/atomic"
)

// pauseState is a Crawler's pause switch.
type pauseState struct {
	on      atomic.Bool // fast path for the workers
	mu      sync.Mutex
	reason  string
	resumed chan struct{} // closed by Resume; nil when not paused
}

// pauseState returns the Crawler's pause switch. (It was kept in a
// package-level map keyed by the Crawler, which held every Crawler a
// process made, with its frontier and caches, until the process ended:
// the simulator, which makes one per run, grew by each run's whole state,
// TestCrawlerFreed.)
func (c *Crawler) pauseState() *pauseState { return &c.pause }

// Pause makes the workers stop taking new URLs: each finishes the URL it
// holds, then waits until Resume (or until Run is told to stop). The
// reason is for Paused; a second Pause replaces it. Pausing is for
// conditions outside the crawl that will pass, such as a disk running out
// of space. Safe to call from any goroutine, before or during Run.
func (c *Crawler) Pause(reason string) {
	p := c.pauseState()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reason = reason
	if p.resumed == nil {
		p.resumed = make(chan struct{})
	}
	p.on.Store(true)
}

// Resume lets paused workers take URLs again. It does nothing when the
// crawl is not paused.
func (c *Crawler) Resume() {
	p := c.pauseState()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.resumed == nil {
		return
	}
	close(p.resumed)
	p.resumed = nil
	p.reason = ""
	p.on.Store(false)
}

// Paused reports whether the crawl is paused, and why.
func (c *Crawler) Paused() (reason string, paused bool) {
	p := c.pauseState()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reason, p.resumed != nil
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
