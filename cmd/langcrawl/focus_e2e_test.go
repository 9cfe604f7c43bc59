package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/webgen"
)

// The focused-crawl tests crawl a generated web over loopback with the real
// wiring of `langcrawl crawl`, once focused and once not, and judge both by
// the generator's ground truth (webgen.Graph.Truth): what the server was
// asked for (its own request log), what was archived (the WARCs read back)
// and what focusing dropped (crawl.log and the metadata records). Tamura et
// al. 2007 section 5 gives the measures: coverage of the reachable target
// pages, harvest rate, servers accessed.
//
// The floors come from measured runs (see each test) and sit a little below
// them, so scheduling noise cannot fail a test; the comparison with the
// unfocused crawl of the same web makes each test fail if focusing stops
// working.

// focusTolerance is T in the focused crawls: small, so that the demo web's
// few non-target servers are judged within their handful of pages.
const focusTolerance = 3

var (
	laoOnce  sync.Once
	laoGraph *webgen.Graph
	laoErr   error
)

// laoWebParams is the demo web with Lao as the target language and Thai,
// its close neighbour (related language, sister script), as the language
// of half of the other servers. Lao servers carry English pages, as the
// Thai servers of the default demo web do. It has more non-target servers
// than the demo web (50 beside 10 Lao ones), and the links that leave Lao
// servers for them go to a pool of 5 (webgen's HubShare), so that many
// servers are reachable only through non-target servers, as on the real
// web, and servers accessed measure something. There are no special
// hosts: those are Thai by construction.
func laoWebParams() webgen.Params {
	p := webgen.DemoDefaults()
	p.TargetLang = "lo"
	p.OtherLangs = []string{"th", "en", "vi", "zh", "ja"}
	p.OtherLangWeights = []float64{50, 20, 10, 10, 10}
	p.Servers = 60
	p.TargetServerShare = 10.0 / 60
	p.HubShare = 0.1
	p.Special = false
	return p
}

// startGraph serves g over loopback for one test.
func startGraph(t *testing.T, g *webgen.Graph) *demoWeb {
	t.Helper()
	s := webgen.NewServer(g, webgen.ServerOptions{SlowDelay: 300 * time.Millisecond})
	hs, ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return &demoWeb{g: g, srv: s, addr: ln.Addr().String()}
}

// focusProfile writes and loads a profile for w: a short delay (politeness
// is tested elsewhere), a small page budget per site (the calendar trap),
// and focus, the focus section ("" for an unfocused crawl).
func (w *demoWeb) focusProfile(t *testing.T, out, focus string) *config.Config {
	t.Helper()
	return w.profileWith(t, out, 2*time.Millisecond, "robots: {max_crawl_delay: 20ms}\n"+focus)
}

// focusMeasures are one crawl's figures against the ground truth.
type focusMeasures struct {
	reachable, covered int // reachable target pages, archived ones
	// byLang splits reachable and covered by the pages' language.
	byLang        map[string][2]int
	coverage      float64 // covered / reachable
	html, target  int     // HTML pages fetched, target pages among them
	harvest       float64 // target / html
	servers       int     // hosts the crawl sent any request to
	targetServers int     // hosts holding a reachable target page
	// overTolerance lists the non-target hosts that served more than T+1
	// HTML pages (T is tolerance), not counting a home page fetched as the
	// sequential verdict's probe (hop I).
	overTolerance []string
	tolerance     int
	// unexpectedServers lists the hosts accessed that conservative
	// filtering (Tamura 4.2) cannot reach: neither a seed's, nor holding
	// target pages, nor linked from a page of a server that holds some.
	unexpectedServers []string

	// What focusing dropped. skipped: leased URLs skipped because their
	// server had turned irrelevant (crawl.log -5003); queueDropped: queued
	// URLs removed when their server turned irrelevant (accepted as an
	// outlink, never leased); rejected: links focusing refused that were
	// never fetched by another path.
	skipped, queueDropped, rejected int
	// unlogged lists URLs accepted as outlinks that neither were fetched
	// nor got a crawl.log line: none may be (issue 9, part 6).
	unlogged []string
	// droppedTarget are the target pages among all of those: what
	// focusing cost in coverage.
	droppedTarget []string
	// irrelevantTarget lists the hosts holding target pages that the crawl
	// judged irrelevant (a metadata record with focusStatus irrelevant).
	irrelevantTarget []string
	// The crawl's own language verdicts (metadata "relevant") against the
	// truth, on graph pages: target pages called foreign, foreign pages
	// called target.
	falseNeg, falsePos []string

	snap crawl.Snapshot
}

