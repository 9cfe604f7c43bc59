package webgen

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Generations: the web as a re-crawl finds it again. Generation 1 is the
// graph as generated; each later generation is drawn from the one before,
// deterministically from Params.Seed and the generation number, for the
// pages of the generated servers (the special hosts never change):
//
//	gone          4% of the pages other than home pages answer 404 or 410 from then on
//	changed       10% get new text, and each links to a new page (and a
//	              third of them to a copy, below)
//	lang-changed  3% of the pages of target servers change language: a page
//	              in the target language is rewritten in ForeignLang, a
//	              ForeignLang page in the target language; it links to a new page too
//	unchanged     the rest: the same bytes as in the generation before
//	new           /new/G/N.html, linked from the page N that changed in G,
//	              in its server's language; it stays unchanged after G
//	copy          the bytes of an unchanged page of at least 1 KiB, at
//	              copyG-NAME in the same directory (so that its relative
//	              links lead where the original's do), linked from a changed
//	              page; it keeps those bytes in the later generations
//
// Half of the generated servers (ServerInfo.Validators) support validators:
// with ServerOptions.Validators they send a strong ETag (of the body) and
// a Last-Modified (the generation whose bytes the page serves: 1 January
// 2026 for generation 1, then 30 days more for each generation) with every
// page, and answer a conditional request that matches with 304 Not
// Modified (If-None-Match first, else If-Modified-Since; RFC 9110 §13.2.2).
// Graph.Changes gives the ground truth of each generation.

// ChangeKind is how a URL changed from one generation to the next.
type ChangeKind uint8

const (
	Unchanged   ChangeKind = iota // the same status and bytes as in the generation before
	Changed                       // new text, and a link to a new page
	LangChanged                   // text in another language, and a link to a new page
	Gone                          // answers 404 or 410 from this generation on
	New                           // first served in this generation, linked from a changed page
	Copy                          // first served in this generation: the bytes of another URL
)

func (k ChangeKind) String() string {
	switch k {
	case Unchanged:
		return "unchanged"
	case Changed:
		return "changed"
	case LangChanged:
		return "lang-changed"
	case Gone:
		return "gone"
	case New:
		return "new"
	case Copy:
		return "copy"
	}
	return "ChangeKind(" + strconv.Itoa(int(k)) + ")"
}

// Change is the ground truth for one URL of a generated server in one
// generation.
type Change struct {
	URL  string
	Gen  int
	Kind ChangeKind // from generation Gen-1 to Gen
	// Status is what the server answers in Gen: 200, 404 or 410.
	Status int
	// Lang is the language of the text in Gen ("" for 404 and 410), and
	// PrevLang in Gen-1 ("" for a URL that did not exist).
	Lang, PrevLang string
	// Validators reports whether the server supports ETag and
	// Last-Modified (it sends them with ServerOptions.Validators).
	Validators bool
	// Page is the graph page at URL; for New, the page that links to it;
	// for Copy, the page whose bytes it holds.
	Page int32
	// Original is, for a Copy, the URL whose bytes it serves (those of
	// generation Gen, which are those of Gen-1: only unchanged pages are
	// copied).
	Original string
}

// Fates, in thousandths of the pages, of each transition.
const (
	goneShare        = 40
	changedShare     = 100
	langChangedShare = 30
	// copyEvery: one changed page in copyEvery also links to a copy.
	copyEvery = 3
	// CopyMinSize is the smallest page that is copied: a crawler's
	// deduplication usually leaves smaller payloads alone.
	CopyMinSize = 1024
)

// maxGeneration bounds the generations a Graph builds on request.
const maxGeneration = 1000

// pageState is one graph page in one generation.
type pageState struct {
	version uint16     // the generation whose text the page serves (1: generation 1's)
	lang    uint8      // index in g.langs
	status  uint16     // 200, 404 or 410
	kind    ChangeKind // from the generation before
}

