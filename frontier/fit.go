package frontier

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/syndtr/goleveldb/leveldb"
)

// MaxSearchDepth bounds the maxd of NextFit. The bandwidth paper uses 2 and
// 6; deeper searches trade the site order for a fuller link.
const MaxSearchDepth = 1024

// NextFit is Next for a crawler with a bandwidth budget: it looks at up to
// maxd ready sites in the order Next would serve them, calls fits on each
// in turn and leases the head entry of the first site for which fits
// returns true. This is the search of the fetcher manager of "Bandwidth
// control for small focused crawlers": the candidates are the top maxd
// entries of the priority queue, searched from the top. A maxd below 1
// means 1; above MaxSearchDepth, MaxSearchDepth.
//
// fits is called with the Queue's lock held, so it must not call the
// Queue; it may reserve bandwidth. NextFit calls it again only if it could
// not lease the site it accepted (a site record found empty), so a fits that
// reserves should drop any earlier reservation when called again, and the
// caller should drop the last one if NextFit returns no lease.
//
// If no ready site fits, NextFit returns (nil, wait, nil) with a short wait:
// at most Options.PollInterval, and at most the time until the earliest
// waiting site becomes eligible. Otherwise it returns what Next returns:
// (nil, wait, nil) when nothing is eligible and ErrEmpty when the crawl is
// over.
func (q *Queue) NextFit(now time.Time, maxd int, fits func(site string) bool) (*Lease, time.Duration, error) {
	maxd = min(max(maxd, 1), MaxSearchDepth)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return nil, 0, ErrClosed
	}
	nowN := now.UnixNano()
	if err := q.promote(nowN); err != nil {
		return nil, 0, fmt.Errorf("frontier: next fit: %w", err)
	}

	var buf [16]*site
	refused := false
	for {
		cands, early := q.topReady(nowN, maxd, buf[:0])
		if early != nil { // the caller's clock went back
			q.ready.remove(early)
			q.timed.push(early)
			continue
		}
		leased := false
		for _, s := range cands {
			if !fits(s.name) {
				refused = true
				continue
			}
			l, err := q.lease(s)
			if err != nil {
				return nil, 0, fmt.Errorf("frontier: next fit: lease from %s: %w", s.name, err)
			}
			if l != nil {
				return l, 0, nil
			}
			// The site was empty and lease repaired it: the heap changed,
			// so collect the candidates again.
			leased = true
			break
		}
		if !leased {
			break
		}
	}

	if !refused && q.queued == 0 && len(q.leases) == 0 {
		return nil, 0, ErrEmpty
	}
	wait := time.Duration(math.MaxInt64)
	if refused || len(q.leases) > 0 {
		wait = q.opts.PollInterval
	}
	if s := q.timed.top(); s != nil {
		wait = min(wait, time.Duration(s.notBefore-nowN))
	}
	if wait <= 0 || wait == math.MaxInt64 {
		wait = q.opts.PollInterval
	}
	return nil, max(wait, time.Nanosecond), nil
}

// topReady appends to dst the best n sites of the ready heap, best first,
// without changing the heap: a best-first walk of the heap's tree, which
// costs O(n²) comparisons for the small n of a search depth. If it meets a
// site whose notBefore is after nowN it stops and returns that site.
func (q *Queue) topReady(nowN int64, n int, dst []*site) ([]*site, *site) {
	h := q.ready.s
	if len(h) == 0 {
		return dst, nil
	}
	var fb [32]int
	front := append(fb[:0], 0) // heap indexes whose parents are taken
	for len(dst) < n && len(front) > 0 {
		bi := 0
		for i := 1; i < len(front); i++ {
			if q.ready.less(h[front[i]], h[front[bi]]) {
				bi = i
			}
		}
		j := front[bi]
		front[bi] = front[len(front)-1]
		front = front[:len(front)-1]
		if h[j].notBefore > nowN {
			return dst, h[j]
		}
		dst = append(dst, h[j])
		if l := 2*j + 1; l < len(h) {
			front = append(front, l)
			if l+1 < len(h) {
				front = append(front, l+1)
			}
		}
	}
	return dst, nil
}

// promote moves the sites that are due at nowN from the timed heap to the
// ready heap and forgets the due ones without work, deleting their records
// unless they hold a budget (a site that counted pages against its budget
// keeps its record, so that the budget holds if it comes back). Next and
// NextFit start with it. Without a lease to write along, the deletes are
// written alone; losing them is harmless, Open would forget the sites
// again. Called with q.mu held.
func (q *Queue) promote(nowN int64) error {
	b := new(leveldb.Batch)
	var forget []*site
	for s := q.timed.top(); s != nil && s.notBefore <= nowN; s = q.timed.top() {
		q.timed.remove(s)
		if s.pending > 0 {
			if !s.passed || s.readySeq == 0 {
				q.readySeq++
				s.readySeq = q.readySeq
			}
			s.passed = false
			q.ready.push(s)
			continue
		}
		if s.budget == 0 {
			b.Delete(siteKey(tSite, s.name))
		}
		forget = append(forget, s)
	}
	if b.Len() > 0 {
		if err := q.db.Write(b, q.wo); err != nil {
			for _, s := range forget {
				q.timed.push(s)
			}
			return dbErr(err)
		}
	}
	for _, s := range forget {
		delete(q.sites, s.name)
	}
	return nil
}

// Postpone moves the ready sites named back among the waiting ones until
// until, so that Next and NextFit look past them meanwhile: the caller's
// fits refused them for a while (crawl: their registered domain has its
// fetches under way), and would refuse them again at the top of every
// search, hiding the sites below. It changes nothing stored: a restart
// finds them ready. A leased site, one waiting longer already, or an
// unknown one is passed over.
func (q *Queue) Postpone(sites []string, until time.Time) {
	if len(sites) == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	u := until.UnixNano()
	for _, name := range sites {
		s := q.sites[name]
		switch {
		case s == nil || s.notBefore >= u:
		case s.in == &q.ready:
			q.ready.remove(s)
			s.notBefore = u
			s.passed = true
			q.timed.push(s)
		case s.in == &q.timed: // due, not yet promoted
			s.notBefore = u
			s.passed = true
			q.timed.fix(s)
		}
	}
}

// Wake makes the first n of the sites named, in the ready order, that
// were put aside by Postpone or handed back by Return (and not served
// since) eligible again at now, in the place among ties they had before:
// what they waited for (n connections to their domain or address) is
// free. A site waiting its own delay after a fetch is not woken, nor is
// one that is ready or leased.
func (q *Queue) Wake(sites []string, n int, now time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	at := now.UnixNano()
	var cand []*site
	for _, name := range sites {
		if s := q.sites[name]; s != nil && s.passed && s.in == &q.timed && s.notBefore > at {
			cand = append(cand, s)
		}
	}
	slices.SortFunc(cand, func(a, b *site) int {
		switch {
		case q.ready.less(a, b):
			return -1
		case q.ready.less(b, a):
			return 1
		}
		return 0
	})
	for _, s := range cand[:min(n, len(cand))] {
		s.notBefore = at
		q.timed.fix(s)
	}
}
