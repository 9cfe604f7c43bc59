package frontier

import (
	"fmt"
	"testing"

	"github.com/syndtr/goleveldb/leveldb"
)

// BenchmarkForget times forget, the start of a re-crawl's new generation,
// on seen sets of 300,000 and 1,200,000 keys: it must grow in proportion
// to the set, not with its square (BENCHMARKS.md).
func BenchmarkForget(b *testing.B) {
	for _, n := range []int{300_000, 1_200_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				q, err := Open(b.TempDir(), nil)
				if err != nil {
					b.Fatal(err)
				}
				batch := new(leveldb.Batch)
				for i := range n {
					batch.Put(hashKey(tSeen, hashURL(fmt.Sprintf("https://h%d.fr/p%d", i%5000, i))), nil)
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
				b.StartTimer()
				q.mu.Lock()
				err = q.forget()
				q.mu.Unlock()
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				q.Close()
			}
		})
	}
}
