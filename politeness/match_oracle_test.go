package politeness

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// TestRuleMatchesGoogle holds the rule matcher to Google's reference
// matcher (grobotstxt.Matches, its Go port) on every pattern and path of a
// small alphabet that rulePattern and matchKey can give: '*' anywhere in a
// pattern and '$' only at its end, none in a path (matchKey encodes them).
// The matcher is ours for speed (rule.match); the answers must be
// Google's.
func TestRuleMatchesGoogle(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 2022))
	const alpha = "ab/"
	word := func(n int, stars bool) string {
		var b strings.Builder
		b.WriteByte('/')
		for range n {
			if stars && rng.IntN(4) == 0 {
				b.WriteByte('*')
				continue
			}
			b.WriteByte(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	checked, matched := 0, 0
	for range 200000 {
		pattern := word(rng.IntN(7), true)
		if rng.IntN(3) == 0 {
			pattern += "$"
		}
		path := word(rng.IntN(9), false)
		want := grobotstxt.Matches(path, pattern)
		if got := newRule(false, pattern).match(path); got != want {
			t.Fatalf("rule %q on path %q: %v, Google's matcher says %v", pattern, path, got, want)
		}
		checked++
		if want {
			matched++
		}
	}
	if matched < checked/20 || matched > checked-checked/20 {
		t.Errorf("%d of %d pairs matched: the generator tries too few of one kind", matched, checked)
	}
}

// FuzzRuleMatchesGoogle is TestRuleMatchesGoogle on any rule line and
// path: both go through rulePattern and matchKey, as the gate's do.
func FuzzRuleMatchesGoogle(f *testing.F) {
	f.Add("/a*b$", "/axxb")
	f.Add("/*.css", "/private/a.css")
	f.Add("/cgi$bin", "/cgi$bin")
	f.Add("/file-with-a-%2A.html", "/file-with-a-*.html")
	f.Fuzz(func(t *testing.T, line, path string) {
		pattern, key := rulePattern(line), matchKey(path)
		if got, want := newRule(true, pattern).match(key), grobotstxt.Matches(key, pattern); got != want {
			t.Fatalf("rule %q (%q) on path %q (%q): %v, Google's matcher says %v", line, pattern, path, key, got, want)
		}
	})
}
