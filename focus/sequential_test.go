package focus

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestWeigh(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential})
	tests := []struct {
		name string
		pg   Page
		want int64 // millinats
	}{
		{"confidently foreign", Page{Confidence: 0.998}, -1722},
		{"confidently target", Page{Relevant: true, Confidence: 0.998}, 6018},
		{"confidence 1 is clipped", Page{Relevant: true, Confidence: 1}, 6712},
		{"foreign at confidence 1 is clipped", Page{Confidence: 1}, -1727},
		{"foreign, 0.8-0.9 bin", Page{Confidence: 0.864}, -1182},
		{"target, 0.8-0.9 bin", Page{Relevant: true, Confidence: 0.864}, 1687},
		{"target at 0.6 counts little", Page{Relevant: true, Confidence: 0.6}, 345},
		{"no confidence is no evidence", Page{}, 0},
		{"und (confidence 0) is no evidence", Page{Relevant: true, Confidence: 0}, 0},
		{"below one half is no evidence", Page{Relevant: true, Confidence: 0.4}, 0},
		{"foreign with target links", Page{Confidence: 0.998, TargetLinks: true}, 580},
		{"home page weighs like any page", Page{Confidence: 0.998, Home: true}, -1722},
		{"foreign, reached from another server", Page{Confidence: 0.998, Reached: ReachedInter}, -1201},
		{"foreign, reached from a target page of the server", Page{Confidence: 0.998, Reached: ReachedFromTarget}, -2026},
		{"foreign, reached from a foreign page of the server", Page{Confidence: 0.998, Reached: ReachedFromOther}, -166},
		{"target, reached from a foreign page of the server", Page{Relevant: true, Confidence: 0.998, Reached: ReachedFromOther}, 4350},
		{"a home page is a home page however reached", Page{Confidence: 0.998, Home: true, Reached: ReachedFromOther}, -1722},
		{"foreign, in a user directory: says nothing of the other users", Page{Confidence: 0.998, Reached: ReachedInter, UserDir: true}, 0},
		{"foreign, in a user directory, with target links", Page{Confidence: 0.998, UserDir: true, TargetLinks: true}, 2303},
		{"target, in a user directory, weighs as anywhere", Page{Relevant: true, Confidence: 0.998, Reached: ReachedInter, UserDir: true}, 5857},
	}
	for _, tt := range tests {
		if got := p.Weigh(tt.pg); got != tt.want {
			t.Errorf("%s: Weigh(%+v) = %d, want %d", tt.name, tt.pg, got, tt.want)
		}
	}
}

// Pages for the status walks: f foreign (c = 0.998), F the home page,
// foreign; t target (0.998), T the home page, target; l foreign with
// target links; w target with confidence 0.6 (weak), W, x and v close
// calls at 0.6, 0.9 and 0.96; u no confidence.
func pageOf(r rune) Page {
	switch r {
	case 'f':
		return Page{Confidence: 0.998}
	case 'F':
		return Page{Confidence: 0.998, Home: true}
	case 't':
		return Page{Relevant: true, Confidence: 0.998}
	case 'T':
		return Page{Relevant: true, Confidence: 0.998, Home: true}
	case 'P': // a foreign home page no link asked for: the verdict's probe
		return Page{Confidence: 0.998, Home: true, Probe: true}
	case 'l':
		return Page{Confidence: 0.998, TargetLinks: true}
	case 'w':
		return Page{Relevant: true, Confidence: 0.6}
	case 'W': // the same, a close call: decided against a foreign neighbour
		return Page{Relevant: true, Confidence: 0.6, CloseCall: true}
	case 'x': // a close call at 0.9 (+2.03 nats)
		return Page{Relevant: true, Confidence: 0.9, CloseCall: true}
	case 'v': // a close call at 0.96, from SureConfidence: a target page
		return Page{Relevant: true, Confidence: 0.96, CloseCall: true}
	case 'm': // foreign, reached from another server, with target links
		return Page{Confidence: 0.998, Reached: ReachedInter, TargetLinks: true}
	case 's': // the same, one of them to a target section of its own server
		return Page{Confidence: 0.998, Reached: ReachedInter, TargetLinks: true, SelfTargetLinks: true}
	case 'S': // foreign, reached from a foreign page of its own, linking a target section of its own
		return Page{Confidence: 0.998, Reached: ReachedFromOther, TargetLinks: true, SelfTargetLinks: true}
	case 'Q': // the probed home page, foreign, linking a target section of its own
		return Page{Confidence: 0.998, Home: true, Probe: true, TargetLinks: true, SelfTargetLinks: true}
	case 'u':
		return Page{}
	case 'i': // foreign, reached from another server
		return Page{Confidence: 0.998, Reached: ReachedInter}
	case 'c': // foreign, reached from a foreign page of the server (a chain)
		return Page{Confidence: 0.998, Reached: ReachedFromOther}
	case 'h': // foreign, in a user directory of a hosting server, reached from another server
		return Page{Confidence: 0.998, Reached: ReachedInter, UserDir: true}
	}
	panic("unknown page " + string(r))
}

