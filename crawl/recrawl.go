package crawl

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/internal/hostmatch"
	"github.com/langcrawl/langcrawl/scope"
)

// Incremental re-crawls (DESIGN.md, "Failures, re-crawls and crashes"):
// a URL with an earlier capture is fetched with a conditional request, and
// what did not change becomes a revisit record that refers to that capture
// by its record ID, its URL and its date, which pywb needs to resolve it
// (it resolves revisits only with WARC-Refers-To-Target-URI; Heritrix
// leaves that out of its 304 revisits, and pywb cannot replay them).

// conditional adds If-None-Match and If-Modified-Since for an earlier
// capture that carried validators.
func conditional(hdr http.Header, prev frontier.History, known bool) (asked bool) {
	if !known || prev.Status < 200 || prev.Status > 299 || prev.RecordID == "" {
		return false // no capture to refer a revisit to
	}
	if prev.ETag != "" {
		hdr.Set("If-None-Match", prev.ETag)
	}
	if prev.LastModified != "" {
		hdr.Set("If-Modified-Since", prev.LastModified)
	}
	return prev.ETag != "" || prev.LastModified != ""
}

// The "revisit" field of a revisit record's metadata says what it stands
// for, so that langcrawl report can tell a re-crawl's unchanged pages
// from those captured again in full.
const (
	revisitUnchanged   = "unchanged"    // the payload of the URL's last visit
	revisitNotModified = "not-modified" // a 304 to a conditional request
	revisitDuplicate   = "duplicate"    // the payload of another URL's capture, not of this URL's last visit
)

