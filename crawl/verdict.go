package crawl

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/links"
	"github.com/langcrawl/langcrawl/scope"
)

// The engine's side of the sequential server verdict and directory status
// (package focus, strategy sequential). For the paper's strategies each of
// these does what the loop did before: count N_a and N_r, and nothing else.

// tally counts a downloaded page against its server (Tamura Fig. 3 steps
// 2-3) and, for the sequential strategy, adds the page's evidence and
// counts it against its directory. counts are the server's counters
// before the page. It returns the server's counters with the page, the
// frontier tallies, and the link that probes the server's home page when
// the sequential verdict waits for it (nil otherwise).
//
// opening is what step 4.5 reads for the page's links (focus.Policy.OpeningCounts):
// the server's counters with the page, or, for a page in a user's directory
// of a hosting server, with that user's count of target pages; a close
// call's own links open servers as a target page's do.
//
// recheck marks a page fetched to re-check a server judged irrelevant in an
// earlier generation: its target verdict is never a close call, so one
// page reopens the server as before (a review: a server turned Malay, its
// pages close calls, stayed irrelevant in every later generation).
func (c *Crawler) tally(pol *focus.Policy, key string, counts focus.Counts, e frontier.Entry, u *url.URL,
	out outcome, found []links.Link, recheck bool) (src focus.Counts, ts []frontier.Tally, probe *links.Link, opening focus.Counts, err error) {
	pg := focus.Page{Relevant: out.relevant}
	if out.det != nil {
		pg.Confidence = out.det.Confidence
		// A doubt against English at detect.EnglishDoubt or more is no
		// close call: English is the language of the templates around a
		// short native line, and a target page read so is a mixed page,
		// not one that may be in another language. A trial found
		// Galician and Catalan shops whose few pages read as the target,
		// against English, cut at T+1 where conservative-server kept them
		// (94 Galician pages on one web). A weaker one is (a review: a
		// page at 0.55 against English kept an English server whole).
		pg.CloseCall = out.det.Rival != "" && !pol.IsTarget(out.det.Rival) && !recheck &&
			!(isEnglish(out.det.Rival) && rivalConfidence(out.det) >= detect.EnglishDoubt)
		pg.RivalConfidence = out.det.RivalConfidence
		switch {
		case pg.CloseCall && pg.RivalConfidence > 0:
			// The chance the page is in the target is at most the chance
			// it is not its foreign rival: a Danish line read as Bokmål
			// at 0.999 against Nynorsk is 0.543 against Danish, and must
			// not decide its server at once (focus.Policy.Weigh).
			pg.Confidence = min(pg.Confidence, pg.RivalConfidence)
		case !out.relevant && out.det.Rival != "" && pol.IsTarget(out.det.Rival) && out.det.RivalConfidence > 0:
			// And the chance a foreign page is not in the target is at
			// most the chance it is not its target rival (a review: a
			// Danish page read as Bokmål at 0.979 against Danish at 0.861
			// weighed at 0.979 against its server in a crawl for da).
			pg.Confidence = min(pg.Confidence, out.det.RivalConfidence)
		}
	}
	pg.Home = isHome(u, e)
	pg.Probe = pg.Home && probed(e)
	pg.UserDir = focus.IsUserDir(u.Path) // decoded: /%7Ename/ too
	pg.Reached = reached(u, e)
	if pol.NeedsLinks(counts) {
		if pg.TargetLinks, pg.SelfTargetLinks, err = c.targetLinks(pol, key, out.relevant, found); err != nil {
			return counts, nil, nil, counts, err
		}
	}
	src = pol.Count(counts, pg)
	opening = src
	// N_r, Home and Probe as Count kept them: the paper's strategies keep
	// neither of the last two, so their counter records stay two varints;
	// a close call counts apart.
	ts = []frontier.Tally{{Key: key, Relevant: src.Relevant > counts.Relevant, Close: src.Close > counts.Close,
		Evidence: src.Evidence - counts.Evidence, PageEvidence: src.PageEvidence - counts.PageEvidence,
		Home: src.Home && !counts.Home, Probe: src.Probes > counts.Probes, SelfLinks: src.SelfLinks && !counts.SelfLinks}}
	if dk := pol.DirKey(key, scope.DirKey(u)); dk != "" {
		n, err := c.p.Queue.Counts(dk)
		if err != nil {
			return counts, nil, nil, counts, fmt.Errorf("frontier counts %s: %w", dk, err)
		}
		d := focus.Counts(n)
		after := pol.CountDir(d, pg)
		ts = append(ts, frontier.Tally{Key: dk, Relevant: after.Relevant > d.Relevant, Close: after.Close > d.Close,
			Evidence: after.Evidence - d.Evidence})
		opening = pol.OpeningCounts(src, after, dk)
	}
	if pol.CloseCall(pg) && pol.Status(src) != focus.Irrelevant {
		// Step 4.5 lets the page's own links open servers never visited,
		// as a target page's, unless its server is judged irrelevant: the
		// close call is more likely target than not, and a link once
		// rejected is not decided again (a review: a Malay server's home
		// page, its first close call, lost the only link to another Malay
		// server).
		opening.Relevant = max(opening.Relevant, 1)
	}
	if pol.Probe(src) {
		home := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}).String()
		probe = &links.Link{URL: home, Kind: links.Nav, Tag: "focus", Attr: focus.ReasonHomeProbe}
	}
	return src, ts, probe, opening, nil
}

