package links

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// format renders links one per line as "kind tag.attr url [nofollow]", for table tests.
func format(ls []Link) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "%s %s.%s %s", l.Kind, l.Tag, l.Attr, l.URL)
		if l.NoFollow {
			b.WriteString(" nofollow")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestExtract(t *testing.T) {
	const page = "http://example.com/dir/page.html"
	tests := []struct {
		name, html, want string
		base             string // want Page.Base; "" means the page URL
	}{
		{
			name: "anchors and areas",
			html: `<a href="a.html">a</a> <A HREF='/b'>b</A> <area href="http://other.org/c"> <a>none</a>`,
			want: `nav a.href http://example.com/dir/a.html
nav a.href http://example.com/b
nav area.href http://other.org/c
`,
		},
		{
			name: "base href applies to the whole document",
			html: `<html><head><a href="early.html">x</a><base href="http://cdn.example.net/root/"><base href="/ignored/"></head>
<body><a href="x/y.html">y</a><img src="/i.png"></body></html>`,
			base: "http://cdn.example.net/root/",
			want: `nav a.href http://cdn.example.net/root/early.html
nav a.href http://cdn.example.net/root/x/y.html
requisite img.src http://cdn.example.net/i.png
`,
		},
		{
			name: "relative base href",
			html: `<base href="../other/"><a href="p.html">p</a>`,
			base: "http://example.com/other/",
			want: "nav a.href http://example.com/other/p.html\n",
		},
		{
			name: "non-http base is ignored",
			html: `<base href="javascript:void(0)"><a href="p.html">p</a>`,
			want: "nav a.href http://example.com/dir/p.html\n",
		},
		{
			name: "skipped schemes and fragments",
			html: `<a href="javascript:go()">j</a><a href=" JavaScript:go()">j</a><a href="mailto:a@b.c">m</a>
<a href="tel:+66123">t</a><img src="data:image/png;base64,AAAA"><a href="about:blank">a</a>
<a href="#top">f</a><a href="">empty</a><a href="ftp://example.com/f">ftp</a><a href="s.html#sec">s</a>`,
			want: "nav a.href http://example.com/dir/s.html\n",
		},
		{
			name: "frames",
			html: `<frameset><frame src="left.html"><frame src="right.html"></frameset><iframe src="//ads.example.org/x"></iframe>`,
			want: `frame frame.src http://example.com/dir/left.html
frame frame.src http://example.com/dir/right.html
frame iframe.src http://ads.example.org/x
`,
		},
		{
			name: "srcset candidates",
			html: `<img src="a.jpg" srcset="a-1x.jpg 1x, a-2x.jpg 2x,a-3x.jpg   3x">
<picture><source srcset="w400.webp 400w, /w800.webp 800w" type="image/webp"><source src="v.mp4"></picture>
<img srcset="comma,in,url.jpg 1x,, last.jpg">
<img srcset="img.php?w=1,2 1x">
<img data-src="lazy.jpg" data-srcset="lazy-2x.jpg 2x">`,
			want: `requisite img.src http://example.com/dir/a.jpg
requisite img.srcset http://example.com/dir/a-1x.jpg
requisite img.srcset http://example.com/dir/a-2x.jpg
requisite img.srcset http://example.com/dir/a-3x.jpg
requisite source.srcset http://example.com/dir/w400.webp
requisite source.srcset http://example.com/w800.webp
requisite source.src http://example.com/dir/v.mp4
requisite img.srcset http://example.com/dir/comma,in,url.jpg
requisite img.srcset http://example.com/dir/last.jpg
requisite img.srcset http://example.com/dir/img.php?w=1,2
requisite img.data-src http://example.com/dir/lazy.jpg
requisite img.data-srcset http://example.com/dir/lazy-2x.jpg
`,
		},
		{
			name: "link rels",
			html: `<link rel="stylesheet" href="s.css"><link rel="StyleSheet alternate" href="alt.css">
<link rel="shortcut icon" href="/favicon.ico"><link rel=apple-touch-icon href=/t.png>
<link rel="canonical" href="http://example.com/canon"><link rel="alternate" hreflang="th" href="/th/">
<link rel="dns-prefetch" href="//cdn.example.com"><link rel="preload" as="font" href="f.woff2">
<link rel="next nofollow" href="p2.html">`,
			want: `requisite link.href http://example.com/dir/s.css
requisite link.href http://example.com/dir/alt.css
requisite link.href http://example.com/favicon.ico
requisite link.href http://example.com/t.png
nav link.href http://example.com/canon
nav link.href http://example.com/th/
requisite link.href http://example.com/dir/f.woff2
nav link.href http://example.com/dir/p2.html nofollow
`,
		},
		{
			name: "media, scripts, objects",
			html: `<script src="app.js"></script><script>var a = "<a href='not-a-link.html'>";</script>
<video src="m.mp4" poster="m.jpg"><track src="m.vtt"></video><audio src="s.mp3"></audio>
<embed src="e.swf"><object data="o.swf"></object><input type="image" src="go.png"><input type="text" src="no.png">
<svg><image href="s1.png"/><image xlink:href="s2.png"/></svg>`,
			want: `requisite script.src http://example.com/dir/app.js
requisite video.src http://example.com/dir/m.mp4
requisite video.poster http://example.com/dir/m.jpg
requisite track.src http://example.com/dir/m.vtt
requisite audio.src http://example.com/dir/s.mp3
requisite embed.src http://example.com/dir/e.swf
requisite object.data http://example.com/dir/o.swf
requisite input.src http://example.com/dir/go.png
requisite image.href http://example.com/dir/s1.png
requisite image.xlink:href http://example.com/dir/s2.png
`,
		},
		{
			name: "css in style blocks, style and background attributes",
			html: `<style>
@import "imp.css"; @import url('imp2.css');
body { background: url(bg.png) } /* url(commented.png) */
.a { background-image: URL( "q.png" ) } .b::after { content: "url(in-string.png)" }
@font-face { src: url(/f.woff2#iefix) format("woff2") }
</style>
<body background="body.jpg"><td style="background:url('cell.gif')">x</td></body>`,
			want: `requisite style. http://example.com/dir/imp.css
requisite style. http://example.com/dir/imp2.css
requisite style. http://example.com/dir/bg.png
requisite style. http://example.com/dir/q.png
requisite style. http://example.com/f.woff2
requisite body.background http://example.com/dir/body.jpg
requisite td.style http://example.com/dir/cell.gif
`,
		},
		{
			name: "meta refresh",
			html: `<meta http-equiv="Refresh" content="5; URL='/moved.html'"><meta http-equiv="refresh" content="0;url=http://other.org/x">
<meta http-equiv="refresh" content="10"><meta http-equiv="refresh" content="3, next.html">`,
			want: `refresh meta.content http://example.com/moved.html
refresh meta.content http://other.org/x
refresh meta.content http://example.com/dir/next.html
`,
		},
		{
			name: "nofollow merges across duplicates",
			html: `<a rel="nofollow" href="x.html">1</a><a href="x.html">2</a><a rel="NoFollow ugc" href="y.html">3</a><a rel="nofollow" href="y.html#z">4</a>`,
			want: `nav a.href http://example.com/dir/x.html
nav a.href http://example.com/dir/y.html nofollow
`,
		},
		{
			name: "same URL, different kinds",
			html: `<a href="p.png">p</a><img src="p.png">`,
			want: "nav a.href http://example.com/dir/p.png\nrequisite img.src http://example.com/dir/p.png\n",
		},
		{
			name: "malformed and unclosed",
			html: `<html><body><a href="one.html"<a href=two.html>two<div <img src=three.png <p><a href="four.html>four</a><a href='five.html'`,
			want: "nav a.href http://example.com/dir/one.html\n",
		},
		{
			name: "unclosed comment hides the rest",
			html: `<a href="seen.html"></a><!-- <a href="hidden.html">`,
			want: "nav a.href http://example.com/dir/seen.html\n",
		},
		{
			name: "noscript and noframes are read",
			html: `<noscript><img src="pixel.gif"></noscript><noframes><a href="noframes.html">x</a></noframes>`,
			want: `requisite img.src http://example.com/dir/pixel.gif
nav a.href http://example.com/dir/noframes.html
`,
		},
		{
			name: "entities and whitespace",
			html: `<a href="  q.php?a=1&amp;b=2&#38;c=3  ">q</a><a href="sp ace.html">s</a><a href="x&#10;y.html">n</a>`,
			want: `nav a.href http://example.com/dir/q.php?a=1&b=2&c=3
nav a.href http://example.com/dir/sp%20ace.html
nav a.href http://example.com/dir/xy.html
`,
		},
		{
			name: "decoded legacy charset page",
			// A TIS-620 (Thai) or Shift_JIS page after the engine decoded it to UTF-8.
			html: `<a href="/ข่าว/หน้าแรก.html">ข่าว</a><a href="検索?q=日本語">検索</a><a href="http://ตัวอย่าง.ไทย/">idn</a>`,
			want: `nav a.href http://example.com/%E0%B8%82%E0%B9%88%E0%B8%B2%E0%B8%A7/%E0%B8%AB%E0%B8%99%E0%B9%89%E0%B8%B2%E0%B9%81%E0%B8%A3%E0%B8%81.html
nav a.href http://example.com/dir/%E6%A4%9C%E7%B4%A2?q=%E6%97%A5%E6%9C%AC%E8%AA%9E
nav a.href http://xn--72c1a1bt4awk9o.xn--o3cw4h/
`,
		},
		{
			name: "bad urls are dropped",
			html: `<a href="http://exa mple.com/">h</a><a href="http://:80/">e</a><a href="http://[::1/">v6</a><a href="ok.html">ok</a>`,
			want: "nav a.href http://example.com/dir/ok.html\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Extract(mustURL(t, page), []byte(tt.html), Options{})
			if got := format(p.Links); got != tt.want {
				t.Errorf("links:\n%s\nwant:\n%s", got, tt.want)
			}
			wantBase := tt.base
			if wantBase == "" {
				wantBase = page
			}
			if p.Base != wantBase {
				t.Errorf("Base = %q, want %q", p.Base, wantBase)
			}
			if p.NoFollow || p.NoIndex || p.Truncated {
				t.Errorf("NoFollow %v NoIndex %v Truncated %v, want all false", p.NoFollow, p.NoIndex, p.Truncated)
			}
		})
	}
}

