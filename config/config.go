package config

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/langcrawl/langcrawl/internal/hostmatch"
	"github.com/langcrawl/langcrawl/scope"
)

// Config is the resolved crawl configuration. It is produced by Load and is
// read-only afterwards.
type Config struct {
	// Seeds are the starting URLs listed in the profile and given with
	// --seed. A bare host name gets http:// (see AssumedHTTP).
	Seeds []string `yaml:"seeds"`
	// SeedScopes are the seeds of Seeds that the profile gave a scope of
	// their own ({url, scope, depth} entries), in profile order.
	SeedScopes []SeedScope `yaml:"-"`
	// AssumedHTTP lists the seeds of Seeds that were given without a
	// scheme and got http://, as they were written, for a notice.
	AssumedHTTP []string `yaml:"-"`
	// SkipBadSeeds (--skip-bad-seeds) makes the crawl go on past bad
	// seeds, reporting each, instead of refusing to start.
	SkipBadSeeds bool `yaml:"-"`
	// AcceptFrontierDamage (--accept-frontier-damage) opens a frontier
	// whose journal was damaged in its middle, dropping the records there
	// (frontier.Options.AcceptDamage); without it the start refuses. One
	// run's decision, never kept in a profile.
	AcceptFrontierDamage bool `yaml:"-"`
	// SeedsFile is a file of more seeds, one per line, resolved against
	// the profile's directory. It is not read into memory: the crawl
	// streams it (EachSeed), so it may hold millions of seeds.
	SeedsFile string `yaml:"seeds_file,omitempty"`
	// Out is the output directory: warcs/, frontier/, logs/ live under it.
	Out string `yaml:"out"`

	WARC WARC `yaml:"warc"`

	// CrawlLog configures logs/crawl.log.
	CrawlLog CrawlLogConfig `yaml:"crawl_log"`

	// UserAgent is sent with every request. It must hold a contact URL.
	UserAgent string `yaml:"user_agent"`
	// Operator names the institution running the crawl (warcinfo).
	Operator string `yaml:"operator"`
	// Collection names the collection or job the crawl belongs to; it is
	// the isPartOf field of every warcinfo record. Default the base name of
	// Out.
	Collection string `yaml:"collection"`

	Workers         int           `yaml:"workers"`
	Delay           time.Duration `yaml:"delay"`
	Depth           int           `yaml:"depth"`
	MaxPagesPerSite int           `yaml:"max_pages_per_site"`
	// MaxPagesPerDomain bounds the pages of all the hosts of one
	// registered domain (a subdomain farm); MaxSitesPerAddress the sites
	// taken from one IP address (a farm of fresh domains). 0: no limit.
	MaxPagesPerDomain  int           `yaml:"max_pages_per_domain"`
	MaxSitesPerAddress int           `yaml:"max_sites_per_address"`
	MaxPages           int           `yaml:"max_pages"`
	MaxTime            time.Duration `yaml:"max_time"`
	MaxBytes           int64         `yaml:"max_bytes"`
	MaxBodySize        int64         `yaml:"max_body_size"`

	Retries Retries `yaml:"retries"`

	// Recrawl configures the incremental re-crawl that running a crawl
	// again on a finished one starts.
	Recrawl Recrawl `yaml:"recrawl"`

	// AdaptiveDelay is Heritrix's politeness rule, used instead of Delay
	// when Factor is positive: after a fetch that took d, wait Factor × d,
	// clamped to [Min, Max].
	AdaptiveDelay AdaptiveDelay `yaml:"adaptive_delay"`

	// Hosts overrides settings per host or domain (Heritrix's sheets):
	// "example.org" is that host, ".example.org" it and every host under
	// it; the most specific key wins.
	Hosts map[string]HostRules `yaml:"hosts,omitempty"`

	Timeouts Timeouts `yaml:"timeouts"`
	Robots   Robots   `yaml:"robots"`
	Scope    Scope    `yaml:"scope"`
	Network  Network  `yaml:"network"`
	Focus    Focus    `yaml:"focus"`
	Metrics  Metrics  `yaml:"metrics"`

	Durability Durability `yaml:"durability"`

	Bandwidth  Bandwidth  `yaml:"bandwidth"`
	Scheduling Scheduling `yaml:"scheduling"`

	// ProfilePath is the profile file Load read, "" when none.
	ProfilePath string `yaml:"-"`
	// Warnings are what Load found wrong but not fatal: a LANGCRAWL_*
	// environment variable that sets no key (UnknownEnv). The commands
	// print them on stderr.
	Warnings []string `yaml:"-"`
}

// Recrawl configures incremental re-crawls.
type Recrawl struct {
	// Interval: a known URL is fetched again in a new generation once
	// its last visit is this old; 0 makes every known URL due.
	Interval time.Duration `yaml:"interval"`
	// Previous is the output directory of an earlier crawl whose fetch
	// history a crawl into a new directory starts from (--previous).
	Previous string `yaml:"previous,omitempty"`
	// DedupMinSize: a payload of at least this many bytes already archived
	// at another URL, or in an earlier generation, is written as a
	// revisit; 0 turns this off.
	DedupMinSize int64 `yaml:"dedup_min_size"`
	// DedupIndex lists CDXJ indexes of earlier captures (another crawl's,
	// pywb's) whose payloads count as archived already.
	DedupIndex []string `yaml:"dedup_index,omitempty"`
	// RecheckIrrelevant: in a new generation, fetch a page of each server
	// (or directory) an earlier generation judged irrelevant, so that one
	// whose language turned to the target is found.
	RecheckIrrelevant bool `yaml:"recheck_irrelevant"`
}

// AdaptiveDelay configures the delay that follows the server's speed.
type AdaptiveDelay struct {
	Factor float64       `yaml:"factor"`
	Min    time.Duration `yaml:"min"`
	Max    time.Duration `yaml:"max"`
}

// HostRules are the settings a profile overrides for some hosts. A nil
// field keeps the profile-wide setting.
type HostRules struct {
	Delay           *time.Duration `yaml:"delay,omitempty"`
	MaxPagesPerSite *int           `yaml:"max_pages_per_site,omitempty"`
	// MaxPagesPerDomain is the budget of the registered domain that a
	// URL of these hosts meets (max_pages_per_domain).
	MaxPagesPerDomain *int           `yaml:"max_pages_per_domain,omitempty"`
	Robots            string         `yaml:"robots,omitempty"` // obey or ignore; "" keeps robots.policy
	RecrawlInterval   *time.Duration `yaml:"recrawl_interval,omitempty"`
}

// Retries says how a failed fetch or an unavailable robots.txt is tried
// again: after Delay, doubled with each try up to MaxDelay (or after the
// server's Retry-After, capped at MaxDelay), up to Max tries in all.
type Retries struct {
	Max      int           `yaml:"max"`
	Delay    time.Duration `yaml:"delay"`
	MaxDelay time.Duration `yaml:"max_delay"`
}

// WARC configures the archive files.
type WARC struct {
	Prefix   string `yaml:"prefix"`
	MaxSize  int64  `yaml:"max_size"`
	Compress bool   `yaml:"compress"`
}

// CrawlLogConfig configures logs/crawl.log.
type CrawlLogConfig struct {
	// MaxSize rotates crawl.log once it holds this many bytes: the full
	// file becomes crawl.log.<UTC time> and a new one begins (0: never).
	MaxSize int64 `yaml:"max_size"`
}

// Timeouts bound each exchange.
type Timeouts struct {
	Connect time.Duration `yaml:"connect"`
	Fetch   time.Duration `yaml:"fetch"`
	Read    time.Duration `yaml:"read"`
	Drain   time.Duration `yaml:"drain"`
}

// Robots is the robots.txt policy.
type Robots struct {
	Policy        string        `yaml:"policy"`
	MaxCrawlDelay time.Duration `yaml:"max_crawl_delay"`
}

// SeedScope is a seed with a scope of its own, written in the seeds list
// as {url: URL, scope: host|domain|prefix, depth: N}.
type SeedScope struct {
	URL string `yaml:"url"`
	// Scope is host, domain or prefix; "" is domain, the default.
	Scope string `yaml:"scope,omitempty"`
	// Depth is the depth limit inside the scope; 0 is the profile's depth.
	Depth int `yaml:"depth,omitempty"`
}

// Scope holds the site-tree rules of Nakahira et al., the operator's
// include and exclude rules, and the trap guards.
type Scope struct {
	// Include and Exclude are RE2 regular expressions matched against the
	// canonical URL; SURTInclude and SURTExclude are SURT prefixes such as
	// http://(th,co, (package scope).
	Include     []string `yaml:"include"`
	Exclude     []string `yaml:"exclude"`
	SURTInclude []string `yaml:"surt_include"`
	SURTExclude []string `yaml:"surt_exclude"`

	OneQueryPerScript  bool `yaml:"one_query_per_script"`
	Requisites         bool `yaml:"requisites"`
	MaxURLLength       int  `yaml:"max_url_length"`
	MaxPathSegments    int  `yaml:"max_path_segments"`
	MaxRepeatedSegment int  `yaml:"max_repeated_segment"`
	MaxQueryParams     int  `yaml:"max_query_params"`
	MaxEmbedHops       int  `yaml:"max_embed_hops"`
}

// Network holds connection overrides.
type Network struct {
	// ConnectTo maps a host name, or "*" for every host, to the ip:port
	// dialled instead of resolving the name, like curl --connect-to.
	ConnectTo map[string]string `yaml:"connect_to"`
	// AllowAddresses lets the crawler connect to addresses the fetcher
	// refuses by default: address classes (see addressClasses) or CIDR
	// prefixes. ConnectTo targets are always allowed.
	AllowAddresses []string `yaml:"allow_addresses"`
	// DenyAddresses are CIDR prefixes or addresses never connected to,
	// whatever AllowAddresses says: the library's own public ranges.
	DenyAddresses []string `yaml:"deny_addresses"`
}

