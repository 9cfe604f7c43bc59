package crawl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/internal/logfiles"
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

// TestCrawlLogOneColumnEach: a Content-Type with spaces (a server's
// "text/html foo bar") stays one column; before, it made 15 and the
// report read the server's words as annotations.
func TestCrawlLogOneColumnEach(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ct := mediaType("text/html foo\tbar baz")
	if err := l.Write(logT0, 1, frontier.Entry{URL: "http://a.test/"}, outcome{status: 200, bytes: 10, mime: ct}); err != nil {
		t.Fatal(err)
	}
	cols := strings.Fields(readLines(t, path)[0])
	if len(cols) != 12 || cols[6] != "text/html_foo_bar_baz" {
		t.Errorf("%d columns, MIME column %q; want 12 and text/html_foo_bar_baz: %q", len(cols), cols[6], cols)
	}
}

// TestCrawlLogRotates: with RotateAt, the log begins a new file once the
// live one holds that much, at a line's end. Every line is kept, once, in
// the order written, across the segments logfiles.Segments lists; a
// rotated segment is no smaller than the size and no line larger.
func TestCrawlLogRotates(t *testing.T) {
	const max = 1000
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	l.RotateAt(max)
	var want []string
	for i := range 100 {
		u := fmt.Sprintf("http://a.th/%d", i)
		logLine(t, l, u)
		want = append(want, u)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.RotateErr(); err != nil {
		t.Fatal(err)
	}
	segs, err := logfiles.Segments(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) < 5 || segs[len(segs)-1] != path {
		t.Fatalf("segments: %q", segs)
	}
	var got []string
	for i, s := range segs {
		lines := readLines(t, s)
		fi, _ := os.Stat(s)
		if i < len(segs)-1 && (fi.Size() < max || fi.Size() >= max+int64(len(lines[0]))+1) {
			t.Errorf("%s: %d bytes, want %d up to a line more", s, fi.Size(), max)
		}
		for _, line := range lines {
			if f := strings.Fields(line); len(f) == 12 {
				got = append(got, f[3])
			} else {
				t.Errorf("%s: line %q", s, line)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines across the segments:\n%q\nwant\n%q", got, want)
	}
}

// TestCrawlLogRotateFails: a rotation that cannot rename the full file
// loses no line: the log goes on in the same file, rotates no more, and
// says why.
func TestCrawlLogRotateFails(t *testing.T) {
	renameFile = func(string, string) error { return syscall.EACCES }
	t.Cleanup(func() { renameFile = os.Rename })
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	l.RotateAt(500)
	for i := range 20 {
		logLine(t, l, fmt.Sprintf("http://a.th/%d", i))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.RotateErr(); !errors.Is(err, syscall.EACCES) {
		t.Errorf("RotateErr = %v", err)
	}
	if lines := readLines(t, path); len(lines) != 20 {
		t.Errorf("%d lines in %s, want 20", len(lines), path)
	}
}

// TestURLsSinceAcrossSegments: Mend's look back reads on through the
// rotated segments until it meets a line older than asked, so a URL whose
// line went into the segment before is not written again.
func TestURLsSinceAcrossSegments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.log")
	l, err := OpenCrawlLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.RotateAt(300)
	for i := range 12 {
		at := logT0.Add(time.Duration(i) * time.Minute)
		if err := l.Write(at, 1, frontier.Entry{URL: fmt.Sprintf("http://a.th/%d", i), Hops: "L"}, outcome{status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if segs, _ := logfiles.Segments(path); len(segs) < 3 {
		t.Fatalf("segments: %q", segs)
	}
	urls, err := l.urlsSince(logT0.Add(2 * time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	has := func(u string) bool { return slices.Contains(urls, urlHash(u)) }
	if len(urls) != 10 || has("http://a.th/1") || !has("http://a.th/2") || !has("http://a.th/11") {
		t.Errorf("urlsSince = %v", urls)
	}
}
