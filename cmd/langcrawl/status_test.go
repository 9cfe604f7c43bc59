package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
	"github.com/langcrawl/langcrawl/status"
	"github.com/langcrawl/langcrawl/webgen"
)

// The status tests steer a crawl of the built-in web while it runs — from
// the action directory here, from the page in headless Chromium in
// statuspage_test.go — and judge the outcome by the server's request log
// and the WARC files.

// syncBuffer is an io.Writer safe for concurrent use, for a crawl's stderr.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// running is a crawl started by startCrawl.
type running struct {
	out    string
	stdout *syncBuffer
	stderr *syncBuffer
	done   chan struct{}
	snap   crawl.Snapshot
	err    error
	base   string // http://127.0.0.1:PORT, the status page
	token  string
}

// startCrawl runs the crawl of cfg in the background and waits for its
// status page to be served.
func startCrawl(t *testing.T, cfg *config.Config) *running {
	t.Helper()
	r := &running{out: cfg.Out, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.snap, r.err = runCrawl(context.Background(), cfg, r.stdout, r.stderr)
	}()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			// A failed test leaves the crawl running: stop it.
			os.WriteFile(filepath.Join(r.out, actionDir, "zz-stop"), []byte("resume\nstop\n"), 0o644)
			<-r.done
		}
	})
	re := regexp.MustCompile(`status page: (http://[^/]+)/#token=([0-9a-f]+)`)
	waitFor(t, "the status page address on stderr", func() bool {
		m := re.FindStringSubmatch(r.stderr.String())
		if m != nil {
			r.base, r.token = m[1], m[2]
		}
		select {
		case <-r.done:
			t.Fatalf("crawl ended before its status page was up: %v\n%s", r.err, r.stderr)
		default:
		}
		return m != nil
	})
	return r
}

// wait waits for the crawl to end and fails the test on an error.
func (r *running) wait(t *testing.T) {
	t.Helper()
	waitFor(t, "the crawl to end", func() bool {
		select {
		case <-r.done:
			return true
		default:
			return false
		}
	})
	if r.err != nil {
		t.Fatalf("crawl: %v\n%s", r.err, r.stderr)
	}
}

// waitFor polls cond until it holds, failing the test at the test's
// deadline (or after 3 minutes without one).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	if d, ok := t.Deadline(); ok {
		deadline = d.Add(-10 * time.Second)
	}
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// report reads /status.json.
func (r *running) report(t *testing.T) status.Report {
	t.Helper()
	resp, err := http.Get(r.base + "/status.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep status.Report
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// metrics scrapes /metrics into name{labels} -> value.
func (r *running) metrics(t *testing.T) map[string]float64 {
	t.Helper()
	m, err := scrapeMetrics(r.base)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// scrapeMetrics reads the /metrics of the status server at base into
// name{labels} -> value.
func scrapeMetrics(base string) (map[string]float64, error) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	m := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("metrics line %q: %w", line, err)
		}
		m[line[:i]] = v
	}
	return m, sc.Err()
}

// drop writes an action file as an operator should: under a dot name,
// then renamed into place.
func (r *running) drop(t *testing.T, name, text string) {
	t.Helper()
	dir := filepath.Join(r.out, actionDir)
	tmp := filepath.Join(dir, "."+name)
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// control applies commands at once through the status page's /control,
// as its buttons do (an action file waits to settle, 3 s).
func (r *running) control(t *testing.T, commands string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.base+"/control", strings.NewReader(commands))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Langcrawl-Token", r.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if body, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusOK {
		t.Fatalf("/control %q: %s %s", commands, res.Status, body)
	}
}

// processed waits until the action file name has been moved to done/ and
// returns its path there.
func (r *running) processed(t *testing.T, name string) string {
	t.Helper()
	var got string
	waitFor(t, "action file "+name+" to be processed", func() bool {
		m, _ := filepath.Glob(filepath.Join(r.out, actionDir, "done", "*-"+name))
		for _, p := range m {
			if !strings.HasSuffix(p, ".err") {
				got = p
				return true
			}
		}
		return false
	})
	return got
}

