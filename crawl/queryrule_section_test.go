package crawl

import (
	"fmt"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/scope"
)

// TestQueryRuleSessionIDsInSection: the one-URL-per-script rule is the
// crawler's guard against one page under many queries (session IDs, sort
// orders). A target section's URLs are spared it only with one other
// parameter at most, not a session, sort or tracking one: a Thai CMS that
// puts a fresh session ID in every link (article.php?lang=th&sid=N, the
// same article each time) is fetched once, as without the exemption. A
// review found its first version fetching the article 255 times.
func TestQueryRuleSessionIDsInSection(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/article.php?lang=th&sid=1")}
	for k := 1; k < 1<<10; k++ {
		web[fmt.Sprintf("http://a.test/article.php?lang=th&sid=%d", k)] = page("th",
			fmt.Sprintf("/article.php?lang=th&sid=%d", 2*k), fmt.Sprintf("/article.php?lang=th&sid=%d", 2*k+1))
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 10, Langs: []string{"th"}})
	h := newHarness(t, web, Config{Scope: scope.Decider{QueryRule: true}, Focus: pol}, "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	if n := h.fetchedUnder("http://a.test/article.php"); n > 1 {
		t.Errorf("one_query_per_script on: the same article fetched under %d session IDs, want 1", n)
	}
}
