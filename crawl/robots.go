package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/politeness"
)

// maxRobotsRedirects is the redirect budget of RFC 9309 section 2.3.1.2:
// crawlers should follow at least five consecutive redirects.
const maxRobotsRedirects = 5

// RobotsFetcher returns the politeness.RobotsFetcher the gate uses. It
// fetches robots.txt with the crawl's own client and archives every hop,
// as Heritrix does, so the archive shows which rules the crawl obeyed. It
// follows up to five redirects itself.
func RobotsFetcher(f Fetcher, a Archive) politeness.RobotsFetcher {
	return func(ctx context.Context, robotsURL string) (int, []byte, error) {
		target := robotsURL
		for hop := 0; ; hop++ {
			res, err := f.Do(ctx, http.MethodGet, target, http.Header{"Accept-Encoding": {"gzip"}})
			if err != nil {
				return 0, nil, err
			}
			if _, err := a.WriteExchange(&archive.Exchange{URL: target, IP: res.IP, Date: res.Started,
				RawRequest: res.RawRequest, RawResponse: res.RawResponse, BodyOffset: res.BodyOffset,
				Chunked: res.Chunked, Truncated: res.Truncated}); err != nil {
				return 0, nil, fmt.Errorf("archive %s: %w", target, err)
			}
			loc := res.Header.Get("Location")
			if res.Status >= 300 && res.Status < 400 && loc != "" && hop < maxRobotsRedirects {
				base, _ := url.Parse(target)
				next, err := base.Parse(loc)
				if err != nil {
					return res.Status, nil, nil // an unusable redirect counts as unavailable
				}
				target = next.String()
				continue
			}
			body, _ := res.Payload(politeness.MaxRobotsSize)
			return res.Status, body, nil
		}
	}
}
