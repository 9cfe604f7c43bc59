package bandwidth

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// ErrInvalidConfig is wrapped by New for every bad Config field.
var ErrInvalidConfig = errors.New("bandwidth: invalid config")

// Defaults of a Config.
const (
	// DefaultSearchDepth is maxd, the number of queue entries searched for
	// one that fits: 6, the paper's first experiment.
	DefaultSearchDepth = 6
	// DefaultRate is B for a server never measured, in bytes per second.
	DefaultRate = 50_000
	// DefaultK and DefaultSigma are the paper's k = 0.3 and σ = 120
	// (minutes) of the Gaussian weight φ(y) = k e^(−y²/σ²).
	DefaultK     = 0.3
	DefaultSigma = 120 * time.Minute
	// DefaultStarveAfter is how long a candidate may be refused before the
	// manager holds other downloads back for it.
	DefaultStarveAfter = 2 * time.Second
)

// Config configures a Manager. Zero fields take the defaults above.
type Config struct {
	// Limit is L, the bandwidth the crawler may use, in bytes per second.
	// It must be positive.
	Limit float64
	// SearchDepth is maxd. Default DefaultSearchDepth.
	SearchDepth int
	// DefaultRate is the estimate of a server never measured, for all its
	// 48 hours. Default DefaultRate.
	DefaultRate float64
	// K and Sigma are the paper's k and σ. Defaults DefaultK, DefaultSigma.
	K     float64
	Sigma time.Duration
	// StarveAfter is how long the candidate refused first may keep being
	// refused before the manager stops starting other downloads until it
	// fits (see the package doc). Default DefaultStarveAfter.
	StarveAfter time.Duration
	// Store keeps the estimates across runs. Nil keeps them in memory only.
	Store Store
	// Paper selects the paper's estimator exactly: a server's first
	// measurement is weighted by φ like every later one, and the distance
	// from t to an hour does not wrap around midnight. The default (false)
	// lets the first measurement set all 48 estimates and wraps; both were
	// measured against the paper's (see the tests).
	Paper bool
}

func (c *Config) fill() error {
	var errs []error
	if !(c.Limit > 0) {
		errs = append(errs, fmt.Errorf("%w: Limit is %v, must be positive", ErrInvalidConfig, c.Limit))
	}
	switch {
	case c.SearchDepth == 0:
		c.SearchDepth = DefaultSearchDepth
	case c.SearchDepth < 0:
		errs = append(errs, fmt.Errorf("%w: SearchDepth is %d, must not be negative", ErrInvalidConfig, c.SearchDepth))
	}
	switch {
	case c.DefaultRate == 0:
		c.DefaultRate = DefaultRate
	case !(c.DefaultRate > 0):
		errs = append(errs, fmt.Errorf("%w: DefaultRate is %v, must be positive", ErrInvalidConfig, c.DefaultRate))
	}
	switch {
	case c.K == 0:
		c.K = DefaultK
	case !(c.K > 0 && c.K <= 1):
		errs = append(errs, fmt.Errorf("%w: K is %v, must be in (0, 1]", ErrInvalidConfig, c.K))
	}
	switch {
	case c.Sigma == 0:
		c.Sigma = DefaultSigma
	case c.Sigma < 0:
		errs = append(errs, fmt.Errorf("%w: Sigma is %v, must not be negative", ErrInvalidConfig, c.Sigma))
	}
	switch {
	case c.StarveAfter == 0:
		c.StarveAfter = DefaultStarveAfter
	case c.StarveAfter < 0:
		errs = append(errs, fmt.Errorf("%w: StarveAfter is %v, must not be negative", ErrInvalidConfig, c.StarveAfter))
	}
	return errors.Join(errs...)
}

// Manager is the paper's fetcher manager: it admits a download of a URL on
// server s only while CB + B(s) ≤ L, and learns B from the downloads it
// admitted. It is safe for concurrent use. It starts no goroutines.
type Manager struct {
	cfg   Config
	store Store

	mu       sync.Mutex
	rates    map[string]*Rates // estimates of the servers seen, loaded from store
	cb       float64           // CB: the expected rates of the downloads in flight
	inflight int
	// The starvation check: the first server refused, since when, and when
	// it was last asked for. Once refused for StarveAfter it is held for:
	// no other download starts until it fits.
	hold            string
	holdSince, seen time.Time
	changed         chan struct{} // closed and replaced when a download ends
	stats           Stats

	bytes atomic.Int64 // bytes read through Ticket.Reader since the last Sample
	last  time.Time    // time of the last Sample (under mu)
}

