package webgen

import (
	"fmt"
	"strconv"
	"strings"
)

// pageKind is how the server answers for a special page.
type pageKind uint8

const (
	kindHTML      pageKind = iota
	kindRedirect           // status 301/302 with Location
	kindMissing            // 404
	kindEndless            // a body that never ends
	kindMalformed          // unclosed tags and garbage bytes
	kindChunked            // Transfer-Encoding: chunked
	kindGzip               // Content-Encoding: gzip
	kindCalendar           // /calendar/YYYY/MM/ linking to the next month, forever
)

// robotsKind is what a host answers for /robots.txt.
type robotsKind uint8

const (
	robotsAllow   robotsKind = iota // 200, allow everything
	robotsPrivate                   // 200, Disallow: /private/
	robotsDelay                     // 200, Crawl-delay: 1
	robots503                       // 503 twice (Retry-After: 1), then allow all: RFC 9309 §2.3.1.4, wait and retry
	robots404                       // 404: RFC 9309 §2.3.1.3, allow everything
)

type specServer struct {
	name   string
	robots robotsKind
	slow   bool
}

type specPage struct {
	path       string
	lang       string
	status     int
	kind       pageKind
	location   int32 // redirect destination page, or -1
	disallowed bool
	links      []int32
	raw        []string // hrefs that are not pages (broken URLs)
}

type specPageDef struct {
	path   string
	kind   pageKind
	status int
	to     string // redirect destination: a path on the same host or an absolute URL
	links  []string
	raw    []string
}

type specServerDef struct {
	name, host, charset string
	decl                Decl
	robots              robotsKind
	slow                bool
	pages               []specPageDef
}

func htmlPage(path string, links ...string) specPageDef {
	return specPageDef{path: path, kind: kindHTML, status: 200, links: links}
}

func redirect(path string, status int, to string) specPageDef {
	return specPageDef{path: path, kind: kindRedirect, status: status, to: to}
}

// specialServers are the demo special cases, documented in doc.go. Every
// host is under the reserved .test TLD (RFC 2606).
var specialServers = func() []specServerDef {
	query := specPageDef{path: "/", kind: kindHTML, status: 200, links: []string{"/list.php?id=1"}}
	defs := []specServerDef{
		{name: "robots-private", host: "th-robots.test", charset: "tis-620", decl: DeclHeaderMeta, robots: robotsPrivate, pages: []specPageDef{
			htmlPage("/", "/a.html", "/private/1.html", "/private/2.html"),
			htmlPage("/a.html", "/", "/private/1.html"),
			htmlPage("/private/1.html", "/private/2.html"),
			htmlPage("/private/2.html", "/"),
		}},
		{name: "crawl-delay", host: "th-crawldelay.test", charset: "utf-8", decl: DeclHeaderMeta, robots: robotsDelay, pages: []specPageDef{
			htmlPage("/", "/1.html"), htmlPage("/1.html", "/2.html"), htmlPage("/2.html", "/3.html"), htmlPage("/3.html", "/"),
		}},
		{name: "robots-503", host: "th-robots503.test", charset: "utf-8", decl: DeclHeaderMeta, robots: robots503, pages: []specPageDef{
			htmlPage("/", "/1.html"), htmlPage("/1.html", "/"),
		}},
		{name: "robots-404", host: "th-norobots.test", charset: "windows-874", decl: DeclMeta, robots: robots404, pages: []specPageDef{
			htmlPage("/", "/1.html", "/2.html"), htmlPage("/1.html", "/"), htmlPage("/2.html", "/1.html"),
		}},
		{name: "redirects", host: "th-redirect.test", charset: "utf-8", decl: DeclHeaderMeta, pages: []specPageDef{
			htmlPage("/", "/r301", "/r302", "/chain1", "/loop1", "/nope.html", "/broken.html", "/offsite"),
			redirect("/r301", 301, "/target1.html"),
			redirect("/r302", 302, "/target2.html"),
			redirect("/chain1", 301, "/chain2"),
			redirect("/chain2", 302, "/final.html"),
			redirect("/loop1", 302, "/loop2"),
			redirect("/loop2", 302, "/loop1"),
			redirect("/offsite", 301, "http://th-norobots.test/2.html"),
			{path: "/nope.html", kind: kindMissing, status: 404},
			{path: "/broken.html", kind: kindHTML, status: 200, links: []string{"/"}, raw: []string{"http://[::1", "http://bad host/"}},
			htmlPage("/target1.html", "/"), htmlPage("/target2.html", "/"), htmlPage("/final.html", "/"),
		}},
		{name: "query", host: "th-query.test", charset: "utf-8", decl: DeclHeaderMeta, pages: []specPageDef{query}},
		{name: "calendar", host: "th-calendar.test", charset: "utf-8", decl: DeclHeaderMeta, pages: []specPageDef{
			htmlPage("/", "/calendar/2026/11/"),
			{path: "/calendar/2026/11/", kind: kindCalendar, status: 200},
		}},
		{name: "slow", host: "th-slow.test", charset: "utf-8", decl: DeclHeaderMeta, slow: true, pages: []specPageDef{
			htmlPage("/", "/1.html", "/2.html"), htmlPage("/1.html", "/"), htmlPage("/2.html", "/"),
		}},
		{name: "odd", host: "th-odd.test", charset: "utf-8", decl: DeclHeaderMeta, pages: []specPageDef{
			htmlPage("/", "/endless", "/malformed.html", "/chunked.html", "/gzip.html"),
			{path: "/endless", kind: kindEndless, status: 200},
			{path: "/malformed.html", kind: kindMalformed, status: 200, links: []string{"/", "/chunked.html"}},
			{path: "/chunked.html", kind: kindChunked, status: 200, links: []string{"/", "/gzip.html"}},
			{path: "/gzip.html", kind: kindGzip, status: 200, links: []string{"/"}},
		}},
	}
	// th-query.test: /list.php?id=1..50 all link each other.
	const nList = 50
	q := &defs[5]
	for i := 1; i <= nList; i++ {
		pd := specPageDef{path: "/list.php?id=" + strconv.Itoa(i), kind: kindHTML, status: 200}
		for j := 1; j <= nList; j++ {
			if j != i {
				pd.links = append(pd.links, "/list.php?id="+strconv.Itoa(j))
			}
		}
		q.pages = append(q.pages, pd)
	}
	return defs
}()

