package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/detect"
)

func detectCmd() *cobra.Command {
	var target string
	cmd := &cobra.Command{
		Use:   "detect [--target LANG[,LANG...]] FILE...",
		Short: "Identify the charset and language of saved pages; one JSON object per file",
		Long: `Identify the charset and language of saved pages, with the same code the
crawl runs on every HTML page. If FILE.headers exists it holds the HTTP
response headers as received, and its Content-Type charset is used as a
live fetch's would be.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			targets := config.SplitLanguages(target)
			if note := detect.VariantNote(targets); note != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", note)
			}
			err := detect.RunCLI(cmd.OutOrStdout(), targets, files)
			if errors.Is(err, detect.ErrBadOptions) {
				// The operator's to fix, each problem a line under the
				// flag, exit 2 as in crawl (a README trial: two lines,
				// one unprefixed, exit 1).
				var lines []string
				for _, e := range unjoin(err) {
					lines = append(lines, "--target: "+strings.TrimPrefix(e.Error(), detect.ErrBadOptions.Error()+": "))
				}
				return fmt.Errorf("%w: %s", errUsage, strings.Join(lines, "\n"))
			}
			return err
		},
	}
	cmd.Flags().StringVar(&target, "target", "", "target language (ISO 639-1), or several joined by commas (fi,sv; no for both nb and nn); sets relevant in the output")
	return onInterrupt(cmd, "the files given are read to the end", "quitting at once")
}
