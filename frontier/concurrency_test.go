package frontier

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestConcurrent runs pushers and workers at once and checks that every
// URL is leased exactly once and no site ever has two leases out.
func TestConcurrent(t *testing.T) {
	q := openMem(t)
	const (
		pushers   = 4
		workers   = 8
		perPusher = 300
		sites     = 17
	)
	var (
		mu      sync.Mutex
		leased  = make(map[string]int)
		holding = make(map[string]bool)
		errs    []error
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}

	var wg sync.WaitGroup
	for p := range pushers {
		wg.Go(func() {
			for i := range perPusher {
				// Every pusher pushes the same URLs at i%50==0 to race the seen set.
				id := fmt.Sprintf("p%d-%d", p, i)
				if i%50 == 0 {
					id = fmt.Sprintf("shared-%d", i)
				}
				e := ent(fmt.Sprintf("s%d", i%sites), id, i%5, Priority(i%2))
				if _, err := q.Push(e); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	pushDone := make(chan struct{})
	go func() { wg.Wait(); close(pushDone) }()

	var workersWG sync.WaitGroup
	for w := range workers {
		workersWG.Go(func() {
			for n := 0; ; n++ {
				l, _, err := q.Next(t0)
				if errors.Is(err, ErrEmpty) {
					// Empty is final only once the pushers are done.
					select {
					case <-pushDone:
						if _, _, err := q.Next(t0); errors.Is(err, ErrEmpty) {
							return
						}
					default:
						runtime.Gosched()
					}
					continue
				}
				if err != nil {
					fail(err)
					return
				}
				if l == nil {
					continue
				}
				site := l.Entry.Site
				mu.Lock()
				if holding[site] {
					errs = append(errs, fmt.Errorf("two leases out for %s", site))
				}
				holding[site] = true
				leased[l.Entry.URL]++
				mu.Unlock()

				var c Completion
				c.Tally = []Tally{{Key: site, Relevant: n%2 == 0}}
				if n%7 == 0 {
					// Workers discover links too, some of them duplicates.
					c.Links = []Entry{ent(site, fmt.Sprintf("w%d-%d", w, n), l.Entry.Depth+1, Low), ent(site, "common", 1, Low)}
				}
				mu.Lock()
				holding[site] = false
				mu.Unlock()
				if n%11 == 0 {
					err = q.Return(l, time.Time{}) // zero: eligible at once
					mu.Lock()
					leased[l.Entry.URL]-- // it will be leased again
					mu.Unlock()
				} else {
					err = q.Complete(l, c)
				}
				if err != nil {
					fail(err)
					return
				}
			}
		})
	}
	workersWG.Wait()
	if len(errs) > 0 {
		t.Fatal(errors.Join(errs...))
	}
	st := q.Stats()
	if st.Queued != 0 || st.InFlight != 0 || st.Sites != 0 {
		t.Errorf("not drained: %+v", st)
	}
	if int64(len(leased)) != st.Pushed || st.Pushed != st.Seen {
		t.Errorf("leased %d distinct URLs; pushed %d, seen %d", len(leased), st.Pushed, st.Seen)
	}
	for u, n := range leased {
		if n != 1 {
			t.Errorf("%s leased %d times", u, n)
		}
	}
	var total int64
	for s := range sites {
		c, err := q.Counts(fmt.Sprintf("s%d", s))
		if err != nil {
			t.Fatal(err)
		}
		total += c.Downloaded
	}
	if total != st.Completed {
		t.Errorf("counters sum to %d, completed %d", total, st.Completed)
	}
}
