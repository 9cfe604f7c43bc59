package detect

import "testing"

// TestRivalConfidence: in a crawl for Norwegian (nb and nn), a Bokmål page
// whose Danish-Bokmål word model ruled Danish out (its own calibrated
// confidence 0.99 or more) and whose Bokmål-Nynorsk variant stage decided
// at a low z comes out nb at the variant stage's confidence, with the
// rival da at the Danish decision's own confidence (RivalConfidence), so
// the crawl does not read it as a close call against Danish. A review of
// c5b8c95, which gave such pages the rival da beside the variant stage's
// confidence, found 58 in-domain Norwegian pages of 222 close calls in
// such a crawl (5 before; catalogue 9 -> 59, trial 16 -> 74, lists
// 34 -> 103).
func TestRivalConfidence(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"nb", "nn"}})
	by, tags := loadHeldOut(t)
	bad, n := 0, 0
	for _, p := range evalSet(t, by, tags) {
		if p.tag != "nb" || p.charset != "utf-8" {
			continue
		}
		n++
		r := d.Detect(p.body, p.contentType)
		if !(r.Relevant && r.Rival == "da" && r.RivalConfidence < 0.95) {
			continue
		}
		best := d.scoreUTF8(extract(p.body).raw, true)
		tag, rival, wz, hits, ok := d.secondStage(best)
		if !ok || tag != "nb" || rival != "da" {
			continue
		}
		if wc := d.cal.prob(stageWords, wz, hits); wc >= 0.99 {
			bad++
			if bad <= 3 {
				t.Errorf("%s: nb at %.3f, rival da at %.3f: a close call against Danish in a crawl for nb and nn, though the Danish-Bokmål words ruled Danish out at %.3f", p.name, r.Confidence, r.RivalConfidence, wc)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d Bokmål UTF-8 pages so", bad, n)
	}
}

// TestRivalNorwegianCrawl: in a crawl for Norwegian (nb and nn), a Danish
// line read as Bokmål where the Danish-Bokmål word model had no say names
// Danish as its rival, at the trigrams' doubt between the two; a Nynorsk
// line names Bokmål, not Danish. An independent trial found the first with
// the rival nn alone (its Danish server crawled in full) and Nynorsk lines
// with the rival da under 0.95 (a Nynorsk shop cut at T+1). The lines are
// the trial's.
func TestRivalNorwegianCrawl(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"nb", "nn"}})
	for _, c := range []struct {
		body, wantRival string
		close           bool // a close call for the crawl: the rival under 0.95
	}{
		{"<nav>Forside | Om os | Kontakt os | Nyheder</nav><p>Biblioteket er lukket i påsken.</p>", "da", true},
		{"<nav>Home | Shop | Cart</nav><p>Ikkje gløym å ta med deg matpakke og drikkeflaske når vi går på tur i fjellet på laurdag.</p>", "nb", false},
	} {
		r := d.Detect([]byte(`<html><head><meta charset="utf-8"></head><body>`+c.body+`</body></html>`), "")
		if r.Rival != c.wantRival || (r.RivalConfidence < 0.95) != c.close {
			t.Errorf("%q: %s at %.3f (%s), rival %q at %.3f; want the rival %s, a close call %v",
				c.body, r.Tag, r.Confidence, r.Evidence, r.Rival, r.RivalConfidence, c.wantRival, c.close)
		}
	}
}
