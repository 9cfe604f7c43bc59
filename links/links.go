package links

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/langcrawl/langcrawl/internal/plainurl"
	whatwg "github.com/nlnwa/whatwg-url/url"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
)

// Kind says what a link is for.
type Kind uint8

const (
	// Nav is a link to another page: a[href], area[href], link rel=canonical and the like.
	Nav Kind = iota
	// Frame is frame[src] or iframe[src]: navigation for depth, marked apart.
	Frame
	// Requisite is a resource that replaying the page needs: images, stylesheets,
	// scripts, media, fonts and images named in CSS.
	Requisite
	// Refresh is the target of <meta http-equiv="refresh">, to be treated like a redirect.
	Refresh
)

func (k Kind) String() string {
	switch k {
	case Nav:
		return "nav"
	case Frame:
		return "frame"
	case Requisite:
		return "requisite"
	case Refresh:
		return "refresh"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Link is one link of a page.
type Link struct {
	// URL is absolute (http or https), resolved the WHATWG way, without fragment, and
	// otherwise not normalised.
	URL string
	// Kind is what the link is for.
	Kind Kind
	// Tag and Attr name where the link was found, lowercase: "a" and "href", "img" and
	// "srcset", "style" and "" for a <style> block, "meta" and "content" for a refresh.
	Tag, Attr string
	// NoFollow is set when the element has rel="nofollow".
	NoFollow bool
	// Anchor is the text of an <a> element (its text content up to </a>,
	// tags dropped, white space collapsed, at most MaxAnchorLen bytes cut at
	// a rune boundary), else its title attribute, else the alt text of an
	// image inside it; "" for other elements. Per-link evidence (Tamura
	// 4.1's "per-link attributes") reads it before the link is fetched. For
	// a URL linked twice it is the first non-empty anchor.
	Anchor string
	// Hreflang is the element's hreflang attribute and Lang its lang
	// attribute, as written (trimmed); "" when absent.
	Hreflang, Lang string
	// Context is the text around an <a> element, inside its block (p,
	// li, td, div and the like): up to MaxContextLen bytes of the page's
	// text before it and as many after it (the anchors of other links not
	// included; text between two links is the first one's, as a link
	// list's "Name – description" is, and only what it leaves over the
	// second's),
	// white space collapsed, the two joined by a space; "" for other
	// elements. A link inside a <blockquote> with fewer than 8 letters
	// around it in its block (a citation: "— <a>Source</a>, 2023") has
	// the end of the quotation's text before it instead. A link with
	// fewer than 8 letters around it in its block takes its description
	// from the block that, in a link directory, holds it (describedBy):
	// the other cells of its table row, the <dd> after its <dt>, the line
	// after a <br>, the paragraph after a heading. Per-link evidence reads
	// its script, as the paper's "anchor and surrounding text". For a URL
	// linked twice it is the first occurrence's.
	Context string
}

// MaxAnchorLen bounds Link.Anchor, in bytes.
const MaxAnchorLen = 200

// MaxContextLen bounds each side of Link.Context, in bytes: a line's
// worth (twelve to fifteen words in Latin script, 32 Thai letters). It was
// 48, enough for the script test (a dozen Thai letters); reading a Latin
// text's language needs more words: two independent trial webs had their
// link lists' one-line descriptions, 60 to 90 bytes, cut into readings
// under the confidence that counts ("Catatan relawan perpustakaan
// keliling di des", Indonesian at 0.43; whole, 0.64).
const MaxContextLen = 96

// Page is what Extract found in one page.
type Page struct {
	// Links in document order (first occurrence), at most Options.MaxLinks.
	Links []Link
	// Base is the document base URL the links were resolved against: the first
	// <base href> resolved against the page URL, or the page URL. It is "" when the
	// page URL is nil or not http(s) and the page has no usable <base href>.
	Base string
	// NoFollow and NoIndex are set by <meta name="robots" content="nofollow|noindex|none">.
	NoFollow, NoIndex bool
	// Lang is the lang attribute of the <html> element, trimmed; "" when
	// absent. It is what the page declares its language to be.
	Lang string
	// Truncated is set when MaxLinks cut the list short.
	Truncated bool
	// Invalid are the references that name an http(s) URL, or no scheme,
	// and do not resolve to one the crawler can fetch (a port out of
	// range, a bad host, a broken IPv6 literal), as written, trimmed, at
	// most MaxInvalid: the crawler lists them in the page's metadata as
	// rejected, instead of losing them without a trace (a trap trial).
	Invalid []Link
}

// MaxInvalid bounds Page.Invalid.
const MaxInvalid = 100

// Defaults of Options.
const (
	DefaultMaxLinks   = 10000
	DefaultMaxAttrLen = 32 << 10
)

// Options tune Extract. The zero value uses the defaults.
type Options struct {
	// MaxLinks is the most links returned for one page. Zero or less means
	// DefaultMaxLinks (10,000).
	MaxLinks int
	// MaxAttrLen is the longest attribute value read, in bytes; longer ones are skipped.
	// <style> blocks are not bounded by it. Zero or less means DefaultMaxAttrLen (32 KiB).
	MaxAttrLen int
	// QueryCharset is the page's charset (a WHATWG encoding label, such
	// as "windows-874"): a link's query holding non-ASCII characters is
	// percent-encoded in it, as a browser encodes it (encodeQuery). ""
	// or a UTF one: UTF-8. Before, every query was encoded in UTF-8, so a
	// TIS-620 page's search link was fetched and archived under a URL no
	// browser asks for (a replay review).
	QueryCharset string
}

// parser resolves references the WHATWG way; a stray '%' becomes "%25" so that every
// URL returned parses with net/url too.
var parser = whatwg.NewParser(whatwg.WithPercentEncodeSinglePercentSign())

// Extract returns the links of the HTML page html (UTF-8) fetched from pageURL.
// pageURL may be nil (or not http/https), in which case only absolute links (and those under an absolute
// <base href>) are found. Extract never fails: malformed HTML yields what can be read.
func Extract(pageURL *url.URL, html []byte, opts Options) Page {
	if opts.MaxLinks <= 0 {
		opts.MaxLinks = DefaultMaxLinks
	}
	if opts.MaxAttrLen <= 0 {
		opts.MaxAttrLen = DefaultMaxAttrLen
	}
	var page *whatwg.Url
	if pageURL != nil {
		if u, err := parser.Parse(pageURL.String()); err == nil && baseOK(u) {
			page = u
		}
	}
	x := extractor{opts: opts, open: -1, after: -1}
	x.scan(html)

	base := page
	if x.baseSet {
		var b *whatwg.Url
		var err error
		if page != nil {
			b, err = page.Parse(x.baseRef)
		} else {
			b, err = parser.Parse(x.baseRef)
		}
		if err == nil && baseOK(b) {
			base = b
		}
	}
	var p Page
	p.NoFollow, p.NoIndex, p.Lang = x.noFollow, x.noIndex, x.htmlLang
	if base != nil {
		p.Base = base.Href(true)
	}
	r := resolver{base: base, fast: fastBase(base), max: opts.MaxLinks, index: make(map[linkKey]int), enc: queryEncoding(opts.QueryCharset)}
	for _, c := range x.cands {
		if !r.add(c) {
			p.Truncated = true
			break
		}
	}
	p.Links = r.links
	p.Invalid = r.invalid
	return p
}

// candidate is a reference as written in the page, not yet resolved.
type candidate struct {
	ref            string
	kind           Kind
	tag, attr      string
	noFollow       bool
	anchor         string
	hreflang, lang string
	context        string
}

// extractor walks the tokens of a page and collects candidates.
type extractor struct {
	opts     Options
	cands    []candidate
	seen     map[linkKey]int // index in cands of each reference as written
	baseRef  string
	baseSet  bool
	noFollow bool
	noIndex  bool
	// attrs of the current tag, reused.
	attrs []attr
	// open is the index in cands of the <a> whose text is being read, -1
	// when none; text collects that text.
	open int
	text []byte
	// prev holds the last page text outside anchors, white space
	// collapsed (at most 2*MaxContextLen bytes, of which the last
	// MaxContextLen count); after is the index in cands of the <a> that
	// waits for the text after it, -1 when none; afterText collects that
	// text (up to MaxContextLen bytes), and before is that <a>'s text
	// before it.
	prev      []byte
	after     int
	afterText []byte
	before    string
	htmlLang  string
	// quote is how many <blockquote> elements are open (among elems),
	// and quoteText the last page text inside them (at most
	// 2*MaxContextLen bytes, blocks joined by a space): the context of a
	// link in the quotation's citation (endContext); quoted is that
	// text's end when the waiting <a> opened inside a quotation.
	quote     int
	quoteText []byte
	quoted    string
	// elems are the container elements open (containerTag), innermost
	// last, at most maxElems: an end tag closes what it closes in a
	// browser, a <blockquote> left open inside a table cell included.
	elems []string
	// row is the page text of the table row read so far, cells joined
	// by a space (at most 2*MaxContextLen bytes); rowBefore is its end
	// when the waiting <a> opened, the text before a link alone in its
	// cell. carry is the block a link alone in its own waits for as its
	// description (describedBy), "" when none; described is set once the
	// waiting <a> reads the text of that block, which it takes alone.
	row       []byte
	inRow     bool // a <tr> is open, and no <table> inside it
	rowBefore string
	carry     string
	described bool
	// space is a scratch buffer for collapsing a text token.
	space []byte
}

// maxElems bounds extractor.elems: deeper elements are not tracked, and
// their end tags close nothing.
const maxElems = 256

// containerTag reports whether an element is one whose end closes the
// elements left open inside it (a <blockquote> without its end tag,
// closed by the </td> around it).
func containerTag(name string) bool {
	switch name {
	case "blockquote", "div", "td", "th", "tr", "table", "tbody", "thead", "tfoot", "section",
		"article", "main", "aside", "header", "footer", "nav", "figure", "form", "ul", "ol", "li",
		"dl", "body", "html", "center", "fieldset", "details":
		return true
	}
	return false
}

// openElem records a container element's start tag.
func (x *extractor) openElem(name string) {
	if len(x.elems) < maxElems {
		x.elems = append(x.elems, name)
		if name == "blockquote" {
			x.quote++
		}
	}
}

// closeElem closes the innermost open element named name and those inside
// it; an end tag with no such element open closes nothing.
func (x *extractor) closeElem(name string) {
	i := len(x.elems) - 1
	for i >= 0 && x.elems[i] != name {
		i--
	}
	if i < 0 {
		return
	}
	for _, e := range x.elems[i:] {
		if e == "blockquote" {
			x.quote--
		}
	}
	x.elems = x.elems[:i]
	if x.quote == 0 {
		x.quoteText = x.quoteText[:0]
	}
}

type attr struct{ key, val string }

// full reports whether enough distinct references have been collected. Some are dropped
// when resolved (bad URLs, two spellings of one URL), so the bound is above MaxLinks.
func (x *extractor) full() bool { return len(x.cands) >= 4*x.opts.MaxLinks }

func (x *extractor) scan(doc []byte) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	defer x.endContext()
	defer x.closeAnchor() // an <a> left open at the end of the page
	inStyle := false
	for !x.full() {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return // io.EOF or a tokenizer error: either way, done
		case html.TextToken:
			if inStyle {
				// A <style> block is scanned whatever its size: the scan is linear,
				// and inline stylesheets of 100 KB and more are common.
				x.css(z.Text(), "style", "")
			} else if x.open >= 0 {
				x.anchorText(z.Text())
			} else {
				x.pageText(z.Text())
			}
		case html.EndTagToken:
			inStyle = false
			name, _ := z.TagName()
			if len(name) == 1 && name[0] == 'a' {
				x.closeAnchor()
			} else if blockTag(name) {
				x.endBlock(string(name), false)
			}
			if n := string(name); containerTag(n) {
				x.closeElem(n)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			x.attrs = x.attrs[:0]
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if len(v) > x.opts.MaxAttrLen {
					continue
				}
				x.attrs = append(x.attrs, attr{string(k), string(v)})
			}
			tag := string(name)
			if tag == "a" {
				x.closeAnchor() // <a> does not nest: a new one ends the last
			} else if blockTag(name) {
				x.endBlock(tag, true)
			}
			if tt == html.StartTagToken && containerTag(tag) {
				x.openElem(tag)
			}
			x.tag(tag)
			inStyle = false
			if tt == html.StartTagToken {
				switch tag {
				case "style":
					inStyle = true
				case "noscript", "noframes":
					z.NextIsNotRawText()
				}
			}
		}
	}
}

