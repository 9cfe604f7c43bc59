package crawl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/syndtr/goleveldb/leveldb/storage"

	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
)

// fastRetries keeps the engine's retry schedule short in tests.
var fastRetries = Retries{Max: 4, Delay: time.Millisecond, MaxDelay: 5 * time.Millisecond}

// flaky wraps a fakeFetcher: each URL in fail answers with the given
// failure for its first n tries, then as the web says.
type flaky struct {
	*fakeFetcher
	mu    sync.Mutex
	tries map[string]int
	fail  map[string]flake
}

type flake struct {
	n         int
	raw       string // a raw response to send instead, or
	err       error  // an error to return
	always    bool   // fail every try
	truncated string // with raw: the response came cut (fetch.Truncated*)
	// before are raw responses answered on the first tries, in order,
	// before the flake's own n.
	before []string
}

func (f *flaky) Do(ctx context.Context, m, rawURL string, h http.Header) (*fetch.Result, error) {
	f.mu.Lock()
	f.tries[rawURL]++
	n := f.tries[rawURL]
	fl, ok := f.fail[rawURL]
	f.mu.Unlock()
	if ok && n <= len(fl.before) {
		fl = flake{n: n, raw: fl.before[n-1]}
	} else if ok {
		n -= len(fl.before)
	}
	if ok && (fl.always || n <= fl.n) {
		if fl.err != nil {
			f.fakeFetcher.mu.Lock()
			f.got = append(f.got, rawURL)
			f.fakeFetcher.mu.Unlock()
			return nil, fl.err
		}
		saved := f.web[rawURL]
		defer func() { f.web[rawURL] = saved }()
		f.web[rawURL] = fl.raw
		res, err := f.fakeFetcher.Do(ctx, m, rawURL, h)
		if res != nil {
			res.Truncated = fl.truncated
		}
		return res, err
	}
	return f.fakeFetcher.Do(ctx, m, rawURL, h)
}

// logLines collects the crawl.log in memory.
type logLines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *logLines) Close() error { return nil }
func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type retryRig struct {
	q   *frontier.Queue
	f   *flaky
	a   *fakeArchive
	log *logLines
	cl  *CrawlLog
}

func newRetryRig(t *testing.T, web fakeWeb, fail map[string]flake) *retryRig {
	t.Helper()
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	r := &retryRig{q: q, f: &flaky{fakeFetcher: &fakeFetcher{web: web}, tries: map[string]int{}, fail: fail},
		a: &fakeArchive{}, log: &logLines{}}
	r.cl = NewCrawlLog(r.log)
	return r
}

func (r *retryRig) crawler(t *testing.T, cfg Config, gate Gate, seeds ...string) *Crawler {
	t.Helper()
	if cfg.Workers == 0 {
		cfg.Workers = 1
	}
	if cfg.Retries == (Retries{}) {
		cfg.Retries = fastRetries
	}
	if gate == nil {
		gate = fakeGate{}
	}
	c, err := New(cfg, Parts{Queue: r.q, Archive: r.a, Fetcher: r.f, Gate: gate, Detector: fakeDetector{}, CrawlLog: r.cl})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed(seeds); err != nil {
		t.Fatal(err)
	}
	return c
}

func (r *retryRig) archived(u string) bool {
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	for _, g := range r.a.urls {
		if g == u {
			return true
		}
	}
	return false
}

func (r *retryRig) lines(t *testing.T) string {
	t.Helper()
	if err := r.cl.Flush(); err != nil {
		t.Fatal(err)
	}
	return r.log.String()
}

// A host that is down for a while, a busy host that answers 503 and 429
// with Retry-After, and a page that fails with a 500 once: every URL ends
// up archived, none is recorded as failed, and each deferred try has its
// crawl.log line.
func TestFailuresAreRetried(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":        page("th", "http://flap.test/", "http://busy.test/", "/err", "/ok"),
		"http://a.test/err":     page("th"),
		"http://a.test/ok":      page("th"),
		"http://flap.test/":     page("th", "/1", "/2"),
		"http://flap.test/1":    page("th"),
		"http://flap.test/2":    page("th"),
		"http://busy.test/":     page("th", "/more"),
		"http://busy.test/more": page("th"),
	}
	busy := "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n"
	r := newRetryRig(t, web, map[string]flake{
		"http://flap.test/":     {n: 2, err: refused("192.0.2.1:80")},
		"http://busy.test/":     {n: 1, raw: busy},
		"http://busy.test/more": {n: 2, raw: strings.Replace(busy, "503 Service Unavailable", "429 Too Many Requests", 1)},
		"http://a.test/err":     {n: 1, raw: "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"},
	})
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	reason, err := c.Run(context.Background())
	if err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	for u := range web {
		if !r.archived(u) {
			t.Errorf("%s was not archived after its failures", u)
		}
	}
	s := c.Stats()
	if s.Failed != 0 || s.Deferred != 6 {
		t.Errorf("failed %d, deferred %d; want 0 failed and 6 deferred tries", s.Failed, s.Deferred)
	}
	// The tries put back, by their status, for langcrawl_retries_total: a
	// server answering 503 to everything shows there, not in
	// status_total (a steering trial).
	if want := map[int]int64{codeConnectFailed: 2, 503: 1, 429: 2, 500: 1}; !maps.Equal(s.Retries, want) {
		t.Errorf("retries by status %v, want %v", s.Retries, want)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewCollector(c))
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byClass := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "langcrawl_retries_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			byClass[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
		}
	}
	if want := map[string]float64{"2xx": 0, "3xx": 0, "4xx": 2, "5xx": 2, "skipped": 0, "error": 2}; !maps.Equal(byClass, want) {
		t.Errorf("langcrawl_retries_total %v, want %v", byClass, want)
	}
	log := r.lines(t)
	for _, want := range []string{" -2 ", " 503 ", " 429 ", " 500 ", "retry:1/4", "retry:2/4"} {
		if !strings.Contains(log, want) {
			t.Errorf("crawl.log has no %q line:\n%s", want, log)
		}
	}
	// The 500 went behind the site's other work: /ok came before the
	// second try of /err.
	got := strings.Join(r.f.got, " ")
	if strings.Index(got, "http://a.test/ok") > strings.LastIndex(got, "http://a.test/err") {
		t.Errorf("a URL's own failure held up its site: %s", got)
	}
}

