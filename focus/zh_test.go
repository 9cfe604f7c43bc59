package focus

import "testing"

// TestScriptLangCueExplicitScript: a link tagged explicitly Simplified (hreflang zh-Hans, zh-CN)
// counts for a Traditional-only target, as if it were a bare "zh".
func TestScriptLangCueExplicitScript(t *testing.T) {
	for _, tag := range []string{"zh-Hans", "zh-CN", "zh_CN"} {
		if got := langCue(tag, targets{"zh-hant"}); got > 0 {
			t.Errorf("langCue(%q, zh-hant) = %d: an explicitly Simplified link counts for Traditional", tag, got)
		}
	}
	if got := langCue("zh-Hant", targets{"zh-hans"}); got > 0 {
		t.Errorf("langCue(zh-Hant, zh-hans) = %d", got)
	}
}

// TestScriptNamesTargetScript: URL sections. A Simplified section (?lang=zh-cn, /zh-cn/) is read
// as the Traditional target's section (NamesTarget: query-rule exemption,
// report's section URLs, sequential re-check), and the forms CMSs use for
// the scripts (/zh-hant/, ?lang=zh-hant: WPML, Drupal) are not read at all,
// though the report's text offers `/zh-hant/` and `?lang=zh-hant` as the
// examples of a section URL.
func TestScriptNamesTargetScript(t *testing.T) {
	p := mustNew(t, Config{Strategy: ConservativeServer, Langs: []string{"zh-hant"}})
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"http://x.test/news.php?lang=zh-cn&id=3", false},
		{"http://x.test/zh-cn/news/", false},
		{"http://x.test/news.php?lang=zh-hant&id=3", true},
		{"http://x.test/zh-hant/news/", true},
	} {
		if got := p.NamesTarget(c.url); got != c.want {
			t.Errorf("zh-hant NamesTarget(%s) = %v, want %v", c.url, got, c.want)
		}
	}
	if got := urlCues("http://x.test/news.php?lang=zh-cn", targets{"zh-hant"}); got > 0 {
		t.Errorf("urlCues(?lang=zh-cn, zh-hant) = %d, a Simplified URL scored for Traditional", got)
	}
}

// TestScriptInTarget: a stored language with its script is judged by the
// script under a zh-hant target; a bare zh, recorded before the crawl kept
// the tag, is not known (the caller keeps the capture's own verdict). A
// review found every Chinese page in a zh-hant target on a re-crawl's 304.
func TestScriptInTarget(t *testing.T) {
	p := mustNew(t, Config{Strategy: ConservativeServer, Langs: []string{"zh-hant"}})
	for lang, want := range map[string][2]bool{"zh-Hans": {false, true}, "zh-Hant": {true, true}, "zh": {false, false}, "ja": {false, true}} {
		if in, known := p.InTarget(lang); in != want[0] || known != want[1] {
			t.Errorf("InTarget(%q) under zh-hant = %v, %v; want %v, %v", lang, in, known, want[0], want[1])
		}
	}
}

// TestScriptSetHantThenZh: New dedups Config.Langs with targets.has, which now matches a
// bare "zh" against an earlier "zh-hant", so the set [zh-hant, zh] (which
// config accepts and the detector takes whole: every Chinese page
// relevant) becomes the policy's [zh-hant] alone: .cn is then a foreign
// country domain for the URL cues and the report, and ?lang=zh-hans links
// count against.
func TestScriptSetHantThenZh(t *testing.T) {
	p := mustNew(t, Config{Strategy: ConservativeServer, Langs: []string{"zh-hant", "zh"}})
	if !p.TargetDomain("www.example.cn") {
		t.Errorf("target set [zh-hant, zh] (policy langs now %v): .cn is not a target country domain", p.cfg.Langs)
	}
	if got := urlCues("http://www.example.cn/", targets(p.cfg.Langs)); got < 0 {
		t.Errorf("target set [zh-hant, zh]: urlCues(.cn) = %d", got)
	}
}
