package simulate

import (
	"context"
	"encoding/csv"
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/webgen"
)

// TestFamily runs the paper's conservative-server and the evidence
// strategy over a small family. On every web the evidence strategy must
// find at least the target pages conservative-server finds, less a
// tolerance of 0.3 points (crawl order differs), and must access no more
// servers (2% slack); on the web where target servers hide behind
// non-target servers it must find no fewer target pages (Tamura Fig. 2).
func TestFamily(t *testing.T) {
	base := webgen.SimulatorDefaults()
	base.Servers = 1500
	base.Seeds = 2
	webs := []FamilyWeb{}
	for _, fw := range Family() {
		switch fw.Name {
		case "middle", "anchors=never", "anchors=mislead", "hidden=0.1", "HubShare=0.2":
			webs = append(webs, fw)
		}
	}
	vs := []Variant{{Strategy: string(focus.ConservativeServer)}, {Strategy: string(focus.Evidence)}}
	fr, err := RunFamily(context.Background(), base, webs, vs, Options{Parallel: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := WriteFamilyMarkdown(&sb, fr); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + sb.String())
	for _, f := range fr {
		cs, ev := f.Results.Runs[0], f.Results.Runs[1]
		if ev.Coverage < cs.Coverage-0.003 {
			t.Errorf("%s: evidence coverage %.4f below conservative-server's %.4f", f.Web, ev.Coverage, cs.Coverage)
		}
		if ev.Servers > cs.Servers+cs.Servers/50 {
			t.Errorf("%s: evidence accessed %d servers, conservative-server %d", f.Web, ev.Servers, cs.Servers)
		}
		if f.Web == "hidden=0.1" && ev.Targets < cs.Targets {
			t.Errorf("%s: evidence found %d target pages, conservative-server %d: the pages behind non-target pages were not recovered",
				f.Web, ev.Targets, cs.Targets)
		}
	}
}

// TestFamilyReport writes the family table at the size LANGCRAWL_FAMILY
// gives (servers per web), for RESULTS.md. Skipped unless set.
func TestFamilyReport(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("LANGCRAWL_FAMILY"))
	if n == 0 {
		t.Skip("set LANGCRAWL_FAMILY=<servers> to write the family table")
	}
	base := webgen.SimulatorDefaults()
	base.Servers = n
	fr, err := RunFamily(context.Background(), base, Family(), nil, Options{Parallel: 2}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(os.Getenv("LANGCRAWL_FAMILY_OUT"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteFamilyMarkdown(f, fr); err != nil {
		t.Fatal(err)
	}
}

// TestMainFamily runs `langcrawl simulate --family` on a tiny family and
// checks the files: the table and the CSV with a row per web and variant,
// and a plot of each measure against each parameter run, with every
// variant in its legend.
func TestMainFamily(t *testing.T) {
	var webs []FamilyWeb
	for _, fw := range Family() {
		if fw.Param == "" || fw.Param == "HubShare" || fw.Name == "anchors=never" {
			webs = append(webs, fw)
		}
	}
	dir := t.TempDir()
	var stdout, stderr strings.Builder
	cfg := FamilyConfig{Servers: 300, Webs: webs, Parallel: 2, OutDir: dir}
	if err := MainFamily(context.Background(), &stdout, &stderr, cfg); err != nil {
		t.Fatal(err)
	}
	nv := len(FamilyStrategies())
	table, err := os.ReadFile(filepath.Join(dir, FileFamilyTable))
	if err != nil {
		t.Fatal(err)
	}
	if string(table) != stdout.String() {
		t.Error("family.md differs from the table on stdout")
	}
	if rows := strings.Count(string(table), "\n"); rows != 2+nv*len(webs) {
		t.Errorf("family.md has %d lines, want %d", rows, 2+nv*len(webs))
	}
	f, err := os.Open(filepath.Join(dir, FileFamilyCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+nv*len(webs) {
		t.Errorf("family.csv has %d records, want %d", len(recs), 1+nv*len(webs))
	}
	for _, param := range []string{"HubShare", "anchors"} {
		for _, m := range FamilyMeasures {
			b, err := os.ReadFile(filepath.Join(dir, FamilyPlotName(param, m)))
			if err != nil {
				t.Error(err)
				continue
			}
			if err := xml.Unmarshal(b, new(struct{ XMLName xml.Name })); err != nil {
				t.Errorf("%s %s: not XML: %v", param, m, err)
			}
			for _, v := range FamilyStrategies() {
				if !strings.Contains(string(b), v.label()) {
					t.Errorf("%s %s: no %q in the legend", param, m, v.label())
				}
			}
		}
	}
	// A parameter with no web of its own gets no plot.
	if _, err := os.Stat(filepath.Join(dir, FamilyPlotName("hidden", "coverage"))); !os.IsNotExist(err) {
		t.Errorf("a plot for a parameter not run: %v", err)
	}
	if !strings.Contains(stderr.String(), "family: middle done") {
		t.Errorf("no progress on stderr: %q", stderr.String())
	}
}
