package detect

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestNynorskAndBokmal: the held-out articles of the Nynorsk and Bokmål
// UDHR (no profile or word model was trained on them, heldOut) with 200
// characters or more, each on its own page, come out as their own
// standard (variant.go). A crawl for nb alone does not keep a Nynorsk
// page; one for both standards, or for "no" (Options.Targets takes ISO
// 639-1 codes, so the crawl maps "no" to nb and nn), keeps both.
func TestNynorskAndBokmal(t *testing.T) {
	dir := corporaDir()
	nbOnly, err := New(Options{Targets: []string{"nb"}})
	if err != nil {
		t.Fatal(err)
	}
	both, err := New(Options{Targets: []string{"nb", "nn"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, lang string }{{"nno.html", "nn"}, {"nob.html", "nb"}} {
		ps, err := udhrParagraphs(filepath.Join(dir, UDHRDir, c.file))
		if err != nil {
			t.Fatalf("the UDHR (run detect/corpora/fetch.sh): %v", err)
		}
		articles := map[int][]string{}
		for _, p := range ps {
			if heldOut(p.article) {
				articles[p.article] = append(articles[p.article], p.text)
			}
		}
		n := 0
		for a, texts := range articles {
			text := strings.Join(texts, " ")
			if len([]rune(text)) < 200 {
				continue
			}
			n++
			page := []byte("<html><head><meta charset=\"utf-8\"></head><body><p>" + text + "</p></body></html>")
			r := nbOnly.Detect(page, "")
			if r.Lang != c.lang || r.Relevant != (c.lang == "nb") {
				t.Errorf("%s article %d, target nb: %s (confidence %.3f, relevant %v), want %s", c.file, a, r.Lang, r.Confidence, r.Relevant, c.lang)
			}
			if r := both.Detect(page, ""); r.Lang != c.lang || !r.Relevant {
				t.Errorf("%s article %d, targets nb and nn: %s (relevant %v), want %s and relevant", c.file, a, r.Lang, r.Relevant, c.lang)
			}
		}
		t.Logf("%s: %d held-out articles of 200 characters or more", c.file, n)
		if n < 3 {
			t.Errorf("%s: only %d held-out articles of 200 characters or more", c.file, n)
		}
	}
}

// TestNynorskSentences: sentences written for this test in each standard
// (not from any corpus), the kind of paragraph a Norwegian site carries.
func TestNynorskSentences(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, text string }{
		{"nn", "Kommunen har opna eit nytt bibliotek i sentrum. Det er ope kvar dag frå klokka ti, og du kan låne bøker, spel og filmar utan å betale noko. Vi ønskjer alle velkomne, både store og små."},
		{"nb", "Kommunen har åpnet et nytt bibliotek i sentrum. Det er åpent hver dag fra klokka ti, og du kan låne bøker, spill og filmer uten å betale noe. Vi ønsker alle velkommen, både store og små."},
		{"nn", "Eg veit ikkje kva som skjedde, men dei fortalde at bussen ikkje kom før seint på kvelden. Difor måtte mange vente ute i kulda i over ein time."},
		{"nb", "Jeg vet ikke hva som skjedde, men de fortalte at bussen ikke kom før sent på kvelden. Derfor måtte mange vente ute i kulden i over en time."},
	} {
		page := []byte("<html><head><meta charset=\"utf-8\"></head><body><p>" + c.text + "</p></body></html>")
		r := d.Detect(page, "")
		if r.Lang != c.lang {
			t.Errorf("%q: %s (confidence %.3f, %s), want %s", c.text[:40], r.Lang, r.Confidence, r.Evidence, c.lang)
		}
		// The rival is the other of the word decision the confidence is
		// from: the other standard, or Danish when the Danish-Bokmål
		// decision was the weaker (a crawl for nb and nn reads only the
		// second as a close call).
		if other := map[string]string{"nn": "nb", "nb": "nn"}[c.lang]; r.Rival != other && r.Rival != "da" {
			t.Errorf("%q: rival %q, want %q or da (%s)", c.text[:40], r.Rival, other, r.Evidence)
		}
	}
}

// TestVariantNote: a target set with one Norwegian standard gets a line
// saying the other is not kept; both, or none, get nothing.
func TestVariantNote(t *testing.T) {
	for _, c := range []struct {
		targets []string
		want    string // a word the note must hold, "" for no note
	}{
		{[]string{"nb"}, "nn"},
		{[]string{"th", "nn"}, "nb"},
		{[]string{"nb", "nn"}, ""},
		{[]string{"th"}, ""},
		{nil, ""},
	} {
		got := VariantNote(c.targets)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("VariantNote(%v) = %q, want one naming %q", c.targets, got, c.want)
		}
	}
}

