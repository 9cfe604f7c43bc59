package politeness

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Policy says what the gate does with robots.txt.
type Policy string

const (
	// Obey fetches robots.txt and obeys it. It is the default.
	Obey Policy = "obey"
	// Ignore never fetches robots.txt and allows every URL. Per-site delays
	// and the one-connection rule still apply.
	Ignore Policy = "ignore"
)

// Defaults for the zero fields of [Config].
const (
	DefaultMaxCrawlDelay   = 30 * time.Second
	DefaultCacheTTL        = 24 * time.Hour
	DefaultRetryAfterError = 30 * time.Second
	DefaultMaxRetryDelay   = time.Hour
	DefaultMaxHosts        = 100_000
	// DefaultMaxCacheBytes bounds the memory of the robots cache: a
	// robots.txt of RFC 9309's 500 KiB of short rules costs some 2.8 MB
	// parsed, and 100,000 hosts of them (a subdomain farm) would hold
	// 280 GB under MaxHosts alone (a soak review).
	DefaultMaxCacheBytes = 256 << 20
	DefaultFetchTimeout  = time.Minute
	// MaxRobotsSize is how much of a robots.txt body is parsed (RFC 9309
	// section 2.5 requires at least 500 KiB). Longer bodies are cut at the
	// last line break before this limit.
	MaxRobotsSize = 500 << 10
)

// Config configures a [Gate]. The zero value of each field means its
// default, except Delay, whose zero means no delay.
type Config struct {
	// UserAgent is the full User-Agent header, such as
	// "langcrawl/0.1 (+https://lib.example/crawl)". robots.txt groups are
	// matched against its product token (CrawlerToken: "langcrawl"; RFC
	// 9309 section 2.2.1). Required unless Policy is Ignore.
	UserAgent string

	// Policy is Obey (the default, also for "") or Ignore.
	Policy Policy

	// Delay is w, the minimum time between the end of one fetch from a site
	// and the start of the next. It is not defaulted: zero means no delay,
	// which benchmarks and tests use. The config package supplies the
	// user-facing default of one second. Negative is an error.
	Delay time.Duration

	// MaxCrawlDelay caps a robots.txt Crawl-delay. Default 30s.
	MaxCrawlDelay time.Duration

	// CacheTTL is how long a fetched robots.txt (2xx, 3xx or 4xx) is used
	// before it is fetched again. Default 24h (RFC 9309 section 2.4).
	CacheTTL time.Duration

	// RetryAfterError is how long a host whose robots.txt could not be
	// fetched (5xx, 429 or a network error) waits before robots.txt is
	// fetched again, after the first failure. Each further failure in a
	// row doubles the wait, up to MaxRetryDelay. A Retry-After the server
	// sent (see [RetryLater]) is used instead, capped at MaxRetryDelay.
	// Default 30s: a host that was down for a minute must not wait an hour.
	RetryAfterError time.Duration

	// MaxRetryDelay caps the wait after a robots.txt failure. Default 1h.
	MaxRetryDelay time.Duration

	// MaxHosts bounds the robots cache and the Crawl-delay table; the least
	// recently used entries are evicted beyond it. Default 100,000.
	MaxHosts int

	// MaxCacheBytes bounds the robots cache by the memory its parsed rules
	// take (an estimate), as MaxHosts bounds it by count; the least
	// recently used entries are evicted beyond either. An evicted entry is
	// read back from Store, when there is one, before it expires. Default
	// 256 MiB.
	MaxCacheBytes int64

	// DelayFactor, when positive, makes the delay adapt to the server as
	// Heritrix's politeness rule does: after a fetch that took d, the
	// site waits DelayFactor × d, clamped to [MinDelay, MaxDelay], instead
	// of Delay. A slow server is so given more rest than a fast one. A
	// longer Crawl-delay still wins. Heritrix uses 5, 3s and 30s.
	DelayFactor float64
	// MinDelay and MaxDelay clamp the adaptive delay; MaxDelay defaults
	// to 30s.
	MinDelay, MaxDelay time.Duration

	// Hosts overrides the delay and the robots policy per host or domain,
	// as Heritrix's sheets do: a key "example.org" applies to that host,
	// ".example.org" to it and every host under it; the most specific
	// key wins. Keys are lower-case.
	Hosts map[string]HostRules

	// Store, when not nil, keeps robots.txt outcomes across restarts: a
	// restarted crawl uses a stored outcome until it expires instead of
	// fetching robots.txt again, and keeps counting failures in a row.
	// Errors of the store are not fatal: the gate fetches robots.txt.
	Store Store

	// FetchTimeout bounds one robots.txt fetch. The fetch runs detached from
	// the context of the Check that started it, so that a cancelled caller
	// does not fail the fetch for other callers waiting on it; this timeout
	// keeps it from running forever. Default 1m.
	FetchTimeout time.Duration
}

