package focus

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Strategy names a link-selection strategy of Tamura section 5.1.
type Strategy string

// The strategies of Tamura section 5.1. "perfect", which needs an oracle,
// lives in the simulator only.
const (
	BFS                   Strategy = "bfs"
	HardFocused           Strategy = "hard-focused"
	SoftFocused           Strategy = "soft-focused"
	AggressiveServer      Strategy = "aggressive-server"
	ConservativeServer    Strategy = "conservative-server"
	ConservativeDirectory Strategy = "conservative-directory"
	// Evidence is conservative-server that also reads each link's own
	// evidence (anchor text, hreflang, URL cues) before fetching it: not a
	// strategy of the paper (see DecideLink).
	Evidence Strategy = "evidence"
)

// DefaultStrategy is the strategy used when none is configured.
const DefaultStrategy = ConservativeServer

// DefaultTolerance is Tamura's T: the number of irrelevant pages a server may
// serve before it is judged irrelevant. Section 5.2 finds that T must be "at
// least 10".
const DefaultTolerance = 10

// Strategies lists every strategy in the order of the paper's section 5.1
// comparison (page-based first).
func Strategies() []Strategy {
	return []Strategy{BFS, HardFocused, SoftFocused, AggressiveServer, ConservativeServer, ConservativeDirectory}
}

// ErrStrategy is returned (wrapped) for an unknown strategy name.
var ErrStrategy = errors.New("focus: unknown strategy")

// ErrConfig is returned (wrapped) for an invalid Config.
var ErrConfig = errors.New("focus: invalid config")

// ParseStrategy parses a strategy name as written in a profile
// (focus.strategy). The empty string gives DefaultStrategy. Matching ignores
// case and surrounding space.
func ParseStrategy(s string) (Strategy, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return DefaultStrategy, nil
	}
	all := append(Strategies(), Evidence, Sequential)
	for _, st := range all {
		if string(st) == t {
			return st, nil
		}
	}
	names := make([]string, 0, len(all))
	for _, st := range all {
		names = append(names, string(st))
	}
	return "", fmt.Errorf("%w %q: want one of %s", ErrStrategy, s, strings.Join(names, ", "))
}

// ServerBased reports whether s keeps per-server or per-directory counters.
func (s Strategy) ServerBased() bool {
	return s == AggressiveServer || s == ConservativeServer || s == ConservativeDirectory || s == Evidence || s == Sequential
}

// Conservative reports whether s applies step 4.5 (Tamura section 4.2).
func (s Strategy) Conservative() bool {
	return s == ConservativeServer || s == ConservativeDirectory || s == Evidence || s == Sequential
}

// Status is the identification status of a server or directory.
type Status uint8

// The statuses of Tamura section 4.1.
const (
	Undecided Status = iota
	Relevant
	Irrelevant
)

