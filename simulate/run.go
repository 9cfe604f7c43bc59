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

	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/scope"
)

// Perfect is the oracle strategy of Tamura 5.1, available in the simulator
// only. See the package documentation for its precise definition.
const Perfect = "perfect"

// The verdict oracles, available in the simulator only: the best a
// strategy that judges a server (or a top directory) by its own pages can
// do, with a verdict that is never wrong and needs one page. ServerOracle
// is conservative-server that knows, from the first page of a server it
// fetches, whether the server holds target pages; DirectoryOracle is
// conservative-directory that knows it of each top directory (Tamura 4.3's
// keys, scope.DirKey). A server (directory) without target pages costs
// exactly one page, one with them is crawled as the strategy crawls a
// relevant one. They bound what better server verdicts (the sequential
// strategy, a smaller T) can gain; what they cannot reach needs evidence
// read before a server's first page (per-link evidence) or a section cut
// inside a target server. Unlike Perfect they see the whole page, links
// and all, and follow the strategy's own rules for opening servers, so
// they miss the target servers only foreign pages link to, as it does.
const (
	ServerOracle    = "server-oracle"
	DirectoryOracle = "directory-oracle"
)

// oracleStrategy is the focus strategy a verdict oracle runs, "" for the
// others.
func oracleStrategy(s string) focus.Strategy {
	switch s {
	case ServerOracle:
		return focus.ConservativeServer
	case DirectoryOracle:
		return focus.ConservativeDirectory
	}
	return ""
}

// ErrOptions is wrapped by every error about bad Options.
var ErrOptions = errors.New("simulate: invalid options")

// Variant is one simulated crawl: a strategy and its tuning.
type Variant struct {
	// Name labels the variant in CSV files, plots and tables. Default:
	// the strategy, plus " T=n" for server-based strategies and "+decay"
	// for the improvement.
	Name string
	// Strategy is a focus strategy name, Perfect, ServerOracle or
	// DirectoryOracle.
	Strategy string
	// Tolerance is T for server-based strategies (default 10).
	Tolerance int
	// Decay is the focus.Config improvement of a falling tolerance.
	// (focus.Config.Defer is not offered: the engine does not defer links.)
	Decay focus.Decay
	// ErrorBound and MissBound are the sequential strategy's error bounds
	// per server (focus.Config.ErrorBound and MissBound; defaults
	// focus.DefaultErrorBound and DefaultMissBound).
	ErrorBound, MissBound float64
	// CutForeignDirs turns on the sequential strategy's directory status
	// (focus.Config.CutForeignDirs).
	CutForeignDirs bool
	// LinkEvidence makes the sequential strategy decide links on their own
	// evidence (focus.Config.LinkEvidence).
	LinkEvidence bool
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
		if v.Decay.Every > 0 {
			s += fmt.Sprintf(" +decay/%d", v.Decay.Every)
		}
	}
	if focus.Strategy(v.Strategy) == focus.Sequential {
		e, b := v.ErrorBound, v.MissBound
		if e == 0 {
			e = focus.DefaultErrorBound
		}
		if b == 0 {
			b = focus.DefaultMissBound
		}
		if e == b {
			s += fmt.Sprintf(" e=%g", e)
		} else {
			s += fmt.Sprintf(" a=%g b=%g", e, b)
		}
		if v.CutForeignDirs {
			s += " +cut-dirs"
		}
		if v.LinkEvidence {
			s += " +links"
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
	// Improvements adds the variant that measures the improvement on the
	// paper the engine implements: conservative-server with a decaying
	// tolerance (DecayEvery). Default false.
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
	// SeenCache is how many seen-URL hashes the frontier keeps in memory
	// (frontier.Options.SeenCache). Default: twice the web's page count, so
	// that no URL of the web leaves it and the seen set in LevelDB is read
	// only for URLs not seen before. The results are the same at any size
	// (TestSeenCacheSameResults); only the cost per page changes.
	SeenCache int
	// Done, when non-nil, is called with each run's result as soon as it
	// finishes (one call at a time), e.g. to save partial results.
	Done func(*RunResult)
	// Progress, when non-nil, receives a progress line per run every
	// ProgressEvery pages, at least every 20 seconds while it crawls, and
	// at its end.
	Progress io.Writer
	// ProgressEvery defaults to 250,000 pages.
	ProgressEvery int64
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
				Variant{Strategy: string(focus.ConservativeServer), Tolerance: t,
					Decay: focus.Decay{Every: every, Min: dmin}},
			)
		}
	}
	return vs, nil
}

