package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// meterEvery is how often fileMeter writes a line when its writer is not a
// terminal (a log under nohup or systemd): often enough to see a job of
// hours move, seldom enough not to fill the log.
const meterEvery = 30 * time.Second

// fileMeter tells how far a command that reads a crawl's WARC files (wacz,
// index, report) has got. A national library's crawl holds terabytes, and
// reading them takes hours; without it, the command says nothing until it
// ends. On a terminal it rewrites one line after each file; elsewhere it
// writes a line after a file at most every meterEvery, and one after the
// last file, for the log. The line goes to stderr, so the command's output
// on stdout stays clean.
type fileMeter struct {
	ctx   context.Context // cancelled by Ctrl-C: file then stops the command
	w     io.Writer
	verb  string // what the command does, first on the line
	tty   bool
	every time.Duration
	now   func() time.Time

	files, done int              // files in all, files read
	total, read int64            // their bytes
	size        map[string]int64 // each file's, taken at the start
	start, last time.Time
	shown       bool // a line is on the terminal, to be cleared
}

// newFileMeter measures reading files, whose sizes it takes now (a file it
// cannot stat counts as empty: the command itself will name it).
func newFileMeter(ctx context.Context, w io.Writer, verb string, files []string) *fileMeter {
	f, ok := w.(*os.File)
	tty := ok && term.IsTerminal(int(f.Fd()))
	m := &fileMeter{ctx: ctx, w: w, verb: verb, tty: tty, every: meterEvery, now: time.Now, files: len(files),
		size: make(map[string]int64, len(files))}
	for _, p := range files {
		if fi, err := os.Stat(p); err == nil {
			m.size[p] = fi.Size()
			m.total += fi.Size()
		}
	}
	m.start = m.now()
	m.last = m.start
	return m
}

// file records that the file at path has been read, and writes the line
// when it is time. Once the command is interrupted it returns an error
// instead, which stops the command between two files: what it was writing
// goes through writeOutAtomic, so no partial file is left.
func (m *fileMeter) file(path string) error {
	m.done++
	if err := context.Cause(m.ctx); err != nil {
		return fmt.Errorf("%s: interrupted after %d of %d WARC files: %w", m.verb, m.done, m.files, err)
	}
	m.read += m.size[path]
	now := m.now()
	if !m.tty && now.Sub(m.last) < m.every && m.done < m.files {
		return nil
	}
	m.last = now
	if m.tty {
		fmt.Fprintf(m.w, "\r\033[K%s", m.line(now))
		m.shown = true
		return nil
	}
	fmt.Fprintln(m.w, m.line(now))
	return nil
}

// finish clears the terminal's line, before the command prints its result.
func (m *fileMeter) finish() {
	if m.shown {
		fmt.Fprint(m.w, "\r\033[K")
		m.shown = false
	}
}

// line is the progress line: files and bytes read, the time so far and,
// from the bytes read so far, the time left.
func (m *fileMeter) line(now time.Time) string {
	elapsed := now.Sub(m.start)
	s := fmt.Sprintf("%s: %d of %d WARC files, %s of %s", m.verb, m.done, m.files, bytesText(m.read), bytesText(m.total))
	if m.total > 0 {
		s += fmt.Sprintf(" (%.0f%%)", 100*float64(m.read)/float64(m.total))
	}
	s += ", " + elapsed.Truncate(time.Second).String()
	if m.read > 0 && m.read < m.total {
		left := time.Duration(float64(elapsed) * float64(m.total-m.read) / float64(m.read))
		s += fmt.Sprintf(", about %s left", left.Truncate(time.Second))
	}
	return s
}
