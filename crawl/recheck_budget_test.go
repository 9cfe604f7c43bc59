package crawl

import (
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
)

// TestRecheckSectionBudget: a re-checked foreign server whose "Thai
// section" is foreign too costs at most the re-check's tries in one
// generation, under each server-based strategy. A review found the
// followed link queued High, which a policy that reads link evidence
// (evidence; sequential with LinkEvidence) lets through on an irrelevant
// server outside the tries: 5 fetches here. It keeps the page's priority
// now, and the front place puts it first.
func TestRecheckSectionBudget(t *testing.T) {
	cfgs := map[string]focus.Config{
		"conservative-server": {Strategy: focus.ConservativeServer, Tolerance: 2, Langs: []string{"th"}},
		"sequential":          {Strategy: focus.Sequential, Tolerance: 2, Langs: []string{"th"}},
		"sequential+links":    {Strategy: focus.Sequential, Tolerance: 2, Langs: []string{"th"}, LinkEvidence: true},
		"evidence":            {Strategy: focus.Evidence, Tolerance: 2, Langs: []string{"th"}},
	}
	for name, fc := range cfgs {
		t.Run(name, func(t *testing.T) {
			web := fakeWeb{
				"http://th.test/": page("th", "http://de.test/"),
				"http://de.test/": page("de", "/1", "/2", "/3", "/4", "/5"),
			}
			for _, p := range []string{"1", "2", "3", "4", "5"} {
				web["http://de.test/"+p] = page("de")
			}
			pol := mustPolicy(t, fc)
			g := newGenRig(t, web, nil)
			g.firstGeneration(t, Config{Focus: pol, Recheck: true}, "http://th.test/")
			c, _ := g.q.Counts("de.test")
			if pol.Status(focus.Counts(c)) != focus.Irrelevant {
				t.Fatalf("de.test not judged irrelevant in generation 1: %+v", c)
			}
			for _, p := range []string{"1", "2", "3", "4", "5"} {
				web["http://de.test/"+p] = page("de", "/th/"+p)
				web["http://de.test/th/"+p] = page("de")
			}
			web["http://de.test/th/"] = page("de", "/th/a")
			web["http://de.test/th/a"] = page("de", "/th/b")
			web["http://de.test/th/b"] = page("de", "/th/c")
			web["http://de.test/th/c"] = page("de", "/th/d")
			web["http://de.test/th/d"] = page("de")
			got := g.nextGeneration(t, Config{Focus: pol, Recheck: true}, "http://th.test/")
			var de []string
			for _, u := range got {
				if strings.HasPrefix(u, "http://de.test/") && !strings.HasSuffix(u, "robots.txt") {
					de = append(de, u)
				}
			}
			if len(de) == 0 || len(de) > maxRecheckTries {
				c, _ = g.q.Counts("de.test")
				t.Errorf("de.test: %d fetches in generation 2, want 1 to the re-check's %d: %q (counters %+v)", len(de), maxRecheckTries, de, c)
			}
		})
	}
}
