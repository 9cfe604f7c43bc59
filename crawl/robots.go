package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
)

// maxRobotsRedirects is the redirect budget of RFC 9309 section 2.3.1.2:
// crawlers should follow at least five consecutive redirects.
const maxRobotsRedirects = 5

// robotsWire is how many bytes of a robots.txt response body are read: a
// chunked body's framing counts, and a server that sends each line as a
// chunk of its own spends half as many bytes again on it ("a\r\n" and
// "\r\n" around 10 bytes), so a fixed 64 KiB of slack read 380 KiB of a
// 450 KiB file and dropped its last rules (a review). Eight times
// politeness.MaxRobotsSize covers chunks of a byte each ("1\r\nX\r\n");
// a body read past memory's share goes to a temporary file, as a page's
// does. Framing beyond even that leaves less than MaxRobotsSize decoded,
// and such a file is unavailable, never obeyed cut (RobotsFetcher).
const robotsWire = 8 * politeness.MaxRobotsSize

// Slot acquires a site's politeness slot; Gate.Acquire has this shape.
type Slot func(ctx context.Context, site string) (release func(end time.Time), err error)

// Answered is told how a site answered a robots.txt fetch: the address it
// was reached at and the status (Crawler.Answered has this shape).
type Answered func(site, ip string, status int)

// RobotsFetcher returns the politeness.RobotsFetcher the gate uses. It
// fetches robots.txt with the crawl's own client and archives every hop,
// as Heritrix does, so the archive shows which rules the crawl obeyed. It
// follows up to five redirects itself. Each request holds the site's slot,
// so robots.txt is fetched as politely as a page: never beside another
// request to the site, and w after the previous one. slot is called late,
// so it may refer to the gate that this fetcher is given to. With log not
// nil, every hop gets a crawl.log line, with hop path "P" (prerequisite)
// as in Heritrix. answered, when not nil, is told each hop's answer, so
// that a 429 or 503 to robots.txt, often a site's first request, slows
// its address as a page's does; like slot, it is called late.
func RobotsFetcher(f Fetcher, a Archive, slot Slot, log *CrawlLog, answered Answered) politeness.RobotsFetcher {
	return CountedRobotsFetcher(f, a, slot, log, answered, nil)
}