func (m focusMeasures) String() string {
	return fmt.Sprintf("coverage %d/%d = %.3f, harvest %d/%d = %.3f, servers %d for %d target servers (%.2fx), "+
		"skipped %d, dropped from queue %d (engine: %d), rejected %d, target pages among them %d; "+
		"language verdicts: %d target pages called foreign, %d foreign called target",
		m.covered, m.reachable, m.coverage, m.target, m.html, m.harvest, m.servers, m.targetServers,
		float64(m.servers)/float64(max(m.targetServers, 1)), m.skipped, m.queueDropped, m.snap.Dropped, m.rejected,
		len(m.droppedTarget), len(m.falseNeg), len(m.falsePos))
}

// measureFocus crawls w with the focus section focus and measures the crawl.
// The section's tolerance is focusTolerance.
func (w *demoWeb) measureFocus(t *testing.T, focus string) focusMeasures {
	t.Helper()
	return w.measureFocusT(t, focus, focusTolerance)
}

// measureFocusT is measureFocus for a focus section whose tolerance is tol.
func (w *demoWeb) measureFocusT(t *testing.T, focus string, tol int) focusMeasures {
	t.Helper()
	out := t.TempDir()
	cfg := w.focusProfile(t, out, focus)
	snap, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Frontier.Queued != 0 {
		t.Fatalf("crawl stopped with %d URLs queued; the measures need a finished crawl", snap.Frontier.Queued)
	}
	m := focusMeasures{snap: snap, tolerance: tol, byLang: map[string][2]int{}}
	g := w.g
	truth := func(u string) (webgen.Truth, bool) {
		tr, ok := g.Truth(u)
		if ok && w.targets != nil {
			tr.Target = slices.Contains(w.targets, tr.Lang)
		}
		return tr, ok
	}
	isTargetPage := func(u string) bool {
		tr, ok := truth(u)
		return ok && tr.Target && tr.Status == 200 && tr.Lang != ""
	}
	// A server is a target server when it holds a target page.
	serverTarget := func(s int32) bool {
		sv := g.Server(s)
		if w.targets == nil {
			return sv.Target
		}
		for p := sv.First; p < sv.End; p++ {
			if tr, _ := truth(g.URL(p)); tr.Target {
				return true
			}
		}
		return false
	}

	// Coverage: reachable target pages, as a crawl with no depth cut
	// reaches them: not disallowed, not behind the query rule.
	resp := responses(warcRecords(t, filepath.Join(out, warcDir)))
	dist := g.Distances(g.Seeds())
	targetHosts := map[string]bool{}
	for p := int32(0); p < int32(g.NumPages()); p++ {
		u := g.URL(p)
		tr, _ := truth(u)
		if dist[p] < 0 || !tr.Target || tr.Status != 200 || tr.Disallowed || strings.Contains(u, "?") {
			continue
		}
		m.reachable++
		targetHosts[g.Server(g.PageServer(p)).Host] = true
		n := m.byLang[tr.Lang]
		n[0]++
		if len(resp[u]) > 0 {
			m.covered++
			n[1]++
		}
		m.byLang[tr.Lang] = n
	}
	m.targetServers = len(targetHosts)
	m.coverage = float64(m.covered) / float64(max(m.reachable, 1))

	// Harvest and servers, from the server's own request log.
	perHost := map[string]int{}
	hosts := map[string]bool{}
	for _, h := range w.srv.Log() {
		hosts[h.Host] = true
		tr, ok := truth("http://" + h.Host + h.URI)
		if !ok || tr.Page < 0 || tr.Lang == "" || tr.Status != 200 {
			continue // robots.txt, requisites, redirects, 404s
		}
		m.html++
		if tr.Target {
			m.target++
		}
		perHost[h.Host]++
	}
	m.servers = len(hosts)
	reach := map[string]bool{}
	for _, s := range g.Seeds() {
		reach[g.Server(g.PageServer(s)).Host] = true
	}
	for s := int32(0); s < int32(g.NumServers()); s++ {
		sv := g.Server(s)
		if !serverTarget(s) {
			continue
		}
		reach[sv.Host] = true
		for p := sv.First; p < sv.End; p++ {
			for _, d := range g.Links(p) {
				reach[g.Server(g.PageServer(d)).Host] = true
			}
		}
	}
	for h := range hosts {
		if !reach[h] {
			m.unexpectedServers = append(m.unexpectedServers, h)
		}
	}
	m.harvest = float64(m.target) / float64(max(m.html, 1))

	// What focusing dropped: crawl.log for the skips, the metadata records
	// for the links decided on each page.
	logged := map[string]bool{}
	data, err := os.ReadFile(filepath.Join(out, logDir, "crawl.log"))
	if err != nil {
		t.Fatal(err)
	}
	dropped := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			t.Fatalf("short crawl.log line %q", line)
		}
		logged[f[3]] = true
		switch {
		case f[1] == "-5003" && strings.Contains(line, "focus:dropped:"):
			// Queued, never leased: removed by DropSite, which logs each.
			m.queueDropped++
			dropped[f[3]] = true
		case f[1] == "-5003":
			m.skipped++
			dropped[f[3]] = true
		}
	}
	accepted, rejected := map[string]bool{}, map[string]bool{}
	probes := map[string]int{} // per host, pages fetched as the sequential verdict's home probe (hop I)
	for _, r := range warcRecords(t, filepath.Join(out, warcDir)) {
		if r.Type != "metadata" {
			continue
		}
		for _, line := range strings.Split(string(r.Block), "\r\n") {
			if hops, ok := strings.CutPrefix(line, "hopsFromSeed: "); ok && strings.HasSuffix(strings.TrimRight(hops, "R"), "I") {
				if u, err := url.Parse(r.TargetURI); err == nil {
					probes[u.Host]++
				}
			}
			v, ok := strings.CutPrefix(line, "outlink: ")
			if ok {
				f := strings.Fields(v)
				if strings.Contains(v, " rejected:focus:") {
					rejected[f[0]] = true
				} else if !strings.Contains(v, " rejected:") {
					accepted[f[0]] = true
				}
				continue
			}
			if rel, ok := strings.CutPrefix(line, "relevant: "); ok {
				if tr, ok := truth(r.TargetURI); ok && tr.Page >= 0 && tr.Lang != "" {
					switch {
					case tr.Target && rel != "true":
						m.falseNeg = append(m.falseNeg, r.TargetURI)
					case !tr.Target && rel == "true":
						m.falsePos = append(m.falsePos, r.TargetURI)
					}
				}
			}
			if line == "focusStatus: irrelevant" {
				if tr, ok := truth(r.TargetURI); ok && tr.Page >= 0 && serverTarget(g.PageServer(tr.Page)) {
					m.irrelevantTarget = append(m.irrelevantTarget, r.TargetURI)
				}
			}
		}
	}
	for u := range accepted {
		if !logged[u] { // queued and never logged: DropSite logs every URL it removes
			m.unlogged = append(m.unlogged, u)
			dropped[u] = true
		}
	}
	for u := range rejected {
		if !logged[u] && !accepted[u] {
			m.rejected++
			dropped[u] = true
		}
	}
	for u := range dropped {
		if isTargetPage(u) {
			m.droppedTarget = append(m.droppedTarget, u)
		}
	}
	// T+1 pages that links asked for; the sequential verdict's probe of the
	// home page comes on top (it does not count toward T).
	for s := int32(0); s < int32(g.NumServers()); s++ {
		sv := g.Server(s)
		if n := perHost[sv.Host] - probes[sv.Host]; !serverTarget(s) && n > tol+1 {
			m.overTolerance = append(m.overTolerance, fmt.Sprintf("%s (%d pages, %d of them probed)", sv.Host, perHost[sv.Host], probes[sv.Host]))
		}
	}
	return m
}

