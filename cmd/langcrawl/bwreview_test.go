package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingWriter counts the bytes a handler wrote, head aside.
type countingWriter struct {
	http.ResponseWriter
	n  *int64
	mu *sync.Mutex
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.mu.Lock()
	*c.n += int64(n)
	c.mu.Unlock()
	return n, err
}

// TestBWReviewMaxBytesCountsRobots (from a bandwidth and steering review):
// max_bytes is "response bytes received, over every run; the crawl stops
// taking work once reached, so it is passed by at most what is in flight"
// (README). robots.txt answers are responses received, and archived, but
// were never counted: a web of hosts whose robots.txt is large (RFC 9309
// asks to parse 500 KiB; the crawler reads up to 4 MiB of it) ran a crawl
// with max_bytes 100KB to 6 MB received, and its job totals said 0.0 MB.
func TestBWReviewMaxBytesCountsRobots(t *testing.T) {
	const hosts, robotsSize, budget, workers = 12, 500_000, 100_000, 2
	robots := strings.Repeat("# "+strings.Repeat("x", 97)+"\n", robotsSize/100) + "User-agent: *\nAllow: /\n"
	var mu sync.Mutex
	var sent int64
	p := startPolServer(t, func(w http.ResponseWriter, r *http.Request) {
		cw := countingWriter{ResponseWriter: w, n: &sent, mu: &mu}
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(cw, robots)
			return
		}
		var i int
		fmt.Sscanf(r.Host, "h%d.test", &i)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		next := ""
		if i+1 < hosts {
			next = fmt.Sprintf(`<a href="http://h%d.test/">next</a>`, i+1)
		}
		fmt.Fprintf(cw, `<html lang="th"><body><p>หน้า %d</p>%s</body></html>`, i, next)
	})
	out := filepath.Join(t.TempDir(), "out")
	f := polProfile(t, p, out, []string{"http://h0.test/"},
		fmt.Sprintf("workers: %d\ndelay: 10ms\nmax_bytes: %d\n", workers, budget))
	cfg := loadProfileText(t, f, mustRead(t, f))
	var stdout, stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	mu.Lock()
	got := sent
	mu.Unlock()
	// The most the README allows: the budget, and what was in flight when
	// it was reached, each worker's response at most a robots.txt (with
	// room for its head).
	allowed := int64(budget + workers*(len(robots)+4096))
	sum := stdout.String() + stderr.String()
	totals := regexp.MustCompile(`job totals over all runs of this generation: .*`).FindString(sum)
	t.Logf("the server sent %d body bytes (robots.txt %d bytes a host); %s", got, len(robots), totals)
	if got > allowed {
		t.Errorf("max_bytes %d: the server sent %d bytes of bodies, more than the budget and %d workers' responses in flight (%d)",
			budget, got, workers, allowed)
	}
}

// wireConn counts, with their times, the bytes a server connection wrote.
type wireConn struct {
	net.Conn
	w *wireLog
}

type wireLog struct {
	mu sync.Mutex
	at []time.Time
	n  []int
}

func (c wireConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.w.mu.Lock()
		c.w.at, c.w.n = append(c.w.at, time.Now()), append(c.w.n, n)
		c.w.mu.Unlock()
	}
	return n, err
}

type wireListener struct {
	net.Listener
	w *wireLog
}

func (l wireListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096) // the server's kernel holds little: what it took, the client was about to read
	}
	return wireConn{c, l.w}, nil
}

// excess is the smallest bucket depth that makes the writes conform to
// rate bytes a second: the most that any span of the trace sent beyond
// rate times its length.
func (w *wireLog) excess(rate float64) (depth float64, total int64, first, last time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	idx := make([]int, len(w.at))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return w.at[idx[a]].Before(w.at[idx[b]]) })
	var b float64
	var prev time.Time
	for k, i := range idx {
		if k == 0 {
			first = w.at[i]
		} else {
			b = max(0, b-rate*w.at[i].Sub(prev).Seconds())
		}
		prev = w.at[i]
		b += float64(w.n[i])
		depth = max(depth, b)
		total += int64(w.n[i])
	}
	return depth, total, first, prev
}

