package simulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/langcrawl/langcrawl/webgen"
)

// Run simulates every variant of opts over g and returns the measures of
// Tamura et al. section 5. Each run is a run of the crawl engine
// (crawl.Crawler) with its own real frontier (frontier.Open on in-memory
// LevelDB storage, or under Options.DiskDir) and focus.Policy; "downloading"
// a page is looking it up in g (see the package documentation). Runs go in
// parallel, up to Options.Parallel at once; g is only read. Run returns the
// first error of any run, after cancelling the others; ctx cancels all.
func Run(ctx context.Context, g *webgen.Graph, opts Options) (*Results, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: nil graph", ErrOptions)
	}
	if len(g.Seeds()) == 0 {
		return nil, fmt.Errorf("%w: the graph has no seeds", ErrOptions)
	}
	return run(ctx, newWeb(g), opts)
}

// Config is everything `langcrawl simulate` needs; the command maps its
// flags onto it.
type Config struct {
	// Params generate the web; the zero Params means
	// webgen.SimulatorDefaults() (100,000 servers, about 2.3 million pages,
	// link statistics of Tamura Tables 4 and 5). The command's --servers,
	// --pages-per-server and --seed flags override Servers,
	// MeanPagesPerServer and Seed.
	Params webgen.Params
	// Options of the runs: --strategies, --tolerances, --improvements,
	// --sample-every, --max-pages, --parallel, --disk-dir.
	Options Options
	// OutDir receives the CSV files, SVG plots and results.md (--out).
	// Empty means write nothing but the summary.
	OutDir string
}

// Main generates the web, runs the simulation and writes the results: the
// files into cfg.OutDir, a summary table to stdout, progress lines to
// stderr (unless cfg.Options.Progress is already set).
func Main(ctx context.Context, stdout, stderr io.Writer, cfg Config) error {
	p := cfg.Params
	if p.Servers == 0 {
		p = webgen.SimulatorDefaults()
	}
	if cfg.Options.Progress == nil {
		cfg.Options.Progress = stderr
	}
	start := time.Now()
	g, err := webgen.Generate(p)
	if err != nil {
		return fmt.Errorf("simulate: generate web: %w", err)
	}
	fmt.Fprintf(stderr, "simulate: generated %d pages on %d servers, %d links in %v\n",
		g.NumPages(), g.NumServers(), g.NumLinks(), time.Since(start).Round(time.Millisecond))
	res, err := Run(ctx, g, cfg.Options)
	if err != nil {
		return err
	}
	var errs []error
	if cfg.OutDir != "" {
		errs = append(errs, res.WriteFiles(cfg.OutDir))
	}
	errs = append(errs, res.WriteSummaryText(stdout))
	return errors.Join(errs...)
}

// WriteSummaryText writes the final figures as an aligned text table.
func (r *Results) WriteSummaryText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%-40s %10s %9s %9s %9s %10s %9s %8s\n", "variant", "pages", "coverage", "harvest", "miss", "peak-queue", "servers", "time")
	if err != nil {
		return err
	}
	for _, run := range r.Runs {
		_, err := fmt.Fprintf(w, "%-40s %10d %8.2f%% %8.2f%% %8.2f%% %10d %9d %7.1fs\n", run.Name, run.Pages,
			100*run.Coverage, 100*run.Harvest, 100*run.MaxMiss(), run.PeakQueue, run.Servers, run.Elapsed.Seconds())
		if err != nil {
			return err
		}
	}
	return nil
}
