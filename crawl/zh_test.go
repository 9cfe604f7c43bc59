package crawl

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/scope"
)

// TestScriptNotModifiedSimplifiedUnderHant: a review found a re-crawl's 304 revisit takes "relevant" from
// Policy.InTarget(History.Lang); History.Lang is d.Lang ("zh"), which a
// zh-hant target's targets.has accepts, so a Simplified page the first
// generation judged not relevant is written relevant=true in the next.
func TestScriptNotModifiedSimplifiedUnderHant(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":   page("th", "/cn"),
		"http://a.test/cn": page("zh", "tag:zh-Hans"),
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 10, Langs: []string{"zh-hant"}})
	g := newGenRig(t, web, map[string]string{"http://a.test/cn": `"v1"`})
	g.firstGeneration(t, Config{Focus: pol}, "http://a.test/")
	g.nextGeneration(t, Config{Focus: pol}, "http://a.test/")
	if nm := g.notModified(t, "http://a.test/cn"); slices.Contains(nm.Metadata, archive.Field{Name: "relevant", Value: "true"}) {
		t.Errorf("304 revisit of a zh-Hans page (relevant=false when captured) under target zh-hant says relevant=true: %v", nm.Metadata)
	}
}

// TestScriptSectionQuerySessionNames: a review found sectionQuery's list of session parameters misses the common
// shop ones (osCommerce osCsid, Zen Cart zenid, ColdFusion cfid) and click
// IDs (msclkid), so ?language=th&osCsid=N is spared as a target section's
// page, one URL per session.
func TestScriptSectionQuerySessionNames(t *testing.T) {
	for _, raw := range []string{
		"http://shop.test/index.php?language=th&osCsid=4f1c0e",
		"http://shop.test/index.php?language=th&zenid=4f1c0e",
		"http://shop.test/index.php?lang=th&cfid=123",
		"http://shop.test/index.php?lang=th&msclkid=abc",
	} {
		u, _ := url.Parse(raw)
		if sectionQuery(u) {
			t.Errorf("sectionQuery(%s) = true: a session/click ID spared by the query rule", raw)
		}
	}
}

// TestScriptQueryRuleHantSections: a review found with target zh-hant, a Simplified section's URLs
// (page.php?lang=zh-cn&id=N) are read as a target section and spared the
// one-query-per-script rule; its Traditional section (?lang=zh-hant, the
// WPML/Drupal form) is not read as one and is cut to one URL.
func TestScriptQueryRuleHantSections(t *testing.T) {
	web := fakeWeb{}
	var links []string
	for i := 1; i <= 4; i++ {
		cn := fmt.Sprintf("/page.php?lang=zh-cn&id=%d", i)
		tw := fmt.Sprintf("/list.php?lang=zh-hant&id=%d", i)
		links = append(links, cn, tw)
		web["http://a.test"+cn] = page("zh", "tag:zh-Hans")
		web["http://a.test"+tw] = page("zh", "tag:zh-Hant")
	}
	web["http://a.test/"] = page("th", links...)
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 10, Langs: []string{"zh-hant"}})
	h := newHarness(t, web, Config{Scope: scope.Decider{QueryRule: true}, Focus: pol}, "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	cn, tw := h.fetchedUnder("http://a.test/page.php"), h.fetchedUnder("http://a.test/list.php")
	if cn != 1 || tw != 4 {
		t.Errorf("target zh-hant: %d Simplified (lang=zh-cn) and %d Traditional (lang=zh-hant) section pages fetched, want 1 and 4", cn, tw)
	}
}

// TestScriptNotModifiedKeepsLanguageTag: a review found a 304 revisit writes language from History.Lang and no
// languageTag (History keeps no tag), so a re-crawl begun with --previous,
// whose first capture of a URL here is that revisit, puts the page in a
// bare "zh" row of the report's languages table beside zh-Hant/zh-Hans.
func TestScriptNotModifiedKeepsLanguageTag(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":   page("th", "/tw"),
		"http://a.test/tw": page("zh", "tag:zh-Hant"),
	}
	g := newGenRig(t, web, map[string]string{"http://a.test/tw": `"v1"`})
	g.firstGeneration(t, Config{}, "http://a.test/")
	g.nextGeneration(t, Config{}, "http://a.test/")
	if rv := g.notModified(t, "http://a.test/tw"); !slices.Contains(rv.Metadata, archive.Field{Name: "languageTag", Value: "zh-Hant"}) {
		t.Errorf("304 revisit of a zh-Hant page: no languageTag: %v", rv.Metadata)
	}
}