// isProbe reports whether a link is the home probe tally adds.
func isProbe(ln links.Link) bool {
	return ln.Tag == "focus" && ln.Attr == focus.ReasonHomeProbe
}

// probed reports whether e was queued by the home probe (hop I), or is
// where the probe's URL redirected to: a page no link asked for, which the
// sequential verdict's backstop does not count (focus.Page.Probe). Only a
// page isHome accepts is counted so: "/" itself, or the end of one redirect
// from it on the same server. (A probe that redirects to another host
// reaches that host's home page, which the verdict would have asked for.)
func probed(e frontier.Entry) bool {
	return strings.HasSuffix(strings.TrimRight(e.Hops, "R"), "I")
}

// isHome reports whether the page at u, reached as e, is its server's home
// page: "/" itself, or the end of a redirect from it on the same server.
func isHome(u *url.URL, e frontier.Entry) bool {
	if focus.IsHome(u.EscapedPath(), u.RawQuery) {
		return true
	}
	if !strings.HasSuffix(e.Hops, "R") || e.Via == "" {
		return false
	}
	v, err := url.Parse(e.Via)
	return err == nil && strings.EqualFold(v.Host, u.Host) && focus.IsHome(v.EscapedPath(), v.RawQuery)
}

// reached is how the crawl reached the page at u, queued as e (focus.Reach):
// from another server, from a target page of its own (queued at high
// priority), from a non-target page of its own, or by no link (a seed).
func reached(u *url.URL, e frontier.Entry) focus.Reach {
	if e.Via == "" {
		return focus.ReachedOther
	}
	v, err := url.Parse(e.Via)
	switch {
	case err != nil:
		return focus.ReachedOther
	case scope.SiteKey(v) != scope.SiteKey(u):
		return focus.ReachedInter
	case e.Priority == frontier.High:
		return focus.ReachedFromTarget
	}
	return focus.ReachedFromOther
}

