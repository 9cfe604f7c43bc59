package focus

import (
	"net"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Link is what a link says about its destination's language before the
// destination is fetched: Tamura 4.1's "per-link attributes", the
// alternative to per-page attributes that the paper names and leaves.
type Link struct {
	// URL is the absolute destination URL.
	URL string
	// Anchor is the link's anchor text (links.Link.Anchor).
	Anchor string
	// Hreflang is the element's hreflang attribute: the language of the
	// destination, as the author declares it.
	Hreflang string
	// Lang is the element's lang attribute: the language of the anchor text.
	Lang string
	// Context is the text around the link (links.Link.Context): a few
	// words either side of the anchor.
	Context string
	// PageLang is the language the page holding the link declares: its
	// Content-Language, else its <html lang>. It is evidence about the
	// page's server more than about the link: a page detected as foreign
	// that declares the target language is most often the foreign section
	// of a target site whose template declares the site's language (the
	// English pages with a Thai charset label of Tamura 3.3's distance-10
	// path), and its links lead to that site's language.
	PageLang string
	// AnchorLang is the language the caller's detector read the anchor
	// text as, and AnchorConfidence that reading's calibrated confidence;
	// "" when not read. The caller reads it only where a script test says
	// nothing (ReadsAnchorText, AnchorSilent) and only from a page not in
	// the target nor in a close neighbour of it (package crawl: a
	// Norwegian page's short Norwegian anchor reads as Danish too often to
	// count for a Danish crawl).
	AnchorLang       string
	AnchorConfidence float64
	// ContextLang and ContextConfidence are the same reading of Context,
	// the text around the link, under the same conditions, where that
	// text's script says nothing (ContextSilent): a host name or "Home" as
	// the anchor, with a line about the site in its language beside it
	// ("<a>www.fado.pt</a> – arquivo de música popular" on an English
	// page). "" when not read.
	ContextLang       string
	ContextConfidence float64
	// FromTarget reports that the page holding the link is in the target
	// language. Its anchors are then in the target language whatever they
	// lead to, so anchor text (and lang) in the target language counts for
	// nothing; in another language it still counts against. The same holds
	// for the text around the link, and a declared language.
	FromTarget bool
}

// Score is the evidence of one link for the target language, summed over
// its cues and kept in [-MaxScore, MaxScore]. Positive is for the target.
type Score int8

// Score levels the evidence strategy acts on.
const (
	// MaxScore bounds a Score.
	MaxScore Score = 4
	// Weak is one cue for the target: a target ccTLD (.th, .la) or a
	// target language segment in the path or query (/th/, ?lang=th). It
	// raises priority; alone it opens no server from a non-target page (on
	// the simulated family, .th alone opened more non-target servers than
	// target ones).
	Weak Score = 1
	// Strong is an explicit cue: hreflang naming the target, anchor text in
	// the target's script or with lang naming the target, an IDN label in
	// the target's script; or two weak cues.
	Strong Score = 2
	// Against is an explicit cue for another language: hreflang naming
	// another language, anchor text in another non-Latin script.
	Against Score = -2
)

// The confidences from which an anchor read as the target (Link.AnchorLang)
// counts: AnchorSure as strong evidence, AnchorLikely as weak. Assumed, not
// fitted: the calibrated confidence's 0.9 is "nine in ten such readings are
// right", and 0.5 "more often right than wrong", which alone opens nothing
// (Weak).
const (
	AnchorSure   = 0.9
	AnchorLikely = 0.5
)

// ReadsAnchorText reports whether the caller should read the language of
// a link's anchor text (Link.AnchorLang): the policy reads links
// (ReadsLinks) and a target has no script of its own that the script test
// reads (Latin-script targets, and those whose script others share:
// Cyrillic, Arabic, Devanagari, Han).
func (p *Policy) ReadsAnchorText() bool {
	if !p.ReadsLinks() {
		return false
	}
	for _, l := range p.cfg.Langs {
		l, _, _ = strings.Cut(strings.ToLower(l), "-")
		if scriptOf[l] == nil {
			return true
		}
	}
	return false
}

// AnchorSilent reports whether Score would count l's AnchorLang: the link
// is not on a target page, and its lang attribute and its anchor's script
// say nothing.
func (p *Policy) AnchorSilent(l Link) bool {
	lang := targets(p.cfg.Langs)
	return !l.FromTarget && langCue(l.Lang, lang) == 0 && scriptCue(l.Anchor, lang) == 0
}

// ContextSilent reports whether Score could count l's ContextLang: the
// anchor is silent (AnchorSilent), and so is the script of the text
// around the link, and the anchor's reading (AnchorLang) has not given
// the most a reading gives (the two count as one cue, the stronger).
func (p *Policy) ContextSilent(l Link) bool {
	lang := targets(p.cfg.Langs)
	return p.AnchorSilent(l) && l.Context != "" && scriptCue(l.Context, lang) == 0 &&
		readCue(l.AnchorLang, l.AnchorConfidence, lang) < 2
}

// ShareScript reports whether languages a and b (ISO 639-1 codes or
// tags; "zh-hant" as zh) are written in one non-Latin script that others
// share too (sharedScripts: Japanese and Chinese in Han, Russian and
// Serbian in Cyrillic, Persian and Urdu in Arabic, Marathi and Hindi in
// Devanagari). A short text in it may read as either: a Japanese page's
// kanji-only names read as Traditional Chinese at 0.9 and more (a
// review), so a crawl reads no anchor on such a page (package crawl).
func ShareScript(a, b string) bool {
	a, _, _ = strings.Cut(strings.ToLower(a), "-")
	b, _, _ = strings.Cut(strings.ToLower(b), "-")
	if a == "" || b == "" {
		return false
	}
	for _, ta := range sharedScripts[a] {
		if slices.Contains(sharedScripts[b], ta) {
			return true
		}
	}
	return false
}

// Score returns the evidence of l for the policy's target languages
// (Config.Langs). Without a target language every score is 0. The cues, each
// counted once:
//
//	hreflang names the target        +3   names another language      -3
//	lang names the target             +2   names another language      -2
//	anchor in the target's script     +2   in another non-Latin script -2
//	  (the +2 of these two only from a page not in the target language)
//	else anchor read as the target     +2 at AnchorSure, +1 at AnchorLikely
//	  or text around read so             (AnchorLang, ContextLang: the
//	                                     stronger of the two; only from a
//	                                     page not in the target language)
//	IDN host label in target script   +2
//	ccTLD of the target (.th)         +1   ccTLD of another language   -1
//	path segment or lang= query value +1   another language's code     -1
//	text around in the target's script +1  in another non-Latin script -1
//	  (the +1 only from a page not in the target language, the -1 only
//	  from a page in it: elsewhere it is the page's own language)
//	page declares the target language  +1  (only from a page not in it)
//
// Latin-script anchor text counts for nothing when the target is written
// in another script: short Latin anchors ("Home", host names, URLs) are as
// common on Thai pages as on foreign ones. For a target written in Latin
// script (or one it shares, Cyrillic) the anchor's script says nothing at
// all, and the caller may read its language instead (AnchorLang): Score
// does no n-gram detection itself. Three trials targeting Danish,
// Indonesian and Slovenian found every target server that only foreign
// pages link to linked with anchors in the target ("Debat: Skolen skal
// have mere tid" on an English page), which the script test could not
// read. The reading counts by its calibrated confidence (issue 14: of
// readings at 0.9, about nine in ten are right), so a few words read at
// 0.3 count for nothing, and one read at AnchorLikely only beside
// another cue (a .dk host). The text around the link is read the same
// way where its script says nothing (ContextLang): a link list's host
// name with a line in the target beside it. A link set in target-language
// text on a foreign page is counted as a target page's links are, which
// open new servers (Tamura's strategies).
func (p *Policy) Score(l Link) Score {
	lang := targets(p.cfg.Langs)
	if len(lang) == 0 {
		return 0
	}
	var s int
	if v := langCue(l.Hreflang, lang); v != 0 {
		s += 3 * v
	}
	a := langCue(l.Lang, lang)
	if a == 0 {
		a = scriptCue(l.Anchor, lang)
	}
	if a < 0 || !l.FromTarget {
		s += 2 * a
	}
	// The text around a link is mostly in the page's own language: it
	// speaks for the link only where it differs from the page's.
	c := scriptCue(l.Context, lang)
	if (c > 0 && !l.FromTarget) || (c < 0 && l.FromTarget) {
		s += c
	}
	if a == 0 && !l.FromTarget {
		// The anchor and the text around it, read as the target: one
		// cue, the stronger of the two readings (the two are one block
		// of one page, not independent witnesses).
		r := readCue(l.AnchorLang, l.AnchorConfidence, lang)
		if c == 0 {
			r = max(r, readCue(l.ContextLang, l.ContextConfidence, lang))
		}
		s += r
	}
	if !l.FromTarget && langCue(l.PageLang, lang) > 0 {
		s++
	}
	s += urlCues(l.URL, lang)
	return Score(max(min(s, int(MaxScore)), -int(MaxScore)))
}

// readCue is what a reading of a link's text (Link.AnchorLang,
// Link.ContextLang) adds: 2 for the target at AnchorSure, 1 at
// AnchorLikely, else 0. A reading as another language counts for nothing:
// "Read more" beside a Danish link is common, and says nothing against it.
func readCue(code string, conf float64, lang targets) int {
	if code == "" || !lang.has(strings.ToLower(code)) {
		return 0
	}
	switch {
	case conf >= AnchorSure:
		return 2
	case conf >= AnchorLikely:
		return 1
	}
	return 0
}

// InTarget reports whether a page in language lang (the detector's code)
// is in the target: one of Config.Langs ("no" for Bokmål or Nynorsk).
// known is false when the policy has no target languages.
func (p *Policy) InTarget(lang string) (in, known bool) {
	if len(p.cfg.Langs) == 0 {
		return false, false
	}
	lang = strings.ToLower(lang)
	if !strings.Contains(lang, "-") {
		for _, t := range p.cfg.Langs {
			if l, _, ok := strings.Cut(t, "-"); ok && l == lang {
				// A bare zh for a zh-hant target: its script is not
				// known (a capture recorded before the tag was kept).
				return false, false
			}
		}
	}
	return targets(p.cfg.Langs).has(lang), true
}

// targets is the set of target languages (Config.Langs): one code, or a
// few collected together.
type targets []string

// has reports whether code is one of the targets. "no" (Norwegian) is
// one of them when Bokmål or Nynorsk is: pages tagged "no" are in one of
// the two written standards. A code and a target with a script subtag
// ("zh-hant", a Traditional Chinese target) match when their languages do
// and not both name a script, or both name the same: a link tagged "zh"
// counts for zh-hant, one under .cn ("zh-hans") does not.
func (t targets) has(code string) bool {
	cl, cs, cok := strings.Cut(code, "-")
	for _, l := range t {
		if code == l || (code == "no" && (l == "nb" || l == "nn")) {
			return true
		}
		if tl, ts, tok := strings.Cut(l, "-"); (tok || cok) && cl == tl && (!tok || !cok || cs == ts) {
			return true
		}
	}
	return false
}

// langCue is +1 when tag (BCP 47) has a target as primary subtag, -1 for
// another plausible language tag, 0 when absent or unreadable.
func langCue(tag string, target targets) int {
	tag = strings.TrimSpace(tag)
	if tag == "" {
		return 0
	}
	tag = strings.ToLower(strings.ReplaceAll(tag, "_", "-"))
	prim, _, _ := strings.Cut(tag, "-")
	if sc := chineseScript(tag); sc != "" {
		prim = sc // zh-TW, zh-Hant: Traditional; zh-CN, zh-Hans: Simplified
	}
	switch {
	case target.has(prim):
		return 1
	case len(prim) == 2 || len(prim) == 3:
		if prim == "und" || prim == "mul" || prim == "zxx" {
			return 0
		}
		return -1
	}
	return 0 // "x-default" and the like
}

// scriptOf is the Unicode script a language is written in, when it has one
// of its own that a script test can tell apart.
var scriptOf = map[string]*unicode.RangeTable{
	"th": unicode.Thai, "lo": unicode.Lao, "km": unicode.Khmer, "my": unicode.Myanmar,
	"ka": unicode.Georgian, "hy": unicode.Armenian, "el": unicode.Greek, "he": unicode.Hebrew,
	"ko": unicode.Hangul, "si": unicode.Sinhala, "ta": unicode.Tamil, "te": unicode.Telugu,
	"bn": unicode.Bengali, "gu": unicode.Gujarati, "kn": unicode.Kannada, "ml": unicode.Malayalam,
	"am": unicode.Ethiopic, "bo": unicode.Tibetan,
	// Not Mongolian: Mongolia writes it in Cyrillic, which it shares
	// (sharedScripts).
}

// sharedScripts are the scripts of the non-Latin languages the detector
// knows that share their script with others (Han, Cyrillic, Arabic,
// Devanagari...), so a script test cannot tell them. In a set of targets
// beside one in scriptOf, their letters count neither for nor against
// (scriptCue); a Latin-script target needs nothing here, since Latin
// letters never count.
var sharedScripts = func() map[string][]*unicode.RangeTable {
	m := map[string][]*unicode.RangeTable{
		"zh": {unicode.Han}, "ja": {unicode.Han, unicode.Hiragana, unicode.Katakana},
		"pa": {unicode.Gurmukhi}, "ti": {unicode.Ethiopic}, "mn": {unicode.Cyrillic, unicode.Mongolian},
	}
	for _, l := range []string{"be", "bg", "kk", "ky", "mk", "ru", "sr", "tg", "tt", "uk"} {
		m[l] = []*unicode.RangeTable{unicode.Cyrillic}
	}
	for _, l := range []string{"ar", "fa", "ku", "ps", "ug", "ur"} {
		m[l] = []*unicode.RangeTable{unicode.Arabic}
	}
	for _, l := range []string{"hi", "mr", "ne"} {
		m[l] = []*unicode.RangeTable{unicode.Devanagari}
	}
	return m
}()

// minScriptRunes is how many letters of a script make an anchor "in" it.
const minScriptRunes = 2

// scriptCue is +1 when the anchor has at least minScriptRunes letters in the
// target's script and no more letters of another non-Latin script, -1 when
// it has at least minScriptRunes letters of a non-Latin script other than
// the target's and none of the target's, 0 otherwise (no text, Latin
// letters only, or a target without a script of its own). With a set of
// targets, the scripts are the targets'; the letters of a target whose
// script is shared (Chinese, Russian: sharedScripts) count neither way.
func scriptCue(text string, target targets) int {
	var tabs, neutral []*unicode.RangeTable
	for _, l := range target {
		l, _, _ = strings.Cut(l, "-") // zh-hant: Han, as zh
		if tab := scriptOf[l]; tab != nil {
			tabs = append(tabs, tab)
		} else {
			neutral = append(neutral, sharedScripts[l]...)
		}
	}
	if len(tabs) == 0 || text == "" {
		return 0
	}
	in, other := 0, 0
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf { // ASCII: Latin letters, digits, punctuation
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		switch {
		case unicode.In(r, tabs...):
			in++
		case len(neutral) > 0 && unicode.In(r, neutral...):
			// A set's target written in a shared script: its letters
			// count neither way.
		case unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r):
			other++
		}
	}
	switch {
	case in >= minScriptRunes && in >= other:
		return 1
	case other >= minScriptRunes && in == 0:
		return -1
	}
	return 0
}

