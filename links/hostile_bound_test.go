package links

import (
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"testing"
)

// allocPerByte is the bytes f allocates, averaged over runs, per input byte.
func allocPerByte(n int, f func()) float64 {
	f()
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	const runs = 2
	for range runs {
		f()
	}
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc-a.TotalAlloc) / runs / float64(n)
}

// TestExtractEmptySegmentsBounded (from a review): the typical page allocates about 10 bytes per input byte
// (BenchmarkExtract50KB, BenchmarkHostileExtract/typical5MB). A page of
// 40 <a href> values of 30 KB of slashes (empty path segments), each
// under MaxAttrLen, goes to the WHATWG parser (fastResolve refuses "//"),
// whose path handling copies the path once per segment: quadratic.
func TestExtractEmptySegmentsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, "<a href=\"/%d%s\">x</a>\n", i, strings.Repeat("/", 30000))
	}
	page := []byte(b.String())
	pu, _ := url.Parse("http://example.com/")
	per := allocPerByte(len(page), func() { Extract(pu, page, Options{}) })
	if per > 100 {
		t.Errorf("Extract allocated %.0f bytes per input byte on %d bytes of long empty-segment hrefs; a typical page ~10", per, len(page))
	}
}

// TestExtractManySegmentsBounded (from a review): the same through a reference not plain enough for fastResolve (one
// non-ASCII byte), with ordinary 10-byte segments.
func TestExtractManySegmentsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, "<a href=\"/%d%sé\">x</a>\n", i, strings.Repeat("abcdefghi/", 3000))
	}
	page := []byte(b.String())
	pu, _ := url.Parse("http://example.com/")
	per := allocPerByte(len(page), func() { Extract(pu, page, Options{}) })
	if per > 100 {
		t.Errorf("Extract allocated %.0f bytes per input byte on %d bytes of many-segment hrefs; a typical page ~10", per, len(page))
	}
}

// TestStyleURLEmptySegmentsBounded (from a review): a <style> block's
// url() and a stylesheet's are not bounded by MaxAttrLen: one reference of
// 30 KB of slashes.
func TestStyleURLEmptySegmentsBounded(t *testing.T) {
	page := []byte("<style>body{background:url(/x" + strings.Repeat("/", 30000) + ")}</style>")
	pu, _ := url.Parse("http://example.com/")
	per := allocPerByte(len(page), func() { Extract(pu, page, Options{}) })
	if per > 100 {
		t.Errorf("Extract allocated %.0f bytes per input byte on a %d-byte <style> url(); a typical page ~10", per, len(page))
	}
}

// TestExtractCSSEmptySegmentsBounded (from a review): the same in a
// stylesheet.
func TestExtractCSSEmptySegmentsBounded(t *testing.T) {
	css := []byte("body{background:url(/x" + strings.Repeat("/", 30000) + ")}")
	base, _ := url.Parse("http://example.com/a.css")
	per := allocPerByte(len(css), func() { ExtractCSS(base, css, 0) })
	if per > 100 {
		t.Errorf("ExtractCSS allocated %.0f bytes per input byte on a %d-byte url(); a typical stylesheet far less", per, len(css))
	}
}

// TestRefsUnderBoundsBounded: references just under maxRefLen and
// maxRefSlashes, a page of them, stay within the same bound: the caps, not
// the refusal of extreme ones alone, bound the work. A reference over
// either bound is listed as unusable.
func TestRefsUnderBoundsBounded(t *testing.T) {
	seg := strings.Repeat("a", maxRefLen/maxRefSlashes-2) + "/"
	var b strings.Builder
	for i := range 200 {
		ref := fmt.Sprintf("/%d%s", i, strings.Repeat(seg, maxRefSlashes-1)) + "é"
		if len(ref) > maxRefLen {
			ref = ref[:maxRefLen-2] + "é"
		}
		fmt.Fprintf(&b, "<style>p{background:url(%s)}</style>\n", ref)
	}
	page := []byte(b.String())
	pu, _ := url.Parse("http://example.com/")
	got := Extract(pu, page, Options{})
	if len(got.Links) != 200 {
		t.Fatalf("%d links kept of 200 references under the bounds", len(got.Links))
	}
	if per := allocPerByte(len(page), func() { Extract(pu, page, Options{}) }); per > 100 {
		t.Errorf("Extract allocated %.0f bytes per input byte on references just under the bounds", per)
	}
	over := []byte(`<a href="/x` + strings.Repeat("/a", maxRefSlashes) + `%41">x</a>`)
	if p := Extract(pu, over, Options{}); len(p.Links) != 0 || len(p.Invalid) != 1 {
		t.Errorf("a reference over maxRefSlashes: links %v, invalid %v; want it listed as unusable", p.Links, p.Invalid)
	}
}
