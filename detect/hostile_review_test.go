package detect

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// allocated is the number of bytes the heap handed out during f (all
// goroutines, chardet's included). It does not depend on the machine's
// speed.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHostileAllocBound (from a detector hostile-input review): Detect scores 6 KiB of text (maxText) whatever
// the page, so what it allocates must not grow with the page beyond a
// bound; at the crawl's parse limit (crawl.Config.MaxParse, 8 MiB) it
// must allocate less than the page itself. Before the fix a page of
// 2 million "<p>a" blocks (8 MiB) allocated 733 MB per Detect call,
// 87 times its size, and took 0.8 s of CPU (2,600 times a typical page,
// BenchmarkHostile).
func TestHostileAllocBound(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"th"}})
	for _, p := range hostilePages(t) {
		if len(p.body) < hostileSize/2 {
			continue
		}
		var r Result
		n := allocated(func() { r = d.Detect(p.body, p.ct) })
		if n > uint64(len(p.body)) {
			t.Errorf("%s: Detect allocated %d MB for a page of %d MB (%s, %s)", p.name, n>>20, len(p.body)>>20, r.Lang, r.Evidence)
		}
	}
}

// TestDegenerateTextUnd (from a detector hostile-input review): a run of one character, or of two, is no
// language (issue 14: what is not text in any language is "und" with
// confidence 0). Before the fix 40 bytes of "a\xc3" came out Thai
// (windows-874 "aร") at confidence 1, relevant to a Thai crawl, and 50
// "a" Tagalog at confidence 1.
func TestDegenerateTextUnd(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"th"}})
	for name, body := range map[string]string{
		"a x 50":           strings.Repeat("a", 50),
		"a\\xc3 x 20":      strings.Repeat("a\xc3", 20),
		"\\xff x 1000":     strings.Repeat("\xff", 1000),
		"ko kai x 300":     "<p>" + strings.Repeat("ก", 300),
		"&#3627; x 300":    "<p>" + strings.Repeat("&#3627;", 300),
		"ab x 500":         strings.Repeat("ab ", 500),
		"alphabet x 1000":  "<p>" + strings.Repeat("abcdefghijklmnopqrstuvwxyz", 1000),
		"\\xe0\\xb8 x 500": strings.Repeat("\xe0\xb8", 500),
	} {
		r := d.Detect([]byte(body), "")
		if r.Lang != "und" || r.Confidence != 0 || r.Relevant {
			t.Errorf("%s: got %s (%s), confidence %.3f, relevant %v (%s); want und, 0", name, r.Lang, r.Charset, r.Confidence, r.Relevant, r.Evidence)
		}
	}
	// Short real text stays identified.
	for _, txt := range []string{"Hello all!", "Bom dia, o", "<p>" + thaiText} {
		if r := d.Detect([]byte("<p>"+txt), ""); r.Lang == "und" {
			t.Errorf("%q: und", txt)
		}
	}
}

// TestHexReferenceOverflow (from a detector hostile-input review): "&#xFFFFFFE9;" overflowed the rune (int32)
// to a negative number, which extract took for ASCII and wrote as the
// byte 0xE9 into the page's text (and invalid UTF-8 into ncr): an ASCII
// English page came out in the charset "macintosh".
func TestHexReferenceOverflow(t *testing.T) {
	x := extract([]byte("<p>&#xFFFFFFFF;&#x8000006B;&#xFFFFFFE9;</p>"))
	for _, c := range x.raw {
		if c >= 0x80 {
			t.Errorf("raw %q has a byte >= 0x80 from a reference", x.raw)
			break
		}
	}
	if !utf8.Valid(x.ncr) {
		t.Errorf("ncr %q is not UTF-8", x.ncr)
	}
	d := newDetector(t, Options{})
	page := "<p>Hello, this is an ordinary English page about the weather &#xFFFFFFE9; and the news of the day.</p>"
	if r := d.Detect([]byte(page), ""); r.Charset != "windows-1252" || r.Lang != "en" {
		t.Errorf("ASCII page with an overflowing reference: %s in %s (%s), want en in windows-1252", r.Lang, r.Charset, r.Evidence)
	}
}

