package simulate

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/webgen"
)

func smallGraph(t testing.TB) *webgen.Graph {
	t.Helper()
	p := webgen.SimulatorDefaults()
	p.Servers = 300
	g, err := webgen.Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestPaperFindingsSmall runs every strategy on a small default web and
// checks the paper's qualitative findings (Tamura 5.2, 5.3).
func TestPaperFindingsSmall(t *testing.T) {
	g := smallGraph(t)
	res, err := Run(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 7 {
		t.Fatalf("%d runs, want 7", len(res.Runs))
	}
	get := func(s focus.Strategy) *RunResult {
		r := res.pick(string(s), 0)
		if r == nil {
			t.Fatalf("no run of %s", s)
		}
		return r
	}
	bfs, hard, soft := get(focus.BFS), get(focus.HardFocused), get(focus.SoftFocused)
	agg, cons, dir := get(focus.AggressiveServer), get(focus.ConservativeServer), get(focus.ConservativeDirectory)
	perfect := res.pick(Perfect, 0)
	var sum bytes.Buffer
	res.WriteSummaryText(&sum)
	t.Logf("graph %+v\n%s", res.Graph, sum.String())

	// Server-based filtering beats the page-based strategies that keep every
	// link on harvest. (On webgen's web, hard focused is not beaten: see
	// RESULTS.md.)
	for _, s := range []*RunResult{agg, cons, dir} {
		for _, p := range []*RunResult{bfs, soft} {
			if s.Harvest <= p.Harvest {
				t.Errorf("harvest %s %.3f <= %s %.3f", s.Name, s.Harvest, p.Name, p.Harvest)
			}
		}
		// ... and misses at most 1% of the reachable target pages.
		if s.Variant.Strategy != string(focus.ConservativeDirectory) && s.MaxMiss() > 0.01 {
			t.Errorf("%s misses %.2f%%, want <= 1%%", s.Name, 100*s.MaxMiss())
		}
	}
	// Conservative keeps fewer servers and a smaller queue than aggressive
	// and soft focused.
	if cons.Servers >= agg.Servers || cons.Servers >= soft.Servers {
		t.Errorf("servers: conservative %d, aggressive %d, soft %d", cons.Servers, agg.Servers, soft.Servers)
	}
	if cons.PeakQueue >= agg.PeakQueue || cons.PeakQueue >= soft.PeakQueue {
		t.Errorf("peak queue: conservative %d, aggressive %d, soft %d", cons.PeakQueue, agg.PeakQueue, soft.PeakQueue)
	}
	// Strategies that never discard a link to a target page miss nothing.
	for _, r := range []*RunResult{bfs, soft, perfect} {
		if r.MaxMiss() != 0 || r.Coverage != 1 {
			t.Errorf("%s: miss %.4f coverage %.4f, want 0 and 1", r.Name, r.MaxMiss(), r.Coverage)
		}
	}
	// Perfect has the best harvest, hard focused the worst coverage.
	for _, r := range res.Runs {
		if r.Name != perfect.Name && r.Harvest >= perfect.Harvest {
			t.Errorf("%s harvest %.3f >= perfect %.3f", r.Name, r.Harvest, perfect.Harvest)
		}
		if r.Name != hard.Name && r.Coverage < hard.Coverage {
			t.Errorf("%s coverage %.3f < hard focused %.3f", r.Name, r.Coverage, hard.Coverage)
		}
	}
	// Curves are monotone where they must be and end at the final figures.
	for _, r := range res.Runs {
		last := r.Curve[len(r.Curve)-1]
		if last.Pages != r.Pages || last.Targets != r.Targets {
			t.Errorf("%s: last sample %+v, final pages %d targets %d", r.Name, last, r.Pages, r.Targets)
		}
		for i := 1; i < len(r.Curve); i++ {
			a, b := r.Curve[i-1], r.Curve[i]
			if b.Pages < a.Pages || b.Targets < a.Targets || b.Servers < a.Servers {
				t.Fatalf("%s: curve not monotone at %d: %+v then %+v", r.Name, i, a, b)
			}
		}
		for i := 1; i < len(r.Miss); i++ {
			if r.Miss[i].Targets < r.Miss[i-1].Targets {
				t.Fatalf("%s: miss targets not cumulative", r.Name)
			}
		}
	}

	// The files.
	dir2 := t.TempDir()
	if err := res.WriteFiles(dir2); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{FileMissSVG, FileCoverage, FileHarvest, FileQueue, FileServers} {
		b, err := os.ReadFile(filepath.Join(dir2, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(b); err != nil {
			t.Errorf("%s is not well-formed XML: %v", f, err)
		}
		if n := strings.Count(string(b), "<polyline"); n != len(res.Runs) {
			t.Errorf("%s has %d lines, want %d", f, n, len(res.Runs))
		}
	}
	rows := readCSV(t, filepath.Join(dir2, FileSummary))
	if len(rows) != 1+len(res.Runs) {
		t.Errorf("summary.csv has %d rows, want %d", len(rows), 1+len(res.Runs))
	}
	md, err := os.ReadFile(filepath.Join(dir2, FileResults))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not more than 1%", "## Goals", cons.Name} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q", want)
		}
	}
}

func wellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestOptions(t *testing.T) {
	o := Options{Strategies: []string{"bfs", "conservative-server", "perfect"}, Tolerances: []int{5, 20}, Improvements: true}
	vs, err := o.variants(100000)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vs {
		names = append(names, v.label())
	}
	want := "bfs|conservative-server T=5|conservative-server T=20|perfect|" +
		"conservative-server T=5 +decay/2000|conservative-server T=20 +decay/500"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("variants\n got %s\nwant %s", got, want)
	}
	if _, err := (&Options{Strategies: []string{"dfs"}}).variants(10); !errors.Is(err, ErrOptions) {
		t.Errorf("bad strategy: err = %v", err)
	}
	if _, err := Run(context.Background(), nil, Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("nil graph: err = %v", err)
	}
}

// TestSeenCacheSameResults checks that the size of the frontier's
// in-memory seen cache changes no figure of a run: a cache of 2 hashes,
// which sends nearly every seen-set lookup to LevelDB, and the default,
// which holds the whole web, give the same runs.
func TestSeenCacheSameResults(t *testing.T) {
	g := smallGraph(t)
	var runs [2]*Results
	for i, size := range []int{2, 0} {
		res, err := Run(context.Background(), g, Options{Strategies: []string{"bfs", "conservative-server"}, SeenCache: size})
		if err != nil {
			t.Fatal(err)
		}
		for j := range res.Runs {
			res.Runs[j].Elapsed = 0
		}
		runs[i] = res
	}
	if runs[0].Runs[0].Pages == 0 {
		t.Fatal("no page crawled")
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		for j := range runs[0].Runs {
			a, b := runs[0].Runs[j], runs[1].Runs[j]
			t.Errorf("%s: cache of 2: %d pages, peak queue %d, %d servers; default cache: %d pages, peak queue %d, %d servers",
				a.Name, a.Pages, a.PeakQueue, a.Servers, b.Pages, b.PeakQueue, b.Servers)
		}
	}
}

func TestRunCancelled(t *testing.T) {
	g := smallGraph(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, g, Options{Strategies: []string{"bfs"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func BenchmarkRunConservative(b *testing.B) { benchRun(b, 300, "conservative-server") }

// BenchmarkRunBFS crawls a 3,000-server web whole (about 70,000 pages):
// the engine's cost per page, link extraction and scope decisions
// included, for BENCHMARKS.md.
//
// -sim.servers sets another size: the cost per page grows with the web,
// so the full-size question ("two million pages in minutes") is read at
// 20,000 servers or more, e.g.
//
//	go test ./simulate -run '^$' -bench RunBFS -benchtime 1x -sim.servers 20000 -cpuprofile cpu.out
func BenchmarkRunBFS(b *testing.B) { benchRun(b, *benchServers, "bfs") }

var benchServers = flag.Int("sim.servers", 3000, "servers in the web of BenchmarkRunBFS")

// benchRun simulates strategy over the default web cut to servers servers.
func benchRun(b *testing.B, servers int, strategy string) {
	p := webgen.SimulatorDefaults()
	p.Servers = servers
	g, err := webgen.Generate(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var pages int64
	for b.Loop() {
		res, err := Run(context.Background(), g, Options{Strategies: []string{strategy}, Parallel: 1})
		if err != nil {
			b.Fatal(err)
		}
		pages += res.Runs[0].Pages
	}
	b.ReportMetric(float64(pages)/float64(b.N), "pages/op")
}

// TestWriteFilesCharts checks that every chart WriteFiles draws (with
// package plot) is well-formed SVG naming every variant, and that the
// percent charts are labelled in percent.
func TestWriteFilesCharts(t *testing.T) {
	g := smallGraph(t)
	res, err := Run(context.Background(), g, Options{Strategies: []string{"hard-focused", "conservative-server"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := res.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{FileMissSVG, FileCoverage, FileHarvest, FileQueue, FileServers} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		for _, run := range res.Runs {
			if !bytes.Contains(b, []byte(run.Name)) {
				t.Errorf("%s does not name %s", f, run.Name)
			}
		}
		if percent := f != FileQueue && f != FileServers; percent != strings.Contains(string(b), "%<") {
			t.Errorf("%s: percent labels %v, want %v", f, !percent, percent)
		}
	}
}