// extraPage is a page that generation 1 does not have: a New or a Copy.
type extraPage struct {
	kind   ChangeKind // New or Copy
	gen    int        // the generation that added it
	server int32
	from   int32  // New: the page that links to it (its text id); Copy: the original
	path   string // with the leading slash
	body   []byte // Copy: the original's bytes in gen
	ctype  string // Copy: the original's Content-Type
}

// generation is the state of the graph's generated pages in one generation.
type generation struct {
	n      int
	state  []pageState     // by page id; the special pages keep the zero value, unused
	extras []extraPage     // every page added by generations 2..n
	byPath map[string]int  // host+path -> index in extras
	links  map[int32][]int // page -> indexes in extras it links to, in order
}

// generated reports whether page i is an HTML page of a generated server:
// the pages that change.
func (g *Graph) generated(i int32) bool {
	s := &g.servers[g.pageServer[i]]
	return s.special == nil && i < s.first+s.nPrimary+s.nForeign
}

// serverValidators reports whether generated server si supports ETag and
// Last-Modified: every other one, by a draw fixed for the server.
func (g *Graph) serverValidators(si int32) bool {
	if g.servers[si].special != nil {
		return false
	}
	return mix(uint64(g.p.Seed), uint64(si), 0x7661)&1 == 0
}

// mix is splitmix64 over its arguments.
func mix(a, b, c uint64) uint64 {
	r := textRand(a*0x9e3779b97f4a7c15 ^ b*0xd1b54a32d192ed03 ^ c*0x2545f4914f6cdd1d)
	r.next()
	return r.next()
}

// textSeed is the seed of the text of the given version of a page.
func (g *Graph) textSeed(version int) int64 {
	if version <= 1 {
		return g.p.Seed
	}
	return g.p.Seed ^ int64(mix(uint64(g.p.Seed), uint64(version), 0x74657874)>>1)
}

// generation returns generation n (at least 1), building it and those
// before it on first use.
func (g *Graph) generation(n int) (*generation, error) {
	if n < 1 || n > maxGeneration {
		return nil, fmt.Errorf("%w: generation %d (want 1 to %d)", ErrParams, n, maxGeneration)
	}
	g.genMu.Lock()
	defer g.genMu.Unlock()
	for len(g.gens) < n {
		var gen *generation
		if len(g.gens) == 0 {
			gen = g.firstGeneration()
		} else {
			var err error
			if gen, err = g.nextGeneration(g.gens[len(g.gens)-1]); err != nil {
				return nil, err
			}
		}
		g.gens = append(g.gens, gen)
	}
	return g.gens[n-1], nil
}

func (g *Graph) firstGeneration() *generation {
	gen := &generation{n: 1, state: make([]pageState, len(g.pageServer)), byPath: map[string]int{}, links: map[int32][]int{}}
	for i := range gen.state {
		id := int32(i)
		if !g.generated(id) {
			continue
		}
		s := &g.servers[g.pageServer[id]]
		lang := s.lang
		if s.foreignAt(id - s.first) {
			lang = 1 // ForeignLang
		}
		gen.state[i] = pageState{version: 1, lang: lang, status: 200}
	}
	return gen
}

