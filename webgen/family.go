package webgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// ccTLD is the country-code top-level domain of a target language, for
// Params.TargetCCTLDShare.
var ccTLD = map[string]string{"th": "th", "lo": "la", "vi": "vn", "id": "id", "ms": "my", "ja": "jp", "ko": "kr",
	"zh": "cn", "ru": "ru", "de": "de", "fr": "fr", "es": "es"}

// gTLDs are the top-level domains of servers not under the target ccTLD.
var gTLDs = []string{"com", "net", "org"}

// familyHost names server s when the ccTLD parameters are set: no
// language in the name, the target ccTLD with the chance Params gives.
func (g *Graph) familyHost(rng *rand.Rand, old string, s int, target bool) string {
	word := old[strings.IndexByte(old, '-')+1:]
	word = strings.TrimRight(strings.TrimSuffix(word, ".test"), "0123456789")
	share := g.p.OtherCCTLDShare
	if target {
		share = g.p.TargetCCTLDShare
	}
	if rng.Float64() < share {
		return fmt.Sprintf("s%d-%s.co.%s", s, word, ccTLD[g.p.TargetLang])
	}
	return fmt.Sprintf("s%d-%s.%s", s, word, gTLDs[rng.IntN(len(gTLDs))])
}

// Anchor kinds, as Params draw them.
const (
	anchorSrc = iota
	anchorDest
	anchorURL
	anchorNone
)

// Anchor returns the anchor text of the k-th link of page from, which
// leads to page to (Links(from)[k] == to). With the anchor parameters at 0
// it is the text the demo pages carry, in from's language; otherwise it is
// in to's language, in from's, to's URL, or "more", by a draw fixed for the
// pair (Params.AnchorDestShare, AnchorSrcShare, AnchorURLShare). A page
// without a language (a 404) gives way to from's language. The text is
// UTF-8, and Chinese is always drawn in simplified characters, even for a
// page on a Big5 server whose own anchors are traditional: the family's
// recorded figures (simulate/RESULTS.md) were measured so, and the
// simulator's confidence draws hash the page bytes, so drawing them
// otherwise moves the sequential strategy's figures by a few pages.
func (g *Graph) Anchor(from int32, k int, to int32) string {
	p := &g.p
	kind := anchorSrc
	if p.AnchorDestShare > 0 || p.AnchorSrcShare > 0 || p.AnchorURLShare > 0 {
		r := textRand(uint64(p.Seed)*0x8cb92ba72f3d8dd7 ^ uint64(from)<<32 ^ uint64(uint32(to)))
		x := float64(r.next()>>11) / (1 << 53)
		switch {
		case x < p.AnchorDestShare:
			kind = anchorDest
		case x < p.AnchorDestShare+p.AnchorSrcShare:
			kind = anchorSrc
		case x < p.AnchorDestShare+p.AnchorSrcShare+p.AnchorURLShare:
			kind = anchorURL
		default:
			kind = anchorNone
		}
	}
	lang := g.pageLang(from)
	switch kind {
	case anchorURL:
		return g.URL(to)
	case anchorNone:
		return "more"
	case anchorDest:
		if l := g.pageLang(to); l != "" {
			lang = l
		}
	}
	if lang == "" {
		return "more"
	}
	return anchorText(p.Seed, from, k, lang, "utf-8")
}

// pageLang is Page(i).Lang without building the path.
func (g *Graph) pageLang(i int32) string {
	s := &g.servers[g.pageServer[i]]
	if s.special != nil {
		return g.spPages[i-g.firstSpecial].lang
	}
	switch local := i - s.first; {
	case local == 0 && s.foreignHome:
		return g.p.ForeignLang
	case local < s.nPrimary:
		return g.langs[s.lang]
	case local < s.nPrimary+s.nForeign:
		return g.p.ForeignLang
	}
	return ""
}

// draw is a uniform number in [0, 1) fixed by the seed and (a, b), drawn
// from no shared generator: the per-server and per-link parameters of the
// family use it, so that at their defaults (0, no draw made) the graph
// and its bytes are those of before they existed.
func (g *Graph) draw(salt, a, b uint64) float64 {
	r := textRand(uint64(g.p.Seed)*0x9e3779b97f4a7c15 ^ salt ^ a*0xd1b54a32d192ed03 ^ b*0x2545f4914f6cdd1d)
	return float64(r.next()>>11) / (1 << 53)
}

// Salts of draw.
const (
	saltHosting  = 0x686f7374
	saltHome     = 0x686f6d65
	saltHreflang = 0x68726566
	saltContext  = 0x63747874
	saltDecl     = 0x6465636c
	saltUserOut  = 0x7573726f
)

