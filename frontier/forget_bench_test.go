package frontier

import (
	"fmt"
	"testing"

	"github.com/syndtr/goleveldb/leveldb"
)

// putMany writes n records, record(i) each, straight into q's database,
// 10,000 to a batch.
func putMany(b *testing.B, q *Queue, n int, record func(i int) (key, value []byte)) {
	b.Helper()
	batch := new(leveldb.Batch)
	for i := range n {
		batch.Put(record(i))
		if batch.Len() == 10_000 || i == n-1 {
			if err := q.db.Write(batch, nil); err != nil {
				b.Fatal(err)
			}
			batch.Reset()
		}
	}
}

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
				putMany(b, q, n, func(i int) ([]byte, []byte) {
					return hashKey(tSeen, hashURL(fmt.Sprintf("https://h%d.fr/p%d", i%5000, i))), nil
				})
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
