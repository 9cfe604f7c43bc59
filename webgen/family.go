package webgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// ccTLD is the country-code top-level domain of a target language, for
// Params.TargetCCTLDShare.
var ccTLD = map[string]string{"th": "th", "lo": "la", "vi": "vn", "id": "id", "ja": "jp", "ko": "kr",
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
// UTF-8.
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
	case local < s.nPrimary:
		return g.langs[s.lang]
	case local < s.nPrimary+s.nForeign:
		return g.p.ForeignLang
	}
	return ""
}
