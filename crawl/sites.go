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
// and the latest failures. It walks every site the run has answered from
// under the counters' lock, keeping only the top n (a crawl of a million
// hosts must not copy and sort them all every second, as the status page
// asks: BenchmarkSites), so call it about once a second, not per URL.
func (c *Crawler) Sites(n int) SiteReport {
	tol := -1
	if c.cfg.Focus != nil {
		tol = c.cfg.Focus.Tolerance()
	}
	s := &c.stats
	s.mu.Lock()
	var r SiteReport
	top := make([]SiteCount, 0, max(n, 0)+1)
	for site, t := range s.hosts {
		if n > 0 && (len(top) < n || busier(t.responses, site, top[len(top)-1])) {
			// Insert in order; the list is n long at most.
			sc := SiteCount{Site: site, Responses: t.responses, Pages: t.pages, Relevant: t.relevant}
			i := sort.Search(len(top), func(i int) bool { return busier(sc.Responses, sc.Site, top[i]) })
			top = slices.Insert(top, i, sc)
			if len(top) > n {
				top = top[:n]
			}
		}
		if tol >= 0 {
			st := focus.StatusOf(focus.Counts{Downloaded: t.pages, Relevant: t.relevant}, tol)
			if t.judged {
				st = t.verdict
			}
			switch st {
			case focus.Relevant:
				r.Relevant++
			case focus.Undecided:
				r.Undecided++
			default:
				r.Irrelevant++
			}
		}
	}
	r.Errors = s.errs.latest()
	s.mu.Unlock()
	r.Top = top
	return r
}

// busier reports whether a site with responses comes before b in the top
// list: more responses, then by name.
func busier(responses int64, site string, b SiteCount) bool {
	if responses != b.Responses {
		return responses > b.Responses
	}
	return site < b.Site
}
