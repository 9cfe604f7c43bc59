package wacz

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

// fullAfter accepts n bytes, then fails as a full disk does.
type fullAfter struct{ n int }

func (f *fullAfter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	k := f.n
	f.n = 0
	return k, syscall.ENOSPC
}

// TestFullDiskNotBlamedOnWARC (from a review): a full disk under the WACZ being written is not a damaged WARC file: the
// error must not tell the archivist that a record of the (sound) WARC file
// is cut short.
func TestFullDiskNotBlamedOnWARC(t *testing.T) {
	dir := crawl(t)
	files := warcs(t, dir)
	_, err := Write(&fullAfter{n: 200}, files, Options{TempDir: t.TempDir()})
	if err == nil {
		t.Fatal("Write to a full disk succeeded")
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("ENOSPC lost from the error: %v", err)
	}
	if strings.Contains(err.Error(), "cut short") {
		t.Errorf("a full disk under the WACZ is reported as a damaged WARC file: %v", err)
	}
}
