package detect

import (
	"bytes"
	"hash/fnv"
	"unicode"
	"unicode/utf8"
)

const (
	// longBlock is the weight (blockWeight) from which a text block counts
	// as running text rather than navigation.
	longBlock = 48
	// maxText caps the extracted text that is scored.
	maxText = 6 << 10
	// maxRaw caps the text extract gathers before choosing maxText of it
	// (blocks, repeats, navigation): ten times as much.
	maxRaw = 64 << 10
	// maxBlocks caps the blocks extract gathers: a page of two million
	// "<p>a" had them take 700 MB.
	maxBlocks = 8 << 10
	// maxMetas is how many META elements extract reads for a charset.
	maxMetas = 256
	// maxMetaTag is the longest META tag read for a charset (bytes): a
	// charset declaration is short, and a tag of a million attributes
	// was parsed into a map of them.
	maxMetaTag = 2 << 10
)

// extracted is the text of a page, still in the page's own bytes.
type extracted struct {
	raw   []byte   // text in the document's encoding; non-ASCII references dropped
	ncr   []byte   // the same text as UTF-8 with raw non-ASCII bytes dropped and references decoded
	metas []string // charset labels of every META, in document order
	// refs counts non-ASCII characters written as character references.
	refs int
	// ends holds, for each block kept in raw, the offset in raw where it
	// ends (the '\n' after it).
	ends []int
}

type block struct {
	r0, r1, n0, n1, link, w int
	furn                    bool // inside page furniture (see furniture), or a metadata line (metaLine)
	main                    bool // inside a main or article element
	run                     bool // one of a run of short blocks (minRun)
	// rep: a repeat of a furniture block (a button), kept only to end a
	// run of short blocks as its first did; never in the text.
	rep bool
	// consent: a cookie or consent notice by its text (consentLine).
	consent bool
}

// content reports whether a block can be the page's text: neither
// navigation nor furniture.
func content(b block) bool { return !nav(b) && !b.furn }

// minRun is how many short blocks in a row (list items, lines) make one
// unit of running text.
const minRun = 3

// maxMetaLine is the length (bytes) up to which a block with a year or a
// copyright sign is taken for a metadata line.
const maxMetaLine = 160

