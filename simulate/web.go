package simulate

import (
	"net/url"
	"sync"

	"github.com/langcrawl/langcrawl/scope"
	"github.com/langcrawl/langcrawl/webgen"
)

// web is the read-only view of a graph that every run shares. It is built
// once per Run and never modified afterwards, so runs read it concurrently.
type web struct {
	numPages   int
	targetLang string   // the graph's target language
	server     []int32  // page -> server
	target     []bool   // page is in the target language
	kind       []uint8  // kindPage, kindMissing or kindRedirect
	host       []string // server -> host (the frontier site key and the server counter key)
	tserver    []bool   // server holds at least one target page
	seeds      []int32

	links func(p int32) []int32
	url   func(p int32) string
	// anchor is the text of the k-th link of a page (webgen Graph.Anchor);
	// nil when the web's anchor parameters are all 0, and every anchor is
	// then "x", saying nothing.
	anchor       func(from int32, k int, to int32) string
	linkEvidence // hreflang, text around links, declared languages (evidence.go)
	lookup       func(u string) (int32, bool)

	dirOnce sync.Once
	dir     []string // page -> scope.DirKey, built on first use

	tdirOnce sync.Once
	tdir     map[string]bool // the directory keys that hold a target page, built on first use

	dist   []int32 // shortest distance from the seeds, -1 unreachable
	useful []bool  // the perfect oracle, see computeUseful

	reachablePages   int64
	reachableTargets int64
	targetPages      int64
	targetServers    int64
	numLinks         int64
	hostIndex        map[string]int32
}

// finish computes the ground truth every run needs: distances, the oracle,
// and the totals.
func (w *web) finish(distances func([]int32) []int32) {
	w.dist = distances(w.seeds)
	w.hostIndex = make(map[string]int32, len(w.host))
	for s, h := range w.host {
		w.hostIndex[h] = int32(s)
	}
	for p := 0; p < w.numPages; p++ {
		if w.target[p] {
			w.targetPages++
		}
		if w.dist[p] >= 0 {
			w.reachablePages++
			if w.target[p] {
				w.reachableTargets++
			}
		}
		w.numLinks += int64(len(w.links(int32(p))))
	}
	for _, t := range w.tserver {
		if t {
			w.targetServers++
		}
	}
	w.useful = computeUseful(w)
}

// computeUseful defines the "perfect" strategy's oracle (Tamura 5.1: "follows
// only links that are known to lead to relevant pages ... determined in
// advance using breadth-first search on the data set"). A page v is useful
// if it is reachable from the seeds and lies on a shortest path from the
// seeds to some target page: v is a target page, or v links to a useful page
// u with dist(u) = dist(v)+1. Following exactly the links to useful pages
// reaches every reachable target page (each useful page at distance d has a
// useful predecessor at d-1 on its shortest path), and downloads no page
// that is not on such a path.
func computeUseful(w *web) []bool {
	maxD := int32(0)
	for _, d := range w.dist {
		maxD = max(maxD, d)
	}
	// Bucket the reachable pages by distance, then sweep from the farthest.
	byDist := make([][]int32, maxD+1)
	for p, d := range w.dist {
		if d >= 0 {
			byDist[d] = append(byDist[d], int32(p))
		}
	}
	useful := make([]bool, w.numPages)
	for d := maxD; d >= 0; d-- {
		for _, v := range byDist[d] {
			if w.target[v] {
				useful[v] = true
				continue
			}
			for _, u := range w.links(v) {
				if u >= 0 && int(u) < w.numPages && w.dist[u] == d+1 && useful[u] {
					useful[v] = true
					break
				}
			}
		}
	}
	return useful
}

// dirKey returns Tamura's directory key (section 4.3) of page p via
// scope.DirKey, e.g. "www.xsp.com/user1/".
func (w *web) dirKey(p int32) string {
	w.dirOnce.Do(func() {
		w.dir = make([]string, w.numPages)
		for i := range w.dir {
			raw := w.url(int32(i))
			u, err := url.Parse(raw)
			if err != nil {
				w.dir[i] = w.host[w.server[i]] + "/"
				continue
			}
			w.dir[i] = scope.DirKey(u)
		}
	})
	return w.dir[p]
}

// targetDir reports whether the top directory of page p (dirKey) holds a
// target page: the directory oracle's verdict.
func (w *web) targetDir(p int32) bool {
	w.tdirOnce.Do(func() {
		w.tdir = map[string]bool{}
		for q := 0; q < w.numPages; q++ {
			if w.target[q] {
				w.tdir[w.dirKey(int32(q))] = true
			}
		}
	})
	return w.tdir[w.dirKey(p)]
}

// hostOf returns the server of a URL that may not be a page of the graph
// (a dead link): it parses the host out of "scheme://host/...".
func (w *web) hostOf(raw string) (int32, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return 0, false
	}
	s, ok := w.hostIndex[u.Host]
	return s, ok
}

// Page kinds.
const (
	kindPage     uint8 = iota // an HTML page: downloaded, counted, links followed
	kindMissing               // answers 404: a fetch, but no page
	kindRedirect              // answers 3xx: its one link is the redirect target
)

// newWeb builds the shared view of a webgen graph and its ground truth.
func newWeb(g *webgen.Graph) *web {
	n := g.NumPages()
	w := &web{
		numPages:   n,
		targetLang: g.TargetLang(),
		server:     make([]int32, n),
		target:     make([]bool, n),
		kind:       make([]uint8, n),
		host:       make([]string, g.NumServers()),
		tserver:    make([]bool, g.NumServers()),
		seeds:      g.Seeds(),
		links:      g.Links,
		url:        g.URL,
		lookup:     g.Lookup,
	}
	if pp := g.Params(); pp.AnchorDestShare > 0 || pp.AnchorSrcShare > 0 || pp.AnchorURLShare > 0 {
		w.anchor = g.Anchor
	}
	w.linkEvidence = newLinkEvidence(g)
	for s := range w.host {
		si := g.Server(int32(s))
		w.host[s] = si.Host
		special := si.Special != ""
		for p := si.First; p < si.End; p++ {
			w.server[p] = int32(s)
			w.target[p] = g.IsTarget(p)
			switch {
			case g.IsMissing(p):
				w.kind[p] = kindMissing
			case special:
				if st := g.Page(p).Status; st >= 300 && st < 400 {
					w.kind[p] = kindRedirect
				}
			}
			if w.target[p] {
				w.tserver[s] = true
			}
		}
	}
	w.finish(g.Distances)
	return w
}
