package detect

import "testing"

// TestRivalOfCloseGroup: in a crawl for Norwegian ("no", which the config
// expands to nb and nn), a Danish page that the Danish-Bokmål word model
// decided for Bokmål at a low z, and the Bokmål-Nynorsk variant model at a
// lower one, has the rival da, not nn: the rival is the close group's,
// so the crawl reads the page as the close call it is. A review found the
// rival of the weaker decision (nn, a target) kept, and such Danish pages
// counted as Norwegian. The texts are two pages of the catalogue
// evaluation set (file-type names in Danish).
func TestRivalOfCloseGroup(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"nb", "nn"}})
	for _, text := range []string{
		"Adobe PageMaker-dokument Adobe skrifttypefil Alzip-arkiv AmazonMP3-downloadfil Amiga SoundTracker-lyd",
		"Bandai WonderSwan-ROM BibTeX-dokument BitTorrent-frøfil Blenderscene Blu-ray-videodisk",
	} {
		body := []byte("<html><head><meta charset=\"utf-8\"></head><body><p>" + text + "</p></body></html>")
		x := extract(body)
		best := d.scoreUTF8(x.raw, true)
		tag, _, _, _, pairOK := d.secondStage(best)
		r := d.Detect(body, "")
		if !pairOK || tag != "nb" || best.secTag != "da" {
			t.Fatalf("%q: the Danish-Bokmål model did not decide for nb against da (%v %s %s)", text, pairOK, tag, best.secTag)
		}
		if r.Relevant && r.Confidence < 0.95 && (r.Rival == "nb" || r.Rival == "nn") {
			t.Errorf("%q (Danish): %s at %.3f (%s), rival %q: a target, so no close call for a crawl of nb and nn, though the word model decided it against Danish",
				text, r.Tag, r.Confidence, r.Evidence, r.Rival)
		}
	}
}