// metaLine reports whether a block is a line of page metadata rather than
// text: a dateline, byline, "last updated" or copyright line. Such lines
// name a year (a number from 1900 to 2099 standing alone) or carry a
// copyright sign (in UTF-8 or as a reference; a legacy charset's byte for
// it is a letter in other charsets), and are short; they are furniture
// in whatever language, wherever they sit. raw is the block's text in the
// page's bytes, ncr the same with references decoded.
func metaLine(raw, ncr []byte) bool {
	if len(raw) > maxMetaLine {
		return false
	}
	if bytes.Contains(ncr, []byte("©")) || bytes.Contains(raw, []byte("©")) {
		return true
	}
	for i := 0; i+4 <= len(raw); i++ {
		c := raw[i]
		if c != '1' && c != '2' || i > 0 && isDigit(raw[i-1]) {
			continue
		}
		if !isDigit(raw[i+1]) || !isDigit(raw[i+2]) || !isDigit(raw[i+3]) || i+4 < len(raw) && isDigit(raw[i+4]) {
			continue
		}
		if c == '1' && raw[i+1] == '9' || c == '2' && raw[i+1] == '0' {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// maxConsentLine is the length (bytes) up to which a block that names
// cookies is taken for a cookie or consent notice: one to three
// sentences and a button or two, as such notices are (assumed, not
// tuned; the trials' notices were 69 to 115 bytes).
const maxConsentLine = 400

// maxConsentBlocks is the most blocks naming cookies a page may have for
// them to be taken for a notice: one notice, or a notice and its button
// line. A page with more is about cookies.
const maxConsentBlocks = 2

// consentLine reports whether a block is a cookie or consent notice by its
// text: short, and naming cookies in Latin letters ("We use cookies", "Vi
// bruger cookies", "Wir verwenden Cookies", "Kami menggunakan cookie"; a
// notice that writes the word in its own script, "кукі", is not caught,
// nor one over maxConsentLine bytes, about 200 Cyrillic letters). Such a
// notice is furniture whatever language it is in, like a copyright line
// (metaLine), and what its class is called does not matter, on a page
// with at most maxConsentBlocks such blocks. Under a class name the
// extractor knows ("cookie-notice") it was furniture before; under one it
// does not ("ck", "cc"), three independent trials (Danish, Indonesian,
// Slovenian shops) found a page's one native line read as English at
// confidence 1 beside it, and whole shops cut at T+1 under both
// strategies. raw is the block's text in the page's bytes (the word is
// ASCII in every charset the detector reads).
func consentLine(raw []byte) bool {
	if len(raw) > maxConsentLine {
		return false
	}
	for i := 0; i+6 <= len(raw); i++ {
		if raw[i]|0x20 == 'c' && bytes.EqualFold(raw[i:i+6], []byte("cookie")) {
			return true
		}
	}
	return false
}

// extract strips markup from an HTML (or plain text) document byte by
// byte, without knowing its encoding: script, style and comments are
// dropped, entities decoded, text split into blocks at block-level tags.
// Repeated blocks are dropped, and when the page has enough running text,
// short blocks (menus, buttons) are dropped too. It works on any
// ASCII-compatible encoding.
func extract(body []byte) extracted {
	var x extracted
	var blocks []block
	raw := make([]byte, 0, min(len(body), 64<<10))
	ncr := make([]byte, 0, 256)
	cur := block{}
	inLink, linkStart := false, 0
	// The page furniture element the scanner is in (furnName), and how
	// many elements of that name are open inside it.
	var furnName [16]byte
	furnLen, furnDepth := 0, 0
	mainDepth := 0 // main and article elements open
	endBlock := func() {
		cur.r1, cur.n1 = len(raw), len(ncr)
		if inLink {
			cur.link += len(raw) - linkStart
			linkStart = len(raw) + 1
		}
		if cur.r1 > cur.r0 {
			blocks = append(blocks, cur)
			raw = append(raw, ' ')
			ncr = append(ncr, ' ')
		}
		cur = block{r0: len(raw), n0: len(ncr), furn: furnDepth > 0, main: mainDepth > 0}
	}
	var nameBuf [16]byte
	metasRead := 0
	i := 0
	for i < len(body) {
		c := body[i]
		// Enough text to choose from (maxRaw, maxBlocks): the rest is not
		// read, from a tag on, or, past twice as much text, from any
		// byte that does not continue a UTF-8 character.
		if n := max(len(raw), len(ncr)); (n >= maxRaw || len(blocks) >= maxBlocks) && c == '<' || n >= 2*maxRaw && utf8.RuneStart(c) {
			break
		}
		switch {
		case c == '<':
			j, nb, isEnd := scanTag(body, i, &nameBuf)
			if len(nb) == 0 { // not a tag: literal '<'
				raw = append(raw, '<')
				ncr = append(ncr, '<')
				i++
				continue
			}
			tagEnd := j
			switch string(nb) {
			case "!--":
				if k := bytes.Index(body[i+4:], []byte("-->")); k >= 0 {
					tagEnd = i + 4 + k + 3
				} else {
					tagEnd = len(body)
				}
			case "script", "style", "noscript", "template", "svg", "textarea", "title":
				if !isEnd {
					tagEnd = skipRaw(body, j, nb)
				}
			case "a":
				if isEnd && inLink {
					cur.link += len(raw) - linkStart
				}
				inLink, linkStart = !isEnd, len(raw)
			case "meta":
				// The first maxMetas METAs only: each is parsed into a
				// map, and a page of META tags cost 850 ns a tag.
				if metasRead++; metasRead <= maxMetas && j-i <= maxMetaTag {
					if l := metaCharset(body[i:j]); l != "" {
						x.metas = append(x.metas, l)
					}
				}
			}
			if !inline[string(nb)] {
				if n := string(nb); n == "main" || n == "article" {
					if isEnd {
						mainDepth = max(0, mainDepth-1)
					} else {
						mainDepth++
					}
				}
				switch {
				case furnDepth > 0 && string(nb) == string(furnName[:furnLen]):
					if isEnd {
						furnDepth--
					} else {
						furnDepth++
					}
				case furnDepth == 0 && !isEnd && furniture(nb, body[i:j]):
					furnLen = copy(furnName[:], nb)
					furnDepth = 1
				}
				endBlock()
			}
			i = tagEnd
		case c == '&':
			r, n := entity(body[i:])
			if n == 0 {
				raw = append(raw, '&')
				ncr = append(ncr, '&')
				i++
				continue
			}
			if r < 0x80 {
				raw = append(raw, byte(r))
				ncr = append(ncr, byte(r))
			} else {
				raw = append(raw, ' ')
				ncr = utf8.AppendRune(ncr, r)
				if r != 0xA0 {
					x.refs++
				}
			}
			i += n
		case c >= 0x80:
			raw = append(raw, c)
			i++
		default:
			raw = append(raw, c)
			ncr = append(ncr, c)
			i++
		}
	}
	endBlock()

	// Weigh blocks: drop repeats; drop navigation (mostly link text) when
	// there is other text; drop short blocks when there is running text.
	// seen: the blocks met so far, and whether the first of each was
	// not furniture.
	seen := make(map[uint64]bool, len(blocks))
	keep := blocks[:0]
	long, other, inMain := 0, false, 0
	// A cookie notice is a block or two (consentLine); a page with more
	// blocks that name cookies is about them, and they are its text (a
	// review: Russian documentation of HTTP cookies, a Danish bakery's
	// page, cookie policies in six languages, each read as English on
	// its one English line once its paragraphs were dropped).
	cookieBlocks := 0
	for i, b := range blocks {
		if !b.furn && !nav(b) && consentLine(bytes.TrimSpace(raw[b.r0:b.r1])) {
			blocks[i].consent = true
			cookieBlocks++
		}
	}
	for _, b := range blocks {
		t := bytes.TrimSpace(raw[b.r0:b.r1])
		if len(t) == 0 && b.n1 == b.n0 {
			continue
		}
		h := fnv.New64a()
		h.Write(t)
		h.Write(ncr[b.n0:b.n1])
		k := h.Sum64()
		if notFurn, ok := seen[k]; ok {
			if !notFurn {
				// A repeated button or label between the items of a
				// product grid ends each item's run, as its first did:
				// dropped, the grid's names and prices ran together
				// into "running text" that outvoted the page's one
				// line in its language (a trial: a Catalan shop
				// page read as English at 0.999 for six "Add to cart"
				// buttons, Catalan without them).
				keep = append(keep, block{furn: true, rep: true})
			}
			continue
		}
		b.w = blockWeight(t)
		b.w = max(b.w, b.n1-b.n0)
		if !b.furn && !nav(b) && (metaLine(t, ncr[b.n0:b.n1]) || b.consent && cookieBlocks <= maxConsentBlocks) {
			b.furn = true
		}
		// Only furniture's repeats end runs: a repeated "Read more" link
		// between the headlines of a list is navigation, and a review
		// found that ending runs at it left every headline alone, short,
		// and dropped beside one English paragraph.
		seen[k] = !b.furn
		keep = append(keep, b)
	}
	// Runs of short blocks (list items, lines split by <br>) are one
	// unit of text, as a paragraph is.
	for i := 0; i < len(keep); {
		j, sum := i, 0
		for j < len(keep) && content(keep[j]) && weight(keep[j]) < longBlock {
			sum += weight(keep[j])
			j++
		}
		if j-i >= minRun && sum >= longBlock {
			for k := i; k < j; k++ {
				keep[k].run = true
			}
		}
		i = max(j, i+1)
	}
	for _, b := range keep {
		if !content(b) {
			continue
		}
		if weight(b) >= minOther || b.run {
			other = true
		}
		if b.main {
			inMain += weight(b)
		}
		if weight(b) >= longBlock || b.run {
			long += weight(b)
		}
	}
	// A page whose main or article element holds running text is that
	// text: headers, banners and widgets around it are dropped.
	mainOnly := inMain >= longBlock
	if mainOnly {
		long = 0
		for _, b := range keep {
			if b.main && content(b) && (weight(b) >= longBlock || b.run) {
				long += weight(b)
			}
		}
	}
	// Whether the running text has letters of a script other than Latin:
	// when it has none, a short block in such a script is not the
	// running text's language, and is kept beside it (ownScriptLine).
	longOther := false
	for _, b := range keep {
		if content(b) && (weight(b) >= longBlock || b.run) && (!mainOnly || b.main) && nonLatinLetters(raw[b.r0:b.r1], ncr[b.n0:b.n1]) > 0 {
			longOther = true
			break
		}
	}
	x.raw = make([]byte, 0, min(len(raw), maxText))
	x.ncr = make([]byte, 0, min(len(ncr), maxText))
	x.ends = make([]int, 0, len(keep))
	for _, b := range keep {
		short := long >= longBlock && weight(b) < longBlock && !b.run &&
			(longOther || nonLatinLetters(raw[b.r0:b.r1], ncr[b.n0:b.n1]) < minScriptLine)
		if b.rep || (other && !content(b)) || short || (mainOnly && !b.main) {
			continue
		}
		if len(x.raw) >= maxText || len(x.ncr) >= maxText {
			break
		}
		r, n := raw[b.r0:b.r1], ncr[b.n0:b.n1]
		if len(r) > maxText-len(x.raw) {
			// Not inside a UTF-8 character (trimPartialUTF8).
			r = trimPartialUTF8(r[:maxText-len(x.raw)])
		}
		n = cutUTF8(n, maxText-len(x.ncr))
		x.raw = append(x.raw, r...)
		x.ends = append(x.ends, len(x.raw))
		x.raw = append(x.raw, '\n')
		x.ncr = append(append(x.ncr, n...), '\n')
	}
	return x
}

// minScriptLine is how many letters of a script other than Latin keep a
// short block beside running text written in Latin letters alone: a
// line of 12 to 23 Urdu, Russian or Greek letters beside one English
// sentence was dropped, and the page read English at 1, once a two-byte
// character weighed two (blockWeight; a review). Such a line cannot be in
// the running text's language. Latin lines beside English stay a limit
// (TestShortLineBesideEnglishNote): their script says nothing.
const minScriptLine = 4

// nonLatinLetters counts the letters outside the Latin script in a
// block's UTF-8 text, raw (when it is UTF-8) and its character
// references decoded (ncr); 0 for text in a legacy charset, whose bytes
// are not decoded here.
func nonLatinLetters(raw, ncr []byte) int {
	return nonLatinIn(raw) + nonLatinIn(ncr)
}

func nonLatinIn(t []byte) int {
	i := bytes.IndexFunc(t, func(r rune) bool { return r >= utf8.RuneSelf })
	if i < 0 || !utf8.Valid(t[i:]) {
		return 0
	}
	n := 0
	for t = t[i:]; len(t) > 0; {
		r, size := utf8.DecodeRune(t)
		t = t[size:]
		if r >= utf8.RuneSelf && unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			n++
		}
	}
	return n
}

// weight is how much text a block holds (blockWeight), or its text as
// character references decoded, if more.
func weight(b block) int { return b.w }

// blockWeight is how much text t holds, in units of an ASCII letter: a byte
// of 0x80 or more counts twice, so a letter of a legacy single-byte charset
// weighs two; in UTF-8 a character of two bytes (accented Latin, Greek,
// Cyrillic, Arabic, Hebrew) weighs two as well, as in its legacy charset
// and as a character reference to it (b.n1-b.n0), where it had weighed
// four. A 12-character Urdu heading so counted as running text
// (longBlock) and a short Urdu shop page was read on it alone, and a Czech
// line's accents made a short template block "running text". Characters of
// three bytes or more (Han, kana, Hangul, Thai, Devanagari) keep weighing
// two a byte, six: a review found that weighing them two or four dropped a
// short Chinese or Hindi line beside one English sentence, which read
// English then. Text that is not UTF-8 (a legacy charset) is weighed as
// such.
func blockWeight(t []byte) int {
	w, two := len(t), 0
	for _, c := range t {
		if c >= 0x80 {
			w++
			if c >= 0xC2 && c <= 0xDF { // the lead byte of a two-byte sequence
				two++
			}
		}
	}
	if two > 0 && utf8.Valid(t) {
		w -= 2 * two
	}
	return w
}

// nav reports whether a block is mostly link text.
func nav(b block) bool { return 2*b.link > b.r1-b.r0 }

// furniture reports whether the start tag of a block-level element marks
// page furniture rather than content: an HTML5 footer, nav or aside
// element, or an element whose class or id names a footer, navigation,
// menu, sidebar, breadcrumbs or copyright notice, as boilerplate
// removers such as Mozilla's Readability read them. Text inside one is
// dropped, like link lists, when the page has other text: "Copyright
// 2024 Example Ltd. All rights reserved" should not outvote a page's one
// sentence in its own language.
func furniture(name, tag []byte) bool {
	switch string(name) {
	case "footer", "nav", "aside", "header", "pre", "button", "select", "label", "figcaption", "dialog":
		return true
	case "!--", "!doctype", "meta", "link", "br", "img", "hr", "input", "html", "head", "body":
		return false
	}
	for _, attr := range [...]string{"class", "id"} {
		v := attrValue(tag, attr)
		if len(v) == 0 || len(v) > 128 {
			continue
		}
		var buf [128]byte
		lv := buf[:len(v)]
		for k, c := range v {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			lv[k] = c
		}
		for _, w := range furnitureWords {
			if bytes.Contains(lv, []byte(w)) {
				return true
			}
		}
	}
	return false
}

var furnitureWords = [...]string{"footer", "nav", "menu", "sidebar", "breadcrumb", "copyright",
	// Issue 14: the English around a native paragraph on the independent
	// set's pages: headers and top bars, cookie and consent notices,
	// sharing and social buttons, comment forms, widgets, post metadata
	// and bylines, tags, related and popular posts, newsletter sign-ups,
	// language and locale switchers, toolbars, pop-ups.
	"header", "top-bar", "topbar", "toolbar", "cookie", "consent", "gdpr", "banner",
	"share", "social", "comment", "widget", "meta", "byline", "author", "tags",
	"related", "popular", "newsletter", "subscribe", "language", "lang-", "locale",
	"popup", "modal", "skip-link"}

// attrValue returns the value of attribute name (lower case) in a tag
// "<x a=b ...>", or nil, without allocating.
func attrValue(tag []byte, name string) []byte {
	for i := 1; i+len(name) < len(tag); i++ {
		if !isSpace(tag[i-1]) || !bytes.EqualFold(tag[i:i+len(name)], []byte(name)) {
			continue
		}
		j := i + len(name)
		for j < len(tag) && isSpace(tag[j]) {
			j++
		}
		if j >= len(tag) || tag[j] != '=' {
			continue
		}
		j++
		for j < len(tag) && isSpace(tag[j]) {
			j++
		}
		if j < len(tag) && (tag[j] == '"' || tag[j] == '\'') {
			q := tag[j]
			k := bytes.IndexByte(tag[j+1:], q)
			if k < 0 {
				return tag[j+1:]
			}
			return tag[j+1 : j+1+k]
		}
		k := j
		for k < len(tag) && !isSpace(tag[k]) && tag[k] != '>' {
			k++
		}
		return tag[j:k]
	}
	return nil
}

// minOther is the length from which a block of non-link text makes the
// navigation blocks of a page droppable.
const minOther = 16

// inline elements do not end a text block.
var inline = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "big": true,
	"cite": true, "code": true, "data": true, "dfn": true, "em": true,
	"font": true, "i": true, "kbd": true, "mark": true, "q": true, "rp": true,
	"rt": true, "ruby": true, "s": true, "samp": true, "small": true,
	"span": true, "strong": true, "sub": true, "sup": true, "time": true,
	"tt": true, "u": true, "var": true, "wbr": true, "nobr": true,
}

// scanTag parses the tag starting at body[i] == '<'. It returns the index
// just past the tag, its lower-cased name in buf (empty if this is not a
// tag, "!--" for a comment) and whether it is an end tag.
func scanTag(body []byte, i int, buf *[16]byte) (end int, name []byte, isEnd bool) {
	j := i + 1
	if j < len(body) && body[j] == '/' {
		isEnd = true
		j++
	}
	if bytes.HasPrefix(body[j:], []byte("!--")) {
		return j + 3, append(buf[:0], "!--"...), false
	}
	name = buf[:0]
	start := j
	for j < len(body) && j-start < len(buf) {
		c := body[j]
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9' && j > start) || c == '!' || c == '?' {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			name = append(name, c)
			j++
			continue
		}
		break
	}
	if j == start {
		return i + 1, nil, false
	}
	// Find the closing '>' outside quotes.
	var q byte
	for ; j < len(body); j++ {
		c := body[j]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			if body[j-1] == '=' || body[j-1] == ' ' {
				q = c
			}
		case c == '>':
			return j + 1, name, isEnd
		}
	}
	return len(body), name, isEnd
}

