package frontier

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb/storage"
)

// pushLengths queues n[i] low-priority pages on site s<i>, so that the
// Length order is s0, s1, ... when n falls.
func pushLengths(t *testing.T, q *Queue, n ...int) {
	t.Helper()
	for i, k := range n {
		for j := range k {
			mustPush(t, q, ent(fmt.Sprintf("s%d.test", i), fmt.Sprint(j), 1, Low))
		}
	}
}

func TestNextFitSearchesInOrder(t *testing.T) {
	q := openMem(t)
	pushLengths(t, q, 9, 8, 7, 6, 5, 4, 3, 2)
	var asked []string
	only := func(ok ...string) func(string) bool {
		asked = asked[:0]
		return func(s string) bool {
			asked = append(asked, s)
			return slices.Contains(ok, s)
		}
	}

	// The first fitting site among the top maxd, in heap order.
	l, _, err := q.NextFit(t0, 6, only("s4.test", "s2.test"))
	if err != nil || l == nil {
		t.Fatalf("NextFit = %v, %v", l, err)
	}
	if l.Entry.Site != "s2.test" {
		t.Errorf("leased %s, want s2.test", l.Entry.Site)
	}
	if want := []string{"s0.test", "s1.test", "s2.test"}; !slices.Equal(asked, want) {
		t.Errorf("asked %v, want %v", asked, want)
	}

	// A fitting site deeper than maxd is not leased; the wait is short.
	l, wait, err := q.NextFit(t0, 3, only("s7.test"))
	if err != nil || l != nil {
		t.Fatalf("NextFit beyond maxd = %v, %v", l, err)
	}
	if want := []string{"s0.test", "s1.test", "s3.test"}; !slices.Equal(asked, want) {
		t.Errorf("asked %v, want %v (s2 is leased)", asked, want)
	}
	if wait <= 0 || wait > 250*time.Millisecond {
		t.Errorf("wait = %v, want (0, PollInterval]", wait)
	}

	// Every site fits: the seven sites not leased come out, then none.
	for i := range 8 {
		l, _, err := q.NextFit(t0, 6, func(string) bool { return true })
		if err != nil || (l == nil) != (i == 7) {
			t.Fatalf("NextFit %d = %v, %v", i, l, err)
		}
	}
}

