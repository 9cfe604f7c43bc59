package webgen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"net/http/httptest"
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
	big5 := 0
	for i := range int32(g.NumPages()) {
		pg, charset := g.Page(i), g.servers[g.pageServer[i]].charset
		if pg.Lang == "" {
			continue
		}
		if pg.Lang == "zh" && charset == "big5" {
			// The demo draws these in traditional characters; Graph.Anchor
			// keeps simplified ones (its doc says why).
			big5++
			charset = "utf-8"
		}
		for k, d := range g.Links(i) {
			if got, want := g.Anchor(i, k, d), anchorText(g.p.Seed, i, k, pg.Lang, charset); got != want {
				t.Fatalf("page %d (%s) link %d: %q, want the demo's %q", i, pg.Lang, k, got, want)
			}
		}
	}
	if big5 == 0 {
		t.Error("no Chinese Big5 page in the web: the exception above went untested")
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

// TestMultilingualServers checks the foreign home pages and the hosting
// servers: the languages of their pages, their paths, and that every page
// is found again by its URL.
func TestMultilingualServers(t *testing.T) {
	p := familyParams()
	p.LangDirShare, p.ForeignHomeShare, p.HostingShare = 0.5, 0.5, 0.2
	g, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	var foreignHome, hosting, targets int
	for s := int32(0); s < int32(g.NumServers()); s++ {
		si := g.Server(s)
		if !si.Target {
			continue
		}
		targets++
		home := g.Page(si.First)
		if home.Lang != si.Lang {
			t.Fatalf("%s: home page in %s, server language %s", si.Host, home.Lang, si.Lang)
		}
		if si.Lang == p.ForeignLang {
			foreignHome++
			if g.IsTarget(si.First) || home.Target {
				t.Fatalf("%s: a foreign home page counted as target", si.Host)
			}
			if !si.Hosting && !si.LangDirs {
				t.Fatalf("%s: a foreign home page without language directories", si.Host)
			}
		}
		nTarget, users := 0, map[string]string{}
		for i := si.First; i < si.End; i++ {
			pi := g.Page(i)
			if pi.Target != g.IsTarget(i) {
				t.Fatalf("%s: Page and IsTarget disagree", g.URL(i))
			}
			if pi.Target {
				nTarget++
			}
			if si.Hosting && pi.Status == 200 && i != si.First {
				if !strings.HasPrefix(pi.Path, "/~u") {
					t.Fatalf("hosting server page %s", g.URL(i))
				}
				dir := pi.Path[:strings.LastIndexByte(pi.Path, '/')+1]
				if l, ok := users[dir]; ok && l != pi.Lang {
					t.Fatalf("%s holds pages in %s and %s", dir, l, pi.Lang)
				}
				users[dir] = pi.Lang
			}
			if got, ok := g.Lookup(g.URL(i)); !ok || got != i {
				t.Fatalf("Lookup(%s) = %d, %v; want %d", g.URL(i), got, ok, i)
			}
		}
		if nTarget == 0 {
			t.Fatalf("%s: a target server without target pages", si.Host)
		}
		if si.Hosting {
			hosting++
			if len(users) < 2 {
				t.Errorf("%s: %d user directories", si.Host, len(users))
			}
			// A user directory of one server is not found on another page number.
			if _, ok := g.Lookup("http://" + si.Host + "/~u0/" + "999999.html"); ok {
				t.Errorf("%s: a page outside the server found", si.Host)
			}
		}
	}
	if hosting < targets/10 || foreignHome < hosting+targets/20 {
		t.Errorf("%d target servers: %d hosting, %d with a foreign home page", targets, hosting, foreignHome)
	}
	// A page of user 0 asked for under user 1 is not found.
	for s := int32(0); s < int32(g.NumServers()); s++ {
		if si := g.Server(s); si.Hosting {
			if _, ok := g.Lookup("http://" + si.Host + "/~u1/1.html"); ok {
				t.Errorf("%s: /~u1/1.html found; page 1 is user 0's", si.Host)
			}
			break
		}
	}
}

// TestLinkEvidence checks hreflang, the text around links and declared
// languages: their shares, and that they name the right languages.
func TestLinkEvidence(t *testing.T) {
	p := familyParams()
	p.HreflangShare, p.ContextWords, p.ContextDestShare, p.LangDeclShare = 0.3, 3, 0.5, 0.5
	g, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	thai := func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Thai, r) }) >= 0
	}
	var n, withHreflang, destContext, fromForeign int
	for i := int32(0); i < int32(g.NumPages()); i++ {
		if g.IsMissing(i) {
			continue
		}
		for _, d := range g.Links(i) {
			if g.IsMissing(d) {
				continue
			}
			n++
			if h := g.Hreflang(i, d); h != "" {
				withHreflang++
				if h != g.Page(d).Lang {
					t.Fatalf("hreflang %q for a page in %s", h, g.Page(d).Lang)
				}
			}
			if g.IsTarget(i) || !g.IsTarget(d) {
				continue
			}
			// Links from non-target pages to target pages: the text
			// around is Thai when it describes the destination.
			fromForeign++
			before, after := g.LinkContext(i, d)
			if before == "" || after == "" {
				t.Fatalf("no text around a link")
			}
			if thai(before) {
				destContext++
			}
		}
	}
	if f := float64(withHreflang) / float64(n); f < 0.27 || f > 0.33 {
		t.Errorf("hreflang on %.3f of links, want 0.3", f)
	}
	if f := float64(destContext) / float64(fromForeign); fromForeign < 500 || f < 0.4 || f > 0.6 {
		t.Errorf("Thai text around %.3f of %d links from non-target to target pages, want 0.5", f, fromForeign)
	}
	decl, servers := 0, 0
	for s := int32(0); s < int32(g.NumServers()); s++ {
		si := g.Server(s)
		servers++
		d := g.DeclaredLang(si.First)
		if d == "" {
			continue
		}
		decl++
		if d != si.Lang {
			t.Fatalf("%s declares %s, its home page is in %s", si.Host, d, si.Lang)
		}
		for i := si.First; i < si.End; i++ {
			if g.IsMissing(i) {
				continue
			}
			if g.DeclaredLang(i) != d {
				t.Fatalf("%s: pages declare different languages", si.Host)
			}
		}
	}
	if f := float64(decl) / float64(servers); f < 0.45 || f > 0.55 {
		t.Errorf("%.3f of servers declare a language, want 0.5", f)
	}
	// At 0, nothing.
	g0, _ := Generate(familyParams())
	if h := g0.Hreflang(0, g0.Links(0)[0]); h != "" {
		t.Errorf("hreflang %q at share 0", h)
	}
	if b, a := g0.LinkContext(0, g0.Links(0)[0]); b != "" || a != "" {
		t.Errorf("text around a link with ContextWords 0")
	}
	if d := g0.DeclaredLang(0); d != "" {
		t.Errorf("declared %q at share 0", d)
	}
}