// focusFloors are what a focused crawl must reach.
type focusFloors struct {
	coverage, harvest float64 // at least
	serverRatio       float64 // servers accessed / servers with target pages, at most
	serverShare       float64 // servers accessed / the unfocused crawl's, at most
	misjudged         int     // servers with target pages judged irrelevant, at most
	// gain is the focused harvest / the unfocused one, at least; 0: 1.5.
	gain float64
}

// checkFocused applies the checks common to every target language: the
// focused crawl against its floors, against the ground truth of what it
// dropped, and against the unfocused crawl of the same web.
func checkFocused(t *testing.T, on, off focusMeasures, f focusFloors) {
	t.Helper()
	t.Logf("focused:   %v", on)
	t.Logf("unfocused: %v", off)
	if on.reachable < 100 {
		t.Fatalf("only %d reachable target pages; the web is too small to judge focusing", on.reachable)
	}
	if on.coverage < f.coverage {
		t.Errorf("coverage of reachable target pages %.3f, want at least %.3f", on.coverage, f.coverage)
	}
	if on.harvest < f.harvest {
		t.Errorf("harvest rate %.3f, want at least %.3f", on.harvest, f.harvest)
	}
	// Focusing must be what raises the harvest: the same web crawled
	// without it harvests what the web holds.
	gain := cmp.Or(f.gain, 1.5)
	if on.harvest < gain*off.harvest {
		t.Errorf("harvest rate %.3f focused, %.3f unfocused: want focused at least %.2f times higher", on.harvest, off.harvest, gain)
	}
	if off.coverage < 0.999 {
		t.Errorf("the unfocused crawl covers %.3f of the reachable target pages, want all: the ground truth is off", off.coverage)
	}
	ratio := float64(on.servers) / float64(on.targetServers)
	if ratio > f.serverRatio {
		t.Errorf("servers accessed %d, %.2f times the %d servers with target pages; want at most %.2f times",
			on.servers, ratio, on.targetServers, f.serverRatio)
	}
	if share := float64(on.servers) / float64(off.servers); share > f.serverShare {
		t.Errorf("servers accessed: %d focused, %d unfocused (%.2f); want at most %.2f", on.servers, off.servers, share, f.serverShare)
	}
	for _, h := range on.unexpectedServers {
		t.Errorf("%s accessed, but no server holding target pages links to it: step 4.5 should have kept it out", h)
	}
	// The crawl's own language verdicts: focusing is only as good as they are.
	if n := len(on.falsePos) + len(on.falseNeg); float64(n) > 0.01*float64(on.html) {
		t.Errorf("%d wrong language verdicts on %d pages: target pages called foreign %v, foreign called target %v",
			n, on.html, on.falseNeg, on.falsePos)
	}
	// Tamura 4.1: a server with no target page is irrelevant after T+1
	// pages and is not fetched again (the sequential verdict's home probe
	// comes on top of them).
	for _, h := range on.overTolerance {
		t.Errorf("%s has no target page but served more than T+1 = %d pages besides a home probe", h, on.tolerance+1)
	}
	// What focusing dropped, against the truth: every URL removed from the
	// queue is one the engine counted, and the dropped URLs are (almost)
	// never target pages; the few that are cost coverage, and nothing
	// else did.
	if int64(on.queueDropped) != on.snap.Dropped {
		t.Errorf("%d -5003 crawl.log lines for URLs removed from the queue, but the engine dropped %d", on.queueDropped, on.snap.Dropped)
	}
	if len(on.unlogged) > 0 {
		t.Errorf("%d URLs were queued but never fetched nor logged, e.g. %s", len(on.unlogged), on.unlogged[0])
	}
	if on.skipped+on.queueDropped+on.rejected == 0 {
		t.Error("focusing dropped nothing; it cannot have raised the harvest")
	}
	if lost := on.reachable - on.covered; len(on.droppedTarget) > lost {
		t.Errorf("focusing dropped %d target pages but only %d are missing: %v", len(on.droppedTarget), lost, on.droppedTarget)
	}
	if len(on.irrelevantTarget) > f.misjudged {
		t.Errorf("%d servers holding target pages judged irrelevant (on pages %v), want at most %d",
			len(on.irrelevantTarget), on.irrelevantTarget, f.misjudged)
	}
	if off.skipped+off.queueDropped+off.rejected != 0 {
		t.Errorf("the unfocused crawl dropped %d URLs", off.skipped+off.queueDropped+off.rejected)
	}
}

