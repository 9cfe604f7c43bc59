package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/internal/atomicfile"
	"github.com/langcrawl/langcrawl/plot"
)

// TopServers is how many servers the markdown table shows; servers.csv
// has them all.
const TopServers = 25

// TopDomains is how many registered domains the markdown table shows;
// domains.csv has them all.
const TopDomains = 10

// Files written by WriteFiles, in the order the markdown lists them.
const (
	FileMarkdown   = "report.md"
	FileServers    = "servers.csv"
	FileDomains    = "domains.csv"
	FileHarvestCSV = "harvest.csv"
	FileHarvestSVG = "harvest.svg"
	FileLanguages  = "languages.csv"
	FileDepthCSV   = "depth-levels.csv" // Nakahira Fig. 1
	FileDepthSVG   = "depth-levels.svg"
	FileTreesCSV   = "site-trees.csv" // Nakahira Fig. 2
	FileTreesSVG   = "site-trees.svg"
	FileLimitCSV   = "depth-limit.csv" // Nakahira Fig. 3
	FileLimitSVG   = "depth-limit.svg"
	FileStatusCSV  = "status.csv"
	// FileBandwidthSVG is the bandwidth trace drawn as the bandwidth
	// paper's figure 1, written when the crawl had a bandwidth limit.
	FileBandwidthSVG = "bandwidth.svg"
	FileAnnotations  = "annotations.csv"
	FileMIMETypes    = "mime-types.csv"
	FileSeeds        = "seeds.csv"
	// FileCandidates lists the hosts focusing turned away, with evidence.
	FileCandidates = "candidate-hosts.csv"
	// FileJSON is the whole Report as JSON (WriteJSON).
	FileJSON = "report.json"
	// FileIncomplete is there only while WriteFiles puts its files in
	// place, one rename at a time: a kill then (or a rename that fails)
	// leaves it beside a mix of this run's files and the run before's,
	// which it says; the next whole run removes it.
	FileIncomplete = "INCOMPLETE"
)

// incompleteText is what FileIncomplete says.
const incompleteText = "A langcrawl report was stopped while it put its files in place:\n" +
	"the files in this folder may be some of that run's and some of the run before's.\n" +
	"Run `langcrawl report` again for a whole report; it removes this file.\n"

// reportFiles are the names WriteFiles writes.
var reportFiles = map[string]bool{FileMarkdown: true, FileServers: true, FileDomains: true, FileHarvestCSV: true,
	FileHarvestSVG: true, FileLanguages: true, FileDepthCSV: true, FileDepthSVG: true, FileTreesCSV: true,
	FileTreesSVG: true, FileLimitCSV: true, FileLimitSVG: true, FileStatusCSV: true, FileBandwidthSVG: true,
	FileAnnotations: true, FileMIMETypes: true, FileSeeds: true, FileCandidates: true, FileJSON: true}

// TopCandidates is how many candidate hosts the markdown lists; the CSV
// file has them all.
const TopCandidates = 25

// CaptureTargets are the external-URL capture rates the depth-limit advice
// names a depth for.
var CaptureTargets = []float64{0.8, 0.9, 0.95, 1}

// Advice is the shallowest depth limit that keeps at least Target of the
// external URLs, and the load it costs.
type Advice struct {
	Target  float64
	Depth   int
	Load    float64 // LoadRate at Depth
	Capture float64 // CaptureRate at Depth
}

// DepthAdvice returns, for each of CaptureTargets, the shallowest depth
// limit whose capture rate reaches it (Nakahira et al. 2008, section 3.3).
// Targets that lead to the same depth are given once, with the highest
// target. It returns nil when no external URL was found.
func (r *Report) DepthAdvice() []Advice {
	if r.ExternalURLs == 0 {
		return nil
	}
	var out []Advice
	for _, t := range CaptureTargets {
		for _, d := range r.Depths {
			if d.CaptureRate >= t-1e-12 {
				a := Advice{Target: t, Depth: d.Depth, Load: d.LoadRate, Capture: d.CaptureRate}
				if n := len(out); n > 0 && out[n-1].Depth == d.Depth {
					out[n-1] = a
				} else {
					out = append(out, a)
				}
				break
			}
		}
	}
	return out
}

