package detect

import (
	"strings"
	"testing"
)

// TestGroupPartnerDecides: a short Indonesian sentence in a shop template
// whose product grid is prices only scores Malay, then Javanese, then
// Indonesian: the word model of the Indonesian-Malay group decides between
// Malay and Indonesian all the same (scored.grpTag), and the page comes out
// Indonesian, or Malay with the rival named, never Malay without a doubt.
// Before the twenty-first session such pages came out Malay at 0.74 with
// no rival, and a crawl for Malay counted them as Malay pages (a trial: 10
// to 28 a web of 72 servers, each holding an Indonesian shop open). The
// sentences are written for this test.
func TestGroupPartnerDecides(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"ms"}})
	trigrams := newDetector(t, Options{Targets: []string{"ms"}, noWords: true})
	for _, text := range []string{
		// Each came out Malay without a rival before (0.630, 0.866,
		// 0.914), Indonesian after.
		"Toko kami tutup selama liburan.",
		"Barang akan dikirim besok pagi.",
		"Rapat warga diadakan di balai desa.",
	} {
		var grid strings.Builder
		for i := range 6 {
			grid.WriteString("<div class=\"product\"><span class=\"price\">Rp " + strings.Repeat("9", i+3) + ".000</span></div>")
		}
		body := []byte(`<html><head><meta charset="utf-8"><title>Shop</title></head><body>` +
			`<nav><a href="/">Home</a> <a href="/cart">Cart</a> <a href="/login">Login</a></nav>` +
			`<p class="desc">` + text + `</p>` + grid.String() + `</body></html>`)
		r := d.Detect(body, "")
		if r.Lang == "ms" && r.Rival == "" {
			t.Errorf("%q: ms at %.3f (%s) with no rival", text, r.Confidence, r.Evidence)
		}
		// The words chose between the best and a member further down,
		// so the confidence stays the trigrams' (a version that took the
		// words' own put Nynorsk and Tajik tiny pages at 0.99, wrong).
		if r0 := trigrams.Detect(body, ""); r.Confidence != r0.Confidence {
			t.Errorf("%q: confidence %.3f, the trigrams' alone %.3f", text, r.Confidence, r0.Confidence)
		}
		t.Logf("%q: %s at %.3f (%s), rival %q", text, r.Lang, r.Confidence, r.Evidence, r.Rival)
	}
}