// HostRules are the settings that override the Config for some hosts.
// A nil Delay and an empty Policy leave the Config's.
type HostRules struct {
	Delay  *time.Duration // a fixed delay w for these hosts, adaptive delay off
	Policy Policy
}

// Store keeps robots.txt outcomes by robots.txt URL. It must be safe for
// concurrent use.
type Store interface {
	Load(robotsURL string) (Record, bool, error)
	Save(robotsURL string, r Record) error
}

// Record is one robots.txt outcome as a Store keeps it.
type Record struct {
	Fetched  time.Time
	Expires  time.Time
	Status   int    // 0: no HTTP status (a network error)
	Failures int    // failures in a row
	Body     []byte // at most MaxRobotsSize bytes
}

// ErrInvalidConfig is wrapped by every error New returns for a bad Config.
var ErrInvalidConfig = errors.New("politeness: invalid config")

// withDefaults returns a copy of c with its zero fields defaulted, and every
// problem found, joined.
func (c Config) withDefaults() (Config, error) {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...))
	}
	if c.Policy == "" {
		c.Policy = Obey
	}
	if c.Policy != Obey && c.Policy != Ignore {
		bad("policy %q: want %q or %q", c.Policy, Obey, Ignore)
	}
	if c.Policy == Obey && CrawlerToken(c.UserAgent) == "" {
		bad("user agent %q: has no product token (letters, '_' or '-')", c.UserAgent)
	}
	if c.Delay < 0 {
		bad("delay %v: negative", c.Delay)
	}
	if c.DelayFactor < 0 {
		bad("delay factor %v: negative", c.DelayFactor)
	}
	if c.MaxDelay == 0 {
		c.MaxDelay = 30 * time.Second
	}
	if c.MinDelay < 0 || c.MaxDelay < c.MinDelay {
		bad("min delay %v, max delay %v: want 0 ≤ min ≤ max", c.MinDelay, c.MaxDelay)
	}
	for h, r := range c.Hosts {
		if r.Policy != "" && r.Policy != Obey && r.Policy != Ignore {
			bad("host %s: policy %q: want %q or %q", h, r.Policy, Obey, Ignore)
		}
		if r.Delay != nil && *r.Delay < 0 {
			bad("host %s: delay %v: negative", h, *r.Delay)
		}
	}
	def := func(name string, d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		} else if *d < 0 {
			bad("%s %v: negative", name, *d)
		}
	}
	def("max crawl delay", &c.MaxCrawlDelay, DefaultMaxCrawlDelay)
	def("cache TTL", &c.CacheTTL, DefaultCacheTTL)
	def("retry after error", &c.RetryAfterError, DefaultRetryAfterError)
	def("max retry delay", &c.MaxRetryDelay, DefaultMaxRetryDelay)
	def("fetch timeout", &c.FetchTimeout, DefaultFetchTimeout)
	if c.MaxHosts == 0 {
		c.MaxHosts = DefaultMaxHosts
	} else if c.MaxHosts < 0 {
		bad("max hosts %d: negative", c.MaxHosts)
	}
	if c.MaxCacheBytes == 0 {
		c.MaxCacheBytes = DefaultMaxCacheBytes
	} else if c.MaxCacheBytes < 0 {
		bad("max cache bytes %d: negative", c.MaxCacheBytes)
	}
	return c, errors.Join(errs...)
}

// ProductToken returns the product token of a User-Agent string: its
// leading run of ASCII letters, '_' and '-', lower-cased (RFC 9309 section
// 2.2.1). "langcrawl/0.1 (+https://lib.example/crawl)" gives "langcrawl".
// It returns "" if the string does not start with such a character.
func ProductToken(ua string) string {
	ua = strings.TrimSpace(ua)
	i := 0
	for i < len(ua) && isTokenChar(ua[i]) {
		i++
	}
	return strings.ToLower(ua[:i])
}

// CrawlerToken returns the product token robots.txt groups are matched on
// for a crawler whose User-Agent is ua: its ProductToken, but for a
// browser-compatible one, "Mozilla/5.0 (compatible; natlib-bot/1.0;
// +https://…)", as many archives' crawlers and the search engines' send,
// the token after "compatible;" ("natlib-bot"), which is the name
// webmasters write groups for (Googlebot's is so). Before, such a crawler
// matched groups for "mozilla", and obeyed only the "*" groups of a
// robots.txt that named it (an RFC 9309 review).
func CrawlerToken(ua string) string {
	t := ProductToken(ua)
	if t != "mozilla" {
		return t
	}
	_, rest, ok := strings.Cut(strings.ToLower(ua), "compatible;")
	if !ok {
		return t
	}
	if c := ProductToken(rest); c != "" {
		return c
	}
	return t
}

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}
