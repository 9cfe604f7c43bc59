package detect

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
)

// hostileSize is the crawl's parse limit (crawl.Config.MaxParse default).
const hostileSize = 8 << 20

// fill repeats unit up to n bytes, between head and tail.
func fill(head, unit, tail string, n int) []byte {
	var b bytes.Buffer
	b.Grow(n + len(head) + len(tail) + len(unit))
	b.WriteString(head)
	for b.Len()+len(unit)+len(tail) <= n {
		b.WriteString(unit)
	}
	b.WriteString(tail)
	return b.Bytes()
}

func hostilePages(tb testing.TB) []struct {
	name string
	ct   string
	body []byte
} {
	rng := rand.New(rand.NewPCG(1, 2))
	type page = struct {
		name string
		ct   string
		body []byte
	}
	var ps []page
	add := func(name, ct string, body []byte) { ps = append(ps, page{name, ct, body}) }

	add("typical/en-utf8", "", typicalPage(tb, "en", "utf-8"))
	add("typical/th-utf8", "", typicalPage(tb, "th", "utf-8"))
	add("typical/ru-1251", "", typicalPage(tb, "ru", "windows-1251"))

	add("run-of-a", "", fill("", "a", "", hostileSize))
	add("run-of-thai-ko", "", fill("<p>", "ก", "", hostileSize))
	add("run-of-space", "", fill("", " ", "", hostileSize))
	add("huge-word-mixed", "", fill("<p>", "abcdefghijklmnopqrstuvwxyz", "", hostileSize))
	add("tiny-inline-tags", "", fill("", "<b>", "", hostileSize))
	add("tiny-block-tags", "", fill("", "<p>", "", hostileSize))
	add("tiny-block-tags-a", "", fill("", "<p>a", "", hostileSize))
	{
		var b bytes.Buffer
		for i := 0; b.Len() < hostileSize-16; i++ {
			fmt.Fprintf(&b, "<p>%x", i)
		}
		add("tiny-unique-blocks", "", b.Bytes())
	}
	{
		var b bytes.Buffer
		for i := 0; b.Len() < hostileSize-32; i++ {
			fmt.Fprintf(&b, "<p>w%xq", i)
		}
		add("tiny-unique-word-blocks", "", b.Bytes())
	}
	{
		n := hostileSize / 11 / 2
		add("deep-nesting", "", []byte(strings.Repeat("<div><span>", n)+"<p>"+ruText+strings.Repeat("</span></div>", n)))
	}
	add("deep-furniture", "", fill("", `<nav class="menu">x`, "", hostileSize))
	add("huge-attr-class", "", []byte(`<div class="`+strings.Repeat("a", hostileSize)+`"><p>`+ruText))
	add("huge-attr-unclosed", "", fill(`<div class="`, "nav ", "", hostileSize))
	add("many-attrs", "", fill(`<div `, `id=x `, ">"+ruText, hostileSize))
	add("many-meta-charset", "", fill("", `<meta charset="utf-8">`, "<p>"+ruText, hostileSize))
	add("many-meta-unknown", "", fill("", `<meta http-equiv="Content-Type" content="text/html; charset=x-bogus">`, "<p>"+ruText, hostileSize))
	add("meta-huge-attrs", "", fill("<meta ", "a=b ", "charset=utf-8><p>"+ruText, hostileSize))
	add("ncr-only", "", fill("<p>", "&#3627;", "", hostileSize))
	add("ncr-mixed", "", fill("<p>", "&#3627;&#1076;&#x4e2d;a", "", hostileSize))
	add("named-refs", "", fill("<p>", "&eacute;&bogusbogus;", "", hostileSize))
	{
		b := make([]byte, hostileSize)
		for i := range b {
			b[i] = 0x80 + byte(rng.UintN(128))
		}
		add("invalid-utf8-high", "", b)
	}
	add("invalid-utf8-ff", "", fill("", "\xff", "", hostileSize))
	add("invalid-utf8-c3", "", fill("", "a\xc3", "", hostileSize))
	{
		u := utf16.Encode([]rune(strings.Repeat(thaiText, hostileSize/2/len([]rune(thaiText)))))
		b := make([]byte, 0, 2*len(u)+2)
		for _, c := range u {
			b = append(b, byte(c), byte(c>>8))
		}
		add("utf16le-nobom-thai", "", b)
		add("utf16le-bom-thai", "", append([]byte{0xFF, 0xFE}, b...))
		add("utf16le-declared-thai", "text/html; charset=utf-16le", b)
	}
	{
		// Alternating scripts every character: Latin, Cyrillic, Thai, Han, Greek, Arabic.
		add("mixed-scripts", "", fill("<p>", "aдกλ中ب", "", hostileSize))
	}
	{
		// Words of every close group at once.
		words := "ini adalah yang dengan untuk tidak boleh kerana ikke ikkje ein eg jeg það hvor kako što који ktorý který jsem som aby это що і ще це яка दिया है गया नहीं का आहे होते छ हो não também então cuando pero ho nosaltres está para pola xa é "
		add("close-groups-words", "", fill("<p>", words, "", hostileSize))
	}
	add("one-long-line", "", fill("", "text without any block ", "", hostileSize))
	{
		// A few garbage high bytes no profile fits, then a huge ASCII
		// tail: the chardet fallback.
		g := make([]byte, 400)
		for i := range g {
			g[i] = 0x80 + byte(rng.UintN(128))
			if i%7 == 0 {
				g[i] = ' '
			}
		}
		add("chardet-ascii-tail", "", fill("<p>"+string(g)+"</p><!--", "a", "-->", hostileSize))
		add("chardet-ascii-text", "", fill("<p>"+string(g)+"</p><p>", "abc ", "", hostileSize))
		add("chardet-garbage-all", "", fill("<p>", string(g), "", hostileSize))
	}
	{
		b := make([]byte, hostileSize)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		copy(b, "<html><body><p>")
		add("binary-random", "", b)
		// Text first, binary after the first 4 KiB (notText's prefix).
		t := fill("<p>", "Plain English text. ", "", 8192)
		add("binary-after-text", "", append(t, b[:hostileSize-len(t)]...))
	}
	add("comment-unclosed", "", fill("<p>"+ruText+"<!--", "x", "", hostileSize))
	add("script-unclosed-lt-slash", "", fill("<p>"+ruText+"<script>", "</x", "", hostileSize))
	add("lt-only", "", fill("", "<", "", hostileSize))
	add("lt-a-only", "", fill("", "<a", "", hostileSize))
	add("amp-only", "", fill("", "&", "", hostileSize))
	add("cookie-blocks", "", fill("", "<p>We use cookies %d", "", hostileSize))
	add("year-blocks", "", fill("", "<p>1999 ", "", hostileSize))
	add("huge-ct", strings.Repeat("text/html; charset=", 1<<16)+"utf-8", typicalPage(tb, "en", "utf-8"))
	return ps
}

// BenchmarkHostile measures Detect (and the Decode the crawl runs after it)
// on inputs up to the crawl's parse limit, beside typical pages.
func BenchmarkHostile(b *testing.B) {
	d, err := New(Options{Targets: []string{"th"}})
	if err != nil {
		b.Fatal(err)
	}
	only := ""
	for _, p := range hostilePages(b) {
		if only != "" && !strings.Contains(p.name, only) {
			continue
		}
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(p.body)))
			c0 := cpuTime(b)
			var r Result
			for b.Loop() {
				r = d.Detect(p.body, p.ct)
			}
			if c0 >= 0 {
				b.ReportMetric(float64(cpuTime(b)-c0)/float64(b.N), "cpu-ns/op")
			}
			b.Logf("%s: %d bytes: %+v", p.name, len(p.body), r)
		})
	}
}
