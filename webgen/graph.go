package webgen

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Graph is a generated web: servers, pages and links. It is immutable after
// Generate returns and safe for concurrent use. Page ids are int32 in
// [0, NumPages()); the pages of one server have consecutive ids.
type Graph struct {
	p       Params
	langs   []string // language table: 0 = TargetLang, 1 = ForeignLang, then OtherLangs
	servers []server
	hosts   map[string]int32

	pageServer []int32 // server of each page
	off        []int32 // CSR offsets: links of page i are links[off[i]:off[i+1]]
	links      []int32

	seeds []int32

	firstSpecial int32            // id of the first special page
	spPages      []specPage       // special pages, indexed by id-firstSpecial
	spIndex      map[string]int32 // host+path(+query) of special pages

	genMu sync.Mutex    // guards gens
	gens  []*generation // generations 1, 2, ... built so far (generation.go)
}

// server is the compact record of one server. Its pages are laid out as
// [first, first+nPrimary) in the server's main language (the home page is
// first), then nForeign pages in ForeignLang (target servers only), then
// nMissing pages that answer 404.
type server struct {
	host   string
	lang   uint8
	target bool
	hub    bool // receives the links from target servers to non-target servers (Params.HubShare)
	hidden bool // a target server no target server links to (Params.HiddenTargetShare)
	// foreignHome: the home page is in ForeignLang (Params.ForeignHomeShare,
	// and every hosting server); hosting: the pages sit in per-user
	// directories /~uN/ (Params.HostingShare).
	foreignHome, hosting bool
	dirs                 bool
	decl                 Decl
	charset              string
	first                int32
	nPrimary             int32
	nForeign             int32
	nMissing             int32
	special              *specServer
}

func (s *server) end() int32 { return s.first + s.nPrimary + s.nForeign + s.nMissing }

// foreignAt reports whether the page of local index local is in
// ForeignLang: the foreign pages, and the home page of a server whose
// home is foreign.
func (s *server) foreignAt(local int32) bool {
	return local >= s.nPrimary || (local == 0 && s.foreignHome)
}

// PageInfo describes one page.
type PageInfo struct {
	Server int32
	// Lang is the language of the page's text; "" for pages that are not
	// HTML documents (redirects, 404s, the endless body).
	Lang string
	// Path is the absolute path, with the query if any.
	Path string
	// Target reports whether Lang is the target language.
	Target bool
	// Status is the HTTP status the server answers with: 200, 301, 302 or 404.
	Status int
}

// ServerInfo describes one server.
type ServerInfo struct {
	Host string
	// Lang is the language of the server's home page.
	Lang string
	// Charset is the true encoding of the server's HTML bytes (lower case,
	// e.g. "tis-620", "shift_jis"); what the pages declare is in Decl.
	Charset string
	// Decl is how the pages declare (or misdeclare) Charset.
	Decl Decl
	// First and End delimit the server's page ids: [First, End).
	First, End int32
	// Target reports whether the server holds target-language pages.
	Target bool
	// LangDirs reports whether pages sit under /<lang>/ directories.
	LangDirs bool
	// Hosting reports a hosting server: its pages sit in per-user
	// directories /~uN/, each user's in one language, and its home page is
	// in ForeignLang (Params.HostingShare).
	Hosting bool
	// Special names the demo special case the server plays ("" for none);
	// see the package documentation.
	Special string
	// Validators reports whether the server supports ETag and
	// Last-Modified: it sends them, and answers conditional requests, with
	// ServerOptions.Validators (generation.go). Half the generated servers do.
	Validators bool
}

// NumPages returns the number of pages, including those that answer 404.
func (g *Graph) NumPages() int { return len(g.pageServer) }

// NumServers returns the number of servers, including special hosts.
func (g *Graph) NumServers() int { return len(g.servers) }

// NumLinks returns the total number of links.
func (g *Graph) NumLinks() int { return len(g.links) }

// Params returns the parameters the graph was generated from.
func (g *Graph) Params() Params { return g.p }

// TargetLang returns the target language.
func (g *Graph) TargetLang() string { return g.p.TargetLang }

// PageServer returns the server of page i, without building a PageInfo.
func (g *Graph) PageServer(i int32) int32 { return g.pageServer[i] }

