package simulate

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/plot"
	"github.com/langcrawl/langcrawl/webgen"
)

// FamilyWeb is one web of the family (issue 9, part 3): the family's
// middle web with one open parameter moved.
type FamilyWeb struct {
	Name string // "HubShare=0.05", "anchors=never", ...
	// Param is the open parameter moved (a FamilyParam's Name); "" for the
	// middle web, which belongs to every parameter at its middle value.
	Param string
	// X is the parameter's value on this web, the x of the family plots.
	X      float64
	Change func(*webgen.Params)
}

// FamilyParam is one open parameter of the family: what the paper leaves
// open, with its middle value and the values run at the ends of its range
// (simulate/RESULTS.md gives each one's basis).
type FamilyParam struct {
	// Name labels the parameter in file names ("HubShare", "anchors").
	Name string
	// Label is the x axis of its plots.
	Label string
	// Middle is its value on the middle web; Values those of its own webs.
	Middle float64
	Values []float64
	// WebName names the web at value x ("HubShare=0.05").
	WebName func(x float64) string
	// Set puts value x on p.
	Set func(p *webgen.Params, x float64)
}

// anchorMixes are the anchor webs, by the share of anchors in the
// destination's language (the x of the anchor plots): never (anchors in
// the destination's language never), mislead (mostly in the source's),
// mostly.
var anchorMixes = []struct {
	name            string
	dest, src, urls float64
}{{"never", 0, 0, 0.1}, {"mislead", 0.1, 0.7, 0.1}, {"middle", 0.3, 0.3, 0.1}, {"mostly", 0.7, 0.15, 0.1}}

// FamilyParams returns the family's open parameters, in the order of the
// table in simulate/RESULTS.md.
func FamilyParams() []FamilyParam {
	named := func(prefix string) func(float64) string {
		return func(x float64) string { return prefix + "=" + strconv.FormatFloat(x, 'g', -1, 64) }
	}
	return []FamilyParam{
		{Name: "HubShare", Label: "HubShare (share of non-target servers receiving the links leaving target servers)",
			Middle: 0.01, Values: []float64{0, 0.05, 0.20}, WebName: named("HubShare"),
			Set: func(p *webgen.Params, x float64) { p.HubShare = x }},
		{Name: "anchors", Label: "share of anchors in the destination's language (never, mislead, middle, mostly)",
			Middle: 0.3, Values: []float64{0, 0.1, 0.7},
			WebName: func(x float64) string {
				for _, a := range anchorMixes {
					if a.dest == x {
						return "anchors=" + a.name
					}
				}
				return named("anchors")(x)
			},
			Set: func(p *webgen.Params, x float64) {
				for _, a := range anchorMixes {
					if a.dest == x {
						p.AnchorDestShare, p.AnchorSrcShare, p.AnchorURLShare = a.dest, a.src, a.urls
						return
					}
				}
				p.AnchorDestShare = x
			}},
		{Name: "hidden", Label: "HiddenTargetShare (target servers only non-target servers link to)",
			Middle: 0.02, Values: []float64{0, 0.10}, WebName: named("hidden"),
			Set: func(p *webgen.Params, x float64) { p.HiddenTargetShare = x }},
		{Name: "ccTLD", Label: "TargetCCTLDShare (target servers under the target ccTLD; others 0.016, or 0 with it)",
			Middle: 0.34, Values: []float64{0},
			WebName: func(x float64) string {
				if x == 0 {
					return "ccTLD=none"
				}
				return named("ccTLD")(x)
			},
			Set: func(p *webgen.Params, x float64) {
				p.TargetCCTLDShare = x
				if x == 0 {
					p.OtherCCTLDShare = 0
				}
			}},
		{Name: "langdirs", Label: "LangDirShare (target servers with a directory per language)",
			Middle: 0.3, Values: []float64{0, 0.8}, WebName: named("langdirs"),
			Set: func(p *webgen.Params, x float64) { p.LangDirShare = x }},
		{Name: "sizes-sigma", Label: "PagesSigma (sigma of the lognormal server sizes)",
			Middle: 1.2, Values: []float64{0.6, 2.0}, WebName: named("sizes-sigma"),
			Set: func(p *webgen.Params, x float64) { p.PagesSigma = x }},
		{Name: "foreignhome", Label: "ForeignHomeShare (target servers with language directories whose home page is foreign)",
			Middle: 0.3, Values: []float64{0, 1}, WebName: named("foreignhome"),
			Set: func(p *webgen.Params, x float64) { p.ForeignHomeShare = x }},
		{Name: "hosting", Label: "HostingShare (target servers that host users in per-user directories)",
			Middle: 0.05, Values: []float64{0, 0.2}, WebName: named("hosting"),
			Set: func(p *webgen.Params, x float64) { p.HostingShare = x }},
		{Name: "hreflang", Label: "HreflangShare (links with an hreflang naming the destination's language)",
			Middle: 0.05, Values: []float64{0, 0.3}, WebName: named("hreflang"),
			Set: func(p *webgen.Params, x float64) { p.HreflangShare = x }},
		{Name: "context", Label: "ContextDestShare (links whose surrounding text is in the destination's language)",
			Middle: 0.1, Values: []float64{0, 0.3}, WebName: named("context"),
			Set: func(p *webgen.Params, x float64) { p.ContextWords, p.ContextDestShare = familyContextWords, x }},
		{Name: "decl", Label: "LangDeclShare (servers that declare their home page's language on every page)",
			Middle: 0.5, Values: []float64{0, 1}, WebName: named("decl"),
			Set: func(p *webgen.Params, x float64) { p.LangDeclShare = x }},
	}
}

