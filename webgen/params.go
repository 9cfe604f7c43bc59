package webgen

import (
	"errors"
	"fmt"
)

// ErrParams is wrapped by every error Generate returns for bad Params.
var ErrParams = errors.New("webgen: invalid params")

// Params describes a synthetic web. The zero value is not useful; start from
// SimulatorDefaults or DemoDefaults and change fields. Shares are
// probabilities in [0, 1]. The link shares are per link and follow the
// columns of Tamura et al. 2007, Tables 4 and 5 (target language "th").
type Params struct {
	// Seed makes the graph: the same Params give the same graph and bytes.
	Seed int64

	// Servers is the number of generated servers (special demo hosts come on top).
	Servers int
	// MeanPagesPerServer is the mean of the lognormal page count of a
	// non-target server (default 20).
	MeanPagesPerServer float64
	// PagesSigma is the sigma of that lognormal; larger is more heavy-tailed
	// (default 1.2).
	PagesSigma float64
	// MaxPagesPerServer caps one server's page count (default 50,000).
	MaxPagesPerServer int
	// TargetSizeFactor multiplies the mean page count of target servers.
	// With the other defaults, 2.8 gives Tamura's 9.4% target pages from 4.6%
	// target servers (default 2.8).
	TargetSizeFactor float64

	// TargetLang is the language the crawl looks for (default "th").
	TargetLang string
	// OtherLangs are the languages of non-target servers, chosen uniformly
	// unless OtherLangWeights is set (same length).
	OtherLangs       []string
	OtherLangWeights []float64
	// ForeignLang is the language of the non-target pages on target servers
	// (default "en").
	ForeignLang string

	// TargetServerShare is the share of servers that hold target pages
	// (Tamura §2.3: 4.6%).
	TargetServerShare float64
	// TargetServerForeignShare is the share of pages of a target server that
	// are in ForeignLang. The home page is always in TargetLang. Default
	// 0.177, from Tamura Table 4: 7.17M links leave non-Thai pages on Thai
	// servers (1.54M + 5.63M) and 33.41M leave Thai pages (23.98M + 9.43M);
	// with the same out-degree for both, non-Thai pages are
	// 7.17 / (7.17 + 33.41) = 17.7% of the pages on Thai servers.
	TargetServerForeignShare float64
	// LangDirShare is the share of target servers that keep their pages in a
	// directory per language (/th/, /en/) (default 0.3).
	LangDirShare float64

	// MeanOutDegree is the mean number of links drawn per page (Tamura
	// §3.1: 123.8M edges over 18.3M crawled pages, ~6.7). Duplicates that
	// cannot be replaced are dropped, so the realised mean is a few percent
	// lower (about 6.2 with the defaults).
	MeanOutDegree float64
	// HomeLinkShare is the chance that an inter-server link points at the
	// destination server's home page rather than a random page (default 0.3).
	HomeLinkShare float64
	// PreferentialShare is the chance that an inter-server link copies the
	// destination server of an earlier inter-server link (preferential
	// attachment, giving hubs); otherwise the server is drawn in proportion
	// to its size (default 0.5).
	PreferentialShare float64
	// HubShare is the share of non-target servers ("hubs") that receive the
	// inter-server links leaving target servers for non-target servers,
	// dead ones included. 0 lets those links go to any non-target server.
	// Tables 4 and 5 give the language shares of links but not how
	// concentrated their destinations are; on the real web links from a
	// national web to foreign servers pile up on a few popular servers
	// (portals, search engines, software vendors, standards bodies), the
	// in-degree of servers being heavy-tailed (Broder et al. 2000). Default
	// 0.01: about 950 hubs for 4,600 target servers on the simulator web, a
	// fifth of a hub per target server. This is an assumption, not a figure
	// of the paper; simulate/RESULTS.md shows how the results move with it.
	HubShare float64
	// HubPreferentialShare is PreferentialShare inside the hub pool: the
	// chance that a link to a hub copies the hub of an earlier such link, so
	// that a few hubs get most links (default 0.8).
	HubPreferentialShare float64
	// HubHomeLinkShare is HomeLinkShare for links to hubs: popular servers
	// are mostly linked by their home page (default 0.6).
	HubHomeLinkShare float64
	// DeadLinkShare is the share of links that point at pages that do not
	// exist (404) (default 0.02).
	DeadLinkShare float64

	// Table 4, row "Thai page".
	TargetToTarget      float64 // links from target pages that go to target pages (0.718)
	TargetToTargetInter float64 // of those, inter-server (3.83M/23.98M = 0.16)
	TargetToOtherInter  float64 // of target→non-target links, inter-server (6.42M/9.43M = 0.68)

	// Table 4, row "Non-Thai page (in Thai server)".
	MixedToTarget      float64 // links from non-target pages on target servers to target pages (0.215)
	MixedToTargetInter float64 // of those, inter-server (0.79M/1.54M = 0.51)
	MixedToOtherInter  float64 // of links to non-target pages, inter-server (1.45M/5.63M = 0.26)

	// Table 4, row "Non-Thai page (in Non-Thai server)". Its links to target
	// pages are all inter-server.
	OtherToTarget     float64 // links to target pages (0.002)
	OtherToOtherInter float64 // of links to non-target pages, inter-server (24.7M/48.1M = 0.51)

	// Table 5. An inter-server link from a page on a target server to a
	// non-target page lands on a target server's ForeignLang pages with this
	// chance (default 0.35, which with the shares above gives Table 5's
	// 87.4% of links from target servers staying on target servers).
	TargetServerForeignLinkShare float64
	// The same chance for pages on non-target servers (default 0.008, giving
	// Table 5's 0.5% of links from non-target servers to target servers).
	OtherServerForeignLinkShare float64

	// What anchors say (issue 9, part 3). Each link's anchor text is, by a
	// draw fixed per link: in the destination page's language with chance
	// AnchorDestShare, in the source page's language with AnchorSrcShare,
	// the destination's URL with AnchorURLShare, and otherwise a word that
	// says nothing ("more"). All 0 (the default) keeps the generator's
	// first rendering: Graph.Anchor is then in the source page's language,
	// as the demo pages write it. The sum must not exceed 1. Assumed: the
	// paper measures no anchor texts.
	AnchorDestShare, AnchorSrcShare, AnchorURLShare float64
	// HiddenTargetShare is the share of target servers (never a seed) that
	// no target server links to: their in-links come only from non-target
	// servers, as for the Thai pages of Tamura Fig. 2 reachable only
	// through non-Thai pages. Default 0. Assumed.
	HiddenTargetShare float64
	// TargetCCTLDShare and OtherCCTLDShare put that share of the target and
	// of the non-target servers under the target language's ccTLD (.th for
	// Thai, .la for Lao). Tamura Table 1: 34% of the Thai pages and 1.6%
	// of the others are under .th. When either is above 0, host names no
	// longer carry the server's language ("s12-news.co.th", "s13-shop.com");
	// both 0 (the default) keeps "th-news12.test".
	TargetCCTLDShare, OtherCCTLDShare float64

	// Multilingual target servers (issue 9, part 3), 0 by default.
	// ForeignHomeShare is the share of the target servers with language
	// directories (LangDirShare) whose home page is in ForeignLang, their
	// target pages under /th/: the Thai hospital of Tamura 3.3, "with the
	// home page in English". HostingShare is the share of target servers
	// that are hosting servers: a home page in ForeignLang and the pages
	// in per-user directories /~u0/, /~u1/, ... of 8 pages each, each
	// user's in one language, 70% of the pages in ForeignLang (Tamura 4.3:
	// "Web sites that host a variety of users ... organize separate
	// directory hierarchies for each language or user"). Both assumed;
	// both drawn per server from no shared generator.
	ForeignHomeShare, HostingShare float64
	// HostingUsersLinkOut is the share of a hosting server's foreign users
	// whose pages link as the pages of a foreign server do (Tamura Table
	// 4's row for other servers); the rest link as the foreign pages of a
	// target server do (its mixed row), as all did before it. A foreign
	// user of a hosting server is another publisher, not a target site's
	// English section: an independent trial's web, whose foreign users
	// linked out like foreign sites, found a hosting server relevant for
	// one Thai user opening most of the foreign web. 0 by default;
	// assumed.
	HostingUsersLinkOut float64

	// Per-link and per-page evidence (issue 9, part 4), 0 by default; the
	// simulator renders them, Graph.Hreflang, LinkContext and DeclaredLang
	// give them. HreflangShare is the share of links that carry an
	// hreflang attribute naming the destination page's language.
	// ContextWords is the number of words of text rendered either side of
	// each link's anchor (0: none); ContextDestShare the share of links
	// whose surrounding text is in the destination page's language (a
	// description of it), the rest being in the source page's. LangDeclShare
	// is the share of servers that declare a language (Content-Language and
	// <html lang>) on every page: that of their home page, as a site-wide
	// template does. All assumed: the paper measures none of them.
	HreflangShare    float64
	ContextWords     int
	ContextDestShare float64
	LangDeclShare    float64

	// Seeds is the number of seed pages: the home pages of the target servers
	// with the most inter-server in-links (Tamura used 3).
	Seeds int

	// Special adds the demo's special hosts (robots, redirects, traps, slow
	// and odd responses); see the table in the package documentation.
	Special bool
	// CoverDecl assigns charset declaration cases to target servers in turn,
	// so that a small web has every case; otherwise they follow a fixed
	// realistic mix.
	CoverDecl bool
}

