package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/langcrawl/langcrawl/internal/dirglob"
)

// pauser is what the free-space watch needs of the crawl: a pause of its
// own, which the operator's resume does not lift, nor its resume the
// operator's pause.
type pauser interface {
	PauseFor(source, reason string)
	ResumeFor(source string)
}

// pauseDisk is the free-space watch's pause source.
const pauseDisk = "disk"

// spaceWatch keeps a crawl off a full disk: every interval it reads the
// free space of dir, pauses the crawl when it is below min and resumes it
// when it is back, saying so on stderr and in the log. min <= 0 turns it
// off, and so does a system where free space cannot be read.
type spaceWatch struct {
	dir      string
	min      int64
	interval time.Duration
	free     func(dir string) (int64, error)
	crawl    pauser
	stderr   io.Writer
	log      *slog.Logger
	paused   bool // the watch holds the crawl paused
}

// run watches until ctx is done. The first reading is taken at once; a
// caller that wants it before the crawl starts calls check first.
func (w *spaceWatch) run(ctx context.Context) {
	if w.min <= 0 {
		return
	}
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for w.check() {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// check reads the free space once, pausing the crawl when it is below the
// minimum and resuming it when it is back. It returns false when the
// watch is off, or free space cannot be read on this system.
func (w *spaceWatch) check() bool {
	if w.min <= 0 {
		return false
	}
	n, err := w.free(w.dir)
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return false
	case err != nil:
		w.log.Warn("free space unknown", "err", err)
	case n < w.min && !w.paused:
		w.paused = true
		msg := fmt.Sprintf("%s has %s free, below durability.min_free_space (%s): crawl paused until space is freed",
			w.dir, bytesText(n), bytesText(w.min))
		w.crawl.PauseFor(pauseDisk, msg)
		fmt.Fprintln(w.stderr, "paused:", msg)
		w.log.Warn("crawl paused: disk nearly full", "dir", w.dir, "bytes", n, "min", w.min)
	case n >= w.min && w.paused:
		w.paused = false
		w.crawl.ResumeFor(pauseDisk)
		fmt.Fprintf(w.stderr, "resumed: %s has %s free again\n", w.dir, bytesText(n))
		w.log.Info("crawl resumed: disk space back", "dir", w.dir, "bytes", n)
	}
	return true
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// failureReason is the summary's "stopped:" line for a crawl that an
// infrastructure error stopped, so that it never reads "frontier empty".
func failureReason(out string, err error) string {
	first, _, _ := strings.Cut(err.Error(), "\n")
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Sprintf("disk full under %s: %s", out, first)
	}
	return "error: " + first
}

// newestWARCs returns the paths of the n newest WARC files in dir, by
// when they were last written, then by name. Not by name alone: the
// names start with warc.prefix, which an operator may change between runs,
// and the file a kill left open then sorted before older ones.
func newestWARCs(dir string, n int) []string {
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, pat := range []string{"*.warc.gz", "*.warc"} {
		m, _ := dirglob.Glob(dir, pat)
		for _, p := range m {
			if fi, err := os.Stat(p); err == nil {
				files = append(files, file{p, fi.ModTime()})
			}
		}
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].mod.Equal(files[j].mod) {
			return files[i].mod.Before(files[j].mod)
		}
		return files[i].path < files[j].path
	})
	var out []string
	for _, f := range files[max(len(files)-n, 0):] {
		out = append(out, f.path)
	}
	return out
}
