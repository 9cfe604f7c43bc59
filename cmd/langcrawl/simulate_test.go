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
