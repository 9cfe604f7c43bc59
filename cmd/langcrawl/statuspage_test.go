package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// statusCheck is one line of tools/statuscheck/status.mjs's output.
type statusCheck struct {
	Phase  string `json:"phase"`
	Charts map[string]struct {
		Drawn  bool `json:"drawn"`
		Points int  `json:"points"`
		Inked  int  `json:"inked"`
	} `json:"charts"`
	Numbers map[string]any `json:"numbers"`
	Blocked []string       `json:"blocked"`
	Errors  []string       `json:"errors"`
}

// TestStatusPage drives the status page in headless Chromium during a
// crawl of the built-in web: the charts draw, the numbers it shows while
// the crawl is paused are those of /metrics, and the profile's exclusion
// of a server removed, that server's home page added as a seed and a
// delay changed through its forms show in the server's request log and
// the WARC files.
func TestStatusPage(t *testing.T) {
	tool := replayTool(t) // Chromium and playwright-core, as the replay test installs them
	script, err := filepath.Abs("../../tools/statuscheck/status.mjs")
	if err != nil {
		t.Fatal(err)
	}
	w := startWeb(t)
	out := t.TempDir()
	seeds, seed, host := steerWeb(t, w)
	const slow = 400 * time.Millisecond
	r := startCrawl(t, steerProfile(t, w, out, seeds, steerRule(seed)))
	waitFor(t, "some pages", func() bool { return r.report(t).Current.Pages >= 5 })
	// Paused until the page is up, which resumes it: the crawl must not
	// end before. Through /control, at once: an action file waits 3 s to
	// settle, in which this small web's crawl went far enough that too
	// little was left for the page's own resume and pause.
	r.control(t, "pause\n")
	r.quiet(t)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{script, "--deadline", "150", r.base + "/#token=" + r.token, seed, host, slow.String(), steerRule(seed)}
	if shot := os.Getenv("LANGCRAWL_STATUS_SCREENSHOT"); shot != "" {
		args = append(args[:1], append([]string{"--screenshot", shot}, args[1:]...)...)
	}
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = tool
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	var stderr syncBuffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	next := func(want string) statusCheck {
		t.Helper()
		if !lines.Scan() {
			cmd.Wait()
			t.Fatalf("status.mjs ended before %q: %v\n%s", want, lines.Err(), stderr.String())
		}
		var c statusCheck
		if err := json.Unmarshal(lines.Bytes(), &c); err != nil || c.Phase != want {
			t.Fatalf("status.mjs said %s, want phase %q (%v)\n%s", lines.Text(), want, err, stderr.String())
		}
		return c
	}
	say := func(word string) { io.WriteString(stdin, word+"\n") }

	drawn := next("drawn")
	for _, id := range []string{"c-pages", "c-bytes", "c-queue", "c-sites"} {
		c, ok := drawn.Charts[id]
		if !ok || !c.Drawn || c.Points < 2 || c.Inked < 50 {
			t.Errorf("chart %s: %+v, want drawn with points and lines", id, c)
		}
	}
	if _, ok := drawn.Charts["c-harvest"]; ok {
		t.Error("a harvest chart is shown for a crawl with no target language")
	}
	if len(drawn.Blocked) > 0 || len(drawn.Errors) > 0 {
		t.Errorf("page requests outside the crawl: %v; script errors: %v", drawn.Blocked, drawn.Errors)
	}

	paused := next("paused")
	m := r.metrics(t)
	for id, metric := range map[string]string{
		"n-pages":    "langcrawl_responses_total",
		"n-bytes":    "langcrawl_response_bytes_total",
		"n-html":     "langcrawl_html_pages_total",
		"n-failed":   "langcrawl_fetch_failures_total",
		"n-queued":   "langcrawl_frontier_queued",
		"n-inflight": "langcrawl_frontier_inflight",
	} {
		if got, _ := paused.Numbers[id].(float64); got != m[metric] {
			t.Errorf("the page shows %s = %v, /metrics %s = %v", id, paused.Numbers[id], metric, m[metric])
		}
	}
	before := len(w.srv.Log())
	say("steer")
	next("steered")
	if n := len(w.srv.Log()); n != before {
		t.Errorf("%d requests while paused", n-before)
	}
	say("resume")
	resumed := next("resumed")
	if len(resumed.Blocked) > 0 || len(resumed.Errors) > 0 {
		t.Errorf("page requests outside the crawl: %v; script errors: %v", resumed.Blocked, resumed.Errors)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("status.mjs: %v\n%s", err, stderr.String())
	}
	r.wait(t)

	log := w.srv.Log()
	su, _ := url.Parse(seed)
	if n := len(hitsOf(log[:before], su.Hostname())); n > 0 {
		t.Errorf("the excluded host %s was requested %d times before it was added", su.Hostname(), n)
	}
	if len(hitsOf(log[before:], su.Hostname())) == 0 {
		hosts := map[string]int{}
		for _, h := range log[before:] {
			hosts[h.Host]++
		}
		t.Errorf("the seed added through the page, %s, was never requested; after the pause: %v", seed, hosts)
	}
	if resp := responses(warcRecords(t, filepath.Join(out, warcDir))); len(resp[seed]) != 1 {
		t.Errorf("the seed added through the page, %s, archived %d times, want 1", seed, len(resp[seed]))
	}
	hs := hitsOf(log[before:], host)
	if len(hs) < 3 {
		t.Fatalf("only %d requests of %s after the resume", len(hs), host)
	}
	checkGaps(t, host, hs, slow) // the delay set through the page
	if !strings.Contains(r.stdout.String(), "stopped: frontier empty") {
		t.Errorf("the crawl did not finish:\n%s", r.stdout)
	}
}
