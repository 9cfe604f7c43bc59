package simulate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
)

// oracleWeb is a small web with what server verdicts decide: a foreign
// server linked 15 times from the seed, a target server entered through
// its English section, a foreign section inside the seed's own server, and
// a target server only a foreign page links to (Tamura's Fig. 2).
func oracleWeb() *web {
	seed := tpage{id: "a.th/0", target: true, links: []string{"g.th/en/0", "a.th/en/0"}}
	pages := []tpage{seed}
	for i := range 15 {
		id := fmt.Sprintf("d.com/x/%d", i)
		pages[0].links = append(pages[0].links, id)
		links := []string{"h.th/0"} // the hidden target server, linked from d.com only
		if i == 14 {
			links = nil
		}
		pages = append(pages, tpage{id: id, links: links})
	}
	return handWeb(append(pages,
		tpage{"g.th/en/0", false, []string{"g.th/en/1"}}, // a target server's English section first
		tpage{"g.th/en/1", false, []string{"g.th/th/0"}},
		tpage{"g.th/th/0", true, nil},
		tpage{"a.th/en/0", false, []string{"a.th/en/1"}}, // the seed server's own English section
		tpage{"a.th/en/1", false, nil},
		tpage{"h.th/0", true, nil},
	))
}

// TestVerdictOracles pins the two verdict oracles on oracleWeb: a server
// (directory) with no target page costs exactly one page, a target server
// is crawled as the strategy crawls a relevant one, entered through its
// English section included, and the target server behind foreign pages
// stays unfound, as under conservative-server. Conservative-server's T + 1
// probes of d.com and the directory oracle's one page of each English
// section are the difference.
func TestVerdictOracles(t *testing.T) {
	w := oracleWeb()
	for _, tt := range []struct {
		v    Variant
		want []string
	}{
		{Variant{Strategy: ServerOracle},
			[]string{"a.th/0", "a.th/en/0", "a.th/en/1", "d.com/x/0", "g.th/en/0", "g.th/en/1", "g.th/th/0"}},
		// Per top directory: g.th/en/ and a.th/en/ hold no target page, so
		// each costs one page, and g.th/th/0 is behind g.th/en/1.
		{Variant{Strategy: DirectoryOracle},
			[]string{"a.th/0", "a.th/en/0", "d.com/x/0", "g.th/en/0"}},
	} {
		t.Run(tt.v.label(), func(t *testing.T) {
			got, r := crawledSet(t, w, tt.v)
			var list []string
			for u := range got {
				list = append(list, u)
			}
			slices.Sort(list)
			if strings.Join(list, " ") != strings.Join(tt.want, " ") {
				t.Errorf("crawled %v, want %v", list, tt.want)
			}
			if r.Harvest != float64(r.Targets)/float64(r.Pages) || r.Targets != int64(strings.Count(strings.Join(list, " "), "th/0")) {
				t.Errorf("harvest %v of %d target pages in %d: counted from the labels, not the pages?", r.Harvest, r.Targets, r.Pages)
			}
		})
	}
	// The oracles bound the verdicts: conservative-server at T = 10 spends
	// 11 pages on d.com, and no server strategy crawls fewer foreign pages
	// of servers without target pages than the server oracle.
	_, cs := crawledSet(t, w, Variant{Strategy: string(focus.ConservativeServer)})
	_, so := crawledSet(t, w, Variant{Strategy: ServerOracle})
	if cs.Pages != so.Pages+10 || cs.Targets != so.Targets {
		t.Errorf("conservative-server %d pages, %d target; server oracle %d, %d: want 10 pages more, the same target pages",
			cs.Pages, cs.Targets, so.Pages, so.Targets)
	}
}

// TestVerdictOracleNamed: the oracles are variants the options and
// --strategies accept, and a typo is still refused.
func TestVerdictOracleNamed(t *testing.T) {
	for _, s := range []string{ServerOracle, DirectoryOracle, Perfect} {
		if err := checkStrategy(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if err := checkStrategy("server-orcale"); err == nil || !strings.Contains(err.Error(), ServerOracle) {
		t.Errorf("a misspelt oracle: %v, want an error naming %s", err, ServerOracle)
	}
}
