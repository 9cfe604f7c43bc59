package bandwidth

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkTryStart measures one admission decision of the Manager
// (TryStart, then Cancel) with 100,000 servers known and 64 downloads in
// flight, the work the fits callback of frontier.NextFit does per
// candidate.
func BenchmarkTryStart(b *testing.B) {
	m, err := New(Config{Limit: 1e9})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	names := make([]string, 100_000)
	for i := range names {
		names[i] = fmt.Sprintf("site%06d.test", i)
		tk, _ := m.TryStart(names[i], now)
		tk.Done(now, 100_000, time.Second)
	}
	for i := range 64 {
		m.TryStart(names[i], now)
	}
	for _, paper := range []bool{false, true} {
		m.cfg.Paper = paper
		b.Run(fmt.Sprintf("paper=%v", paper), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				tk, _ := m.TryStart(names[i%len(names)], now)
				tk.Cancel()
				i += 7919
			}
		})
	}
}
