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
	Complete(l *frontier.Lease, c frontier.Completion) error
	Return(l *frontier.Lease, notBefore time.Time) error
	PushMany(es []frontier.Entry) (int, error)
	MarkSeen(url string) (bool, error)
	DropSite(site string) (int, error)
	Counts(key string) (frontier.Counts, error)
	Stats() frontier.Stats
}

// Archive is what the engine needs of the WARC writer.
type Archive interface {
	WriteExchange(ex *archive.Exchange) (archive.Ref, error)
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
}

// Detector identifies the charset and language of a page.
type Detector interface {
	Detect(body []byte, contentType string) detect.Result
}

// Config tunes the engine. The cmd package fills it from config.Config.
type Config struct {
	Workers         int           // r; default 16
	MaxPages        int           // stop after this many fetches; 0: no limit
	MaxTime         time.Duration // stop taking work after this long; 0: no limit
	MaxPagesPerSite int           // fetches per site (requisites excluded); 0: no limit
	Requisites      bool          // fetch page requisites so pages replay
	Scope           scope.Decider // depth limit, query rule, trap guards
	Focus           *focus.Policy // nil: no focusing (every page counts as relevant)
	// MaxParse bounds how much of a decoded body is parsed for links and
	// language; default 8 MiB.
	MaxParse int64
	// Now is the clock; default time.Now.
	Now func() time.Time
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

	fetched atomic.Int64 // fetches started, for MaxPages
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
	if p.Queue == nil || p.Archive == nil || p.Fetcher == nil || p.Gate == nil || p.Detector == nil {
		return nil, errors.New("crawl: Parts needs Queue, Archive, Fetcher, Gate and Detector")
	}
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	return &Crawler{cfg: cfg, p: p, pagesBefore: p.Queue.Stats().Pages, stats: newStats()}, nil
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
			errs = append(errs, fmt.Errorf("seed %q: %w", s, err))
			continue
		}
		es = append(es, frontier.Entry{
			URL: u.String(), Site: scope.SiteKey(u), Tree: scope.RegisteredDomain(u.Hostname()),
			Priority: frontier.High, Discovered: now,
		})
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	return c.p.Queue.PushMany(es)
}

// Why Run stopped.
const (
	StopDone     = "frontier empty"
	StopPages    = "max_pages reached"
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
	if c.cfg.MaxTime > 0 {
		t := time.AfterFunc(c.cfg.MaxTime, func() { stop(errors.New(StopTime)) })
		defer t.Stop()
	}
	inflight := context.WithoutCancel(ctx)

	g, gctx := errgroup.WithContext(work)
	for i := 0; i < c.cfg.Workers; i++ {
		id := i + 1
		g.Go(func() error { return c.worker(gctx, inflight, id, stop) })
	}
	err := g.Wait()
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
		lease, wait, err := c.p.Queue.Next(c.cfg.Now())
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
			case <-time.After(wait):
			}
			continue
		}
		if c.cfg.MaxPages > 0 && !lease.Entry.Requisite && c.fetched.Load() >= int64(c.cfg.MaxPages) {
			// The limit is reached: hand the URL back for a later run.
			if err := c.p.Queue.Return(lease, time.Time{}); err != nil {
				return fmt.Errorf("frontier return %s: %w", lease.Entry.URL, err)
			}
			stop(errors.New(StopPages))
			return nil
		}
		if err := c.process(inflight, id, lease); err != nil {
			return err
		}
	}
}

// Stats returns a snapshot of the crawl's counters.
func (c *Crawler) Stats() Snapshot { return c.stats.snapshot(c.p.Queue.Stats()) }
