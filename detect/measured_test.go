package detect

import (
	"strings"
	"testing"
)

func TestMeasuredFormat(t *testing.T) {
	fs := []TargetFigures{
		{Set: SetOutOfDomain, Lang: "th", Paragraph: TargetCounts{63, 0, 0}, Short: TargetCounts{12, 1, 0}},
		{Set: SetInDomain, Lang: "jv", Paragraph: TargetCounts{57, 0, 0}, Short: TargetCounts{10, 2, 2}},
		{Set: SetOutOfDomain, Lang: "en", Paragraph: TargetCounts{93, 3, 0}},
	}
	got, err := parseMeasured(formatMeasured(fs))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Lang != "en" || got[1].Lang != "th" || got[2] != fs[1] || got[1] != fs[0] {
		t.Errorf("round trip: %+v", got)
	}
	if p := got[0].Paragraph.Precision(); p != 93.0/96 {
		t.Errorf("en precision %v", p)
	}
	if !got[1].MeetsGoal() || got[0].MeetsGoal() {
		t.Errorf("MeetsGoal: th %v en %v", got[1].MeetsGoal(), got[0].MeetsGoal())
	}
	for _, bad := range []string{
		"",
		"lang\tpara_tp\n",
		measuredHeader + "\ncatalogue\tth\t1\t2\n",
		measuredHeader + "\nother\tth\t1\t2\t3\t4\t5\t6\n",
		measuredHeader + "\ncatalogue\tth\t1\t2\t3\t4\t5\t-6\n",
		measuredHeader + "\ncatalogue\tth\t1\tx\t3\t4\t5\t6\n",
	} {
		if _, err := parseMeasured(bad); err == nil {
			t.Errorf("parseMeasured(%q): no error", bad)
		}
	}
}

// TestMeasuredEmbedded checks that the embedded figures parse and cover
// every language the detector knows, and say where they come from. That
// they agree with a fresh measurement is checked by the evaluation tests
// (checkMeasured).
func TestMeasuredEmbedded(t *testing.T) {
	if _, err := parseMeasured(measuredTSV); err != nil {
		t.Fatal(err)
	}
	d := newDetector(t, Options{})
	var fallback []string
	for _, l := range d.Languages() {
		f, ok := MeasuredFor(l)
		if !ok {
			t.Errorf("%s: no measured figures", l)
			continue
		}
		if f.Set == SetInDomain {
			fallback = append(fallback, l)
		}
		if f.Paragraph.Pages() == 0 {
			t.Errorf("%s: no paragraph pages in %s", l, f.Set)
		}
	}
	t.Logf("in-domain figures only (no held-out catalogue text): %s", strings.Join(fallback, " "))
	if len(fallback) > 10 {
		t.Errorf("%d languages have no out-of-domain figures", len(fallback))
	}
	if _, ok := MeasuredFor("xx"); ok {
		t.Error("figures for an unknown language")
	}
}
