package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/langcrawl/langcrawl/internal/atomicfile"
)

// TestReportFullDiskKeepsOldReport (from a review): report run again when
// the disk has filled leaves the report it wrote before as it was, every
// file of it, and no temporary file. WriteFiles emptied each file
// (os.Create) and wrote on: a full disk left servers.csv and report.json
// cut short, neither the old files nor the new (found on a 1 MiB tmpfs).
// Here the disk fills while servers.csv is written, after some bytes.
func TestReportFullDiskKeepsOldReport(t *testing.T) {
	out := buildCrawlDir(t, thaiProfile)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), Dir)
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	old := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		old[e.Name()] = b
	}
	// The crawl has grown: the new report differs in every table.
	for i := range 3000 {
		r.Servers = append(r.Servers, Server{Host: fmt.Sprintf("host-%05d.example.th", i), Pages: i, Relevant: i / 2, Status: "relevant"})
	}
	createFile = func(path string, mode os.FileMode, fill func(io.Writer) error) (*atomicfile.Pending, error) {
		if filepath.Base(path) != FileServers {
			return atomicfile.Create(path, mode, fill)
		}
		return atomicfile.Create(path, mode, func(w io.Writer) error {
			return fill(&fullAfter{w: w, room: 4096})
		})
	}
	t.Cleanup(func() { createFile = atomicfile.Create })

	err = r.WriteFiles(dir)
	if err == nil || !strings.Contains(err.Error(), FileServers) {
		t.Fatalf("WriteFiles on a full disk: %v, want an error naming %s", err, FileServers)
	}
	after, _ := os.ReadDir(dir)
	if len(after) != len(old) {
		t.Errorf("%d files after the failed write, %d before (a temporary file left?)", len(after), len(old))
	}
	for name, before := range old {
		now, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(now, before) {
			t.Errorf("%s changed by the failed write (%d bytes, %d before; %v)", name, len(now), len(before), err)
		}
	}
}

// fullAfter is a writer on a disk with room bytes left.
type fullAfter struct {
	w    io.Writer
	room int
}

func (f *fullAfter) Write(p []byte) (int, error) {
	if len(p) > f.room {
		n, _ := f.w.Write(p[:f.room])
		f.room = 0
		return n, syscall.ENOSPC
	}
	f.room -= len(p)
	return f.w.Write(p)
}

// TestReportSweepsKilledRun: a report killed while writing leaves its
// files' temporary copies ("NAME.tmp-*"); the next report removes them,
// and leaves other files alone.
func TestReportSweepsKilledRun(t *testing.T) {
	r, err := Build(buildCrawlDir(t, thaiProfile))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileServers + ".tmp-123", FileJSON + ".tmp-9", "notes.txt.tmp-1"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if len(left) != 1 || filepath.Base(left[0]) != "notes.txt.tmp-1" {
		t.Errorf("temporary files after a whole report: %v, want only the one not the report's", left)
	}
}