// TestServedEvidence: the HTTP server answers a declaring server's pages
// with Content-Language and <html lang>, and writes hreflang on links.
func TestServedEvidence(t *testing.T) {
	p := familyParams()
	p.Servers = 200
	p.HreflangShare, p.LangDeclShare = 1, 1
	g, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(g, ServerOptions{})
	seed := g.Seeds()[0]
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", g.URL(seed), nil))
	body := w.Body.String()
	lang := g.Server(g.PageServer(seed)).Lang
	if got := w.Header().Get("Content-Language"); got != lang {
		t.Errorf("Content-Language %q, want %q", got, lang)
	}
	if !strings.Contains(body, `<html lang="`+lang+`">`) {
		t.Errorf("no <html lang=%q>", lang)
	}
	if n := strings.Count(body, ` hreflang="`); n != len(g.Links(seed)) {
		t.Errorf("%d hreflang attributes for %d links", n, len(g.Links(seed)))
	}
}

// TestServedAnchorsAndContext: with the family's anchor shares and words
// around links, the HTTP server writes each link's anchor (Graph.Anchor)
// and the text before and after it (Graph.LinkContext), as the simulator
// renders them; text a legacy charset cannot hold arrives as character
// references, and every page decodes to the same words.
func TestServedAnchorsAndContext(t *testing.T) {
	p := familyParams()
	p.Servers = 300
	p.AnchorDestShare, p.AnchorSrcShare, p.AnchorURLShare = 0.5, 0.2, 0.1
	p.ContextWords, p.ContextDestShare = 3, 0.5
	g, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(g, ServerOptions{})
	checked, legacy := 0, 0
	for i := int32(0); i < int32(g.NumPages()) && checked < 200; i++ {
		if g.IsMissing(i) || g.Server(g.PageServer(i)).Special != "" || len(g.Links(i)) == 0 || g.Page(i).Status != 200 {
			continue
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", g.URL(i), nil))
		if w.Code != 200 {
			continue
		}
		cs := g.Server(g.PageServer(i)).Charset
		enc, err := Encoding(cs)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := enc.NewDecoder().String(w.Body.String())
		if err != nil {
			t.Fatalf("%s: decode %s: %v", g.URL(i), cs, err)
		}
		text := html.UnescapeString(dec)
		for k, to := range g.Links(i) {
			a := g.Anchor(i, k, to)
			before, after := g.LinkContext(i, to)
			if !strings.Contains(text, ">"+a+"</a>") {
				t.Fatalf("%s (%s): link %d: anchor %q not served", g.URL(i), cs, k, a)
			}
			if !strings.Contains(text, "<li>"+before+" <a ") || !strings.Contains(text, "</a> "+after+"</li>") {
				t.Fatalf("%s (%s): link %d: text around it %q / %q not served", g.URL(i), cs, k, before, after)
			}
		}
		checked++
		if !strings.EqualFold(cs, "utf-8") {
			legacy++
		}
	}
	if checked < 50 || legacy == 0 {
		t.Errorf("checked %d pages, %d in a legacy charset: the web has too few", checked, legacy)
	}
}

// TestHostingUsersLinkOut: the foreign users of hosting servers chosen by
// Params.HostingUsersLinkOut link to other servers as foreign servers'
// pages do (Tamura Table 4's row for other servers: most links leave the
// server), where before all linked as a target server's foreign pages
// (its mixed row: most links stay home). At 0 the web is as it was.
func TestHostingUsersLinkOut(t *testing.T) {
	share := func(out float64) (float64, *Graph) {
		p := familyParams()
		p.HostingShare, p.HostingUsersLinkOut = 0.2, out
		g, err := Generate(p)
		if err != nil {
			t.Fatal(err)
		}
		var n, inter int
		for s := int32(0); s < int32(g.NumServers()); s++ {
			si := g.Server(s)
			if !si.Hosting {
				continue
			}
			for i := si.First + 1; i < si.End; i++ {
				if g.IsTarget(i) || g.Page(i).Status != 200 {
					continue
				}
				for _, d := range g.Links(i) {
					n++
					if g.PageServer(d) != s {
						inter++
					}
				}
			}
		}
		if n == 0 {
			t.Fatal("no links from foreign users of hosting servers")
		}
		return float64(inter) / float64(n), g
	}
	before, _ := share(0)
	after, _ := share(1)
	t.Logf("links of foreign users that leave the hosting server: %.2f as mixed pages, %.2f as foreign servers' pages", before, after)
	if after < before+0.1 { // the two rows: 0.26 and 0.51 of links to non-target pages leave the server
		t.Errorf("foreign users linking out leave the server on %.2f of their links, against %.2f: want clearly more", after, before)
	}
}

// TestWebsPinned pins the link graphs of the default (simulator) web, at
// 2,000 servers, and of the demo web, and the family web at hosting=0.2, by
// a hash of their servers, pages and links: a parameter that is 0 by
// default must leave them byte for byte as they were. The hashes were
// taken in the seventeenth session, on the code before HostingUsersLinkOut
// and on the code with it at 0 alike (a review found no test pinned them:
// the check before compared two webs made with the same parameters).
// A change that means to alter a web changes its hash here, on purpose.
func TestWebsPinned(t *testing.T) {
	hosting := familyParams()
	hosting.HostingShare = 0.2
	for _, c := range []struct {
		name string
		p    Params
		want string
	}{
		{"simulator defaults, 2000 servers", familyParams(), pinSimulator},
		{"demo", DemoDefaults(), pinDemo},
		{"hosting=0.2", hosting, pinHosting},
	} {
		g, err := Generate(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := webHash(g); got != c.want {
			t.Errorf("%s: web hash %s, want %s", c.name, got, c.want)
		}
	}
}

const (
	pinSimulator = "50eda86679e4b276"
	pinDemo      = "568d6dcc3cb87d86"
	pinHosting   = "4712d5876913bd4a"
)

// webHash hashes every server's host, kind and page range, and every
// page's URL, language and links.
func webHash(g *Graph) string {
	h := sha256.New()
	for s := int32(0); s < int32(g.NumServers()); s++ {
		fmt.Fprintf(h, "%+v\n", g.Server(s))
	}
	for i := int32(0); i < int32(g.NumPages()); i++ {
		fmt.Fprintf(h, "%s %s %v\n", g.URL(i), g.Page(i).Lang, g.Links(i))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