func (g *Graph) nextGeneration(prev *generation) (*generation, error) {
	n := prev.n + 1
	gen := &generation{n: n, state: make([]pageState, len(prev.state)), extras: prev.extras[:len(prev.extras):len(prev.extras)],
		byPath: make(map[string]int, len(prev.byPath)), links: make(map[int32][]int, len(prev.links))}
	for k, v := range prev.byPath {
		gen.byPath[k] = v
	}
	for k, v := range prev.links {
		gen.links[k] = v[:len(v):len(v)]
	}
	seed := uint64(g.p.Seed)
	var changed []int32
	for i, ps := range prev.state {
		id := int32(i)
		ps.kind = Unchanged
		if !g.generated(id) || ps.status != 200 {
			gen.state[i] = ps
			continue
		}
		s := &g.servers[g.pageServer[id]]
		h := mix(seed, uint64(i), uint64(n))
		x := h % 1000
		switch {
		case id != s.first && x < goneShare:
			ps.kind, ps.status = Gone, 404
			if h>>32&1 == 1 {
				ps.status = 410
			}
		case x < goneShare+changedShare:
			ps.kind, ps.version = Changed, uint16(n)
			changed = append(changed, id)
		case x < goneShare+changedShare+langChangedShare && s.target:
			ps.kind, ps.version = LangChanged, uint16(n)
			if ps.lang == 0 {
				ps.lang = 1
			} else {
				ps.lang = 0
			}
			changed = append(changed, id)
		}
		gen.state[i] = ps
	}
	// Each changed page links to a new page, and one in copyEvery to a
	// copy of the next unchanged page of its server of at least
	// CopyMinSize bytes.
	for _, id := range changed {
		s := &g.servers[g.pageServer[id]]
		local := id - s.first
		np := extraPage{kind: New, gen: n, server: g.pageServer[id], from: id,
			path: "/new/" + strconv.Itoa(n) + "/" + strconv.Itoa(int(local)) + ".html"}
		g.addExtra(gen, id, np)
		if gen.state[id].kind != Changed || mix(seed, uint64(id), uint64(n)^0x636f7079)%copyEvery != 0 {
			continue
		}
		size := s.nPrimary + s.nForeign
		for k := int32(1); k < size; k++ {
			q := s.first + (local+k)%size
			if q == s.first || gen.state[q].kind != Unchanged || gen.state[q].status != 200 {
				continue
			}
			ctype, body, err := g.renderAt(gen, q)
			if err != nil {
				return nil, err
			}
			if len(body) < CopyMinSize {
				continue
			}
			p := g.Page(q).Path
			dir := p[:strings.LastIndexByte(p, '/')+1]
			cp := extraPage{kind: Copy, gen: n, server: g.pageServer[id], from: q, body: body, ctype: ctype,
				path: dir + "copy" + strconv.Itoa(n) + "-" + p[len(dir):]}
			if _, dup := gen.byPath[s.host+cp.path]; dup {
				break // copied already in this generation
			}
			g.addExtra(gen, id, cp)
			break
		}
	}
	return gen, nil
}

func (g *Graph) addExtra(gen *generation, from int32, e extraPage) {
	k := len(gen.extras)
	gen.extras = append(gen.extras, e)
	gen.byPath[g.servers[e.server].host+e.path] = k
	gen.links[from] = append(gen.links[from], k)
}

// lookupExtra finds a page that generation gen added, on server si.
func (gen *generation) lookupExtra(g *Graph, si int32, pq string) (*extraPage, bool) {
	k, ok := gen.byPath[g.servers[si].host+pq]
	if !ok {
		return nil, false
	}
	return &gen.extras[k], true
}

// renderAt renders generated page i as it is in gen, which must be a 200.
func (g *Graph) renderAt(gen *generation, i int32) (ctype string, body []byte, err error) {
	ps := gen.state[i]
	ex := gen.links[i]
	if ps.version == 1 && len(ex) == 0 && g.langs[ps.lang] == g.pageLang(i) {
		return g.renderPage(i) // generation 1's bytes
	}
	pi := g.Page(i)
	s := &g.servers[pi.Server]
	links := g.Links(i)
	hrefs := make([]string, 0, len(links)+len(ex))
	ids := make([]int32, 0, len(links)+len(ex))
	for _, t := range links {
		hrefs = append(hrefs, g.href(i, pi.Path, t))
		ids = append(ids, i)
	}
	for _, k := range ex {
		hrefs = append(hrefs, relRef(pi.Path, gen.extras[k].path))
		ids = append(ids, i)
	}
	return g.htmlDocSeed(g.textSeed(int(ps.version)), i, s, g.langs[ps.lang], hrefs, ids, nil)
}

// renderExtra renders a page that a generation added.
func (g *Graph) renderExtra(e *extraPage) (ctype string, body []byte, err error) {
	if e.kind == Copy {
		return e.ctype, e.body, nil
	}
	s := &g.servers[e.server]
	parent := g.Page(e.from).Path
	hrefs := []string{relRef(e.path, parent), relRef(e.path, "/")}
	return g.htmlDocSeed(g.textSeed(e.gen)^0x6e6577, e.from, s, g.langs[s.lang], hrefs, []int32{e.from, e.from}, nil)
}

