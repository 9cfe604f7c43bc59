package detect

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// evalPage is one generated page of the evaluation set.
type evalPage struct {
	name        string // tag/charset/scenario/index
	scenario    string
	tag         string
	charset     string // the true charset of the bytes
	body        []byte
	contentType string
	metaThai    bool // META names a Thai charset (the paper's META method)
	// The list set (lists_test.go): how the list is written and which
	// template holds it (-1 for none).
	form     string
	template int
}

// loadHeldOut reads the held-out UDHR paragraphs, by tag.
func loadHeldOut(t testing.TB) (map[string][]string, []string) {
	t.Helper()
	return loadEvalText(t, HeldOutFile)
}

// loadEvalText reads an evaluation text written by Build ("tag\ttext"
// lines, gzip), by tag, with the tags in file order.
func loadEvalText(t testing.TB, file string) (map[string][]string, []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read held-out text: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	by := map[string][]string{}
	var tags []string
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		tag, text, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("bad held-out line %q", sc.Text())
		}
		if by[tag] == nil {
			tags = append(tags, tag)
		}
		by[tag] = append(by[tag], text)
	}
	return by, tags
}

const navEnglish = `<ul class="nav"><li><a href="/">Home</a></li><li><a href="/about">About us</a></li>
<li><a href="/news">News</a></li><li><a href="/products">Products</a></li><li><a href="/contact">Contact</a></li>
<li><a href="/login">Login</a></li><li><a href="/register">Register</a></li><li><a href="/search">Search</a></li></ul>`

const footerEnglish = `<div class="footer"><p>Copyright 2007 All rights reserved.</p><p><a href="/privacy">Privacy policy</a> | <a href="/terms">Terms of use</a> | <a href="/sitemap">Site map</a></p></div>`

// pageText picks paragraphs for page i of a language so that the text has
// at least minRunes characters. Short headings ("Article 5") are skipped.
func pageText(paras []string, i, minRunes int) string {
	var sb strings.Builder
	for k := 0; k < len(paras) && utf8.RuneCountInString(sb.String()) < minRunes; k++ {
		p := paras[(i*3+k)%len(paras)]
		if utf8.RuneCountInString(p) < 20 {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("</p>\n<p>")
		}
		sb.WriteString(p)
	}
	return sb.String()
}

func wrong(cs string) string {
	if cs == "utf-8" {
		return "windows-1252"
	}
	return "utf-8"
}

// withoutTags returns the pages whose true tag is none of tags: the set
// as it was before a language was added, to hold the languages supported
// before to their floors like for like.
func withoutTags(pages []evalPage, tags ...string) []evalPage {
	var out []evalPage
	for _, p := range pages {
		if !slices.Contains(tags, p.tag) {
			out = append(out, p)
		}
	}
	return out
}