// quiet waits until the crawl is paused with nothing in flight, two
// samples in a row showing the same counts.
func (r *running) quiet(t *testing.T) status.Report {
	t.Helper()
	var prev, rep status.Report
	waitFor(t, "the paused crawl to settle", func() bool {
		prev, rep = rep, r.report(t)
		return rep.Details.Paused && rep.Current.InFlight == 0 && prev.Details.Paused &&
			prev.Current.Pages == rep.Current.Pages && prev.Current.Failed == rep.Current.Failed
	})
	return rep
}

// freeAddr returns a loopback address with a port free now (the
// profile wants a port number).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// steerDepth is the depth of the crawls steered: the built-in web is one
// connected graph, and a depth limit leaves servers out of reach.
const steerDepth = 2

// steerWeb picks, in the built-in web, the seeds of a crawl to steer (the
// first seed of the web alone), the home page of a server they do not
// lead to within steerDepth+3 links (answering 200, robots allowing it)
// to add as a seed, and the host of the seed, whose delay is changed.
// The web is one connected graph, and the depth limit counts within
// each site tree, so steerProfile excludes the far server (steerRule):
// only the seed added while the crawl runs, with that rule removed,
// reaches it.
func steerWeb(t *testing.T, w *demoWeb) (seeds []string, unreached, busiest string) {
	t.Helper()
	first := w.g.Seeds()[:1]
	dist := w.g.Distances(first)
	for si := int32(0); si < int32(w.g.NumServers()); si++ {
		info := w.g.Server(si)
		reached := false
		for p := info.First; p < info.End; p++ {
			if dist[p] >= 0 && dist[p] <= steerDepth+3 {
				reached = true
				break
			}
		}
		if dist[info.First] == 0 {
			busiest = info.Host
		}
		if reached || info.End <= info.First || unreached != "" {
			continue
		}
		u := w.g.URL(info.First)
		if tr, ok := w.g.Truth(u); ok && tr.Status == 200 && !tr.Disallowed && !strings.Contains(u, "?") {
			unreached = u
		}
	}
	if unreached == "" {
		t.Fatal("every server of the built-in web is near its first seed")
	}
	return []string{w.g.URL(first[0])}, unreached, busiest
}

// steerRule is the profile's exclusion rule for the far server of
// steerWeb, whose home page is u.
func steerRule(u string) string {
	h, _ := url.Parse(u)
	return `^https?://` + regexp.QuoteMeta(h.Hostname()) + `/`
}

// steerProfile is a crawl of seeds in the built-in web, with its status
// page on a port of its own, and extra keys appended.
func steerProfile(t *testing.T, w *demoWeb, out string, seeds []string, exclude string, extra ...string) *config.Config {
	t.Helper()
	p := filepath.Join(t.TempDir(), "profile.yaml")
	text := fmt.Sprintf(`seeds: [%s]
out: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: 4
delay: 100ms
depth: %d
max_pages_per_site: 300
max_body_size: 1MiB
timeouts: {connect: 2s, fetch: 5s, read: 2s}
network:
  connect_to:
    "*": %s
metrics:
  listen: %s
scope:
  exclude: [%q]
%s`, strings.Join(seeds, ", "), out, steerDepth, w.addr, freeAddr(t), exclude, strings.Join(extra, ""))
	return loadProfileText(t, p, text)
}

// hitsOf returns the server's hits on host, in the order they started.
func hitsOf(log []webgen.Hit, host string) []webgen.Hit {
	var out []webgen.Hit
	for _, h := range log {
		if h.Host == host {
			out = append(out, h)
		}
	}
	return out
}

