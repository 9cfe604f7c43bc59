package bandwidth_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/syndtr/goleveldb/leveldb/storage"
)

var verbose = flag.Bool("bwverbose", false, "print the windows above L")

var traceDir = flag.String("bwtrace", "", "write each loopback run's bandwidth trace (CSV) and chart (SVG) to this directory")

// The loopback web: one httptest server that serves many host names, each
// paced to its own speed and latency. The pacing runs on deadlines (chunk
// i of a response is due at start + latency + (i+1)·chunk/speed), so a
// late goroutine on a loaded machine catches up instead of slowing the
// server down.
//
// What is measured is when each chunk left the server, as an uplink
// would see it:
//
//   - While the client takes the bytes as they come, a chunk is recorded
//     at its due time, the time the server scheduled it. A goroutine that
//     wakes late on a loaded machine would otherwise record several chunks
//     at once, bunching that the server did not intend and the client did
//     not cause.
//   - A client that reads slowly (langcrawl's pacer) holds the server back
//     through TCP flow control: the server's Write then blocks until the
//     client's receive buffer and the server's send buffer (sndbuf, set
//     small on every accepted connection so that it holds little) have
//     room. The bytes cannot have left before that Write returned, so once
//     a Write of a response has blocked (taken more than heldAfter), each
//     later chunk of that response is recorded at the later of its due
//     time and the return of its Write. A Write slowed by the machine
//     rather than the client switches too; its record is still a time by
//     which the bytes had left.
//
// The rate checks count the recorded bytes in 1-second windows starting
// every 10 ms.
const (
	limit  = 1_000_000 // L, bytes per second
	chunk  = 4096
	warmup = 2 * time.Second // the estimators learn the servers
	// measure is the span the rate checks cover. It is longer than the
	// manager's DefaultStarveAfter (5 s) and then a drain and a paced
	// download of the largest response, so that a host refused for
	// StarveAfter is still served in it: with 6 s, a host the manager
	// would serve only at StarveAfter could miss the span, and the
	// starvation check would report what the design allows.
	measure   = 9 * time.Second
	workers   = 64
	sndbuf    = 2048                 // SO_SNDBUF of the server's connections (Linux doubles it)
	heldAfter = 2 * time.Millisecond // a Write that took longer was held back by the client
)

// kind describes a class of hosts.
type kind struct {
	name    string
	n       int
	latency time.Duration
	size    int
	speed   func(r *rand.Rand) float64 // bytes per second, drawn per response
	burst   int                        // if not 0, bytes are due in bursts of this size
	home    int                        // if not 0, the size of /p0, the first page fetched
}

var kinds = []kind{
	{"slow", 16, 100 * time.Millisecond, 16 << 10, func(*rand.Rand) float64 { return 25_000 }, 0, 0},
	{"medium", 8, 30 * time.Millisecond, 32 << 10, func(*rand.Rand) float64 { return 100_000 }, 0, 0},
	{"fast", 4, 10 * time.Millisecond, 64 << 10, func(*rand.Rand) float64 { return 300_000 }, 0, 0},
	// Bursty: 150 kB/s on average, sent in bursts of 32 kB at once.
	{"bursty", 4, 20 * time.Millisecond, 96 << 10, func(*rand.Rand) float64 { return 150_000 }, 32 << 10, 0},
	// Faster than L on its own.
	{"hyper", 1, 5 * time.Millisecond, 128 << 10, func(*rand.Rand) float64 { return 2_500_000 }, 0, 0},
}

// timeline records the bytes a run's hosts sent, at their due times.
type timeline struct {
	kinds []kind // the run's hosts
	mu    sync.Mutex
	at    []time.Time
	bytes []int
	hits  map[string]int // responses finished per kind, after the warm-up
	from  time.Time
	// The longest a host of each kind waited between the end of one
	// response and the start of the next (the server's view), for the
	// starts after the warm-up; ended and started are each host's last.
	wait           map[string]time.Duration
	ended, started map[string]time.Time
}