// IsTarget reports whether page i is in the target language, without
// building a PageInfo.
func (g *Graph) IsTarget(i int32) bool {
	s := &g.servers[g.pageServer[i]]
	if s.special != nil {
		return g.spPages[i-g.firstSpecial].lang == g.p.TargetLang
	}
	return s.target && i < s.first+s.nPrimary && !(i == s.first && s.foreignHome)
}

// IsMissing reports whether page i answers 404.
func (g *Graph) IsMissing(i int32) bool {
	s := &g.servers[g.pageServer[i]]
	if s.special != nil {
		return g.spPages[i-g.firstSpecial].status == 404
	}
	return i >= s.first+s.nPrimary+s.nForeign
}

// Page returns the description of page i. It panics if i is out of range.
func (g *Graph) Page(i int32) PageInfo {
	si := g.pageServer[i]
	s := &g.servers[si]
	if s.special != nil {
		sp := &g.spPages[i-g.firstSpecial]
		return PageInfo{Server: si, Lang: sp.lang, Path: sp.path, Target: sp.lang == g.p.TargetLang, Status: sp.status}
	}
	local := i - s.first
	pi := PageInfo{Server: si, Status: 200}
	switch {
	case local == 0:
		pi.Path = "/"
		pi.Lang = g.langs[s.lang]
		if s.foreignHome {
			pi.Lang = g.p.ForeignLang
		}
	case local < s.nPrimary:
		pi.Lang = g.langs[s.lang]
		pi.Path = g.pagePath(s, pi.Lang, local)
	case local < s.nPrimary+s.nForeign:
		pi.Lang = g.p.ForeignLang
		pi.Path = g.pagePath(s, pi.Lang, local)
	default:
		pi.Path = "/gone/" + strconv.Itoa(int(local)) + ".html"
		pi.Status = 404
	}
	pi.Target = pi.Lang == g.p.TargetLang
	return pi
}

func (g *Graph) pagePath(s *server, lang string, local int32) string {
	if s.hosting {
		return "/~u" + strconv.Itoa(int(userOf(s, local))) + "/" + strconv.Itoa(int(local)) + ".html"
	}
	if s.dirs {
		return "/" + lang + "/" + strconv.Itoa(int(local)) + ".html"
	}
	return "/page" + strconv.Itoa(int(local)) + ".html"
}

// Server returns the description of server s. It panics if s is out of range.
func (g *Graph) Server(s int32) ServerInfo {
	sv := &g.servers[s]
	si := ServerInfo{
		Host: sv.host, Lang: g.langs[sv.lang], Charset: sv.charset, Decl: sv.decl,
		First: sv.first, End: sv.end(), Target: sv.target, LangDirs: sv.dirs, Hosting: sv.hosting,
		Validators: g.serverValidators(s),
	}
	if sv.special != nil {
		si.Special = sv.special.name
	}
	if sv.foreignHome {
		si.Lang = g.p.ForeignLang
	}
	return si
}

// Links returns the out-links of page i as page ids. The slice belongs to
// the graph: do not modify it.
func (g *Graph) Links(i int32) []int32 { return g.links[g.off[i]:g.off[i+1]:g.off[i+1]] }

// URL returns the absolute URL of page i, "http://host/path".
func (g *Graph) URL(i int32) string {
	return "http://" + g.servers[g.pageServer[i]].host + g.Page(i).Path
}

// LookupHost returns the server with the given host name (no port).
func (g *Graph) LookupHost(host string) (int32, bool) {
	s, ok := g.hosts[strings.ToLower(host)]
	return s, ok
}

// Lookup returns the page whose URL is url. It accepts the form URL
// returns, with a case-insensitive scheme and host and an optional ":80";
// anything else, including the calendar pages the server makes up on the
// fly, is not found.
func (g *Graph) Lookup(url string) (int32, bool) {
	const scheme = "http://"
	if len(url) < len(scheme) || !strings.EqualFold(url[:len(scheme)], scheme) {
		return 0, false
	}
	rest := url[len(scheme):]
	cut := strings.IndexAny(rest, "/?#")
	host, pq := rest, "/"
	if cut >= 0 {
		host, pq = rest[:cut], rest[cut:]
		if pq[0] != '/' {
			pq = "/" + pq
		}
	}
	host = strings.TrimSuffix(host, ":80")
	si, ok := g.LookupHost(host)
	if !ok {
		return 0, false
	}
	return g.lookupPath(si, pq)
}

