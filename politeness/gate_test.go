package politeness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

const testUA = "langcrawl/0.1 (+https://lib.example/crawl)"

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// fakeFetcher answers every robots.txt request from a function and counts
// the calls per URL.
type fakeFetcher struct {
	mu     sync.Mutex
	calls  map[string]int
	answer func(robotsURL string) (int, []byte, error)
}

func newFake(answer func(string) (int, []byte, error)) *fakeFetcher {
	return &fakeFetcher{calls: map[string]int{}, answer: answer}
}

func fixed(status int, body string, err error) *fakeFetcher {
	return newFake(func(string) (int, []byte, error) { return status, []byte(body), err })
}

func (f *fakeFetcher) fetch(ctx context.Context, robotsURL string) (int, []byte, error) {
	f.mu.Lock()
	f.calls[robotsURL]++
	f.mu.Unlock()
	return f.answer(robotsURL)
}

func (f *fakeFetcher) count(robotsURL string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[robotsURL]
}

func mustURL(t testing.TB, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newGate(t testing.TB, cfg Config, f RobotsFetcher) *Gate {
	t.Helper()
	if cfg.UserAgent == "" {
		cfg.UserAgent = testUA
	}
	g, err := New(cfg, f)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func check(t testing.TB, g *Gate, raw string, now time.Time) Decision {
	t.Helper()
	d, err := g.Check(context.Background(), mustURL(t, raw), now)
	if err != nil {
		t.Fatalf("Check(%s): %v", raw, err)
	}
	return d
}

func TestCheckStatus(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /private\n"
	tests := []struct {
		name       string
		status     int
		body       string
		err        error
		url        string
		allowed    bool
		reason     string // substring of Decision.Reason
		fetches    int
		errorCount int64
	}{
		{"200 disallowed", 200, robots, nil, "https://a.example/private/x", false, "disallowed by https://a.example/robots.txt for langcrawl", 1, 0},
		{"200 allowed", 200, robots, nil, "https://a.example/public", true, "allowed by", 1, 0},
		{"204 empty body", 204, "", nil, "https://a.example/private", true, "allowed by", 1, 0},
		{"404 allows all", 404, robots, nil, "https://a.example/private", true, "returned 404, allow all", 1, 0},
		{"401 allows all", 401, "", nil, "https://a.example/private", true, "returned 401, allow all", 1, 0},
		{"403 allows all", 403, "", nil, "https://a.example/private", true, "returned 403, allow all", 1, 0},
		{"3xx after redirects allows all", 301, robots, nil, "https://a.example/private", true, "still 301 after redirects", 1, 0},
		{"500 disallows all", 500, robots, nil, "https://a.example/public", false, "returned 500, failure 1, retry at 2025-03-01T12:00:30Z", 1, 1},
		{"503 disallows all", 503, "", nil, "https://a.example/public", false, "returned 503, failure 1, retry at", 1, 1},
		{"429 disallows all", 429, "", nil, "https://a.example/public", false, "returned 429, failure 1, retry at", 1, 1},
		{"network error disallows all", 0, "", errors.New("connection refused"), "https://a.example/public", false, "unreachable (connection refused), failure 1, retry at", 1, 1},
		{"odd status disallows all", 600, "", nil, "https://a.example/public", false, "unexpected status 600", 1, 1},
		{"robots.txt always allowed, not fetched", 503, "", nil, "https://a.example/robots.txt", true, "always allowed", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fixed(tt.status, tt.body, tt.err)
			g := newGate(t, Config{}, f.fetch)
			d := check(t, g, tt.url, t0)
			if d.Allowed != tt.allowed {
				t.Errorf("Allowed = %v, want %v (reason %q)", d.Allowed, tt.allowed, d.Reason)
			}
			if !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", d.Reason, tt.reason)
			}
			// Every failure to fetch robots.txt is a deferral, never a
			// disallow: the engine must keep the URL (RFC 9309 2.3.1.4).
			if want := tt.errorCount > 0; d.Unavailable != want || d.RetryAt.IsZero() == want {
				t.Errorf("Unavailable = %v, RetryAt = %v; want Unavailable %v with a retry time", d.Unavailable, d.RetryAt, want)
			}
			if n := f.count("https://a.example/robots.txt"); n != tt.fetches {
				t.Errorf("fetches = %d, want %d", n, tt.fetches)
			}
			st := g.Stats()
			if st.RobotsErrors != tt.errorCount {
				t.Errorf("Stats.RobotsErrors = %d, want %d", st.RobotsErrors, tt.errorCount)
			}
			wantAllowed, wantDenied := int64(0), int64(1)
			if tt.allowed {
				wantAllowed, wantDenied = 1, 0
			}
			if st.Allowed != wantAllowed || st.Disallowed != wantDenied {
				t.Errorf("Stats allowed/disallowed = %d/%d, want %d/%d", st.Allowed, st.Disallowed, wantAllowed, wantDenied)
			}
		})
	}
}

