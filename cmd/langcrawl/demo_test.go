package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/config"
)

// TestDemo runs `langcrawl demo --out DIR` as an operator would and checks
// that it exits 0, leaves readable WARC files in DIR/warcs/ and says where.
func TestDemo(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=demo --out "+dir)
	var stdout, stderr bytes.Buffer
	child.Stdout, child.Stderr = &stdout, &stderr
	if err := child.Run(); err != nil {
		t.Fatalf("langcrawl demo: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	warcs := filepath.Join(dir, "warcs")
	if !strings.Contains(stdout.String(), "WARC files are in "+warcs) {
		t.Errorf("demo does not say where the WARCs are:\n%s", stdout.String())
	}
	recs := warcRecords(t, warcs)
	pages := 0
	for _, r := range recs {
		if r.Type == "response" {
			pages++
		}
	}
	if pages < 300 {
		t.Errorf("demo archived %d responses; the built-in web has hundreds of pages", pages)
	}
	saved, err := os.ReadFile(filepath.Join(dir, "demo-profile.yaml"))
	if err != nil {
		t.Errorf("demo leaves no profile to reuse: %v", err)
	}
	// Its server stopped with the demo: the profile says so, and how to
	// crawl the demo web again.
	if !strings.Contains(string(saved), "needs that server") || !strings.Contains(string(saved), "langcrawl demo --serve") {
		t.Errorf("the saved profile does not say it needs the demo's server:\n%s", saved)
	}
}

// TestDemoServe starts `langcrawl demo --serve` (its function, stopped by a
// context), crawls the built-in web with the profile it prints, as an
// operator would in a second terminal, and stops the server.
func TestDemoServe(t *testing.T) {
	out := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := serveDemo(ctx, "127.0.0.1:0", out, 4, pw, io.Discard)
		pw.CloseWithError(fmt.Errorf("serveDemo returned: %v", err))
		done <- err
	}()

	profile := servedProfile(t, pr)
	if !strings.Contains(profile.String(), "demo --serve on 127.0.0.1:") {
		t.Errorf("the profile does not say it needs the server:\n%s", profile.String())
	}
	path := filepath.Join(t.TempDir(), "demo.yaml")
	if err := os.WriteFile(path, []byte(profile.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, nil)
	if err != nil {
		t.Fatalf("the printed profile does not load: %v\n%s", err, profile.String())
	}
	if cfg.Out != out {
		t.Errorf("profile out %q, want --out %q", cfg.Out, out)
	}
	if _, err := runCrawl(ctx, cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, r := range warcRecords(t, filepath.Join(out, warcDir)) {
		if r.Type == "response" {
			pages++
		}
	}
	if pages < 300 {
		t.Errorf("the printed profile archived %d responses; the built-in web has hundreds of pages", pages)
	}

	// Stopped by its context: it returns, and the port no longer answers.
	addr := cfg.Network.ConnectTo["*"]
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serveDemo: %v", err)
		}
	case <-time.After(30 * time.Second): // a bound on a hang, not a wait: it returns at once
		t.Fatal("serveDemo did not return after its context was cancelled")
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after the server stopped", addr)
	}
}

// servedProfile reads the profile demo --serve prints on pr, up to its
// last line, and then drains pr so as never to block the server.
func servedProfile(t *testing.T, pr io.Reader) *strings.Builder {
	t.Helper()
	var profile strings.Builder
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		profile.WriteString(sc.Text() + "\n")
		if sc.Text() == demoServeEnd {
			break
		}
	}
	if !strings.HasSuffix(profile.String(), demoServeEnd+"\n") {
		t.Fatalf("no whole profile printed (%v):\n%s", sc.Err(), profile.String())
	}
	go io.Copy(io.Discard, pr) // nothing more is expected
	return &profile
}

// TestDemoFlags: --listen sets the address demo --serve answers on, which
// its printed profile dials, and is refused without --serve; --workers is
// the profile's workers.
func TestDemoFlags(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := serveDemo(ctx, addr, t.TempDir(), 3, pw, io.Discard)
		pw.CloseWithError(fmt.Errorf("serveDemo returned: %v", err))
		done <- err
	}()
	profile := servedProfile(t, pr)
	path := filepath.Join(t.TempDir(), "demo.yaml")
	if err := os.WriteFile(path, []byte(profile.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, nil)
	if err != nil {
		t.Fatalf("printed profile: %v\n%s", err, profile.String())
	}
	if got := cfg.Network.ConnectTo["*"]; got != addr {
		t.Errorf("--listen %s: the profile dials %q", addr, got)
	}
	if cfg.Workers != 3 {
		t.Errorf("--workers 3: the profile has workers %d", cfg.Workers)
	}
	if c, err := net.Dial("tcp", addr); err != nil {
		t.Errorf("nothing answers on --listen %s: %v", addr, err)
	} else {
		c.Close()
	}
	stop()
	if err := <-done; err != nil {
		t.Errorf("serveDemo: %v", err)
	}

	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=demo --listen 127.0.0.1:0 --out "+t.TempDir())
	var stderr bytes.Buffer
	child.Stderr = &stderr
	err = child.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "--listen needs --serve") {
		t.Errorf("demo --listen without --serve: %v, stderr %q; want exit 2 naming it", err, stderr.String())
	}
}
