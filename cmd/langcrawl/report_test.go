package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/report"
)

// TestReportOnDemoCrawl crawls the built-in web for Thai, runs
// `langcrawl report` on the output directory, and checks the report
// against what was archived and against the generator's truth.
func TestReportOnDemoCrawl(t *testing.T) {
	const tolerance = 3
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, fmt.Sprintf("focus:\n  language: th\n  strategy: conservative-server\n  tolerance: %d\n", tolerance))
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}

	var stdout, stderr bytes.Buffer
	cmd := reportCmd()
	cmd.SetArgs([]string{"--out", out})
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	// The progress line (TestFileMeter), on stderr, its last one after the
	// last WARC file.
	warcs, _ := report.WARCFiles(out)
	if want := fmt.Sprintf("report: %d of %d WARC files, ", len(warcs), len(warcs)); len(warcs) == 0 || !strings.Contains(stderr.String(), want) {
		t.Errorf("langcrawl report's stderr is %q, want a line with %q", stderr.String(), want)
	}
	dir := filepath.Join(out, report.Dir)
	for _, name := range []string{report.FileMarkdown, report.FileServers, report.FileHarvestCSV, report.FileHarvestSVG,
		report.FileLanguages, report.FileDepthCSV, report.FileDepthSVG, report.FileTreesCSV, report.FileTreesSVG,
		report.FileLimitCSV, report.FileLimitSVG, report.FileStatusCSV, report.FileAnnotations,
		report.FileMIMETypes, report.FileSeeds, report.FileCandidates, report.FileJSON} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty: %v", name, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, report.FileMarkdown))
	if !bytes.Equal(stdout.Bytes(), md) {
		t.Error("stdout differs from report.md")
	}
	if !strings.Contains(stdout.String(), "Target language: **th**") {
		t.Errorf("summary does not name the target language:\n%s", stdout.String())
	}

	servers := readServers(t, filepath.Join(dir, report.FileServers))
	html := archivedHTML(t, filepath.Join(out, warcDir))

	t.Run("statuses agree with the generator", func(t *testing.T) {
		relevant := 0
		for s := int32(0); s < int32(w.g.NumServers()); s++ {
			sv := w.g.Server(s)
			row, ok := servers[sv.Host]
			if !ok {
				continue
			}
			if row.status == "relevant" {
				relevant++
			}
			if !sv.Target && row.status == "relevant" {
				t.Errorf("%s has no Thai page but is reported relevant (N_a %d, N_r %d)", sv.Host, row.pages, row.relevant)
			}
			if !sv.Target && row.relevant > 0 {
				t.Errorf("%s has no Thai page but N_r = %d", sv.Host, row.relevant)
			}
			want := "undecided"
			switch {
			case row.relevant > 0:
				want = "relevant"
			case row.pages > tolerance:
				want = "irrelevant"
			}
			if row.status != want {
				t.Errorf("%s: status %q with N_a %d, N_r %d and T = %d, want %q", sv.Host, row.status, row.pages, row.relevant, tolerance, want)
			}
		}
		if relevant == 0 {
			t.Error("no server reported relevant in a crawl for Thai")
		}
	})

	t.Run("N_a is the HTML pages archived", func(t *testing.T) {
		if len(html) == 0 {
			t.Fatal("no HTML page archived")
		}
		for host, n := range html {
			if got := servers[host].pages; got != n {
				t.Errorf("%s: N_a %d, but %d HTML pages archived", host, got, n)
			}
		}
		for host, row := range servers {
			if row.pages > 0 && html[host] == 0 {
				t.Errorf("%s: N_a %d, but no HTML page archived", host, row.pages)
			}
		}
	})

	t.Run("depth levels add up", func(t *testing.T) {
		total := 0
		for _, n := range html {
			total += n
		}
		rows := readCSVFile(t, filepath.Join(dir, report.FileLimitCSV))
		last := rows[len(rows)-1]
		if last[1] != "1.000000" || last[2] != "1.000000" || last[3] != fmt.Sprint(total) {
			t.Errorf("last depth-limit row %q: want full load and capture over %d pages", last, total)
		}
	})

	t.Run("crawl.log outcomes", func(t *testing.T) {
		rows := readCSVFile(t, filepath.Join(dir, report.FileStatusCSV))
		codes := map[string]bool{}
		for _, r := range rows[1:] {
			codes[r[0]] = true
		}
		// The demo web serves pages, 404s, redirects and robots-disallowed
		// links, and a focused crawl skips irrelevant servers' queues.
		for _, c := range []string{"200", "404", "-9998"} {
			if !codes[c] {
				t.Errorf("no crawl.log status %s in %v", c, codes)
			}
		}
	})

	t.Run("json, seeds and candidate hosts", func(t *testing.T) {
		r := rrReport(t, out)
		archived := 0
		for _, n := range html {
			archived += n
		}
		if r.Pages != archived || len(r.Servers) != len(servers) {
			t.Errorf("--json: %d pages, %d servers; %d HTML pages archived, %d servers in %s",
				r.Pages, len(r.Servers), archived, len(servers), report.FileServers)
		}
		// Every seed of the generator is in the profile and was fetched.
		seeds := map[string]report.Seed{}
		for _, s := range r.Seeds {
			seeds[s.URL] = s
		}
		for _, id := range w.g.Seeds() {
			u := w.g.URL(id)
			s, ok := seeds[u]
			if !ok || !s.InProfile || s.Status == 0 {
				t.Errorf("seed %s: %+v, %v", u, s, ok)
			}
			if s.Status == http.StatusOK && s.Pages == 0 {
				t.Errorf("seed %s fetched, but its tree %s has no pages", u, s.Tree)
			}
		}
		// A candidate host has no target-language page in the archive,
		// and the crawl turned some away with anchors to show.
		if len(r.Candidates) == 0 {
			t.Fatal("a focused crawl of the demo web turned no host away")
		}
		anchors := 0
		for _, c := range r.Candidates {
			if row, ok := servers[c.Host]; ok && row.relevant > 0 {
				t.Errorf("candidate %s has %d target-language pages", c.Host, row.relevant)
			}
			if c.Links+c.Dropped == 0 || (c.Links > 0 && c.Referrers == 0) {
				t.Errorf("candidate %s without evidence: %+v", c.Host, c)
			}
			anchors += len(c.Anchors)
		}
		if anchors == 0 {
			t.Error("no candidate host has an anchor text: the metadata outlinks carry none")
		}
		if len(r.MIMETypes) == 0 || r.MIMETypes[0].Bytes == 0 {
			t.Errorf("MIME types %+v", r.MIMETypes)
		}
	})

	t.Run("tolerance flag", func(t *testing.T) {
		cmd := reportCmd()
		const wide = 10
		cmd.SetArgs([]string{"--out", out, "--tolerance", fmt.Sprint(wide)})
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		// The what-if goes beside the crawl's own report, which keeps
		// its T.
		for host, row := range readServers(t, filepath.Join(dir, report.FileServers)) {
			if row != servers[host] {
				t.Errorf("%s: the crawl's own report changed to %+v (was %+v)", host, row, servers[host])
			}
		}
		changed := 0
		for host, row := range readServers(t, filepath.Join(dir, fmt.Sprintf("tolerance-%d", wide), report.FileServers)) {
			before := servers[host]
			if before.relevant == 0 && (row.status == "undecided") != (row.pages <= wide) {
				t.Errorf("%s: N_r 0, N_a %d: status %q under T = %d", host, row.pages, row.status, wide)
			}
			if before.status != row.status {
				changed++
			}
		}
		if changed == 0 {
			t.Errorf("no status changed from T = %d to T = %d; the flag had no effect", tolerance, wide)
		}
	})

	t.Run("missing directory exits 2", func(t *testing.T) {
		if code := run([]string{"report", "--out", filepath.Join(out, "nope")}); code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
	})
}

