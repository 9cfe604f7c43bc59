package bandwidth

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/langcrawl/langcrawl/internal/twogen"
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
	DefaultStarveAfter = 5 * time.Second
	// DefaultPace is the rate of the read-side pacer as a share of L.
	DefaultPace = 0.96
	// DefaultFillAt is the share of L that, free, lets a download that
	// does not fit start in it (Config.FillAt). Assumed, not tuned: half,
	// so that such a download is sure of half the link while the others
	// keep to their estimates, and is not starved into its fetch timeout
	// in slots of a few per cent. Measured against the paper's wait in
	// TestLoopbackFill (BENCHMARKS.md).
	DefaultFillAt = 0.5
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
	// StarveAfter is how long a candidate may keep being refused before
	// the manager stops starting other downloads until the one refused
	// longest fits (see the package doc). Default DefaultStarveAfter.
	StarveAfter time.Duration
	// Store keeps the estimates across runs. Nil keeps them in memory only.
	Store Store
	// Pace is the rate of the read-side pacer (Manager.Pacer) as a share
	// of L, in (0, 1]. Default DefaultPace. A Manager in Paper mode has no
	// pacer.
	Pace float64
	// ReadBuffer, when positive, is the socket receive buffer the
	// crawler's connections use under the pacer (Manager.ReadBuffer),
	// in bytes; 0 gives L/256, between 2 and 64 KiB. A connection
	// carries at most about this much per round trip, so paths with long
	// round trips and large bodies want more; the more it is, the further
	// a one-second window may run over L when many downloads start at once.
	ReadBuffer int
	// FillAt: while the pacer carries the bytes and at least this share of
	// L is free, a download whose estimate is larger than what is free
	// starts anyway, reserving all that is free (TryStart). Default
	// DefaultFillAt; negative turns it off, so that such a download waits
	// until it fits, as in the paper (kept to measure the two in one run).
	FillAt float64
	// Paper selects the paper's manager exactly: a server's first
	// measurement is weighted by φ like every later one, the distance
	// from t to an hour does not wrap around midnight, and none of the
	// package doc's "Beyond the paper" applies (no pacer, no live rates,
	// no calibration, no slots). The default (false) has all of them; each
	// was measured against the paper's (see the tests).
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
	if c.ReadBuffer < 0 {
		errs = append(errs, fmt.Errorf("%w: ReadBuffer is %d, must not be negative", ErrInvalidConfig, c.ReadBuffer))
	}
	switch {
	case c.Pace == 0:
		c.Pace = DefaultPace
	case !(c.Pace > 0 && c.Pace <= 1):
		errs = append(errs, fmt.Errorf("%w: Pace is %v, must be in (0, 1]", ErrInvalidConfig, c.Pace))
	}
	switch {
	case c.FillAt == 0:
		c.FillAt = DefaultFillAt
	case c.FillAt > 1 || math.IsNaN(c.FillAt):
		errs = append(errs, fmt.Errorf("%w: FillAt is %v, must be at most 1 (negative: off)", ErrInvalidConfig, c.FillAt))
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

	mu sync.Mutex
	// rates caches the estimates of the servers seen lately, read from
	// and written through to store; sizes is the mean response size of
	// each server faster than L (not in Paper mode). Both are bounded
	// (cacheHalf), so a crawl over millions of servers holds only the
	// recent ones: the store keeps every estimate, and a forgotten size is
	// learnt again from the server's next fast download.
	rates    *twogen.Map[string, *Rates]
	sizes    *twogen.Map[string, float64]
	cb       float64 // CB: the expected rates of the downloads in flight
	inflight int
	live     map[*Ticket]struct{} // the downloads in flight
	byServer map[string]*Ticket   // the latest download in flight of each server
	// Calibration: the bytes read through Ticket.Reader and the integral
	// of CB over time, both decaying with time constant calTau, whose
	// ratio corrects CB for a bias common to all estimates.
	calBytes, calPred float64
	calRead           int64 // calRead: bytes counted so far
	calAt             time.Time
	readAll           atomic.Int64 // every byte read through Ticket.Reader or the pacer
	// pacer paces every read at Pace·L (nil in Paper mode).
	pacer *Pacer
	// pauseUntil: after a download that ran alone above L, nothing starts
	// until its bytes, spread at L, would have ended (not in Paper mode).
	pauseUntil time.Time
	// phantoms are the slots of the ended downloads of servers faster
	// than L (not in Paper mode).
	phantoms []phantom
	// The starvation check (TryStart): the servers refused since they last
	// started, each with when it was first refused and last asked for,
	// and the order of their first refusals, the oldest first. An entry of
	// order whose server has started since, or was let go, is dropped when
	// it comes to the front.
	refused map[string]*refusal
	order   []refusalAt
	changed chan struct{} // closed and replaced when a download ends
	stats   Stats

	bytes atomic.Int64 // bytes read through Ticket.Reader since the last Sample
	last  time.Time    // time of the last Sample (under mu)
}