// httpFetcher is the RobotsFetcher contract implemented the way the engine
// is expected to: an HTTP client that follows at most five redirects and
// then returns the last 3xx response.
func httpFetcher(client *http.Client) RobotsFetcher {
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > 5 {
			return http.ErrUseLastResponse
		}
		return nil
	}
	return func(ctx context.Context, robotsURL string) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
		if err != nil {
			return 0, nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, MaxRobotsSize+1))
		return resp.StatusCode, body, err
	}
}

func TestCheckRedirectChain(t *testing.T) {
	// /robots.txt redirects to /r/1, /r/1 to /r/2, ... up to /r/<hops>,
	// which serves a robots.txt that disallows /private.
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		hops := 0
		fmt.Sscanf(r.Host[:strings.IndexByte(r.Host, '.')], "hops%d", &hops)
		n := 0
		if r.URL.Path != "/robots.txt" {
			fmt.Sscanf(r.URL.Path, "/r/%d", &n)
		}
		if n < hops {
			http.Redirect(w, r, fmt.Sprintf("/r/%d", n+1), http.StatusMovedPermanently)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	}))
	defer srv.Close()
	// Every host name goes to the test server: no DNS.
	client := srv.Client()
	tr := client.Transport.(*http.Transport).Clone()
	addr := srv.Listener.Addr().String()
	tr.Proxy = nil
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return dial(ctx, network, addr)
	}
	client.Transport = tr

	tests := []struct {
		hops    int
		allowed bool
	}{
		{0, false},
		{1, false},
		{5, false}, // five redirects are followed
		{6, true},  // the sixth is not: unavailable, allow all
		{9, true},
	}
	g := newGate(t, Config{}, httpFetcher(client))
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d hops", tt.hops), func(t *testing.T) {
			d := check(t, g, fmt.Sprintf("http://hops%d.example/private", tt.hops), t0)
			if d.Allowed != tt.allowed {
				t.Errorf("Allowed = %v, want %v (%s)", d.Allowed, tt.allowed, d.Reason)
			}
		})
	}
	if hits.Load() == 0 {
		t.Fatal("test server was never hit")
	}
}

func TestCheckUserAgentGroups(t *testing.T) {
	const robots = `User-agent: *
Disallow: /

User-agent: LangCrawl
Disallow: /no-langcrawl
Crawl-delay: 4

User-agent: lang
Disallow: /no-lang
`
	tests := []struct {
		ua      string
		path    string
		allowed bool
	}{
		{testUA, "/page", true},
		{testUA, "/no-langcrawl", false},
		{testUA, "/no-lang", true},
		{"LANGCRAWL", "/no-langcrawl", false},
		{"otherbot/1.0", "/page", false}, // falls back to *
		{"lang/1.0", "/no-lang", false},  // its own group
		{"lang/1.0", "/page", true},      // not the * group
	}
	for _, tt := range tests {
		t.Run(tt.ua+tt.path, func(t *testing.T) {
			g := newGate(t, Config{UserAgent: tt.ua}, fixed(200, robots, nil).fetch)
			d := check(t, g, "http://x.example"+tt.path, t0)
			if d.Allowed != tt.allowed {
				t.Errorf("Allowed = %v, want %v (%s)", d.Allowed, tt.allowed, d.Reason)
			}
		})
	}
}

