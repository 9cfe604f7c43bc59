package bandwidth

import (
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestPacerReserve(t *testing.T) {
	p := NewPacer(1000, 100, 100) // 1000 B/s, a bucket of 100 bytes (100 ms)
	t0 := wed
	for _, tc := range []struct {
		at   time.Duration
		n    int
		want time.Duration
	}{
		{0, 100, 0},                      // the bucket holds them
		{0, 100, 100 * time.Millisecond}, // paid for at 200 ms; 100 ms of it may be owed
		{0, 50, 150 * time.Millisecond},  // at 250 ms
		{time.Second, 100, 0},            // idle since: the bucket is full again
		{time.Second, 0, 0},              // nothing read, nothing owed
		{1010 * time.Millisecond, 200, 190 * time.Millisecond},
	} {
		if got := p.Reserve(t0.Add(tc.at), tc.n); got != tc.want {
			t.Errorf("Reserve(%v, %d) = %v, want %v", tc.at, tc.n, got, tc.want)
		}
	}
	if got := p.Backlog(t0.Add(1100 * time.Millisecond)); got != 100*time.Millisecond {
		t.Errorf("Backlog = %v, want 100ms (paid for at 1.3 s, less the bucket)", got)
	}
	if got := NewPacer(1000, 100, 100).Backlog(t0); got != 0 {
		t.Errorf("Backlog of a new pacer = %v, want 0", got)
	}
}

// Readers that always have bytes to read, as from servers faster than the
// pacer, take turns: in any second they read at most the pacer's rate plus
// its bucket plus one read in progress per reader, and together they get
// the whole rate.
func TestPacerBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const (
			rate    = 100_000
			burst   = 1000
			readers = 8
			span    = 5 * time.Second
		)
		p := NewPacer(rate, burst, 1000)
		start := time.Now()
		var mu sync.Mutex
		var at []time.Duration
		var ns []int
		var wg sync.WaitGroup
		for i := range readers {
			wg.Go(func() {
				n := 200 + 100*i // reads of different sizes, at most the quantum
				for time.Since(start) < span {
					p.Wait("s", n)
					mu.Lock()
					at, ns = append(at, time.Since(start)), append(ns, n)
					mu.Unlock()
					p.Done("s", n)
				}
			})
		}
		wg.Wait()
		total, fullest := 0, 0
		for _, n := range ns {
			total += n
		}
		for s := time.Duration(0); s+time.Second <= span; s += 10 * time.Millisecond {
			sum := 0
			for i, a := range at {
				if a >= s && a < s+time.Second {
					sum += ns[i]
				}
			}
			fullest = max(fullest, sum)
		}
		if bound := rate + burst + readers*p.Quantum(); fullest > bound {
			t.Errorf("fullest second %d bytes, above %d", fullest, bound)
		}
		if avg := float64(total) / span.Seconds(); avg < 0.95*rate {
			t.Errorf("average %.0f B/s, want the pacer's %d", avg, rate)
		}
		t.Logf("fullest second %d bytes at a rate of %d (bucket %d); average %.0f B/s", fullest, rate, burst, float64(total)/span.Seconds())
	})
}

// A download held back by the pacer for long is a lower bound of its
// server's rate: it may raise the estimate, never lower it. A short wait
// is taken out of the elapsed time.
func TestPacedMeasurement(t *testing.T) {
	m := newManager(t, Config{Limit: 1e6, DefaultRate: 50_000})
	if m.Pacer() == nil || m.ReadBuffer() != 3906 {
		t.Fatalf("Pacer %v, ReadBuffer %d; want a pacer and L/256", m.Pacer(), m.ReadBuffer())
	}
	run := func(bytes int64, el, wait time.Duration) float64 {
		t.Helper()
		tk, err := m.TryStart("s", wed)
		if err != nil || tk == nil {
			t.Fatalf("TryStart = %v, %v", tk, err)
		}
		m.pacedRead("s", int(bytes))
		m.pacedWait("s", wait)
		if err := tk.Done(wed.Add(el), bytes, el); err != nil {
			t.Fatal(err)
		}
		b, _ := m.Estimate("s", wed)
		return b
	}
	// 100 kB in 1 s of which 0.1 s on the pacer: 100 kB / 0.9 s.
	if got, want := run(100_000, time.Second, 100*time.Millisecond), 100_000/0.9; got < want-1 || got > want+1 {
		t.Errorf("after a short wait B = %.0f, want %.0f", got, want)
	}
	// Held back for 0.8 s of 1 s: 50 kB/s is a lower bound, below B.
	before, _ := m.Estimate("s", wed)
	if got := run(50_000, time.Second, 800*time.Millisecond); got != before {
		t.Errorf("a held-back download lowered B from %.0f to %.0f", before, got)
	}
	if st := m.Stats(); st.Censored != 1 || st.Measured != 1 {
		t.Errorf("stats %+v, want 1 measured and 1 censored", st)
	}
	// Held back, and still faster than B: it raises B.
	if got := run(500_000, time.Second, 800*time.Millisecond); got <= before {
		t.Errorf("a held-back download at 500 kB/s left B at %.0f", got)
	}
	// The paper's manager has no pacer.
	if p := newManager(t, Config{Limit: 1e6, Paper: true}); p.Pacer() != nil || p.ReadBuffer() != 0 {
		t.Errorf("Paper mode: Pacer %v, ReadBuffer %d; want none", p.Pacer(), p.ReadBuffer())
	}
}

// The receive buffer follows L between its bounds unless the operator
// sets it; a negative one is refused.
func TestReadBuffer(t *testing.T) {
	for _, tc := range []struct {
		limit float64
		set   int
		want  int
	}{{1e6, 0, 3906}, {100_000, 0, 2 << 10}, {1e9, 0, 64 << 10}, {1e6, 256 << 10, 256 << 10}} {
		if got := newManager(t, Config{Limit: tc.limit, ReadBuffer: tc.set}).ReadBuffer(); got != tc.want {
			t.Errorf("L %v, ReadBuffer %d: got %d, want %d", tc.limit, tc.set, got, tc.want)
		}
	}
	if _, err := New(Config{Limit: 1e6, ReadBuffer: -1}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("ReadBuffer -1: err %v, want ErrInvalidConfig", err)
	}
}
