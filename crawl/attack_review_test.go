package crawl

import (
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/politeness"
)

// attackServer starts one 127.0.0.1 server playing every test host (routed
// on the Host header) and a real fetch client that dials every host to it.
func attackServer(t *testing.T, h http.HandlerFunc, cfg fetch.Config) *fetch.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cfg.ConnectTo = map[string]string{"*": srv.Listener.Addr().String()}
	client, err := fetch.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return client
}

func attackPage(w http.ResponseWriter, links ...string) {
	w.Header().Set("Content-Type", "text/html")
	var b strings.Builder
	b.WriteString(`<html lang="th"><body>`)
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
	}
	b.WriteString("</body></html>")
	fmt.Fprint(w, b.String())
}

// hangUp closes the connection under w with nothing sent after what was.
func hangUp(w http.ResponseWriter) {
	if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
		c.Close()
	}
}

// secretAllowed asks a politeness gate whose robots.txt comes through
// RobotsFetcher from client whether http://a.test/secret may be fetched.
func secretAllowed(t *testing.T, client *fetch.Client) politeness.Decision {
	t.Helper()
	slot := func(context.Context, string) (func(time.Time), error) { return func(time.Time) {}, nil }
	g, err := politeness.New(politeness.Config{UserAgent: "langcrawl/1.0"}, RobotsFetcher(client, &fakeArchive{}, slot, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://a.test/secret")
	d, err := g.Check(context.Background(), u, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestOneCrashingURLKeepsItsSite (from a review): one URL of a healthy
// server whose back end dies on it (the connection closed before any
// response byte, as a crashing PHP or an nginx 444 does) is the URL's own
// failure. Counted as the site's, each try held the whole site back and
// the last gave up its ten healthy pages (site-gave-up) though the site
// answered every one of them.
func TestOneCrashingURLKeepsItsSite(t *testing.T) {
	var pages []string
	for i := range 10 {
		pages = append(pages, fmt.Sprintf("/p%d", i))
	}
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			attackPage(w, append([]string{"/crash"}, pages...)...)
		case "/crash":
			hangUp(w)
		default:
			attackPage(w)
		}
	}, fetch.Config{})
	r := newRetryRig(t, fakeWeb{}, nil)
	c, err := New(Config{Workers: 1, Retries: fastRetries},
		Parts{Queue: r.q, Archive: r.a, Fetcher: client, Gate: fakeGate{}, Detector: fakeDetector{}, CrawlLog: r.cl})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed([]string{"http://a.test/"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if reason, err := c.Run(ctx); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	var lost []string
	for _, p := range pages {
		if !r.archived("http://a.test" + p) {
			lost = append(lost, p)
		}
	}
	if len(lost) > 0 {
		t.Errorf("%d of %d healthy pages lost to one crashing URL: %v\n%s", len(lost), len(pages), lost, r.lines(t))
	}
}

// TestRobotsCutGzipUnavailable (from a review): a robots.txt sent
// gzip-encoded whose gzip stream is cut short inside whole framing (a
// broken pre-compressed robots.txt.gz) decodes to a prefix of the file,
// "Disallow:" of "Disallow: /". Like a robots.txt cut by a reset
// (TestRobotsCutShort), it is unavailable, never obeyed as whole; it was
// obeyed, and the forbidden site crawled.
func TestRobotsCutGzipUnavailable(t *testing.T) {
	whole := []byte("User-agent: *\nDisallow: /\n")
	var zb strings.Builder
	zw, _ := gzip.NewWriterLevel(&zb, gzip.NoCompression)
	zw.Write(whole)
	zw.Close()
	z := []byte(zb.String())
	// Keep the gzip header (10 bytes), the stored block's header (5 bytes)
	// and "User-agent: *\nDisallow:" (23 bytes); drop " /\n", the final
	// block and the trailer.
	cut := z[:10+5+23]
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", fmt.Sprint(len(cut)))
		w.Write(cut)
	}, fetch.Config{})
	if d := secretAllowed(t, client); d.Allowed {
		t.Errorf("robots.txt %q, its gzip stream cut after \"Disallow:\", read as whole: /secret allowed (%s)", whole, d.Reason)
	}
}

// TestCutGzipPageSaid (from a review): a page whose gzip stream ends early
// while its framing is whole is read for the links of the part decoded,
// and its crawl.log line says so (payload-truncated), as parse-truncated
// and links-truncated do, so that a curator sees its links were cut, not
// that it had no more. It was logged as a whole 200.
func TestCutGzipPageSaid(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html lang="th"><body>`)
	for i := range 200 {
		fmt.Fprintf(&b, `<a href="/p%d">x</a>`, i)
	}
	b.WriteString("</body></html>")
	var zb strings.Builder
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(b.String()))
	zw.Close()
	z := zb.String()
	cut := z[:len(z)/2]
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			attackPage(w)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", fmt.Sprint(len(cut)))
		fmt.Fprint(w, cut)
	}, fetch.Config{})
	r := newRetryRig(t, fakeWeb{}, nil)
	c, err := New(Config{Workers: 1, Retries: fastRetries, MaxPages: 1},
		Parts{Queue: r.q, Archive: r.a, Fetcher: client, Gate: fakeGate{}, Detector: fakeDetector{}, CrawlLog: r.cl})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed([]string{"http://a.test/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	log := r.lines(t)
	var line string
	for _, l := range strings.Split(log, "\n") {
		if f := strings.Fields(l); len(f) == 12 && f[3] == "http://a.test/" {
			line = l
		}
	}
	t.Logf("crawl.log: %s", line)
	if !strings.Contains(line, "payload") && !strings.Contains(line, "truncated") {
		t.Errorf("a page whose gzip stream was cut half way is logged as whole; its links past the cut were lost unsaid:\n%s", line)
	}
}

// TestCutCaptureNotConditional (from a review): a page cut off twice in
// one generation is archived cut (WARC-Truncated: disconnect). Its ETag
// must not make the next generation's request conditional: the history
// kept it, the healthy server answered 304 to If-None-Match, and a
// revisit made the cut capture stand for the page, whose whole body and
// links past the cut were never archived again while it was unchanged.
func TestCutCaptureNotConditional(t *testing.T) {
	body := `<html lang="th"><body><a href="/a">a</a>` + strings.Repeat("<p>ข้อความ</p>", 400) + `<a href="/deep">deep</a></body></html>`
	var mu sync.Mutex
	healthy := false
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ok := healthy
		mu.Unlock()
		switch r.URL.Path {
		case "/":
			w.Header().Set("ETag", `"v1"`)
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			if ok {
				fmt.Fprint(w, body)
				return
			}
			fmt.Fprint(w, body[:600])
			w.(http.Flusher).Flush()
			hangUp(w)
		default:
			attackPage(w)
		}
	}, fetch.Config{})
	g := newGenRig(t, fakeWeb{}, nil)
	run := func(gen int) {
		c, err := New(Config{Workers: 1, Retries: fastRetries},
			Parts{Queue: g.q, Archive: g.a, Fetcher: client, Gate: fakeGate{}, Detector: fakeDetector{}})
		if err != nil {
			t.Fatal(err)
		}
		if gen == 1 {
			if _, err := c.Seed([]string{"http://a.test/"}); err != nil {
				t.Fatal(err)
			}
		} else if _, _, err := c.Recrawl(0, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
		if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
			t.Fatalf("generation %d: Run = %q, %v", gen, reason, err)
		}
	}
	run(1)
	mu.Lock()
	healthy = true
	mu.Unlock()
	run(2)
	run(3)
	whole := 0
	for _, u := range g.a.urls {
		if u == "http://a.test/" {
			whole++
		}
	}
	deep := slices.Contains(g.a.urls, "http://a.test/deep")
	var refs []string
	for _, rv := range g.a.revisits {
		if rv.URL == "http://a.test/" {
			refs = append(refs, rv.RefersTo)
		}
	}
	if !deep || whole < 2 {
		t.Errorf("after a cut capture in generation 1 and a healthy server in generations 2 and 3: http://a.test/ archived %d times in all (the cut one included), "+
			"revisits referring to %v, and /deep (past the cut) archived: %v", whole, refs, deep)
	}
}

// TestChunkedRobotsUnderLimitReadWhole (from a review): a robots.txt of
// 450 KiB, under RFC 9309's 500 KiB that the crawl reads, from a server
// that flushes each line as a chunk of its own. The framing (5 bytes a
// 10-byte line) took more than the 64 KiB of slack the read had, so about
// 380 KiB of the file was read, obeyed as cut at the limit, and its last
// rule, Disallow: /secret, lost.
func TestChunkedRobotsUnderLimitReadWhole(t *testing.T) {
	var lines []string
	for len(lines)*10 < 450<<10 {
		lines = append(lines, fmt.Sprintf("Allow: /%c\n", 'a'+len(lines)%26))
	}
	lines[0] = "User-agent:*\n"
	lines = append(lines, "Disallow: /secret\n")
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for _, l := range lines {
			fmt.Fprint(w, l)
			w.(http.Flusher).Flush()
		}
	}, fetch.Config{})
	if d := secretAllowed(t, client); d.Allowed {
		size := 0
		for _, l := range lines {
			size += len(l)
		}
		t.Errorf("a robots.txt of %d bytes (limit %d) sent a chunk a line: its last rule was not read, /secret allowed (%s)",
			size, politeness.MaxRobotsSize, d.Reason)
	}
}

// TestLostConnectionCodeNotFromURL (from a review): a connection made and
// then lost before the response is -3 whatever the URL's spelling.
// failureCode looked for "dial" anywhere in the error's text, which names
// the URL, so http://a.test/dialog/ dropped after the request was logged
// -2, "could not connect", as if the host were down.
func TestLostConnectionCodeNotFromURL(t *testing.T) {
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		hangUp(w)
	}, fetch.Config{})
	for _, u := range []string{"http://a.test/news/", "http://a.test/dialog/"} {
		_, err := client.Do(context.Background(), http.MethodGet, u, nil)
		if got := failureCode(err); got != codeConnectLost {
			t.Errorf("%s: connection accepted, then closed before any response byte (%v): crawl.log code %d, want %d", u, err, got, codeConnectLost)
		}
	}
}

// TestRobotsUndecodableUnavailable (from a review): a robots.txt whose
// content coding the crawl cannot undo (br whatever Accept-Encoding said,
// or a body labelled gzip that is not) is unavailable, as one the gate
// cannot parse is. It decoded to nothing and was obeyed as an empty file:
// allow all.
func TestRobotsUndecodableUnavailable(t *testing.T) {
	for _, enc := range []string{"br", "gzip"} {
		client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Encoding", enc)
			fmt.Fprint(w, "\x1b\x19\x00\xf8\x8dUser-agent: *\nDisallow: /\n") // not what the label says
		}, fetch.Config{})
		if d := secretAllowed(t, client); d.Allowed {
			t.Errorf("Content-Encoding: %s robots.txt that cannot be decoded: read as empty, /secret allowed (%s)", enc, d.Reason)
		}
	}
}
