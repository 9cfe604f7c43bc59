package crawl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/scope"
)

// The engine's defaults as the command line sets them: depth 8,
// 10,000 pages a site, one query URL per script.
func variantConfig(queryRule bool) Config {
	return Config{Scope: scope.Decider{MaxDepth: 8, QueryRule: queryRule}, MaxPagesPerSite: 10000}
}

func sid(n int) string { return fmt.Sprintf("%032X", n) }

// TestPathSessionIDTrapBounded (from a URL-variant review): a Java site
// whose container rewrites every link with a ;jsessionid= path parameter
// and mints a fresh session on each request (the crawler keeps no
// cookies; a weeks-long crawl finds every queued id expired) serves its
// three pages under a new URL at every link. Before, nothing but the
// depth limit and max_pages_per_site bounded it: 510 fetches of two pages
// here at depth 8, about 10,000 a site on the open web, every body
// different (its links differ), so none became a revisit. Heritrix's
// default StripSessionIDs rule makes them one URL for its seen test.
func TestPathSessionIDTrapBounded(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "/a.jsp;jsessionid="+sid(2), "/b.jsp;jsessionid="+sid(3))}
	for k := 2; k < 1<<12; k++ {
		p := "/a.jsp"
		if k%2 == 1 {
			p = "/b.jsp"
		}
		web["http://a.test"+p+";jsessionid="+sid(k)] = page("th", "/a.jsp;jsessionid="+sid(2*k), "/b.jsp;jsessionid="+sid(2*k+1))
	}
	h := newHarness(t, web, variantConfig(true), "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	if a, b := h.fetchedUnder("http://a.test/a.jsp"), h.fetchedUnder("http://a.test/b.jsp"); a != 1 || b != 1 {
		t.Errorf("a page under fresh ;jsessionid= ids: /a.jsp fetched %d times, /b.jsp %d times, want 1 each", a, b)
	}
}

// TestQuerySessionIDTrapBounded (from a URL-variant review): the same trap in the query
// (?PHPSESSID=, as PHP's session.use_trans_sid writes it) with
// one_query_per_script off, as an operator who wants a CMS's
// page.php?id=N sets it. Before: 510 fetches of two pages. PHP 7.1 and
// later mint 26-character ids (session.sid_length), which Heritrix's
// 32-character pattern misses; the name alone says session.
func TestQuerySessionIDTrapBounded(t *testing.T) {
	id := func(n int) string { return fmt.Sprintf("%026x", n) }
	web := fakeWeb{"http://a.test/": page("th", "/a.php?id=1&PHPSESSID="+id(2), "/b.php?PHPSESSID="+id(3))}
	for k := 2; k < 1<<12; k++ {
		p := "/a.php?id=1&PHPSESSID="
		if k%2 == 1 {
			p = "/b.php?PHPSESSID="
		}
		web["http://a.test"+p+id(k)] = page("th", "/a.php?id=1&PHPSESSID="+id(2*k), "/b.php?PHPSESSID="+id(2*k+1))
	}
	h := newHarness(t, web, variantConfig(false), "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	if a, b := h.fetchedUnder("http://a.test/a.php"), h.fetchedUnder("http://a.test/b.php"); a != 1 || b != 1 {
		t.Errorf("a page under fresh PHPSESSID ids: /a.php fetched %d times, /b.php %d times, want 1 each", a, b)
	}
}

// TestSpellingsFetchedOnce (from a URL-variant review): links that name
// one resource in spellings RFC 3986 (section 6.2.2) or Heritrix's
// default canonicalization rules make equal are fetched once; the first
// spelling met is the one fetched and archived (WARC-Target-URI as the
// page wrote it). Before, each spelling was a fetch of its own: the bytes
// and the request spent again, a revisit record at best.
func TestSpellingsFetchedOnce(t *testing.T) {
	groups := [][]string{
		{"/~u/a.html", "/%7eu/a.html", "/%7Eu/a.html"}, // escaped unreserved, hex case
		{"/b/B.html", "/b/%42.html"},                   // escaped letter
		{"/c/%c3%a9.html", "/c/%C3%A9.html"},           // hex case of a needed escape
		{"/g.html", "/g.html?"},                        // empty query (FixupQueryString)
		{"/h.html?x=%7e", "/h.html?x=~"},               // the same in the query
		{"http://a.test/w.html", "http://www.a.test/w.html", "http://www1.a.test/w.html"}, // StripWWWNRule
		{"/j.jsp", "/j.jsp;jsessionid=" + sid(7)},                                         // StripSessionIDs
		{"/k.php?id=3", "/k.php?id=3&PHPSESSID=" + sid(8), "/k.php?PHPSESSID=" + sid(9) + "&id=3"},
		{"/l.cfm?id=3", "/l.cfm?CFID=123&CFTOKEN=456&id=3"}, // StripSessionCFIDs
	}
	var links []string
	web := fakeWeb{}
	for _, g := range groups {
		for _, l := range g {
			links = append(links, l)
			u := l
			if strings.HasPrefix(l, "/") {
				u = "http://a.test" + l
			}
			web[u] = page("th")
		}
	}
	web["http://a.test/"] = page("th", links...)
	h := newHarness(t, web, variantConfig(false), "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		n := 0
		var got []string
		for _, l := range g {
			u := l
			if strings.HasPrefix(l, "/") {
				u = "http://a.test" + l
			}
			for _, f := range h.f.got {
				if f == u {
					n++
					got = append(got, f)
				}
			}
		}
		if n != 1 {
			t.Errorf("one resource in %d spellings %q: fetched %d times %q, want once", len(g), g, n, got)
		}
	}
}

// TestVariantRedirectFollowed (from a URL-variant review): a redirect to another spelling of the
// URL that redirects (Tomcat's encodeRedirectURL adding ;jsessionid=,
// a bare host sending to www.) is followed all the same, as Heritrix
// forces the fetch of a redirect whose canonical form is its via's: the
// page is there only.
func TestVariantRedirectFollowed(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":                               page("th", "/login.jsp", "http://b.test/x.html"),
		"http://a.test/login.jsp":                      redirectTo("http://a.test/login.jsp;jsessionid=" + sid(1)),
		"http://a.test/login.jsp;jsessionid=" + sid(1): page("th"),
		"http://b.test/x.html":                         redirectTo("http://www.b.test/x.html"),
		"http://www.b.test/x.html":                     page("th"),
	}
	h := newHarness(t, web, variantConfig(true), "http://a.test/")
	if _, err := h.run(); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://a.test/login.jsp;jsessionid=" + sid(1), "http://www.b.test/x.html"} {
		if !h.fetched(u) {
			t.Errorf("%s, where its other spelling redirected, not fetched", u)
		}
	}
}