// TestSequentialStatus walks one server through a sequence of pages and
// checks its status after each (U undecided, R relevant, I irrelevant).
func TestSequentialStatus(t *testing.T) {
	tests := []struct {
		name        string
		alpha, beta float64 // 0: the defaults
		tol         int
		pages       string
		want        string
	}{
		{"foreign server: home and two pages", 0.01, 0.01, 10, "Fff", "UUI"},
		{"foreign server at a looser bound: home and one page", 0.05, 0.05, 10, "Ff", "UI"},
		{"foreign server at a stricter bound", 0.001, 0.001, 10, "Fffff", "UUUUI"},
		{"home counted last: no verdict before it", 0.01, 0.01, 10, "ffffF", "UUUUI"},
		{"no home page: Tamura's T is the backstop", 0.01, 0.01, 10, "fffffffffff", "UUUUUUUUUUI"},
		{"backstop with a small T", 0.01, 0.01, 3, "ffff", "UUUI"},
		// The probe does not count toward the backstop: a hosting server
		// whose Thai user comes after ten foreign pages and the probed
		// home page still gets its eleventh linked page, as under T = 10.
		{"the probe does not count toward the backstop", 0.01, 0.001, 10, "ccccccccccPc", "UUUUUUUUUUUI"},
		{"a target page after T foreign pages and the probe", 0.01, 0.001, 10, "ccccccccccPt", "UUUUUUUUUUUR"},
		// A hosting server's foreign users say nothing of its other users:
		// where six foreign pages reached from other servers decide a hub,
		// its user pages leave it to the backstop, as T would.
		{"a hosting server: its users' foreign pages wait for the backstop", 0.01, 0.001, 10, "Fhhhhhhhhhh", "UUUUUUUUUUI"},
		{"a hosting server: a Thai user after ten foreign ones", 0.01, 0.001, 10, "Fhhhhhhhhht", "UUUUUUUUUUR"},
		{"a home page a link asked for counts", 0.01, 0.001, 10, "ccccccccccF", "UUUUUUUUUUI"},
		{"target server entered through its English section", 0.01, 0.01, 10, "ffffT", "UUUUR"},
		{"one confident target page decides", 0.01, 0.01, 10, "t", "R"},
		{"relevant stays relevant (the test has stopped)", 0.01, 0.01, 10, "tFffffffffffff", "RRRRRRRRRRRRRR"},
		{"at bound 0.001 one target page is not enough", 0.001, 0.001, 10, "tt", "UR"},
		{"a weak target page leaves it open", 0.01, 0.01, 10, "w", "U"},
		{"target links hold the verdict open", 0.01, 0.01, 10, "Flll", "UUUU"},
		// Links alone may judge a server relevant, but not past the
		// backstop: with no page called target, T+1 linked pages end it,
		// as under T (TestFocusedCrawlSet found a foreign server crawled
		// in full when the evidence came first).
		{"links alone do not lift the backstop", 0.01, 0.01, 10, "mmmmmmmmmmm", "UUUURRRRRRI"},
		{"nor do they at a smaller T", 0.01, 0.01, 5, "mmmmmm", "UUUURI"},
		{"a target page after the backstop revives it", 0.01, 0.01, 5, "mmmmmmt", "UUUURIR"},
		// Links to its own target section are the server's own word: a
		// target server entered through its English section stays open.
		{"links to its own target section lift the backstop", 0.01, 0.01, 10, "ssssssssssss", "UUUURRRRRRRR"},
		{"one such page is enough", 0.01, 0.01, 5, "mmmsmmmm", "UUUURRRR"},
		// Nor does T, nor the foreign pages' evidence, judge such a server
		// within a second tolerance (2T+1 linked pages): its section is
		// what the server says it holds. Before the seventeenth session
		// T did ("ssss" was "UUUI"), and an independent trial lost Thai
		// servers entered through English pages whose home page linked
		// /th/.
		{"links to its own section hold it open past T, to 2T+1", 0.01, 0.01, 3, "ssssssss", "UUUUUUUI"},
		{"entered through English pages, the probed home page links /th/", 0, 0, 10,
			"iiiQ" + strings.Repeat("c", 19), strings.Repeat("U", 22) + "I"},
		{"and its Thai section, reached after T, makes it relevant", 0, 0, 10,
			"iiiQccccccccct", "UUUUUUUUUUUUUR"},
		{"at T = 3 the same, within 7 linked pages", 0, 0, 3, "iiiQiiiii", "UUUUUUUUI"},
		// But no further, whatever its links say: the links to its own
		// section, which the server is held for, may not judge it relevant
		// in the hold; past 2T+1 linked pages with no page called target it
		// is irrelevant. With the hold alone (7141cbb), a foreign server
		// linking a "/th/" of its own on every fourth page (a 404, say)
		// reached the upper bound in the hold and was crawled in full (a
		// review).
		{"its own section's links in the hold do not judge it relevant", 0, 0, 10, "F" + strings.Repeat("cccS", 6),
			strings.Repeat("U", 21) + "IIII"},
		// Links that judged it relevant within T+1 pages still do, as they
		// did before the hold (the tenth session's rule).
		{"links that judged it within T+1 pages keep it", 0, 0, 10, strings.Repeat("s", 25), "UUUU" + strings.Repeat("R", 21)},
		// A link to its own section on a page fetched after the verdict
		// (a requisite of a relevant page, exempt from the skip) does not
		// reopen it; before, the hold's longer limit turned it back to
		// undecided.
		{"a link to its own section after the verdict does not reopen it", 0, 0, 3, "ffffs", "UUUII"},
		{"pages without confidence say nothing", 0.01, 0.01, 10, "Fuuuu", "UUUUU"},
		{"a hub: links from other servers and the home page", 0.01, 0.01, 10, "iFii", "UUUI"},
		{"a chain through one section says little: T decides", 0.01, 0.01, 10, "iFccccccccc", "UUUUUUUUUUI"},
		{"a late target page revives an irrelevant server", 0.01, 0.01, 10, "Ffft", "UUIR"},
		{"below the bound a late target page reopens it", 0.001, 0.001, 10, "Ffffft", "UUUUIU"},
		{"a server with a target page is never irrelevant", 0.01, 0.01, 10, "wFffffffffffff", "UUUUUUUUUUUUUU"},
		{"not even by the backstop", 0.01, 0.01, 3, "Fffw", "UUIU"},
		// A close call under SureConfidence is evidence only (a trial
		// targeting Malay: Indonesian servers crawled in full for one
		// page the word model read as Malay); before, W counted as w.
		{"a sure close call is a target page", 0.01, 0.01, 10, "vFffffffffffff", "UUUUUUUUUUUUUU"},
		{"a weak close call is evidence only", 0.01, 0.01, 10, "WFffffffffffff", "UUUIIIIIIIIIII"},
		{"nor does it hold off the backstop", 0.01, 0.01, 3, "FffW", "UUII"},
		// Close calls that reach the upper bound judge the server relevant,
		// and that stands past the backstop: a Malay server whose pages
		// are all close calls is crawled in full.
		{"close calls that judge it relevant stand", 0.01, 0.01, 3, "xxxffffff", "UURRRRRRR"},
		{"close calls short of the bound do not", 0.01, 0.01, 3, "xffff", "UUUII"},
		// Nor do links to other servers with a close call among the pages:
		// the test that stands is on the pages' own verdicts (an
		// Indonesian forum linking a Malay one, crawled in full when the
		// links counted).
		{"links and a close call do not", 0.01, 0.01, 3, "mmmxf", "UUUII"},
		// The default bounds, alpha 0.01 and beta 0.001: judged relevant as
		// at 0.01, irrelevant as at 0.001.
		{"defaults: one confident target page decides", 0, 0, 10, "t", "R"},
		{"defaults: a foreign server needs its home page and four more", 0, 0, 10, "Fffff", "UUUUI"},
		{"defaults: a hub needs six pages (four at 0.01)", 0, 0, 10, "iFiiii", "UUUUUI"},
		{"alpha alone does not loosen the lower bound", 0.05, 0.001, 10, "Fff", "UUU"},
		{"beta alone does not loosen the upper bound", 0.001, 0.05, 10, "tt", "UR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustNew(t, Config{Strategy: Sequential, ErrorBound: tt.alpha, MissBound: tt.beta, Tolerance: tt.tol})
			var c Counts
			for i, r := range tt.pages {
				c = p.Count(c, pageOf(r))
				got := p.Status(c)
				if want := statusOfLetter(tt.want[i]); got != want {
					t.Fatalf("after %q (counts %+v): %v, want %v", tt.pages[:i+1], c, got, want)
				}
			}
		})
	}
}

