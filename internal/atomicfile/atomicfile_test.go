package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteAtomicFailure: a write whose fill fails leaves the old file as it
// was and no temporary file.
func TestWriteAtomicFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.cdxj")
	os.WriteFile(path, []byte("old\n"), 0o644)
	boom := errors.New("no space")
	err := Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("new half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("file after a failed write: %q", got)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("temporary file left: %d entries", len(left))
	}
}

// TestCreateAbortCommit: a Pending file is not in place until Commit,
// takes the mode asked, and Abort leaves the old file and nothing else.
func TestCreateAbortCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.csv")
	os.WriteFile(path, []byte("old\n"), 0o644)
	fill := func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }
	p, err := Create(path, 0o640, fill)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("before Commit: %q", got)
	}
	if err := p.Abort(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("after Abort: %d entries", len(left))
	}
	if p, err = Create(path, 0o640, fill); err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if got, _ := os.ReadFile(path); string(got) != "new\n" || err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("after Commit: %q, mode %v (%v)", got, fi.Mode().Perm(), err)
	}
}

// TestRemoveLeftovers: what a killed writer of a path left beside it
// (files and a working folder named "NAME.tmp-*") is removed; the file
// itself, another file's leftovers and a name with glob characters are
// handled as names.
func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "job[1].wacz")
	for _, name := range []string{"job[1].wacz", "job[1].wacz.tmp-1", "job1.wacz.tmp-2", "other.wacz.tmp-3"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "job[1].wacz.tmp-4", "runs"), 0o755)
	if err := RemoveLeftovers(path); err != nil {
		t.Fatal(err)
	}
	var left []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "job1.wacz.tmp-2 job[1].wacz other.wacz.tmp-3" {
		t.Errorf("left: %v", left)
	}
}