// Focus selects the language-focusing strategy of Tamura et al.
type Focus struct {
	// Language is the target: one ISO 639-1 code ("th"), or several
	// joined by commas ("fi,sv") for a library that collects a set of
	// languages. The profile may give a list or a string; Languages
	// splits it.
	Language  string   `yaml:"language"`
	Charsets  []string `yaml:"charsets"`
	Strategy  string   `yaml:"strategy"`
	Tolerance int      `yaml:"tolerance"`
	// DecayEvery and Floor make the tolerance fall by one every DecayEvery
	// HTML pages, down to Floor (Tamura 5.2; 0 turns it off).
	DecayEvery int `yaml:"tolerance_decay_every"`
	Floor      int `yaml:"tolerance_floor"`
	// ErrorBound is the sequential strategy's bound on judging a server
	// that holds no target page relevant (focus.Config.ErrorBound). In
	// (0, 0.5).
	ErrorBound float64 `yaml:"error_bound"`
	// MissBound is its bound on judging a server that holds target pages
	// irrelevant, which loses them (focus.Config.MissBound). In (0, 0.5).
	MissBound float64 `yaml:"miss_bound"`
	// LinkEvidence makes the sequential strategy decide links on their own
	// evidence, as the evidence strategy does (focus.Config.LinkEvidence).
	LinkEvidence bool `yaml:"link_evidence"`
	// ForeignDirs is "keep" (crawl the foreign-language sections of
	// relevant servers in full) or "cut" (only until judged foreign;
	// sequential strategy, focus.Config.CutForeignDirs).
	ForeignDirs string `yaml:"foreign_dirs"`
}

// Languages returns the target languages, in the order given: none when
// focusing is off.
func (f Focus) Languages() []string { return SplitLanguages(f.Language) }

// SplitLanguages splits a target such as "fi,sv" (or "fi, sv") into its
// codes, lower-cased, in order, each once.
func SplitLanguages(s string) []string {
	j := joinLanguages(strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n'
	}))
	if j == "" {
		return nil
	}
	return strings.Split(j, ",")
}