// hostingForeignShare is the share of a hosting server's pages (its home
// page apart) in ForeignLang: most of its users write in another language
// than the target. Assumed.
const hostingForeignShare = 0.7

// userPages is the number of pages of one user's directory on a hosting
// server.
const userPages = 8

// multilingual makes target server sv (index s) a hosting server with
// chance Params.HostingShare, else, if it keeps a directory per language,
// gives it a foreign home page with chance Params.ForeignHomeShare. A
// server needs a target page besides its home page for either.
func (g *Graph) multilingual(sv *server, s int) {
	n := sv.nPrimary + sv.nForeign
	if n < 3 {
		return
	}
	if g.draw(saltHosting, uint64(s), 0) < g.p.HostingShare {
		f := int32(float64(n)*hostingForeignShare + 0.5)
		f = max(1, min(f, n-2))
		sv.nPrimary, sv.nForeign = n-f, f
		sv.hosting, sv.foreignHome, sv.dirs = true, true, false
		return
	}
	if sv.dirs && g.draw(saltHome, uint64(s), 0) < g.p.ForeignHomeShare {
		sv.foreignHome = true
	}
}

// linksOut reports whether the page of local index local, a foreign page
// of hosting server s (index si), links as a foreign server's page does:
// its user is one of Params.HostingUsersLinkOut (a draw fixed per user).
func (g *Graph) linksOut(s *server, si int32, local int32) bool {
	return s.hosting && g.p.HostingUsersLinkOut > 0 &&
		g.draw(saltUserOut, uint64(si), uint64(userOf(s, local))) < g.p.HostingUsersLinkOut
}

// userOf is the user directory of the page of local index local on
// hosting server s: the target pages' users first, userPages pages each,
// then the foreign pages' users.
func userOf(s *server, local int32) int32 {
	if local < s.nPrimary {
		return (max(local, 1) - 1) / userPages
	}
	return (s.nPrimary-1+userPages-1)/userPages + (local-s.nPrimary)/userPages
}

// Hreflang returns the hreflang attribute of the link from page from to
// page to: the language of to with chance Params.HreflangShare (a draw
// fixed for the pair), else "". A link to a page without a language (a
// 404) carries none.
func (g *Graph) Hreflang(from, to int32) string {
	if g.p.HreflangShare == 0 || g.draw(saltHreflang, uint64(from), uint64(to)) >= g.p.HreflangShare {
		return ""
	}
	return g.pageLang(to)
}

// LinkContext returns the text around the link from page from to page to:
// Params.ContextWords words before the anchor and as many after it, in
// to's language with chance Params.ContextDestShare (a draw fixed for the
// pair: a description of the page linked) and otherwise in from's, the
// page's own text. It is "", "" when ContextWords is 0.
func (g *Graph) LinkContext(from, to int32) (before, after string) {
	n := g.p.ContextWords
	if n == 0 {
		return "", ""
	}
	lang := g.pageLang(from)
	if g.p.ContextDestShare > 0 && g.draw(saltContext, uint64(from), uint64(to)) < g.p.ContextDestShare {
		if l := g.pageLang(to); l != "" {
			lang = l
		}
	}
	if lang == "" {
		return "", ""
	}
	list := words[lang]
	r := textRand(uint64(g.p.Seed)*0x5851f42d4c957f2d ^ uint64(from)<<32 ^ uint64(uint32(to)))
	var b strings.Builder
	sentence(&b, &r, lang, list, n)
	before = strings.TrimSuffix(strings.TrimSuffix(b.String(), "."), "。")
	b.Reset()
	sentence(&b, &r, lang, list, n)
	after = b.String()
	return before, after
}

// DeclaredLang returns the language page i declares (Content-Language and
// <html lang>), "" for none. A server declares with chance
// Params.LangDeclShare (a draw per server), and then declares on every
// page the language of its home page, as a site-wide template does: the
// foreign pages of a target server declare the target language (the
// English pages with a Thai charset label of Tamura 3.3's distance-10
// path), the target pages of a server whose home is foreign declare
// ForeignLang.
func (g *Graph) DeclaredLang(i int32) string {
	if g.p.LangDeclShare == 0 {
		return ""
	}
	si := g.pageServer[i]
	s := &g.servers[si]
	if s.special != nil || g.IsMissing(i) || g.draw(saltDecl, uint64(si), 0) >= g.p.LangDeclShare {
		return ""
	}
	if s.foreignHome {
		return g.p.ForeignLang
	}
	return g.langs[s.lang]
}
