package politeness

import (
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// TestLeadingStarRuleOctets (from a review of the session's diff): a rule that starts with '*'
// ("Disallow: *.gif", common in real files) has the octets written, five
// here; rulePattern's added '/' made it six, so it outranked an Allow of
// five octets that matches as well, and the page was refused. RFC 9309
// section 2.2.2 counts the rule's octets, an equivalent Allow wins, and
// Google's matcher (which adds no '/') allows it.
func TestLeadingStarRuleOctets(t *testing.T) {
	const body = "User-agent: *\nAllow: /x.gi\nDisallow: *.gif\n"
	if !grobotstxt.AgentAllowed(body, "langcrawl", "http://example.com/x.gif") {
		t.Fatal("grobotstxt refuses /x.gif: the case is not what this test says")
	}
	if !allowedPath(t, parseOrFail(t, body), "/x.gif") {
		t.Errorf("%q: /x.gif refused; the Allow of 5 octets ties the Disallow of 5 and wins (Google allows it)", body)
	}
	// And the other way: a '*' rule of six octets outranks a five-octet Allow.
	const body2 = "User-agent: *\nAllow: /x.gi\nDisallow: **.gif\n"
	if grobotstxt.AgentAllowed(body2, "langcrawl", "http://example.com/x.gif") {
		t.Fatal("grobotstxt allows /x.gif under body2")
	}
	if allowedPath(t, parseOrFail(t, body2), "/x.gif") {
		t.Errorf("%q: /x.gif allowed; the Disallow has more octets", body2)
	}
}