func (tl *timeline) add(t time.Time, n int) {
	tl.mu.Lock()
	tl.at = append(tl.at, t)
	tl.bytes = append(tl.bytes, n)
	tl.mu.Unlock()
}

// web is the loopback server; a run's hosts are "<run>-<kind><i>.test".
type web struct {
	srv  *httptest.Server
	mu   sync.Mutex
	runs map[string]*timeline
	rnd  *rand.Rand
}

func newWeb(t *testing.T) *web {
	w := &web{runs: map[string]*timeline{}, rnd: rand.New(rand.NewPCG(1, 2))}
	w.srv = httptest.NewUnstartedServer(http.HandlerFunc(w.serve))
	w.srv.Listener = smallSendBuffer{w.srv.Listener}
	w.srv.Start()
	t.Cleanup(w.srv.Close)
	return w
}

// smallSendBuffer gives every accepted connection a send buffer of sndbuf
// bytes, so that a Write returns about when its bytes have left for the
// client.
type smallSendBuffer struct{ net.Listener }

func (l smallSendBuffer) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(sndbuf)
	}
	return c, err
}

func (w *web) serve(rw http.ResponseWriter, r *http.Request) {
	host, _, _ := strings.Cut(r.Host, ":")
	run, rest, _ := strings.Cut(strings.TrimSuffix(host, ".test"), "-")
	w.mu.Lock()
	tl := w.runs[run]
	var k *kind
	if tl != nil {
		for i := range tl.kinds {
			if strings.HasPrefix(rest, tl.kinds[i].name) {
				k = &tl.kinds[i]
			}
		}
	}
	var speed float64
	if k != nil {
		speed = k.speed(w.rnd)
	}
	w.mu.Unlock()
	if k == nil {
		http.NotFound(rw, r)
		return
	}
	start := time.Now()
	tl.mu.Lock()
	if e, ok := tl.ended[host]; ok && !start.Before(tl.from) {
		tl.wait[k.name] = max(tl.wait[k.name], start.Sub(e))
	}
	tl.started[host] = start
	tl.mu.Unlock()
	size := k.size
	if k.home > 0 && r.URL.Path == "/p0" {
		size = k.home
	}
	rw.Header().Set("Content-Length", strconv.Itoa(size))
	rw.Header().Set("Content-Type", "application/octet-stream")
	buf := make([]byte, chunk)
	fl := rw.(http.Flusher)
	held := false // a Write of this response was held back by the client
	for sent := 0; sent < size; {
		n := min(chunk, size-sent)
		pos := sent + n
		if k.burst > 0 {
			pos = min((pos+k.burst-1)/k.burst*k.burst, size)
		}
		due := start.Add(k.latency + time.Duration(float64(pos)/speed*float64(time.Second)))
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Until(due)):
		}
		w0 := time.Now()
		if _, err := rw.Write(buf[:n]); err != nil {
			return
		}
		fl.Flush()
		w1 := time.Now()
		if w1.Sub(w0) > heldAfter {
			held = true
		}
		at := due
		if held && w1.After(due) {
			at = w1 // the bytes left when the client let them
		}
		tl.add(at, n)
		sent += n
	}
	tl.mu.Lock()
	if !start.Before(tl.from) {
		tl.hits[k.name]++
	}
	tl.ended[host] = time.Now()
	tl.mu.Unlock()
}