// evalSet builds the evaluation pages deterministically from held-out
// text, by tag.
func evalSet(t testing.TB, by map[string][]string, tags []string) []evalPage {
	specs := map[string]langSpec{}
	for _, l := range languages {
		specs[l.Tag] = l
	}
	specs["und"] = langSpec{Tag: "und"}
	var pages []evalPage
	add := func(p evalPage) {
		p.name = fmt.Sprintf("%s/%s/%s/%d", p.tag, p.charset, p.scenario, len(pages))
		pages = append(pages, p)
	}
	for _, tag := range tags {
		paras := by[tag]
		charsets := append([]string{"utf-8"}, specs[tag].Charsets...)
		if tag == "ja" {
			charsets = append(charsets, "iso-2022-jp")
		}
		for ci, cs := range charsets {
			enc := func(s string) []byte {
				b, err := encodeLegacy(s, cs)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			metaLabel := cs
			if cs == "windows-874" && ci%2 == 1 {
				metaLabel = "TIS-620"
			}
			thai := func(label string) bool {
				l := strings.ToLower(label)
				return l == "tis-620" || l == "windows-874"
			}
			head := func(metas ...string) string {
				var sb strings.Builder
				sb.WriteString("<!DOCTYPE html>\n<html><head>")
				for _, m := range metas {
					fmt.Fprintf(&sb, "<META http-equiv=\"Content-Type\" content=\"text/html; charset=%s\">\n", m)
				}
				sb.WriteString("<title>t</title><script>var x = '<p>English text in a script</p>';</script><style>p{color:red}</style></head><body>\n")
				return sb.String()
			}
			for i := 0; i < 3; i++ {
				txt := pageText(paras, i+ci, 200)
				body := func(h, pre, post string) []byte {
					return append(enc(h+pre+"<p>"), append(enc(txt), enc("</p>"+post+"</body></html>")...)...)
				}
				add(evalPage{scenario: "meta", tag: tag, charset: cs, body: body(head(metaLabel), "", ""), metaThai: thai(metaLabel)})
				add(evalPage{scenario: "html5-meta", tag: tag, charset: cs,
					body: body(fmt.Sprintf("<!doctype html><meta charset=%q><body>", metaLabel), "", ""), metaThai: thai(metaLabel)})
				add(evalPage{scenario: "none", tag: tag, charset: cs, body: body(head(), "", "")})
				add(evalPage{scenario: "noise-meta", tag: tag, charset: cs, body: body(head("ISO-8859-1"), "", "")})
				add(evalPage{scenario: "wrong-meta", tag: tag, charset: cs, body: body(head(wrong(cs)), "", "")})
				add(evalPage{scenario: "repeated-meta", tag: tag, charset: cs, body: body(head(wrong(cs), metaLabel), "", ""), metaThai: thai(metaLabel)})
				add(evalPage{scenario: "wrong-header", tag: tag, charset: cs, body: body(head(), "", ""),
					contentType: "text/html; charset=" + wrong(cs)})
				add(evalPage{scenario: "header-vs-meta", tag: tag, charset: cs, body: body(head(metaLabel), "", ""),
					contentType: "text/html; charset=" + wrong(cs), metaThai: thai(metaLabel)})
				add(evalPage{scenario: "boilerplate", tag: tag, charset: cs,
					body: body(head(metaLabel), navEnglish+navEnglish, footerEnglish), metaThai: thai(metaLabel)})
				// The paragraph in a page template with English around it
				// (boilerplateTemplates): header, notices, menus, code,
				// markup-heavy wrappers.
				add(evalPage{scenario: "template", tag: tag, charset: cs, metaThai: thai(metaLabel),
					body: enc(boilerplatePage(txt, i+ci, metaLabel))})
				// Short text: one sentence or so, inside navigation.
				short := cutRunes(pageText(paras, i+ci+7, 50), 50)
				add(evalPage{scenario: "short+nav", tag: tag, charset: cs, metaThai: thai(metaLabel),
					body: append(enc(head(metaLabel)+navEnglish+"<p>"), append(enc(short), enc("</p>"+footerEnglish+"</body></html>")...)...)})
				// Tiny: a phrase of 25 characters and nothing else.
				add(evalPage{scenario: "tiny", tag: tag, charset: cs, metaThai: thai(metaLabel),
					body: append(enc(head(metaLabel)+"<p>"), append(enc(cutRunes(pageText(paras, i+ci+11, 25), 25)), enc("</p></body></html>")...)...)})
				if tag == "ja" && i == 0 {
					add(evalPage{scenario: "kanji-heavy", tag: tag, charset: cs,
						body: append(enc(head()+"<p>"), append(enc(kanjiHeavy(paras, 80)), enc("</p></body></html>")...)...)})
				}
				if cs == "utf-8" {
					// The whole text as numeric character references in an ASCII page.
					var sb strings.Builder
					for _, r := range txt {
						if r < 0x80 {
							sb.WriteRune(r)
						} else {
							fmt.Fprintf(&sb, "&#%d;", r)
						}
					}
					add(evalPage{scenario: "ncr", tag: tag, charset: "windows-1252",
						body: []byte(head("iso-8859-1") + "<p>" + sb.String() + "</p></body></html>")})
				}
			}
		}
	}
	return pages
}

// charsetOK: the detected charset is right if it is the true one or
// decodes the page to the same text.
func charsetOK(p evalPage, got string) bool {
	if got == p.charset {
		return true
	}
	a, err1 := Decode(p.body, got)
	b, err2 := Decode(p.body, p.charset)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

type tally struct {
	n, lang, cs int
	conf        float64 // sum of confidences
}

// evalDetector returns the detector under evaluation: the embedded
// profiles, or those in the file $LANGCRAWL_PROFILES (written by
// go run ./tools/buildprofiles -profiles FILE), to measure another
// training set on the same pages; with $LANGCRAWL_NOWORDS set, without
// the close groups' word models.
func evalDetector(t *testing.T) *Detector {
	t.Helper()
	o := Options{Targets: []string{"th"}}
	if os.Getenv("LANGCRAWL_NOWORDS") != "" {
		o.noWords = true // the trigram stage alone
		t.Log("close-group word models off (LANGCRAWL_NOWORDS)")
	}
	if f := os.Getenv("LANGCRAWL_PROFILES"); f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		o.profiles = data
		t.Logf("profiles from LANGCRAWL_PROFILES=%s", f)
	}
	d, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// evalResult is what one evaluation run measured.
type evalResult struct {
	pages, languages int
	lang, charset    float64            // accuracies
	thaiP, thaiR     float64            // Thai precision and recall
	byLang           map[string]float64 // language accuracy per ISO code
	pairs            map[string]float64 // "a>b": share of a's pages not taken by b
	ece              float64            // expected calibration error of the confidence
	enP              float64            // English precision on paragraph pages (not tiny, short+nav)
	byScen           map[string]float64 // language accuracy per scenario
	toEn             map[string]int     // pages of other languages detected as English, per scenario
	// targets holds, per ISO code L, the pages counted for Relevant
	// with target L (TargetFigures).
	targets map[string]*TargetFigures
}

// shortScenario reports whether a scenario is one of the short-text ones
// that the per-target goal leaves apart.
func shortScenario(s string) bool { return s == "tiny" || s == "short+nav" }

// evaluate runs d over pages and logs the numbers: by scenario, the
// languages below 100%, the totals, and the paper's META method.
func evaluate(t *testing.T, d *Detector, pages []evalPage) evalResult {
	t.Helper()
	var all tally
	byScen := map[string]*tally{}
	byLang := map[string]*tally{}
	var tp, fp, fn, mtp, mfp, mfn int
	var failures []string
	confusion := map[string]map[string]int{} // true language -> detected language -> misses
	tagN := map[string]int{}                 // pages by true tag
	tagConf := map[string]map[string]int{}   // true tag -> detected tag -> pages
	var rel reliability
	var enTP, enFP, enShortTP, enShortFP int // paragraph pages; tiny and short+nav
	targets := map[string]*TargetFigures{}
	toEn := map[string]int{}
	target := func(l string) *TargetFigures {
		if targets[l] == nil {
			targets[l] = &TargetFigures{Lang: l}
		}
		return targets[l]
	}
	for _, p := range pages {
		r := d.Detect(p.body, p.contentType)
		want := iso(p.tag)
		okL, okC := r.Lang == want, charsetOK(p, r.Charset)
		// With no TargetCharsets, Relevant is "the language is the
		// target": so one run measures every language as the target.
		if len(d.opts.Targets) != 1 || r.Relevant != (r.Lang == d.opts.Targets[0]) || len(d.opts.TargetCharsets) > 0 {
			t.Fatalf("%s: relevant %v for %s with target %s: the per-target figures assume Relevant == (Lang == Target)", p.name, r.Relevant, r.Lang, d.opts.Targets)
		}
		count := func(l string) *TargetCounts {
			if shortScenario(p.scenario) {
				return &target(l).Short
			}
			return &target(l).Paragraph
		}
		switch {
		case okL && want != "und":
			count(want).TP++
		case !okL:
			if want != "und" {
				count(want).FN++
			}
			if r.Lang != "und" {
				count(r.Lang).FP++
			}
		}
		if r.Lang != "und" {
			rel.add(r.Confidence, okL)
		}
		if r.Lang == "en" && !okL {
			toEn[p.scenario]++
		}
		if r.Lang == "en" {
			para := p.scenario != "tiny" && p.scenario != "short+nav"
			switch {
			case okL && para:
				enTP++
			case para:
				enFP++
			case okL:
				enShortTP++
			default:
				enShortFP++
			}
		}
		for _, tl := range []*tally{&all, get(byScen, p.scenario), get(byLang, want)} {
			tl.n++
			tl.conf += r.Confidence
			if okL {
				tl.lang++
			}
			if okC {
				tl.cs++
			}
		}
		tagN[p.tag]++
		if tagConf[p.tag] == nil {
			tagConf[p.tag] = map[string]int{}
		}
		tagConf[p.tag][r.Tag]++
		if !okL {
			if confusion[want] == nil {
				confusion[want] = map[string]int{}
			}
			confusion[want][r.Lang]++
		}
		if (!okL || !okC) && len(failures) < 40 {
			failures = append(failures, fmt.Sprintf("%s: got %s/%s (%s, %.3f)", p.name, r.Lang, r.Charset, r.Evidence, r.Confidence))
		}
		isThai := want == "th"
		switch {
		case r.Relevant && isThai:
			tp++
		case r.Relevant:
			fp++
		case isThai:
			fn++
		}
		// The paper's META method: a Thai charset in the last valid META.
		switch {
		case p.metaThai && isThai:
			mtp++
		case p.metaThai:
			mfp++
		case isThai:
			mfn++
		}
	}
	for _, f := range failures {
		t.Log("miss:", f)
	}
	for _, s := range keys(byScen) {
		x := byScen[s]
		t.Logf("scenario %-15s pages %5d  lang %.4f  charset %.4f  mean confidence %.3f", s, x.n, ratio(x.lang, x.n), ratio(x.cs, x.n), x.conf/float64(x.n))
	}
	for _, l := range keys(byLang) {
		if x := byLang[l]; x.lang < x.n {
			t.Logf("language %-3s pages %4d  lang %.4f  charset %.4f  misses to %s", l, x.n, ratio(x.lang, x.n), ratio(x.cs, x.n), confusionList(confusion[l]))
		}
	}
	t.Logf("misses by detected language: %s", confusionList(missesTo(confusion)))
	res := evalResult{pages: all.n, languages: len(byLang), lang: ratio(all.lang, all.n), charset: ratio(all.cs, all.n),
		thaiP: ratio(tp, tp+fp), thaiR: ratio(tp, tp+fn), byLang: map[string]float64{}}
	for l, x := range byLang {
		res.byLang[l] = ratio(x.lang, x.n)
	}
	res.byScen, res.toEn = map[string]float64{}, toEn
	for sc, x := range byScen {
		res.byScen[sc] = ratio(x.lang, x.n)
	}
	res.pairs = map[string]float64{}
	for _, pr := range closePairs {
		for _, dir := range [][2]string{{pr[0], pr[1]}, {pr[1], pr[0]}} {
			x := byLang[dir[0]]
			if x == nil {
				continue
			}
			res.pairs[dir[0]+">"+dir[1]] = 1 - ratio(confusion[dir[0]][dir[1]], x.n)
			t.Logf("pair %s->%s: %d of %d pages (%.4f) right, %d went to %s", dir[0], dir[1], x.lang, x.n, ratio(x.lang, x.n), confusion[dir[0]][dir[1]], dir[1])
		}
	}
	for _, pr := range closeTagPairs {
		for _, dir := range [][2]string{{pr[0], pr[1]}, {pr[1], pr[0]}} {
			if tagN[dir[0]] == 0 {
				continue
			}
			k := tagConf[dir[0]][dir[1]]
			res.pairs[dir[0]+">"+dir[1]] = 1 - ratio(k, tagN[dir[0]])
			t.Logf("pair %s->%s: %d of %d pages right, %d went to %s", dir[0], dir[1], tagConf[dir[0]][dir[0]], tagN[dir[0]], k, dir[1])
		}
	}
	res.ece = rel.log(t)
	res.enP = ratio(enTP, enTP+enFP)
	res.targets = targets
	var meet, all2 []string
	for _, l := range sortedKeys(targets) {
		f := targets[l]
		all2 = append(all2, l)
		if f.MeetsGoal() {
			meet = append(meet, l)
		}
		t.Logf("target %-3s paragraph pages %4d precision %.4f recall %.4f (fp %d fn %d); short pages %4d precision %.4f recall %.4f (fp %d fn %d)",
			l, f.Paragraph.Pages(), f.Paragraph.Precision(), f.Paragraph.Recall(), f.Paragraph.FP, f.Paragraph.FN,
			f.Short.Pages(), f.Short.Precision(), f.Short.Recall(), f.Short.FP, f.Short.FN)
	}
	t.Logf("targets meeting precision >= %.3f and recall >= %.2f on paragraph pages: %d of %d", GoalPrecision, GoalRecall, len(meet), len(all2))
	t.Logf("English precision %.4f on paragraph pages (%d of %d detected as English), %.4f on the short scenarios (%d of %d)",
		res.enP, enTP, enTP+enFP, ratio(enShortTP, enShortTP+enShortFP), enShortTP, enShortTP+enShortFP)
	t.Logf("pages %d languages %d: language accuracy %.4f, charset accuracy %.4f", res.pages, res.languages, res.lang, res.charset)
	t.Logf("Thai: precision %.4f recall %.4f (tp %d fp %d fn %d)", res.thaiP, res.thaiR, tp, fp, fn)
	t.Logf("Thai by META alone: precision %.4f recall %.4f", ratio(mtp, mtp+mfp), ratio(mtp, mtp+mfn))
	return res
}

// checkFloors fails the test for every number below its floor.
func checkFloors(t *testing.T, r evalResult, lang, charset, thaiP, thaiR float64, minLanguages int) {
	t.Helper()
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"language accuracy", r.lang, lang},
		{"charset accuracy", r.charset, charset},
		{"Thai precision", r.thaiP, thaiP},
		{"Thai recall", r.thaiR, thaiR},
	} {
		if f.got < f.want {
			t.Errorf("%s %.4f, below the floor %.4f", f.name, f.got, f.want)
		}
	}
	if r.languages < minLanguages {
		t.Errorf("evaluation covers %d languages, want >= %d", r.languages, minLanguages)
	}
}

