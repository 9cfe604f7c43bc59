package politeness

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

func TestSteeredHostDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, err := New(Config{Policy: Ignore, Delay: time.Second}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSteered(g)
		ctx := context.Background()
		// gap returns the wait between two fetches of host.
		gap := func(host string) time.Duration {
			rel, err := s.Acquire(ctx, host)
			if err != nil {
				t.Fatal(err)
			}
			rel(time.Time{})
			start := time.Now()
			rel, err = s.Acquire(ctx, host)
			if err != nil {
				t.Fatal(err)
			}
			defer rel(time.Time{})
			return time.Since(start)
		}
		if d := gap("a.test"); d != time.Second {
			t.Errorf("no delay set: waited %v, want the Config's 1s", d)
		}
		if err := s.SetHostDelay(".b.test", 5*time.Second); err != nil {
			t.Fatal(err)
		}
		if d := gap("x.b.test"); d != 5*time.Second {
			t.Errorf("longer delay set: waited %v, want 5s", d)
		}
		if err := s.SetHostDelay("x.b.test", 200*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		if d := gap("x.b.test"); d != 200*time.Millisecond {
			t.Errorf("shorter delay set on the host: waited %v, want 200ms", d)
		}
		if s.Delay("x.b.test") != 200*time.Millisecond || s.Delay("y.b.test") != 5*time.Second || s.Delay("a.test") != time.Second {
			t.Errorf("Delay: %v %v %v", s.Delay("x.b.test"), s.Delay("y.b.test"), s.Delay("a.test"))
		}
		if err := s.ClearHostDelay(".b.test"); err != nil {
			t.Fatal(err)
		}
		if err := s.ClearHostDelay("x.b.test"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		if d := gap("x.b.test"); d != time.Second {
			t.Errorf("delay cleared: waited %v, want the Config's 1s", d)
		}
		if s.SetHostDelay("a.test", -time.Second) == nil || s.SetHostDelay("", time.Second) == nil {
			t.Error("a negative delay or an empty host was taken")
		}
	})
}

// TestSteeredForgetsPastHosts: a delay set on a domain covers every host
// under it; once a host's delay has passed it is forgotten, so a long
// crawl does not keep an entry per host it ever fetched under the delay,
// while a host still inside its delay keeps its wait.
func TestSteeredForgetsPastHosts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, err := New(Config{Policy: Ignore, Delay: time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSteered(g)
		if err := s.SetHostDelay(".test", 2*time.Second); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		rel, err := s.Acquire(ctx, "recent.test")
		if err != nil {
			t.Fatal(err)
		}
		rel(time.Time{}) // ends now: its 2 s are still to come
		for i := range 5 * minSteeredSweep {
			rel, err := s.Acquire(ctx, fmt.Sprintf("h%d.test", i))
			if err != nil {
				t.Fatal(err)
			}
			rel(time.Now().Add(-time.Hour)) // long past any delay
		}
		s.mu.Lock()
		n, kept := len(s.lastEnd), !s.lastEnd["recent.test"].IsZero()
		s.mu.Unlock()
		if n > 2*minSteeredSweep {
			t.Errorf("%d hosts remembered after %d fetched an hour ago, want at most %d", n, 5*minSteeredSweep, 2*minSteeredSweep)
		}
		if !kept {
			t.Fatal("a host inside its delay was forgotten")
		}
		start := time.Now()
		rel, err = s.Acquire(ctx, "recent.test")
		if err != nil {
			t.Fatal(err)
		}
		rel(time.Time{})
		if d := time.Since(start); d < 2*time.Second {
			t.Errorf("recent.test waited %v, want its 2 s", d)
		}
	})
}
