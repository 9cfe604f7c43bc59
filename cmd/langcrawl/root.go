package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

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
	// A flag that does not parse (--delay 5) is the operator's to fix, as
	// a bad profile value is: exit 2, naming the command.
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w: %s: %w", errUsage, c.CommandPath(), err)
	})
	root.AddCommand(crawlCmd(), demoCmd(), configCmd(), detectCmd(), versionCmd())
	for _, c := range extraCommands {
		root.AddCommand(c())
	}
	root.SetArgs(args)
	// What Ctrl-C does is the command's to say (onInterrupt).
	stopping, quitting := "stopping", "quitting at once"
	if c, _, err := root.Find(args); err == nil {
		if s := c.Annotations[annotStopping]; s != "" {
			stopping = s
		}
		if s := c.Annotations[annotQuitting]; s != "" {
			quitting = s
		}
	}
	ctx, stop := interrupts(stopping, quitting)
	defer stop()
	if err := root.ExecuteContext(ctx); err != nil {
		if errors.Is(err, errUsage) {
			// One problem a line, each naming the key or URL to fix.
			msg := strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
			// "cannot start" is a crawl's; another command's is that
			// command's (a README trial read it from report).
			what := "cannot start"
			if c, _, ferr := root.Find(args); ferr == nil && c != root && c.Name() != "crawl" && c.Name() != "demo" {
				what = c.Name() + " cannot run"
				if c.Name() == "config" {
					what = "this profile cannot start a crawl"
				}
			}
			fmt.Fprintf(os.Stderr, "langcrawl: %s; fix these and run again:\n", what)
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

// The annotations in which a command says what the first Ctrl-C makes it
// do (the context is cancelled) and what the second one leaves behind
// (the process exits at once), for the messages interrupts prints.
const (
	annotStopping = "langcrawl-on-interrupt"
	annotQuitting = "langcrawl-on-second-interrupt"
)

// onInterrupt sets cmd's interrupt messages and returns cmd.
func onInterrupt(cmd *cobra.Command, stopping, quitting string) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[annotStopping], cmd.Annotations[annotQuitting] = stopping, quitting
	return cmd
}

// The messages of the commands that read a crawl's WARC files (wacz, index,
// report): they check the context after each file.
const (
	readStopping = "stopping after the WARC file being read; no partial output is kept"
	readQuitting = "quitting at once; a temporary file (*.tmp-*) may be left beside the output"
)

// dupTerm is how soon after a first SIGTERM a second one is taken for the
// same request, delivered twice (to the process and to its group).
const dupTerm = time.Second

// interrupts returns a context cancelled by the first SIGINT, SIGTERM or
// SIGHUP, which drains the crawl (what the command does then is stopping,
// for the message). A second signal exits at once (with the message
// quitting), but a SIGTERM within dupTerm of a first SIGTERM. SIGHUP is a
// closed terminal: it killed the crawl outright before, leaving its WARC
// file open (the crash trial); it drains, never quits at once, and is left
// ignored under nohup.
func interrupts(stopping, quitting string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		// Under nohup SIGHUP stays ignored: Notify would deliver it (a
		// review), and the crawl nohup kept running would stop.
		sigs = append(sigs, syscall.SIGHUP)
	}
	signal.Notify(ch, sigs...)
	go func() {
		var first os.Signal
		select {
		case first = <-ch:
		case <-ctx.Done():
			return
		}
		firstAt := time.Now()
		fmt.Fprintf(os.Stderr, "\nlangcrawl: interrupted; %s (Ctrl-C again to quit at once)\n", stopping)
		cancel()
		for sig := range ch {
			if sig == syscall.SIGHUP {
				// A hangup often comes twice (the shell's, the
				// kernel's): only Ctrl-C or SIGTERM quits at once.
				continue
			}
			if sig == syscall.SIGTERM && first == syscall.SIGTERM && time.Since(firstAt) < dupTerm {
				// coreutils timeout sends its SIGTERM to the process
				// and to its group, so the crawl gets it twice: one
				// request, not two (a crash trial: 4 of 6 runs under
				// `timeout` quit at once instead of draining).
				continue
			}
			fmt.Fprintln(os.Stderr, "langcrawl: "+quitting)
			os.Exit(130)
		}
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
