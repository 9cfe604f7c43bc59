package detect

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNonText: input that is not text in any language answers "und"
// with confidence 0, never a language (issue 14: a binary file came out
// as Ukrainian with confidence 0.897).
func TestNonText(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"uk"}})
	rng := rand.New(rand.NewPCG(14, 14))
	random := make([]byte, 8192)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"), random[:2000]...)
	gz := append([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"), random[:3000]...)
	for name, body := range map[string][]byte{
		"empty":        nil,
		"spaces":       []byte(" \n\t "),
		"random":       random,
		"png":          png,
		"gzip":         gz,
		"elf":          append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"), random[:1000]...),
		"scripts only": []byte("<html><head><script>var a = 'Привет, как дела? Это текст в скрипте.';</script><style>body{}</style></head><body><script>document.write(a)</script></body></html>"),
		"markup only":  []byte("<html><head></head><body><div><span></span><img src=a.png></div></body></html>"),
		"digits":       []byte(strings.Repeat("0123456789 ", 100)),
	} {
		r := d.Detect(body, "")
		if r.Lang != "und" || r.Confidence != 0 || r.Relevant {
			t.Errorf("%s: got %s, confidence %.3f, relevant %v (%s); want und, 0", name, r.Lang, r.Confidence, r.Relevant, r.Evidence)
		}
	}
}

// TestShortTextConfidence: ten characters do not make a sure answer
// (issue 14: the confidence was 1.0 on almost every page, even on ten
// characters); a paragraph does.
func TestShortTextConfidence(t *testing.T) {
	d := newDetector(t, Options{})
	for _, txt := range []string{"Hello all!", "Bom dia, o", "Selamat pa", "Dobar dan!"} {
		if r := d.Detect([]byte("<p>"+txt+"</p>"), ""); r.Confidence >= 0.95 {
			t.Errorf("%q: %s with confidence %.3f, want below 0.95", txt, r.Lang, r.Confidence)
		}
	}
	if r := d.Detect([]byte("<p>"+ruText+"</p>"), ""); r.Lang != "ru" || r.Confidence < 0.99 {
		t.Errorf("a Russian paragraph: %s with confidence %.3f, want ru, at least 0.99", r.Lang, r.Confidence)
	}
}