// joinLanguages is the canonical form of a target set: lower-cased, each
// code once, in order, joined by commas; "" for none. A macrolanguage
// whose written standards the detector tells apart stands for all of
// them (macrolanguages).
func joinLanguages(ls []string) string {
	var out []string
	for _, l := range ls {
		l = strings.ToLower(strings.TrimSpace(l))
		codes := macrolanguages[l]
		if codes == nil {
			codes = []string{l}
		}
		for _, c := range codes {
			if c != "" && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return strings.Join(out, ",")
}

// macrolanguages maps an ISO 639-1 code of a macrolanguage to the codes of
// its written standards that the detector tells apart: "no" (Norwegian) is
// Bokmål and Nynorsk.
var macrolanguages = map[string][]string{"no": {"nb", "nn"}}

// Bandwidth is the fetcher manager's budget (package bandwidth).
type Bandwidth struct {
	// Limit is L in bytes per second; 0 turns the manager off.
	Limit int64 `yaml:"limit"`
	// SearchDepth is maxd, the ready sites searched for a download that fits.
	SearchDepth int `yaml:"search_depth"`
	// DefaultRate is the expected rate of a server never measured, bytes/s.
	DefaultRate int64 `yaml:"default_rate"`
	// ReceiveBuffer is the socket receive buffer of each connection under
	// the limit, in bytes; 0: L/256, between 2 and 64 KiB.
	ReceiveBuffer int64 `yaml:"receive_buffer"`
}

// Scheduling selects the frontier's site order (Castillo et al. 2004).
type Scheduling struct {
	Order string `yaml:"order"`
	// PagesPerConnection is Castillo et al.'s k: requests sent over one
	// kept-alive connection before it is closed.
	PagesPerConnection int `yaml:"pages_per_connection"`
	// SeenCache is how many seen-URL hashes the frontier keeps in memory
	// (frontier.Options.SeenCache): a link found again is answered from
	// there instead of from the frontier's database.
	SeenCache int `yaml:"seen_cache"`
	// FrontierCache is the frontier database's block cache, in bytes
	// (frontier.Options.BlockCacheMB, rounded up to whole MiB): the index
	// and filter blocks every seen-set lookup reads, and the data blocks.
	// 0 means DefaultFrontierCache.
	FrontierCache int64 `yaml:"frontier_cache"`
	// DomainConnections is the most fetches at once to the hosts of one
	// registered domain (crawl.Config.DomainConnections).
	DomainConnections int `yaml:"domain_connections"`
	// AddressConnections is the most fetches at once to the sites last
	// reached at one address (crawl.Config.AddressConnections).
	AddressConnections int `yaml:"address_connections"`
}

// Durability sets what a power failure or a full disk may cost.
type Durability struct {
	// SyncInterval is the group commit: at most this much completed work
	// is lost on a power failure. 0 syncs at every completed URL.
	SyncInterval time.Duration `yaml:"sync_interval"`
	// MinFreeSpace is the free space, in bytes, below which the crawl
	// pauses until space is back.
	MinFreeSpace int64 `yaml:"min_free_space"`
}

// Metrics configures the Prometheus endpoint.
type Metrics struct {
	// Listen is host:port; a missing host means 127.0.0.1, so that the
	// endpoint is not reachable from other machines by accident.
	Listen string `yaml:"listen"`
	// AllInterfaces must be set for Listen to name every interface
	// (0.0.0.0 or ::): the endpoint then answers the whole network.
	AllInterfaces bool `yaml:"all_interfaces"`
}

// key describes one profile key: its name as users write it, its default,
// and the flag that sets it, if any.
type key struct {
	name string
	def  any
	help string
}

// Keys lists every profile key with its default and meaning, in the order
// README.md documents them. Defaults are the values a crawl uses when
// nothing else sets the key.
var Keys = []key{
	{"seeds", []string{}, "seed URLs, one per list item; an item may be {url: URL, scope: host|domain|prefix, depth: N} to give that seed its own scope (default domain) and depth limit; a bare host gets http://"},
	{"seeds_file", "", "file with one seed URL per line (# comments allowed); relative to the profile"},
	{"out", "./crawl", "output directory: warcs/, frontier/, logs/"},
	{"warc.prefix", "langcrawl", "WARC file name prefix"},
	{"warc.max_size", "1GB", "rotate WARC files at this size (bytes, or KB/MB/GB/KiB/MiB/GiB)"},
	{"warc.compress", true, "gzip each record (.warc.gz)"},
	{"crawl_log.max_size", "1GiB", "start a new logs/crawl.log once it holds this much; the full one is renamed crawl.log.<UTC time>, and report reads them all (bytes, or KB/MB/GB/KiB/MiB/GiB; 0: never)"},
	{"user_agent", "", "User-Agent; must contain an operator contact URL, e.g. \"langcrawl/0.1 (+https://library.example/crawl)\""},
	{"operator", "", "who runs the crawl, written into warcinfo"},
	{"collection", "", "the collection or job the crawl belongs to, written into warcinfo as isPartOf (empty: the base name of out)"},
	{"workers", 16, "parallel fetches r in all"},
	{"delay", "1s", "delay w between two requests to one site"},
	{"depth", 8, "depth limit per site tree (Nakahira: 8)"},
	{"max_pages_per_site", 10000, "stop taking pages from one site after this many (counted across restarts)"},
	{"max_pages_per_domain", 100000, "stop taking pages from the hosts of one registered domain (a.example.org, b.example.org, …) after this many in all, a subdomain farm's bound; unset, at least 10 times max_pages_per_site, and no limit for hosts whose max_pages_per_site an override lifts to 0 (counted across restarts; 0: no limit)"},
	{"max_sites_per_address", 0, "take pages from at most this many sites served from one IP address, a farm of fresh domains' bound; shared hosts and CDN addresses serve thousands of real sites, so it is off by default and a crawl warns instead when an address passes 1,000 sites (counted across restarts; 0: no limit)"},
	{"max_pages", 0, "job budget: stop after this many requests got a response (pages, requisites, redirects; not robots.txt), counted over every run of the crawl (0: no limit)"},
	{"max_time", "0s", "job budget: stop after the crawl has run this long, over every run, time paused left out (0: no limit)"},
	{"max_bytes", "0", "job budget: stop taking work once this many response bytes were received, over every run (bytes, or KB/MB/GB/KiB/MiB/GiB; 0: no limit)"},
	{"adaptive_delay.factor", 0.0, "Heritrix's politeness rule: wait this many times the last fetch's duration between requests to a site, instead of delay (0: off; Heritrix uses 5)"},
	{"adaptive_delay.min", "3s", "the adaptive delay is at least this"},
	{"adaptive_delay.max", "30s", "the adaptive delay is at most this"},
	{"hosts", map[string]any{}, "per-host or per-domain overrides: a host name, or .domain for it and every host under it, mapped to any of delay, max_pages_per_site, max_pages_per_domain, robots (obey or ignore) and recrawl_interval"},
	{"recrawl.interval", "0s", "in a re-crawl (crawl run again on a finished crawl), fetch a known URL again once its last visit is this old (0: all of them)"},
	{"recrawl.dedup_min_size", "1KiB", "a payload of at least this size already archived at another URL (or in an earlier generation) is written as a revisit record referring to it (0: off)"},
	{"recrawl.dedup_index", []string{}, "CDXJ indexes of earlier captures (pywb's, another crawl's) whose payloads count as archived: the same payload becomes a revisit naming that capture by URL and date; relative to the profile"},
	{"recrawl.recheck_irrelevant", true, "in a re-crawl, fetch a page of each server (or, with conservative-directory, directory) an earlier generation judged irrelevant: the first its queue gives, following redirects, at most 3 tries; a server whose language turned to the target is found (false: skip them all, as the earlier verdict says)"},
	{"recrawl.previous", "", "output directory of an earlier crawl to re-crawl from into a new --out (its fetch history makes requests conditional and revisits refer to its WARCs)"},
	{"retries.max", 10, "tries in all for a URL whose fetch failed (no connection, timeout, 5xx, 429) or whose robots.txt was unavailable; then it is recorded as failed (-8)"},
	{"retries.delay", "30s", "wait before the second try; doubled for each further try"},
	{"retries.max_delay", "1h", "cap on one wait between tries, and on a server's Retry-After"},
	{"max_body_size", "100MiB", "truncate bodies above this size (WARC-Truncated: length)"},
	{"timeouts.connect", "10s", "TCP/TLS connect timeout"},
	{"timeouts.fetch", "60s", "whole-exchange timeout (WARC-Truncated: time)"},
	{"timeouts.read", "30s", "longest silence while reading a response"},
	{"timeouts.drain", "5s", "at a stop (Ctrl-C, SIGTERM, a budget, the stop command), how long fetches in flight may run on; those still running are cut and fetched again at the next start"},
	{"robots.policy", "obey", "obey or ignore robots.txt"},
	{"robots.max_crawl_delay", "30s", "cap on a robots.txt Crawl-delay"},
	{"scope.include", []string{}, "RE2 regular expressions on the canonical URL; when set, a link is followed only if one matches (page requisites excepted)"},
	{"scope.exclude", []string{}, "RE2 regular expressions on the canonical URL; a link that matches one is never followed, requisites included; the metadata record names the rule (rejected:scope:exclude:RULE)"},
	{"scope.surt_include", []string{}, "SURT prefixes, e.g. http://(th,co, for every host under .co.th, or a plain URL or host; when set (with scope.include), a link is followed only if one matches"},
	{"scope.surt_exclude", []string{}, "SURT prefixes; a link that matches one is never followed (rejected:scope:exclude:surt:PREFIX)"},
	{"scope.one_query_per_script", true, "crawl one URL per script path among URLs differing only in their query"},
	{"scope.requisites", true, "fetch page requisites (img, css, js) so pages replay"},
	{"scope.max_url_length", 2048, "trap guard: longest URL accepted"},
	{"scope.max_path_segments", 32, "trap guard: most path segments accepted"},
	{"scope.max_repeated_segment", 3, "trap guard: most repeats of one path segment"},
	{"scope.max_query_params", 32, "trap guard: most query parameters accepted"},
	{"scope.max_embed_hops", 5, "trap guard: longest chain of requisites found in requisites (a stylesheet, one it @imports, that one's images)"},
	{"network.connect_to", map[string]string{}, "map of host (or *) to ip:port to dial instead of DNS"},
	{"network.allow_addresses", []string{}, "address classes (loopback, private, link-local, cgnat, multicast, unspecified, broadcast, reserved, self) or CIDR prefixes the crawler may connect to; all refused by default, connect_to targets always allowed"},
	{"network.deny_addresses", []string{}, "CIDR prefixes or addresses the crawler never connects to, whatever allow_addresses says: the library's own public ranges (an IPv4 one in its IPv6 spellings too)"},
	{"focus.language", "", "target language, ISO 639-1, or a list of them (fi, sv) collected together (empty: no focusing)"},
	{"focus.charsets", []string{}, "charsets that also define the target (text must confirm), e.g. [tis-620, windows-874]"},
	{"focus.strategy", "conservative-server", "bfs, hard-focused, soft-focused, aggressive-server, conservative-server, conservative-directory, evidence (experimental: per-link evidence) or sequential (sequential server verdicts and directory status)"},
	{"focus.tolerance", 10, "tolerance T: irrelevant pages allowed per server before it is irrelevant"},
	{"focus.tolerance_decay_every", 25000, "lower T by one every this many HTML pages (Tamura 5.2; 0: T stays fixed)"},
	{"focus.tolerance_floor", 5, "T never falls below this"},
	{"focus.error_bound", 0.01, "sequential strategy: the chance per server that one holding no target page is judged relevant (it costs pages); in (0, 0.5)"},
	{"focus.miss_bound", 0.001, "sequential strategy: the chance per server that one holding target pages is judged irrelevant (its pages are lost); in (0, 0.5)"},
	{"focus.link_evidence", false, "sequential strategy: also decide each link on its own evidence (anchor, hreflang, lang, URL cues), as the evidence strategy does (experimental)"},
	{"focus.foreign_dirs", "keep", "sequential strategy: keep (crawl the foreign-language sections, /en/, of relevant servers in full, for completeness) or cut (only until judged foreign, and a hosting server's foreign users open no new servers, when harvest matters)"},
	{"bandwidth.limit", "0", "bandwidth limit L in bytes per second, as a size: 140KB is 140,000 B/s; 0: no limit"},
	{"bandwidth.search_depth", 6, "maxd: ready sites searched for a download that fits under L (bandwidth paper: 6)"},
	{"bandwidth.default_rate", "50KB", "expected rate of a server never measured, bytes per second"},
	{"bandwidth.receive_buffer", "0", "socket receive buffer of each connection under the limit (0: L/256, 2KiB to 64KiB); a connection carries about this much per round trip, so raise it for large files over long round trips"},
	{"scheduling.order", "length", "site order: length (most pages pending first; ties to the site ready first), breadth (breadth-first over sites) or random"},
	{"scheduling.pages_per_connection", 100, "k: requests over one kept-alive connection before it is closed (Castillo et al.; Apache's default 100)"},
	{"scheduling.domain_connections", 2, "most fetches at once to the hosts of one registered domain (a.example.org, b.example.org, …), so that a server answering many host names (a subdomain trap) is not hit by every worker at once; each host keeps its own delay too (0: no limit)"},
	{"scheduling.address_connections", 4, "most fetches at once to the sites at one IP address, so that a shared-hosting server answering hundreds of unrelated domains is not hit by every worker at once; a site's address is learnt from its connections and looked up before its first; the sites of a CDN address, and hosts connect_to maps to one IP address whatever the port, share it too; a 429 or 503 from any of the sites halves it for the address for a while (0: no limit)"},
	{"scheduling.seen_cache", 131072, "seen-URL hashes kept in memory (about 40 bytes each at most), so that a link found again is not looked up in the frontier's database; raise it for crawls of millions of URLs when memory allows"},
	{"scheduling.frontier_cache", FormatSize(DefaultFrontierCache), "the frontier database's block cache (a size): the index and filter blocks every seen-set lookup reads; raise it for crawls of millions of URLs when memory allows"},
	{"metrics.listen", "", "host:port for the Prometheus /metrics endpoint (empty: off); a missing host means 127.0.0.1"},
	{"metrics.all_interfaces", false, "allow metrics.listen on every interface (0.0.0.0 or ::), reachable from the network"},
	{"durability.sync_interval", "1s", "fsync WARC data, then the frontier, this often: the most completed work a power failure loses (0: at every URL, slow)"},
	{"durability.min_free_space", "1GiB", "pause the crawl while --out has less free space than this (bytes, or KB/MB/GB/KiB/MiB/GiB; 0: never)"},
}

// FlagKeys maps each command-line flag to the profile key it sets.
var FlagKeys = map[string]string{
	"out":        "out",
	"seeds":      "seeds_file",
	"connect-to": "network.connect_to",
	"workers":    "workers",
	"delay":      "delay",
	"depth":      "depth",
	"max-pages":  "max_pages",
	"max-time":   "max_time",
	"max-bytes":  "max_bytes",
	"previous":   "recrawl.previous",
	"user-agent": "user_agent",
	"target":     "focus.language",
	"strategy":   "focus.strategy",
}

// isUnspecified reports whether host is an address that binds every
// interface however it is spelled (0.0.0.0, ::, [0::0], ::ffff:0.0.0.0).
func isUnspecified(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// AddFlags registers the crawl flags on fs. Flags carry no defaults of
// their own: an unset flag leaves the key to the environment, the profile
// and the defaults, in that order.
func AddFlags(fs *pflag.FlagSet) {
	fs.String("profile", "", "crawl profile (YAML)")
	fs.String("out", "", "output directory")
	fs.String("seeds", "", "file with seed URLs, one per line")
	fs.StringArray("seed", nil, "URL: crawl from this seed too (a bare host gets http://); repeatable")
	fs.Bool("skip-bad-seeds", false, "go on past bad seeds, reporting each, instead of refusing to start")
	fs.Bool("accept-frontier-damage", false, "open a frontier whose journal was damaged in its middle, dropping the damaged records (the start refuses it otherwise)")
	fs.StringArray("connect-to", nil, "HOST=IP:PORT: dial IP:PORT for HOST (* for every host); repeatable")
	fs.Int("workers", 0, "number of workers r")
	fs.Duration("delay", 0, "per-site delay w")
	fs.Int("depth", 0, "depth limit per site tree")
	fs.Int("max-pages", 0, "job budget: stop after N requests got a response, over every run of the crawl")
	fs.Duration("max-time", 0, "job budget: stop after the crawl has run this long, over every run")
	fs.String("max-bytes", "", "job budget: stop after this many response bytes (e.g. 10GB), over every run")
	fs.String("previous", "", "re-crawl from the fetch history of the crawl in this output directory (recrawl.previous)")
	fs.String("user-agent", "", "User-Agent with an operator contact URL")
	fs.String("target", "", "target language, or several joined by commas (focus.language)")
	fs.String("strategy", "", "focusing strategy (focus.strategy)")
}

const delim = "::"

func internal(name string) string { return strings.ReplaceAll(name, ".", delim) }

// Load resolves the configuration from the profile at profile ("" for
// none), the environment, and the flags in fs that were set (fs may be nil).
// Every problem is reported, each naming its key.
func Load(profile string, fs *pflag.FlagSet) (*Config, error) {
	return LoadChecked(profile, fs, nil)
}

// LoadChecked is Load with the caller's own checks of the resolved
// configuration (the target languages against the detector's profiles):
// check runs even when Load found other problems, and its errors, each
// beginning with the key it names ("focus.language: ..."), join the list,
// so that an operator fixing the profile meets every problem at once (a
// README trial: an unknown target was said only after the rest was
// mended). An error on a key already reported is dropped.
func LoadChecked(profile string, fs *pflag.FlagSet, check func(*Config) []error) (*Config, error) {
	// "::" as the key delimiter keeps host names with dots intact inside
	// network.connect_to.
	v := viper.NewWithOptions(viper.KeyDelimiter(delim))
	for _, k := range Keys {
		v.SetDefault(internal(k.name), k.def)
	}
	v.SetEnvPrefix("LANGCRAWL")
	v.SetEnvKeyReplacer(strings.NewReplacer(delim, "_"))
	v.AutomaticEnv()

	var errs []error
	baseDir := ""
	if profile != "" {
		v.SetConfigFile(profile)
		v.SetConfigType("yaml")
		if err := v.ReadInConfig(); err != nil {
			return nil, fmt.Errorf("profile %s: %w", profile, err)
		}
		baseDir = filepath.Dir(profile)
		kerrs := unknownKeys(profile)
		for _, e := range kerrs {
			if ns := (*notSectionError)(nil); errors.As(e, &ns) {
				// The keys under a section written as a scalar read as
				// unset, each an error of its own ("focus.tolerance: <nil>
				// is not a whole number"): the section is what was written
				// wrong, and it alone is said (a review).
				return nil, errors.Join(kerrs...)
			}
		}
		errs = append(errs, kerrs...)
	}
	if fs != nil {
		for flag, k := range FlagKeys {
			f := fs.Lookup(flag)
			if f == nil || !f.Changed {
				continue
			}
			if flag == "connect-to" {
				continue // merged below, entry by entry
			}
			v.Set(internal(k), f.Value.String())
			if flag == "seeds" {
				baseDir = "" // a flag path is relative to the working directory
			}
		}
	}

	c := &Config{ProfilePath: profile, Warnings: UnknownEnv(os.Environ())}
	p := parser{v: v}
	c.SeedsFile = p.str("seeds_file")
	c.Seeds, c.SeedScopes = p.seeds("seeds")
	c.Out = p.str("out")
	c.WARC.Prefix = p.str("warc.prefix")
	c.WARC.MaxSize = p.size("warc.max_size")
	c.WARC.Compress = p.boolean("warc.compress")
	c.CrawlLog.MaxSize = p.size("crawl_log.max_size")
	c.UserAgent = p.str("user_agent")
	c.Operator = p.str("operator")
	c.Collection = p.str("collection")
	if c.Collection == "" && c.Out != "" {
		c.Collection = filepath.Base(c.Out)
		if abs, err := filepath.Abs(c.Out); err == nil {
			c.Collection = filepath.Base(abs)
		}
	}
	c.Workers = p.integer("workers")
	c.Delay = p.duration("delay")
	c.Depth = p.integer("depth")
	c.MaxPagesPerSite = p.integer("max_pages_per_site")
	c.MaxPagesPerDomain = p.integer("max_pages_per_domain")
	if !explicit(v, "max_pages_per_domain") && c.MaxPagesPerDomain > 0 && c.MaxPagesPerSite > c.MaxPagesPerDomain/domainSites {
		// The default never cuts a profile that raised the site budget:
		// a domain gets ten sites' worth (a review: 50,000 a site, the
		// example profile's, would have let two sites fill a domain).
		c.MaxPagesPerDomain = domainSites * c.MaxPagesPerSite
	}
	c.MaxSitesPerAddress = p.integer("max_sites_per_address")
	c.MaxPages = p.integer("max_pages")
	c.MaxTime = p.duration("max_time")
	c.MaxBytes = p.size("max_bytes")
	c.AdaptiveDelay.Factor = p.float("adaptive_delay.factor")
	c.AdaptiveDelay.Min = p.duration("adaptive_delay.min")
	c.AdaptiveDelay.Max = p.duration("adaptive_delay.max")
	c.Hosts = p.hostRules("hosts")
	c.Recrawl.Interval = p.duration("recrawl.interval")
	c.Recrawl.Previous = p.str("recrawl.previous")
	if prev := c.Recrawl.Previous; prev != "" {
		// Relative to the profile, as seeds_file is, unless --previous
		// gave it; made absolute, so that profile.yaml and the warcinfo
		// records name the earlier crawl wherever they are read.
		fromFlag := fs != nil && fs.Lookup("previous") != nil && fs.Lookup("previous").Changed
		if !fromFlag && profile != "" && !filepath.IsAbs(prev) {
			prev = filepath.Join(filepath.Dir(profile), prev)
		}
		if abs, err := filepath.Abs(prev); err == nil {
			prev = abs
		}
		c.Recrawl.Previous = prev // checked by the crawl's first start, which reads it
	}
	c.Recrawl.DedupMinSize = p.size("recrawl.dedup_min_size")
	c.Recrawl.RecheckIrrelevant = p.boolean("recrawl.recheck_irrelevant")
	for _, f := range p.strs("recrawl.dedup_index") {
		if baseDir != "" && !filepath.IsAbs(f) {
			f = filepath.Join(baseDir, f)
		}
		if _, err := os.Stat(f); err != nil {
			errs = append(errs, fmt.Errorf("recrawl.dedup_index: %w", err))
		}
		if abs, err := filepath.Abs(f); err == nil {
			f = abs // as seeds_file: the kept profile names it from anywhere
		}
		c.Recrawl.DedupIndex = append(c.Recrawl.DedupIndex, f)
	}
	c.Retries.Max = p.integer("retries.max")
	c.Retries.Delay = p.duration("retries.delay")
	c.Retries.MaxDelay = p.duration("retries.max_delay")
	c.MaxBodySize = p.size("max_body_size")
	c.Timeouts.Connect = p.duration("timeouts.connect")
	c.Timeouts.Fetch = p.duration("timeouts.fetch")
	c.Timeouts.Read = p.duration("timeouts.read")
	c.Timeouts.Drain = p.duration("timeouts.drain")
	c.Robots.Policy = p.str("robots.policy")
	c.Robots.MaxCrawlDelay = p.duration("robots.max_crawl_delay")
	c.Scope.Include = p.strs("scope.include")
	c.Scope.Exclude = p.strs("scope.exclude")
	c.Scope.SURTInclude = p.strs("scope.surt_include")
	c.Scope.SURTExclude = p.strs("scope.surt_exclude")
	c.Scope.OneQueryPerScript = p.boolean("scope.one_query_per_script")
	c.Scope.Requisites = p.boolean("scope.requisites")
	c.Scope.MaxURLLength = p.integer("scope.max_url_length")
	c.Scope.MaxPathSegments = p.integer("scope.max_path_segments")
	c.Scope.MaxRepeatedSegment = p.integer("scope.max_repeated_segment")
	c.Scope.MaxQueryParams = p.integer("scope.max_query_params")
	c.Scope.MaxEmbedHops = p.integer("scope.max_embed_hops")
	c.Network.ConnectTo = p.hostMap("network.connect_to")
	c.Network.AllowAddresses = p.strs("network.allow_addresses")
	c.Network.DenyAddresses = p.strs("network.deny_addresses")
	c.Focus.Language = joinLanguages(p.strs("focus.language"))
	c.Focus.Charsets = p.strs("focus.charsets")
	c.Focus.Strategy = p.str("focus.strategy")
	c.Focus.Tolerance = p.integer("focus.tolerance")
	c.Focus.DecayEvery = p.integer("focus.tolerance_decay_every")
	c.Focus.Floor = p.integer("focus.tolerance_floor")
	c.Focus.ErrorBound = p.float("focus.error_bound")
	c.Focus.MissBound = p.float("focus.miss_bound")
	c.Focus.LinkEvidence = p.boolean("focus.link_evidence")
	c.Focus.ForeignDirs = strings.ToLower(strings.TrimSpace(p.str("focus.foreign_dirs")))
	if !explicit(v, "focus.tolerance_floor") && c.Focus.Floor > c.Focus.Tolerance {
		c.Focus.Floor = c.Focus.Tolerance // the default floor never lifts a small T
	}
	c.Metrics.Listen = p.str("metrics.listen")
	c.Metrics.AllInterfaces = p.boolean("metrics.all_interfaces")
	if c.Metrics.Listen != "" {
		if host, port, err := net.SplitHostPort(c.Metrics.Listen); err == nil && host == "" {
			c.Metrics.Listen = net.JoinHostPort("127.0.0.1", port)
		}
	}
	c.Durability.SyncInterval = p.duration("durability.sync_interval")
	c.Durability.MinFreeSpace = p.size("durability.min_free_space")
	c.Bandwidth.Limit = p.size("bandwidth.limit")
	c.Bandwidth.SearchDepth = p.integer("bandwidth.search_depth")
	c.Bandwidth.DefaultRate = p.size("bandwidth.default_rate")
	c.Bandwidth.ReceiveBuffer = p.size("bandwidth.receive_buffer")
	c.Scheduling.Order = p.str("scheduling.order")
	c.Scheduling.PagesPerConnection = p.integer("scheduling.pages_per_connection")
	c.Scheduling.SeenCache = p.integer("scheduling.seen_cache")
	c.Scheduling.FrontierCache = p.size("scheduling.frontier_cache")
	c.Scheduling.DomainConnections = p.integer("scheduling.domain_connections")
	c.Scheduling.AddressConnections = p.integer("scheduling.address_connections")
	errs = append(errs, p.errs...)

	if fs != nil {
		if f := fs.Lookup("connect-to"); f != nil && f.Changed {
			vals, _ := fs.GetStringArray("connect-to")
			for _, kv := range vals {
				host, addr, ok := strings.Cut(kv, "=")
				if !ok {
					errs = append(errs, fmt.Errorf("--connect-to %q: want HOST=IP:PORT", kv))
					continue
				}
				c.Network.ConnectTo[strings.ToLower(strings.TrimSpace(host))] = strings.TrimSpace(addr)
			}
		}
		if f := fs.Lookup("seed"); f != nil && f.Changed {
			vals, _ := fs.GetStringArray("seed")
			for _, s := range vals {
				c.Seeds = append(c.Seeds, strings.TrimSpace(s))
			}
		}
		if f := fs.Lookup("skip-bad-seeds"); f != nil && f.Changed {
			c.SkipBadSeeds, _ = fs.GetBool("skip-bad-seeds")
		}
		if f := fs.Lookup("accept-frontier-damage"); f != nil && f.Changed {
			c.AcceptFrontierDamage, _ = fs.GetBool("accept-frontier-damage")
		}
	}

	if c.SeedsFile != "" {
		path := c.SeedsFile
		if baseDir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(baseDir, path)
		}
		if fi, err := os.Stat(path); err != nil {
			errs = append(errs, fmt.Errorf("seeds_file: %w", err))
		} else if !fi.Mode().IsRegular() {
			errs = append(errs, fmt.Errorf("seeds_file: %s is not a file", path))
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		c.SeedsFile = path
	}
	for i, s := range c.Seeds {
		c.Seeds[i] = NormalizeSeed(s)
		if s != "" && c.Seeds[i] != strings.TrimSpace(s) {
			c.AssumedHTTP = append(c.AssumedHTTP, strings.TrimSpace(s))
		}
	}
	for i := range c.SeedScopes {
		c.SeedScopes[i].URL = NormalizeSeed(c.SeedScopes[i].URL)
	}
	// A key that did not parse is reported once, not again by Validate.
	// A value set by a variable or a flag says so: the profile the
	// operator reads may say otherwise (a README trial: workers: -4 from
	// LANGCRAWL_WORKERS was said as if the profile had it).
	said := maps.Clone(p.failed) // the keys with a problem said
	if said == nil {
		said = map[string]bool{}
	}
	if verr := c.Validate(); verr != nil {
		for _, e := range strings.Split(verr.Error(), "\n") {
			key, _, _ := strings.Cut(e, ":")
			if !p.failed[key] {
				errs = append(errs, errors.New(e+source(key, fs)))
				said[key] = true
			}
		}
	}
	if check != nil {
		for _, e := range check(c) {
			key, _, _ := strings.Cut(e.Error(), ":")
			if !said[key] {
				errs = append(errs, fmt.Errorf("%w%s", e, source(key, fs)))
			}
		}
	}
	if len(errs) > 0 && c.SeedsFile != "" && !c.SkipBadSeeds {
		// Every problem at once: the seeds file's bad lines too, which
		// the crawl otherwise checks only once the profile is good (an
		// archivist's trial fixed the profile, then met the file's).
		if fi, err := os.Stat(c.SeedsFile); err == nil && fi.Mode().IsRegular() {
			if err := CheckSeedsFile(c.SeedsFile); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// maxSeedErrors is how many bad seeds CheckSeedsFile lists before giving up.
const maxSeedErrors = 20

// CheckSeedsFile reads the seeds file at path once and returns every bad
// line (up to 20), each named FILE:LINE, and how to go on without them.
func CheckSeedsFile(path string) error {
	var errs []error
	err := EachSeedLine(path, func(line int, raw, u string) error {
		if err := CheckSeed(u); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: seed %q: %w", path, line, raw, scope.Why(err)))
			if len(errs) >= maxSeedErrors {
				return fmt.Errorf("%s: stopped after %d bad seeds", path, maxSeedErrors)
			}
		}
		return nil
	})
	if len(errs) > 0 {
		errs = append(errs, fmt.Errorf("%s: fix the lines above, or give --skip-bad-seeds to crawl without them", path))
	}
	return errors.Join(append(errs, err)...)
}

// CheckSeed reports what is wrong with a seeds file's seed u: white space
// inside (two URLs on a line, or a comment without its '#', read as one
// URL with %20 in it before), or a URL that does not parse.
func CheckSeed(u string) error {
	if strings.ContainsAny(u, " \t") {
		return errors.New("holds white space: one URL per line, and a comment starts with # after a space")
	}
	_, err := scope.Canonicalize(u)
	return err
}

// DefaultFrontierCache is scheduling.frontier_cache's default, 256 MiB:
// from a soak trial's frontier of 1.7 million seen URLs, it crawled 56%
// more pages per CPU-second than the 32 MiB before (BENCHMARKS.md, "The
// frontier's block cache").
const DefaultFrontierCache = 256 << 20

// domainSites is how many sites' budgets the default max_pages_per_domain
// holds at the least.
const domainSites = 10

// explicit reports whether the operator set key in the profile or the
// environment, rather than leaving it to its default.
func explicit(v *viper.Viper, key string) bool {
	// An empty variable sets nothing: viper takes it as unset (a diff
	// review).
	e, env := os.LookupEnv(envName(key))
	return env && e != "" || v.InConfig(internal(key))
}

// unknownKeys reads the profile once more as plain YAML and names every key
// that langcrawl does not know.
func unknownKeys(profile string) []error {
	b, err := os.ReadFile(profile)
	if err != nil {
		return []error{fmt.Errorf("profile %s: %w", profile, err)}
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return []error{fmt.Errorf("profile %s: %w", profile, err)}
	}
	known, section := map[string]bool{}, map[string]bool{}
	for _, k := range Keys {
		parts := strings.Split(k.name, ".")
		for i := range parts {
			known[strings.Join(parts[:i+1], ".")] = true
			if i < len(parts)-1 {
				section[strings.Join(parts[:i+1], ".")] = true
			}
		}
	}
	var errs []error
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			full := strings.ToLower(prefix + n)
			if !known[full] {
				hint := ""
				if k := nearestKey(full, known); k != "" {
					hint = fmt.Sprintf(" (did you mean %s?)", k)
				}
				errs = append(errs, fmt.Errorf("%s: unknown key in profile %s%s", full, profile, hint))
				continue
			}
			if full == "network.connect_to" || full == "hosts" {
				continue // its keys are host names (hosts checks its own below)
			}
			switch sub := m[n].(type) {
			case map[string]any:
				walk(full+".", sub)
			case map[any]any:
				// A section with a key YAML reads as no string (2:, true:):
				// its keys are walked all the same, that one as written,
				// so a typo beside it is named (a review found it skipped).
				named := make(map[string]any, len(sub))
				for k, v := range sub {
					named[fmt.Sprint(k)] = v
				}
				walk(full+".", named)
			case nil:
			default:
				if section[full] {
					errs = append(errs, &notSectionError{key: full, value: sub, profile: profile})
				}
			}
		}
	}
	walk("", doc)
	return errs
}

// notSectionError is a section of the profile written as a value
// (focus: 3).
type notSectionError struct {
	key, profile string
	value        any
}

func (e *notSectionError) Error() string {
	return fmt.Sprintf("%s: %v in profile %s is not a section; write its keys under it, indented (%s.…)", e.key, e.value, e.profile, e.key)
}

// envPrefix is what the environment variables of keys start with.
const envPrefix = "LANGCRAWL_"

// envName is the environment variable that sets key: LANGCRAWL_ and the
// key in capitals, dots as underscores (warc.max_size ->
// LANGCRAWL_WARC_MAX_SIZE).
func envName(key string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// UnknownEnv names each LANGCRAWL_* variable of environ (os.Environ's
// form) that sets no key, with the variable a typo away when there is one
// ("LANGCRAWL_WORKRES sets no profile key (did you mean
// LANGCRAWL_WORKERS?); it is ignored"). Such a variable is a warning, not
// an error: the environment is the shell's, and may hold another
// version's settings.
func UnknownEnv(environ []string) []string {
	known := map[string]bool{}
	for _, k := range Keys {
		known[strings.ToLower(strings.TrimPrefix(envName(k.name), envPrefix))] = true
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(strings.ToUpper(name), envPrefix) {
			continue
		}
		rest := strings.ToLower(name[len(envPrefix):])
		if known[rest] && name == envPrefix+strings.ToUpper(rest) {
			continue // only the name in capitals is read
		}
		hint := ""
		if k := nearestKey(rest, known); k != "" {
			hint = fmt.Sprintf(" (did you mean %s?)", envPrefix+strings.ToUpper(k))
		}
		out = append(out, fmt.Sprintf("%s sets no profile key%s; it is ignored", name, hint))
	}
	sort.Strings(out)
	return out
}

// parser reads typed values from viper and collects one error per bad key.
type parser struct {
	v      *viper.Viper
	errs   []error
	failed map[string]bool
}

// source says where key's value came from when not from the profile: the
// flag that set it, or the variable, which overrides the profile. "" for
// the profile and the defaults, and for a key with a parse error already
// saying so.
func source(key string, fs *pflag.FlagSet) string {
	if fs != nil {
		for flag, k := range FlagKeys {
			// --connect-to adds its entries to the profile's, one by
			// one: an entry with a problem is named by the error, and
			// may be the profile's.
			if k == key && flag != "connect-to" {
				if f := fs.Lookup(flag); f != nil && f.Changed {
					return " (from --" + flag + ")"
				}
			}
		}
	}
	// An empty variable sets nothing: viper takes it as unset.
	if v, ok := os.LookupEnv(envName(key)); ok && v != "" {
		return " (from " + envName(key) + ", which overrides the profile)"
	}
	return ""
}

func (p *parser) fail(name string, val any, want string) {
	from := ""
	if v, ok := os.LookupEnv(envName(name)); ok && fmt.Sprint(val) == strings.TrimSpace(v) {
		from = " (from " + envName(name) + ", which overrides the profile)"
	}
	p.errs = append(p.errs, fmt.Errorf("%s: %v is not %s%s", name, val, want, from))
	if p.failed == nil {
		p.failed = map[string]bool{}
	}
	p.failed[name] = true
}

func (p *parser) str(name string) string {
	val := p.v.Get(internal(name))
	switch x := val.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case int, int64, float64, bool:
		return fmt.Sprint(x)
	}
	p.fail(name, val, "a string")
	return ""
}

func (p *parser) strs(name string) []string {
	val := p.v.Get(internal(name))
	switch x := val.(type) {
	case nil:
		return nil
	case string:
		return strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' })
	case []string:
		return append([]string(nil), x...)
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				p.fail(name, e, "a string list item")
				continue
			}
			out = append(out, strings.TrimSpace(s))
		}
		return out
	}
	p.fail(name, val, "a list of strings")
	return nil
}

// seeds reads the seeds list: URLs, and {url, scope, depth} entries.
// Every seed is in the first result; those with a scope also in the second.
func (p *parser) seeds(name string) ([]string, []SeedScope) {
	val := p.v.Get(internal(name))
	list, ok := val.([]any)
	if !ok {
		return p.strs(name), nil
	}
	var urls []string
	var scoped []SeedScope
	for i, e := range list {
		item := fmt.Sprintf("%s: item %d", name, i+1)
		var m map[string]any
		switch x := e.(type) {
		case string:
			urls = append(urls, strings.TrimSpace(x))
			continue
		case map[string]any:
			m = x
		case map[any]any:
			m = map[string]any{}
			for k, v := range x {
				m[fmt.Sprint(k)] = v
			}
		default:
			p.fail(name, e, "a URL or a {url, scope, depth} entry")
			continue
		}
		var s SeedScope
		for k, v := range m {
			switch strings.ToLower(k) {
			case "url":
				s.URL = strings.TrimSpace(fmt.Sprint(v))
			case "scope":
				s.Scope = strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))
			case "depth":
				n, err := strconv.Atoi(strings.TrimSpace(fmt.Sprint(v)))
				if err != nil {
					p.errs = append(p.errs, fmt.Errorf("%s: depth %v is not a whole number", item, v))
					continue
				}
				s.Depth = n
			default:
				p.errs = append(p.errs, fmt.Errorf("%s: unknown key %q (want url, scope, depth)", item, k))
			}
		}
		if s.URL == "" {
			p.errs = append(p.errs, fmt.Errorf("%s: no url", item))
			continue
		}
		urls = append(urls, s.URL)
		scoped = append(scoped, s)
	}
	return urls, scoped
}

