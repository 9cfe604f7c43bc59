package simulate

import (
	"context"
	"fmt"
	"io"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/webgen"
)

// FamilyWeb is one web of the family (issue 9, part 3): the family's
// middle web with one open parameter moved.
type FamilyWeb struct {
	Name   string // "HubShare=0.05", "anchors=never", ...
	Change func(*webgen.Params)
}

// FamilyMiddle is the middle of the family's ranges, set on p: anchors
// that sometimes tell (30% in the destination's language, 30% in the
// source's, 10% URLs), 2% of target servers linked only from non-target
// servers, and the ccTLD shares of Tamura Table 1 (34% of target servers
// under .th, 1.6% of the others). The paper's own parameters (link
// shares, HubShare, sizes, language directories) stay as p has them.
func FamilyMiddle(p webgen.Params) webgen.Params {
	p.AnchorDestShare, p.AnchorSrcShare, p.AnchorURLShare = 0.3, 0.3, 0.1
	p.HiddenTargetShare = 0.02
	p.TargetCCTLDShare, p.OtherCCTLDShare = 0.34, 0.016
	return p
}

// Family returns the webs of the family: the middle web, then each open
// parameter at the ends of its range (simulate/RESULTS.md gives each
// range and its basis). No parameter is tuned: the ranges are stated
// before any run.
func Family() []FamilyWeb {
	set := func(f func(*webgen.Params)) func(*webgen.Params) { return f }
	webs := []FamilyWeb{{Name: "middle", Change: set(func(*webgen.Params) {})}}
	for _, h := range []float64{0, 0.05, 0.20} {
		webs = append(webs, FamilyWeb{Name: fmt.Sprintf("HubShare=%g", h), Change: set(func(p *webgen.Params) { p.HubShare = h })})
	}
	for _, a := range []struct {
		name            string
		dest, src, urls float64
	}{{"never", 0, 0, 0.1}, {"mislead", 0.1, 0.7, 0.1}, {"mostly", 0.7, 0.15, 0.1}} {
		webs = append(webs, FamilyWeb{Name: "anchors=" + a.name, Change: set(func(p *webgen.Params) {
			p.AnchorDestShare, p.AnchorSrcShare, p.AnchorURLShare = a.dest, a.src, a.urls
		})})
	}
	for _, h := range []float64{0, 0.10} {
		webs = append(webs, FamilyWeb{Name: fmt.Sprintf("hidden=%g", h), Change: set(func(p *webgen.Params) { p.HiddenTargetShare = h })})
	}
	webs = append(webs, FamilyWeb{Name: "ccTLD=none", Change: set(func(p *webgen.Params) {
		p.TargetCCTLDShare, p.OtherCCTLDShare = 0, 0
	})})
	for _, d := range []float64{0, 0.8} {
		webs = append(webs, FamilyWeb{Name: fmt.Sprintf("langdirs=%g", d), Change: set(func(p *webgen.Params) { p.LangDirShare = d })})
	}
	for _, s := range []float64{0.6, 2.0} {
		webs = append(webs, FamilyWeb{Name: fmt.Sprintf("sizes-sigma=%g", s), Change: set(func(p *webgen.Params) { p.PagesSigma = s })})
	}
	return webs
}

// FamilyStrategies are the variants compared on every web: the paper's
// conservative-server and hard-focused, the evidence strategy, and the
// oracle.
func FamilyStrategies() []Variant {
	return []Variant{
		{Strategy: string(focus.ConservativeServer)},
		{Strategy: string(focus.HardFocused)},
		{Strategy: string(focus.Evidence)},
		{Strategy: Perfect},
	}
}

// FamilyResult is the runs on one web of the family.
type FamilyResult struct {
	Web     string
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
		out = append(out, FamilyResult{Web: fw.Name, Results: res})
		if progress != nil {
			fmt.Fprintf(progress, "family: %s done\n", fw.Name)
		}
	}
	return out, nil
}

// WriteFamilyMarkdown writes one table row per web and variant: coverage,
// harvest, servers against the target servers, and peak queue against
// hard-focused's on the same web, with the goals of issue 9 marked.
func WriteFamilyMarkdown(w io.Writer, fr []FamilyResult) error {
	if _, err := fmt.Fprintln(w, "| web | variant | pages | coverage | harvest | servers (x target) | peak queue (x hard) | goals met |\n|---|---|---:|---:|---:|---:|---:|---|"); err != nil {
		return err
	}
	for _, f := range fr {
		var hardQ int64
		for _, r := range f.Results.Runs {
			if r.Variant.Strategy == string(focus.HardFocused) {
				hardQ = r.PeakQueue
			}
		}
		for _, r := range f.Results.Runs {
			sx := ratio(r.Servers, f.Results.Graph.TargetServers)
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
