package politeness

import (
	"context"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSoakReviewRobotsCacheBytesBounded (from a soak review): the robots
// cache is bounded by its count of hosts (MaxHosts, 100,000) alone, and the
// README prices an entry at 1 to 7 KB. A robots.txt at RFC 9309's 500 KiB
// of short rules costs some 2.8 MB parsed, so 100,000 such hosts (a
// subdomain farm under the default max_pages_per_domain of 100,000, or the
// large files real sites write) would hold about 280 GB. 160 of them
// held 450 MB before; the cache must stay within its byte budget
// (DefaultMaxCacheBytes, 256 MiB), evicting the least recently used.
func TestSoakReviewRobotsCacheBytesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < MaxRobotsSize-64; i++ {
		fmt.Fprintf(&b, "Disallow: /%x*q\n", i)
	}
	body := []byte(b.String())
	fetches := 0
	fetch := func(context.Context, string) (int, []byte, error) { fetches++; return 200, body, nil }
	g, err := New(Config{UserAgent: "langcrawl/1.0"}, fetch)
	if err != nil {
		t.Fatal(err)
	}
	heap := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	before := heap()
	const hosts = 160
	now := time.Now()
	for i := range hosts {
		u, _ := url.Parse(fmt.Sprintf("http://h%d.farm.test/page", i))
		d, err := g.Check(context.Background(), u, now)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Allowed {
			t.Fatalf("%s not allowed: %s", u, d.Reason)
		}
		// The rules are obeyed whatever the cache holds.
		u2, _ := url.Parse(fmt.Sprintf("http://h%d.farm.test/1f-q", i))
		if d, _ := g.Check(context.Background(), u2, now); d.Allowed {
			t.Fatalf("%s allowed: the rules were lost", u2)
		}
	}
	grown := heap() - before
	const budget = 300 << 20 // the cache's 256 MiB and room for the rest
	t.Logf("%d hosts with a %d-byte robots.txt: heap grew %d MiB (%d KiB a host), %d cached, %d fetches",
		hosts, len(body), grown>>20, grown/hosts>>10, g.Stats().CachedRobots, fetches)
	if grown > budget {
		t.Errorf("robots cache of %d hosts holds %d MiB, over %d MiB: bounded by its count of hosts only (%d), not by bytes",
			g.Stats().CachedRobots, grown>>20, budget>>20, DefaultMaxHosts)
	}
	runtime.KeepAlive(g)
}