// Stats counts the Manager's decisions since New.
type Stats struct {
	Admitted  int64 // downloads started
	Refused   int64 // candidates that did not fit
	Idle      int64 // admitted with nothing in flight although B > L − CB would refuse them
	Held      int64 // candidates refused because another was held for
	Measured  int64 // downloads whose rate updated the estimates
	Cancelled int64 // downloads ended without a measurement
	InFlight  int64
	Predicted float64 // CB now
}

// New returns a Manager for cfg. It copies cfg, fills in defaults and
// validates them, reporting every problem at once.
func New(cfg Config) (*Manager, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	st := cfg.Store
	if st == nil {
		st = NewMemStore()
	}
	return &Manager{cfg: cfg, store: st, rates: make(map[string]*Rates), changed: make(chan struct{})}, nil
}

// SearchDepth returns maxd, for the frontier's NextFit.
func (m *Manager) SearchDepth() int { return m.cfg.SearchDepth }

// Limit returns L in bytes per second.
func (m *Manager) Limit() float64 { return m.cfg.Limit }

// load returns the estimates of server, reading them from the store the
// first time. Called with m.mu held.
func (m *Manager) load(server string) (*Rates, bool, error) {
	if r := m.rates[server]; r != nil {
		return r, true, nil
	}
	v, ok, err := m.store.Get(server)
	if err != nil {
		return nil, false, fmt.Errorf("bandwidth: read estimates of %s: %w", server, err)
	}
	if !ok {
		return nil, false, nil
	}
	r := Rates(v)
	m.rates[server] = &r
	return &r, true, nil
}

// Estimate returns B(server) at now, the expected rate of a download from
// server in bytes per second.
func (m *Manager) Estimate(server string, now time.Time) (float64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.estimate(server, now)
}

func (m *Manager) estimate(server string, now time.Time) (float64, error) {
	r, ok, err := m.load(server)
	if err != nil || !ok {
		return m.cfg.DefaultRate, err
	}
	return r[slot(now)], nil
}

// TryStart admits a download from server at now if it fits, and returns
// its Ticket; it returns nil if the download must wait. A download fits
// when CB + B(server) ≤ L. To keep servers faster than L (or just larger
// than the slots that open) from starving, a download also starts when
// nothing is in flight, and once one server has been refused for
// StarveAfter no other download starts until it fits. A held server that
// is not asked for again within a quarter of StarveAfter (it left the top
// of the queue) is let go.
//
// The caller must end every Ticket with Done or Cancel. A store error
// leaves the server at the default rate and is returned with the decision.
func (m *Manager) TryStart(server string, now time.Time) (*Ticket, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.estimate(server, now)
	if m.hold != "" && now.Sub(m.seen) > m.cfg.StarveAfter/4 {
		// The held server is no longer asked for: it left the top of
		// the queue, or the crawl stopped asking.
		m.hold = ""
	}
	if m.hold != "" && m.hold != server && now.Sub(m.holdSince) >= m.cfg.StarveAfter {
		m.stats.Held++
		return nil, err
	}
	switch {
	case m.cb+b <= m.cfg.Limit:
	case m.inflight == 0:
		m.stats.Idle++
	default:
		m.stats.Refused++
		if m.hold == "" {
			m.hold, m.holdSince = server, now
		}
		if m.hold == server {
			m.seen = now
		}
		return nil, err
	}
	if m.hold == server {
		m.hold = ""
	}
	m.cb += b
	m.inflight++
	m.stats.Admitted++
	return &Ticket{m: m, server: server, rate: b}, err
}

// Predicted returns CB, the expected rate of the downloads in flight.
func (m *Manager) Predicted() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cb
}