// get returns the value of the attribute key of the current tag, and whether it is there.
// The first occurrence wins, as in the HTML Standard.
func (x *extractor) get(key string) (string, bool) {
	for _, a := range x.attrs {
		if a.key == key {
			return a.val, true
		}
	}
	return "", false
}

func (x *extractor) add(ref string, kind Kind, tag, attr string, noFollow bool) {
	if x.full() || skipRef(ref) {
		return
	}
	k := linkKey{ref, kind}
	if i, dup := x.seen[k]; dup {
		x.cands[i].noFollow = x.cands[i].noFollow && noFollow
		return
	}
	if x.seen == nil {
		x.seen = make(map[linkKey]int)
	}
	x.seen[k] = len(x.cands)
	c := candidate{ref: ref, kind: kind, tag: tag, attr: attr, noFollow: noFollow}
	if tag == "a" || tag == "area" || tag == "link" {
		c.hreflang = x.trimmed("hreflang")
		c.lang = x.trimmed("lang")
	}
	x.cands = append(x.cands, c)
}

// trimmed returns attribute key of the current tag, trimmed and bounded.
func (x *extractor) trimmed(key string) string {
	v, _ := x.get(key)
	v = strings.TrimSpace(v)
	if len(v) > 35 { // BCP 47 tags in use are short
		return ""
	}
	return v
}

