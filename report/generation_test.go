package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
)

// writeRun writes one crawl run's WARC file into out: a page of Thai for
// each URL, under prefix, at day days after t0, its warcinfo naming
// generation gen (0: none, as before the field existed), its metadata
// carrying revisit (when not "") as a revisit's does.
func writeRun(t *testing.T, out, prefix string, gen int64, day int, revisit string, urls ...string) {
	t.Helper()
	at := t0.Add(time.Duration(day) * 24 * time.Hour)
	w, err := archive.NewWriter(archive.Config{Dir: filepath.Join(out, WARCDir), Prefix: prefix, Compress: true,
		Hostname: "h", Software: "langcrawl test", Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	if gen > 0 {
		w.SetGeneration(gen)
	}
	const body = "<html>หน้า</html>"
	for _, u := range urls {
		resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		ref, err := w.WriteExchange(&archive.Exchange{URL: u, IP: "192.0.2.1", Date: at,
			RawRequest: []byte("GET / HTTP/1.1\r\n\r\n"), RawResponse: []byte(resp), BodyOffset: len(resp) - len(body)})
		if err != nil {
			t.Fatal(err)
		}
		p := page{url: u, lang: "th", charset: "utf-8", relevant: true}
		fields := p.fields()
		if v, ok := strings.CutPrefix(revisit, "previousVisit="); ok {
			// A full capture of a URL the crawl knew (crawl's previousVisit).
			fields = append(fields, archive.Field{Name: "previousVisit", Value: v})
		} else if revisit != "" {
			fields = append(fields, archive.Field{Name: "revisit", Value: revisit})
		}
		if err := w.WriteMetadata(u, ref.ResponseID, at, fields); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGenerationsCounted: captures by a later generation are counted in
// its row as archived before (unchanged when a revisit of the URL's last
// visit, else changed), not as duplicates, however the files' names sort
// (a warc.prefix changed for the re-crawl) and when the first crawl's
// files were written before warcinfo named the generation; a resumed
// crawl's second capture within one generation is a repeat, and a
// duplicate as before; a crawl begun with --previous counts its revisits
// as unchanged though their originals are elsewhere.
func TestGenerationsCounted(t *testing.T) {
	a, b, c := "http://a.test/", "http://a.test/1", "http://a.test/2"
	type run struct {
		prefix  string
		gen     int64
		revisit string
		urls    []string
	}
	type row struct{ n, newURLs, unchanged, changed, repeated int }
	for _, tt := range []struct {
		name  string
		runs  []run
		dup   int
		pages int
		gens  []row
	}{
		{"in order", []run{{"lc", 1, "", []string{a, b, c}}, {"lc", 2, "", []string{a, b, c}}}, 0, 3,
			[]row{{1, 3, 0, 0, 0}, {2, 0, 0, 3, 0}}},
		{"prefix changed", []run{{"zz", 1, "", []string{a, b}}, {"aa", 2, "", []string{a, b, c}}}, 0, 3,
			[]row{{1, 2, 0, 0, 0}, {2, 1, 0, 2, 0}}},
		{"first crawl before the field", []run{{"lc", 0, "", []string{a, b, c}}, {"lc", 2, "", []string{a, b}}}, 0, 3,
			[]row{{2, 0, 0, 2, 0}}},
		{"resumed before the field", []run{{"lc", 0, "", []string{a, b}}, {"lc", 1, "", []string{b, c}}}, 1, 3,
			[]row{{1, 1, 0, 0, 1}}},
		{"resumed, then re-crawled", []run{{"lc", 1, "", []string{a, b}}, {"lc", 1, "", []string{b, c}}, {"lc", 2, "", []string{a, c}}}, 1, 3,
			[]row{{1, 3, 0, 0, 1}, {2, 0, 0, 2, 0}}},
		{"re-crawl finds them unchanged", []run{{"lc", 1, "", []string{a, b, c}}, {"lc", 2, "unchanged", []string{a, b}}, {"lc", 2, "not-modified", []string{c}}}, 0, 3,
			[]row{{1, 3, 0, 0, 0}, {2, 0, 3, 0, 0}}},
		{"another URL's payload", []run{{"lc", 1, "duplicate", []string{a}}, {"lc", 2, "duplicate", []string{a}}}, 0, 1,
			[]row{{1, 1, 0, 0, 0}, {2, 0, 0, 1, 0}}},
		// --previous: the earlier captures are in another directory.
		{"begun with --previous", []run{{"lc", 2, "unchanged", []string{a, b}}, {"lc", 2, "", []string{c}}}, 0, 3,
			[]row{{2, 1, 2, 0, 0}}},
		// A changed page of the earlier crawl is archived before, not new
		// (an archivist's trial: 547 such pages counted as new).
		{"begun with --previous, changed", []run{{"lc", 2, "unchanged", []string{a}}, {"lc", 2, "previousVisit=2026-08-01T00:00:00Z 200", []string{b}}, {"lc", 2, "", []string{c}}}, 0, 3,
			[]row{{2, 1, 1, 1, 0}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			for i, r := range tt.runs {
				writeRun(t, out, r.prefix, r.gen, i, r.revisit, r.urls...)
			}
			rep, err := Build(out)
			if err != nil {
				t.Fatal(err)
			}
			if rep.DuplicateURLs != tt.dup {
				t.Errorf("DuplicateURLs %d, want %d", rep.DuplicateURLs, tt.dup)
			}
			if len(rep.Generations) != len(tt.gens) {
				t.Fatalf("generations %+v, want %v", rep.Generations, tt.gens)
			}
			for i, g := range rep.Generations {
				w := tt.gens[i]
				got := row{int(g.N), g.New, g.Unchanged, g.Changed, g.Repeated}
				if got != w || g.URLs != g.New+g.Unchanged+g.Changed+g.Repeated {
					t.Errorf("generation row %+v: want generation, new, unchanged, changed, repeated %v, summing to URLs", g, w)
				}
			}
			if rep.Pages != tt.pages {
				t.Errorf("%d pages, want the %d URLs once each", rep.Pages, tt.pages)
			}
			// The server's last fetch is the last run's, a re-crawl's
			// capture of a known URL included (it was the first
			// capture's before, so re-crawls seemed never to visit).
			if want := t0.Add(time.Duration(len(tt.runs)-1) * 24 * time.Hour); len(rep.Servers) != 1 || !rep.Servers[0].Last.Equal(want) {
				t.Errorf("servers %+v: want a.test last fetched %v", rep.Servers, want)
			}
		})
	}
}
