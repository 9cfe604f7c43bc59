package detect

import "testing"

func TestIsName(t *testing.T) {
	for _, c := range []struct {
		tok  string
		want bool
	}{
		{"BitTorrent", true}, {"AutoCAD", true}, {"KPovModeler", true}, {"PDF", true}, {"ROM", true},
		{"Republik", false}, {"dokument", false}, {"Kongo", false}, {"I", false}, {"a", false},
		// Lower-case prefixes before a capital are words: Irish eclipsis,
		// Zulu and Xhosa noun classes.
		{"mBaile", false}, {"yaseNingizimu", false}, {"iPhone", false},
		// Tokens with non-ASCII bytes are left alone.
		{"ÅLAND", false}, {"SÃO", false},
	} {
		if got := isName([]byte(c.tok)); got != c.want {
			t.Errorf("isName(%q) = %v, want %v", c.tok, got, c.want)
		}
	}
}

func TestNormalizeText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Soubor BitTorrent a obraz DVD", " soubor a obraz "},
		{"Hämta PowerPoint-filerna", " hämta filerna "},
		// Too little left without the names: the whole text.
		{"Ladda ner AutoCAD", " ladda ner autocad "},
		{"", " "},
	} {
		if got := string(normalizeText(nil, []byte(c.in))); got != c.want {
			t.Errorf("normalizeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Download pages: a few words of the page's language among product and
// format names. With the names scored, every one of these came out
// English.
func TestDetectNamesDoNotVote(t *testing.T) {
	d := newDetector(t, Options{})
	const names = "AutoCAD, BitTorrent, PowerPoint, OneDrive, YouTube, WordPress, JavaScript"
	for _, c := range []struct{ lang, text string }{
		{"nb", "Last ned filene her: "},
		{"it", "Scarica qui i file: "},
		{"fi", "Lataa tiedostot: "},
		{"pl", "Pobierz pliki: "},
		{"de", "Dateien laden: "},
		{"tr", "Dosyaları indir: "},
	} {
		page := "<html><body><h1>" + c.text + "</h1><p>" + c.text + names + "</p></body></html>"
		if r := d.Detect([]byte(page), ""); r.Lang != c.lang {
			t.Errorf("%s: got %s (%s), want %s", c.text, r.Lang, r.Evidence, c.lang)
		}
	}
}
