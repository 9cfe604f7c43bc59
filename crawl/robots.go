package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
)

// maxRobotsRedirects is the redirect budget of RFC 9309 section 2.3.1.2:
// crawlers should follow at least five consecutive redirects.
const maxRobotsRedirects = 5

// Slot acquires a site's politeness slot; Gate.Acquire has this shape.
type Slot func(ctx context.Context, site string) (release func(end time.Time), err error)

// RobotsFetcher returns the politeness.RobotsFetcher the gate uses. It
// fetches robots.txt with the crawl's own client and archives every hop,
// as Heritrix does, so the archive shows which rules the crawl obeyed. It
// follows up to five redirects itself. Each request holds the site's slot,
// so robots.txt is fetched as politely as a page: never beside another
// request to the site, and w after the previous one. slot is called late,
// so it may refer to the gate that this fetcher is given to.
func RobotsFetcher(f Fetcher, a Archive, slot Slot) politeness.RobotsFetcher {
	return func(ctx context.Context, robotsURL string) (int, []byte, error) {
		target := robotsURL
		for hop := 0; ; hop++ {
			u, err := url.Parse(target)
			if err != nil {
				return 0, nil, err
			}
			release, err := slot(ctx, scope.SiteKey(u))
			if err != nil {
				return 0, nil, err
			}
			res, err := f.Do(ctx, http.MethodGet, target, http.Header{"Accept-Encoding": {"gzip"}})
			release(time.Now())
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
