package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBudgetAcrossKill: max_pages is a budget for the whole job. A crawl
// killed (SIGKILL) part way and resumed stops at the same total, counted
// in the frontier with each completed URL; only the requests in flight at
// the kill are made twice; and a third run on the spent budget requests
// nothing at all (robots.txt verdicts are kept too).
func TestBudgetAcrossKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and crawls the demo web twice")
	}
	const budget = 60
	bin := buildLangcrawl(t)
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "max_pages: "+strconv.Itoa(budget)+"\n"+
		"retries: {max: 4, delay: 20ms, max_delay: 100ms}\n")
	profile := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(profile, []byte(cfg.YAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	pages := func() int { // requests the server saw, robots.txt aside
		n := 0
		for _, h := range w.srv.Log() {
			if h.URI != "/robots.txt" {
				n++
			}
		}
		return n
	}

	// Run 1: killed after about a third of the budget.
	child := exec.Command(bin, "crawl", "--profile", profile)
	var stderr bytes.Buffer
	child.Stderr = &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	for deadline := time.Now().Add(60 * time.Second); pages() < budget/3; time.Sleep(5 * time.Millisecond) { // polling the server's log
		select {
		case err := <-exited:
			t.Fatalf("the crawl ended before the kill: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			t.Fatalf("no progress in 60s:\n%s", stderr.String())
		}
	}
	child.Process.Signal(syscall.SIGKILL)
	<-exited
	first := pages()

	// Run 2: resumes and stops at the job's budget.
	run := func() string {
		var stdout, stderr bytes.Buffer
		c := exec.Command(bin, "crawl", "--profile", profile)
		c.Stdout, c.Stderr = &stdout, &stderr
		if err := c.Run(); err != nil {
			t.Fatalf("resume: %v\n%s\n%s", err, stdout.String(), stderr.String())
		}
		return stdout.String() + stderr.String()
	}
	sum := run()
	if !strings.Contains(sum, "stopped: max_pages reached") {
		t.Errorf("the resumed run did not stop at the budget:\n%s", sum)
	}
	m := regexp.MustCompile(`job totals over all runs of this generation: (\d+) requests`).FindStringSubmatch(sum)
	if m == nil || m[1] != strconv.Itoa(budget) {
		t.Errorf("job totals %v, want exactly %d requests:\n%s", m, budget, sum)
	}
	second := pages()
	if second < budget || second > budget+cfg.Workers {
		t.Errorf("the server saw %d requests over both runs (%d before the kill); want %d, plus at most %d in flight at the kill",
			second, first, budget, cfg.Workers)
	}
	t.Logf("%d requests before the kill, %d in all", first, second)

	// Run 3: the budget is spent; nothing is requested, robots.txt included.
	before := len(w.srv.Log())
	// It says why, and what to do (it said nothing before).
	if sum := run(); !strings.Contains(sum, "stopped: max_pages reached") ||
		!strings.Contains(sum, "nothing fetched: the job budget max_pages (60) was spent by earlier runs") {
		t.Errorf("third run:\n%s", sum)
	}
	if after := len(w.srv.Log()); after != before {
		t.Errorf("a run on a spent budget made %d requests", after-before)
	}
}
