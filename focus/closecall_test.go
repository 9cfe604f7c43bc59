package focus

import "testing"

// TestCloseRelevantLinkEvidence: a server that close calls judged relevant
// opens servers never visited on a neutral link with link_evidence on
// (DecideLink) as with it off (Decide). A review found DecideLink's step
// 4.5 reading N_r alone.
func TestCloseRelevantLinkEvidence(t *testing.T) {
	for _, le := range []bool{false, true} {
		p := mustNew(t, Config{Strategy: Sequential, Langs: []string{"ms"}, ErrorBound: 0.01, MissBound: 0.01,
			Tolerance: 10, LinkEvidence: le})
		var c Counts
		for range 3 {
			c = p.Count(c, pageOf('x'))
		}
		if p.Status(c) != Relevant || c.Relevant != 0 {
			t.Fatalf("setup: %+v status %v", c, p.Status(c))
		}
		// A close-call page's links (pageRelevant true) and a foreign
		// page's (false), neutral score.
		for _, rel := range []bool{true, false} {
			if v := p.DecideLink(rel, c, Counts{}, false, 0); !v.Enqueue {
				t.Errorf("link_evidence %v, page relevant %v: a server close calls judged relevant opens no server never visited (%s)", le, rel, v.Reason)
			}
		}
	}
}

// TestBilingualCloseCalls: a Malaysian server in Malay and English (its
// Malay pages short, so close calls), under the default bounds and T = 10.
// A foreign page reached from a target page of its server weighs -2.03
// nats, a close call at 0.85 about +1.6, so the pages' own evidence does
// not reach the upper bound within T+1 pages. A review found the backstop
// judging it irrelevant there, with six Malay pages of eleven; a server
// most of whose pages are close calls is judged by its pages' evidence
// alone (mostlyClose). So is one whose every page is a close call at 0.58,
// whose evidence (+0.1 to +0.3 nats a page) stays far under the bound.
func TestBilingualCloseCalls(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential, Langs: []string{"ms"}, Tolerance: 10})
	for _, c := range []struct {
		name string
		conf func(i int) (relevant bool, conf float64)
	}{
		{"bilingual, Malay close calls at 0.85", func(i int) (bool, float64) {
			if i%2 == 0 {
				return true, 0.85
			}
			return false, 0.998
		}},
		{"every page a close call at 0.58", func(int) (bool, float64) { return true, 0.58 }},
	} {
		var cs Counts
		malay := 0
		for i := range 11 {
			rel, conf := c.conf(i)
			pg := Page{Relevant: rel, Confidence: conf, CloseCall: rel, Home: i == 0, Reached: ReachedFromTarget}
			if rel {
				malay++
			}
			cs = p.Count(cs, pg)
		}
		if p.Status(cs) == Irrelevant {
			t.Errorf("%s: a server with %d Malay pages of 11 judged irrelevant at T+1 (%+v)", c.name, malay, cs)
		}
	}
}