// TestBWReviewLimitUnderHostileServers (from a bandwidth and steering
// review): under bandwidth.limit, servers that trickle, stall mid-body,
// promise more than they send, send more than they promise, send a head of
// 900 KB or a compression bomb, beside fast ones, still get no more than L
// over any span of the crawl, beyond a stated burst: the pacer's bucket and,
// per connection, what the kernel buffers hold.
func TestBWReviewLimitUnderHostileServers(t *testing.T) {
	const limit, workers = 300_000, 8
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 64 {
		zw.Write(zeros)
	}
	zw.Close()
	filler := strings.Repeat("ก", 200_000/3)
	raw := func(w http.ResponseWriter, f func(c net.Conn)) {
		c, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		f(c)
	}
	done := make(chan struct{})
	wl := &wireLog{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for i := range 4 {
		hosts = append(hosts, fmt.Sprintf("fast%d.test", i))
	}
	hosts = append(hosts, "trickle.test", "stall.test", "short.test", "long.test", "head.test", "bomb.test")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if i := strings.IndexByte(host, ':'); i >= 0 {
			host = host[:i]
		}
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		page := `<html lang="th"><body><p>` + filler + `</p><a href="/1">1</a><a href="/2">2</a></body></html>`
		switch host {
		case "trickle.test":
			raw(w, func(c net.Conn) {
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n")
				tk := time.NewTicker(20 * time.Millisecond)
				defer tk.Stop()
				for range 5000 {
					select {
					case <-done:
						return
					case <-tk.C:
					}
					if _, err := c.Write([]byte("x")); err != nil {
						return
					}
				}
			})
		case "stall.test":
			raw(w, func(c net.Conn) {
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(page), page[:len(page)/3])
				buf := make([]byte, 1)
				c.Read(buf) // until the client gives up
			})
		case "short.test":
			raw(w, func(c net.Conn) {
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", 2*len(page), page)
			})
		case "long.test":
			raw(w, func(c net.Conn) {
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n%s", strings.Repeat("y", 100))
				for range 40 {
					if _, err := io.WriteString(c, page); err != nil {
						return
					}
				}
			})
		case "head.test":
			for i := range 200 {
				w.Header().Set(fmt.Sprintf("X-Pad-%d", i), strings.Repeat("p", 4500))
			}
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, page)
		case "bomb.test":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb.Bytes())
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page)
		}
	})}
	go srv.Serve(wireListener{ln, wl})
	defer srv.Close()
	defer close(done)

	var seeds []string
	for _, h := range hosts {
		seeds = append(seeds, "http://"+h+"/")
	}
	p := &polServer{addr: ln.Addr().String()}
	out := filepath.Join(t.TempDir(), "out")
	f := polProfile(t, p, out, seeds, fmt.Sprintf("workers: %d\ndelay: 10ms\nbandwidth: {limit: %d}\n"+
		"timeouts: {read: 2s, fetch: 6s}\nretries: {max: 2, delay: 100ms, max_delay: 200ms}\n", workers, limit))
	cfg := loadProfileText(t, f, mustRead(t, f))
	var stderr bytes.Buffer
	start := time.Now()
	if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	took := time.Since(start)
	depth, total, first, last := wl.excess(limit)
	// Stated burst: the pacer's bucket (L/50, at least 4 KiB) and, for each
	// connection that may be open (one a host), a read in progress and what
	// the two kernels buffer (receive buffer 2 KiB, send buffer 4 KiB, each
	// doubled by Linux, and a TCP segment's rounding): 48 KiB.
	burst := float64(max(limit/50, 4<<10) + len(hosts)*48<<10)
	t.Logf("%d bytes sent in %v (crawl %v): %.0f%% of L; deepest bucket at L %.0f bytes, allowed %.0f",
		total, last.Sub(first).Round(time.Millisecond), took.Round(time.Millisecond),
		100*float64(total)/last.Sub(first).Seconds()/limit, depth, burst)
	if depth > burst {
		t.Errorf("the server sent %.0f bytes more than L = %d B/s over some span of the crawl, more than the stated burst %.0f", depth, limit, burst)
	}
}

