package politeness

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sync/singleflight"

	"github.com/langcrawl/langcrawl/internal/hostmatch"
)

// RobotsFetcher fetches a robots.txt URL such as
// "https://example.com/robots.txt". The engine implements it with its
// archiving HTTP client, so that robots.txt responses land in the WARC too.
//
// Contract:
//   - It follows redirects itself, up to five hops (RFC 9309 section
//     2.3.1.2), and returns the status of the last response. A 3xx status
//     means the chain was longer; the gate then treats robots.txt as
//     unavailable and allows everything.
//   - body is the body of that last response. The fetcher should stop
//     reading at a limit of its choosing (at least MaxRobotsSize); the gate
//     parses only the first MaxRobotsSize bytes in any case.
//   - err != nil means no HTTP status was obtained: DNS failure, refused or
//     reset connection, timeout. status and body are then ignored.
//   - It must honour ctx. It is called at most once at a time per robots.txt
//     URL, possibly from many goroutines for different URLs.
type RobotsFetcher func(ctx context.Context, robotsURL string) (status int, body []byte, err error)

// ErrLocal marks a RobotsFetcher error on this side, not the server's (the
// robots.txt response could not be archived or logged: a full or
// read-only disk). The gate does not take it for robots.txt being
// unavailable: it caches nothing, and Check returns the error, so the
// crawl stops instead of deferring the site's URLs as if the server were
// down.
var ErrLocal = errors.New("local failure, not the server's")

// ErrUnsupportedURL is returned by Check for a URL that is nil, not http or
// https, or has no host.
var ErrUnsupportedURL = errors.New("politeness: unsupported URL")

// Decision is the answer of Check for one URL.
type Decision struct {
	// Allowed reports whether the URL may be fetched.
	Allowed bool
	// Reason says why, for logs and WARC metadata, e.g.
	// "robots: disallowed by https://example.com/robots.txt for langcrawl".
	Reason string
	// CrawlDelay is the Crawl-delay that robots.txt sets for us, capped at
	// Config.MaxCrawlDelay; 0 if none. Delay gives the effective delay.
	CrawlDelay time.Duration
	// Unavailable reports that robots.txt could not be fetched (5xx, 429,
	// a network error or an unparseable body, RFC 9309 section 2.3.1.4):
	// the URL is not allowed now, but not disallowed either. The caller
	// should try again at RetryAt.
	Unavailable bool
	// RetryAt is when robots.txt will be fetched again, for an
	// Unavailable decision; zero otherwise.
	RetryAt time.Time
}

// RetryLater may be returned as the error of a [RobotsFetcher] for a 429 or
// 5xx response that carried Retry-After: the gate then treats it as that
// status and waits After (capped) before it fetches robots.txt again.
type RetryLater struct {
	Status int
	After  time.Duration
}

func (r *RetryLater) Error() string {
	return fmt.Sprintf("status %d, retry after %v", r.Status, r.After)
}

// Stats are running totals, for the engine to export as metrics.
type Stats struct {
	RobotsFetches int64 // calls of the RobotsFetcher
	RobotsErrors  int64 // fetches that ended in 5xx, 429, a network error or an unparseable body
	CacheHits     int64 // Checks answered from the robots cache without fetching
	Restored      int64 // outcomes taken from Config.Store instead of fetching (after a restart)
	Allowed       int64 // Checks that allowed
	Disallowed    int64 // Checks that disallowed
	CachedRobots  int   // entries in the robots cache now
	AcquireWaits  int64 // Acquire calls that had to wait for a site
}

// Gate is the politeness gate: robots.txt with a per-origin cache, and
// per-site delays with one fetch at a time per site. Create it with New. A
// Gate is safe for concurrent use.
type Gate struct {
	cfg    Config
	token  string
	fetch  RobotsFetcher
	flight singleflight.Group

	mu      sync.Mutex
	robots  *lru[string, *entry]        // by robots.txt URL
	delays  *lru[string, time.Duration] // capped Crawl-delay by host and scheme (delayKey)
	busy    *lru[string, int]           // doublings of the delay of hosts that answered 429 or 503
	sites   map[string]*site            // Acquire state by host
	sweepAt int                         // len(sites) that triggers a sweep

	fetches, robotsErrors, cacheHits, allowed, disallowed, waits atomic.Int64
	restored                                                     atomic.Int64
}