func statusOfLetter(b byte) Status {
	switch b {
	case 'R':
		return Relevant
	case 'I':
		return Irrelevant
	}
	return Undecided
}

// TestNeedsLinksWhileLinksAloneDecide walks a server through pages as the
// engine does, reading a page's links only when NeedsLinks says so: a
// server judged relevant on links to other servers still has its links
// read, so that a link to its own target section, coming after, keeps it
// past the backstop.
func TestNeedsLinksWhileLinksAloneDecide(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential, ErrorBound: 0.01, MissBound: 0.01, Tolerance: 5})
	var c Counts
	var got string
	for _, r := range "mmmmmss" {
		pg := pageOf(r)
		if !p.NeedsLinks(c) {
			pg.TargetLinks, pg.SelfTargetLinks = false, false
		}
		c = p.Count(c, pg)
		got += string(map[Status]byte{Relevant: 'R', Undecided: 'U', Irrelevant: 'I'}[p.Status(c)])
	}
	if got != "UUUURRR" {
		t.Errorf("statuses %s, want UUUURRR: the self links after the verdict were not read", got)
	}
	if p.NeedsLinks(Counts{Downloaded: 3, Relevant: 1, Evidence: 5000}) {
		t.Error("links read on a server with a target page judged relevant")
	}
	if p.NeedsLinks(Counts{Downloaded: 3, Evidence: 5000, SelfLinks: true}) {
		t.Error("links read on a server its own target links judged relevant")
	}
}