// refusal is a server's wait in the starvation check.
type refusal struct{ since, seen time.Time }

// refusalAt is an entry of Manager.order.
type refusalAt struct {
	server string
	since  time.Time
}

// Stats counts the Manager's decisions since New.
type Stats struct {
	Admitted  int64 // downloads started
	Refused   int64 // candidates that did not fit
	Idle      int64 // admitted with nothing in flight although B > L − CB would refuse them
	Filled    int64 // admitted into the free part of L, which was less than their estimate (under the pacer)
	Held      int64 // candidates refused because another was held for
	Measured  int64 // downloads whose rate updated the estimates
	Censored  int64 // downloads held back by the pacer, measured below the estimate: not applied
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
	m := &Manager{cfg: cfg, store: st, rates: twogen.New[string, *Rates](cacheHalf),
		sizes: twogen.New[string, float64](cacheHalf), live: make(map[*Ticket]struct{}), byServer: make(map[string]*Ticket), changed: make(chan struct{}),
		refused: make(map[string]*refusal)}
	if !cfg.Paper {
		m.pacer = NewPacer(cfg.Pace*cfg.Limit, paceBurst(cfg.Limit), paceQuantum(cfg.Limit))
		m.pacer.onRead, m.pacer.onWait = m.pacedRead, m.pacedWait
	}
	return m, nil
}

// paceBurst is the pacer's bucket for a limit of l bytes per second: 20
// ms at l, between 4 KiB and 256 KiB, so that a reader that oversleeps a
// few milliseconds on a loaded machine does not lose its turn; paceQuantum
// is its largest read: 4 ms at l, between 2 KiB and 64 KiB.
func paceBurst(l float64) int {
	return int(min(max(l/50, 4<<10), 256<<10))
}

func paceQuantum(l float64) int {
	return int(min(max(l/250, 2<<10), 64<<10))
}

// pacedRead charges n bytes read from server to the measured rate and to
// the server's download in flight, if there is one (the crawl has at most
// one per server: one lease per site); pacedWait charges a wait on the
// pacer to it.
func (m *Manager) pacedRead(server string, n int) {
	m.bytes.Add(int64(n))
	m.readAll.Add(int64(n))
	if t := m.ticketOf(server); t != nil {
		t.read.Add(int64(n))
	}
}

func (m *Manager) pacedWait(server string, d time.Duration) {
	if t := m.ticketOf(server); t != nil {
		t.waited.Add(int64(d))
	}
}

func (m *Manager) ticketOf(server string) *Ticket {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byServer[server]
}

// Pacer returns the read-side pacer that every download's reads must go
// through for the limit to hold on the wire (nil in Paper mode): the
// crawl passes it to the fetcher (fetch.Config.Pacer), and Ticket.Reader
// uses it. The bytes it paces are the measured rate of Sample.
func (m *Manager) Pacer() *Pacer { return m.pacer }

// ReadBuffer returns the socket receive buffer (SO_RCVBUF) the crawler's
// connections should use under this limit, 0 in Paper mode: L/256, at
// least 2 KiB and at most 64 KiB (Linux doubles it for its bookkeeping).
// A paced reader that does not read only holds its sender back once the
// kernel's buffers are full; the smaller they are, the closer the bytes on
// the wire follow the reads. It also caps a connection at about its size
// per round trip: 2 KiB over 100 ms is about 20-40 kB/s, so a limit is
// reached with several connections, as a crawler has. Config.ReadBuffer,
// when set, replaces it.
func (m *Manager) ReadBuffer() int {
	if m.pacer == nil {
		return 0
	}
	if m.cfg.ReadBuffer > 0 {
		return m.cfg.ReadBuffer
	}
	return int(min(max(m.cfg.Limit/256, 2<<10), 64<<10))
}