// lookupPath finds the page of server si with path (and query) pq.
func (g *Graph) lookupPath(si int32, pq string) (int32, bool) {
	s := &g.servers[si]
	if s.special != nil {
		id, ok := g.spIndex[s.host+pq]
		return id, ok
	}
	if pq == "/" {
		return s.first, true
	}
	var (
		lo, hi int32 // allowed local range
		num    string
		ok     bool
	)
	switch {
	case s.hosting && strings.HasPrefix(pq, "/~u"):
		user, rest, found := strings.Cut(pq[len("/~u"):], "/")
		u, uok := parseLocal(user)
		num, ok = strings.CutSuffix(rest, ".html")
		ok = ok && found && uok
		lo, hi = 1, s.nPrimary+s.nForeign
		if k, kok := parseLocal(num); ok && kok && k >= lo && k < hi && userOf(s, k) != u {
			return 0, false
		}
	case strings.HasPrefix(pq, "/gone/"):
		num, ok = strings.CutSuffix(pq[len("/gone/"):], ".html")
		lo, hi = s.nPrimary+s.nForeign, s.nPrimary+s.nForeign+s.nMissing
	case s.dirs && strings.HasPrefix(pq, "/"+g.langs[s.lang]+"/"):
		num, ok = strings.CutSuffix(pq[len(g.langs[s.lang])+2:], ".html")
		lo, hi = 1, s.nPrimary
	case s.dirs && strings.HasPrefix(pq, "/"+g.p.ForeignLang+"/"):
		num, ok = strings.CutSuffix(pq[len(g.p.ForeignLang)+2:], ".html")
		lo, hi = s.nPrimary, s.nPrimary+s.nForeign
	case !s.dirs && strings.HasPrefix(pq, "/page"):
		num, ok = strings.CutSuffix(pq[len("/page"):], ".html")
		lo, hi = 1, s.nPrimary+s.nForeign
	}
	if !ok {
		return 0, false
	}
	k, ok := parseLocal(num)
	if !ok || k < lo || k >= hi {
		return 0, false
	}
	return s.first + k, true
}

// parseLocal parses a canonical decimal number: no sign, no leading zeros.
func parseLocal(s string) (int32, bool) {
	if s == "" || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n := int32(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int32(c-'0')
	}
	return n, true
}

// Seeds returns the seed pages: the home pages of the best-linked target
// servers. The slice is a copy.
func (g *Graph) Seeds() []int32 { return slices.Clone(g.seeds) }

