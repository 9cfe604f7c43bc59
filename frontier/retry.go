package frontier

import (
	"fmt"
	"time"
)

// retryClass is the priority byte of the queue keys of entries put back
// behind their site's other work by Requeue with Tail set. It sorts after
// High and Low, so a URL that keeps failing does not hold up the rest of
// its site. The entry's own Priority is kept in its value.
const retryClass Priority = 2

// Deferral says how Requeue puts a leased URL back.
type Deferral struct {
	// Entry replaces the lease's entry; the engine bumps Tries and sets
	// RetryAt. Its URL and Site must be the lease's.
	Entry Entry
	// Tail puts the entry behind every other entry of its site, for a
	// failure of the URL itself (a 500, a reset). Otherwise it goes back
	// to its old place, the head, for a failure of the whole site (the
	// server is unreachable, robots.txt is unavailable, a 503): the site
	// then waits until NotBefore.
	Tail bool
	// NotBefore is the earliest time the site may be leased again.
	NotBefore time.Time
	// Usage is added to the job's totals, as Completion.Usage is: a
	// failed fetch that got a response still reached the server.
	Usage Usage
	// Recheck, when not nil, records a re-check try, as
	// Completion.Recheck does: a failed try counts too.
	Recheck *Recheck
}

// Requeue puts a leased URL back for another try, with its entry updated,
// in one atomic write. The URL stays in the seen set, and Tries and RetryAt
// survive a restart with it. On error nothing is written and the lease
// stays outstanding.
func (q *Queue) Requeue(l *Lease, d Deferral) error {
	if l == nil {
		return fmt.Errorf("%w: nil", ErrUnknownLease)
	}
	e := d.Entry
	if e.URL != l.Entry.URL || e.Site != l.Entry.Site {
		return fmt.Errorf("%w: requeue %s as %s", ErrInvalidEntry, l.Entry.URL, e.URL)
	}
	if err := e.validate(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	t, err := q.endLease(l)
	if err != nil {
		return err
	}
	var suffix []byte
	if d.Tail {
		k := queueKey(l.site, retryClass, e.Depth, t.meta.seq)
		t.meta.seq++
		t.dirty = true
		suffix = k[len(k)-keySuffixLen:]
	} else {
		suffix = l.suffix[:]
	}
	t.b.Put(append(queuePrefix(l.site), suffix...), encodeEntry(nil, &e))
	sd := t.delta(l.site)
	sd.unlease = true
	sd.setNB, sd.notBefore = true, unixNano(d.NotBefore)
	sd.pending++
	sd.lower(suffix)
	if Priority(suffix[0]) == High {
		sd.high++
	}
	if d.Usage != (Usage{}) {
		t.meta.usage.add(d.Usage)
		t.dirty = true
	}
	if err := t.tally(nil, d.Recheck); err != nil {
		return fmt.Errorf("frontier: requeue %s: %w", l.Entry.URL, err)
	}
	if err := t.commit(); err != nil {
		return fmt.Errorf("frontier: requeue %s: %w", l.Entry.URL, err)
	}
	delete(q.leases, l.site)
	q.stats.Requeued++
	return nil
}
