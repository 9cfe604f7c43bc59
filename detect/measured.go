package detect

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// MeasuredFile holds, per language, how well Result.Relevant does with
// that language as the target on the two evaluation sets. It is written
// by the evaluation itself:
//
//	go test ./detect -run 'TestEvaluation(Catalogue|Trial)?$' -update
//
// and TestEvaluation and TestEvaluationCatalogue fail when a fresh
// measurement differs from it, so the figures that `langcrawl languages`
// prints cannot go stale.
const MeasuredFile = "measured.tsv"

// The evaluation sets of MeasuredFile (TargetFigures.Set).
const (
	// SetOutOfDomain is the out-of-domain set (TestEvaluationCatalogue):
	// pages built from message catalogues no profile is trained on. It is
	// the set the figures are quoted from.
	SetOutOfDomain = "catalogue"
	// SetInDomain is the in-domain set (TestEvaluation): pages built
	// from held-out UDHR articles. It stands in for the languages the
	// catalogues have no held-out text of.
	SetInDomain = "udhr"
	// SetHeldOut is the third set (TestEvaluationTrial): pages an
	// independent trial built from Debian packages no profile is trained
	// or evaluated on otherwise (help pages, manuals, browser messages),
	// 23 languages, Serbian in Latin script left out (no profile). Shown
	// beside the others by langcrawl languages: on it Malay, Indonesian,
	// Bokmål and Danish miss the goal they meet on the catalogues.
	SetHeldOut = "trial"
)

//go:embed measured.tsv
var measuredTSV string

// Goals for every target language on pages with a paragraph of text
// (issue 14).
const (
	GoalPrecision = 0.995
	GoalRecall    = 0.99
)

// TargetCounts are the pages of one evaluation run, counted for one
// target language L: TP pages in L that were relevant, FP pages in
// another language (or in none) that were relevant, FN pages in L that
// were not.
type TargetCounts struct {
	TP, FP, FN int
}

// Pages returns the number of pages in the target language.
func (c TargetCounts) Pages() int { return c.TP + c.FN }

// Precision returns TP / (TP + FP); 0 when no page was relevant.
func (c TargetCounts) Precision() float64 { return ratioOf(c.TP, c.TP+c.FP) }

// Recall returns TP / (TP + FN); 0 when no page is in the language.
func (c TargetCounts) Recall() float64 { return ratioOf(c.TP, c.TP+c.FN) }

func ratioOf(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// TargetFigures are the measured precision and recall of Result.Relevant
// with Options.Target set to Lang on one evaluation set (held-out text in
// every charset and page scenario; see doc.go), for the embedded
// profiles.
type TargetFigures struct {
	Set  string // SetOutOfDomain or SetInDomain
	Lang string // ISO 639-1 code
	// Paragraph counts the pages with a paragraph of text (200
	// characters or more, with or without boilerplate, in any charset
	// and declaration scenario).
	Paragraph TargetCounts
	// Short counts the short-text scenarios: 50 characters inside
	// English navigation, and 25 characters alone.
	Short TargetCounts
}

// MeetsGoal reports whether the paragraph pages reach GoalPrecision and
// GoalRecall.
func (f TargetFigures) MeetsGoal() bool {
	return f.Paragraph.Precision() >= GoalPrecision && f.Paragraph.Recall() >= GoalRecall
}

var measured = sync.OnceValues(func() ([]TargetFigures, error) { return parseMeasured(measuredTSV) })

// Measured returns the figures of every language with pages in set
// (SetOutOfDomain or SetInDomain), or that some page of it was wrongly
// detected as, by ISO code. They describe the embedded profiles; a
// Detector built on other profiles (tests) is not described by them.
func Measured(set string) []TargetFigures {
	fs, err := measured()
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	var out []TargetFigures
	for _, f := range fs {
		if f.Set == set {
			out = append(out, f)
		}
	}
	return out
}

// MeasuredIn returns the figures of one language on one set; false when
// the set has no page in it.
func MeasuredIn(set, lang string) (TargetFigures, bool) {
	for _, f := range Measured(set) {
		if f.Lang == lang && f.Paragraph.Pages()+f.Short.Pages() > 0 {
			return f, true
		}
	}
	return TargetFigures{}, false
}

// MeasuredFor returns the figures of one language (an ISO 639-1 code):
// those of the out-of-domain set when it has pages in the language, else
// those of the in-domain set; false when neither has.
func MeasuredFor(lang string) (TargetFigures, bool) {
	for _, set := range []string{SetOutOfDomain, SetInDomain} {
		for _, f := range Measured(set) {
			if f.Lang == lang && f.Paragraph.Pages()+f.Short.Pages() > 0 {
				return f, true
			}
		}
	}
	return TargetFigures{}, false
}

// measuredHeader is the first line of MeasuredFile after its comments.
const measuredHeader = "set\tlang\tpara_tp\tpara_fp\tpara_fn\tshort_tp\tshort_fp\tshort_fn"

// formatMeasured writes figures as MeasuredFile holds them: comment
// lines, a header, then one line per set and language, sorted.
func formatMeasured(fs []TargetFigures) string {
	fs = append([]TargetFigures(nil), fs...)
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Set != fs[j].Set {
			return fs[i].Set < fs[j].Set
		}
		return fs[i].Lang < fs[j].Lang
	})
	var sb strings.Builder
	sb.WriteString("# Relevant with each language as the target, on the out-of-domain (catalogue),\n")
	sb.WriteString("# in-domain (udhr) and held-out trial (trial) evaluation sets: pages counted as true\n")
	sb.WriteString("# positives, false positives and false negatives, for pages with a paragraph of text\n")
	sb.WriteString("# and for the short-text scenarios (short+nav, tiny; the trial set's short pages).\n")
	sb.WriteString("# Written by the evaluation (do not edit):\n")
	sb.WriteString("#   go test ./detect -run 'TestEvaluation(Catalogue|Trial)?$' -update\n")
	sb.WriteString(measuredHeader + "\n")
	for _, f := range fs {
		fmt.Fprintf(&sb, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", f.Set, f.Lang,
			f.Paragraph.TP, f.Paragraph.FP, f.Paragraph.FN, f.Short.TP, f.Short.FP, f.Short.FN)
	}
	return sb.String()
}

// parseMeasured reads what formatMeasured wrote.
func parseMeasured(s string) ([]TargetFigures, error) {
	var out []TargetFigures
	header := false
	for i, line := range strings.Split(s, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !header {
			if line != measuredHeader {
				return nil, fmt.Errorf("detect: %s line %d: header %q, want %q", MeasuredFile, i+1, line, measuredHeader)
			}
			header = true
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("detect: %s line %d: %d fields, want 8", MeasuredFile, i+1, len(f))
		}
		if f[0] != SetOutOfDomain && f[0] != SetInDomain && f[0] != SetHeldOut {
			return nil, fmt.Errorf("detect: %s line %d: unknown set %q", MeasuredFile, i+1, f[0])
		}
		var n [6]int
		for k := range n {
			v, err := strconv.Atoi(f[k+2])
			if err != nil || v < 0 {
				return nil, fmt.Errorf("detect: %s line %d: bad count %q", MeasuredFile, i+1, f[k+2])
			}
			n[k] = v
		}
		out = append(out, TargetFigures{Set: f[0], Lang: f[1],
			Paragraph: TargetCounts{n[0], n[1], n[2]}, Short: TargetCounts{n[3], n[4], n[5]}})
	}
	if !header {
		return nil, fmt.Errorf("detect: %s: no header", MeasuredFile)
	}
	return out, nil
}
