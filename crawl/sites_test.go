package crawl

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// crawlerWithSites is a Crawler whose counters hold n sites with random
// response counts (ties included), for Sites.
func crawlerWithSites(n int) *Crawler {
	c := &Crawler{stats: newStats()}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		c.stats.hosts[fmt.Sprintf("h%07d.test", i)] = &siteTally{responses: rng.Int64N(50), pages: 1}
	}
	return c
}

// TestSitesTop: the top n is the first n of every site sorted by responses,
// then name, for n below, at and above the number of sites.
func TestSitesTop(t *testing.T) {
	c := crawlerWithSites(500)
	var all []SiteCount
	for site, h := range c.stats.hosts {
		all = append(all, SiteCount{Site: site, Responses: h.responses, Pages: h.pages, Relevant: h.relevant})
	}
	slices.SortFunc(all, func(a, b SiteCount) int {
		if busier(a.Responses, a.Site, b) {
			return -1
		}
		return 1
	})
	for _, n := range []int{0, 1, 10, 499, 500, 800} {
		got := c.Sites(n).Top
		if want := all[:min(n, len(all))]; !slices.Equal(got, want) {
			t.Errorf("Sites(%d).Top: %d sites, first %v; want %d, first %v", n, len(got), got[:min(3, len(got))], len(want), want[:min(3, len(want))])
		}
	}
}

// BenchmarkSites is the status page's call once a second (Sites(0) for the
// sample, Sites(10) for the page) on a crawl of a million sites.
func BenchmarkSites(b *testing.B) {
	c := crawlerWithSites(1_000_000)
	b.ResetTimer()
	for range b.N {
		c.Sites(0)
		c.Sites(10)
	}
}
