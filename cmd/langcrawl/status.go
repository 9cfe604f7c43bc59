package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/term"

	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/internal/hostmatch"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
	"github.com/langcrawl/langcrawl/status"
)

// controlFile, under OUT, keeps what the operator changed while the crawl
// ran (pause, delays, seeds added), applied again at every start.
const controlFile = "control.json"

// errOperatorStop is why a crawl stopped by the stop command stopped.
var errOperatorStop = errors.New("stopped by the operator")

// controlState is the content of OUT/control.json.
type controlState struct {
	Paused      bool              `json:"paused"`
	PauseReason string            `json:"pause_reason,omitempty"`
	Delays      map[string]string `json:"delays,omitempty"`     // by host key, as politeness.Config.Hosts
	Seeds       []string          `json:"seeds,omitempty"`      // added while running, in order
	Excludes    []string          `json:"excludes,omitempty"`   // exclusion rules added while running
	Unexcluded  []string          `json:"unexcluded,omitempty"` // the profile's exclusion rules removed while running
}

// steering is the running crawl as the status page and the action
// directory see it: a status.Source and a status.Controller. Every
// applied command is logged in langcrawl.log and kept in OUT/control.json.
// Safe for concurrent use.
type steering struct {
	c       *crawl.Crawler
	gate    *politeness.Steered
	filter  *scope.Filter      // the scope rules; exclusions change while the crawl runs
	bw      *bandwidth.Manager // nil: no bandwidth limit
	log     *slog.Logger
	target  string
	started time.Time
	path    string // OUT/control.json
	// profileExcludes are the exclusion rules the filter held when the
	// steering was made, before control.json: the profile's.
	profileExcludes []string

	mu    sync.Mutex
	state controlState
	// seeds holds state.Seeds as a set, made on the first seed command,
	// so that a command of 400,000 seeds is not checked against the list
	// seed by seed, the lock held (a bandwidth and steering review measured
	// 48 s for 100,000 with a list scan).
	seeds   map[string]struct{}
	changes []status.Change
	stop    func() // stops the crawl; set by setStop
	// rules, when set (onRules), is told of an exclusion added or lifted.
	rules   func() error
	stopped bool
}

func newSteering(out string, c *crawl.Crawler, gate *politeness.Steered, filter *scope.Filter, bw *bandwidth.Manager, target string, log *slog.Logger) *steering {
	return &steering{c: c, gate: gate, filter: filter, bw: bw, log: log, target: target, started: time.Now(),
		path: filepath.Join(out, controlFile), state: controlState{Delays: map[string]string{}},
		profileExcludes: filter.Excludes()}
}

// readControlState reads the control state at path; ok is false when
// there is none. A file that does not parse is an error that says so.
func readControlState(path string) (st controlState, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("control state: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, false, fmt.Errorf("control state %s: %w (fix or remove it)", path, err)
	}
	return st, true, nil
}

// checkControlState reports an OUT/control.json that restore would refuse
// (one that does not parse, a delay, rule or seed that is bad), before a
// start changes anything. A review found a file that parsed with a bad
// value refused only after a new generation had begun.
func checkControlState(out string) error {
	path := filepath.Join(out, controlFile)
	st, ok, err := readControlState(path)
	if !ok {
		return err
	}
	var errs []error
	for h, v := range st.Delays {
		if _, err := controlDelay(v); err != nil {
			errs = append(errs, fmt.Errorf("delay %s %s: %w", h, v, err))
		} else if _, err := hostmatch.Key(h); err != nil {
			errs = append(errs, fmt.Errorf("delay %s %s: %w", h, v, err))
		}
	}
	var rules scope.Filter
	for _, r := range slices.Concat(st.Excludes, st.Unexcluded) {
		if err := rules.AddExclude(r); err != nil {
			errs = append(errs, err)
		}
	}
	for _, u := range st.Seeds {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			errs = append(errs, fmt.Errorf("seed %q is not an http or https URL", u))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("control state %s: %w (fix or remove it)", path, err)
	}
	return nil
}

