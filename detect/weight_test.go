package detect

import "testing"

// TestBlockWeight: a block weighs its bytes with each byte of 0x80 or more
// counted twice, but a UTF-8 character of two bytes weighs two, as a
// legacy single-byte letter does; text that is not UTF-8 keeps the byte
// rule.
func TestBlockWeight(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Home", 4},
		{"får", 4},               // two bytes for å: one letter, weighing two
		{"سفید رنگ", 15},         // 7 Arabic letters and a space
		{"Новости", 14},          // Cyrillic
		{"ข่าว", 24},             // 4 Thai characters of three bytes: six each
		{"東京", 12},               // Han: six each
		{"\xe4\xf6\xfc", 6},      // ISO-8859-1 äöü: not UTF-8, two a byte
		{"\xc3\xa9t\xe9", 4 + 3}, // é then a stray Latin-1 é: not UTF-8, the byte rule
	} {
		if got := blockWeight([]byte(tc.text)); got != tc.want {
			t.Errorf("blockWeight(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

// TestShortUrduHeadingDoesNotDecide: on a short Urdu product page in
// UTF-8 a heading of 11 letters and a comma weighed as running text (a
// letter of two bytes counted four), so the page's main element was read on it alone,
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

// TestNonLatinLetters counts letters outside Latin in UTF-8 text and in
// decoded references, and none in a legacy charset's bytes.
func TestNonLatinLetters(t *testing.T) {
	for _, tc := range []struct {
		raw, ncr string
		want     int
	}{
		{"Home page", "", 0},
		{"Café crème", "", 0},
		{"Новости", "", 7},
		{"© 2026 €", "", 0},
		{"", "ข่าว", 3},         // decoded references: three letters and a tone mark
		{"\xcd\xee\xe2", "", 0}, // windows-1251 bytes: not read
	} {
		if got := nonLatinLetters([]byte(tc.raw), []byte(tc.ncr)); got != tc.want {
			t.Errorf("nonLatinLetters(%q, %q) = %d, want %d", tc.raw, tc.ncr, got, tc.want)
		}
	}
}

// TestShortScriptLineBesideOwnScript: beside running text in a script
// other than Latin, short blocks are dropped as before, whatever their
// script: a Russian sentence with two short Ukrainian lines under it
// reads Russian; kept, the Ukrainian letters of the lines would decide
// the page (ownLetterMember).
func TestShortScriptLineBesideOwnScript(t *testing.T) {
	const page = `<html><head><meta charset="utf-8"></head><body>` +
		`<p>Сегодня в нашем городе прошёл большой праздник.</p>` +
		`<p>Її їжак їсть</p><p>Єва і Київ</p></body></html>`
	d := newDetector(t, Options{})
	if r := d.Detect([]byte(page), ""); r.Lang != "ru" {
		t.Errorf("a Russian sentence with short Ukrainian lines: got %s at %.3f, want ru", r.Lang, r.Confidence)
	}
}

// besideEnglishSentence is a page of line and one English sentence.
func besideEnglishSentence(line string) []byte {
	return page(`<meta charset="utf-8">`, []byte(line+`</p><p>This website uses the latest technology for the best experience.`))
}

// TestShortLineBesideEnglishSentence (from a review): a short line in a
// script other than Latin beside one English sentence is kept and decides.
// A first version of blockWeight, weighing every character two or four,
// dropped Chinese and Hindi lines (three-byte characters keep weighing
// six); weighing a two-byte character two dropped Urdu and Greek lines of
// 12 to 23 letters, which the script keeps now (minScriptLine). Each
// page read English at 1.
func TestShortLineBesideEnglishSentence(t *testing.T) {
	d := newDetector(t, Options{})
	for _, c := range []struct{ want, line string }{
		{"zh", "欢迎光临我们的网上商店"},
		{"hi", "नए उत्पादों पर विशेष छूट"},
		{"ur", "سفید رنگ کا سوتی کرتا"},
		{"el", "Νέα της πόλης μας σήμερα"},
	} {
		if r := d.Detect(besideEnglishSentence(c.line), ""); r.Lang != c.want {
			t.Errorf("%s line %q beside an English sentence: got %s at %.3f, want %s", c.want, c.line, r.Lang, r.Confidence, c.want)
		}
	}
}
