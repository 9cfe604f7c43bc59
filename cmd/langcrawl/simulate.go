package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/simulate"
	"github.com/langcrawl/langcrawl/webgen"
)

func init() { extraCommands = append(extraCommands, simulateCmd) }

// simulateCmd maps its flags onto simulate.Config; the work is simulate.Main.
func simulateCmd() *cobra.Command {
	var (
		cfg        simulate.Config
		servers    int
		ppsrv      float64
		seed       int64
		family     bool
		famServers int
	)
	def := webgen.SimulatorDefaults()
	cmd := &cobra.Command{
		Use:   "simulate [--out DIR] [--servers N] [--strategies LIST] ...",
		Short: "Compare the focus strategies on a synthetic web in memory (Tamura et al. 2007, section 5)",
		Long: `Generate a synthetic web in memory (package webgen; by default 100,000
servers and about 2.3 million pages whose link statistics follow Tamura et
al. 2007, Tables 4 and 5) and crawl it once per strategy with the crawl
engine itself (its loop, frontier, focus and link code), answering fetches
from memory instead of HTTP. For every strategy it measures the
paper's figures: the cumulative miss ratio by distance from the seeds
(Fig. 4), coverage (Fig. 5) and harvest rate (Fig. 6) against pages crawled,
queue size (Fig. 7) and servers accessed (Fig. 8). It prints a summary
table on stdout, progress on stderr, and writes into DIR: summary.csv,
curves.csv, miss.csv, one SVG chart per figure, and results.md, which puts
the final figures beside the paper's findings and the goals for the
default strategy. The same --seed and sizes give the same web and results.

With --family it runs instead the family of webs of simulate/RESULTS.md
(issue 9): the middle web and each open parameter at the ends of its
range, --family-servers servers each, with conservative-server,
conservative-directory, hard-focused, evidence, sequential and perfect.
--seed picks the family (seed 2 is the held-out one of
simulate/RESULTS.md). It prints the
family's table and writes into DIR family.md, family.csv and, per open
parameter, family-PARAM-coverage.svg, -harvest.svg and -servers.svg.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if family {
				if famServers < 1 {
					return fmt.Errorf("%w: --family-servers %d must be at least 1", errUsage, famServers)
				}
				p := webgen.SimulatorDefaults()
				p.Servers, p.MeanPagesPerServer, p.Seed = famServers, ppsrv, seed
				err := simulate.MainFamily(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(),
					simulate.FamilyConfig{Params: p, Parallel: cfg.Options.Parallel, OutDir: cfg.OutDir})
				if errors.Is(err, webgen.ErrParams) || errors.Is(err, simulate.ErrOptions) {
					return fmt.Errorf("%w: %w", errUsage, err)
				}
				if err == nil && cfg.OutDir != "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "family written to %s\n", cfg.OutDir)
				}
				return err
			}
			p := webgen.SimulatorDefaults()
			p.Servers, p.MeanPagesPerServer, p.Seed = servers, ppsrv, seed
			cfg.Params = p
			o := &cfg.Options
			// Strategies named are the ones run: the improvement comes
			// with them only when asked for.
			if cmd.Flags().Changed("strategies") && !cmd.Flags().Changed("improvements") {
				o.Improvements = false
			}
			switch {
			case servers < 1:
				return fmt.Errorf("%w: --servers %d must be at least 1", errUsage, servers)
			case ppsrv < 1:
				return fmt.Errorf("%w: --pages-per-server %v must be at least 1", errUsage, ppsrv)
			case o.SampleEvery < 0, o.MaxPages < 0, o.Parallel < 0:
				return fmt.Errorf("%w: --sample-every, --max-pages and --parallel must not be negative", errUsage)
			}
			for _, t := range o.Tolerances {
				if t < 1 {
					return fmt.Errorf("%w: --tolerances: %d is below 1", errUsage, t)
				}
			}
			err := simulate.Main(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg)
			if errors.Is(err, webgen.ErrParams) || errors.Is(err, simulate.ErrOptions) {
				return fmt.Errorf("%w: %w", errUsage, err)
			}
			if err == nil && cfg.OutDir != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "simulation written to %s\n", cfg.OutDir)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.OutDir, "out", "simulation", "directory for the CSV files, SVG charts and results.md (\"\" writes only the summary)")
	f.IntVar(&servers, "servers", def.Servers, "servers in the synthetic web (special demo hosts are not added)")
	f.Float64Var(&ppsrv, "pages-per-server", def.MeanPagesPerServer, "mean pages of a non-target server (target servers are TargetSizeFactor times larger)")
	f.Int64Var(&seed, "seed", def.Seed, "seed of the web generator: the same seed gives the same web")
	f.StringSliceVar(&cfg.Options.Strategies, "strategies", nil,
		"strategies to run, comma-separated: perfect, bfs, hard-focused, soft-focused, aggressive-server, conservative-server, conservative-directory (default all of these, the paper's); also evidence and sequential, and the verdict oracles server-oracle and directory-oracle, when named")
	f.IntSliceVar(&cfg.Options.Tolerances, "tolerances", nil, "values of the tolerance T, comma-separated; each server-based strategy runs once per value (default 10)")
	f.BoolVar(&cfg.Options.Improvements, "improvements", true,
		"also run the improvement on the paper beside conservative filtering: a tolerance falling to 5 (+decay); --improvements=false runs the paper's strategies only (off by default when --strategies names the strategies)")
	f.Int64Var(&cfg.Options.SampleEvery, "sample-every", 0, "pages crawled between two points of the curves (default: pages in the web / 500, at least 100)")
	f.Int64Var(&cfg.Options.MaxPages, "max-pages", 0, "stop each strategy after this many pages (default 0: until its frontier is empty)")
	f.IntVar(&cfg.Options.Parallel, "parallel", 0, "strategies simulated at once, each with its own in-memory frontier (default: the number of CPUs)")
	f.BoolVar(&family, "family", false, "run the family of webs (simulate/RESULTS.md) instead of one web: table, CSV and plots against each open parameter")
	f.IntVar(&famServers, "family-servers", simulate.DefaultFamilyServers, "servers in each web of --family")
	f.StringVar(&cfg.Options.DiskDir, "disk-dir", "", "keep each strategy's frontier in a LevelDB directory under this one instead of in memory")
	return onInterrupt(cmd, "stopping the simulation", "quitting at once")
}
