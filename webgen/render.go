package webgen

import (
	"fmt"
	htmlpkg "html"
	"strings"

	"golang.org/x/text/encoding"
)

// Text returns the visible text of page i in its language, as UTF-8: the
// title, then the paragraphs, separated by blank lines. It is "" for pages
// that are not HTML documents. The served bytes hold this text in the
// server's charset (HTML-escaped, and as numeric character references on
// DeclNCR servers); the English navigation boilerplate is not included.
func (g *Graph) Text(i int32) string {
	pi := g.Page(i)
	if pi.Lang == "" || g.pageKind(i) == kindCalendar {
		return ""
	}
	title, paras := pageText(g.p.Seed, i, pi.Lang, g.servers[pi.Server].charset)
	return title + "\n\n" + strings.Join(paras, "\n\n")
}

func (g *Graph) pageKind(i int32) pageKind {
	if i >= g.firstSpecial && g.servers[g.pageServer[i]].special != nil {
		return g.spPages[i-g.firstSpecial].kind
	}
	if g.IsMissing(i) {
		return kindMissing
	}
	return kindHTML
}

// href returns how page from refers to page to: relative within a
// directory, root-relative within a server, absolute across servers.
func (g *Graph) href(from int32, fromPath string, to int32) string {
	if g.pageServer[from] != g.pageServer[to] {
		return g.URL(to)
	}
	return relRef(fromPath, g.Page(to).Path)
}

func relRef(fromPath, toPath string) string {
	dir := fromPath[:strings.LastIndexByte(fromPath, '/')+1]
	if rest, ok := strings.CutPrefix(toPath, dir); ok && rest != "" && !strings.ContainsRune(rest, '/') {
		return rest
	}
	return toPath
}

// htmlDoc renders an HTML page with the text of textID in lang for server
// s, with the given links. It returns the Content-Type header and the bytes.
func (g *Graph) htmlDoc(textID int32, s *server, lang string, hrefs []string, anchorIDs []int32) (ctype string, body []byte, err error) {
	return g.htmlDocSeed(g.p.Seed, textID, s, lang, hrefs, anchorIDs, nil)
}

// docEvidence is the per-link and per-page evidence a graph page carries
// when the family's parameters ask for it: the hreflang of its k-th link
// ("" for none) and the language its <html lang> declares.
type docEvidence struct {
	hreflang []string
	lang     string
	// anchors and the text before and after each link (Graph.Anchor,
	// Graph.LinkContext), by link index; "" keeps the page's own anchor
	// and no text around it.
	anchors, before, after []string
}

// htmlDocSeed is htmlDoc with the text drawn from seed instead of
// Params.Seed: a page's text in a later generation (generation.go). ev,
// when not nil, adds hreflang attributes and <html lang>.
func (g *Graph) htmlDocSeed(seed int64, textID int32, s *server, lang string, hrefs []string, anchorIDs []int32, ev *docEvidence) (ctype string, body []byte, err error) {
	title, paras := pageText(seed, textID, lang, s.charset)
	esc := func(x string) string {
		e := htmlpkg.EscapeString(x)
		if s.decl == DeclNCR {
			e = ncr(e)
		}
		return e
	}
	cs := s.charset
	meta := func(label string) string {
		if textID%2 == 0 {
			return `<meta charset="` + label + `">` + "\n"
		}
		return `<meta http-equiv="Content-Type" content="text/html; charset=` + label + `">` + "\n"
	}
	ctype = "text/html"
	var metas string
	switch s.decl {
	case DeclHeaderMeta, DeclNCR:
		ctype += "; charset=" + cs
		metas = meta(cs)
	case DeclHeader:
		ctype += "; charset=" + cs
	case DeclMeta:
		metas = meta(cs)
	case DeclWrongHeader:
		ctype += "; charset=" + wrongCharset(cs)
		metas = meta(cs)
	case DeclWrongMeta:
		metas = meta(wrongCharset(cs))
	case DeclRepeatedMeta:
		metas = meta(cs) + meta(wrongCharset(cs))
	}
	var b strings.Builder
	if ev != nil && ev.lang != "" {
		b.WriteString("<!DOCTYPE html>\n<html lang=\"" + ev.lang + "\">\n<head>\n")
	} else {
		b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n")
	}
	b.WriteString(metas)
	b.WriteString("<title>" + esc(title) + "</title>\n")
	b.WriteString(`<link rel="stylesheet" href="/style.css">` + "\n</head>\n<body>\n")
	b.WriteString(`<div class="nav">Home | News | About us | Contact | Sitemap</div>` + "\n")
	b.WriteString("<h1>" + esc(title) + "</h1>\n")
	for _, p := range paras {
		b.WriteString("<p>" + esc(p) + "</p>\n")
	}
	b.WriteString("<ul>\n")
	var anchors, hreflangs, before, after []string
	if ev != nil {
		anchors, hreflangs, before, after = ev.anchors, ev.hreflang, ev.before, ev.after
	}
	at := func(l []string, k int) string {
		if k < len(l) {
			return l[k]
		}
		return ""
	}
	for k, h := range hrefs {
		a := at(anchors, k)
		if a == "" {
			a = anchorText(g.p.Seed, anchorIDs[k], k, lang, s.charset)
		}
		a = esc(a)
		hl := ""
		if hreflang := at(hreflangs, k); hreflang != "" {
			hl = `" hreflang="` + hreflang
		}
		b.WriteString("<li>")
		if t := at(before, k); t != "" {
			b.WriteString(esc(t) + " ")
		}
		b.WriteString(`<a href="` + htmlpkg.EscapeString(h) + hl + `">` + a + "</a>")
		if t := at(after, k); t != "" {
			b.WriteString(" " + esc(t))
		}
		b.WriteString("</li>\n")
	}
	b.WriteString("</ul>\n")
	b.WriteString(`<img src="/img/logo.png" alt="logo">` + "\n")
	b.WriteString(`<div class="footer">Copyright 2026. All rights reserved. Terms of use | Privacy policy</div>` + "\n")
	b.WriteString("</body>\n</html>\n")
	enc, err := Encoding(cs)
	if err != nil {
		return "", nil, err
	}
	// Text in another language than the page's (a family anchor, the text
	// around a link) may not fit a legacy charset: those characters go out
	// as character references, as on the web. The page's own text always
	// fits, so pages without such text are unchanged.
	out, err := encoding.HTMLEscapeUnsupported(enc.NewEncoder()).String(b.String())
	if err != nil {
		return "", nil, fmt.Errorf("webgen: encode page %d as %s: %w", textID, cs, err)
	}
	return ctype, []byte(out), nil
}

