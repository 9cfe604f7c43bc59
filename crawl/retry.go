package crawl

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
)

// failure is a fetch that may go better later.
type failure struct {
	status int           // the crawl.log code: an HTTP status or a negative code
	site   bool          // the whole site failed, not just the URL
	after  time.Duration // the server's Retry-After; 0 if none
	at     time.Time     // a retry time decided elsewhere (robots.txt); zero if none
	why    string        // annotation for crawl.log
	usage  frontier.Usage
	recut  bool // the body came cut: Entry.Recut is set, so it is fetched again for that once only
	noHost bool // the host's name does not resolve (noSuchHost)
	// recheck: the URL was its server's re-check try, which the failure
	// spends as a fetch does (crawl.maxRecheckTries).
	recheck *frontier.Recheck
}

// retry defers a failed URL (DESIGN.md, "Failures"): it goes back to the
// queue with one more try counted, to be fetched again after a delay that
// grows with each try, and gets a crawl.log line that says so. After the
// last try it is recorded as failed instead (code -8); a site-wide failure
// then also gives up on the site's other queued URLs until MaxDelay has
// passed, so that a dead host with a long queue does not spend the whole
// retry schedule on each of its URLs.
func (c *Crawler) retry(l *frontier.Lease, worker int, f failure) error {
	e := l.Entry
	now := c.cfg.Now()
	tries := e.Tries + 1
	if tries >= c.cfg.Retries.Max {
		if f.site {
			c.dead.add(deadKey(e, f), now, now.Add(c.cfg.Retries.MaxDelay), fmt.Sprintf("%d", f.status))
		}
		annot := []string{fmt.Sprintf("gave-up:%d-tries", tries), fmt.Sprintf("last:%d", f.status), f.why}
		return c.finish(l, worker, outcome{status: codeGaveUp, failed: true, annot: annot}, frontier.Completion{Usage: f.usage, Recheck: f.recheck})
	}
	at := f.at
	if at.IsZero() {
		at = now.Add(c.backoff(tries, f.after))
	}
	e.Tries, e.RetryAt = tries, at
	e.Recut = e.Recut || f.recut
	d := frontier.Deferral{Entry: e, Tail: !f.site, NotBefore: at, Usage: f.usage, Recheck: f.recheck}
	if !f.site {
		// The URL's own failure: the site goes on with its other work
		// after the usual delay.
		d.NotBefore = now.Add(c.p.Gate.Delay(e.Site))
	}
	d.Usage.Elapsed = c.elapsed()
	if c.p.CrawlLog != nil { // before the requeue, as finish does
		out := outcome{status: f.status, annot: []string{
			fmt.Sprintf("retry:%d/%d", tries, c.cfg.Retries.Max), "at:" + at.UTC().Format(time.RFC3339), f.why}}
		if err := c.p.CrawlLog.Write(now, worker, e, out); err != nil {
			return err
		}
	}
	if err := c.p.Queue.Requeue(l, d); err != nil {
		return fmt.Errorf("frontier requeue %s: %w", e.URL, err)
	}
	c.stats.deferred.Add(1)
	c.stats.mu.Lock()
	c.stats.retries[f.status]++
	c.stats.mu.Unlock()
	c.p.Log.Debug("deferred", "url", e.URL, "status", f.status, "err", f.why)
	return nil
}

// siteFailed reports whether a fetch of e that got no response (err) is
// its site's failure rather than the URL's: no connection could be made
// (fetch.ConnectError: no request reached the server), or the connection
// carried the request and was lost or timed out before a response for a
// second URL of the origin in a row. One URL whose back end crashes (the
// connection closed before any byte, as an nginx 444 does) is the URL's
// own failure: as a site's, each of its tries held the whole site back and
// the last gave up every queued URL of a site that answered all of them (a
// review). A server that accepts connections and answers none fails two
// URLs in a row and is given up as a dead one is.
func (c *Crawler) siteFailed(e frontier.Entry, err error) bool {
	if connectFailed(err) {
		return true
	}
	return c.lost.lost(origin(e), e.URL, c.cfg.Now(), c.cfg.Retries.MaxDelay)
}

// connectFailed reports whether err came before a request reached the
// server: in dialling (the name's lookup included) or in the TLS
// handshake (fetch.ConnectError, or the net package's dial and lookup
// errors, as other fetchers return them).
func connectFailed(err error) bool {
	var ce *fetch.ConnectError
	var op *net.OpError
	var dns *net.DNSError
	return errors.As(err, &ce) || errors.As(err, &op) && op.Op == "dial" || errors.As(err, &dns)
}

// lostURLs remembers, per origin, the last URL whose fetch was lost before
// a response, until the origin answers one. Keyed by origin, under the
// site like all the engine's per-site state. An origin that never answers
// again (its last URL given up) would stay for good; lost sweeps out
// those lost longer ago than the retry schedule's longest wait whenever
// the map has doubled since the last sweep, as deadSites does. Safe for
// concurrent use.
type lostURLs struct {
	mu    sync.Mutex
	last  map[string]lostURL
	sweep int // the size at which lost next sweeps
}

type lostURL struct {
	url string
	at  time.Time
}