// A host that stays down: its head URL is tried Retries.Max times and then
// recorded as failed (-8); its other URLs are given up on at once, each
// with its own crawl.log line, instead of each spending the whole schedule.
func TestGiveUpAfterLastTry(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "http://dead.test/", "http://dead.test/1", "http://dead.test/2")}
	down := refused("192.0.2.1:80")
	r := newRetryRig(t, web, map[string]flake{
		"http://dead.test/":  {always: true, err: down},
		"http://dead.test/1": {always: true, err: down},
		"http://dead.test/2": {always: true, err: down},
	})
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	if n := r.f.tries["http://dead.test/"]; n != fastRetries.Max {
		t.Errorf("head URL tried %d times, want %d", n, fastRetries.Max)
	}
	if r.f.tries["http://dead.test/1"]+r.f.tries["http://dead.test/2"] != 0 {
		t.Errorf("the other URLs of a dead site were tried: %v", r.f.tries)
	}
	s := c.Stats()
	if s.Failed != 3 {
		t.Errorf("failed %d, want 3", s.Failed)
	}
	log := r.lines(t)
	if n := strings.Count(log, " -8 "); n != 3 {
		t.Errorf("%d crawl.log lines with -8, want 3:\n%s", n, log)
	}
	// The two URLs never tried say why, each on its own line.
	if n := strings.Count(log, "site-gave-up:"); n != 2 {
		t.Errorf("%d crawl.log lines annotated site-gave-up, want 2:\n%s", n, log)
	}
	// The head URL's lines carry the annotations README documents:
	// retry:N/M and at:TIME (RFC 3339, UTC: when the next try may start)
	// on each deferred try, gave-up:N-tries and last:CODE on the -8 line.
	var head [][]string
	for _, line := range strings.Split(log, "\n") {
		if f := strings.Fields(line); len(f) == 12 && f[3] == "http://dead.test/" {
			head = append(head, f)
		}
	}
	if len(head) != fastRetries.Max {
		t.Fatalf("%d crawl.log lines for http://dead.test/, want %d:\n%s", len(head), fastRetries.Max, log)
	}
	for i, f := range head {
		annot := strings.Split(f[11], ",")
		if i == len(head)-1 {
			for _, want := range []string{fmt.Sprintf("gave-up:%d-tries", fastRetries.Max), "last:-2"} {
				if f[1] != "-8" || !slices.Contains(annot, want) {
					t.Errorf("last line: status %s, annotations %s; want -8 and %s", f[1], f[11], want)
				}
			}
			continue
		}
		if want := fmt.Sprintf("retry:%d/%d", i+1, fastRetries.Max); f[1] != "-2" || !slices.Contains(annot, want) {
			t.Errorf("try %d: status %s, annotations %s; want -2 and %s", i+1, f[1], f[11], want)
		}
		if slices.ContainsFunc(annot, func(a string) bool { return strings.HasPrefix(a, "gave-up:") }) {
			t.Errorf("try %d: gave-up on a deferred try: %s", i+1, f[11])
		}
		logged, err := time.Parse("2006-01-02T15:04:05.000Z", f[0])
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(annot, func(a string) bool { return strings.HasPrefix(a, "at:") })
		if k < 0 {
			t.Errorf("try %d: no at:TIME in %s", i+1, f[11])
			continue
		}
		at, err := time.Parse(time.RFC3339, strings.TrimPrefix(annot[k], "at:"))
		switch {
		case err != nil:
			t.Errorf("try %d: %s: %v", i+1, annot[k], err)
		case at.Location() != time.UTC:
			t.Errorf("try %d: %s is not in UTC", i+1, annot[k])
		case at.Before(logged.Truncate(time.Second)) || at.After(logged.Add(fastRetries.MaxDelay)):
			// at is to the second: it is within MaxDelay after the line.
			t.Errorf("try %d: %s, logged at %s: not the time of the next try", i+1, annot[k], f[0])
		}
	}
	if st := r.q.Stats(); st.Queued != 0 || st.InFlight != 0 {
		t.Errorf("frontier not empty: %+v", st)
	}
}

// TestDeadSiteExpires checks the other half of giving up on a site: once
// its wait (retries.max_delay) has passed, the site gets a fresh chance.
func TestDeadSiteExpires(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d := deadSites{until: map[string]time.Time{}}
	d.add("dead.test", t0, t0.Add(time.Hour), "refused")
	if why, ok := d.check("dead.test", t0.Add(59*time.Minute)); !ok || why != "refused" {
		t.Errorf("within the wait: check = %q, %v; want refused, true", why, ok)
	}
	if _, ok := d.check("other.test", t0); ok {
		t.Error("a site never given up on is dead")
	}
	if _, ok := d.check("dead.test", t0.Add(time.Hour)); ok {
		t.Error("the site is still given up on when its wait has passed")
	}
	if _, ok := d.check("dead.test", t0); ok {
		t.Error("an expired site came back as given up on")
	}

	// Sites never checked again are swept out once expired, so the map
	// does not grow with every dead host a long crawl meets.
	for i := range 3 * deadSweepMin {
		at := t0.Add(time.Duration(i) * time.Minute)
		d.add(fmt.Sprintf("dead%d.test", i), at, at.Add(time.Hour), "refused")
	}
	if n := len(d.until); n > 2*deadSweepMin || len(d.why) != n {
		t.Errorf("%d sites held (%d reasons) after %d given up on, an hour each, a minute apart; want at most %d",
			n, len(d.why), 3*deadSweepMin, 2*deadSweepMin)
	}
	last := fmt.Sprintf("dead%d.test", 3*deadSweepMin-1)
	if _, ok := d.check(last, t0.Add(time.Duration(3*deadSweepMin-1)*time.Minute)); !ok {
		t.Errorf("%s, given up on last, was swept out", last)
	}
}