func TestCrawlDelayCap(t *testing.T) {
	tests := []struct {
		name      string
		delay     time.Duration // w
		max       time.Duration
		robots    string
		wantCD    time.Duration // Decision.CrawlDelay
		wantDelay time.Duration // Gate.Delay
	}{
		{"none", time.Second, 0, "User-agent: *\nDisallow: /x\n", 0, time.Second},
		{"below w", time.Second, 0, "User-agent: *\nCrawl-delay: 0.5\n", 500 * time.Millisecond, time.Second},
		{"above w", time.Second, 0, "User-agent: *\nCrawl-delay: 5\n", 5 * time.Second, 5 * time.Second},
		{"capped at default 30s", time.Second, 0, "User-agent: *\nCrawl-delay: 3600\n", 30 * time.Second, 30 * time.Second},
		{"capped at configured", time.Second, 10 * time.Second, "User-agent: *\nCrawl-delay: 60\n", 10 * time.Second, 10 * time.Second},
		{"w above cap", time.Minute, 10 * time.Second, "User-agent: *\nCrawl-delay: 60\n", 10 * time.Second, time.Minute},
		{"zero w", 0, 0, "User-agent: *\nCrawl-delay: 2\n", 2 * time.Second, 2 * time.Second},
		{"zero w no robots delay", 0, 0, "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(t, Config{Delay: tt.delay, MaxCrawlDelay: tt.max}, fixed(200, tt.robots, nil).fetch)
			d := check(t, g, "http://Cd.Example:8080/", t0)
			if d.CrawlDelay != tt.wantCD {
				t.Errorf("Decision.CrawlDelay = %v, want %v", d.CrawlDelay, tt.wantCD)
			}
			if got := g.Delay("cd.example:8080"); got != tt.wantDelay {
				t.Errorf("Delay = %v, want %v", got, tt.wantDelay)
			}
			if got := g.Delay("other.example"); got != tt.delay {
				t.Errorf("Delay(other host) = %v, want w = %v", got, tt.delay)
			}
			// A fully qualified name (a trailing dot) is the same site
			// (scope.SiteKey), and keeps its Crawl-delay.
			check(t, g, "http://fq.example.:8080/", t0)
			if got := g.Delay("fq.example:8080"); got != tt.wantDelay {
				t.Errorf("Delay of fq.example. under its site key = %v, want %v", got, tt.wantDelay)
			}
		})
	}
}

func TestCrawlDelayForgotten(t *testing.T) {
	// When robots.txt drops its Crawl-delay, the next Check forgets it.
	body := "User-agent: *\nCrawl-delay: 5\n"
	f := newFake(func(string) (int, []byte, error) { return 200, []byte(body), nil })
	g := newGate(t, Config{Delay: time.Second}, f.fetch)
	check(t, g, "http://h.example/", t0)
	if got := g.Delay("h.example"); got != 5*time.Second {
		t.Fatalf("Delay = %v, want 5s", got)
	}
	body = "User-agent: *\nDisallow: /x\n"
	check(t, g, "http://h.example/", t0.Add(25*time.Hour))
	if got := g.Delay("h.example"); got != time.Second {
		t.Fatalf("Delay after robots change = %v, want 1s", got)
	}
}