// Changed returns a channel that is closed when the next download ends,
// which may make room for another. A fetch loop that found nothing fitting
// waits on it, or on the wait NextFit returned, whichever comes first.
func (m *Manager) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

// Stats returns the counters.
func (m *Manager) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.stats
	st.InFlight = int64(m.inflight)
	st.Predicted = m.cb
	return st
}

// end releases t's reservation and, if rate > 0, applies it to the
// estimates of t's server. Called with m.mu held.
func (m *Manager) end(t *Ticket, now time.Time, rate float64) error {
	m.cb -= t.rate
	m.inflight--
	if m.inflight == 0 || m.cb < 0 {
		m.cb = 0 // no drift from rounding
	}
	close(m.changed)
	m.changed = make(chan struct{})
	if !(rate > 0) {
		m.stats.Cancelled++
		return nil
	}
	m.stats.Measured++
	r, ok, err := m.load(t.server)
	if err != nil {
		return err
	}
	if !ok {
		r = new(Rates)
		fill := m.cfg.DefaultRate
		if !m.cfg.Paper {
			// The first measurement of a server is all we know of it:
			// it replaces the default in every hour instead of moving it
			// by φ ≤ k. The loopback test measures this against the
			// paper's update; it keeps unknown servers from overrunning
			// L for their first several downloads.
			fill = rate
		}
		for i := range r {
			r[i] = fill
		}
		m.rates[t.server] = r
		if !m.cfg.Paper {
			return m.put(t.server, r)
		}
	}
	r.update(now, rate, m.cfg.K, m.cfg.Sigma.Minutes(), !m.cfg.Paper)
	return m.put(t.server, r)
}

func (m *Manager) put(server string, r *Rates) error {
	if err := m.store.Put(server, *r); err != nil {
		return fmt.Errorf("bandwidth: write estimates of %s: %w", server, err)
	}
	return nil
}

// Ticket is an admitted download: a reservation of its expected rate in
// CB. End it with exactly one of Done or Cancel; both are no-ops on a nil
// Ticket or one already ended. A Ticket is used by one goroutine.
type Ticket struct {
	m      *Manager
	server string
	rate   float64
	ended  bool
}

// Server returns the server the download was admitted for.
func (t *Ticket) Server() string { return t.server }

// Rate returns B, the rate reserved for the download.
func (t *Ticket) Rate() float64 { return t.rate }

// Done ends the download: it releases the reservation and updates the
// server's estimates with the measured rate M = bytes / elapsed, where
// elapsed runs from the issue of the request to the end of the body (the
// paper's measure, latency included). now is the end, which chooses the
// hour and the kind of day. A download with no bytes or no elapsed time is
// not measured. The error is the Store's.
func (t *Ticket) Done(now time.Time, bytes int64, elapsed time.Duration) error {
	if t == nil || t.ended {
		return nil
	}
	t.ended = true
	rate := 0.0
	if bytes > 0 && elapsed > 0 {
		rate = float64(bytes) / elapsed.Seconds()
	}
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	return t.m.end(t, now, rate)
}

// Cancel ends the download without a measurement, e.g. when the fetch was
// not made or failed before any byte arrived.
func (t *Ticket) Cancel() {
	if t == nil || t.ended {
		return
	}
	t.ended = true
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	_ = t.m.end(t, time.Time{}, 0) // no measurement, no store write
}

// Reader returns r counting the bytes read into the manager's measured
// rate (Sample). It does not change the estimates; Done does.
func (t *Ticket) Reader(r io.Reader) io.Reader {
	return &countReader{r: r, n: &t.m.bytes}
}

type countReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Sample returns the predicted rate CB at now and the measured rate: the
// bytes read through Ticket.Reader since the previous Sample divided by
// the time since then (0 on the first call). Call it once a second and
// write the result to a Trace.
func (m *Manager) Sample(now time.Time) Sample {
	n := m.bytes.Swap(0)
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Sample{Time: now, Predicted: m.cb, Limit: m.cfg.Limit}
	if !m.last.IsZero() {
		if d := now.Sub(m.last).Seconds(); d > 0 {
			s.Measured = float64(n) / d
		}
	}
	m.last = now
	return s
}
