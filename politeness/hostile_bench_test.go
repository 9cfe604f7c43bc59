package politeness

import (
	"context"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// hostileRobots is the worst robots.txt a server may send within the
// 500 KiB parsed: about 11,000 wildcard rules that each match from the
// path's first octet, and a 2,000-octet path that every rule's wildcards
// scan and none matches.
func hostileRobots() (body, path string) {
	var robots strings.Builder
	robots.WriteString("User-agent: *\n")
	for robots.Len() < MaxRobotsSize-100 {
		robots.WriteString("Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n")
	}
	return robots.String(), "/" + strings.Repeat("a", 2000)
}

// BenchmarkCheckHostileRobots checks one URL against hostileRobots: the
// cost a hostile site can put on each check of its own URLs. The
// sub-benchmark google matches the same rules with Google's reference
// matcher (grobotstxt.Matches), for comparison in the same run.
func BenchmarkCheckHostileRobots(b *testing.B) {
	body, path := hostileRobots()
	b.Run("langcrawl", func(b *testing.B) {
		g := newGate(b, Config{}, fixed(200, body, nil).fetch)
		u := mustURL(b, "https://hostile.example"+path)
		ctx := context.Background()
		if d, err := g.Check(ctx, u, t0); err != nil || !d.Allowed {
			b.Fatal(d, err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := g.Check(ctx, u, t0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("google", func(b *testing.B) {
		r, err := parseRobots([]byte(body), "langcrawl")
		if err != nil {
			b.Fatal(err)
		}
		patterns := make([]string, len(r.list))
		for i, ru := range r.list {
			patterns[i] = strings.Join(ru.parts, "*")
			if ru.end {
				patterns[i] += "$"
			}
		}
		key := matchKey(path)
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range patterns {
				if grobotstxt.Matches(key, p) {
					b.Fatal("matched")
				}
			}
		}
	})
}