func (s Status) String() string {
	switch s {
	case Undecided:
		return "undecided"
	case Relevant:
		return "relevant"
	case Irrelevant:
		return "irrelevant"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Counts are the counters of one server or directory: N_a (Downloaded) and
// N_r (Relevant), and what the sequential strategy accumulates beside them:
// Evidence, the log-likelihood ratio of "holds target pages" against "holds
// none" in millinats (see Policy.Weigh), Home, set once the server's home
// page was counted, and Probes, the pages among N_a that no link asked for
// (the home page when the verdict queued it: Page.Probe). It has the shape
// of frontier.Counts, so a conversion focus.Counts(c) works.
type Counts struct {
	Downloaded, Relevant int64
	Evidence             int64
	Home                 bool
	Probes               int64
	// SelfLinks: a counted page linked to a target section of its own
	// server (Page.SelfTargetLinks); only such links may keep a server
	// with no target page past the sequential verdict's backstop.
	SelfLinks bool
	// Close: target verdicts the sequential strategy did not count in N_r
	// for being close calls (Page.CloseCall): evidence only.
	Close int64
	// PageEvidence: Evidence without what the pages' links say
	// (Page.TargetLinks): the test on the pages' own verdicts. A server
	// with close calls whose PageEvidence reaches the upper bound is
	// relevant past the backstop, and its pages open servers (step 4.5).
	PageEvidence int64
	// Rechecked: the crawl generation in which the engine last fetched a
	// page of the server, judged irrelevant before, to see whether its
	// language changed (0: never); RecheckTries, its tries in that
	// generation; RecheckDone, whether the re-check ended there. No status
	// reads them.
	Rechecked    int64
	RecheckTries int64
	RecheckDone  bool
}

// StatusOf returns the status for counters c under tolerance T (section 4.1):
// relevant if N_r > 0, undecided if N_r = 0 and N_a <= T, irrelevant otherwise.
func StatusOf(c Counts, tolerance int) Status {
	switch {
	case c.Relevant > 0:
		return Relevant
	case c.Downloaded <= int64(tolerance):
		return Undecided
	default:
		return Irrelevant
	}
}

// Decay makes the tolerance fall as the crawl proceeds (an improvement
// suggested by Tamura section 5.2): after n pages were crawled the tolerance
// is max(Min, T - n/Every). The zero Decay (Every == 0) disables it.
type Decay struct {
	Every int64 // pages crawled per step down of the tolerance; 0 disables decay
	Min   int   // floor of the tolerance; default 0
}

// RecommendedDecay is the decaying tolerance the simulator supports (see the
// package documentation): T falls by one every 25,000 pages crawled, down to
// 5 (Tamura 5.2: T "must be greater than 5"). It is not applied by default;
// a profile or caller sets Config.Decay to it.
var RecommendedDecay = Decay{Every: 25_000, Min: 5}

// Config selects and tunes a strategy. The zero Config is the default:
// conservative-server, T = 10, no improvements.
type Config struct {
	// Strategy; "" means DefaultStrategy (conservative-server).
	Strategy Strategy
	// Tolerance is T. 0 means DefaultTolerance (10); negative is invalid.
	// (T = 0 itself, "irrelevant after one irrelevant page", is not
	// expressible; use Decay with Min 0 to reach it.)
	Tolerance int
	// Defer replaces step 4.5's rejection with Verdict.Defer, so the caller
	// can re-process the link when the source turns relevant. It only
	// affects conservative strategies. Default false.
	Defer bool
	// Decay lets the tolerance fall with the number of pages crawled; it
	// only affects server-based strategies. Default: none.
	Decay Decay
	// Langs are the target languages (ISO 639-1: "th"; or a set collected
	// together: "nb", "nn"), which the evidence strategy scores links for
	// (Policy.Score): a cue for any of them speaks for the target.
	// Required by that strategy; the sequential strategy reads link
	// evidence with them when set; the others ignore them.
	Langs []string
	// ErrorBound is the sequential strategy's error bound per server
	// (focus.error_bound), Wald's alpha: the chance it may judge a server
	// holding no target page relevant. 0 means DefaultErrorBound (0.01); it
	// must lie in (0, 0.5). Other strategies ignore it.
	ErrorBound float64
	// MissBound is the sequential strategy's other error bound per server
	// (focus.miss_bound), Wald's beta: the chance it may judge a server
	// holding target pages irrelevant, which loses the server's pages. 0
	// means DefaultMissBound (0.001); it must lie in (0, 0.5). Other
	// strategies ignore it.
	MissBound float64
	// LinkEvidence makes the sequential strategy decide links as the
	// evidence strategy does (Policy.DecideLink: a link's own evidence may
	// open a server, re-enter an irrelevant one, or keep a new one shut, and
	// sets priority), with the sequential verdict as the server status
	// (focus.link_evidence). It needs Lang. Default false. Experimental.
	LinkEvidence bool
	// CutForeignDirs turns on the sequential strategy's directory status
	// (focus.foreign_dirs: cut): a foreign-language section of a relevant
	// server is crawled only until it is judged foreign, when harvest
	// matters. Default false (focus.foreign_dirs: keep): sections are
	// crawled in full, for completeness; on the simulated family cutting
	// them costs up to 0.14 points of coverage (simulate/RESULTS.md).
	CutForeignDirs bool
}

// Policy applies one Config. It is immutable and safe for concurrent use.
type Policy struct {
	cfg   Config
	tol   int   // tolerance in force
	upper int64 // the sequential test's upper threshold, millinats: ln((1-beta)/alpha)
	lower int64 // its lower threshold, millinats (negative): ln(beta/(1-alpha))
}

// New validates cfg, fills in defaults and returns its Policy. Every problem
// is reported at once.
func New(cfg Config) (*Policy, error) {
	var errs []error
	st, err := ParseStrategy(string(cfg.Strategy))
	if err != nil {
		errs = append(errs, fmt.Errorf("focus.strategy: %w", err))
	}
	cfg.Strategy = st
	switch {
	case cfg.Tolerance < 0:
		errs = append(errs, fmt.Errorf("%w: focus.tolerance %d is negative", ErrConfig, cfg.Tolerance))
	case cfg.Tolerance == 0:
		cfg.Tolerance = DefaultTolerance
	}
	if cfg.Decay.Every < 0 {
		errs = append(errs, fmt.Errorf("%w: focus.decay.every %d is negative", ErrConfig, cfg.Decay.Every))
	}
	if cfg.Decay.Min < 0 || (cfg.Tolerance > 0 && cfg.Decay.Min > cfg.Tolerance) {
		errs = append(errs, fmt.Errorf("%w: focus.decay.min %d is outside [0, tolerance %d]", ErrConfig, cfg.Decay.Min, cfg.Tolerance))
	}
	var langs targets
	for _, l := range cfg.Langs {
		if l = strings.ToLower(strings.TrimSpace(l)); l != "" && !slices.Contains(langs, l) {
			langs = append(langs, l)
		}
	}
	cfg.Langs = langs
	if cfg.LinkEvidence && cfg.Strategy != Sequential {
		errs = append(errs, fmt.Errorf("%w: focus.link_evidence is for the sequential strategy, not %s", ErrConfig, cfg.Strategy))
	}
	if cfg.Strategy == Sequential && cfg.LinkEvidence && len(cfg.Langs) == 0 {
		errs = append(errs, fmt.Errorf("%w: focus.link_evidence needs the target language (Config.Langs)", ErrConfig))
	}
	if cfg.Strategy == Evidence && len(cfg.Langs) == 0 {
		errs = append(errs, fmt.Errorf("%w: focus.strategy evidence needs the target language (Config.Langs)", ErrConfig))
	}
	switch e := cfg.ErrorBound; {
	case e == 0:
		cfg.ErrorBound = DefaultErrorBound
	case !(e > 0 && e < 0.5): // also NaN
		errs = append(errs, fmt.Errorf("%w: focus.error_bound %g is outside (0, 0.5)", ErrConfig, e))
	}
	switch b := cfg.MissBound; {
	case b == 0:
		cfg.MissBound = DefaultMissBound
	case !(b > 0 && b < 0.5):
		errs = append(errs, fmt.Errorf("%w: focus.miss_bound %g is outside (0, 0.5)", ErrConfig, b))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	upper, lower := thresholds(cfg.ErrorBound, cfg.MissBound)
	return &Policy{cfg: cfg, tol: cfg.Tolerance, upper: upper, lower: lower}, nil
}

// Config returns the effective configuration, defaults filled in.
func (p *Policy) Config() Config { return p.cfg }

// Strategy returns the strategy in force.
func (p *Policy) Strategy() Strategy { return p.cfg.Strategy }

// Tolerance returns the tolerance T in force for this Policy value (see At).
func (p *Policy) Tolerance() int { return p.tol }

// At returns the policy in force after crawled pages were downloaded: the
// same policy with the tolerance lowered by Config.Decay. Without decay it
// returns *p.
func (p *Policy) At(crawled int64) Policy {
	q := *p
	if d := p.cfg.Decay; d.Every > 0 && crawled > 0 {
		t := int64(p.cfg.Tolerance) - crawled/d.Every
		if t < int64(d.Min) {
			t = int64(d.Min)
		}
		q.tol = int(t)
	}
	return q
}

// Status returns the status of a server (or directory) with counters c:
// StatusOf(c, p.Tolerance()), or for the sequential strategy its
// sequential verdict (see Weigh).
func (p *Policy) Status(c Counts) Status {
	if p.cfg.Strategy == Sequential {
		return p.sequentialStatus(c)
	}
	return StatusOf(c, p.tol)
}

// Key returns the counter key of a URL: the host for the server strategies,
// dirKey (scope.DirKey, e.g. "www.xsp.com/user1/") for conservative-directory,
// and "" for the page-based strategies, which keep no counters. A caller
// tallies (steps 2-3) and looks up counters only when Key is not "".
func (p *Policy) Key(host, dirKey string) string {
	switch p.cfg.Strategy {
	case AggressiveServer, ConservativeServer, Evidence, Sequential:
		return host
	case ConservativeDirectory:
		return dirKey
	}
	return ""
}

// Skip reports whether a queued URL whose server (or directory) has counters
// dest should be skipped at fetch time, because the server turned irrelevant
// after the URL was queued (section 4.1, last paragraph). Page-based
// strategies never skip.
//
// A policy that reads links (ReadsLinks: the evidence strategy, and the
// sequential one with Config.LinkEvidence) skips only URLs queued at low
// priority (high false): it admits a link into an irrelevant server only
// on strong evidence, at high priority (DecideLink), so a high-priority
// URL there is meant. A low-priority one is not, yet may be leased: the
// server's queue is dropped just after the page that judged it completes,
// and in between another worker may lease a URL of it. An independent
// trial saw such a page fetched on 60 of 525 servers judged irrelevant,
// before low-priority URLs were skipped.
func (p *Policy) Skip(dest Counts, high bool) bool {
	if !p.cfg.Strategy.ServerBased() || p.Status(dest) != Irrelevant {
		return false
	}
	return !p.ReadsLinks() || !high
}

// ReadsLinks reports whether links are decided on their own evidence
// (Policy.Score, Policy.DecideLink): the evidence strategy, and the
// sequential one with Config.LinkEvidence. Such a policy admits links into
// irrelevant servers on strong evidence, so it skips nothing at fetch time
// (Skip); the queue of a server that turns irrelevant is still dropped.
func (p *Policy) ReadsLinks() bool {
	return p.cfg.Strategy == Evidence || (p.cfg.Strategy == Sequential && p.cfg.LinkEvidence)
}

// Verdict is the decision on one link.
type Verdict struct {
	Enqueue bool   // push the link to the frontier
	High    bool   // with high priority (frontier.High); low otherwise
	Defer   bool   // keep it under the source key and Decide again when the source turns relevant
	Reason  string // short, fixed reason for metadata records and metrics
}

// Reasons given in Verdict.Reason.
const (
	ReasonSeen           = "seen"                  // step 6
	ReasonUnvisited      = "unvisited-server"      // step 4.5
	ReasonDeferred       = "deferred"              // step 4.5 with Config.Defer
	ReasonIrrelevantDest = "irrelevant-server"     // step 5
	ReasonIrrelevantPage = "irrelevant-page"       // hard focused
	ReasonRelevantPage   = "relevant-page"         // step 7
	ReasonOtherPage      = "other-page"            // step 8
	ReasonRequisite      = "requisite-of-relevant" // Requisite
)

// Decide decides one navigation link of a downloaded page, after the
// counters of the page's own server were updated (Fig. 3 steps 1-3).
//
//   - pageRelevant: the page is in the target language.
//   - src: counters of the page's key (server or directory), steps 2-3 applied.
//   - dest: counters of the link destination's key (zero if never seen).
//   - destVisited: the destination URL was already downloaded or queued.
//
// src and dest are ignored by page-based strategies. See the package
// documentation for which step each branch implements.
func (p *Policy) Decide(pageRelevant bool, src, dest Counts, destVisited bool) Verdict {
	if destVisited { // step 6
		return Verdict{Reason: ReasonSeen}
	}
	switch p.cfg.Strategy {
	case BFS:
		return Verdict{Enqueue: true, Reason: ReasonOtherPage}
	case HardFocused:
		if !pageRelevant {
			return Verdict{Reason: ReasonIrrelevantPage}
		}
		return Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}
	case SoftFocused:
		return enqueue(pageRelevant)
	}
	// Server-based strategies.
	if p.cfg.Strategy.Conservative() && src.Relevant == 0 && !p.closeRelevant(src) && dest.Downloaded == 0 { // step 4.5
		if p.cfg.Defer {
			return Verdict{Defer: true, Reason: ReasonDeferred}
		}
		return Verdict{Reason: ReasonUnvisited}
	}
	if p.Status(dest) == Irrelevant { // step 5
		return Verdict{Reason: ReasonIrrelevantDest}
	}
	return enqueue(pageRelevant) // steps 7 and 8
}

// Requisite decides one page requisite (image, stylesheet, script, frame
// source needed for replay). A requisite of a relevant page is always
// enqueued with high priority, whatever its server's status, so that the
// archived page replays; other requisites are decided like links.
func (p *Policy) Requisite(pageRelevant bool, src, dest Counts, destVisited bool) Verdict {
	if pageRelevant && !destVisited {
		return Verdict{Enqueue: true, High: true, Reason: ReasonRequisite}
	}
	return p.Decide(pageRelevant, src, dest, destVisited)
}

func enqueue(pageRelevant bool) Verdict {
	if pageRelevant {
		return Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}
	}
	return Verdict{Enqueue: true, Reason: ReasonOtherPage}
}
