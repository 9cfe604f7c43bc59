package detect

import "testing"

// TestDeclaredCharsetScoredFirst: a page in a legacy charset with few
// high bytes, which declares its charset, is read with that charset's
// profiles among the others. A trial's German paragraph declared
// windows-1252 had its four umlauts ranked below ISO-8859-4,
// windows-1257 and ISO-8859-15, whose tables hold no German profile,
// and was read as French at 0.999; without the declaration the ranking
// by its ASCII words scored windows-1252, and it read German at 1.
func TestDeclaredCharsetScoredFirst(t *testing.T) {
	d := evalDetector(t)
	text := "Die Nachbarn klagen über Lärm bis spät in die Nacht. " +
		"Der Bus hatte wegen einer Baustelle fast eine Stunde Verspätung."
	body, err := encodeLegacy(text, "windows-1252")
	if err != nil {
		t.Fatal(err)
	}
	for _, head := range []string{`<meta charset="windows-1252">`, `<meta charset="iso-8859-1">`, ""} {
		page := append([]byte("<html><head>"+head+"</head><body><p>"), body...)
		page = append(page, "</p></body></html>"...)
		if r := d.Detect(page, "text/html"); r.Lang != "de" || r.Charset != "windows-1252" {
			t.Errorf("declared %q: read as %s in %s at %.3f (%s), want de in windows-1252", head, r.Lang, r.Charset, r.Confidence, r.Evidence)
		}
	}
}
