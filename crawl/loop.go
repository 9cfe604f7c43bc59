package crawl

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/links"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
)

// Status codes for crawl.log lines that have no HTTP status, after
// Heritrix's FetchStatusCodes so existing log tools read them.
const (
	codeConnectFailed = -2    // could not connect
	codeConnectLost   = -3    // connection lost before a response (or, on a deferred try, in the middle of a page's body)
	codeTimeout       = -4    // no response in time
	codeGaveUp        = -8    // failed after the last retry (Heritrix: too many retries)
	codeUnusableURL   = -7    // the URL cannot be fetched: its scheme, its length (Heritrix: illegal URI)
	codeAddress       = -5010 // the address guard refused the host's address (loopback, private, ...)
	codeSiteBudget    = -5002 // max_pages_per_site reached
	codeFocusSkip     = -5003 // server turned irrelevant (Tamura 4.1)
	codeExcluded      = -5004 // excluded by a scope rule added after the URL was queued
	codeRobotsError   = -61   // robots.txt could not be evaluated
	codeRobots        = -9998 // disallowed by robots.txt
)

// outcome is what one URL came to; it becomes a crawl.log line and counters.
type outcome struct {
	status   int
	bytes    int64
	mime     string
	dur      time.Duration
	started  time.Time
	digest   string
	annot    []string
	det      *detect.Result
	relevant bool
	page     bool // an HTML page that counted toward N_a
	// reseeded: a seed of this generation queued from the history as a
	// link; a 304 decides its capture's links again, as a seed's.
	reseeded bool
	failed   bool // given up on: no more retries, or a failure no retry can mend
}

// drainCut puts a URL whose fetch the stop's drain cut (Config.Drain)
// back in the queue, untried, for the next run, its site eligible at
// notBefore (zero: at once). A request cut in flight reached the server:
// its site waits its delay after the cut, at the next start too.
func (c *Crawler) drainCut(l *frontier.Lease, notBefore time.Time) error {
	c.handedBack.Add(1)
	if err := c.p.Queue.Return(l, notBefore); err != nil {
		return fmt.Errorf("frontier return %s: %w", l.Entry.URL, err)
	}
	return nil
}

