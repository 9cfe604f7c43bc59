package politeness

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/langcrawl/langcrawl/internal/plainurl"
)

// rules is a robots.txt reduced to what applies to one product token.
type rules struct {
	// list holds our Allow and Disallow rules; empty means allow all.
	list []rule
	// crawlDelay is the largest Crawl-delay of the groups that apply, 0 if
	// none.
	crawlDelay time.Duration
}

// rule is one Allow or Disallow rule, its pattern normalised by
// rulePattern and split at its '*'s.
type rule struct {
	allow bool
	n     int      // octets of the pattern, '*' and '$' included: its specificity
	parts []string // the pattern split at '*'
	end   bool     // the pattern ends with '$'
}

func newRule(allow bool, pattern string) rule {
	r := rule{allow: allow, n: len(pattern)}
	if strings.HasSuffix(pattern, "$") {
		r.end, pattern = true, pattern[:len(pattern)-1]
	}
	r.parts = strings.Split(pattern, "*")
	return r
}

// match reports whether the rule matches path, a key of matchKey, from
// its start (RFC 9309 section 2.2.3): '*' stands for any run of octets, a
// final '$' for the end of the path, and every other octet for itself.
//
// The pieces between '*'s are found left to right, each at its first
// place after the one before: if any placement matches, this one does,
// as a piece found further right leaves less path for the pieces after
// it. So a check costs a substring search per piece, whatever the
// pattern. Google's reference matcher (grobotstxt.Matches, its Go port)
// keeps every position a '*' may have stopped at, and costs the path's
// length per pattern octet: on BenchmarkCheckHostileRobots (11,000
// wildcard rules against a 2,000-octet path) it took about 1.5 s a check,
// temoto/robotstxt's regular expressions, used before, 10 to 15 s, and
// this matcher 2 to 4 ms, in one run (BENCHMARKS.md). TestRuleMatchesGoogle and FuzzRuleMatchesGoogle
// hold this matcher to grobotstxt's answers.
func (r rule) match(path string) bool {
	first := r.parts[0]
	if !strings.HasPrefix(path, first) {
		return false
	}
	if len(r.parts) == 1 {
		return !r.end || len(path) == len(first)
	}
	i := len(first)
	for _, s := range r.parts[1 : len(r.parts)-1] {
		j := strings.Index(path[i:], s)
		if j < 0 {
			return false
		}
		i += j + len(s)
	}
	last := r.parts[len(r.parts)-1]
	if r.end {
		return len(path)-i >= len(last) && strings.HasSuffix(path, last)
	}
	return strings.Contains(path[i:], last)
}

// allowed reports whether the URL path (with query) p, as returned by
// matchKey, may be fetched: the rule with the most octets that matches
// decides, an Allow winning a tie (RFC 9309 section 2.2.2).
func (r rules) allowed(p string) bool {
	best, allow := -1, true
	for _, ru := range r.list {
		if ru.n < best || ru.n == best && allow || !ru.match(p) {
			continue
		}
		best, allow = ru.n, ru.allow
	}
	return allow
}

// specials encodes in a URL path the octets that are special in a rule,
// so that a rule's %2A and %24 match them (RFC 9309 section 2.2.3).
var specials = strings.NewReplacer("*", "%2A", "$", "%24")

// matchKey returns the URL path with query p (matchPath) as rules match
// it: normalised (normPath), '*' and '$' percent-encoded.
func matchKey(p string) string { return specials.Replace(normPath(p)) }

// rulePattern returns the path of an Allow or Disallow line as rules
// match it: normalised (normPath), starting with '/', and a '$' that does
// not end it percent-encoded, since only a final '$' is special.
func rulePattern(v string) string {
	p := normPath(v)
	// A pattern that starts with '*' matches the leading '/' already:
	// one added would count as an octet of the rule (RFC 9309 section
	// 2.2.2), which Google's matcher does not do either.
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "*") {
		p = "/" + p
	}
	if i := strings.IndexByte(p, '$'); i >= 0 && i < len(p)-1 {
		p = strings.ReplaceAll(p[:len(p)-1], "$", "%24") + p[len(p)-1:]
	}
	return p
}

