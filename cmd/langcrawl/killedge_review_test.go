package main

// Kill edges the existing kill tests (TestKillNine, TestKillAndResume) do
// not reach: a crawl killed while paused with its queue emptied, offline
// commands killed part way, and the stop's marker.

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// heldServer serves one page on 127.0.0.1 that it answers only once
// release is closed, and 404 to robots.txt; asked counts the page's
// requests.
type heldServer struct {
	addr    string
	release chan struct{}
	asked   chan struct{}
}

func startHeldServer(t *testing.T) *heldServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &heldServer{addr: ln.Addr().String(), release: make(chan struct{}), asked: make(chan struct{}, 64)}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		s.asked <- struct{}{}
		<-s.release
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><head><title>held</title></head><body><p>The only page of this web, with no links.</p></body></html>")
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// metric reads one unlabelled value from the crawl's /metrics; ok is
// false while the server does not answer.
func metric(base, name string) (float64, bool) {
	m, err := scrapeMetrics(base)
	v, ok := m[name]
	return v, err == nil && ok
}

// TestKillEdgePausedEmptyQueueNoNewGeneration: the operator pauses a
// crawl while its last URL is in flight; the URL completes, so the queue
// is empty, and the crawl waits paused (its workers never see the empty
// queue, so the run never reaches its stop and never writes "stopping").
// A kill then (a reboot during the reading room's busy hours) must be
// resumed as the same crawl, not taken for a finished one: the next
// start must not begin generation 2 and fetch the whole web again
// (TestCutShortAtEndCloses' fault, reached through a pause).
func TestKillEdgePausedEmptyQueueNoNewGeneration(t *testing.T) {
	bin := buildLangcrawl(t)
	s := startHeldServer(t)
	out := t.TempDir()
	profile := filepath.Join(t.TempDir(), "p.yaml")
	text := fmt.Sprintf(`seeds: [http://held.test/]
out: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: 1
delay: 10ms
timeouts: {connect: 2s, fetch: 5m, read: 5m}
metrics: {listen: %q}
network:
  connect_to:
    "held.test": %s
`, out, freeAddr(t), s.addr)
	if err := os.WriteFile(profile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	child := exec.Command(bin, "crawl", "--profile", profile)
	child.Stderr, child.Stdout = &stderr, io.Discard
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	defer child.Process.Kill()

	// The page is leased and its request waits at the server.
	select {
	case <-s.asked:
	case err := <-exited:
		t.Fatalf("crawl exited before asking for the page: %v\n%s", err, stderr.String())
	case <-time.After(time.Minute):
		t.Fatalf("the crawl never asked for the page:\n%s", stderr.String())
	}
	var base string
	waitFor(t, "the status page's address on stderr", func() bool {
		m := regexp.MustCompile(`status page: (http://127\.0\.0\.1:\d+)/#token=`).FindStringSubmatch(stderr.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	})
	tok := regexp.MustCompile(`control token: (\S+)`).FindStringSubmatch(stderr.String())
	if tok == nil {
		t.Fatalf("no control token on stderr:\n%s", stderr.String())
	}
	// The operator pauses it.
	req, _ := http.NewRequest("POST", base+"/control", strings.NewReader("pause busy hours"))
	req.Header.Set("X-Langcrawl-Token", tok[1])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("pause answered %d %s", resp.StatusCode, body)
	}
	// The last URL completes, the queue is empty, the crawl waits paused.
	close(s.release)
	waitFor(t, "the page's completion", func() bool {
		done, ok1 := metric(base, "langcrawl_frontier_completed_total")
		sites, ok2 := metric(base, "langcrawl_frontier_sites")
		return ok1 && ok2 && done >= 1 && sites == 0
	})
	if paused, ok := metric(base, "langcrawl_paused"); !ok || paused != 1 {
		t.Fatalf("the crawl is not paused (langcrawl_paused %v, %v)", paused, ok)
	}
	child.Process.Signal(syscall.SIGKILL)
	<-exited

	// The next start, as the operator runs it to resume.
	var out2 bytes.Buffer
	var err2 syncBuffer
	again := exec.Command(bin, "crawl", "--profile", profile)
	again.Stdout, again.Stderr = &out2, &err2
	done := make(chan error, 1)
	if err := again.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- again.Wait() }()
	// It starts paused (control.json); give it the page's answer at once
	// should it ask, and stop it once it has said what it does.
	waitFor(t, "the next start's first words", func() bool {
		e := err2.String()
		return strings.Contains(e, "paused since an earlier run") || strings.Contains(e, "generation 2") || strings.Contains(e, "resuming")
	})
	again.Process.Signal(os.Interrupt)
	<-done
	if strings.Contains(err2.String(), "generation 2 of the crawl") {
		t.Errorf("a crawl killed while paused after its last URL completed was taken for a finished one: its next start began generation 2, "+
			"queueing the whole web again where the operator meant to resume:\n%s", err2.String())
	}
}
