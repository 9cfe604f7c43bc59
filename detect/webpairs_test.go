package detect

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// webPairsFiles hold hand-written web-style paragraphs of the close
// pairs (see their headers): text of another kind than the UDHR and the
// message catalogues, which every profile and word model is trained on.
// The second was written after the distinctive-word lists of spelling.go.
// The third holds the other close pairs of issue 14, written before
// their spelling features (pairs.go).
// The fourth was written after those features were built and chosen.
var webPairsFiles = []string{"testdata/web-pairs.txt", "testdata/web-pairs-fresh.txt", "testdata/web-pairs-others.txt", "testdata/web-pairs-others-fresh.txt"}

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

// sentencePages puts each sentence of text (20 characters or more) alone
// in a plain page: the short texts where close pairs are hard.
func sentencePages(text string) []string {
	var pages []string
	rest := text
	for rest != "" {
		i := len(rest)
		for _, sep := range []string{". ", "! ", "? ", "。", "। "} {
			if j := strings.Index(rest, sep); j >= 0 && j+len(sep) < i {
				i = j + len(sep)
			}
		}
		s := strings.TrimSpace(rest[:i])
		rest = rest[i:]
		if utf8.RuneCountInString(s) >= 20 {
			pages = append(pages, "<!doctype html><meta charset=utf-8><title>t</title><p>"+s+"</p>")
		}
	}
	return pages
}

// TestWebPairs measures each close pair both ways on the web-style
// paragraphs: the share of each language's pages detected as it, each
// paragraph alone and in every boilerplate template, and (for the other
// pairs) each sentence alone.
func TestWebPairs(t *testing.T) {
	d := evalDetector(t)
	// Floors per file and language, a little under the measured run
	// (docs/detect.md).
	for _, c := range []struct {
		file   string
		pages  func(string) []string
		floors map[string]float64
	}{
		{webPairsFiles[0], webPairPages, map[string]float64{"ms": 0.95, "id": 0.95}},
		{webPairsFiles[1], webPairPages, map[string]float64{"ms": 0.9, "id": 0.9}},
		// The other pairs, 25 pages per language (5 paragraphs, alone and
		// in 4 templates): every one right (before the spelling features
		// and the Hindi, Nepali and Marathi group, 2 Nepali pages went to
		// Hindi).
		{webPairsFiles[2], webPairPages, map[string]float64{"": 1}},
		// Each sentence alone (10 to 13 per language): one Danish
		// sentence goes to Bokmål, one Serbian to Macedonian (before: da
		// 0.83, sr 0.83, ne 0.92, ru 0.92, the rest 1).
		{webPairsFiles[2], sentencePages, map[string]float64{"da": 0.91, "sr": 0.91, "": 1}},
		// Written after the features: every page and every sentence
		// right (before them, one Danish sentence went to Bokmål).
		{webPairsFiles[3], webPairPages, map[string]float64{"": 1}},
		{webPairsFiles[3], sentencePages, map[string]float64{"": 1}},
	} {
		acc := webPairs(t, d, c.file, c.pages)
		// "" is the floor of every language not listed.
		for _, k := range sortedKeys(acc) {
			floor, ok := c.floors[k]
			if !ok {
				floor = c.floors[""]
			}
			if acc[k] < floor {
				t.Errorf("%s %s: %.4f right, below the floor %.4f", c.file, k, acc[k], floor)
			}
		}
	}
}

// webPairs returns the share of each tag's pages of file that d detects
// as it, and logs where the others went; pages makes the pages of a text.
func webPairs(t *testing.T, d *Detector, file string, pages func(string) []string) map[string]float64 {
	by, tags := loadWebPairs(t, file)
	got := map[string]map[string]int{} // true tag -> detected tag -> pages
	n := map[string]int{}
	for _, tag := range tags {
		got[tag] = map[string]int{}
		for i, txt := range by[tag] {
			for kind, page := range pages(txt) {
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
