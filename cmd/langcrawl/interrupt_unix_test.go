//go:build unix

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
)

// TestHangupDrains: SIGHUP, a closed terminal, drains the crawl as the
// first Ctrl-C does (it killed the crawl outright before, leaving its WARC
// file open: the crash trial), and a second one, which a hangup often
// brings, does not make it quit at once.
func TestHangupDrains(t *testing.T) { testSignalDrains(t, syscall.SIGHUP, syscall.SIGHUP) }

// TestTermDrains: SIGTERM, what `docker stop`, systemd and kill send,
// drains the crawl as the first Ctrl-C does.
func TestTermDrains(t *testing.T) { testSignalDrains(t, syscall.SIGTERM) }

// TestTermTwiceDrains: two SIGTERMs at once, as coreutils timeout sends
// them (to the process and to its group), are one request: the crawl
// drains (a crash trial found it quitting at once in 4 runs of 6).
func TestTermTwiceDrains(t *testing.T) { testSignalDrains(t, syscall.SIGTERM, syscall.SIGTERM) }

// TestHangupUnderNohup: a crawl started under nohup, which ignores SIGHUP,
// goes on to its end through a hangup (a review: Notify delivered it).
func TestHangupUnderNohup(t *testing.T) {
	nohup, err := exec.LookPath("nohup")
	if err != nil {
		t.Fatalf("nohup (coreutils) not found: %v", err)
	}
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	profile := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(profile, []byte(cfg.YAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout syncBuffer
	child := exec.Command(nohup, os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=crawl --profile "+profile)
	child.Stdout, child.Stderr = &stdout, io.Discard
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill() })
	deadline := time.Now().Add(60 * time.Second)
	for len(w.srv.Log()) < 50 {
		if time.Now().After(deadline) {
			t.Fatalf("the crawl under nohup made only %d requests in 60s", len(w.srv.Log()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	child.Process.Signal(syscall.SIGHUP)
	if err := child.Wait(); err != nil {
		t.Fatalf("crawl under nohup: %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "stopped: "+crawl.StopDone) {
		t.Errorf("the crawl under nohup did not run to its end through a hangup:\n%s", stdout.String())
	}
}

// TestSecondInterruptQuits checks README's promise for a second Ctrl-C:
// while the first one waits for a fetch that does not end, the second
// quits at once with status 130, and the URL that was in flight is
// fetched again, and archived, when the crawl resumes. The resume also
// shows that OUT/tmp is emptied at every start.
func TestSecondInterruptQuits(t *testing.T) { testSecondSignalQuits(t, os.Interrupt, os.Interrupt) }

// TestLateSecondTermQuits: a second SIGTERM more than a second after the
// first (dupTerm) is a second request, not the first delivered twice
// (TestTermTwiceDrains), and quits at once, status 130, as a second Ctrl-C
// does (an audit: README said so, and no test sent it).
func TestLateSecondTermQuits(t *testing.T) {
	testSecondSignalQuits(t, syscall.SIGTERM, syscall.SIGTERM)
}

// testSecondSignalQuits sends first to a crawl whose one fetch never ends,
// waits until it says it is draining, and, for a second SIGTERM, until
// more than dupTerm has passed since then; then second must quit at once
// with status 130, and a resumed crawl archives the URL that was in
// flight.
func testSecondSignalQuits(t *testing.T, first, second os.Signal) {
	var (
		mu      sync.Mutex
		hang    = true
		started = make(chan struct{}, 16)
		release = make(chan struct{})
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		h := hang
		mu.Unlock()
		if h {
			started <- struct{}{}
			select { // a server that never answers, until the test ends
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><body><p>answered at last</p></body></html>")
	}))
	defer srv.Close()
	defer close(release) // before srv.Close, which waits for the handlers

	out := t.TempDir()
	profile := filepath.Join(t.TempDir(), "p.yaml")
	yaml := fmt.Sprintf(`seeds: ["http://stall.test/"]
out: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
delay: 0s
timeouts: {fetch: 10m, read: 10m, drain: 10m}
network: {connect_to: {"stall.test": %q}}
`, out, strings.TrimPrefix(srv.URL, "http://"))
	if err := os.WriteFile(profile, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}

	var stderr syncBuffer
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=crawl --profile "+profile)
	child.Stdout, child.Stderr = io.Discard, &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- child.Wait() }()
	t.Cleanup(func() { child.Process.Kill() }) // a no-op once it has exited
	// Each wait is bounded so that a broken crawl fails the test instead
	// of hanging it; the bound is generous, not a timing.
	deadline := time.After(2 * time.Minute)
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("crawl ended before its first fetch: %v\n%s", err, stderr.String())
	case <-deadline:
		t.Fatalf("the crawl made no request\n%s", stderr.String())
	}
	child.Process.Signal(first)
	for !strings.Contains(stderr.String(), "interrupted; finishing in-flight fetches") {
		select {
		case err := <-done:
			t.Fatalf("crawl ended on the first interrupt (%v) though a fetch was in flight\n%s", err, stderr.String())
		case <-deadline:
			t.Fatalf("the crawl did not say it was draining\n%s", stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if second == syscall.SIGTERM {
		// The crawl took the first signal before it said so: past
		// dupTerm from here, the second is a request of its own.
		select {
		case err := <-done:
			t.Fatalf("crawl ended on the first signal (%v) though a fetch was in flight\n%s", err, stderr.String())
		case <-time.After(dupTerm + 200*time.Millisecond):
		}
	}
	child.Process.Signal(second)
	var err error
	select {
	case err = <-done:
	case <-deadline:
		t.Fatalf("the crawl did not quit on the second signal (%v)\n%s", second, stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("second signal (%v): exit %v, want status 130\n%s", second, err, stderr.String())
	}

	// A body spilled to OUT/tmp by the killed run is stale: the next start
	// empties the directory (README, "Output layout").
	stale := filepath.Join(out, tmpDir, "stale-body")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Resumed, the URL that was in flight is fetched again.
	mu.Lock()
	hang = false
	mu.Unlock()
	cfg, err := config.Load(profile, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s survived the restart (%v); OUT/tmp is emptied at every start", stale, err)
	}
	resp := responses(warcRecords(t, filepath.Join(out, warcDir)))
	if len(resp["http://stall.test/"]) != 1 {
		t.Errorf("after the resume http://stall.test/ was archived %d times, want 1 (responses: %v)", len(resp["http://stall.test/"]), slices.Collect(maps.Keys(resp)))
	}
}
