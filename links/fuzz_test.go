package links

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func checkURL(t *testing.T, where, s string) {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("%s: %q does not parse: %v", where, s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !u.IsAbs() {
		t.Fatalf("%s: %q is not an absolute http(s) URL", where, s)
	}
	if strings.Contains(s, "#") {
		t.Fatalf("%s: %q has a fragment", where, s)
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		`<a href="a.html">a</a><img srcset="x 1x, y 2x"><base href="/b/">`,
		`<style>@import "x.css"; a{b:url(y.png)}</style><div style="background:url(z.gif)">`,
		`<meta http-equiv=refresh content="0;url='r.html'"><meta name=robots content=none>`,
		`<a href="http://[::1/"><a href="javascript:x"><a href="//h/p?q#f"><a href=%zz>`,
		`<noscript><a href=n></noscript><frameset><frame src=f>`,
		`<a href="http://ตัวอย่าง.ไทย/ข่าว?q=ไทย">`,
		"<a href='\x00\t\nhttp://a.b/\x7f'><svg><image xlink:href=i>",
		`<<a href=x<<a href="y`,
	} {
		f.Add("http://example.com/dir/page.html", []byte(s))
	}
	f.Add("", []byte(`<a href="http://x.example/">`))
	f.Fuzz(func(t *testing.T, page string, doc []byte) {
		var pu *url.URL
		if u, err := url.Parse(page); err == nil {
			pu = u
		}
		p := Extract(pu, doc, Options{MaxLinks: 50})
		if len(p.Links) > 50 {
			t.Fatalf("%d links, limit 50", len(p.Links))
		}
		if p.Base != "" {
			checkURL(t, "base", p.Base)
		}
		type key struct {
			u string
			k Kind
		}
		seen := map[key]bool{}
		for _, l := range p.Links {
			checkURL(t, fmt.Sprintf("%s %s.%s", l.Kind, l.Tag, l.Attr), l.URL)
			if l.Kind > Refresh {
				t.Fatalf("bad kind %d", l.Kind)
			}
			if seen[key{l.URL, l.Kind}] {
				t.Fatalf("duplicate %s %q", l.Kind, l.URL)
			}
			seen[key{l.URL, l.Kind}] = true
			if len(l.Context) > 2*MaxContextLen+1 || (utf8.Valid(doc) && !utf8.ValidString(l.Context)) {
				t.Fatalf("context %q: over %d bytes or not UTF-8", l.Context, 2*MaxContextLen+1)
			}
		}
		for _, s := range ExtractCSS(pu, doc, 50) {
			checkURL(t, "css", s)
		}
	})
}

// benchPage builds a page of about size bytes that looks like a news portal: navigation,
// articles with images and srcsets, inline styles, scripts and a few traps.
func benchPage(size int) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="th"><head><meta charset="utf-8"><title>ข่าว</title>
<base href="http://news.example.co.th/">
<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/favicon.ico">
<script src="/static/app.js"></script>
<style>body{background:url(/img/bg.png)} @font-face{src:url(/f/th.woff2) format("woff2")}</style>
</head><body><nav>`)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, `<a href="/section/%d/">หมวด %d</a> `, i, i)
	}
	b.WriteString("</nav>\n")
	for i := 0; b.Len() < size-200; i++ {
		fmt.Fprintf(&b, `<article class="story" style="border:1px solid #ccc"><h2><a href="/news/2024/%d.html?ref=home#c">ข่าวที่ %d ทดสอบภาษาไทย</a></h2>
<img src="/img/%d.jpg" srcset="/img/%d-480.jpg 480w, /img/%d-960.jpg 960w" alt="ภาพ">
<p>เนื้อหาข่าว <a href="http://other%d.example.com/page" rel="nofollow">ลิงก์</a> และ <a href="javascript:share(%d)">แชร์</a> ข้อความยาว ๆ สำหรับทดสอบ</p>
<div style="background-image:url('/thumb/%d.png')"></div></article>
`, i, i, i, i, i, i%50, i, i)
	}
	b.WriteString(`<footer><a href="mailto:news@example.co.th">ติดต่อ</a></footer></body></html>`)
	return []byte(b.String())
}

func BenchmarkExtract50KB(b *testing.B) {
	page := benchPage(50 << 10)
	pu, _ := url.Parse("http://news.example.co.th/index.html")
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		p := Extract(pu, page, Options{})
		if len(p.Links) == 0 {
			b.Fatal("no links")
		}
	}
}

func BenchmarkExtractCSS(b *testing.B) {
	var s strings.Builder
	for i := range 500 {
		fmt.Fprintf(&s, ".c%d{background:url(/img/c%d.png) no-repeat} /* c */\n", i, i)
	}
	css := []byte(s.String())
	base, _ := url.Parse("http://example.com/css/site.css")
	b.SetBytes(int64(len(css)))
	b.ReportAllocs()
	for b.Loop() {
		if len(ExtractCSS(base, css, 0)) != 500 {
			b.Fatal("wrong count")
		}
	}
}

// FuzzFastResolve checks that fastResolve, where it answers, answers as the
// WHATWG parser does.
func FuzzFastResolve(f *testing.F) {
	for _, s := range []string{"page.html", "../a/b?x=1&y=2", "./", "..", ".", "?", "?a", "a?", "a/../../..",
		"/abs/path", "a//b", "x/./y/../z?q=1;2,3+4@5", "~user", "a?b?c", "../../../x", "..a", ".a/..b"} {
		f.Add("http://h.test/dir/page.html?old=1", s)
		f.Add("https://h.test:8443/", s)
	}
	f.Add("http://h.test", "a")
	f.Add("http://0.0.0.0//", "..//") // empty segments: WHATWG keeps them
	f.Add("http://h.test/a//b/c", "../x")
	f.Fuzz(func(t *testing.T, base, ref string) {
		b, err := parser.Parse(base)
		if err != nil || !isHTTP(b) {
			return
		}
		got, ok := fastResolve(fastBase(b), ref)
		if !ok {
			return
		}
		want, wok := resolve(b, ref)
		if !wok || got != want {
			t.Fatalf("base %q ref %q: fast %q, WHATWG %q (ok %v)", b.Href(true), ref, got, want, wok)
		}
	})
}

// TestFastResolveAnswers makes sure the fast path is taken for plain
// references, so that FuzzFastResolve tests something.
func TestFastResolveAnswers(t *testing.T) {
	b, _ := parser.Parse("http://h.test/dir/page.html")
	fb := fastBase(b)
	if fb == nil {
		t.Fatal("no fast base for a plain URL")
	}
	for _, ref := range []string{"next.html", "../up?x=1", "?q"} {
		if _, ok := fastResolve(fb, ref); !ok {
			t.Errorf("%q: fast path not taken", ref)
		}
	}
	for _, ref := range []string{"http://other.test/", "#top", "a b", "%41", "//h/x", "a\\b", ""} {
		if _, ok := fastResolve(fb, ref); ok {
			t.Errorf("%q: fast path taken", ref)
		}
	}
}