// renderPage renders graph page i (an HTML kind).
func (g *Graph) renderPage(i int32) (ctype string, body []byte, err error) {
	pi := g.Page(i)
	s := &g.servers[pi.Server]
	links := g.Links(i)
	hrefs := make([]string, 0, len(links)+2)
	ids := make([]int32, 0, len(links)+2)
	for _, t := range links {
		hrefs = append(hrefs, g.href(i, pi.Path, t))
		ids = append(ids, i)
	}
	if i >= g.firstSpecial && s.special != nil {
		for _, r := range g.spPages[i-g.firstSpecial].raw {
			hrefs = append(hrefs, r)
			ids = append(ids, i)
		}
	}
	var ev *docEvidence
	p := &g.p
	familyAnchors := p.AnchorDestShare > 0 || p.AnchorSrcShare > 0 || p.AnchorURLShare > 0
	if p.HreflangShare > 0 || p.LangDeclShare > 0 || familyAnchors || p.ContextWords > 0 {
		ev = &docEvidence{lang: g.DeclaredLang(i)}
		for k, t := range links {
			if p.HreflangShare > 0 {
				ev.hreflang = append(ev.hreflang, g.Hreflang(i, t))
			}
			if familyAnchors {
				ev.anchors = append(ev.anchors, g.Anchor(i, k, t))
			}
			if p.ContextWords > 0 {
				before, after := g.LinkContext(i, t)
				ev.before, ev.after = append(ev.before, before), append(ev.after, after)
			}
		}
	}
	ctype, body, err = g.htmlDocSeed(g.p.Seed, i, s, pi.Lang, hrefs, ids, ev)
	if err != nil {
		return "", nil, err
	}
	if g.pageKind(i) == kindMalformed {
		body = malform(body)
	}
	return ctype, body, nil
}

// renderCalendar renders /calendar/y/m/ on server s, which links to the
// next month.
func (g *Graph) renderCalendar(s *server, y, m int) (ctype string, body []byte, err error) {
	id := -int32(y*12 + m)
	return g.htmlDoc(id, s, g.p.TargetLang, []string{"/", relRef(fmt.Sprintf("/calendar/%04d/%02d/", y, m), calendarNext(y, m))}, []int32{id, id})
}

// malform drops closing tags and inserts bytes that are not text.
func malform(b []byte) []byte {
	s := string(b)
	for _, t := range []string{"</p>", "</li>", "</ul>", "</body>", "</html>", "</h1>"} {
		s = strings.ReplaceAll(s, t, "")
	}
	s = strings.Replace(s, "<body>\n", "<body>\n<div><table><tr><td>\x00\x01\xff\xfe garbage \x1b[0m<b><i>\n", 1)
	return []byte(s)
}
