package webgen

// linkStats counts links by the rows of Tamura et al. 2007, Tables 4 and 5.
// Links to 404 pages and from special hosts are left out.
type linkStats struct {
	// [class][toTarget][inter]; class 0 = target page, 1 = non-target page
	// on a target server, 2 = page on a non-target server.
	n [3][2][2]int
	// [source server is target][destination server is target]
	servers     [2][2]int
	dead, total int
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func measure(g *Graph) linkStats {
	var st linkStats
	for i := int32(0); i < int32(g.NumPages()); i++ {
		si := g.PageServer(i)
		s := &g.servers[si]
		if s.special != nil {
			continue
		}
		class := 2
		if s.target {
			class = 1
			if g.IsTarget(i) {
				class = 0
			}
		}
		for _, t := range g.Links(i) {
			st.total++
			if g.IsMissing(t) {
				st.dead++
				continue
			}
			ts := g.PageServer(t)
			if g.servers[ts].special != nil {
				continue
			}
			st.n[class][b2i(g.IsTarget(t))][b2i(ts != si)]++
			st.servers[b2i(s.target)][b2i(g.servers[ts].target)]++
		}
	}
	return st
}

// share returns a/(a+b).
func share(a, b int) float64 {
	if a+b == 0 {
		return 0
	}
	return float64(a) / float64(a+b)
}

func (st *linkStats) toTarget(class int) float64 {
	c := st.n[class]
	return share(c[1][0]+c[1][1], c[0][0]+c[0][1])
}

func (st *linkStats) inter(class, toTarget int) float64 {
	c := st.n[class][toTarget]
	return share(c[1], c[0])
}

func (st *linkStats) serverShare(fromTarget int) float64 {
	c := st.servers[fromTarget]
	return share(c[1], c[0])
}
