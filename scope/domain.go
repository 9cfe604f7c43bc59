package scope

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// RegisteredDomain returns the registered domain of host: its public suffix plus one
// label ("www.example.co.th" -> "example.co.th"), from the Public Suffix List in
// golang.org/x/net/publicsuffix, private section included (so "a.blogspot.com" is its
// own domain). Hosts under a suffix the list does not know get the default rule "*":
// "a.b.test" -> "b.test".
//
// Fallback: for an IP address, a single-label host ("localhost"), a host that is itself
// a public suffix ("co.uk"), or anything else the list rejects, the result is the host
// itself. The host is lowercased; a port and a trailing dot are removed first.
func RegisteredDomain(host string) string {
	h := normHost(host)
	if h == "" || isIP(h) {
		return h
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(h)
	if err != nil {
		return h
	}
	return d
}

// Internal reports whether host belongs to the site tree of treeDomain (Nakahira et al.
// 2008, section 2.1): it equals treeDomain or is a subdomain of it. treeDomain is usually
// RegisteredDomain of the tree's starting URL. Both are compared lowercase, without port
// or trailing dot. An IP address matches only itself; an empty treeDomain matches nothing.
func Internal(treeDomain, host string) bool {
	t, h := normHost(treeDomain), normHost(host)
	if t == "" || h == "" {
		return false
	}
	if h == t {
		return true
	}
	if isIP(t) || isIP(h) {
		return false
	}
	return len(h) > len(t) && strings.HasSuffix(h, t) && h[len(h)-len(t)-1] == '.'
}

// SiteKey is the key of the politeness queue for u: the lowercase host, with the port
// only when it is not the scheme's default ("example.com", "example.com:8080", "[::1]:81").
// A host's trailing dot is left out: "example.com." is the same server, and
// must not be a second site with a politeness queue of its own.
func SiteKey(u *url.URL) string {
	h := strings.ToLower(u.Host)
	port := u.Port()
	switch {
	case port == "" && strings.HasSuffix(h, ":"):
		h = h[:len(h)-1] // "host:" has an empty port
	case port != "" && port == defaultPort(u.Scheme):
		h = h[:len(h)-len(port)-1]
	}
	if port != "" && strings.HasSuffix(h, ":"+port) {
		return strings.TrimSuffix(h[:len(h)-len(port)-1], ".") + ":" + port
	}
	return strings.TrimSuffix(h, ".")
}

// DirKey is the directory granularity of Tamura et al. (2007), section 4.3: SiteKey plus
// the first path segment and "/", or SiteKey plus "/" when the path has a single segment.
//
//	http://www.xsp.com/user1/whatsnew.html    -> www.xsp.com/user1/
//	http://www.xsp.com/user2/diary/index.htm  -> www.xsp.com/user2/
//	http://www.xsp.com/about.html             -> www.xsp.com/
//
// The segment is taken as escaped in the URL.
func DirKey(u *url.URL) string {
	site := SiteKey(u)
	p := strings.TrimPrefix(u.EscapedPath(), "/")
	i := strings.IndexByte(p, '/')
	if i < 0 {
		return site + "/"
	}
	return site + "/" + p[:i+1]
}

// QueryKey returns the key of the one-crawl-per-script rule (Nakahira et al. 2008,
// section 2.2): scheme://host/path without the query, for a URL that has a query
// (an empty one, "?", included), and "" for a URL without one. The engine marks the key
// as seen when it crawls a query URL and skips further query URLs with the same key.
// The host is as SiteKey gives it.
func QueryKey(u *url.URL) string {
	if u.RawQuery == "" && !u.ForceQuery {
		return ""
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	return u.Scheme + "://" + SiteKey(u) + p
}

func defaultPort(scheme string) string {
	switch scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// normHost lowercases h and strips a port, IPv6 brackets and a trailing dot.
func normHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if strings.HasPrefix(h, "[") {
		if i := strings.IndexByte(h, ']'); i > 0 {
			return h[1:i]
		}
		return h
	}
	if strings.Count(h, ":") == 1 {
		h = h[:strings.IndexByte(h, ':')]
	}
	return strings.TrimSuffix(h, ".")
}

func isIP(h string) bool { return net.ParseIP(h) != nil }
