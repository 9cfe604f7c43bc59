package main

import (
	"bytes"
	"context"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
)

// TestTargetChangeRejudges: a crawl run again in place with another
// focus.language judges every server again. Before, the server verdicts
// of the old target carried over: the built-in web crawled first for
// Thai, the new generation for Lao fetched every known page of the Thai
// servers (judged relevant for Thai) in full. Now a Thai server, holding no Lao
// page, serves at most T+1 pages to the new generation, and the start
// warns that the verdicts were dropped.
func TestTargetChangeRejudges(t *testing.T) {
	w := startWeb(t)
	g := w.g
	thai := map[string]bool{} // hosts of Thai servers with no Lao page
	for s := range int32(g.NumServers()) {
		sv := g.Server(s)
		if sv.Lang != "th" {
			continue
		}
		lao := false
		for p := sv.First; p < sv.End; p++ {
			lao = lao || g.Page(p).Lang == "lo"
		}
		if !lao {
			thai[sv.Host] = true
		}
	}
	if len(thai) < 5 {
		t.Fatalf("only %d Thai servers on the built-in web", len(thai))
	}
	out := t.TempDir()
	const focus = "focus:\n  language: %s\n  tolerance: 10\n"
	crawlInto(t, w, out, strings.ReplaceAll(focus, "%s", "th"))
	first, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))

	var stderr strings.Builder
	if _, err := runCrawl(context.Background(), w.profile(t, out, strings.ReplaceAll(focus, "%s", "lo")), io.Discard, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "focus.language changed from th to lo") {
		t.Errorf("no warning that the target changed:\n%s", stderr.String())
	}
	all, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
	perHost := map[string]int{}
	for _, f := range all {
		if slices.Contains(first, f) {
			continue
		}
		recs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			// Pages that count toward T: 200 responses (and revisits of
			// them), not the web's 404 pages.
			if r.Type != "response" && r.Type != "revisit" || r.Type == "response" && !bytes.HasPrefix(r.Block, []byte("HTTP/1.1 200")) {
				continue
			}
			u, err := url.Parse(r.TargetURI)
			if err != nil || !thai[u.Hostname()] || !strings.HasSuffix(u.Path, ".html") && u.Path != "/" {
				continue
			}
			perHost[u.Hostname()]++
		}
	}
	if len(perHost) == 0 {
		t.Fatalf("the second generation fetched no page of a Thai server: nothing to judge (files %v then %v)\n%s", first, all, stderr.String())
	}
	for h, n := range perHost {
		if n > 11 {
			t.Errorf("%s, a Thai server with no Lao page, served %d pages to the Lao generation; want at most T+1 = 11", h, n)
		}
	}
	t.Logf("pages of Thai servers fetched in the Lao generation: %v", perHost)
}
