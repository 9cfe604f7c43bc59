package politeness

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// All tests here run in a synctest bubble: time.Now and timers are fake,
// so the times they compare are exact and nothing really sleeps.

func mustAcquire(t *testing.T, g *Gate, host string) func(time.Time) {
	t.Helper()
	release, err := g.Acquire(context.Background(), host)
	if err != nil {
		t.Fatalf("Acquire(%s): %v", host, err)
	}
	return release
}

func TestAcquireOneAtATimeWithDelay(t *testing.T) {
	tests := []struct {
		name    string
		w       time.Duration
		robots  string
		wantGap time.Duration
	}{
		{"w only", 10 * time.Second, "", 10 * time.Second},
		{"zero w still one at a time", 0, "", 0},
		{"crawl-delay above w", time.Second, "User-agent: *\nCrawl-delay: 20\n", 20 * time.Second},
		{"crawl-delay capped", time.Second, "User-agent: *\nCrawl-delay: 999\n", 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				g := newGate(t, Config{Delay: tt.w}, fixed(200, tt.robots, nil).fetch)
				check(t, g, "http://site.example/", time.Now())
				const n = 6
				type span struct{ start, end time.Time }
				spans := make([]span, n)
				var inFlight, maxInFlight atomic.Int32
				var wg sync.WaitGroup
				begin := time.Now()
				for i := range n {
					wg.Go(func() {
						release := mustAcquire(t, g, "site.example")
						cur := inFlight.Add(1)
						if cur > maxInFlight.Load() {
							maxInFlight.Store(cur)
						}
						spans[i].start = time.Now()
						time.Sleep(3 * time.Second) // the fetch
						spans[i].end = time.Now()
						inFlight.Add(-1)
						release(spans[i].end)
					})
				}
				wg.Wait()
				if m := maxInFlight.Load(); m != 1 {
					t.Fatalf("%d fetches at once, want 1", m)
				}
				sort.Slice(spans, func(i, j int) bool { return spans[i].start.Before(spans[j].start) })
				if !spans[0].start.Equal(begin) {
					t.Errorf("first fetch waited %v, want 0", spans[0].start.Sub(begin))
				}
				for i := 1; i < n; i++ {
					if gap := spans[i].start.Sub(spans[i-1].end); gap != tt.wantGap {
						t.Errorf("gap before fetch %d = %v, want %v", i, gap, tt.wantGap)
					}
				}
				if w := g.Stats().AcquireWaits; w != n-1 {
					t.Errorf("AcquireWaits = %d, want %d", w, n-1)
				}
			})
		})
	}
}

func TestAcquireDelayFromReleaseEnd(t *testing.T) {
	// The delay counts from the end the caller reports, not from the
	// moment release is called.
	synctest.Test(t, func(t *testing.T) {
		g := newGate(t, Config{Delay: 10 * time.Second}, nil2(t))
		release := mustAcquire(t, g, "h.example")
		end := time.Now()
		time.Sleep(4 * time.Second)
		release(end)
		mustAcquire(t, g, "h.example")
		if got := time.Since(end); got != 10*time.Second {
			t.Fatalf("second Acquire %v after the reported end, want 10s", got)
		}
	})
}

// TestReady: when a site may next be fetched, as Acquire would wait: zero
// before any fetch, the end of the last one plus the delay after it.
func TestReady(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(t, Config{Delay: 10 * time.Second}, nil2(t))
		if r := g.Ready("h.example"); !r.IsZero() {
			t.Errorf("Ready before any fetch = %v, want zero", r)
		}
		release := mustAcquire(t, g, "h.example")
		end := time.Now()
		release(end)
		if r := g.Ready("H.example"); !r.Equal(end.Add(10 * time.Second)) {
			t.Errorf("Ready = %v, want the end plus the delay, %v", r, end.Add(10*time.Second))
		}
		time.Sleep(3 * time.Second)
		mustAcquire(t, g, "h.example")
		if got := time.Since(end); got != 10*time.Second {
			t.Errorf("Acquire waited until %v after the end, want 10s, when Ready said", got)
		}
	})
}

// nil2 returns a fetcher for tests that never Check.
func nil2(t *testing.T) RobotsFetcher {
	return func(context.Context, string) (int, []byte, error) {
		t.Error("unexpected robots fetch")
		return 404, nil, nil
	}
}

func TestAcquireHostsIndependent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(t, Config{Delay: time.Hour}, nil2(t))
		start := time.Now()
		ra := mustAcquire(t, g, "a.example")
		rb := mustAcquire(t, g, "b.example") // a is held: b must not wait
		ra(time.Now())
		rb(time.Now())
		mustAcquire(t, g, "c.example:8080")
		if d := time.Since(start); d != 0 {
			t.Fatalf("Acquire of distinct hosts waited %v", d)
		}
		// Host names compare case-insensitively.
		done := make(chan struct{})
		go func() {
			mustAcquire(t, g, "A.EXAMPLE")
			close(done)
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("A.EXAMPLE acquired at once; a.example was released just now with w = 1h")
		default:
		}
		<-done
		if d := time.Since(start); d != time.Hour {
			t.Fatalf("A.EXAMPLE acquired after %v, want 1h", d)
		}
	})
}

func TestAcquireCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(t, Config{Delay: time.Minute}, nil2(t))
		release := mustAcquire(t, g, "h.example")

		// Waiting for the holder.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := g.Acquire(ctx, "h.example")
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Acquire while held: err = %v, want DeadlineExceeded", err)
		}

		// Waiting out the delay.
		release(time.Now())
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
		_, err = g.Acquire(ctx, "h.example")
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Acquire during delay: err = %v, want DeadlineExceeded", err)
		}

		// The cancelled calls hold nothing: the site is free after w.
		released := time.Now().Add(-5 * time.Second)
		mustAcquire(t, g, "h.example")
		if got := time.Since(released); got != time.Minute {
			t.Fatalf("acquired %v after release, want 1m", got)
		}
		g.mu.Lock()
		refs := g.sites["h.example"].refs
		g.mu.Unlock()
		if refs != 1 {
			t.Fatalf("refs = %d, want 1 (only the current holder)", refs)
		}
	})
}

func TestReleaseTwiceAndZeroEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(t, Config{Delay: 7 * time.Second}, nil2(t))
		r1 := mustAcquire(t, g, "h.example")
		time.Sleep(2 * time.Second)
		r1(time.Time{}) // end = now
		end := time.Now()
		r2 := mustAcquire(t, g, "h.example")
		if got := time.Since(end); got != 7*time.Second {
			t.Fatalf("waited %v after zero-end release, want 7s", got)
		}
		// A second call of r1 must not free the site r2 holds.
		r1(time.Now())
		done := make(chan struct{})
		go func() {
			mustAcquire(t, g, "h.example")
			close(done)
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("acquired while r2 holds the site")
		default:
		}
		r2(time.Now())
		<-done
	})
}

func TestSitesSwept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(t, Config{Delay: time.Minute}, nil2(t))
		const n = 3 * minSweep
		for i := range n {
			mustAcquire(t, g, fmt.Sprintf("h%d.example", i))(time.Now())
		}
		g.mu.Lock()
		kept := len(g.sites)
		g.mu.Unlock()
		if kept != n {
			t.Fatalf("sites = %d, want %d: none may be swept within w of its fetch", kept, n)
		}
		before := time.Now()
		mustAcquire(t, g, "h0.example")(time.Now())
		if got := time.Since(before); got != time.Minute {
			t.Fatalf("h0 re-acquired after %v, want 1m: its state was lost", got)
		}
		for i := range n {
			mustAcquire(t, g, fmt.Sprintf("new%d.example", i))(time.Now())
		}
		g.mu.Lock()
		kept = len(g.sites)
		g.mu.Unlock()
		if kept >= 2*n {
			t.Fatalf("sites = %d after %d hosts: idle sites past their delay were not swept", kept, 2*n)
		}
	})
}

// Heritrix's adaptive rule: the delay after a fetch is DelayFactor times
// how long it took, clamped; a host's own rules override it, and its
// robots policy too.
func TestAdaptiveDelayAndHostRules(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		seven := 7 * time.Second
		g := newGate(t, Config{DelayFactor: 5, MinDelay: 3 * time.Second, MaxDelay: 30 * time.Second,
			Hosts: map[string]HostRules{".fixed.example": {Delay: &seven}, "free.example": {Policy: Ignore}}}, nil2(t))
		for _, c := range []struct {
			host string
			took time.Duration
			want time.Duration
		}{
			{"a.example", 2 * time.Second, 10 * time.Second},       // 5 × 2s
			{"b.example", 100 * time.Millisecond, 3 * time.Second}, // clamped up to MinDelay
			{"c.example", time.Minute, 30 * time.Second},           // clamped down to MaxDelay
			{"www.fixed.example", time.Minute, seven},              // the domain's own delay
		} {
			release, err := g.Acquire(context.Background(), c.host)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(c.took)
			release(time.Now())
			if got := g.Delay(c.host); got != c.want {
				t.Errorf("%s: fetch took %v, delay %v; want %v", c.host, c.took, got, c.want)
			}
		}
		d, err := g.Check(context.Background(), mustURL(t, "http://free.example/x"), time.Now())
		if err != nil || !d.Allowed {
			t.Errorf("a host whose policy is ignore: %+v, %v", d, err)
		}
	})
}

// A server that answers 429 or 503 is slowed down: its delay doubles for
// each busy answer in a row, up to MaxDelay, and falls back as it recovers.
func TestBusySlowsDown(t *testing.T) {
	g := newGate(t, Config{Delay: 500 * time.Millisecond, MaxDelay: 10 * time.Second}, nil2(t))
	const h = "busy.example"
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i, w := range want {
		g.Busy(h, true)
		if got := g.Delay(h); got != w {
			t.Errorf("after %d busy answers: delay %v, want %v", i+1, got, w)
		}
	}
	for i := 0; i < maxBusy; i++ {
		g.Busy(h, false)
	}
	if got := g.Delay(h); got != 500*time.Millisecond {
		t.Errorf("after recovering: delay %v, want w again", got)
	}
	if got := g.Delay("other.example"); got != 500*time.Millisecond {
		t.Errorf("another host: %v", got)
	}
}
