//go:build linux

package report

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestDiffRev30TwoReportsOneMarker: two `langcrawl report` runs on one
// OUT (nothing locks it: report reads a running crawl too) share
// report/INCOMPLETE. The one that ends first removes it; the other, its
// files all put in place, then fails on its own os.Remove ("no such
// file"), an error for a report that was written whole. Here the other
// run's removal is made by hand the moment the marker is put in place
// (inotify, no sleep).
// (from a diff review of the thirtieth session)
func TestDiffRev30TwoReportsOneMarker(t *testing.T) {
	out := buildCrawlDir(t, thaiProfile)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, FileIncomplete)
	for try := 1; try <= 20; try++ {
		fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO); err != nil {
			t.Fatal(err)
		}
		removed := make(chan error, 1)
		go func() {
			buf := make([]byte, 4096)
			for {
				n, err := syscall.Read(fd, buf)
				if err != nil || n <= 0 {
					removed <- errors.New("inotify closed")
					return
				}
				for off := 0; off+syscall.SizeofInotifyEvent <= n; {
					ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
					name := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)]), "\x00")
					off += syscall.SizeofInotifyEvent + int(ev.Len)
					if name == FileIncomplete {
						removed <- os.Remove(marker) // the other run, done
						return
					}
				}
			}
		}()
		werr := r.WriteFiles(dir)
		syscall.Close(fd)
		rerr := <-removed
		if rerr != nil {
			if errors.Is(rerr, fs.ErrNotExist) {
				continue // this run removed it first; again
			}
			t.Fatal(rerr)
		}
		if werr != nil {
			t.Fatalf("a report whose every file was put in place failed because another run removed the marker first: %v", werr)
		}
		for name := range reportFiles {
			if name == FileBandwidthSVG {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		return
	}
	t.Fatal("twenty runs all removed their marker before the other could: the test could not reach the race")
}
