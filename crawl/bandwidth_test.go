package crawl

import (
	"context"
	"fmt"
	"testing"

	"github.com/langcrawl/langcrawl/bandwidth"
)

// With a bandwidth limit the engine leases through the fetcher manager:
// every URL is still fetched, each fetch is admitted and measured, and
// nothing stays reserved when the crawl ends.
func TestBandwidthManagerDrivesLeases(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "http://b.test/", "http://c.test/", "/1", "/2")}
	for _, u := range []string{"http://b.test/", "http://c.test/", "http://a.test/1", "http://a.test/2"} {
		web[u] = page("th")
	}
	mgr, err := bandwidth.New(bandwidth.Config{Limit: 1e6, Store: bandwidth.NewMemStore()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{Workers: 4, Bandwidth: mgr}, nil, "http://a.test/")
	if reason, err := c.Run(context.Background()); err != nil || reason != StopDone {
		t.Fatalf("Run = %q, %v", reason, err)
	}
	for u := range web {
		if !r.archived(u) {
			t.Errorf("%s not archived under a bandwidth limit", u)
		}
	}
	st := mgr.Stats()
	if st.Admitted < int64(len(web)) || st.InFlight != 0 {
		t.Errorf("manager stats %+v: want every fetch admitted and none left in flight", st)
	}
	if got := fmt.Sprint(mgr.Predicted()); got != "0" {
		t.Errorf("CB after the crawl = %s, want 0", got)
	}
}
