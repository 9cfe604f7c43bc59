package links

import (
	"fmt"
	"strings"
	"testing"
)

func TestAnchorEvidence(t *testing.T) {
	page := mustURL(t, "http://example.com/dir/page.html")
	tests := []struct{ name, html, want string }{
		{"text", `<a href="a.html">ข่าว  <b>วันนี้</b></a>`, "a.html|ข่าว วันนี้||"},
		{"hreflang and lang", `<a href="/th/" hreflang=" th " lang="th">ไทย</a>`, "th/|ไทย|th|th"},
		{"title when no text", `<a href="t.html" title="Thai news"></a>`, "t.html|Thai news||"},
		{"img alt", `<a href="i.html"><img src="x.png" alt="โลโก้"></a>`, "i.html|โลโก้||"},
		{"unclosed at end", `<a href="u.html">last`, "u.html|last||"},
		{"a ends the previous a", `<a href="p.html">one<a href="q.html">two</a>`, "p.html|one||\nq.html|two||"},
		{"first non-empty anchor of a URL", `<a href="d.html"></a><a href="d.html">later</a>`, "d.html|later||"},
		{"entities", `<a href="e.html">a &amp; b</a>`, "e.html|a & b||"},
		{"area and link carry hreflang", `<link rel="alternate" hreflang="lo" href="/lo/"><area href="m.html" hreflang="en">`, "lo/||lo|\nm.html||en|"},
		{"text outside anchors is not anchor text", `before <a href="o.html">in</a> after`, "o.html|in||"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Extract(page, []byte(tc.html), Options{})
			var got []string
			for _, l := range p.Links {
				if l.Kind != Nav {
					continue
				}
				u := strings.TrimPrefix(strings.TrimPrefix(l.URL, "http://example.com/dir/"), "http://example.com/")
				got = append(got, fmt.Sprintf("%s|%s|%s|%s", u, l.Anchor, l.Hreflang, l.Lang))
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("got\n%s\nwant\n%s", g, tc.want)
			}
		})
	}
}

func TestAnchorBounded(t *testing.T) {
	long := strings.Repeat("ข", 500)
	p := Extract(mustURL(t, "http://example.com/"), []byte(`<a href="x">`+long+`</a>`), Options{})
	if len(p.Links) != 1 {
		t.Fatalf("links: %d", len(p.Links))
	}
	a := p.Links[0].Anchor
	if len(a) > MaxAnchorLen || !strings.HasPrefix(long, a) || a == "" {
		t.Errorf("anchor of %d bytes, want a prefix of at most %d", len(a), MaxAnchorLen)
	}
}

