package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/report"
)

// TestRecrawlDemo: running the crawl again on the finished crawl of the
// built-in web starts generation 2. Every page captured in generation 1
// is visited again; as the web did not change, each 200 becomes a revisit
// record that pywb can resolve: it names the generation-1 record
// (WARC-Refers-To), its URL (WARC-Refers-To-Target-URI) and its date
// (WARC-Refers-To-Date), with the same payload digest. Nothing is lost and
// every WARC still reads strictly.
func TestRecrawlDemo(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "retries: {max: 4, delay: 20ms, max_delay: 100ms}\n")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := responses(warcRecords(t, filepath.Join(out, warcDir)))
	var stdout, stderr bytes.Buffer
	snap, err := runCrawl(context.Background(), cfg, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "generation 2") || snap.Frontier.Generation != 2 {
		t.Fatalf("the second run did not start generation 2:\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), "resuming crawl") {
		t.Errorf("a new generation is not a resumed crawl, and says so once:\n%s", stderr.String())
	}
	recs := warcRecords(t, filepath.Join(out, warcDir)) // strict: every record and digest
	byID := map[string]bool{}
	for _, rs := range first {
		for _, r := range rs {
			byID[r.ID] = true
		}
	}
	revisits := map[string]int{}
	for _, r := range recs {
		if r.Type != "revisit" {
			continue
		}
		revisits[r.TargetURI]++
		if !byID[r.RefersTo] || header(r, "WARC-Refers-To-Target-URI") != r.TargetURI || header(r, "WARC-Refers-To-Date") == "" {
			t.Errorf("revisit of %s does not name its generation-1 capture: Refers-To %q, Target-URI %q, Date %q",
				r.TargetURI, r.RefersTo, header(r, "WARC-Refers-To-Target-URI"), header(r, "WARC-Refers-To-Date"))
		}
		orig := first[r.TargetURI]
		if len(orig) == 0 || header(r, "WARC-Payload-Digest") != header(orig[0], "WARC-Payload-Digest") {
			t.Errorf("revisit of %s: payload digest differs from the capture's", r.TargetURI)
		}
	}
	pages := 0
	for u, rs := range first {
		if !strings.HasSuffix(u, "/robots.txt") && strings.HasPrefix(string(rs[0].Block), "HTTP/1.1 200") &&
			header(rs[0], "WARC-Truncated") == "" {
			pages++
			if revisits[u] == 0 {
				t.Errorf("%s, unchanged, got no revisit in generation 2", u)
			}
		}
	}
	if snap.Revisits < int64(pages) || pages < 100 {
		t.Errorf("%d revisits for %d unchanged pages", snap.Revisits, pages)
	}
	t.Logf("generation 2: %d revisits of %d pages", snap.Revisits, pages)

	// The URLs queued again keep how the crawl first reached them, so
	// crawl.log and the report count the seeds as seeds (every re-crawled
	// URL used to be logged with no hop path, and counted as one).
	r, err := report.Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(w.g.Seeds()); len(r.Seeds) != want {
		t.Errorf("the report lists %d seeds after a re-crawl, want the profile's %d", len(r.Seeds), want)
	}

	// Each WARC file says which visit it holds, and the report counts the
	// generations apart: the re-crawl's captures are not "archived more
	// than once" (they were counted so before).
	gen1 := map[string]bool{}
	for _, rs := range first {
		for _, r := range rs {
			gen1[r.WarcinfoID] = true
		}
	}
	infos := map[string]string{} // warcinfo record ID -> its generation field
	for _, r := range recs {
		if r.Type == "warcinfo" {
			for _, f := range report.ParseFields(r.Block) {
				if f.Name == "generation" {
					infos[r.ID] = f.Value
				}
			}
		}
	}
	for _, r := range recs {
		if r.Type == "warcinfo" {
			continue
		}
		want := "2"
		if gen1[r.WarcinfoID] {
			want = "1"
		}
		if got := infos[r.WarcinfoID]; got != want {
			t.Errorf("%s record of %s: its warcinfo says generation %q, want %s", r.Type, r.TargetURI, got, want)
			break
		}
	}
	if len(r.Generations) != 2 || r.Generations[0].N != 1 || r.Generations[1].N != 2 {
		t.Fatalf("report generations %+v, want 1 and 2", r.Generations)
	}
	g1, g2 := r.Generations[0], r.Generations[1]
	// The web did not change: every page came back as a revisit, which
	// the table counts as unchanged (the metadata's revisit field).
	again := g2.Unchanged + g2.Changed
	if g1.New < pages || g1.Unchanged+g1.Changed != 0 || g2.Unchanged < pages || g2.New > g2.URLs/10 || g2.Pages == 0 {
		t.Errorf("report generations %+v: want generation 2 to find the %d pages of generation 1 unchanged", r.Generations, pages)
	}
	if r.DuplicateURLs >= again/10 {
		t.Errorf("%d URLs archived more than once within a generation, beside %d archived again by generation 2: the re-crawl counted as duplicates",
			r.DuplicateURLs, again)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), "## Generations") {
		t.Errorf("the markdown report has no Generations section: %v", err)
	}
}

// TestCutShortAtEndCloses: a run killed in its stop after it had emptied
// its queue (in the WARC close or the index merge) leaves OUT/.running; the
// next start closes the crawl and fetches nothing, and only the run after
// it starts generation 2. Before, the next start re-crawled the whole web
// (the crash trial), where the operator meant to resume.
func TestCutShortAtEndCloses(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(out, runMarker)
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("%s left by a run that ended", marker)
	}
	requests := len(w.srv.Log())
	files, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc*"))
	// A kill in a run's start, before it crawled (its marker says
	// started), is no reason to hold back the new generation: this run
	// would start it. Checked without running it: only the marker is read.
	if err := os.WriteFile(marker, []byte("started: a langcrawl run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cut, err := markRun(out, "started"); err != nil || cut {
		t.Errorf("a marker left in a run's start read as cut short in its stop: %v, %v", cut, err)
	}
	// What a kill in the stop leaves: the marker saying stopping (its
	// WARC file left open too is what TestKillNine's recovery covers).
	if err := os.WriteFile(marker, []byte("stopping: a langcrawl run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	snap, err := runCrawl(context.Background(), cfg, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "cut short") || strings.Contains(stderr.String(), "generation 2 of") || snap.Frontier.Generation != 1 {
		t.Errorf("after a run cut short at its end: generation %d, stderr:\n%s\nwant generation 1, said cut short", snap.Frontier.Generation, stderr.String())
	}
	if n := len(w.srv.Log()); n != requests {
		t.Errorf("%d requests after the run cut short at its end, want none", n-requests)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("%s left after the closing run", marker)
	}
	if again, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc*")); len(again) != len(files) {
		t.Errorf("the closing run left %d WARC files, want the %d there were", len(again), len(files))
	}
	stderr.Reset()
	if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "generation 2 of") {
		t.Errorf("the run after the closing one did not start generation 2:\n%s", stderr.String())
	}
}