// TestCountOtherStrategies: the paper's strategies count N_a and N_r only.
func TestCountOtherStrategies(t *testing.T) {
	for _, s := range append(Strategies(), Evidence) {
		p := mustNew(t, Config{Strategy: s, Langs: []string{"th"}})
		c := p.Count(Counts{}, Page{Relevant: true, Confidence: 0.8, Home: true, TargetLinks: true, CloseCall: true})
		if c != (Counts{Downloaded: 1, Relevant: 1}) {
			t.Errorf("%s: Count = %+v", s, c)
		}
		if p.NeedsLinks(Counts{}) || p.Probe(Counts{Downloaded: 1}) || p.DirKey("a", "a/en/") != "" {
			t.Errorf("%s: sequential hooks on", s)
		}
	}
}

// Counter states of the sequential strategy (both bounds 0.01, seq01, and
// T = 10).
var (
	seqUndecided  = Counts{Downloaded: 1, Evidence: -1722}
	seqIrrelevant = Counts{Downloaded: 3, Evidence: -5166, Home: true}
	seqRelevant   = Counts{Downloaded: 1, Relevant: 1, Evidence: 6018, Home: true}
	seqBackstop   = Counts{Downloaded: 11, Evidence: 3000} // T+1 pages, none relevant
)

// seq01 is the sequential strategy with both error bounds at 0.01.
var seq01 = Config{Strategy: Sequential, ErrorBound: 0.01, MissBound: 0.01}