// skipRaw returns the index past the end tag </name> at or after j.
func skipRaw(body []byte, j int, name []byte) int {
	for j < len(body) {
		k := bytes.Index(body[j:], []byte("</"))
		if k < 0 {
			return len(body)
		}
		j += k + 2
		if len(body)-j >= len(name) && bytes.EqualFold(body[j:j+len(name)], name) {
			if e := bytes.IndexByte(body[j:], '>'); e >= 0 {
				return j + e + 1
			}
			return len(body)
		}
	}
	return len(body)
}

// metaCharset returns the charset label a META tag declares, or "".
func metaCharset(tag []byte) string {
	attrs := parseAttrs(tag)
	if v, ok := attrs["charset"]; ok {
		return v
	}
	if eq, ok := attrs["http-equiv"]; ok && equalFoldStr(eq, "content-type") {
		return charsetParam(attrs["content"])
	}
	if c, ok := attrs["content"]; ok && attrs["http-equiv"] == "" {
		// <meta content="text/html; charset=x"> without http-equiv is
		// ignored by browsers; so do we.
		_ = c
	}
	return ""
}

func equalFoldStr(a, b string) bool { return bytes.EqualFold([]byte(a), []byte(b)) }

// parseAttrs parses the attributes of a tag "<name a=b c='d' e>".
func parseAttrs(tag []byte) map[string]string {
	m := map[string]string{}
	i := bytes.IndexAny(tag, " \t\n\r\f/")
	if i < 0 {
		return m
	}
	for i < len(tag) {
		for i < len(tag) && (isSpace(tag[i]) || tag[i] == '/') {
			i++
		}
		s := i
		for i < len(tag) && !isSpace(tag[i]) && tag[i] != '=' && tag[i] != '>' && tag[i] != '/' {
			i++
		}
		if i == s {
			break
		}
		key := string(bytes.ToLower(tag[s:i]))
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		val := ""
		if i < len(tag) && tag[i] == '=' {
			i++
			for i < len(tag) && isSpace(tag[i]) {
				i++
			}
			if i < len(tag) && (tag[i] == '"' || tag[i] == '\'') {
				q := tag[i]
				i++
				s := i
				for i < len(tag) && tag[i] != q {
					i++
				}
				val = string(tag[s:i])
				i++
			} else {
				s := i
				for i < len(tag) && !isSpace(tag[i]) && tag[i] != '>' {
					i++
				}
				val = string(tag[s:i])
			}
		}
		if _, dup := m[key]; !dup {
			m[key] = val
		}
	}
	return m
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// entity decodes the character reference at the start of b ("&amp;",
// "&#3627;", "&#x0E2B;"), returning the rune and the bytes consumed, or
// n == 0 if b does not start with a reference.
func entity(b []byte) (rune, int) {
	if len(b) < 3 || b[0] != '&' {
		return 0, 0
	}
	if b[1] == '#' {
		i, base := 2, rune(10)
		if i < len(b) && (b[i] == 'x' || b[i] == 'X') {
			base = 16
			i++
		}
		var r rune
		s := i
		for i < len(b) && i-s < 8 {
			c := b[i]
			var d rune
			switch {
			case c >= '0' && c <= '9':
				d = rune(c - '0')
			case base == 16 && c >= 'a' && c <= 'f':
				d = rune(c-'a') + 10
			case base == 16 && c >= 'A' && c <= 'F':
				d = rune(c-'A') + 10
			default:
				d = -1
			}
			if d < 0 {
				break
			}
			// Saturated: eight hex digits overflowed the rune to a
			// negative number, taken for ASCII below (a review).
			r = min(r*base+d, utf8.MaxRune+1)
			i++
		}
		if i == s {
			return 0, 0
		}
		if i < len(b) && b[i] == ';' {
			i++
		}
		if r == 0 || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
			r = utf8.RuneError
		}
		return r, i
	}
	i := 1
	for i < len(b) && i < 10 && ((b[i] >= 'a' && b[i] <= 'z') || (b[i] >= 'A' && b[i] <= 'Z') || (b[i] >= '0' && b[i] <= '9')) {
		i++
	}
	if r, ok := named[string(b[1:i])]; ok {
		if i < len(b) && b[i] == ';' {
			i++
		}
		return r, i
	}
	return 0, 0
}

