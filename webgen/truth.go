package webgen

import (
	"net/http"
	"strings"
)

// Truth is what the server answers for one URL, for tests to compare a
// crawl against.
type Truth struct {
	URL string
	// Page is the graph page, or -1 for robots.txt, requisites, made-up
	// calendar months and unknown paths.
	Page int32
	// Status is the HTTP status the server answers with.
	Status int
	// Lang is the true language of the text ("" when not an HTML page).
	Lang string
	// Target reports whether Lang is the target language.
	Target bool
	// Disallowed reports whether robots.txt forbids the URL to every agent;
	// a host whose robots.txt answers 5xx forbids everything (RFC 9309
	// §2.3.1.4).
	Disallowed bool
	// Charset is the true encoding of an HTML body ("" otherwise), and Decl
	// how the page declares it.
	Charset string
	Decl    Decl
}

// Truth returns the truth for url. ok is false for hosts not in the graph
// and URLs that are not "http://host/..."; a known host with an unknown
// path has Status 404.
func (g *Graph) Truth(url string) (t Truth, ok bool) {
	if id, ok := g.Lookup(url); ok {
		return g.pageTruth(id), true
	}
	const scheme = "http://"
	if len(url) < len(scheme) || !strings.EqualFold(url[:len(scheme)], scheme) {
		return Truth{}, false
	}
	rest := url[len(scheme):]
	host, pq := rest, "/"
	if cut := strings.IndexAny(rest, "/?#"); cut >= 0 {
		host, pq = rest[:cut], rest[cut:]
	}
	si, ok := g.LookupHost(strings.TrimSuffix(host, ":80"))
	if !ok {
		return Truth{}, false
	}
	return g.extraTruth(si, url, pq), true
}

func (g *Graph) extraTruth(si int32, url, pq string) Truth {
	sv := &g.servers[si]
	t := Truth{URL: url, Page: -1, Status: http.StatusNotFound}
	switch pq {
	case "/robots.txt":
		t.Disallowed = false
		t.Status = http.StatusOK
		if sv.special != nil {
			switch sv.special.robots {
			case robots503:
				t.Status = http.StatusServiceUnavailable
			case robots404:
				t.Status = http.StatusNotFound
			}
		}
		return t
	case "/style.css", "/img/logo.png":
		t.Status = http.StatusOK
		return t
	}
	if sv.special != nil && sv.special.name == "calendar" {
		if _, _, ok := calendarPath(pq); ok {
			t.Status = http.StatusOK
			t.Lang, t.Target = g.p.TargetLang, true
			t.Charset, t.Decl = sv.charset, sv.decl
		}
	}
	if sv.special != nil && sv.special.robots == robotsPrivate && strings.HasPrefix(pq, "/private/") {
		t.Disallowed = true
	}
	return t
}

func (g *Graph) pageTruth(id int32) Truth {
	pi := g.Page(id)
	sv := &g.servers[pi.Server]
	t := Truth{URL: g.URL(id), Page: id, Status: pi.Status, Lang: pi.Lang, Target: pi.Target}
	if pi.Lang != "" {
		t.Charset, t.Decl = sv.charset, sv.decl
	}
	if sv.special != nil {
		t.Disallowed = g.spPages[id-g.firstSpecial].disallowed
	}
	return t
}

// TruthTable returns the truth for every page of the graph and, for every
// host, its /robots.txt, /style.css and /img/logo.png. It is meant for the
// demo web; for a simulator-sized graph use Truth per URL.
func (g *Graph) TruthTable() []Truth {
	out := make([]Truth, 0, len(g.pageServer)+3*len(g.servers))
	for i := range g.pageServer {
		out = append(out, g.pageTruth(int32(i)))
	}
	for si := range g.servers {
		base := "http://" + g.servers[si].host
		for _, p := range []string{"/robots.txt", "/style.css", "/img/logo.png"} {
			out = append(out, g.extraTruth(int32(si), base+p, p))
		}
	}
	return out
}