// TestFocusedCrawl crawls the built-in demo web for Thai with the default
// strategy, conservative-server (Tamura 4.2), T = 3, and again without
// focusing. Measured in 14 runs, every time: coverage 214/214, harvest
// 0.625 focused against 0.328 unfocused, 39 servers accessed for 18 with
// Thai pages (2.17x), about 180 queued URLs dropped and 80 links rejected,
// none of them a Thai page, no wrong language verdict. (On the engine and
// demo web of 467fc3d: 216/216, 0.627 against 0.330, 39 servers for 19.) The demo web's Thai
// servers carry a fifth of English pages, which server-based focusing
// fetches by design, so the harvest cannot pass about 0.8; and each of its
// 20 other servers is linked from a Thai server, so focusing accesses them
// all (T+1 pages at most each, checked) and the servers floor is only
// against the Thai servers. Floors: coverage 0.98, harvest 0.58 and 1.5
// times the unfocused crawl's, servers 2.4x.
func TestFocusedCrawl(t *testing.T) {
	w := startWeb(t)
	on := w.measureFocus(t, fmt.Sprintf("focus:\n  language: th\n  strategy: conservative-server\n  tolerance: %d\n", focusTolerance))
	w = startWeb(t)
	off := w.measureFocus(t, "")
	checkFocused(t, on, off, focusFloors{coverage: 0.98, harvest: 0.58, serverRatio: 2.4, serverShare: 1})
}

