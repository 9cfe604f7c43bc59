package simulate

import (
	"context"
	"os"
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
