package detect

import "testing"

// TestPartnerVariantStage: a Nynorsk sentence of the trial set
// (short/nn-048) scores Danish, then Swedish; the group partner (nb) takes
// the Danish-Bokmål word model, which moves the page to Bokmål, and the
// variant stage then reads it as Nynorsk. A review of c5b8c95 found the
// variant stage never running there (scoreTablePrior set vTag only for the
// best or the second language), so a crawl for nn lost the page.
func TestPartnerVariantStage(t *testing.T) {
	d := newDetector(t, Options{Targets: []string{"nn"}})
	body := []byte(`<html><head><meta charset="utf-8"></head><body><p>Ingen støtta TLS signaturalgoritmar vart konfigurerte.</p></body></html>`)
	r := d.Detect(body, "")
	best := d.scoreUTF8(extract(body).raw, true)
	if best.tag != "da" || best.grpTag != "nb" {
		t.Fatalf("setup: best %s, second %s, partner %s", best.tag, best.secTag, best.grpTag)
	}
	tb := d.tables["utf-8"]
	scores := make([]float32, len(tb.profs))
	tb.score(best.norm, scores, maxTrigrams, true)
	best.vTag, best.vScore, best.baseScore = "nn", float64(scores[tb.index["nn"]]), float64(scores[tb.index["nb"]])
	vtag, _, _, _, ok := d.variantStage(best, "nb")
	t.Logf("Detect: %s at %.3f (%s), rival %q; variant stage with vTag set: %s (%v)", r.Tag, r.Confidence, r.Evidence, r.Rival, vtag, ok)
	if r.Tag == "nb" && ok && vtag == "nn" {
		t.Errorf("the group partner moved a Nynorsk page to nb and the variant stage, which reads it as nn, never ran")
	}
}