// process takes one leased URL down the whole data path. It returns an error
// only for infrastructure failures; every fetch outcome is completed in the
// frontier and logged.
func (c *Crawler) process(ctx context.Context, worker int, l *frontier.Lease, bw *bandwidth.Ticket) error {
	e := l.Entry
	u, err := url.Parse(e.URL)
	if err != nil { // cannot happen for URLs the engine queued; do not lose the lease
		return c.finish(l, worker, outcome{status: codeConnectFailed, annot: []string{"bad-url"}}, frontier.Completion{})
	}

	// 0. A scope exclusion added while the crawl runs (the status page,
	// the action directory) applies to URLs queued before it, too.
	// The URL leaves the seen set: once the operator lifts the rule, a
	// link or a seed may queue it again (crawl.log lists it, -5004).
	if why := c.cfg.Scope.Excluded(u); why != "" {
		return c.finish(l, worker, outcome{status: codeExcluded, annot: []string{"scope:" + why}},
			frontier.Completion{Unsee: true, UnseeVariant: scope.SeenKey(u)})
	}
	// A URL a link admitted is held to the profile's include rules, seed
	// scopes, depth limit and trap guards as they are now: a new
	// generation queues again the known URLs of the earlier ones, which
	// an older profile admitted (a re-crawl review: a profile whose
	// include rules or depth limit had narrowed fetched them all again).
	// A link found in this run was decided so already, and is again.
	reseeded := false
	if why, seed, err := c.outOfScope(e, u); err != nil {
		return err
	} else if seed {
		reseeded = true
		l.Entry.Hops, l.Entry.Via, l.Entry.Depth, l.Entry.Tree = "", "", 0, scope.RegisteredDomain(u.Hostname())
		l.Entry.Requisite = false
		l.Entry.Priority = frontier.High
		e = l.Entry
	} else if why != "" {
		return c.finish(l, worker, outcome{status: codeExcluded, annot: []string{"scope:" + why}},
			frontier.Completion{Unsee: true, UnseeVariant: scope.SeenKey(u)})
	}

	// 1. Focus: skip a URL whose server turned irrelevant after it was
	// queued (Tamura section 4.1). Requisites are exempt: the pages that
	// embed them were archived and must replay (keptRequisite).
	pol := c.policy()
	key := c.focusKey(u)
	// The key's counters, read once: the site lease keeps them still
	// until this URL completes.
	var counts focus.Counts
	if key != "" {
		n, err := c.p.Queue.Counts(key)
		if err != nil {
			return fmt.Errorf("frontier counts %s: %w", key, err)
		}
		counts = focus.Counts(n)
	}
	var recheck *frontier.Recheck // this URL is its server's re-check try
	if key != "" && !keptRequisite(e) && pol.Skip(counts, e.Priority == frontier.High) {
		if !c.rechecks(counts) {
			why := "focus:irrelevant-server"
			if strings.Contains(key, "/") {
				// conservative-directory's key, host/dir/: said as the
				// sequential strategy's directory skips say it (a trial
				// read "irrelevant-server" on a relevant server's /en/).
				why = "focus:" + focus.ReasonIrrelevantDir
			}
			return c.finish(l, worker, outcome{status: codeFocusSkip, annot: []string{why}}, frontier.Completion{})
		}
		// The server was judged irrelevant in an earlier generation and
		// has not been looked at in this one: this URL is fetched and
		// counted, so a server whose language changed to the target is
		// found (Config.Recheck).
		recheck = &frontier.Recheck{Key: key}
	}
	if key != "" && !keptRequisite(e) {
		// A foreign section of a relevant server (sequential strategy).
		why, err := c.skipDir(pol, key, counts, u)
		if err != nil {
			return err
		}
		if why != "" {
			return c.finish(l, worker, outcome{status: codeFocusSkip, annot: []string{why}}, frontier.Completion{})
		}
	}

	// 2. The trap guards: page budgets per site and per registered
	// domain, and the sites taken from one address (guards.go). A page
	// fetched is counted against them with its completion.
	over, guarded, err := c.trapGuards(l)
	if err != nil {
		return err
	}
	if over != nil {
		return c.finish(l, worker, *over, frontier.Completion{})
	}

	// 3. Failures earlier on: a URL put back behind its site's other work
	// waits for its own retry time; a site given up on after its last
	// retry fails at once until its wait runs out.
	now := c.cfg.Now()
	if now.Before(e.RetryAt) {
		return c.p.Queue.Requeue(l, frontier.Deferral{Entry: e, NotBefore: e.RetryAt})
	}
	why, ok := c.dead.check(origin(e), now)
	if !ok {
		why, ok = c.dead.check(e.Site, now) // given up on whatever the scheme: its name did not resolve
	}
	if ok {
		return c.finish(l, worker, outcome{status: codeGaveUp, failed: true, annot: []string{"site-gave-up:" + why}}, frontier.Completion{})
	}

	// 4. robots.txt (RFC 9309). One that cannot be fetched defers the URL
	// until the gate fetches it again (section 2.3.1.4); it never
	// disallows it.
	dec, err := c.p.Gate.Check(ctx, u, now)
	if errors.Is(err, politeness.ErrLocal) {
		// robots.txt could not be archived or logged: a disk failure
		// stops the crawl as a page's would, the lease left in flight.
		return err
	}
	if ctx.Err() != nil {
		// The stop's drain ran out while robots.txt was awaited.
		return c.drainCut(l, time.Time{})
	}
	if err != nil {
		return c.finish(l, worker, outcome{status: codeRobotsError, failed: true, annot: []string{"robots:" + err.Error()}}, frontier.Completion{})
	}
	if dec.Unavailable {
		return c.retry(l, worker, failure{status: codeRobotsError, site: true, at: dec.RetryAt, why: dec.Reason,
			noHost: strings.Contains(dec.Reason, "no such host")})
	}
	if !dec.Allowed {
		return c.finish(l, worker, outcome{status: codeRobots, annot: []string{dec.Reason}}, frontier.Completion{})
	}
	if h, ok := ctx.Value(heldKey{}).(*held); ok {
		// robots.txt, fetched in this lease on a connection no address
		// check saw, told the site's address (Answered), and the page
		// goes out on that kept-alive connection, which the fetch does
		// not check again: the lease is counted under that address now
		// (a review of the last commits: thirty sites whose lookup had
		// failed put three pages at once on an address bound to two).
		if ip := c.slots.addressOf(e.Site); ip != "" {
			if errors.Is(c.slots.moveTo(h, e.Site, ip), errAddressFull) {
				if err := c.p.Queue.Return(l, now.Add(domainWait)); err != nil {
					return fmt.Errorf("frontier return %s: %w", e.URL, err)
				}
				return nil
			}
		}
	}

	// 5. Fetch, holding the site's politeness slot: one connection per
	// site, and w between the end of one request and the next. The
	// request is counted against max_pages before it is sent.
	//
	// A site whose delay has not run out (the page after its robots.txt,
	// fetched in this lease, under a Crawl-delay) goes back to the queue
	// until it has, rather than wait here holding its domain's and its
	// address's slots: a politeness trial saw one site's 30 s Crawl-delay
	// hold the only slot of an address a 503 had lowered to one, and the
	// 50 other sites there wait 26 s.
	if wait := time.Until(c.p.Gate.Ready(e.Site)); wait > readyWait {
		// The gate measures its wait on the monotonic clock; the
		// frontier compares notBefore with the crawl's clock: the wait
		// is carried over, not the gate's time, or a step of the wall
		// clock hands the lease back at once, again and again (a review:
		// 21,079 give-backs in 0.8 s with the clock an hour ahead).
		if err := c.p.Queue.Return(l, c.cfg.Now().Add(wait)); err != nil {
			return fmt.Errorf("frontier return %s: %w", e.URL, err)
		}
		return nil
	}
	if !c.reserveRequest() {
		if err := c.p.Queue.Return(l, time.Time{}); err != nil {
			return fmt.Errorf("frontier return %s: %w", e.URL, err)
		}
		return errPagesSpent
	}
	release, err := c.p.Gate.Acquire(ctx, e.Site)
	if err != nil {
		// Only a cancelled context gets here (the stop's drain ran out
		// while the site's slot was awaited); keep the URL for later.
		c.unreserve()
		return c.drainCut(l, time.Time{})
	}
	hdr := http.Header{"Accept-Encoding": {"gzip"}}
	// An earlier capture of the URL (an earlier generation, or before a
	// restart) makes the request conditional.
	prev, known, err := c.p.Queue.History(e.URL)
	if err != nil {
		c.unreserve()
		release(time.Time{})
		return fmt.Errorf("frontier history %s: %w", e.URL, err)
	}
	asked := conditional(hdr, prev, known)
	fctx := ctx
	if h, ok := ctx.Value(heldKey{}).(*held); ok {
		// A new connection is counted under the address it reached
		// before the request goes out (serverSlots.moveTo).
		fctx = fetch.WithAddressCheck(ctx, func(ip string) error { return c.slots.moveTo(h, e.Site, ip) })
	}
	res, ferr := c.p.Fetcher.Do(fctx, http.MethodGet, e.URL, hdr)
	end := c.cfg.Now()
	release(end)
	defer res.Close() // a body too large for memory went to a temporary file
	if ctx.Err() != nil {
		// The stop's drain ran out during the fetch: what came of it
		// is cut short by the stop, not by the server, so none of it
		// is archived, logged or counted as a try.
		c.unreserve()
		return c.drainCut(l, end.Add(c.p.Gate.Delay(e.Site)))
	}
	if res != nil {
		c.lost.answered(origin(e))
		// The site's next leases count against the address it answered
		// from, and a busy answer gives that address's other sites fewer
		// fetches at once (as for robots.txt: RobotsFetcher).
		c.Answered(e.Site, res.IP, res.Status)
		// The measured rate updates the server's estimates (bandwidth
		// paper, section 3.2); a fetch with no response only frees its
		// reservation (the worker cancels the ticket).
		if err := bw.Done(end, res.Size(), res.Duration); err != nil {
			return fmt.Errorf("bandwidth estimates %s: %w", e.Site, err)
		}
	}
	done := frontier.Completion{NotBefore: end.Add(c.p.Gate.Delay(e.Site))}
	// Every try of a re-check counts, a failed one too (maxRecheckTries).
	done.Recheck = recheck
	if res == nil {
		c.unreserve()
		if errors.Is(ferr, errAddressFull) {
			// Connected to an address whose bound is under way, nothing
			// sent: no try, the lease back until a slot frees there.
			if err := c.p.Queue.Return(l, end.Add(domainWait)); err != nil {
				return fmt.Errorf("frontier return %s: %w", e.URL, err)
			}
			return nil
		}
		if errors.Is(ferr, fetch.ErrLocal) {
			// The crawler's own disk failed under the fetch: the crawl
			// stops as on a failed WARC write, the lease in flight and
			// fetched again on resume (a full disk says so).
			return fmt.Errorf("fetch %s: %w", e.URL, ferr)
		}
		f := failure{status: failureCode(ferr), site: c.siteFailed(e, ferr), why: "err:" + errString(ferr), noHost: noSuchHost(ferr), recheck: recheck}
		if n := fetch.Received(ferr); n > 0 {
			// A head refused or cut short: no response, but its bytes
			// count against MaxBytes and in the job's totals.
			c.received.Add(n)
			f.usage = frontier.Usage{Bytes: n}
			done.Usage = f.usage
		}
		if permanent(ferr) {
			return c.finish(l, worker, outcome{status: f.status, failed: true, annot: []string{f.why}}, done)
		}
		return c.retry(l, worker, f)
	}
	busy := isBusy(res.Status)
	c.p.Gate.Busy(e.Site, busy)
	done.NotBefore = end.Add(c.p.Gate.Delay(e.Site)) // after Busy: a busy server waits longer
	c.received.Add(res.Size())
	done.Usage = frontier.Usage{Fetches: 1, Bytes: res.Size()}
	// Only URLs that reached the server count against the site's budget.
	done.Budget = !e.Requisite
	done.Budgets = guarded
	if k, err := c.addressCounted(l, res.IP); err != nil {
		return err
	} else if k != "" {
		done.Budgets = append(done.Budgets, k)
	}
	var gaveUp bool
	if retryable(res.Status) {
		// 429 and 503 say the server is busy: the whole site waits, for
		// Retry-After if it sent one. Other 5xx are the URL's own: it goes
		// behind the site's other work. On the last try the response is
		// archived as it came, and the URL is recorded as failed.
		f := failure{status: res.Status, site: busy, recheck: recheck,
			after: retryAfter(res.Header.Get("Retry-After"), end), why: fmt.Sprintf("http:%d", res.Status), usage: done.Usage}
		if e.Tries+1 < c.cfg.Retries.Max {
			return c.retry(l, worker, f)
		}
		gaveUp = true
		if busy && f.after > 0 {
			// The last try's answer still asks the site to wait: its
			// other URLs are not fetched before Retry-After has passed
			// (they came after the busy delay alone, 2 s after a 429
			// that asked for 6 s).
			if at := end.Add(min(f.after, c.cfg.Retries.MaxDelay)); at.After(done.NotBefore) {
				done.NotBefore = at
			}
		}
	}
	if (res.Truncated == fetch.TruncatedDisconnect || res.Truncated == fetch.TruncatedTime) && res.Status >= 200 && res.Status < 300 &&
		!e.Recut && e.Tries+1 < c.cfg.Retries.Max {
		// The connection was closed or reset in the middle of the body
		// of a page: on the open web, often a passing failure. The cut
		// page is not archived on a first try; it is tried once more, so
		// that the whole page and its links are not lost to a reset. Only
		// once: a server whose Content-Length always promises more than
		// it sends would otherwise cost retries.max fetches of every
		// page. Cut again, it is archived as it came, marked truncated.
		// crawl.log says -3 (connection lost), not a 200 of no bytes.
		// Once is kept in the entry (Recut), not read from its tries: a
		// try spent on robots.txt or a 503 before took the page's retry
		// away (a hostile-server trial), and one left no room for the
		// retry's own try.
		// A body cut by a timeout (the server fell silent past
		// timeouts.read, or the fetch ran past timeouts.fetch) is tried
		// once more as well, and says -4: a crash trial's server, silent
		// mid-body on the first try of every third page, had 68 pages
		// archived cut and their links, to 23 hosts, lost.
		code := codeConnectLost
		if res.Truncated == fetch.TruncatedTime {
			code = codeTimeout
		}
		return c.retry(l, worker, failure{status: code, recut: true, recheck: recheck,
			why: fmt.Sprintf("truncated:%s,http:%d", res.Truncated, res.Status), usage: done.Usage})
	}
	out := outcome{status: res.Status, bytes: res.Size(), dur: res.Duration, started: res.Started,
		mime: mediaType(res.Header.Get("Content-Type")), failed: gaveUp, reseeded: reseeded}
	if recheck != nil {
		out.annot = append(out.annot, "focus:recheck")
		if res.Status >= 300 && res.Status < 400 && res.Status != http.StatusNotModified {
			// A redirect spends no try: its target is queued (a server
			// that moved from http to https between generations answers
			// every due URL so), and the re-check goes on until a page
			// or a failure. Before, three redirects spent the re-check
			// and the server, now Thai, was never found (a review).
			done.Recheck = nil
		}
	}
	if res.Status == http.StatusNotModified && asked {
		// The capture of an earlier visit still stands: a revisit record
		// that refers to it, and no body to parse. A 304 to a request that
		// was not conditional (no capture of the URL to stand on: its
		// earlier answer was a 404 or a redirect, or a revisit) is the
		// server's own, archived as it came.
		return c.notModified(l, worker, res, prev, out, done)
	}
	if known && prev.Status >= 200 && prev.Status < 300 && (res.Status == http.StatusNotFound || res.Status == http.StatusGone) {
		out.annot = append(out.annot, "gone")
		c.stats.gone.Add(1)
	}
	if gaveUp {
		out.annot = append(out.annot, fmt.Sprintf("gave-up:%d-tries", e.Tries+1))
	}
	if res.Truncated != "" {
		out.annot = append(out.annot, "truncated:"+res.Truncated)
	}
	if res.TLSVerifyError != "" {
		// Archived all the same (a library keeps what the site served);
		// the failure is on record in crawl.log and the metadata.
		out.annot = append(out.annot, "tls-unverified")
	}

	// 6. Understand the response: a redirect, an HTML page, or a stylesheet.
	var found []links.Link
	var invalid []archive.Field // outlink fields of references that do not resolve
	var meta []archive.Field
	var decl string // the language the page declares, per-link evidence (evidence.go)
	switch {
	case res.Status >= 300 && res.Status < 400:
		// Resolved as a browser follows it (WHATWG), not by net/url: a
		// tab, a backslash or a space in Location must not lose the page
		// it points to.
		raw := res.Header.Get("Location")
		loc, ok := links.Resolve(e.URL, raw)
		if !ok && strings.TrimSpace(raw) != "" {
			// Not an http(s) URL the crawl can follow: said in crawl.log,
			// so that a lost redirect target is never silent. One of
			// another scheme (ftp:) goes on to the scope rules, which
			// refuse it in the metadata record.
			out.annot = append(out.annot, "bad-location")
			if other, err := u.Parse(raw); err == nil && other.Scheme != "http" && other.Scheme != "https" {
				loc, ok = other.String(), true
			}
		}
		switch {
		case !ok || loc == e.URL:
		case redirectHops(e.Hops) >= maxRedirects:
			// A redirect chain this long is a loop or a trap: the target
			// is not followed, and crawl.log and the metadata say so.
			out.annot = append(out.annot, fmt.Sprintf("redirect-chain-limit:%d", maxRedirects))
			meta = append(meta, archive.Field{Name: "outlink", Value: loc + " R http/@Location rejected:redirect-chain-limit"})
		default:
			found = append(found, links.Link{URL: loc, Kind: redirectKind, Tag: "http", Attr: "Location"})
		}
	case res.Status >= 200 && res.Status < 300 && isHTML(out.mime):
		payload, perr := res.Payload(c.cfg.MaxParse)
		if perr != nil && len(payload) == 0 {
			out.annot = append(out.annot, "payload:"+cutNote(perr.Error()))
			break
		}
		if perr != nil {
			// Decoded in part (a gzip stream that ends early inside
			// whole framing): the part is read, and the page's line says
			// its links past the cut were not seen, as parse-truncated
			// does (a review found such a page logged as whole).
			out.annot = append(out.annot, "payload-truncated:"+cutNote(perr.Error()))
		}
		d := c.p.Detector.Detect(payload, res.Header.Get("Content-Type"))
		out.det, out.page = &d, true
		out.relevant = d.Relevant || c.cfg.Focus == nil
		text, derr := detect.Decode(payload, d.Charset)
		if derr != nil {
			text = payload
		}
		page := links.Extract(u, text, links.Options{QueryCharset: d.Charset})
		decl = declaredLang(res.Header.Get("Content-Language"), page.Lang)
		if c.cfg.MaxParse > 0 && int64(len(payload)) >= c.cfg.MaxParse {
			// Only the first MaxParse bytes were read for links and
			// language: said, as the link cap is, so that a curator
			// knows links past them were not seen (a trial: a 10 MB
			// page's last link was lost in silence). The page itself is
			// archived whole.
			out.annot = append(out.annot, fmt.Sprintf("parse-truncated:%d", c.cfg.MaxParse))
			meta = append(meta, archive.Field{Name: "parseTruncated", Value: strconv.FormatInt(c.cfg.MaxParse, 10)})
		}
		if page.Truncated {
			// Said in crawl.log and in the metadata record, so a curator
			// sees the page's links were cut, not that it had no more.
			out.annot = append(out.annot, fmt.Sprintf("links-truncated:%d", links.DefaultMaxLinks))
			meta = append(meta, archive.Field{Name: "linksTruncated", Value: strconv.Itoa(links.DefaultMaxLinks)})
		}
		for _, ln := range page.Invalid {
			// Listed as rejected, as any link not followed is, instead
			// of lost without a trace (a trap trial: a port out of
			// range, a broken IPv6 literal, a space in a host).
			invalid = append(invalid, archive.Field{Name: "outlink",
				Value: escapeRef(ln.URL) + " " + hopOf(ln) + " " + ln.Tag + "/@" + ln.Attr + " rejected:invalid-url"})
		}
		if !page.NoFollow {
			found = append(found, page.Links...)
		} else {
			out.annot = append(out.annot, "meta-nofollow")
			for _, ln := range page.Links {
				if ln.Kind == links.Requisite {
					found = append(found, ln)
				}
			}
		}
	case res.Status >= 200 && res.Status < 300 && out.mime == "text/css" && c.cfg.Requisites:
		if payload, _ := res.Payload(c.cfg.MaxParse); len(payload) > 0 {
			for _, s := range links.ExtractCSS(u, payload, maxStylesheetLinks) {
				found = append(found, links.Link{URL: s, Kind: links.Requisite, Tag: "css", Attr: "url"})
			}
		}
	}

	// 7. Tamura Fig. 3 steps 1-3: count the page against its server or
	// directory.
	// The sequential strategy adds the page's evidence, counts its
	// directory, and may probe the server's home page (verdict.go).
	var src, opening focus.Counts
	var follow string // the link a re-check follows (recheckSection)
	if out.page && key != "" {
		var probe *links.Link
		src, done.Tally, probe, opening, err = c.tally(pol, key, counts, e, u, out, found, recheck != nil)
		if err != nil {
			return err
		}
		if probe != nil {
			found = append(found, *probe)
		}
		if key == e.Site {
			// The status page counts each site by the crawl's own
			// verdict, from the counters of every run and generation,
			// not by this run's pages alone: a server judged irrelevant
			// before and re-checked, or resumed with a few more pages,
			// read as undecided there (a statistics review).
			c.stats.judge(e.Site, pol.Status(src))
		}
		switch {
		case recheck != nil:
			// A page was counted: the re-check is over, unless the page
			// is foreign but links a target section of its own server,
			// which is fetched next as the re-check's next try.
			follow = c.recheckSection(pol, key, counts, out.relevant, found)
			recheck.Done = follow == ""
		case c.rechecking() && pol.Status(counts) != focus.Irrelevant && pol.Status(src) == focus.Irrelevant:
			// Judged in this generation: no re-check of it in this one.
			done.Recheck = &frontier.Recheck{Key: key, Done: true}
		}
	}

	// 8. Scope and focus decide each link (Nakahira site trees, Tamura
	// steps 4.5-8), then the accepted ones are queued with the completion.
	// A stylesheet's requisites inherit the standing of the page it was
	// queued for.
	linkRelevant := out.relevant || (!out.page && e.Priority == frontier.High)
	pg := &linkPage{decl: decl}
	if out.det != nil {
		pg.lang = out.det.Lang
	}
	accepted, outlinks, err := c.decideLinks(pol, e, key, src, opening, linkRelevant, pg, found, follow)
	if err != nil {
		return err
	}
	if follow != "" && !slices.ContainsFunc(accepted, func(a frontier.Entry) bool { return a.Front }) {
		// The section link was rejected (an exclusion, the depth
		// limit, the query rule, not due): the re-check is over, as
		// without it.
		recheck.Done = true
	}
	done.Links = accepted

	// 9. The metadata record: how the page was reached, what it is, where it leads.
	meta = append(meta,
		archive.Field{Name: "via", Value: e.Via},
		archive.Field{Name: "hopsFromSeed", Value: e.Hops},
		archive.Field{Name: "depth", Value: strconv.Itoa(e.Depth)},
		archive.Field{Name: "tree", Value: e.Tree},
		archive.Field{Name: "fetchTimeMs", Value: strconv.FormatInt(res.Duration.Milliseconds(), 10)},
	)
	if known {
		// The URL's last visit, in this crawl or the one it was begun
		// from (--previous): the report counts its capture as archived
		// before, changed or not, which the WARC files of a --previous
		// crawl could not tell it (an archivist's trial: 547 changed or
		// gone pages counted as new).
		meta = append(meta, archive.Field{Name: "previousVisit", Value: lastVisit(prev)})
	}
	if res.TLSVerifyError != "" {
		meta = append(meta, archive.Field{Name: "tlsVerifyError", Value: oneLine(res.TLSVerifyError)})
	}
	if len(res.Interim) > 0 {
		// The response record holds the final response only; the interim
		// 1xx responses before it are kept here, by their status lines.
		meta = append(meta, archive.Field{Name: "interimResponses", Value: interimLines(res.Interim)})
	}
	if d := out.det; d != nil {
		meta = append(meta,
			archive.Field{Name: "charset", Value: d.Charset},
			archive.Field{Name: "language", Value: d.Lang},
		)
		if d.Tag != "" && d.Tag != d.Lang {
			// The script where the language has profiles of two:
			// zh-Hans or zh-Hant (a trial: a Taipei library's crawl
			// could not tell its pages from Simplified ones).
			meta = append(meta, archive.Field{Name: "languageTag", Value: d.Tag})
		}
		meta = append(meta,
			archive.Field{Name: "languageConfidence", Value: strconv.FormatFloat(d.Confidence, 'f', 3, 64)},
			archive.Field{Name: "languageEvidence", Value: d.Evidence},
			archive.Field{Name: "relevant", Value: strconv.FormatBool(d.Relevant)},
		)
		if d.Rival != "" {
			// The close neighbour the word model decided against: a
			// curator reads a Malay verdict against Indonesian at 0.8 as
			// the close call it is (focus.Page.CloseCall).
			meta = append(meta, archive.Field{Name: "languageRival", Value: d.Rival},
				archive.Field{Name: "languageRivalConfidence", Value: strconv.FormatFloat(d.RivalConfidence, 'f', 3, 64)})
		}
		if key != "" {
			meta = append(meta,
				archive.Field{Name: "focusKey", Value: key},
				archive.Field{Name: "focusStatus", Value: pol.Status(src).String()},
			)
		}
	}
	meta = append(meta, outlinks...)
	meta = append(meta, invalid...)

	// 10. Archive the request and response as they went over the wire, and
	// the metadata record, in one append to one WARC file; or, when the
	// payload is the one an earlier capture holds, a revisit record that
	// refers to it.
	if out.det != nil && known && prev.Lang != "" && langChanged(prev.Lang, out.det) {
		out.annot = append(out.annot, "lang-changed:"+prev.Lang+">"+histLang(out.det))
		c.stats.langChanged.Add(1)
	}
	hist := &frontier.History{URL: e.URL, Fetched: res.Started, Status: res.Status,
		Tree: e.Tree, Depth: e.Depth, Priority: e.Priority, Requisite: e.Requisite, Hops: e.Hops, Via: e.Via}
	if res.Truncated == "" || res.Truncated == fetch.TruncatedLength {
		// The validators of a capture cut by a reset or a timeout are
		// not kept: the next generation's request is not conditional on
		// them, so a 304 cannot make the cut capture stand for the whole
		// page for good (a review: the page and its links past the cut
		// were never archived again while it was unchanged). A page cut
		// at the size limit would be cut the same again, and keeps them.
		hist.ETag, hist.LastModified = res.Header.Get("ETag"), validLastModified(res)
	}
	if out.det != nil {
		hist.Lang = histLang(out.det)
		hist.Relevant, hist.Judged = out.det.Relevant, true
	}
	if d, ok := c.sameCapture(res, prev, known); ok {
		_, err := c.p.Archive.WriteRevisit(&archive.Revisit{URL: e.URL, IP: res.IP, Date: res.Started,
			RawRequest: res.RawRequest, RawResponse: res.RawResponse, Profile: archive.ProfileIdenticalPayloadDigest,
			RefersTo: prev.RecordID, RefersToTargetURI: prev.URL, RefersToDate: prev.Fetched, PayloadDigest: d,
			Metadata: append(meta, archive.Field{Name: "revisit", Value: revisitUnchanged})})
		if err != nil {
			return fmt.Errorf("archive %s: %w", e.URL, err)
		}
		out.digest = d
		out.annot = append(out.annot, "revisit:identical-payload")
		c.stats.revisits.Add(1)
		hist.Fetched, hist.Digest, hist.RecordID, hist.File, hist.Offset = prev.Fetched, prev.Digest, prev.RecordID, prev.File, prev.Offset
		hist.Checked = res.Started
	} else if orig, d, ok, err := c.duplicate(res, e.URL); err != nil {
		return err
	} else if ok {
		// The same payload at another URL: a revisit that refers to the
		// first capture. This URL's history keeps no capture of its own.
		// Unchanged all the same when its last visit had this payload
		// and status (a URL whose earlier visit was such a revisit too).
		kind := revisitDuplicate
		if known && prev.Digest == d && prev.Status == res.Status {
			kind = revisitUnchanged
		}
		_, err := c.p.Archive.WriteRevisit(&archive.Revisit{URL: e.URL, IP: res.IP, Date: res.Started,
			RawRequest: res.RawRequest, RawResponse: res.RawResponse, Profile: archive.ProfileIdenticalPayloadDigest,
			RefersTo: orig.RecordID, RefersToTargetURI: orig.URL, RefersToDate: orig.Date, PayloadDigest: d,
			Metadata: append(meta, archive.Field{Name: "revisit", Value: kind})})
		if err != nil {
			return fmt.Errorf("archive %s: %w", e.URL, err)
		}
		out.digest = d
		out.annot = append(out.annot, "revisit:duplicate-of:"+orig.URL)
		if kind == revisitUnchanged {
			// Counted as the metadata and the report count it: the URL
			// is unchanged since its last visit (a re-crawl trial found
			// the summary calling it deduplicated, the report unchanged).
			c.stats.revisits.Add(1)
		} else {
			c.stats.deduplicated.Add(1)
		}
		hist.Digest = d
	} else {
		tail, tailN := res.Tail()
		ref, err := c.p.Archive.WriteExchange(&archive.Exchange{
			URL: e.URL, IP: res.IP, Date: res.Started, RawRequest: res.RawRequest, RawResponse: res.RawResponse,
			Tail: tail, TailSize: tailN,
			BodyOffset: res.BodyOffset, Chunked: res.Chunked, Truncated: res.Truncated, Metadata: meta,
		})
		if err != nil {
			return fmt.Errorf("archive %s: %w", e.URL, err) // the lease stays in flight and is retried on resume
		}
		out.digest = ref.PayloadDigest
		hist.Digest, hist.RecordID, hist.File, hist.Offset = ref.PayloadDigest, ref.ResponseID, ref.File, ref.Offset
		hist.Changed = known && prev.Digest != "" && prev.Digest != ref.PayloadDigest
		done.IndexDigest = c.cfg.DedupMinSize > 0 && res.Size() >= c.cfg.DedupMinSize
	}
	done.History = hist

	// 11. Complete the lease: links, counters and history in one batch.
	if err := c.finish(l, worker, out, done); err != nil {
		return err
	}

	// 12. A server that just turned irrelevant gives up its queue
	// (Tamura 4.1); the directory variant skips at fetch time instead.
	before := counts // the key's counters before this page
	if out.page && key == e.Site && pol.Status(src) == focus.Irrelevant &&
		pol.Status(before) != focus.Irrelevant {
		// Each dropped URL gets its crawl.log line (-5003), written
		// before the frontier lets it go, so a curator sees every one.
		var logDrop func(frontier.Entry) error
		if c.p.CrawlLog != nil {
			now := c.cfg.Now()
			logDrop = func(d frontier.Entry) error {
				return c.p.CrawlLog.Write(now, worker, d, outcome{status: codeFocusSkip, annot: []string{"focus:dropped:" + key}})
			}
		}
		// The requisites stay, as the skip above lets them through: a
		// relevant page on another server embedding this one's images
		// must replay.
		n, err := c.p.Queue.DropSite(e.Site, keptRequisite, logDrop)
		if err != nil {
			return fmt.Errorf("frontier drop %s: %w", e.Site, err)
		}
		c.stats.drop(n)
	}
	return nil
}

