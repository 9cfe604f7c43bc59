package detect

import (
	"bufio"
	"os"
	"sort"
	"strings"
	"testing"
)

// webPairsFiles hold hand-written web-style paragraphs of the close
// pairs (see their headers): text of another kind than the UDHR and the
// message catalogues, which every profile and word model is trained on.
// The second was written after the distinctive-word lists of spelling.go.
var webPairsFiles = []string{"testdata/web-pairs.txt", "testdata/web-pairs-fresh.txt"}

// loadWebPairs reads a file of webPairsFiles, by tag.
func loadWebPairs(t testing.TB, file string) (map[string][]string, []string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	by := map[string][]string{}
	var tags []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tag, text, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", file, line)
		}
		if by[tag] == nil {
			tags = append(tags, tag)
		}
		by[tag] = append(by[tag], text)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return by, tags
}

// webPairPages wraps a paragraph in a plain page and in each of the
// boilerplate templates (English headers, notices, menus, code, markup).
func webPairPages(text string) []string {
	pages := []string{"<!doctype html><meta charset=utf-8><title>t</title><p>" + text + "</p>"}
	for k := range boilerplateTemplates {
		pages = append(pages, boilerplatePage(text, k, "utf-8"))
	}
	return pages
}

// TestWebPairs measures each close pair both ways on the web-style
// paragraphs: the share of each language's pages detected as it, each
// paragraph alone and in every boilerplate template.
func TestWebPairs(t *testing.T) {
	d := evalDetector(t)
	// Floors per file and language, a little under the measured run
	// (README-section.md).
	floors := []map[string]float64{
		{"ms": 0.95, "id": 0.95},
		{"ms": 0.9, "id": 0.9},
	}
	for fi, file := range webPairsFiles {
		acc := webPairs(t, d, file)
		keys := make([]string, 0, len(floors[fi]))
		for k := range floors[fi] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if acc[k] < floors[fi][k] {
				t.Errorf("%s %s: %.4f right, below the floor %.4f", file, k, acc[k], floors[fi][k])
			}
		}
	}
}

// webPairs returns the share of each tag's pages of file that d detects
// as it, and logs where the others went.
func webPairs(t *testing.T, d *Detector, file string) map[string]float64 {
	by, tags := loadWebPairs(t, file)
	got := map[string]map[string]int{} // true tag -> detected tag -> pages
	n := map[string]int{}
	for _, tag := range tags {
		got[tag] = map[string]int{}
		for i, txt := range by[tag] {
			for kind, page := range webPairPages(txt) {
				r := d.Detect([]byte(page), "")
				got[tag][r.Tag]++
				n[tag]++
				if r.Tag != tag {
					t.Logf("miss %s %s/%d/%d: got %s (%s, %.3f)", file, tag, i, kind, r.Tag, r.Evidence, r.Confidence)
				}
			}
		}
	}
	acc := map[string]float64{}
	for _, tag := range tags {
		acc[tag] = ratio(got[tag][tag], n[tag])
		t.Logf("%s %-8s pages %3d  right %.4f  detected as: %s", file, tag, n[tag], acc[tag], confusionList(got[tag]))
	}
	return acc
}
