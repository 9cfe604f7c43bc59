package webgen

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// midParams is a mid-size web: large enough for the link statistics to
// settle, small enough for a fast test.
func midParams() Params {
	p := SimulatorDefaults()
	p.Servers = 6000
	p.Seed = 7
	return p
}

var (
	midOnce  sync.Once
	midGraph *Graph
	midErr   error
)

func mid(t testing.TB) *Graph {
	t.Helper()
	midOnce.Do(func() { midGraph, midErr = Generate(midParams()) })
	if midErr != nil {
		t.Fatal(midErr)
	}
	return midGraph
}

func demo(t testing.TB) *Graph {
	t.Helper()
	g, err := Generate(DemoDefaults())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGenerateDeterministic(t *testing.T) {
	p := midParams()
	p.Servers = 1500
	a, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.links, b.links) || !slices.Equal(a.off, b.off) || !slices.Equal(a.pageServer, b.pageServer) {
		t.Fatal("same params gave different link arrays")
	}
	if !slices.Equal(a.Seeds(), b.Seeds()) {
		t.Fatalf("seeds differ: %v vs %v", a.Seeds(), b.Seeds())
	}
	for s := int32(0); s < int32(a.NumServers()); s++ {
		if a.Server(s) != b.Server(s) {
			t.Fatalf("server %d differs: %+v vs %+v", s, a.Server(s), b.Server(s))
		}
	}
	p.Seed++
	c, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a.links, c.links) {
		t.Fatal("different seeds gave the same links")
	}
}

func TestParamsValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *Params)
		fields []string // every field the error must name
	}{
		{"no servers", func(p *Params) { p.Servers = 0 }, []string{"Servers"}},
		{"share above one", func(p *Params) { p.TargetToTarget = 1.5 }, []string{"TargetToTarget"}},
		{"NaN share", func(p *Params) { p.DeadLinkShare = math.NaN() }, []string{"DeadLinkShare"}},
		{"unknown language", func(p *Params) { p.TargetLang = "xx" }, []string{"TargetLang"}},
		{"weights length", func(p *Params) { p.OtherLangWeights = []float64{1} }, []string{"OtherLangWeights"}},
		{"all at once", func(p *Params) {
			p.Servers = -1
			p.MeanOutDegree = 0
			p.Seeds = 0
			p.TargetServerShare = 0
		}, []string{"Servers", "MeanOutDegree", "Seeds", "TargetServerShare"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := DemoDefaults()
			tc.change(&p)
			_, err := Generate(p)
			if !errors.Is(err, ErrParams) {
				t.Fatalf("Generate: %v, want ErrParams", err)
			}
			for _, f := range tc.fields {
				if !strings.Contains(err.Error(), f+":") {
					t.Errorf("error %q does not name %s", err, f)
				}
			}
		})
	}
	for _, p := range []Params{DemoDefaults(), SimulatorDefaults()} {
		if err := p.validate(); err != nil {
			t.Errorf("defaults invalid: %v", err)
		}
	}
}

// TestLinkStatistics checks the generated mix against Tamura et al. 2007,
// Tables 4 and 5, and the server and page shares of §2.3.
func TestLinkStatistics(t *testing.T) {
	g := mid(t)
	p := g.Params()
	st := measure(g)
	tests := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"target→target", st.toTarget(0), p.TargetToTarget, 0.03},
		{"target→target inter", st.inter(0, 1), p.TargetToTargetInter, 0.03},
		{"target→other inter", st.inter(0, 0), p.TargetToOtherInter, 0.03},
		{"mixed→target", st.toTarget(1), p.MixedToTarget, 0.03},
		{"mixed→target inter", st.inter(1, 1), p.MixedToTargetInter, 0.04},
		{"mixed→other inter", st.inter(1, 0), p.MixedToOtherInter, 0.04},
		{"other→target", st.toTarget(2), p.OtherToTarget, 0.001},
		{"other→target inter", st.inter(2, 1), 1, 0},
		{"other→other inter", st.inter(2, 0), p.OtherToOtherInter, 0.03},
		{"table 5 target servers", st.serverShare(1), 0.874, 0.02},
		{"table 5 other servers", st.serverShare(0), 0.005, 0.003},
		{"dead links", share(st.dead, st.total-st.dead), p.DeadLinkShare, 0.005},
		{"out-degree", float64(st.total) / float64(g.NumPages()), p.MeanOutDegree, 0.1 * p.MeanOutDegree},
	}
	for _, tc := range tests {
		if math.Abs(tc.got-tc.want) > tc.tol {
			t.Errorf("%s: got %.4f, want %.4f ± %.4f", tc.name, tc.got, tc.want, tc.tol)
		}
	}

	var targetServers, targetPages, pages int
	for s := int32(0); s < int32(g.NumServers()); s++ {
		if g.Server(s).Target {
			targetServers++
		}
	}
	for i := int32(0); i < int32(g.NumPages()); i++ {
		if g.IsMissing(i) {
			continue
		}
		pages++
		if g.IsTarget(i) {
			targetPages++
		}
	}
	if got := float64(targetServers) / float64(g.NumServers()); math.Abs(got-p.TargetServerShare) > 0.002 {
		t.Errorf("target server share %.4f, want %.4f", got, p.TargetServerShare)
	}
	// Page counts are heavy-tailed, so one large server moves this share on
	// a mid-size web; the simulator web is closer (about 0.09).
	if got := float64(targetPages) / float64(pages); math.Abs(got-0.094) > 0.03 {
		t.Errorf("target page share %.4f, want about 0.094 (Tamura Table 1)", got)
	}
}