type serverRow struct {
	pages, relevant int
	status          string
}

func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s: %d rows, %v", path, len(rows), err)
	}
	return rows
}

func readServers(t *testing.T, path string) map[string]serverRow {
	t.Helper()
	m := map[string]serverRow{}
	for _, r := range readCSVFile(t, path)[1:] {
		var row serverRow
		fmt.Sscan(r[1], &row.pages)
		fmt.Sscan(r[2], &row.relevant)
		row.status = r[3]
		m[r[0]] = row
	}
	return m
}

// archivedHTML counts, per host, the distinct URLs archived with a 2xx
// text/html response: the pages whose language the crawl identified.
func archivedHTML(t *testing.T, dir string) map[string]int {
	t.Helper()
	seen := map[string]bool{}
	count := map[string]int{}
	for _, r := range warcRecords(t, dir) {
		if r.Type != "response" || seen[r.TargetURI] {
			continue
		}
		res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.Block)), nil)
		if err != nil {
			continue
		}
		res.Body.Close()
		ct := strings.ToLower(res.Header.Get("Content-Type"))
		if res.StatusCode/100 != 2 || !(strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "application/xhtml")) {
			continue
		}
		seen[r.TargetURI] = true
		u, _ := url.Parse(r.TargetURI)
		count[u.Host]++
	}
	return count
}
