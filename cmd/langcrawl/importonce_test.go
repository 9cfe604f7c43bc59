package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/frontier"
)

// TestImportOnce: a dedup index is imported at the first start, skipped at
// a resume while it is unchanged, imported again once it changes, and
// imported again after a failed import; the marks survive a reopen.
func TestImportOnce(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "old.cdxj")
	if err := os.WriteFile(idx, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loads := 0
	load := func(string) (int, error) { loads++; return 7, nil }
	open := func() *frontier.Queue {
		q, err := frontier.Open(filepath.Join(dir, "frontier"), nil)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	q := open()
	if n, done, err := importOnce(q, idx, load); n != 7 || done || err != nil || loads != 1 {
		t.Fatalf("first start: %d, %v, %v after %d loads", n, done, err, loads)
	}
	q.Close()
	q = open() // a resume
	if n, done, err := importOnce(q, idx, load); n != 0 || !done || err != nil || loads != 1 {
		t.Errorf("resume, unchanged: %d, %v, %v after %d loads; want it skipped", n, done, err, loads)
	}
	later := time.Now().Add(time.Hour)
	if err := os.WriteFile(idx, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(idx, later, later)
	if _, done, err := importOnce(q, idx, load); done || err != nil || loads != 2 {
		t.Errorf("changed file: done %v, %v after %d loads; want it imported again", done, err, loads)
	}
	other := filepath.Join(dir, "other.cdxj")
	os.WriteFile(other, []byte("x\n"), 0o644)
	if _, _, err := importOnce(q, other, func(string) (int, error) { return 0, os.ErrInvalid }); err == nil {
		t.Error("a failed import returned no error")
	}
	if _, done, _ := importOnce(q, other, load); done || loads != 3 {
		t.Errorf("after a failed import: done %v after %d loads; want it imported", done, loads)
	}
	if _, _, err := importOnce(q, filepath.Join(dir, "missing.cdxj"), load); err == nil {
		t.Error("a missing index gave no error")
	}
	q.Close()
}
