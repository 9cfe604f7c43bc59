package detect

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// typicalPage builds a page of about 25 KB: head with scripts and styles,
// navigation, 3 KB or so of running text in tag's language, and a footer.
func typicalPage(tb testing.TB, tag, cs string) []byte {
	by, _ := loadHeldOut(tb)
	var sb strings.Builder
	sb.WriteString("<!DOCTYPE html><html><head><meta charset=\"" + cs + "\"><title>page</title>\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&sb, "<script>function f%d(a,b){return a<b?a:b;} window.dataLayer=[];</script>\n", i)
		sb.WriteString("<style>.nav li{display:inline;margin:0 1em}body{font-family:sans-serif}</style>\n")
	}
	sb.WriteString("</head><body>\n")
	for i := 0; i < 4; i++ {
		sb.WriteString(navEnglish)
	}
	sb.WriteString("<div class=\"content\"><p>")
	sb.WriteString(pageText(by[tag], 1, 1200))
	sb.WriteString("</p></div>\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&sb, "<div class=\"ad\" id=\"slot%d\" data-x=\"%d\"><a href=\"/x/%d\"><img src=\"/i/%d.png\" alt=\"\"></a></div>\n", i, i, i, i)
	}
	sb.WriteString(footerEnglish + "</body></html>")
	b, err := encodeLegacy(sb.String(), cs)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func BenchmarkDetect(b *testing.B) {
	d, err := New(Options{Targets: []string{"th"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ tag, cs string }{
		{"th", "utf-8"}, {"th", "windows-874"}, {"en", "utf-8"}, {"ru", "windows-1251"},
		{"ja", "shift_jis"}, {"zh-Hans", "gbk"}, {"de", "windows-1252"},
		// Close pairs: the word models decide (pairs.go).
		{"id", "utf-8"}, {"uk", "windows-1251"}, {"da", "windows-1252"},
		// Bokmål: the variant stage (variant.go) reads it too.
		{"nb", "windows-1252"}, {"nn", "utf-8"},
		// Groups added in issue 14's third part (their runner-up may or
		// may not be in the group).
		{"cs", "windows-1250"}, {"pt", "windows-1252"}, {"hi", "utf-8"},
		// English with one high byte, "©": the ASCII text picks the
		// charsets to score (fewHigh).
		{"en", "windows-1252"},
	} {
		page := typicalPage(b, c.tag, c.cs)
		if c.tag == "en" && c.cs == "windows-1252" {
			page = bytes.Replace(page, []byte("<p>"), []byte("<p>\xa9 2007 "), 1)
		}
		b.Run(c.tag+"/"+c.cs, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			c0 := cpuTime(b)
			for b.Loop() {
				d.Detect(page, "")
			}
			// CPU time per call besides wall time: on a shared host the
			// wall time also counts the time other VMs held the core.
			// Meaningful with GOMAXPROCS=1 (the garbage collector's
			// work on other threads is counted too).
			if c0 >= 0 {
				b.ReportMetric(float64(cpuTime(b)-c0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnglishMinority is the block-by-block check of a page that
// came out English (englishMinority) alone, on the typical English pages
// of BenchmarkDetect (several paragraphs, so the check reads blocks until
// English holds half the text).
func BenchmarkEnglishMinority(b *testing.B) {
	d, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		page []byte
	}{{"en/utf-8", typicalPage(b, "en", "utf-8")}, {"en/windows-1252", typicalPage(b, "en", "windows-1252")}} {
		x := extract(c.page)
		best := d.scoreUTF8(x.raw, true)
		if iso(best.tag) != "en" {
			b.Fatalf("%s: scored %s, want en", c.name, best.tag)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuTime(b)
			for b.Loop() {
				d.englishMinority(x, best)
			}
			if c0 >= 0 {
				b.ReportMetric(float64(cpuTime(b)-c0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkVariantStage measures the variant stage's own cost
// (variant.go) on typical Norwegian pages: the same detector with and
// without the Bokmål/Nynorsk model, interleaved in one process.
func BenchmarkVariantStage(b *testing.B) {
	with, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	without, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	without.variants = nil
	for _, c := range []struct{ tag, cs string }{{"nb", "windows-1252"}, {"nn", "utf-8"}} {
		page := typicalPage(b, c.tag, c.cs)
		for _, v := range []struct {
			name string
			d    *Detector
		}{{"with", with}, {"without", without}} {
			b.Run(c.tag+"/"+c.cs+"/"+v.name, func(b *testing.B) {
				c0 := cpuTime(b)
				for b.Loop() {
					v.d.Detect(page, "")
				}
				if c0 >= 0 {
					b.ReportMetric(float64(cpuTime(b)-c0)/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}