func (p *parser) integer(name string) int {
	val := p.v.Get(internal(name))
	switch x := val.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		if x == float64(int(x)) {
			return int(x)
		}
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err == nil {
			return n
		}
	}
	p.fail(name, val, "a whole number")
	return 0
}

func (p *parser) boolean(name string) bool {
	val := p.v.Get(internal(name))
	switch x := val.(type) {
	case bool:
		return x
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(x))
		if err == nil {
			return b
		}
	}
	p.fail(name, val, "true or false")
	return false
}

func (p *parser) duration(name string) time.Duration {
	val := p.v.Get(internal(name))
	switch x := val.(type) {
	case time.Duration:
		return x
	case int:
		if x == 0 {
			return 0
		}
	case string:
		d, err := time.ParseDuration(strings.TrimSpace(x))
		if err == nil {
			return d
		}
	}
	p.fail(name, val, `a duration such as "500ms", "2s" or "1h30m"`)
	return 0
}

func (p *parser) size(name string) int64 {
	val := p.v.Get(internal(name))
	var s string
	switch x := val.(type) {
	case int:
		return int64(x)
	case int64:
		return x
	case float64:
		return int64(x)
	case string:
		s = x
	default:
		p.fail(name, val, `a size such as "1GB" or "100MiB"`)
		return 0
	}
	n, err := ParseSize(s)
	if err != nil {
		p.fail(name, val, `a size such as "1GB" or "100MiB"`)
	}
	return n
}