func TestActionDirectory(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	seeds, seed, host := steerWeb(t, w)
	const slow = 400 * time.Millisecond
	// host starts slower still, so that some of its pages are left after
	// the pause, which takes effect only once its file has settled (3 s):
	// at the profile's 100 ms, a loaded run had fetched nearly all of
	// them by then.
	r := startCrawl(t, steerProfile(t, w, out, seeds, steerRule(seed), fmt.Sprintf("hosts: {%q: {delay: 300ms}}\n", host)))

	waitFor(t, "some pages", func() bool { return r.report(t).Current.Pages >= 5 })
	r.drop(t, "1-pause", "# the reading room's busy hours\npause busy hours\n")
	r.processed(t, "1-pause")
	rep := r.quiet(t)
	if rep.Details.PauseReason != "busy hours" {
		t.Errorf("pause reason %q, want %q", rep.Details.PauseReason, "busy hours")
	}
	before := len(w.srv.Log())

	r.drop(t, "2-steer", fmt.Sprintf("unexclude %s\nexclude ^https?://nowhere\\.test/\nseed %s\ndelay %s %s\n", steerRule(seed), seed, host, slow))
	r.drop(t, "3-bad", "pause\nfrobnicate now\n")
	r.drop(t, "4-urls.seeds", "# a seeds file: bare URLs\n"+seed+"\n")
	r.processed(t, "2-steer")
	bad := r.processed(t, "3-bad")
	again := r.processed(t, "4-urls.seeds")
	if msg, err := os.ReadFile(bad + ".err"); err != nil || !strings.Contains(string(msg), "line 2") {
		t.Errorf("the bad file's errors: %q, %v; want the line of frobnicate", msg, err)
	}
	// The seed 2-steer queued, given again, is not queued twice, and the
	// operator is told (it used to pass in silence).
	// It is said as a note, not an error: the command did what it could
	// (an .err until the fourteenth session).
	if msg, err := os.ReadFile(again + ".note"); err != nil || !strings.Contains(string(msg), "0 of 1 seeds queued; the others were queued or fetched before") {
		t.Errorf("a seed seen before: %q, %v; want it said", msg, err)
	}
	if _, err := os.Stat(again + ".err"); err == nil {
		t.Errorf("a seed seen before left %s.err: it is a note, not an error", again)
	}
	var st controlState
	data, err := os.ReadFile(filepath.Join(out, controlFile))
	if err != nil || json.Unmarshal(data, &st) != nil {
		t.Fatalf("control state: %v %s", err, data)
	}
	if !st.Paused || st.Delays[host] != slow.String() || len(st.Seeds) != 1 || st.Seeds[0] != seed ||
		!slices.Equal(st.Unexcluded, []string{steerRule(seed)}) || !slices.Equal(st.Excludes, []string{`^https?://nowhere\.test/`}) {
		t.Errorf("control state %+v: want paused, %s at %s, the seed once (given twice: kept twice until the fourteenth session), the profile's rule removed, a rule added", st, host, slow)
	}
	if ex := r.report(t).Details.Excludes; !slices.Equal(ex, []string{`^https?://nowhere\.test/`}) {
		t.Errorf("exclusion rules in force: %q", ex)
	}
	// Nothing was fetched while the crawl was paused, for as long as it
	// took to apply the files above.
	if n := len(w.srv.Log()); n != before {
		t.Errorf("%d requests while paused", n-before)
	}

	r.drop(t, "5-resume", "resume\n")
	r.wait(t)

	log := w.srv.Log()
	su, _ := url.Parse(seed)
	seedHost := su.Hostname()
	if n := len(hitsOf(log[:before], seedHost)); n > 0 {
		t.Errorf("the excluded host %s was requested %d times before it was added", seedHost, n)
	}
	if len(hitsOf(log[before:], seedHost)) == 0 {
		t.Errorf("the added seed's host %s was never requested", seedHost)
	}
	resp := responses(warcRecords(t, filepath.Join(out, warcDir)))
	if len(resp[seed]) != 1 {
		t.Errorf("the added seed %s archived %d times, want 1", seed, len(resp[seed]))
	}
	// After the resume, host's requests start at least the new delay
	// after the end of the one before.
	hs := hitsOf(log[before:], host)
	if len(hs) < 3 {
		t.Fatalf("only %d requests of %s after the resume", len(hs), host)
	}
	checkGaps(t, host, hs, slow)
}

