package crawl

import (
	"net/url"
	"strings"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/links"
)

// decideNav decides a navigation link under the focusing policy. The
// evidence strategy (and the sequential one with focus.link_evidence) scores the link's own evidence first (focus.Policy.Score:
// anchor text and the text around it, hreflang and lang, the canonical
// URL's cues, and decl, the language the page holding the link declares);
// the paper's strategies decide on the counters alone, and pay nothing for
// the score.
func (c *Crawler) decideNav(pol *focus.Policy, relevant bool, decl string, src, dest focus.Counts, u *url.URL, ln links.Link) focus.Verdict {
	if !pol.ReadsLinks() {
		return pol.Decide(relevant, src, dest, false)
	}
	s := pol.Score(focus.Link{URL: u.String(), Anchor: ln.Anchor, Hreflang: ln.Hreflang, Lang: ln.Lang,
		Context: ln.Context, PageLang: decl, FromTarget: relevant})
	return pol.DecideLink(relevant, src, dest, false, s)
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