// New returns a Gate for cfg, which it copies after filling in defaults.
// It reports every problem of cfg at once, each wrapping ErrInvalidConfig.
// fetch may be nil only with the Ignore policy. New starts no goroutines.
func New(cfg Config, fetch RobotsFetcher) (*Gate, error) {
	cfg, err := cfg.withDefaults()
	obeys := cfg.Policy != Ignore
	for _, r := range cfg.Hosts {
		obeys = obeys || r.Policy == Obey
	}
	if fetch == nil && obeys {
		err = errors.Join(err, fmt.Errorf("%w: nil robots fetcher with policy %q", ErrInvalidConfig, cfg.Policy))
	}
	if err != nil {
		return nil, err
	}
	return &Gate{
		cfg:     cfg,
		token:   CrawlerToken(cfg.UserAgent),
		fetch:   fetch,
		robots:  newWeighedLRU[string](cfg.MaxHosts, cfg.MaxCacheBytes, func(e *entry) int64 { return e.size }),
		delays:  newLRU[string, time.Duration](2 * cfg.MaxHosts), // a host's http and https files
		busy:    newLRU[string, int](cfg.MaxHosts),
		sites:   make(map[string]*site),
		sweepAt: minSweep,
	}, nil
}

// Config returns the configuration in force, with defaults filled in.
func (g *Gate) Config() Config { return g.cfg }

// Check decides whether u may be fetched, fetching robots.txt for u's
// origin first if it is not cached or has expired. now is the cache clock:
// entries fetched at t are used while now < t + CacheTTL (or t +
// RetryAfterError after an error).
//
// A robots.txt that cannot be fetched is an outcome, not an error: the
// Decision disallows and says why. Check returns an error only for a URL it
// cannot judge (ErrUnsupportedURL), when ctx ends while it waits for
// robots.txt, and for a fetch that failed on this side (ErrLocal). Check records the Crawl-delay it finds for u.Host, which Delay
// and Acquire then use.
func (g *Gate) Check(ctx context.Context, u *url.URL, now time.Time) (Decision, error) {
	robotsURL, err := robotsURLOf(u)
	if err != nil {
		return Decision{}, err
	}
	policy := g.cfg.Policy
	if r, ok := hostmatch.Lookup(g.cfg.Hosts, u.Host); ok && r.Policy != "" {
		policy = r.Policy
	}
	if policy == Ignore {
		g.allowed.Add(1)
		return Decision{Allowed: true, Reason: "robots: ignored by policy"}, nil
	}
	if u.EscapedPath() == "/robots.txt" {
		g.allowed.Add(1)
		return Decision{Allowed: true, Reason: "robots: /robots.txt is always allowed"}, nil
	}
	e, err := g.entry(ctx, robotsURL, now)
	if err != nil {
		return Decision{}, fmt.Errorf("politeness: check %s: %w", u, err)
	}
	cd := min(e.rules.crawlDelay, g.cfg.MaxCrawlDelay)
	g.noteDelay(siteKey(u.Host), u.Scheme, cd)

	d := Decision{CrawlDelay: cd}
	switch e.verdict {
	case allowAll:
		d.Allowed, d.Reason = true, e.reason
	case unavailable:
		d.Reason, d.Unavailable, d.RetryAt = e.reason, true, e.expires
	default:
		d.Allowed = e.rules.allowed(matchKey(matchPath(u)))
		if d.Allowed {
			d.Reason = e.reason
		} else {
			d.Reason = e.denyReason
		}
	}
	if d.Allowed {
		g.allowed.Add(1)
	} else {
		g.disallowed.Add(1)
	}
	return d, nil
}

// Stats returns running totals. It is safe to call at any time.
func (g *Gate) Stats() Stats {
	g.mu.Lock()
	n := g.robots.len()
	g.mu.Unlock()
	return Stats{
		RobotsFetches: g.fetches.Load(),
		RobotsErrors:  g.robotsErrors.Load(),
		CacheHits:     g.cacheHits.Load(),
		Restored:      g.restored.Load(),
		Allowed:       g.allowed.Load(),
		Disallowed:    g.disallowed.Load(),
		CachedRobots:  n,
		AcquireWaits:  g.waits.Load(),
	}
}

type verdict uint8

const (
	useRules verdict = iota
	allowAll
	unavailable
)

