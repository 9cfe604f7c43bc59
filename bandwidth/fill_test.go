package bandwidth

import (
	"testing"
	"time"
)

// TestIdleStartCountedIdle: under the pacer, a server faster than L
// started with nothing in flight is an idle-link start (Stats.Idle: "admitted
// with nothing in flight although B > L − CB would refuse them";
// langcrawl_bandwidth_idle_total: "Downloads admitted with nothing in
// flight"). The FillAt case, placed before the idle case in its first
// version, took every such start (L − 0 ≥ L/2) and counted it as Filled (a
// review): idle_total stayed 0 in every paced crawl.
func TestIdleStartCountedIdle(t *testing.T) {
	m := newManager(t, Config{Limit: 1000, DefaultRate: 200})
	m.pacer.bytes.Add(1) // the crawl's client reads through the pacer
	fast, _ := m.TryStart("fast", wed)
	if err := fast.Done(wed, 5000, time.Second); err != nil { // 5000 B/s, faster than L
		t.Fatal(err)
	}
	m.pauseUntil = time.Time{}
	tk, _ := m.TryStart("fast", wed.Add(time.Minute))
	if tk == nil {
		t.Fatal("a server faster than L refused on an idle link")
	}
	st := m.Stats()
	if st.Idle != 1 || st.Filled != 0 {
		t.Errorf("stats %+v: an idle-link start counted Idle %d, Filled %d; want Idle 1, Filled 0", st, st.Idle, st.Filled)
	}
	// The same with only stalled downloads in flight (README: "counts the
	// link idle when what is in flight holds under 5% of L").
	m2 := newManager(t, Config{Limit: 1000, DefaultRate: 600})
	m2.pacer.bytes.Add(1)
	f, _ := m2.TryStart("fast", wed)
	f.Done(wed, 5000, time.Second)
	m2.pauseUntil = time.Time{}
	drip, _ := m2.TryStart("drip", wed)
	later := wed.Add(stallAfter)
	drip.read.Store(int64(stallAfter.Seconds()))
	if tk, _ := m2.TryStart("fast", later); tk == nil {
		t.Fatal("fast refused beside a stalled download")
	}
	if st := m2.Stats(); st.Idle != 1 {
		t.Errorf("stats %+v: a start beside stalled downloads only not counted Idle (the idle-share rule was never reached)", st)
	}
}
