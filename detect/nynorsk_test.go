package detect

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNynorskReadAsBokmal: Norwegian Nynorsk has no profile (docs/detect.md,
// "What a Nynorsk page gets today"), so each article of the Nynorsk UDHR
// with 200 characters or more comes out Bokmål, and a crawl targeting nb
// keeps it. The text is from the corpora (as TestRebuildProfiles reads
// them); no profile was trained on it.
func TestNynorskReadAsBokmal(t *testing.T) {
	dir := corporaDir()
	ps, err := udhrParagraphs(filepath.Join(dir, UDHRDir, "nno.html"))
	if err != nil {
		t.Fatalf("the Nynorsk UDHR (run detect/corpora/fetch.sh): %v", err)
	}
	articles := map[int][]string{}
	for _, p := range ps {
		if p.article > 0 {
			articles[p.article] = append(articles[p.article], p.text)
		}
	}
	d, err := New(Options{Targets: []string{"nb"}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for a, texts := range articles {
		text := strings.Join(texts, " ")
		if len([]rune(text)) < 200 {
			continue
		}
		n++
		page := "<html><head><meta charset=\"utf-8\"></head><body><p>" + text + "</p></body></html>"
		if r := d.Detect([]byte(page), ""); r.Lang != "nb" || !r.Relevant {
			t.Errorf("Nynorsk article %d: %s (confidence %.3f, relevant %v), want nb", a, r.Lang, r.Confidence, r.Relevant)
		}
	}
	t.Logf("%d Nynorsk articles of 200 characters or more", n)
	if n < 15 {
		t.Errorf("only %d Nynorsk articles of 200 characters or more", n)
	}
}
