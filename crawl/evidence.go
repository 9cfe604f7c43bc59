package crawl

import (
	"net/url"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/links"
)

// decideNav decides a navigation link under the focusing policy. The
// evidence strategy scores the link's own evidence first (focus.Policy.Score:
// anchor text, hreflang and lang, the canonical URL's cues); the paper's
// strategies decide on the counters alone, and pay nothing for the score.
func (c *Crawler) decideNav(pol *focus.Policy, relevant bool, src, dest focus.Counts, u *url.URL, ln links.Link) focus.Verdict {
	if pol.Strategy() != focus.Evidence {
		return pol.Decide(relevant, src, dest, false)
	}
	s := pol.Score(focus.Link{URL: u.String(), Anchor: ln.Anchor, Hreflang: ln.Hreflang, Lang: ln.Lang, FromTarget: relevant})
	return pol.DecideLink(relevant, src, dest, false, s)
}