// checkGaps fails for each request of hs that started less than min
// after the previous response was sent (webgen.Hit.Sent).
func checkGaps(t *testing.T, host string, hs []webgen.Hit, min time.Duration) {
	t.Helper()
	for i := 1; i < len(hs); i++ {
		if gap := hs[i].Start.Sub(hs[i-1].Sent); gap < min {
			t.Errorf("%s: %s then %s %v later, want at least %v", host, hs[i-1].URI, hs[i].URI, gap, min)
		}
	}
}

// summaryCount reads "archived: N responses" and the like from a summary.
func summaryCount(t *testing.T, summary, pattern string) float64 {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("summary has no %q:\n%s", pattern, summary)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// TestMetricsAgreeWithSummary scrapes /metrics while a crawl of the
// built-in web is paused, stops it from the action directory, and checks
// the scrape against the summary, the status page and the WARC files;
// then runs the crawl again, which starts as it was left (OUT/control.json):
// paused, with the exclusion and the delay the operator added, and
// resumes it.
func TestMetricsAgreeWithSummary(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	seeds, far, host := steerWeb(t, w)
	cfg := steerProfile(t, w, out, seeds, steerRule(far))
	r := startCrawl(t, cfg)
	waitFor(t, "some pages", func() bool { return r.report(t).Current.Pages >= 5 })
	const rule, delay = `^https?://nowhere\.test/`, "300ms"
	r.drop(t, "pause", fmt.Sprintf("pause\nexclude %s\ndelay %s %s\n", rule, host, delay))
	r.processed(t, "pause")
	rep := r.quiet(t)
	m := r.metrics(t)
	r.drop(t, "stop", "stop\n")
	r.wait(t)
	sum := r.stdout.String()
	if !strings.Contains(sum, "stopped: "+errOperatorStop.Error()) {
		t.Errorf("summary does not say the operator stopped the crawl:\n%s", sum)
	}
	if strings.Contains(sum, "harvest") {
		t.Errorf("a crawl with no target language reports a harvest rate:\n%s", sum)
	}
	recs := warcRecords(t, filepath.Join(out, warcDir))
	resp := 0
	for _, rec := range recs {
		if rec.Type == "response" {
			resp++
		}
	}
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{"langcrawl_responses_total", summaryCount(t, sum, `archived: (\d+) responses`)},
		{"langcrawl_responses_total", float64(rep.Current.Pages)},
		{"langcrawl_html_pages_total", summaryCount(t, sum, `pages: (\d+) HTML`)},
		{"langcrawl_fetch_failures_total", summaryCount(t, sum, `failed: (\d+) given up`)},
		{"langcrawl_robots_disallowed_total", summaryCount(t, sum, `not fetched: (\d+) disallowed by robots.txt`)},
		{"langcrawl_frontier_seen", summaryCount(t, sum, `frontier: \d+ queued, (\d+) seen`)},
		{"langcrawl_frontier_queued", summaryCount(t, sum, `frontier: (\d+) queued`)},
		{"langcrawl_frontier_inflight", 0},
		{"langcrawl_paused", 1}, // scraped while paused: an alert can watch for it
		// Every response is archived: the engine's count, the fetcher's
		// and the WARC writer's agree with the records read back, the
		// robots.txt fetches included in all but the engine's.
		{"langcrawl_fetcher_responses_total", float64(resp)},
		{"langcrawl_warc_exchanges_total", float64(resp)},
		{"langcrawl_politeness_robots_fetches_total", float64(resp) - m["langcrawl_responses_total"]},
	} {
		if got, ok := m[c.metric]; !ok || got != c.want {
			t.Errorf("%s = %v (scraped: %v), want %v", c.metric, got, ok, c.want)
		}
	}
	// The URLs' outcomes by class (README: every class exported from the
	// start, at 0), and the responses among them.
	for _, class := range []string{"2xx", "3xx", "4xx", "5xx", "skipped", "error"} {
		if _, ok := m[`langcrawl_status_total{class="`+class+`"}`]; !ok {
			t.Errorf("/metrics lacks langcrawl_status_total for class %s", class)
		}
	}
	if got := m[`langcrawl_status_total{class="2xx"}`]; got <= 0 || got > m["langcrawl_responses_total"] {
		t.Errorf(`langcrawl_status_total{class="2xx"} = %v, want at least one and no more than the %v responses`, got, m["langcrawl_responses_total"])
	}
	// The runtime's and the process's own gauges, which a long crawl is
	// watched by for a leak (a soak trial found none exported).
	own := []string{"go_goroutines", "go_memstats_heap_inuse_bytes"}
	if runtime.GOOS == "linux" {
		own = append(own, "process_resident_memory_bytes", "process_open_fds")
	}
	for _, name := range own {
		if m[name] <= 0 {
			t.Errorf("/metrics has %s = %v, want it exported and positive", name, m[name])
		}
	}
	for name := range m {
		if strings.Contains(name, "host=") || strings.Contains(name, "url=") {
			t.Errorf("metric labelled by host or URL: %s", name)
		}
	}

	// Every change is logged, and the start logged the status page with
	// its token (README, "Monitoring and steering").
	logText := func() string {
		b, err := os.ReadFile(filepath.Join(out, "logs", "langcrawl.log"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	lg := logText()
	for _, cmd := range []string{"pause", "exclude " + rule, "delay " + host + " " + delay} {
		if !strings.Contains(lg, "msg=control from=") || !strings.Contains(lg, fmt.Sprintf("command=%q", cmd)) && !strings.Contains(lg, "command="+cmd+"\n") {
			t.Errorf("langcrawl.log does not log the command %q:\n%s", cmd, lg)
		}
	}
	first := r.token
	if !strings.Contains(lg, "#token="+first) || !strings.Contains(r.stderr.String(), "control token: "+first+"\n") {
		t.Errorf("the control token %s is not on stderr and in langcrawl.log", first)
	}

	// The crawl runs again as it was left: paused, until resumed.
	before := len(w.srv.Log())
	r = startCrawl(t, cfg)
	rep = r.report(t) // served: the status page's log line, written before the server starts, is there
	if r.token == first || !strings.Contains(logText(), "#token="+r.token) {
		t.Errorf("the second start's control token %s: want a new one (the first was %s), in langcrawl.log", r.token, first)
	}
	if !rep.Details.Paused {
		t.Fatal("the crawl run again does not start paused")
	} else if !strings.Contains(r.stderr.String(), "paused since an earlier run") {
		t.Errorf("the crawl run again does not say on stderr that it is paused:\n%s", r.stderr)
	} else if !slices.Contains(rep.Details.Excludes, rule) || rep.Details.Delays[host] != delay {
		t.Errorf("the crawl run again has exclusions %q and delays %v; want %s kept, and %s for %s", rep.Details.Excludes, rep.Details.Delays, rule, delay, host)
	}
	// And says what else of the operator's is in force (a delay set
	// months ago slowed a re-crawl in silence: an archivist's trial).
	if e := r.stderr.String(); !strings.Contains(e, "in force from earlier runs") || !strings.Contains(e, "delay "+host+" "+delay) || !strings.Contains(e, "exclude "+rule) {
		t.Errorf("the crawl run again does not say which changes are in force:\n%s", e)
	}
	r.drop(t, "noop", "# nothing\n")
	r.processed(t, "noop")
	if n := len(w.srv.Log()); n != before {
		t.Errorf("%d requests before the resume", n-before)
	}
	r.drop(t, "resume", "resume\n")
	r.wait(t)
	if !strings.Contains(r.stdout.String(), "stopped: "+crawl.StopDone) {
		t.Errorf("the resumed crawl did not finish:\n%s", r.stdout)
	}
	if len(w.srv.Log()) == before {
		t.Error("nothing fetched after the resume")
	}
}

// TestActionFileSettles: an action file is applied once the crawler has
// seen it unchanged (size and time) for actionSettle by its own clock: a
// file still being written (a slow copy: the helper that found this wrote
// half a file, waited, and wrote the rest) is left for a later poll, and
// neither a writer's clock ahead (a file stamped ten minutes on) nor one
// behind (stamped ten seconds ago while still being written) changes
// that. Only the crawl's first look, before any fetch, takes a file whose
// own time is old enough.
func TestActionFileSettles(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, actionDir)
	os.MkdirAll(dir, 0o755)
	c := &crawl.Crawler{}
	s := newSteering(out, c, nil, nil, nil, "", slog.New(slog.DiscardHandler))
	now := time.Now()
	drop := func(name, text string, stamp time.Time) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, stamp, stamp); err != nil {
			t.Fatal(err)
		}
		return f
	}
	seen := actionFiles{}
	ahead := drop("ahead", "pause legal review  # ticket\n", now.Add(10*time.Minute))
	behind := drop("behind", "seed http://a.exa", now.Add(-10*time.Second)) // half written
	processActions(context.Background(), dir, s, now, seen, false)
	processActions(context.Background(), dir, s, now.Add(actionSettle/2), seen, false)
	for _, f := range []string{ahead, behind} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s was taken before it settled: %v", filepath.Base(f), err)
		}
	}
	if _, paused := c.Paused(); paused {
		t.Fatal("applied before it settled")
	}
	// The writer finishes the second file: it starts settling afresh.
	drop("behind", "resume\n", now.Add(-9*time.Second))
	processActions(context.Background(), dir, s, now.Add(actionSettle), seen, false)
	if why, paused := c.Paused(); !paused || why != "legal review" {
		t.Errorf("after it settled: Paused() = %q, %v; want the pause, its comment left out", why, paused)
	}
	if _, err := os.Stat(ahead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the applied file is still in action/: %v", err)
	}
	if _, err := os.Stat(behind); err != nil {
		t.Errorf("the file finished a moment ago was taken: %v", err)
	}
	processActions(context.Background(), dir, s, now.Add(actionSettle*3), seen, false)
	if _, paused := c.Paused(); paused {
		t.Error("the finished file, once settled, did not resume the crawl")
	}
	// The first look of a crawl takes a file its writer left long ago.
	old := drop("old", "pause\n", now.Add(-time.Hour))
	processActions(context.Background(), dir, s, now, actionFiles{}, true)
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the start did not take a file an hour old: %v", err)
	}
}