// anchorText appends a text token to the open anchor's text (the
// tokenizer has unescaped it), up to MaxAnchorLen bytes.
func (x *extractor) anchorText(t []byte) {
	if len(x.text) < MaxAnchorLen {
		x.text = append(x.text, t...)
		x.text = append(x.text, ' ')
	}
}

// pageText takes a text token outside anchors, white space collapsed:
// the text after the last <a>, if one waits for it, and the text before
// the next.
func (x *extractor) pageText(raw []byte) {
	x.space = collapseSpace(x.space[:0], raw)
	t := x.space
	if x.quote > 0 {
		x.quoteText = appendTail(x.quoteText, t)
	}
	if x.after >= 0 {
		// What the last link takes as its text after, up to
		// MaxContextLen bytes over as many text tokens as it takes
		// (a description with <b> in it is several), is not the next
		// link's text before: in "A (about A), B (about B)" A's
		// description would read as B's (a review: a Danish line
		// describing one site opened the English site listed next).
		n := headLen(t, MaxContextLen-len(x.afterText))
		if n < len(t) {
			// Cut between words where there is a space to cut at
			// near the end (a space at the start will do once the
			// link has text after it from an earlier token).
			if k := bytes.LastIndexByte(t[:n], ' '); (k > 0 || k == 0 && len(x.afterText) > 0) && n-k <= maxWordCut {
				n = k
			}
		}
		x.afterText = append(x.afterText, t[:n]...)
		t = t[n:]
		if len(t) > 0 {
			x.endContext() // full
		}
	}
	x.prev = appendTail(x.prev, t)
	if x.inRow {
		x.row = appendTail(x.row, t) // what no link before took
	}
}