// notModified archives a 304 as a revisit record with the
// server-not-modified profile and completes the lease; the earlier
// capture's history stands, marked checked now.
func (c *Crawler) notModified(l *frontier.Lease, worker int, res *fetch.Result, prev frontier.History,
	out outcome, done frontier.Completion) error {
	e := l.Entry
	// The revisit record's block is left empty and the 304's own status
	// line and header go into its metadata record: pywb 2.9.1 replays a
	// revisit with the status line of its block, and drops the body of a
	// 304, so a revisit holding the 304 would replay the unchanged page as
	// an empty 304 (ukwa/ukwa-pywb#40); with no HTTP header it serves the
	// original's status, header and payload at the revisit's own date.
	// WARC 1.1 (6.7.3) lets a server-not-modified revisit's block be empty.
	head := res.RawResponse[:min(res.BodyOffset, len(res.RawResponse))]
	meta := []archive.Field{{Name: "notModifiedResponse", Value: oneLine(strings.ReplaceAll(string(head), "\r\n", "; "))},
		{Name: "revisit", Value: revisitNotModified},
		// How the URL was reached and its last visit, as for any page
		// (an independent re-crawl trial found them missing here).
		{Name: "via", Value: e.Via},
		{Name: "hopsFromSeed", Value: e.Hops},
		{Name: "depth", Value: strconv.Itoa(e.Depth)},
		{Name: "tree", Value: e.Tree},
		{Name: "fetchTimeMs", Value: strconv.FormatInt(res.Duration.Milliseconds(), 10)},
		{Name: "previousVisit", Value: lastVisit(prev)}}
	relevant := prev.Relevant
	pol := c.policy()
	if pol != nil {
		// Judged by this generation's target languages, which a profile
		// may have changed since the capture (a review).
		if in, known := pol.InTarget(prev.Lang); known {
			relevant = in
		}
	}
	if prev.Lang != "" && prev.Judged {
		// The server says the page is the capture referred to, whose
		// language this is: not detected again (there is no body), and
		// marked so. The report counts the page with it; without it a
		// server that answered only 304s read as one with no pages.
		lang, _, tagged := strings.Cut(prev.Lang, "-")
		meta = append(meta, archive.Field{Name: "language", Value: lang})
		if tagged {
			meta = append(meta, archive.Field{Name: "languageTag", Value: prev.Lang})
		}
		meta = append(meta, archive.Field{Name: "languageFrom", Value: "refers-to"},
			archive.Field{Name: "relevant", Value: strconv.FormatBool(relevant)})
		if u, err := url.Parse(e.URL); err == nil && pol != nil {
			if key := c.focusKey(u); key != "" {
				// The verdict on its server now, as a page's record
				// says it; a 304 adds nothing to the counters (the
				// page was counted when captured).
				n, err := c.p.Queue.Counts(key)
				if err != nil {
					return fmt.Errorf("frontier counts %s: %w", key, err)
				}
				meta = append(meta, archive.Field{Name: "focusKey", Value: key},
					archive.Field{Name: "focusStatus", Value: pol.Status(focus.Counts(n)).String()})
				if key == e.Site {
					// The status page counts the site by this verdict
					// too: a server answering 304s reads no page.
					c.stats.judge(e.Site, pol.Status(focus.Counts(n)))
				}
			}
		}
	}
	// The page is the capture it stands for, and links where that did:
	// its links are read from the capture and decided as a page's are,
	// by the profile in force now (a re-crawl review: a depth limit
	// raised, or an exclusion lifted, since the capture found nothing
	// behind an unchanged page). Not when the generation before crawled
	// with this profile (SameProfile): its decisions stand, unless the
	// page is now a seed the history knew as a link. Links to URLs this
	// generation queued already are duplicates, as on any page.
	if u, err := url.Parse(e.URL); err == nil && (!c.sameProfile.Load() || out.reseeded) {
		if found, decl, lang, ok := c.captureLinks(prev, u); ok {
			var key string
			var counts focus.Counts
			if pol != nil {
				if key = c.focusKey(u); key != "" {
					n, err := c.p.Queue.Counts(key)
					if err != nil {
						return fmt.Errorf("frontier counts %s: %w", key, err)
					}
					counts = focus.Counts(n)
				}
			}
			linkRelevant := relevant || c.cfg.Focus == nil
			accepted, outlinks, err := c.decideLinks(pol, e, key, counts, counts, linkRelevant, &linkPage{lang: lang, decl: decl}, found, "")
			if err != nil {
				return err
			}
			done.Links = accepted
			meta = append(meta, outlinks...)
		}
	}
	_, err := c.p.Archive.WriteRevisit(&archive.Revisit{URL: e.URL, IP: res.IP, Date: res.Started,
		RawRequest: res.RawRequest, Profile: archive.ProfileServerNotModified, Metadata: meta,
		RefersTo: prev.RecordID, RefersToTargetURI: prev.URL, RefersToDate: prev.Fetched, PayloadDigest: prev.Digest})
	if err != nil {
		return fmt.Errorf("archive %s: %w", e.URL, err)
	}
	if done.Recheck != nil {
		// A re-check answered "not modified": the page is the one
		// captured before, which was not in the target (the server was
		// judged irrelevant), so the re-check is over (a re-run of the
		// re-crawl trial: three 304s spent three tries).
		done.Recheck.Done = true
	}
	h := prev
	h.Checked, h.Changed = res.Started, false
	h.Tree, h.Depth, h.Priority, h.Requisite, h.Hops, h.Via = e.Tree, e.Depth, e.Priority, e.Requisite, e.Hops, e.Via
	done.History = &h
	out.digest = prev.Digest
	out.annot = append(out.annot, "revisit:not-modified")
	c.stats.revisits.Add(1)
	return c.finish(l, worker, out, done)
}

// validLastModified returns the response's Last-Modified for a later
// If-Modified-Since, or "" when it cannot be trusted: not a valid
// HTTP-date, or later than the response's Date (our clock when it has
// none). RFC 9110 (8.8.2.1) forbids an origin server a Last-Modified later
// than its Date; one in the future makes every later If-Modified-Since
// look unchanged to a server that compares dates, and an independent
// re-crawl trial saw such a server answer 304 for a changed page, whose
// new body was then never archived.
func validLastModified(res *fetch.Result) string {
	lm := res.Header.Get("Last-Modified")
	if lm == "" {
		return ""
	}
	t, err := http.ParseTime(lm)
	if err != nil {
		return ""
	}
	now := res.Started
	if d, err := http.ParseTime(res.Header.Get("Date")); err == nil {
		now = d
	}
	if !now.IsZero() && t.After(now) {
		return ""
	}
	return lm
}

// lastVisit is a URL's last visit as the previousVisit metadata field
// gives it: the date of its capture, or of a later visit that found it
// unchanged, and the status of its capture.
func lastVisit(prev frontier.History) string {
	last := prev.Fetched
	if prev.Checked.After(last) {
		last = prev.Checked
	}
	return last.UTC().Format(time.RFC3339) + " " + strconv.Itoa(prev.Status)
}