// controlDelay reads a delay control.json keeps, as the delay command
// takes one: not negative, and no longer than status.MaxDelay (a review:
// checkControlState let a negative one through, refused by restore only
// after the start had begun a generation, and restore took 100 years).
func controlDelay(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return 0, err
	case d < 0:
		return 0, fmt.Errorf("negative")
	case d > status.MaxDelay:
		return 0, fmt.Errorf("longer than %v: to leave a host alone, exclude it", status.MaxDelay)
	}
	return d, nil
}

// restore applies OUT/control.json, if there is one: the crawl starts
// paused if it was paused, with the delays set, and with the seeds added
// (seeds already seen are skipped). A damaged file is an error: the
// operator's changes must not be dropped silently.
func (s *steering) restore() error {
	st, ok, err := readControlState(s.path)
	if !ok {
		return err
	}
	if st.Delays == nil {
		st.Delays = map[string]string{}
	}
	var errs []error
	delays := make(map[string]string, len(st.Delays))
	for h, v := range st.Delays {
		d, err := controlDelay(v)
		var key string
		if err == nil {
			key, err = hostmatch.Key(h) // a file of an older version kept the name as given
		}
		if err == nil {
			err = s.gate.SetHostDelay(key, d)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("control state %s: delay %s %s: %w", s.path, h, v, err))
			continue
		}
		delays[key] = v
	}
	st.Delays = delays
	for _, r := range st.Excludes {
		if err := s.filter.AddExclude(r); err != nil {
			errs = append(errs, fmt.Errorf("control state %s: %w", s.path, err))
		}
	}
	for _, r := range st.Unexcluded {
		if err := s.filter.RemoveExclude(r); err != nil && !errors.Is(err, scope.ErrNoRule) {
			errs = append(errs, fmt.Errorf("control state %s: %w", s.path, err))
		}
	}
	if len(st.Seeds) > 0 {
		if _, err := s.c.Seed(st.Seeds); err != nil {
			errs = append(errs, fmt.Errorf("control state %s: %w", s.path, err))
		}
	}
	if st.Paused {
		s.c.Pause(st.PauseReason)
	}
	s.mu.Lock()
	s.state, s.seeds = st, nil // the set is made again from st.Seeds
	s.mu.Unlock()
	s.log.Info("control state restored", "file", s.path, "paused", st.Paused, "delays", len(st.Delays), "seeds", len(st.Seeds))
	return errors.Join(errs...)
}

// restoredNote says which of the operator's changes of earlier runs are in
// force, "" when none: a delay set months ago slowed a re-crawl with no
// word on stderr (an archivist's trial). The pause is said apart.
func (s *steering) restoredNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	hosts := slices.Sorted(maps.Keys(s.state.Delays))
	for i, h := range hosts {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more delays", len(hosts)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("delay %s %s", h, s.state.Delays[h]))
	}
	if n := len(s.state.Excludes); n == 1 {
		parts = append(parts, "exclude "+s.state.Excludes[0])
	} else if n > 1 {
		parts = append(parts, fmt.Sprintf("%d exclusion rules", n))
	}
	if n := len(s.state.Seeds); n == 1 {
		parts = append(parts, "seed "+s.state.Seeds[0])
	} else if n > 1 {
		// Named too, though queued once: a steering trial found the
		// start named delays and exclusions and not them.
		parts = append(parts, fmt.Sprintf("%d seeds added", n))
	}
	if n := len(s.state.Unexcluded); n > 0 {
		parts = append(parts, fmt.Sprintf("%d of the profile's exclusion rules removed", n))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("in force from earlier runs (%s): %s; undo with 'delay HOST default' or 'unexclude RULE'",
		s.path, strings.Join(parts, ", "))
}

// onRules sets what an exclusion added or lifted from now on tells: the
// generation's profile mark (markProfile) no longer holds.
func (s *steering) onRules(f func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = f
}

// setStop sets how the stop command stops the crawl.
func (s *steering) setStop(stop func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop = stop
}

