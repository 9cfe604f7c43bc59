package politeness

import (
	"strings"
	"testing"
	"time"
)

// parseOrFail is parseRobots for langcrawl's token, failing the test on an
// error.
func parseOrFail(t *testing.T, body string) rules {
	t.Helper()
	r, err := parseRobots([]byte(body), "langcrawl")
	if err != nil {
		t.Fatalf("parseRobots(%q): %v", body, err)
	}
	return r
}

// TestCrawlDelayInsideAgentLines (from an RFC 9309 review; section
// 2.2.4): a record outside the protocol "MUST NOT interfere with the
// parsing of explicitly defined records"; the RFC's example is a Sitemap
// line, which langcrawl already skipped, but a Crawl-delay line ended the
// run of user-agent lines, so a user-agent line after it began a group of
// its own and langcrawl lost the group's rules. Google's reference parser
// ends a run of user-agent lines only at an Allow or Disallow line. An
// author may have meant two groups; the reading taken is the RFC's, and
// the more cautious one for us: both the delay and the rules apply.
func TestCrawlDelayInsideAgentLines(t *testing.T) {
	tests := []struct{ body, path string }{
		// Without the Crawl-delay line, langcrawl and * share one group
		// (empty lines do not end it: section 2.2), whose Disallow: /admin
		// applies to langcrawl.
		{"User-agent: langcrawl\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /admin\n", "/admin/users"},
		{"User-agent: langcrawl\nCrawl-delay: 5\nUser-agent: other\nDisallow: /x\n", "/x"},
	}
	for _, tt := range tests {
		r := parseOrFail(t, tt.body)
		if allowedPath(t, r, tt.path) {
			t.Errorf("%q: %s allowed, want disallowed: the Crawl-delay line split the group", tt.body, tt.path)
		}
		if r.crawlDelay == 0 {
			t.Errorf("%q: Crawl-delay of langcrawl's group lost", tt.body)
		}
	}
}

// TestEncodedSpecialCharactersMatchLiterally (from an RFC 9309 review) is
// the table of RFC 9309 section 2.2.3: to match '*' or '$' in a URI
// verbatim, a rule encodes them as %2A and %24. langcrawl kept %2A and %24
// escaped (reserved characters) but compared them with the literal '*' and
// '$' of the URL, so these rules never matched.
func TestEncodedSpecialCharactersMatchLiterally(t *testing.T) {
	tests := []struct{ rule, path string }{
		{"/path/file-with-a-%2A.html", "/path/file-with-a-*.html"},
		{"/path/foo-%24", "/path/foo-$"},
	}
	for _, tt := range tests {
		r := parseOrFail(t, "User-agent: *\nDisallow: "+tt.rule+"\n")
		if allowedPath(t, r, tt.path) {
			t.Errorf("Disallow: %s: %s allowed, want disallowed (RFC 9309 2.2.3)", tt.rule, tt.path)
		}
	}
}

// TestDollarOnlyAtEndIsSpecial (from an RFC 9309 review; section 2.2.3:
// "$ designates the end of the match pattern"; Google's parser treats a
// '$' elsewhere as itself). temoto/robotstxt, used before, turned every '$'
// into a regexp end anchor, so a rule with '$' inside matched nothing.
func TestDollarOnlyAtEndIsSpecial(t *testing.T) {
	r := parseOrFail(t, "User-agent: *\nDisallow: /cgi$bin\n")
	for _, p := range []string{"/cgi$bin", "/cgi$bin/run"} {
		if allowedPath(t, r, p) {
			t.Errorf("Disallow: /cgi$bin: %s allowed, want disallowed", p)
		}
	}
}

// TestLongestMatchByOctets (from an RFC 9309 review; section 2.2.2: "the
// most specific match ... has the most octets"; an equivalent Allow wins).
// temoto, used before, measured a wildcard rule by the length of the
// regular expression it compiled ("/a*c" becomes `/\^/a.*c`, 9 bytes against 7 for "/^/abcd"),
// so a shorter wildcard rule beats a longer plain one. In each case both
// the rule's octets and the octets it matches agree on the answer.
func TestLongestMatchByOctets(t *testing.T) {
	tests := []struct {
		body, path string
		allowed    bool
	}{
		// Disallow /abcd: 5 octets; Allow /a*c: 4 (and matches "/abc").
		{"User-agent: *\nDisallow: /abcd\nAllow: /a*c\n", "/abcde", false},
		// Equivalent rules: 4 octets each, matching "/abc" each: Allow wins.
		{"User-agent: *\nAllow: /abc\nDisallow: /a*c\n", "/abcd", true},
		// Google's reference parser (pattern length): /private/ (9)
		// beats /*.css (6).
		{"User-agent: *\nDisallow: /private/\nAllow: /*.css\n", "/private/a.css", false},
	}
	for _, tt := range tests {
		r := parseOrFail(t, tt.body)
		if got := allowedPath(t, r, tt.path); got != tt.allowed {
			t.Errorf("%q: %s allowed = %v, want %v", tt.body, tt.path, got, tt.allowed)
		}
	}
}

// TestStoredRobotsCutAtLimit (from an RFC 9309 review; section 2.5;
// TestParseRobotsTruncates says a rule cut in half at MaxRobotsSize is
// dropped, not shortened). The gate stores the first MaxRobotsSize bytes
// of a longer body; after a restart the stored body is parsed again, and,
// being no longer than the limit, was not cut back to its last line break: "Allow: /secret-archive"
// cut to "Allow: /s" is obeyed and lets /secret past "Disallow: /".
func TestStoredRobotsCutAtLimit(t *testing.T) {
	body := straddlingRobots("Allow: /secret-archive\n", "Allow: /s")
	st := &memStore{m: map[string]Record{}}
	f := fixed(200, body, nil)
	g := newGate(t, Config{Store: st}, f.fetch)
	if d := check(t, g, "http://a.example/secret", t0); d.Allowed {
		t.Fatalf("before the restart: /secret allowed (%s)", d.Reason)
	}
	g2 := newGate(t, Config{Store: st}, f.fetch) // the restart
	if d := check(t, g2, "http://a.example/secret", t0.Add(time.Hour)); d.Allowed {
		t.Errorf("after a restart: /secret allowed by the half rule the store kept (%s)", d.Reason)
	}
}

// straddlingRobots returns a robots.txt longer than MaxRobotsSize that
// disallows everything and has line at the limit, cut there to prefix.
func straddlingRobots(line, prefix string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /\n")
	for b.Len() < MaxRobotsSize-len(prefix)-40 {
		b.WriteString("# padding padding padding\n")
	}
	b.WriteString(strings.Repeat("#", MaxRobotsSize-len(prefix)-b.Len()-1) + "\n")
	b.WriteString(line)
	b.WriteString("# more\n")
	return b.String()
}