// client is the crawler's own client, as the engine builds it: every host
// name goes to the one server (ConnectTo), and with a manager that paces,
// its Pacer and ReadBuffer.
func (w *web) client(t *testing.T, m *bandwidth.Manager) *fetch.Client {
	cfg := fetch.Config{ConnectTo: map[string]string{"*": w.srv.Listener.Addr().String()}}
	if m != nil && m.Pacer() != nil {
		cfg.Pacer, cfg.ReadBuffer = m.Pacer(), m.ReadBuffer()
	}
	cl, err := fetch.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// controller decides which lease to fetch next.
type controller interface {
	// next returns a lease and its ticket (which may be nil), or a wait
	// and a channel that may end it early.
	next(now time.Time) (*frontier.Lease, *bandwidth.Ticket, time.Duration, <-chan struct{}, error)
	// done ends a fetch of n bytes that took el.
	done(tk *bandwidth.Ticket, now time.Time, n int64, el time.Duration) error
}

// managed is the paper's fetcher manager, through frontier.NextFit.
type managed struct {
	q *frontier.Queue
	m *bandwidth.Manager
}

func (c *managed) next(now time.Time) (*frontier.Lease, *bandwidth.Ticket, time.Duration, <-chan struct{}, error) {
	ch := c.m.Changed()
	pick := c.m.Pick(now)
	l, wait, err := c.q.NextFit(now, c.m.SearchDepth(), pick.Fits)
	site := ""
	if l != nil {
		site = l.Entry.Site
	}
	tk, perr := pick.Take(site)
	return l, tk, wait, ch, errors.Join(err, perr)
}

func (c *managed) done(tk *bandwidth.Ticket, now time.Time, n int64, el time.Duration) error {
	return tk.Done(now, n, el)
}

// startStop is the control the paper compares against (its reference
// [6], figure 3): once a second, a fetcher is stopped if the bandwidth
// measured over the last second is above L and one more is started if it
// is below.
type startStop struct {
	q        *frontier.Queue
	mu       sync.Mutex
	target   int
	inflight int
	bytes    atomic.Int64 // read by the fetchers since the last tick
	tick     time.Time
	changed  chan struct{}
}

func (c *startStop) next(now time.Time) (*frontier.Lease, *bandwidth.Ticket, time.Duration, <-chan struct{}, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tick.IsZero() {
		c.tick, c.target = now, 1
	}
	if d := now.Sub(c.tick); d >= time.Second {
		rate := float64(c.bytes.Swap(0)) / d.Seconds()
		if rate > limit {
			c.target = max(c.target-1, 1)
		} else {
			c.target++
		}
		c.tick = now
	}
	ch := c.changed
	if c.inflight >= c.target {
		return nil, nil, c.tick.Add(time.Second).Sub(now), ch, nil
	}
	l, wait, err := c.q.Next(now)
	if l != nil {
		c.inflight++
	}
	return l, nil, wait, ch, err
}

func (c *startStop) done(_ *bandwidth.Ticket, _ time.Time, n int64, _ time.Duration) error {
	c.bytes.Add(n)
	c.mu.Lock()
	c.inflight--
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	return nil
}

// result is what one run achieved in the measured span.
type result struct {
	name        string
	avg         float64 // bytes per second
	above       int     // 1-second windows above L
	windows     int
	worst       float64 // the fullest window, bytes per second
	warmAbove   int     // windows above L that overlap the warm-up
	warmWindows int
	hits        map[string]int
	wait        map[string]time.Duration // the longest wait of a host of each kind
}

func (r result) String() string {
	return fmt.Sprintf("%-10s average %7.0f B/s (%5.1f%% of L), %3d of %d one-second windows above L (%.1f%%), fullest %7.0f B/s; during the warm-up %d of %d windows above L; downloads after the warm-up %v; a host's longest wait %v",
		r.name, r.avg, 100*r.avg/limit, r.above, r.windows, 100*float64(r.above)/float64(r.windows), r.worst, r.warmAbove, r.warmWindows, r.hits, r.wait)
}

// windows counts the bytes of tl in 1-second windows starting every
// 10 ms from from to to-1s, and returns how many were above L, how many
// there were, and the fullest.
func windows(tl *timeline, from, to time.Time) (above, n int, worst float64) {
	type ev struct {
		t time.Time
		n int
	}
	evs := make([]ev, len(tl.at))
	for i := range tl.at {
		evs[i] = ev{tl.at[i], tl.bytes[i]}
	}
	slices.SortFunc(evs, func(a, b ev) int { return a.t.Compare(b.t) })
	lo, hi, sum := 0, 0, 0
	for s := from; !s.Add(time.Second).After(to); s = s.Add(10 * time.Millisecond) {
		e := s.Add(time.Second)
		for hi < len(evs) && evs[hi].t.Before(e) {
			sum += evs[hi].n
			hi++
		}
		for lo < hi && evs[lo].t.Before(s) {
			sum -= evs[lo].n
			lo++
		}
		n++
		worst = max(worst, float64(sum))
		if sum > limit {
			above++
			if *verbose {
				fmt.Printf("above: %v %d\n", s.Sub(from).Round(10*time.Millisecond), sum)
			}
		}
	}
	return above, n, worst
}

// runAll runs the controls opens, named names, side by side on their own
// hosts of w, of the kinds ks.
func runAll(t *testing.T, w *web, names []string, ks []kind, opens []func(q *frontier.Queue) (controller, *bandwidth.Manager)) []result {
	res := make([]result, len(names))
	var wg sync.WaitGroup
	for i := range names {
		wg.Go(func() { res[i] = run(t, w, names[i], ks, opens[i]) })
	}
	wg.Wait()
	return res
}

// run crawls the run's hosts, of the kinds ks, with c until warmup+measure
// has passed.
func run(t *testing.T, w *web, name string, ks []kind, open func(q *frontier.Queue) (controller, *bandwidth.Manager)) result {
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Error(err)
		return result{}
	}
	defer q.Close()
	var es []frontier.Entry
	for _, k := range ks {
		for i := range k.n {
			site := fmt.Sprintf("%s-%s%d.test", name, k.name, i)
			for p := range 300 {
				es = append(es, frontier.Entry{URL: fmt.Sprintf("http://%s/p%d", site, p), Site: site})
			}
		}
	}
	if _, err := q.PushMany(es); err != nil {
		t.Error(err)
		return result{}
	}
	c, mgr := open(q)

	start := time.Now()
	tl := &timeline{kinds: ks, hits: map[string]int{}, from: start.Add(warmup),
		wait: map[string]time.Duration{}, ended: map[string]time.Time{}, started: map[string]time.Time{}}
	w.mu.Lock()
	w.runs[name] = tl
	w.mu.Unlock()
	end := start.Add(warmup + measure)
	ctx, cancel := context.WithDeadline(context.Background(), end)
	defer cancel()

	var traceBuf strings.Builder
	tr := bandwidth.NewTrace(&traceBuf)
	var wg sync.WaitGroup
	if mgr != nil {
		wg.Go(func() {
			tk := time.NewTicker(time.Second)
			defer tk.Stop()
			mgr.Sample(time.Now())
			for {
				select {
				case <-ctx.Done():
					return
				case now := <-tk.C:
					tr.Write(mgr.Sample(now))
				}
			}
		})
	}
	cl := w.client(t, mgr)
	defer cl.Close()
	errc := make(chan error, workers)
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				l, tk, wait, ch, err := c.next(time.Now())
				if err != nil {
					errc <- err
					return
				}
				if l == nil {
					select {
					case <-ctx.Done():
					case <-ch:
					case <-time.After(wait):
					}
					continue
				}
				// As the engine does (crawl/loop.go): the client reads
				// the response itself, and the ticket ends with the
				// response's size and duration.
				var n int64
				var el time.Duration
				res, err := cl.Do(ctx, http.MethodGet, l.Entry.URL, nil)
				if err == nil && res.Err == nil {
					n, el = res.Size(), res.Duration
				} // else cut off at the end of the run: not a measurement
				res.Close()
				if err := c.done(tk, time.Now(), n, el); err != nil {
					errc <- err
					return
				}
				if err := q.Complete(l, frontier.Completion{}); err != nil {
					errc <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Errorf("%s: %v", name, err)
	}

	tl.mu.Lock()
	defer tl.mu.Unlock()
	r := result{name: name, hits: tl.hits, wait: map[string]time.Duration{}}
	for _, k := range ks {
		for i := range k.n {
			// A host still waiting at the end has waited at least
			// since its last response ended.
			host := fmt.Sprintf("%s-%s%d.test", name, k.name, i)
			if e, ok := tl.ended[host]; ok && !tl.started[host].After(e) {
				tl.wait[k.name] = max(tl.wait[k.name], end.Sub(e))
			}
		}
	}
	for k, d := range tl.wait {
		r.wait[k] = d.Round(10 * time.Millisecond)
	}
	from := start.Add(warmup)
	for i, at := range tl.at {
		if !at.Before(from) && at.Before(end) {
			r.avg += float64(tl.bytes[i])
		}
	}
	r.avg /= measure.Seconds()
	r.above, r.windows, r.worst = windows(tl, from, end)
	r.warmAbove, r.warmWindows, _ = windows(tl, start, from.Add(time.Second))
	if mgr != nil {
		t.Logf("%s: manager stats %+v", name, mgr.Stats())
	}
	if *traceDir != "" && mgr != nil {
		writeTrace(t, name, traceBuf.String())
	}
	return r
}