func TestCheckSingleflight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		f := newFake(func(string) (int, []byte, error) {
			<-release
			return 200, []byte("User-agent: *\nDisallow: /private\n"), nil
		})
		g := newGate(t, Config{}, f.fetch)
		const n = 50
		var wg sync.WaitGroup
		results := make([]Decision, n)
		for i := range n {
			wg.Go(func() {
				path := "/public"
				if i%2 == 1 {
					path = "/private"
				}
				results[i] = check(t, g, "https://one.example"+path, t0)
			})
		}
		synctest.Wait() // all 50 are blocked: one in the fetcher, the rest waiting on it
		close(release)
		wg.Wait()
		if got := f.count("https://one.example/robots.txt"); got != 1 {
			t.Fatalf("robots.txt fetched %d times, want 1", got)
		}
		for i, d := range results {
			if d.Allowed != (i%2 == 0) {
				t.Errorf("result %d: Allowed = %v", i, d.Allowed)
			}
		}
		if st := g.Stats(); st.RobotsFetches != 1 || st.Allowed+st.Disallowed != n {
			t.Errorf("Stats = %+v", st)
		}
	})
}

func TestCheckCancelledWaiter(t *testing.T) {
	// A caller whose ctx ends while robots.txt is being fetched gets an
	// error; the fetch goes on for the others and is cached.
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		f := newFake(func(string) (int, []byte, error) {
			<-release
			return 404, nil, nil
		})
		g := newGate(t, Config{}, f.fetch)
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := g.Check(ctx, mustURL(t, "http://c.example/a"), t0)
			errc <- err
		}()
		other := make(chan Decision, 1)
		go func() { other <- check(t, g, "http://c.example/b", t0) }()
		synctest.Wait()
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled Check: err = %v, want context.Canceled", err)
		}
		close(release)
		if d := <-other; !d.Allowed {
			t.Fatalf("other Check: %+v", d)
		}
		check(t, g, "http://c.example/c", t0)
		if got := f.count("http://c.example/robots.txt"); got != 1 {
			t.Fatalf("fetches = %d, want 1", got)
		}
	})
}

func TestCacheExpiry(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		ttl     time.Duration // CacheTTL, 0 for default
		retry   time.Duration // RetryAfterError, 0 for default
		fresh   time.Duration // still cached at t0+fresh
		expired time.Duration // refetched at t0+expired
	}{
		{"200 default 24h", 200, 0, 0, 24*time.Hour - time.Nanosecond, 24 * time.Hour},
		{"404 default 24h", 404, 0, 0, 23 * time.Hour, 24 * time.Hour},
		{"200 configured", 200, time.Hour, 0, 59 * time.Minute, time.Hour},
		{"503 default 30s", 503, 0, 0, 29 * time.Second, 30 * time.Second},
		{"503 configured", 503, 0, 10 * time.Minute, 9 * time.Minute, 10 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fixed(tt.status, "", nil)
			g := newGate(t, Config{CacheTTL: tt.ttl, RetryAfterError: tt.retry}, f.fetch)
			const u = "http://e.example/x"
			check(t, g, u, t0)
			check(t, g, u, t0.Add(tt.fresh))
			if n := f.count("http://e.example/robots.txt"); n != 1 {
				t.Fatalf("fetches before expiry = %d, want 1", n)
			}
			check(t, g, u, t0.Add(tt.expired))
			if n := f.count("http://e.example/robots.txt"); n != 2 {
				t.Fatalf("fetches after expiry = %d, want 2", n)
			}
		})
	}
}

func TestRetryAfterErrorRecovers(t *testing.T) {
	status := 503
	f := newFake(func(string) (int, []byte, error) { return status, nil, nil })
	g := newGate(t, Config{}, f.fetch)
	const u = "https://r.example/page"
	if d := check(t, g, u, t0); d.Allowed {
		t.Fatal("allowed during 503")
	}
	status = 200 // the server recovers, but we keep away until the retry time
	if d := check(t, g, u, t0.Add(29*time.Second)); d.Allowed || !d.Unavailable {
		t.Fatal("allowed before RetryAfterError passed")
	}
	if d := check(t, g, u, t0.Add(30*time.Second)); !d.Allowed {
		t.Fatalf("not allowed after recovery: %s", d.Reason)
	}
	if n := f.count("https://r.example/robots.txt"); n != 2 {
		t.Fatalf("fetches = %d, want 2", n)
	}
}