// entry is a cached robots.txt outcome for one origin. It is immutable.
type entry struct {
	verdict    verdict
	rules      rules
	reason     string // for allowAll and unavailable, and for allowed URLs under useRules
	denyReason string // for disallowed URLs under useRules
	expires    time.Time
	failures   int   // robots.txt failures in a row, for unavailable
	size       int64 // an estimate of its bytes in memory, for Config.MaxCacheBytes
}

// entryOverhead is what an entry costs besides its rules: the struct, its
// two reasons, the cache's list element and map slot.
const entryOverhead = 512

// bytes estimates the memory e holds: for each rule its place in the
// list, its parts' slice and its pattern, each rounded up as the
// allocator does, and the overhead of the entry.
func (e *entry) bytes() int64 {
	n := int64(entryOverhead + len(e.reason) + len(e.denyReason))
	n += int64(cap(e.rules.list)) * int64(unsafe.Sizeof(rule{}))
	for _, r := range e.rules.list {
		n += 16*int64(cap(r.parts)) + int64(r.n) + 32
	}
	return n
}

// entry returns the fresh cache entry for robotsURL, fetching it if needed.
// Concurrent callers for one robotsURL share one fetch.
func (g *Gate) entry(ctx context.Context, robotsURL string, now time.Time) (*entry, error) {
	if e := g.cached(robotsURL, now); e != nil {
		g.cacheHits.Add(1)
		return e, nil
	}
	if err := context.Cause(ctx); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", robotsURL, err)
	}
	ch := g.flight.DoChan(robotsURL, func() (any, error) {
		// A flight that ended just before this one began has filled the
		// cache; fetching again would be a double fetch.
		if e := g.cached(robotsURL, now); e != nil {
			return e, nil
		}
		g.mu.Lock()
		prev, _ := g.robots.get(robotsURL)
		g.mu.Unlock()
		e, stored := g.restore(robotsURL, now)
		if e != nil {
			return e, nil
		}
		if prev == nil {
			prev = stored // an expired failure before a restart: the run of failures goes on
		}
		// Detached from the first caller's ctx, so that its cancellation
		// does not fail the fetch for the others waiting on it.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), g.cfg.FetchTimeout)
		defer cancel()
		g.fetches.Add(1)
		began := time.Now()
		status, body, err := g.fetch(fctx, robotsURL)
		if errors.Is(err, ErrLocal) {
			// Not the server's failure: nothing is cached or stored,
			// and the caller stops (Check returns it).
			return nil, err
		}
		// A failure's wait runs from the end of the fetch, not its
		// start: a robots.txt that hung for a 30 s read timeout was
		// tried again at once under the default 30 s retries.delay.
		// Whole seconds of the caller's clock, so that a fetch that
		// takes no time leaves it as it was.
		ended := now.Add(time.Since(began).Truncate(time.Second))
		e = g.newEntry(robotsURL, status, body, err, ended, prev)
		g.mu.Lock()
		g.robots.put(robotsURL, e)
		g.mu.Unlock()
		if g.cfg.Store != nil {
			if rl := (*RetryLater)(nil); errors.As(err, &rl) {
				status = rl.Status
			} else if err != nil {
				status = 0
			}
			rec := Record{Fetched: ended, Expires: e.expires, Status: status, Failures: e.failures, Body: body[:min(len(body), MaxRobotsSize)]}
			_ = g.cfg.Store.Save(robotsURL, rec) // best effort: without it, a restart fetches again
		}
		return e, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.(*entry), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for %s: %w", robotsURL, context.Cause(ctx))
	}
}

// restore returns the stored outcome for robotsURL rebuilt as a cache
// entry if it is still fresh at now. If it has expired and was a failure,
// it returns instead an entry that carries only the count of failures in
// a row, for the next one's delay.
func (g *Gate) restore(robotsURL string, now time.Time) (fresh, failed *entry) {
	if g.cfg.Store == nil {
		return nil, nil
	}
	rec, ok, err := g.cfg.Store.Load(robotsURL)
	if err != nil || !ok {
		return nil, nil
	}
	if !now.Before(rec.Expires) {
		if rec.Failures > 0 {
			return nil, &entry{verdict: unavailable, failures: rec.Failures}
		}
		return nil, nil
	}
	var ferr error
	if rec.Status == 0 {
		ferr = errors.New("unreachable, as stored before a restart")
	}
	var prev *entry
	if rec.Failures > 1 {
		prev = &entry{verdict: unavailable, failures: rec.Failures - 1}
	}
	e := g.newEntry(robotsURL, rec.Status, rec.Body, ferr, rec.Fetched, prev)
	e.expires = rec.Expires
	g.restored.Add(1)
	g.mu.Lock()
	g.robots.put(robotsURL, e)
	g.mu.Unlock()
	return e, nil
}