// robots.txt that answers 503 and then 200, and one on a host that is
// unreachable and then up: the gate defers, the engine keeps every URL
// and fetches them all once robots.txt can be read. Nothing is recorded
// as disallowed; each deferral logs -61.
func TestRobotsUnavailableDefers(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":      page("th", "http://r503.test/", "http://r503.test/1", "http://rdown.test/", "http://rdown.test/1"),
		"http://r503.test/":   page("th"),
		"http://r503.test/1":  page("th"),
		"http://rdown.test/":  page("th"),
		"http://rdown.test/1": page("th"),
	}
	r := newRetryRig(t, web, nil)
	var mu sync.Mutex
	calls := map[string]int{}
	robots := func(_ context.Context, u string) (int, []byte, error) {
		mu.Lock()
		defer mu.Unlock()
		calls[u]++
		switch {
		case strings.Contains(u, "r503") && calls[u] <= 2:
			return 503, nil, nil
		case strings.Contains(u, "rdown") && calls[u] <= 1:
			return 0, nil, errors.New("dial tcp: connection refused")
		}
		return 200, []byte("User-agent: *\nDisallow: /private\n"), nil
	}
	gate, err := politeness.New(politeness.Config{UserAgent: "langcrawl/test", RetryAfterError: time.Millisecond,
		MaxRetryDelay: 5 * time.Millisecond}, robots)
	if err != nil {
		t.Fatal(err)
	}
	c := r.crawler(t, Config{}, gate, "http://a.test/")
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	for u := range web {
		if !r.archived(u) {
			t.Errorf("%s lost behind an unavailable robots.txt", u)
		}
	}
	s := c.Stats()
	if s.Robots != 0 || s.Failed != 0 {
		t.Errorf("robots %d, failed %d; want none", s.Robots, s.Failed)
	}
	log := r.lines(t)
	if strings.Contains(log, " -9998 ") {
		t.Errorf("a URL was recorded as disallowed:\n%s", log)
	}
	if n := strings.Count(log, " -61 "); n != 3 {
		t.Errorf("%d -61 lines, want 3 (two 503s, one unreachable):\n%s", n, log)
	}
}

// A robots.txt response that cannot be archived (a full or read-only
// disk) is this side's failure, not the server's: the crawl stops as on
// a page it cannot archive, with no -61 line and no try charged, and the
// URL's lease stays in flight, for a resume to fetch it again (as
// TestQueryClaimCommitsWithPage resumes after a failing archive).
func TestRobotsArchiveFailureStops(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/1"), "http://a.test/1": page("th")}
	r := newRetryRig(t, web, nil)
	robots := func(_ context.Context, u string) (int, []byte, error) {
		return 0, nil, fmt.Errorf("archive %s: %w: write warcs/x.warc.gz.open: read-only file system", u, politeness.ErrLocal)
	}
	gate, err := politeness.New(politeness.Config{UserAgent: "langcrawl/test", RetryAfterError: time.Millisecond,
		MaxRetryDelay: 5 * time.Millisecond}, robots)
	if err != nil {
		t.Fatal(err)
	}
	c := r.crawler(t, Config{}, gate, "http://a.test/")
	if _, err := c.Run(context.Background()); !errors.Is(err, politeness.ErrLocal) {
		t.Fatalf("Run = %v, want the local failure", err)
	}
	if log := r.lines(t); strings.Contains(log, " -61 ") || strings.Contains(log, "retry:") {
		t.Errorf("a local failure logged as the server's:\n%s", log)
	}
	if s := c.Stats(); s.Failed != 0 || s.Deferred != 0 {
		t.Errorf("failed %d, deferred %d: a try was charged for a local failure", s.Failed, s.Deferred)
	}
	if fs := r.q.Stats(); fs.InFlight != 1 {
		t.Errorf("%d leases in flight after the stop, want the seed's 1 kept for the resume", fs.InFlight)
	}
}

