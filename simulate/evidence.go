package simulate

import (
	"bytes"
	"html"
	"net/http"

	"github.com/langcrawl/langcrawl/webgen"
)

// linkEvidence is what the fetcher renders for per-link evidence (issue
// 9, part 4) on a web whose family parameters ask for it: hreflang
// attributes (webgen Params.HreflangShare), the text around each link
// (ContextWords) and the language a server declares (LangDeclShare, as a
// Content-Language header). Its funcs are nil, and nothing is rendered,
// when the parameters are 0; it is read-only once built.
type linkEvidence struct {
	hreflang   func(from, to int32) string
	context    func(from, to int32) (before, after string)
	declHeader []http.Header // per server; nil: the server declares nothing
}

// newLinkEvidence reads the evidence parameters of g.
func newLinkEvidence(g *webgen.Graph) linkEvidence {
	var e linkEvidence
	p := g.Params()
	if p.HreflangShare > 0 {
		e.hreflang = g.Hreflang
	}
	if p.ContextWords > 0 {
		e.context = g.LinkContext
	}
	if p.LangDeclShare > 0 {
		byLang := map[string]http.Header{}
		e.declHeader = make([]http.Header, g.NumServers())
		for s := range int32(g.NumServers()) {
			l := g.DeclaredLang(g.Server(s).First)
			if l == "" {
				continue
			}
			h, ok := byLang[l]
			if !ok {
				h = http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Content-Language": {l}}
				byLang[l] = h
			}
			e.declHeader[s] = h
		}
	}
	return e
}

// header is the response header of page p.
func (w *web) header(p int32) http.Header {
	if w.declHeader != nil {
		if h := w.declHeader[w.server[p]]; h != nil {
			return h
		}
	}
	return htmlHeader
}

// writeLink writes the k-th link of page p, to page d: its anchor (webgen
// Graph.Anchor, or "x" saying nothing), its hreflang, and the text around
// it in a paragraph of its own, when the web has them.
func (w *web) writeLink(b *bytes.Buffer, p int32, k int, d int32) {
	var before, after string
	if w.context != nil {
		before, after = w.context(p, d)
		b.WriteString("<p>")
		b.WriteString(html.EscapeString(before))
		b.WriteByte(' ')
	}
	b.WriteString("<a href=\"")
	b.WriteString(w.url(d))
	if w.hreflang != nil {
		if l := w.hreflang(p, d); l != "" {
			b.WriteString("\" hreflang=\"")
			b.WriteString(l)
		}
	}
	if w.anchor == nil {
		b.WriteString("\">x</a>")
	} else {
		b.WriteString("\">")
		b.WriteString(html.EscapeString(w.anchor(p, k, d)))
		b.WriteString("</a>")
	}
	if w.context != nil {
		b.WriteByte(' ')
		b.WriteString(html.EscapeString(after))
		b.WriteString("</p>")
	}
	b.WriteByte('\n')
}