// Distances returns, for every page, the length of the shortest link path
// from any of seeds (0 for a seed), or -1 if no path exists. Redirect pages
// link to their destination, so a redirect counts as one link.
func (g *Graph) Distances(seeds []int32) []int32 {
	dist := make([]int32, len(g.pageServer))
	for i := range dist {
		dist[i] = -1
	}
	queue := make([]int32, 0, 1024)
	for _, s := range seeds {
		if s >= 0 && int(s) < len(dist) && dist[s] < 0 {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		d := dist[u] + 1
		for _, v := range g.Links(u) {
			if dist[v] < 0 {
				dist[v] = d
				queue = append(queue, v)
			}
		}
	}
	return dist
}

// Generate builds the web described by p. It is deterministic: the same p
// gives the same graph. Generate(SimulatorDefaults()) takes a few seconds and
// well under 500 MB.
func Generate(p Params) (*Graph, error) {
	p.OtherLangs = slices.Clone(p.OtherLangs)
	p.OtherLangWeights = slices.Clone(p.OtherLangWeights)
	if err := p.validate(); err != nil {
		return nil, err
	}
	g := &Graph{p: p}
	rng := rand.New(rand.NewPCG(uint64(p.Seed), 0x6c616e67637261))
	g.langs = []string{p.TargetLang, p.ForeignLang}
	otherIdx := make([]uint8, len(p.OtherLangs))
	for i, l := range p.OtherLangs {
		j := slices.Index(g.langs, l)
		if j < 0 {
			j = len(g.langs)
			g.langs = append(g.langs, l)
		}
		otherIdx[i] = uint8(j)
	}
	langCum := make([]float64, len(p.OtherLangs))
	sum := 0.0
	for i := range p.OtherLangs {
		w := 1.0
		if p.OtherLangWeights != nil {
			w = p.OtherLangWeights[i]
		}
		sum += w
		langCum[i] = sum
	}

	if err := g.layoutServers(rng, otherIdx, langCum); err != nil {
		return nil, err
	}
	g.generateLinks(rng)
	return g, nil
}

// lognormal draws a page count with the given mean.
func lognormal(rng *rand.Rand, mean, sigma float64, max int) int32 {
	mu := math.Log(mean) - sigma*sigma/2
	n := math.Round(math.Exp(mu + sigma*rng.NormFloat64()))
	if n < 1 {
		n = 1
	}
	if n > float64(max) {
		n = float64(max)
	}
	return int32(n)
}

var hostWords = []string{"news", "shop", "blog", "uni", "gov", "forum", "travel", "hotel", "bank", "radio", "school", "temple", "market", "music", "sport", "food"}

func (g *Graph) layoutServers(rng *rand.Rand, otherIdx []uint8, langCum []float64) error {
	p := &g.p
	nTarget := int(math.Round(float64(p.Servers) * p.TargetServerShare))
	nTarget = max(nTarget, 1)
	nTarget = min(nTarget, p.Servers)
	isTarget := make([]bool, p.Servers)
	for _, s := range rng.Perm(p.Servers)[:nTarget] {
		isTarget[s] = true
	}
	// The family's parameters draw from their own generator, so that at
	// their defaults the graph is the same as before they existed.
	var xrng *rand.Rand
	if p.HiddenTargetShare > 0 || p.TargetCCTLDShare > 0 || p.OtherCCTLDShare > 0 {
		xrng = rand.New(rand.NewPCG(uint64(p.Seed), 0x66616d696c79))
	}
	g.servers = make([]server, 0, p.Servers+len(specialServers))
	g.hosts = make(map[string]int32, p.Servers+len(specialServers))
	total := int64(0)
	declTurn := 0
	for s := 0; s < p.Servers; s++ {
		var sv server
		sv.target = isTarget[s]
		if sv.target {
			sv.lang = 0
			n := lognormal(rng, p.MeanPagesPerServer*p.TargetSizeFactor, p.PagesSigma, p.MaxPagesPerServer)
			f := int32(float64(n)*p.TargetServerForeignShare + rng.Float64())
			f = min(f, n-1)
			sv.nPrimary, sv.nForeign = n-f, f
			sv.dirs = rng.Float64() < p.LangDirShare
		} else {
			sv.lang = otherIdx[searchCum(langCum, rng.Float64()*langCum[len(langCum)-1])]
			sv.nPrimary = lognormal(rng, p.MeanPagesPerServer, p.PagesSigma, p.MaxPagesPerServer)
		}
		if p.DeadLinkShare > 0 {
			sv.nMissing = int32(math.Ceil(float64(sv.nPrimary+sv.nForeign) * p.DeadLinkShare))
		}
		lang := g.langs[sv.lang]
		sv.host = fmt.Sprintf("%s-%s%d.test", lang, hostWords[rng.IntN(len(hostWords))], s)
		if xrng != nil {
			if p.TargetCCTLDShare > 0 || p.OtherCCTLDShare > 0 {
				sv.host = g.familyHost(xrng, sv.host, s, sv.target)
			}
			if sv.target && xrng.Float64() < p.HiddenTargetShare {
				sv.hidden = true
			}
		}
		if sv.target && (p.ForeignHomeShare > 0 || p.HostingShare > 0) {
			g.multilingual(&sv, s)
		}
		sv.charset = pickCharset(rng, lang)
		if p.CoverDecl && sv.target {
			sv.decl = Decl(declTurn % int(numDecl))
			declTurn++
		} else {
			sv.decl = pickDecl(rng)
		}
		sv.charset, sv.decl = fixDecl(lang, p.TargetLang, sv.charset, sv.decl)
		sv.first = int32(total)
		total += int64(sv.end() - sv.first)
		if total > math.MaxInt32/2 {
			return fmt.Errorf("%w: %d pages do not fit int32 ids", ErrParams, total)
		}
		g.hosts[sv.host] = int32(len(g.servers))
		g.servers = append(g.servers, sv)
	}
	// A web with language directories has at least one such server: the
	// largest target server with foreign pages.
	if p.LangDirShare > 0 && !slices.ContainsFunc(g.servers, func(s server) bool { return s.dirs && s.nForeign > 0 }) {
		best := -1
		for i := range g.servers {
			s := &g.servers[i]
			if s.target && !s.hosting && s.nForeign > 0 && (best < 0 || s.nPrimary+s.nForeign > g.servers[best].nPrimary+g.servers[best].nForeign) {
				best = i
			}
		}
		if best >= 0 {
			g.servers[best].dirs = true
		}
	}
	g.firstSpecial = int32(total)
	if p.Special {
		g.addSpecialServers(total)
		total = int64(g.firstSpecial) + int64(len(g.spPages))
	}
	g.pageServer = make([]int32, total)
	for si := range g.servers {
		s := &g.servers[si]
		for i := s.first; i < s.end(); i++ {
			g.pageServer[i] = int32(si)
		}
	}
	return nil
}

// searchCum returns the index of the first cumulative weight above x.
func searchCum(cum []float64, x float64) int {
	i, _ := slices.BinarySearch(cum, x)
	if i < len(cum) && cum[i] == x {
		i++
	}
	return min(i, len(cum)-1)
}

// picker draws inter-server link destinations: with chance pa it copies an
// earlier destination (preferential attachment), otherwise it draws a
// server in proportion to its weight.
type picker struct {
	ids []int32
	cum []float64
	urn []int32
	pa  float64
}

func newPicker(g *Graph, pa float64, weight func(s *server) int32) *picker {
	pk := &picker{pa: pa}
	sum := 0.0
	for i := range g.servers {
		s := &g.servers[i]
		if s.special != nil {
			continue
		}
		if w := weight(s); w > 0 {
			sum += float64(w)
			pk.ids = append(pk.ids, int32(i))
			pk.cum = append(pk.cum, sum)
		}
	}
	return pk
}

func (pk *picker) empty() bool { return len(pk.ids) == 0 }

// pick returns a server other than self, or -1 after a few failed tries.
func (pk *picker) pick(rng *rand.Rand, self int32) int32 {
	for try := 0; try < 4; try++ {
		var s int32
		if len(pk.urn) > 0 && rng.Float64() < pk.pa {
			s = pk.urn[rng.IntN(len(pk.urn))]
		} else {
			s = pk.ids[searchCum(pk.cum, rng.Float64()*pk.cum[len(pk.cum)-1])]
		}
		if s != self {
			pk.urn = append(pk.urn, s)
			return s
		}
	}
	return -1
}

// outDegree draws a geometric-like out-degree with mean close to m.
func outDegree(rng *rand.Rand, m float64) int {
	d := 1 + int(rng.ExpFloat64()*(m-0.5))
	return min(d, 400)
}

func (g *Graph) generateLinks(rng *rand.Rand) {
	p := &g.p
	n := int32(len(g.pageServer))
	g.off = make([]int32, n+1)
	g.links = make([]int32, 0, int(float64(g.firstSpecial)*p.MeanOutDegree*1.02)+1024)
	tgt := newPicker(g, p.PreferentialShare, func(s *server) int32 {
		if s.target {
			return s.nPrimary
		}
		return 0
	})
	foreign := newPicker(g, p.PreferentialShare, func(s *server) int32 { return s.nForeign })
	other := newPicker(g, p.PreferentialShare, func(s *server) int32 {
		if s.target {
			return 0
		}
		return s.nPrimary
	})
	anyServer := newPicker(g, 0, func(s *server) int32 { return s.nMissing })
	// With a hub pool, links leaving target servers for non-target servers
	// go to hubs only, and their dead links to hubs or target servers.
	var hubs, deadFromTarget *picker
	if p.HubShare > 0 {
		g.pickHubs(rng)
		hubs = newPicker(g, p.HubPreferentialShare, func(s *server) int32 {
			if s.hub {
				return s.nPrimary
			}
			return 0
		})
		deadFromTarget = newPicker(g, 0, func(s *server) int32 {
			if s.hub || s.target {
				return s.nMissing
			}
			return 0
		})
	}
	// Links from target servers avoid hidden servers altogether.
	tgtFromTarget, foreignFromTarget, anyFromTarget := tgt, foreign, anyServer
	if p.HiddenTargetShare > 0 {
		tgtFromTarget = newPicker(g, p.PreferentialShare, func(s *server) int32 {
			if s.target && !s.hidden {
				return s.nPrimary
			}
			return 0
		})
		foreignFromTarget = newPicker(g, p.PreferentialShare, func(s *server) int32 {
			if s.hidden {
				return 0
			}
			return s.nForeign
		})
		anyFromTarget = newPicker(g, 0, func(s *server) int32 {
			if s.hidden {
				return 0
			}
			return s.nMissing
		})
		if deadFromTarget != nil {
			deadFromTarget = newPicker(g, 0, func(s *server) int32 {
				if (s.hub || s.target) && !s.hidden {
					return s.nMissing
				}
				return 0
			})
		}
	}
	inTarget := make([]int32, len(g.servers)) // inter-server in-links per target server

	// The portal is the home page of the largest target server; in a demo
	// web it links every special host.
	portal := int32(-1)
	for i := range g.servers {
		s := &g.servers[i]
		if s.target && !s.hidden && s.special == nil && (portal < 0 || s.nPrimary > g.servers[portal].nPrimary) {
			portal = int32(i)
		}
	}

	cur := make([]int32, 0, 64)
	for i := int32(0); i < n; i++ {
		g.off[i] = int32(len(g.links))
		si := g.pageServer[i]
		s := &g.servers[si]
		if s.special != nil {
			g.links = append(g.links, g.spPages[i-g.firstSpecial].links...)
			continue
		}
		local := i - s.first
		if local >= s.nPrimary+s.nForeign {
			continue // 404 pages have no links
		}
		// Class of the source page (rows of Tamura Table 4). A foreign
		// user of a hosting server that links out (Params.HostingUsersLinkOut)
		// is another publisher: its pages link as a foreign server's do,
		// and choose their destinations as a foreign server's do (srcTarget).
		var toTarget, targetInter, otherInter, foreignShare float64
		srcTarget := s.target
		switch {
		case s.target && !s.foreignAt(local):
			toTarget, targetInter, otherInter = p.TargetToTarget, p.TargetToTargetInter, p.TargetToOtherInter
			foreignShare = p.TargetServerForeignLinkShare
		case s.target && g.linksOut(s, si, local):
			toTarget, targetInter, otherInter = p.OtherToTarget, 1, p.OtherToOtherInter
			foreignShare = p.OtherServerForeignLinkShare
			srcTarget = false
		case s.target:
			toTarget, targetInter, otherInter = p.MixedToTarget, p.MixedToTargetInter, p.MixedToOtherInter
			foreignShare = p.TargetServerForeignLinkShare
		default:
			toTarget, targetInter, otherInter = p.OtherToTarget, 1, p.OtherToOtherInter
			foreignShare = p.OtherServerForeignLinkShare
		}
		cur = cur[:0]
		// Each of the d link slots draws its kind once (dead, or target or
		// not, intra- or inter-server) and then retries the destination a
		// few times on a duplicate, so that the shares hold; an intra-server
		// link that the server cannot hold becomes inter-server.
		d := outDegree(rng, p.MeanOutDegree)
		for range d {
			dead := rng.Float64() < p.DeadLinkShare
			wantTarget := rng.Float64() < toTarget
			inter := true
			if wantTarget {
				inter = !s.target || rng.Float64() < targetInter
			} else {
				inter = rng.Float64() < otherInter
			}
			useForeign := rng.Float64() < foreignShare
			deadHere := rng.Float64() >= 0.5
			for try := 0; try < 4; try++ {
				dst, ds := int32(-1), int32(-1)
				switch {
				case dead:
					ds = si
					switch {
					case deadHere:
					case srcTarget && deadFromTarget != nil && !deadFromTarget.empty():
						ds = deadFromTarget.pick(rng, -1)
					case srcTarget && !anyFromTarget.empty():
						ds = anyFromTarget.pick(rng, -1)
					case !srcTarget && !anyServer.empty():
						ds = anyServer.pick(rng, -1)
					}
					if t := &g.servers[ds]; t.nMissing > 0 {
						dst = t.first + t.nPrimary + t.nForeign + rng.Int32N(t.nMissing)
					}
				case !inter && wantTarget:
					dst = g.intra(rng, s, i, 0, s.nPrimary)
				case !inter && s.target:
					dst = g.intra(rng, s, i, s.nPrimary, s.nPrimary+s.nForeign)
				case !inter:
					dst = g.intra(rng, s, i, 0, s.nPrimary)
				case wantTarget:
					pk := tgt
					if srcTarget {
						pk = tgtFromTarget
					}
					if !pk.empty() {
						if ds = pk.pick(rng, si); ds >= 0 {
							t := &g.servers[ds]
							dst = g.interPage(rng, t, 0, t.nPrimary)
						}
					}
				case srcTarget && !useForeign && hubs != nil && !hubs.empty():
					if ds = hubs.pick(rng, si); ds >= 0 {
						t := &g.servers[ds]
						dst = g.interPageHome(rng, t, p.HubHomeLinkShare)
					}
				case useForeign && srcTarget && !foreignFromTarget.empty():
					if ds = foreignFromTarget.pick(rng, si); ds >= 0 {
						t := &g.servers[ds]
						dst = t.first + t.nPrimary + rng.Int32N(t.nForeign)
					}
				case useForeign && !srcTarget && !foreign.empty():
					if ds = foreign.pick(rng, si); ds >= 0 {
						t := &g.servers[ds]
						dst = t.first + t.nPrimary + rng.Int32N(t.nForeign)
					}
				case !other.empty():
					if ds = other.pick(rng, si); ds >= 0 {
						t := &g.servers[ds]
						dst = g.interPage(rng, t, 0, t.nPrimary)
					}
				}
				if dst == errNoPage {
					inter = true // the server has no such page: go elsewhere
					continue
				}
				if dst >= 0 && dst != i && !slices.Contains(cur, dst) {
					cur = append(cur, dst)
					if inter && wantTarget && !dead {
						inTarget[ds]++
					}
					break
				}
			}
		}
		if si == portal && local == 0 && g.p.Special {
			for j := range g.servers {
				if g.servers[j].special != nil {
					cur = append(cur, g.servers[j].first)
				}
			}
		}
		g.links = append(g.links, cur...)
	}
	g.off[n] = int32(len(g.links))

	// Seeds: the portal, then the target servers with most inter-server in-links.
	order := make([]int32, 0, len(g.servers))
	for i := range g.servers {
		if g.servers[i].target && !g.servers[i].hidden && g.servers[i].special == nil && int32(i) != portal {
			order = append(order, int32(i))
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(inTarget[b], inTarget[a]) })
	if portal >= 0 {
		g.seeds = append(g.seeds, g.servers[portal].first)
	}
	for _, s := range order {
		if len(g.seeds) >= p.Seeds {
			break
		}
		g.seeds = append(g.seeds, g.servers[s].first)
	}
}

// errNoPage is what intra returns when server s has no page of the kind
// other than self.
const errNoPage = -2

// intra picks a page of server s with local index in [lo, hi), other than
// self, or returns errNoPage. Half of the picks take one of the next few pages, so
// that sites are deep (Nakahira et al.'s site trees) rather than flat.
func (g *Graph) intra(rng *rand.Rand, s *server, self int32, lo, hi int32) int32 {
	size := hi - lo
	if size <= 0 || (size == 1 && self == s.first+lo) {
		return errNoPage
	}
	var k int32
	if pos := self - s.first - lo; pos >= 0 && pos < size && rng.Float64() < 0.5 {
		k = (pos + 1 + rng.Int32N(8)) % size
	} else {
		k = rng.Int32N(size)
	}
	dst := s.first + lo + k
	if dst == self {
		dst = s.first + lo + (k+1)%size
	}
	return dst
}

// pickHubs marks round(HubShare × non-target servers) non-target servers,
// at least one, as hubs, drawn uniformly.
func (g *Graph) pickHubs(rng *rand.Rand) {
	var cand []int32
	for i := range g.servers {
		if s := &g.servers[i]; !s.target && s.special == nil {
			cand = append(cand, int32(i))
		}
	}
	if len(cand) == 0 {
		return
	}
	n := min(max(int(math.Round(g.p.HubShare*float64(len(cand)))), 1), len(cand))
	for _, k := range rng.Perm(len(cand))[:n] {
		g.servers[cand[k]].hub = true
	}
}

// interPageHome picks the home page of t with chance home, else a random
// page in its main language.
func (g *Graph) interPageHome(rng *rand.Rand, t *server, home float64) int32 {
	if rng.Float64() < home {
		return t.first
	}
	return t.first + rng.Int32N(t.nPrimary)
}

// interPage picks the home page or a random page in [lo, hi) of server t.
func (g *Graph) interPage(rng *rand.Rand, t *server, lo, hi int32) int32 {
	if lo == 0 && rng.Float64() < g.p.HomeLinkShare {
		return t.first
	}
	return t.first + lo + rng.Int32N(hi-lo)
}
