package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/webgen"
)

// The end-to-end tests crawl the built-in web over loopback with the real
// wiring of `langcrawl crawl`, then judge the crawl by what was archived
// (every WARC read back with gowarc, and with warcio.js) and by the
// server's own request log.

const e2eDelay = 30 * time.Millisecond

// demoWeb is the generated web and its server, shared by the tests: the
// server logs every hit, so each test starts its own.
type demoWeb struct {
	g    *webgen.Graph
	srv  *webgen.Server
	addr string
	// targets, when set, is the crawl's set of target languages, which
	// the focus measures judge pages and servers by instead of the web's
	// own target language (focus.language: [lo, th]).
	targets []string
}

var (
	graphOnce sync.Once
	graph     *webgen.Graph
	graphErr  error
)

func startWeb(t *testing.T) *demoWeb {
	t.Helper()
	graphOnce.Do(func() { graph, graphErr = webgen.Generate(webgen.DemoDefaults()) })
	if graphErr != nil {
		t.Fatal(graphErr)
	}
	return startGraph(t, graph)
}

// profile writes a profile for the demo web and loads it.
func (w *demoWeb) profile(t *testing.T, out string, extra string) *config.Config {
	t.Helper()
	return w.profileWith(t, out, e2eDelay, extra)
}

// crawlInto crawls w into out with the test profile and extra keys, and
// fails the test if the crawl fails.
func crawlInto(t *testing.T, w *demoWeb, out, extra string) {
	t.Helper()
	if _, err := runCrawl(context.Background(), w.profile(t, out, extra), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
}

// loadProfileText writes text to the profile file p and loads it.
func loadProfileText(t *testing.T, p, text string) *config.Config {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// profileWith writes and loads a profile for the demo web with the delay w
// and extra keys appended.
func (w *demoWeb) profileWith(t *testing.T, out string, delay time.Duration, extra string) *config.Config {
	t.Helper()
	var seeds strings.Builder
	for _, s := range w.g.Seeds() {
		fmt.Fprintf(&seeds, "  - %s\n", w.g.URL(s))
	}
	p := filepath.Join(t.TempDir(), "profile.yaml")
	text := fmt.Sprintf(`seeds:
%sout: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: 8
delay: %s
depth: 100
max_pages_per_site: 300
max_body_size: 1MiB
timeouts: {connect: 2s, fetch: 5s, read: 2s}
network:
  connect_to:
    "*": %s
%s`, seeds.String(), out, delay, w.addr, extra)
	return loadProfileText(t, p, text)
}

// expected computes, from the generator's ground truth, the graph pages a
// crawl with no focusing and no depth cut must archive: everything
// reachable from the seeds without passing through a robots-disallowed
// page, a failing page, or a query page (the query rule keeps exactly one
// of those, checked on its own).
func (w *demoWeb) expected() map[string]bool {
	want := map[string]bool{}
	seen := map[int32]bool{}
	queue := w.g.Seeds()
	for _, s := range queue {
		seen[s] = true
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		u := w.g.URL(p)
		tr, _ := w.g.Truth(u)
		if tr.Disallowed || strings.Contains(u, "?") {
			continue
		}
		want[u] = true
		if tr.Status != 200 && (tr.Status < 300 || tr.Status >= 400) {
			continue
		}
		for _, l := range w.g.Links(p) {
			if !seen[l] {
				seen[l] = true
				queue = append(queue, l)
			}
		}
	}
	return want
}

// warcRecords reads every record of every WARC file under dir with gowarc,
// strictly: a cut record or a wrong digest fails the test, and so does a
// file left open after the crawl.
func warcRecords(t *testing.T, dir string) []archive.Record {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz*"))
	if len(files) == 0 {
		t.Fatalf("no WARC files in %s", dir)
	}
	var all []archive.Record
	for _, f := range files {
		if strings.HasSuffix(f, ".open") {
			t.Errorf("%s left open after the crawl", f)
			continue
		}
		recs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		if len(recs) == 0 || recs[0].Type != "warcinfo" {
			t.Errorf("%s does not start with a warcinfo record", f)
		}
		all = append(all, recs...)
	}
	return all
}

func responses(recs []archive.Record) map[string][]archive.Record {
	m := map[string][]archive.Record{}
	for _, r := range recs {
		if r.Type == "response" {
			m[r.TargetURI] = append(m[r.TargetURI], r)
		}
	}
	return m
}

// refetches counts the responses of one URL, rs, beyond the first, that are
// not a failure tried again: a 5xx or a 429 is followed by a retry by
// design (th-robots503.test answers its robots.txt with 503 twice), so only
// the other responses show a URL fetched again after a restart.
func refetches(rs []archive.Record) int {
	n := 0
	for _, r := range rs {
		status := ""
		if f := strings.Fields(string(r.Block[:min(len(r.Block), 32)])); len(f) > 1 {
			status = f[1]
		}
		if !strings.HasPrefix(status, "5") && status != "429" {
			n++
		}
	}
	return max(n-1, 0)
}

func TestCrawlArchivesTheWeb(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	snap, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	recs := warcRecords(t, filepath.Join(out, warcDir))
	resp := responses(recs)
	hits := w.srv.Log() // before the subtests below add requests of their own

	t.Run("each page's metadata record follows its response", func(t *testing.T) {
		pages := 0
		for i, r := range recs {
			if r.Type != "response" || strings.HasSuffix(r.TargetURI, "/robots.txt") {
				continue
			}
			pages++
			if i+1 >= len(recs) || recs[i+1].Type != "metadata" || recs[i+1].RefersTo != r.ID {
				t.Errorf("%s: the record after the response is not its metadata record", r.TargetURI)
				continue
			}
			if !strings.Contains(string(recs[i+1].Block), "via: ") {
				t.Errorf("%s: metadata record without via", r.TargetURI)
			}
		}
		if pages == 0 {
			t.Fatal("no page responses")
		}
	})

	t.Run("crawl.log has every archived response", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(out, logDir, "crawl.log"))
		if err != nil {
			t.Fatal(err)
		}
		logged := map[string]string{} // URL -> hop path
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			f := strings.Fields(line)
			if len(f) < 12 {
				t.Fatalf("short crawl.log line %q", line)
			}
			logged[f[3]] = f[4]
		}
		robots := 0
		for u := range resp {
			hop, ok := logged[u]
			if !ok {
				t.Errorf("%s archived but not in crawl.log", u)
			}
			if strings.HasSuffix(u, "/robots.txt") {
				robots++
				if hop != "P" {
					t.Errorf("%s logged with hop path %q, want P (prerequisite)", u, hop)
				}
			}
		}
		if robots == 0 {
			t.Error("no robots.txt archived")
		}
	})

	t.Run("every in-scope page once", func(t *testing.T) {
		want := w.expected()
		if len(want) < 300 {
			t.Fatalf("only %d pages expected; the demo web should hold hundreds", len(want))
		}
		for u := range want {
			if n := len(resp[u]); n != 1 {
				t.Errorf("%s archived %d times, want 1", u, n)
			}
		}
		for u, rs := range resp {
			if u == "http://th-robots503.test/robots.txt" {
				// Each try is an exchange of its own: two 503s, then the
				// rules; the host's pages wait for them, none is lost.
				if len(rs) != webgen.Robots503Answers+1 {
					t.Errorf("%s archived %d times, want %d (each try)", u, len(rs), webgen.Robots503Answers+1)
				}
				continue
			}
			if len(rs) > 1 {
				t.Errorf("%s archived %d times", u, len(rs))
			}
		}
		queries := 0
		for u := range resp {
			if strings.Contains(u, "/list.php?") {
				queries++
			}
		}
		if queries != 1 {
			t.Errorf("%d query URLs of /list.php archived, want 1 (one crawl per script)", queries)
		}
	})

	t.Run("request and response paired", func(t *testing.T) {
		ids := map[string]archive.Record{}
		for _, r := range recs {
			ids[r.ID] = r
		}
		for _, r := range recs {
			if r.Type != "request" {
				continue
			}
			peer, ok := ids[r.ConcurrentTo]
			if !ok || peer.Type != "response" || peer.TargetURI != r.TargetURI {
				t.Errorf("request %s: WARC-Concurrent-To %s is not its response", r.TargetURI, r.ConcurrentTo)
			}
		}
		for _, r := range recs {
			if r.Type == "warcinfo" {
				continue
			}
			if r.WarcinfoID == "" {
				t.Errorf("%s record for %s has no WARC-Warcinfo-ID", r.Type, r.TargetURI)
			}
			if (r.Type == "response" || r.Type == "request") && header(r, "WARC-IP-Address") == "" {
				t.Errorf("%s record for %s has no WARC-IP-Address", r.Type, r.TargetURI)
			}
		}
	})

	t.Run("bytes as the server sent them", func(t *testing.T) {
		client := &http.Client{
			Transport: &http.Transport{DialContext: webgen.DialContext(w.addr), DisableCompression: true},
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		}
		checked := 0
		for u, rs := range resp {
			if strings.Contains(u, "/endless") || strings.Contains(u, "th-slow.test") {
				continue
			}
			req, _ := http.NewRequest("GET", u, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := io.ReadAll(res.Body)
			res.Body.Close()
			got, err := httpBody(rs[len(rs)-1].Block) // the last try, as the server answers now
			if err != nil {
				t.Errorf("%s: %v", u, err)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: archived body (%d bytes) differs from what the server sends (%d bytes)", u, len(got), len(want))
			}
			checked++
		}
		if checked < len(w.expected())/2 {
			t.Errorf("compared only %d bodies", checked)
		}
	})

	t.Run("robots-disallowed URLs never requested", func(t *testing.T) {
		for _, h := range hits {
			tr, ok := w.g.Truth("http://" + h.Host + h.URI)
			if ok && tr.Disallowed {
				t.Errorf("requested %s%s, which robots.txt disallows", h.Host, h.URI)
			}
		}
		if snap.Robots == 0 {
			t.Error("no URL was held back by robots.txt; the demo web links to disallowed pages")
		}
	})

	t.Run("politeness from the server's clock", func(t *testing.T) {
		byHost := map[string][]webgen.Hit{}
		conns := map[uint64]bool{}
		for _, h := range hits {
			byHost[h.Host] = append(byHost[h.Host], h)
			conns[h.ConnID] = true
		}
		n := 0
		for host, hs := range byHost {
			sort.Slice(hs, func(i, j int) bool { return hs[i].Start.Before(hs[j].Start) })
			for i := 1; i < len(hs); i++ {
				// From the earliest the client can have had the whole
				// previous response (Hit.Sent): the handler's End may be
				// taken after a large body has already arrived.
				gap := hs[i].Start.Sub(hs[i-1].Sent)
				if gap < e2eDelay {
					t.Errorf("%s: %s started %s after %s was sent; w is %s (or two connections at once)",
						host, hs[i].URI, gap, hs[i-1].URI, e2eDelay)
				}
			}
			n += len(hs)
		}
		if len(conns) >= n {
			t.Errorf("%d connections for %d requests: keep-alive never reused a connection", len(conns), n)
		}
	})

	t.Run("hostile server cases", func(t *testing.T) {
		endless := resp["http://th-odd.test/endless"]
		if len(endless) != 1 {
			t.Fatalf("endless body archived %d times", len(endless))
		}
		if tr := header(endless[0], "WARC-Truncated"); tr != "length" {
			t.Errorf("endless body: WARC-Truncated %q, want length", tr)
		}
		for _, u := range []string{"http://th-slow.test/2.html", "http://th-odd.test/gzip.html",
			"http://th-redirect.test/final.html", "http://th-redirect.test/loop2", "http://th-odd.test/malformed.html"} {
			if len(resp[u]) != 1 {
				t.Errorf("%s not archived: the crawl did not get past a hostile case", u)
			}
		}
	})

	t.Run("warcio.js reads every record", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
		js := warcioRecords(t, files)
		count := map[string]int{}
		for _, r := range recs {
			count[r.Type+" "+r.TargetURI]++
		}
		for _, r := range js {
			if !r.BlockDigestOK || !r.PayloadDigestOK {
				t.Errorf("warcio.js: digest mismatch (block ok %v, payload ok %v) in %s record for %s",
					r.BlockDigestOK, r.PayloadDigestOK, r.Type, r.URI)
			}
			count[r.Type+" "+r.URI]--
		}
		for k, n := range count {
			if n != 0 {
				t.Errorf("gowarc and warcio.js disagree on %q by %d", k, n)
			}
		}
	})
}