// max_pages is exact with many workers, and counts across runs on the same
// frontier; robots-blocked URLs count against neither it nor the per-site
// budget, since they never reach the server.
func TestJobBudgetsAcrossRuns(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/private/1", "/private/2", "/1", "/2", "/3", "/4", "/5", "/6", "/7", "/8")}
	for i := 1; i <= 8; i++ {
		web[fmt.Sprintf("http://a.test/%d", i)] = page("th", fmt.Sprintf("http://s%d.test/", i))
		web[fmt.Sprintf("http://s%d.test/", i)] = page("th")
	}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{Workers: 8, MaxPages: 5}, nil, "http://a.test/")
	if reason, err := c.Run(context.Background()); err != nil || reason != StopPages {
		t.Fatalf("first run = %q, %v", reason, err)
	}
	if n := len(r.f.got); n != 5 {
		t.Fatalf("first run fetched %d, want exactly 5 with 8 workers", n)
	}
	// A resume with a larger budget fetches only what is left of it.
	c = r.crawler(t, Config{Workers: 8, MaxPages: 9}, nil)
	if reason, err := c.Run(context.Background()); err != nil || reason != StopPages {
		t.Fatalf("second run = %q, %v", reason, err)
	}
	if n := len(r.f.got); n != 9 {
		t.Errorf("two runs fetched %d, want the job budget of 9", n)
	}
	if u := r.q.Stats().Usage; u.Fetches != 9 || u.Bytes == 0 {
		t.Errorf("job totals %+v, want 9 fetches", u)
	}
	// A third run with the same budget fetches nothing.
	c = r.crawler(t, Config{Workers: 8, MaxPages: 9}, nil)
	if reason, err := c.Run(context.Background()); err != nil || reason != StopPages || len(r.f.got) != 9 {
		t.Errorf("third run = %q, %v, %d fetched in all", reason, err, len(r.f.got))
	}

	// max_bytes: the crawl stops taking work once the bytes are spent.
	r = newRetryRig(t, web, nil)
	one := int64(len(web["http://a.test/"]))
	c = r.crawler(t, Config{MaxBytes: one + 1}, nil, "http://a.test/")
	if reason, err := c.Run(context.Background()); err != nil || reason != StopBytes || len(r.f.got) != 2 {
		t.Errorf("max_bytes run = %q, %v after %d fetches; want %q after 2", reason, err, len(r.f.got), StopBytes)
	}

	// Per-site budget: 2 robots-blocked URLs and a budget of 3 still
	// fetches 3 pages of a.test.
	r = newRetryRig(t, web, nil)
	c = r.crawler(t, Config{MaxPagesPerSite: 3}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range r.f.got {
		if strings.HasPrefix(g, "http://a.test/") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("fetched %d pages of a.test with a budget of 3 and 2 robots-blocked URLs, want 3", n)
	}
}

// max_time counts the time of earlier runs.
func TestMaxTimeAcrossRuns(t *testing.T) {
	r := newRetryRig(t, fakeWeb{"http://a.test/": page("th")}, nil)
	// An earlier run that used the whole budget, as the frontier records.
	if _, err := r.q.PushMany([]frontier.Entry{{URL: "http://x.test/", Site: "x.test", Priority: frontier.High}}); err != nil {
		t.Fatal(err)
	}
	l, _, err := r.q.Next(time.Now())
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	if err := r.q.Complete(l, frontier.Completion{Usage: frontier.Usage{Elapsed: time.Hour}}); err != nil {
		t.Fatal(err)
	}
	c := r.crawler(t, Config{MaxTime: time.Hour}, nil, "http://a.test/")
	if reason, err := c.Run(context.Background()); err != nil || reason != StopTime || len(r.f.got) != 0 {
		t.Errorf("run after the time budget was spent = %q, %v, %d fetched", reason, err, len(r.f.got))
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"":                              0,
		"120":                           2 * time.Minute,
		" 5 ":                           5 * time.Second,
		"-1":                            0,
		"soon":                          0,
		"Fri, 02 Jan 2026 03:05:05 GMT": time.Minute,
		"Fri, 02 Jan 2026 03:00:00 GMT": 0,                    // in the past
		"99999999999999999999":          365 * 24 * time.Hour, // too long for an int64: the longest, capped by the caller (it was none)
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", v, got, want)
		}
	}
	c := &Crawler{cfg: Config{Retries: Retries{Max: 10, Delay: time.Second, MaxDelay: 10 * time.Second}}}
	for tries, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second, 9: 10 * time.Second} {
		if got := c.backoff(tries, 0); got != want {
			t.Errorf("backoff(%d) = %v, want %v", tries, got, want)
		}
	}
	if got := c.backoff(1, time.Hour); got != 10*time.Second {
		t.Errorf("a Retry-After of 1h waits %v, want the 10s cap", got)
	}
}

