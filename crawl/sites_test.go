package crawl

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
)

// walkSites is Sites by brute force, as it was before the counts were
// kept: every site sorted, every status counted.
func walkSites(s *Stats, n, tol int) SiteReport {
	var r SiteReport
	var all []SiteCount
	for site, t := range s.hosts {
		all = append(all, SiteCount{Site: site, Responses: t.responses, Pages: t.pages, Relevant: t.relevant})
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
	slices.SortFunc(all, func(a, b SiteCount) int {
		if busier(a.Responses, a.Site, b) {
			return -1
		}
		return 1
	})
	r.Top = all[:min(n, len(all))]
	return r
}

// randomCrawl records pages of sites (skewed: a few busy ones, many
// small) in a random order, some relevant, some judged by a verdict, as
// the loop does.
func randomCrawl(c *Crawler, rng *rand.Rand, sites, pages int) {
	for range pages {
		i := int(rng.ExpFloat64()*float64(sites)/8) % sites
		site := fmt.Sprintf("h%07d.test", i)
		if i%11 == 0 && rng.IntN(2) == 0 {
			c.stats.judge(site, focus.Status(rng.IntN(3))) // before any page of it, as the loop may
		}
		page := rng.IntN(4) > 0
		c.stats.record(frontier.Entry{URL: "http://" + site + "/", Site: site},
			outcome{status: 200, page: page, relevant: page && i%5 == 0 && rng.IntN(3) == 0})
		if i%7 == 0 {
			c.stats.judge(site, focus.Status(rng.IntN(3)))
		}
	}
}

// TestSitesKeptAsWalked: the counts and the top list Sites keeps as pages
// complete are those a walk over every site gives, at every point of a
// random crawl, for tolerances below, at and above the pages seen, and
// for n within and beyond the list kept.
func TestSitesKeptAsWalked(t *testing.T) {
	for seed := range uint64(6) {
		pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 3})
		c := &Crawler{stats: newStats(), cfg: Config{Focus: pol}}
		if seed == 5 {
			c.stats.maxHosts = 60 // the cap on sites kept: the rest are not counted
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		for step := range 20 {
			randomCrawl(c, rng, 400, 150)
			for _, n := range []int{0, 1, 10, topSites, topSites + 5, 1000} {
				got, want := c.Sites(n), walkSites(&c.stats, n, 3)
				if n == 0 {
					want.Top = nil
				}
				if !slices.Equal(got.Top, want.Top) {
					t.Fatalf("seed %d step %d: Sites(%d).Top\n got %v\nwant %v", seed, step, n, got.Top, want.Top)
				}
				if got.Relevant != want.Relevant || got.Undecided != want.Undecided || got.Irrelevant != want.Irrelevant {
					t.Fatalf("seed %d step %d: statuses %d/%d/%d, walked %d/%d/%d", seed, step,
						got.Relevant, got.Undecided, got.Irrelevant, want.Relevant, want.Undecided, want.Irrelevant)
				}
			}
		}
		// Other tolerances: the counts by pages serve any of them.
		for _, tol := range []int{0, 1, 10, 1000} {
			rel, und, irr := c.stats.sites.statuses(tol)
			w := walkSites(&c.stats, 0, tol)
			if rel != w.Relevant || und != w.Undecided || irr != w.Irrelevant {
				t.Errorf("seed %d, T = %d: %d/%d/%d, walked %d/%d/%d", seed, tol, rel, und, irr, w.Relevant, w.Undecided, w.Irrelevant)
			}
		}
	}
}

// TestSitesFallingTolerance: the statuses use the tolerance in force,
// which falls as pages are crawled (Tamura 5.2), not the starting one.
func TestSitesFallingTolerance(t *testing.T) {
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 3, Decay: focus.Decay{Every: 1}})
	c := &Crawler{stats: newStats(), cfg: Config{Focus: pol}}
	for range 2 {
		c.stats.record(frontier.Entry{URL: "http://a.test/", Site: "a.test"}, outcome{status: 200, page: true})
	}
	// Two pages crawled: T is 3 - 2 = 1, and a.test, with two pages and
	// none relevant, is past it.
	if r := c.Sites(0); r.Irrelevant != 1 || r.Undecided != 0 {
		t.Errorf("statuses %d undecided, %d irrelevant; want a.test irrelevant under the fallen T = %d",
			r.Undecided, r.Irrelevant, c.policy().Tolerance())
	}
}

// BenchmarkSites is the status page's call once a second (Sites(0) for the
// sample, Sites(10) for the page) on a crawl of a million sites.
func BenchmarkSites(b *testing.B) {
	pol, err := focus.New(focus.Config{Strategy: focus.ConservativeServer})
	if err != nil {
		b.Fatal(err)
	}
	c := &Crawler{stats: newStats(), cfg: Config{Focus: pol}}
	for i := range 1_000_000 {
		site := fmt.Sprintf("h%07d.test", i)
		for range 1 + i%3 {
			c.stats.record(frontier.Entry{URL: "http://" + site + "/", Site: site}, outcome{status: 200, page: true, relevant: i%4 == 0})
		}
	}
	b.ResetTimer()
	for range b.N {
		c.Sites(0)
		c.Sites(10)
	}
}
