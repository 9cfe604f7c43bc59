package bandwidth

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// A Wednesday and a Saturday, in UTC.
var (
	wed = time.Date(2026, 11, 25, 10, 30, 0, 0, time.UTC)
	sat = time.Date(2026, 11, 28, 10, 30, 0, 0, time.UTC)
)

func newManager(t *testing.T, cfg Config) *Manager {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestUpdate(t *testing.T) {
	// Paper's update, k = 0.3, σ = 120 min, a measurement of 1000 B/s at
	// 10:30 on a working day, over estimates of 0.
	var r Rates
	r.update(wed, 1000, 0.3, 120, false)
	for _, tc := range []struct {
		h    int
		want float64
	}{
		{10, 1000 * 0.3 * math.Exp(-30.0*30/14400)},   // 30 min away
		{11, 1000 * 0.3 * math.Exp(-30.0*30/14400)},   // 30 min away
		{9, 1000 * 0.3 * math.Exp(-90.0*90/14400)},    // 90 min
		{13, 1000 * 0.3 * math.Exp(-150.0*150/14400)}, // 150 min
		{0, 1000 * 0.3 * math.Exp(-630.0*630/14400)},  // far: about 0
	} {
		if got := r[24+tc.h]; math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("working-day hour %d = %v, want %v", tc.h, got, tc.want)
		}
	}
	for h := range 24 {
		if r[h] != 0 {
			t.Errorf("weekend hour %d = %v, want 0 (a Wednesday measurement)", h, r[h])
		}
	}
	// Repeated measurements converge on the measured rate.
	for range 100 {
		r.update(wed, 1000, 0.3, 120, false)
	}
	if math.Abs(r[24+10]-1000) > 1e-6 {
		t.Errorf("after 101 updates hour 10 = %v, want 1000", r[24+10])
	}
	// A Saturday measurement updates the weekend values.
	r.update(sat, 500, 0.3, 120, false)
	if r[10] == 0 || r[24+10] != r[24+10] {
		t.Errorf("weekend hour 10 = %v", r[10])
	}
	if slot(sat) != 10 || slot(wed) != 34 {
		t.Errorf("slot(sat) = %d, slot(wed) = %d; want 10, 34", slot(sat), slot(wed))
	}
}

func TestWrapAroundMidnight(t *testing.T) {
	// Measured against the paper: a server whose rate follows the clock,
	// measured every 10 minutes for a week of working days, then asked for
	// its rate at the top of every hour of the next day. The paper's
	// distance (no wrap) leaves hour 0 fed only by measurements after
	// midnight, which pull it towards the morning's rates.
	rate := func(t time.Time) float64 {
		m := float64(t.Hour()*60 + t.Minute())
		return 50_000 + 40_000*math.Cos(2*math.Pi*m/1440)
	}
	errOf := func(wrap bool) (mean, midnight float64) {
		var r Rates
		for i := range r {
			r[i] = 10_000
		}
		start := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) // a Monday
		for t := start; t.Before(start.Add(5 * 24 * time.Hour)); t = t.Add(10 * time.Minute) {
			r.update(t, rate(t), 0.3, 120, wrap)
		}
		for h := range 24 {
			at := start.Add(time.Duration(h) * time.Hour)
			e := math.Abs(r[slot(at)]-rate(at)) / rate(at)
			mean += e / 24
			if h == 0 {
				midnight = e
			}
		}
		return mean, midnight
	}
	pm, p0 := errOf(false)
	wm, w0 := errOf(true)
	t.Logf("relative error of B(h) at the top of hour h: paper mean %.3f, hour 0 %.3f; wrapped mean %.3f, hour 0 %.3f", pm, p0, wm, w0)
	if wm >= pm || w0 >= p0 {
		t.Errorf("wrapping around midnight does not help: mean %.3f >= %.3f or hour 0 %.3f >= %.3f", wm, pm, w0, p0)
	}
}

