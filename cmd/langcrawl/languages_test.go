package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/detect"
)

func TestLanguagesCommand(t *testing.T) {
	cmd := languagesCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs(nil)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	lines := map[string][]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 1 {
			lines[f[0]] = f
		}
	}
	for code, want := range map[string]string{"th": "windows-874", "lo": "utf-8", "ms": "Malay", "id": "Indonesian", "ja": "shift_jis"} {
		if !strings.Contains(strings.Join(lines[code], " "), want) {
			t.Errorf("languages: the %s line %q lacks %q", code, lines[code], want)
		}
	}
	// Every language's line carries its measured figures as a target.
	met := 0
	for code, f := range lines {
		if len(f) < 2 || code == "code" || strings.HasSuffix(code, ".") {
			continue
		}
		m, ok := detect.MeasuredFor(code)
		if !ok {
			continue // not a language line
		}
		pages := fmt.Sprint(m.Paragraph.Pages())
		if m.Set == detect.SetInDomain {
			pages += "*"
		}
		goal := "no"
		if m.MeetsGoal() {
			goal = "yes"
			met++
		}
		want := []string{pages, percent(m.Paragraph.TP, m.Paragraph.FP), percent(m.Paragraph.TP, m.Paragraph.FN), goal,
			percent(m.Short.TP, m.Short.FP), percent(m.Short.TP, m.Short.FN)}
		// The name may be several words: the figures follow it.
		i := len(f) - len(want)
		for i > 0 && f[i] != pages {
			i--
		}
		if i <= 1 || strings.Join(f[i:i+len(want)], " ") != strings.Join(want, " ") {
			t.Errorf("languages: the %s line %q, want the figures %q", code, f, want)
		}
	}
	if met == 0 || !strings.Contains(out.String(), fmt.Sprintf("met by %d.", met)) {
		t.Errorf("languages: no summary of the %d languages that meet the goal:\n%s", met, out.String())
	}
	if _, ok := lines["th"]; !ok || len(lines) < 90 {
		t.Errorf("languages: %d lines", len(lines))
	}
	// The held-out set's figures beside them, marked where they miss the
	// goal: a trial found Malay shown at 100/100 where README said the
	// third set had it short of the goal.
	held := 0
	for code, f := range lines {
		m, ok := detect.MeasuredIn(detect.SetHeldOut, code)
		if !ok || m.Paragraph.Pages() == 0 {
			continue
		}
		held++
		want := percent(m.Paragraph.TP, m.Paragraph.FP) + "/" + percent(m.Paragraph.TP, m.Paragraph.FN)
		if !m.MeetsGoal() {
			want += "!"
		}
		if !slices.Contains(f, want) {
			t.Errorf("languages: the %s line %q lacks the held-out figures %q", code, f, want)
		}
	}
	if !strings.Contains(out.String(), "zh-hant") {
		t.Error("languages: no word of zh-hant, the Traditional Chinese target")
	}
	if held < 20 || !strings.Contains(strings.Join(lines["ms"], " "), "!") {
		t.Errorf("languages: %d lines with held-out figures; ms %q should miss the goal there", held, lines["ms"])
	}
}
