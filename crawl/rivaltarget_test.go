package crawl

import (
	"fmt"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
)

// TestForeignVerdictAgainstTargetRival: a foreign verdict whose rival is
// the target is weighed at most at its rival's confidence, as a close call
// is: the chance the page is not in the target is at most the chance it is
// not the rival. Here (the fake's target is th) a server whose first pages
// read English at 0.999 but against th at 0.4, its later pages th, keeps
// its th pages within T+1. A review found such pages weighed at 0.999
// against their server (a Danish page read as Bokmål at 0.979 against
// Danish at 0.861, in a crawl for da), which judged it irrelevant first.
func TestForeignVerdictAgainstTargetRival(t *testing.T) {
	var inner, from []string
	for i := range 12 {
		inner = append(inner, fmt.Sprintf("/%d", i))
		from = append(from, fmt.Sprintf("http://shop.test/%d", i))
	}
	// A target server links the shop's home page and each of its pages
	// (reached from another server: q = 0.70 each).
	web := fakeWeb{"http://th.test/": page("th", append([]string{"http://shop.test/"}, from...)...)}
	web["http://shop.test/"] = page("en", append([]string{"closecall:th:0.999:0.4"}, inner...)...)
	for i := range 12 {
		if i < 6 {
			web[fmt.Sprintf("http://shop.test/%d", i)] = page("en", "closecall:th:0.999:0.4")
		} else {
			web[fmt.Sprintf("http://shop.test/%d", i)] = page("th")
		}
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.Sequential, Langs: []string{"th"}, Tolerance: 10})
	h := newHarness(t, web, Config{Focus: pol}, "http://th.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	n, err := h.q.Counts("shop.test")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("shop.test: fetched %d, counters %+v", h.fetchedUnder("http://shop.test/"), n)
	if !h.fetched("http://shop.test/6") {
		t.Errorf("shop.test's first th page (/6, its eighth page, within T+1) was never fetched: pages read as English at 0.999 but against the target at 0.4 judged it irrelevant (fetched %d)", h.fetchedUnder("http://shop.test/"))
	}
}
