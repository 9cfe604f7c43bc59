package crawl

import (
	"slices"
	"sort"
	"time"

	"github.com/langcrawl/langcrawl/focus"
)

// siteTally is what Stats keeps of one site: this run's responses, the
// HTML pages among them and the relevant pages among those; and, under the
// sequential strategy, the focus verdict after its latest page (judged
// set), which counts alone cannot give.
type siteTally struct {
	responses, pages, relevant int64
	verdict                    focus.Status
	judged                     bool
}

// FailedURL is one of the latest failures: a URL given up on, or answered
// with an error status.
type FailedURL struct {
	Time   time.Time
	URL    string
	Status int    // the crawl.log status: negative for no response
	Note   string // the crawl.log annotations
}

// errorRing keeps the latest failures. Guarded by Stats.mu.
type errorRing struct {
	buf  [50]FailedURL
	next int
	n    int
}

func (r *errorRing) add(f FailedURL) {
	if f.Time.IsZero() {
		f.Time = time.Now()
	}
	r.buf[r.next] = f
	r.next = (r.next + 1) % len(r.buf)
	r.n = min(r.n+1, len(r.buf))
}

// latest returns the failures, newest first.
func (r *errorRing) latest() []FailedURL {
	out := make([]FailedURL, 0, r.n)
	for i := 1; i <= r.n; i++ {
		out = append(out, r.buf[(r.next-i+len(r.buf))%len(r.buf)])
	}
	return out
}

// SiteCount is one site's figures in a SiteReport.
type SiteCount struct {
	Site      string
	Responses int64 // this run's responses
	Pages     int64 // HTML pages among them
	Relevant  int64 // pages in the target language
}

// SiteReport is what a status page shows of the sites: the busiest ones,
// how many are in each focusing status, and the latest failures.
type SiteReport struct {
	Top []SiteCount // by responses, most first
	// Sites by focusing status, when the crawl focuses (all zero
	// otherwise): Tamura section 4.1 over this run's pages, or the
	// sequential strategy's own verdict after each site's latest page.
	Relevant, Undecided, Irrelevant int
	Errors                          []FailedURL // newest first
}

// Sites returns the top n sites by responses this run, the sites by
// focusing status (under the sequential strategy the engine's own verdict
// after each site's latest page, else Tamura's rule on this run's counts),
// and the latest failures. The counts and the busiest topSites sites are
// kept as pages complete (siteCounts), so the status page's call once a
// second costs the same on a crawl of a million sites as on one of ten
// (BenchmarkSites); a larger n walks every site.
func (c *Crawler) Sites(n int) SiteReport {
	tol := -1
	if p := c.policy(); p != nil {
		tol = p.Tolerance() // in force: it falls as pages are crawled (Decay)
	}
	s := &c.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	var r SiteReport
	if tol >= 0 {
		r.Relevant, r.Undecided, r.Irrelevant = s.sites.statuses(tol)
	}
	r.Errors = s.errs.latest()
	if n <= 0 {
		return r
	}
	if n <= len(s.sites.top) || len(s.sites.top) == len(s.hosts) {
		for _, site := range s.sites.top[:min(n, len(s.sites.top))] {
			t := s.hosts[site]
			r.Top = append(r.Top, SiteCount{Site: site, Responses: t.responses, Pages: t.pages, Relevant: t.relevant})
		}
		return r
	}
	top := make([]SiteCount, 0, n+1)
	for site, t := range s.hosts {
		if len(top) < n || busier(t.responses, site, top[len(top)-1]) {
			// Insert in order; the list is n long at most.
			sc := SiteCount{Site: site, Responses: t.responses, Pages: t.pages, Relevant: t.relevant}
			i := sort.Search(len(top), func(i int) bool { return busier(sc.Responses, sc.Site, top[i]) })
			top = slices.Insert(top, i, sc)
			if len(top) > n {
				top = top[:n]
			}
		}
	}
	r.Top = top
	return r
}

// topSites is how many of the busiest sites siteCounts keeps in order.
const topSites = 32

// siteCounts sums the sites of Stats.hosts as Sites reports them, changed
// with each site's tally (add), so that Sites need not walk them all:
// sites whose status is a sequential verdict by that verdict, the others
// by Tamura's rule, which needs the tolerance in force, so those with no
// relevant page are counted by their pages. And it keeps the topSites
// busiest sites in order: responses only grow, so a site enters when it
// passes the last one kept, and the list stays exact.
type siteCounts struct {
	judged   [3]int        // by verdict (focus.Status)
	relevant int           // not judged, with a relevant page
	byPages  map[int64]int // not judged, none relevant: by HTML pages
	top      []string      // the busiest sites, busiest first
}

func newSiteCounts() siteCounts {
	return siteCounts{byPages: map[int64]int{}}
}

// add adds (d = 1) or removes (d = -1) the tally t.
func (sc *siteCounts) add(t *siteTally, d int) {
	switch {
	case t.judged:
		sc.judged[t.verdict] += d
	case t.relevant > 0:
		sc.relevant += d
	default:
		sc.byPages[t.pages] += d
		if sc.byPages[t.pages] == 0 {
			delete(sc.byPages, t.pages)
		}
	}
}

// statuses returns the sites relevant, undecided and irrelevant under
// tolerance tol, as focus.StatusOf and the verdicts give them.
func (sc *siteCounts) statuses(tol int) (rel, und, irr int) {
	rel, und, irr = sc.judged[focus.Relevant]+sc.relevant, sc.judged[focus.Undecided], sc.judged[focus.Irrelevant]
	for pages, n := range sc.byPages {
		if pages <= int64(tol) {
			und += n
		} else {
			irr += n
		}
	}
	return rel, und, irr
}

// busier moves site, whose responses t just grew, into its place in top;
// hosts holds every site's tally (Stats.hosts).
func (sc *siteCounts) busier(site string, t *siteTally, hosts map[string]*siteTally) {
	above := func(other string) bool { // site before other
		return busier(t.responses, site, SiteCount{Site: other, Responses: hosts[other].responses})
	}
	i := slices.Index(sc.top, site)
	if i < 0 {
		if len(sc.top) == topSites && !above(sc.top[topSites-1]) {
			return
		}
		sc.top = append(sc.top, site)
		i = len(sc.top) - 1
	}
	for ; i > 0 && above(sc.top[i-1]); i-- {
		sc.top[i], sc.top[i-1] = sc.top[i-1], sc.top[i]
	}
	sc.top = sc.top[:min(len(sc.top), topSites)]
}

// busier reports whether a site with responses comes before b in the top
// list: more responses, then by name.
func busier(responses int64, site string, b SiteCount) bool {
	if responses != b.Responses {
		return responses > b.Responses
	}
	return site < b.Site
}
