// Package politeness decides whether langcrawl may fetch a URL and when it may
// next contact a site. It is the "politeness gate" of the data path in
// DESIGN.md: robots.txt, the delay w between accesses to one site, and one
// connection per site.
//
// # Robots Exclusion Protocol (RFC 9309)
//
// [Gate.Check] fetches robots.txt once per origin (scheme, host and port, RFC
// 9309 section 2.3) through a caller-supplied [RobotsFetcher], caches the
// result and answers from the cache. Concurrent Checks for one origin share a
// single fetch (golang.org/x/sync/singleflight). The fetch status is handled
// as RFC 9309 section 2.3.1 prescribes:
//
//   - 2xx (2.3.1.1): the body is parsed and the group of our product token is
//     obeyed, falling back to the "*" group; with neither, all is allowed.
//   - 3xx (2.3.1.2): the fetcher follows up to five redirects itself; a chain
//     that still ends in 3xx is treated as unavailable, like 4xx.
//   - 4xx (2.3.1.3), including 401, 403 and 404: unavailable, all is allowed.
//     The exception is 429 Too Many Requests, which asks us to slow down:
//     it is treated like 5xx, as Google's crawler does.
//   - 5xx or a network error (2.3.1.4): unreachable, all is disallowed for
//     now. The Decision says so ([Decision.Unavailable]) with the time to
//     try again ([Decision.RetryAt]): the server's Retry-After, or else
//     [Config.RetryAfterError] doubled for each failure in a row, both
//     capped at [Config.MaxRetryDelay]. The engine defers the URL until
//     then; it never completes it as disallowed.
//
// Cached entries expire after [Config.CacheTTL], 24 hours by default, as
// section 2.4 advises. Only the first 500 KiB of a body are parsed (section
// 2.5), cut back to the last complete line. The URL /robots.txt itself is
// always allowed (section 2.2.2).
//
// A lenient parser reads the file line by line, keeps only the groups that
// apply to us (merging groups that name the same agent, section 2.2.1;
// lines outside the protocol, Crawl-delay and Sitemap among them, end no
// group, section 2.2.4), skips lines it cannot use, and normalises the
// percent-encoding of rule paths and URLs alike (section 2.2.2: non-ASCII
// octets encoded, unreserved characters decoded; '*' and '$' in a URL
// encoded, so that a rule's %2A and %24 match them, section 2.2.3). A rule
// matches from the start of the path, '*' standing for any octets and a
// final '$' for the end; the matching rule with the most octets decides,
// an Allow winning a tie. User-agent lines match on the product token
// only, case-insensitively and exactly, not by prefix.
//
// Crawl-delay is not part of RFC 9309; it is honoured as an extension, capped
// at [Config.MaxCrawlDelay].
//
// # Per-site politeness (Castillo et al. 2004)
//
// Castillo, Marin, Rodriguez and Baeza-Yates, "Scheduling algorithms for Web
// crawling" (2004), crawl with w seconds between accesses to one site and
// never more than one connection to a site at a time. [Gate.Delay] gives the
// effective w for a host, max(w, min(Crawl-delay, cap)), and [Gate.Acquire]
// enforces both rules: it blocks until the host has no fetch in progress and
// the delay has passed since the previous fetch ended. The frontier's
// scheduler is expected to hand out sites only when they are ready, so that
// Acquire rarely waits; Acquire is the guarantee, not the scheduler.
//
// # Policy
//
// With [Obey], the default, robots.txt is fetched and obeyed. With [Ignore],
// robots.txt is never fetched and every URL is allowed; delays and the one
// connection rule still apply, with w as the delay since no Crawl-delay is
// known.
//
// # Concurrency
//
// A [Gate] is safe for concurrent use by many workers. [New] starts no
// goroutines; Check starts one per robots.txt fetch, which ends when the
// fetcher returns.
package politeness
