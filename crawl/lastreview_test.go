package crawl

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/politeness"
)

// concurrencyServer starts one 127.0.0.1 server for every test host
// (routed on the Host header): robots.txt allows all; seed.test/ links to
// the homes; a home page is held until more than bound page requests are
// under way at once (the fault, seen) or its server time has passed. It
// records the most page requests (robots.txt apart) under way at once.
type concurrencyServer struct{ crowd }

func (s *concurrencyServer) handler(homes []string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		if r.Host == "seed.test" {
			attackPage(w, homes...)
			return
		}
		s.hold(100 * time.Millisecond)
		attackPage(w)
	}
}

// TestLastReviewRobotsConnectionUnbound (from a review of the last
// commits): thirty shops on one address, whose first DNS lookup fails for
// a moment (as in TestDNSReviewTransientLookupFailureUnbound), crawled
// with the real fetch client and a real politeness gate. A site's first
// lease fetches robots.txt on a new connection that no address check
// sees (the gate's fetch has none), and the page then goes out on that
// kept-alive connection, which the client does not check again
// (fetch.WithAddressCheck): the page was counted under no address, and
// the server got every worker's page at once under
// scheduling.address_connections 2. The fake fetcher of the DNS review
// treated every fetch as a new connection, and fetched no robots.txt
// through the client the pages use.
func TestLastReviewRobotsConnectionUnbound(t *testing.T) {
	const bound = 2
	var homes []string
	for i := range 30 {
		homes = append(homes, fmt.Sprintf("http://shop%d.test/", i))
	}
	srv := &concurrencyServer{newCrowd(bound)}
	client := attackServer(t, srv.handler(homes), fetch.Config{UserAgent: "langcrawl/1.0"})
	var g *politeness.Gate
	var c *Crawler // told of robots.txt answers, as langcrawl crawl wires it
	answered := func(site, ip string, status int) { c.Answered(site, ip, status) }
	slot := func(ctx context.Context, site string) (func(time.Time), error) { return g.Acquire(ctx, site) }
	g, err := politeness.New(politeness.Config{UserAgent: "langcrawl/1.0"}, RobotsFetcher(client, &fakeArchive{}, slot, nil, answered))
	if err != nil {
		t.Fatal(err)
	}
	resolve := flakyResolve(func(host string) bool { return strings.HasPrefix(host, "shop") }, client.Address)
	r := newRetryRig(t, fakeWeb{}, nil)
	c, err = New(Config{Workers: 8, Retries: fastRetries, AddressConnections: bound, Resolve: resolve},
		Parts{Queue: r.q, Archive: r.a, Fetcher: client, Gate: g, Detector: fakeDetector{}, CrawlLog: r.cl})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seed([]string{"http://seed.test/"}); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, c)
	if srv.most > bound {
		t.Errorf("%d pages at once at the one address after lookups that failed for a moment, bound %d", srv.most, bound)
	}
	for _, h := range homes {
		if !r.archived(h) {
			t.Errorf("%s not archived", h)
		}
	}
	if c.slots.underWay() {
		t.Errorf("slots still held after the crawl: %v %v", c.slots.domains, c.slots.addrs)
	}
}
