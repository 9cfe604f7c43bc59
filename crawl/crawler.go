package crawl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
)

// Queue is what the engine needs of the frontier.
type Queue interface {
	Next(now time.Time) (*frontier.Lease, time.Duration, error)
	NextFit(now time.Time, maxd int, fits func(site string) bool) (*frontier.Lease, time.Duration, error)
	Complete(l *frontier.Lease, c frontier.Completion) error
	Return(l *frontier.Lease, notBefore time.Time) error
	Requeue(l *frontier.Lease, d frontier.Deferral) error
	PushMany(es []frontier.Entry) (int, error)
	Seen(url string) (bool, error)
	DropSite(site string, keep func(frontier.Entry) bool, each func(frontier.Entry) error) (int, error)
	Counts(key string) (frontier.Counts, error)
	BudgetCount(key string) (int64, error)
	SetFlags(keys []string) error
	History(url string) (frontier.History, bool, error)
	StartGeneration(due func(frontier.History) (frontier.Entry, bool)) (int64, int, error)
	Capture(digest string) (frontier.Capture, bool, error)
	AddCapture(digest string, c frontier.Capture) (bool, error)
	AddUsage(u frontier.Usage) error
	Postpone(sites []string, until time.Time)
	Wake(sites []string, n int, now time.Time)
	Stats() frontier.Stats
}

// Archive is what the engine needs of the WARC writer.
type Archive interface {
	WriteExchange(ex *archive.Exchange) (archive.Ref, error)
	WriteRevisit(rv *archive.Revisit) (archive.Ref, error)
}

// Fetcher sends one request and returns the raw exchange.
type Fetcher interface {
	Do(ctx context.Context, method, rawURL string, extraHeader http.Header) (*fetch.Result, error)
}

// Gate is what the engine needs of the politeness gate.
type Gate interface {
	Check(ctx context.Context, u *url.URL, now time.Time) (politeness.Decision, error)
	Acquire(ctx context.Context, host string) (release func(end time.Time), err error)
	Delay(host string) time.Duration
	Busy(host string, busy bool)
	// Ready is when host may next be fetched (zero: now, or no fetch on
	// record): Acquire would wait until then.
	Ready(host string) time.Time
}

// Detector identifies the charset and language of a page.
type Detector interface {
	Detect(body []byte, contentType string) detect.Result
}