func TestSequentialDecide(t *testing.T) {
	p := mustNew(t, seq01)
	type out struct {
		enq, high bool
		reason    string
	}
	tests := []struct {
		name      string
		rel       bool
		src, dest Counts
		want      out
	}{
		{"relevant page to new server", true, seqRelevant, unvisited, out{true, true, ReasonRelevantPage}},
		{"foreign page of relevant server to new server", false, seqRelevant, unvisited, out{true, false, ReasonOtherPage}},
		{"step 4.5: undecided server to new server", false, seqUndecided, unvisited, out{false, false, ReasonUnvisited}},
		{"to an undecided server", true, seqRelevant, seqUndecided, out{true, true, ReasonRelevantPage}},
		{"step 5: to a server judged irrelevant", true, seqRelevant, seqIrrelevant, out{false, false, ReasonIrrelevantDest}},
		{"step 5: by the backstop", true, seqRelevant, seqBackstop, out{false, false, ReasonIrrelevantDest}},
		{"a server the paper's T would keep open", true, seqRelevant, Counts{Downloaded: 3, Evidence: -5166, Home: true}, out{false, false, ReasonIrrelevantDest}},
	}
	for _, tt := range tests {
		v := p.Decide(tt.rel, tt.src, tt.dest, false)
		if got := (out{v.Enqueue, v.High, v.Reason}); got != tt.want {
			t.Errorf("%s: Decide = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	for c, want := range map[Counts]bool{unvisited: false, seqUndecided: false, seqIrrelevant: true, seqRelevant: false, seqBackstop: true} {
		if got := p.Skip(c, false); got != want {
			t.Errorf("Skip(%+v) = %v, want %v", c, got, want)
		}
	}
	// The same counters under conservative-server: only N_a and N_r count.
	cs := mustNew(t, Config{Strategy: ConservativeServer})
	if cs.Skip(seqIrrelevant, false) || !cs.Skip(seqBackstop, false) {
		t.Error("conservative-server reads the sequential evidence")
	}
}

func TestProbe(t *testing.T) {
	p := mustNew(t, seq01)
	tests := []struct {
		c    Counts
		want bool
	}{
		{seqUndecided, true},
		{Counts{Downloaded: 1, Evidence: -1722, Home: true}, false}, // home counted
		{seqRelevant, false},
		{Counts{Downloaded: 11}, false}, // judged by the backstop
	}
	for _, tt := range tests {
		if got := p.Probe(tt.c); got != tt.want {
			t.Errorf("Probe(%+v) = %v, want %v", tt.c, got, tt.want)
		}
	}
	for _, h := range []struct {
		path, query string
		want        bool
	}{{"/", "", true}, {"", "", true}, {"/", "lang=en", false}, {"/index.html", "", false}, {"/en/", "", false}} {
		if got := IsHome(h.path, h.query); got != h.want {
			t.Errorf("IsHome(%q, %q) = %v", h.path, h.query, got)
		}
	}
	for path, want := range map[string]bool{"/~ann/": true, "/~ann/a.html": true, "/": false, "/en/~x": false, "/users/ann/": false} {
		if got := IsUserDir(path); got != want {
			t.Errorf("IsUserDir(%q) = %v", path, got)
		}
	}
}

func TestDirectoryStatus(t *testing.T) {
	cut := seq01
	cut.CutForeignDirs = true
	p := mustNew(t, cut)
	for _, k := range []struct{ host, dir, want string }{
		{"www.xsp.com", "www.xsp.com/en/", "www.xsp.com/en/"},
		{"www.xsp.com", "www.xsp.com/", ""},
		{"www.xsp.com", "", ""},
		{"www.xsp.com", "other.com/en/", ""},
	} {
		if got := p.DirKey(k.host, k.dir); got != k.want {
			t.Errorf("DirKey(%q, %q) = %q, want %q", k.host, k.dir, got, k.want)
		}
	}
	if keep := mustNew(t, Config{Strategy: Sequential}); keep.DirKey("www.xsp.com", "www.xsp.com/en/") != "" {
		t.Error("foreign sections kept (the default): directory counters kept")
	}

	// A walk through a section: f foreign page, t target page.
	walk := func(pages string) Counts {
		var d Counts
		for _, r := range pages {
			d = p.CountDir(d, pageOf(r))
		}
		return d
	}
	tests := []struct {
		name        string
		server, dir Counts
		want        Status
	}{
		{"English section of a relevant server, three pages", seqRelevant, walk("fff"), Irrelevant},
		{"two pages are not enough at 0.01", seqRelevant, walk("ff"), Undecided},
		{"a section with a target page is never foreign", seqRelevant, walk("tfffffff"), Relevant},
		{"target links do not count for a directory", seqRelevant, walk("lll"), Irrelevant},
		{"inside an undecided server: the server decides", seqUndecided, walk("fffff"), Undecided},
		{"inside an irrelevant server: the server decides", seqIrrelevant, walk("fffff"), Undecided},
		{"a server with a target page counts as relevant", Counts{Downloaded: 2, Relevant: 1, Evidence: 345}, walk("fff"), Irrelevant},
		{"the target section", seqRelevant, walk("t"), Relevant},
	}
	for _, tt := range tests {
		if got := p.DirStatus(tt.server, tt.dir); got != tt.want {
			t.Errorf("%s: DirStatus = %v, want %v (dir %+v)", tt.name, got, tt.want, tt.dir)
		}
		skip := p.SkipDir(tt.server, tt.dir)
		if skip != (tt.want == Irrelevant) {
			t.Errorf("%s: SkipDir = %v", tt.name, skip)
		}
		v := p.DecideDir(Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}, tt.server, tt.dir)
		if v.Enqueue == (tt.want == Irrelevant) || (!v.Enqueue && v.Reason != ReasonIrrelevantDir) {
			t.Errorf("%s: DecideDir = %+v", tt.name, v)
		}
	}
	if v := p.DecideDir(Verdict{Reason: ReasonUnvisited}, seqRelevant, walk("fff")); v.Reason != ReasonUnvisited {
		t.Errorf("DecideDir changed a rejection: %+v", v)
	}
}

func TestNamesTarget(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential, Langs: []string{"th"}})
	for u, want := range map[string]bool{
		"http://a.com/th/1.html":         true,
		"http://a.com/th-TH/":            true,
		"http://a.com/page?lang=th":      true,
		"http://a.com/en/1.html":         false,
		"http://a.com/en/th/1.html":      false, // the first language segment counts
		"http://a.co.th/page1.html":      false, // a ccTLD is no section
		"http://a.com/~u1/x.html":        false,
		"http://a.com/thai/1.html":       false,
		"http://a.com/page?lang=en&x=th": false,
	} {
		if got := p.NamesTarget(u); got != want {
			t.Errorf("NamesTarget(%s) = %v, want %v", u, got, want)
		}
	}
	if mustNew(t, Config{Strategy: Sequential}).NamesTarget("http://a.com/th/") {
		t.Error("NamesTarget without a target language")
	}
	// A set of targets: a section of any of them, under its own code or
	// Norwegian's "no".
	set := mustNew(t, Config{Strategy: Sequential, Langs: []string{"nb", " NN ", "nb"}})
	for u, want := range map[string]bool{
		"http://a.no/nn_NO/1.html":   true,
		"http://a.no/nb-NO/":         true,
		"http://a.no/?locale=no":     true,
		"http://a.no/no/5":           false, // a bare code outside the list is no section
		"http://a.no/page?lang=nn":   true,
		"http://a.no/en/nn/1.html":   false,
		"http://a.no/sv/1.html":      false,
		"http://a.no/page?hl=da":     false,
		"http://a.no/nynorsk/1.html": false,
	} {
		if got := set.NamesTarget(u); got != want {
			t.Errorf("nb, nn: NamesTarget(%s) = %v, want %v", u, got, want)
		}
	}
}