// closeTagPairs are close pairs of profile tags of one language, measured
// both ways by tag: simplified and traditional Chinese.
var closeTagPairs = [][2]string{{"zh-Hans", "zh-Hant"}}

// closePairs are the close pairs issue 14 measures both ways.
var closePairs = [][2]string{
	{"ms", "id"}, {"da", "nb"}, {"nb", "nn"}, {"da", "nn"}, {"hr", "sl"}, {"hr", "sr"}, {"sr", "mk"}, {"cs", "sk"},
	{"es", "ca"}, {"es", "gl"}, {"es", "pt"}, {"gl", "pt"}, {"ca", "gl"},
	{"hi", "ne"}, {"hi", "mr"}, {"ne", "mr"},
	{"ru", "uk"}, {"ru", "be"}, {"uk", "be"}, {"ru", "bg"}, {"uk", "bg"}, {"bg", "mk"},
	{"zh", "ja"},
}

// checkECE fails the test when the expected calibration error is above
// its ceiling.
func checkECE(t *testing.T, r evalResult, ceiling float64) {
	t.Helper()
	if r.ece > ceiling {
		t.Errorf("expected calibration error %.4f, above the ceiling %.4f", r.ece, ceiling)
	}
}

// checkLangFloors fails the test for every language below its floor.
func checkLangFloors(t *testing.T, r evalResult, floors map[string]float64) {
	t.Helper()
	for l, want := range floors {
		if got := r.byLang[l]; got < want {
			t.Errorf("language %s accuracy %.4f, below the floor %.4f", l, got, want)
		}
	}
}

