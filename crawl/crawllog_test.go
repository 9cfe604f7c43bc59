package crawl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/frontier"
)

var logT0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func logLine(t *testing.T, l *CrawlLog, u string) {
	t.Helper()
	if err := l.Write(logT0, 1, frontier.Entry{URL: u, Hops: "L"}, outcome{status: 200, bytes: 10}); err != nil {
		t.Fatal(err)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Errorf("%s ends in a cut line: %q", path, data)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestCrawlLogLinesVisible checks that each line is in the file as soon as
// Write returns, while the log is still open.
func TestCrawlLogLinesVisible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i, u := range []string{"http://a.th/1", "http://a.th/2"} {
		logLine(t, l, u)
		lines := readLines(t, path)
		if len(lines) != i+1 || !strings.Contains(lines[i], " "+u+" ") {
			t.Fatalf("after %d writes the open log holds %q", i+1, lines)
		}
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
}

// TestCrawlLogTrimsCutLine reopens a log that a crash left with half a
// line at its end: the half line goes, the whole ones stay.
func TestCrawlLogTrimsCutLine(t *testing.T) {
	for _, tc := range []struct{ name, before, want string }{
		{"cut", "line one\nline two\nline thr", "line one\nline two\n"},
		{"whole", "line one\n", "line one\n"},
		{"only a cut line", "line o", ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "crawl.log")
			if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
				t.Fatal(err)
			}
			l, err := OpenCrawlLog(path)
			if err != nil {
				t.Fatal(err)
			}
			logLine(t, l, "http://a.th/next")
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			got := string(data)
			if !strings.HasPrefix(got, tc.want) || strings.Count(got[len(tc.want):], "\n") != 1 ||
				!strings.Contains(got[len(tc.want):], "http://a.th/next") {
				t.Errorf("log after reopen and one write:\n%q\nwant %q then the new line", got, tc.want)
			}
		})
	}
}

// enospc is a log target whose disk is full after limit bytes.
type enospc struct {
	*os.File
	limit int
}

func (w *enospc) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n, _ := w.File.Write(p[:w.limit])
		w.limit = 0
		return n, &os.PathError{Op: "write", Path: w.Name(), Err: syscall.ENOSPC}
	}
	w.limit -= len(p)
	return w.File.Write(p)
}

// TestCrawlLogWriteError checks that a full disk is an error from Write,
// from every Write after it and from Close, not a silent loss.
func TestCrawlLogWriteError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	f := l.f
	l.w = &enospc{File: f, limit: 100}
	logLine(t, l, "http://a.th/1")
	err1 := l.Write(logT0, 1, frontier.Entry{URL: "http://a.th/2"}, outcome{status: 200})
	err2 := l.Write(logT0, 1, frontier.Entry{URL: "http://a.th/3"}, outcome{status: 200})
	errC := l.Close()
	for i, err := range []error{err1, err2, errC} {
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("call %d after the disk filled: %v, want ENOSPC", i+1, err)
		}
	}
	if lines := readLines(t, path); len(lines) != 1 {
		t.Errorf("log holds %d lines, want the 1 written before the disk filled: %q", len(lines), lines)
	}
}

// TestCrawlLogAdmittedBy checks that a URL's line names the operator's
// scope rules that admitted it, in one column however the rule is written.
func TestCrawlLogAdmittedBy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, e := range []frontier.Entry{
		{URL: "http://a.co.th/x", Hops: "L", Scope: `include:\.th/ x;seed:host:a.co.th`},
		{URL: "http://a.co.th/y", Hops: "L"},
	} {
		if err := l.Write(logT0, 1, e, outcome{status: 200, bytes: 10, annot: []string{"gone"}}); err != nil {
			t.Fatal(err)
		}
	}
	lines := readLines(t, path)
	for i, want := range []string{`gone,admitted:include:\.th/_x;seed:host:a.co.th`, "gone"} {
		cols := strings.Fields(lines[i])
		if len(cols) != 12 || cols[11] != want {
			t.Errorf("line %d: %d columns, annotations %q; want 12 and %q:\n%s", i, len(cols), cols[len(cols)-1], want, lines[i])
		}
	}
}
