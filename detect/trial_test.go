package detect

import (
	"bufio"
	"compress/gzip"
	"os"
	"strings"
	"testing"
)

// TrialEvalFile is the third evaluation set: running text from Debian 12
// packages that no profile is trained or evaluated on otherwise
// (LibreOffice help, GNOME Help, the Debian Administrator's Handbook,
// Debian Reference, translated man pages, Firefox and Thunderbird
// language packs; corpora/SOURCES.md), built by an independent trial in
// the seventeenth session and packed by
// docs/detect-experiments/trial-set/pack.py. 23 languages and Serbian in
// Latin script: per language about 100 pages of one to three paragraphs,
// the same first paragraph in one of three English page templates (a
// menu, a cookie notice, a footer), and 60 short texts.
const TrialEvalFile = "testdata/trial-eval.txt.gz"

type trialPage struct {
	name, lang, variant, scenario, source string
	body                                  []byte
}

func readTrialPages(t *testing.T) []trialPage {
	t.Helper()
	f, err := os.Open(TrialEvalFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	unescape := strings.NewReplacer(`\\`, `\`, `\n`, "\n")
	var pages []trialPage
	firstPara := map[string]string{} // paragraph page name -> its first <p>
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		c := strings.SplitN(sc.Text(), "\t", 6)
		if len(c) != 6 {
			t.Fatalf("%s: bad line %q", TrialEvalFile, sc.Text())
		}
		html := unescape.Replace(c[5])
		if c[3] == "para" {
			i, j := strings.Index(html, "<p>"), strings.Index(html, "</p>")
			firstPara[strings.TrimPrefix(c[0], "para/")] = html[i : j+len("</p>")]
		}
		pages = append(pages, trialPage{name: c[0], lang: c[1], variant: c[2], scenario: c[3], source: c[4], body: []byte(html)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for i, p := range pages {
		if p.scenario == "boiler" {
			para, ok := firstPara[strings.TrimPrefix(p.name, "boiler/")]
			if !ok {
				t.Fatalf("%s: no paragraph page", p.name)
			}
			pages[i].body = []byte(strings.Replace(string(p.body), "{{P}}", para, 1))
		}
	}
	return pages
}

// TestEvaluationTrial measures the detector on the trial's set: pages of
// running text (help and manuals, browser messages) from packages nothing
// trains on, where the other two sets are user-interface catalogues and
// the UDHR. Floors are at the run that first measured it (docs/detect.md,
// "Serbian in Latin script"): of 4,484 paragraph and template pages apart
// from Serbian in Latin, 10 wrong (3 Malay paragraphs and their 3 template
// pages to Indonesian; 2 Danish and 2 Nynorsk template pages to Bokmål);
// short texts 96.96% right. Serbian in Latin script
// comes out Croatian (every page): a limit README states, pinned by
// TestSerbianLatinReadAsCroatian, so it is counted apart and Croatian's
// precision is measured without it.
func TestEvaluationTrial(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ n, right int }
	paras := map[string]*tally{} // language (or "sr-Latn") -> paragraph and template pages
	shorts := map[string]*tally{}
	wentTo := map[string]map[string]int{} // language -> detected language -> paragraph and template pages
	var rel reliability
	var para, paraRight, short, shortRight int
	// Relevant with each language as the target, for MeasuredFile's
	// trial rows (langcrawl languages): Serbian in Latin apart, as below.
	targets := map[string]*TargetFigures{}
	count := func(lang string, short bool) *TargetCounts {
		f := targets[lang]
		if f == nil {
			f = &TargetFigures{Lang: lang}
			targets[lang] = f
		}
		if short {
			return &f.Short
		}
		return &f.Paragraph
	}
	for _, p := range readTrialPages(t) {
		r := d.Detect(p.body, "")
		key := p.lang
		if p.variant != "" {
			key += "-" + p.variant
		}
		ok := r.Lang == p.lang
		if key != "sr-Latn" && r.Lang != "und" {
			rel.add(r.Confidence, ok)
		}
		m := paras
		if p.scenario == "short" {
			m = shorts
		}
		if m[key] == nil {
			m[key] = &tally{}
		}
		m[key].n++
		if ok {
			m[key].right++
		}
		if key != "sr-Latn" {
			isShort := p.scenario == "short"
			if ok {
				count(p.lang, isShort).TP++
			} else {
				count(p.lang, isShort).FN++
				if r.Lang != "und" {
					count(r.Lang, isShort).FP++
				}
			}
		}
		if key == "sr-Latn" {
			if wentTo[key] == nil {
				wentTo[key] = map[string]int{}
			}
			wentTo[key][r.Lang]++
			continue
		}
		if p.scenario == "short" {
			short++
			if ok {
				shortRight++
			}
			continue
		}
		para++
		if ok {
			paraRight++
			continue
		}
		if wentTo[p.lang] == nil {
			wentTo[p.lang] = map[string]int{}
		}
		wentTo[p.lang][r.Lang]++
		t.Logf("miss: %s (%s): %s at %.3f (%s)", p.name, p.source, r.Lang, r.Confidence, r.Evidence)
	}
	for _, k := range sortedKeys(paras) {
		s := shorts[k]
		if s == nil {
			s = &tally{}
		}
		t.Logf("%-8s paragraph and template pages %3d of %3d right; short %2d of %2d; misses %v", k, paras[k].right, paras[k].n, s.right, s.n, wentTo[k])
		if k == "sr-Latn" {
			t.Logf("%-8s (all its pages, short texts too, counted in the misses)", k)
		}
	}
	ece := rel.log(t)
	t.Logf("paragraph and template pages %d of %d right (%.4f), short %d of %d (%.4f), Serbian in Latin apart", paraRight, para, ratio(paraRight, para), shortRight, short, ratio(shortRight, short))

	// Serbian in Latin script: every page Croatian, the limit README
	// states (TestSerbianLatinReadAsCroatian). A Latin profile of Serbian
	// changes this, and README with it.
	if sl, ss := paras["sr-Latn"], shorts["sr-Latn"]; sl == nil || ss == nil || sl.n+ss.n != 260 || wentTo["sr-Latn"]["hr"] != 260 {
		t.Errorf("Serbian in Latin script went to %v, want all 260 pages to hr", wentTo["sr-Latn"])
	}
	if para < 4484 || short < 1380 {
		t.Fatalf("%d paragraph and %d short pages: the set is not whole", para, short)
	}
	if para-paraRight > 10 {
		t.Errorf("%d paragraph and template pages wrong, above the 10 of the first run", para-paraRight)
	}
	if ratio(shortRight, short) < 0.96 {
		t.Errorf("short texts %.4f right, below the floor 0.96", ratio(shortRight, short))
	}
	if ece > 0.01 {
		t.Errorf("expected calibration error %.4f, above the floor 0.01 (0.003 at the first run)", ece)
	}
	// Every language as the target, paragraph and template pages: the
	// goal is precision >= 0.995 and recall >= 0.99; floors at the first
	// run where it is missed (Indonesian's and Bokmål's precision, Malay's
	// recall), 1 and 1 elsewhere (Danish and Nynorsk measured 0.9899 and
	// 0.99 recall).
	fp := map[string]int{}
	for from, to := range wentTo {
		if from == "sr-Latn" {
			continue // the documented limit, apart
		}
		for l, n := range to {
			fp[l] += n
		}
	}
	floors := map[string][2]float64{"id": {0.97, 1}, "nb": {0.98, 1}, "ms": {1, 0.97}, "da": {1, 0.989}, "nn": {1, 0.99}}
	var meet []string
	for _, l := range sortedKeys(paras) {
		if l == "sr-Latn" {
			continue
		}
		p, r := ratio(paras[l].right, paras[l].right+fp[l]), ratio(paras[l].right, paras[l].n)
		if p >= 0.995 && r >= 0.99 {
			meet = append(meet, l)
		}
		f, ok := floors[l]
		if !ok {
			f = [2]float64{1, 1}
		}
		if p < f[0] || r < f[1] {
			t.Errorf("target %s: precision %.4f recall %.4f, below the floors %.3f / %.3f", l, p, r, f[0], f[1])
		}
	}
	t.Logf("languages meeting the per-target goal: %d of %d (%v)", len(meet), len(paras)-1, meet)
	checkMeasured(t, evalResult{targets: targets}, SetHeldOut)
	// Each close pair both ways, paragraph and template pages: no page
	// to the other but Malay's to Indonesian (6 of 200), Danish's and
	// Nynorsk's to Bokmål (2 of 198, 2 of 200).
	for _, pr := range closePairs {
		for _, dir := range [][2]string{{pr[0], pr[1]}, {pr[1], pr[0]}} {
			c := paras[dir[0]]
			if c == nil {
				continue
			}
			floor := map[[2]string]float64{{"ms", "id"}: 0.97, {"da", "nb"}: 0.989, {"nn", "nb"}: 0.99}[dir]
			if floor == 0 {
				floor = 1
			}
			if got := 1 - ratio(wentTo[dir[0]][dir[1]], c.n); got < floor {
				t.Errorf("pair %s>%s: %.4f of the pages did not go to the other, below the floor %.2f", dir[0], dir[1], got, floor)
			}
		}
	}
}