// TestRobotsRetryFromEnd: the wait before robots.txt is tried again runs
// from the end of the failed fetch: one that hung until a timeout was
// tried again as soon as the wait from its start ran out (at once, when
// the timeout and the wait are alike, as the defaults are).
func TestRobotsRetryFromEnd(t *testing.T) {
	slow := newFake(func(string) (int, []byte, error) {
		time.Sleep(1100 * time.Millisecond) // a server that answers late, and with an error
		return 503, nil, nil
	})
	g := newGate(t, Config{RetryAfterError: time.Minute}, slow.fetch)
	d := check(t, g, "http://slow.example/page", t0)
	if !d.Unavailable || d.RetryAt.Sub(t0) < time.Minute+time.Second {
		t.Fatalf("Unavailable %v, retry %v after the check began; want a minute after the fetch ended, 1.1 s in", d.Unavailable, d.RetryAt.Sub(t0))
	}
}

// A robots.txt that keeps failing is tried again after a wait that doubles
// with each failure in a row, up to MaxRetryDelay; a server's Retry-After
// is used instead, capped too.
func TestRobotsRetryBackoff(t *testing.T) {
	f := fixed(503, "", nil)
	g := newGate(t, Config{RetryAfterError: time.Minute, MaxRetryDelay: 5 * time.Minute}, f.fetch)
	const u = "https://b.example/page"
	now := t0
	for i, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute} {
		d := check(t, g, u, now)
		if !d.Unavailable || d.RetryAt.Sub(now) != want {
			t.Fatalf("failure %d: Unavailable %v, wait %v; want %v", i+1, d.Unavailable, d.RetryAt.Sub(now), want)
		}
		now = d.RetryAt
	}

	rl := newFake(func(string) (int, []byte, error) { return 0, nil, &RetryLater{Status: 429, After: 90 * time.Second} })
	g = newGate(t, Config{MaxRetryDelay: time.Hour}, rl.fetch)
	if d := check(t, g, u, t0); !d.Unavailable || d.RetryAt.Sub(t0) != 90*time.Second {
		t.Fatalf("Retry-After 90s: Unavailable %v, wait %v", d.Unavailable, d.RetryAt.Sub(t0))
	}
	long := newFake(func(string) (int, []byte, error) { return 0, nil, &RetryLater{Status: 503, After: 48 * time.Hour} })
	g = newGate(t, Config{MaxRetryDelay: time.Hour}, long.fetch)
	if d := check(t, g, u, t0); d.RetryAt.Sub(t0) != time.Hour {
		t.Fatalf("Retry-After 48h: wait %v, want the 1h cap", d.RetryAt.Sub(t0))
	}
	// A success ends the run of failures: the next failure waits the
	// first delay again.
	status := 503
	flip := newFake(func(string) (int, []byte, error) { return status, nil, nil })
	g = newGate(t, Config{RetryAfterError: time.Minute, CacheTTL: time.Hour}, flip.fetch)
	d := check(t, g, u, t0)
	d = check(t, g, u, d.RetryAt)
	status = 200
	now = d.RetryAt
	if d := check(t, g, u, now); !d.Allowed {
		t.Fatal("not allowed after recovery")
	}
	status = 503
	now = now.Add(time.Hour)
	if d := check(t, g, u, now); d.RetryAt.Sub(now) != time.Minute {
		t.Fatalf("after a success, first failure waits %v, want 1m", d.RetryAt.Sub(now))
	}
}