// TestSerbianLatinReadAsCroatian pins a limit README states: Serbian has
// a Cyrillic profile only, so Serbian written in Latin script comes out
// Croatian (an independent trial: all 260 of its pages). A Latin profile
// was built and not kept (docs/detect.md, "Serbian in Latin script"); if
// one is added, this test fails, and README's sentence must change with
// it. The same text in Cyrillic is Serbian.
func TestSerbianLatinReadAsCroatian(t *testing.T) {
	d, err := New(Options{Targets: []string{"sr"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, text string }{
		{"hr", "Gradska biblioteka je otvorila novo odeljenje za decu. Radi svakog dana od deset časova, a knjige, igre i filmove možete pozajmiti besplatno. Svi su dobrodošli, i mali i veliki."},
		{"sr", "Градска библиотека је отворила ново одељење за децу. Ради сваког дана од десет часова, а књиге, игре и филмове можете позајмити бесплатно. Сви су добродошли, и мали и велики."},
	} {
		page := []byte("<html><head><meta charset=\"utf-8\"></head><body><p>" + c.text + "</p></body></html>")
		if r := d.Detect(page, ""); r.Lang != c.lang || r.Relevant != (c.lang == "sr") {
			t.Errorf("%q: got %s (relevant %v, %s), want %s", c.text[:30], r.Lang, r.Relevant, r.Evidence, c.lang)
		}
	}
}

// TestBosnianReadAsCroatian pins what README says: Bosnian has no profile,
// and a Bosnian page comes out Croatian with a high confidence, so a crawl
// for hr keeps Bosnian servers (a trial read all 88 of its Bosnian pages as
// hr, the lowest confidence 0.967). The text is written for the test, with
// the words Bosnian writes otherwise than Croatian (historija, hiljada,
// sedmica, kahva, lahko).
func TestBosnianReadAsCroatian(t *testing.T) {
	d, err := New(Options{Targets: []string{"hr"}})
	if err != nil {
		t.Fatal(err)
	}
	// Asked for bs, the detector says where Bosnian pages go (a re-run of
	// the trial found only "no profile").
	if _, err := New(Options{Targets: []string{"bs"}}); !errors.Is(err, ErrNoProfile) || !strings.Contains(err.Error(), "come out Croatian (hr)") {
		t.Errorf("target bs: %v, want no profile, saying its pages come out Croatian", err)
	}
	for _, text := range []string{
		"Muzej historije u Sarajevu ove sedmice otvara izložbu o hiljadu godina trgovine u gradu. Posjetioci mogu vidjeti stare karte, novčiće i pisma, a u bašti muzeja služi se kahva. Ulaz je besplatan za djecu i studente.",
		"Općina je lahko riješila problem sa vodom: radnici su za dvije sedmice zamijenili stare cijevi u cijeloj mahali, a stanovnici su dobili obavještenje na vrijeme. Sljedeće sedmice počinju radovi u susjednoj ulici.",
	} {
		page := []byte("<html><head><meta charset=\"utf-8\"></head><body><p>" + text + "</p></body></html>")
		r := d.Detect(page, "")
		if r.Lang != "hr" || !r.Relevant || r.Confidence < 0.9 {
			t.Errorf("%q: got %s at %.3f (relevant %v), want hr at 0.9 or more, as README says", text[:30], r.Lang, r.Confidence, r.Relevant)
		}
	}
}
