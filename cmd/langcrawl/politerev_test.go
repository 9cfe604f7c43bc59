package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A politeness review's tests: each judges the crawl from the server's own
// clock, as a server's operator would, never from the crawler's logs.

// polHit is one request as the server saw it: its arrival, when the
// server began its last write (or saw the request end without one), and
// the connection it came on.
type polHit struct {
	host, path string
	conn       string
	arrive     time.Time
	sent       time.Time
}

// polServer is one listener that answers every host name; handle decides
// each answer. It records every request.
type polServer struct {
	mu     sync.Mutex
	hits   []polHit
	handle func(w http.ResponseWriter, r *http.Request)
	addr   string
	srv    *http.Server
	now    int // requests being answered
	most   int // the most answered at once
}

type sentWriter struct {
	http.ResponseWriter
	last time.Time
}

func (s *sentWriter) WriteHeader(code int) {
	s.last = time.Now()
	s.ResponseWriter.WriteHeader(code)
}

func (s *sentWriter) Write(p []byte) (int, error) {
	s.last = time.Now()
	return s.ResponseWriter.Write(p)
}

func (s *sentWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func startPolServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request)) *polServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &polServer{handle: handle, addr: ln.Addr().String()}
	p.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := polHit{host: strings.ToLower(r.Host), path: r.URL.RequestURI(), conn: r.RemoteAddr, arrive: time.Now()}
		p.mu.Lock()
		p.now++
		p.most = max(p.most, p.now)
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			p.now--
			p.mu.Unlock()
		}()
		sw := &sentWriter{ResponseWriter: w}
		p.handle(sw, r)
		h.sent = sw.last
		if h.sent.IsZero() {
			h.sent = time.Now()
		}
		p.mu.Lock()
		p.hits = append(p.hits, h)
		p.mu.Unlock()
	})}
	go p.srv.Serve(ln)
	t.Cleanup(func() { p.srv.Close() })
	return p
}

func (p *polServer) log() []polHit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]polHit(nil), p.hits...)
}

// polProfile writes and loads a profile that sends every host to p.
func polProfile(t *testing.T, p *polServer, out string, seeds []string, extra string) string {
	t.Helper()
	var s strings.Builder
	for _, u := range seeds {
		fmt.Fprintf(&s, "  - %s\n", u)
	}
	f := filepath.Join(t.TempDir(), "profile.yaml")
	text := fmt.Sprintf(`seeds:
%sout: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
network:
  connect_to:
    "*": %s
%s`, s.String(), out, p.addr, extra)
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func polCrawl(t *testing.T, p *polServer, seeds []string, extra string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	f := polProfile(t, p, out, seeds, extra)
	cfg := loadProfileText(t, f, mustRead(t, f))
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// polGaps returns, for host, every pair of its requests in arrival order
// whose gap (the later one's arrival after the earlier one's last write)
// is below want, and the smallest gap seen.
func polGaps(hits []polHit, host string, want time.Duration) (short []string, least time.Duration) {
	var hs []polHit
	for _, h := range hits {
		if h.host == host {
			hs = append(hs, h)
		}
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].arrive.Before(hs[j].arrive) })
	least = time.Duration(1 << 62)
	for i := 1; i < len(hs); i++ {
		// Against every earlier request, not only the one before: an
		// overlap shows as a negative gap.
		var prev polHit
		for j := 0; j < i; j++ {
			if j == 0 || hs[j].sent.After(prev.sent) {
				prev = hs[j]
			}
		}
		gap := hs[i].arrive.Sub(prev.sent)
		least = min(least, gap)
		if gap < want {
			short = append(short, fmt.Sprintf("%s %s arrived %v after %s ended", host, hs[i].path, gap.Round(time.Millisecond), prev.path))
		}
	}
	return short, least
}

// afterBusy returns the gap between the end of the first request to host
// whose path is busyPath and the arrival of the next request to host.
func afterBusy(t *testing.T, hits []polHit, host, busyPath string) (time.Duration, string) {
	t.Helper()
	sort.Slice(hits, func(i, j int) bool { return hits[i].arrive.Before(hits[j].arrive) })
	for i, h := range hits {
		if h.host != host || h.path != busyPath {
			continue
		}
		for _, n := range hits[i+1:] {
			if n.host == host {
				return n.arrive.Sub(h.sent), n.path
			}
		}
		t.Fatalf("no request to %s after %s", host, busyPath)
	}
	t.Fatalf("no request to %s%s", host, busyPath)
	return 0, ""
}

