package frontier

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/syndtr/goleveldb/leveldb/journal"
	"github.com/syndtr/goleveldb/leveldb/storage"
)

// TestJournalAnyCutIsCutEnd (from a review): a journal written by
// goleveldb's own writer, flushed after each record as LevelDB does (some
// records over several blocks, some leaving 0 to 8 bytes at a block's end),
// and cut at any byte (a kill between the writes of one batch) never reads
// as damage in the middle: sampled cuts, and every cut within 20 bytes of
// a block boundary.
func TestJournalAnyCutIsCutEnd(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var buf bytes.Buffer
	w := journal.NewWriter(&buf)
	for i := 0; i < 400; i++ {
		n := rng.Intn(300)
		if i%37 == 0 {
			n = 40000 + rng.Intn(30000) // multi-block records
		}
		// sizes that leave 0..8 bytes at a block's end
		if i%11 == 0 {
			left := blockSize - buf.Len()%blockSize
			n = left - chunkHeader - rng.Intn(9)
			if n < 0 {
				n = 0
			}
		}
		rw, err := w.Next()
		if err != nil {
			t.Fatal(err)
		}
		p := make([]byte, n)
		rng.Read(p)
		rw.Write(p)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	full := buf.Bytes()
	check := func(cut int) {
		stor := storage.NewMemStorage()
		fd := storage.FileDesc{Type: storage.TypeJournal, Num: 3}
		f, _ := stor.Create(fd)
		f.Write(full[:cut])
		f.Close()
		found, err := checkJournals(stor, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := damageError(found); err != nil {
			t.Fatalf("cut at %d of %d: %v", cut, len(full), err)
		}
	}
	for cut := 0; cut <= len(full); cut += 1 + rng.Intn(1997) {
		check(cut)
	}
	for b := blockSize; b < len(full); b += blockSize {
		for d := -20; d <= 20; d++ {
			if b+d >= 0 && b+d <= len(full) {
				check(b + d)
			}
		}
	}
	check(len(full))
}