// float reads a number.
func (p *parser) float(name string) float64 {
	val := p.v.Get(internal(name))
	switch x := val.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err == nil {
			return f
		}
	}
	p.fail(name, val, "a number")
	return 0
}

// hostRules reads the hosts map: host or .domain to delay,
// max_pages_per_site, max_pages_per_domain, robots and recrawl_interval.
func (p *parser) hostRules(name string) map[string]HostRules {
	val := p.v.Get(internal(name))
	m, ok := val.(map[string]any)
	if val == nil || ok && len(m) == 0 {
		return nil
	}
	if !ok {
		p.fail(name, val, "a map of host (or .domain) to settings")
		return nil
	}
	out := make(map[string]HostRules, len(m))
	for h, raw := range m {
		key := name + "." + h
		// As crawled URLs carry it: an internationalised name in
		// punycode, so that "ทดสอบ.th" applies.
		host, err := hostmatch.Key(h)
		if err != nil {
			p.fail(key, h, "a host name or .domain, without a port")
			continue
		}
		set, ok := raw.(map[string]any)
		if !ok {
			p.fail(key, raw, "a map of delay, max_pages_per_site, max_pages_per_domain, robots and recrawl_interval")
			continue
		}
		var r HostRules
		for k, v := range set {
			switch strings.ToLower(k) {
			case "delay":
				d, err := time.ParseDuration(fmt.Sprint(v))
				if err != nil || d < 0 {
					p.fail(key+".delay", v, "a duration such as 5s")
					continue
				}
				r.Delay = &d
			case "max_pages_per_site", "max_pages_per_domain":
				n, err := strconv.Atoi(fmt.Sprint(v))
				if err != nil || n < 0 {
					p.fail(key+"."+strings.ToLower(k), v, "a whole number, 0 for no limit")
					continue
				}
				if strings.ToLower(k) == "max_pages_per_site" {
					r.MaxPagesPerSite = &n
				} else {
					r.MaxPagesPerDomain = &n
				}
			case "recrawl_interval":
				d, err := time.ParseDuration(fmt.Sprint(v))
				if err != nil || d < 0 {
					p.fail(key+".recrawl_interval", v, "a duration such as 720h")
					continue
				}
				r.RecrawlInterval = &d
			case "robots":
				s := fmt.Sprint(v)
				if s != "obey" && s != "ignore" {
					p.fail(key+".robots", v, "obey or ignore")
					continue
				}
				r.Robots = s
			default:
				p.errs = append(p.errs, fmt.Errorf("%s.%s: unknown key (want delay, max_pages_per_site, max_pages_per_domain, robots or recrawl_interval)", key, k))
			}
		}
		out[host] = r
	}
	return out
}