// TestActionFileTooLarge: a file in action/ larger than maxActionFile is
// not read: it is moved to done/ with an .err that says why, and nothing
// is applied (a steering trial's 30 MB of binary made a log line of
// 141 MB and took the crawler from 215 MB to 710 MB of memory).
func TestActionFileTooLarge(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, actionDir)
	os.MkdirAll(dir, 0o755)
	c := &crawl.Crawler{}
	s := newSteering(out, c, nil, nil, nil, "", slog.New(slog.DiscardHandler))
	f := filepath.Join(dir, "huge")
	big := append([]byte("pause\n"), bytes.Repeat([]byte{0xff}, maxActionFile)...)
	if err := os.WriteFile(f, big, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(f, old, old)
	processActions(context.Background(), dir, s, time.Now(), actionFiles{}, true)
	if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the large file is still in action/: %v", err)
	}
	if _, paused := c.Paused(); paused {
		t.Error("a command of the large file was applied")
	}
	errs, _ := filepath.Glob(filepath.Join(dir, "done", "*-huge.err"))
	if len(errs) != 1 {
		t.Fatalf("done/ holds %d .err files for it, want 1", len(errs))
	}
	if b, _ := os.ReadFile(errs[0]); len(b) > 300 || !strings.Contains(string(b), "split it") {
		t.Errorf("its .err (%d bytes) says %.300q; want a short line saying to split it", len(b), b)
	}
}