// CountedRobotsFetcher is RobotsFetcher whose hops' response bytes are
// also given to received (Crawler.RobotsReceived has this shape), so that
// max_bytes and the job's totals count them as a page's: a bandwidth and
// steering review found a crawl under max_bytes 100KB receive 6 MB of
// robots.txt, its totals saying 0.0 MB. Like answered, received is called
// late; an error it returns is the crawler's own (politeness.ErrLocal).
func CountedRobotsFetcher(f Fetcher, a Archive, slot Slot, log *CrawlLog, answered Answered, received func(n int64) error) politeness.RobotsFetcher {
	logHop := func(target string, out outcome) error {
		if log == nil {
			return nil
		}
		if err := log.Write(time.Now(), 0, frontier.Entry{URL: target, Hops: "P"}, out); err != nil {
			return fmt.Errorf("%w: %w", politeness.ErrLocal, err)
		}
		return nil
	}
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
			// Read up to what RFC 9309 section 2.5 asks to parse (with room
			// for chunk framing); a longer robots.txt is archived cut, with
			// WARC-Truncated: length, not downloaded whole.
			lctx := fetch.WithBodyLimit(ctx, robotsWire)
			res, err := f.Do(lctx, http.MethodGet, target, http.Header{"Accept-Encoding": {"gzip"}})
			release(time.Now())
			if errors.Is(err, fetch.ErrLocal) {
				return 0, nil, fmt.Errorf("fetch %s: %w: %w", target, politeness.ErrLocal, err) // the disk's, as an archive failure is
			}
			if err != nil {
				if n := fetch.Received(err); n > 0 && received != nil {
					// A head refused or cut short: its bytes crossed the
					// wire as a page's refused head's do, and count so.
					if rerr := received(n); rerr != nil {
						return 0, nil, fmt.Errorf("usage %s: %w: %w", target, politeness.ErrLocal, rerr)
					}
				}
				if lerr := logHop(target, outcome{status: failureCode(err), annot: []string{"err:" + errString(err)}}); lerr != nil {
					return 0, nil, lerr
				}
				if hop == 0 && permanent(err) && !serverFault(err) {
					// No retry can mend it, and the page's own fetch
					// fails the same way (the address guard refused the
					// host, say): let it fail for good with its own code
					// rather than defer it as if robots.txt were down for
					// a moment. A malformed answer is the server's error,
					// which RFC 9309 section 2.3.1.4 reads as complete
					// disallow: its pages may well be served.
					return http.StatusNotFound, nil, nil
				}
				return 0, nil, err
			}
			defer res.Close()
			if answered != nil {
				answered(scope.SiteKey(u), res.IP, res.Status)
			}
			if received != nil {
				if err := received(res.Size()); err != nil {
					return 0, nil, fmt.Errorf("usage %s: %w: %w", target, politeness.ErrLocal, err)
				}
			}
			tail, tailN := res.Tail()
			ref, err := a.WriteExchange(&archive.Exchange{URL: target, IP: res.IP, Date: res.Started,
				RawRequest: res.RawRequest, RawResponse: res.RawResponse, Tail: tail, TailSize: tailN,
				BodyOffset: res.BodyOffset, Chunked: res.Chunked, Truncated: res.Truncated})
			if err != nil {
				return 0, nil, fmt.Errorf("archive %s: %w: %w", target, politeness.ErrLocal, err)
			}
			out := outcome{status: res.Status, bytes: res.Size(), dur: res.Duration, started: res.Started,
				mime: mediaType(res.Header.Get("Content-Type")), digest: ref.PayloadDigest}
			if res.Truncated != "" {
				out.annot = []string{"truncated:" + res.Truncated}
			}
			if err := logHop(target, out); err != nil {
				return 0, nil, err
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
			if after := retryAfter(res.Header.Get("Retry-After"), time.Now()); after > 0 && retryable(res.Status) {
				// The gate waits as long as the server asked.
				return 0, nil, &politeness.RetryLater{Status: res.Status, After: after}
			}
			if res.Status >= 200 && res.Status < 300 && res.Truncated != "" && res.Truncated != fetch.TruncatedLength {
				// Cut by a reset or a timeout, the file may have lost
				// its Disallow lines ("Disallow:" cut from "Disallow: /"
				// allows everything): unavailable, to be tried again,
				// never obeyed as whole. Cut at the size limit, it is
				// read as RFC 9309 section 2.5 asks.
				return 0, nil, fmt.Errorf("robots.txt cut short (%s) after %d bytes", res.Truncated, res.Size())
			}
			if res.Status < 200 || res.Status >= 300 {
				return res.Status, nil, nil // its body is not read (RFC 9309 section 2.3.1)
			}
			body, err := res.Payload(politeness.MaxRobotsSize)
			if err != nil {
				// A gzip stream cut short inside whole framing decodes to
				// a prefix ("Disallow:" of "Disallow: /"), and a body the
				// crawl cannot decode (br whatever Accept-Encoding said, or
				// labelled gzip and not) to nothing: either way its rules
				// are not known. Unavailable, to be tried again, never
				// obeyed (a review found both read as whole: allow all).
				return 0, nil, fmt.Errorf("robots.txt cannot be decoded: %w", err)
			}
			if res.Truncated == fetch.TruncatedLength && res.Chunked && len(body) < politeness.MaxRobotsSize {
				// Cut at robotsWire with less than MaxRobotsSize decoded:
				// chunk framing took the rest, and the rules past the cut
				// are within what RFC 9309 asks to read.
				return 0, nil, fmt.Errorf("robots.txt framing took more than %d bytes for %d of content", robotsWire, len(body))
			}
			return res.Status, body, nil
		}
	}
}

// serverFault reports whether err is a response the server got wrong
// (malformed, an oversized head): permanent for that URL, but no sign that
// the site's other URLs fail too.
func serverFault(err error) bool {
	return errors.Is(err, fetch.ErrMalformedResponse) || errors.Is(err, fetch.ErrTooManyHeaderFields) ||
		errors.Is(err, fetch.ErrHeaderTooLarge)
}