// TestNamesTargetBareCode: a target's own two-letter code names a section
// as the path's first segment, not followed by a number, for targets
// outside the common codes (a trial: /hr/, /nb/ and /sl/ sections never
// found where /th/ and /ms/ were); elsewhere in the path it does not, and
// neither does another language's code outside the list.
func TestNamesTargetBareCode(t *testing.T) {
	hr := mustNew(t, Config{Strategy: Sequential, Langs: []string{"hr"}})
	for u, want := range map[string]bool{
		"http://a.com/hr/":                 true,
		"http://a.com/HR/o-nama.html":      true,
		"http://a.com/hr":                  true,
		"http://a.com/hr/vijesti/2024/5":   true,
		"http://a.com/hr/123":              false, // an identifier
		"http://a.com/company/hr/jobs":     false, // not the first segment
		"http://a.com/sl/":                 false, // not a target, not a common code
		"http://a.com/en/hr/":              false, // the first language segment counts
		"http://a.com/page?lang=hr":        true,
		"http://a.com/hrvatski/":           false,
		"http://a.com/hr-HR/1.html":        true,
		"http://a.com/x/page.html?lang=sl": false,
	} {
		if got := hr.NamesTarget(u); got != want {
			t.Errorf("hr: NamesTarget(%s) = %v, want %v", u, got, want)
		}
	}
	set := mustNew(t, Config{Strategy: Sequential, Langs: []string{"nb", "nn"}})
	for u, want := range map[string]bool{
		"http://a.com/nb/":        true,
		"http://a.com/nn/om-oss/": true,
		"http://a.com/no/":        true,
		"http://a.com/no/5":       false,
		"http://a.com/da/":        false,
	} {
		if got := set.NamesTarget(u); got != want {
			t.Errorf("nb, nn: NamesTarget(%s) = %v, want %v", u, got, want)
		}
	}
}

