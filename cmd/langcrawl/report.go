package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/report"
)

func init() { extraCommands = append(extraCommands, reportCmd) }

func reportCmd() *cobra.Command {
	var out string
	var tolerance int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "report [--out DIR] [--tolerance T] [--json]",
		Short: "Summarise a crawl from its output directory: servers, harvest rate, languages, depth curves",
		Long: `Read a crawl's output directory (profile.yaml, the WARC files, .open ones
included, and logs/crawl.log; never the frontier, so it works while the
crawl runs), print a markdown summary on stdout, and write report.md, CSV
tables and SVG charts into DIR/report/: per-server status under the
tolerance T, the harvest rate over time, the languages found, and
Nakahira's curves (pages and external URLs by depth level, site trees by
deepest page, and external-URL capture against load by depth limit), the
fetch outcomes and MIME types of crawl.log, each seed's status and the
pages of its site tree, and the candidate hosts focusing turned away with
their evidence (anchor texts, referring pages, link counts, URLs dropped
from their queue), for a curator to add as seeds.

--json prints the whole report as one JSON object instead of markdown
(DIR/report/report.json holds the same either way). With --tolerance T
the report is a what-if, written into DIR/report/tolerance-T/ beside the
crawl's own.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			whatIf := cmd.Flags().Changed("tolerance")
			if whatIf && tolerance < 0 {
				return fmt.Errorf("%w: --tolerance %d is negative", errUsage, tolerance)
			}
			// One report at a time writes DIR/report/: two at once could
			// leave a mix of their files that the INCOMPLETE marker of
			// one no longer says (a diff review). Taken before the hours
			// of reading, so that the second says so at once.
			if fi, err := os.Stat(out); err == nil && fi.IsDir() {
				base := filepath.Join(out, report.Dir)
				if err := os.MkdirAll(base, 0o755); err != nil {
					return fmt.Errorf("report: %w", err)
				}
				unlock, err := lockOut(base)
				if errors.Is(err, errOutBusy) {
					return fmt.Errorf("another langcrawl report is writing %s (it holds %s): let it finish, or stop it, and run again", base, filepath.Join(base, lockName))
				}
				if err != nil {
					return err
				}
				defer unlock()
			}
			// The files are listed twice (here for the meter, and by
			// Build); a file that appears between the two is read but
			// not counted on the progress line.
			files, _ := report.WARCFiles(out)
			meter := newFileMeter(cmd.Context(), cmd.ErrOrStderr(), "report", files)
			r, err := report.BuildProgress(out, meter.file)
			meter.finish()
			if errors.Is(err, report.ErrNoWARC) || errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%w: %w", errUsage, err)
			}
			if err != nil {
				return err
			}
			dir := filepath.Join(out, report.Dir)
			if whatIf {
				// Another T is a what-if beside the crawl's own report,
				// not in its place.
				r.SetTolerance(tolerance)
				dir = filepath.Join(dir, fmt.Sprintf("tolerance-%d", tolerance))
			}
			if err := r.WriteFiles(dir); err != nil {
				return err
			}
			write := r.WriteMarkdown
			if asJSON {
				write = r.WriteJSON
			}
			if err := write(cmd.OutOrStdout()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "report written to %s\n", dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "./crawl", "the crawl's output directory")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON instead of markdown")
	cmd.Flags().IntVar(&tolerance, "tolerance", 0, "judge servers with this tolerance T instead of the crawl's focus.tolerance, into DIR/report/tolerance-T/ (not for focus.strategy sequential, whose own verdicts are shown)")
	return onInterrupt(cmd, readStopping, readQuitting)
}