// TestBWReviewMaxBytesCountsRefusedHeads (from a bandwidth and steering
// review): a response whose head breaks the header limit (1 MiB) fails the
// URL at once (-3), but its megabyte crossed the wire and was never counted
// against max_bytes: a site whose every link answers such a head took a
// crawl under max_bytes 100KB to some 12 MB received, the budget never
// reached.
func TestBWReviewMaxBytesCountsRefusedHeads(t *testing.T) {
	const pages, budget, workers = 12, 100_000, 2
	var mu sync.Mutex
	var sent int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	wl := &wireLog{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, `<html lang="th"><body><p>หน้าแรก</p>`)
			for i := range pages {
				fmt.Fprintf(w, `<a href="/p%d">%d</a>`, i, i)
			}
			io.WriteString(w, `</body></html>`)
		default:
			for i := range 200 {
				w.Header().Set(fmt.Sprintf("X-Pad-%d", i), strings.Repeat("p", 5500))
			}
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><body>x</body></html>")
		}
	})}
	go srv.Serve(wireListener{ln, wl})
	defer srv.Close()
	p := &polServer{addr: ln.Addr().String()}
	out := filepath.Join(t.TempDir(), "out")
	f := polProfile(t, p, out, []string{"http://heads.test/"},
		fmt.Sprintf("workers: %d\ndelay: 10ms\nmax_bytes: %d\n", workers, budget))
	cfg := loadProfileText(t, f, mustRead(t, f))
	var stdout, stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	_, total, _, _ := wl.excess(1)
	mu.Lock()
	sent = total
	mu.Unlock()
	// The budget, and what was in flight when it was reached: each
	// worker's response at most a head of the limit and a little more.
	allowed := int64(budget + workers*(1<<20+64<<10))
	sum := stdout.String() + stderr.String()
	totals := regexp.MustCompile(`job totals over all runs of this generation: .*`).FindString(sum)
	t.Logf("the server sent %d bytes; %s", sent, totals)
	if sent > allowed {
		t.Errorf("max_bytes %d: the server sent %d bytes, more than the budget and %d workers' responses in flight (%d)",
			budget, sent, workers, allowed)
	}
}

// TestBWReviewMaxBytesCountsRefusedRobotsHeads: the robots.txt of twelve
// seed sites answers a head over the limit (1 MiB), which the client
// refuses. Those bytes crossed the wire as a page's refused head's do, and
// max_bytes counts them; before, only a page's refused head was counted
// (a diff review, after the bandwidth and steering review), and the
// twelve heads went by a 100 KB budget uncounted.
func TestBWReviewMaxBytesCountsRefusedRobotsHeads(t *testing.T) {
	const sites, budget, workers = 12, 100_000, 2
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	wl := &wireLog{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			for i := range 200 {
				w.Header().Set(fmt.Sprintf("X-Pad-%d", i), strings.Repeat("p", 5500))
			}
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html lang="th"><body><p>หน้าแรก</p></body></html>`)
	})}
	go srv.Serve(wireListener{ln, wl})
	defer srv.Close()
	p := &polServer{addr: ln.Addr().String()}
	var seeds []string
	for i := range sites {
		seeds = append(seeds, fmt.Sprintf("http://heads%d.test/", i))
	}
	out := filepath.Join(t.TempDir(), "out")
	f := polProfile(t, p, out, seeds, fmt.Sprintf("workers: %d\ndelay: 10ms\nmax_bytes: %d\nretries: {max: 1}\n", workers, budget))
	cfg := loadProfileText(t, f, mustRead(t, f))
	var stdout, stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	_, sent, _, _ := wl.excess(1)
	allowed := int64(budget + workers*(1<<20+64<<10))
	t.Logf("the server sent %d bytes", sent)
	if sent > allowed {
		t.Errorf("max_bytes %d: the server sent %d bytes of robots.txt heads, more than the budget and %d workers' in flight (%d)",
			budget, sent, workers, allowed)
	}
}