// collapseSpace appends raw to dst with each run of white space (ASCII,
// and the no-break space of &nbsp;) as one space.
func collapseSpace(dst, raw []byte) []byte {
	space := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || (c == 0xC2 && i+1 < len(raw) && raw[i+1] == 0xA0) {
			if c == 0xC2 {
				i++
			}
			if !space {
				dst = append(dst, ' ')
			}
			space = true
			continue
		}
		space = false
		dst = append(dst, c)
	}
	return dst
}

// blockTag reports whether the element name starts or ends a block of
// text: the text around a link stops there.
func blockTag(name []byte) bool {
	switch string(name) {
	case "p", "li", "div", "td", "th", "tr", "br", "ul", "ol", "dl", "dt", "dd", "table",
		"h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "nav", "header", "footer",
		"blockquote", "pre", "hr", "body", "head", "title":
		return true
	}
	return false
}

// endBlock ends the text around links at a block boundary: the start
// (start) or end tag of the element name. A link alone in its block
// (fewer than minOwnContext letters around it) waits on through the
// boundaries describedBy names for its description.
func (x *extractor) endBlock(name string, start bool) {
	waits := x.after >= 0 && !x.described && (x.carry != "" || fewLetters(x.before, string(x.afterText)))
	if next, open := describedBy(x.carry, name, start); waits && next != "" {
		x.carry, x.described = next, open
	} else {
		x.endContext()
	}
	x.prev = x.prev[:0]
	if x.quote > 0 && len(x.quoteText) > 0 {
		x.quoteText = appendTail(x.quoteText, []byte{' '})
	}
	switch name {
	case "tr", "table":
		x.row = x.row[:0]
		x.inRow = start && name == "tr"
	case "td", "th":
		if len(x.row) > 0 {
			x.row = appendTail(x.row, []byte{' '})
		}
	}
}

// describedBy is how a link alone in its block (a name, a host name, a
// logo) finds its description where link directories write it, apart
// from the link: the next cell of its table row, the <dd> after its <dt>,
// the next line after a <br>, the paragraph after a heading (an
// independent trial's directories wrote "<td><a>Name</a></td><td>what the
// site is</td>" and "Name | description | <a>www.host</a>", and lost
// every such link's text). waiting is what the link waits for ("" at the
// boundary that ends its own block), and name and start the tag met. It
// returns what the link waits for next ("" when the boundary ends its
// context) and whether the description has opened: the link reads the
// text up to the next boundary, and no further.
func describedBy(waiting, name string, start bool) (next string, open bool) {
	switch waiting {
	case "":
		switch {
		case name == "br":
			return "line", true
		case name == "dt" && !start:
			return "dd", false
		case name == "dd" && start: // <dt><a>…</a><dd>, the </dt> implied
			return "dd", true
		case (name == "td" || name == "th") && !start:
			return "cell", false
		case (name == "td" || name == "th") && start: // the </td> implied
			return "cell", true
		case len(name) == 2 && name[0] == 'h' && '1' <= name[1] && name[1] <= '6' && !start:
			return "p", false
		}
	case "dd":
		if name == "dd" && start {
			return "dd", true
		}
	case "cell":
		if (name == "td" || name == "th") && start {
			return "cell", true
		}
	case "p":
		if (name == "p" || name == "div") && start {
			return "p", true
		}
	}
	return "", false
}

