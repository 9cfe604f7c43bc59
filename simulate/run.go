package simulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/syndtr/goleveldb/leveldb/storage"
	"golang.org/x/sync/errgroup"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
)

// Perfect is the oracle strategy of Tamura 5.1, available in the simulator
// only. See the package documentation for its precise definition.
const Perfect = "perfect"

// ErrOptions is wrapped by every error about bad Options.
var ErrOptions = errors.New("simulate: invalid options")

// Variant is one simulated crawl: a strategy and its tuning.
type Variant struct {
	// Name labels the variant in CSV files, plots and tables. Default:
	// the strategy, plus " T=n" for server-based strategies and "+defer" /
	// "+decay" for the improvements.
	Name string
	// Strategy is a focus strategy name or Perfect.
	Strategy string
	// Tolerance is T for server-based strategies (default 10).
	Tolerance int
	// Defer and Decay are the focus.Config improvements.
	Defer bool
	Decay focus.Decay
}

func (v Variant) label() string {
	if v.Name != "" {
		return v.Name
	}
	s := v.Strategy
	if st := focus.Strategy(v.Strategy); st.ServerBased() {
		t := v.Tolerance
		if t == 0 {
			t = focus.DefaultTolerance
		}
		s += fmt.Sprintf(" T=%d", t)
		if v.Defer {
			s += " +defer"
		}
		if v.Decay.Every > 0 {
			s += fmt.Sprintf(" +decay/%d", v.Decay.Every)
		}
	}
	return s
}

// Options tune Run. The zero value runs every strategy of the paper plus
// perfect at T = 10, on in-memory LevelDB storage.
type Options struct {
	// Strategies to run: focus strategy names and "perfect". Default: all
	// six of focus.Strategies() plus perfect.
	Strategies []string
	// Tolerances lists the values of T; every server-based strategy runs
	// once per value. Default [10].
	Tolerances []int
	// Improvements adds the variants that measure the improvements on the
	// paper: conservative-server and conservative-directory with Defer, and
	// conservative-server with a decaying tolerance (DecayEvery). Default
	// false.
	Improvements bool
	// DecayEvery is the focus.Decay.Every of the decay variant: the
	// tolerance drops by one each DecayEvery pages crawled, down to
	// DecayMin. Default: a tenth of the graph's pages divided by T (22,972
	// on the default web, where conservative-server crawls about 265,000
	// pages), so that T would reach 0 after a tenth of the web is crawled.
	DecayEvery int64
	// DecayMin is the floor of the decaying tolerance. Default 5: Tamura
	// 5.2 finds that T "must be greater than 5" for few misses, and on the
	// default web a floor of 2 lost 0.74 points of coverage where a floor of
	// 5 lost none (RESULTS.md).
	DecayMin int
	// Variants, when set, replaces Strategies, Tolerances and Improvements.
	Variants []Variant
	// SampleEvery is the number of pages crawled between two samples of the
	// curves. Default: the graph's page count / 500, at least 100.
	SampleEvery int64
	// MaxPages stops each run after this many pages. Default 0: run until the
	// frontier is empty.
	MaxPages int64
	// Parallel is how many runs go at once. Default runtime.GOMAXPROCS(0).
	Parallel int
	// DiskDir, when set, puts each run's frontier in a LevelDB directory
	// under it instead of in memory (storage.NewMemStorage). The directories
	// are removed at the end.
	DiskDir string
	// WriteBufferMB is the frontier's LevelDB memtable size
	// (frontier.Options.WriteBufferMB). Default: the frontier's default.
	WriteBufferMB int
	// Done, when non-nil, is called with each run's result as soon as it
	// finishes (one call at a time), e.g. to save partial results.
	Done func(*RunResult)
	// Progress, when non-nil, receives a progress line per run every
	// ProgressEvery pages and at its end.
	Progress io.Writer
	// ProgressEvery defaults to 250,000 pages.
	ProgressEvery int64

	// checkMirror makes each run compare its in-memory mirrors of the seen
	// set and the counters with the frontier at the end (tests only).
	checkMirror bool
}