// The query rule's claim on a script commits with the completion of the
// page whose link made it: when archiving that page fails (the crawl
// stops, as on a full disk), a resumed crawl still takes one URL of the
// script (issue: the claim used to be written on its own, before the
// WARC append, and a crash between them lost the script for good).
func TestQueryClaimCommitsWithPage(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":              page("th", "/list.php?id=1", "/list.php?id=2"),
		"http://a.test/list.php?id=1": page("th"),
		"http://a.test/list.php?id=2": page("th"),
	}
	st := storage.NewMemStorage()
	f, a := &fakeFetcher{web: web}, &fakeArchive{failing: true}
	run := func(seeds ...string) error {
		q, err := frontier.Open("", &frontier.Options{Storage: st, PollInterval: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Close() // as a crash would leave it: the lease stays recorded
		c, err := New(Config{Workers: 1, Requisites: true, Retries: fastRetries, Scope: scope.Decider{QueryRule: true}},
			Parts{Queue: q, Archive: a, Fetcher: f, Gate: fakeGate{}, Detector: fakeDetector{}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Seed(seeds); err != nil {
			t.Fatal(err)
		}
		_, err = c.Run(context.Background())
		return err
	}
	if err := run("http://a.test/"); err == nil {
		t.Fatal("Run did not report the failing archive")
	}
	a.failing = false
	if err := run(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, u := range a.urls {
		if strings.Contains(u, "list.php") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d list.php URLs archived after the resume, want 1: %v", n, a.urls)
	}
}

// A redirect chain stops at maxRedirects hops, and the page whose target
// is refused says so in crawl.log and its metadata.
func TestRedirectChainLimit(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/r0")}
	for i := 0; i < 50; i++ {
		web[fmt.Sprintf("http://a.test/r%d", i)] = redirectTo(fmt.Sprintf("/r%d", i+1))
	}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range r.f.got {
		if strings.Contains(g, "/r") {
			n++
		}
	}
	if n != maxRedirects+1 {
		t.Errorf("followed %d redirects of a 50-hop chain, want the first and %d more", n, maxRedirects)
	}
	if log := r.lines(t); !strings.Contains(log, "redirect-chain-limit:20") {
		t.Errorf("crawl.log does not note the limit:\n%s", log)
	}
	last := fmt.Sprintf("http://a.test/r%d", maxRedirects)
	found := false
	for _, f := range r.a.meta[last] {
		found = found || strings.Contains(f.Value, "rejected:redirect-chain-limit")
	}
	if !found {
		t.Errorf("metadata of %s does not note the refused redirect: %v", last, r.a.meta[last])
	}
}

// More links than a page may give are cut, and the cut is noted.
func TestLinksTruncatedNoted(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 10_050; i++ {
		fmt.Fprintf(&b, `<a href="/p%d">x</a>`, i)
	}
	body := `<html lang="th"><body>` + b.String() + `</body></html>`
	web := fakeWeb{"http://a.test/": fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{MaxPages: 1}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if log := r.lines(t); !strings.Contains(log, "links-truncated:10000") {
		t.Errorf("crawl.log does not note the cut links:\n%.300s", log)
	}
	found := false
	for _, f := range r.a.meta["http://a.test/"] {
		found = found || f.Name == "linksTruncated"
	}
	if !found {
		t.Error("metadata does not note the cut links")
	}
}

// A per-host budget overrides max_pages_per_site for that host.
func TestSiteBudgetOverride(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/1", "/2", "/3", "http://big.test/")}
	web["http://big.test/"] = page("th", "/1", "/2", "/3")
	for _, p := range []string{"1", "2", "3"} {
		web["http://a.test/"+p] = page("th")
		web["http://big.test/"+p] = page("th")
	}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{MaxPagesPerSite: 2, SiteBudgets: map[string]int{".big.test": 0}}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	count := func(prefix string) (n int) {
		for _, g := range r.f.got {
			if strings.HasPrefix(g, prefix) {
				n++
			}
		}
		return n
	}
	if a, big := count("http://a.test/"), count("http://big.test/"); a != 2 || big != 4 {
		t.Errorf("fetched %d of a.test (budget 2) and %d of big.test (no limit), want 2 and 4", a, big)
	}
}

// What no retry can mend fails at once, with its own code: an address the
// guard refuses (-5010), a URL too long (-7), a response that is not HTTP.
func TestPermanentFailuresNotRetried(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "http://inside.test/", "http://long.test/", "http://garbage.test/")}
	r := newRetryRig(t, web, map[string]flake{
		"http://inside.test/":  {always: true, err: fmt.Errorf("fetch http://inside.test/: %w", fetch.ErrAddressRefused)},
		"http://long.test/":    {always: true, err: fmt.Errorf("fetch http://long.test/: %w", fetch.ErrURLTooLong)},
		"http://garbage.test/": {always: true, err: fmt.Errorf("fetch http://garbage.test/: %w", fetch.ErrMalformedResponse)},
	})
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for u, n := range r.f.tries {
		if n != 1 {
			t.Errorf("%s tried %d times, want once", u, n)
		}
	}
	log := r.lines(t)
	for _, want := range []string{" -5010 ", " -7 ", " -3 "} {
		if !strings.Contains(log, want) {
			t.Errorf("crawl.log lacks a %q line:\n%s", want, log)
		}
	}
	// The refusal is no failure after a last retry: the summary counts it
	// apart (an address-guard trial found it among the "given up").
	if s := c.Stats(); s.Failed != 2 || s.Refused != 1 || s.Deferred != 0 {
		t.Errorf("failed %d, refused %d, deferred %d; want 2, 1 and 0", s.Failed, s.Refused, s.Deferred)
	}
	m := scrape(t, c, Leaves{})
	if m["langcrawl_address_refused_total"] != 1 || m["langcrawl_fetch_failures_total"] != 2 {
		t.Errorf("metrics: address_refused_total %v, fetch_failures_total %v; want 1 and 2",
			m["langcrawl_address_refused_total"], m["langcrawl_fetch_failures_total"])
	}
	var sum strings.Builder
	c.Stats().WriteSummary(&sum, time.Second, "")
	if !strings.Contains(sum.String(), "refused: 1 URLs") {
		t.Errorf("the summary does not count the refusal:\n%s", sum.String())
	}
}

// decorate sets fields of the Results of a fakeFetcher.
type decorate struct {
	*fakeFetcher
	fn func(*fetch.Result)
}

func (d decorate) Do(ctx context.Context, m, u string, h http.Header) (*fetch.Result, error) {
	res, err := d.fakeFetcher.Do(ctx, m, u, h)
	if res != nil {
		d.fn(res)
	}
	return res, err
}

// A certificate that did not verify and interim 1xx responses are kept on
// record in the metadata record (and the TLS failure in crawl.log); the
// response record holds the final response only.
func TestTLSAndInterimRecorded(t *testing.T) {
	web := fakeWeb{"https://a.test/": page("th")}
	r := newRetryRig(t, web, nil)
	f := decorate{r.f.fakeFetcher, func(res *fetch.Result) {
		res.TLSVerifyError = "x509: certificate signed by unknown authority"
		res.Interim = []byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n")
	}}
	c, err := New(Config{Workers: 1, Retries: fastRetries}, Parts{Queue: r.q, Archive: r.a, Fetcher: f, Gate: fakeGate{}, Detector: fakeDetector{}, CrawlLog: r.cl})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed([]string{"https://a.test/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, fl := range r.a.meta["https://a.test/"] {
		got[fl.Name] = fl.Value
	}
	if got["tlsVerifyError"] != "x509: certificate signed by unknown authority" {
		t.Errorf("tlsVerifyError = %q", got["tlsVerifyError"])
	}
	if got["interimResponses"] != "HTTP/1.1 100 Continue; HTTP/1.1 103 Early Hints" {
		t.Errorf("interimResponses = %q", got["interimResponses"])
	}
	if log := r.lines(t); !strings.Contains(log, "tls-unverified") {
		t.Errorf("crawl.log does not note the TLS failure:\n%s", log)
	}
}

// Every queued URL that focusing drops when its server turns irrelevant
// gets a crawl.log line with -5003 (Tamura 4.1; issue 9 part 6).
func TestDroppedURLsLogged(t *testing.T) {
	web := fakeWeb{
		"http://th.test/":  page("th", "http://en.test/"),
		"http://en.test/":  page("en", "/1", "/2", "/3", "/4", "/5"),
		"http://en.test/1": page("en"), "http://en.test/2": page("en"), "http://en.test/3": page("en"),
		"http://en.test/4": page("en"), "http://en.test/5": page("en"),
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 2})
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{Focus: pol}, nil, "http://th.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	log := r.lines(t)
	dropped := 0
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, " -5003 ") && strings.Contains(line, "focus:dropped:en.test") {
			dropped++
		}
	}
	// en.test/, /1 and /2 are fetched (T+1 = 3), /3, /4 and /5 dropped.
	if s := c.Stats(); dropped != 3 || s.Dropped != 3 {
		t.Errorf("%d -5003 lines for %d dropped URLs, want 3 and 3:\n%s", dropped, s.Dropped, log)
	}
}

// TestCutBodyIsRetried: a page whose connection was reset in the middle of
// the body (fetch.TruncatedDisconnect) is tried again, as a passing
// failure, and archived once, whole, with the links the cut page had lost;
// a page cut on every try is tried twice, not retries.max times (a server
// whose Content-Length always promises too much), and archived cut.
func TestCutBodyIsRetried(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":      page("th", "/next"),
		"http://a.test/next":  page("th"),
		"http://b.test/":      page("th"),
		"http://b.test/after": page("th"),
	}
	cut := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html><body><p>"
	cut404 := "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html>"
	r := newRetryRig(t, web, map[string]flake{
		"http://a.test/": {n: 1, raw: cut, truncated: fetch.TruncatedDisconnect},
		"http://b.test/": {always: true, raw: cut, truncated: fetch.TruncatedDisconnect},
		// Only a page (2xx) is tried again: a cut 404 is archived as it is.
		"http://c.test/": {always: true, raw: cut404, truncated: fetch.TruncatedDisconnect},
		// A try spent on a 500 first does not take the retry away (a
		// hostile-server trial: the cut page was archived cut).
		"http://d.test/": {n: 1, raw: cut, truncated: fetch.TruncatedDisconnect,
			before: []string{"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"}},
		"http://e.test/": {n: 1, raw: cut, truncated: fetch.TruncatedTime},
	})
	// A body the server fell silent in (timeouts.read: truncated time) is
	// tried once more too (a crash trial: 68 pages archived cut).
	web["http://d.test/"] = page("th", "/more")
	web["http://d.test/more"] = page("th")
	web["http://e.test/"] = page("th", "/more")
	web["http://e.test/more"] = page("th")
	c := r.crawler(t, Config{}, nil, "http://a.test/", "http://b.test/", "http://c.test/", "http://d.test/", "http://e.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	archived := map[string]int{}
	for _, u := range r.a.urls {
		archived[u]++
	}
	if archived["http://a.test/"] != 1 || archived["http://a.test/next"] != 1 {
		t.Errorf("archived %v; want a.test/ once (the whole page of its second try) and the /next it links to", archived)
	}
	if n := r.f.tries["http://b.test/"]; n != 2 || archived["http://b.test/"] != 1 {
		t.Errorf("b.test/ tried %d times and archived %d times; want 2 tries and the second archived", n, archived["http://b.test/"])
	}
	if n := r.f.tries["http://c.test/"]; n != 1 || archived["http://c.test/"] != 1 {
		t.Errorf("the cut 404 c.test/ tried %d times and archived %d times; want 1 and 1", n, archived["http://c.test/"])
	}
	if n := r.f.tries["http://d.test/"]; n != 3 || archived["http://d.test/"] != 1 || archived["http://d.test/more"] != 1 {
		t.Errorf("d.test/ (a 500, then cut, then whole) tried %d times, archived %d times, its link %d; want 3, 1, 1",
			n, archived["http://d.test/"], archived["http://d.test/more"])
	}
	if n := r.f.tries["http://e.test/"]; n != 2 || archived["http://e.test/"] != 1 || archived["http://e.test/more"] != 1 {
		t.Errorf("e.test/ (silent mid-body, then whole) tried %d times, archived %d times, its link %d; want 2, 1, 1",
			n, archived["http://e.test/"], archived["http://e.test/more"])
	}
	log := r.lines(t)
	for _, want := range []string{"retry:1/4", "truncated:disconnect", "truncated:time"} {
		if !strings.Contains(log, want) {
			t.Errorf("crawl.log has no %q:\n%s", want, log)
		}
	}
	for _, line := range strings.Split(log, "\n") {
		// The deferred try is a lost connection (-3) or a timeout (-4),
		// not a 200 of no bytes.
		if strings.Contains(line, "retry:") && strings.Contains(line, "truncated:disconnect") && !strings.Contains(line, " -3 ") ||
			strings.Contains(line, "retry:") && strings.Contains(line, "truncated:time") && !strings.Contains(line, " -4 ") {
			t.Errorf("the retry's line does not say -3: %s", line)
		}
	}
}

// TestOddLocationsFollowed: a Location is resolved as a browser follows it
// (links.Resolve), so a tab or backslashes in it do not lose the page it
// points to; one that points nowhere is noted in crawl.log (bad-location).
func TestOddLocationsFollowed(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":          page("th", "/r1", "/r2", "/r3", "/r4"),
		"http://a.test/r1":        redirectTo("/next\t.html"),
		"http://a.test/r2":        redirectTo(`\\a.test\back.html`),
		"http://a.test/r3":        redirectTo("http://"),
		"http://a.test/r4":        redirectTo("ftp://a.test/file"),
		"http://a.test/next.html": page("th"),
		"http://a.test/back.html": page("th"),
	}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://a.test/next.html", "http://a.test/back.html"} {
		if !slices.Contains(r.f.got, u) {
			t.Errorf("%s, a redirect's target, never fetched: %v", u, r.f.got)
		}
	}
	log := r.lines(t)
	noted := 0
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "http://a.test/r3 ") || strings.Contains(line, "http://a.test/r4 ") {
			noted++
			if !strings.Contains(line, "bad-location") {
				t.Errorf("the redirect to nowhere is not noted: %s", line)
			}
		}
	}
	if noted != 2 {
		t.Errorf("%d crawl.log lines for r3 and r4, want 2:\n%s", noted, log)
	}
	// The ftp: target is refused by the scope rules, in the metadata.
	refused := false
	for _, f := range r.a.meta["http://a.test/r4"] {
		refused = refused || (f.Name == "outlink" && strings.HasPrefix(f.Value, "ftp://a.test/file") && strings.Contains(f.Value, "rejected:"))
	}
	if !refused {
		t.Errorf("metadata of r4 does not refuse its ftp: target: %v", r.a.meta["http://a.test/r4"])
	}
}

