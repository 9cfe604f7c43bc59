//go:build linux

package main

// A report killed while it puts its files in place (inotify tells the
// moment, so Linux only).

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestKillEdgeReportKilledInItsCommit: `langcrawl report` writes every
// file of OUT/report/ beside its name, then renames them into place one
// by one, each rename followed by an fsync of the directory. A SIGKILL
// that lands after the first rename (waited for with inotify, not a
// sleep) leaves report.md and some tables from this run beside the
// others from the run before: a report whose summary does not match its
// own tables. Before, nothing told it was not whole, where README and
// report.WriteFiles said a kill leaves the report before; now
// report/INCOMPLETE says so until a whole run removes it. (from a
// kill-edge review)
func TestKillEdgeReportKilledInItsCommit(t *testing.T) {
	bin := buildLangcrawl(t)
	w := startWeb(t)
	out := t.TempDir()
	crawlInto(t, w, out, "")
	if msg, err := exec.Command(bin, "report", "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("report: %v\n%s", err, msg)
	}
	dir := filepath.Join(out, "report")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") { // not the report's .lock
			names = append(names, e.Name())
		}
	}
	if len(names) < 10 {
		t.Fatalf("the report wrote only %v", names)
	}
	const old = "OLD: written by the report before\n"
	markOld := func() {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var fresh, stale []string
	for try := 1; ; try++ {
		markOld()
		fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO); err != nil {
			t.Fatal(err)
		}
		child := exec.Command(bin, "report", "--out", out)
		child.Stdout, child.Stderr = io.Discard, io.Discard
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- child.Wait() }()
		moved := make(chan struct{})
		go func() {
			// The first file of the report renamed into place (not
			// the marker put before them).
			buf := make([]byte, 4096)
			for {
				n, err := syscall.Read(fd, buf)
				if err != nil || n <= 0 {
					return
				}
				for off := 0; off+syscall.SizeofInotifyEvent <= n; {
					ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
					name := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)]), "\x00")
					off += syscall.SizeofInotifyEvent + int(ev.Len)
					if !strings.Contains(name, ".tmp-") && name != "INCOMPLETE" {
						close(moved)
						return
					}
				}
			}
		}()
		select {
		case <-moved:
			child.Process.Signal(syscall.SIGKILL)
			<-exited
		case err := <-exited:
			t.Fatalf("report ended before any file was put in place: %v", err)
		}
		syscall.Close(fd)
		fresh, stale = nil, nil
		for _, n := range names {
			b, _ := os.ReadFile(filepath.Join(dir, n))
			if string(b) == old {
				stale = append(stale, n)
			} else {
				fresh = append(fresh, n)
			}
		}
		if len(stale) > 0 || try == 10 {
			break
		}
		t.Logf("try %d: the kill came after the last rename; again", try)
	}
	if len(stale) == 0 {
		t.Fatalf("ten kills all came after the report's last rename: the test could not reach the commit")
	}
	marker := filepath.Join(dir, "INCOMPLETE")
	if _, err := os.Stat(marker); len(fresh) > 0 && err != nil {
		t.Errorf("a report killed while putting its files in place left a mix, and no %s to say so: %d files of this run (%s) beside %d of the run before (%s)",
			marker, len(fresh), strings.Join(fresh, ", "), len(stale), strings.Join(stale, ", "))
	}
	// The next report runs whole.
	if msg, err := exec.Command(bin, "report", "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("report after the kill: %v\n%s", err, msg)
	}
	for _, n := range names {
		if b, _ := os.ReadFile(filepath.Join(dir, n)); string(b) == old {
			t.Errorf("%s not rewritten by the next report", n)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("%s is still there after a whole report", marker)
	}
}