// TestFocusedCrawlLao does the same for Lao on a web where half of the
// other servers are Thai, Lao's close neighbour: the detector must tell
// them apart for focusing to keep the Thai servers out. It runs at T = 10,
// the default and what Tamura 5.2 asks for, not at TestFocusedCrawl's
// T = 3. At T = 3 the outcome hung on fetch order: lo-temple11.test, a Lao
// server that keeps its pages in /lo/ and /en/ directories, reached
// through links to its English pages, served T+1 = 4 of them before any
// Lao page and was judged irrelevant, losing its 17 Lao pages, in about
// half the runs; a CI run on a loaded machine lost a second server
// (236/267), and one in the twelfth session a third (221/267, below the
// floor of 0.86 set from those runs). Measured at T = 10 in three runs:
// coverage 267/267, harvest 267/391 = 0.683 against 0.192 unfocused, 15
// servers accessed of 60 (1.5x the 10 Lao servers), no wrong language
// verdict, no Lao server judged irrelevant. Floors: coverage 0.98,
// harvest 0.64 and 1.5 times the unfocused crawl's, servers 1.8x the Lao
// servers and 0.4 of the unfocused crawl's, no Lao server judged
// irrelevant.
func TestFocusedCrawlLao(t *testing.T) {
	laoOnce.Do(func() { laoGraph, laoErr = webgen.Generate(laoWebParams()) })
	if laoErr != nil {
		t.Fatal(laoErr)
	}
	focusedAtT10(t, laoGraph, "lo")
}

// focusedAtT10 crawls g focused on lang (conservative-server, T = 10) and
// unfocused, and checks the focused crawl against the floors of
// TestFocusedCrawlLao.
func focusedAtT10(t *testing.T, g *webgen.Graph, lang string) {
	t.Helper()
	on := startGraph(t, g).measureFocusT(t, "focus:\n  language: "+lang+"\n  strategy: conservative-server\n  tolerance: 10\n", 10)
	off := startGraph(t, g).measureFocus(t, "")
	checkFocused(t, on, off, focusFloors{coverage: 0.98, harvest: 0.64, serverRatio: 1.8, serverShare: 0.4, misjudged: 0})
}