func writeTrace(t *testing.T, name, csv string) {
	if err := os.WriteFile(filepath.Join(*traceDir, name+".csv"), []byte(csv), 0o644); err != nil {
		t.Error(err)
		return
	}
	samples, err := bandwidth.ReadTrace(strings.NewReader(csv))
	if err != nil {
		t.Error(err)
		return
	}
	f, err := os.Create(filepath.Join(*traceDir, name+".svg"))
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if err := bandwidth.Plot(f, name+": predicted and measured bandwidth, L = 1 MB/s", samples); err != nil {
		t.Error(err)
	}
}

// TestLoopback runs three controls at once, each on its own hosts of one
// loopback web, each with the crawler's own client (package fetch) used
// as the engine uses it: langcrawl's manager, whose Pacer and ReadBuffer
// the client takes; the paper's manager exactly (Config.Paper), with no
// pacer; and the start/stop control the paper compares with. It checks
// langcrawl's against the goals: an average of at least 90% of L
// after the warm-up, fewer than 1% of the one-second windows above L, and
// no class of host starved, the one faster than L included. The others are
// reported.
func TestLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for", warmup+measure)
	}
	w := newWeb(t)
	mk := func(paper bool) func(q *frontier.Queue) (controller, *bandwidth.Manager) {
		return func(q *frontier.Queue) (controller, *bandwidth.Manager) {
			m, err := bandwidth.New(bandwidth.Config{Limit: limit, Paper: paper, DefaultRate: 50_000})
			if err != nil {
				t.Fatal(err)
			}
			return &managed{q: q, m: m}, m
		}
	}
	names := []string{"langcrawl", "paper", "startstop"}
	opens := []func(q *frontier.Queue) (controller, *bandwidth.Manager){
		mk(false), mk(true),
		func(q *frontier.Queue) (controller, *bandwidth.Manager) {
			return &startStop{q: q, changed: make(chan struct{})}, nil
		},
	}
	w.mu.Lock()
	for _, n := range names {
		w.runs[n] = nil
	}
	w.mu.Unlock()
	res := runAll(t, w, names, kinds, opens)
	for _, r := range res {
		t.Log(r)
	}
	t.Logf("the paper's figure: 71,788 B/s average of a 140 KB/s limit (51%%) with maxd = 6")

	// The goals: at least 90% of L on average after the warm-up,
	// and fewer than 1% of the one-second windows above L. The paper's
	// manager and start/stop are reported, not checked.
	//
	// The average is the one figure a loaded machine can pull down by
	// itself: paced servers that wake late send less than their rate, and
	// a crawl beside other work once measured 85% of L (CI on 2 cores at a
	// load of 4.4, with 2-second ticks the servers kept). So a run short of
	// it is run again, alone, up to twice more with fresh hosts; a manager
	// that leaves the line idle falls short every time and fails. The other
	// checks are on the first run.
	r := res[0]
	avg := r.avg
	for i := 2; avg < 0.90*limit && i <= 3; i++ {
		name := fmt.Sprintf("langcrawl%d", i)
		t.Logf("langcrawl: average %.0f B/s is below 90%% of L = %d; run %d of 3, alone", avg, limit, i)
		w.mu.Lock()
		w.runs[name] = nil
		w.mu.Unlock()
		again := runAll(t, w, []string{name}, kinds, opens[:1])[0]
		t.Log(again)
		avg = again.avg
	}
	if avg < 0.90*limit {
		t.Errorf("langcrawl: average %.0f B/s is below 90%% of L = %d in each of 3 runs", avg, limit)
	}
	if 100*r.above >= r.windows {
		t.Errorf("langcrawl: %d of %d one-second windows above L, not fewer than 1%%", r.above, r.windows)
	}
	for _, k := range kinds {
		if r.hits[k.name] == 0 {
			t.Errorf("langcrawl: no %s host served after the warm-up (starved)", k.name)
		}
	}
}

