package webgen

import (
	"strings"
	"testing"
	"unicode"
)

func familyParams() Params {
	p := SimulatorDefaults()
	p.Servers = 2000
	p.Seeds = 2
	return p
}

func TestAnchorShares(t *testing.T) {
	p := familyParams()
	p.AnchorDestShare, p.AnchorSrcShare, p.AnchorURLShare = 0.5, 0.2, 0.1
	g, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	// From target pages to non-target pages: a Thai anchor comes only
	// from the source share; the URL and "more" shares as drawn.
	var n, thai, url, more int
	for i := int32(0); i < int32(g.NumPages()); i++ {
		if !g.IsTarget(i) {
			continue
		}
		for k, d := range g.Links(i) {
			if g.IsTarget(d) || g.IsMissing(d) {
				continue
			}
			a := g.Anchor(i, k, d)
			n++
			switch {
			case strings.HasPrefix(a, "http://"):
				url++
			case a == "more":
				more++
			case strings.IndexFunc(a, func(r rune) bool { return unicode.Is(unicode.Thai, r) }) >= 0:
				thai++
			}
		}
	}
	if n < 2000 {
		t.Fatalf("only %d links", n)
	}
	check := func(what string, got int, want float64) {
		if f := float64(got) / float64(n); f < want-0.03 || f > want+0.03 {
			t.Errorf("%s: %.3f of %d anchors, want %.2f", what, f, n, want)
		}
	}
	check("thai", thai, 0.2)
	check("url", url, 0.1)
	check("more", more, 0.2)
}

func TestAnchorDefaultIsDemoText(t *testing.T) {
	g, err := Generate(familyParams())
	if err != nil {
		t.Fatal(err)
	}
	for i := int32(0); i < 50; i++ {
		for k, d := range g.Links(i) {
			if got, want := g.Anchor(i, k, d), anchorText(g.p.Seed, i, k, g.Page(i).Lang, "utf-8"); got != want {
				t.Fatalf("page %d link %d: %q, want the demo's %q", i, k, got, want)
			}
		}
	}
}

func TestHiddenTargetServers(t *testing.T) {
	p := familyParams()
	p.HiddenTargetShare = 0.3
	g, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	hidden, linked := 0, 0
	for s := range g.servers {
		if g.servers[s].hidden {
			hidden++
		}
	}
	for i := int32(0); i < int32(g.NumPages()); i++ {
		src := &g.servers[g.pageServer[i]]
		for _, d := range g.Links(i) {
			dst := &g.servers[g.pageServer[d]]
			if dst.hidden && src != dst && src.target {
				t.Fatalf("target page %d links hidden server %s", i, dst.host)
			}
			if dst.hidden && !src.target {
				linked++
			}
		}
	}
	if hidden == 0 || linked == 0 {
		t.Errorf("%d hidden servers, %d links to them from non-target servers", hidden, linked)
	}
	for _, s := range g.Seeds() {
		if g.servers[g.pageServer[s]].hidden {
			t.Error("a hidden server is a seed")
		}
	}
}

func TestCCTLDHosts(t *testing.T) {
	p := familyParams()
	p.TargetCCTLDShare, p.OtherCCTLDShare = 0.34, 0.016
	g, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	var tgt, tgtTH, oth, othTH int
	for s := range g.servers {
		sv := &g.servers[s]
		if strings.HasPrefix(sv.host, "th-") || strings.HasSuffix(sv.host, ".test") {
			t.Fatalf("host %s still names its language", sv.host)
		}
		if sv.target {
			tgt++
			if strings.HasSuffix(sv.host, ".th") {
				tgtTH++
			}
		} else {
			oth++
			if strings.HasSuffix(sv.host, ".th") {
				othTH++
			}
		}
		if got, ok := g.LookupHost(sv.host); !ok || got != int32(s) {
			t.Fatalf("host %s does not look up", sv.host)
		}
	}
	if f := float64(tgtTH) / float64(tgt); f < 0.2 || f > 0.5 {
		t.Errorf("%.2f of target servers under .th, want about 0.34", f)
	}
	if f := float64(othTH) / float64(oth); f > 0.05 {
		t.Errorf("%.3f of other servers under .th, want about 0.016", f)
	}
}