// TestPoliteRetryAfterOnLastTry (from a politeness review): a 429 with Retry-After: 6 holds the
// whole site back for 6 s (README: "A 503 or 429 holds back the whole
// site until then"), also when it answers a URL's last try.
func TestPoliteRetryAfterOnLastTry(t *testing.T) {
	const ra = 6 * time.Second
	p := startPolServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/a":
			w.Header().Set("Retry-After", "6")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><p>page</p></body></html>`)
		}
	})
	polCrawl(t, p, []string{"http://busy.test/a", "http://busy.test/b", "http://busy.test/c"},
		"workers: 4\ndelay: 200ms\nretries: {max: 1, delay: 100ms, max_delay: 1h}\n")
	gap, next := afterBusy(t, p.log(), "busy.test", "/a")
	t.Logf("after the 429 (Retry-After: 6) to /a, %s came %v later", next, gap.Round(time.Millisecond))
	if gap < ra-300*time.Millisecond {
		t.Errorf("busy.test %s arrived %v after a 429 with Retry-After: 6, want at least %v", next, gap.Round(time.Millisecond), ra)
	}
}

// TestPoliteRestartAfterKill (from a politeness review): a crawl killed while a request to a site is
// in flight, started again at once, waits w after that request before it
// asks the site again. The server saw the killed request end when the
// kill closed its connection; the restarted crawl asked for the same page
// again within the start's own time.
func TestPoliteRestartAfterKill(t *testing.T) { testPoliteRestart(t, syscall.SIGKILL) }

// TestPoliteRestartAfterDrainCut (from a politeness review): the same after a Ctrl-C whose drain
// (timeouts.drain) cut the request in flight: the URL is put back, and the
// next start, at once, asked for it again without waiting w.
func TestPoliteRestartAfterDrainCut(t *testing.T) { testPoliteRestart(t, os.Interrupt) }

func testPoliteRestart(t *testing.T, sig os.Signal) {
	const w = 5 * time.Second
	var hold sync.Mutex
	holding := true
	held := make(chan struct{}, 1)
	p := startPolServer(t, func(rw http.ResponseWriter, r *http.Request) {
		hold.Lock()
		h := holding
		hold.Unlock()
		if h && r.URL.Path == "/" {
			select {
			case held <- struct{}{}:
			default:
			}
			<-r.Context().Done() // until the crawler's connection goes
			return
		}
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, `<html><body><p>page</p><a href="/p1">one</a></body></html>`)
	})
	out := filepath.Join(t.TempDir(), "out")
	profile := polProfile(t, p, out, []string{"http://slow.test/"},
		"workers: 2\ndelay: 5s\nrobots: {policy: ignore}\ntimeouts: {connect: 2s, fetch: 20s, read: 20s, drain: 200ms}\n")
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=crawl --profile "+profile)
	child.Stdout, child.Stderr = io.Discard, io.Discard
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(time.Minute):
		child.Process.Kill()
		child.Wait()
		t.Fatal("the crawl never asked for the page")
	}
	child.Process.Signal(sig)
	child.Wait()
	hold.Lock()
	holding = false
	hold.Unlock()
	cfg := loadProfileText(t, profile, mustRead(t, profile))
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	short, least := polGaps(p.log(), "slow.test", w-300*time.Millisecond)
	t.Logf("least gap between two requests to slow.test: %v (w = %v)", least.Round(time.Millisecond), w)
	for _, s := range short {
		t.Errorf("%s, want at least w = %v", s, w)
	}
}

// TestPoliteNoInstantResend (from a politeness review): a server that takes a request on a kept-alive
// connection and closes it without an answer (a back end that crashed, a
// server shedding load) saw the very same request again at once on a new
// connection, within a millisecond or so, not w after it.
func TestPoliteNoInstantResend(t *testing.T) {
	const w = 2 * time.Second
	var mu sync.Mutex
	served := map[string]int{} // requests answered per connection
	p := startPolServer(t, func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n := served[r.RemoteAddr]
		served[r.RemoteAddr]++
		mu.Unlock()
		if n > 0 && r.URL.Path == "/p1" {
			// The second request on this connection: closed unanswered.
			if c, _, err := rw.(*sentWriter).ResponseWriter.(http.Hijacker).Hijack(); err == nil {
				c.Close()
			}
			return
		}
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, `<html><body><p>page</p><a href="/p1">one</a><a href="/p2">two</a></body></html>`)
	})
	polCrawl(t, p, []string{"http://drop.test/"}, "workers: 2\ndelay: 2s\nrobots: {policy: ignore}\nretries: {max: 3, delay: 100ms, max_delay: 1h}\n")
	short, least := polGaps(p.log(), "drop.test", w-300*time.Millisecond)
	t.Logf("least gap between two requests to drop.test: %v (w = %v)", least.Round(time.Millisecond), w)
	for _, s := range short {
		t.Errorf("%s, want at least w = %v", s, w)
	}
}

// TestPoliteSharedHosts (from a politeness review): ten sites whose pages embed images, a stylesheet
// and a font from cdn.test, which has pages of its own; each site's /old
// redirects to hub.test; www. and bare names; robots.txt with a
// Crawl-delay of 0.001; 64 workers. Every host is asked w apart, and the
// one address never has more than address_connections requests at once.
func TestPoliteSharedHosts(t *testing.T) {
	const w = 300 * time.Millisecond
	p := startPolServer(t, func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(5 * time.Millisecond)
		host := strings.ToLower(r.Host)
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(rw, "User-agent: *\nCrawl-delay: 0.001\nAllow: /\n")
		case strings.HasPrefix(r.URL.Path, "/old"):
			http.Redirect(rw, r, "http://hub.test/x"+r.URL.Path, http.StatusMovedPermanently)
		case strings.HasSuffix(r.URL.Path, ".png"):
			rw.Header().Set("Content-Type", "image/png")
			rw.Write([]byte("\x89PNG\r\n\x1a\nxxxx"))
		case strings.HasSuffix(r.URL.Path, ".css"):
			rw.Header().Set("Content-Type", "text/css")
			fmt.Fprint(rw, `@font-face { src: url(/f.woff2) } body { background: url(/bg.png) }`)
		case strings.HasSuffix(r.URL.Path, ".woff2"):
			rw.Header().Set("Content-Type", "font/woff2")
			rw.Write([]byte("wOF2xxxx"))
		default:
			rw.Header().Set("Content-Type", "text/html")
			fmt.Fprint(rw, `<html><head><link rel="stylesheet" href="http://cdn.test/s.css"></head><body><p>page</p>`)
			for i := range 3 {
				fmt.Fprintf(rw, `<img src="http://cdn.test/img/%s%s-%d.png">`, host, r.URL.Path, i)
			}
			if r.URL.Path == "/" {
				fmt.Fprint(rw, `<a href="/a">a</a><a href="/b">b</a><a href="/old1">o</a><a href="/old2">o</a><a href="http://cdn.test/">cdn</a>`)
				if !strings.HasPrefix(host, "www.") {
					fmt.Fprintf(rw, `<a href="http://www.%s/">www</a>`, host)
				}
			}
			fmt.Fprint(rw, `</body></html>`)
		}
	})
	var seeds []string
	for i := range 10 {
		seeds = append(seeds, fmt.Sprintf("http://site%d.test/", i))
	}
	polCrawl(t, p, seeds, "workers: 64\ndelay: 300ms\nscheduling: {address_connections: 4, domain_connections: 2}\n")
	hits := p.log()
	hosts := map[string]int{}
	for _, h := range hits {
		hosts[h.host]++
	}
	t.Logf("%d requests, %d hosts, cdn.test %d, hub.test %d; at most %d at once", len(hits), len(hosts), hosts["cdn.test"], hosts["hub.test"], p.most)
	for host := range hosts {
		short, _ := polGaps(hits, host, w-50*time.Millisecond)
		for _, s := range short {
			t.Errorf("%s, want at least w = %v", s, w)
		}
	}
	if p.most > 4 {
		t.Errorf("%d requests at once to the one address, want at most address_connections = 4", p.most)
	}
}

// TestPoliteBusyAnswers (from a politeness review): after a 429 or 503 whose Retry-After is 0, a date
// gone by, or more than retries.max_delay, the site is asked again no
// sooner than the back-off (retries.delay, or retries.max_delay for the
// huge one), on a try that is not the last.
func TestPoliteBusyAnswers(t *testing.T) {
	for _, c := range []struct {
		name, ra string
		status   int
		want     time.Duration
	}{
		{"zero", "0", 429, 2 * time.Second},
		{"past", "Wed, 21 Oct 2015 07:28:00 GMT", 503, 2 * time.Second},
		{"huge", "99999999999999999999999", 429, 3 * time.Second},
		{"none", "", 503, 2 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			var once sync.Once
			p := startPolServer(t, func(rw http.ResponseWriter, r *http.Request) {
				busy := false
				if r.URL.Path == "/a" {
					once.Do(func() { busy = true })
				}
				switch {
				case r.URL.Path == "/robots.txt":
					http.NotFound(rw, r)
				case busy:
					if c.ra != "" {
						rw.Header().Set("Retry-After", c.ra)
					}
					http.Error(rw, "busy", c.status)
				default:
					rw.Header().Set("Content-Type", "text/html")
					fmt.Fprint(rw, `<html><body><p>page</p></body></html>`)
				}
			})
			polCrawl(t, p, []string{"http://busy.test/a", "http://busy.test/b"},
				"workers: 4\ndelay: 100ms\nretries: {max: 3, delay: 2s, max_delay: 3s}\n")
			gap, next := afterBusy(t, p.log(), "busy.test", "/a")
			t.Logf("after %d (Retry-After %q), %s came %v later", c.status, c.ra, next, gap.Round(time.Millisecond))
			if gap < c.want-200*time.Millisecond {
				t.Errorf("busy.test %s arrived %v after a %d with Retry-After %q, want at least %v", next, gap.Round(time.Millisecond), c.status, c.ra, c.want)
			}
		})
	}
}