func TestCacheKeyIsOrigin(t *testing.T) {
	f := fixed(404, "", nil)
	g := newGate(t, Config{}, f.fetch)
	for _, u := range []string{
		"http://K.example/a", "http://k.example:80/b", "HTTP://k.EXAMPLE/c",
		"https://k.example/a", "https://k.example:443/b",
		"http://k.example:8080/a",
		"http://[::1]:8080/a", "http://[::1]/a",
	} {
		check(t, g, u, t0)
	}
	want := map[string]int{
		"http://k.example/robots.txt":      1,
		"https://k.example/robots.txt":     1,
		"http://k.example:8080/robots.txt": 1,
		"http://[::1]:8080/robots.txt":     1,
		"http://[::1]/robots.txt":          1,
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) != len(want) {
		t.Errorf("fetched %v, want %v", f.calls, want)
	}
	for k, n := range want {
		if f.calls[k] != n {
			t.Errorf("%s fetched %d times, want %d", k, f.calls[k], n)
		}
	}
}

func TestCacheBounded(t *testing.T) {
	f := fixed(404, "", nil)
	g := newGate(t, Config{MaxHosts: 2}, f.fetch)
	for _, h := range []string{"a", "b", "a", "c"} { // b is least recently used when c arrives
		check(t, g, "http://"+h+".example/", t0)
	}
	if n := g.Stats().CachedRobots; n != 2 {
		t.Fatalf("CachedRobots = %d, want 2", n)
	}
	check(t, g, "http://a.example/", t0)
	check(t, g, "http://b.example/", t0)
	if n := f.count("http://a.example/robots.txt"); n != 1 {
		t.Errorf("a fetched %d times, want 1 (recently used, kept)", n)
	}
	if n := f.count("http://b.example/robots.txt"); n != 2 {
		t.Errorf("b fetched %d times, want 2 (evicted)", n)
	}
}