// maxRecheckTries bounds the fetches of one re-check in a generation: a
// redirect (a server moved from http to https) and its target, or a failure
// and its retry, and one more. A re-check ends sooner once a page is
// counted (frontier.Recheck.Done). Without a bound, a foreign server
// answering 500 everywhere had each of its due URLs fetched as a re-check,
// with all its retries (a review: 16 fetches at retries.max 4).
const maxRecheckTries = 3

// readyWait is the longest a lease waits for its site's politeness delay
// while holding its domain's and address's slots; a longer wait gives the
// lease back until the site is ready.
const readyWait = 250 * time.Millisecond

// rechecking reports whether this generation re-checks servers judged
// irrelevant before it: a generation after the first, with Config.Recheck.
func (c *Crawler) rechecking() bool {
	return c.cfg.Recheck && c.generation.Load() >= 2
}

// rechecks reports whether a URL of a server its counters judge irrelevant
// is fetched all the same, as a try of its server's re-check: the server
// was judged in an earlier generation (one judged in this one has its
// re-check marked done), and its re-check in this generation has neither
// counted a page nor run out of tries. A re-crawl months later keeps the
// earlier verdicts, and without the re-check a server that turned to the
// target language was never fetched again (an independent re-crawl trial:
// a server English in the first crawl and Thai in the second lost all 7
// of its Thai pages in every later generation).
func (c *Crawler) rechecks(counts focus.Counts) bool {
	if !c.rechecking() {
		return false
	}
	g := c.generation.Load()
	return counts.Rechecked != g || (!counts.RecheckDone && counts.RecheckTries < maxRecheckTries)
}

