package simulate

import (
	"context"
	"testing"
)

// TestMaxPages: a run stops after exactly MaxPages pages, the page in hand
// finished by the engine, and its curve ends there.
func TestMaxPages(t *testing.T) {
	g := smallGraph(t)
	res, err := Run(context.Background(), g, Options{Strategies: []string{"bfs", "conservative-server"}, MaxPages: 500})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Runs {
		if r.Pages != 500 {
			t.Errorf("%s crawled %d pages, want 500", r.Name, r.Pages)
		}
		if last := r.Curve[len(r.Curve)-1]; last.Pages != 500 {
			t.Errorf("%s: the curve ends at %d pages, want 500", r.Name, last.Pages)
		}
	}
}

// TestDeterministic: the engine runs one worker on a standing clock, so
// the same web and variant give the same crawl.
func TestDeterministic(t *testing.T) {
	g := smallGraph(t)
	opts := Options{Strategies: []string{"conservative-server", "perfect"}}
	a, err := Run(context.Background(), g, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), g, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Runs {
		ra, rb := a.Runs[i], b.Runs[i]
		if ra.Pages != rb.Pages || ra.Targets != rb.Targets || ra.PeakQueue != rb.PeakQueue || ra.Servers != rb.Servers {
			t.Errorf("%s: two runs differ: %d/%d/%d/%d and %d/%d/%d/%d pages/targets/peak queue/servers", ra.Name,
				ra.Pages, ra.Targets, ra.PeakQueue, ra.Servers, rb.Pages, rb.Targets, rb.PeakQueue, rb.Servers)
		}
		for p := range ra.crawled {
			if ra.crawled[p] != rb.crawled[p] {
				t.Fatalf("%s: page %s crawled in one run and not the other", ra.Name, g.URL(int32(p)))
			}
		}
	}
}