// sameCapture reports whether a 2xx response carries the payload of the
// earlier capture, and its payload digest. The digest is taken as the
// archive takes it (the body as stored, archive.Config.RawPayloadDigest),
// which is how the engine's writer is configured. A response that spilled
// to disk is archived in full rather than digested twice.
func (c *Crawler) sameCapture(res *fetch.Result, prev frontier.History, known bool) (string, bool) {
	if !known || prev.RecordID == "" || prev.Digest == "" || prev.Status != res.Status || res.Spilled() ||
		res.Status < 200 || res.Status > 299 || res.Truncated != "" {
		return "", false
	}
	d := archive.PayloadDigest(res.RawResponse, res.BodyOffset, res.Chunked, true)
	return d, d == prev.Digest
}

// Recrawl starts a new generation of a finished crawl (or finishes one a
// crash cut short): every URL of the fetch history whose last visit is at
// least interval old (intervals overrides it per host or domain, keyed as
// politeness.Config.Hosts is; 0: every URL is due) is queued again, pages
// that changed in the last generation first (high priority), with the
// depth and site tree they had, so that scope and the depth limit hold as
// before. The seeds are queued by Seed as for any crawl, and new links are
// followed as in any crawl. It returns the new generation and how many
// URLs it queued.
func (c *Crawler) Recrawl(interval time.Duration, intervals map[string]time.Duration, now time.Time) (int64, int, error) {
	past := 0
	gen, n, err := c.p.Queue.StartGeneration(func(h frontier.History) (frontier.Entry, bool) {
		h.LegacyHops()
		u, err := scope.Canonicalize(h.URL)
		if err != nil {
			return frontier.Entry{}, false
		}
		if !isDue(h, u.Host, interval, intervals, now) {
			return frontier.Entry{}, false
		}
		if c.cfg.Focus != nil && h.Requisite && h.Priority != frontier.High {
			// A requisite of a page that was not relevant (focusing
			// queues those of relevant pages at high priority) is left
			// to its page: fetched again, the page queues it anew as its
			// standing then says. Focusing never skips a queued
			// requisite (keptRequisite), so queued here it would be
			// fetched in every generation for a foreign page that is
			// itself skipped (a review).
			return frontier.Entry{}, false
		}
		e := frontier.Entry{URL: u.String(), Site: scope.SiteKey(u), Tree: h.Tree, Depth: h.Depth,
			Priority: h.Priority, Requisite: h.Requisite, Discovered: now, Hops: h.Hops, Via: h.Via,
			Variant: scope.SeenKey(u)}
		if e.Tree == "" {
			e.Tree = scope.RegisteredDomain(u.Hostname())
		}
		if h.Changed {
			e.Priority = frontier.High // changed pages first
		}
		// A link past the depth limit in force is left out, and not
		// marked seen: its depth is the path an earlier generation found
		// it by, and a link nearer its seed, on a site reorganised since,
		// queues it at its depth now (TestDiffReviewKnownURLShallowerNow:
		// queued here with its old depth, that link was a duplicate and
		// the scope check at the lease rejected it as too deep). The other
		// rules do not depend on the path, so the lease decides them
		// (outOfScope), and crawl.log says so. A requisite or a redirect
		// target keeps its page's depth, which no limit judges.
		if e.Hops != "" && !e.Requisite && !strings.HasSuffix(e.Hops, "R") && !strings.HasSuffix(e.Hops, "E") &&
			c.cfg.Scope.DecideURL(e.Tree, e.Depth-1, u).TooDeep {
			past++
			return frontier.Entry{}, false
		}
		return e, true
	})
	if err != nil {
		return 0, n, fmt.Errorf("crawl: new generation: %w", err)
	}
	c.pastDepth = past
	c.pagesBefore, c.before = 0, frontier.Usage{}
	c.generation.Store(gen)
	return gen, n, nil
}

// PastDepth returns how many known URLs the last Recrawl left out as
// past the depth limit in force.
func (c *Crawler) PastDepth() int { return c.pastDepth }

// isDue reports whether the known URL of h, on host, is due for a visit at
// now under interval and the per-host intervals: its last visit (the
// capture, or a later check that found it unchanged) is at least that old.
func isDue(h frontier.History, host string, interval time.Duration, intervals map[string]time.Duration, now time.Time) bool {
	iv := interval
	if v, ok := hostmatch.Lookup(intervals, host); ok {
		iv = v
	}
	last := h.Fetched
	if h.Checked.After(last) {
		last = h.Checked
	}
	return iv <= 0 || now.Sub(last) >= iv
}

