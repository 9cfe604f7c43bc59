package archive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRecoverRefusesMidFileDamage (from a review): a .open file damaged in
// its middle (a flipped byte: a bad sector, bit rot), not cut at its end by
// a crash. Recover cut it at the damage, deleting every whole record after
// it, and deleted the file when the damage was in its first record, saying
// only that it closed the file; those records' URLs are done in the
// frontier and were never fetched again. It now refuses (ErrDamaged) and
// leaves the file as it is, or keeps it whole where the damage still reads.
func TestRecoverRefusesMidFileDamage(t *testing.T) {
	for _, compress := range []bool{true, false} {
		for _, hit := range []int{0, 2} { // the warcinfo record; a response
			cfg := testConfig(t)
			cfg.Compress = compress
			w := newWriter(t, cfg)
			const n = 20
			for i := 0; i < n; i++ {
				u := fmt.Sprintf("http://a.th/%d", i)
				if _, err := w.WriteExchange(&Exchange{URL: u, IP: "127.0.0.1", RawRequest: request(u), RawResponse: response("สวัสดี " + u)}); err != nil {
					t.Fatal(err)
				}
			}
			open, _ := filepath.Glob(filepath.Join(cfg.Dir, "*.open"))
			if len(open) != 1 {
				t.Fatalf("%d .open files", len(open))
			}
			recs := readAll(t, open[0])
			b, _ := os.ReadFile(open[0])
			size := len(b)
			at := recs[hit].Offset + 40 // inside the record
			b[at] ^= 0xff
			b[at+1] ^= 0xff
			os.WriteFile(open[0], b, 0o644)

			got, err := Recover(cfg.Dir)
			if err != nil {
				if !errors.Is(err, ErrDamaged) {
					t.Errorf("compress=%v hit=%d: %v, want ErrDamaged", compress, hit, err)
				}
				if st, serr := os.Stat(open[0]); serr != nil || st.Size() != int64(size) {
					t.Errorf("compress=%v hit=%d: refused, but the file was touched: %v", compress, hit, serr)
				}
				continue
			}
			if len(got) == 0 {
				t.Errorf("compress=%v: a byte damaged in record %d of %d: Recover deleted the whole file (%d bytes) without an error", compress, hit, len(recs), size)
				continue
			}
			st, _ := os.Stat(got[0])
			if st.Size() < int64(size)/2 {
				t.Errorf("compress=%v: a byte damaged in record %d of %d: Recover cut the file from %d to %d bytes, dropping every whole record after it, without an error", compress, hit, len(recs), size, st.Size())
			}
		}
	}
}