// TestEvaluation measures the detector on pages built from held-out UDHR
// articles: the same document as the training text, so in-domain.
func TestEvaluation(t *testing.T) {
	by, tags := loadHeldOut(t)
	r := evaluate(t, evalDetector(t), evalSet(t, by, tags))
	// Floors, set a little under a measured run (see docs/detect.md).
	// Measured 0.9970 / 0.9976 / 1 / 1 over 95 tags and 6,991 pages with
	// the Mac charsets, ISO-8859-4 and ISO-8859-10 (0.9971 / 0.9973 over
	// the 6,232 pages before them) with the word lists,
	// the charset prior and the few-high-bytes charsets of issue 3 (0.9976
	// when the last also overrode declared charsets; 0.9970 before them, with names left out of scoring and page furniture
	// dropped; 0.9963 before those; 0.9891 without
	// the close-group word models, 0.9840 / 0.9981 before the training
	// catalogues of issue 3).
	//
	// With Nynorsk (variant.go) the set gained 111 Nynorsk pages, of
	// which 14 short ones go to Bokmål or Swedish: measured 0.9959 over all
	// pages. The pages of the languages supported before keep the floor
	// above, like for like: not one of them changed.
	checkFloors(t, r, 0.995, 0.995, 0.995, 0.99, 90)
	checkFloors(t, evaluate(t, evalDetector(t), withoutTags(evalSet(t, by, tags), "nn")), 0.996, 0.995, 0.995, 0.99, 90)
	// Calibration (issue 14): measured 0.0037, 0.0031 with Nynorsk (0.0023 with the
	// uncalibrated 1 - 0.5·e^-z, which is near 1 on nearly every page).
	checkECE(t, r, 0.01)
	// The close pairs the word models decide. Measured: Indonesian 0.971
	// (0.478 without them: 35 of 69 pages went to Malay), Malay, Danish,
	// Bokmål and Slovenian 1, Macedonian 0.971.
	checkLangFloors(t, r, map[string]float64{"id": 0.94, "ms": 0.97, "da": 0.97, "nb": 0.97, "sl": 0.97, "mk": 0.94})
	// Nynorsk measured 0.8739: every paragraph page right, 13 of the 18
	// short ones to Bokmål and one to Swedish (the variant prior keeps a
	// short text the words cannot tell apart with Bokmål; variant.go).
	checkLangFloors(t, r, map[string]float64{"nn": 0.87})
	// Each close pair both ways (issue 14): the share of a's pages that
	// did not go to b, at the measured run with the spelling features of
	// issue 14's third part (docs/detect.md has the run before them).
	// Every language as the target (issue 14): on paragraph pages every
	// one measured precision and recall 1.
	checkTargetFloors(t, r, nil)
	checkMeasured(t, r, SetInDomain)
	checkPairFloors(t, r, map[string]float64{"ms>id": 1, "id>ms": 0.986, "da>nb": 1, "nb>da": 1, "nb>nn": 1, "nn>nb": 0.882, "da>nn": 1, "nn>da": 1, "hr>sl": 1, "sl>hr": 1, "hr>sr": 1, "sr>hr": 1, "sr>mk": 1, "mk>sr": 1, "cs>sk": 1, "sk>cs": 1, "es>ca": 1, "ca>es": 1, "es>gl": 0.99, "gl>es": 1, "es>pt": 1, "pt>es": 1, "gl>pt": 1, "pt>gl": 1, "ca>gl": 1, "gl>ca": 1, "hi>ne": 1, "ne>hi": 1, "hi>mr": 1, "mr>hi": 1, "ne>mr": 1, "mr>ne": 1, "ru>uk": 1, "uk>ru": 0.993, "ru>be": 1, "be>ru": 1, "uk>be": 1, "be>uk": 1, "ru>bg": 1, "bg>ru": 1, "uk>bg": 0.986, "bg>uk": 1, "bg>mk": 1, "mk>bg": 1, "zh>ja": 1, "ja>zh": 1, "zh-Hans>zh-Hant": 1, "zh-Hant>zh-Hans": 1})
}

