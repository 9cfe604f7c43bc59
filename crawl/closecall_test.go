package crawl

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
)

// TestRecheckCloseCall: a server judged irrelevant in generation 1
// (English then) whose pages are all in the target language in generation
// 2, each page a close call (as 37 of 54 short genuine Malay pages are).
// The re-check's page reopens it as a target page does: a review found
// the first version counting it as a close call, so the server stayed
// irrelevant and its new pages were never crawled, in any generation.
// The control ("plain"): a verdict no neighbour contested.
func TestRecheckCloseCall(t *testing.T) {
	for _, c := range []struct{ name, mark string }{{"plain", ""}, {"close call", "closecall:id:0.9"}} {
		t.Run(c.name, func(t *testing.T) {
			web := fakeWeb{
				"http://th.test/":  page("th", "http://en.test/", "http://en.test/1", "http://en.test/2", "http://en.test/3"),
				"http://en.test/":  page("en"),
				"http://en.test/1": page("en"),
				"http://en.test/2": page("en"),
				"http://en.test/3": page("en"),
			}
			pol := mustPolicy(t, focus.Config{Strategy: focus.Sequential, Tolerance: 2, Langs: []string{"th"}})
			g := newGenRig(t, web, nil)
			g.firstGeneration(t, Config{Focus: pol, Recheck: true}, "http://th.test/")
			if cs, _ := g.q.Counts("en.test"); pol.Status(focus.Counts(cs)) != focus.Irrelevant {
				t.Fatalf("generation 1: en.test %+v not irrelevant", cs)
			}
			// Months later en.test is in the target language, with a new page.
			links := []string{}
			if c.mark != "" {
				links = append(links, c.mark)
			}
			for _, p := range []string{"1", "2", "3"} {
				web["http://en.test/"+p] = page("th", links...)
			}
			web["http://en.test/"] = page("th", append([]string{"/4"}, links...)...)
			web["http://en.test/4"] = page("th", links...)
			for gen := 2; gen <= 3; gen++ {
				got := g.nextGeneration(t, Config{Focus: pol, Recheck: true}, "http://th.test/")
				if !slices.Contains(got, "http://en.test/4") {
					cs, _ := g.q.Counts("en.test")
					var en []string
					for _, u := range got {
						if strings.HasPrefix(u, "http://en.test/") {
							en = append(en, u)
						}
					}
					t.Errorf("generation %d: en.test, now in the target language, not crawled again (fetched %q; counters %+v)", gen, en, cs)
				}
			}
		})
	}
}

// TestCloseCallHomeLinkOpens: a Malay server whose every page is a close
// call at 0.9 (as TestSequentialCloseCall's "every page a close call"),
// with the link to a server never visited on its home page, the first page
// counted. A close call's own links open servers (step 4.5): a review found
// the first version rejecting that link before the test had judged the
// server relevant, and a link once rejected is not decided again.
func TestCloseCallHomeLinkOpens(t *testing.T) {
	web := fakeWeb{"http://th.test/": page("th", "http://shop.test/"), "http://next.test/": page("th")}
	var inner []string
	for i := range 20 {
		inner = append(inner, fmt.Sprintf("/%d", i))
		web[fmt.Sprintf("http://shop.test/%d", i)] = page("th", "closecall:id:0.9")
	}
	web["http://shop.test/"] = page("th", append([]string{"closecall:id:0.9", "http://next.test/"}, inner...)...)
	pol := mustPolicy(t, focus.Config{Strategy: focus.Sequential, Langs: []string{"th"}, Tolerance: 10})
	h := newHarness(t, web, Config{Focus: pol}, "http://th.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	if n := h.fetchedUnder("http://shop.test/"); n != 21 {
		t.Fatalf("shop.test: %d pages fetched, want 21", n)
	}
	if !h.fetched("http://next.test/") {
		t.Errorf("next.test, linked from the home page of a server its close calls judged relevant, was not fetched")
	}
}