func checkStrategy(s string) error {
	if s == Perfect || oracleStrategy(s) != "" {
		return nil
	}
	if _, err := focus.ParseStrategy(s); err != nil || s == "" {
		return fmt.Errorf("%w: strategy %q (want perfect, %s, %s or a focus strategy): %v", ErrOptions, s, ServerOracle, DirectoryOracle, err)
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
	// ReachedTargets are the target pages crawled that links reach from
	// the seeds: coverage counts these only. The others are home pages
	// of servers no link reaches, which the sequential strategy's home
	// probe (focus.Policy.Probe) asks for; they count for harvest.
	ReachedTargets int64
	Coverage       float64
	Harvest        float64
	PeakQueue      int64
	FinalQueue     int64
	Servers        int64 // servers accessed
	TargetServers  int64 // target servers among them
	Skipped        int64 // leased URLs skipped because their server turned irrelevant (crawl.Snapshot.Skipped)
	Dead           int64 // fetches that answered 404
	Redirects      int64 // fetches that answered a redirect
	Dropped        int64 // queued URLs removed by DropSite (crawl.Snapshot.Dropped)
	Curve          []Sample
	Miss           []MissPoint
	// Lost sorts the reachable target pages the run did not crawl by what
	// became of their server (lossBreakdown).
	Lost    Losses
	Elapsed time.Duration

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
	if opts.SeenCache <= 0 {
		opts.SeenCache = 2 * w.numPages
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

// runOne crawls w once with the crawl engine (crawl.New, Crawler.Run) and
// variant v; see engine.go for the parts it is given.
func runOne(ctx context.Context, w *web, v Variant, opts Options, idx int, progressMu *sync.Mutex) (*RunResult, error) {
	start := time.Now()
	r := &RunResult{Variant: v, Name: v.label()}
	perfect := v.Strategy == Perfect
	var pol *focus.Policy
	label := labelPage
	switch {
	case oracleStrategy(v.Strategy) != "":
		// The oracle's verdict needs one page: T = 0, so that a server
		// (directory) none of whose pages is target is irrelevant after its
		// first. focus.Config reads a tolerance of 0 as the default, so T
		// starts at 1 and falls to 0 once a page is crawled (the decay
		// of a step a page); the first page crawled is a seed.
		var err error
		pol, err = focus.New(focus.Config{Strategy: oracleStrategy(v.Strategy), Tolerance: 1,
			Decay: focus.Decay{Every: 1, Min: 0}, Langs: []string{w.targetLang}})
		if err != nil {
			return nil, err
		}
		label = labelServer
		if v.Strategy == DirectoryOracle {
			label = labelDirectory
		}
	case !perfect:
		var err error
		pol, err = focus.New(focus.Config{Strategy: focus.Strategy(v.Strategy), Tolerance: v.Tolerance, Decay: v.Decay,
			Langs: []string{w.targetLang}, ErrorBound: v.ErrorBound, MissBound: v.MissBound, CutForeignDirs: v.CutForeignDirs,
			LinkEvidence: v.LinkEvidence})
		if err != nil {
			return nil, err
		}
	}
	fopts := &frontier.Options{WriteBufferMB: opts.WriteBufferMB, SeenCache: opts.SeenCache}
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

	// run is cancelled by ctx, or by the fetcher once MaxPages pages were
	// crawled; the engine then finishes the page in hand and stops.
	run, stop := context.WithCancel(ctx)
	defer stop()
	obs := newObserver(w, r, q, opts, perfect, stop, func() { progress(opts.Progress, progressMu, r, w) })
	obs.label = label
	c, err := crawl.New(crawl.Config{
		// One worker: the crawl order is the frontier's, and the run is
		// deterministic. Runs of different variants go in parallel.
		Workers: 1,
		Focus:   pol,
		// No depth limit, no query rule: the synthetic web has no traps.
		// The canonicalisation cache is the one `langcrawl crawl` uses.
		Scope: scope.Decider{MaxDepth: -1, Cache: scope.NewCache(0)},
		// The clock stands still: with no politeness delay every site is
		// eligible again at once. (A retried fetch would wait forever;
		// there is none: the fetcher answers only 200, 301 and 404, and
		// the gate never fails.)
		Now: func() time.Time { return t0 },
	}, crawl.Parts{
		Queue:    &observedQueue{Queue: q, obs: obs},
		Archive:  discardArchive{},
		Fetcher:  obs,
		Gate:     openGate{},
		Detector: langDetector{target: w.targetLang},
	})
	if err != nil {
		return nil, err
	}
	seeds := make([]string, len(w.seeds))
	for i, s := range w.seeds {
		seeds[i] = w.url(s)
	}
	if _, err := c.Seed(seeds); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	obs.sample()
	if _, err := c.Run(run); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	snap := c.Stats()
	if snap.HTML != r.Pages || (pol != nil && snap.Relevant != obs.labelled) {
		// The engine and the fetcher must agree on what was crawled (an
		// unfocused engine calls every page relevant; an oracle's labels
		// are its verdicts, not the pages' languages).
		return nil, fmt.Errorf("the engine counted %d pages, %d relevant; the graph served %d, %d labelled target",
			snap.HTML, snap.Relevant, r.Pages, obs.labelled)
	}
	r.Skipped, r.Dropped = snap.Skipped, snap.Dropped
	if last := r.Curve[len(r.Curve)-1]; last.Pages != r.Pages {
		obs.sample()
	}
	r.FinalQueue = q.Stats().Queued
	r.Coverage = ratio(r.ReachedTargets, w.reachableTargets)
	r.Harvest = ratio(r.Targets, r.Pages)
	r.Miss = missByDistance(w, obs.crawled)
	r.Lost = lossBreakdown(w, obs.crawled)
	r.Elapsed = time.Since(start)
	r.crawled = obs.crawled
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
		r.Name, r.Pages, 100*ratio(r.ReachedTargets, w.reachableTargets), 100*ratio(r.Targets, r.Pages), r.Servers)
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Losses sorts the reachable target pages a run did not crawl, with the
// target servers they are on, by what became of the server:
//
//   - Unopened: no page of the server was crawled (no link to it was
//     followed, or only links to pages that are gone: its links come from
//     servers judged irrelevant or undecided, or were rejected);
//   - Judged: some of its pages were crawled but none of its target pages,
//     so focusing judged it irrelevant, or never relevant, on its foreign
//     pages (an English home page, an English section, a hosting server's
//     English users);
//   - Inside: some of its target pages were crawled, others not (reached
//     only through pages the crawl skipped, or beyond the depth limit).
type Losses struct {
	UnopenedPages, UnopenedServers int64
	JudgedPages, JudgedServers     int64
	InsidePages, InsideServers     int64
}

// lossBreakdown computes Losses from the pages crawled.
func lossBreakdown(w *web, crawled []bool) Losses {
	lost := make(map[int32]int64) // target server -> reachable target pages lost
	opened := make([]bool, len(w.host))
	gotTarget := make([]bool, len(w.host))
	for p, d := range w.dist {
		s := w.server[p]
		if crawled[p] {
			opened[s] = true
			gotTarget[s] = gotTarget[s] || w.target[p]
		} else if d >= 0 && w.target[p] {
			lost[s]++
		}
	}
	var l Losses
	for s, n := range lost {
		switch {
		case !opened[s]:
			l.UnopenedPages += n
			l.UnopenedServers++
		case !gotTarget[s]:
			l.JudgedPages += n
			l.JudgedServers++
		default:
			l.InsidePages += n
			l.InsideServers++
		}
	}
	return l
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
