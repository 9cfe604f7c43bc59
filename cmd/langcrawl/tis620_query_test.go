package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPywbReplaysTIS620QueryLink (from a replay review) crawls a TIS-620 page linking to
// /search?q=ไทย, its query written in the page's charset. A browser
// encodes a link's query in the document's encoding (URL Standard, "URL
// parser" with the document's encoding; HTML's "encoding-parse a URL"), so
// the one reading the archived page in pywb follows
// http://thai.test/search?q=%E4%B7%C2, and the live server was asked the
// same. The crawl must have archived that URL: pywb must serve it.
func TestPywbReplaysTIS620QueryLink(t *testing.T) {
	bin := pywbBin(t)
	addr := startOddWeb(t)
	warcs := crawlOddWeb(t, addr, t.TempDir(), "", "http://thai.test/")
	caps := pywbCaptures(t, warcs)
	var archived []string
	for _, c := range caps {
		archived = append(archived, c.url)
	}
	pw := startPywb(t, bin, warcs)
	const want = "http://thai.test/search?q=%E4%B7%C2"
	res, body, err := pw.get("2id_", want, "identity")
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !bytes.Contains(body, []byte(`"q=%E4%B7%C2"`)) {
		t.Errorf("pywb answered %d for %s, the URL a browser follows from the archived TIS-620 page; want 200 with the server's page for q=%%E4%%B7%%C2. The crawl archived: %s",
			res.StatusCode, want, strings.Join(archived, " "))
	}
}
