package report

import (
	"os"
	"path/filepath"
	"testing"
)

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