// TestFocusedCrawlSet crawls a web for a set of two targets collected
// together, Lao and Thai (focus.language: [lo, th]), as a library
// collecting several national languages would: a page in either is
// relevant, and so is a server holding either. The web is the Lao web of
// the tests above with HubShare 0, so that Lao servers link to the Thai
// ones (half of the other servers) directly: 10 Lao and 22 Thai servers of
// 60, every other server linked from one of them. It is judged by the same
// measures with "target" meaning either language, against an unfocused
// crawl, with the default strategy (conservative-server, T = 10) and with
// the sequential one; each language must be covered on its own, so a set
// that kept only its first language fails (it did, on this web with
// HubShare 0.1: 0 of 378 Thai pages).
// Measured in four runs of each: Lao 265/265, Thai 376-377/380 (the rest
// sit behind foreign servers), harvest 0.636 (conservative-server) and
// 0.640-0.643 (sequential) against 0.464 unfocused, all 60 servers
// accessed, no wrong language verdict, no foreign server past T+1 pages.
// That last held for the sequential strategy only once links to other
// servers could no longer lift its backstop (focus.sequentialStatus):
// before, Vietnamese and English servers linking to many Thai ones were
// judged relevant on those links and served up to 33 pages each. Floors: each language 0.98,
// coverage 0.98, harvest 0.60 and 1.3 times the unfocused crawl's (the web
// is 46% target pages), servers 2x the target servers.
func TestFocusedCrawlSet(t *testing.T) {
	p := laoWebParams()
	p.HubShare = 0
	g, err := webgen.Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	set := []string{"lo", "th"}
	web := func() *demoWeb {
		w := startGraph(t, g)
		w.targets = set
		return w
	}
	off := web().measureFocusT(t, "", 10)
	for _, strategy := range []string{"conservative-server", "sequential"} {
		t.Run(strategy, func(t *testing.T) {
			on := web().measureFocusT(t, "focus:\n  language: [lo, th]\n  strategy: "+strategy+"\n", 10)
			for _, l := range set {
				n := on.byLang[l]
				t.Logf("%s: %d of %d reachable pages archived", l, n[1], n[0])
				if n[0] < 50 {
					t.Fatalf("only %d reachable %s pages: the web cannot judge the set", n[0], l)
				}
				if float64(n[1]) < 0.98*float64(n[0]) {
					t.Errorf("%s: %d of %d reachable pages archived, want at least 0.98", l, n[1], n[0])
				}
			}
			checkFocused(t, on, off, focusFloors{coverage: 0.98, harvest: 0.60, serverRatio: 2, serverShare: 1, gain: 1.3})
		})
	}
}

// checkNotBelow fails if the focused crawl on is below the same web's
// crawl with Tamura's conservative-server, cs, on coverage, harvest or
// servers accessed (issue 9: never below conservative-server).
func checkNotBelow(t *testing.T, on, cs focusMeasures) {
	t.Helper()
	t.Logf("conservative-server: %v", cs)
	if on.covered < cs.covered {
		t.Errorf("coverage %d/%d, below conservative-server's %d", on.covered, on.reachable, cs.covered)
	}
	if on.harvest < cs.harvest {
		t.Errorf("harvest %.3f, below conservative-server's %.3f", on.harvest, cs.harvest)
	}
	if on.servers > cs.servers {
		t.Errorf("%d servers accessed, more than conservative-server's %d", on.servers, cs.servers)
	}
}