// Config tunes the engine. The cmd package fills it from config.Config.
type Config struct {
	Workers int // r; default 16
	// The job's budgets count over every run on the same frontier, so
	// they hold across resumes; 0 means no limit. MaxPages counts the
	// requests that got a response from a server (pages, requisites and
	// redirects; not robots.txt), and is exact: a request is reserved
	// before it is sent. MaxBytes counts response bytes received; the
	// crawl stops taking work once it is reached, so it is exceeded by at
	// most what is in flight. MaxTime counts the time the crawl ran.
	MaxPages        int
	MaxBytes        int64
	MaxTime         time.Duration
	MaxPagesPerSite int // responses per site (requisites excluded); 0: no limit
	// SiteBudgets overrides MaxPagesPerSite for some hosts or domains,
	// keyed as politeness.Config.Hosts is ("example.org" for the host,
	// ".example.org" for it and every host under it); 0 means no limit.
	SiteBudgets map[string]int
	// MaxPagesPerDomain bounds the responses of all the hosts of one
	// registered domain (requisites excluded), a subdomain farm's bound;
	// DomainBudgets overrides it for some hosts, keyed as SiteBudgets.
	// MaxSitesPerAddress bounds the sites taken from one IP address, a
	// farm of fresh domains' bound. Both count across restarts (guards.go);
	// 0: no limit.
	MaxPagesPerDomain  int
	DomainBudgets      map[string]int
	MaxSitesPerAddress int
	// Retries says how failed fetches are tried again; see Retries.
	Retries Retries
	// DedupMinSize: a 2xx payload of at least this many bytes that an
	// earlier capture of another URL (or of an earlier generation)
	// already archived is written as an identical-payload-digest revisit
	// that refers to it. 0 turns deduplication across URLs off.
	DedupMinSize int64
	// DomainConnections is the most fetches under way at once to the
	// hosts of one registered domain (serverSlots); 0: no limit beyond
	// Workers and one per site.
	DomainConnections int
	// AddressConnections is the most fetches under way at once to the
	// sites last reached at one address (serverSlots), a shared-hosting
	// server's many domains; 0: no limit.
	AddressConnections int
	// Resolve returns the address a fetch of a URL would connect to
	// (fetch.Client.Address). With AddressConnections set, a site whose
	// address no connection has told yet is looked up with it before its
	// lease goes ahead; nil: a site's first lease is bound by its domain
	// alone, and its address learnt from its connection.
	Resolve func(ctx context.Context, rawURL string) (string, error)
	// RecrawlInterval and RecrawlIntervals (per host or .domain) are the
	// re-crawl's interval, as Recrawl takes them: in a generation after
	// the first, a link to a known URL whose last visit is more recent is
	// not followed (rejected:recrawl:not-due), as Recrawl did not queue
	// it. 0 and none: every known URL is due.
	RecrawlInterval  time.Duration
	RecrawlIntervals map[string]time.Duration
	// Recheck: in a generation after the first, one URL of each server
	// an earlier generation judged irrelevant is fetched and counted (the
	// first its queue gives, so usually its home page), so that a server
	// whose language turned to the target is found. Without it, such a
	// server's URLs are skipped (-5003) in every later generation.
	Recheck bool
	// Bandwidth, when not nil, is the fetcher manager of the bandwidth
	// paper: a URL is leased only while its server's expected rate fits
	// under the limit beside the downloads in flight, searching the top
	// SearchDepth ready sites. Nil: no bandwidth limit.
	Bandwidth  *bandwidth.Manager
	Requisites bool // fetch page requisites so pages replay
	// MaxEmbedHops bounds a chain of requisites found in requisites: the
	// embed hops (E) at the end of a requisite's hop path, a stylesheet
	// that @imports one that @imports another, and its images. 0: the
	// default, DefaultMaxEmbedHops; negative: no bound.
	MaxEmbedHops int
	Scope        scope.Decider // depth limit, query rule, trap guards
	Focus        *focus.Policy // nil: no focusing (every page counts as relevant)
	// MaxParse bounds how much of a decoded body is parsed for links and
	// language; default 8 MiB.
	MaxParse int64
	// CaptureDirs are where a capture's WARC file is looked for by its
	// base name when the path the fetch history names is gone: this
	// crawl's WARC directory, and a --previous crawl's. The history keeps
	// the path the file was written to, which is relative to the working
	// directory of that run when out was, and names the old place of a
	// crawl directory since moved (captureLinks; a diff review).
	CaptureDirs []string
	// Drain bounds the stop: once the crawl stops taking URLs (Ctrl-C,
	// SIGTERM, a budget, a worker's error), the fetches in flight may run
	// on this long. Those still running then are cut and their URLs
	// handed back to the queue, untried, for the next run: nothing of
	// them is archived or logged, and no try is counted (a robots.txt
	// fetch they started runs on, detached, and is archived if it ends
	// before the archive closes). 0: no bound (they finish, up to their
	// own timeouts); the profile's timeouts.drain is always positive.
	Drain time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Retries says how a failed fetch is deferred: a URL whose fetch failed
// (no connection, a timeout, a 5xx, a 429) or whose robots.txt was
// unavailable goes back to the queue, and is tried again after a delay
// that starts at Delay and doubles with each try, up to MaxDelay, or
// after the server's Retry-After, capped at MaxDelay. Only after Max tries
// is it recorded as failed (crawl.log code -8). Tries are kept in the
// frontier, so retries survive a restart.
type Retries struct {
	Max      int           // tries in all, the first included; default 10
	Delay    time.Duration // wait before the second try; default 30s
	MaxDelay time.Duration // cap on one wait; default 1h
}

// Parts are the leaves the engine drives. Every field is required.
type Parts struct {
	Queue    Queue
	Archive  Archive
	Fetcher  Fetcher
	Gate     Gate
	Detector Detector
	Log      *slog.Logger
	CrawlLog *CrawlLog // one line per fetch; may be nil
}

// Crawler runs a crawl. Create it with New and call Run once.
type Crawler struct {
	cfg   Config
	p     Parts
	stats Stats

	// pagesBefore is the HTML pages of earlier runs on the same frontier:
	// with this run's, the count on which the focusing tolerance falls.
	pagesBefore int64
	// before is what earlier runs on the same frontier spent, against
	// the job's budgets.
	before frontier.Usage

	started time.Time // when Run began; zero before
	// sameProfile: the generation before crawled with this profile
	// (SameProfile), so a 304 follows no link of its capture.
	sameProfile atomic.Bool
	// seedsQueued: a seed was queued already when Seed gave it (from the
	// history, as a link perhaps), so that the scope check at a link's
	// lease looks up whether it is a seed now (outOfScope).
	seedsQueued atomic.Bool
	pastDepth   int          // known URLs Recrawl left out as past the depth limit
	reserved    atomic.Int64 // this run's requests counted against MaxPages
	received    atomic.Int64 // this run's response bytes, for MaxBytes
	// handedBack counts the fetches cut when the stop's drain ran out
	// (Config.Drain), whose URLs went back to the queue.
	handedBack atomic.Int64

	dead deadSites // sites given up on after their last retry
	lost lostURLs  // the last URL of each origin lost before a response

	pause pauseState // Pause and Resume (pause.go)
	// pausedBefore is pausedFor when Run began: the pause time before the
	// run, which elapsed does not take off the run's time.
	pausedBefore time.Duration
	// generation is the frontier's, read when Run or Recrawl begins.
	generation atomic.Int64
	// slots holds the fetches under way per registered domain and per
	// address.
	slots serverSlots
}

// New checks the configuration and returns a Crawler. It starts nothing.
func New(cfg Config, p Parts) (*Crawler, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = 16
	}
	if cfg.MaxParse <= 0 {
		cfg.MaxParse = 8 << 20
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Retries.Max <= 0 {
		cfg.Retries.Max = 10
	}
	if cfg.Retries.Delay <= 0 {
		cfg.Retries.Delay = 30 * time.Second
	}
	if cfg.Retries.MaxDelay <= 0 {
		cfg.Retries.MaxDelay = time.Hour
	}
	if p.Queue == nil || p.Archive == nil || p.Fetcher == nil || p.Gate == nil || p.Detector == nil {
		return nil, errors.New("crawl: Parts needs Queue, Archive, Fetcher, Gate and Detector")
	}
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	fs := p.Queue.Stats()
	return &Crawler{cfg: cfg, p: p, pagesBefore: fs.Pages, before: fs.Usage, stats: newStats(),
		dead: deadSites{until: map[string]time.Time{}}, lost: lostURLs{last: map[string]lostURL{}}, slots: serverSlots{domainMax: cfg.DomainConnections, addrMax: cfg.AddressConnections, now: cfg.Now,
			book: cfg.MaxSitesPerAddress > 0}}, nil
}

// Seed canonicalises the seed URLs and queues each as the start of its own
// site tree at depth 0. Seeds already seen (a resumed crawl) are skipped.
// A bad seed is an error that names it.
func (c *Crawler) Seed(seeds []string) (int, error) {
	var es []frontier.Entry
	var errs []error
	now := c.cfg.Now()
	for _, s := range seeds {
		u, err := scope.Canonicalize(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("seed %q: %w", s, scope.Why(err)))
			continue
		}
		es = append(es, frontier.Entry{
			URL: u.String(), Site: scope.SiteKey(u), Tree: scope.RegisteredDomain(u.Hostname()),
			Priority: frontier.High, Discovered: now, Variant: scope.SeenKey(u),
		})
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	// The seeds' sites, which the trap guards for a domain and an
	// address never turn away (guards.go), are flagged in the frontier,
	// not held in memory: a seeds file may hold millions.
	// The seeds themselves are flagged too: one the generation had
	// queued already, from the history, with the hop path of a link
	// (PushMany skips it), is a seed all the same, which the scope check
	// at its lease must not hold to the depth limit and include rules as
	// a link (outOfScope; a diff review).
	keys := make([]string, 0, 2*len(es))
	for _, e := range es {
		keys = append(keys, seedSiteKey(e.Site), seedURLKey(e.URL))
	}
	if err := c.p.Queue.SetFlags(keys); err != nil {
		return 0, fmt.Errorf("frontier: seeds' sites: %w", err)
	}
	n, err := c.p.Queue.PushMany(es)
	if err == nil && n < len(es) {
		c.seedsQueued.Store(true)
	}
	return n, err
}

// Why Run stopped.
const (
	StopDone     = "frontier empty"
	StopPages    = "max_pages reached"
	StopBytes    = "max_bytes reached"
	StopTime     = "max_time reached"
	StopCanceled = "interrupted"
)

// Run crawls until the frontier is empty, a limit is reached, or ctx is
// cancelled; it then lets in-flight fetches finish and returns why it
// stopped. The error is non-nil only for infrastructure failures (disk,
// database).
func (c *Crawler) Run(ctx context.Context) (string, error) {
	// work is cancelled to stop taking new URLs; in-flight fetches run on
	// a context that outlives it, so a drain finishes them.
	work, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	c.started = time.Now()
	c.holdRecovered()
	c.pausedBefore = c.pausedFor()
	c.generation.Store(c.p.Queue.Stats().Generation)
	if c.cfg.MaxTime > 0 {
		// The time budget is for the whole job: earlier runs used part.
		// Time paused does not count (Heritrix's rule too), so the timer
		// looks again when it fires and waits out what is left.
		if c.elapsed() >= c.cfg.MaxTime {
			return StopTime, nil
		}
		timeUp := make(chan struct{})
		defer close(timeUp)
		go func() {
			t := time.NewTimer(c.cfg.MaxTime - c.elapsed())
			defer t.Stop()
			for {
				select {
				case <-timeUp:
					return
				case <-work.Done():
					return
				case <-t.C:
				}
				left := c.cfg.MaxTime - c.elapsed()
				if left <= 0 {
					stop(errors.New(StopTime))
					return
				}
				t.Reset(left)
			}
		}()
	}
	// In-flight fetches outlive work, up to Drain after the crawl stops
	// taking URLs: work ends, or a worker's error (a full disk) ends the
	// group's context.
	inflight, cut := context.WithCancel(context.WithoutCancel(ctx))
	defer cut()
	g, gctx := errgroup.WithContext(work)
	if c.cfg.Drain > 0 {
		finished := make(chan struct{})
		defer close(finished)
		go func() {
			select {
			case <-finished:
				return
			case <-gctx.Done():
			}
			t := time.NewTimer(c.cfg.Drain)
			defer t.Stop()
			select {
			case <-finished:
			case <-t.C:
				cut()
			}
		}()
	}

	for i := 0; i < c.cfg.Workers; i++ {
		id := i + 1
		g.Go(func() error { return c.worker(gctx, inflight, id, stop) })
	}
	err := g.Wait()
	if n := c.handedBack.Load(); n > 0 {
		c.p.Log.Warn("stop: fetches still running when the drain ran out were cut; their URLs are queued again, untried, for the next run",
			"fetches", n, "drain", c.cfg.Drain)
	}
	// The run's time is kept even when no URL completed since the last
	// one that carried it (a crawl paused or waiting until stopped).
	if uerr := c.p.Queue.AddUsage(frontier.Usage{Elapsed: c.elapsed()}); uerr != nil && err == nil {
		err = fmt.Errorf("frontier usage: %w", uerr)
	}
	reason := StopDone
	if cause := context.Cause(work); cause != nil && !errors.Is(cause, context.Canceled) {
		reason = cause.Error()
	} else if ctx.Err() != nil {
		reason = StopCanceled
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return reason, err
	}
	return reason, nil
}

// worker leases URLs until there is no more work or work is cancelled.
func (c *Crawler) worker(work, inflight context.Context, id int, stop context.CancelCauseFunc) error {
	for {
		if err := c.waitUnpaused(work); err != nil { // paused: wait (pause.go); stopped: return
			return nil
		}
		lease, ticket, slot, changed, wait, err := c.next()
		if errors.Is(err, frontier.ErrEmpty) {
			stop(errors.New(StopDone))
			return nil
		}
		if err != nil {
			return fmt.Errorf("frontier next: %w", err)
		}
		if lease == nil {
			if wait <= 0 || wait > time.Second {
				wait = min(max(wait, time.Millisecond), time.Second)
			}
			select {
			case <-work.Done():
				return nil
			case <-changed: // a download ended: the bandwidth may fit now
			case <-time.After(wait):
			}
			continue
		}
		if placed, err := c.placeAddress(work, lease, ticket, &slot); err != nil {
			return err
		} else if !placed {
			continue
		}
		if reason := c.budgetSpent(); reason != "" {
			// The job's budget is spent: hand the URL back for a later run.
			ticket.Cancel()
			c.slots.release(slot)
			if err := c.p.Queue.Return(lease, time.Time{}); err != nil {
				return fmt.Errorf("frontier return %s: %w", lease.Entry.URL, err)
			}
			stop(errors.New(reason))
			return nil
		}
		err = c.process(context.WithValue(inflight, heldKey{}, &slot), id, lease, ticket)
		if wake := c.slots.done(slot); len(wake) > 0 {
			// One fetch ended: the sites waiting for its domain or its
			// address come back at once, in their places, and the first
			// takes the slot. Waking the first only (a review) left the
			// others to sites found meanwhile: a trial crawled 0 to 8
			// of 20 sites linked from the seeds beside a farm, against
			// all 20 so.
			c.p.Queue.Wake(wake, len(wake), c.cfg.Now())
		}
		ticket.Cancel() // a URL that was not fetched frees its bandwidth; no-op after Done
		if errors.Is(err, errPagesSpent) {
			stop(errors.New(StopPages))
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// next leases the next URL: the frontier's choice, or with a bandwidth
// limit the first of the top ready sites whose download fits (the
// bandwidth paper's fetcher manager), and the server slots the lease
// holds until it is done. With no lease, changed (which may be nil) is
// closed when a download ends, and wait bounds the time to wait.
func (c *Crawler) next() (*frontier.Lease, *bandwidth.Ticket, held, <-chan struct{}, time.Duration, error) {
	now := c.cfg.Now()
	mgr := c.cfg.Bandwidth
	// The server slots are taken as the site is chosen (tryTake), inside
	// the search. NextFit may choose again when a chosen site turns out
	// empty, so the slots of an earlier choice are given back first, and
	// those of the last one when no lease comes of it. When no lease comes
	// of a search, the sites refused for their domain or address are
	// postponed a little, so the next search looks past them rather than
	// at them again.
	var took held
	var full []string
	choose := func(site string, fits func(string) bool) bool {
		c.slots.release(took)
		took = held{}
		h, ok := c.slots.tryTake(site)
		if !ok {
			full = append(full, site)
			return false
		}
		if fits != nil && !fits(site) {
			c.slots.release(h)
			return false
		}
		took = h
		return true
	}
	finish := func(lease *frontier.Lease) {
		if lease != nil {
			return
		}
		c.slots.release(took)
		took = held{}
		// Nothing in reach: the sites refused for their domain or
		// address hid the rest.
		c.p.Queue.Postpone(full, now.Add(domainWait))
	}
	if mgr == nil {
		if c.slots.domainMax <= 0 && c.slots.addrMax <= 0 {
			lease, wait, err := c.p.Queue.Next(now)
			return lease, nil, held{}, nil, wait, err
		}
		// The top site first, as Next would take it: the usual case,
		// and a search of one costs nothing; deeper only when it is
		// refused.
		pick := func(site string) bool { return choose(site, nil) }
		lease, wait, err := c.p.Queue.NextFit(now, 1, pick)
		if lease == nil && err == nil && len(full) > 0 {
			lease, wait, err = c.p.Queue.NextFit(now, domainSearchDepth, pick)
		}
		finish(lease)
		return lease, nil, took, nil, wait, err
	}
	changed := mgr.Changed()
	pick := mgr.Pick(now)
	lease, wait, err := c.p.Queue.NextFit(now, mgr.SearchDepth(), func(site string) bool { return choose(site, pick.Fits) })
	finish(lease)
	site := ""
	if lease != nil {
		site = lease.Entry.Site
	}
	ticket, berr := pick.Take(site)
	if err == nil && berr != nil {
		err = fmt.Errorf("bandwidth estimates: %w", berr)
		// The crawl stops on it: the lease, its slots and its
		// reservation are handed back.
		ticket.Cancel()
		ticket = nil
		c.slots.release(took)
		took = held{}
		if lease != nil {
			if rerr := c.p.Queue.Return(lease, time.Time{}); rerr != nil {
				err = errors.Join(err, fmt.Errorf("frontier return %s: %w", lease.Entry.URL, rerr))
			}
			lease = nil
		}
	}
	return lease, ticket, took, changed, wait, err
}

// placeAddress bounds a lease whose site's address is not known yet (its
// first lease, or the first since the address book forgot it): the
// address its host will be dialled at is looked up (Config.Resolve) and
// counted, so that the hundreds of sites of a shared-hosting server found
// on one page do not all get their first fetch at once. When the address
// has its bound under way, the lease is handed back, its site put aside
// for domainWait, and placeAddress reports false. A failed lookup places
// the lease unbound (its fetch will tell what failed) and is not tried
// again for the site for lookupRetry, so that a dead site's queued URLs,
// given up without a fetch, do not each wait on DNS. A lookup cut short
// by the crawl's stop hands the lease back. The address found is also
// what the sites-per-address guard counts the site under (guards.go).
func (c *Crawler) placeAddress(ctx context.Context, lease *frontier.Lease, ticket *bandwidth.Ticket, slot *held) (bool, error) {
	site := lease.Entry.Site
	if !c.slots.keepsBook() || c.cfg.Resolve == nil || slot.addr != "" || c.slots.addrMax <= 0 && c.slots.addressOf(site) != "" ||
		!c.slots.lookupDue(site, c.cfg.Now()) {
		return true, nil
	}
	addr, err := c.cfg.Resolve(ctx, lease.Entry.URL)
	if ctx.Err() != nil {
		return false, c.handBack(lease, ticket, slot, time.Time{})
	}
	if err != nil || addr == "" {
		c.slots.lookupFailed(site, c.cfg.Now().Add(lookupRetry))
		return true, nil
	}
	c.slots.learn(site, addr)
	if c.slots.addAddress(slot, site, addr) {
		return true, nil
	}
	return false, c.handBack(lease, ticket, slot, c.cfg.Now().Add(domainWait))
}

// handBack returns a lease that will not be fetched now, with its slots
// and its bandwidth reservation; its site is ready again at notBefore.
func (c *Crawler) handBack(lease *frontier.Lease, ticket *bandwidth.Ticket, slot *held, notBefore time.Time) error {
	ticket.Cancel()
	c.slots.release(*slot)
	*slot = held{}
	if err := c.p.Queue.Return(lease, notBefore); err != nil {
		return fmt.Errorf("frontier return %s: %w", lease.Entry.URL, err)
	}
	return nil
}

// lookupRetry is how long a site whose address lookup failed goes without
// another: its leases meanwhile are bound by its domain alone, and a
// connection that succeeds tells its address.
const lookupRetry = 5 * time.Minute

// domainWait is how long a site refused for its domain's or its address's
// bound is passed over before it is looked at again: short, since a slot
// may free meanwhile and stand idle until the site is back.
const domainWait = 50 * time.Millisecond

// domainSearchDepth is how far down the ready sites next looks for one
// whose registered domain and address have a free connection
// (Config.DomainConnections, Config.AddressConnections). The search
// costs about its square in comparisons per lease (topReady); sites it
// refuses are postponed (domainWait), so the next search sees the ones
// below them.
const domainSearchDepth = 16

// errPagesSpent is returned by process when MaxPages left no request for
// its lease, which it handed back.
var errPagesSpent = errors.New("crawl: max_pages reached")

// budgetSpent returns why the job must stop taking work, "" if it need not.
func (c *Crawler) budgetSpent() string {
	switch {
	case c.cfg.MaxPages > 0 && c.before.Fetches+c.reserved.Load() >= int64(c.cfg.MaxPages):
		return StopPages
	case c.cfg.MaxBytes > 0 && c.before.Bytes+c.received.Load() >= c.cfg.MaxBytes:
		return StopBytes
	}
	return ""
}

// reserveRequest counts one request against MaxPages before it is sent,
// so that the budget is exact however many workers run. It reports false
// when none is left. A request that gets no response gives its place back
// (unreserve).
func (c *Crawler) reserveRequest() bool {
	n := c.reserved.Add(1)
	if c.cfg.MaxPages > 0 && c.before.Fetches+n > int64(c.cfg.MaxPages) {
		c.reserved.Add(-1)
		return false
	}
	return true
}

func (c *Crawler) unreserve() { c.reserved.Add(-1) }

// elapsed is the job's running time over all runs, the time paused left
// out.
func (c *Crawler) elapsed() time.Duration {
	if c.started.IsZero() {
		return c.before.Elapsed
	}
	return c.before.Elapsed + time.Since(c.started) - (c.pausedFor() - c.pausedBefore)
}

// Stats returns a snapshot of the crawl's counters.
func (c *Crawler) Stats() Snapshot {
	s := c.stats.snapshot(c.p.Queue.Stats())
	s.PauseReason, s.Paused = c.Paused()
	return s
}

// holdRecovered tells the gate that a fetch of each site whose lease the
// frontier put back at its start (a kill, a crash) may have ended just
// now: the request was in flight when the previous run ended, and the
// server saw it end at the kill. Without it a crawl started again at once
// asked the site again within the start's own time (0.3 to 0.5 s under a
// 5 s delay; TestPoliteRestartAfterKill).
func (c *Crawler) holdRecovered() {
	q, ok := c.p.Queue.(interface{ RecoveredSites() []string })
	if !ok {
		return
	}
	g, ok := c.p.Gate.(interface {
		Hold(host string, end time.Time)
	})
	if !ok {
		return
	}
	now := time.Now()
	for _, site := range q.RecoveredSites() {
		g.Hold(site, now)
	}
}

// SameProfile says that the generation before this one crawled with the
// same profile (frontier.Queue.MarkProfile), so that the capture a 304
// stands for had its links decided under the rules in force now: a 304
// then reads no links from it (captureLinks), which costs about 40% of the
// CPU of a re-crawl generation (BenchmarkRecrawlLoopback, BENCHMARKS.md).
// Without it, or with false, each 304 reads them.
func (c *Crawler) SameProfile(same bool) { c.sameProfile.Store(same) }

// heldKey carries a worker's *held into process, whose page fetch moves
// it to the address its connection reaches (serverSlots.moveTo).
type heldKey struct{}