// familyContextWords is the words of text either side of every link on the
// family's webs (webgen Params.ContextWords).
const familyContextWords = 3

// FamilyMiddle is the middle of the family's ranges, set on p: every
// FamilyParam at its Middle. That is anchors that sometimes tell (30% in
// the destination's language, 30% in the source's, 10% URLs), 2% of
// target servers linked only from non-target servers, the ccTLD shares of
// Tamura Table 1 (34% of target servers under .th, 1.6% of the others),
// a foreign home page on 30% of the target servers with language
// directories, 5% of target servers hosting users, hreflang on 5% of
// links, three words of text either side of every link (10% in the
// destination's language), and half the servers declaring a language. HubShare, LangDirShare and PagesSigma have the simulator's
// defaults as their middles; the paper's link shares stay as p has them.
func FamilyMiddle(p webgen.Params) webgen.Params {
	p.OtherCCTLDShare = 0.016
	for _, fp := range FamilyParams() {
		fp.Set(&p, fp.Middle)
	}
	return p
}

// Family returns the webs of the family: the middle web, then each open
// parameter at the ends of its range (simulate/RESULTS.md gives each
// range and its basis). No parameter is tuned: the ranges are stated
// before any run.
func Family() []FamilyWeb {
	webs := []FamilyWeb{{Name: "middle", Change: func(*webgen.Params) {}}}
	for _, fp := range FamilyParams() {
		for _, x := range fp.Values {
			webs = append(webs, FamilyWeb{Name: fp.WebName(x), Param: fp.Name, X: x,
				Change: func(p *webgen.Params) { fp.Set(p, x) }})
		}
	}
	return webs
}

// FamilyStrategies are the variants compared on every web: the paper's
// conservative-server, conservative-directory and hard-focused, the
// evidence and sequential strategies, the two verdict oracles (the best a
// server or directory verdict could do) and the oracle.
func FamilyStrategies() []Variant {
	return []Variant{
		{Strategy: string(focus.ConservativeServer)},
		{Strategy: string(focus.ConservativeDirectory)},
		{Strategy: string(focus.HardFocused)},
		{Strategy: string(focus.Evidence)},
		{Strategy: string(focus.Sequential)}, // at focus.DefaultErrorBound and DefaultMissBound
		{Strategy: ServerOracle},
		{Strategy: DirectoryOracle},
		{Strategy: Perfect},
	}
}

// FamilyResult is the runs on one web of the family.
type FamilyResult struct {
	Web     string
	Param   string  // FamilyWeb.Param
	X       float64 // FamilyWeb.X
	Results *Results
}

// RunFamily generates every web of webs from base (FamilyMiddle applied,
// then the web's change) and runs variants on it (FamilyStrategies when
// empty). Progress lines go to progress when it is not nil.
func RunFamily(ctx context.Context, base webgen.Params, webs []FamilyWeb, variants []Variant, opts Options, progress io.Writer) ([]FamilyResult, error) {
	if len(variants) == 0 {
		variants = FamilyStrategies()
	}
	opts.Variants = variants
	var out []FamilyResult
	for _, fw := range webs {
		start := time.Now()
		p := FamilyMiddle(base)
		fw.Change(&p)
		g, err := webgen.Generate(p)
		if err != nil {
			return out, fmt.Errorf("family web %s: %w", fw.Name, err)
		}
		res, err := Run(ctx, g, opts)
		if err != nil {
			return out, fmt.Errorf("family web %s: %w", fw.Name, err)
		}
		out = append(out, FamilyResult{Web: fw.Name, Param: fw.Param, X: fw.X, Results: res})
		if progress != nil {
			fmt.Fprintf(progress, "family: %s done in %v\n", fw.Name, time.Since(start).Round(100*time.Millisecond))
		}
	}
	return out, nil
}