// recheckSection returns the link a re-check follows next when its page,
// counted, is not in the target but links a target section of its own
// server ("/th/", "?lang=th": Policy.NamesTarget) under the same focus
// key, while the re-check has a try left for it (maxRecheckTries): the
// first such navigation link, or "". A server that added a Thai section
// beside its foreign pages is found so; before, the link was rejected as
// any link into an irrelevant server (a re-crawl trial's limit, said in
// README). The link goes to the front of the server's queue
// (frontier.Entry.Front), so it is the re-check's next try, not the URLs
// the generation queued before it.
func (c *Crawler) recheckSection(pol *focus.Policy, key string, counts focus.Counts, relevant bool, found []links.Link) string {
	if relevant {
		return ""
	}
	var tries int64
	if counts.Rechecked == c.generation.Load() {
		tries = counts.RecheckTries
	}
	if tries+1 >= maxRecheckTries {
		return ""
	}
	for _, ln := range found {
		if ln.Kind != links.Nav || !pol.NamesTarget(ln.URL) {
			continue
		}
		if u, err := url.Parse(ln.URL); err == nil && c.focusKey(u) == key {
			return ln.URL
		}
	}
	return ""
}

// DefaultMaxEmbedHops is the default of Config.MaxEmbedHops: a page's
// stylesheet (E), one it @imports (EE), one that @imports (EEE), a web
// font's stylesheet (EEEE), its fonts (EEEEE): a WordPress child theme
// imports its parent's stylesheet, which imports a font service's. A
// review found the first default, 3, dropping that theme's fonts.
// Heritrix's TransclusionDecideRule lets 2 such hops past its scope by
// default; here they are the bound of every requisite, which scope does
// not otherwise bind (any host, no depth). Without a bound a server whose
// every stylesheet @imports a new one was fetched until max_time (a trap
// trial: some 1,650 requests for a site of one page, in 90 s, and a hop
// path of 838 letters).
const DefaultMaxEmbedHops = 5