func (o *Options) variants(numPages int) ([]Variant, error) {
	if len(o.Variants) > 0 {
		for _, v := range o.Variants {
			if err := checkStrategy(v.Strategy); err != nil {
				return nil, err
			}
		}
		return o.Variants, nil
	}
	strats := o.Strategies
	if len(strats) == 0 {
		for _, s := range focus.Strategies() {
			strats = append(strats, string(s))
		}
		strats = append(strats, Perfect)
	}
	tols := o.Tolerances
	if len(tols) == 0 {
		tols = []int{focus.DefaultTolerance}
	}
	var vs []Variant
	for _, s := range strats {
		if err := checkStrategy(s); err != nil {
			return nil, err
		}
		if !focus.Strategy(s).ServerBased() {
			vs = append(vs, Variant{Strategy: s})
			continue
		}
		for _, t := range tols {
			vs = append(vs, Variant{Strategy: s, Tolerance: t})
		}
	}
	if o.Improvements {
		for _, t := range tols {
			every := o.DecayEvery
			if every <= 0 {
				every = max(int64(numPages)/10/int64(max(t, 1)), 1)
			}
			dmin := o.DecayMin
			if dmin <= 0 {
				dmin = 5
			}
			dmin = min(dmin, t)
			vs = append(vs,
				Variant{Strategy: string(focus.ConservativeServer), Tolerance: t, Defer: true},
				Variant{Strategy: string(focus.ConservativeDirectory), Tolerance: t, Defer: true},
				Variant{Strategy: string(focus.ConservativeServer), Tolerance: t,
					Decay: focus.Decay{Every: every, Min: dmin}},
			)
		}
	}
	return vs, nil
}

func checkStrategy(s string) error {
	if s == Perfect {
		return nil
	}
	if _, err := focus.ParseStrategy(s); err != nil || s == "" {
		return fmt.Errorf("%w: strategy %q (want perfect or a focus strategy): %v", ErrOptions, s, err)
	}
	return nil
}

// Sample is one point of the curves of Tamura Figs. 5-8.
type Sample struct {
	Pages    int64   // pages crawled (downloaded and found in the graph)
	Targets  int64   // target pages among them
	Coverage float64 // Targets / reachable target pages (Fig. 5)
	Harvest  float64 // Targets / Pages (Fig. 6)
	Queue    int64   // frontier entries waiting (Fig. 7)
	Deferred int64   // links held back by the Defer improvement
	Servers  int64   // distinct servers accessed (Fig. 8)
}

// MissPoint is one point of Fig. 4: of the target pages within Distance of
// the seeds, how many the crawl missed.
type MissPoint struct {
	Distance int
	Targets  int64
	Missed   int64
	Ratio    float64
}

// RunResult is the outcome of one variant.
type RunResult struct {
	Variant Variant
	Name    string
	// Final figures.
	Pages, Targets int64 // pages crawled, target pages among them
	Coverage       float64
	Harvest        float64
	PeakQueue      int64
	FinalQueue     int64
	Servers        int64 // servers accessed
	TargetServers  int64 // target servers among them
	Skipped        int64 // leased URLs skipped because their server turned irrelevant
	Dead           int64 // fetches that answered 404
	Redirects      int64 // fetches that answered a redirect
	Dropped        int64 // queued URLs removed by DropSite
	Deferred       int64 // links deferred, in total
	Reprocessed    int64 // deferred links enqueued after their source turned relevant
	Curve          []Sample
	Miss           []MissPoint
	Elapsed        time.Duration

	crawled []bool // per page, for tests
}

// GraphStats describes the simulated web.
type GraphStats struct {
	Pages, Servers, Links            int64
	TargetPages, TargetServers       int64
	ReachablePages, ReachableTargets int64
	Seeds                            int
}

// Results is what Run returns: the graph's figures and one RunResult per
// variant, in the order of the variants.
type Results struct {
	Graph GraphStats
	Runs  []RunResult
	// Storage is "memory" or the DiskDir used.
	Storage string
}

