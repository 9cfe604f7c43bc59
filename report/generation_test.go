package report

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
)

// writeRun writes one crawl run's WARC file into out: a page of Thai for
// each URL, under prefix, at day days after t0, its warcinfo naming
// generation gen (0: none, as before the field existed).
func writeRun(t *testing.T, out, prefix string, gen int64, day int, urls ...string) {
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
		if err := w.WriteMetadata(u, ref.ResponseID, at, p.fields()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGenerationsCounted: captures by a later generation are counted in
// its row as archived again, not as duplicates, however the files' names
// sort (a warc.prefix changed for the re-crawl) and when the first crawl's
// files were written before warcinfo named the generation; a resumed
// crawl's second capture within one generation is a duplicate, as before.
func TestGenerationsCounted(t *testing.T) {
	a, b, c := "http://a.test/", "http://a.test/1", "http://a.test/2"
	type run struct {
		prefix string
		gen    int64
		urls   []string
	}
	for _, tt := range []struct {
		name  string
		runs  []run
		dup   int
		gens  []int64 // generations listed
		again []int   // their Again
		urls  []int   // their URLs
	}{
		{"in order", []run{{"lc", 1, []string{a, b, c}}, {"lc", 2, []string{a, b, c}}}, 0, []int64{1, 2}, []int{0, 3}, []int{3, 3}},
		{"prefix changed", []run{{"zz", 1, []string{a, b}}, {"aa", 2, []string{a, b, c}}}, 0, []int64{1, 2}, []int{0, 2}, []int{2, 3}},
		{"first crawl before the field", []run{{"lc", 0, []string{a, b, c}}, {"lc", 2, []string{a, b}}}, 0, []int64{2}, []int{2}, []int{2}},
		{"resumed before the field", []run{{"lc", 0, []string{a, b}}, {"lc", 1, []string{b, c}}}, 1, []int64{1}, []int{0}, []int{2}},
		{"resumed, then re-crawled", []run{{"lc", 1, []string{a, b}}, {"lc", 1, []string{b, c}}, {"lc", 2, []string{a, c}}}, 1, []int64{1, 2}, []int{0, 2}, []int{4, 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			for i, r := range tt.runs {
				writeRun(t, out, r.prefix, r.gen, i, r.urls...)
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
				if g.N != tt.gens[i] || g.Again != tt.again[i] || g.URLs != tt.urls[i] {
					t.Errorf("generation row %+v, want generation %d, %d URLs, %d again", g, tt.gens[i], tt.urls[i], tt.again[i])
				}
			}
			if rep.Pages != 3 {
				t.Errorf("%d pages, want the 3 URLs once each", rep.Pages)
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
