package focus

import "testing"

// TestBareCodeCountrySection: the bare first-segment rule reads a
// country section as a language section when the target's ISO 639-1 code
// is also a common ISO 3166 country segment: /uk/ (United Kingdom) for
// Ukrainian, /ca/ (Canada) for Catalan, /be/ (Belgium) for Belarusian.
// Multinational English sites put exactly these first (apple.com/uk/,
// apple.com/ca/fr/, /be/nl/), often in a footer country selector on every
// page. The first version of the bare-code rule read them so (a review).
func TestBareCodeCountrySection(t *testing.T) {
	for _, c := range []struct {
		lang, url string
	}{
		// A language segment follows: the first segment cannot be one.
		{"uk", "https://shop.example.com/uk/en/products"},
		{"ca", "https://www.example.com/ca/fr/"},
		{"be", "https://www.example.com/be/nl/winkels"},
		// The plain UK / Canada storefronts of English sites.
		{"uk", "https://www.apple.com/uk/"},
		{"ca", "https://www.apple.com/ca/"},
	} {
		p := mustNew(t, Config{Strategy: Sequential, Langs: []string{c.lang}})
		if p.NamesTarget(c.url) {
			t.Errorf("%s: NamesTarget(%s) = true: a country section read as the target language", c.lang, c.url)
		}
		if s := urlCues(c.url, targets{c.lang}); s > 0 {
			t.Errorf("%s: urlCues(%s) = %d, want no cue for the target", c.lang, c.url, s)
		}
	}
}

// TestCountrySelectorJudgesRelevant: an English server whose
// template links its own /uk/ storefront on every page (a country
// selector) is judged relevant by the sequential strategy for a Ukrainian
// target on foreign pages alone, through SelfTargetLinks and LinkRatio:
// the crawl then takes it in full.
func TestCountrySelectorJudgesRelevant(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential, Langs: []string{"uk"}})
	named := p.NamesTarget("https://www.example.com/uk/")
	var c Counts
	for i := 0; i < 10; i++ {
		pg := Page{Relevant: false, Confidence: 0.998, Home: i == 0, Reached: ReachedFromOther,
			TargetLinks: named, SelfTargetLinks: named}
		c = p.Count(c, pg)
		if p.Status(c) == Relevant {
			t.Fatalf("an English server judged relevant for Ukrainian after %d confidently English pages, on its /uk/ link alone", i+1)
		}
	}
}

// TestCCTLDNationalDomains: the national domains of Portuguese, Bengali
// and Faroese count (a review found them missing where README said the
// national ones count), and the language community domains.
func TestCCTLDNationalDomains(t *testing.T) {
	for _, c := range []struct{ lang, url string }{
		{"pt", "http://jornal.pt/"},
		{"bn", "http://khobor.bd/"},
		{"fo", "http://tidindi.fo/"},
		// The language community domains (a trial: shops on .cat and
		// .gal were on no language's domain).
		{"ca", "http://botiga.cat/"},
		{"gl", "http://tenda.gal/"},
		{"eu", "http://denda.eus/"},
	} {
		if got := urlCues(c.url, targets{c.lang}); got != 1 {
			t.Errorf("%s %s: urlCues %d, want 1 (its national domain)", c.lang, c.url, got)
		}
	}
}

// TestDoubleSlashSection: "//hr/" (a template joining a base that
// ends in "/" with "/hr/"; the server serves /hr/) names the target as
// "//th/" does: the bare-code rule counts the first non-empty segment (a
// review found the first version counting an empty one).
func TestDoubleSlashSection(t *testing.T) {
	th := mustNew(t, Config{Strategy: Sequential, Langs: []string{"th"}})
	hr := mustNew(t, Config{Strategy: Sequential, Langs: []string{"hr"}})
	if !th.NamesTarget("http://a.com//th/") {
		t.Fatal("premise: //th/ names th")
	}
	if !hr.NamesTarget("http://a.com//hr/") {
		t.Error("//hr/ does not name hr, where //th/ names th and /hr/ names hr")
	}
}

// TestTargetDomain: the report ranks candidate hosts on a target's national
// domain first; a port or a trailing dot does not hide it, and .no is both
// Norwegian standards'.
func TestTargetDomain(t *testing.T) {
	for _, c := range []struct {
		langs []string
		host  string
		want  bool
	}{
		{[]string{"ms"}, "tersembunyi.my", true},
		{[]string{"ms"}, "toko.id", false},
		{[]string{"nn"}, "skjult.no:8080", true},
		{[]string{"hr"}, "SKRIVENI.HR.", true},
		{[]string{"th"}, "localhost", false},
	} {
		p := mustNew(t, Config{Strategy: ConservativeServer, Langs: c.langs})
		if got := p.TargetDomain(c.host); got != c.want {
			t.Errorf("%v %s: %v, want %v", c.langs, c.host, got, c.want)
		}
	}
}

// TestScriptTarget: a target with a script subtag (zh-hant, a Taipei
// library's Traditional Chinese) matches link cues that name its language
// without a script (hreflang zh-TW reads as zh) and the country domain of
// its script (.tw), not that of the other script (.cn); a zh target takes
// both. A trial found zh-Hant refused as a target.
func TestScriptTarget(t *testing.T) {
	for _, c := range []struct {
		langs []string
		url   string
		want  int
	}{
		{[]string{"zh-hant"}, "http://tushuguan.tw/", 1},
		{[]string{"zh-hant"}, "http://tushuguan.cn/", -1},
		{[]string{"zh"}, "http://tushuguan.cn/", 1},
		{[]string{"zh"}, "http://tushuguan.tw/", 1},
		{[]string{"zh-hant"}, "http://example.com/?lang=zh", 1},
		{[]string{"zh-hant"}, "http://example.jp/", -1},
	} {
		if got := urlCues(c.url, targets(c.langs)); got != c.want {
			t.Errorf("%v %s: %d, want %d", c.langs, c.url, got, c.want)
		}
	}
	if langCue("zh-TW", targets{"zh-hant"}) != 1 || langCue("ja", targets{"zh-hant"}) != -1 {
		t.Error("hreflang zh-TW should count for zh-hant, ja against it")
	}
	if scriptCue("臺灣的圖書館與博物館", targets{"th", "zh-hant"}) != 0 {
		t.Error("Han letters counted against a set of Thai and zh-hant")
	}
}

// TestCommunityDomainsNotAgainst: a language community domain speaks for
// its language and never against another: a .cat site may be in Spanish
// too. A review found the first version giving a crawl for Spanish a cue
// against every .cat link, and .ad, .bzh and .cymru, whose webs are
// largely Spanish, French and English, counted for Catalan, Breton and
// Welsh.
func TestCommunityDomainsNotAgainst(t *testing.T) {
	for _, c := range []struct{ lang, url string }{
		{"es", "http://ajuntament.cat/"}, {"es", "http://hotel.ad/"}, {"es", "http://festa.gal/"},
		{"fr", "http://festival.bzh/"}, {"en", "http://amgueddfa.cymru/"},
	} {
		if got := urlCues(c.url, targets{c.lang}); got < 0 {
			t.Errorf("%s %s: urlCues %d, a cue against", c.lang, c.url, got)
		}
	}
	p := mustNew(t, Config{Strategy: Sequential, Langs: []string{"ca"}})
	if !p.TargetDomain("botiga.cat") || p.TargetDomain("hotel.ad") {
		t.Errorf("TargetDomain for Catalan: botiga.cat %v (want true), hotel.ad %v (want false)", p.TargetDomain("botiga.cat"), p.TargetDomain("hotel.ad"))
	}
}
