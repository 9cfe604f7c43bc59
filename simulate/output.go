package simulate

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/plot"
)

// Files written by WriteFiles.
const (
	FileSummary  = "summary.csv"
	FileCurves   = "curves.csv"
	FileMiss     = "miss.csv"
	FileResults  = "results.md"
	FileMissSVG  = "miss.svg"     // Fig. 4
	FileCoverage = "coverage.svg" // Fig. 5
	FileHarvest  = "harvest.svg"  // Fig. 6
	FileQueue    = "queue.svg"    // Fig. 7
	FileServers  = "servers.svg"  // Fig. 8
)

// WriteFiles writes the CSV files, the SVG plots and results.md into dir,
// creating it if needed.
func (r *Results) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("simulate: create %s: %w", dir, err)
	}
	write := func(name string, f func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		fh, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
		bw := bufio.NewWriter(fh)
		err = f(bw)
		if err == nil {
			err = bw.Flush()
		}
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("simulate: write %s: %w", path, err)
		}
		return nil
	}
	files := []struct {
		name string
		f    func(io.Writer) error
	}{
		{FileSummary, r.WriteSummaryCSV},
		{FileCurves, r.WriteCurvesCSV},
		{FileMiss, r.WriteMissCSV},
		{FileResults, r.WriteMarkdown},
		{FileMissSVG, r.plotMiss},
		{FileCoverage, r.plot("Coverage of target pages (Tamura Fig. 5)", "coverage", true, false, func(s Sample) float64 { return s.Coverage })},
		{FileHarvest, r.plot("Cumulative harvest rate (Tamura Fig. 6)", "harvest rate", true, false, func(s Sample) float64 { return s.Harvest })},
		{FileQueue, r.plot("Queue size (Tamura Fig. 7), log scale", "URLs queued", false, true, func(s Sample) float64 { return float64(s.Queue) })},
		{FileServers, r.plot("Servers accessed (Tamura Fig. 8)", "servers", false, false, func(s Sample) float64 { return float64(s.Servers) })},
	}
	for _, f := range files {
		if err := write(f.name, f.f); err != nil {
			return err
		}
	}
	return nil
}

func (r *Results) plot(title, ylabel string, percent, logY bool, y func(Sample) float64) func(io.Writer) error {
	return func(w io.Writer) error {
		// Pages are counts; so are the queue and the servers (integer).
		c := plot.Chart{Title: title, XLabel: "pages crawled", YLabel: ylabel, Percent: percent, LogY: logY,
			XInteger: true, YInteger: !percent}
		for _, run := range r.Runs {
			s := plot.Series{Name: run.Name}
			for _, p := range run.Curve {
				if p.Pages == 0 && percent {
					continue // harvest over no pages is undefined; both percent curves start at the first sample
				}
				s.X = append(s.X, float64(p.Pages))
				s.Y = append(s.Y, y(p))
			}
			c.Series = append(c.Series, s)
		}
		return c.WriteSVG(w)
	}
}

func (r *Results) plotMiss(w io.Writer) error {
	c := plot.Chart{Title: "Cumulative target-page miss ratio (Tamura Fig. 4)", XLabel: "distance from the seeds", YLabel: "miss ratio", Percent: true,
		XInteger: true}
	for _, run := range r.Runs {
		s := plot.Series{Name: run.Name, Markers: true}
		for _, m := range run.Miss {
			s.X = append(s.X, float64(m.Distance))
			s.Y = append(s.Y, m.Ratio)
		}
		c.Series = append(c.Series, s)
	}
	return c.WriteSVG(w)
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 6, 64) }
func itoa(i int64) string   { return strconv.FormatInt(i, 10) }

// WriteSummaryCSV writes one row of final figures per variant.
func (r *Results) WriteSummaryCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "strategy", "tolerance", "decay_every", "decay_min",
		"pages", "target_pages", "coverage", "harvest", "max_miss_ratio", "peak_queue", "final_queue",
		"servers", "target_servers", "skipped", "dead", "redirects", "dropped", "seconds"})
	for _, run := range r.Runs {
		v := run.Variant
		cw.Write([]string{run.Name, v.Strategy, strconv.Itoa(tolerance(v)),
			itoa(v.Decay.Every), strconv.Itoa(v.Decay.Min),
			itoa(run.Pages), itoa(run.Targets), ftoa(run.Coverage), ftoa(run.Harvest), ftoa(run.MaxMiss()),
			itoa(run.PeakQueue), itoa(run.FinalQueue), itoa(run.Servers), itoa(run.TargetServers),
			itoa(run.Skipped), itoa(run.Dead), itoa(run.Redirects), itoa(run.Dropped),
			strconv.FormatFloat(run.Elapsed.Seconds(), 'f', 1, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteCurvesCSV writes the sampled curves of Figs. 5-8, one row per sample.
func (r *Results) WriteCurvesCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "pages", "target_pages", "coverage", "harvest", "queue", "servers"})
	for _, run := range r.Runs {
		for _, s := range run.Curve {
			cw.Write([]string{run.Name, itoa(s.Pages), itoa(s.Targets), ftoa(s.Coverage), ftoa(s.Harvest),
				itoa(s.Queue), itoa(s.Servers)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMissCSV writes Fig. 4: the cumulative miss ratio by distance.
func (r *Results) WriteMissCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "distance", "target_pages_within", "missed_within", "miss_ratio"})
	for _, run := range r.Runs {
		for _, m := range run.Miss {
			cw.Write([]string{run.Name, strconv.Itoa(m.Distance), itoa(m.Targets), itoa(m.Missed), ftoa(m.Ratio)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func tolerance(v Variant) int {
	if !focus.Strategy(v.Strategy).ServerBased() {
		return 0
	}
	if v.Tolerance == 0 {
		return focus.DefaultTolerance
	}
	return v.Tolerance
}

// MaxMiss returns the final cumulative miss ratio (over all distances).
func (r *RunResult) MaxMiss() float64 {
	if len(r.Miss) == 0 {
		return 0
	}
	return r.Miss[len(r.Miss)-1].Ratio
}

// MissAt returns the cumulative miss ratio within distance d (the last
// point if d is beyond the farthest target page).
func (r *RunResult) MissAt(d int) float64 {
	if len(r.Miss) == 0 {
		return 0
	}
	if d >= len(r.Miss) {
		d = len(r.Miss) - 1
	}
	return r.Miss[d].Ratio
}

// HarvestAt returns the cumulative harvest rate at the first sample with at
// least pages pages crawled (the last sample if the run stopped earlier).
func (r *RunResult) HarvestAt(pages int64) float64 {
	for _, s := range r.Curve {
		if s.Pages >= pages {
			return s.Harvest
		}
	}
	if len(r.Curve) == 0 {
		return 0
	}
	return r.Curve[len(r.Curve)-1].Harvest
}

// Find returns the run named name, or nil.
func (r *Results) Find(name string) *RunResult {
	for i := range r.Runs {
		if r.Runs[i].Name == name {
			return &r.Runs[i]
		}
	}
	return nil
}