func TestContextEvidence(t *testing.T) {
	page := mustURL(t, "http://example.com/")
	long := strings.Repeat("ข", 100) // 300 bytes
	tests := []struct{ name, html, want string }{
		{"either side", `<p>ข่าว วันนี้ <a href="a">x</a> ภาษาไทย</p>`, "a|ข่าว วันนี้ ภาษาไทย"},
		{"white space collapsed", "<p>one\n\t two  <a href=a>x</a>\n three\n</p>", "a|one two three"},
		{"before only", `text <a href="a">x</a><a href="b">y</a> after`, "a|text\nb|after"},
		{"nothing around", `<ul><li><a href="a">x</a></li><li><a href="b">y</a></li></ul>`, "a|\nb|"},
		{"after stops at the end of the block", `<li><a href="a">x</a></li><li>next item`, "a|"},
		{"before stops at the start of the block", `<p>one</p><p><a href="a">x</a> two`, "a|two"},
		{"inline elements do not stop it", `<p><b>bold</b> <a href="a">x</a> <i>it</i>`, "a|bold it"},
		{"unclosed at end", `before <a href="a">x`, "a|before"},
		{"text between two links is the first one's, their anchors of neither", `<a href="a">one</a> | <a href="b">two</a>`, "a||\nb|"},
		{"a description after a link is not the next link's",
			`<p>Sites: <a href="a">a.dk</a> (om skolen og hvad der sker), <a href="b">b.com</a> (bags).</p>`,
			"a|Sites: (om skolen og hvad der sker),\nb|(bags)."},
		{"what the first leaves of a long text between is the second's",
			`<p><a href="a">x</a> ` + long + ` <a href="b">y</a></p>`,
			"a|" + strings.Repeat("ข", MaxContextLen/3-1) + "\nb|" + strings.Repeat("ข", MaxContextLen/3-1)},
		{"the text before starts at a rune boundary", `<p>` + long + `x<a href="a">y</a></p>`,
			"a|" + strings.Repeat("ข", MaxContextLen/3-1) + "x"},
		{"first occurrence of a URL", `first <a href="a">x</a> then<p>second <a href="a">y</a> z`, "a|first then"},
		{"bounded at rune boundaries", `<p>` + long + `<a href="a">x</a>` + long + `</p>`,
			"a|" + strings.Repeat("ข", MaxContextLen/3) + " " + strings.Repeat("ข", MaxContextLen/3)},
		{"not for other elements", `text <img src="i.png"> more <link rel=canonical href="c">`, "c|"},
		{"a quotation's citation takes the quotation's text",
			`<p>We keep coming back to:</p><blockquote><p>A escola vai receber um novo ginásio.</p><cite>— <a href="a">Poesia</a>, 2023</cite></blockquote>`,
			"a|A escola vai receber um novo ginásio. — , 2023"},
		{"a label under 8 letters is no context of its own",
			`<blockquote><p>A escola vai receber um novo ginásio.</p><footer>Fonte: <a href="a">x</a></footer></blockquote>`,
			"a|A escola vai receber um novo ginásio. Fonte:"},
		{"text of its own in the quotation stands",
			`<blockquote><p>A escola vai receber um novo ginásio.</p><p>As the minister said on <a href="a">x</a></p></blockquote>`,
			"a|As the minister said on"},
		{"the end of the quotation, bounded",
			`<blockquote><p>` + long + `</p><cite><a href="a">x</a></cite></blockquote>`,
			// the block's end counts as a space: 15 letters and it
			"a|" + strings.Repeat("ข", MaxContextLen/3-1)},
		{"a link with text of its own in a quotation used for layout keeps it",
			`<blockquote><ul><li><a href="a">x</a> – the English line</li><li><a href="b">y</a> – uma linha em português</li></ul></blockquote>`,
			"a|– the English line\nb|– uma linha em português"},
		{"text after the link counts as its own",
			`<blockquote><p>A escola vai receber um novo ginásio.</p><p><a href="a">x</a> – um arquivo</p></blockquote>`,
			"a|– um arquivo"},
		{"not after the quotation ends",
			`<blockquote><p>A escola vai receber um novo ginásio.</p></blockquote><p>— <a href="a">x</a></p>`,
			"a|—"},
		{"nested quotations: the outer one's text until it ends",
			`<blockquote><p>um novo ginásio</p><blockquote><p>dos alunos</p></blockquote><cite><a href="a">x</a></cite></blockquote><p><a href="b">y</a></p>`,
			"a|um novo ginásio dos alunos\nb|"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Extract(page, []byte(tc.html), Options{})
			var got []string
			for _, l := range p.Links {
				if l.Kind != Nav {
					continue
				}
				got = append(got, strings.TrimPrefix(l.URL, "http://example.com/")+"|"+l.Context)
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("got\n%s\nwant\n%s", g, tc.want)
			}
		})
	}
}

func TestHTMLLang(t *testing.T) {
	for html, want := range map[string]string{
		`<!DOCTYPE html><html lang=" th-TH "><body>x`: "th-TH",
		`<html><body lang="th">`:                      "",
		`<p>no html element`:                          "",
		`<html lang="en"><html lang="th">`:            "en",
	} {
		if got := Extract(mustURL(t, "http://example.com/"), []byte(html), Options{}).Lang; got != want {
			t.Errorf("%s: Lang %q, want %q", html, got, want)
		}
	}
}