// lost records a fetch of url lost before a response at now and reports
// whether the origin's last fetch was another URL lost so, within within.
func (l *lostURLs) lost(origin, url string, now time.Time, within time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	prev, ok := l.last[origin]
	if len(l.last) >= max(l.sweep, deadSweepMin) {
		for k, v := range l.last {
			if now.Sub(v.at) > within {
				delete(l.last, k)
			}
		}
		l.sweep = 2 * len(l.last)
	}
	l.last[origin] = lostURL{url, now}
	return ok && prev.url != url && now.Sub(prev.at) <= within
}

// answered forgets the origin's lost URL: it answered a fetch.
func (l *lostURLs) answered(origin string) {
	l.mu.Lock()
	delete(l.last, origin)
	l.mu.Unlock()
}

// origin is the scheme and site of e, what a site-wide failure gives up
// on: http and https of one host are one site (one connection at a time,
// one delay), but a failure of one says nothing of the other. A trial: a
// host answering http whose https failed (TLS, robots.txt unavailable)
// had its http pages given up with it (site-gave-up:-61), and old
// servers that speak only http are common where links say https.
func origin(e frontier.Entry) string {
	scheme, _, _ := strings.Cut(e.URL, "://")
	return scheme + "://" + e.Site
}

// deadKey is what a site-wide failure on e's last try gives up on: its
// origin, or the whole site (both schemes) when its name did not resolve,
// which no scheme mends (a review: by origin alone, a host with no DNS
// spent every retry twice).
func deadKey(e frontier.Entry, f failure) string {
	if f.noHost {
		return e.Site
	}
	return origin(e)
}

// noSuchHost reports whether a fetch error says the host's name does not
// exist: read from the error itself, not from its annotation, which is
// cut at 200 bytes, before the words for a long URL (a review).
func noSuchHost(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.IsNotFound
	}
	return err != nil && strings.Contains(err.Error(), "no such host")
}

// backoff is the wait before try number tries+1: Retries.Delay doubled for
// each try after the first, or the server's Retry-After, both capped at
// Retries.MaxDelay.
func (c *Crawler) backoff(tries int, after time.Duration) time.Duration {
	if after > 0 {
		return min(after, c.cfg.Retries.MaxDelay)
	}
	d := c.cfg.Retries.Delay
	for i := 1; i < tries && d < c.cfg.Retries.MaxDelay; i++ {
		d *= 2
	}
	return min(d, c.cfg.Retries.MaxDelay)
}

// retryable reports whether an HTTP status is worth another try: a server
// error, or 429 Too Many Requests. 501 Not Implemented and 505 HTTP
// Version Not Supported will not change.
func retryable(status int) bool {
	switch {
	case status == http.StatusTooManyRequests:
		return true
	case status == http.StatusNotImplemented || status == http.StatusHTTPVersionNotSupported:
		return false
	}
	return status >= 500 && status <= 599
}

// retryAfter reads a Retry-After value (RFC 9110 section 10.2.3): seconds,
// or an HTTP date, relative to now. It returns 0 for none or a bad value.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, int64(365*24*3600))) * time.Second
	} else if strings.Trim(v, "0123456789") == "" {
		// All digits, too many for an int64: as long as can be (the
		// caller caps it at retries.max_delay), not none.
		return 365 * 24 * time.Hour
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// permanent reports whether a fetch error will not go away with time: the
// URL is unusable, its address is refused by the guard, or the server
// answers with something that is not HTTP or breaks the client's limits.
func permanent(err error) bool {
	for _, p := range []error{fetch.ErrUnsupportedScheme, fetch.ErrUnsupportedMethod, fetch.ErrAddressRefused,
		fetch.ErrURLTooLong, fetch.ErrMalformedResponse, fetch.ErrTooManyHeaderFields, fetch.ErrHeaderTooLarge} {
		if errors.Is(err, p) {
			return true
		}
	}
	return false
}

// deadSites remembers the sites given up on after their last retry, until
// a deadline. Keyed by origin (scheme and site), under the site like all
// the engine's per-site state. Safe
// for concurrent use. A site none of whose URLs comes up again after its
// deadline would stay for good; add sweeps out the expired ones whenever
// the map has doubled since the last sweep, so a weeks-long crawl that
// meets many dead hosts holds only those given up on lately.
type deadSites struct {
	mu    sync.Mutex
	until map[string]time.Time
	why   map[string]string
	sweep int // the size at which add next sweeps
}

// deadSweepMin is the smallest size at which add sweeps.
const deadSweepMin = 1024

func (d *deadSites) add(site string, now, until time.Time, why string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.why == nil {
		d.why = map[string]string{}
	}
	if len(d.until) >= max(d.sweep, deadSweepMin) {
		for s, t := range d.until {
			if !now.Before(t) {
				delete(d.until, s)
				delete(d.why, s)
			}
		}
		d.sweep = 2 * len(d.until)
	}
	d.until[site], d.why[site] = until, why
}

// check reports whether site is given up on at now, and why.
func (d *deadSites) check(site string, now time.Time) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.until[site]
	if !ok {
		return "", false
	}
	if !now.Before(t) {
		delete(d.until, site)
		delete(d.why, site)
		return "", false
	}
	return d.why[site], true
}
