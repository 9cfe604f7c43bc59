package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/config"
)

func configCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config --profile FILE [flags]",
		Short: "Print the resolved configuration: flags over LANGCRAWL_* environment over profile over defaults",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			// The target languages as the crawl checks them.
			if _, err := focusDetector(cfg, cmd.ErrOrStderr()); err != nil {
				return err
			}
			// What the crawl checks before it starts: a profile this
			// passes is one it starts on.
			if err := checkStart(cfg); err != nil {
				return err
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), cfg.YAML())
			return err
		},
	}
	config.AddFlags(cmd.Flags())
	return cmd
}
