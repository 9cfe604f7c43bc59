package frontier

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/syndtr/goleveldb/leveldb/storage"
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

// BenchmarkOpenFullJournal opens a frontier whose journal holds 15 MiB of
// writes not yet in a table, as after a kill late in a memtable: LevelDB
// replays it, and Open first reads it through (checkJournals). The
// "check" case is that read alone, the cost the check adds to the start.
func BenchmarkOpenFullJournal(b *testing.B) {
	src := filepath.Join(b.TempDir(), "frontier")
	q, err := Open(src, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := q.Push(Entry{URL: fmt.Sprintf("http://host%05d.example.fr/page/%07d.html", i%5000, i), Site: fmt.Sprintf("host%05d.example.fr", i%5000)}); err != nil {
			b.Fatal(err)
		}
		if i%1000 == 0 {
			if fi, err := os.Stat(filepath.Join(src, "000001.log")); err == nil && fi.Size() > 15<<20 {
				break
			}
		}
	}
	q.Close()
	copyDir := func(dst string) {
		ents, err := os.ReadDir(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("check", func(b *testing.B) {
		stor, err := storage.OpenFile(src, true)
		if err != nil {
			b.Fatal(err)
		}
		defer stor.Close()
		b.SetBytes(15 << 20)
		for range b.N {
			if found, err := checkJournals(stor, src); err != nil || len(found) != 0 {
				b.Fatal(found, err)
			}
		}
	})
	b.Run("open", func(b *testing.B) {
		for i := range b.N {
			b.StopTimer()
			dst := filepath.Join(b.TempDir(), fmt.Sprint(i))
			copyDir(dst)
			b.StartTimer()
			q, err := Open(dst, nil)
			if err != nil {
				b.Fatal(err)
			}
			q.Close()
		}
	})
}