// TestHubsAndHeavyTail checks that page counts and inter-server in-links
// are heavy-tailed.
func TestHubsAndHeavyTail(t *testing.T) {
	g := mid(t)
	in := make([]int, g.NumServers())
	inter := 0
	for i := int32(0); i < int32(g.NumPages()); i++ {
		for _, d := range g.Links(i) {
			if s := g.PageServer(d); s != g.PageServer(i) {
				in[s]++
				inter++
			}
		}
	}
	mean := float64(inter) / float64(len(in))
	if m := slices.Max(in); float64(m) < 20*mean {
		t.Errorf("largest server in-degree %d is under 20× the mean %.1f: no hubs", m, mean)
	}
	var sizes []int
	for s := int32(0); s < int32(g.NumServers()); s++ {
		si := g.Server(s)
		sizes = append(sizes, int(si.End-si.First))
	}
	slices.Sort(sizes)
	median := sizes[len(sizes)/2]
	if max := sizes[len(sizes)-1]; max < 20*median {
		t.Errorf("largest server has %d pages, median %d: not heavy-tailed", max, median)
	}
}

func TestDistances(t *testing.T) {
	for name, g := range map[string]*Graph{"demo": demo(t), "mid": mid(t)} {
		t.Run(name, func(t *testing.T) {
			seeds := g.Seeds()
			if len(seeds) != g.Params().Seeds {
				t.Fatalf("%d seeds, want %d", len(seeds), g.Params().Seeds)
			}
			dist := g.Distances(seeds)
			// BFS invariants: seeds at 0, no link shortens a distance by
			// more than one, and every reached page has a predecessor one
			// closer.
			best := make([]int32, len(dist))
			for i := range best {
				best[i] = -1
			}
			for _, s := range seeds {
				if dist[s] != 0 || !g.IsTarget(s) || g.Page(s).Path != "/" {
					t.Errorf("seed %s: dist %d target %v", g.URL(s), dist[s], g.IsTarget(s))
				}
			}
			for u := int32(0); u < int32(len(dist)); u++ {
				if dist[u] < 0 {
					continue
				}
				for _, v := range g.Links(u) {
					if dist[v] < 0 || dist[v] > dist[u]+1 {
						t.Fatalf("link %s→%s: distances %d→%d", g.URL(u), g.URL(v), dist[u], dist[v])
					}
					if best[v] < 0 || dist[u]+1 < best[v] {
						best[v] = dist[u] + 1
					}
				}
			}
			var reached, targets, targetReached int
			for v, d := range dist {
				if d > 0 && best[v] != d {
					t.Fatalf("page %s at distance %d has best predecessor path %d", g.URL(int32(v)), d, best[v])
				}
				if g.IsTarget(int32(v)) {
					targets++
					if d >= 0 {
						targetReached++
					}
				}
				if d >= 0 {
					reached++
				}
			}
			if r := float64(targetReached) / float64(targets); r < 0.8 {
				t.Errorf("seeds reach %.2f of target pages, want most", r)
			}
			if reached == len(dist) {
				t.Errorf("every page reachable; a real web is not")
			}
		})
	}
}