func TestIgnorePolicy(t *testing.T) {
	g, err := New(Config{Policy: Ignore, Delay: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := g.Check(context.Background(), mustURL(t, "http://i.example/private"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Allowed || d.Reason != "robots: ignored by policy" {
		t.Errorf("Decision = %+v", d)
	}
	if got := g.Delay("i.example"); got != 2*time.Second {
		t.Errorf("Delay = %v, want w", got)
	}
	if st := g.Stats(); st.RobotsFetches != 0 || st.Allowed != 1 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestCheckCancelledBeforeFetch(t *testing.T) {
	f := fixed(200, "", nil)
	g := newGate(t, Config{}, f.fetch)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Check(ctx, mustURL(t, "http://x.example/"), t0); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := f.count("http://x.example/robots.txt"); n != 0 {
		t.Fatalf("fetched %d times for a cancelled caller", n)
	}
}

func TestCheckUnsupportedURL(t *testing.T) {
	f := fixed(200, "", nil)
	g := newGate(t, Config{}, f.fetch)
	for _, raw := range []string{"ftp://x.example/", "mailto:a@x.example", "http:///path", "/relative"} {
		_, err := g.Check(context.Background(), mustURL(t, raw), t0)
		if !errors.Is(err, ErrUnsupportedURL) {
			t.Errorf("Check(%s): err = %v, want ErrUnsupportedURL", raw, err)
		}
	}
	if _, err := g.Check(context.Background(), nil, t0); !errors.Is(err, ErrUnsupportedURL) {
		t.Errorf("Check(nil): err = %v", err)
	}
	if len(f.calls) != 0 {
		t.Errorf("fetched %v", f.calls)
	}
}

func TestNewConfig(t *testing.T) {
	nop := fixed(200, "", nil).fetch
	tests := []struct {
		name  string
		cfg   Config
		fetch RobotsFetcher
		bad   []string // substrings of the error, one per problem; none if valid
	}{
		{"defaults", Config{UserAgent: testUA}, nop, nil},
		{"ignore needs no UA or fetcher", Config{Policy: Ignore}, nil, nil},
		{"no UA", Config{}, nop, []string{"user agent"}},
		{"UA without token", Config{UserAgent: "/1.0"}, nop, []string{"user agent"}},
		{"bad policy", Config{UserAgent: testUA, Policy: "maybe"}, nop, []string{"policy \"maybe\""}},
		{"nil fetcher", Config{UserAgent: testUA}, nil, []string{"nil robots fetcher"}},
		{"all negative", Config{UserAgent: testUA, Delay: -1, MaxCrawlDelay: -1, CacheTTL: -1, RetryAfterError: -1, MaxHosts: -1, FetchTimeout: -1}, nop,
			[]string{"delay -1ns", "max crawl delay", "cache TTL", "retry after error", "max hosts", "fetch timeout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(tt.cfg, tt.fetch)
			if len(tt.bad) == 0 {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("New succeeded, want errors %q", tt.bad)
			}
			if g != nil {
				t.Error("New returned a Gate with an error")
			}
			if !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("error %v does not wrap ErrInvalidConfig", err)
			}
			for _, s := range tt.bad {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestNewDefaults(t *testing.T) {
	g := newGate(t, Config{}, fixed(200, "", nil).fetch)
	got := g.Config()
	want := Config{
		UserAgent: testUA, Policy: Obey, Delay: 0,
		MaxCrawlDelay: 30 * time.Second, CacheTTL: 24 * time.Hour, RetryAfterError: 30 * time.Second,
		MaxRetryDelay: time.Hour, MaxHosts: 100_000, MaxCacheBytes: DefaultMaxCacheBytes, FetchTimeout: time.Minute, MaxDelay: 30 * time.Second,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Config() = %+v, want %+v", got, want)
	}
}

func BenchmarkCheckCachedSmall(b *testing.B) {
	const robots = "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /tmp/\nAllow: /tmp/public/\n"
	g := newGate(b, Config{}, fixed(200, robots, nil).fetch)
	u := mustURL(b, "https://bench.example/news/2025/03/01/story.html")
	ctx := context.Background()
	if _, err := g.Check(ctx, u, t0); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Check(ctx, u, t0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckCached uses a large robots.txt with 50 wildcard rules.
func BenchmarkCheckCached(b *testing.B) {
	var robots strings.Builder
	robots.WriteString("User-agent: *\n")
	for i := range 50 {
		fmt.Fprintf(&robots, "Disallow: /private%d/\nAllow: /private%d/public*.html$\n", i, i)
	}
	g := newGate(b, Config{}, fixed(200, robots.String(), nil).fetch)
	u := mustURL(b, "https://bench.example/private25/public/page.html?x=1")
	ctx := context.Background()
	if _, err := g.Check(ctx, u, t0); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Check(ctx, u, t0); err != nil {
			b.Fatal(err)
		}
	}
}

// memStore is a Store in memory, shared by gates as a frontier is shared
// by the runs of one crawl.
type memStore struct {
	mu sync.Mutex
	m  map[string]Record
}

func (s *memStore) Load(u string) (Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.m[u]
	return r, ok, nil
}

func (s *memStore) Save(u string, r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[u] = r
	return nil
}

// A restarted gate on the same store neither fetches robots.txt again
// before it expires nor forgets its rules or its run of failures.
func TestStoreSurvivesRestart(t *testing.T) {
	st := &memStore{m: map[string]Record{}}
	f := fixed(200, "User-agent: *\nDisallow: /private\n", nil)
	g := newGate(t, Config{Store: st}, f.fetch)
	check(t, g, "http://a.example/x", t0)
	g2 := newGate(t, Config{Store: st}, f.fetch) // the restart
	if d := check(t, g2, "http://a.example/private/1", t0.Add(time.Hour)); d.Allowed {
		t.Error("restored rules allow a disallowed URL")
	}
	if n := f.count("http://a.example/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times across a restart, want 1", n)
	}
	if g2.Stats().Restored != 1 {
		t.Errorf("Restored = %d, want 1", g2.Stats().Restored)
	}
	g3 := newGate(t, Config{Store: st}, f.fetch)
	check(t, g3, "http://a.example/x", t0.Add(25*time.Hour)) // expired: fetched again
	if n := f.count("http://a.example/robots.txt"); n != 2 {
		t.Errorf("robots.txt fetched %d times after expiry, want 2", n)
	}

	// Failures in a row carry over: the third failure waits 4 × the first delay.
	down := fixed(503, "", nil)
	st = &memStore{m: map[string]Record{}}
	now := t0
	for i := 0; i < 2; i++ {
		g := newGate(t, Config{Store: st, RetryAfterError: time.Minute}, down.fetch)
		d := check(t, g, "http://b.example/x", now)
		now = d.RetryAt
	}
	g = newGate(t, Config{Store: st, RetryAfterError: time.Minute}, down.fetch)
	if d := check(t, g, "http://b.example/x", now); d.RetryAt.Sub(now) != 4*time.Minute {
		t.Errorf("third failure across restarts waits %v, want 4m", d.RetryAt.Sub(now))
	}
}

// TestLocalFailureNotCached: a fetcher error marked ErrLocal (the response
// could not be archived) is returned by Check and not taken for robots.txt
// being unavailable: nothing is cached, and the next Check fetches again.
func TestLocalFailureNotCached(t *testing.T) {
	calls := 0
	g := newGate(t, Config{}, func(_ context.Context, u string) (int, []byte, error) {
		calls++
		if calls == 1 {
			return 0, nil, fmt.Errorf("archive %s: %w: no space left on device", u, ErrLocal)
		}
		return 200, []byte("User-agent: *\nDisallow: /private\n"), nil
	})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := g.Check(context.Background(), mustURL(t, "http://a.test/x"), now); !errors.Is(err, ErrLocal) {
		t.Fatalf("Check with a local failure: %v, want ErrLocal", err)
	}
	if d := check(t, g, "http://a.test/private/1", now); d.Allowed || d.Unavailable || calls != 2 {
		t.Errorf("after a local failure: %+v, %d fetches; want the rules fetched again and obeyed", d, calls)
	}
}

// TestCrawlDelayBothSchemes: a site answers http://host/robots.txt and
// https://host/robots.txt, two files. One asks for 10 s, the other says
// nothing: the site waits 10 s whichever scheme the crawl checked last.
// Before, the Crawl-delay was kept by host alone and the latest Check
// won, so checking an https URL dropped the http file's 10 s.
func TestCrawlDelayBothSchemes(t *testing.T) {
	f := newFake(func(u string) (int, []byte, error) {
		if strings.HasPrefix(u, "http://") {
			return 200, []byte("User-agent: *\nCrawl-delay: 10\n"), nil
		}
		return 200, []byte("User-agent: *\nDisallow: /private/\n"), nil
	})
	g := newGate(t, Config{Delay: time.Second}, f.fetch)
	check(t, g, "http://two.example/a", t0)
	if got := g.Delay("two.example"); got != 10*time.Second {
		t.Fatalf("after the http check: Delay = %v, want 10s", got)
	}
	check(t, g, "https://two.example/b", t0)
	if got := g.Delay("two.example"); got != 10*time.Second {
		t.Errorf("after the https check: Delay = %v, want the http file's 10s (the larger)", got)
	}
	// The https file asking more wins in turn; the http one asking
	// nothing any more leaves the https one's.
	f.answer = func(u string) (int, []byte, error) {
		if strings.HasPrefix(u, "https://") {
			return 200, []byte("User-agent: *\nCrawl-delay: 20\n"), nil
		}
		return 200, []byte("User-agent: *\n"), nil
	}
	later := t0.Add(48 * time.Hour) // past the robots.txt cache's lifetime
	check(t, g, "https://two.example/c", later)
	check(t, g, "http://two.example/d", later)
	if got := g.Delay("two.example"); got != 20*time.Second {
		t.Errorf("after both files changed: Delay = %v, want 20s", got)
	}
}