// serversX is a run's servers accessed against the servers holding target
// pages (the goal: at most 1.5).
func serversX(f FamilyResult, r RunResult) float64 {
	return ratio(r.Servers, f.Results.Graph.TargetServers)
}

// hardQueue is the peak queue of hard-focused on the web of f, 0 if it
// did not run.
func hardQueue(f FamilyResult) int64 {
	for _, r := range f.Results.Runs {
		if r.Variant.Strategy == string(focus.HardFocused) {
			return r.PeakQueue
		}
	}
	return 0
}

// WriteFamilyMarkdown writes one table row per web and variant: coverage,
// harvest, servers against the target servers, and peak queue against
// hard-focused's on the same web, with the goals of issue 9 marked.
func WriteFamilyMarkdown(w io.Writer, fr []FamilyResult) error {
	if _, err := fmt.Fprintln(w, "| web | variant | pages | coverage | harvest | servers (x target) | peak queue (x hard) | goals met |\n|---|---|---:|---:|---:|---:|---:|---|"); err != nil {
		return err
	}
	for _, f := range fr {
		hardQ := hardQueue(f)
		for _, r := range f.Results.Runs {
			sx := serversX(f, r)
			qx := ratio(r.PeakQueue, hardQ)
			met := ""
			for _, g := range []struct {
				ok   bool
				name string
			}{{r.Coverage >= 0.995, "C"}, {r.Harvest >= 0.80, "H"}, {sx <= 1.5, "S"}, {hardQ > 0 && qx <= 2, "Q"}} {
				if g.ok {
					met += g.name
				} else {
					met += "-"
				}
			}
			if _, err := fmt.Fprintf(w, "| %s | %s | %d | %.2f%% | %.2f%% | %.2fx | %.2fx | %s |\n", f.Web, r.Name, r.Pages,
				100*r.Coverage, 100*r.Harvest, sx, qx, met); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteFamilyCSV writes one row per web and variant, with the parameter
// moved and its value.
func WriteFamilyCSV(w io.Writer, fr []FamilyResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"web", "param", "x", "variant", "strategy", "pages", "target_pages", "coverage", "harvest",
		"servers", "target_servers_in_web", "servers_x_target", "peak_queue", "peak_queue_x_hard", "seconds"})
	for _, f := range fr {
		hardQ := hardQueue(f)
		for _, r := range f.Results.Runs {
			cw.Write([]string{f.Web, f.Param, strconv.FormatFloat(f.X, 'g', -1, 64), r.Name, r.Variant.Strategy,
				itoa(r.Pages), itoa(r.Targets), ftoa(r.Coverage), ftoa(r.Harvest), itoa(r.Servers),
				itoa(f.Results.Graph.TargetServers), ftoa(serversX(f, r)), itoa(r.PeakQueue), ftoa(ratio(r.PeakQueue, hardQ)),
				strconv.FormatFloat(r.Elapsed.Seconds(), 'f', 1, 64)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// Files written by WriteFamilyFiles, besides one SVG per open parameter
// and measure: FamilyPlotName(param, measure).
const (
	FileFamilyTable = "family.md"
	FileFamilyCSV   = "family.csv"
)

// FamilyMeasures are the measures plotted against each open parameter.
var FamilyMeasures = []string{"coverage", "harvest", "servers"}

// FamilyPlotName is the file of the plot of measure against param.
func FamilyPlotName(param, measure string) string {
	return "family-" + param + "-" + measure + ".svg"
}

// WriteFamilyFiles writes into dir (created if need be) the table
// (family.md), the CSV (family.csv) and, for every parameter of params
// with a web in fr, one plot per measure of FamilyMeasures against it,
// one line per variant; the middle web is the point at the parameter's
// middle value.
func WriteFamilyFiles(dir string, fr []FamilyResult, params []FamilyParam) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("simulate: create %s: %w", dir, err)
	}
	write := func(name string, f func(io.Writer) error) error {
		var b strings.Builder
		if err := f(&b); err != nil {
			return fmt.Errorf("simulate: write %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
		return nil
	}
	errs := []error{
		write(FileFamilyTable, func(w io.Writer) error { return WriteFamilyMarkdown(w, fr) }),
		write(FileFamilyCSV, func(w io.Writer) error { return WriteFamilyCSV(w, fr) }),
	}
	for _, fp := range params {
		for _, m := range FamilyMeasures {
			c, ok := familyChart(fr, fp, m)
			if !ok {
				continue
			}
			errs = append(errs, write(FamilyPlotName(fp.Name, m), c.WriteSVG))
		}
	}
	return errors.Join(errs...)
}

// familyChart is the chart of measure m against parameter fp: one series
// per variant, one point per web of fp (and the middle web). ok is false
// when fr has no web of fp.
func familyChart(fr []FamilyResult, fp FamilyParam, m string) (plot.Chart, bool) {
	type point struct {
		x float64
		f FamilyResult
	}
	var pts []point
	own := false
	for _, f := range fr {
		switch {
		case f.Param == fp.Name:
			pts = append(pts, point{f.X, f})
			own = true
		case f.Param == "":
			pts = append(pts, point{fp.Middle, f})
		}
	}
	if !own {
		return plot.Chart{}, false
	}
	slices.SortStableFunc(pts, func(a, b point) int {
		switch {
		case a.x < b.x:
			return -1
		case a.x > b.x:
			return 1
		}
		return 0
	})
	c := plot.Chart{XLabel: fp.Label}
	switch m {
	case "coverage":
		c.Title, c.YLabel, c.Percent = "Coverage of reachable target pages against "+fp.Name, "coverage", true
	case "harvest":
		c.Title, c.YLabel, c.Percent = "Harvest rate against "+fp.Name, "harvest rate", true
	case "servers":
		c.Title, c.YLabel = "Servers accessed against "+fp.Name, "servers accessed / servers holding target pages"
	}
	// Series by variant name, in the order of the first web's runs.
	index := map[string]int{}
	for _, pt := range pts {
		for _, r := range pt.f.Results.Runs {
			i, ok := index[r.Name]
			if !ok {
				i = len(c.Series)
				index[r.Name] = i
				c.Series = append(c.Series, plot.Series{Name: r.Name, Markers: true})
			}
			y := r.Coverage
			switch m {
			case "harvest":
				y = r.Harvest
			case "servers":
				y = serversX(pt.f, r)
			}
			c.Series[i].X = append(c.Series[i].X, pt.x)
			c.Series[i].Y = append(c.Series[i].Y, y)
		}
	}
	return c, true
}

// FamilyConfig is what `langcrawl simulate --family` needs; the command
// maps its flags onto it.
type FamilyConfig struct {
	// Params is the base web before FamilyMiddle; the zero Params means
	// webgen.SimulatorDefaults() with Servers servers.
	Params webgen.Params
	// Servers per web (--family-servers). Default DefaultFamilyServers.
	Servers int
	// Webs default to Family(), Variants to FamilyStrategies().
	Webs     []FamilyWeb
	Variants []Variant
	// Parallel is how many runs of one web go at once (Options.Parallel).
	Parallel int
	// OutDir receives the table, the CSV and the plots (--out); empty
	// writes only the table, to stdout.
	OutDir string
}

// DefaultFamilyServers is the servers per web of `langcrawl simulate
// --family`: about 70,000 pages a web, the whole family (24 webs, five
// strategies) in about 8 minutes on two shared cores.
const DefaultFamilyServers = 3000

// MainFamily runs every web of the family with every variant and writes
// the family's table to stdout and, into cfg.OutDir, the table, the CSV
// and the plots of coverage, harvest and servers against each open
// parameter (WriteFamilyFiles). Progress lines go to stderr.
func MainFamily(ctx context.Context, stdout, stderr io.Writer, cfg FamilyConfig) error {
	base := cfg.Params
	if base.Servers == 0 {
		base = webgen.SimulatorDefaults()
		base.Servers = cfg.Servers
		if base.Servers == 0 {
			base.Servers = DefaultFamilyServers
		}
	}
	webs := cfg.Webs
	if webs == nil {
		webs = Family()
	}
	start := time.Now()
	fr, err := RunFamily(ctx, base, webs, cfg.Variants, Options{Parallel: cfg.Parallel}, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "family: %d webs of %d servers in %v\n", len(fr), base.Servers, time.Since(start).Round(time.Second))
	var errs []error
	if cfg.OutDir != "" {
		errs = append(errs, WriteFamilyFiles(cfg.OutDir, fr, FamilyParams()))
	}
	errs = append(errs, WriteFamilyMarkdown(stdout, fr))
	return errors.Join(errs...)
}