// named holds the named references common in web text. Others are left
// as they are.
var named = map[string]rune{
	"amp": '&', "lt": '<', "gt": '>', "quot": '"', "apos": '\'', "nbsp": 0xA0,
	"copy": '©', "reg": '®', "laquo": '«', "raquo": '»', "middot": '·',
	"ndash": '–', "mdash": '—', "hellip": '…', "lsquo": '‘', "rsquo": '’',
	"ldquo": '“', "rdquo": '”', "bull": '•', "euro": '€', "trade": '™',
	"agrave": 'à', "aacute": 'á', "acirc": 'â', "atilde": 'ã', "auml": 'ä', "aring": 'å',
	"aelig": 'æ', "ccedil": 'ç', "egrave": 'è', "eacute": 'é', "ecirc": 'ê', "euml": 'ë',
	"igrave": 'ì', "iacute": 'í', "icirc": 'î', "iuml": 'ï', "ntilde": 'ñ',
	"ograve": 'ò', "oacute": 'ó', "ocirc": 'ô', "otilde": 'õ', "ouml": 'ö', "oslash": 'ø',
	"ugrave": 'ù', "uacute": 'ú', "ucirc": 'û', "uuml": 'ü', "yacute": 'ý', "szlig": 'ß',
	"Agrave": 'À', "Aacute": 'Á', "Acirc": 'Â', "Auml": 'Ä', "Ccedil": 'Ç', "Eacute": 'É',
	"Egrave": 'È', "Ouml": 'Ö', "Uuml": 'Ü', "Ntilde": 'Ñ', "Aring": 'Å', "Oslash": 'Ø',
}

// cutUTF8 shortens b to at most n bytes without splitting a character.
func cutUTF8(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}
