package frontier

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkOpenIdleSites opens a frontier holding 300,000 idle site
// records, one for every site that ever answered, as a long crawl's does
// at each start (BENCHMARKS.md).
func BenchmarkOpenIdleSites(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "frontier")
	q, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	putMany(b, q, 300_000, func(i int) ([]byte, []byte) {
		return siteKey(tSite, fmt.Sprintf("host%07d.example.fr", i)), encodeSite(siteRecord{budget: int64(1 + i%50)})
	})
	q.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		q, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		q.Close()
	}
}