// targetLinks reports whether a page of server key links to another server
// the frontier knows to be relevant, to a URL that names the target as a
// section (/th/), or holds a navigation link whose own evidence for the
// target is at least focus.Strong: what the page's links say about its
// server (focus.Page.TargetLinks), as some; and self, whether one of the last two
// is a link to the same server (focus.Page.SelfTargetLinks). It stops at
// the first such link to the same server. The evidence here is the
// link's score without its anchor's language (Link.AnchorLang), which
// only decideNav reads: a short anchor read as the target is a reason to
// fetch the link, not to judge the server holding it.
func (c *Crawler) targetLinks(pol *focus.Policy, key string, relevant bool, found []links.Link) (some, self bool, err error) {
	seen := map[string]bool{key: true}
	for _, ln := range found {
		if ln.Kind != links.Nav {
			continue
		}
		u, perr := url.Parse(ln.URL)
		host := ""
		if perr == nil {
			host = scope.SiteKey(u)
		}
		if pol.NamesTarget(ln.URL) ||
			pol.Score(focus.Link{URL: ln.URL, Anchor: ln.Anchor, Hreflang: ln.Hreflang, Lang: ln.Lang, FromTarget: relevant}) >= focus.Strong {
			if host == key {
				return true, true, nil
			}
			some = true
			continue
		}
		if perr != nil || some || seen[host] {
			continue // another server known relevant adds nothing once some is set
		}
		seen[host] = true
		n, err := c.p.Queue.Counts(host)
		if err != nil {
			return false, false, fmt.Errorf("frontier counts %s: %w", host, err)
		}
		if d := focus.Counts(n); d.Relevant > 0 || pol.Status(d) == focus.Relevant {
			some = true
		}
	}
	return some, false, nil
}

// skipDir returns why a leased URL at u, on a server with counters server,
// is skipped for its directory ("" if it is not): the sequential strategy
// judged its section of a relevant server foreign after it was queued.
func (c *Crawler) skipDir(pol *focus.Policy, key string, server focus.Counts, u *url.URL) (string, error) {
	dk := pol.DirKey(key, scope.DirKey(u))
	if dk == "" || (server.Relevant == 0 && pol.Status(server) != focus.Relevant) {
		return "", nil
	}
	n, err := c.p.Queue.Counts(dk)
	if err != nil {
		return "", fmt.Errorf("frontier counts %s: %w", dk, err)
	}
	if pol.SkipDir(server, focus.Counts(n)) {
		return "focus:" + focus.ReasonIrrelevantDir, nil
	}
	return "", nil
}

// decideDir applies directory status to the verdict v on a navigation link
// ln to u, whose server has counters dest: a link into a section of a
// relevant server judged foreign is rejected. counts caches the page's
// counter lookups (directory keys end in "/", host keys never do). The
// home probe (tally) goes at high priority: the verdict waits for it.
func (c *Crawler) decideDir(pol *focus.Policy, v focus.Verdict, u *url.URL, dest focus.Counts, counts map[string]focus.Counts, ln links.Link) (focus.Verdict, error) {
	if !v.Enqueue {
		return v, nil
	}
	if isProbe(ln) {
		v.High, v.Reason = true, focus.ReasonHomeProbe
	}
	dk := pol.DirKey(scope.SiteKey(u), scope.DirKey(u))
	if dk == "" || (dest.Relevant == 0 && pol.Status(dest) != focus.Relevant) {
		return v, nil
	}
	d, ok := counts[dk]
	if !ok {
		n, err := c.p.Queue.Counts(dk)
		if err != nil {
			return v, fmt.Errorf("frontier counts %s: %w", dk, err)
		}
		d = focus.Counts(n)
		counts[dk] = d
	}
	return pol.DecideDir(v, dest, d), nil
}

// isEnglish reports whether a language tag is English ("en", "en-GB").
func isEnglish(tag string) bool {
	t := strings.ToLower(tag)
	return t == "en" || strings.HasPrefix(t, "en-")
}

// rivalConfidence is the confidence of d's decision against its rival,
// else of its language (focus.Policy.CloseCall reads them so).
func rivalConfidence(d *detect.Result) float64 {
	if d.RivalConfidence > 0 {
		return d.RivalConfidence
	}
	return d.Confidence
}
