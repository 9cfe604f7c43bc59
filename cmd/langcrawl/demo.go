package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/webgen"
)

func demoCmd() *cobra.Command {
	var out string
	var workers int
	cmd := &cobra.Command{
		Use:   "demo [--out DIR]",
		Short: "Crawl a built-in multilingual web served on 127.0.0.1, focused on Thai",
		Long: `demo generates a small multilingual web (Thai, Lao, Japanese, Chinese, Korean,
Russian, European languages; legacy charsets; robots.txt files, redirects,
404s, query-string pages, a calendar trap, a slow host, an endless body),
serves it on 127.0.0.1 from one HTTP server that routes on the Host header,
and crawls it for Thai with the conservative server-based strategy. Nothing
leaves the machine: every host name is dialled to the local server.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd.Context(), out, workers, cmd)
		},
	}
	cmd.Flags().StringVar(&out, "out", "langcrawl-demo", "output directory")
	cmd.Flags().IntVar(&workers, "workers", 8, "number of workers")
	return cmd
}

// DemoProfile writes the profile the demo crawls with: seeds of g, every host
// dialled to addr. It is an ordinary profile, left in the output directory
// for the operator to read and reuse.
func demoProfile(g *webgen.Graph, addr, out string, workers int) string {
	var seeds strings.Builder
	for _, s := range g.Seeds() {
		fmt.Fprintf(&seeds, "  - %s\n", g.URL(s))
	}
	return fmt.Sprintf(`# The profile langcrawl demo crawled with. Every host is served by the
# demo's own server on %[1]s.
seeds:
%[2]sout: %[3]q
user_agent: "langcrawl-demo/%[4]s (+https://github.com/langcrawl/langcrawl)"
operator: "langcrawl demo"
workers: %[5]d
delay: 20ms
depth: 8
max_body_size: 2MiB
timeouts:
  connect: 2s
  fetch: 5s
  read: 3s
network:
  connect_to:
    "*": %[1]s
focus:
  language: th
  strategy: conservative-server
  tolerance: 10
`, addr, seeds.String(), out, version, workers)
}

func runDemo(ctx context.Context, out string, workers int, cmd *cobra.Command) error {
	g, err := webgen.Generate(webgen.DemoDefaults())
	if err != nil {
		return fmt.Errorf("demo web: %w", err)
	}
	srv, ln, err := webgen.NewServer(g, webgen.ServerOptions{}).Listen("127.0.0.1:0")
	if err != nil {
		return err
	}
	go srv.Serve(ln)
	defer srv.Close()

	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	abs, _ := filepath.Abs(out)
	profile := filepath.Join(out, "demo-profile.yaml")
	if err := os.WriteFile(profile, []byte(demoProfile(g, ln.Addr().String(), abs, workers)), 0o644); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	cfg, err := config.Load(profile, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "demo: serving %d pages on %d hosts at %s; crawling for Thai into %s\n",
		g.NumPages(), g.NumServers(), ln.Addr(), abs)
	_, err = runCrawl(ctx, cfg, cmd.OutOrStdout(), cmd.ErrOrStderr())
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "demo: WARC files are in %s\n", filepath.Join(abs, warcDir))
	return nil
}
