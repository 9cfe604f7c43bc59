package detect

import "testing"

// TestBlockWeight: a block weighs its characters, a non-ASCII one two and
// a Han, kana or Hangul one four, whatever its UTF-8 length; text that is
// not UTF-8 (a legacy charset) weighs a byte of 0x80 or more two.
func TestBlockWeight(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Home", 4},
		{"får", 4},          // two bytes for å: still one letter, weighing two
		{"سفید رنگ", 15},    // 7 Arabic letters and a space
		{"ข่าว", 8},         // 4 Thai characters of three bytes each
		{"हिन्दी", 12},      // 6 Devanagari code points
		{"東京", 8},           // Han: four each
		{"ニュース", 14},        // three katakana and the long-vowel mark, which is Common
		{"\xe4\xf6\xfc", 6}, // ISO-8859-1 äöü: not UTF-8, two a byte
	} {
		if got := blockWeight([]byte(tc.text)); got != tc.want {
			t.Errorf("blockWeight(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

// TestShortUrduHeadingDoesNotDecide: on a short Urdu product page in
// UTF-8 an 11-letter heading weighed as running text (a letter of two
// bytes counted four), so the page's main element was read on it alone,
// its price line and button dropped beside it: Persian at 0.482 (a trial's
// shop page: Persian at 0.396). A letter weighs two now, the heading is
// one short block among the others, and the page reads Urdu.
func TestShortUrduHeadingDoesNotDecide(t *testing.T) {
	const page = `<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>` +
		`<nav><a href="/">Home</a> <a href="/cart">Cart</a></nav>` +
		`<main><h1>کتاب، سفید جلد</h1><p>قیمت: 2800 روپے</p><p>ابھی خریدیں</p><button>Add to cart</button><p>Quantity: 1</p></main>` +
		`<footer><p>© 2026 All rights reserved. Privacy policy | Terms and conditions | Shipping and returns</p></footer></body></html>`
	d := newDetector(t, Options{Targets: []string{"ur"}})
	r := d.Detect([]byte(page), "")
	if r.Lang != "ur" || r.Confidence < 0.9 {
		t.Errorf("a short Urdu product page: got %s at %.3f, want ur at 0.9 or more", r.Lang, r.Confidence)
	}
}
