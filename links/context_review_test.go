package links

import (
	"strings"
	"testing"
	"unicode"
)

// contextsByPath returns each Nav link's context, by the URL's path.
func contextsByPath(t *testing.T, doc string) map[string]string {
	t.Helper()
	p := Extract(mustURL(t, "http://example.com/"), []byte(doc), Options{})
	m := map[string]string{}
	for _, l := range p.Links {
		if l.Kind == Nav {
			m[strings.TrimPrefix(l.URL, "http://example.com/")] = l.Context
		}
	}
	return m
}

// TestDescriptionWithMarkupNotNextLinks (from a review): a description
// split by inline markup into several text tokens is the first link's,
// every token of it, not the next link's text before.
func TestDescriptionWithMarkupNotNextLinks(t *testing.T) {
	m := contextsByPath(t, `<p><a href="a">a.dk</a> – en <b>dansk</b> side om skolen og hvad der sker, `+
		`<a href="b">b.com</a> – bags</p>`)
	if strings.Contains(m["b"], "skolen") {
		t.Errorf("b's context %q holds a's description (a's: %q)", m["b"], m["a"])
	}
	if !strings.Contains(m["a"], "skolen") {
		t.Errorf("a's context %q lacks its description", m["a"])
	}
}

// TestIndentedDescriptionNotNextLinks (from a review): white space counts
// as one space, so indentation takes no room from the text around a link.
func TestIndentedDescriptionNotNextLinks(t *testing.T) {
	indent := "\n" + strings.Repeat(" ", 100)
	m := contextsByPath(t, `<p><a href="a">a.dk</a>`+indent+`om skolen og hvad der sker, `+
		`<a href="b">b.com</a> bags</p>`)
	if !strings.Contains(m["a"], "skolen") || strings.Contains(m["b"], "skolen") {
		t.Errorf("a: %q, b: %q; want the description a's, not b's", m["a"], m["b"])
	}
}

// TestQuoteKeepsTextAfterInnerLink (from a review): text after a link
// inside a quotation is still the quotation's, for its citation.
func TestQuoteKeepsTextAfterInnerLink(t *testing.T) {
	m := contextsByPath(t, `<blockquote><p>Segundo o <a href="m">ministério</a>, a escola vai receber um novo ginásio no próximo ano.</p>`+
		`<cite>— <a href="s">Público</a></cite></blockquote>`)
	if !strings.Contains(m["s"], "ginásio") {
		t.Errorf("citation's context %q, want the end of the quotation (…novo ginásio no próximo ano.)", m["s"])
	}
}

// TestUnclosedQuoteDoesNotLeak (from a review): a <blockquote> left open
// in a table cell ends with the cell, as in a browser; its text is not the
// context of the navigation after it.
func TestUnclosedQuoteDoesNotLeak(t *testing.T) {
	m := contextsByPath(t, `<table><tr><td><blockquote><p>A escola vai receber um novo ginásio.</p></td></tr></table>`+
		`<ul><li><a href="home">Home</a></li><li>| <a href="en">English</a></li></ul>`)
	for _, k := range []string{"home", "en"} {
		if strings.Contains(m[k], "ginásio") {
			t.Errorf("%s's context %q is the text of a quotation closed long before", k, m[k])
		}
	}
}

// TestNBSPCollapsed (from a review): no-break spaces are white space.
func TestNBSPCollapsed(t *testing.T) {
	m := contextsByPath(t, `<p>Sites:&nbsp;&nbsp;<a href="a">x</a>&nbsp;&nbsp;(om&nbsp;&nbsp;skolen)</p>`)
	if m["a"] != "Sites: (om skolen)" {
		t.Errorf("context %q, want %q", m["a"], "Sites: (om skolen)")
	}
}

// TestContextCutBetweenWords: text around a link longer than
// MaxContextLen is cut between words where it has spaces: half a word
// says nothing, and reads as another language (a trial's report showed
// "z finement l'oignon" for "émincez finement l'oignon").
func TestContextCutBetweenWords(t *testing.T) {
	words := strings.Repeat("émincez finement oignon ", 12) // 25 bytes a group, 300 in all
	whole := map[string]bool{"émincez": true, "finement": true, "oignon": true}
	m := contextsByPath(t, `<p>`+words+`<a href="a">x</a></p><p><a href="b">y</a> `+words+`</p>`)
	for _, k := range []string{"a", "b"} {
		c := m[k]
		if c == "" || len(c) > MaxContextLen {
			t.Fatalf("%s: context %q", k, c)
		}
		for _, w := range strings.Fields(c) {
			if !whole[w] {
				t.Errorf("%s: context %q holds %q, part of a word", k, c, w)
			}
		}
	}
}

// TestAfterCutNextTokenLeadingSpace (from a review): a link's text after
// is cut between words when the token past the limit starts with a space.
func TestAfterCutNextTokenLeadingSpace(t *testing.T) {
	first := strings.TrimSpace(strings.Repeat("oignon ", 12)) // 83 bytes
	m := contextsByPath(t, `<p><a href="a">x</a> `+first+`<b> extraordinairement</b> bon</p>`)
	c := m["a"]
	for _, w := range strings.Fields(c) {
		if w != "oignon" && w != "extraordinairement" && w != "bon" {
			t.Errorf("context %q holds %q, part of a word", c, w)
		}
	}
}

// TestThaiPhraseSpacesKept: Thai writes no spaces between words but
// puts one between phrases, and after a phrase before a number or a
// Latin tag. The word cut takes the whole phrase for a "word" and drops
// it: the text before the link keeps only "(PDF)", the text after only
// the first short phrase; before the change both held ~30 Thai letters.
// TestThaiPhraseSpacesKept (from a review): a cut between words drops at
// most maxWordCut bytes; Thai, with spaces between phrases only, keeps
// its text.
func TestThaiPhraseSpacesKept(t *testing.T) {
	phrase := "ดาวน์โหลดเอกสารคู่มือการใช้งานระบบสารสนเทศเพื่อการศึกษาภาษาไทยฉบับสมบูรณ์" // ~70 letters, >96 bytes
	m := contextsByPath(t, `<p>`+phrase+` (PDF) <a href="a">x</a></p>`+
		`<p><a href="b">y</a> ข่าว `+phrase+`</p>`)
	for _, k := range []string{"a", "b"} {
		n := 0
		for _, r := range m[k] {
			if unicode.Is(unicode.Thai, r) {
				n++
			}
		}
		if n < 12 {
			t.Errorf("%s: context %q has %d Thai letters, want at least a dozen (it had ~30 before the word cut)", k, m[k], n)
		}
	}
}
