package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/simulate"
)

// TestSimulateFamily runs `langcrawl simulate --family` on a family of
// tiny webs and checks that the table, the CSV and the plot of every
// measure against every open parameter are written.
func TestSimulateFamily(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole family")
	}
	out := filepath.Join(t.TempDir(), "family")
	if code := run([]string{"simulate", "--family", "--family-servers", "120", "--parallel", "2", "--out", out}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	table, err := os.ReadFile(filepath.Join(out, simulate.FileFamilyTable))
	if err != nil {
		t.Fatal(err)
	}
	for _, fw := range simulate.Family() {
		if !strings.Contains(string(table), "| "+fw.Name+" | ") {
			t.Errorf("family.md has no row for %s", fw.Name)
		}
	}
	if _, err := os.Stat(filepath.Join(out, simulate.FileFamilyCSV)); err != nil {
		t.Error(err)
	}
	for _, fp := range simulate.FamilyParams() {
		for _, m := range simulate.FamilyMeasures {
			if _, err := os.Stat(filepath.Join(out, simulate.FamilyPlotName(fp.Name, m))); err != nil {
				t.Error(err)
			}
		}
	}
	if code := run([]string{"simulate", "--family", "--family-servers", "0"}); code != 2 {
		t.Errorf("--family-servers 0: exit %d, want 2", code)
	}
}

// TestSimulateNamedStrategies: --strategies runs the strategies named and
// no others; the improvement (+decay) comes only with --improvements.
func TestSimulateNamedStrategies(t *testing.T) {
	for _, c := range []struct {
		args  []string
		decay bool
	}{{nil, false}, {[]string{"--improvements"}, true}} {
		out := filepath.Join(t.TempDir(), "sim")
		args := append([]string{"simulate", "--servers", "60", "--strategies", "bfs,conservative-server", "--parallel", "1", "--out", out}, c.args...)
		if code := run(args); code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		summary, err := os.ReadFile(filepath.Join(out, "summary.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(summary), "+decay"); got != c.decay {
			t.Errorf("%v: +decay in summary.csv %v, want %v:\n%s", args, got, c.decay, summary)
		}
		if !strings.Contains(string(summary), "bfs") || strings.Contains(string(summary), "hard-focused") {
			t.Errorf("%v: summary.csv does not hold just the strategies named:\n%s", args, summary)
		}
	}
}