// TestMaxTimeLeavesOutPauses: the job's time budget counts the time the
// crawl runs, not the time it is paused, and the time of a run that
// completed nothing (waiting, here on a site's delay) is kept for the
// next: before, a pause used up the budget within a run, and a run that
// completed nothing left no time on record.
func TestMaxTimeLeavesOutPauses(t *testing.T) {
	const budget = 300 * time.Millisecond // room for the fetch after the pause on a loaded machine
	r := newRetryRig(t, fakeWeb{"http://a.test/": page("th")}, nil)
	c := r.crawler(t, Config{MaxTime: budget}, nil, "http://a.test/")
	c.Pause("legal review")
	done := make(chan string, 1)
	start := time.Now()
	go func() {
		reason, err := c.Run(context.Background())
		if err != nil {
			t.Error(err)
		}
		done <- reason
	}()
	for time.Since(start) < 4*budget { // paused past the budget
		select {
		case reason := <-done:
			t.Fatalf("the crawl stopped (%s) while paused, after %v of a %v budget", reason, time.Since(start), budget)
		case <-time.After(budget / 4):
		}
	}
	c.Resume()
	if reason := <-done; reason != StopDone || len(r.f.got) != 1 {
		t.Errorf("after the pause: stopped %q with %d fetched; want the page fetched and the frontier empty", reason, len(r.f.got))
	}
	if e := r.q.Stats().Usage.Elapsed; e >= 3*budget {
		t.Errorf("the job's time on record is %v, the pause counted", e)
	}

	// A run that completes nothing: its one site waits out a delay.
	r2 := newRetryRig(t, fakeWeb{"http://b.test/": page("th")}, nil)
	r2.q.PushMany([]frontier.Entry{{URL: "http://b.test/x", Site: "b.test", Priority: frontier.High}})
	l, _, err := r2.q.Next(time.Now())
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	if err := r2.q.Complete(l, frontier.Completion{NotBefore: time.Now().Add(time.Hour),
		Links: []frontier.Entry{{URL: "http://b.test/", Site: "b.test", Priority: frontier.High}}}); err != nil {
		t.Fatal(err)
	}
	c2 := r2.crawler(t, Config{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	if _, err := c2.Run(ctx); err != nil {
		t.Fatal(err)
	}
	// The timeout starts a little before Run does: half of it is proof
	// enough that the run's time was kept (nothing at all was before).
	if e := r2.q.Stats().Usage.Elapsed; e < budget/2 {
		t.Errorf("a run of %v that completed nothing left %v on record", budget, e)
	}
}

// TestRobotsCutShort: a robots.txt cut by a reset or a timeout may have
// lost its rules ("Disallow:" is what is left of "Disallow: /"): it is
// unavailable, tried again later, never obeyed as whole (a hostile-server
// trial: the cut file was read as allowing everything, and a forbidden
// path was crawled). Cut at the size limit, it is read.
func TestRobotsCutShort(t *testing.T) {
	whole := "User-agent: *\nDisallow: /\n"
	cut := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(whole), whole[:23])
	full := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(whole), whole)
	for _, c := range []struct {
		truncated string
		wantErr   bool
	}{
		{fetch.TruncatedDisconnect, true},
		{fetch.TruncatedTime, true},
		{fetch.TruncatedUnspecified, true},
		{fetch.TruncatedLength, false},
	} {
		u := "http://a.test/robots.txt"
		f := &flaky{fakeFetcher: &fakeFetcher{web: fakeWeb{u: full}}, tries: map[string]int{},
			fail: map[string]flake{u: {n: 1, raw: cut, truncated: c.truncated}}}
		slot := func(context.Context, string) (func(time.Time), error) { return func(time.Time) {}, nil }
		robots := RobotsFetcher(f, &fakeArchive{}, slot, nil, nil)
		status, body, err := robots(context.Background(), u)
		if (err != nil) != c.wantErr {
			t.Errorf("cut (%s): %d %q %v; want an error: %v", c.truncated, status, body, err, c.wantErr)
		}
		if !c.wantErr {
			continue
		}
		// Tried again, it is whole and read.
		if status, body, err := robots(context.Background(), u); err != nil || status != 200 || string(body) != whole {
			t.Errorf("after a cut (%s), again: %d %q %v; want the whole file", c.truncated, status, body, err)
		}
	}
}