func TestAdmission(t *testing.T) {
	m := newManager(t, Config{Limit: 1000, DefaultRate: 300})
	now := wed
	take := func(s string) *Ticket {
		t.Helper()
		tk, err := m.TryStart(s, now)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	// Unknown servers at 300 B/s: three fit in 1000, the fourth does not.
	a, b, c := take("a"), take("b"), take("c")
	if a == nil || b == nil || c == nil {
		t.Fatal("the first three downloads were refused")
	}
	if take("d") != nil {
		t.Fatal("CB 900 + 300 > 1000 admitted")
	}
	if got := m.Predicted(); got != 900 {
		t.Errorf("CB = %v, want 900", got)
	}
	// a measured 100 B/s: its first measurement sets all its hours.
	ch := m.Changed()
	if err := a.Done(now, 100, time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	default:
		t.Error("Changed not closed when a download ended")
	}
	if e, _ := m.Estimate("a", sat); e != 100 {
		t.Errorf("B(a) on Saturday = %v, want 100 (first measurement everywhere)", e)
	}
	if take("a") == nil { // 600 + 100
		t.Fatal("a at 100 B/s refused with CB 600")
	}
	if take("e") == nil { // 700 + 300
		t.Fatal("e at 300 B/s refused with CB 700: the rule is ≤ L")
	}
	if take("f") != nil {
		t.Fatal("CB 1000 + 300 admitted")
	}
	a.Done(now, 1, time.Second) // ended twice: no effect
	if got := m.Predicted(); got != 1000 {
		t.Errorf("CB = %v, want 1000", got)
	}
	st := m.Stats()
	if st.Admitted != 5 || st.Refused != 2 || st.InFlight != 4 || st.Measured != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestFastServerDoesNotStarve(t *testing.T) {
	m := newManager(t, Config{Limit: 1000, DefaultRate: 100, StarveAfter: time.Second})
	now := wed
	// Teach the manager that "fast" runs at 5000 B/s, more than L alone.
	// After such a download nothing starts until its bytes, spread at L,
	// would have ended: 5 s after its start.
	tk, _ := m.TryStart("fast", now)
	tk.Done(now, 5000, time.Second)
	if tk, _ := m.TryStart("slow", now.Add(3*time.Second)); tk != nil {
		t.Fatal("a download started 4 s after 5000 bytes went at 5000 B/s, L = 1000")
	}
	now = now.Add(4 * time.Second)

	// Nothing in flight: it starts, alone.
	fast, _ := m.TryStart("fast", now)
	if fast == nil {
		t.Fatal("a server faster than L refused with nothing in flight")
	}
	if tk, _ := m.TryStart("slow", now); tk != nil {
		t.Fatal("a download started beside one above L")
	}
	fast.Cancel()

	// Slow downloads keep the link busy; fast is refused and held for.
	// (The refusal of "slow" above lapsed: nobody asked for it since.)
	t1 := now.Add(time.Second)
	var slow []*Ticket
	for i := range 5 {
		tk, _ := m.TryStart(string(rune('a'+i)), t1)
		if tk == nil {
			t.Fatalf("slow download %d refused", i)
		}
		slow = append(slow, tk)
	}
	if tk, _ := m.TryStart("fast", t1); tk != nil {
		t.Fatal("fast admitted with CB > 0")
	}
	t2 := t1.Add(200 * time.Millisecond)
	if tk, _ := m.TryStart("fast", t2); tk != nil {
		t.Fatal("fast admitted with CB > 0")
	}
	if tk, _ := m.TryStart("x", t2); tk == nil {
		t.Fatal("x refused before fast was refused for StarveAfter")
	} else {
		slow = append(slow, tk)
	}
	for t3 := t2; t3.Sub(t1) <= time.Second; t3 = t3.Add(200 * time.Millisecond) {
		if tk, _ := m.TryStart("fast", t3); tk != nil {
			t.Fatal("fast admitted with CB > 0")
		}
	}
	t4 := t1.Add(time.Second)
	if tk, _ := m.TryStart("y", t4); tk != nil {
		t.Fatal("y admitted while fast is held for")
	}
	for _, tk := range slow {
		tk.Cancel()
	}
	fast, _ = m.TryStart("fast", t4)
	if fast == nil {
		t.Fatal("fast refused once the link drained")
	}
	fast.Cancel()
	if tk, _ := m.TryStart("y", t4); tk == nil {
		t.Fatal("y refused after fast started and ended")
	}
	if st := m.Stats(); st.Held != 1 || st.Idle != 2 {
		t.Errorf("stats %+v: want 1 held, 2 idle starts", st)
	}

	// A held server that is no longer asked for is let go.
	m2 := newManager(t, Config{Limit: 1000, DefaultRate: 600, StarveAfter: time.Second})
	a, _ := m2.TryStart("a", now)
	m2.TryStart("gone", now) // refused, becomes the held one
	_ = a
	if tk, _ := m2.TryStart("b", now.Add(100*time.Millisecond)); tk != nil {
		t.Fatal("b admitted with CB 600 + 600 > 1000")
	}
	a.Cancel()
	if tk, _ := m2.TryStart("b", now.Add(3*time.Second)); tk == nil {
		t.Fatal("b refused: the manager still holds for a server nobody asks for")
	}
}

// TestOldestRefusedHeldFor: a server refused all along is held for once it
// has been refused for StarveAfter, even when another server is refused
// before it after each hold ends. Held for the first server refused, as
// before, "big" here was never held for: each round's "m" was refused
// first and started when one small download ended, and big waited for ever
// (a CI run of TestLoopback: the host faster than L not served in 6 s).
func TestOldestRefusedHeldFor(t *testing.T) {
	m := newManager(t, Config{Limit: 1000, DefaultRate: 100, StarveAfter: time.Second})
	now := wed
	// Teach the manager that big runs at 600 B/s.
	tk, _ := m.TryStart("big", now)
	tk.Done(now, 600, time.Second)
	if b, _ := m.Estimate("big", now); b != 600 {
		t.Fatalf("B(big) = %v, want 600", b)
	}
	// Ten small downloads fill the link.
	var small []*Ticket
	for i := range 10 {
		tk, _ := m.TryStart(fmt.Sprintf("s%d", i), now)
		if tk == nil {
			t.Fatalf("small download %d refused", i)
		}
		small = append(small, tk)
	}
	// Every 200 ms: a new server m<i> is refused, then big; one small
	// download ends and m<i> takes its place.
	var bigStarted time.Time
	for i := range 20 {
		at := now.Add(time.Duration(i) * 200 * time.Millisecond)
		mi := fmt.Sprintf("m%d", i)
		if tk, _ := m.TryStart(mi, at); tk != nil {
			small = append(small, tk)
		}
		if tk, _ := m.TryStart("big", at); tk != nil {
			bigStarted = at
			tk.Cancel()
			break
		}
		small[0].Cancel()
		small = small[1:]
		if tk, _ := m.TryStart(mi, at); tk != nil {
			small = append(small, tk)
		} else if at.Sub(now) < time.Second {
			t.Fatalf("%s refused at %v, before big was refused for StarveAfter", mi, at.Sub(now))
		}
	}
	if bigStarted.IsZero() {
		t.Fatalf("big refused for 4 s while others started (stats %+v)", m.Stats())
	}
	// Held for from 1 s; the link drains one download every 200 ms, and big
	// fits once at most four small ones are left.
	if d := bigStarted.Sub(now); d < time.Second || d > 3*time.Second {
		t.Errorf("big started after %v, want between StarveAfter and 3 s", d)
	}
	if st := m.Stats(); st.Held == 0 {
		t.Errorf("stats %+v: no download refused while big was held for", st)
	}
}

// TestPauseKeepsWaits: the pause after a download faster than L refuses
// every candidate, and a server that keeps asking through it is still
// asked for: its wait goes on counting, and it is held for once it has
// waited StarveAfter. A review found the pause's refusals leaving such a
// server's wait unrecorded, so that after a pause longer than a quarter of
// StarveAfter it was let go as no longer asked for and a newcomer started
// before it.
func TestPauseKeepsWaits(t *testing.T) {
	m := newManager(t, Config{Limit: 1000, DefaultRate: 100, StarveAfter: time.Second})
	tk, _ := m.TryStart("big", wed)
	tk.Done(wed, 600, time.Second) // B(big) = 600
	for i := range 7 {
		if tk, _ := m.TryStart(fmt.Sprintf("s%d", i), wed); tk == nil {
			t.Fatalf("small download %d refused", i)
		}
	}
	fast, _ := m.TryStart("fast", wed)
	if fast == nil {
		t.Fatal("fast refused")
	}
	at := wed
	for ; at.Sub(wed) < 1200*time.Millisecond; at = at.Add(100 * time.Millisecond) {
		if tk, _ := m.TryStart("big", at); tk != nil {
			t.Fatalf("big started at %v with CB 800 + 600 > 1000", at.Sub(wed))
		}
	}
	// 2,600 bytes in 1.2 s, faster than L: nothing starts until 2.6 s.
	fast.Done(at, 2600, 1200*time.Millisecond)
	for ; at.Sub(wed) < 2600*time.Millisecond; at = at.Add(100 * time.Millisecond) {
		m.TryStart("big", at)
	}
	if tk, _ := m.TryStart("newcomer", at); tk != nil {
		t.Errorf("a newcomer started at %v while big, asked for all along and refused for 2.6 s, was not held for", at.Sub(wed))
	}
}

func TestPick(t *testing.T) {
	m := newManager(t, Config{Limit: 1000, DefaultRate: 400})
	p := m.Pick(wed)
	if !p.Fits("a") || !p.Fits("b") {
		t.Fatal("refused")
	}
	// Fits("b") cancelled a's reservation.
	if got := m.Predicted(); got != 400 {
		t.Errorf("CB = %v, want 400", got)
	}
	tk, err := p.Take("b")
	if err != nil || tk == nil || tk.Server() != "b" {
		t.Fatalf("Take(b) = %v, %v", tk, err)
	}
	p = m.Pick(wed)
	p.Fits("c")
	if tk, _ := p.Take(""); tk != nil {
		t.Error("Take(\"\") returned a ticket")
	}
	if got := m.Predicted(); got != 400 {
		t.Errorf("CB = %v, want 400 after Take(\"\")", got)
	}
}

type failStore struct{}

var errDisk = errors.New("disk on fire")

func (failStore) Get(string) ([Slots]float64, bool, error) { return [Slots]float64{}, false, errDisk }
func (failStore) Put(string, [Slots]float64) error         { return errDisk }

func TestStoreErrors(t *testing.T) {
	m := newManager(t, Config{Limit: 1000, Store: failStore{}})
	tk, err := m.TryStart("a", wed)
	if !errors.Is(err, errDisk) || tk == nil {
		t.Errorf("TryStart = %v, %v; want a ticket at the default rate and the store error", tk, err)
	}
	if err := tk.Done(wed, 10, time.Second); !errors.Is(err, errDisk) {
		t.Errorf("Done: err = %v, want the store error", err)
	}
	if m.Predicted() != 0 {
		t.Error("a failed Done kept its reservation")
	}
}

func TestPersistence(t *testing.T) {
	st := NewMemStore()
	m := newManager(t, Config{Limit: 1e6, Store: st})
	tk, _ := m.TryStart("a", wed)
	tk.Done(wed, 200_000, time.Second)
	m2 := newManager(t, Config{Limit: 1e6, Store: st})
	if e, _ := m2.Estimate("a", wed); e != 200_000 {
		t.Errorf("estimate in a new manager = %v, want 200000", e)
	}
}

// TestEstimatesBounded: a crawl over more servers than the Manager keeps
// in memory holds at most 2 × cacheHalf of them there, and the estimate
// of a server gone from memory comes back from the store, not as the
// default.
func TestEstimatesBounded(t *testing.T) {
	st := NewMemStore()
	m := newManager(t, Config{Limit: 1e6, Store: st})
	n := 2*cacheHalf + 1000
	for i := range n {
		tk, err := m.TryStart(fmt.Sprintf("s%d.test", i), wed)
		if err != nil || tk == nil {
			t.Fatalf("TryStart %d: %v, %v", i, tk, err)
		}
		if err := tk.Done(wed, int64(1000+i), time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if held := m.rates.Len(); held > 2*cacheHalf {
		t.Errorf("%d servers' estimates in memory after %d servers; want at most %d", held, n, 2*cacheHalf)
	}
	if _, ok := m.rates.Peek("s0.test"); ok {
		t.Fatal("the first server is still in memory: the test does not reach the store")
	}
	if e, err := m.Estimate("s0.test", wed); err != nil || e != 1000 {
		t.Errorf("estimate of s0.test, gone from memory = %v, %v; want 1000 from the store", e, err)
	}
}

func TestConfig(t *testing.T) {
	_, err := New(Config{Limit: -1, SearchDepth: -1, DefaultRate: -1, K: 2, Sigma: -1, StarveAfter: -1})
	if !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("err = %v", err)
	}
	for _, f := range []string{"Limit", "SearchDepth", "DefaultRate", "K", "Sigma", "StarveAfter"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error does not name %s: %v", f, err)
		}
	}
	m := newManager(t, Config{Limit: 1})
	if m.SearchDepth() != 6 || m.cfg.K != 0.3 || m.cfg.Sigma != 2*time.Hour {
		t.Errorf("defaults %+v", m.cfg)
	}
}

func TestTrace(t *testing.T) {
	m := newManager(t, Config{Limit: 1000})
	var buf bytes.Buffer
	tr := NewTrace(&buf)
	tk, _ := m.TryStart("a", wed)
	r := tk.Reader(strings.NewReader(strings.Repeat("x", 1500)))
	if err := tr.Write(m.Sample(wed)); err != nil {
		t.Fatal(err)
	}
	buf2 := make([]byte, 4096)
	n, _ := r.Read(buf2)
	s := m.Sample(wed.Add(1500 * time.Millisecond))
	if n != 1500 || s.Measured != 1000 || s.Predicted != DefaultRate || s.Limit != 1000 {
		t.Errorf("sample %+v after reading %d bytes in 1.5 s", s, n)
	}
	tr.Write(s)
	got, err := ReadTrace(&buf)
	if err != nil || len(got) != 2 || got[1].Measured != 1000 || !got[1].Time.Equal(s.Time) {
		t.Fatalf("ReadTrace = %+v, %v", got, err)
	}
	var svg bytes.Buffer
	if err := Plot(&svg, "trace", got); err != nil || !strings.Contains(svg.String(), "<svg") {
		t.Errorf("Plot: %v", err)
	}
	if _, err := ReadTrace(strings.NewReader("time,p,m,l\nyesterday,1,2,3\n")); !errors.Is(err, ErrTrace) {
		t.Errorf("bad line: err = %v", err)
	}
}

// TestReadTraceResumed: a trace appended by several runs holds a header
// per run, and a crash may leave a line cut short; every good sample is
// read, and the cut line is reported, not the end of the trace.
func TestReadTraceResumed(t *testing.T) {
	in := "time,predicted_Bps,measured_Bps,limit_Bps\n" +
		"2026-01-01T00:00:01Z,1,2,3\n" +
		"2026-01-01T00:00:02Z,1,2\n" + // cut by a crash
		"time,predicted_Bps,measured_Bps,limit_Bps\n" +
		"2026-01-01T01:00:01Z,4,5,6\n" +
		"2026-01-01T01:00:02Z,7,8,9\n"
	got, err := ReadTrace(strings.NewReader(in))
	if len(got) != 3 || got[2].Measured != 8 {
		t.Errorf("ReadTrace = %+v, want the three whole samples", got)
	}
	if !errors.Is(err, ErrTrace) || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "1 unreadable") {
		t.Errorf("err = %v, want ErrTrace naming line 3", err)
	}
	if got, err := ReadTrace(strings.NewReader(in[:strings.Index(in, "2026-01-01T00:00:02Z")] + in[strings.LastIndex(in, "time,"):])); err != nil || len(got) != 3 {
		t.Errorf("two runs, no cut line: %d samples, %v", len(got), err)
	}
}

// TestStalledDownloadGivesBack: a download that has run stallAfter slower
// than its reservation (a server that drips a byte a second, or falls
// silent after its headers) counts in CB at the rate it read, so other
// downloads start; before stallAfter, and in Paper mode, it keeps its
// reservation. With the pacer carrying the bytes, time waited on the pacer
// is not counted against it: one held back by the limit keeps its share.
func TestStalledDownloadGivesBack(t *testing.T) {
	for _, paced := range []bool{false, true} {
		m := newManager(t, Config{Limit: 1000, DefaultRate: 300})
		if paced {
			m.pacer.bytes.Add(1) // the crawl's client reads through the pacer
		}
		now := wed
		var tks []*Ticket
		for _, s := range []string{"drip", "b", "c"} {
			tk, _ := m.TryStart(s, now)
			if tk == nil {
				t.Fatalf("paced %v: %s refused", paced, s)
			}
			tks = append(tks, tk)
		}
		if tk, _ := m.TryStart("d", now.Add(stallAfter/2)); tk != nil {
			t.Fatalf("paced %v: d admitted beside 900 B/s reserved, before stallAfter", paced)
		}
		later := now.Add(stallAfter)
		secs := stallAfter.Seconds()
		tks[0].read.Store(int64(secs)) // a byte a second
		tks[1].read.Store(int64(300 * secs))
		tks[2].read.Store(int64(30 * secs)) // held back by the pacer 90% of the time, if paced
		if paced {
			tks[2].waited.Store(int64(stallAfter * 9 / 10))
		}
		d, _ := m.TryStart("d", later)
		if d == nil {
			t.Errorf("paced %v: d refused after the drip gave back its reservation", paced)
		}
		if got := m.Sample(later).Predicted; paced && got > 1000 {
			t.Errorf("paced %v: predicted %v after the drip gave back, want at most L", paced, got)
		}
		if paced {
			// c read 30 B/s over 0.3 s of its own: 300 B/s, its whole share.
			if s := tks[2].share(later); s != 300 {
				t.Errorf("a download held back by the pacer has share %v, want its reservation 300", s)
			}
		}
	}
	m := newManager(t, Config{Limit: 1000, DefaultRate: 300, Paper: true})
	for _, s := range []string{"a", "b", "c"} {
		m.TryStart(s, wed)
	}
	if tk, _ := m.TryStart("d", wed.Add(time.Hour)); tk != nil {
		t.Error("Paper mode: d admitted beside 900 B/s reserved")
	}
}

// TestFastServerBesideStalled: a server faster than L, which runs only when
// the link is idle, starts beside downloads that gave back their share
// (stalled), when the pacer carries the bytes; before, it waited for them
// to time out (a re-run of a failure trial). Not beside one still running.
func TestFastServerBesideStalled(t *testing.T) {
	for _, paced := range []bool{true, false} {
		testFastBesideStalled(t, paced)
	}
}

// testFastBesideStalled: paced false is a crawl's start, the pacer there
// but no byte carried yet (a review found the rule waiting for one).
func testFastBesideStalled(t *testing.T, paced bool) {
	// The dripping server reserves more than half of L, so that the fast
	// one does not start beside it while it still holds its share
	// (TestFastServerBesideSlow: with half of L free it would).
	m := newManager(t, Config{Limit: 1000, DefaultRate: 600})
	if paced {
		m.pacer.bytes.Add(1) // the crawl's client reads through the pacer
	}
	now := wed
	fast, _ := m.TryStart("fast", now)
	if err := fast.Done(now, 5000, time.Second); err != nil { // 5000 B/s: faster than L
		t.Fatal(err)
	}
	m.pauseUntil = time.Time{} // the pause after a fast download, not under test
	drip, _ := m.TryStart("drip", now)
	if drip == nil {
		t.Fatal("drip refused on an idle link")
	}
	if tk, _ := m.TryStart("fast", now.Add(stallAfter/2)); tk != nil {
		t.Fatal("the fast server started beside a download still holding its share")
	}
	later := now.Add(stallAfter)
	drip.read.Store(int64(stallAfter.Seconds())) // a byte a second
	if tk, _ := m.TryStart("fast", later); tk == nil {
		t.Errorf("paced %v: the fast server refused beside a stalled download only", paced)
	}
}

// TestFastServerBesideSlow: under the pacer, a server faster than L starts
// beside slow downloads when at least half of L is free (Config.FillAt),
// and reserves the free part, so that nothing else starts beside the two; before, it waited
// for the link to be idle (a failure trial: a 40 KB/s server's files and a
// fast server's ran strictly one after the other, 44% of a 200 KB/s limit).
// Without bytes through the pacer (a client that does not pace) it still
// waits, as TestFastServerDoesNotStarve has it.
func TestFastServerBesideSlow(t *testing.T) {
	for _, paced := range []bool{true, false} {
		m := newManager(t, Config{Limit: 1000, DefaultRate: 200})
		if paced {
			m.pacer.bytes.Add(1)
		}
		now := wed
		fast, _ := m.TryStart("fast", now)
		if err := fast.Done(now, 5000, time.Second); err != nil { // 5000 B/s: faster than L
			t.Fatal(err)
		}
		m.pauseUntil = time.Time{} // the pause after an unpaced fast download, not under test
		a, _ := m.TryStart("a", now)
		b, _ := m.TryStart("b", now)
		c, _ := m.TryStart("c", now)
		if a == nil || b == nil || c == nil {
			t.Fatal("slow downloads refused on an idle link")
		}
		// 600 of 1000 reserved: less than half of L is free.
		if tk, _ := m.TryStart("fast", now); tk != nil {
			t.Fatalf("paced %v: the fast server started with 400 of 1000 free", paced)
		}
		c.Cancel()
		// 400 reserved, 600 free.
		tk, _ := m.TryStart("fast", now)
		if !paced {
			if tk != nil {
				t.Fatal("unpaced: the fast server started beside downloads in flight")
			}
			continue
		}
		if tk == nil {
			t.Fatal("the fast server refused with 600 of 1000 free under the pacer")
		}
		if got := tk.Rate(); got != 600 {
			t.Errorf("the fast server reserved %v, want the free 600", got)
		}
		if d, _ := m.TryStart("d", now); d != nil {
			t.Error("a download started beside the fast one, whose share is all that was free")
		}
		a.Cancel()
		// a's 200 are free again: a server that fits starts.
		if d, _ := m.TryStart("d", now); d == nil {
			t.Error("a slow download refused after one ended beside the fast one")
		}
		if st := m.Stats(); st.Filled != 1 {
			t.Errorf("stats %+v: want one start in the free part", st)
		}
		_ = b
	}

	// The same for a server slower than L whose estimate is larger than
	// what is free: the paper's manager leaves the free part idle until it
	// fits (a loopback measurement: 38% of L, TestLoopbackFill).
	m := newManager(t, Config{Limit: 1000, DefaultRate: 200})
	m.pacer.bytes.Add(1)
	med, _ := m.TryStart("medium", wed)
	if err := med.Done(wed, 800, time.Second); err != nil { // 800 B/s
		t.Fatal(err)
	}
	a, _ := m.TryStart("a", wed)
	b, _ := m.TryStart("b", wed)
	if tk, _ := m.TryStart("medium", wed); tk == nil {
		t.Fatal("800 B/s refused with 600 of 1000 free under the pacer")
	} else if tk.Rate() != 600 {
		t.Errorf("it reserved %v, want the free 600", tk.Rate())
	}
	a.Cancel()
	b.Cancel()
	off := newManager(t, Config{Limit: 1000, DefaultRate: 200, FillAt: -1})
	off.pacer.bytes.Add(1)
	med, _ = off.TryStart("medium", wed)
	med.Done(wed, 800, time.Second)
	off.TryStart("a", wed)
	off.TryStart("b", wed)
	if tk, _ := off.TryStart("medium", wed); tk != nil {
		t.Error("FillAt off: 800 B/s admitted beside 400 reserved of 1000")
	}
}