// SimulatorDefaults returns the large web for `langcrawl simulate`: 100,000
// servers, about 2.3 million pages and 14 million links (2,297,273 and 14.3M
// with the default seed), target "th".
func SimulatorDefaults() Params {
	return Params{
		Seed:                         1,
		Servers:                      100_000,
		MeanPagesPerServer:           20,
		PagesSigma:                   1.2,
		MaxPagesPerServer:            50_000,
		TargetSizeFactor:             2.8,
		TargetLang:                   "th",
		OtherLangs:                   []string{"en", "ja", "zh", "ko", "ru", "de", "fr", "es", "vi", "id", "lo"},
		OtherLangWeights:             []float64{44, 8, 8, 5, 6, 6, 6, 6, 4, 4, 1},
		ForeignLang:                  "en",
		TargetServerShare:            0.046,
		TargetServerForeignShare:     0.177,
		LangDirShare:                 0.3,
		MeanOutDegree:                6.7,
		HomeLinkShare:                0.3,
		PreferentialShare:            0.5,
		HubShare:                     0.01,
		HubPreferentialShare:         0.8,
		HubHomeLinkShare:             0.6,
		DeadLinkShare:                0.02,
		TargetToTarget:               0.718,
		TargetToTargetInter:          0.16,
		TargetToOtherInter:           0.68,
		MixedToTarget:                0.215,
		MixedToTargetInter:           0.51,
		MixedToOtherInter:            0.26,
		OtherToTarget:                0.002,
		OtherToOtherInter:            0.51,
		TargetServerForeignLinkShare: 0.35,
		OtherServerForeignLinkShare:  0.008,
		Seeds:                        3,
	}
}

