package simulate

import (
	"strings"
	"testing"
)

// tpage describes one page of a handmade web: "host/path", whether it is
// in the target language, and the pages it links to.
type tpage struct {
	id     string
	target bool
	links  []string
}

// handWeb builds a web from a page list; the first page is the seed unless
// seeds are given.
func handWeb(pages []tpage, seeds ...string) *web {
	idx := map[string]int32{}
	hostIdx := map[string]int32{}
	w := &web{numPages: len(pages), targetLang: "th"}
	for i, p := range pages {
		idx[p.id] = int32(i)
		host, _, _ := strings.Cut(p.id, "/")
		s, ok := hostIdx[host]
		if !ok {
			s = int32(len(w.host))
			hostIdx[host] = s
			w.host = append(w.host, host)
			w.tserver = append(w.tserver, false)
		}
		w.server = append(w.server, s)
		w.target = append(w.target, p.target)
		w.kind = append(w.kind, kindPage)
		if p.target {
			w.tserver[s] = true
		}
	}
	adj := make([][]int32, len(pages))
	for i, p := range pages {
		for _, l := range p.links {
			j, ok := idx[l]
			if !ok {
				panic("handWeb: unknown page " + l)
			}
			adj[i] = append(adj[i], j)
		}
	}
	if len(seeds) == 0 {
		seeds = []string{pages[0].id}
	}
	for _, s := range seeds {
		w.seeds = append(w.seeds, idx[s])
	}
	w.links = func(p int32) []int32 { return adj[p] }
	w.url = func(p int32) string { return "http://" + pages[p].id }
	w.lookup = func(u string) (int32, bool) {
		i, ok := idx[strings.TrimPrefix(u, "http://")]
		return i, ok
	}
	w.finish(func(seeds []int32) []int32 {
		dist := make([]int32, len(pages))
		for i := range dist {
			dist[i] = -1
		}
		var q []int32
		for _, s := range seeds {
			dist[s] = 0
			q = append(q, s)
		}
		for h := 0; h < len(q); h++ {
			for _, v := range adj[q[h]] {
				if dist[v] < 0 {
					dist[v] = dist[q[h]] + 1
					q = append(q, v)
				}
			}
		}
		return dist
	})
	return w
}

// TestLossBreakdown sorts lost target pages by their server's fate: no
// page crawled, no target page crawled, or partly crawled. Unreachable
// target pages are not losses.
func TestLossBreakdown(t *testing.T) {
	w := handWeb([]tpage{
		{"a.th/", true, []string{"a.th/1", "a.th/2", "b.com/", "c.th/", "d.th/"}},
		{"a.th/1", true, nil},
		{"a.th/2", true, nil}, // lost inside a.th
		{"b.com/", false, []string{"e.th/"}},
		{"c.th/", false, []string{"c.th/th"}}, // an English home page
		{"c.th/th", true, nil},                // lost: c.th judged on its home page
		{"d.th/", true, nil},                  // lost: d.th never opened
		{"e.th/", true, []string{"e.th/1"}},   // lost: e.th never opened
		{"e.th/1", true, nil},
		{"f.th/", true, nil}, // unreachable: not a loss
	})
	crawled := make([]bool, w.numPages)
	for _, p := range []int{0, 1, 3, 4} { // a.th/, a.th/1, b.com/, c.th/
		crawled[p] = true
	}
	got := lossBreakdown(w, crawled)
	want := Losses{UnopenedPages: 3, UnopenedServers: 2, JudgedPages: 1, JudgedServers: 1, InsidePages: 1, InsideServers: 1}
	if got != want {
		t.Errorf("lossBreakdown = %+v, want %+v", got, want)
	}
}