func header(r archive.Record, name string) string {
	for _, f := range r.Headers {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// httpBody returns the body of a raw HTTP response, with the chunked
// transfer coding removed and the content coding kept.
func httpBody(raw []byte) ([]byte, error) {
	i := bytes.Index(raw, []byte("\r\n\r\n"))
	if i < 0 {
		return nil, errors.New("no end of headers")
	}
	head, body := raw[:i], raw[i+4:]
	if bytes.Contains(bytes.ToLower(head), []byte("transfer-encoding: chunked")) {
		return io.ReadAll(httputil.NewChunkedReader(bytes.NewReader(body)))
	}
	return body, nil
}

type jsRecord struct {
	Type, URI                      string
	BlockDigestOK, PayloadDigestOK bool
}

// warcioRecords reads the files with tools/warccheck (warcio.js).
// ./scripts/test installs it; without it this test fails and says so.
func warcioRecords(t *testing.T, files []string) []jsRecord {
	t.Helper()
	tool, _ := filepath.Abs("../../tools/warccheck")
	if _, err := os.Stat(filepath.Join(tool, "node_modules", "warcio")); err != nil {
		t.Fatalf("warcio.js is not installed: run ./scripts/test (or npm install in tools/warccheck): %v", err)
	}
	cmd := exec.Command("node", append([]string{filepath.Join(tool, "check.mjs")}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil && len(outb) == 0 {
		t.Fatalf("warcio.js: %v\n%s", err, stderr.String())
	}
	var exit *exec.ExitError
	if err != nil && (stderr.Len() > 0 || !errors.As(err, &exit) || exit.ExitCode() != 1) {
		// A digest mismatch exits 1 with every record printed and
		// nothing on stderr; anything else is a reader that stopped part
		// way, by an exception or a signal (a CI run saw it read 1695
		// records of 2711, and said nothing more).
		t.Errorf("warcio.js: %v\n%s", err, stderr.String())
	}
	var recs []jsRecord
	sc := bufio.NewScanner(bytes.NewReader(outb))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r jsRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("warcio.js output %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestKillAndResume kills a crawl with SIGKILL part way, resumes it on the
// same output directory, and checks that the two runs together archive
// every in-scope page, fetching twice only what was in flight at the kill.
func TestKillAndResume(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	// Kill it once it has fetched a good part of the web.
	child := w.crawlInChild(t, cfg, io.Discard)
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	firstRun := len(w.srv.Log())

	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if len(w.srv.Log()) == firstRun {
		t.Fatal("the resumed crawl fetched nothing")
	}
	resp := responses(warcRecords(t, filepath.Join(out, warcDir)))
	for u := range w.expected() {
		if len(resp[u]) == 0 {
			t.Errorf("%s lost across the kill", u)
		}
	}
	dups := 0
	for u, rs := range resp {
		// robots.txt too: its verdict is kept in the frontier, so a new
		// process fetches again only one that was in flight at the kill.
		if refetches(rs) > 0 {
			dups++
			t.Logf("fetched twice (in flight at the kill?): %s", u)
		}
	}
	if dups > cfg.Workers {
		t.Errorf("%d URLs archived twice; only the %d in flight at the kill may be", dups, cfg.Workers)
	}
}

// TestInterruptDrains sends the first SIGINT to a running `langcrawl crawl`
// and checks that it exits 0 with every WARC file closed and readable, and
// that a resumed crawl then finishes the web without fetching anything
// twice: a drained crawl has nothing in flight.
func TestInterruptDrains(t *testing.T) { testSignalDrains(t, os.Interrupt) }

// testSignalDrains is TestInterruptDrains for the signals sigs, sent one
// after the other.
func testSignalDrains(t *testing.T, sigs ...os.Signal) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	var stdout bytes.Buffer
	child := w.crawlInChild(t, cfg, &stdout)
	for _, sig := range sigs {
		child.Process.Signal(sig)
	}
	err := child.Wait()
	if err != nil {
		t.Fatalf("interrupted crawl exited with %v, want 0\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "stopped: interrupted") {
		t.Errorf("summary does not say the crawl was interrupted:\n%s", stdout.String())
	}
	if open, _ := filepath.Glob(filepath.Join(out, warcDir, "*.open")); len(open) > 0 {
		t.Errorf("WARC files left open after a drain: %v", open)
	}
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	resp := responses(warcRecords(t, filepath.Join(out, warcDir)))
	for u := range w.expected() {
		if len(resp[u]) != 1 {
			t.Errorf("%s archived %d times across the interrupt, want 1", u, len(resp[u]))
		}
	}
}

// TestInterruptCutsStalledFetch: the stop of `langcrawl crawl` is bounded
// by timeouts.drain. A server that takes the request and never answers,
// under fetch and read timeouts far longer than the test, has its fetch
// cut at the drain; the crawl exits 0 with its files closed, langcrawl.log
// says a fetch was cut, and the next run asks for the URL again and
// archives it once.
func TestInterruptCutsStalledFetch(t *testing.T) {
	w := startWeb(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var answer atomic.Bool // false: take the page's request and never answer
	held := make(chan struct{}, 16)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				req, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				switch {
				case req.URL.Path == "/robots.txt":
					io.WriteString(conn, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
				case answer.Load():
					body := "<html><body><p>answered at last</p></body></html>"
					fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
				default:
					held <- struct{}{}
					io.Copy(io.Discard, conn) // until the crawler closes it
				}
			}()
		}
	}()
	const stalled = "http://stall.test/"
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	cfg.Seeds = append(cfg.Seeds, stalled)
	cfg.Network.ConnectTo["stall.test"] = ln.Addr().String()
	cfg.Timeouts.Fetch, cfg.Timeouts.Read, cfg.Timeouts.Drain = 10*time.Minute, 10*time.Minute, 200*time.Millisecond
	var stdout bytes.Buffer
	child := w.crawlInChild(t, cfg, &stdout)
	select {
	case <-held:
	case <-time.After(time.Minute):
		child.Process.Kill()
		t.Fatal("the crawl never asked the stalling server for its page")
	}
	child.Process.Signal(os.Interrupt)
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("interrupted crawl exited with %v, want 0\n%s", err, stdout.String())
		}
	case <-time.After(2 * time.Minute):
		child.Process.Kill()
		t.Fatal("the crawl did not stop within two minutes of Ctrl-C: the stalled fetch was not cut")
	}
	if open, _ := filepath.Glob(filepath.Join(out, warcDir, "*.open")); len(open) > 0 {
		t.Errorf("WARC files left open after the stop: %v", open)
	}
	if log, err := os.ReadFile(filepath.Join(out, "logs", "langcrawl.log")); err != nil || !strings.Contains(string(log), "were cut") {
		t.Errorf("langcrawl.log does not say a fetch was cut at the stop (%v)", err)
	}
	answer.Store(true)
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if n := len(responses(warcRecords(t, filepath.Join(out, warcDir)))[stalled]); n != 1 {
		t.Errorf("%s archived %d times after the resume, want 1", stalled, n)
	}
}

// crawlInChild starts `langcrawl crawl` with cfg in a child process and
// returns once the child has made 150 requests, a good part of the web.
func (w *demoWeb) crawlInChild(t *testing.T, cfg *config.Config, stdout io.Writer) *exec.Cmd {
	t.Helper()
	profile := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(profile, []byte(cfg.YAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=crawl --profile "+profile)
	child.Stdout, child.Stderr = stdout, io.Discard
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(w.srv.Log()) < 150 {
		if time.Now().After(deadline) {
			child.Process.Kill()
			t.Fatalf("child crawl made only %d requests in 60s", len(w.srv.Log()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	return child
}

// TestHelperLangcrawl runs the langcrawl command line with the arguments
// in E2E_CHILD_ARGS and exits with its status. It does nothing unless run
// by another test as a child process.
func TestHelperLangcrawl(t *testing.T) {
	args := os.Getenv("E2E_CHILD_ARGS")
	if args == "" {
		return
	}
	code := run(strings.Fields(args))
	if f := os.Getenv("E2E_CHILD_HWM"); f != "" {
		// The child's own peak RSS (VmHWM of its address space), for the
		// parent: the rusage a parent reads for its child also holds the
		// parent's own peak, which Linux carries into a child at exec.
		if status, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, line := range strings.Split(string(status), "\n") {
				if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					os.WriteFile(f, []byte(strings.TrimSpace(v)), 0o644)
				}
			}
		}
	}
	os.Exit(code)
}