func TestExtractMetaRobots(t *testing.T) {
	tests := []struct {
		html              string
		nofollow, noindex bool
	}{
		{`<meta name="robots" content="nofollow">`, true, false},
		{`<meta name="ROBOTS" content="NoIndex">`, false, true},
		{`<meta name="robots" content="noindex, nofollow">`, true, true},
		{`<meta name="robots" content="none">`, true, true},
		{`<meta name="robots" content="index,follow">`, false, false},
		{`<meta name="description" content="nofollow noindex">`, false, false},
		{`<meta name="robots">`, false, false},
		{`<p>nofollow</p>`, false, false},
	}
	for _, tt := range tests {
		p := Extract(mustURL(t, "http://example.com/"), []byte(tt.html+`<a href="x">x</a>`), Options{})
		if p.NoFollow != tt.nofollow || p.NoIndex != tt.noindex {
			t.Errorf("%s: NoFollow %v NoIndex %v, want %v %v", tt.html, p.NoFollow, p.NoIndex, tt.nofollow, tt.noindex)
		}
		if len(p.Links) != 1 || p.Links[0].NoFollow {
			t.Errorf("%s: links %v, want the one link, followable (the engine decides)", tt.html, p.Links)
		}
	}
}

func TestExtractLimits(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, `<a href="/p%d">x</a>`, i)
	}
	p := Extract(mustURL(t, "http://example.com/"), []byte(b.String()), Options{MaxLinks: 20})
	if len(p.Links) != 20 || !p.Truncated {
		t.Errorf("MaxLinks 20: got %d links, truncated %v", len(p.Links), p.Truncated)
	}
	if p.Links[19].URL != "http://example.com/p19" {
		t.Errorf("last link %q, want the 20th in document order", p.Links[19].URL)
	}
	p = Extract(mustURL(t, "http://example.com/"), []byte(b.String()), Options{})
	if len(p.Links) != 50 || p.Truncated {
		t.Errorf("default limit: got %d links, truncated %v", len(p.Links), p.Truncated)
	}

	long := `<a href="/` + strings.Repeat("x", 200) + `">l</a><a href="/short">s</a>`
	p = Extract(mustURL(t, "http://example.com/"), []byte(long), Options{MaxAttrLen: 100})
	if got := format(p.Links); got != "nav a.href http://example.com/short\n" {
		t.Errorf("MaxAttrLen 100: got\n%s", got)
	}

	// Duplicates do not use up the limit.
	dup := strings.Repeat(`<a href="/same">x</a>`, 100) + `<a href="/other">o</a>`
	p = Extract(mustURL(t, "http://example.com/"), []byte(dup), Options{MaxLinks: 2})
	if len(p.Links) != 2 || p.Truncated {
		t.Errorf("duplicates: got %d links, truncated %v", len(p.Links), p.Truncated)
	}
}