// addSpecialServers appends the special hosts and their pages, page ids
// starting at first.
func (g *Graph) addSpecialServers(first int64) {
	g.spIndex = make(map[string]int32)
	id := int32(first)
	for _, d := range specialServers {
		sv := server{
			host: d.host, lang: 0, target: true, decl: d.decl, charset: d.charset, first: id,
			special: &specServer{name: d.name, robots: d.robots, slow: d.slow},
		}
		for _, pd := range d.pages {
			sp := specPage{path: pd.path, status: pd.status, kind: pd.kind, location: -1}
			switch pd.kind {
			case kindHTML, kindMalformed, kindChunked, kindGzip, kindCalendar:
				sp.lang = g.p.TargetLang
			}
			sp.disallowed = d.robots == robotsPrivate && strings.HasPrefix(pd.path, "/private/")
			sp.raw = pd.raw
			g.spIndex[d.host+pd.path] = id
			g.spPages = append(g.spPages, sp)
			id++
		}
		sv.nPrimary = id - sv.first
		g.hosts[d.host] = int32(len(g.servers))
		g.servers = append(g.servers, sv)
	}
	// Resolve links and redirects now that every special page has an id.
	resolve := func(host, ref string) int32 {
		key := host + ref
		if u, ok := strings.CutPrefix(ref, "http://"); ok {
			key = u
		}
		t, ok := g.spIndex[key]
		if !ok {
			panic(fmt.Sprintf("webgen: special link %q on %s has no page", ref, host))
		}
		return t
	}
	k := 0
	for _, d := range specialServers {
		for _, pd := range d.pages {
			sp := &g.spPages[k]
			for _, l := range pd.links {
				sp.links = append(sp.links, resolve(d.host, l))
			}
			if pd.kind == kindRedirect {
				sp.location = resolve(d.host, pd.to)
				sp.links = []int32{sp.location}
			}
			k++
		}
	}
}

// calendarPath parses /calendar/YYYY/MM/ (years 2000–9999).
func calendarPath(p string) (year, month int, ok bool) {
	rest, ok := strings.CutPrefix(p, "/calendar/")
	if !ok || len(rest) != 8 || rest[4] != '/' || rest[7] != '/' {
		return 0, 0, false
	}
	y, err1 := strconv.Atoi(rest[:4])
	m, err2 := strconv.Atoi(rest[5:7])
	if err1 != nil || err2 != nil || y < 2000 || m < 1 || m > 12 || rest[0] == '+' || rest[0] == '-' || rest[5] == '+' || rest[5] == '-' {
		return 0, 0, false
	}
	return y, m, true
}

func calendarNext(y, m int) string {
	m++
	if m > 12 {
		y, m = y+1, 1
	}
	if y > 9999 {
		return "/calendar/2000/01/"
	}
	return fmt.Sprintf("/calendar/%04d/%02d/", y, m)
}
