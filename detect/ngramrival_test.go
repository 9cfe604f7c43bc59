package detect

import "testing"

// TestTrigramRival: a short line of one close neighbour read as the
// other where the group's word model had no say has the trigrams' second
// as its rival, with or without a variant stage after (Danish lines read
// as Bokmål in a crawl for Norwegian, a Norwegian word read as Danish in a
// crawl for Danish). A review found such lines with no rival at all: plain
// target pages for the crawl, their servers never judged irrelevant.
func TestTrigramRival(t *testing.T) {
	for _, c := range []struct {
		targets []string
		body    string // the text's true language in the comment
		rival   string
	}{
		{[]string{"nb", "nn"}, "<p>Tilmeld nyhedsbrev</p>", "da"},      // Danish: "subscribe to the newsletter"
		{[]string{"nb", "nn"}, "<p>Strafferetslig anklage.</p>", "da"}, // Danish (UDHR art. 10; nb: straffesiktelse)
		{[]string{"da"}, "<p>Handlekurv</p>", "nb"},                    // Norwegian "shopping cart" (da: indkøbskurv)
	} {
		d := newDetector(t, Options{Targets: c.targets})
		body := []byte(`<html><head><meta charset="utf-8"></head><body>` + c.body + `</body></html>`)
		best := d.scoreUTF8(extract(body).raw, true)
		r := d.Detect(body, "")
		if best.secTag != c.rival {
			t.Fatalf("setup: %q: best %s, second %s", c.body, best.tag, best.secTag)
		}
		if r.Relevant && r.Confidence < 0.95 && r.Rival == "" {
			t.Errorf("targets %v: %q: %s at %.3f (%s), the trigrams' second %s, no rival: a plain target page for the crawl, not a close call against %s",
				c.targets, c.body, r.Tag, r.Confidence, r.Evidence, best.secTag, c.rival)
		}
	}
}