func (p *parser) hostMap(name string) map[string]string {
	out := map[string]string{}
	val := p.v.Get(internal(name))
	switch x := val.(type) {
	case nil:
	case map[string]string:
		for h, a := range x {
			out[strings.ToLower(h)] = a
		}
	case map[string]any:
		for h, a := range x {
			s, ok := a.(string)
			if !ok {
				p.fail(name+"."+h, a, "an ip:port string")
				continue
			}
			out[strings.ToLower(h)] = s
		}
	case string:
		// From the environment: "host=ip:port,*=ip:port".
		for _, kv := range strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == ' ' }) {
			h, a, ok := strings.Cut(kv, "=")
			if !ok {
				p.fail(name, kv, "HOST=IP:PORT")
				continue
			}
			out[strings.ToLower(h)] = a
		}
	default:
		p.fail(name, val, "a map of host to ip:port")
	}
	return out
}

var sizeRE = regexp.MustCompile(`^(?i)\s*([0-9]+(?:\.[0-9]+)?)\s*(b|kb|mb|gb|tb|kib|mib|gib|tib)?\s*$`)

// ParseSize reads a byte size: a plain number of bytes, or a number with a
// unit. KB, MB, GB and TB are powers of 1000; KiB, MiB, GiB and TiB powers
// of 1024.
func ParseSize(s string) (int64, error) {
	m := sizeRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("config: bad size %q", s)
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, fmt.Errorf("config: bad size %q: %w", s, err)
	}
	mult := map[string]float64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}[strings.ToLower(m[2])]
	return int64(f * mult), nil
}

// EachSeed streams a seeds file: it calls fn with each seed and its line
// number, skipping blank lines and comments (cutComment), and stops at the
// first error fn returns. A bare host name gets http:// (NormalizeSeed).
// It holds one line in memory at a time.
func EachSeed(path string, fn func(line int, seed string) error) error {
	return EachSeedLine(path, func(line int, _, seed string) error { return fn(line, seed) })
}