// Apply implements status.Controller.
func (s *steering) Apply(_ context.Context, from string, cmds []status.Command) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	var applied []string // lines applied, said beside a failure
	failed := false
	for _, cmd := range cmds {
		err := s.applyLocked(cmd)
		if err == nil || status.OnlyNotices(err) {
			applied = append(applied, strconv.Itoa(cmd.Line))
		} else {
			failed = true
		}
		ch := status.Change{Time: time.Now(), From: from, Command: cmd.String()}
		if status.OnlyNotices(err) {
			ch.Note = err.Error()
			errs = append(errs, fmt.Errorf("%s: %w", cmd, err))
			s.log.Info("control", "from", from, "command", cmd.String(), "note", err)
		} else if err != nil {
			ch.Err = err.Error()
			errs = append(errs, fmt.Errorf("%s: %w", cmd, err))
			s.log.Warn("control", "from", from, "command", cmd.String(), "err", err)
		} else {
			s.log.Info("control", "from", from, "command", cmd.String())
		}
		s.changes = append(s.changes, ch)
		if len(s.changes) > 100 {
			s.changes = s.changes[len(s.changes)-100:]
		}
	}
	if failed && len(applied) > 0 {
		// The answer named only the failures, and an operator read the
		// commands after them as not applied (a steering trial).
		errs = append(errs, fmt.Errorf("the other commands were applied (line %s)", strings.Join(applied, ", ")))
	}
	if err := s.saveLocked(); err != nil {
		s.log.Error("control state not saved", "file", s.path, "err", err)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func appendNew(list []string, x string) []string {
	if slices.Contains(list, x) {
		return list
	}
	return append(list, x)
}

func (s *steering) applyLocked(cmd status.Command) error {
	switch cmd.Verb {
	case status.Pause:
		reason := "paused by the operator"
		if len(cmd.Args) > 0 {
			reason = cmd.Args[0]
		}
		s.c.Pause(reason)
		s.state.Paused, s.state.PauseReason = true, reason
	case status.Resume:
		s.c.Resume()
		s.state.Paused, s.state.PauseReason = false, ""
	case status.Seed:
		n, err := s.c.Seed(cmd.Args)
		if err != nil {
			return err
		}
		s.log.Info("seeds added", "new", n)
		if s.seeds == nil {
			s.seeds = make(map[string]struct{}, len(s.state.Seeds)+len(cmd.Args))
			for _, u := range s.state.Seeds {
				s.seeds[u] = struct{}{}
			}
		}
		for _, u := range cmd.Args { // once each: a seed given again is kept once
			if _, dup := s.seeds[u]; !dup {
				s.seeds[u] = struct{}{}
				s.state.Seeds = append(s.state.Seeds, u)
			}
		}
		if n < len(cmd.Args) {
			// Said, not done quietly: a URL the crawl has queued or
			// fetched is not queued again (one an exclusion skipped is,
			// once the rule is lifted).
			return &status.Notice{Msg: fmt.Sprintf("%d of %d seeds queued; the others were queued or fetched before in this crawl and are not queued again", n, len(cmd.Args))}
		}
	case status.Delay:
		// Kept under the key the gate matches by (lower-case,
		// punycode), so that TH.example and th.example are one entry in
		// control.json, and "default" clears what was set.
		host, err := hostmatch.Key(cmd.Args[0])
		if err != nil {
			return err
		}
		if d, ok := status.ParseDelay(cmd); ok {
			if err := s.gate.SetHostDelay(host, d); err != nil {
				return err
			}
			s.state.Delays[host] = d.String()
		} else {
			if err := s.gate.ClearHostDelay(host); err != nil {
				return err
			}
			delete(s.state.Delays, host)
		}
	case status.Stop:
		if s.stop == nil {
			return errors.New("the crawl is not running")
		}
		s.stopped = true
		s.stop()
	case status.Exclude:
		r := cmd.Args[0]
		if err := s.filter.AddExclude(r); err != nil {
			return err
		}
		s.state.Excludes = appendNew(s.state.Excludes, r)
		s.state.Unexcluded = slices.DeleteFunc(s.state.Unexcluded, func(x string) bool { return x == r })
		if s.rules != nil {
			if err := s.rules(); err != nil {
				return err
			}
		}
	case status.Unexclude:
		r := cmd.Args[0]
		if err := s.filter.RemoveExclude(r); err != nil {
			return err
		}
		// Out of the operator's rules; a rule of the profile is kept as
		// removed, since the next start would put it back. One only the
		// operator added, then lifted, is not:
		// every start said "1 of the profile's exclusion rules removed"
		// of it, and would have cancelled it if the profile took it up
		// later (a steering trial).
		s.state.Excludes = slices.DeleteFunc(s.state.Excludes, func(x string) bool { return x == r })
		if slices.Contains(s.profileExcludes, r) {
			s.state.Unexcluded = appendNew(s.state.Unexcluded, r)
		}
		if s.rules != nil {
			if err := s.rules(); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown command %q", cmd.Verb)
	}
	return nil
}

// saveLocked writes the state to OUT/control.json through a temporary
// file, so that a crash leaves the old state or the new one.
func (s *steering) saveLocked() error {
	data, err := json.MarshalIndent(s.state, "", "  ")
	if err != nil {
		return err
	}
	tmp := s.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("control state: %w", err)
	}
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, s.path)
	}
	if err != nil {
		return fmt.Errorf("control state %s: %w", s.path, err)
	}
	return nil
}