func TestLookupRoundTrip(t *testing.T) {
	for name, g := range map[string]*Graph{"demo": demo(t), "mid": mid(t)} {
		t.Run(name, func(t *testing.T) {
			seen := make(map[string]int32, g.NumPages())
			for i := int32(0); i < int32(g.NumPages()); i++ {
				u := g.URL(i)
				if j, dup := seen[u]; dup {
					t.Fatalf("pages %d and %d share URL %s", j, i, u)
				}
				seen[u] = i
				if j, ok := g.Lookup(u); !ok || j != i {
					t.Fatalf("Lookup(%q) = %d, %v; want %d", u, j, ok, i)
				}
				if !strings.HasSuffix(g.Server(g.PageServer(i)).Host, ".test") {
					t.Fatalf("host of %s is not under .test", u)
				}
			}
		})
	}
}

func TestLookupRejects(t *testing.T) {
	g := demo(t)
	var plain, dirs ServerInfo
	for s := int32(0); s < int32(g.NumServers()); s++ {
		si := g.Server(s)
		if si.Special == "" && !si.LangDirs && plain.Host == "" {
			plain = si
		}
		if si.LangDirs && dirs.Host == "" {
			dirs = si
		}
	}
	if dirs.Host == "" {
		t.Fatal("demo web has no server with language directories")
	}
	n := plain.End - plain.First
	tests := []struct {
		url string
		ok  bool
	}{
		{"http://" + plain.Host + "/", true},
		{"HTTP://" + strings.ToUpper(plain.Host) + "/", true},
		{"http://" + plain.Host, true},
		{"http://" + plain.Host + ":80/", true},
		{"http://" + plain.Host + "/page1.html", true},
		{"https://" + plain.Host + "/", false},
		{"http://" + plain.Host + ":8080/", false},
		{"http://nosuch.test/", false},
		{"http://" + plain.Host + "/page0.html", false},
		{"http://" + plain.Host + "/page01.html", false},
		{"http://" + plain.Host + "/page-1.html", false},
		{"http://" + plain.Host + "/page" + strconv.Itoa(int(n)+5) + ".html", false},
		{"http://" + plain.Host + "/th/1.html", false},
		{"http://" + dirs.Host + "/th/1.html", true},
		{"http://" + dirs.Host + "/page1.html", false},
		{"http://th-query.test/list.php?id=7", true},
		{"http://th-query.test/list.php?id=51", false},
		{"http://th-calendar.test/calendar/2026/12/", false},
		{"", false},
	}
	for _, tc := range tests {
		if _, ok := g.Lookup(tc.url); ok != tc.ok {
			t.Errorf("Lookup(%q) ok = %v, want %v", tc.url, ok, tc.ok)
		}
	}
}

func FuzzLookup(f *testing.F) {
	g, err := Generate(DemoDefaults())
	if err != nil {
		f.Fatal(err)
	}
	for _, i := range []int32{0, 1, 5, int32(g.NumPages() - 1)} {
		f.Add(g.URL(i))
	}
	f.Add("http://th-query.test/list.php?id=3")
	f.Add("http://x/page99999999999.html")
	f.Fuzz(func(t *testing.T, u string) {
		id, ok := g.Lookup(u)
		if !ok {
			return
		}
		if back, ok := g.Lookup(g.URL(id)); !ok || back != id {
			t.Fatalf("Lookup(%q) = %d, but Lookup(URL(%d)) = %d, %v", u, id, id, back, ok)
		}
		if !strings.EqualFold(strings.TrimSuffix(u, "/"), strings.TrimSuffix(g.URL(id), "/")) &&
			!strings.Contains(strings.ToLower(u), ":80") {
			t.Fatalf("Lookup(%q) found %s", u, g.URL(id))
		}
	})
}

func TestDemoShape(t *testing.T) {
	g := demo(t)
	if n := g.NumServers(); n < 25 || n > 45 {
		t.Errorf("%d hosts, want about 25-40", n)
	}
	if n := g.NumPages(); n < 600 || n > 1500 {
		t.Errorf("%d pages, want 600-1500", n)
	}
	decls := map[Decl]bool{}
	special := map[string]bool{}
	for s := int32(0); s < int32(g.NumServers()); s++ {
		si := g.Server(s)
		if si.Target && si.Special == "" {
			decls[si.Decl] = true
		}
		special[si.Special] = true
	}
	for d := range numDecl {
		if !decls[d] {
			t.Errorf("no Thai server with Decl %v", d)
		}
	}
	for _, d := range specialServers {
		if !special[d.name] {
			t.Errorf("special host %s missing", d.name)
		}
	}
	// The first seed links every special host's home page.
	links := g.Links(g.Seeds()[0])
	for _, d := range specialServers {
		home, ok := g.Lookup("http://" + d.host + "/")
		if !ok || !slices.Contains(links, home) {
			t.Errorf("seed does not link %s", d.host)
		}
	}
}

