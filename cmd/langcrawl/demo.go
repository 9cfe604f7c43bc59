package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/webgen"
)

// demoProfileName is the profile demo writes into its --out.
const demoProfileName = "demo-profile.yaml"

func demoCmd() *cobra.Command {
	var out, listen string
	var workers int
	var serve bool
	cmd := &cobra.Command{
		Use:   "demo [--out DIR] | demo --serve [--listen ADDR] [--out DIR]",
		Short: "Crawl a built-in multilingual web served on 127.0.0.1, focused on Thai",
		Long: `demo generates a small multilingual web (Thai, Lao, Japanese, Chinese, Korean,
Russian, European languages; legacy charsets; robots.txt files, redirects,
404s, query-string pages, a calendar trap, a slow host, an endless body),
serves it on 127.0.0.1 from one HTTP server that routes on the Host header,
and crawls it for Thai with the conservative server-based strategy. Nothing
leaves the machine: every host name is dialled to the local server.

With --serve it only serves the web, on --listen (127.0.0.1 and a free port
by default), until stopped with Ctrl-C, and prints on stdout a profile
that crawls it into --out: save it and run langcrawl crawl --profile FILE
while the server runs. The profile the plain demo leaves in its output
directory names a server that stopped with the demo; --serve is how to
crawl the demo web again.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if serve {
				o := out
				if !cmd.Flags().Changed("out") {
					o = "langcrawl-demo-crawl"
				}
				return serveDemo(cmd.Context(), listen, o, workers, cmd.OutOrStdout(), cmd.ErrOrStderr())
			}
			if cmd.Flags().Changed("listen") {
				return fmt.Errorf("%w: --listen needs --serve", errUsage)
			}
			return runDemo(cmd.Context(), out, workers, cmd)
		},
	}
	cmd.Flags().BoolVar(&serve, "serve", false, "only serve the built-in web until stopped, and print a profile that crawls it")
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:0", "with --serve: the address to serve on (port 0: a free one)")
	cmd.Flags().StringVar(&out, "out", "langcrawl-demo", "output directory (with --serve: the printed profile's out, default langcrawl-demo-crawl)")
	cmd.Flags().IntVar(&workers, "workers", 8, "number of workers")
	return onInterrupt(cmd, "stopping (a crawl finishes its in-flight fetches and closes its files; --serve stops serving)", "quitting at once")
}

// demoProfile writes the profile the demo crawls with: seeds of g, every host
// dialled to addr. It is an ordinary profile, left in the output directory
// for the operator to read; header is its opening comment, which says what
// serves addr.
func demoProfile(g *webgen.Graph, addr, out string, workers int, header string) string {
	var seeds strings.Builder
	for _, s := range g.Seeds() {
		fmt.Fprintf(&seeds, "  - %s\n", g.URL(s))
	}
	return header + fmt.Sprintf(`seeds:
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
scheduling:
  # Every demo host is served from the one address above, which this bound
  # would take for one shared-hosting server. On the open web leave it at
  # its default, 4 fetches at once to the sites of one address.
  address_connections: 0
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

	if err := checkOutDir(out); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	abs, _ := filepath.Abs(out)
	profile := filepath.Join(out, demoProfileName)
	header := fmt.Sprintf(`# The profile langcrawl demo crawled with. Every host was served by the
# demo's own server on %s, which stopped when the demo ended: crawling
# with this profile again needs that server. Run
#   langcrawl demo --serve
# instead: it serves the same web until stopped and prints a profile for it.
`, ln.Addr())
	if err := os.WriteFile(profile, []byte(demoProfile(g, ln.Addr().String(), abs, workers, header)), 0o644); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	cfg, err := config.Load(profile, nil)
	if err != nil {
		return err
	}
	warnConfig(cfg, cmd.ErrOrStderr())
	fmt.Fprintf(cmd.ErrOrStderr(), "demo: serving %d pages on %d hosts at %s; crawling for Thai into %s\n",
		g.NumPages(), g.NumServers(), ln.Addr(), abs)
	_, err = runCrawl(ctx, cfg, cmd.OutOrStdout(), cmd.ErrOrStderr())
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "demo: WARC files are in %s\n", filepath.Join(abs, warcDir))
	return nil
}

// demoServeEnd is the last line of the profile demo --serve prints.
const demoServeEnd = "# Stop the server with Ctrl-C."

// serveDemo serves the built-in web on listen until ctx is done, after
// printing on stdout a profile that crawls it into out. It then shuts the
// server down, letting requests in progress finish for a few seconds.
func serveDemo(ctx context.Context, listen, out string, workers int, stdout, stderr io.Writer) error {
	g, err := webgen.Generate(webgen.DemoDefaults())
	if err != nil {
		return fmt.Errorf("demo web: %w", err)
	}
	srv, ln, err := webgen.NewServer(g, webgen.ServerOptions{NoLog: true}).Listen(listen) // it may run for days
	if err != nil {
		return fmt.Errorf("%w: --listen: %w", errUsage, err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	addr := ln.Addr().String()
	header := fmt.Sprintf(`# A profile that crawls the built-in web of langcrawl demo. It needs the
# server that printed it, langcrawl demo --serve on %s, running for the
# whole crawl. Save this as demo.yaml and run, in another terminal:
#   langcrawl crawl --profile demo.yaml
`, addr)
	fmt.Fprintf(stderr, "demo: serving %d pages on %d hosts at %s until interrupted (Ctrl-C)\n", g.NumPages(), g.NumServers(), addr)
	if _, err := fmt.Fprint(stdout, demoProfile(g, addr, out, workers, header)+demoServeEnd+"\n"); err != nil {
		srv.Close()
		return fmt.Errorf("print profile: %w", err)
	}

	select {
	case err := <-served:
		return fmt.Errorf("demo server on %s: %w", addr, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close() // the endless body and the slow host hold connections open
	}
	if err != nil {
		return fmt.Errorf("stop demo server: %w", err)
	}
	fmt.Fprintf(stderr, "demo: server on %s stopped\n", addr)
	return nil
}