// TestEvaluationCatalogue measures the detector on pages built from the
// message catalogues held out of training (corpora/SOURCES.md): user
// interface text, country names and file type descriptions, which no
// profile has seen, so out of domain for the UDHR.
func TestEvaluationCatalogue(t *testing.T) {
	by, tags := loadEvalText(t, CatalogueEvalFile)
	r := evaluate(t, evalDetector(t), evalSet(t, by, tags))
	// Floors, set a little under a measured run (see docs/detect.md).
	// Measured 0.9720 / 0.9957 / 1 / 1 over 88 tags and 6,574 pages with
	// the Mac charsets, ISO-8859-4 and ISO-8859-10 (0.9728 / 0.9967 over
	// the 5,815 pages before them) with the Tesseract
	// word lists of four thin languages in training, the charset prior and
	// the charsets of the ASCII text's language tried on undeclared pages
	// with few high bytes (0.9708 / 0.9947 without the last; 0.9699 without the
	// prior; 0.9622 / 0.9948 before both, with names
	// left out of scoring and page furniture dropped; 0.9610 / 0.9945
	// before those; 0.9458 / 0.9935 before issue 3); profiles trained on
	// the UDHR alone fail.
	//
	// With Nynorsk: 0.9735 over all pages; on the pages of the languages
	// supported before, 0.9748 against 0.9750 (one short Faroese page, whose trigrams
	// came nearest Nynorsk's, went to Bokmål).
	checkFloors(t, r, 0.970, 0.99, 0.995, 0.99, 85)
	checkFloors(t, evaluate(t, evalDetector(t), withoutTags(evalSet(t, by, tags), "nn")), 0.970, 0.99, 0.995, 0.99, 85)
	// Calibration (issue 14): measured 0.0044 (0.0062 uncalibrated; the
	// goal is 0.03); 0.0043 with Nynorsk.
	checkECE(t, r, 0.01)
	// English precision on paragraph pages (issue 14): measured 1 with
	// metadata lines and runs of short blocks (extract.go); 0.9688 before
	// them (three German pages of names beside "Last updated on January
	// 5, 2020 by the documentation team"), 0.3859 before page furniture in
	// templates was dropped (148 pages of other languages in the templates
	// came out English).
	if r.enP < 0.99 {
		t.Errorf("English precision %.4f on paragraph pages, below the floor 0.99", r.enP)
	}
	// Tigrinya measured 1 (0.083 before its word list: 33 of 36 pages,
	// country names, went to Amharic).
	checkLangFloors(t, r, map[string]float64{"ti": 0.97})
	// Danish measured 0.928 (0.913 without the word models; 0.638 before
	// names were left out of scoring: 20 of 69 pages went to Bokmål).
	checkLangFloors(t, r, map[string]float64{"da": 0.89, "id": 0.93, "ms": 0.87})
	// Nynorsk measured 0.8919: every paragraph page right, 10 short ones
	// to Bokmål and two to Swedish.
	checkLangFloors(t, r, map[string]float64{"nn": 0.89})
	// Every language as the target (issue 14), paragraph pages: at the
	// measured run, {precision, recall}; every language not listed
	// measured 1 and 1. Before metadata lines were furniture (issue 14's
	// second part), three German template pages whose paragraph is
	// file-format and country names went to English, and a Hausa one of
	// country names to Indonesian: de, en, ha and id missed the goal.
	checkTargetFloors(t, r, nil)
	checkMeasured(t, r, SetOutOfDomain)
	// Each close pair both ways (issue 14), as in TestEvaluation. gl>es
	// went from 1 to 0.973 with the spelling features (two 25-character
	// snippets), while es>pt went from 0.973 to 1, ru>bg from 0.977 to
	// 0.981 and sr>mk from 0.955 to 0.945 (docs/detect.md).
	checkPairFloors(t, r, map[string]float64{"ms>id": 0.946, "id>ms": 1, "da>nb": 0.972, "nb>da": 0.99, "nb>nn": 1, "nn>nb": 0.909, "da>nn": 1, "nn>da": 1, "hr>sl": 1, "sl>hr": 0.972, "hr>sr": 1, "sr>hr": 1, "sr>mk": 0.945, "mk>sr": 1, "cs>sk": 0.972, "sk>cs": 1, "es>ca": 1, "ca>es": 1, "es>gl": 1, "gl>es": 0.973, "es>pt": 1, "pt>es": 1, "gl>pt": 1, "pt>gl": 0.981, "ca>gl": 1, "gl>ca": 1, "hi>ne": 1, "ne>hi": 1, "hi>mr": 1, "mr>hi": 1, "ne>mr": 1, "mr>ne": 1, "ru>uk": 1, "uk>ru": 1, "ru>be": 0.99, "be>ru": 1, "uk>be": 1, "be>uk": 1, "ru>bg": 0.981, "bg>ru": 1, "uk>bg": 1, "bg>uk": 0.981, "bg>mk": 0.99, "mk>bg": 1, "zh>ja": 1, "ja>zh": 1, "zh-Hans>zh-Hant": 1, "zh-Hant>zh-Hans": 1})
}