// appendTail appends t to buf, keeping at most the last 2*MaxContextLen
// bytes (contextString reads the last MaxContextLen of them), cut at the
// start of a word where there are spaces.
func appendTail(buf, t []byte) []byte {
	if len(t) >= MaxContextLen {
		return append(buf[:0], wordTail(t)...)
	}
	if len(buf)+len(t) > 2*MaxContextLen {
		buf = append(buf[:0], wordTail(buf)...)
	}
	return append(buf, t...)
}

// maxWordCut is the most a cut between words drops (wordTail, pageText):
// a Latin word is shorter, and a longer run without a space is a phrase of
// a script that writes none between its words (a review: a Thai link's
// text before kept "(PDF)" alone).
const maxWordCut = 32

// wordTail is the last MaxContextLen bytes of t, or fewer: from the first
// word that starts in them when a space does (the rest of a word cut in
// two says nothing, and reads as another language), else from the first
// whole character. A t of MaxContextLen bytes or fewer is whole, and
// returned as it is: the buffers it cuts (extractor.prev, quoteText)
// hold whole tokens or what wordTail left.
func wordTail(t []byte) []byte {
	if len(t) <= MaxContextLen {
		return t
	}
	cut := len(t) - MaxContextLen
	midWord := t[cut-1] != ' ' && t[cut] != ' '
	t = t[cut:]
	if midWord {
		// A space with a word after it, near the start: a trailing one
		// (the end of a block) leaves nothing to start at, and one far
		// in is between phrases of a script written without spaces
		// between words (Thai, Chinese), whose text is kept.
		if i := bytes.IndexByte(t, ' '); i >= 0 && i < maxWordCut && i < len(bytes.TrimRight(t, " "))-1 {
			return t[i+1:]
		}
	}
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	return t
}

// minOwnContext is the fewest letters the text around a link in a
// quotation must have to stand as its context: a citation's "—",
// "Source:", "Fonte:" or ", 2023" says nothing, and the quotation itself,
// in the language of the source the citation links to, speaks instead
// (endContext).
const minOwnContext = 8

// fewLetters reports whether the texts hold fewer than minOwnContext
// letters together.
func fewLetters(texts ...string) bool {
	n := 0
	for _, t := range texts {
		for _, r := range t {
			if unicode.IsLetter(r) {
				if n++; n >= minOwnContext {
					return false
				}
			}
		}
	}
	return true
}

// endContext stores the context of the <a> waiting for the text after it
// (afterText).
func (x *extractor) endContext() {
	if x.after < 0 {
		return
	}
	after := contextString(x.afterText, false)
	x.afterText = x.afterText[:0]
	if x.quoted != "" && fewLetters(x.before, after) {
		// A link inside a <blockquote> with next to no text of its own
		// around it: the quotation's citation (<cite>— <a>Source</a>).
		// Its text before is the end of the quotation. A trial web
		// (Portuguese and Bokmål quoted on English pages, the source
		// linked in the citation) lost the quoted servers with the
		// citation's dash as the only text around their links; a link
		// with text of its own in a <blockquote> used for indentation
		// (old layouts: a whole link list in one) keeps its own.
		x.before = x.quoted
	} else if x.rowBefore != "" && fewLetters(x.before, after) {
		// A link alone in its table cell: the cells before it are its
		// name and description ("Name | description | <a>www.host</a>").
		x.before = x.rowBefore
	}
	switch {
	case x.before == "":
		x.cands[x.after].context = after
	case after == "":
		x.cands[x.after].context = x.before
	default:
		x.cands[x.after].context = x.before + " " + after
	}
	x.after, x.before, x.quoted, x.rowBefore = -1, "", "", ""
	x.carry, x.described = "", false
}

// headLen is how many bytes of t its first limit bytes, cut at a rune
// boundary, are.
func headLen[T string | []byte](t T, limit int) int {
	if len(t) <= limit {
		return len(t)
	}
	n := max(0, limit)
	for n > 0 && !utf8.RuneStart(t[n]) {
		n--
	}
	return n
}

// contextString returns the last (tail) or first MaxContextLen bytes of
// t, cut at rune boundaries, white space collapsed.
func contextString(t []byte, tail bool) string {
	if tail {
		t = wordTail(t)
	} else {
		t = t[:headLen(t, MaxContextLen)]
	}
	var buf [2 * MaxContextLen]byte
	return string(bytes.TrimSpace(collapseSpace(buf[:0], t)))
}