// TestGiveUpKeepsTheOtherScheme: a host whose https side fails to the
// last try is given up on for https only; its http pages, one site with
// it, are still fetched (a trial: site-gave-up:-61 on http pages after
// https's robots.txt failed).
func TestGiveUpKeepsTheOtherScheme(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "https://old.test/", "https://old.test/1", "http://old.test/2", "http://old.test/3")}
	web["http://old.test/2"] = page("th")
	web["http://old.test/3"] = page("th")
	tlsErr := &fetch.ConnectError{TLS: true, Err: errors.New("tls handshake with 192.0.2.1:443: remote error: tls: handshake failure")}
	r := newRetryRig(t, web, map[string]flake{
		"https://old.test/":  {always: true, err: tlsErr},
		"https://old.test/1": {always: true, err: tlsErr},
	})
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://old.test/2", "http://old.test/3"} {
		if !r.archived(u) {
			t.Errorf("%s not fetched after https://old.test/ was given up on:\n%s", u, r.lines(t))
		}
	}
	if n := r.f.tries["https://old.test/1"]; n != 0 {
		t.Errorf("https://old.test/1 tried %d times; the https side given up on must not be", n)
	}
}

// TestGiveUpNoSuchHostBothSchemes: a host whose name does not resolve is
// given up on for both schemes at once: no scheme mends DNS, and given up
// by scheme alone, such a host spent every retry twice (a review).
func TestGiveUpNoSuchHostBothSchemes(t *testing.T) {
	// A long URL, in the fetcher's own words: the annotation is cut at
	// 200 bytes before "no such host" (a review), the error is not.
	long := "http://gone.test/" + strings.Repeat("a", 120)
	web := fakeWeb{"http://a.test/": page("th", long, "https://gone.test/1", "https://gone.test/2")}
	nxdomain := func(u string) error {
		return fmt.Errorf("fetch %s: dial gone.test:80: %w", u,
			&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "gone.test", Server: "127.0.0.53:53", IsNotFound: true}})
	}
	r := newRetryRig(t, web, map[string]flake{
		long:                  {always: true, err: nxdomain(long)},
		"https://gone.test/1": {always: true, err: nxdomain("https://gone.test/1")},
		"https://gone.test/2": {always: true, err: nxdomain("https://gone.test/2")},
	})
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := r.f.tries["https://gone.test/1"] + r.f.tries["https://gone.test/2"]; n != 0 {
		t.Errorf("the https URLs of a host with no DNS were tried %d times after its http side was given up on", n)
	}
	if log := r.lines(t); strings.Count(log, "site-gave-up:") != 2 {
		t.Errorf("want 2 site-gave-up lines:\n%s", log)
	}
}