// BenchmarkGenerateSimulator generates SimulatorDefaults and reports the
// live heap the graph holds.
func BenchmarkGenerateSimulator(b *testing.B) {
	p := SimulatorDefaults()
	b.ReportAllocs()
	var g *Graph
	for b.Loop() {
		var err error
		g, err = Generate(p)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heapMB")
	b.ReportMetric(float64(g.NumPages()), "pages")
	b.ReportMetric(float64(g.NumLinks()), "links")
	runtime.KeepAlive(g)
}

func BenchmarkDistances(b *testing.B) {
	g := mid(b)
	seeds := g.Seeds()
	b.ReportAllocs()
	for b.Loop() {
		g.Distances(seeds)
	}
}

func FuzzCalendarPath(f *testing.F) {
	f.Add("/calendar/2026/11/")
	f.Add("/calendar/9999/12/")
	f.Add("/calendar/+026/-1/")
	f.Fuzz(func(t *testing.T, p string) {
		y, m, ok := calendarPath(p)
		if !ok {
			return
		}
		if y < 2000 || y > 9999 || m < 1 || m > 12 {
			t.Fatalf("calendarPath(%q) = %d, %d", p, y, m)
		}
		if got := fmt.Sprintf("/calendar/%04d/%02d/", y, m); got != p {
			t.Fatalf("calendarPath(%q) accepted a non-canonical path (%s)", p, got)
		}
		if _, _, ok := calendarPath(calendarNext(y, m)); !ok {
			t.Fatalf("next month of %q is not a calendar path", p)
		}
	})
}

// TestHubPool checks Params.HubShare: the inter-server links from target
// servers to non-target servers (dead ones included) land on the hub pool
// only, the pool has the configured size, preferential attachment makes a
// few hubs take most of them, and HubShare = 0 spreads them over many more
// servers.
func TestHubPool(t *testing.T) {
	g := mid(t)
	nonTarget, nHubs := 0, 0
	for i := range g.servers {
		s := &g.servers[i]
		if !s.target && s.special == nil {
			nonTarget++
			if s.hub {
				nHubs++
			}
		}
	}
	if want := int(math.Round(g.p.HubShare * float64(nonTarget))); nHubs != want {
		t.Fatalf("%d hubs, want %d (HubShare %v of %d)", nHubs, want, g.p.HubShare, nonTarget)
	}
	dests := func(g *Graph) (map[int32]int, int) {
		in := map[int32]int{}
		n := 0
		for i := int32(0); i < int32(g.NumPages()); i++ {
			si := g.PageServer(i)
			if !g.servers[si].target {
				continue
			}
			for _, d := range g.Links(i) {
				ds := g.PageServer(d)
				if ds != si && !g.servers[ds].target {
					in[ds]++
					n++
				}
			}
		}
		return in, n
	}
	in, n := dests(g)
	if n == 0 {
		t.Fatal("no links from target servers to non-target servers")
	}
	counts := make([]int, 0, len(in))
	for s, c := range in {
		if !g.servers[s].hub {
			t.Fatalf("server %s gets %d links from target servers but is not a hub", g.servers[s].host, c)
		}
		counts = append(counts, c)
	}
	slices.Sort(counts)
	slices.Reverse(counts)
	top := 0
	for _, c := range counts[:max(len(counts)/10, 1)] {
		top += c
	}
	if share := float64(top) / float64(n); share < 0.3 {
		t.Errorf("the top tenth of hubs gets %.1f%% of the links, want >= 30%%", 100*share)
	}

	p := midParams()
	p.HubShare = 0
	flat, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	inFlat, _ := dests(flat)
	if len(inFlat) < 5*len(in) {
		t.Errorf("without hubs %d non-target servers get links from target servers, with hubs %d: want at least 5 times as many", len(inFlat), len(in))
	}
	t.Logf("hubs %d, linked %d (flat web: %d); %d links, top tenth %d", nHubs, len(in), len(inFlat), n, top)
}