func (c *Crawler) maxEmbedHops() int {
	if c.cfg.MaxEmbedHops == 0 {
		return DefaultMaxEmbedHops
	}
	return c.cfg.MaxEmbedHops
}

// embedHops counts the embed hops (E) at the end of a hop path, after its
// last navigation link, inferred hop or seed; redirects (R) between them
// are not counted (maxRedirects bounds them).
func embedHops(hops string) int {
	n := 0
	for i := len(hops) - 1; i >= 0; i-- {
		switch hops[i] {
		case 'E':
			n++
		case 'R':
		default:
			return n
		}
	}
	return n
}

// keptRequisite reports whether e is a page requisite, which focusing
// neither skips nor drops once queued, whatever its server's status: the
// page that embeds it was archived and replays only with it. A requisite is
// queued once, by the first page found to embed it, so one first found on
// a foreign page and later embedded by relevant pages carries the foreign
// page's low priority: an independent trial found a banner shared by a
// foreign hub's pages and 21 Thai pages dropped with the hub's queue, and
// the Thai pages replayed without it. Requisites of foreign pages found
// after their server was judged irrelevant are still not queued
// (Policy.Requisite decides them as links).
func keptRequisite(e frontier.Entry) bool {
	return e.Requisite
}

// escapeRef writes a reference as written for an outlink field, whose
// parts are split on white space: white space, control bytes and '%' are
// percent-escaped, so the field reads back (report.ParseOutlink) as the
// reference it names.
func escapeRef(ref string) string {
	var b strings.Builder
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if c <= ' ' || c == 0x7f || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// maxRedirects is the longest chain of redirects followed from one link,
// counted on the hop path (each redirect adds an R). Browsers stop at 20.
const maxRedirects = 20

// redirectHops counts the redirects at the end of a hop path.
func redirectHops(hops string) int {
	return len(hops) - len(strings.TrimRight(hops, "R"))
}

// redirectKind marks a Location header among the links of a response.
const redirectKind = links.Kind(255)

// decideLinks turns the links found on a response into frontier entries.
// It returns the accepted entries and one metadata "outlink" field per link
// with the decision, so the WARC says why a link was or was not followed.
//
// src is the page's server's counters with the page; opening what step 4.5
// reads for its links (tally): src, or for a page in a user's directory of
// a hosting server, src with that user's count of target pages.
//
// follow, when not empty, is the URL of a link to the page's own server
// that a re-check follows (recheckSection): scope alone decides it, and it
// goes to the front of its site's queue, as the server's next URL.
func (c *Crawler) decideLinks(pol *focus.Policy, e frontier.Entry, key string, src, opening focus.Counts, relevant bool, pg *linkPage, found []links.Link, follow string) ([]frontier.Entry, []archive.Field, error) {
	var accepted []frontier.Entry
	var fields []archive.Field
	// Destination counters, looked up once per page. The page's own key
	// already counts this page (steps 2-3), which the frontier stores
	// only when the lease completes.
	counts := map[string]focus.Counts{}
	claims := map[string]struct{}{} // query-rule scripts claimed by this page's links
	if key != "" {
		counts[key] = src
	}
	now := c.cfg.Now()
	prio := frontier.Low
	if relevant {
		prio = frontier.High
	}
	for _, ln := range found {
		if ln.Kind == links.Requisite && !c.cfg.Requisites {
			continue
		}
		lpol, followed := pol, follow != "" && ln.URL == follow && ln.Kind == links.Nav
		if followed {
			// Scope alone decides it, at the page's own (Low)
			// priority: the front place puts it first, and a High
			// one would pass the skip of a policy that reads link
			// evidence outside the re-check's tries (a review).
			lpol, follow = nil, ""
		}
		entry, why, err := c.decideLink(lpol, e, opening, relevant, pg, prio, ln, counts, claims, now)
		if err != nil {
			return nil, nil, err
		}
		hop := hopOf(ln)
		v := ln.URL + " " + hop + " " + ln.Tag + "/@" + ln.Attr
		if why != "" {
			v += " rejected:" + why
			c.stats.rejected(why)
		} else {
			admitted := entry.Scope
			if followed {
				entry.Front = true
				admitted = strings.TrimPrefix(admitted+";focus:"+focus.ReasonRecheckSection, ";")
			}
			accepted = append(accepted, entry)
			if admitted != "" {
				v += " admitted:" + admitted
			}
		}
		if ln.Context != "" && strings.HasPrefix(why, "focus:") {
			// The text around a link focusing turned away: with its
			// anchor, what a curator reads of a candidate host
			// ("www.fado.pt – arquivo de música popular"; the report's
			// candidate-hosts.csv). Go-quoted, before the anchor.
			v += " around:" + strconv.Quote(ln.Context)
		}
		if ln.Anchor != "" {
			// Last, after the fields older readers split on: the anchor
			// text, Go-quoted so it stays on one line (report.ParseOutlink).
			v += " anchor:" + strconv.Quote(ln.Anchor)
		}
		fields = append(fields, archive.Field{Name: "outlink", Value: v})
	}
	return accepted, fields, nil
}

// decideLink applies scope (Nakahira) and focus (Tamura) to one link. It
// returns the entry to queue, or why the link was rejected.
func (c *Crawler) decideLink(pol *focus.Policy, e frontier.Entry, src focus.Counts, relevant bool, pg *linkPage, prio frontier.Priority,
	ln links.Link, counts map[string]focus.Counts, claims map[string]struct{}, now time.Time) (frontier.Entry, string, error) {
	hop := hopOf(ln)
	if ln.Kind == links.Requisite {
		if limit := c.maxEmbedHops(); limit > 0 && embedHops(e.Hops)+1 > limit {
			return frontier.Entry{}, fmt.Sprintf("scope:embed-hops:%d", limit), nil
		}
	}
	var d scope.Decision
	switch ln.Kind {
	case links.Requisite, redirectKind:
		// Requisites and redirects do not count toward depth: they are
		// part of the page (or of the URL) that was already accepted.
		// Deciding them as if found one level up keeps them at the
		// page's own depth, which the depth limit already admitted;
		// include rules and seed scopes do not bind them (any host).
		d = c.cfg.Scope.DecideRequisite(e.Tree, e.Depth-1, ln.URL)
	default:
		d = c.cfg.Scope.Decide(e.Tree, e.Depth, ln.URL)
	}
	if d.Reject != "" {
		return frontier.Entry{}, "scope:" + d.Reject, nil
	}
	// A re-crawl with an interval visits a known URL once it is due, by
	// links as by the start of the generation.
	if ln.Kind != redirectKind {
		if skip, err := c.notDue(d.URL, now); err != nil {
			return frontier.Entry{}, "", fmt.Errorf("frontier history %s: %w", d.URL, err)
		} else if skip {
			return frontier.Entry{}, "recrawl:not-due", nil
		}
	}
	entry := frontier.Entry{
		URL: d.URL.String(), Site: scope.SiteKey(d.URL), Tree: d.Tree, Depth: d.Depth,
		Priority: prio, Requisite: ln.Kind == links.Requisite, Via: e.URL, Hops: e.Hops + hop, Discovered: now,
		Scope: d.Admit, Variant: scope.SeenKey(d.URL),
	}
	if ln.Kind == redirectKind {
		// The target stands for the URL that was admitted, by its rule.
		entry.Priority = e.Priority
		entry.Requisite = e.Requisite
		entry.Scope = e.Scope
		// A redirect to another spelling of itself (a session id
		// added, a bare host sent to www.) is followed: the page is
		// there only. Heritrix forces such a fetch likewise.
		if from, err := url.Parse(e.URL); err == nil && scope.SeenKey(from) == entry.Variant {
			entry.Variant = ""
		}
	}
	if pol != nil && ln.Kind != redirectKind {
		dk := c.focusKey(d.URL)
		var dest focus.Counts
		if dk != "" {
			var ok bool
			if dest, ok = counts[dk]; !ok {
				n, err := c.p.Queue.Counts(dk)
				if err != nil {
					return entry, "", fmt.Errorf("frontier counts %s: %w", dk, err)
				}
				dest = focus.Counts(n)
				counts[dk] = dest
			}
		}
		var v focus.Verdict
		if ln.Kind == links.Requisite {
			v = pol.Requisite(relevant, src, dest, false)
		} else {
			v = c.decideNav(pol, relevant, pg, src, dest, d.URL, ln)
			var err error
			if v, err = c.decideDir(pol, v, d.URL, dest, counts, ln); err != nil {
				return entry, "", err
			}
		}
		if !v.Enqueue {
			return entry, "focus:" + v.Reason, nil
		}
		if !entry.Requisite {
			entry.Priority = frontier.Low
			if v.High {
				entry.Priority = frontier.High
			}
		}
	}
	if ln.Kind == links.Requisite && relevant {
		entry.Priority = frontier.High // a relevant page is only whole with its requisites
	}
	// Nakahira 2.2: one URL per script among URLs differing only in
	// their query. The script is claimed only once the link is accepted,
	// and the claim is written with the page's completion (Entry.Claim),
	// so a crash before the page is archived loses no script. A URL that
	// names a target section (?lang=fa, /th/page.php?id=3) with one other
	// parameter at most, not a session, sort or tracking one, is spared:
	// its pages are the target's. A trial found a CMS's Persian and
	// Ukrainian sections (page.php?lang=fa&id=N) cut to one page of ten
	// each, and nothing said so; a review found the first version sparing
	// a fresh session ID in every link (?lang=th&sid=N), 255 copies of one
	// article.
	if d.QueryKey != "" && !(pol != nil && ln.Kind != links.Requisite && pol.NamesTarget(entry.URL) && sectionQuery(d.URL)) {
		claim := "query:" + d.QueryKey
		if _, dup := claims[claim]; dup {
			return entry, "scope:query-rule", nil
		}
		taken, err := c.p.Queue.Seen(claim)
		if err != nil {
			return entry, "", fmt.Errorf("frontier seen %s: %w", d.QueryKey, err)
		}
		if taken {
			return entry, "scope:query-rule", nil
		}
		claims[claim] = struct{}{}
		entry.Claim = claim
	}
	return entry, "", nil
}

// histLang is the language a URL's history keeps of a detection: its tag
// where that says more than the language (zh-Hant), so that a re-crawl's
// 304 knows the script of the capture it stands for (a review: a zh-hant
// crawl's 304s of Simplified pages said relevant).
func histLang(d *detect.Result) string {
	if d.Tag != "" && d.Tag != d.Lang {
		return d.Tag
	}
	return d.Lang
}

// langChanged reports whether a detection differs in language from the
// history's prev: by script too when the history kept one; a bare zh
// kept before tags were is not a change to zh-Hant.
func langChanged(prev string, d *detect.Result) bool {
	if iso, _, tagged := strings.Cut(prev, "-"); !tagged {
		return iso != d.Lang
	}
	return prev != histLang(d)
}

// sectionQuery reports whether u's query is a target section's page
// (QueryRule's exemption): besides its language parameters (lang, hl,
// locale, language) one parameter at most, and not one that names a
// session, a sort order or a campaign, which make many URLs of one page.
func sectionQuery(u *url.URL) bool {
	others := 0
	for name := range u.Query() {
		n := strings.ToLower(name)
		switch {
		case slices.Contains(focus.LangParams, n):
			continue
		case volatileParams[n] || strings.HasPrefix(n, "utm_") || strings.Contains(n, "sess"):
			return false
		}
		others++
	}
	return others <= 1
}

// volatileParams are query parameters that make many URLs of one page.
var volatileParams = map[string]bool{
	"sid": true, "token": true, "sort": true, "order": true, "orderby": true, "dir": true, "ref": true,
	"fbclid": true, "gclid": true, "replytocom": true, "share": true, "print": true, "view": true, "s": true,
	// Shops' own session ids and click ids (a review): osCommerce,
	// Zen Cart, ColdFusion, Microsoft Ads, Yandex.
	"oscsid": true, "zenid": true, "cfid": true, "cftoken": true, "msclkid": true, "yclid": true,
}

// policy is the focusing policy in force now: with a falling tolerance
// (Tamura 5.2) it depends on how many pages were crawled. nil when the crawl
// is not focused.
func (c *Crawler) policy() *focus.Policy {
	if c.cfg.Focus == nil {
		return nil
	}
	p := c.cfg.Focus.At(c.pagesBefore + c.stats.html.Load())
	return &p
}

// focusKey is the counter key of u under the focusing strategy, "" when
// the strategy keeps no counters.
func (c *Crawler) focusKey(u *url.URL) string {
	if c.cfg.Focus == nil {
		return ""
	}
	return c.cfg.Focus.Key(scope.SiteKey(u), scope.DirKey(u))
}

// finish completes the lease and records the outcome.
func (c *Crawler) finish(l *frontier.Lease, worker int, out outcome, done frontier.Completion) error {
	done.Page = out.page
	done.Usage.Elapsed = c.elapsed()
	// crawl.log before the completion: a kill between the two leaves a
	// line for a URL still in flight, fetched again on resume (a second
	// line), never a URL done without its line.
	if c.p.CrawlLog != nil {
		if err := c.p.CrawlLog.Write(c.cfg.Now(), worker, l.Entry, out); err != nil {
			return err
		}
	}
	if err := c.p.Queue.Complete(l, done); err != nil {
		return fmt.Errorf("frontier complete %s: %w", l.Entry.URL, err)
	}
	c.stats.record(l.Entry, out)
	c.p.Log.Debug("fetched", "url", l.Entry.URL, "status", out.status, "bytes", out.bytes, "dur", out.dur)
	return nil
}

// hopOf is the hop code of a link (Heritrix's): L a navigation link, E an
// embedded requisite, R a redirect, and I an inferred one, the home page
// the sequential verdict queues (tally), which no link on the page named.
func hopOf(ln links.Link) string {
	switch {
	case ln.Kind == links.Requisite:
		return "E"
	case ln.Kind == redirectKind:
		return "R"
	case isProbe(ln):
		return "I"
	}
	return "L"
}

func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt
}

