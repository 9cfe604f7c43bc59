package scope

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/langcrawl/langcrawl/internal/plainurl"
)

// SeenKey returns the key under which the crawl's seen set holds the
// canonical URL u: u itself, with what names the same resource in
// another spelling made one, so that the resource is fetched once
// however the pages that link to it spell it. The URL fetched and
// archived (WARC-Target-URI) stays u, the spelling the crawl met first;
// only the duplicate test reads the key. Heritrix does the same with its
// canonicalization rules (RulesCanonicalizationPolicy, whose defaults are
// LowercaseRule, StripUserinfoRule, StripWWWNRule, StripSessionIDs,
// StripSessionCFIDs and FixupQueryString).
//
// The key:
//   - decodes percent-escapes of unreserved characters (%7E is "~", %41
//     "A") and writes the other escapes in upper case (%c3 is %C3), in
//     path and query: equal by RFC 3986, section 6.2.2;
//   - drops an empty query ("/a?" is "/a"), as FixupQueryString;
//   - drops session ids, which a server mints afresh for a crawler that
//     keeps no cookies, a new URL at every link: a ";jsessionid=" path
//     parameter and a jsessionid or PHPSESSID query parameter whatever
//     their value (the Servlet and PHP names say session; PHP 7.1 ids are
//     26 characters, which Heritrix's 32-character pattern misses),
//     "sid" with a 32-character value, ASPSESSIONIDxxxxxxxx and
//     ColdFusion's CFID with CFTOKEN, as StripSessionIDs and
//     StripSessionCFIDs; and the empty parameters left ("a=1&&b=2");
//   - drops a leading "www." or "wwwN." of the host unless the URL is a
//     host's home page, as StripWWWNRule: the home page is fetched
//     under both names, so a site served under one of them only is not
//     lost.
//
// It does not lowercase the path (Heritrix's LowercaseRule does: most
// servers tell /A.html from /a.html), sort the query, or equate
// "/d/" with "/d/index.html", "/t" with "/t/", http with https, or a
// URL with and without utm_ parameters: those can name other resources,
// and Heritrix's defaults do not equate them either, but case.
//
// A redirect from one spelling to another is followed all the same (the
// engine's, as Heritrix forces such a fetch): a server that adds a session
// id to where it sends, or sends a bare host to www., serves the page there
// only.
func SeenKey(u *url.URL) string {
	path := normEscapes(u.EscapedPath())
	if path == "" {
		path = "/"
	}
	if strings.Contains(path, ";") {
		path = pathSessionID.ReplaceAllString(path, "")
	}
	q := ""
	if u.RawQuery != "" {
		q = stripQuerySessions(normEscapes(u.RawQuery))
	}
	host := u.Host
	if path != "/" || q != "" {
		host = stripWWW(host)
	}
	k := u.Scheme + "://" + host + path
	if q != "" {
		k += "?" + q
	}
	return k
}

var (
	pathSessionID = regexp.MustCompile(`(?i);jsessionid=[^;/]*`)
	sid32         = regexp.MustCompile(`^[0-9a-zA-Z]{32}$`)
	aspName       = regexp.MustCompile(`(?i)^aspsessionid[a-z]{8}$`)
	aspValue      = regexp.MustCompile(`^[a-zA-Z]{24}$`)
)

// stripWWW drops a leading "www." or "wwwN." of the canonical (lower-case)
// host, unless what is left holds no dot ("www.test" is the name itself).
// By hand, not by a regular expression: it runs for every link, and the
// expression cost a microsecond.
func stripWWW(host string) string {
	if !strings.HasPrefix(host, "www") {
		return host
	}
	i := 3
	for i < len(host) && '0' <= host[i] && host[i] <= '9' {
		i++
	}
	if i < len(host) && host[i] == '.' && strings.Contains(host[i+1:], ".") {
		return host[i+1:]
	}
	return host
}

// stripQuerySessions drops the session-id parameters and the empty ones
// of the query q, keeping the others in their order.
func stripQuerySessions(q string) string {
	params := strings.Split(q, "&")
	cf := false
	for _, p := range params {
		if n, _, _ := strings.Cut(p, "="); strings.EqualFold(n, "cftoken") {
			cf = true
		}
	}
	kept := params[:0]
	for _, p := range params {
		n, v, _ := strings.Cut(p, "=")
		switch ln := strings.ToLower(n); {
		case p == "":
		case ln == "jsessionid", ln == "phpsessid":
		case ln == "sid" && sid32.MatchString(v):
		case aspName.MatchString(n) && aspValue.MatchString(v):
		case cf && (ln == "cfid" || ln == "cftoken"):
		default:
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "&")
}

// normEscapes decodes the percent-escapes of unreserved characters in s
// and upper-cases the hex digits of the others (RFC 3986, 6.2.2.1 and
// 6.2.2.2).
func normEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if c, ok := plainurl.Escape(s, i); ok {
			plainurl.WriteNormalEscape(&b, c)
			i += 2
		} else {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
