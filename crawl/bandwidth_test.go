package crawl

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/syndtr/goleveldb/leveldb/storage"
)

// With a bandwidth limit the engine leases through the fetcher manager:
// every URL is still fetched, each fetch is admitted and measured, and
// nothing stays reserved when the crawl ends.
func TestBandwidthManagerDrivesLeases(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "http://b.test/", "http://c.test/", "/1", "/2")}
	for _, u := range []string{"http://b.test/", "http://c.test/", "http://a.test/1", "http://a.test/2"} {
		web[u] = page("th")
	}
	mgr, err := bandwidth.New(bandwidth.Config{Limit: 1e6, Store: bandwidth.NewMemStore()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{Workers: 4, Bandwidth: mgr}, nil, "http://a.test/")
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	for u := range web {
		if !r.archived(u) {
			t.Errorf("%s not archived under a bandwidth limit", u)
		}
	}
	st := mgr.Stats()
	if st.Admitted < int64(len(web)) || st.InFlight != 0 {
		t.Errorf("manager stats %+v: want every fetch admitted and none left in flight", st)
	}
	if got := fmt.Sprint(mgr.Predicted()); got != "0" {
		t.Errorf("CB after the crawl = %s, want 0", got)
	}
	// /metrics carries the manager's figures (langcrawl_bandwidth_*).
	got := scrape(t, c, Leaves{Bandwidth: mgr.Stats})
	for name, want := range map[string]float64{
		"langcrawl_bandwidth_admitted_total": float64(st.Admitted),
		"langcrawl_bandwidth_measured_total": float64(st.Measured),
		"langcrawl_bandwidth_inflight":       0,
		"langcrawl_bandwidth_filled_total":   float64(st.Filled),
		"langcrawl_bandwidth_idle_total":     float64(st.Idle),
	} {
		if v, ok := got[name]; !ok || v != want {
			t.Errorf("%s = %v (scraped: %v), want %v", name, v, ok, want)
		}
	}
}

// scrape registers c's metrics and l's as /metrics does
// (RegisterMetrics), gathers them once, and returns each counter's and
// gauge's value by name, its labels' values after it: name, or
// name{value,...}.
func scrape(t *testing.T, c *Crawler, l Leaves) map[string]float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	if err := RegisterMetrics(reg, c, l); err != nil {
		t.Fatal(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			key := mf.GetName()
			var labels []string
			for _, lp := range m.GetLabel() {
				labels = append(labels, lp.GetValue())
			}
			if len(labels) > 0 {
				key += "{" + strings.Join(labels, ",") + "}"
			}
			switch {
			case m.GetCounter() != nil:
				got[key] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				got[key] = m.GetGauge().GetValue()
			}
		}
	}
	return got
}

// The crawl path with a bandwidth limit, end to end: the engine, the real
// client with the manager's Pacer and ReadBuffer (as cmd/langcrawl must
// wire them), the real archive, on a loopback web of four hosts that send
// as fast as they are let. The crawl finishes, every page is archived
// whole, and the bytes the server sent stay under L in fewer than 1% of
// the one-second windows (the goal; counted as in
// bandwidth.TestLoopback: when each Write returned, with a small send
// buffer, since the client holds the server back).
func TestBandwidthLimitOnTheWire(t *testing.T) {
	if testing.Short() {
		t.Skip("a crawl of about 2.5 s")
	}
	const limit = 300_000 // L, bytes per second
	hosts := []string{"a.test", "b.test", "c.test", "d.test"}
	bodies := map[string]string{}
	for _, h := range hosts {
		var links []string
		for i := 1; i < 10; i++ {
			links = append(links, fmt.Sprintf("/p%d", i))
		}
		for i := range 10 {
			var b strings.Builder
			b.WriteString(`<html lang="th"><body>`)
			if i == 0 {
				for _, l := range links {
					fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
				}
			}
			b.WriteString("<!--")
			b.WriteString(strings.Repeat("ก", 16<<10/3))
			b.WriteString("--></body></html>")
			u := "http://" + h + "/"
			if i > 0 {
				u += fmt.Sprintf("p%d", i)
			}
			bodies[u] = b.String()
		}
	}
	var mu sync.Mutex
	var at []time.Time
	var sent []int
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := bodies["http://"+r.Host+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		for len(body) > 0 {
			n := min(4096, len(body))
			if _, err := io.WriteString(w, body[:n]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			mu.Lock()
			at, sent = append(at, time.Now()), append(sent, n)
			mu.Unlock()
			body = body[n:]
		}
	}))
	srv.Listener = smallSendBuffer{srv.Listener}
	srv.Start()
	defer srv.Close()

	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	mgr, err := bandwidth.New(bandwidth.Config{Limit: limit, Store: q.Bandwidth()})
	if err != nil {
		t.Fatal(err)
	}
	client, err := fetch.New(fetch.Config{ConnectTo: map[string]string{"*": srv.Listener.Addr().String()},
		Pacer: mgr.Pacer(), ReadBuffer: mgr.ReadBuffer()})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	dir := t.TempDir()
	arc, err := archive.NewWriter(archive.Config{Dir: dir, Hostname: "h", RawPayloadDigest: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{Workers: 8, Bandwidth: mgr, Retries: fastRetries},
		Parts{Queue: q, Archive: arc, Fetcher: client, Gate: fakeGate{}, Detector: fakeDetector{}, CrawlLog: NewCrawlLog(&logLines{})})
	if err != nil {
		t.Fatal(err)
	}
	var seeds []string
	for _, h := range hosts {
		seeds = append(seeds, "http://"+h+"/")
	}
	if _, err := c.Seed(seeds); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	reason, err := c.Run(context.Background())
	took := time.Since(start)
	if err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	if err := arc.Close(); err != nil {
		t.Fatal(err)
	}

	// Every page archived, its payload as served.
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc*"))
	got := map[string]string{}
	for _, f := range files {
		recs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Type == "response" {
				_, body, _ := strings.Cut(string(r.Block), "\r\n\r\n")
				got[r.TargetURI] = body
			}
		}
	}
	for u, body := range bodies {
		if got[u] != body {
			t.Errorf("%s: archived %d bytes of payload, served %d", u, len(got[u]), len(body))
		}
	}

	// The bytes on the wire, in 1-second windows every 10 ms.
	mu.Lock()
	defer mu.Unlock()
	total, above, windows, fullest := 0, 0, 0, 0
	for _, n := range sent {
		total += n
	}
	first, last := at[0], at[len(at)-1]
	for s := first; !s.Add(time.Second).After(last); s = s.Add(10 * time.Millisecond) {
		sum := 0
		for i, a := range at {
			if !a.Before(s) && a.Before(s.Add(time.Second)) {
				sum += sent[i]
			}
		}
		windows++
		fullest = max(fullest, sum)
		if sum > limit {
			above++
		}
	}
	t.Logf("%d bytes in %v (%.0f%% of L = %d B/s); %d of %d one-second windows above L, the fullest %d bytes; manager %+v",
		total, took.Round(time.Millisecond), 100*float64(total)/took.Seconds()/limit, limit, above, windows, fullest, mgr.Stats())
	if windows == 0 || 100*above >= windows {
		t.Errorf("%d of %d one-second windows above L = %d B/s, not fewer than 1%%", above, windows, limit)
	}
}

// smallSendBuffer gives every accepted connection a small send buffer, so
// that a Write returns about when its bytes have left for the client.
type smallSendBuffer struct{ net.Listener }

func (l smallSendBuffer) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(2048)
	}
	return c, err
}