// snapshot is the crawl's counters, with Focused set.
func (s *steering) snapshot() crawl.Snapshot {
	snap := s.c.Stats()
	snap.Focused = s.target != ""
	return snap
}

// Sample implements status.Source.
func (s *steering) Sample(now time.Time) status.Sample {
	snap := s.snapshot()
	sites := s.c.Sites(0)
	f := snap.Frontier
	smp := status.Sample{Time: now.UnixMilli(), Pages: snap.Pages, Bytes: snap.Bytes, HTML: snap.HTML,
		Relevant: snap.Relevant, Failed: snap.Failed, Queued: f.Queued, InFlight: f.InFlight,
		Sites: int64(snap.Sites), Queuing: f.Sites, Ready: f.Ready, Waiting: max(0, f.Sites-f.Ready-f.InFlight),
		SitesRel: int64(sites.Relevant), SitesUnd: int64(sites.Undecided), SitesIrr: int64(sites.Irrelevant),
		Retrying: snap.Deferred}
	if s.bw != nil {
		smp.BWLimit, smp.BWExpected = s.bw.Limit(), s.bw.Predicted()
	}
	return smp
}

// Details implements status.Source.
func (s *steering) Details() status.Details {
	snap := s.c.Stats()
	sites := s.c.Sites(10)
	reason, paused := s.c.Paused()
	d := status.Details{Started: s.started, Target: s.target, Paused: paused, PauseReason: reason,
		Languages: snap.Langs, TopHosts: []status.HostCount{}, Errors: []status.Failure{}}
	for _, t := range sites.Top {
		d.TopHosts = append(d.TopHosts, status.HostCount{Host: t.Site, Responses: t.Responses, Pages: t.Pages, Relevant: t.Relevant})
	}
	for _, e := range sites.Errors {
		d.Errors = append(d.Errors, status.Failure{Time: e.Time, URL: e.URL, Status: e.Status, Note: e.Note})
	}
	s.mu.Lock()
	d.Stopping = s.stopped
	d.Delays = maps.Clone(s.state.Delays)
	d.Excludes = s.filter.Excludes()
	d.Changes = append([]status.Change{}, s.changes...)
	s.mu.Unlock()
	return d
}

// newToken returns a random control token.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// loopbackListen reports whether addr (host:port) listens on a loopback
// address only: such a server answers only an IP address or localhost as
// its Host (status.Config.AnyHost); one on a network address is reached
// by the machine's names.
func loopbackListen(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return true
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// How long the status server gives a request's body, an answer and an
// idle kept-alive connection: a client that trickles a /control body
// (read before the token, which the page's form sends in it) or never
// reads its answer held a connection and its descriptor for good, which
// matters with metrics.all_interfaces (a bandwidth and steering review).
// Variables for the test.
var (
	statusReadTimeout  = 30 * time.Second
	statusWriteTimeout = time.Minute
	statusIdleTimeout  = 2 * time.Minute
)

// statusHTTPServer is the status page's server, with its timeouts.
func statusHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: statusReadTimeout, WriteTimeout: statusWriteTimeout, IdleTimeout: statusIdleTimeout}
}