// TestCCTLDCues: a link's country domain counts for the language most of
// its pages are in, the Norwegian standards sharing .no; a trial targeting
// Croatian and Bokmål found .hr and .no read as no language.
func TestCCTLDCues(t *testing.T) {
	for _, c := range []struct {
		langs []string
		url   string
		want  int
	}{
		{[]string{"hr"}, "http://vijesti.hr/", 1},
		{[]string{"hr"}, "http://novice.si/", -1},
		{[]string{"nn"}, "http://nyhende.no/", 1},
		{[]string{"nb"}, "http://nyheter.no/", 1},
		{[]string{"da"}, "http://nyheter.no/", -1},
		{[]string{"sl"}, "http://novice.si/", 1},
		{[]string{"th"}, "http://example.com/", 0},
	} {
		if got := urlCues(c.url, targets(c.langs)); got != c.want {
			t.Errorf("%v %s: %d, want %d", c.langs, c.url, got, c.want)
		}
	}
}

func TestErrorBound(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential})
	if got := p.Config().ErrorBound; got != DefaultErrorBound {
		t.Errorf("default error bound %g", got)
	}
	if got := p.Config().MissBound; got != DefaultMissBound {
		t.Errorf("default miss bound %g", got)
	}
	for _, e := range []float64{-0.01, 0.5, 1, math.NaN()} {
		_, err := New(Config{Strategy: Sequential, ErrorBound: e})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "focus.error_bound") {
			t.Errorf("ErrorBound %g: err = %v", e, err)
		}
		_, err = New(Config{Strategy: Sequential, MissBound: e})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "focus.miss_bound") {
			t.Errorf("MissBound %g: err = %v", e, err)
		}
	}
	// Wald's thresholds: ln((1-beta)/alpha) and ln(beta/(1-alpha)).
	for _, c := range []struct {
		alpha, beta  float64
		upper, lower int64
	}{{0.01, 0.01, 4595, -4595}, {0.01, 0.001, 4604, -6898}, {0.001, 0.01, 6898, -4604}} {
		if u, l := thresholds(c.alpha, c.beta); u != c.upper || l != c.lower {
			t.Errorf("thresholds(%g, %g) = %d, %d, want %d, %d", c.alpha, c.beta, u, l, c.upper, c.lower)
		}
	}
	if got, err := ParseStrategy(" Sequential "); err != nil || got != Sequential {
		t.Errorf("ParseStrategy(sequential) = %q, %v", got, err)
	}
}

