package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScriptLanguagesMixedGenerations: a review found a crawl begun by a langcrawl before languageTag and resumed (or
// re-crawled) by this one: its languages table splits the same Chinese
// pages into a bare "zh" row (the older records) and "zh-Hant"/"zh-Hans"
// rows, and nothing says the older records lack the tag.
func TestScriptLanguagesMixedGenerations(t *testing.T) {
	out := t.TempDir()
	writeWARC(t, filepath.Join(out, WARCDir), t0, []page{
		{url: "http://tw.test/", tree: "tw.test", lang: "zh", charset: "big5", relevant: true},
		{url: "http://tw.test/a", depth: 1, tree: "tw.test", lang: "zh", charset: "big5", relevant: true},
	})
	writeWARC(t, filepath.Join(out, WARCDir), t0.Add(time.Hour), []page{
		{url: "http://tw.test/b", depth: 1, tree: "tw.test", lang: "zh/zh-Hant", charset: "big5", relevant: true},
	})
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, l := range r.Languages {
		got[l.Code] = l.Pages
	}
	warned := strings.Contains(strings.Join(r.Warnings, "\n"), "languageTag")
	if got["zh"] > 0 && got["zh-Hant"] > 0 && !warned {
		t.Errorf("languages %v: one server's Traditional pages split into zh and zh-Hant, no warning (%v)", got, r.Warnings)
	}
}

// TestScriptSectionURLsHant: a review found for a zh-hant crawl the report says a section URL is one like
// `/zh-hant/` or `?lang=zh-hant`, but NamesTarget reads neither, and reads
// a Simplified one (`?lang=zh-cn`) as the target's: the candidate with
// Traditional section URLs gets none, the Simplified one is put first.
func TestScriptSectionURLsHant(t *testing.T) {
	out := t.TempDir()
	writeWARC(t, filepath.Join(out, WARCDir), t0, []page{
		{url: "http://en.test/", tree: "en.test", lang: "en", charset: "utf-8", outlinks: []string{
			`http://hant.example/zh-hant/news/1 L a/@href rejected:focus:unvisited-server`,
			`http://hans.example/news.php?lang=zh-cn L a/@href rejected:focus:unvisited-server`,
		}},
	})
	if err := writeFile(filepath.Join(out, ProfileFile), "seeds: [http://en.test/]\nfocus:\n  language: zh-hant\n"); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	sec := map[string]int{}
	for _, c := range r.Candidates {
		sec[c.Host] = c.SectionURLs
	}
	if sec["hant.example"] == 0 || sec["hans.example"] != 0 {
		t.Errorf("section URLs by host %v: want hant.example (/zh-hant/) > 0 and hans.example (?lang=zh-cn) 0", sec)
	}
}

func writeFile(p, s string) error { return os.WriteFile(p, []byte(s), 0o644) }
