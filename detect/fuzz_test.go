package detect

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func FuzzDetect(f *testing.F) {
	d := newDetector(f, Options{Targets: []string{"th"}, TargetCharsets: []string{"tis-620"}})
	f.Add([]byte(`<meta charset="tis-620"><p>`+thaiText+`</p>`), "text/html; charset=utf-8")
	f.Add(enc(f, thaiText, "windows-874"), "")
	f.Add(enc(f, jaText, "iso-2022-jp"), "")
	f.Add([]byte("<script>unterminated <!-- <p>&#99999999;&#x;&"), "text/html; charset=")
	f.Add([]byte{0xFF, 0xFE, 0x41}, "text/html; charset=\"utf-16")
	// Close pairs: the word models' second stage.
	f.Add([]byte(idHeldOut), "")
	f.Add(enc(f, ukText, "windows-1251"), "text/html; charset=koi8-u")
	f.Fuzz(func(t *testing.T, body []byte, ct string) {
		r := d.Detect(body, ct)
		if r.Lang == "" || r.Charset == "" || r.Evidence == "" {
			t.Fatalf("incomplete result %+v", r)
		}
		if r.Confidence < 0 || r.Confidence > 1 {
			t.Fatalf("confidence %v", r.Confidence)
		}
		out, err := Decode(body, r.Charset)
		if err != nil {
			t.Fatalf("Decode with detected charset %q: %v", r.Charset, err)
		}
		if !utf8.Valid(out) {
			t.Fatalf("Decode(%q) is not UTF-8", r.Charset)
		}
	})
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte(`<META HTTP-EQUIV=Content-Type CONTENT="text/html; charset=x"><p>a&amp;b</p>`))
	f.Add([]byte("<<<<a b='>' c=\"<\">&#x1F600;&#0;&#55296;"))
	f.Add([]byte("<scriptx></script ><style"))
	f.Fuzz(func(t *testing.T, body []byte) {
		x := extract(body)
		if len(x.raw) > len(body)+len(body)/2+maxText || !utf8.Valid(x.ncr) && utf8.Valid(body) {
			t.Fatalf("extract: raw %d bytes from %d, ncr valid %v", len(x.raw), len(body), utf8.Valid(x.ncr))
		}
		if bytes.Contains(body, []byte("<script")) && bytes.Contains(x.raw, []byte("<script")) {
			t.Fatalf("script tag left in text %q", x.raw)
		}
	})
}

// TestBoundedWork checks that work grows linearly with input size, by
// counting trigrams and bytes examined rather than timing: the extracted
// text and the scored trigrams are bounded whatever the input.
func TestBoundedWork(t *testing.T) {
	d := newDetector(t, Options{})
	for _, body := range [][]byte{
		bytes.Repeat([]byte("<p>"+thaiText), 2000),
		bytes.Repeat([]byte{0xA1}, 1<<20),
		bytes.Repeat([]byte("<a "), 1<<18),
		bytes.Repeat([]byte("&#3627;"), 1<<17),
	} {
		x := extract(body)
		if len(x.raw) > maxText+1 || len(x.ncr) > maxText+1 {
			t.Errorf("extracted %d bytes from %d", len(x.raw), len(body))
		}
		norm := normalize(nil, x.raw)
		scores := make([]float32, len(d.tables["utf-8"].profs))
		if n := d.tables["utf-8"].score(norm, scores, maxTrigrams, false); n > maxTrigrams {
			t.Errorf("scored %d trigrams, cap %d", n, maxTrigrams)
		}
		_ = d.Detect(body, "")
	}
}
