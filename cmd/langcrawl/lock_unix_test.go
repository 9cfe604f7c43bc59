//go:build unix

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/config"
)

// TestSecondCrawlFailsFast runs a crawl on an --out another crawl holds:
// it must fail at once, name the directory, and write nothing there.
func TestSecondCrawlFailsFast(t *testing.T) {
	out := t.TempDir()
	unlock, err := lockOut(out) // the first crawl
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	profile := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(profile, []byte(fmt.Sprintf("seeds: [\"http://a.test/\"]\nout: %q\nuser_agent: \"t/1 (+https://example.org/t)\"\n", out)), 0o644)
	cfg, err := config.Load(profile, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runCrawl(context.Background(), cfg, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second crawl: %v; want an error naming %s as in use", err, out)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != lockName {
			t.Errorf("second crawl wrote %s into the locked directory", e.Name())
		}
	}
	unlock()
	if again, err := lockOut(out); err != nil {
		t.Errorf("lock not free after unlock: %v", err)
	} else {
		again()
	}
}

// TestWACZRefusesRunningCrawl: `langcrawl wacz` takes the crawl's lock, so
// it refuses a crawl that runs, and it refuses a WARC file still ".open"
// (one a crawl writes, or a killed crawl left), naming it, and writes
// nothing.
func TestWACZRefusesRunningCrawl(t *testing.T) {
	out := t.TempDir()
	warcs := filepath.Join(out, warcDir)
	os.MkdirAll(warcs, 0o755)
	open := filepath.Join(warcs, "langcrawl-20260101000000000-00000-h.warc.gz.open")
	os.WriteFile(open, []byte{0x1f, 0x8b}, 0o644)
	dest := filepath.Join(t.TempDir(), "c.wacz")

	unlock, err := lockOut(out) // the running crawl
	if err != nil {
		t.Fatal(err)
	}
	err = packageCrawl(context.Background(), out, dest, "", io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("wacz of a running crawl: %v; want an error saying %s is in use", err, out)
	}
	// Not the crawl's advice: wacz's --out is the file it writes (a
	// README trial).
	if err != nil && (strings.Contains(err.Error(), "another --out") || !strings.Contains(err.Error(), "stopped crawl")) {
		t.Errorf("wacz of a running crawl: %v; want it to say wacz packages a stopped crawl, not to choose another --out", err)
	}
	unlock()
	err = packageCrawl(context.Background(), out, dest, "", io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), open) || !strings.Contains(err.Error(), "still open") {
		t.Errorf("wacz with an .open file: %v; want an error naming %s as still open", err, open)
	}
	if _, err := os.Stat(dest); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("wacz wrote %s: %v", dest, err)
	}
}

// TestReportOneAtATime: a second `langcrawl report` on the same crawl
// while one writes OUT/report/ is refused at once, naming it, before its
// hours of reading. Two at once could leave a mix of their files that
// one run's INCOMPLETE marker, removed by the other, no longer said (a
// diff review of the thirtieth session).
func TestReportOneAtATime(t *testing.T) {
	out := t.TempDir()
	base := filepath.Join(out, "report")
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockOut(base) // the first report
	if err != nil {
		t.Fatal(err)
	}
	cmd := reportCmd()
	cmd.SetArgs([]string{"--out", out})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	err = cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), "another langcrawl report is writing") {
		t.Errorf("a second report while one writes: %v; want it refused as another report's", err)
	}
	unlock()
	// Once the first is done, the lock is free: the second reads on (and
	// fails here for the crawl's want of WARC files, not for the lock).
	err = cmd.Execute()
	if err != nil && strings.Contains(err.Error(), "another langcrawl report") {
		t.Errorf("after the first report: %v", err)
	}
}