// EachSeedLine is EachSeed that also gives each seed as it was written
// (trimmed), so a caller can tell which got http://.
func EachSeedLine(path string, fn func(line int, raw, seed string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(cutComment(sc.Text()))
		if line == "" {
			continue
		}
		if err := fn(n, line, NormalizeSeed(line)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", path, n+1, err)
	}
	return nil
}

// cutComment cuts a seeds file line at its comment: a '#' at the start
// or after white space, as in action files. A URL holds no white space,
// so its own '#' (a fragment) stays. Before, "URL # note" became the seed
// "URL%20" (an archivist's trial).
func cutComment(line string) string {
	for i, r := range line {
		if r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}

// NormalizeSeed gives a bare host name, or a host and path, http://:
// "thai-news.test" becomes "http://thai-news.test". Anything with a
// scheme is left as it is.
func NormalizeSeed(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.Contains(s, "://") || hasOtherScheme(s) {
		return s
	}
	host := s
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		host = s[:i]
	}
	if strings.ContainsAny(host, " \t") {
		// No host name at all ("not a url"): left as given, for the seed
		// check to name. A space in the path is the path's.
		return s
	}
	return "http://" + s
}

// hasOtherScheme reports whether s starts with a scheme and no "//"
// (mailto:, javascript:, urn:): such a seed is left as given, for the seed
// check to refuse, not read as a host with a user name. A host and port
// (example.org:8080) has none, a port being digits, and neither has
// user:password@host, unless the scheme is one without a host
// (opaqueSchemes: mailto:someone@example.org).
func hasOtherScheme(s string) bool {
	m := otherScheme.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	if opaqueSchemes[strings.ToLower(m[1])] {
		return true
	}
	rest := s[len(m[1])+1:]
	at, slash := strings.IndexByte(rest, '@'), strings.IndexAny(rest, "/?#")
	return at < 0 || slash >= 0 && slash < at
}

// nearestKey returns the known key nearest to key, when a typo away: at
// most two letters added, dropped, changed or swapped, under the same
// parent ("wrkers" -> workers, "focus.langauge" -> focus.language); ""
// when none is.
func nearestKey(key string, known map[string]bool) string {
	parent := key[:strings.LastIndexByte(key, '.')+1]
	best, bestD := "", 3
	for k := range known {
		if !strings.HasPrefix(k, parent) || strings.Contains(k[len(parent):], ".") {
			continue
		}
		if d := editDistance(key[len(parent):], k[len(parent):]); d < bestD || d == bestD && k < best {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, each 1.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// opaqueSchemes are schemes whose URLs name no host: a seed in one is
// refused even with an @ in it.
var opaqueSchemes = map[string]bool{"mailto": true, "javascript": true, "tel": true, "data": true, "urn": true, "news": true, "sms": true}

// otherScheme matches what may be a scheme without "//" (hasOtherScheme):
// a name and a colon not followed by a digit, as a port would be.
var otherScheme = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*):([^0-9]|$)`)

// contactRE is Heritrix's rule: the User-Agent must name a contact URL
// after a plus sign inside parentheses.
var contactRE = regexp.MustCompile(`\(.*\+https?://[^\s)]+\.[^\s)]+.*\)`)

// addressClasses are the names fetch.AddressClasses lists, for
// network.allow_addresses; fetch.New checks them again.
var addressClasses = map[string]bool{"loopback": true, "private": true, "link-local": true, "cgnat": true,
	"multicast": true, "unspecified": true, "broadcast": true, "reserved": true, "self": true}

var strategies = []string{"bfs", "hard-focused", "soft-focused", "aggressive-server", "conservative-server", "conservative-directory", "evidence", "sequential"}

// Validate checks every value and returns all problems joined, each naming
// its key. Load calls it; callers that build a Config by hand should too.
func (c *Config) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{key}, a...)...))
	}
	if len(c.Seeds) == 0 && c.SeedsFile == "" {
		bad("seeds", "no seed URLs; give seeds in the profile, seeds_file, --seeds FILE or --seed URL")
	}
	for _, s := range c.Seeds {
		u, err := url.Parse(s)
		if (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") && !c.SkipBadSeeds {
			bad("seeds", "%q is not an absolute http(s) URL (--skip-bad-seeds goes on without it)", s)
		}
	}
	for _, s := range c.SeedScopes {
		if s.Scope != "" {
			if _, err := scope.ParseKind(s.Scope); err != nil {
				bad("seeds", "%s: scope %q must be host, domain or prefix", s.URL, s.Scope)
			}
		}
		if s.Depth < 0 {
			bad("seeds", "%s: depth %d must be at least 1 (0 or none: the profile's depth)", s.URL, s.Depth)
		}
	}
	for k, rules := range map[string][]string{"scope.include": c.Scope.Include, "scope.exclude": c.Scope.Exclude} {
		for _, r := range rules {
			if r == "" {
				bad(k, "an empty regular expression would match every URL")
			} else if _, err := regexp.Compile(r); err != nil {
				bad(k, "%q is not an RE2 regular expression: %v", r, err)
			}
		}
	}
	for k, rules := range map[string][]string{"scope.surt_include": c.Scope.SURTInclude, "scope.surt_exclude": c.Scope.SURTExclude} {
		for _, r := range rules {
			if _, err := scope.SURTPrefix(r); err != nil {
				bad(k, "%q is not a SURT prefix such as http://(th,co, or a URL: %s", r, strings.TrimPrefix(err.Error(), scope.ErrRule.Error()+": "))
			}
		}
	}
	if c.Out == "" {
		bad("out", "empty; name an output directory")
	}
	if c.WARC.Prefix == "" || strings.ContainsAny(c.WARC.Prefix, `/\`) || strings.ContainsFunc(c.WARC.Prefix, unicode.IsControl) {
		bad("warc.prefix", "%q must be a non-empty file name part without slashes or control characters", c.WARC.Prefix)
	}
	if c.WARC.MaxSize < 1<<20 {
		bad("warc.max_size", "%d bytes is below the 1 MiB minimum", c.WARC.MaxSize)
	}
	if c.CrawlLog.MaxSize != 0 && c.CrawlLog.MaxSize < 4<<10 {
		bad("crawl_log.max_size", "%d bytes is below the 4 KiB minimum (0: never rotate)", c.CrawlLog.MaxSize)
	}
	if c.UserAgent == "" {
		bad("user_agent", `missing; set one with an operator contact URL, e.g. "langcrawl/0.1 (+https://library.example/crawl)"`)
	} else if strings.ContainsFunc(c.UserAgent, unicode.IsControl) {
		// A line break would end the header: the fetcher refuses it, but
		// only after the start has made the output directory (a review).
		bad("user_agent", "%q holds a line break or another control character", c.UserAgent)
	} else if !contactRE.MatchString(c.UserAgent) {
		// A URL without its "+" is the common slip: said as that, not
		// as no URL at all (a README trial).
		what := "has no operator contact URL"
		if strings.Contains(c.UserAgent, "http://") || strings.Contains(c.UserAgent, "https://") {
			what = `has its contact URL not as "(+URL)", the "+" before it inside the parentheses`
		}
		bad("user_agent", `%q %s; write it as "name/version (+https://your.site/contact)"`, c.UserAgent, what)
	}
	if c.Workers < 1 || c.Workers > 10000 {
		bad("workers", "%d must be between 1 and 10000", c.Workers)
	}
	if c.Delay < 0 {
		bad("delay", "%s must not be negative", c.Delay)
	}
	if c.Depth < 1 {
		bad("depth", "%d must be at least 1", c.Depth)
	}
	if c.MaxPagesPerSite < 1 {
		bad("max_pages_per_site", "%d must be at least 1", c.MaxPagesPerSite)
	}
	if c.MaxPagesPerDomain < 0 {
		bad("max_pages_per_domain", "%d must not be negative (0: no limit)", c.MaxPagesPerDomain)
	}
	if c.MaxSitesPerAddress < 0 {
		bad("max_sites_per_address", "%d must not be negative (0: no limit)", c.MaxSitesPerAddress)
	}
	if c.MaxPages < 0 {
		bad("max_pages", "%d must not be negative (0: no limit)", c.MaxPages)
	}
	if c.MaxTime < 0 {
		bad("max_time", "%s must not be negative (0: no limit)", c.MaxTime)
	}
	if c.AdaptiveDelay.Factor < 0 || c.AdaptiveDelay.Factor > 1000 {
		bad("adaptive_delay.factor", "%v must be between 0 and 1000", c.AdaptiveDelay.Factor)
	}
	if c.AdaptiveDelay.Min < 0 || c.AdaptiveDelay.Max < c.AdaptiveDelay.Min {
		bad("adaptive_delay.max", "%s must be at least adaptive_delay.min (%s), and neither negative", c.AdaptiveDelay.Max, c.AdaptiveDelay.Min)
	}
	if c.Metrics.Listen != "" {
		host, port, err := net.SplitHostPort(c.Metrics.Listen)
		n, perr := strconv.Atoi(port)
		switch {
		case err != nil:
			bad("metrics.listen", "%q is not host:port: %v", c.Metrics.Listen, err)
		case perr != nil || n < 1 || n > 65535:
			bad("metrics.listen", "%q: port %q is not a number from 1 to 65535", c.Metrics.Listen, port)
		case (host == "*" || isUnspecified(host)) && !c.Metrics.AllInterfaces:
			bad("metrics.listen", "%q listens on every interface, reachable from the network; set metrics.all_interfaces: true if that is meant, or use 127.0.0.1", c.Metrics.Listen)
		}
	}
	if c.Recrawl.DedupMinSize < 0 {
		bad("recrawl.dedup_min_size", "%d must not be negative (0: off)", c.Recrawl.DedupMinSize)
	}
	if c.Recrawl.Interval < 0 {
		bad("recrawl.interval", "%s must not be negative", c.Recrawl.Interval)
	}
	if c.MaxBytes < 0 {
		bad("max_bytes", "%d must not be negative (0: no limit)", c.MaxBytes)
	}
	if c.Retries.Max < 1 || c.Retries.Max > 1000 {
		bad("retries.max", "%d must be between 1 and 1000", c.Retries.Max)
	}
	if c.Retries.Delay <= 0 {
		bad("retries.delay", "%s must be positive", c.Retries.Delay)
	}
	if c.Retries.MaxDelay < c.Retries.Delay {
		bad("retries.max_delay", "%s must be at least retries.delay (%s)", c.Retries.MaxDelay, c.Retries.Delay)
	}
	if c.MaxBodySize < 1024 {
		bad("max_body_size", "%d bytes is below the 1 KiB minimum", c.MaxBodySize)
	}
	for k, d := range map[string]time.Duration{"timeouts.connect": c.Timeouts.Connect, "timeouts.fetch": c.Timeouts.Fetch, "timeouts.read": c.Timeouts.Read, "timeouts.drain": c.Timeouts.Drain} {
		if d <= 0 {
			bad(k, "%s must be positive", d)
		}
	}
	if c.Robots.Policy != "obey" && c.Robots.Policy != "ignore" {
		bad("robots.policy", "%q must be obey or ignore", c.Robots.Policy)
	}
	if c.Robots.MaxCrawlDelay < 0 {
		bad("robots.max_crawl_delay", "%s must not be negative", c.Robots.MaxCrawlDelay)
	}
	for k, n := range map[string]int{"scope.max_url_length": c.Scope.MaxURLLength, "scope.max_path_segments": c.Scope.MaxPathSegments,
		"scope.max_repeated_segment": c.Scope.MaxRepeatedSegment, "scope.max_query_params": c.Scope.MaxQueryParams,
		"scope.max_embed_hops": c.Scope.MaxEmbedHops} {
		if n < 1 {
			bad(k, "%d must be at least 1", n)
		}
	}
	hosts := make([]string, 0, len(c.Network.ConnectTo))
	for h := range c.Network.ConnectTo {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		addr := c.Network.ConnectTo[h]
		if h != "*" {
			// The key in the form the fetcher looks hosts up in: lower
			// case, punycode, no trailing dot. A key that could never
			// match (a port, a scheme, a path, a space) is an error: it
			// sent the host past the mapping to DNS (an address-guard
			// trial: ทดสอบ.test and good.test:80 were looked up in DNS).
			k, err := hostmatch.Key(h)
			if a, perr := netip.ParseAddr(strings.Trim(strings.TrimSpace(h), "[]")); perr == nil {
				k, err = a.String(), nil // an IP literal, as the fetcher reads URL hosts: ::1
			}
			switch {
			case strings.Contains(h, "*"):
				bad("network.connect_to", "%q: a key is a host name or * alone (no wildcard in a name)", h)
				continue
			case err != nil:
				bad("network.connect_to", "%v; a key is a host name or *", err)
				continue
			case strings.HasPrefix(k, "."):
				bad("network.connect_to", "%q: a key is a host name or *, not a .domain", h)
				continue
			case k != h:
				if _, dup := c.Network.ConnectTo[k]; dup {
					bad("network.connect_to", "%q and %q name the same host", h, k)
					continue
				}
				delete(c.Network.ConnectTo, h)
				c.Network.ConnectTo[k] = addr
			}
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil || net.ParseIP(host) == nil {
			bad("network.connect_to", "%s=%q: want IP:PORT, e.g. 127.0.0.1:8080", h, addr)
			continue
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			bad("network.connect_to", "%s=%q: port must be 1-65535", h, addr)
		}
	}
	for _, a := range c.Network.AllowAddresses {
		if _, _, err := net.ParseCIDR(a); err != nil && net.ParseIP(a) == nil && !addressClasses[strings.ToLower(a)] {
			bad("network.allow_addresses", "%q is neither an address class (loopback, private, link-local, cgnat, multicast, unspecified, broadcast, reserved, self) nor a CIDR prefix such as 10.0.0.0/8", a)
		}
	}
	for _, a := range c.Network.DenyAddresses {
		if _, _, err := net.ParseCIDR(strings.TrimSpace(a)); err != nil && net.ParseIP(strings.TrimSpace(a)) == nil {
			bad("network.deny_addresses", "%q is neither a CIDR prefix such as 192.0.2.0/24 nor an address", a)
		}
	}
	for _, l := range c.Focus.Languages() {
		if !regexp.MustCompile(`^[a-z]{2}(-[a-z]{4})?$`).MatchString(l) {
			bad("focus.language", "%q must be a two-letter ISO 639-1 code such as th (or a list of them: fi, sv; or one with a script: zh-hant)", l)
		}
	}
	okStrategy := false
	for _, s := range strategies {
		okStrategy = okStrategy || s == c.Focus.Strategy
	}
	if !okStrategy {
		bad("focus.strategy", "%q must be one of %s", c.Focus.Strategy, strings.Join(strategies, ", "))
	}
	if c.Focus.Tolerance < 1 {
		bad("focus.tolerance", "%d must be at least 1", c.Focus.Tolerance)
	}
	if c.Focus.DecayEvery < 0 {
		bad("focus.tolerance_decay_every", "%d must not be negative (0: no decay)", c.Focus.DecayEvery)
	}
	if c.Focus.Floor < 0 || c.Focus.Floor > c.Focus.Tolerance {
		bad("focus.tolerance_floor", "%d must be between 0 and focus.tolerance (%d)", c.Focus.Floor, c.Focus.Tolerance)
	}
	if d := c.Focus.ForeignDirs; d != "keep" && d != "cut" {
		bad("focus.foreign_dirs", "%q must be keep or cut", d)
	}
	if e := c.Focus.ErrorBound; !(e > 0 && e < 0.5) {
		bad("focus.error_bound", "%g must lie strictly between 0 and 0.5, e.g. 0.01 (one foreign server in a hundred judged relevant)", e)
	}
	if c.Focus.LinkEvidence && c.Focus.Strategy != "sequential" {
		bad("focus.link_evidence", "is for focus.strategy sequential, not %q", c.Focus.Strategy)
	} else if c.Focus.LinkEvidence && c.Focus.Language == "" {
		bad("focus.link_evidence", "needs focus.language: links are scored for the target language")
	}
	if b := c.Focus.MissBound; !(b > 0 && b < 0.5) {
		bad("focus.miss_bound", "%g must lie strictly between 0 and 0.5, e.g. 0.001 (one target server lost in a thousand)", b)
	}
	if c.Bandwidth.Limit < 0 {
		bad("bandwidth.limit", "%d must not be negative (0: no limit)", c.Bandwidth.Limit)
	}
	// Zero search depth, default rate and order (a Config built by hand)
	// mean the packages' defaults.
	if c.Bandwidth.SearchDepth < 0 || c.Bandwidth.SearchDepth > 1024 {
		bad("bandwidth.search_depth", "%d must be between 1 and 1024", c.Bandwidth.SearchDepth)
	}
	if c.Bandwidth.ReceiveBuffer < 0 || c.Bandwidth.ReceiveBuffer > 64<<20 {
		bad("bandwidth.receive_buffer", "%d must be between 0 (L/256) and 64MiB", c.Bandwidth.ReceiveBuffer)
	}
	if c.Bandwidth.DefaultRate < 0 {
		bad("bandwidth.default_rate", "%d must be positive", c.Bandwidth.DefaultRate)
	}
	if o := c.Scheduling.Order; o != "" && o != "length" && o != "breadth" && o != "random" {
		bad("scheduling.order", "%q must be length, breadth or random", o)
	}
	if k := c.Scheduling.PagesPerConnection; k < 0 || k > 100000 { // 0: the fetch default
		bad("scheduling.pages_per_connection", "%d must be between 1 and 100000", k)
	}
	if n := c.Scheduling.DomainConnections; n < 0 {
		bad("scheduling.domain_connections", "%d must not be negative (0: no limit)", n)
	}
	if n := c.Scheduling.AddressConnections; n < 0 {
		bad("scheduling.address_connections", "%d must not be negative (0: no limit)", n)
	}
	if k := c.Scheduling.SeenCache; k < 0 || k > 1<<30 { // 0: the frontier's default
		bad("scheduling.seen_cache", "%d must be between 1 and 1073741824", k)
	}
	if n := c.Scheduling.FrontierCache; n != 0 && (n < 1<<20 || n > 1<<40) { // 0: DefaultFrontierCache
		bad("scheduling.frontier_cache", "%s must be between 1MiB and 1TiB (0: the default, %s)", FormatSize(n), FormatSize(DefaultFrontierCache))
	}
	if c.Durability.SyncInterval < 0 {
		bad("durability.sync_interval", "%s must not be negative (0: sync at every URL)", c.Durability.SyncInterval)
	}
	if c.Durability.MinFreeSpace < 0 {
		bad("durability.min_free_space", "%d must not be negative (0: never pause)", c.Durability.MinFreeSpace)
	}
	if len(c.Focus.Charsets) > 0 && c.Focus.Language == "" {
		bad("focus.charsets", "set focus.language too; the text must confirm a charset-defined target")
	}
	return errors.Join(errs...)
}

// YAML renders the resolved configuration as a profile that Load accepts,
// for `langcrawl config` and the warcinfo record.
func (c *Config) YAML() string {
	m := map[string]any{}
	b, _ := yaml.Marshal(c)
	_ = yaml.Unmarshal(b, &m)
	// Durations and sizes read better as text than as nanoseconds.
	m["delay"] = c.Delay.String()
	m["max_time"] = c.MaxTime.String()
	m["adaptive_delay"] = map[string]any{"factor": c.AdaptiveDelay.Factor, "min": c.AdaptiveDelay.Min.String(), "max": c.AdaptiveDelay.Max.String()}
	if len(c.Hosts) > 0 {
		hosts := map[string]any{}
		for h, r := range c.Hosts {
			o := map[string]any{}
			if r.Delay != nil {
				o["delay"] = r.Delay.String()
			}
			if r.MaxPagesPerSite != nil {
				o["max_pages_per_site"] = *r.MaxPagesPerSite
			}
			if r.MaxPagesPerDomain != nil {
				o["max_pages_per_domain"] = *r.MaxPagesPerDomain
			}
			if r.Robots != "" {
				o["robots"] = r.Robots
			}
			if r.RecrawlInterval != nil {
				o["recrawl_interval"] = r.RecrawlInterval.String()
			}
			hosts[h] = o
		}
		m["hosts"] = hosts
	}
	if len(c.SeedScopes) > 0 {
		scoped := map[string]SeedScope{}
		for _, s := range c.SeedScopes {
			scoped[s.URL] = s
		}
		seeds := make([]any, 0, len(c.Seeds))
		for _, s := range c.Seeds {
			if sc, ok := scoped[s]; ok {
				seeds = append(seeds, sc)
				continue
			}
			seeds = append(seeds, s)
		}
		m["seeds"] = seeds
	}
	m["recrawl"] = map[string]any{"interval": c.Recrawl.Interval.String(), "dedup_min_size": c.Recrawl.DedupMinSize,
		"recheck_irrelevant": c.Recrawl.RecheckIrrelevant}
	if c.Recrawl.Previous != "" {
		m["recrawl"].(map[string]any)["previous"] = c.Recrawl.Previous
	}
	if len(c.Recrawl.DedupIndex) > 0 {
		m["recrawl"].(map[string]any)["dedup_index"] = c.Recrawl.DedupIndex
	}
	m["retries"] = map[string]any{"max": c.Retries.Max, "delay": c.Retries.Delay.String(), "max_delay": c.Retries.MaxDelay.String()}
	m["timeouts"] = map[string]string{"connect": c.Timeouts.Connect.String(), "fetch": c.Timeouts.Fetch.String(), "read": c.Timeouts.Read.String(), "drain": c.Timeouts.Drain.String()}
	if r, ok := m["robots"].(map[string]any); ok {
		r["max_crawl_delay"] = c.Robots.MaxCrawlDelay.String()
	}
	size := func(n int64) any { // 0 stays a number
		if n == 0 {
			return 0
		}
		return FormatSize(n)
	}
	m["durability"] = map[string]any{"sync_interval": c.Durability.SyncInterval.String(), "min_free_space": size(c.Durability.MinFreeSpace)}
	m["recrawl"].(map[string]any)["dedup_min_size"] = size(c.Recrawl.DedupMinSize)
	m["max_bytes"], m["max_body_size"] = size(c.MaxBytes), size(c.MaxBodySize)
	if w, ok := m["warc"].(map[string]any); ok {
		w["max_size"] = size(c.WARC.MaxSize)
	}
	if sc, ok := m["scheduling"].(map[string]any); ok {
		sc["frontier_cache"] = size(c.Scheduling.FrontierCache)
	}
	m["crawl_log"] = map[string]any{"max_size": size(c.CrawlLog.MaxSize)}
	if bw, ok := m["bandwidth"].(map[string]any); ok {
		bw["limit"], bw["default_rate"], bw["receive_buffer"] = size(c.Bandwidth.Limit), size(c.Bandwidth.DefaultRate), size(c.Bandwidth.ReceiveBuffer)
	}
	b, _ = yaml.Marshal(m)
	return string(b)
}

// FormatSize writes n as ParseSize reads it back exactly: in the largest
// binary or decimal unit that divides it (1GiB, 100MiB, 1GB), else in
// bytes; 0 as "0".
func FormatSize(n int64) string {
	if n == 0 {
		return "0"
	}
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"TB", 1e12}, {"GiB", 1 << 30}, {"GB", 1e9}, {"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"KB", 1e3}} {
		if n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
