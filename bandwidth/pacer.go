package bandwidth

import (
	"sync"
	"sync/atomic"
	"time"
)

// Pacer spreads the bytes read by all downloads over time, the way wget
// and curl --limit-rate do for one: a token bucket shared by every reader.
// Before a read, a reader waits while the readers owe the bucket more than
// it holds (Wait); after it, the bytes are charged and the reader waits
// until the bucket has been paid for them (Done). The bytes charged in any
// span T stay below about Rate·T + Burst, plus one read per reader that
// was already under way (at most Quantum bytes each); TestPacerBound
// measures it. Admission cannot stop the bytes of downloads already in
// flight; the pacer can, because a reader that does not read lets TCP flow
// control hold its sender back (hence a small receive buffer, see
// Manager.ReadBuffer).
//
// A Pacer is safe for concurrent use. Reserve and Backlog are arithmetic
// on the time they are given; Wait and Done read the clock and sleep, the
// one place in the package that does.
type Pacer struct {
	rate    float64       // bytes per second
	burst   time.Duration // the bucket's depth, as time at rate
	quantum int

	mu  sync.Mutex
	tat time.Time // when the bytes reserved so far are paid for

	bytes  atomic.Int64 // bytes paced
	waited atomic.Int64 // nanoseconds spent waiting, summed over readers
	// onRead and onWait charge a read and a wait to the manager's
	// counters and to the download from host; may be nil.
	onRead func(host string, n int)
	onWait func(host string, waited time.Duration)
}

// NewPacer returns a Pacer at rate bytes per second whose bucket holds
// burst bytes, for reads of at most quantum bytes (Quantum).
func NewPacer(rate float64, burst, quantum int) *Pacer {
	return &Pacer{rate: rate, burst: time.Duration(float64(max(burst, 0)) / rate * float64(time.Second)), quantum: max(quantum, 1)}
}

// Rate returns the pacer's rate in bytes per second.
func (p *Pacer) Rate() float64 { return p.rate }

// Quantum returns the most bytes a paced reader takes in one read.
func (p *Pacer) Quantum() int { return p.quantum }

// Reserve takes n bytes read at now from the bucket and returns how long
// the reader must wait before it reads again (0 if the bucket had them).
func (p *Pacer) Reserve(now time.Time, n int) time.Duration {
	if n <= 0 {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tat.Before(now) {
		p.tat = now
	}
	p.tat = p.tat.Add(time.Duration(float64(n) / p.rate * float64(time.Second)))
	return max(p.tat.Sub(now)-p.burst, 0)
}

// Backlog returns how long a read taken at now would wait: more than 0
// when the readers already take all of the pacer's rate.
func (p *Pacer) Backlog(now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tat.After(now) {
		return 0 // and no arithmetic on a zero tat
	}
	return max(p.tat.Sub(now)-p.burst, 0)
}

// Wait is called before a read of up to n bytes from a connection to
// host: while the readers owe the bucket more than its depth, it sleeps
// until they do not, and returns the time slept. Done, after the read,
// charges the bytes read. Wait and Done are the hooks of
// fetch.Config.Pacer; host is the URL's host, with its port unless it is
// the scheme's default (the crawl's site key), so that the manager can
// charge the bytes and the waits to that server's download.
func (p *Pacer) Wait(host string, n int) time.Duration {
	d := p.Backlog(time.Now())
	p.sleep(host, d)
	return d
}

// Done charges the n bytes a read brought (see fetch.Pacer) and sleeps
// until the bucket has been paid for them, so that readers that keep
// reading take turns at the pacer's rate.
func (p *Pacer) Done(host string, n int) {
	if n <= 0 {
		return
	}
	p.bytes.Add(int64(n))
	if p.onRead != nil {
		p.onRead(host, n)
	}
	p.sleep(host, p.Reserve(time.Now(), n))
}

func (p *Pacer) sleep(host string, d time.Duration) {
	if d <= 0 {
		return
	}
	time.Sleep(d)
	p.waited.Add(int64(d))
	if p.onWait != nil {
		p.onWait(host, d)
	}
}

// counters returns the bytes paced and the time waited so far.
func (p *Pacer) counters() (bytes int64, waited time.Duration) {
	return p.bytes.Load(), time.Duration(p.waited.Load())
}
