package frontier

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/syndtr/goleveldb/leveldb"
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
	batch := new(leveldb.Batch)
	for i := range 300_000 {
		batch.Put(siteKey(tSite, fmt.Sprintf("host%07d.example.fr", i)), encodeSite(siteRecord{budget: int64(1 + i%50)}))
		if batch.Len() == 10_000 {
			if err := q.db.Write(batch, nil); err != nil {
				b.Fatal(err)
			}
			batch.Reset()
		}
	}
	if err := q.db.Write(batch, nil); err != nil {
		b.Fatal(err)
	}
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
