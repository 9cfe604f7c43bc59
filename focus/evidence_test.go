package focus

import (
	"errors"
	"strings"
	"testing"
)

func evidencePolicy(t *testing.T, langs ...string) *Policy {
	t.Helper()
	p, err := New(Config{Strategy: Evidence, Langs: langs})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScore(t *testing.T) {
	th := evidencePolicy(t, "th")
	lo := evidencePolicy(t, "lo")
	thlo := evidencePolicy(t, "th", "lo") // a set of targets, collected together
	no := evidencePolicy(t, "nb", "nn")
	nb := evidencePolicy(t, "nb")
	msid := evidencePolicy(t, "ms", "id")
	thzh := evidencePolicy(t, "th", "zh")
	thvi := evidencePolicy(t, "th", "vi")
	mn := evidencePolicy(t, "mn")
	da := evidencePolicy(t, "da")
	zhHant := evidencePolicy(t, "zh-hant")
	daTh := evidencePolicy(t, "da", "th")
	tests := []struct {
		name string
		p    *Policy
		l    Link
		want Score
	}{
		{"nothing", th, Link{URL: "http://example.com/a.html", Anchor: "x"}, 0},
		{"latin anchor says nothing", th, Link{URL: "http://example.com/", Anchor: "Home page"}, 0},
		{"url as anchor says nothing", th, Link{URL: "http://example.com/", Anchor: "http://www.example.com/"}, 0},
		{"thai anchor", th, Link{URL: "http://example.com/", Anchor: "ข่าววันนี้"}, 2},
		{"one thai letter is not enough", th, Link{URL: "http://example.com/", Anchor: "ข"}, 0},
		{"japanese anchor", th, Link{URL: "http://example.com/", Anchor: "今日のニュース"}, -2},
		{"thai anchor for lao target", lo, Link{URL: "http://example.com/", Anchor: "ข่าววันนี้"}, -2},
		{"lao anchor for lao target", lo, Link{URL: "http://example.com/", Anchor: "ຂ່າວ"}, 2},
		{"hreflang target", th, Link{URL: "http://example.com/", Hreflang: "th-TH"}, 3},
		{"hreflang other", th, Link{URL: "http://example.com/", Hreflang: "en"}, -3},
		{"hreflang x-default", th, Link{URL: "http://example.com/", Hreflang: "x-default"}, 0},
		{"lang overrides the script test", th, Link{URL: "http://example.com/", Lang: "en", Anchor: "ข่าว"}, -2},
		{"cctld", th, Link{URL: "http://www.matichon.co.th/"}, 1},
		{"other cctld", th, Link{URL: "http://www.example.jp/"}, -1},
		{"path segment", th, Link{URL: "http://example.com/th/news.html"}, 1},
		{"path segment with region", th, Link{URL: "http://example.com/th_TH/news.html"}, 1},
		{"other path segment", th, Link{URL: "http://example.com/en/news.html"}, -1},
		{"unknown two letters", th, Link{URL: "http://example.com/js/app.html"}, 0},
		{"query", th, Link{URL: "http://example.com/p.php?id=3&lang=th"}, 1},
		{"idn label in thai", th, Link{URL: "http://xn--12c1bij4d1a0fza6gi5c.com/"}, 2},
		{"cues add up, bounded", th, Link{URL: "http://www.x.co.th/th/", Anchor: "ข่าว", Hreflang: "th"}, 4},
		{"evidence against, bounded", th, Link{URL: "http://x.jp/en/", Anchor: "ニュース", Hreflang: "ja"}, -4},
		{"bad url", th, Link{URL: "http://[::1", Anchor: "ข่าว"}, 2},
		{"thai anchor on a thai page says nothing", th, Link{URL: "http://example.com/", Anchor: "ข่าว", FromTarget: true}, 0},
		{"foreign anchor on a thai page still counts", th, Link{URL: "http://example.com/", Anchor: "ニュース", FromTarget: true}, -2},
		{"lang on a thai page says nothing", th, Link{URL: "http://example.com/", Lang: "th", FromTarget: true}, 0},
		{"thai text around", th, Link{URL: "http://example.com/", Anchor: "more", Context: "ข่าว วันนี้"}, 1},
		{"japanese text around on a foreign page: its own language", th, Link{URL: "http://example.com/", Context: "今日のニュース"}, 0},
		{"thai anchor in japanese text on a foreign page: still strong", th, Link{URL: "http://example.com/", Anchor: "ข่าว", Context: "今日のニュース"}, 2},
		{"latin text around says nothing", th, Link{URL: "http://example.com/", Context: "read more about it"}, 0},
		{"thai text around on a thai page says nothing", th, Link{URL: "http://example.com/", Context: "ข่าว", FromTarget: true}, 0},
		{"foreign text around on a thai page counts", th, Link{URL: "http://example.com/", Context: "ニュース", FromTarget: true}, -1},
		{"thai anchor and text around: strong and more", th, Link{URL: "http://example.com/", Anchor: "ข่าว", Context: "ข่าว"}, 3},
		{"page declares the target", th, Link{URL: "http://example.com/", PageLang: "th-TH"}, 1},
		{"declared target and cctld: strong", th, Link{URL: "http://www.x.co.th/", PageLang: "th"}, 2},
		{"page declares another language: nothing", th, Link{URL: "http://example.com/", PageLang: "en"}, 0},
		{"set: thai anchor", thlo, Link{URL: "http://example.com/", Anchor: "ข่าววันนี้"}, 2},
		{"set: lao anchor", thlo, Link{URL: "http://example.com/", Anchor: "ຂ່າວ"}, 2},
		{"set: japanese anchor", thlo, Link{URL: "http://example.com/", Anchor: "今日のニュース"}, -2},
		{"set: hreflang of either", thlo, Link{URL: "http://example.com/", Hreflang: "lo"}, 3},
		{"set: hreflang of neither", thlo, Link{URL: "http://example.com/", Hreflang: "en"}, -3},
		{"set: cctld of either", thlo, Link{URL: "http://www.example.la/"}, 1},
		{"set: path segment of either", thlo, Link{URL: "http://example.com/lo/"}, 1},
		{"set: page declares either", thlo, Link{URL: "http://example.com/", PageLang: "lo-LA"}, 1},
		{"nynorsk path segment for a norwegian set", no, Link{URL: "http://example.com/nn-NO/side.html"}, 1},
		{"a target's code is read with a region though not listed", nb, Link{URL: "http://example.com/nb_NO/"}, 1},
		{"a target's code is read as a query value though not listed", nb, Link{URL: "http://example.com/s?lang=nb"}, 1},
		{"but not as a bare segment: /id/ is an identifier", msid, Link{URL: "http://shop.example.com/id/12345"}, 0},
		{"nor /no/", no, Link{URL: "http://example.com/no/5"}, 0},
		{"no is norwegian: for bokmål", nb, Link{URL: "http://example.com/", Hreflang: "no"}, 3},
		{"no is norwegian: for the set", no, Link{URL: "http://example.com/?hl=no"}, 1},
		{"mixed set: the shared script of a target is not against", thzh, Link{URL: "http://example.com/", Anchor: "今日新闻"}, 0},
		{"mixed set: another script still is", thzh, Link{URL: "http://example.com/", Anchor: "Новости дня"}, -2},
		{"mongolian is written in cyrillic: not against it", mn, Link{URL: "http://example.com/", Anchor: "Өнөөдрийн мэдээ"}, 0},
		{"a latin target in the set changes nothing", thvi, Link{URL: "http://example.com/", Anchor: "今日新闻"}, -2},
		{"mixed set: the script it can see still counts", thzh, Link{URL: "http://example.com/", Anchor: "ข่าววันนี้"}, 2},
		{"nynorsk is not bokmål alone", nb, Link{URL: "http://example.com/", Hreflang: "nn"}, -3},
		{"a thai page declaring thai: nothing", th, Link{URL: "http://example.com/", PageLang: "th", FromTarget: true}, 0},
		{"anchor read as the target, sure: strong", da, Link{URL: "http://example.com/", AnchorLang: "da", AnchorConfidence: 0.95}, 2},
		{"anchor read as the target at AnchorSure", da, Link{URL: "http://example.com/", AnchorLang: "da", AnchorConfidence: AnchorSure}, 2},
		{"anchor read as the target, likely: weak", da, Link{URL: "http://example.com/", AnchorLang: "da", AnchorConfidence: 0.75}, 1},
		{"likely anchor and a .dk host: strong", da, Link{URL: "http://avis.dk/", AnchorLang: "da", AnchorConfidence: 0.75}, 2},
		{"anchor read as the target, unsure: nothing", da, Link{URL: "http://example.com/", AnchorLang: "da", AnchorConfidence: 0.49}, 0},
		{"anchor read as another language: nothing", da, Link{URL: "http://example.com/", AnchorLang: "sv", AnchorConfidence: 0.99}, 0},
		{"anchor read as the target on a target page: nothing", da, Link{URL: "http://example.com/", AnchorLang: "da", AnchorConfidence: 0.99, FromTarget: true}, 0},
		{"lang naming another language outweighs the reading", da, Link{URL: "http://example.com/", Lang: "sv", AnchorLang: "da", AnchorConfidence: 0.99}, -2},
		{"text around read as the target, sure: strong", da, Link{URL: "http://example.com/", Context: "x", ContextLang: "da", ContextConfidence: 0.95}, 2},
		{"text around read as the target, likely: weak", da, Link{URL: "http://example.com/", Context: "x", ContextLang: "da", ContextConfidence: 0.6}, 1},
		{"anchor and text around, both likely: one cue, weak", da, Link{URL: "http://example.com/", AnchorLang: "da", AnchorConfidence: 0.6, Context: "x", ContextLang: "da", ContextConfidence: 0.6}, 1},
		{"the stronger of the two readings", da, Link{URL: "http://example.com/", AnchorLang: "da", AnchorConfidence: 0.6, Context: "x", ContextLang: "da", ContextConfidence: 0.95}, 2},
		{"text around read as the target on a target page: nothing", da, Link{URL: "http://example.com/", Context: "x", ContextLang: "da", ContextConfidence: 0.99, FromTarget: true}, 0},
		{"text around read as another language: nothing", da, Link{URL: "http://example.com/", Context: "x", ContextLang: "en", ContextConfidence: 0.99}, 0},
		{"lang naming another language outweighs the text around", da, Link{URL: "http://example.com/", Lang: "sv", Context: "x", ContextLang: "da", ContextConfidence: 0.99}, -2},
		{"text around in another script is not read", daTh, Link{URL: "http://example.com/", Context: "ニュースです", ContextLang: "da", ContextConfidence: 0.99}, 0},
		{"a tagged reading counts for its language", zhHant, Link{URL: "http://example.com/", AnchorLang: "zh-Hant", AnchorConfidence: 0.99}, 2},
		{"the simplified script does not", zhHant, Link{URL: "http://example.com/", AnchorLang: "zh-Hans", AnchorConfidence: 0.99}, 0},
		{"no is bokmål's", nb, Link{URL: "http://example.com/", AnchorLang: "no", AnchorConfidence: 0.99}, 2},
	}
	for _, tc := range tests {
		if got := tc.p.Score(tc.l); got != tc.want {
			t.Errorf("%s: Score(%+v) = %d, want %d", tc.name, tc.l, got, tc.want)
		}
	}
	// Other strategies score nothing without a language.
	p, _ := New(Config{})
	if s := p.Score(Link{URL: "http://x.co.th/th/", Anchor: "ข่าว"}); s != 0 {
		t.Errorf("no language: score %d", s)
	}
}

// TestReadsAnchorText: the anchor's language is read for a target the
// script test cannot see (Latin letters, or a script others share), by a
// policy that reads links, and not for Thai or Lao alone.
func TestReadsAnchorText(t *testing.T) {
	for _, tc := range []struct {
		langs    []string
		strategy Strategy
		links    bool
		want     bool
	}{
		{[]string{"da"}, Evidence, false, true},
		{[]string{"sr"}, Evidence, false, true},
		{[]string{"zh-hant"}, Evidence, false, true},
		{[]string{"th"}, Evidence, false, false},
		{[]string{"th", "lo"}, Evidence, false, false},
		{[]string{"th", "vi"}, Evidence, false, true},
		{[]string{"da"}, Sequential, true, true},
		{[]string{"da"}, Sequential, false, false},
		{[]string{"da"}, ConservativeServer, false, false},
	} {
		p, err := New(Config{Strategy: tc.strategy, Langs: tc.langs, LinkEvidence: tc.links})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.ReadsAnchorText(); got != tc.want {
			t.Errorf("%v %s (link evidence %v): ReadsAnchorText %v, want %v", tc.langs, tc.strategy, tc.links, got, tc.want)
		}
	}
}

// TestContextSilent: the text around a link is read only where Score
// would count the reading: a link off a target page, with its lang
// attribute, its anchor's script and the text's own script silent.
func TestContextSilent(t *testing.T) {
	daTh := evidencePolicy(t, "da", "th")
	for _, tc := range []struct {
		name string
		l    Link
		want bool
	}{
		{"silent", Link{Anchor: "www.x.com", Context: "Her kan du læse om skolen"}, true},
		{"no text around", Link{Anchor: "www.x.com"}, false},
		{"on a target page", Link{Context: "Her kan du læse om skolen", FromTarget: true}, false},
		{"a lang attribute", Link{Lang: "en", Context: "Her kan du læse om skolen"}, false},
		{"the anchor's script speaks", Link{Anchor: "ข่าววันนี้", Context: "Her kan du læse om skolen"}, false},
		{"the text's script speaks", Link{Context: "ข่าววันนี้ Her kan du"}, false},
	} {
		if got := daTh.ContextSilent(tc.l); got != tc.want {
			t.Errorf("%s: ContextSilent %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestEvidenceNeedsLang(t *testing.T) {
	if _, err := New(Config{Strategy: Evidence}); !errors.Is(err, ErrConfig) {
		t.Errorf("evidence without a language: %v, want ErrConfig", err)
	}
	if st, err := ParseStrategy(" Evidence "); err != nil || st != Evidence {
		t.Errorf("ParseStrategy: %v %v", st, err)
	}
}

func TestDecideLink(t *testing.T) {
	p := evidencePolicy(t, "th") // T = 10
	var (
		unvisited  = Counts{}
		undecided  = Counts{Downloaded: 3}
		relevant   = Counts{Downloaded: 20, Relevant: 1}
		irrelevant = Counts{Downloaded: 11}
	)
	tests := []struct {
		name         string
		pageRelevant bool
		src, dest    Counts
		seen         bool
		s            Score
		want         Verdict
	}{
		{"seen", true, relevant, unvisited, true, Strong, Verdict{Reason: ReasonSeen}},
		{"relevant page, new server, no evidence: as Tamura", true, relevant, unvisited, false, 0,
			Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}},
		{"relevant page, new server, evidence against", true, relevant, unvisited, false, Against,
			Verdict{Reason: ReasonEvidenceAgainst}},
		{"relevant page, weak evidence against: as Tamura", true, relevant, unvisited, false, -1,
			Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}},
		{"undecided source, new server, no evidence: step 4.5", false, undecided, unvisited, false, 0,
			Verdict{Reason: ReasonUnvisited}},
		{"undecided source, new server, weak evidence: step 4.5", false, undecided, unvisited, false, Weak,
			Verdict{Reason: ReasonUnvisited}},
		{"undecided source, new server, strong evidence: Fig. 2", false, undecided, unvisited, false, Strong,
			Verdict{Enqueue: true, High: true, Reason: ReasonEvidenceFor}},
		{"irrelevant source, new server, strong evidence", false, irrelevant, unvisited, false, Strong,
			Verdict{Enqueue: true, High: true, Reason: ReasonEvidenceFor}},
		{"irrelevant destination, no evidence: step 5", true, relevant, irrelevant, false, Weak,
			Verdict{Reason: ReasonIrrelevantDest}},
		{"irrelevant destination, strong evidence", false, undecided, irrelevant, false, Strong,
			Verdict{Enqueue: true, High: true, Reason: ReasonEvidenceFor}},
		{"known server, evidence against: low", true, relevant, undecided, false, Against,
			Verdict{Enqueue: true, Reason: ReasonOtherPage}},
		{"other page to a known server: low", false, undecided, relevant, false, 0,
			Verdict{Enqueue: true, Reason: ReasonOtherPage}},
		{"other page, evidence for: high", false, undecided, relevant, false, Weak,
			Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}},
	}
	for _, tc := range tests {
		if got := p.DecideLink(tc.pageRelevant, tc.src, tc.dest, tc.seen, tc.s); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
	// The paper's strategies ignore the score.
	cs, _ := New(Config{Strategy: ConservativeServer})
	if got, want := cs.DecideLink(false, undecided, unvisited, false, MaxScore), cs.Decide(false, undecided, unvisited, false); got != want {
		t.Errorf("conservative-server with evidence: %+v, want %+v", got, want)
	}
	if p.Skip(irrelevant, true) || !p.Skip(irrelevant, false) {
		t.Error("the evidence strategy: want a high-priority URL of an irrelevant server kept (its evidence let it in), a low-priority one skipped")
	}
	if p.Key("a.example", "a.example/x/") != "a.example" {
		t.Error("the evidence strategy keys by server")
	}
}

// BenchmarkScore scores one link with every cue present: a Thai anchor,
// Thai text around it, hreflang, lang, a declared page language and a
// URL with a ccTLD and a language segment.
func BenchmarkScore(b *testing.B) {
	p, err := New(Config{Strategy: Evidence, Langs: []string{"th"}})
	if err != nil {
		b.Fatal(err)
	}
	l := Link{URL: "http://www.example.co.th/th/news/2024/page.html?id=3", Anchor: "ข่าววันนี้ทั้งหมด",
		Context: "อ่านเพิ่มเติม ข่าว ล่าสุด จาก", Hreflang: "th", Lang: "th", PageLang: "en"}
	b.ReportAllocs()
	for b.Loop() {
		p.Score(l)
	}
}

// TestSequentialLinkEvidence: with Config.LinkEvidence the sequential
// strategy decides links as the evidence strategy does, with its own
// verdict as the server status (a server judged foreign after four pages,
// which T = 10 would leave undecided, is re-entered only on strong
// evidence), and skips nothing at fetch time; without it, it ignores the
// score. It is for the sequential strategy only, and needs a language.
func TestSequentialLinkEvidence(t *testing.T) {
	p := mustNew(t, Config{Strategy: Sequential, Langs: []string{"th"}, ErrorBound: 0.01, MissBound: 0.01, LinkEvidence: true})
	plain := mustNew(t, Config{Strategy: Sequential, Langs: []string{"th"}, ErrorBound: 0.01, MissBound: 0.01})
	judged := Counts{Downloaded: 3, Evidence: -5166, Home: true} // irrelevant at 0.01, undecided under T
	relevant := Counts{Downloaded: 1, Relevant: 1, Evidence: 6018, Home: true}
	if p.Status(judged) != Irrelevant || !p.ReadsLinks() || plain.ReadsLinks() {
		t.Fatal("setup")
	}
	for _, c := range []struct {
		name string
		pol  *Policy
		src  Counts
		dest Counts
		s    Score
		want Verdict
	}{
		{"into a server judged foreign, no evidence", p, relevant, judged, Weak, Verdict{Reason: ReasonIrrelevantDest}},
		{"into a server judged foreign, strong evidence", p, relevant, judged, Strong, Verdict{Enqueue: true, High: true, Reason: ReasonEvidenceFor}},
		{"from a server judged foreign, strong evidence: Fig. 2", p, judged, Counts{}, Strong, Verdict{Enqueue: true, High: true, Reason: ReasonEvidenceFor}},
		{"relevant page, evidence against a new server", p, relevant, Counts{}, Against, Verdict{Reason: ReasonEvidenceAgainst}},
		{"a link of its own server with evidence for: first", p, Counts{Downloaded: 1, Evidence: -1722}, Counts{Downloaded: 1, Evidence: -1722}, Weak,
			Verdict{Enqueue: true, High: true, Reason: ReasonRelevantPage}},
		{"without link evidence the score is ignored", plain, relevant, judged, Strong, Verdict{Reason: ReasonIrrelevantDest}},
	} {
		if got := c.pol.DecideLink(false, c.src, c.dest, false, c.s); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
	if p.Skip(judged, true) || !p.Skip(judged, false) || !plain.Skip(judged, true) || !plain.Skip(judged, false) {
		t.Error("fetch-time skip: with link evidence, want only low-priority URLs skipped (a high one was let in by its evidence); without, all")
	}
	for _, cfg := range []Config{
		{Strategy: ConservativeServer, Langs: []string{"th"}, LinkEvidence: true},
		{Strategy: Sequential, LinkEvidence: true},
	} {
		if _, err := New(cfg); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "link_evidence") {
			t.Errorf("%+v: err = %v, want one naming focus.link_evidence", cfg, err)
		}
	}
}

// TestInTarget: a page's language against the target set, "no" for either
// Norwegian standard; unknown without target languages.
func TestInTarget(t *testing.T) {
	p := mustNew(t, Config{Strategy: ConservativeServer, Langs: []string{"nb", "nn"}})
	for lang, want := range map[string]bool{"nb": true, "nn": true, "no": true, "da": false, "": false} {
		if in, known := p.InTarget(lang); in != want || !known {
			t.Errorf("InTarget(%q) = %v, %v; want %v, true", lang, in, known, want)
		}
	}
	if _, known := mustNew(t, Config{Strategy: ConservativeServer}).InTarget("th"); known {
		t.Error("InTarget known without target languages")
	}
}

// TestShareScript: languages written in one non-Latin script that others
// share; Latin-script ones, and a script of its own, share nothing here.
func TestShareScript(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"ja", "zh-hant", true}, {"zh", "ja", true}, {"ru", "sr", true}, {"kk", "sr", true}, {"fa", "ur", true},
		{"mr", "hi", true}, {"ZH-Hans", "zh-hant", true},
		{"en", "da", false}, {"th", "lo", false}, {"ja", "ko", false}, {"ru", "hi", false}, {"", "zh", false}, {"ja", "", false},
	} {
		if got := ShareScript(tc.a, tc.b); got != tc.want {
			t.Errorf("ShareScript(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
