package crawl

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/links"
)

// linkPage is what the links of one page are decided with beside their
// own attributes: the language the page declares (decl: Content-Language,
// else <html lang>), the language it was read as (lang), and the anchor
// texts and texts around links already read on it (reads, by text), so
// that a link list's repeated "Visit their website" is read once.
type linkPage struct {
	decl, lang string
	reads      map[string]anchorReading
	detections int // texts given to the detector (maxAnchorReads)
}

// maxAnchorReads caps the detections on one page (textLang: anchors and
// the text around links, together; a text not worth reading, such as a
// host name or one under minAnchorLetters, takes none): a reading costs 7
// to 27 µs of CPU (BenchmarkAnchorRead; MaxAnchorLen bounds an anchor at
// 200 bytes, and links.MaxContextLen the text around a link at 193), and
// a directory page may hold thousands of links into new servers, each
// with its own text. 256 keep such a page's readings under about 7 ms;
// the links past them are decided on their other cues, in document order.
const maxAnchorReads = 256

// anchorReading is one text's reading (textLang).
type anchorReading struct {
	lang string
	conf float64
}

// decideNav decides a navigation link under the focusing policy. The
// evidence strategy (and the sequential one with focus.link_evidence)
// scores the link's own evidence first (focus.Policy.Score: anchor text
// and the text around it, hreflang and lang, the canonical URL's cues,
// and the language the page declares); the paper's strategies decide on
// the counters alone, and pay nothing for the score. For a target without
// a script of its own the anchor of a link from a page in another
// language is read too (textLang), only where the reading can change
// the decision: into a server never fetched or judged irrelevant, when
// the link's other cues are short of Strong and its lang attribute and
// script say nothing (focus.Policy.AnchorSilent). Where the anchor's
// reading leaves the link short of Strong too, the text around the link
// is read the same way (focus.Policy.ContextSilent): a host name or
// "Website" as the anchor, with a line about the site beside it.
func (c *Crawler) decideNav(pol *focus.Policy, relevant bool, pg *linkPage, src, dest focus.Counts, u *url.URL, ln links.Link) focus.Verdict {
	if !pol.ReadsLinks() {
		return pol.Decide(relevant, src, dest, false)
	}
	l := focus.Link{URL: u.String(), Anchor: ln.Anchor, Hreflang: ln.Hreflang, Lang: ln.Lang,
		Context: ln.Context, PageLang: pg.decl, FromTarget: relevant}
	s := pol.Score(l)
	if s < focus.Strong && !relevant && pol.ReadsAnchorText() && pol.AnchorSilent(l) &&
		(dest.Downloaded == 0 || pol.Status(dest) == focus.Irrelevant) {
		if l.AnchorLang, l.AnchorConfidence = c.textLang(pol, pg, ln.Anchor); l.AnchorLang != "" {
			s = pol.Score(l)
		}
		if s < focus.Strong && pol.ContextSilent(l) {
			if l.ContextLang, l.ContextConfidence = c.textLang(pol, pg, ln.Context); l.ContextLang != "" {
				s = pol.Score(l)
			}
		}
	}
	return pol.DecideLink(relevant, src, dest, false, s)
}

// minAnchorLetters is the fewest letters an anchor, or the text around a
// link, must have to be read (textLang): "Home", "Blog", "Link" and a
// price say nothing, and are not worth a detection.
const minAnchorLetters = 8

// textLang reads the language of a link's anchor text, or of the text
// around it, with the crawl's detector, on the page pg. Nothing ("", 0)
// when the text is too short once host names are left out (readable), or
// when the page is in a language the detector's second stage tells
// from a target (detect.Related: a Bokmål page's anchors for a Danish
// crawl) or one written in the target's shared script (focus.ShareScript:
// a Japanese page's kanji names read as Chinese): between such neighbours
// a few words decide nothing. The confidence is the reading's, or, when
// it was decided against a language that is not a target (Result.Rival),
// that decision's if lower, as a page's close call is read (a Nynorsk
// phrase read as Danish at 0.955 was so only at 0.41 against Bokmål).
func (c *Crawler) textLang(pol *focus.Policy, pg *linkPage, text string) (string, float64) {
	if rd, ok := pg.reads[text]; ok {
		return rd.lang, rd.conf
	}
	var rd anchorReading
	if read := readable(text); read != "" && !neighbourPage(pol, pg.lang) {
		if pg.detections >= maxAnchorReads {
			return "", 0 // not cached: the cap, not the text, said nothing
		}
		pg.detections++
		rd = c.readText(pol, read)
	}
	if pg.reads == nil {
		pg.reads = map[string]anchorReading{}
	}
	pg.reads[text] = rd
	return rd.lang, rd.conf
}

// readable is text without its host names, URLs and addresses
// (hostWord), "" when what is left has fewer than minAnchorLetters
// letters: such a name is read confidently as some language (an
// independent trial: a Swedish host name as Bokmål at 0.98), but it names
// a place, not the language of what is there; the URL's own cues (its
// ccTLD, an IDN label) are read from the URL. A review found the names
// read when written beside a link ("Website – www.skanegarden.se").
func readable(text string) string {
	var b strings.Builder
	letters := 0
	for w := range strings.FieldsSeq(text) {
		if hostWord(w) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	if letters < minAnchorLetters {
		return ""
	}
	return b.String()
}

// neighbourPage reports whether a page in language plang is in a close
// neighbour of a target (detect.Related) or in its shared script
// (focus.ShareScript), where a few words decide nothing.
func neighbourPage(pol *focus.Policy, plang string) bool {
	for _, t := range pol.Config().Langs {
		if detect.Related(plang, t) || focus.ShareScript(plang, t) {
			return true
		}
	}
	return false
}

// readText reads text (readable) with the crawl's detector.
func (c *Crawler) readText(pol *focus.Policy, text string) anchorReading {
	r := c.p.Detector.Detect([]byte(text), "text/plain; charset=utf-8")
	if r.Lang == "und" {
		return anchorReading{}
	}
	rd := anchorReading{lang: r.Lang, conf: r.Confidence}
	if r.Tag != "" {
		rd.lang = r.Tag
	}
	if r.Rival != "" && !pol.IsTarget(r.Rival) {
		rd.conf = min(rd.conf, r.RivalConfidence)
	}
	return rd
}

// hostWord reports whether a word is a host name, URL, path or e-mail
// address: a dot, slash or @ between two letters or digits
// ("skanegarden.se", "http://x.dk/", "post@x.no"), not a sentence's
// closing stop ("sker.") or a lone slash.
func hostWord(w string) bool {
	for i := 1; i+1 < len(w); i++ {
		if c := w[i]; (c == '.' || c == '/' || c == '@') && alnum(w[i-1]) && (alnum(w[i+1]) || w[i+1] == '/') {
			return true
		}
	}
	return false
}

// alnum reports whether b is an ASCII letter or digit, or a byte of a
// multi-byte UTF-8 character (IDN labels).
func alnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// declaredLang is the language a page declares: the first tag of its
// Content-Language header (RFC 9110, 8.5: a list, "intended audience"),
// else its <html lang>; "" for none.
func declaredLang(contentLanguage, htmlLang string) string {
	if contentLanguage != "" {
		first, _, _ := strings.Cut(contentLanguage, ",")
		if first = strings.TrimSpace(first); first != "" && len(first) <= 35 {
			return first
		}
	}
	return htmlLang
}