// cached returns the entry for robotsURL if it is fresh at now, else nil.
func (g *Gate) cached(robotsURL string, now time.Time) *entry {
	g.mu.Lock()
	defer g.mu.Unlock()
	if e, ok := g.robots.get(robotsURL); ok && now.Before(e.expires) {
		return e
	}
	return nil
}

// newEntry turns a fetch outcome into a cache entry (RFC 9309 section
// 2.3.1), its size estimated. prev is the entry it replaces, nil if none.
func (g *Gate) newEntry(robotsURL string, status int, body []byte, err error, now time.Time, prev *entry) *entry {
	e := g.makeEntry(robotsURL, status, body, err, now, prev)
	e.size = e.bytes()
	return e
}

func (g *Gate) makeEntry(robotsURL string, status int, body []byte, err error, now time.Time, prev *entry) *entry {
	var after time.Duration // the server's Retry-After, if it sent one
	if rl := (*RetryLater)(nil); errors.As(err, &rl) {
		status, after, err = rl.Status, max(rl.After, 0), nil
	}
	fail := func(why string) *entry {
		g.robotsErrors.Add(1)
		n := 1
		if prev != nil && prev.verdict == unavailable {
			n = prev.failures + 1
		}
		wait := after
		if wait == 0 {
			wait = g.cfg.RetryAfterError
			for i := 1; i < n && wait < g.cfg.MaxRetryDelay; i++ {
				wait *= 2
			}
		}
		until := now.Add(min(wait, g.cfg.MaxRetryDelay))
		return &entry{
			verdict:  unavailable,
			reason:   fmt.Sprintf("robots: %s %s, failure %d, retry at %s", robotsURL, why, n, until.UTC().Format(time.RFC3339)),
			expires:  until,
			failures: n,
		}
	}
	allow := func(why string) *entry {
		return &entry{
			verdict: allowAll,
			reason:  fmt.Sprintf("robots: %s %s, allow all", robotsURL, why),
			expires: now.Add(g.cfg.CacheTTL),
		}
	}
	switch {
	case err != nil:
		return fail(fmt.Sprintf("unreachable (%v)", err))
	case status >= 200 && status <= 299:
		r, perr := parseRobots(body, g.token)
		if perr != nil {
			return fail(fmt.Sprintf("unparseable (%v)", perr))
		}
		return &entry{
			verdict:    useRules,
			rules:      r,
			reason:     "robots: allowed by " + robotsURL,
			denyReason: "robots: disallowed by " + robotsURL + " for " + g.token,
			expires:    now.Add(g.cfg.CacheTTL),
		}
	case status >= 300 && status <= 399:
		return allow(fmt.Sprintf("still %d after redirects, treated as unavailable", status))
	case status == 429:
		// 429 asks us to slow down; treating it as "allow all" would do the
		// opposite. Like Google, treat it as a server error.
		return fail("returned 429")
	case status >= 400 && status <= 499:
		return allow(fmt.Sprintf("returned %d", status))
	case status >= 500 && status <= 599:
		return fail(fmt.Sprintf("returned %d", status))
	default:
		return fail(fmt.Sprintf("returned unexpected status %d", status))
	}
}

// robotsURLOf returns the robots.txt URL of u's origin, which is also the
// cache key: lower-case scheme and host, default port left out.
func robotsURLOf(u *url.URL) (string, error) {
	if u == nil {
		return "", fmt.Errorf("%w: nil", ErrUnsupportedURL)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%w: %s: scheme is not http or https", ErrUnsupportedURL, u)
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", fmt.Errorf("%w: %s: no host", ErrUnsupportedURL, u)
	}
	port := u.Port()
	if port == "" || scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		return scheme + "://" + host + "/robots.txt", nil
	}
	return scheme + "://" + net.JoinHostPort(host, port) + "/robots.txt", nil
}

// matchPath returns the part of u that robots.txt rules match: the escaped
// path, "/" if empty, and the query if any.
func matchPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	return p
}