// openAnchor starts reading the text of the <a> whose candidate is cand
// (-1: none), unless that candidate has an anchor already.
func (x *extractor) openAnchor(cand int) {
	x.endContext() // the text between the last </a> and this <a> is the last's
	x.open = -1
	x.text = x.text[:0]
	if cand >= 0 && x.cands[cand].anchor == "" {
		x.before = contextString(x.prev, true)
		if x.quote > 0 {
			x.quoted = contextString(x.quoteText, true)
		}
		if x.inRow && len(x.row) > len(x.prev) {
			// Earlier cells of its row hold text; the row's end, which
			// is x.prev's, is what stands before it.
			x.rowBefore = contextString(x.row, true)
		}
		x.prev = x.prev[:0]
		x.open = cand
		if t, ok := x.get("title"); ok {
			x.text = append(x.text, t...) // kept unless the element has text
			x.text = append(x.text, 0)
		}
	}
}

// closeAnchor ends the open anchor and stores its text.
func (x *extractor) closeAnchor() {
	if x.open < 0 {
		return
	}
	txt := x.text
	if k := bytes.IndexByte(txt, 0); k >= 0 { // title, then the text
		if body := anchorString(txt[k+1:]); body != "" {
			x.cands[x.open].anchor = body
		} else {
			x.cands[x.open].anchor = anchorString(txt[:k])
		}
	} else {
		x.cands[x.open].anchor = anchorString(txt)
	}
	x.after = x.open
	x.open = -1
	x.text = x.text[:0]
}

// anchorString collapses white space and bounds the length at a rune boundary.
func anchorString(b []byte) string {
	f := strings.Fields(string(b))
	s := strings.Join(f, " ")
	return s[:headLen(s, MaxAnchorLen)]
}

// addAttr adds the value of attribute key, if present.
func (x *extractor) addAttr(tag, key string, kind Kind, noFollow bool) {
	if v, ok := x.get(key); ok {
		x.add(v, kind, tag, key, noFollow)
	}
}

// addSrcset adds every candidate URL of the srcset attribute key.
func (x *extractor) addSrcset(tag, key string) {
	if v, ok := x.get(key); ok {
		srcset(v, func(ref string) { x.add(ref, Requisite, tag, key, false) })
	}
}

// tag handles one start tag whose attributes are in x.attrs.
func (x *extractor) tag(tag string) {
	rel := relTokens(x)
	nofollow := rel["nofollow"]
	switch tag {
	case "a", "area":
		x.addAttr(tag, "href", Nav, nofollow)
		if tag == "a" {
			cand := -1
			if v, ok := x.get("href"); ok && !skipRef(v) {
				if i, ok := x.seen[linkKey{v, Nav}]; ok {
					cand = i
				}
			}
			x.openAnchor(cand)
		}
	case "html":
		if x.htmlLang == "" {
			x.htmlLang = x.trimmed("lang")
		}
	case "base":
		if v, ok := x.get("href"); ok && !x.baseSet {
			x.baseRef, x.baseSet = v, true
		}
	case "frame", "iframe":
		x.addAttr(tag, "src", Frame, false)
	case "img":
		if x.open >= 0 {
			if alt, ok := x.get("alt"); ok {
				x.anchorText([]byte(alt))
			}
		}
		x.addAttr(tag, "src", Requisite, false)
		x.addSrcset(tag, "srcset")
		x.addAttr(tag, "data-src", Requisite, false)
		x.addSrcset(tag, "data-srcset")
	case "source":
		x.addAttr(tag, "src", Requisite, false)
		x.addSrcset(tag, "srcset")
	case "link":
		switch {
		case rel["stylesheet"], rel["icon"], rel["apple-touch-icon"], rel["apple-touch-icon-precomposed"],
			rel["mask-icon"], rel["manifest"], rel["preload"], rel["modulepreload"]:
			x.addAttr(tag, "href", Requisite, nofollow)
		case rel["canonical"], rel["alternate"], rel["next"], rel["prev"]:
			x.addAttr(tag, "href", Nav, nofollow)
		}
	case "script", "audio", "embed", "track":
		x.addAttr(tag, "src", Requisite, false)
	case "video":
		x.addAttr(tag, "src", Requisite, false)
		x.addAttr(tag, "poster", Requisite, false)
	case "object":
		x.addAttr(tag, "data", Requisite, false)
	case "input":
		if t, _ := x.get("type"); strings.EqualFold(strings.TrimSpace(t), "image") {
			x.addAttr(tag, "src", Requisite, false)
		}
	case "image": // inside <svg>
		x.addAttr(tag, "href", Requisite, false)
		x.addAttr(tag, "xlink:href", Requisite, false)
	case "meta":
		x.meta()
	}
	x.addAttr(tag, "background", Requisite, false)
	if v, ok := x.get("style"); ok {
		x.css([]byte(v), tag, "style")
	}
}