// maxCrawlDelaySeconds keeps a huge Crawl-delay from overflowing
// time.Duration; Config.MaxCrawlDelay caps it far lower anyway.
const maxCrawlDelaySeconds = 1e6

// group is one group of a robots.txt file while it is pre-parsed.
type group struct {
	ours, star bool // names our product token; names "*"
	allow      []string
	disallow   []string
	delay      float64 // seconds, -1 if none
}

// parseRobots reads a robots.txt body leniently (RFC 9309 section 2.2) and
// returns the rules for product token. Lines it cannot use are skipped, as
// the RFC requires, instead of failing the whole file.
func parseRobots(body []byte, token string) (rules, error) {
	body = truncate(body)
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))

	var groups []*group
	var cur *group
	inAgents := false // the previous group line was a user-agent line
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key := strings.ToLower(string(bytes.TrimSpace(k)))
		val := string(bytes.TrimSpace(v))
		switch key {
		case "user-agent", "useragent", "user agent":
			if !inAgents {
				cur = &group{delay: -1}
				groups = append(groups, cur)
				inAgents = true
			}
			if strings.HasPrefix(val, "*") {
				cur.star = true
			} else if t := ProductToken(val); t != "" && t == token {
				cur.ours = true
			}
		case "allow", "disallow":
			inAgents = false
			if cur == nil || val == "" {
				continue
			}
			p := rulePattern(val)
			if key == "allow" {
				cur.allow = append(cur.allow, p)
			} else {
				cur.disallow = append(cur.disallow, p)
			}
		case "crawl-delay", "crawldelay":
			// Not part of RFC 9309: like any other record, it must not end
			// the run of user-agent lines (section 2.2.4).
			if cur == nil {
				continue
			}
			d, err := strconv.ParseFloat(val, 64)
			if err != nil || d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
				continue
			}
			cur.delay = max(cur.delay, min(d, maxCrawlDelaySeconds))
		}
	}

	// RFC 9309 section 2.2.1: obey the groups that name our product token,
	// combined; failing that the "*" groups, combined; failing that, none.
	var use []*group
	for _, g := range groups {
		if g.ours {
			use = append(use, g)
		}
	}
	if len(use) == 0 {
		for _, g := range groups {
			if g.star {
				use = append(use, g)
			}
		}
	}

	var r rules
	delay := -1.0
	for _, g := range use {
		for _, p := range g.allow {
			r.list = append(r.list, newRule(true, p))
		}
		for _, p := range g.disallow {
			r.list = append(r.list, newRule(false, p))
		}
		delay = max(delay, g.delay)
	}
	if delay > 0 {
		r.crawlDelay = time.Duration(delay * float64(time.Second))
	}
	if cap(r.list) > len(r.list)+len(r.list)/8 {
		// The list is kept for as long as the cache holds it: not the
		// up to half again its appends left spare.
		r.list = slices.Clone(r.list)
	}
	return r, nil
}

// truncate cuts body to MaxRobotsSize, back to the last line break so that
// no rule is cut in half. A body of MaxRobotsSize bytes is cut too: it is
// what the crawl's fetcher and a Store keep of a longer one.
func truncate(body []byte) []byte {
	if len(body) < MaxRobotsSize {
		return body
	}
	body = body[:MaxRobotsSize]
	if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
		body = body[:i]
	}
	return body
}

// normPath normalises the percent-encoding of a rule path or a URL path
// with query, so that the two compare octet by octet (RFC 9309 section
// 2.2.2): %-escapes of unreserved characters are decoded, other escapes are
// upper-cased, and octets that are not allowed in a URI path or query are
// percent-encoded. '*' and '$' are kept.
func normPath(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '%' || !keep(c) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if v, ok := plainurl.Escape(s, i); ok {
			plainurl.WriteNormalEscape(&b, v)
			i += 2
		} else if c != '%' && keep(c) {
			b.WriteByte(c)
		} else {
			plainurl.WriteEscape(&b, c)
		}
	}
	return b.String()
}

// keep reports whether c stands for itself in a normalised path.
func keep(c byte) bool { return keepTable[c] }

var keepTable = func() (t [256]bool) {
	for c := range 256 {
		t[c] = plainurl.Unreserved(byte(c)) || strings.IndexByte("!$&'()*+,;=:@/?", byte(c)) >= 0
	}
	return t
}()
