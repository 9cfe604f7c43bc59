package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/frontier"
)

// bandwidthTrace is the file, under logs/, where a crawl with a bandwidth
// limit writes its predicted and measured rate once a second.
const bandwidthTrace = "bandwidth.csv"

// newBandwidth returns the fetcher manager for cfg's bandwidth limit, its
// estimates kept in the frontier q, or nil when there is no limit.
func newBandwidth(cfg *config.Config, q *frontier.Queue) (*bandwidth.Manager, error) {
	if cfg.Bandwidth.Limit <= 0 {
		return nil, nil
	}
	m, err := bandwidth.New(bandwidth.Config{Limit: float64(cfg.Bandwidth.Limit), SearchDepth: cfg.Bandwidth.SearchDepth,
		DefaultRate: float64(cfg.Bandwidth.DefaultRate), ReadBuffer: int(cfg.Bandwidth.ReceiveBuffer), Store: q.Bandwidth()})
	if err != nil {
		return nil, fmt.Errorf("bandwidth: %w", err)
	}
	return m, nil
}

// cutTrace drops the last line of the trace open as f (read and append) when a
// crash cut it short: a line without its newline is a sample that may have
// lost digits, which read back would be a wrong figure. Trace lines are
// short, so the last newline is in the file's last 64 KiB, or the file is
// one cut line. Where the line cannot be dropped, it is ended, so that the
// next run's lines start on their own (ReadTrace skips a line it cannot
// read).
func cutTrace(f *os.File) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return
	}
	n := min(st.Size(), 64<<10)
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, st.Size()-n); err != nil {
		f.WriteString("\n")
		return
	}
	if tail[n-1] == '\n' {
		return
	}
	i := bytes.LastIndexByte(tail, '\n')
	if (i < 0 && n < st.Size()) || f.Truncate(st.Size()-n+int64(i+1)) != nil {
		f.WriteString("\n") // no newline in 64 KiB (not a trace this wrote), or no truncating
	}
}

// traceBandwidth appends one sample of m a second to logs/bandwidth.csv
// until the returned function is called. A write error is reported once on
// stderr; the trace is a record, not part of the crawl's state.
func traceBandwidth(m *bandwidth.Manager, out string, stderr io.Writer) func() {
	if m == nil {
		return func() {}
	}
	path := filepath.Join(out, logDir, bandwidthTrace)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_RDWR, 0o644) // read: cutTrace
	if err != nil {
		fmt.Fprintf(stderr, "bandwidth trace %s: %v (no trace)\n", path, err)
		return func() {}
	}
	cutTrace(f)
	tr := bandwidth.NewTrace(f)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		failed := false
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				if err := tr.Write(m.Sample(now)); err != nil && !failed {
					fmt.Fprintf(stderr, "bandwidth trace %s: %v\n", path, err)
					failed = true
				}
			}
		}
	}()
	return func() { close(done); <-stopped; f.Close() }
}