// serveStatus serves the status page, /status.json, /control and /metrics
// on addr ("" for none), metrics on a registry of its own. The control
// token is printed on stderr and logged in langcrawl.log (never in the
// profile, which the WARC files keep). It returns a function that stops
// the server.
func serveStatus(addr string, s *steering, leaves crawl.Leaves, stderr io.Writer) func() {
	if addr == "" {
		return func() {}
	}
	reg := prometheus.NewRegistry()
	// The Go runtime's and the process's own metrics beside the crawl's
	// (go_goroutines, go_memstats_*, process_resident_memory_bytes,
	// process_open_fds, ...): what a weeks-long crawl is watched by for a
	// leak. A soak trial had to build its own binary to see them.
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if err := crawl.RegisterMetrics(reg, s.c, leaves); err != nil {
		fmt.Fprintf(stderr, "metrics: %v (metrics off)\n", err)
		return func() {}
	}
	token := newToken()
	srv, err := status.New(status.Config{Source: s, Control: s, Token: token, Log: s.log, AnyHost: !loopbackListen(addr),
		Metrics: promhttp.HandlerFor(reg, promhttp.HandlerOpts{})})
	if err != nil {
		fmt.Fprintf(stderr, "status page: %v (off)\n", err)
		return func() {}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "metrics.listen %s: %v (status page and metrics off)\n", addr, err)
		return func() {}
	}
	page := fmt.Sprintf("http://%s/#token=%s", ln.Addr(), token)
	fmt.Fprintf(stderr, "status page: %s\n", page)
	fmt.Fprintf(stderr, "control token: %s\n", token)
	s.log.Info("status page", "url", page, "metrics", fmt.Sprintf("http://%s/metrics", ln.Addr()))
	hs := statusHTTPServer(srv.Handler())
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); srv.Run(ctx) }()
	go func() { defer wg.Done(); hs.Serve(ln) }()
	return func() {
		cancel()
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer scancel()
		hs.Shutdown(sctx)
		wg.Wait()
	}
}

// progressEvery is how often the progress line goes to langcrawl.log when
// stderr is not a terminal, as Heritrix's progress-statistics.log.
const progressEvery = 20 * time.Second

// recentRate is the rate of pages over the last window, from the samples
// the progress line takes: a paused crawl's falls to 0, where the average
// over the run fell slowly.
type recentRate struct {
	window time.Duration
	at     []time.Time
	pages  []int64
}

// rate adds the sample (now, pages) and returns the pages per second since
// the oldest sample within the window (or the newest before it).
func (r *recentRate) rate(now time.Time, pages int64) float64 {
	r.at, r.pages = append(r.at, now), append(r.pages, pages)
	for len(r.at) > 2 && now.Sub(r.at[1]) >= r.window {
		r.at, r.pages = r.at[1:], r.pages[1:]
	}
	d := now.Sub(r.at[0]).Seconds()
	if d <= 0 {
		return 0
	}
	return float64(pages-r.pages[0]) / d
}

// rateWindow is how far back the progress line's rate looks, for a line
// drawn every every: 10 s on a terminal (a line a second), a line's
// interval in the log (20 s).
func rateWindow(every time.Duration) time.Duration { return max(every, 10*time.Second) }

// progress prints a live status line on stderr once a second when it is
// a terminal; otherwise it logs it in langcrawl.log every progressEvery.
// It returns a function that stops it.
func progress(w io.Writer, log *slog.Logger, snapshot func() crawl.Snapshot, start time.Time) func() {
	f, ok := w.(*os.File)
	tty := ok && term.IsTerminal(int(f.Fd()))
	every := progressEvery
	if tty {
		every = time.Second
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	recent := recentRate{window: rateWindow(every), at: []time.Time{start}, pages: []int64{0}}
	go func() {
		defer close(stopped)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				if tty {
					fmt.Fprint(w, "\r\033[K")
				}
				return
			case <-t.C:
				snap, now := snapshot(), time.Now()
				line := snap.ProgressLineAt(now.Sub(start), recent.rate(now, snap.Pages))
				if tty {
					fmt.Fprintf(w, "\r\033[K%s", line)
				} else {
					log.Info("progress: " + line)
				}
			}
		}
	}()
	return func() { close(done); <-stopped }
}
