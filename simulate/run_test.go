package simulate

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
)

// crawledSet runs one variant on w and returns the set of pages crawled.
func crawledSet(t *testing.T, w *web, v Variant) (map[string]bool, *RunResult) {
	t.Helper()
	var mu sync.Mutex
	r, err := runOne(context.Background(), w, v, Options{SampleEvery: 1, ProgressEvery: 1 << 40}, 0, &mu)
	if err != nil {
		t.Fatalf("%s: %v", v.label(), err)
	}
	got := map[string]bool{}
	for p, ok := range r.crawled {
		if ok {
			got[w.url(int32(p))[len("http://"):]] = true
		}
	}
	return got, r
}

// TestStep45: a target page reachable only through a link found on an
// undecided server. Conservative filtering (step 4.5) misses it, the
// aggressive strategy finds it. (The Defer improvement, which found it too,
// is gone: the engine does not defer links.)
func TestStep45(t *testing.T) {
	w := handWeb([]tpage{
		{"a.th/0", true, []string{"b.com/0"}},
		{"b.com/0", false, []string{"b.com/1", "c.th/0"}}, // B undecided here
		{"b.com/1", true, nil},                            // B turns relevant
		{"c.th/0", true, nil},                             // only linked from b.com/0
	})
	tests := []struct {
		v       Variant
		wantC   bool
		wantCov float64
	}{
		{Variant{Strategy: string(focus.ConservativeServer)}, false, 2.0 / 3},
		{Variant{Strategy: string(focus.ConservativeDirectory)}, false, 2.0 / 3},
		{Variant{Strategy: string(focus.AggressiveServer)}, true, 1},
		{Variant{Strategy: string(focus.SoftFocused)}, true, 1},
		// Hard focused drops every link of b.com/0, so b.com/1 too.
		{Variant{Strategy: string(focus.HardFocused)}, false, 1.0 / 3},
		{Variant{Strategy: Perfect}, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.v.label(), func(t *testing.T) {
			got, r := crawledSet(t, w, tt.v)
			if got["c.th/0"] != tt.wantC {
				t.Errorf("crawled c.th/0 = %v, want %v (crawled %v)", got["c.th/0"], tt.wantC, got)
			}
			if r.Coverage != tt.wantCov {
				t.Errorf("coverage %v, want %v", r.Coverage, tt.wantCov)
			}
		})
	}
}

// TestIrrelevantServerStops: a non-target server linked many times from a
// relevant page is probed T+1 times by the server strategies, then its
// queue is dropped (server keys) or skipped (directory keys).
func TestIrrelevantServerStops(t *testing.T) {
	const n = 15
	pages := []tpage{{id: "a.th/0", target: true}}
	for i := range n {
		id := fmt.Sprintf("d.com/x/%d", i)
		pages[0].links = append(pages[0].links, id)
		pages = append(pages, tpage{id: id})
	}
	w := handWeb(pages)
	for _, tt := range []struct {
		v         Variant
		wantPages int64
	}{
		{Variant{Strategy: string(focus.AggressiveServer), Tolerance: 3}, 1 + 4},
		{Variant{Strategy: string(focus.ConservativeServer), Tolerance: 3}, 1 + 4},
		{Variant{Strategy: string(focus.ConservativeServer), Tolerance: 6}, 1 + 7},
		{Variant{Strategy: string(focus.ConservativeDirectory), Tolerance: 3}, 1 + 4},
		{Variant{Strategy: string(focus.HardFocused)}, 1 + n},
		{Variant{Strategy: string(focus.BFS)}, 1 + n},
		{Variant{Strategy: Perfect}, 1},
	} {
		t.Run(tt.v.label(), func(t *testing.T) {
			_, r := crawledSet(t, w, tt.v)
			if r.Pages != tt.wantPages {
				t.Errorf("crawled %d pages, want %d", r.Pages, tt.wantPages)
			}
			if r.FinalQueue != 0 && tt.v.Strategy != string(focus.ConservativeDirectory) {
				t.Errorf("final queue %d, want 0", r.FinalQueue)
			}
			if tt.v.Strategy == string(focus.ConservativeDirectory) && r.Skipped != n-4 {
				t.Errorf("directory variant skipped %d, want %d", r.Skipped, n-4)
			}
		})
	}
}

// TestPerfectOracle checks the oracle's definition on a small web: pages on
// a shortest path to a target page are useful, dead ends are not.
func TestPerfectOracle(t *testing.T) {
	w := handWeb([]tpage{
		{"s.th/0", true, []string{"x.com/0", "y.com/0"}},
		{"x.com/0", false, []string{"t.th/0"}},  // on the path to t.th/0
		{"y.com/0", false, []string{"y.com/1"}}, // dead end
		{"y.com/1", false, nil},
		{"t.th/0", true, []string{"s.th/0"}},
	})
	want := []bool{true, true, false, false, true}
	for p, u := range w.useful {
		if u != want[p] {
			t.Errorf("useful[%s] = %v, want %v", w.url(int32(p)), u, want[p])
		}
	}
}