// TestNextFitMatchesNext checks that a NextFit that accepts everything
// leases what Next leases, in every site order.
func TestNextFitMatchesNext(t *testing.T) {
	for _, order := range Orders {
		t.Run(order, func(t *testing.T) {
			open := func() *Queue {
				q, err := Open("", &Options{Storage: storage.NewMemStorage(), Order: order})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { q.Close() })
				for i := range 40 {
					for j := range i%7 + 1 {
						p := Low
						if i%11 == 0 {
							p = High
						}
						mustPush(t, q, ent(fmt.Sprintf("h%02d.test", i), fmt.Sprint(j), (i*j)%5, p))
					}
				}
				return q
			}
			a, b := open(), open()
			yes := func(string) bool { return true }
			for i := 0; ; i++ {
				la, _, ea := a.Next(t0)
				lb, _, eb := b.NextFit(t0, 4, yes)
				if (ea == nil) != (eb == nil) || (la == nil) != (lb == nil) {
					t.Fatalf("step %d: Next = %v, %v; NextFit = %v, %v", i, la, ea, lb, eb)
				}
				if la == nil {
					break
				}
				if la.Entry.URL != lb.Entry.URL {
					t.Fatalf("step %d: Next leased %s, NextFit %s", i, la.Entry.URL, lb.Entry.URL)
				}
				if err := a.Complete(la, Completion{}); err != nil {
					t.Fatal(err)
				}
				if err := b.Complete(lb, Completion{}); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestNextFitEmptyAndClosed(t *testing.T) {
	q := openMem(t)
	if _, _, err := q.NextFit(t0, 6, func(string) bool { return true }); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty queue: err = %v, want ErrEmpty", err)
	}
	mustPush(t, q, ent("a.test", "1", 0, Low))
	// Refusing the only site is not the end of the crawl.
	if l, wait, err := q.NextFit(t0, 6, func(string) bool { return false }); err != nil || l != nil || wait <= 0 {
		t.Errorf("refused: %v, %v, %v; want nil, a positive wait, nil", l, wait, err)
	}
	q.Close()
	if _, _, err := q.NextFit(t0, 6, func(string) bool { return true }); !errors.Is(err, ErrClosed) {
		t.Errorf("closed: err = %v, want ErrClosed", err)
	}
}

func TestNextFitWaitsForDelays(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a.test", "1", 0, Low), ent("a.test", "2", 0, Low))
	l, _, err := q.NextFit(t0, 6, func(string) bool { return true })
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	if err := q.Complete(l, Completion{NotBefore: t0.Add(100 * time.Millisecond)}); err != nil {
		t.Fatal(err)
	}
	l, wait, err := q.NextFit(t0, 6, func(string) bool { return true })
	if err != nil || l != nil || wait != 100*time.Millisecond {
		t.Errorf("in delay: %v, %v, %v; want nil, 100ms, nil", l, wait, err)
	}
	if l, _, err := q.NextFit(t0.Add(100*time.Millisecond), 6, func(string) bool { return true }); err != nil || l == nil {
		t.Errorf("after delay: %v, %v", l, err)
	}
}

func TestOrders(t *testing.T) {
	// a: 3 pages at depth 2; b: 1 page at depth 0, pushed last; c: 2 pages
	// at depth 1, one of them High.
	push := func(q *Queue) {
		mustPush(t, q, ent("a.test", "1", 2, Low), ent("a.test", "2", 2, Low), ent("a.test", "3", 2, Low))
		mustPush(t, q, ent("c.test", "1", 1, Low), ent("c.test", "2", 3, Low))
		mustPush(t, q, ent("b.test", "1", 0, Low))
	}
	for _, tc := range []struct {
		order string
		want  []string
	}{
		{"", []string{"a.test", "c.test", "b.test"}},
		{OrderLength, []string{"a.test", "c.test", "b.test"}},
		{OrderBreadth, []string{"b.test", "c.test", "a.test"}},
	} {
		q, err := Open("", &Options{Storage: storage.NewMemStorage(), Order: tc.order})
		if err != nil {
			t.Fatal(err)
		}
		push(q)
		var got []string
		for range 3 {
			got = append(got, mustNext(t, q, t0).Entry.Site)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("order %q: sites %v, want %v", tc.order, got, tc.want)
		}
		q.Close()
	}

	// Random: a fixed order that is neither by length nor by name, the
	// same in every Open.
	var first []string
	for run := range 2 {
		q, err := Open("", &Options{Storage: storage.NewMemStorage(), Order: OrderRandom})
		if err != nil {
			t.Fatal(err)
		}
		pushLengths(t, q, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
		var got []string
		for range 12 {
			got = append(got, mustNext(t, q, t0).Entry.Site)
		}
		q.Close()
		if run == 0 {
			first = got
			sorted := slices.Clone(got)
			slices.Sort(sorted)
			if slices.Equal(got, sorted) {
				t.Errorf("random order %v is sorted by name", got)
			}
		} else if !slices.Equal(got, first) {
			t.Errorf("random order changed between runs: %v then %v", first, got)
		}
	}

	if _, err := Open("", &Options{Storage: storage.NewMemStorage(), Order: "pagerank"}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Order pagerank: err = %v, want ErrInvalidOptions", err)
	}
}

// TestPostpone: a postponed ready site is passed over until its time,
// then leased as before; waiting or unknown sites are left alone.
func TestPostpone(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a.test", "1", 0, High), ent("a.test", "2", 0, High), ent("b.test", "1", 0, High))
	q.Postpone([]string{"a.test", "nowhere.test"}, t0.Add(time.Second))
	l := mustNext(t, q, t0)
	if l.Entry.Site != "b.test" {
		t.Fatalf("leased %s while a.test was postponed", l.Entry.Site)
	}
	if l2, _, err := q.Next(t0); err != nil || l2 != nil {
		t.Fatalf("Next before a.test's time = %v, %v", l2, err)
	}
	if l := mustNext(t, q, t0.Add(time.Second)); l.Entry.Site != "a.test" {
		t.Fatalf("leased %s once a.test's time had come", l.Entry.Site)
	}
}