// SearchDepth returns maxd, for the frontier's NextFit.
func (m *Manager) SearchDepth() int { return m.cfg.SearchDepth }

// Limit returns L in bytes per second.
func (m *Manager) Limit() float64 { return m.cfg.Limit }

// cacheHalf is the generation size of the Manager's caches (twogen): at
// most 2 × 32,768 servers' estimates in memory, about 30 MB.
const cacheHalf = 1 << 15

// fitsSlot reports whether server, faster than L, has responses that fit
// in the bytes the free rate L − cb carries in one second. Called with
// m.mu held.
func (m *Manager) fitsSlot(server string, cb float64) bool {
	size, ok := m.sizes.Peek(server)
	return ok && size > 0 && size <= m.cfg.Limit-cb
}

// load returns the estimates of server, reading them from the store the
// first time. Called with m.mu held.
func (m *Manager) load(server string) (*Rates, bool, error) {
	if r, ok := m.rates.Get(server); ok {
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
	m.rates.Put(server, &r)
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
// nothing is in flight, and once a server has been refused for
// StarveAfter, the one refused longest is held for: no other download
// starts until it fits. A server that is not asked for again within a
// quarter of StarveAfter (it left the top of the queue) is let go.
//
// The paper leaves the starvation check unsaid; langcrawl first held for
// the first server refused, once that one had been refused for
// StarveAfter. A server refused all along but never the first refused
// after a hold ended was never held for: in a CI run of TestLoopback
// the server faster than L was not served once in 6 s, while every hold
// went to others. TestOldestRefusedHeldFor has the case.
//
// The caller must end every Ticket with Done or Cancel. A store error
// leaves the server at the default rate and is returned with the decision.
func (m *Manager) TryStart(server string, now time.Time) (*Ticket, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.estimate(server, now)
	if now.Before(m.pauseUntil) {
		// Still asked for: a pause after a download faster than L (a
		// few seconds for a large file) must not let the servers that
		// wait go as no longer asked for, their waits forgotten (a
		// review: one refused 2.6 s, asked every 100 ms, was not held
		// for after the pause).
		if r := m.refused[server]; r != nil {
			r.seen = now
		}
		m.stats.Refused++
		return nil, err
	}
	if held := m.starving(now); held != "" && held != server {
		if r := m.refused[server]; r != nil {
			r.seen = now
		}
		m.stats.Held++
		return nil, err
	}
	cb := m.expected(now)
	slot := false
	switch {
	case cb+b <= m.cfg.Limit:
	case b > m.cfg.Limit && !m.cfg.Paper && m.fitsSlot(server, cb):
		// A server faster than L whose responses fit in the free slot's
		// bytes for one second runs in that slot (see Done).
		b = m.cfg.Limit - cb
		slot = true
	case m.inflight == 0 || (m.pacer != nil && cb < m.cfg.Limit*idleShare):
		// Nothing in flight, or only downloads that gave back their
		// share (Ticket.share: a server dripping a byte a second, or
		// silent after its headers): a server faster than L starts,
		// the pacer holding the reads of all under L. Before, such a
		// server waited for the stalled downloads to time out (a
		// re-run of a failure trial: 13 responses in 100 s). The pacer
		// is there (not Paper mode), whether or not it has carried a
		// byte yet: a crawl that opens beside a silent server is the
		// same case (a review).
		m.stats.Idle++
	case m.cfg.FillAt > 0 && m.pacing() && m.cfg.Limit-cb >= m.cfg.Limit*m.cfg.FillAt:
		// It does not fit, the link is not idle (the case above), but
		// at least FillAt of L is free, and the pacer carries the
		// bytes: it starts and reserves all that is free, so that
		// nothing else starts beside it until a download ends or a
		// stalled one gives back its share; the pacer holds the reads of all under L, this one
		// taking what the others leave. The paper's manager leaves the
		// free part idle until the candidate fits, and a server faster
		// than L waited for an idle link: one slow download kept the
		// link at its own rate (a failure trial: 44% of a 200 KB/s
		// limit, a 40 KB/s server's files and a fast server's strictly
		// one after the other), and a server a little slower than L
		// waited StarveAfter and then for the others to drain.
		b = m.cfg.Limit - cb
		m.stats.Filled++
	default:
		m.stats.Refused++
		if r := m.refused[server]; r != nil {
			r.seen = now
		} else {
			m.refused[server] = &refusal{since: now, seen: now}
			m.order = append(m.order, refusalAt{server, now})
		}
		return nil, err
	}
	delete(m.refused, server)
	if !m.cfg.Paper {
		m.calibrate(now) // CB changes: close the integral first
	}
	m.cb += b
	m.inflight++
	m.stats.Admitted++
	t := &Ticket{m: m, server: server, rate: b, start: now, slot: slot}
	if m.pacer != nil {
		t.paced0, t.waited0 = m.pacer.counters()
	}
	m.live[t] = struct{}{}
	m.byServer[server] = t
	return t, err
}

// starving returns the server refused longest, if it has been refused for
// StarveAfter, and "" if none has. Servers no longer asked for, within a
// quarter of StarveAfter, are let go. Called with m.mu held.
func (m *Manager) starving(now time.Time) string {
	for len(m.order) > 0 {
		head := m.order[0]
		r := m.refused[head.server]
		switch {
		case r == nil || !r.since.Equal(head.since):
			// Started since (and perhaps refused again, with a
			// later entry).
		case now.Sub(r.seen) > m.cfg.StarveAfter/4:
			// No longer asked for: it left the top of the queue,
			// or the crawl stopped asking.
			delete(m.refused, head.server)
		case now.Sub(r.since) >= m.cfg.StarveAfter:
			return head.server
		default:
			return ""
		}
		m.order[0] = refusalAt{}
		m.order = m.order[1:]
	}
	return ""
}

// phantom is the slot of a download that ran faster than L: its rate stays
// reserved until its bytes, spread at that rate, would have ended.
type phantom struct {
	rate  float64
	until time.Time
}

// liveAfter is how long a download runs before the rate read through its
// Ticket.Reader may raise its share of CB.
const liveAfter = 50 * time.Millisecond

// idleShare is the part of L under which the downloads in flight leave the
// link idle for a server faster than L (TryStart).
const idleShare = 0.05

// stallAfter is how long a download runs before the rate read through it
// may also lower its share of CB (Ticket.share).
const stallAfter = 3 * time.Second

// share is the download's part of CB at now, once it has run stallAfter
// (not in Paper mode): the rate it has read at, its waits on the pacer
// taken out, when that is below its reservation; the reservation before.
// A server that sends a byte a second, or falls silent after its headers,
// kept its whole reservation until the fetch timed out, and held every
// other download back meanwhile (a failure trial: a crawl under a limit
// of 200 KB/s read 4 B/s for a minute behind four such servers, and one
// of 2 MB/s 0.5% of it behind one hanging server). Lowering it cannot
// overrun the limit: the pacer holds every read to it. Called with m.mu
// held.
func (t *Ticket) share(now time.Time) float64 {
	el := now.Sub(t.start)
	if el < stallAfter {
		return t.rate
	}
	run := el - time.Duration(t.waited.Load())
	if run <= 0 {
		return t.rate
	}
	return min(t.rate, float64(t.read.Load())/run.Seconds())
}

// expected returns the CB that admission compares with L. The paper's is
// the sum of the reservations, and so is this one while the pacer carries
// the bytes. Otherwise (not in Paper mode) a download that is running
// faster than its reservation, by the bytes read since it started, counts
// at the faster rate: an estimate that was too low then holds back the
// next downloads at once instead of after the download ends; and CB is
// calibrated (calibrate). Called with m.mu held.
func (m *Manager) expected(now time.Time) float64 {
	if m.cfg.Paper {
		return m.cb
	}
	if m.pacing() {
		// With the pacer carrying the bytes, it holds back a download
		// that runs faster than its reservation, and its waits would
		// bias the calibration; the loopback test measured both off as
		// better (see the package doc). A download that has run slower
		// than its reservation for stallAfter gives back the rest.
		cb := 0.0
		for t := range m.live {
			cb += t.share(now)
		}
		return cb
	}
	m.calibrate(now)
	cb := 0.0
	for t := range m.live {
		r := t.rate
		// The rate read so far, which the pacer may have held back: a
		// lower bound of the server's.
		if el := now.Sub(t.start); el >= stallAfter {
			// Past stallAfter, the rate read: above the
			// reservation or below it (Ticket.share).
			r = float64(t.read.Load()) / el.Seconds()
		} else if el >= liveAfter {
			r = max(r, float64(t.read.Load())/el.Seconds())
		}
		cb += r
	}
	ph := m.phantoms[:0]
	for _, p := range m.phantoms {
		if now.Before(p.until) {
			cb += p.rate
			ph = append(ph, p)
		}
	}
	m.phantoms = ph
	if m.calPred > m.cfg.Limit*calTau.Seconds()/4 { // enough seen to judge
		cb *= min(max(m.calBytes/m.calPred, 0.8), 1.25)
	}
	return cb
}

// pacing reports whether the pacer carries the downloads' bytes: the
// crawl's client reads through it (fetch.Config.Pacer) or the downloads
// read through Ticket.Reader. Called with m.mu held or not.
func (m *Manager) pacing() bool {
	return m.pacer != nil && m.pacer.bytes.Load() > 0
}

// calTau is the time constant of the calibration of CB.
const calTau = 5 * time.Second

// calibrate brings the calibration integrals up to now: CB held since the
// last call, and the bytes read since. Called with m.mu held.
func (m *Manager) calibrate(now time.Time) {
	read := m.readAll.Load()
	if m.calAt.IsZero() || now.Before(m.calAt) {
		m.calAt, m.calRead = now, read
		return
	}
	dt := now.Sub(m.calAt).Seconds()
	decay := math.Exp(-dt / calTau.Seconds())
	pred := m.cb
	for _, p := range m.phantoms {
		if now.Before(p.until) {
			pred += p.rate
		}
	}
	m.calPred = m.calPred*decay + pred*dt
	m.calBytes = m.calBytes*decay + float64(read-m.calRead)
	m.calAt, m.calRead = now, read
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
// estimates of t's server; a censored rate, a lower bound, only if it is
// above the estimate. Called with m.mu held.
func (m *Manager) end(t *Ticket, now time.Time, rate float64, censored bool) error {
	if !now.IsZero() && !m.cfg.Paper {
		m.calibrate(now)
	}
	m.cb -= t.rate
	m.inflight--
	delete(m.live, t)
	if m.byServer[t.server] == t {
		delete(m.byServer, t.server)
	}
	if m.inflight == 0 || m.cb < 0 {
		m.cb = 0 // no drift from rounding
	}
	close(m.changed)
	m.changed = make(chan struct{})
	if !(rate > 0) {
		m.stats.Cancelled++
		return nil
	}
	r, ok, err := m.load(t.server)
	if err != nil {
		return err
	}
	if censored {
		cur := m.cfg.DefaultRate
		if ok {
			cur = r[slot(now)]
		}
		if rate <= cur {
			m.stats.Censored++
			return nil
		}
	}
	m.stats.Measured++
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
		m.rates.Put(t.server, r)
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
	start  time.Time
	slot   bool         // a server faster than L run in a free slot
	read   atomic.Int64 // bytes read through Reader
	ended  bool
	// The pacer's counters when the download started, and the time this
	// download's Reader waited on the pacer (paced: Reader was used).
	paced0  int64
	waited0 time.Duration
	waited  atomic.Int64
}

// Server returns the server the download was admitted for.
func (t *Ticket) Server() string { return t.server }

// Rate returns B, the rate reserved for the download.
func (t *Ticket) Rate() float64 { return t.rate }

// Done ends the download: it releases the reservation and updates the
// server's estimates with the measured rate M = bytes / elapsed, where
// elapsed runs from the issue of the request to the end of the body (the
// paper's measure, latency included), less the time the download waited
// on the pacer when that was short; after a long wait M is a lower bound
// and only raises the estimate (see the package doc). now is the end,
// which chooses the hour and the kind of day. A download with no bytes or
// no elapsed time is not measured. The error is the Store's.
func (t *Ticket) Done(now time.Time, bytes int64, elapsed time.Duration) error {
	if t == nil || t.ended {
		return nil
	}
	t.ended = true
	m := t.m
	var pacedBytes int64
	var pacedWait time.Duration
	if m.pacer != nil {
		b, w := m.pacer.counters()
		pacedBytes, pacedWait = b-t.paced0, w-t.waited0
	}
	if bytes > 0 && t.read.Load() == 0 && pacedBytes == 0 {
		// Neither Reader nor the pacer saw the body (a fetcher that
		// reads it itself, with no pacer): count its bytes now, at the
		// end, for the measured rate and the calibration.
		t.read.Store(bytes)
		m.bytes.Add(bytes)
		m.readAll.Add(bytes)
	}
	// M must be the server's rate, not the pacer's. The time the download
	// waited on the pacer is its own when its bytes came through Reader
	// or were charged to it by Pacer.Pace; otherwise (a fetcher that does
	// not name the server) its share by bytes of the waits of all readers
	// while it ran. A short wait is taken out
	// of elapsed. After a longer one, bytes / elapsed is only a lower
	// bound of the server's rate (the pacer held it back, by how much is
	// not known): it is "censored", and may raise the estimate but not
	// lower it (see end).
	var wait time.Duration
	switch {
	case t.read.Load() > 0: // through Reader, or charged by Pace
		wait = time.Duration(t.waited.Load())
	case pacedBytes > 0 && pacedWait > 0 && bytes > 0:
		wait = time.Duration(float64(pacedWait) * min(float64(bytes)/float64(pacedBytes), 1))
	}
	censored := wait > elapsed/4
	if !censored {
		elapsed -= wait
	}
	rate := 0.0
	if bytes > 0 && elapsed > 0 {
		rate = float64(bytes) / elapsed.Seconds()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// A server faster than L gets a slot, or pauses other starts (see the
	// package doc), only when the pacer did not carry its bytes: the pacer
	// keeps it under L by itself, and a rate above L computed with the
	// waits taken out is no reason to leave the link idle.
	fast := !m.cfg.Paper && rate > m.cfg.Limit && pacedBytes == 0
	if fast {
		if old, ok := m.sizes.Get(t.server); ok && old > 0 {
			m.sizes.Put(t.server, 0.7*old+0.3*float64(bytes))
		} else {
			m.sizes.Put(t.server, float64(bytes))
		}
	}
	if t.slot {
		// Its bytes in the slot's rate take until start + bytes/rate;
		// the slot stays reserved until then, so no one-second window
		// holds more than L.
		until := t.start.Add(time.Duration(float64(bytes) / t.rate * float64(time.Second)))
		if until.After(now) {
			m.phantoms = append(m.phantoms, phantom{t.rate, until})
		}
	} else if fast {
		// A download that ran above L (it was admitted alone) used the
		// link for bytes/L, not for elapsed: nothing starts until then,
		// so that no one-second window holds more than L. Measured in
		// the loopback test, where the host faster than L otherwise
		// puts windows above L.
		pause := time.Duration(float64(bytes) / m.cfg.Limit * float64(time.Second))
		m.pauseUntil = now.Add(pause - elapsed)
	}
	return m.end(t, now, rate, censored)
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
	_ = t.m.end(t, time.Time{}, 0, false) // no measurement, no store write
}

// Reader returns r counting the bytes read into the manager's measured
// rate (Sample) and, unless in Paper mode, pacing them through the
// manager's Pacer as the crawl's client does (fetch.Config.Pacer): each
// read takes at most Pacer.Quantum bytes, with Pacer.Wait before and
// Pacer.Done after; the time waited is charged to this download, and
// Done takes it out of the elapsed time. It does not change the
// estimates; Done does. A fetcher that paces its connections itself must
// not also read through Reader.
func (t *Ticket) Reader(r io.Reader) io.Reader {
	if p := t.m.pacer; p != nil {
		return &pacedReader{r: r, p: p, t: t}
	}
	return &countReader{r: r, n: &t.m.bytes, t: &t.read, all: &t.m.readAll}
}

type pacedReader struct {
	r io.Reader
	p *Pacer
	t *Ticket
}

func (c *pacedReader) Read(b []byte) (int, error) {
	if len(b) > c.p.quantum {
		b = b[:c.p.quantum]
	}
	// The pacer's hooks charge the server's download in flight, which
	// is this ticket (one per server).
	c.p.Wait(c.t.server, len(b))
	n, err := c.r.Read(b)
	c.p.Done(c.t.server, n)
	return n, err
}

type countReader struct {
	r         io.Reader
	n, t, all *atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	c.t.Add(int64(n))
	c.all.Add(int64(n))
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
	// Predicted is what admission compares with L: the reservations, less
	// what stalled downloads gave back (Ticket.share).
	pred := m.cb
	if !m.cfg.Paper {
		pred = 0
		for t := range m.live {
			pred += t.share(now)
		}
	}
	s := Sample{Time: now, Predicted: pred, Limit: m.cfg.Limit}
	if !m.last.IsZero() {
		if d := now.Sub(m.last).Seconds(); d > 0 {
			s.Measured = float64(n) / d
		}
	}
	m.last = now
	return s
}