// DemoDefaults returns the small web that `langcrawl demo` serves and the
// end-to-end tests crawl: 30 generated servers (a third of them Thai, so
// that a crawl finds something) plus the special hosts, about 1,000 pages.
func DemoDefaults() Params {
	p := SimulatorDefaults()
	p.Servers = 30
	p.MeanPagesPerServer = 22
	p.PagesSigma = 0.6
	p.MaxPagesPerServer = 150
	p.TargetSizeFactor = 1.5
	p.TargetServerShare = 0.34
	p.OtherLangs = []string{"en", "ja", "zh", "ko", "ru", "de", "fr", "es", "vi", "id", "lo"}
	p.OtherLangWeights = nil
	p.LangDirShare = 0.25
	p.Seeds = 2
	p.Special = true
	p.CoverDecl = true
	// The demo web keeps the generator's first shape, which its end-to-end
	// floors were measured on: a fifth foreign pages on target servers, and
	// links from target servers to any non-target server (20 non-target
	// servers are too few for a hub pool).
	p.TargetServerForeignShare = 0.2
	p.HubShare = 0
	return p
}

// validate reports every problem at once.
func (p *Params) validate() error {
	var errs []error
	bad := func(field string, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...)))
	}
	share := func(field string, v float64) {
		if !(v >= 0 && v <= 1) {
			bad(field, "%v is not in [0, 1]", v)
		}
	}
	if p.Servers < 1 || p.Servers > 10_000_000 {
		bad("Servers", "%d is not in [1, 10000000]", p.Servers)
	}
	if !(p.MeanPagesPerServer >= 1) {
		bad("MeanPagesPerServer", "%v is below 1", p.MeanPagesPerServer)
	}
	if !(p.PagesSigma >= 0 && p.PagesSigma <= 4) {
		bad("PagesSigma", "%v is not in [0, 4]", p.PagesSigma)
	}
	if p.MaxPagesPerServer < 1 {
		bad("MaxPagesPerServer", "%d is below 1", p.MaxPagesPerServer)
	}
	if !(p.TargetSizeFactor > 0) {
		bad("TargetSizeFactor", "%v is not positive", p.TargetSizeFactor)
	}
	if _, ok := langIndex[p.TargetLang]; !ok {
		bad("TargetLang", "%q has no word list", p.TargetLang)
	}
	if _, ok := langIndex[p.ForeignLang]; !ok || p.ForeignLang == p.TargetLang {
		bad("ForeignLang", "%q has no word list or equals TargetLang", p.ForeignLang)
	}
	if len(p.OtherLangs) == 0 {
		bad("OtherLangs", "empty")
	}
	for _, l := range p.OtherLangs {
		if _, ok := langIndex[l]; !ok || l == p.TargetLang {
			bad("OtherLangs", "%q has no word list or equals TargetLang", l)
		}
	}
	if p.OtherLangWeights != nil {
		if len(p.OtherLangWeights) != len(p.OtherLangs) {
			bad("OtherLangWeights", "has %d weights for %d languages", len(p.OtherLangWeights), len(p.OtherLangs))
		}
		sum := 0.0
		for _, w := range p.OtherLangWeights {
			if !(w >= 0) {
				bad("OtherLangWeights", "negative weight %v", w)
			}
			sum += w
		}
		if !(sum > 0) {
			bad("OtherLangWeights", "sum to zero")
		}
	}
	if !(p.MeanOutDegree >= 1 && p.MeanOutDegree <= 1000) {
		bad("MeanOutDegree", "%v is not in [1, 1000]", p.MeanOutDegree)
	}
	if p.Seeds < 1 {
		bad("Seeds", "%d is below 1", p.Seeds)
	}
	for _, s := range []struct {
		name string
		v    float64
	}{
		{"TargetServerShare", p.TargetServerShare},
		{"TargetServerForeignShare", p.TargetServerForeignShare},
		{"LangDirShare", p.LangDirShare},
		{"HomeLinkShare", p.HomeLinkShare},
		{"PreferentialShare", p.PreferentialShare},
		{"DeadLinkShare", p.DeadLinkShare},
		{"HubShare", p.HubShare},
		{"HubPreferentialShare", p.HubPreferentialShare},
		{"HubHomeLinkShare", p.HubHomeLinkShare},
		{"TargetToTarget", p.TargetToTarget},
		{"TargetToTargetInter", p.TargetToTargetInter},
		{"TargetToOtherInter", p.TargetToOtherInter},
		{"MixedToTarget", p.MixedToTarget},
		{"MixedToTargetInter", p.MixedToTargetInter},
		{"MixedToOtherInter", p.MixedToOtherInter},
		{"OtherToTarget", p.OtherToTarget},
		{"OtherToOtherInter", p.OtherToOtherInter},
		{"TargetServerForeignLinkShare", p.TargetServerForeignLinkShare},
		{"OtherServerForeignLinkShare", p.OtherServerForeignLinkShare},
		{"AnchorDestShare", p.AnchorDestShare},
		{"AnchorSrcShare", p.AnchorSrcShare},
		{"AnchorURLShare", p.AnchorURLShare},
		{"HiddenTargetShare", p.HiddenTargetShare},
		{"TargetCCTLDShare", p.TargetCCTLDShare},
		{"OtherCCTLDShare", p.OtherCCTLDShare},
		{"ForeignHomeShare", p.ForeignHomeShare},
		{"HostingShare", p.HostingShare},
		{"HostingUsersLinkOut", p.HostingUsersLinkOut},
		{"HreflangShare", p.HreflangShare},
		{"ContextDestShare", p.ContextDestShare},
		{"LangDeclShare", p.LangDeclShare},
	} {
		share(s.name, s.v)
	}
	if p.AnchorDestShare+p.AnchorSrcShare+p.AnchorURLShare > 1+1e-9 {
		bad("AnchorDestShare", "AnchorDestShare + AnchorSrcShare + AnchorURLShare = %v exceeds 1", p.AnchorDestShare+p.AnchorSrcShare+p.AnchorURLShare)
	}
	if (p.TargetCCTLDShare > 0 || p.OtherCCTLDShare > 0) && ccTLD[p.TargetLang] == "" {
		bad("TargetCCTLDShare", "no ccTLD known for %q", p.TargetLang)
	}
	if p.ContextWords < 0 || p.ContextWords > 20 {
		bad("ContextWords", "%d is not in [0, 20]", p.ContextWords)
	}
	if p.TargetServerShare == 0 {
		bad("TargetServerShare", "must be above 0: the seeds are target servers")
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrParams, errors.Join(errs...))
	}
	return nil
}
