package politeness_test

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/langcrawl/langcrawl/politeness"
)

func Example() {
	// The engine passes its archiving HTTP client here; this one serves a
	// fixed robots.txt.
	fetch := func(ctx context.Context, robotsURL string) (int, []byte, error) {
		return 200, []byte("User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n"), nil
	}
	g, err := politeness.New(politeness.Config{
		UserAgent: "langcrawl/0.1 (+https://lib.example/crawl)",
		Delay:     time.Second,
	}, fetch)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	now := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, raw := range []string{"https://th.example/index.html", "https://th.example/private/a.html"} {
		u, _ := url.Parse(raw)
		d, err := g.Check(ctx, u, now)
		if err != nil {
			panic(err)
		}
		fmt.Println(d.Allowed, d.Reason)
	}
	fmt.Println("delay:", g.Delay("th.example"))

	release, err := g.Acquire(ctx, "th.example")
	if err != nil {
		panic(err)
	}
	// ... fetch https://th.example/index.html ...
	release(time.Now())
	fmt.Printf("%+v\n", g.Stats())
	// Output:
	// true robots: allowed by https://th.example/robots.txt
	// false robots: disallowed by https://th.example/robots.txt for langcrawl
	// delay: 5s
	// {RobotsFetches:1 RobotsErrors:0 CacheHits:1 Restored:0 Allowed:1 Disallowed:1 CachedRobots:1 AcquireWaits:0}
}
