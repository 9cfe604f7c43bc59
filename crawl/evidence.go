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
}

// maxAnchorReads caps the texts read on one page (textLang: anchors and
// the text around links, together): a reading costs 5 to 16 µs of CPU (a
// review; MaxAnchorLen bounds an anchor at 200 bytes, and
// links.MaxContextLen the text around a link at 97), and a directory page
// may hold thousands of links into new servers, each with its own text.
// 256 keep such a page's readings under about 5 ms; the links past them
// are decided on their other cues, in document order.
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
// around it, with the crawl's detector, on the page pg. Nothing ("", 0) when the anchor is too short,
// or when the page is in a language the detector's second stage tells
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
	if len(pg.reads) >= maxAnchorReads {
		return "", 0
	}
	rd := c.readText(pol, pg.lang, text)
	if pg.reads == nil {
		pg.reads = map[string]anchorReading{}
	}
	pg.reads[text] = rd
	return rd.lang, rd.conf
}

func (c *Crawler) readText(pol *focus.Policy, plang, text string) anchorReading {
	if hostLike(text) {
		return anchorReading{}
	}
	letters := 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < minAnchorLetters {
		return anchorReading{}
	}
	for _, t := range pol.Config().Langs {
		if detect.Related(plang, t) || focus.ShareScript(plang, t) {
			return anchorReading{}
		}
	}
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

// hostLike reports whether an anchor is a host name, URL or address
// written out ("www.skanegarden.se", "http://example.dk/"): one word with a
// dot or slash in it. Such a name is read confidently as some language (an
// independent trial: a Swedish host name as Bokmål at 0.98), but it names
// a place, not the language of what is there; the URL's own cues (its
// ccTLD, an IDN label) are read from the URL.
func hostLike(anchor string) bool {
	a := strings.TrimSpace(anchor)
	return a != "" && !strings.ContainsFunc(a, unicode.IsSpace) && strings.ContainsAny(a, "./")
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