// update rewrites MeasuredFile from the evaluation run.
var update = flag.Bool("update", false, "TestEvaluation, TestEvaluationCatalogue, TestEvaluationTrial: rewrite "+MeasuredFile+" with this run's per-target figures")

// checkTargetFloors fails the test for every target language whose
// precision or recall on paragraph pages is below its floor: floors[L]
// holds {precision, recall}; a language not listed must have 1 and 1 (no
// page missed, none taken from another language). A language with no
// relevant page has precision 1 unless it has pages.
func checkTargetFloors(t *testing.T, r evalResult, floors map[string][2]float64) {
	t.Helper()
	for _, l := range sortedKeys(r.targets) {
		c := r.targets[l].Paragraph
		want, ok := floors[l]
		if !ok {
			want = [2]float64{1, 1}
		}
		p, rec := c.Precision(), c.Recall()
		if c.TP+c.FP == 0 {
			p = 1
		}
		if c.Pages() == 0 {
			rec = 1
		}
		if p < want[0] || rec < want[1] {
			t.Errorf("target %s on paragraph pages: precision %.4f recall %.4f (fp %d fn %d), below the floors %.4f / %.4f",
				l, p, rec, c.FP, c.FN, want[0], want[1])
		}
	}
	for l := range floors {
		if r.targets[l] == nil {
			t.Errorf("target %s has a floor but no pages", l)
		}
	}
}

