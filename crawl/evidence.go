package crawl

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/links"
)

// decideNav decides a navigation link under the focusing policy. The
// evidence strategy (and the sequential one with focus.link_evidence) scores the link's own evidence first (focus.Policy.Score:
// anchor text and the text around it, hreflang and lang, the canonical
// URL's cues, and decl, the language the page holding the link declares);
// the paper's strategies decide on the counters alone, and pay nothing for
// the score. plang is the language the page was read as; for a target
// without a script of its own, the anchor of a link from a page in
// another language is read too (anchorLang), where the reading can change
// the decision: into a server never fetched or judged irrelevant.
func (c *Crawler) decideNav(pol *focus.Policy, relevant bool, decl, plang string, src, dest focus.Counts, u *url.URL, ln links.Link) focus.Verdict {
	if !pol.ReadsLinks() {
		return pol.Decide(relevant, src, dest, false)
	}
	l := focus.Link{URL: u.String(), Anchor: ln.Anchor, Hreflang: ln.Hreflang, Lang: ln.Lang,
		Context: ln.Context, PageLang: decl, FromTarget: relevant}
	if !relevant && (dest.Downloaded == 0 || pol.Status(dest) == focus.Irrelevant) && pol.ReadsAnchorText() {
		l.AnchorLang, l.AnchorConfidence = c.anchorLang(pol, plang, ln.Anchor)
	}
	return pol.DecideLink(relevant, src, dest, false, pol.Score(l))
}

// minAnchorLetters is the fewest letters an anchor must have to be read
// (anchorLang): "Home", "Blog", "Link" and a price say nothing, and are
// not worth a detection.
const minAnchorLetters = 8

// anchorLang reads the language of a link's anchor text with the crawl's
// detector, for a page read as plang. Nothing ("", 0) when the anchor is
// too short, when plang is a language the detector's second stage tells
// from a target (detect.Related: a Bokmål page's anchors for a Danish
// crawl), or when the anchor reads as the page's own language's rival:
// between close neighbours a few words decide nothing.
func (c *Crawler) anchorLang(pol *focus.Policy, plang, anchor string) (string, float64) {
	letters := 0
	for _, r := range anchor {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < minAnchorLetters {
		return "", 0
	}
	for _, t := range pol.Config().Langs {
		if detect.Related(plang, t) {
			return "", 0
		}
	}
	r := c.p.Detector.Detect([]byte(anchor), "text/plain; charset=utf-8")
	if r.Lang == "und" || (plang != "" && detect.Related(r.Rival, plang)) {
		return "", 0
	}
	lang := r.Lang
	if r.Tag != "" {
		lang = r.Tag
	}
	return lang, r.Confidence
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