// relTokens returns the set of space-separated, lowercased rel values of the current tag.
func relTokens(x *extractor) map[string]bool {
	v, ok := x.get("rel")
	if !ok || strings.TrimSpace(v) == "" {
		return nil
	}
	m := make(map[string]bool, 2)
	for _, f := range strings.Fields(strings.ToLower(v)) {
		m[f] = true
	}
	return m
}

// meta handles <meta name=robots> and <meta http-equiv=refresh>.
func (x *extractor) meta() {
	content, ok := x.get("content")
	if !ok {
		return
	}
	if name, _ := x.get("name"); strings.EqualFold(strings.TrimSpace(name), "robots") {
		for _, d := range strings.FieldsFunc(strings.ToLower(content), func(r rune) bool {
			return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
		}) {
			switch d {
			case "nofollow":
				x.noFollow = true
			case "noindex":
				x.noIndex = true
			case "none":
				x.noFollow, x.noIndex = true, true
			}
		}
	}
	if eq, _ := x.get("http-equiv"); strings.EqualFold(strings.TrimSpace(eq), "refresh") {
		if ref, ok := refreshURL(content); ok {
			x.add(ref, Refresh, "meta", "content", false)
		}
	}
}

// css adds the url(...) and @import references of a stylesheet fragment.
func (x *extractor) css(css []byte, tag, attr string) {
	cssRefs(css, func(ref string) bool {
		x.add(ref, Requisite, tag, attr, false)
		return !x.full()
	})
}

// skipRef reports whether ref can never be an http(s) link to another resource:
// empty, fragment-only, or of a scheme the crawler does not fetch.
func skipRef(ref string) bool {
	ref = strings.TrimLeft(ref, " \t\n\r\f\x00")
	if ref == "" || ref[0] == '#' {
		return true
	}
	i := strings.IndexByte(ref, ':')
	if i <= 0 || i > 10 {
		return false
	}
	switch strings.ToLower(ref[:i]) {
	case "javascript", "mailto", "tel", "data", "about", "blob", "sms", "callto", "skype", "whatsapp":
		return true
	}
	return false
}

// linkKey identifies a link for de-duplication.
type linkKey struct {
	url  string
	kind Kind
}

// resolver turns candidates into Links.
type resolver struct {
	enc     encoding.Encoding // the queries' encoding; nil for UTF-8
	base    *whatwg.Url
	fast    *url.URL // base for fastResolve; nil when it does not apply
	max     int
	links   []Link
	index   map[linkKey]int
	invalid []Link
}

// namesHTTP reports whether ref names an http(s) URL or has no scheme,
// what a failed resolution loses a link of (skipRef has left out the
// schemes never fetched).
func namesHTTP(ref string) bool {
	ref = strings.TrimLeft(ref, " \t\n\r\f\x00")
	i := strings.IndexByte(ref, ':')
	if i <= 0 || strings.ContainsAny(ref[:i], "/?#") {
		return true
	}
	s := strings.ToLower(ref[:i])
	return s == "http" || s == "https"
}

// add resolves c and appends it; it returns false when the list is full.
func (r *resolver) add(c candidate) bool {
	if r.enc != nil {
		c.ref = encodeQuery(c.ref, r.enc)
	}
	abs, ok := fastResolve(r.fast, c.ref)
	if !ok {
		abs, ok = fastAbsolute(c.ref)
	}
	if !ok {
		abs, ok = resolve(r.base, c.ref)
	}
	if !ok {
		if len(r.invalid) < MaxInvalid && namesHTTP(c.ref) {
			r.invalid = append(r.invalid, Link{URL: strings.TrimSpace(c.ref), Kind: c.kind, Tag: c.tag, Attr: c.attr})
		}
		return true
	}
	k := linkKey{abs, c.kind}
	if i, dup := r.index[k]; dup {
		l := &r.links[i]
		l.NoFollow = l.NoFollow && c.noFollow
		if l.Anchor == "" {
			l.Anchor = c.anchor
		}
		if l.Hreflang == "" {
			l.Hreflang = c.hreflang
		}
		if l.Lang == "" {
			l.Lang = c.lang
		}
		if l.Context == "" {
			l.Context = c.context
		}
		return true
	}
	if len(r.links) >= r.max {
		return false
	}
	r.index[k] = len(r.links)
	r.links = append(r.links, Link{URL: abs, Kind: c.kind, Tag: c.tag, Attr: c.attr, NoFollow: c.noFollow,
		Anchor: c.anchor, Hreflang: c.hreflang, Lang: c.lang, Context: c.context})
	return true
}