// Sentence says an Advice in words: "depth 5 keeps 95% of the external URLs
// at 60% of the load".
func (a Advice) Sentence() string {
	return fmt.Sprintf("depth %d keeps %s of the external URLs at %s of the load", a.Depth, pct(a.Capture), pct(a.Load))
}

func pct(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + "%"
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// WriteMarkdown writes the summary as markdown to w.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("# Crawl report: %s\n\n", r.Out)
	if r.Profile.Language == "" {
		p("Focusing: **off** (no target language), so pages have no relevance and servers no status.\n")
	} else {
		what := "Target language"
		if strings.Contains(r.Profile.Language, ",") {
			what = "Target languages (collected together)"
		}
		p("%s: **%s**, strategy %s, tolerance T = %d", what, r.Profile.Language, orDash(r.Profile.Strategy), r.Tolerance)
		if r.Tolerance != r.Profile.Tolerance {
			p(" (the crawl ran with T = %d)", r.Profile.Tolerance)
		}
		p(".\n")
	}
	if r.Profile.Found {
		p("Depth limit per site tree: %d.\n", r.Profile.Depth)
	}
	p("\n| measure | value |\n|---|---|\n")
	p("| WARC files read | %d (%d open) |\n", r.WARCFiles, r.OpenFiles)
	p("| WARC records | %d |\n", r.Records)
	p("| HTML pages | %d |\n", r.Pages)
	if r.Profile.Language != "" {
		p("| target-language pages | %d |\n", r.Relevant)
		p("| harvest rate | %s |\n", pct(ratio(r.Relevant, r.Pages)))
	}
	p("| servers | %d |\n", len(r.Servers))
	p("| site trees | %d |\n", r.SiteTrees)
	p("| distinct external URLs | %d |\n", r.ExternalURLs)
	if len(r.Generations) > 0 {
		var ns []string
		for _, g := range r.Generations {
			ns = append(ns, strconv.FormatInt(g.N, 10))
		}
		p("| generations in these WARC files | %s |\n", strings.Join(ns, ", "))
		p("| URLs archived more than once in one generation | %d |\n", r.DuplicateURLs)
	} else {
		p("| URLs archived more than once | %d |\n", r.DuplicateURLs)
	}
	if r.LogFiles > 1 {
		p("| crawl.log lines | %d (in %d files, crawl.log and %d rotated) |\n", r.LogLines, r.LogFiles, r.LogFiles-1)
	} else {
		p("| crawl.log lines | %d |\n", r.LogLines)
	}
	if len(r.Warnings) > 0 {
		p("\nWarnings:\n\n")
		for _, w := range r.Warnings {
			p("- %s\n", w)
		}
	}

	if len(r.Generations) > 0 {
		p("\n## Generations\n\n")
		p("Each visit of the web, as the WARC files' warcinfo records name it (1: the first crawl, one more per re-crawl). " +
			"Every URL a generation archived counts in its row; the measures above count each URL once, at its first capture. " +
			"A URL archived before is unchanged when it came back as a revisit of its last visit; " +
			"a crawl begun with --previous counts its revisits of the other directory's captures so.\n\n")
		p("| generation | first record | last record | URLs archived | new to the crawl | archived before, unchanged | archived before, changed or no 2xx | archived twice in this generation | HTML pages read |")
		if r.Profile.Language != "" {
			p(" target-language pages |")
		}
		p("\n|---:|---|---|---:|---:|---:|---:|---:|---:|")
		if r.Profile.Language != "" {
			p("---:|")
		}
		p("\n")
		for _, g := range r.Generations {
			p("| %d | %s | %s | %d | %d | %d | %d | %d | %d |", g.N, fmtTime(g.First), fmtTime(g.Last), g.URLs,
				g.New, g.Unchanged, g.Changed, g.Repeated, g.Pages)
			if r.Profile.Language != "" {
				p(" %d |", g.Relevant)
			}
			p("\n")
		}
	}

	p("\n## Servers\n\n")
	if r.Profile.Language != "" {
		sc := r.StatusCounts()
		if r.Profile.Strategy == sequential {
			p("Status as the crawl's sequential verdict left it (the focusStatus of each server's latest page; T does not apply): "+
				"%d relevant, %d undecided, %d irrelevant.", sc["relevant"], sc["undecided"], sc["irrelevant"])
			if n := r.undecidedKept(); n > 0 {
				// Two trials read such servers, crawled whole at three
				// times T, as ones the crawl had not got to.
				p(" Of the undecided, %d served a page read as the target (N_r > 0): the sequential verdict never judges such a server irrelevant, "+
					"so it is crawled in full however many pages it serves, while its evidence does not yet call it relevant.", n)
			}
		} else {
			p("Status under T = %d (Tamura et al. 2007, 4.1: relevant if N_r > 0, undecided if N_r = 0 and N_a <= T, irrelevant otherwise): "+
				"%d relevant, %d undecided, %d irrelevant.", r.Tolerance, sc["relevant"], sc["undecided"], sc["irrelevant"])
		}
		if strings.Contains(r.Profile.Strategy, "directory") {
			p(" The crawl judged directories, not servers; this table sums them by server.")
		}
		p("\n\n")
	}
	n := min(len(r.Servers), TopServers)
	p("The %d servers with the most HTML pages (all %d in %s):\n\n", n, len(r.Servers), FileServers)
	p("| host | N_a | N_r | status | first fetch | last fetch |\n|---|---:|---:|---|---|---|\n")
	for _, s := range r.Servers[:n] {
		p("| %s | %d | %d | %s | %s | %s |\n", mdEsc(s.Host), s.Pages, s.Relevant, s.Status, fmtTime(s.First), fmtTime(s.Last))
	}

	if n := min(len(r.Domains), TopDomains); n > 0 && r.Domains[0].Hosts > 1 {
		p("\nThe %d registered domains with the most hosts (all %d in %s; a subdomain farm shows here):\n\n", n, len(r.Domains), FileDomains)
		p("| registered domain | hosts | HTML pages | target pages |\n|---|---:|---:|---:|\n")
		for _, d := range r.Domains[:n] {
			p("| %s | %d | %d | %d |\n", mdEsc(d.Domain), d.Hosts, d.Pages, d.Relevant)
		}
	}

	if r.Profile.Language != "" && len(r.Harvest) > 0 {
		p("\n## Harvest rate\n\nCumulative share of target-language pages among the HTML pages crawled so far (%s, %s):\n\n",
			FileHarvestCSV, FileHarvestSVG)
		p("| pages crawled | target pages | harvest rate |\n|---:|---:|---:|\n")
		for _, h := range harvestCheckpoints(r.Harvest) {
			p("| %d | %d | %s |\n", h.Pages, h.Relevant, pct(h.Rate()))
		}
	}

	p("\n## Languages\n\n| language | pages | share | charsets |\n|---|---:|---:|---|\n")
	for _, l := range r.Languages {
		p("| %s | %d | %s | %s |\n", mdEsc(orUnknown(l.Code)), l.Pages, pct(l.Share), mdEsc(charsetList(l.Charsets)))
	}

	p("\n## Depth levels (Nakahira et al. 2008, Fig. 1)\n\n")
	p("Pages and distinct external URLs by depth level in their site tree (%s, %s):\n\n", FileDepthCSV, FileDepthSVG)
	p("| depth | pages | cumulative pages | new external URLs | cumulative external URLs |\n|---:|---:|---:|---:|---:|\n")
	for _, d := range r.Depths {
		p("| %d | %d | %d | %d | %d |\n", d.Depth, d.Pages, d.CumPages, d.NewExternal, d.CumExternal)
	}
	p("\n## Site trees by deepest page (Fig. 2)\n\n")
	p("%d site trees (%s, %s):\n\n| deepest page | site trees |\n|---:|---:|\n", r.SiteTrees, FileTreesCSV, FileTreesSVG)
	for _, t := range r.TreeDepths {
		p("| %d | %d |\n", t.MaxDepth, t.Trees)
	}
	p("\n## Choosing a depth limit (Fig. 3)\n\n")
	p("For each depth limit L, the load (pages at depth <= L over all pages) and the capture rate ")
	p("(distinct external URLs found at depth <= L over all of them) (%s, %s):\n\n", FileLimitCSV, FileLimitSVG)
	p("| depth limit | load | external URLs captured |\n|---:|---:|---:|\n")
	for _, d := range r.Depths {
		p("| %d | %s | %s |\n", d.Depth, pct(d.LoadRate), pct(d.CaptureRate))
	}
	if adv := r.DepthAdvice(); len(adv) > 0 {
		p("\n")
		for _, a := range adv {
			p("- %s.\n", a.Sentence())
		}
		if r.Profile.Found && r.Profile.Depth > 0 && len(r.Depths) > 0 && r.Depths[len(r.Depths)-1].Depth >= r.Profile.Depth {
			p("\n100%% is this crawl, which had a depth limit of %d: both rates are shares of what it fetched and found, "+
				"not of what a crawl without the limit would.\n", r.Profile.Depth)
		}
	} else {
		p("\nNo external URL was found.\n")
	}

	p("\n## Fetch outcomes (crawl.log)\n\n")
	if r.LogLines == 0 {
		p("No crawl.log lines.\n")
	} else {
		p("%d lines", r.LogLines)
		if r.BadLogLines > 0 {
			p(", %d unreadable", r.BadLogLines)
		}
		// Every line: robots.txt fetches too, which the crawl's summary
		// leaves out of its status counts (an archivist's trial asked why
		// the two differ).
		p(" (%s), robots.txt fetches and retried tries included, unlike the crawl's summary:\n\n| status | meaning | count | bytes |\n|---:|---|---:|---:|\n", FileStatusCSV)
		for _, s := range r.Statuses {
			p("| %d | %s | %d | %d |\n", s.Code, s.Meaning, s.Count, s.Bytes)
		}
		p("\nRetries: %d tries failed and were deferred for another; %d URLs failed, after their last try or at once (the summary's \"failed\").\n", r.Deferred, r.GaveUp)
		if len(r.Annotations) > 0 {
			p("\nAnnotations (%s):\n\n| annotation | count |\n|---|---:|\n", FileAnnotations)
			for _, a := range r.Annotations[:min(len(r.Annotations), 20)] {
				p("| %s | %d |\n", mdEsc(a.Name), a.Count)
			}
		}
	}
	if len(r.MIMETypes) > 0 {
		p("\n## MIME types (crawl.log)\n\n%d types, most bytes first (%s):\n\n| MIME type | lines | bytes |\n|---|---:|---:|\n",
			len(r.MIMETypes), FileMIMETypes)
		for _, m := range r.MIMETypes[:min(len(r.MIMETypes), 20)] {
			p("| %s | %d | %d |\n", mdEsc(orNone(m.Type)), m.Count, m.Bytes)
		}
	}
	r.writeSeeds(p)
	r.writeCandidates(p)
	if len(r.Bandwidth) > 0 {
		var meas, lim float64
		for _, s := range r.Bandwidth {
			meas += s.Measured
			lim = s.Limit
		}
		meas /= float64(len(r.Bandwidth))
		p("\n## Bandwidth (%s)\n\n", FileBandwidthSVG)
		p("Limit L = %.0f B/s; measured %.0f B/s on average over %d seconds (%.0f%% of L).\n", lim, meas, len(r.Bandwidth), 100*meas/max(lim, 1))
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("report: write markdown: %w", err)
	}
	return nil
}