// langsOfTLD gives, for a country-code top-level domain, the language most
// of its pages are in: the country's national language, where it is the
// web's main one (assumed; .by, .kz and the like, where Russian outweighs
// the national language on the web, are left out, and so are countries of
// several languages). .no is both Norwegian standards', and Portuguese has
// .pt and .br. Croatian, Slovenian, Serbian, Norwegian and the others after
// the first three lines were added after a trial targeting Croatian and
// Bokmål found .hr and .no read as no language.
var langsOfTLD = map[string][]string{
	"th": {"th"}, "la": {"lo"}, "kh": {"km"}, "mm": {"my"}, "vn": {"vi"}, "id": {"id"}, "my": {"ms"},
	"jp": {"ja"}, "kr": {"ko"}, "cn": {"zh-hans"}, "tw": {"zh-hant"}, "ru": {"ru"}, "de": {"de"}, "fr": {"fr"}, "es": {"es"},
	"it": {"it"}, "pl": {"pl"}, "nl": {"nl"}, "cz": {"cs"}, "se": {"sv"}, "fi": {"fi"}, "dk": {"da"},
	"gr": {"el"}, "il": {"he"}, "hu": {"hu"}, "ua": {"uk"}, "tr": {"tr"}, "ge": {"ka"}, "am": {"hy"},
	"hr": {"hr"}, "si": {"sl"}, "rs": {"sr"}, "sk": {"sk"}, "bg": {"bg"}, "ro": {"ro"}, "mk": {"mk"},
	"al": {"sq"}, "lt": {"lt"}, "lv": {"lv"}, "ee": {"et"}, "is": {"is"}, "no": {"nb", "nn"},
	"fo": {"fo"}, "pt": {"pt"}, "br": {"pt"}, "mn": {"mn"}, "np": {"ne"}, "ir": {"fa"}, "az": {"az"},
	"bd": {"bn"},
	// The internationalised ones, in punycode as hosts are kept: .ไทย,
	// .укр, .бг, .срб, .мкд, .рф, .ایران, .台灣, .中国 (a review: the
	// report ranked a host under .укр as on no country domain).
	"xn--o3cw4h": {"th"}, "xn--j1amh": {"uk"}, "xn--90ae": {"bg"}, "xn--90a3ac": {"sr"}, "xn--d1alf": {"mk"},
	"xn--p1ai": {"ru"}, "xn--mgba3a4f16a": {"fa"}, "xn--kpry57d": {"zh-hant"}, "xn--fiqs8s": {"zh-hans"},
}