func TestExtractNilPageURL(t *testing.T) {
	p := Extract(nil, []byte(`<a href="rel.html">r</a><a href="http://abs.example/">a</a>`), Options{})
	if got := format(p.Links); got != "nav a.href http://abs.example/\n" || p.Base != "" {
		t.Errorf("nil page URL: base %q links\n%s", p.Base, got)
	}
	p = Extract(nil, []byte(`<base href="http://b.example/d/"><a href="rel.html">r</a>`), Options{})
	if got := format(p.Links); got != "nav a.href http://b.example/d/rel.html\n" || p.Base != "http://b.example/d/" {
		t.Errorf("nil page URL with base: base %q links\n%s", p.Base, got)
	}
}

func TestExtractCSS(t *testing.T) {
	base := mustURL(t, "http://example.com/css/site.css")
	tests := []struct {
		name, css string
		max       int
		want      []string
	}{
		{"url forms", `a{b:url(a.png)} c{d:url( 'b.png' )} e{f:url("c.png")} g{h:URL(d.png)}`, 0,
			[]string{"http://example.com/css/a.png", "http://example.com/css/b.png", "http://example.com/css/c.png", "http://example.com/css/d.png"}},
		{"imports", `@import "x.css"; @import 'y.css' screen; @IMPORT /* c */ "z.css"; @import url(w.css);`, 0,
			[]string{"http://example.com/css/x.css", "http://example.com/css/y.css", "http://example.com/css/z.css", "http://example.com/css/w.css"}},
		{"fonts with fragments and queries", `@font-face{src:url(../f/a.eot?#iefix) format("eot"),url(../f/a.woff2?v=3) format("woff2")}`, 0,
			[]string{"http://example.com/f/a.eot?", "http://example.com/f/a.woff2?v=3"}},
		{"comments and strings", `/* url(no1.png) */ a{content:"url(no2.png)"} b{content:'\'url(no3.png)'} c{x:url(yes.png)}`, 0,
			[]string{"http://example.com/css/yes.png"}},
		{"escapes", `a{b:url(sp\ ace.png)} c{d:url("\71 .png")} e{f:url(p\(1\).png)}`, 0,
			[]string{"http://example.com/css/sp%20ace.png", "http://example.com/css/q.png", "http://example.com/css/p(1).png"}},
		{"not a url function", `a{b:myurl(x.png); c: --url(y.png)}`, 0, nil},
		{"skipped schemes", `a{b:url(data:image/png;base64,AAA=)} c{d:url(#svgfilter)} e{f:url(javascript:x)}`, 0, nil},
		{"duplicates and limit", `a{b:url(1.png)} a{b:url(1.png)} a{b:url(2.png)} a{b:url(3.png)}`, 2,
			[]string{"http://example.com/css/1.png", "http://example.com/css/2.png"}},
		{"unterminated", `a{b:url(ok.png)} c{d:url(never-closed.png`, 0, []string{"http://example.com/css/ok.png"}},
		{"unterminated comment", `a{b:url(ok.png)} /* c{d:url(no.png)}`, 0, []string{"http://example.com/css/ok.png"}},
		{"bad url token", `a{b:url(x"y.png)} c{d:url(z.png)}`, 0, []string{"http://example.com/css/z.png"}},
		{"absolute and protocol-relative", `a{b:url(https://cdn.example.org/x.png)} c{d:url(//img.example.org/y.png)}`, 0,
			[]string{"https://cdn.example.org/x.png", "http://img.example.org/y.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ExtractCSS(base, []byte(tt.css), tt.max)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("ExtractCSS:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestSrcset(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a.jpg", "a.jpg"},
		{"a.jpg 1x, b.jpg 2x", "a.jpg|b.jpg"},
		{" a.jpg 100w , b.jpg 200w ", "a.jpg|b.jpg"},
		{"a.jpg,b.jpg", "a.jpg,b.jpg"},
		{"a.jpg, b.jpg", "a.jpg|b.jpg"},
		{"a.jpg 1x (x, y), b.jpg", "a.jpg|b.jpg"},
		{",,, ,", ""},
		{"", ""},
	}
	for _, tt := range tests {
		var got []string
		srcset(tt.in, func(s string) { got = append(got, s) })
		if strings.Join(got, "|") != tt.want {
			t.Errorf("srcset(%q) = %q, want %q", tt.in, strings.Join(got, "|"), tt.want)
		}
	}
}

func TestRefreshURL(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"0; url=/a", "/a", true},
		{"5;URL='b.html'", "b.html", true},
		{`3 ; Url = "c.html" trailing`, "c.html", true},
		{"1, d.html", "d.html", true},
		{"1 e.html", "e.html", true},
		{"0.5;url=f.html", "f.html", true},
		{"0;urlish.html", "urlish.html", true},
		{"10", "", false},
		{"10;", "", false},
		{"url=/x", "", false},
		{"", "", false},
		{"0;url=", "", false},
	}
	for _, tt := range tests {
		got, ok := refreshURL(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("refreshURL(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Nav: "nav", Frame: "frame", Requisite: "requisite", Refresh: "refresh", 9: "Kind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestExtractLargeStyleBlock(t *testing.T) {
	// A <style> block longer than MaxAttrLen is still read.
	css := strings.Repeat(".x{color:red}\n", 5000) + "body{background:url(/late.png)}"
	p := Extract(mustURL(t, "http://example.com/"), []byte("<style>"+css+"</style>"), Options{MaxAttrLen: 1024})
	if got := format(p.Links); got != "requisite style. http://example.com/late.png\n" {
		t.Errorf("large style block: got\n%s", got)
	}
}

// TestResolve: a Location header resolves as a browser follows it.
func TestResolve(t *testing.T) {
	for _, c := range []struct{ ref, want string }{
		{"/next.html", "http://r.test/next.html"},
		{"/next\t.html", "http://r.test/next.html"},         // tab dropped
		{"/a\n/b", "http://r.test/a/b"},                     // line break dropped
		{`\\other.test\x.html`, "http://other.test/x.html"}, // backslashes are slashes
		{"/with space", "http://r.test/with%20space"},       // space encoded
		{"https://s.test/p#frag", "https://s.test/p"},       // fragment dropped
		{"  /trimmed  ", "http://r.test/trimmed"},           // C0 space trimmed
		{"", ""}, {"   ", ""}, {"mailto:a@b.test", ""}, {"http://", ""}, // nothing to follow
	} {
		got, ok := Resolve("http://r.test/dir/page", c.ref)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.ref, got, ok, c.want)
		}
	}
}

// TestInvalidListed: references that name an http(s) URL, or no scheme,
// and do not resolve are returned in Page.Invalid, as written; those of
// schemes never fetched are not, nor are good links.
func TestInvalidListed(t *testing.T) {
	html := `<a href="http://big.test:99999/">a</a><a href="http://[::1/">b</a><a href="http://bad host.test/">c</a>
<a href="mailto:x@y.test">d</a><a href="ftp://f.test/">e</a><a href="/ok">f</a><a href="HTTPS://:80/">g</a><a href="http://big.test:0/">h</a>`
	base, _ := url.Parse("http://p.test/")
	p := Extract(base, []byte(html), Options{})
	var got []string
	for _, l := range p.Invalid {
		got = append(got, l.URL)
	}
	// Port 0 too: no server listens there (a trap trial's crawl made it a
	// second copy of a site).
	want := []string{"http://big.test:99999/", "http://[::1/", "http://bad host.test/", "HTTPS://:80/", "http://big.test:0/"}
	if !slices.Equal(got, want) {
		t.Errorf("Invalid = %q, want %q", got, want)
	}
	if len(p.Links) != 1 || p.Links[0].URL != "http://p.test/ok" {
		t.Errorf("Links = %+v, want the one good link", p.Links)
	}
}

// TestInvalidCapped: a page's unusable references are listed up to
// MaxInvalid (README: "up to 100 a page"), the good links all the same.
func TestInvalidCapped(t *testing.T) {
	var b strings.Builder
	for i := range MaxInvalid + 20 {
		fmt.Fprintf(&b, `<a href="http://big.test:%d/">x</a><a href="/ok%d">y</a>`, 70000+i, i)
	}
	base, _ := url.Parse("http://p.test/")
	p := Extract(base, []byte(b.String()), Options{})
	if len(p.Invalid) != MaxInvalid || MaxInvalid != 100 {
		t.Errorf("%d invalid references listed (MaxInvalid %d), want 100", len(p.Invalid), MaxInvalid)
	}
	if len(p.Links) != MaxInvalid+20 {
		t.Errorf("%d good links, want %d", len(p.Links), MaxInvalid+20)
	}
}
