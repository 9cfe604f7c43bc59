package frontier

import (
	"fmt"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb/storage"
)

// BenchmarkNextFitDecision measures the admission search of NextFit over
// 100,000 ready sites, without the lease: the best-first walk of the top
// maxd sites of the ready heap and a fits callback (here a budget check on
// a map, about what bandwidth.Manager.TryStart does) that refuses all but
// the last candidate. The lease itself is Next's cost, measured by
// BenchmarkNextComplete.
func BenchmarkNextFitDecision(b *testing.B) {
	q, err := Open("", &Options{Storage: storage.NewMemStorage()})
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	const sites = 100_000
	es := make([]Entry, 0, 1000)
	for i := range sites {
		s := fmt.Sprintf("site%06d.test", i)
		for j := range 1 + i%3 {
			es = append(es, Entry{URL: fmt.Sprintf("http://%s/%d", s, j), Site: s})
		}
		if len(es) >= 900 {
			if _, err := q.PushMany(es); err != nil {
				b.Fatal(err)
			}
			es = es[:0]
		}
	}
	if _, err := q.PushMany(es); err != nil {
		b.Fatal(err)
	}
	now := time.Unix(1e9, 0)
	q.mu.Lock()
	if err := q.promote(now.UnixNano()); err != nil {
		b.Fatal(err)
	}
	q.mu.Unlock()
	if n := q.ready.Len(); n != sites {
		b.Fatalf("%d ready sites, want %d", n, sites)
	}
	rate := map[string]float64{}
	for _, maxd := range []int{2, 6, 32} {
		b.Run(fmt.Sprintf("maxd=%d", maxd), func(b *testing.B) {
			b.ReportAllocs()
			var buf [16]*site
			cb, limit := 0.0, 1.0
			for b.Loop() {
				q.mu.Lock()
				cands, _ := q.topReady(now.UnixNano(), maxd, buf[:0])
				for i, s := range cands {
					r, ok := rate[s.name]
					if !ok {
						r = 2
					}
					if i == len(cands)-1 {
						r = 0
					}
					if cb+r <= limit {
						break
					}
				}
				q.mu.Unlock()
			}
		})
	}
}
