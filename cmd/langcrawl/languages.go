package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/langcrawl/langcrawl/detect"
)

func init() { extraCommands = append(extraCommands, languagesCmd) }

// languagesCmd lists the languages a crawl can target: every language the
// detector has profiles of, with its name and the charsets it recognises
// it in (focus.charsets may name any of the legacy ones).
func languagesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "languages",
		Short: "List the languages a crawl can target (focus.language), with the charsets each is recognised in",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := detect.New(detect.Options{})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%-6s %-24s %s\n", "code", "language", "charsets")
			for _, l := range d.Languages() {
				name := l
				if tag, err := language.Parse(l); err == nil {
					if n := display.English.Tags().Name(tag); n != "" {
						name = n
					}
				}
				fmt.Fprintf(w, "%-6s %-24s %s\n", l, name, strings.Join(d.Charsets(l), " "))
			}
			fmt.Fprintf(w, "\n%d languages. Measured accuracy per language: docs/detect.md.\n", len(d.Languages()))
			return nil
		},
	}
}