// TestDelayKeysNormalised: a delay is kept in control.json under the key
// the gate matches hosts by, so that "delay TH-Travel.test 10s" and
// "delay th-travel.test default" name one entry (the first used to come
// back at the next start), and a Thai host name is kept in punycode, as
// crawled URLs carry it (it used to match nothing). Clearing a delay
// that is not set says so.
func TestDelayKeysNormalised(t *testing.T) {
	out := t.TempDir()
	g, err := politeness.New(politeness.Config{Policy: politeness.Ignore, Delay: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gate := politeness.NewSteered(g)
	s := newSteering(out, &crawl.Crawler{}, gate, nil, nil, "", slog.New(slog.DiscardHandler))
	apply := func(line string) error {
		cmds, err := status.ParseCommands(line)
		if err != nil {
			t.Fatal(err)
		}
		return s.Apply(context.Background(), "test", cmds)
	}
	for _, line := range []string{"delay TH-Travel.test 10s", "delay th-travel.test default", "delay ทดสอบ.test 3s"} {
		if err := apply(line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	if err := apply("delay a.test default"); err == nil || !strings.Contains(err.Error(), "no delay is set for a.test") {
		t.Errorf("clearing a delay never set: %v", err)
	}
	// Beside a failure the answer says which lines were applied (a
	// steering trial read the second as not applied).
	if err := apply("delay b.test default\ndelay c.test 7s"); err == nil || !strings.Contains(err.Error(), "the other commands were applied (line 2)") {
		t.Errorf("a failure beside an applied command: %v", err)
	}
	if err := apply("delay c.test default"); err != nil {
		t.Fatal(err)
	}
	var st controlState
	data, _ := os.ReadFile(filepath.Join(out, controlFile))
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Delays) != 1 || st.Delays["xn--l3cfk7dp.test"] != "3s" {
		t.Errorf("control.json delays = %v, want only xn--l3cfk7dp.test: 3s", st.Delays)
	}
	if d := gate.Delay("xn--l3cfk7dp.test"); d != 3*time.Second {
		t.Errorf("the Thai host's delay is %v, want 3s", d)
	}
}

// TestUnexcludeOutlivesProfileRule: a rule the profile holds, excluded
// again by the operator and then removed, stays removed at the next
// start (the removal was dropped from control.json when the operator had
// also added the rule, and the profile's copy came back).
func TestUnexcludeOutlivesProfileRule(t *testing.T) {
	out := t.TempDir()
	const rule = `^https?://cal\.example/`
	start := func() (*scope.Filter, *steering) {
		f := &scope.Filter{}
		if err := f.AddExclude(rule); err != nil { // the profile's
			t.Fatal(err)
		}
		s := newSteering(out, &crawl.Crawler{}, nil, f, nil, "", slog.New(slog.DiscardHandler))
		if err := s.restore(); err != nil {
			t.Fatal(err)
		}
		return f, s
	}
	_, s := start()
	for _, line := range []string{"exclude " + rule, "unexclude " + rule} {
		cmds, err := status.ParseCommands(line)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(context.Background(), "test", cmds); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	f, s := start()
	if slices.Contains(f.Excludes(), rule) {
		t.Errorf("after a restart the removed rule is back: %q", f.Excludes())
	}
	// A rule only the operator added, then lifted, is not the profile's:
	// not kept as removed, and not said to be (a steering trial).
	const own = `^https?://own\.example/`
	for _, line := range []string{"exclude " + own, "unexclude " + own} {
		cmds, _ := status.ParseCommands(line)
		if err := s.Apply(context.Background(), "test", cmds); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	if _, s = start(); slices.Contains(s.state.Unexcluded, own) || strings.Count(s.restoredNote(), "exclusion rules removed") != 1 ||
		!strings.Contains(s.restoredNote(), "1 of the profile's exclusion rules removed") {
		t.Errorf("after lifting an operator's own rule: unexcluded %q, note %q", s.state.Unexcluded, s.restoredNote())
	}
}

// TestDamagedControlStateStopsStart: a start whose OUT/control.json does
// not parse stops before it opens the frontier, so the refused start
// changes nothing (a steering trial saw it begin a new generation and
// queue its seeds first).
func TestDamagedControlStateStopsStart(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	listing := func() string {
		var b strings.Builder
		filepath.WalkDir(filepath.Join(out, frontierDir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				info, _ := d.Info()
				fmt.Fprintf(&b, "%s %d %v\n", p, info.Size(), info.ModTime())
			}
			return nil
		})
		return b.String()
	}
	before := listing()
	// A file that does not parse, and (a review) one that parses with a
	// value restore refuses.
	for _, bad := range []string{"{not json", `{"delays": {"a.test": "fast"}}`, `{"excludes": ["(x"]}`, `{"seeds": ["ftp://a.test/"]}`} {
		if err := os.WriteFile(filepath.Join(out, controlFile), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "fix or remove it") {
			t.Fatalf("%s: runCrawl = %v, want the damaged control state named", bad, err)
		}
		if after := listing(); after != before {
			t.Errorf("%s: the refused start changed the frontier:\nbefore %s\nafter %s", bad, before, after)
		}
	}
}

// TestRestoredNoteNamesSeeds: the start names the seeds added while an
// earlier run ran, as it names delays and exclusions (a steering trial
// found them left out).
func TestRestoredNoteNamesSeeds(t *testing.T) {
	s := newSteering(t.TempDir(), &crawl.Crawler{}, nil, nil, nil, "", slog.New(slog.DiscardHandler))
	s.state.Seeds = []string{"http://a.test/"}
	if n := s.restoredNote(); !strings.Contains(n, "seed http://a.test/") {
		t.Errorf("one seed: %q", n)
	}
	s.state.Seeds = append(s.state.Seeds, "http://b.test/")
	if n := s.restoredNote(); !strings.Contains(n, "2 seeds added") {
		t.Errorf("two seeds: %q", n)
	}
}

// TestLoopbackListen: which metrics.listen addresses check the Host
// header (status.Config.AnyHost off): the loopback ones.
func TestLoopbackListen(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:9100": true, "[::1]:9100": true, "localhost:9100": true, "127.0.0.2:9100": true,
		"0.0.0.0:9100": false, "[::]:9100": false, "10.1.2.3:9100": false, "crawler.lib.example:9100": false,
	} {
		if got := loopbackListen(addr); got != want {
			t.Errorf("loopbackListen(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestDenyAddressesReachFetcher: network.deny_addresses from the profile
// reaches the fetcher's guard.
func TestDenyAddressesReachFetcher(t *testing.T) {
	cfg := &config.Config{}
	cfg.Network.DenyAddresses = []string{"130.225.0.0/16"}
	if got := fetchConfig(cfg, nil).DenyAddresses; len(got) != 1 || got[0] != "130.225.0.0/16" {
		t.Errorf("fetch.Config.DenyAddresses = %v", got)
	}
}

// TestStatusServerDropsTricklingClient: a client that sends a /control
// head and then trickles its body, or goes quiet, has its connection
// closed once the read timeout passes; before, only the head had a
// timeout and such a client held a connection and a descriptor for good
// (from a bandwidth and steering review). The handler reads the body, as
// /control does before it checks the token (the page's form sends it).
func TestStatusServerDropsTricklingClient(t *testing.T) {
	old := statusReadTimeout
	statusReadTimeout = 300 * time.Millisecond
	t.Cleanup(func() { statusReadTimeout = old })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	applied := make(chan int, 1)
	hs := statusHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err == nil {
			applied <- len(b)
		}
	}))
	go hs.Serve(ln)
	defer hs.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /control HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\ncommands=pa"); err != nil {
		t.Fatal(err)
	}
	// The server must end the exchange: an answer or a close. 60 s is
	// the test's own bound, far past the 300 ms timeout; reaching it
	// means the server kept the connection.
	conn.SetReadDeadline(time.Now().Add(60 * time.Second))
	_, err = io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the status server kept a trickling client's connection open")
	}
	select {
	case n := <-applied:
		t.Errorf("a body cut short was read whole (%d bytes)", n)
	default:
	}
}