// refused is the error a dial to addr gets from a host that refuses it, as
// the net package returns it ("dial tcp ADDR: connect: connection
// refused"): the crawl reads a failure to connect from the error's type.
func refused(addr string) error {
	a, _ := net.ResolveTCPAddr("tcp", addr)
	return &net.OpError{Op: "dial", Net: "tcp", Addr: a, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// readyGate is fakeGate with a site not ready until a set time.
type readyGate struct {
	fakeGate
	until map[string]time.Time
}

func (g readyGate) Ready(site string) time.Time { return g.until[site] }

// TestLeaseGivenBackUntilReady: a site whose politeness delay has not run
// out (the page after its robots.txt, under a Crawl-delay) gives its lease
// back until it has, instead of waiting with its domain's and address's
// slots held; the other sites go on meanwhile, and the page is fetched once
// the site is ready (a politeness trial: one site's Crawl-delay held an
// address's only slot, and 50 other sites waited 26 s).
func TestLeaseGivenBackUntilReady(t *testing.T) {
	web := fakeWeb{"http://a-slow.test/": page("th"), "http://other.test/": page("th", "/2"), "http://other.test/2": page("th")}
	r := newRetryRig(t, web, nil)
	gate := readyGate{until: map[string]time.Time{"a-slow.test": time.Now().Add(400 * time.Millisecond)}}
	c := r.crawler(t, Config{}, gate, "http://a-slow.test/", "http://other.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := r.f.got
	if len(got) != 3 || got[len(got)-1] != "http://a-slow.test/" {
		t.Errorf("fetched %q; want other.test's two pages first, then a-slow.test/ once ready", got)
	}
	if st := r.q.Stats(); st.Returned == 0 {
		t.Errorf("frontier stats %+v: the lease of the site not ready was not given back", st)
	}
}

// TestLeaseGivenBackUnderClockStep: the wait is carried over to the
// crawl's clock, so a crawl clock ahead of the gate's (a wall-clock step)
// does not hand the lease back at once, again and again (a review: 21,079
// give-backs in 0.8 s with the clock an hour ahead).
func TestLeaseGivenBackUnderClockStep(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th")}
	r := newRetryRig(t, web, nil)
	gate := readyGate{until: map[string]time.Time{"a.test": time.Now().Add(300 * time.Millisecond)}}
	c := r.crawler(t, Config{Now: func() time.Time { return time.Now().Add(time.Hour) }}, gate, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := r.q.Stats(); st.Returned == 0 || st.Returned > 3 || !slices.Contains(r.f.got, "http://a.test/") {
		t.Errorf("lease given back %d times (fetched %q); want once or twice, then the page", st.Returned, r.f.got)
	}
}