// harvestCheckpoints picks about ten points of the harvest series, the
// last one included.
func harvestCheckpoints(h []HarvestPoint) []HarvestPoint {
	if len(h) <= 10 {
		return h
	}
	var out []HarvestPoint
	for i := 1; i <= 10; i++ {
		out = append(out, h[i*len(h)/10-1])
	}
	return out
}

func charsetList(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range m {
		l = append(l, kv{orUnknown(k), v})
	}
	slices.SortFunc(l, func(a, b kv) int {
		if a.v != b.v {
			return b.v - a.v
		}
		return strings.Compare(a.k, b.k)
	})
	var parts []string
	for _, e := range l {
		parts = append(parts, fmt.Sprintf("%s %d", e.k, e.v))
	}
	return strings.Join(parts, ", ")
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// writeSeeds writes the seeds section.
func (r *Report) writeSeeds(p func(string, ...any)) {
	p("\n## Seeds\n\n")
	if len(r.Seeds) == 0 {
		p("No seeds in profile.yaml or crawl.log.\n")
		return
	}
	p("%d seeds: the status of each one's last crawl.log line, and the HTML pages of its site tree (%s):\n\n", len(r.Seeds), FileSeeds)
	if r.Profile.Language != "" {
		p("| seed | status | meaning | site tree | pages | target pages |\n|---|---:|---|---|---:|---:|\n")
	} else {
		p("| seed | status | meaning | site tree | pages |\n|---|---:|---|---|---:|\n")
	}
	for _, s := range r.Seeds {
		status := "-"
		if s.Status != 0 {
			status = strconv.Itoa(s.Status)
		}
		p("| %s | %s | %s | %s | %d |", mdEsc(s.URL), status, s.Meaning, mdEsc(s.Tree), s.Pages)
		if r.Profile.Language != "" {
			p(" %d |", s.Relevant)
		}
		p("\n")
	}
	var cut []Seed
	for _, s := range r.Seeds {
		if s.Server == focus.Irrelevant.String() {
			cut = append(cut, s)
		}
	}
	if len(cut) > 0 {
		noun := "seeds"
		if len(cut) == 1 {
			noun = "seed"
		}
		p("\n**%d %s whose own server focusing judged irrelevant**, and crawled no further: a seed is focused like any server, so one whose pages the detector reads as another language is cut after T+1 pages. Check them (`langcrawl detect --target %s` on a page of each); a seed's server that is in %s is lost to the crawl unless its pages are read so:\n\n", len(cut), noun, r.Profile.Language, r.Profile.Language)
		for i, s := range cut {
			if i == TopCandidates {
				p("- and %d more (%s, `server_status`)\n", len(cut)-i, FileSeeds)
				break
			}
			if s.ServerHost != "" {
				p("- %s (redirected to %s)\n", mdEsc(s.URL), mdEsc(s.ServerHost))
			} else {
				p("- %s\n", mdEsc(s.URL))
			}
		}
	}
}

// writeCandidates writes the candidate-hosts section.
func (r *Report) writeCandidates(p func(string, ...any)) {
	if r.Profile.Language == "" {
		return
	}
	p("\n## Candidate hosts\n\n")
	if len(r.Candidates) == 0 {
		p("Focusing turned no host away.\n")
		return
	}
	n := min(len(r.Candidates), TopCandidates)
	p("Hosts without a target-language page that focusing turned away: links to them it rejected, the pages those links were on, ")
	p("their anchor texts (and the text most often beside them), and URLs dropped from their queue when they were judged irrelevant (crawl.log -5003). ")
	p("A host with %s anchors may deserve a seed. ", r.Profile.Language)
	sections := 0
	for _, c := range r.Candidates {
		if c.SectionURLs > 0 {
			sections++
		}
	}
	if sections > 0 {
		p("**%d of them had URLs naming a %s section** (`/%s/`, `?lang=%s`) rejected or dropped, which focusing never fetched: ",
			sections, r.Profile.Language, firstLang(r.Profile.Language), firstLang(r.Profile.Language))
		p("such a host says it holds %s pages (a section behind foreign pages, or a dead link to one), so they come first. ", r.Profile.Language)
	}
	p("The first %d, by section URLs, then hosts on a %s country domain, then referring pages in %s, then hosts never fetched before those sampled, then referring pages (all %d in %s):\n\n",
		n, r.Profile.Language, r.Profile.Language, len(r.Candidates), FileCandidates)
	p("| host | referring pages | of them in %s | rejected links | dropped URLs | pages fetched | section URLs | anchor texts | reasons | e.g. linked from |\n|---|---:|---:|---:|---:|---:|---|---|---|---|\n", r.Profile.Language)
	for _, c := range r.Candidates[:n] {
		ref := ""
		if len(c.ReferrerSample) > 0 {
			ref = c.ReferrerSample[0]
		}
		sec := "0"
		if c.SectionURLs > 0 {
			sec = fmt.Sprintf("%d, e.g. %s", c.SectionURLs, c.SectionSample[0])
		}
		anchors := anchorList(c.Anchors)
		if len(c.Around) > 0 {
			// The most frequent text around those links: a host name
			// as the anchor says little, the line beside it says what
			// the site is (candidate-hosts.csv has three).
			anchors = strings.TrimPrefix(anchors+"; beside: "+strconv.Quote(c.Around[0].Name), "; ")
		}
		p("| %s | %d | %d | %d | %d | %d | %s | %s | %s | %s |\n", mdEsc(c.Host), c.Referrers, c.TargetReferrers, c.Links, c.Dropped, c.Pages,
			mdEsc(sec), mdEsc(anchors), mdEsc(countList(c.Reasons)), mdEsc(ref))
	}
}

// firstLang is the first code of a profile's language list ("nb, nn").
func firstLang(langs string) string {
	first, _, _ := strings.Cut(langs, ",")
	return strings.TrimSpace(first)
}

// anchorList writes anchor texts quoted, with their counts above one.
func anchorList(cs []Count) string {
	var parts []string
	for _, c := range cs {
		a := strconv.Quote(c.Name)
		if c.Count > 1 {
			a += " ×" + strconv.Itoa(c.Count)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, ", ")
}

func countList(cs []Count) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Name+" "+strconv.Itoa(c.Count))
	}
	return strings.Join(parts, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func mdEsc(s string) string { return mdEscaper.Replace(s) }

// mdEscaper keeps text a crawled server chose (an anchor text, a
// Content-Type, a host) as text in report.md: markdown passes inline HTML
// through, and pandoc or a previewer would run "<img onerror=...>" or
// follow "[x](javascript:...)" (a security review); "|" would end a
// table cell.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "&", "&amp;", "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`)

// csvCell keeps a cell a crawled page chose from starting a spreadsheet
// formula (=, +, -, @, a tab or a carriage return: CSV injection, a
// security review) with a leading apostrophe; numbers, negative status
// codes among them, and a lone "-" are left as they are.
func csvCell(s string) string {
	if len(s) < 2 || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}

// createFile is atomicfile.Create; a test makes it fail as a full disk does.
var createFile = atomicfile.Create

// WriteFiles writes the markdown summary, the CSV tables and the SVG charts
// into dir (created if needed), usually OUT/report. Files of the same names
// are replaced, all of them or, on an error, none.
func (r *Report) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	// Every file is written beside its final name first, and all are
	// put in place only once all are whole: a full disk or a kill leaves
	// the report before, not files cut short or a mix (a review found a
	// full disk leaving servers.csv at 4096 bytes).
	var pending []*atomicfile.Pending
	// What a report killed while writing left ("NAME.tmp-*" of its own
	// files) is removed first.
	for name := range reportFiles {
		atomicfile.RemoveLeftovers(filepath.Join(dir, name)) // what it cannot remove, the next run tries again
	}
	write := func(name string, fn func(io.Writer) error) error {
		p, err := createFile(filepath.Join(dir, name), 0o644, fn)
		if err != nil {
			return fmt.Errorf("report: write %s: %w", name, err)
		}
		pending = append(pending, p)
		return nil
	}
	csvOf := func(header []string, rows [][]string) func(io.Writer) error {
		return func(w io.Writer) error {
			cw := csv.NewWriter(w)
			cw.Write(header)
			for _, row := range rows {
				for i, cell := range row {
					row[i] = csvCell(cell)
				}
			}
			cw.WriteAll(rows) // flushes
			return cw.Error()
		}
	}
	itoa := strconv.Itoa
	ftoa := func(f float64) string { return strconv.FormatFloat(f, 'f', 6, 64) }

	var servers, harvest, langs, depths, trees, limits, statuses, anns, mimes, seeds, cands [][]string
	for _, m := range r.MIMETypes {
		mimes = append(mimes, []string{m.Type, itoa(m.Count), strconv.FormatInt(m.Bytes, 10)})
	}
	for _, s := range r.Seeds {
		seeds = append(seeds, []string{s.URL, itoa(s.Status), s.Meaning, s.Tree, itoa(s.Pages), itoa(s.Relevant), strconv.FormatBool(s.InProfile), s.Server, s.ServerHost})
	}
	for _, c := range r.Candidates {
		var anchors []string
		for _, a := range c.Anchors {
			anchors = append(anchors, a.Name)
		}
		var around []string
		for _, a := range c.Around {
			around = append(around, a.Name)
		}
		cands = append(cands, []string{c.Host, itoa(c.Referrers), itoa(c.Links), itoa(c.Dropped), itoa(c.Pages),
			strings.Join(anchors, " | "), countList(c.Reasons), strings.Join(c.ReferrerSample, " "),
			itoa(c.SectionURLs), strings.Join(c.SectionSample, " "), itoa(c.TargetReferrers), strconv.FormatBool(c.TargetDomain),
			strings.Join(around, " | ")})
	}
	for _, s := range r.Servers {
		servers = append(servers, []string{s.Host, itoa(s.Pages), itoa(s.Relevant), s.Status, fmtTime(s.First), fmtTime(s.Last)})
	}
	var domains [][]string
	for _, d := range r.Domains {
		domains = append(domains, []string{d.Domain, itoa(d.Hosts), itoa(d.Pages), itoa(d.Relevant)})
	}
	for _, h := range r.Harvest {
		harvest = append(harvest, []string{itoa(h.Pages), itoa(h.Relevant), ftoa(h.Rate()), fmtTime(h.Time)})
	}
	for _, l := range r.Languages {
		langs = append(langs, []string{l.Code, itoa(l.Pages), ftoa(l.Share), charsetList(l.Charsets)})
	}
	for _, d := range r.Depths {
		depths = append(depths, []string{itoa(d.Depth), itoa(d.Pages), itoa(d.CumPages), itoa(d.NewExternal), itoa(d.CumExternal)})
		limits = append(limits, []string{itoa(d.Depth), ftoa(d.LoadRate), ftoa(d.CaptureRate), itoa(d.CumPages), itoa(d.CumExternal)})
	}
	for _, t := range r.TreeDepths {
		trees = append(trees, []string{itoa(t.MaxDepth), itoa(t.Trees)})
	}
	for _, s := range r.Statuses {
		statuses = append(statuses, []string{itoa(s.Code), s.Meaning, itoa(s.Count), strconv.FormatInt(s.Bytes, 10)})
	}
	for _, a := range r.Annotations {
		anns = append(anns, []string{a.Name, itoa(a.Count)})
	}
	charts := r.Charts()
	var bw error
	if len(r.Bandwidth) > 0 {
		bw = write(FileBandwidthSVG, func(w io.Writer) error {
			return bandwidth.Plot(w, "Bandwidth: predicted and measured against the limit", r.Bandwidth)
		})
	}
	err := errors.Join(bw,
		write(FileMarkdown, r.WriteMarkdown),
		write(FileServers, csvOf([]string{"host", "html_pages", "target_pages", "status", "first_fetch", "last_fetch"}, servers)),
		write(FileDomains, csvOf([]string{"registered_domain", "hosts", "html_pages", "target_pages"}, domains)),
		write(FileHarvestCSV, csvOf([]string{"pages", "target_pages", "harvest_rate", "time"}, harvest)),
		write(FileHarvestSVG, charts.Harvest.WriteSVG),
		write(FileLanguages, csvOf([]string{"language", "pages", "share", "charsets"}, langs)),
		write(FileDepthCSV, csvOf([]string{"depth", "pages", "cumulative_pages", "new_external_urls", "cumulative_external_urls"}, depths)),
		write(FileDepthSVG, charts.Depths.WriteSVG),
		write(FileTreesCSV, csvOf([]string{"max_depth", "site_trees"}, trees)),
		write(FileTreesSVG, charts.Trees.WriteSVG),
		write(FileLimitCSV, csvOf([]string{"depth_limit", "load_rate", "capture_rate", "pages", "external_urls"}, limits)),
		write(FileLimitSVG, charts.Limit.WriteSVG),
		write(FileStatusCSV, csvOf([]string{"status", "meaning", "count", "bytes"}, statuses)),
		write(FileAnnotations, csvOf([]string{"annotation", "count"}, anns)),
		write(FileMIMETypes, csvOf([]string{"mime_type", "lines", "bytes"}, mimes)),
		write(FileSeeds, csvOf([]string{"seed", "status", "meaning", "tree", "html_pages", "target_pages", "in_profile", "server_status", "server_host"}, seeds)),
		write(FileCandidates, csvOf([]string{"host", "referring_pages", "rejected_links", "dropped_urls", "html_pages",
			"anchor_texts", "reasons", "referrer_sample", "section_urls", "section_sample", "target_referring_pages", "target_domain", "texts_around"}, cands)),
		write(FileJSON, r.WriteJSON),
	)
	if err != nil {
		for _, p := range pending {
			p.Abort()
		}
		return err
	}
	// The renames are one at a time: a kill between two of them leaves a
	// mix, and the marker says so (a kill-edge review: report.md of the
	// new run beside 17 tables of the run before, nothing to tell).
	marker := filepath.Join(dir, FileIncomplete)
	if err := atomicfile.Write(marker, 0o644, func(w io.Writer) error {
		_, err := io.WriteString(w, incompleteText)
		return err
	}); err != nil {
		for _, p := range pending {
			p.Abort()
		}
		return fmt.Errorf("report: %w", err)
	}
	for i, p := range pending {
		if cerr := p.Commit(); cerr != nil {
			for _, q := range pending[i+1:] {
				q.Abort()
			}
			return fmt.Errorf("report: %w (%s says the files are a mix of this run's and the last)", cerr, marker)
		}
	}
	// Gone already: another report run on the same folder (nothing locks
	// it) removed it; this run's files are all in place.
	if err := os.Remove(marker); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("report: %w", err)
	}
	return atomicfile.SyncDir(dir)
}