// notDue reports whether a link to u leads to a known URL that a
// re-crawl with an interval is not to visit yet: a generation after the
// first, the URL not seen in this generation but with a history, its last
// visit more recent than the interval. It reads the URL's history only
// when an interval is set.
func (c *Crawler) notDue(u *url.URL, now time.Time) (bool, error) {
	if c.generation.Load() < 2 || c.cfg.RecrawlInterval <= 0 && len(c.cfg.RecrawlIntervals) == 0 {
		return false, nil
	}
	// A URL this generation has queued or fetched is a duplicate link,
	// as in any crawl, not one held back: the seen set (its cache first)
	// says so, and spares the history read.
	// Another spelling of it (scope.SeenKey) is the same duplicate.
	for _, k := range []string{u.String(), scope.SeenKey(u)} {
		if seen, err := c.p.Queue.Seen(k); err != nil || seen {
			return false, err
		}
	}
	h, known, err := c.p.Queue.History(u.String())
	if err != nil || !known {
		return false, err
	}
	return !isDue(h, u.Host, c.cfg.RecrawlInterval, c.cfg.RecrawlIntervals, now), nil
}

// duplicate reports whether a 2xx response of at least DedupMinSize bytes
// carries a payload that an earlier capture archived, and returns that
// capture and the digest. The capture may be of the same URL: one a
// recrawl.dedup_index names (an earlier crawl, whose history this one
// does not hold), or an older one of this crawl's (a page changed and
// changed back); a revisit of the URL's own last capture is sameCapture's. The digest is taken as the archive
// takes it (see sameCapture). A response that spilled to disk is archived
// in full rather than digested twice.
func (c *Crawler) duplicate(res *fetch.Result, url string) (frontier.Capture, string, bool, error) {
	if c.cfg.DedupMinSize <= 0 || res.Status < 200 || res.Status > 299 || res.Truncated != "" || res.Spilled() ||
		res.Size()-int64(res.BodyOffset) < c.cfg.DedupMinSize {
		return frontier.Capture{}, "", false, nil
	}
	d := archive.PayloadDigest(res.RawResponse, res.BodyOffset, res.Chunked, true)
	orig, ok, err := c.p.Queue.Capture(d)
	if err != nil {
		return frontier.Capture{}, "", false, fmt.Errorf("frontier capture %s: %w", url, err)
	}
	if !ok || !headerURL(orig.URL) {
		// A capture whose URL a WARC header cannot hold (imported
		// before ImportDedupIndex refused it) is no capture to refer
		// to: the page is archived in full, and the crawl goes on.
		return frontier.Capture{}, "", false, nil
	}
	return orig, d, true, nil
}

// headerURL reports whether u can name a capture in a WARC header
// (WARC-Refers-To-Target-URI): an absolute http(s) URL with no space or
// control character, which would end the field or forge another.
func headerURL(u string) bool {
	if strings.IndexFunc(u, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return false
	}
	pu, err := url.Parse(u)
	return err == nil && (pu.Scheme == "http" || pu.Scheme == "https") && pu.Host != ""
}

