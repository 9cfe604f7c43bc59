package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = devVersion

// software names langcrawl and the version of this build (buildVersion:
// the VCS stamp) in warcinfo records.
func software() string { return "langcrawl/" + buildVersion() }

// errUsage marks errors that are the operator's to fix; they exit 2.
var errUsage = errors.New("usage")

func run(args []string) int {
	root := &cobra.Command{
		Use:           "langcrawl",
		Short:         "An archival web crawler that collects the web of one language into WARC files",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildVersion(), // --version
	}
	root.SetVersionTemplate("langcrawl {{.Version}}\n")
	root.AddCommand(crawlCmd(), demoCmd(), configCmd(), detectCmd(), versionCmd())
	for _, c := range extraCommands {
		root.AddCommand(c())
	}
	root.SetArgs(args)
	// What the first Ctrl-C does: a crawl drains; wacz, index and report
	// stop after the file they are reading, keeping no partial output.
	stopping := "stopping after the WARC file being read; no partial output is kept"
	quitting := "quitting at once; a temporary file (*.tmp-*) may be left beside the output"
	if c, _, err := root.Find(args); err == nil && (c.Name() == "crawl" || c.Name() == "demo") {
		stopping = "finishing in-flight fetches and closing files"
		quitting = "quitting at once; in-flight URLs will be fetched again on resume"
	}
	ctx, stop := interrupts(stopping, quitting)
	defer stop()
	if err := root.ExecuteContext(ctx); err != nil {
		if errors.Is(err, errUsage) {
			// One problem a line, each naming the key or URL to fix.
			msg := strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
			fmt.Fprintln(os.Stderr, "langcrawl: cannot start; fix these and run again:")
			for _, line := range strings.Split(msg, "\n") {
				fmt.Fprintln(os.Stderr, "  "+line)
			}
			return 2
		}
		fmt.Fprintln(os.Stderr, "langcrawl:", err)
		return 1
	}
	return 0
}

// extraCommands lets other files register commands (simulate, report).
var extraCommands []func() *cobra.Command

// interrupts returns a context cancelled by the first SIGINT or SIGTERM,
// which drains the crawl (what the command does then is stopping, for the
// message). A second signal exits at once (with the message quitting).
func interrupts(stopping, quitting string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
		fmt.Fprintf(os.Stderr, "\nlangcrawl: interrupted; %s (Ctrl-C again to quit at once)\n", stopping)
		cancel()
		<-ch
		fmt.Fprintln(os.Stderr, "langcrawl: "+quitting)
		os.Exit(130)
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "langcrawl "+buildVersion())
		},
	}
}