// TestOpeningCounts: with foreign sections cut (the sequential strategy),
// a page in a user's directory of a hosting server opens servers never
// visited (step 4.5) as its user's pages say, not as the server's: a
// foreign user of a server that one Thai user made relevant opens none.
// With sections kept, the paper's step by server.
func TestOpeningCounts(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential, CutForeignDirs: true})
	server := Counts{Downloaded: 12, Relevant: 3, Evidence: 9000, Home: true}
	foreignUser := Counts{Downloaded: 2, Evidence: -2400}
	thaiUser := Counts{Downloaded: 2, Relevant: 1, Evidence: 6000}
	dk := p.DirKey("host.test", "host.test/~ann/")
	if dk != "host.test/~ann/" {
		t.Fatalf("DirKey of a user's directory with sections cut = %q", dk)
	}
	if got := p.OpeningCounts(server, foreignUser, dk); got.Relevant != 0 {
		t.Errorf("a foreign user's page: opening counts %+v, want no target page", got)
	}
	if got := p.OpeningCounts(server, thaiUser, dk); got.Relevant != 1 {
		t.Errorf("a Thai user's page: opening counts %+v", got)
	}
	if v := p.Decide(false, p.OpeningCounts(server, foreignUser, dk), Counts{}, false); v.Enqueue {
		t.Errorf("a foreign user's page opened a server never visited: %+v", v)
	}
	if v := p.Decide(false, server, Counts{}, false); !v.Enqueue {
		t.Errorf("a foreign page of a relevant server, not a user's: %+v, want it to open the server (step 4.5 as in the paper)", v)
	}
	if got := p.OpeningCounts(server, foreignUser, "host.test/%7Eann/"); got.Relevant != 0 {
		t.Errorf("a user's directory written /%%7Ename/ (scope.DirKey keeps the escape): opening counts %+v", got)
	}
	if got := p.OpeningCounts(server, foreignUser, ""); got != server {
		t.Error("no directory key: the server's counters")
	}
	keep := mustNew(t, Config{Strategy: Sequential})
	if keep.DirKey("host.test", "host.test/~ann/") != "" || keep.OpeningCounts(server, foreignUser, dk) != server {
		t.Error("sections kept: the paper's step 4.5, by server")
	}
	cs := mustNew(t, Config{Strategy: ConservativeServer})
	if cs.DirKey("host.test", "host.test/~ann/") != "" || cs.OpeningCounts(server, foreignUser, "host.test/~ann/") != server {
		t.Error("conservative-server: the paper's step 4.5, by server")
	}
}

// TestCloseCallsOpenServers: step 4.5 under the sequential strategy lets a
// page of a server with no target page open a server never visited only
// when close calls made the test judge its server relevant; links alone,
// or close calls short of the bound, do not.
func TestCloseCallsOpenServers(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential, Langs: []string{"ms"}, ErrorBound: 0.01, MissBound: 0.01, Tolerance: 10})
	var closeOnly, short Counts
	for range 3 {
		closeOnly = p.Count(closeOnly, pageOf('x'))
	}
	short = p.Count(short, pageOf('x'))
	links := Counts{Downloaded: 3, Evidence: 5000} // judged relevant on links to other servers
	var linksClose Counts
	for _, r := range "mmmx" {
		linksClose = p.Count(linksClose, pageOf(r))
	}
	for _, c := range []struct {
		name string
		src  Counts
		want bool
	}{{"close calls that judged it relevant", closeOnly, true}, {"one close call", short, false}, {"links alone", links, false},
		{"links and a close call", linksClose, false}} {
		if got := p.Decide(false, c.src, Counts{}, false).Enqueue; got != c.want {
			t.Errorf("%s (%+v): a link to a server never visited enqueued %v, want %v", c.name, c.src, got, c.want)
		}
	}
	if c := p.Count(Counts{}, pageOf('x')); c.Relevant != 0 || c.Close != 1 {
		t.Errorf("a close call counted as %+v, want in Close only", c)
	}
}
