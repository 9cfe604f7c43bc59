package bandwidth

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/langcrawl/langcrawl/plot"
)

// ErrTrace is wrapped by ReadTrace for a line it cannot read.
var ErrTrace = errors.New("bandwidth: bad trace line")

// Sample is one line of a bandwidth trace: the predicted rate CB and the
// measured rate at one time, with the limit L, all in bytes per second.
type Sample struct {
	Time      time.Time
	Predicted float64
	Measured  float64
	Limit     float64
}

// traceHeader is the first line of a trace.
const traceHeader = "time,predicted_Bps,measured_Bps,limit_Bps"

// Trace writes samples as CSV lines "time,predicted_Bps,measured_Bps,
// limit_Bps", the time in RFC 3339 with nanoseconds and the rates rounded
// to whole bytes per second, after a header line. It is the data of the
// paper's figure 1. Trace is safe for concurrent use; it does not close w.
type Trace struct {
	mu     sync.Mutex
	w      *bufio.Writer
	header bool
}

// NewTrace returns a Trace writing to w.
func NewTrace(w io.Writer) *Trace { return &Trace{w: bufio.NewWriter(w)} }

// Write writes one sample and flushes it, so that a crash loses at most the
// line being written.
func (t *Trace) Write(s Sample) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.header {
		t.w.WriteString(traceHeader + "\n")
		t.header = true
	}
	fmt.Fprintf(t.w, "%s,%.0f,%.0f,%.0f\n", s.Time.UTC().Format(time.RFC3339Nano), s.Predicted, s.Measured, s.Limit)
	if err := t.w.Flush(); err != nil {
		return fmt.Errorf("bandwidth: write trace: %w", err)
	}
	return nil
}

// ReadTrace reads the samples a Trace wrote. A file appended by several
// runs (a crawl resumed) holds a header line per run; each is skipped. A
// line it cannot read (one a crash cut short) is skipped too, and reported
// after the rest is read: the samples are returned with an error wrapping
// ErrTrace that names the first such line and counts them.
func ReadTrace(r io.Reader) ([]Sample, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked here, so that a short line is skipped, not the end
	cr.LazyQuotes = true    // a trace has none; a stray one stays on its line
	var out []Sample
	var bad int
	var first error
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if pe := (*csv.ParseError)(nil); err != nil && !errors.As(err, &pe) {
			return out, fmt.Errorf("%w: %v", ErrTrace, err) // a read error, not a bad line
		}
		if err == nil && len(rec) != 4 {
			err = fmt.Errorf("%d fields, want 4", len(rec))
		}
		if err == nil && rec[0] == "time" {
			continue // a run's header
		}
		var s Sample
		if err == nil {
			var errs [4]error
			s.Time, errs[0] = time.Parse(time.RFC3339Nano, rec[0])
			s.Predicted, errs[1] = strconv.ParseFloat(rec[1], 64)
			s.Measured, errs[2] = strconv.ParseFloat(rec[2], 64)
			s.Limit, errs[3] = strconv.ParseFloat(rec[3], 64)
			err = errors.Join(errs[:]...)
		}
		if err != nil {
			if bad++; first == nil {
				first = fmt.Errorf("line %d: %v", line, err)
			}
			continue
		}
		out = append(out, s)
	}
	if bad > 0 {
		return out, fmt.Errorf("%w: %d unreadable line(s) skipped, the first at %v", ErrTrace, bad, first)
	}
	return out, nil
}

// Plot draws samples as the paper's figure 1: measured and predicted
// bandwidth, and the limit, in bytes per second against seconds since the
// first sample, as an SVG chart (package plot).
func Plot(w io.Writer, title string, samples []Sample) error {
	var pred, meas, lim plot.Series
	pred.Name, meas.Name, lim.Name = "predicted (CB)", "measured", "limit L"
	for _, s := range samples {
		x := s.Time.Sub(samples[0].Time).Seconds()
		pred.X, pred.Y = append(pred.X, x), append(pred.Y, s.Predicted)
		meas.X, meas.Y = append(meas.X, x), append(meas.Y, s.Measured)
		lim.X, lim.Y = append(lim.X, x), append(lim.Y, s.Limit)
	}
	c := plot.Chart{Title: title, XLabel: "seconds", YLabel: "bytes/s", Series: []plot.Series{meas, pred, lim}}
	return c.WriteSVG(w)
}