// isBusy reports whether status says the server is busy: 429 Too Many
// Requests or 503 Service Unavailable.
func isBusy(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// RobotsReceived counts the n bytes of a robots.txt response against
// MaxBytes and in the job's totals, which the frontier keeps across runs,
// as a page's response bytes are (CountedRobotsFetcher).
func (c *Crawler) RobotsReceived(n int64) error {
	if n <= 0 {
		return nil
	}
	c.received.Add(n)
	return c.p.Queue.AddUsage(frontier.Usage{Bytes: n})
}

// Answered tells the address bounds how site answered a fetch made
// outside the loop, robots.txt's (RobotsFetcher): the address it was
// reached at, and whether the answer was busy.
func (c *Crawler) Answered(site, ip string, status int) {
	c.slots.learn(site, ip)
	c.slots.answered(site, isBusy(status))
}

func isHTML(mt string) bool {
	return mt == "text/html" || mt == "application/xhtml+xml" || mt == ""
}

// failureCode maps a fetch error to a Heritrix-style negative status.
func failureCode(err error) int {
	var ne net.Error
	var ce *fetch.ConnectError
	switch {
	case errors.Is(err, fetch.ErrAddressRefused):
		return codeAddress
	case errors.Is(err, fetch.ErrURLTooLong), errors.Is(err, fetch.ErrUnsupportedScheme):
		return codeUnusableURL
	case errors.As(err, &ne) && ne.Timeout():
		return codeTimeout
	case errors.Is(err, context.DeadlineExceeded):
		return codeTimeout
	case errors.As(err, &ce) && ce.TLS:
		// The TLS handshake failed on a connection made: -3, as before.
	case connectFailed(err):
		// Read from the error's type, not its text, which holds the URL:
		// a lost connection to ".../dialog/" was logged as -2 (a review).
		return codeConnectFailed
	}
	return codeConnectLost
}

// oneLine keeps a value fit for a WARC field: no line breaks, bounded.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 500 {
		s = s[:500]
	}
	return s
}

// interimLines lists the status lines of raw interim 1xx responses.
func interimLines(raw []byte) string {
	var lines []string
	start := true // the next line starts a head: its status line
	for _, l := range strings.Split(string(raw), "\n") {
		l = strings.TrimRight(l, "\r")
		switch {
		case l == "":
			start = true
		case start:
			// Only the first line of a head: a field's folded line
			// (" HTTP/1.1 404 ...") is no status line.
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "HTTP/") {
				lines = append(lines, oneLine(l))
			}
			start = false
		}
	}
	return strings.Join(lines, "; ")
}

func errString(err error) string {
	if err == nil {
		return "no response"
	}
	return strings.ReplaceAll(cutNote(err.Error()), " ", "_")
}

// cutNote cuts a note made of what a server sent (an error naming its
// Content-Encoding, a header) to 200 bytes, on a character boundary: a
// 900 KiB Content-Encoding made a crawl.log line of that size (a review).
func cutNote(s string) string {
	if len(s) <= 200 {
		return s
	}
	n := 200
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