// WriteJSON writes the whole Report to w as one indented JSON object,
// the same data as the markdown, CSV tables and charts. Times are RFC
// 3339; ReadJSON reads it back.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("report: write json: %w", err)
	}
	return nil
}

// ReadJSON reads a Report that WriteJSON wrote.
func ReadJSON(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("report: read json: %w", err)
	}
	return &r, nil
}

// Charts are the report's SVG charts.
type Charts struct {
	Harvest plot.Chart // cumulative harvest rate against pages crawled
	Depths  plot.Chart // Nakahira Fig. 1
	Trees   plot.Chart // Nakahira Fig. 2
	Limit   plot.Chart // Nakahira Fig. 3
}

// Charts builds the charts from the report.
func (r *Report) Charts() Charts {
	var c Charts
	hs := plot.Series{Name: "harvest rate"}
	if r.Profile.Language != "" {
		hs.Name = "harvest rate (" + r.Profile.Language + ")"
	}
	for _, h := range r.Harvest {
		hs.X = append(hs.X, float64(h.Pages))
		hs.Y = append(hs.Y, h.Rate())
	}
	c.Harvest = plot.Chart{Title: "Cumulative harvest rate", XLabel: "HTML pages crawled", YLabel: "target-language pages / HTML pages",
		Percent: true, XInteger: true, Series: []plot.Series{hs}}

	pages := plot.Series{Name: "pages", Markers: true}
	ext := plot.Series{Name: "external URLs", Markers: true}
	limit := plot.Series{Name: "depth limit", Markers: true}
	for _, d := range r.Depths {
		x := float64(d.Depth)
		pages.X, pages.Y = append(pages.X, x), append(pages.Y, float64(d.CumPages))
		ext.X, ext.Y = append(ext.X, x), append(ext.Y, float64(d.CumExternal))
		limit.X, limit.Y = append(limit.X, d.LoadRate), append(limit.Y, d.CaptureRate)
		limit.Labels = append(limit.Labels, "L="+strconv.Itoa(d.Depth))
	}
	c.Depths = plot.Chart{Title: "Pages and external URLs by depth level (Nakahira Fig. 1)", XLabel: "depth level",
		YLabel: "cumulative count", XInteger: true, YInteger: true, Series: []plot.Series{pages, ext}}
	c.Limit = plot.Chart{Title: "External-URL capture rate against load (Nakahira Fig. 3)", XLabel: "load rate",
		YLabel: "external URLs captured", Percent: true, XPercent: true, Series: []plot.Series{limit}}

	trees := plot.Series{Name: "site trees", Markers: true}
	for _, t := range r.TreeDepths {
		trees.X, trees.Y = append(trees.X, float64(t.MaxDepth)), append(trees.Y, float64(t.Trees))
	}
	c.Trees = plot.Chart{Title: "Site trees by deepest page (Nakahira Fig. 2)", XLabel: "deepest depth level reached",
		YLabel: "site trees", XInteger: true, YInteger: true, Series: []plot.Series{trees}}
	return c
}