// TestFocusedCrawlSequential crawls both webs of the tests above with the
// sequential strategy (sequential server verdicts at the default error
// bounds, alpha 0.01 and beta 0.001, foreign sections kept), with
// conservative-server, both at the default T = 10 (the sequential
// strategy's backstop), and without focusing. Measured at the default
// bounds, in five runs (Thai) and eight (Lao) since the home probe stopped
// counting toward T: Thai, coverage 216/216, harvest 0.531-0.541 against
// 0.463 for conservative-server and 0.330 unfocused, 39 servers (2.05x, as
// conservative-server); Lao, coverage 267/267, harvest 0.692-0.712 against
// 0.683 and 0.192, 15 servers of 60 (1.5x). A foreign server may serve its
// probed home page on top of T+1 pages (checkFocused). (With both
// bounds at 0.01, the earlier default, the harvests were 0.588-0.601 and
// 0.742-0.746: the smaller beta waits for more evidence before judging a
// server foreign.) No target page dropped, no wrong language verdict. The
// Lao web's lo-temple11.test, which conservative-server at T = 3 loses
// when its English pages come first (TestFocusedCrawlLao), is kept: its
// home page (Lao) is asked for before its verdict. Floors: Thai coverage
// 0.98 and harvest 0.50, Lao coverage 0.98 and harvest 0.68, the servers
// floors of the tests above, and never below conservative-server on
// coverage, harvest or servers. The same floors hold with per-link evidence
// (focus.link_evidence): in five runs, Thai harvest 0.525-0.536 and Lao
// 0.704-0.716, every target page kept.
func TestFocusedCrawlSequential(t *testing.T) {
	const tol = 10
	section := func(lang, strategy string) string {
		return fmt.Sprintf("focus:\n  language: %s\n  strategy: %s\n  tolerance: %d\n", lang, strategy, tol)
	}
	t.Run("th", func(t *testing.T) {
		w := startWeb(t)
		on := w.measureFocusT(t, section("th", "sequential"), tol)
		w = startWeb(t)
		cs := w.measureFocusT(t, section("th", "conservative-server"), tol)
		w = startWeb(t)
		off := w.measureFocus(t, "")
		floors := focusFloors{coverage: 0.98, harvest: 0.50, serverRatio: 2.4, serverShare: 1}
		checkFocused(t, on, off, floors)
		checkNotBelow(t, on, cs)
		w = startWeb(t)
		links := w.measureFocusT(t, section("th", "sequential")+"  link_evidence: true\n", tol)
		t.Log("with link evidence:")
		checkFocused(t, links, off, floors)
		checkNotBelow(t, links, cs)
	})
	t.Run("lo", func(t *testing.T) {
		laoOnce.Do(func() { laoGraph, laoErr = webgen.Generate(laoWebParams()) })
		if laoErr != nil {
			t.Fatal(laoErr)
		}
		w := startGraph(t, laoGraph)
		on := w.measureFocusT(t, section("lo", "sequential"), tol)
		w = startGraph(t, laoGraph)
		cs := w.measureFocusT(t, section("lo", "conservative-server"), tol)
		w = startGraph(t, laoGraph)
		off := w.measureFocus(t, "")
		floors := focusFloors{coverage: 0.98, harvest: 0.68, serverRatio: 1.8, serverShare: 0.4, misjudged: 1}
		checkFocused(t, on, off, floors)
		checkNotBelow(t, on, cs)
		w = startGraph(t, laoGraph)
		links := w.measureFocusT(t, section("lo", "sequential")+"  link_evidence: true\n", tol)
		t.Log("with link evidence:")
		checkFocused(t, links, off, floors)
		checkNotBelow(t, links, cs)
	})
}