// ImportDedupIndex reads a CDXJ index of earlier captures (one of
// langcrawl's, pywb's or another crawler's: "SURT timestamp {json}" lines
// with url and digest) and records each 2xx response's payload digest as
// deduplication history, so that the same payload met in this crawl is
// written as a revisit naming that capture by URL and date. Lines it cannot
// use (revisits, other statuses, no digest) are skipped. A line that is not
// CDXJ at all, or whose url holds a control character (a line break would
// forge a header field in every revisit naming it), is an error naming its
// line number. A line whose url is printable but no absolute http(s) URL a
// WARC header can hold (a space, a relative or ftp URL: older archives have
// them) is skipped, its payload fetched in full when met; the import goes
// on and ends with an error wrapping ErrDedupLinesSkipped that counts them
// and names the first. It returns how many digests it added.
func (c *Crawler) ImportDedupIndex(r io.Reader, name string) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	added, n := 0, 0
	skipped, firstSkipped := 0, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "!") || strings.HasPrefix(line, "#") {
			continue // empty, or a header such as pywb's "!meta"
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 || !strings.HasPrefix(f[2], "{") {
			return added, fmt.Errorf("%s:%d: not a CDXJ line (want: SURT timestamp {json})", name, n)
		}
		var j struct {
			URL, Digest, Mime, Status string
		}
		if err := json.Unmarshal([]byte(f[2]), &j); err != nil {
			return added, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if j.URL == "" || j.Digest == "" || j.Digest == "-" || j.Mime == "warc/revisit" || !strings.HasPrefix(j.Status, "2") {
			continue
		}
		if !headerURL(j.URL) {
			// Kept, it would name the capture in every revisit of its
			// payload: a header the archive refuses, which stopped the
			// crawl at every start (a review).
			if strings.IndexFunc(j.URL, unicode.IsControl) >= 0 {
				return added, fmt.Errorf("%s:%d: url %q holds a control character (a damaged or forged index?): mend or remove the line", name, n, j.URL)
			}
			if skipped++; skipped == 1 {
				firstSkipped = n
			}
			continue
		}
		date, err := time.Parse("20060102150405", f[1])
		if err != nil {
			continue
		}
		d := j.Digest
		if !strings.Contains(d, ":") {
			d = "sha1:" + d // pywb writes the digest without its algorithm
		}
		ok, err := c.p.Queue.AddCapture(d, frontier.Capture{URL: j.URL, Date: date})
		if err != nil {
			return added, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if ok {
			added++
		}
	}
	if err := sc.Err(); err != nil {
		return added, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	if skipped > 0 {
		lines := "lines"
		if skipped == 1 {
			lines = "line"
		}
		return added, fmt.Errorf("%w: %s: %d %s whose url is not an absolute http(s) URL a WARC header can hold (a space, a relative URL), the first at line %d: "+
			"their payloads are archived in full when met", ErrDedupLinesSkipped, name, skipped, lines, firstSkipped)
	}
	return added, nil
}

// ErrDedupLinesSkipped is wrapped by ImportDedupIndex's warning that it
// skipped lines whose url no WARC header can hold; the rest of the index
// was imported.
var ErrDedupLinesSkipped = errors.New("dedup index lines skipped")

// outOfScope returns why the scope rules in force now reject the URL of
// e, reached by a link, or "" when they admit it. Seeds (no hop), page
// requisites and redirect targets are held to the exclusions only, as
// when they were queued (scope.Decider.DecideRequisite): a redirect's
// target stands for the URL that was admitted, and a requisite for its
// page.
//
// A seed of this generation is a seed whatever its hop path: a new
// generation queues the known URLs before the seeds, so a seed the
// history knows as a link keeps that entry (a diff review: a section's
// index added as a seed, with a lowered depth limit, was rejected as a
// link too deep, and never fetched). seed reports that the URL is such a
// seed: the caller then takes it as the seed it is (no hop, depth 0 of
// its own tree), so that its links too are decided from the seed.
//
// The seed is a seed even where the scope check would keep it as the
// link: a section's index reached by a link at the depth limit, added as
// a seed with the limit kept, had its links decided one hop past the
// limit and rejected (TestRecrawlSeedAddedWithinDepth).
//
// Under the profile of the generation before (SameProfile) nothing is
// decided again: the entries were decided under the same rules. Only a
// seed given while the crawl runs (Seed after Run began: the status
// page, the action directory), or one queued from the history before
// the seeds, is looked up then (seedsQueued).
func (c *Crawler) outOfScope(e frontier.Entry, u *url.URL) (why string, seed bool, err error) {
	if e.Hops == "" {
		return "", false, nil
	}
	// Whatever its hop path: a seed the history knew as a redirect's
	// target or as a requisite is a seed too, its links decided from it.
	same := c.sameProfile.Load()
	if !same || c.seedsQueued.Load() {
		if n, err := c.p.Queue.BudgetCount(seedURLKey(e.URL)); err != nil {
			return "", false, fmt.Errorf("frontier budget %s: %w", e.URL, err)
		} else if n > 0 {
			return "", true, nil
		}
	}
	if same || e.Requisite || strings.HasSuffix(e.Hops, "R") || strings.HasSuffix(e.Hops, "E") {
		return "", false, nil
	}
	return c.cfg.Scope.DecideURL(e.Tree, e.Depth-1, u).Reject, false, nil
}