// langOfCommunityTLD gives the language of the community domains whose
// registries are chartered to serve a language and its culture: puntCAT
// for Catalan, puntuGAL for Galician, PuntuEUS for Basque. A trial
// targeting Galician and Catalan found shops on .cat and .gal ranked as on
// no language's domain. They speak for their language and never against
// another (a .cat site may be in Spanish too, and a review found a first
// version, which put them in langsOfTLD with .ad, .bzh and .cymru, giving
// a crawl for Spanish a cue against every .cat link). Assumed from their
// charters, not measured.
var langOfCommunityTLD = map[string]string{"cat": "ca", "gal": "gl", "eus": "eu"}

// langCodes are the language codes read as path segments and lang=
// values: these, and the targets' (see segLang). Two-letter segments
// outside the list ("/id/" as an identifier, "/js/") are not read.
var langCodes = map[string]bool{
	"en": true, "ja": true, "zh": true, "ko": true, "ru": true, "de": true, "fr": true, "es": true,
	"vi": true, "lo": true, "th": true, "km": true, "my": true, "ms": true, "it": true, "pt": true,
	"ar": true, "nl": true, "pl": true, "tr": true,
}

// urlCues sums the cues of the URL: its host's ccTLD and IDN labels, and
// the language codes among its path segments and lang-like query values.
func urlCues(raw string, target targets) int {
	u, err := url.Parse(raw)
	if err != nil {
		return 0
	}
	s := 0
	host := strings.ToLower(u.Hostname())
	if i := strings.LastIndexByte(host, '.'); i >= 0 {
		if ls := langsOfTLD[host[i+1:]]; len(ls) > 0 {
			if slices.ContainsFunc(ls, target.has) {
				s++
			} else {
				s--
			}
		} else if l := langOfCommunityTLD[host[i+1:]]; l != "" && target.has(l) {
			s++
		}
	}
	if strings.Contains(host, "xn--") {
		for _, label := range strings.Split(host, ".") {
			if !strings.HasPrefix(label, "xn--") {
				continue
			}
			if uni, err := idna.ToUnicode(label); err == nil && scriptCue(uni, target) > 0 {
				s += 2
				break
			}
		}
	}
	code := urlLang(u, target)
	switch {
	case code == "":
	case target.has(code):
		s++
	default:
		s--
	}
	return s
}