// TestUnknownTargetWritesNothing: a target language the detector has no
// profile for (Bosnian, or a typo), alone or in a set, stops the
// crawl with an error naming it before anything is written.
func TestUnknownTargetWritesNothing(t *testing.T) {
	laoOnce.Do(func() { laoGraph, laoErr = webgen.Generate(laoWebParams()) })
	if laoErr != nil {
		t.Fatal(laoErr)
	}
	w := startGraph(t, laoGraph)
	out := filepath.Join(t.TempDir(), "crawl")
	cfg := w.focusProfile(t, out, "focus:\n  language: [lo, bs]\n")
	_, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `"bs"`) || !strings.Contains(err.Error(), "langcrawl languages") ||
		!strings.Contains(err.Error(), "focus.language") || !errors.Is(err, errUsage) {
		t.Errorf("err = %v, want a usage error (exit 2) naming focus.language, \"bs\" and langcrawl languages", err)
	}
	// langcrawl config checks the targets as the crawl does.
	cmd := configCmd()
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SetArgs([]string{"--profile", cfg.ProfilePath, "--target", "xx"})
	if err := cmd.Execute(); err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `"xx"`) {
		t.Errorf("config --target xx: %v, want a usage error naming \"xx\"", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output directory was made (%v)", err)
	}
	if n := len(w.srv.Log()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestCrawlWarnsOneNorwegianStandard: a crawl for Bokmål alone warns at
// its start, on stderr, that Nynorsk pages are not kept (README, "A set of
// target languages"); one for no, both standards, does not. The crawls are
// stopped before they fetch anything.
func TestCrawlWarnsOneNorwegianStandard(t *testing.T) {
	laoOnce.Do(func() { laoGraph, laoErr = webgen.Generate(laoWebParams()) })
	if laoErr != nil {
		t.Fatal(laoErr)
	}
	w := startGraph(t, laoGraph)
	for _, c := range []struct {
		language string
		warn     bool
	}{{"nb", true}, {"no", false}} {
		out := filepath.Join(t.TempDir(), "crawl")
		cfg := w.focusProfile(t, out, "focus:\n  language: "+c.language+"\n")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stderr bytes.Buffer
		if _, err := runCrawl(ctx, cfg, io.Discard, &stderr); err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("language %s: %v", c.language, err)
		}
		got := strings.Contains(stderr.String(), "warning: focus: target nb without nn")
		if got != c.warn {
			t.Errorf("language %s: stderr %q, want the warning: %v", c.language, stderr.String(), c.warn)
		}
	}
}

// TestResumeWhenIndexMergeFails: a start whose index merge fails (a disk
// too full for a copy of the index; here a run that cannot be read) warns
// and crawls on: no index line is lost, and the stop merges again.
func TestResumeWhenIndexMergeFails(t *testing.T) {
	laoOnce.Do(func() { laoGraph, laoErr = webgen.Generate(laoWebParams()) })
	if laoErr != nil {
		t.Fatal(laoErr)
	}
	w := startGraph(t, laoGraph)
	out := t.TempDir()
	bad := filepath.Join(out, warcDir, "index.d", "bad.warc.gz.cdxj")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := w.focusProfile(t, out, "max_pages: 20\n")
	var stderr strings.Builder
	_, err := runCrawl(context.Background(), cfg, io.Discard, &stderr)
	if !strings.Contains(stderr.String(), "warning: archive: index not merged") {
		t.Errorf("no warning about the merge on stderr:\n%s", stderr.String())
	}
	if n := len(w.srv.Log()); n == 0 {
		t.Fatalf("nothing fetched (err %v): the failed merge stopped the crawl", err)
	}
	// The stop's merge fails too, on the same run; it says so, and every
	// WARC file's index run is still there for the next one.
	if !errors.Is(err, archive.ErrIndexNotMerged) || !strings.Contains(err.Error(), "bad.warc.gz.cdxj") || !strings.Contains(err.Error(), "stay in") {
		t.Errorf("err = %v, want the stop's failed merge named, and where its lines stay", err)
	}
	warcs, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
	runs, _ := filepath.Glob(filepath.Join(out, warcDir, "index.d", "*.warc.gz.cdxj"))
	if len(warcs) == 0 || len(runs) != len(warcs)+1 {
		t.Errorf("%d WARC files, %d index runs; want a run for each beside the bad one", len(warcs), len(runs))
	}
}

// malayWebParams is the Lao web's shape for Malay, with half of the other
// servers Indonesian, the close neighbour a Malay crawl must keep out.
func malayWebParams() webgen.Params {
	p := laoWebParams()
	p.TargetLang = "ms"
	p.OtherLangs = []string{"id", "en", "zh", "ja", "th"}
	return p
}

// TestFocusedCrawlMalay does the same for Malay on a web where half of the
// other servers are Indonesian (an independent evaluation read most Malay
// pages as Indonesian: issue 14). The web has the Lao web's shape, so the
// figures match its: measured in three runs, coverage 267/267, harvest
// 267/391 = 0.683 against 0.192 unfocused, 15 servers of 60, no page's
// language misread either way. Floors as for Lao. What it shows is the
// crawl's part; the generator's Malay word list holds Malaysia's own words
// (universiti, kerajaan, kerana) on most pages, so it is no measure of the
// detector on Malay text at large, which docs/detect.md gives.
func TestFocusedCrawlMalay(t *testing.T) {
	g, err := webgen.Generate(malayWebParams())
	if err != nil {
		t.Fatal(err)
	}
	focusedAtT10(t, g, "ms")
}