var fillRun = flag.Bool("bwfill", false, "run TestLoopbackFill, a measurement")

// fastAndSlow is a web of slow servers that are never idle and servers
// faster than L (a failure trial's case: a 40 KB/s server's files beside a
// fast server's under 200 KB/s). Measured on their small home pages, the
// fast ones are known as faster than L, or, after a download that the pacer
// held back little, as a little slower: either way larger than what the
// slow ones leave free.
var fastAndSlow = []kind{
	{"slow", 3, 100 * time.Millisecond, 200 << 10, func(*rand.Rand) float64 { return 100_000 }, 0, 0},
	// Its home page, fetched first, is small: measured at 5 MB/s on it, it is
	// then known as faster than L, as a CDN serving small pages would be.
	{"hyper", 2, time.Millisecond, 256 << 10, func(*rand.Rand) float64 { return 5_000_000 }, 0, 16 << 10},
}

// TestLoopbackFill measures, on the fastAndSlow web, langcrawl's manager
// against the same with Config.FillAt off, in the same run: with it off a
// server whose estimate is larger than what the slow ones leave free waits
// until it fits (one faster than L, until the link is idle), which slow
// servers with work queued rarely allow, so it waits StarveAfter and then
// for the link to drain. A measurement for BENCHMARKS.md, run with -bwfill;
// it fails only if a run puts windows above L or starves a kind of host.
func TestLoopbackFill(t *testing.T) {
	if !*fillRun {
		t.Skip("a measurement: go test ./bandwidth -run TestLoopbackFill -v -args -bwfill")
	}
	w := newWeb(t)
	mk := func(share float64) func(q *frontier.Queue) (controller, *bandwidth.Manager) {
		return func(q *frontier.Queue) (controller, *bandwidth.Manager) {
			m, err := bandwidth.New(bandwidth.Config{Limit: limit, DefaultRate: 50_000, FillAt: share})
			if err != nil {
				t.Fatal(err)
			}
			return &managed{q: q, m: m}, m
		}
	}
	names := []string{"fill", "paperwait"}
	opens := []func(q *frontier.Queue) (controller, *bandwidth.Manager){mk(0), mk(-1)}
	res := runAll(t, w, names, fastAndSlow, opens)
	for _, r := range res {
		t.Log(r)
		if 100*r.above >= r.windows {
			t.Errorf("%s: %d of %d one-second windows above L", r.name, r.above, r.windows)
		}
		for _, k := range fastAndSlow {
			if r.hits[k.name] == 0 {
				t.Errorf("%s: no %s host served after the warm-up (starved)", r.name, k.name)
			}
		}
	}
}