// urlLang returns the language code a URL names: its first language-code
// path segment, or else its lang (hl, locale, language) query value; "" if
// none. A target's own code counts as a bare two-letter segment only as
// the path's first segment, not followed by a number (/hr/, /nb/o-nama,
// not /id/123) nor by another language code (/uk/en/, /be/nl/: a country
// and its language), and not for the codes that are also the country
// codes of shops' country selectors (/uk/, /ca/, /be/, /br/: the United
// Kingdom, Canada, Belgium, Brazil): that is where a site puts its
// language sections, and a trial targeting Croatian, Bokmål and Slovenian
// found /hr/, /nb/ and /sl/ sections read as no language where /th/ and
// /ms/ were found.
func urlLang(u *url.URL, target targets) string {
	var segs []string
	for _, seg := range strings.Split(u.Path, "/") {
		if seg != "" {
			segs = append(segs, seg)
		}
	}
	for i, seg := range segs {
		if c := segLang(seg, target, false); c != "" {
			return c
		}
		if i == 0 && len(seg) == 2 {
			c := strings.ToLower(seg)
			if !target.has(c) || countrySelector[c] {
				continue
			}
			if len(segs) > 1 && (allDigits(segs[1]) || segLang(segs[1], target, false) != "") {
				continue
			}
			return c
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		for _, k := range LangParams {
			if c := segLang(q.Get(k), target, true); c != "" {
				return c
			}
		}
	}
	return ""
}

// TargetDomain reports whether host sits under the national domain of a
// target language (langsOfTLD: .th for Thai, .hr for Croatian, .no for
// either Norwegian standard). The report ranks the candidate hosts so.
func (p *Policy) TargetDomain(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	i := strings.LastIndexByte(host, '.')
	if i < 0 {
		return false
	}
	t := targets(p.cfg.Langs)
	if l := langOfCommunityTLD[host[i+1:]]; l != "" && t.has(l) {
		return true
	}
	return slices.ContainsFunc(langsOfTLD[host[i+1:]], t.has)
}

// countrySelector are the language codes that are also the country codes of
// large markets in shops' country selectors (/uk/ for the United Kingdom,
// /ca/ Canada, /be/ Belgium, /br/ Brazil), which a bare first segment does
// not count as (a review of the bare-code rule).
var countrySelector = map[string]bool{"uk": true, "ca": true, "be": true, "br": true}

// LangParams are the query parameters whose value names a page's
// language (?lang=th, ?hl=th).
var LangParams = []string{"lang", "hl", "locale", "language"}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// segLang returns the language code a path segment or query value names:
// "th", "TH", "th-TH", "th_th" give "th"; anything else "". It reads the
// codes of langCodes; a target's code outside them only as a query value
// or with a region ("id-ID", "nb_NO"), since a bare two-letter segment
// such as "/id/123" or "/no/5" is as often no language at all.
func segLang(seg string, target targets, query bool) string {
	seg = strings.ToLower(seg)
	if sc := chineseScript(strings.ReplaceAll(seg, "_", "-")); sc != "" {
		return sc // /zh-tw/, ?lang=zh-hant: a script, which a zh-hant target tells apart
	}
	if len(seg) != 2 && len(seg) != 5 {
		return ""
	}
	if len(seg) == 5 && seg[2] != '-' && seg[2] != '_' {
		return ""
	}
	if c := seg[:2]; langCodes[c] || (target.has(c) && (query || len(seg) == 5)) {
		return c
	}
	return ""
}

// chineseScript returns the script a Chinese tag names, as a target names
// it ("zh-hant", "zh-hans"): by its script subtag, or by its region (zh-TW,
// zh-HK, zh-MO Traditional; zh-CN, zh-SG Simplified); "" for another tag or
// a bare zh. tag is lower case, hyphenated.
func chineseScript(tag string) string {
	rest, ok := strings.CutPrefix(tag, "zh-")
	if !ok {
		return ""
	}
	sub, _, _ := strings.Cut(rest, "-")
	switch sub {
	case "hant", "tw", "hk", "mo":
		return "zh-hant"
	case "hans", "cn", "sg":
		return "zh-hans"
	}
	return ""
}

// Reasons of the evidence strategy.
const (
	ReasonEvidenceFor     = "evidence-for"     // a link whose evidence opens a server the paper's rules would not
	ReasonEvidenceAgainst = "evidence-against" // a new server whose link speaks for another language
)

// DecideLink decides one navigation link like Decide, with the link's
// evidence s (Policy.Score). Policies that do not read links (ReadsLinks)
// ignore s. The evidence strategy is conservative-server (steps 4.5-8)
// with three changes (the sequential strategy with Config.LinkEvidence
// makes the same, with its own server status):
//
//   - a link with evidence of at least Strong opens a new server even from a
//     page of an undecided or irrelevant server (step 4.5 would reject it):
//     the target pages reachable only through non-target pages (Tamura
//     Fig. 2, 5.2's "essential limit");
//   - a link with evidence of at least Strong is followed into an
//     irrelevant server (step 5 would reject it): the target section of a
//     server whose first pages were foreign;
//   - a link with evidence of Against or less never opens a new server,
//     even from a relevant page: what a server-based strategy pays T+1
//     pages to learn, the link said.
//
// Priority is high for a link of a relevant page unless its evidence is
// Against, and for any link with evidence of at least Weak.
func (p *Policy) DecideLink(pageRelevant bool, src, dest Counts, destVisited bool, s Score) Verdict {
	if !p.ReadsLinks() {
		return p.Decide(pageRelevant, src, dest, destVisited)
	}
	if destVisited {
		return Verdict{Reason: ReasonSeen}
	}
	high := (pageRelevant && s > Against) || s >= Weak
	switch {
	case p.Status(dest) == Irrelevant:
		if s >= Strong {
			return Verdict{Enqueue: true, High: true, Reason: ReasonEvidenceFor}
		}
		return Verdict{Reason: ReasonIrrelevantDest}
	case dest.Downloaded == 0 && s <= Against:
		return Verdict{Reason: ReasonEvidenceAgainst}
	case dest.Downloaded == 0 && src.Relevant == 0 && !p.closeRelevant(src):
		if s >= Strong {
			return Verdict{Enqueue: true, High: true, Reason: ReasonEvidenceFor}
		}
		return Verdict{Reason: ReasonUnvisited}
	}
	if high {
		return Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}
	}
	return Verdict{Enqueue: true, Reason: ReasonOtherPage}
}
