package detect

import (
	"strings"
	"testing"
)

func TestFurniture(t *testing.T) {
	for _, c := range []struct {
		tag  string
		want bool
	}{
		{`<footer>`, true},
		{`<nav class="x">`, true},
		{`<div class="site-footer">`, true},
		{`<DIV ID='Copyright'>`, true},
		{`<ul class = "main-menu dropdown">`, true},
		{`<td class=sidebar>`, true},
		{`<div class="content">`, false},
		{`<div data-href="/menu">`, false}, // only class and id count
		{`<p>`, false},
		{`<div valid="footer">`, false}, // "id" inside another name
	} {
		var buf [16]byte
		_, name, _ := scanTag([]byte(c.tag), 0, &buf)
		if got := furniture(name, []byte(c.tag)); got != c.want {
			t.Errorf("furniture(%s) = %v, want %v", c.tag, got, c.want)
		}
	}
}

// Pages with one sentence of their own language and a footer in English
// that is longer than the sentence: the footer's text is furniture.
func TestDetectFooterDoesNotVote(t *testing.T) {
	d := newDetector(t, Options{})
	const notice = "Copyright 2024 Example Media Group. All rights reserved. Reproduction in whole or in part without written permission is prohibited."
	footers := map[string]string{
		"footer":   "<footer><p>" + notice + "</p></footer>",
		"id":       `<div id="copyright"><div><p>` + notice + `</p></div></div>`,
		"class":    `<div class="site-footer"><div class="row"><div class="col">` + notice + `</div></div></div>`,
		"sidebar":  `<aside><p>` + notice + `</p></aside>`,
		"unclosed": `<div class="footer"><p>` + notice,
	}
	for _, c := range []struct{ lang, text string }{
		{"pt", "Bem-vindo à nossa loja, boas compras!"},
		{"id", "Selamat datang di toko kami, selamat berbelanja!"},
		{"pl", "Witamy w naszym sklepie, udanych zakupów!"},
		{"tr", "Mağazamıza hoş geldiniz, iyi alışverişler!"},
	} {
		for name, f := range footers {
			page := "<html><body><div class=\"content\"><p>" + c.text + "</p></div>" + f + "</body></html>"
			if r := d.Detect([]byte(page), ""); r.Lang != c.lang {
				t.Errorf("%s with %s: got %s (%s), want %s", c.text, name, r.Lang, r.Evidence, c.lang)
			}
		}
	}
	// A page of nothing but furniture keeps it.
	if r := d.Detect([]byte("<footer><p>"+notice+"</p></footer>"), ""); r.Lang != "en" {
		t.Errorf("footer alone: got %s, want en", r.Lang)
	}
	if x := extract([]byte(`<p>Bem-vindo à nossa loja, boas compras!</p><footer>` + notice + `</footer>`)); strings.Contains(string(x.raw), "Copyright") {
		t.Errorf("footer text extracted: %q", x.raw)
	}
}

func TestMetaLine(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Last updated on January 5, 2020 by the documentation team", true},
		{"Posted on 5 March 2021 by Maria Lopez", true},
		{"Last reviewed: 2023-06-12", true},
		{"© Example Ltd. All rights reserved.", true},
		{"Copyright 1998-2021 Example Web Services.", true},
		{"Aktualisiert am 5. Januar 2020", true}, // any language
		{"By Jane Smith and Tom Brown, Staff Reporters", false},
		{"Call 12345 or 202011 for details", false}, // no year standing alone
		{"Tel. 3020 5555", false},
		{strings.Repeat("Long running text about the year 2020. ", 5), false}, // too long for a metadata line
	} {
		if got := metaLine([]byte(c.text), []byte(c.text)); got != c.want {
			t.Errorf("metaLine(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// A list of short items (each under longBlock) beside one long English
// line: the items are one unit of text and the line, a date line, is
// furniture.
func TestExtractListBesideDateLine(t *testing.T) {
	page := `<html><body><ul><li>Überprüfung läuft</li><li>Bitte Passwort eingeben</li><li>Der Bildschirmschoner ist aktiv</li><li>Die Feststelltaste ist aktiviert.</li></ul>
<p>Last updated on January 5, 2020 by the documentation team</p></body></html>`
	x := string(extract([]byte(page)).raw)
	if strings.Contains(x, "Last updated") || !strings.Contains(x, "Bildschirmschoner") {
		t.Errorf("extracted %q: want the list and not the date line", x)
	}
}

// A list of Indonesian items beside English lines that are neither
// furniture nor dated (a licence line, a cookie notice, a feedback
// prompt): English is the best language of less than half the text, so
// the rest decides.
func TestDetectEnglishMinority(t *testing.T) {
	d := newDetector(t, Options{})
	page := `<html><body><p>This website uses cookies to ensure you get the best experience on our website.</p>
<p>Sedang memeriksa, masukkan kata sandi anda, pengaman layar telah aktif selama beberapa detik, pengaman layar tidak aktif, tombol Caps Lock menyala, izin membaca oleh orang lain, gagal karena alasan yang tidak diketahui</p>
<p>Text is available under the Creative Commons Attribution-ShareAlike License.</p></body></html>`
	if r := d.Detect([]byte(page), ""); r.Lang != "id" {
		t.Errorf("got %s (%s), want id", r.Lang, r.Evidence)
	}
	// An English page with a line of another language stays English.
	page = `<html><body><p>The committee met on Tuesday to discuss the new budget for the library and agreed to extend its opening hours.</p>
<p>Members asked for more computers in the reading room and for a quieter space for students during examinations.</p>
<p>Sedang memeriksa, masukkan kata sandi anda.</p></body></html>`
	if r := d.Detect([]byte(page), ""); r.Lang != "en" {
		t.Errorf("got %s (%s), want en", r.Lang, r.Evidence)
	}
}
