package archive

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryCut: a WARC file cut at any byte of its last records, as a crash
// or a full disk leaves it, never makes a reader (ReadAll, Each, Scan)
// panic, and an error names the file. gowarc v1.6.0 panics on some such
// cuts (its warc-fields parser reads the first byte of an empty peek when a
// gzip member ends early); the wacz package's cut-file test met one at
// random in CI. Every cut is an error except those that lose no data: one
// between two records, which leaves a shorter valid file; one in the first
// bytes of a record, which gowarc reads as the end of the file (the first
// four of a gzip member, where it peeks five to tell a record starts, or
// the "WARC/1.1\r" of an uncompressed record, before its line feed); and
// one in the end-of-record marker of an uncompressed record (its last four
// bytes), which only Recover treats as a cut. gowarc v1.6.0 did not see a
// cut inside the block or the header of an uncompressed record, and Each
// did not report a gzip member cut after its record's block; all are
// errors now (ErrShortBlock).
func TestEveryCut(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Compress = compress
			w := newWriter(t, cfg)
			ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("hello, world")})
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			whole, err := os.ReadFile(ref.File)
			if err != nil {
				t.Fatal(err)
			}
			last := ref.Offset // the exchange's records are the file's last ones
			ends := recordEnds(t, ref.File)
			path := filepath.Join(t.TempDir(), "cut.warc")
			if compress {
				path += ".gz"
			}
			for n := last + 1; n < int64(len(whole)); n++ {
				if err := os.WriteFile(path, whole[:n], 0o644); err != nil {
					t.Fatal(err)
				}
				readers := map[string]func() error{
					"ReadAll": func() error { _, err := ReadAll(path); return err },
					"Each":    func() error { return Each(path, 1<<16, func(Record) error { return nil }) },
					"Scan": func() error {
						return Scan(bytes.NewReader(whole[:n]), path, 1<<16, func(Record, []byte) error { return nil })
					},
				}
				for name, read := range readers {
					err, panicked := noPanic(read)
					switch {
					case panicked != nil:
						t.Fatalf("%s of the file cut at %d of %d panicked: %v", name, n, len(whole), panicked)
					case err != nil && !strings.Contains(err.Error(), path):
						t.Errorf("%s of the file cut at %d of %d: %v, want the error to name the file", name, n, len(whole), err)
					case err == nil && !ends[n] && !inFirstLine(ends, n, compress) && (compress || !inMarker(ends, n)):
						t.Errorf("%s of the file cut at %d of %d inside a record: no error", name, n, len(whole))
					}
				}
			}
		})
	}
}

// noPanic runs f and returns its error, or what it panicked with.
func noPanic(f func() error) (err error, panicked any) {
	defer func() { panicked = recover() }()
	return f(), nil
}

// recordEnds returns the offsets where the records of the whole WARC file
// at path end (each one where the next starts, and the file's size).
func recordEnds(t *testing.T, path string) map[int64]bool {
	t.Helper()
	recs, err := ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ends := map[int64]bool{st.Size(): true}
	for _, r := range recs[1:] {
		ends[r.Offset] = true
	}
	return ends
}

// inMarker reports whether a cut at n leaves out only some of the
// four-byte end-of-record marker of an uncompressed record that ends in
// ends.
func inMarker(ends map[int64]bool, n int64) bool {
	for k := int64(1); k <= 4; k++ {
		if ends[n+k] {
			return true
		}
	}
	return false
}

// inFirstLine reports whether a cut at n keeps only the start of a record
// that starts in ends, before gowarc can tell that one does: the first
// four bytes of a gzip member, or of the "WARC/1.1\r\n" line of an
// uncompressed record before its line feed.
func inFirstLine(ends map[int64]bool, n int64, compress bool) bool {
	most := int64(len("WARC/1.1\r"))
	if compress {
		most = 4
	}
	for k := int64(1); k <= most; k++ {
		if ends[n-k] {
			return true
		}
	}
	return false
}
