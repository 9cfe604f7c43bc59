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
			profile, _ := cmd.Flags().GetString("profile")
			cfg, err := config.Load(profile, cmd.Flags())
			if err != nil {
				return fmt.Errorf("%w: %w", errUsage, err)
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), cfg.YAML())
			return err
		},
	}
	config.AddFlags(cmd.Flags())
	return cmd
}
