//go:build unix

package main

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWACZKilledLeavesNoDebris (from a review): a wacz killed
// part way (SIGKILL: the OOM killer, a job scheduler's limit, a reboot)
// leaves beside its output the partial OUT.wacz.tmp-* (as large as what
// it had copied: on a crawl of terabytes, terabytes), the pages file
// langcrawl-wacz-pages-* and any sorted runs langcrawl-cdxj-run-*. The old
// WACZ is kept, as it should be, but the next wacz, which holds the same
// crawl's lock, wrote anew beside the debris and left it there for good:
// a disk fills from re-runs. The next run now sweeps what a killed run
// left, all of it named after the output.
func TestWACZKilledLeavesNoDebris(t *testing.T) {
	w := startWeb(t)
	out := filepath.Join(t.TempDir(), "job")
	crawlInto(t, w, out, "max_pages: 40\n")
	dest := t.TempDir()
	wz := filepath.Join(dest, "job.wacz")
	if err := packageCrawl(context.Background(), out, wz, "", io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	// A last "WARC file" that is a FIFO: the child copies the real ones,
	// then blocks opening it, its temporary files open: the moment to
	// kill it.
	fifo := filepath.Join(out, warcDir, "zzzz.warc.gz")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=wacz "+out+" -o "+wz)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed once its temporary files are there: the WACZ being written
	// and its folder for the pages and sorted runs (the child blocks at
	// the FIFO soon after).
	deadline := time.Now().Add(2 * time.Minute) // a bound on a hang, not a wait
	for {
		tmps, _ := filepath.Glob(filepath.Join(dest, "job.wacz.tmp-*"))
		dirs, files := 0, 0
		for _, p := range tmps {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				dirs++
			} else if err == nil {
				files++
			}
		}
		if dirs > 0 && files > 0 {
			break
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			t.Fatal("the child wacz made no temporary files in 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	child.Process.Kill() // SIGKILL
	child.Wait()
	if err := os.Remove(fifo); err != nil {
		t.Fatal(err)
	}
	if zr, err := zip.OpenReader(wz); err != nil {
		t.Fatalf("the old WACZ does not read after the kill: %v", err)
	} else {
		zr.Close()
	}

	// The archivist runs wacz again.
	if err := packageCrawl(context.Background(), out, wz, "", io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dest)
	for _, e := range entries {
		if e.Name() != "job.wacz" {
			fi, _ := e.Info()
			t.Errorf("left beside the WACZ after a killed run and a whole one: %s (%d bytes)", e.Name(), fi.Size())
		}
	}
}