// Run simulates every variant of opts over the graph w and returns the
// measures of Tamura section 5. Runs go in parallel (Options.Parallel), each
// with its own frontier; w is shared read-only.
func run(ctx context.Context, w *web, opts Options) (*Results, error) {
	vs, err := opts.variants(w.numPages)
	if err != nil {
		return nil, err
	}
	if opts.SampleEvery <= 0 {
		opts.SampleEvery = max(int64(w.numPages)/500, 100)
	}
	if opts.Parallel <= 0 {
		opts.Parallel = runtime.GOMAXPROCS(0)
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = 250_000
	}
	res := &Results{
		Graph: GraphStats{
			Pages: int64(w.numPages), Servers: int64(len(w.host)), Links: w.numLinks,
			TargetPages: w.targetPages, TargetServers: w.targetServers,
			ReachablePages: w.reachablePages, ReachableTargets: w.reachableTargets,
			Seeds: len(w.seeds),
		},
		Runs:    make([]RunResult, len(vs)),
		Storage: "memory",
	}
	if opts.DiskDir != "" {
		res.Storage = opts.DiskDir
	}
	var progressMu sync.Mutex
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Parallel)
	for i, v := range vs {
		g.Go(func() error {
			r, err := runOne(ctx, w, v, opts, i, &progressMu)
			if err != nil {
				return fmt.Errorf("simulate %s: %w", v.label(), err)
			}
			res.Runs[i] = *r
			if opts.Done != nil {
				progressMu.Lock()
				opts.Done(r)
				progressMu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return res, nil
}

var t0 = time.Date(2007, 1, 1, 0, 0, 0, 0, time.UTC)

func runOne(ctx context.Context, w *web, v Variant, opts Options, idx int, progressMu *sync.Mutex) (*RunResult, error) {
	start := time.Now()
	r := &RunResult{Variant: v, Name: v.label()}
	perfect := v.Strategy == Perfect
	var pol *focus.Policy
	if !perfect {
		var err error
		pol, err = focus.New(focus.Config{Strategy: focus.Strategy(v.Strategy), Tolerance: v.Tolerance, Defer: v.Defer, Decay: v.Decay})
		if err != nil {
			return nil, err
		}
	}
	fopts := &frontier.Options{WriteBufferMB: opts.WriteBufferMB}
	dir := ""
	if opts.DiskDir == "" {
		st := storage.NewMemStorage()
		defer st.Close()
		fopts.Storage = st
	} else {
		var err error
		if err := os.MkdirAll(opts.DiskDir, 0o755); err != nil {
			return nil, err
		}
		dir, err = os.MkdirTemp(opts.DiskDir, fmt.Sprintf("run%02d-", idx))
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	q, err := frontier.Open(dir, fopts)
	if err != nil {
		return nil, fmt.Errorf("open frontier: %w", err)
	}
	defer q.Close()

	// queued mirrors the frontier's seen set per page, so that step 6
	// (Decide's destVisited) is answered without a LevelDB lookup; counts
	// mirrors the focus counters the frontier keeps under Tally, which only
	// this run writes. Both are exact: opts.checkMirror verifies them
	// against the frontier in the tests.
	queued := make([]bool, w.numPages)
	counts := map[string]focus.Counts{}
	for _, s := range w.seeds {
		if queued[s] {
			continue
		}
		queued[s] = true
		if _, err := q.Push(w.entry(s, 0, frontier.High)); err != nil {
			return nil, fmt.Errorf("push seed: %w", err)
		}
	}
	serverPolicy := pol != nil && pol.Strategy().ServerBased()
	dirPolicy := serverPolicy && pol.Strategy() == focus.ConservativeDirectory
	dropSites := pol != nil && (pol.Strategy() == focus.AggressiveServer || pol.Strategy() == focus.ConservativeServer)
	crawled := make([]bool, w.numPages)
	accessed := make([]bool, len(w.host))
	deferred := map[string][]int32{}
	var deferredNow int64
	var links []frontier.Entry
	enqueue := func(d int32, depth int, pr frontier.Priority) {
		if !queued[d] {
			queued[d] = true
			links = append(links, w.entry(d, depth, pr))
		}
	}
	sample := func() {
		st := q.Stats()
		r.Curve = append(r.Curve, Sample{
			Pages: r.Pages, Targets: r.Targets,
			Coverage: ratio(r.Targets, w.reachableTargets), Harvest: ratio(r.Targets, r.Pages),
			Queue: st.Queued, Deferred: deferredNow, Servers: r.Servers,
		})
	}
	sample()
	for opts.MaxPages <= 0 || r.Pages < opts.MaxPages {
		if r.Pages%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		l, _, err := q.Next(t0)
		if errors.Is(err, frontier.ErrEmpty) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("next: %w", err)
		}
		if l == nil {
			return nil, fmt.Errorf("next: no lease and nothing in flight")
		}
		p, ok := w.lookup(l.Entry.URL)
		if !ok || w.kind[p] != kindPage {
			// Not an HTML page: a 404 costs a fetch and nothing else; a
			// redirect passes its target on at the priority it came with.
			s, known := w.hostOf(l.Entry.URL)
			if ok {
				s, known = w.server[p], true
			}
			if known && !accessed[s] {
				accessed[s] = true
				r.Servers++
			}
			links = links[:0]
			if ok && w.kind[p] == kindRedirect {
				r.Redirects++
				for _, d := range w.links(p) {
					enqueue(d, l.Entry.Depth, l.Entry.Priority)
				}
			} else {
				r.Dead++
			}
			if err := q.Complete(l, frontier.Completion{NotBefore: t0, Links: links}); err != nil {
				return nil, fmt.Errorf("complete %s: %w", l.Entry.URL, err)
			}
			continue
		}
		srv := w.server[p]
		rel := w.target[p]
		var cur focus.Policy
		key := ""
		var src focus.Counts
		if pol != nil {
			cur = pol.At(r.Pages)
			key = cur.Key(w.host[srv], w.dirKeyIf(p, dirPolicy))
		}
		if key != "" {
			src = counts[key]
			if cur.Skip(src) { // section 4.1: skipped at fetch time
				r.Skipped++
				if err := q.Complete(l, frontier.Completion{NotBefore: t0}); err != nil {
					return nil, fmt.Errorf("complete %s: %w", l.Entry.URL, err)
				}
				continue
			}
		}
		// "Download" the page: steps 1-3 of Fig. 3.
		r.Pages++
		crawled[p] = true
		if rel {
			r.Targets++
		}
		if !accessed[srv] {
			accessed[srv] = true
			r.Servers++
			if w.tserver[srv] {
				r.TargetServers++
			}
		}
		after := src
		after.Downloaded++
		if rel {
			after.Relevant++
		}
		links = links[:0]
		depth := l.Entry.Depth + 1
		for _, d := range w.links(p) {
			if d < 0 || int(d) >= w.numPages {
				continue
			}
			if perfect {
				if w.useful[d] {
					enqueue(d, depth, frontier.High)
				}
				continue
			}
			var dest focus.Counts
			if key != "" {
				dkey := cur.Key(w.host[w.server[d]], w.dirKeyIf(d, dirPolicy))
				if dkey == key {
					dest = after
				} else {
					dest = counts[dkey]
				}
			}
			vd := cur.Decide(rel, after, dest, queued[d])
			switch {
			case vd.Enqueue:
				enqueue(d, depth, prio(vd.High))
			case vd.Defer:
				deferred[key] = append(deferred[key], d)
				deferredNow++
				r.Deferred++
			}
		}
		var tally []frontier.Tally
		drop := false
		if key != "" {
			tally = []frontier.Tally{{Key: key, Relevant: rel}}
			counts[key] = after
			before, now := cur.Status(src), cur.Status(after)
			if before != focus.Relevant && now == focus.Relevant {
				// Improvement: re-process the links deferred while undecided.
				for _, d := range deferred[key] {
					dkey := cur.Key(w.host[w.server[d]], w.dirKeyIf(d, dirPolicy))
					dest := counts[dkey]
					if vd := cur.Decide(false, after, dest, queued[d]); vd.Enqueue {
						enqueue(d, depth, prio(vd.High))
						r.Reprocessed++
					}
				}
				deferredNow -= int64(len(deferred[key]))
				delete(deferred, key)
			}
			if now == focus.Irrelevant {
				deferredNow -= int64(len(deferred[key]))
				delete(deferred, key)
				drop = dropSites && before != focus.Irrelevant
			}
		}
		if err := q.Complete(l, frontier.Completion{NotBefore: t0, Links: links, Tally: tally}); err != nil {
			return nil, fmt.Errorf("complete %s: %w", l.Entry.URL, err)
		}
		if drop { // section 4.1: the server turned irrelevant, drop its queue
			n, err := q.DropSite(l.Entry.Site)
			if err != nil {
				return nil, fmt.Errorf("drop %s: %w", l.Entry.Site, err)
			}
			r.Dropped += int64(n)
		}
		if st := q.Stats(); st.Queued > r.PeakQueue {
			r.PeakQueue = st.Queued
		}
		if r.Pages%opts.SampleEvery == 0 {
			sample()
		}
		if opts.Progress != nil && r.Pages%opts.ProgressEvery == 0 {
			progress(opts.Progress, progressMu, r, w)
		}
	}
	if opts.checkMirror {
		if err := checkMirror(q, queued, counts, w); err != nil {
			return nil, err
		}
	}
	sample()
	r.FinalQueue = q.Stats().Queued
	r.Coverage = ratio(r.Targets, w.reachableTargets)
	r.Harvest = ratio(r.Targets, r.Pages)
	r.Miss = missByDistance(w, crawled)
	r.Elapsed = time.Since(start)
	r.crawled = crawled
	if opts.Progress != nil {
		progress(opts.Progress, progressMu, r, w)
	}
	if err := q.Close(); err != nil {
		return nil, fmt.Errorf("close frontier: %w", err)
	}
	return r, nil
}

func progress(out io.Writer, mu *sync.Mutex, r *RunResult, w *web) {
	mu.Lock()
	defer mu.Unlock()
	fmt.Fprintf(out, "simulate: %-36s pages %9d coverage %6.2f%% harvest %6.2f%% servers %7d\n",
		r.Name, r.Pages, 100*ratio(r.Targets, w.reachableTargets), 100*ratio(r.Targets, r.Pages), r.Servers)
}

func (w *web) dirKeyIf(p int32, need bool) string {
	if !need {
		return ""
	}
	return w.dirKey(p)
}

func (w *web) entry(p int32, depth int, pr frontier.Priority) frontier.Entry {
	h := w.host[w.server[p]]
	return frontier.Entry{URL: w.url(p), Site: h, Tree: h, Depth: depth, Priority: pr, Discovered: t0}
}

func prio(high bool) frontier.Priority {
	if high {
		return frontier.High
	}
	return frontier.Low
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// missByDistance computes Fig. 4: for each distance d, the share of target
// pages within distance d of the seeds that the crawl did not download.
func missByDistance(w *web, crawled []bool) []MissPoint {
	var targets, missed []int64
	for p, d := range w.dist {
		if d < 0 || !w.target[p] {
			continue
		}
		for int(d) >= len(targets) {
			targets = append(targets, 0)
			missed = append(missed, 0)
		}
		targets[d]++
		if !crawled[p] {
			missed[d]++
		}
	}
	out := make([]MissPoint, len(targets))
	var ct, cm int64
	for d := range targets {
		ct += targets[d]
		cm += missed[d]
		out[d] = MissPoint{Distance: d, Targets: ct, Missed: cm, Ratio: ratio(cm, ct)}
	}
	return out
}

// checkMirror verifies that the run's mirrors agree with the frontier: every
// page marked queued is in the frontier's seen set and no other is, and
// every counter equals the frontier's.
func checkMirror(q *frontier.Queue, queued []bool, counts map[string]focus.Counts, w *web) error {
	for p, want := range queued {
		got, err := q.Seen(w.url(int32(p)))
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("mirror: page %s: frontier seen %v, mirror %v", w.url(int32(p)), got, want)
		}
	}
	for k, c := range counts {
		fc, err := q.Counts(k)
		if err != nil {
			return err
		}
		if focus.Counts(fc) != c {
			return fmt.Errorf("mirror: counts %s: frontier %+v, mirror %+v", k, fc, c)
		}
	}
	return nil
}