// Resolve resolves ref, a URL reference from outside a page (an HTTP
// Location header), against the absolute URL base, the WHATWG way, as a
// browser follows a redirect: tabs and line breaks are dropped, a
// backslash is a slash, spaces are percent-encoded. It returns the absolute
// URL without fragment, and false if ref is empty or does not resolve to an
// http(s) URL.
func Resolve(base, ref string) (string, bool) {
	if strings.Trim(ref, " \t\n\r\f\x00") == "" {
		return "", false
	}
	b, err := parser.Parse(base)
	if err != nil {
		return "", false
	}
	return resolve(b, ref)
}

// A reference resolved the WHATWG way (one fastResolve and fastAbsolute
// do not take: with "//", "%", a backslash or a non-ASCII byte) is refused
// when longer than maxRefLen or holding more than maxRefSlashes slashes.
// The WHATWG library builds a path by copying it once a segment, so a
// reference of 30,000 slashes cost 340 ms and 478 MB, and a page of them
// 26 s and 89 GB (a review; a typical 5 MB page takes 193 ms and 52 MB).
// Under both bounds a page allocates at most about 50 bytes an input byte
// in paths. No URL the crawl keeps comes near them: scope refuses one over
// scope.max_url_length (2,048 bytes by default).
const (
	maxRefLen     = 8 << 10
	maxRefSlashes = 100
)

// resolve resolves ref against base (nil: ref must be absolute) and returns the absolute
// URL without fragment, if it is http(s) and net/url can parse it.
func resolve(base *whatwg.Url, ref string) (string, bool) {
	if len(ref) > maxRefLen || strings.Count(ref, "/")+strings.Count(ref, `\`) > maxRefSlashes {
		return "", false
	}
	var u *whatwg.Url
	var err error
	if base != nil {
		u, err = base.Parse(ref)
	} else {
		u, err = parser.Parse(ref)
	}
	if err != nil || !isHTTP(u) {
		return "", false
	}
	s := u.Href(true)
	if pu, err := url.Parse(s); err != nil || pu.Port() == "0" {
		// Port 0 is no port a server listens on; with connect_to "*"
		// it became a second copy of a site, with a budget of its own
		// (a trap trial).
		return "", false
	}
	return s, true
}

// baseOK reports whether u may be a page's base URL: http(s), and one
// net/url parses as it does every link resolved against it (resolve).
// FuzzExtract found a page URL "http:}" that the WHATWG parser reads as
// host "}", given back as Page.Base "http://}/", which net/url rejects.
func baseOK(u *whatwg.Url) bool {
	if !isHTTP(u) {
		return false
	}
	_, err := url.Parse(u.Href(true))
	return err == nil
}

func isHTTP(u *whatwg.Url) bool {
	s := u.Scheme()
	return (s == "http" || s == "https") && u.Hostname() != ""
}

// fastBase returns base as a net/url URL for fastResolve, or nil when base
// is nil or could read differently under RFC 3986 than under the WHATWG
// parser: percent-escapes, user info, or any other difference in how the
// two print it.
func fastBase(base *whatwg.Url) *url.URL {
	if base == nil {
		return nil
	}
	href := base.Href(true)
	if strings.IndexByte(href, '%') >= 0 {
		return nil
	}
	u, err := url.Parse(href)
	// Empty path segments ("a//b") are kept by WHATWG and merged by
	// RFC 3986's dot-segment removal.
	if err != nil || u.User != nil || u.Opaque != "" || u.String() != href || strings.Contains(u.Path, "//") {
		return nil
	}
	return u
}

// fastResolve resolves the commonest kind of reference, a relative path
// and query of plain characters ("page2.html", "../a/b?x=1&y=2"), with
// net/url's RFC 3986 resolution instead of the WHATWG parser, which cost
// more than anything else in link extraction. For such references over
// such a base (fastBase) the two give the same string; FuzzFastResolve
// checks that. ok is false when the reference is not of that kind, and
// resolve must decide.
func fastResolve(base *url.URL, ref string) (abs string, ok bool) {
	if base == nil || ref == "" || strings.Contains(ref, "//") {
		return "", false
	}
	for i := 0; i < len(ref); i++ {
		if !plainurl.RefByte(ref[i]) { // nothing either parser escapes or rewrites
			return "", false
		}
	}
	path, query, hasQuery := strings.Cut(ref, "?")
	r := url.URL{Path: path, RawQuery: query, ForceQuery: hasQuery && query == ""}
	return base.ResolveReference(&r).String(), true
}