// checkMeasured compares this run's per-target figures with the rows of
// set in the embedded MeasuredFile, or with -update writes them there
// (keeping the other set's rows). Not with other profiles or without the
// word models: the file describes the shipped detector.
func checkMeasured(t *testing.T, r evalResult, set string) {
	t.Helper()
	if os.Getenv("LANGCRAWL_PROFILES") != "" || os.Getenv("LANGCRAWL_NOWORDS") != "" {
		t.Logf("%s not checked: not the shipped detector", MeasuredFile)
		return
	}
	var got []TargetFigures
	for _, l := range sortedKeys(r.targets) {
		f := *r.targets[l]
		f.Set = set
		got = append(got, f)
	}
	if *update {
		// The file on disk, not the embedded copy: the other test may
		// have rewritten it in this run.
		data, err := os.ReadFile(MeasuredFile)
		if err != nil {
			t.Fatal(err)
		}
		cur, err := parseMeasured(string(data))
		if err != nil {
			t.Logf("%s unreadable (%v): written anew", MeasuredFile, err)
			cur = nil
		}
		for _, f := range cur {
			if f.Set != set {
				got = append(got, f)
			}
		}
		if err := os.WriteFile(MeasuredFile, []byte(formatMeasured(got)), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote the %s rows of %s", set, MeasuredFile)
		return
	}
	want := map[string]TargetFigures{}
	for _, f := range Measured(set) {
		want[f.Lang] = f
	}
	for _, f := range got {
		w, ok := want[f.Lang]
		delete(want, f.Lang)
		if !ok || w != f {
			t.Errorf("%s %s: measured %+v, the embedded %s says %+v", set, f.Lang, f, MeasuredFile, w)
		}
	}
	for l, w := range want {
		t.Errorf("%s %s: the embedded %s has %+v, this run has no such page", set, l, MeasuredFile, w)
	}
	if t.Failed() {
		t.Logf("if the change is meant, run: go test ./detect -run 'TestEvaluation(Catalogue|Trial)?$' -update")
	}
}

// checkPairFloors fails the test for every pair direction below its
// floor, and for a pair of closePairs without one.
func checkPairFloors(t *testing.T, r evalResult, floors map[string]float64) {
	t.Helper()
	for k, got := range r.pairs {
		want, ok := floors[k]
		if !ok {
			t.Errorf("pair %s measured %.4f but has no floor", k, got)
			continue
		}
		if got < want {
			t.Errorf("pair %s: %.4f of the pages did not go to the other, below the floor %.4f", k, got, want)
		}
	}
}

// confusionList formats detected-language counts, most first: "da 4, nb 2".
func confusionList(m map[string]int) string {
	type lc struct {
		lang string
		n    int
	}
	var l []lc
	for k, n := range m {
		l = append(l, lc{k, n})
	}
	sort.Slice(l, func(i, j int) bool {
		if l[i].n != l[j].n {
			return l[i].n > l[j].n
		}
		return l[i].lang < l[j].lang
	})
	var sb strings.Builder
	for i, x := range l {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s %d", x.lang, x.n)
	}
	return sb.String()
}

// missesTo sums a confusion matrix by detected language: where misses go.
func missesTo(confusion map[string]map[string]int) map[string]int {
	out := map[string]int{}
	for _, row := range confusion {
		for got, n := range row {
			out[got] += n
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func get(m map[string]*tally, k string) *tally {
	if m[k] == nil {
		m[k] = &tally{}
	}
	return m[k]
}

func keys(m map[string]*tally) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// kanjiHeavy returns the Japanese sentences with the highest share of
// Han characters, at least minRunes of them: the hard case against Chinese.
func kanjiHeavy(paras []string, minRunes int) string {
	type sent struct {
		s     string
		ratio float64
	}
	var ss []sent
	for _, p := range paras {
		for _, s := range strings.SplitAfter(p, "。") {
			n, han := 0, 0
			for _, r := range s {
				n++
				if r >= 0x4E00 && r <= 0x9FFF {
					han++
				}
			}
			if n >= 8 {
				ss = append(ss, sent{s, float64(han) / float64(n)})
			}
		}
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].ratio > ss[j].ratio })
	var sb strings.Builder
	for _, s := range ss {
		if utf8.RuneCountInString(sb.String()) >= minRunes {
			break
		}
		sb.WriteString(s.s)
	}
	return sb.String()
}

// reliability tallies confidences against correctness in ten bins.
type reliability struct {
	n, right [10]int
	conf     [10]float64
}

func (r *reliability) add(conf float64, right bool) {
	b := min(9, max(0, int(conf*10)))
	r.n[b]++
	r.conf[b] += conf
	if right {
		r.right[b]++
	}
}

// log logs the reliability table and returns the expected calibration
// error: the mean over answers of |accuracy - mean confidence| of their bin.
func (r *reliability) log(t *testing.T) float64 {
	t.Helper()
	total := 0
	for _, n := range r.n {
		total += n
	}
	ece := 0.0
	t.Logf("confidence  answers  mean conf  accuracy")
	for b := range r.n {
		if r.n[b] == 0 {
			continue
		}
		mc, acc := r.conf[b]/float64(r.n[b]), ratio(r.right[b], r.n[b])
		ece += float64(r.n[b]) / float64(total) * math.Abs(acc-mc)
		t.Logf("%.1f-%.1f    %7d  %9.3f  %8.3f", float64(b)/10, float64(b+1)/10, r.n[b], mc, acc)
	}
	t.Logf("expected calibration error %.4f over %d answers", ece, total)
	return ece
}