// lastModified is the Last-Modified of bytes first served in generation version.
func lastModified(version int) time.Time {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 30*(version-1))
}

// Changes returns the ground truth of generation gen (1 or more) for
// every URL of the generated servers that answers 200 in some generation
// up to gen: the graph's pages (not those that answer 404 in every
// generation) in page order, then the pages the generations added, in the
// order they were added. In generation 1 every Kind is Unchanged.
func (g *Graph) Changes(gen int) ([]Change, error) {
	cur, err := g.generation(gen)
	if err != nil {
		return nil, err
	}
	var prev *generation
	if gen > 1 {
		if prev, err = g.generation(gen - 1); err != nil {
			return nil, err
		}
	}
	var out []Change
	for i, ps := range cur.state {
		id := int32(i)
		if !g.generated(id) {
			continue
		}
		c := Change{URL: g.URL(id), Gen: gen, Kind: ps.kind, Status: int(ps.status), Validators: g.serverValidators(g.pageServer[id]), Page: id}
		if ps.status == 200 {
			c.Lang = g.langs[ps.lang]
		}
		c.PrevLang = c.Lang
		if prev != nil {
			if pp := prev.state[i]; pp.status == 200 {
				c.PrevLang = g.langs[pp.lang]
			} else {
				c.PrevLang = ""
			}
		}
		out = append(out, c)
	}
	for k := range cur.extras {
		e := &cur.extras[k]
		c := Change{URL: "http://" + g.servers[e.server].host + e.path, Gen: gen, Kind: Unchanged, Status: 200,
			Validators: g.serverValidators(e.server), Page: e.from}
		c.Lang = g.langs[g.servers[e.server].lang]
		if e.kind == Copy {
			c.Original = g.URL(e.from)
			c.Lang = g.langs[g.generation0(e.gen).state[e.from].lang]
		}
		c.PrevLang = c.Lang
		if e.gen == gen {
			c.Kind, c.PrevLang = e.kind, ""
		}
		out = append(out, c)
	}
	return out, nil
}

// generation0 returns generation n, which has been built already.
func (g *Graph) generation0(n int) *generation {
	g.genMu.Lock()
	defer g.genMu.Unlock()
	return g.gens[n-1]
}

// TruthAt is Truth for generation gen: the status and language of each
// URL as the server answers in that generation. Generation 1 (or less) is
// Truth.
func (g *Graph) TruthAt(url string, gen int) (Truth, bool) {
	t, ok := g.Truth(url)
	if gen <= 1 {
		return t, ok
	}
	cur, err := g.generation(gen)
	if err != nil {
		return Truth{}, false
	}
	if ok && t.Page >= 0 && g.generated(t.Page) {
		ps := cur.state[t.Page]
		t.Status, t.Lang, t.Charset, t.Decl = int(ps.status), "", "", 0
		if ps.status == 200 {
			sv := &g.servers[g.pageServer[t.Page]]
			t.Lang, t.Charset, t.Decl = g.langs[ps.lang], sv.charset, sv.decl
		}
		t.Target = t.Lang == g.p.TargetLang
		return t, true
	}
	if !ok || t.Page >= 0 {
		return t, ok
	}
	rest := url[len("http://"):]
	host, pq := rest, "/"
	if cut := strings.IndexAny(rest, "/?#"); cut >= 0 {
		host, pq = rest[:cut], rest[cut:]
	}
	si, _ := g.LookupHost(strings.TrimSuffix(host, ":80"))
	e, found := cur.lookupExtra(g, si, pq)
	if !found {
		return t, true
	}
	sv := &g.servers[si]
	lang := g.langs[sv.lang]
	if e.kind == Copy {
		lang = g.langs[g.generation0(e.gen).state[e.from].lang]
	}
	return Truth{URL: url, Page: -1, Status: http.StatusOK, Lang: lang, Target: lang == g.p.TargetLang,
		Charset: sv.charset, Decl: sv.decl}, true
}
