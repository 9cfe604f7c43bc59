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

// TestRemoveLeftoversGlobCharacters: a crawl's folder may be named with
// glob characters. Before, the folder was part of the glob: under
// crawl[2026] nothing was removed, and under crawl* the leftovers of the
// neighbouring crawls crawl1 and crawl2 went too.
func TestRemoveLeftoversGlobCharacters(t *testing.T) {
	root := t.TempDir()
	touch := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, name := range []string{"crawl[2026]", "crawl*", "crawl?"} {
		own := filepath.Join(root, name, "report.md.tmp-123")
		keep := filepath.Join(root, name, "report.md")
		other := filepath.Join(root, "crawl1", "report.md.tmp-456")
		touch(own)
		touch(keep)
		touch(other)
		if err := RemoveLeftovers(filepath.Join(root, name, "report.md")); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if exists(own) {
			t.Errorf("%s: its own leftover %s was not removed", name, own)
		}
		if !exists(keep) {
			t.Errorf("%s: the file itself was removed", name)
		}
		if !exists(other) {
			t.Errorf("%s: a neighbouring folder's leftover %s was removed", name, other)
		}
	}
	if err := RemoveLeftovers(filepath.Join(root, "absent", "x")); err != nil {
		t.Errorf("a folder not there: %v", err)
	}
}