// TestStrayISO2022JPEscape (from a detector hostile-input review): ESC $ B anywhere in the body made the whole
// page ISO-2022-JP, before the binary check: a UTF-8 Russian page with
// one such escape came out "und" in iso-2022-jp (and the crawl decoded
// it so, every Cyrillic letter and every link after the escape lost),
// and a random binary file of a few MB (one in two of 8 MB hold the
// three bytes by chance) was decoded whole as ISO-2022-JP instead of
// being "binary". ISO-2022-JP is a 7-bit encoding.
func TestStrayISO2022JPEscape(t *testing.T) {
	d := newDetector(t, Options{})
	if r := d.Detect([]byte("<p>"+ruText+"\x1b$B</p>"), ""); r.Lang != "ru" || r.Charset != "utf-8" {
		t.Errorf("UTF-8 Russian with a stray escape: %s in %s (%s), want ru in utf-8", r.Lang, r.Charset, r.Evidence)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	bin := make([]byte, 64<<10)
	for i := range bin {
		bin[i] = byte(rng.UintN(256))
	}
	copy(bin[1000:], "\x1b$B")
	if r := d.Detect(bin, ""); r.Evidence != "binary" || r.Lang != "und" {
		t.Errorf("binary with ESC $ B: %s in %s (%s), want und, binary", r.Lang, r.Charset, r.Evidence)
	}
	// A real ISO-2022-JP page still is.
	if r := d.Detect(enc(t, "<p>"+jaText, "iso-2022-jp"), ""); r.Charset != "iso-2022-jp" || r.Lang != "ja" {
		t.Errorf("ISO-2022-JP page: %s in %s (%s)", r.Lang, r.Charset, r.Evidence)
	}
}

// TestUTF16DeclarationOnASCIICompatiblePage (from a detector hostile-input review): a META cannot declare
// UTF-16 (WHATWG HTML: a META's UTF-16 is taken as UTF-8, the page
// having been read as ASCII to find it), and a header's UTF-16 on a body
// with no NUL byte in its first 4 KiB (UTF-16 markup has one in every
// two bytes) does not fit the text. Both made a UTF-8 Russian page
// "und" in utf-16le, and the crawl decoded it as UTF-16 for its links.
func TestUTF16DeclarationOnASCIICompatiblePage(t *testing.T) {
	d := newDetector(t, Options{})
	for name, c := range map[string]struct{ body, ct string }{
		"meta":    {`<meta charset="utf-16"><p>` + ruText, ""},
		"meta-be": {`<meta http-equiv="Content-Type" content="text/html; charset=UTF-16BE"><p>` + ruText, ""},
		"header":  {`<p>` + ruText, "text/html; charset=utf-16"},
	} {
		if r := d.Detect([]byte(c.body), c.ct); r.Lang != "ru" || r.Charset != "utf-8" {
			t.Errorf("%s: %s in %s (%s), want ru in utf-8", name, r.Lang, r.Charset, r.Evidence)
		}
	}
	// Real UTF-16 under a header, without a BOM, still is.
	u := utf16.Encode([]rune("<p>" + thaiText))
	b := make([]byte, 0, 2*len(u))
	for _, c := range u {
		b = append(b, byte(c), byte(c>>8))
	}
	if r := d.Detect(b, "text/html; charset=utf-16le"); r.Lang != "th" || r.Charset != "utf-16le" {
		t.Errorf("UTF-16LE under a header: %s in %s (%s)", r.Lang, r.Charset, r.Evidence)
	}
	_ = bytes.MinRead
}

// TestBinarySignatureUnd: a PDF (or another format a signature names)
// served as text/html is binary even when its first 4 KiB hold no control
// byte: it read as a language, Danish at 0.997 (left open by the detector
// review, done after it).
func TestBinarySignatureUnd(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"da"}})
	pdf := "%PDF-1.4\n1 0 obj << /Title (Aarsberetning for foreningen) >> endobj\n" +
		strings.Repeat("BT /F1 12 Tf 72 712 Td (Foreningen har i aaret arbejdet med mange sager og projekter for medlemmerne) Tj ET\n", 60)
	for name, body := range map[string]string{
		"pdf":  pdf,
		"gif":  "GIF89a" + strings.Repeat("Foreningen har arbejdet med mange sager ", 100),
		"html": "<html><body><p>" + strings.Repeat("Foreningen har i året arbejdet med mange sager og projekter for medlemmerne. ", 20),
	} {
		r := d.Detect([]byte(body), "text/html")
		if binary := r.Evidence == "binary"; binary != (name != "html") || (name != "html" && (r.Lang != "und" || r.Relevant)) {
			t.Errorf("%s: %+v", name, r)
		}
	}
}
