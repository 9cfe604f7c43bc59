package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestLoadGoodProfile(t *testing.T) {
	c, err := Load("testdata/good.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The profile's own seeds are read; the seeds file is streamed by
	// the crawl (EachSeed), never held in memory or copied into the
	// resolved profile.
	if strings.Join(c.Seeds, " ") != "http://th-news1.test/" {
		t.Errorf("seeds = %v, want the profile's own", c.Seeds)
	}
	var fromFile []string
	if err := EachSeed(c.SeedsFile, func(line int, s string) error {
		fromFile = append(fromFile, fmt.Sprintf("%d:%s", line, s))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := "2:http://th-blog2.test/ 4:http://jp-shop1.test/a"; strings.Join(fromFile, " ") != want {
		t.Errorf("seeds file = %v, want %s (seeds_file relative to the profile, with line numbers)", fromFile, want)
	}
	if strings.Contains(c.YAML(), "jp-shop1") {
		t.Error("the resolved profile copies the seeds file")
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"workers", c.Workers, 4},
		{"delay", c.Delay, 250 * time.Millisecond},
		{"depth (default)", c.Depth, 8},
		{"warc.max_size", c.WARC.MaxSize, int64(500_000_000)},
		{"warc.compress", c.WARC.Compress, false},
		{"warc.prefix (default)", c.WARC.Prefix, "langcrawl"},
		{"max_body_size (default)", c.MaxBodySize, int64(100 << 20)},
		{"connect_to host with dots", c.Network.ConnectTo["th-news1.test"], "127.0.0.1:8080"},
		{"connect_to *", c.Network.ConnectTo["*"], "127.0.0.1:9090"},
		{"focus.strategy (default)", c.Focus.Strategy, "conservative-server"},
		{"focus.tolerance (default)", c.Focus.Tolerance, 10},
		{"robots.policy (default)", c.Robots.Policy, "obey"},
		{"scope.one_query_per_script (default)", c.Scope.OneQueryPerScript, true},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}

func TestBadProfileNamesEveryKey(t *testing.T) {
	_, err := Load("testdata/bad.yaml", nil)
	if err == nil {
		t.Fatal("bad profile accepted")
	}
	msg := err.Error()
	for _, key := range []string{"detph: unknown key", "seeds: \"ftp://nowhere.example/\"", "user_agent:", "workers:",
		"delay:", "warc.max_size:", "robots.policy:", "network.connect_to: a.test", "focus.strategy:"} {
		if !strings.Contains(msg, key) {
			t.Errorf("error does not mention %q:\n%s", key, msg)
		}
	}
	for _, key := range []string{"warc.max_size:", "workers:", "delay:"} {
		if n := strings.Count(msg, key); n != 1 {
			t.Errorf("%s reported %d times, want once:\n%s", key, n, msg)
		}
	}
}

func TestPrecedence(t *testing.T) {
	// default < profile < environment < flag
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.yaml")
	os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nworkers: 3\ndepth: 5\ndelay: 2s\n"), 0o644)
	t.Setenv("LANGCRAWL_DEPTH", "6")
	t.Setenv("LANGCRAWL_DELAY", "3s")
	t.Setenv("LANGCRAWL_WARC_PREFIX", "envprefix")
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	AddFlags(fs)
	if err := fs.Parse([]string{"--delay=4s", "--connect-to", "a.test=127.0.0.1:1", "--connect-to=*=127.0.0.1:2"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(prof, fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.Workers != 3 {
		t.Errorf("workers = %d, want 3 from the profile", c.Workers)
	}
	if c.Depth != 6 {
		t.Errorf("depth = %d, want 6 from the environment over the profile", c.Depth)
	}
	if c.Delay != 4*time.Second {
		t.Errorf("delay = %s, want 4s from the flag over environment and profile", c.Delay)
	}
	if c.WARC.Prefix != "envprefix" {
		t.Errorf("warc.prefix = %q, want envprefix from LANGCRAWL_WARC_PREFIX", c.WARC.Prefix)
	}
	if c.MaxBodySize != 100<<20 {
		t.Errorf("max_body_size = %d, want the default", c.MaxBodySize)
	}
	if c.Network.ConnectTo["a.test"] != "127.0.0.1:1" || c.Network.ConnectTo["*"] != "127.0.0.1:2" {
		t.Errorf("connect_to = %v", c.Network.ConnectTo)
	}
}

func TestUserAgentNeedsContact(t *testing.T) {
	for ua, ok := range map[string]bool{
		"langcrawl/0.1 (+https://library.example/crawl)":             true,
		"Mozilla/5.0 (compatible; langcrawl/0.1; +http://x.org/bot)": true,
		"langcrawl/0.1": false,
		"langcrawl/0.1 (https://library.example)": false,
		"langcrawl/0.1 (+mailto:me@example.org)":  false,
	} {
		cfg := validBase()
		cfg.UserAgent = ua
		err := cfg.Validate()
		if (err == nil) != ok {
			t.Errorf("user_agent %q: err = %v, want ok=%v", ua, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "user_agent") {
			t.Errorf("error does not name user_agent: %v", err)
		}
		// A URL written without its "+" is said as that, not as no URL
		// (a README trial).
		if err != nil && strings.Contains(ua, "https://") && !strings.Contains(err.Error(), `the "+" before it`) {
			t.Errorf("user_agent %q: %v, want it to say the \"+\" is missing", ua, err)
		}
	}
}

func validBase() *Config {
	return &Config{
		Seeds: []string{"http://a.test/"}, Out: "o", WARC: WARC{Prefix: "p", MaxSize: 1 << 30},
		UserAgent: "x/1 (+https://l.example/c)", Workers: 1, Depth: 8, MaxPagesPerSite: 10, MaxBodySize: 1 << 20,
		Timeouts: Timeouts{time.Second, time.Second, time.Second, time.Second}, Robots: Robots{Policy: "obey"},
		Scope: Scope{MaxURLLength: 1, MaxPathSegments: 1, MaxRepeatedSegment: 1, MaxQueryParams: 1, MaxEmbedHops: 1},
		Focus: Focus{Strategy: "bfs", Tolerance: 10, ErrorBound: 0.01, MissBound: 0.001, ForeignDirs: "keep"}, Retries: Retries{Max: 1, Delay: time.Second, MaxDelay: time.Second},
	}
}

func TestRetriesAndBudgetKeys(t *testing.T) {
	cfg := validBase()
	cfg.Retries = Retries{Max: 0, Delay: time.Minute, MaxDelay: time.Second}
	cfg.MaxBytes = -1
	cfg.Timeouts.Drain = 0
	err := cfg.Validate()
	for _, key := range []string{"retries.max", "retries.max_delay", "max_bytes", "timeouts.drain"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("error %v does not name %s", err, key)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1GB": 1e9, "100MiB": 100 << 20, "512": 512, "1.5 kb": 1500, "2gib": 2 << 30} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "huge", "1XB", "-1GB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

func TestYAMLRoundTrip(t *testing.T) {
	c, err := Load("testdata/good.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "resolved.yaml")
	os.WriteFile(p, []byte(c.YAML()), 0o644)
	c2, err := Load(p, nil)
	if err != nil {
		t.Fatalf("resolved config does not load back: %v\n%s", err, c.YAML())
	}
	if c2.YAML() != c.YAML() {
		t.Errorf("round trip differs:\n%s\n---\n%s", c.YAML(), c2.YAML())
	}
}

// loadText writes text, after a seed and a user agent, as a profile in a
// temporary directory and loads it; it returns the profile's path too.
func loadText(t *testing.T, text string) (*Config, string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(p, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p, nil)
	return c, p, err
}

func TestDefaultFloorFollowsSmallTolerance(t *testing.T) {
	c, _, err := loadText(t, "focus: {language: th, tolerance: 3}\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.Focus.Floor != 3 {
		t.Errorf("focus.tolerance_floor = %d, want the default 5 capped at T = 3", c.Focus.Floor)
	}
	if _, _, err := loadText(t, "focus: {language: th, tolerance: 3, tolerance_floor: 4}\n"); err == nil || !strings.Contains(err.Error(), "focus.tolerance_floor") {
		t.Errorf("an explicit floor above T was accepted: %v", err)
	}
}

func TestAllowAddresses(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.yaml")
	base := "seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\n"
	os.WriteFile(prof, []byte(base+"network: {allow_addresses: [loopback, Private, 10.20.0.0/16, \"fd00::/8\", 192.0.2.7]}\n"), 0o644)
	c, err := Load(prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Network.AllowAddresses, " "); got != "loopback Private 10.20.0.0/16 fd00::/8 192.0.2.7" {
		t.Errorf("network.allow_addresses = %q", got)
	}
	os.WriteFile(prof, []byte(base), 0o644)
	if c, err := Load(prof, nil); err != nil || len(c.Network.AllowAddresses) != 0 {
		t.Errorf("default network.allow_addresses = %v, %v; want none", c.Network.AllowAddresses, err)
	}
	t.Setenv("LANGCRAWL_NETWORK_ALLOW_ADDRESSES", "loopback,cgnat")
	if c, err := Load(prof, nil); err != nil || strings.Join(c.Network.AllowAddresses, " ") != "loopback cgnat" {
		t.Errorf("from the environment: %v, %v", c.Network.AllowAddresses, err)
	}
	os.Unsetenv("LANGCRAWL_NETWORK_ALLOW_ADDRESSES")

	os.WriteFile(prof, []byte(base+"network: {allow_addresses: [loopback, intranet, 10.0.0.0/33]}\n"), 0o644)
	_, err = Load(prof, nil)
	if err == nil {
		t.Fatal("bad network.allow_addresses accepted")
	}
	for _, want := range []string{`network.allow_addresses: "intranet"`, `network.allow_addresses: "10.0.0.0/33"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), `"loopback"`) {
		t.Errorf("a good entry reported:\n%v", err)
	}
}

// TestDenyAddresses: network.deny_addresses takes CIDR prefixes and
// addresses, defaults to none, and names each bad entry.
func TestDenyAddresses(t *testing.T) {
	c, _, err := loadText(t, "network: {deny_addresses: [130.225.0.0/16, \"2001:878::/32\", 93.184.216.34]}\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Network.DenyAddresses, " "); got != "130.225.0.0/16 2001:878::/32 93.184.216.34" {
		t.Errorf("network.deny_addresses = %q", got)
	}
	if c, _, err := loadText(t, ""); err != nil || len(c.Network.DenyAddresses) != 0 {
		t.Errorf("default network.deny_addresses = %v, %v; want none", c.Network.DenyAddresses, err)
	}
	_, _, err = loadText(t, "network: {deny_addresses: [private, 10.0.0.0/33, 192.0.2.0/24]}\n")
	for _, want := range []string{`network.deny_addresses: "private"`, `network.deny_addresses: "10.0.0.0/33"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
	if err != nil && strings.Contains(err.Error(), `"192.0.2.0/24"`) {
		t.Errorf("a good entry reported: %v", err)
	}
}

func TestHostsOverrides(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.yaml")
	os.WriteFile(prof, []byte(`seeds: [http://a.test/]
user_agent: "x/1 (+https://lib.example/c)"
adaptive_delay: {factor: 5}
hosts:
  slow.example.org: {delay: 10s, recrawl_interval: 720h}
  .gov.th: {max_pages_per_site: 0, robots: ignore}
  .chula.ac.th: {max_pages_per_domain: 0}
  ทดสอบ.test: {delay: 3s}
  Slow.Example.COM: {delay: 4s}
`), 0o644)
	c, err := Load(prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Kept as crawled URLs carry the host: punycode, lower-case (a Thai
	// name was never matched before).
	if d := c.Hosts["xn--l3cfk7dp.test"].Delay; d == nil || *d != 3*time.Second {
		t.Errorf("ทดสอบ.test delay = %v (hosts %v)", d, c.Hosts)
	}
	if d := c.Hosts["slow.example.com"].Delay; d == nil || *d != 4*time.Second {
		t.Errorf("Slow.Example.COM delay = %v", d)
	}
	if d := c.Hosts["slow.example.org"].Delay; d == nil || *d != 10*time.Second {
		t.Errorf("slow.example.org delay = %v", d)
	}
	if ri := c.Hosts["slow.example.org"].RecrawlInterval; ri == nil || *ri != 720*time.Hour {
		t.Errorf("slow.example.org recrawl_interval = %v", ri)
	}
	if r := c.Hosts[".gov.th"]; r.MaxPagesPerSite == nil || *r.MaxPagesPerSite != 0 || r.Robots != "ignore" {
		t.Errorf(".gov.th = %+v", r)
	}
	if r := c.Hosts[".chula.ac.th"]; r.MaxPagesPerDomain == nil || *r.MaxPagesPerDomain != 0 || r.MaxPagesPerSite != nil {
		t.Errorf(".chula.ac.th = %+v", r)
	}
	if c.MaxPagesPerDomain != 100000 || c.MaxSitesPerAddress != 0 {
		t.Errorf("max_pages_per_domain %d, max_sites_per_address %d; want the defaults 100000 and 0", c.MaxPagesPerDomain, c.MaxSitesPerAddress)
	}
	// Unset, the domain budget holds ten sites' budgets at the least (a
	// review: the example profile's 50,000 a site let two sites fill a
	// domain); set, it is the operator's.
	for _, tc := range []struct {
		extra string
		want  int
	}{{"max_pages_per_site: 50000\n", 500000}, {"max_pages_per_site: 50000\nmax_pages_per_domain: 1000\n", 1000}, {"max_pages_per_site: 200\n", 100000}} {
		os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\n"+tc.extra), 0o644)
		c, err := Load(prof, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.MaxPagesPerDomain != tc.want {
			t.Errorf("%q: max_pages_per_domain %d, want %d", tc.extra, c.MaxPagesPerDomain, tc.want)
		}
	}
	if c.AdaptiveDelay.Factor != 5 || c.AdaptiveDelay.Min != 3*time.Second || c.AdaptiveDelay.Max != 30*time.Second {
		t.Errorf("adaptive_delay = %+v", c.AdaptiveDelay)
	}
	// The resolved profile reads back the same.
	again := filepath.Join(dir, "again.yaml")
	os.WriteFile(again, []byte(c.YAML()), 0o644)
	c2, err := Load(again, nil)
	if err != nil {
		t.Fatalf("YAML() does not load: %v\n%s", err, c.YAML())
	}
	if d := c2.Hosts["slow.example.org"].Delay; d == nil || *d != 10*time.Second {
		t.Errorf("after a round trip, slow.example.org delay = %v", d)
	}
	if ri := c2.Hosts["slow.example.org"].RecrawlInterval; ri == nil || *ri != 720*time.Hour {
		t.Errorf("after a round trip, slow.example.org recrawl_interval = %v", ri)
	}
	if r := c2.Hosts[".chula.ac.th"]; r.MaxPagesPerDomain == nil || *r.MaxPagesPerDomain != 0 {
		t.Errorf("after a round trip, .chula.ac.th = %+v", r)
	}

	os.WriteFile(prof, []byte(`seeds: [http://a.test/]
user_agent: "x/1 (+https://lib.example/c)"
hosts:
  a.example: {delay: soon, robots: maybe, colour: red, recrawl_interval: monthly, max_pages_per_domain: -3}
max_sites_per_address: -1
`), 0o644)
	_, err = Load(prof, nil)
	for _, want := range []string{"hosts.a.example.delay", "hosts.a.example.robots", "hosts.a.example.colour", "hosts.a.example.recrawl_interval",
		"hosts.a.example.max_pages_per_domain", "max_sites_per_address"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %s", err, want)
		}
	}
}

func TestMetricsListen(t *testing.T) {
	for _, c := range []struct {
		listen, want string
		all          bool
		err          string
	}{
		{":9100", "127.0.0.1:9100", false, ""},
		{"127.0.0.1:9100", "127.0.0.1:9100", false, ""},
		{"0.0.0.0:9100", "", false, "metrics.all_interfaces"},
		{"0.0.0.0:9100", "0.0.0.0:9100", true, ""},
		{"[::]:9100", "", false, "every interface"},
		{"localhost", "", false, "not host:port"},
		{":http", "", false, "port"},
		{":70000", "", false, "port"},
	} {
		dir := t.TempDir()
		prof := filepath.Join(dir, "p.yaml")
		os.WriteFile(prof, []byte(fmt.Sprintf("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nmetrics: {listen: %q, all_interfaces: %v}\n", c.listen, c.all)), 0o644)
		cfg, err := Load(prof, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "metrics.listen") {
				t.Errorf("listen %q: err %v, want one naming metrics.listen and %q", c.listen, err, c.err)
			}
			continue
		}
		if err != nil || cfg.Metrics.Listen != c.want {
			t.Errorf("listen %q: %v, %v; want %q", c.listen, cfg, err, c.want)
		}
	}
}

func TestBareHostSeed(t *testing.T) {
	for in, want := range map[string]string{"thai-news.test": "http://thai-news.test", "a.test/x?y": "http://a.test/x?y",
		"https://b.test/": "https://b.test/", " c.test ": "http://c.test",
		// A port is not a scheme; a scheme without // is left for the
		// seed check to refuse, not read as a user name on a host.
		"d.test:8080/x": "http://d.test:8080/x", "localhost:80": "http://localhost:80",
		"mailto:someone@e.test": "mailto:someone@e.test", "javascript:void(0)": "javascript:void(0)",
		"not a url at all": "not a url at all", "f.test/some path": "http://f.test/some path",
		"user:pw@g.test/": "http://user:pw@g.test/", "[::1]:8080": "http://[::1]:8080", "mailto:x@h.test": "mailto:x@h.test",
		"news:comp.lang": "news:comp.lang"} {
		if got := NormalizeSeed(in); got != want {
			t.Errorf("NormalizeSeed(%q) = %q, want %q", in, got, want)
		}
	}
}

// writeProfile writes a profile with a seed and a user agent plus extra.
func writeProfile(t *testing.T, extra string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.yaml")
	if !strings.Contains(extra, "seeds:") {
		extra = "seeds: [http://a.test/]\n" + extra
	}
	if err := os.WriteFile(p, []byte("user_agent: \"x/1 (+https://lib.example/c)\"\n"+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScopeKeys(t *testing.T) {
	prof := writeProfile(t, `seeds:
  - http://a.test/
  - thai-news.test
  - {url: "http://portal.test/th/", scope: prefix, depth: 3}
  - url: gov.test
    scope: host
scope:
  include: ['\.th/', 'portal']
  exclude: ['/calendar/\d+', '\?sessionid=']
  surt_include: ["http://(th,co,"]
  surt_exclude: ["http://(th,co,ads,", "tracker.test"]
`)
	c, err := Load(prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"seeds", strings.Join(c.Seeds, " "), "http://a.test/ http://thai-news.test http://portal.test/th/ http://gov.test"},
		{"seed scopes", fmt.Sprint(c.SeedScopes), "[{http://portal.test/th/ prefix 3} {http://gov.test host 0}]"},
		{"assumed http", strings.Join(c.AssumedHTTP, " "), "thai-news.test gov.test"},
		{"scope.include", strings.Join(c.Scope.Include, " "), `\.th/ portal`},
		{"scope.exclude", strings.Join(c.Scope.Exclude, " "), `/calendar/\d+ \?sessionid=`},
		{"scope.surt_include", strings.Join(c.Scope.SURTInclude, " "), "http://(th,co,"},
		{"scope.surt_exclude", strings.Join(c.Scope.SURTExclude, " "), "http://(th,co,ads, tracker.test"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	// The resolved profile keeps every rule and seed scope.
	p := filepath.Join(t.TempDir(), "resolved.yaml")
	os.WriteFile(p, []byte(c.YAML()), 0o644)
	c2, err := Load(p, nil)
	if err != nil {
		t.Fatalf("resolved profile does not load back: %v\n%s", err, c.YAML())
	}
	if fmt.Sprint(c2.SeedScopes, c2.Scope) != fmt.Sprint(c.SeedScopes, c.Scope) {
		t.Errorf("round trip lost scope rules:\n%s", c.YAML())
	}
}

// TestScopeKeyErrors: each bad value is reported naming its key and the
// value.
func TestScopeKeyErrors(t *testing.T) {
	tests := []struct{ profile, want string }{
		{"scope: {exclude: ['([a-z']}", `scope.exclude: "([a-z" is not an RE2 regular expression`},
		{"scope: {include: ['a{2,1}']}", `scope.include: "a{2,1}" is not an RE2 regular expression`},
		{"scope: {include: ['']}", "scope.include: an empty regular expression"},
		{"scope: {surt_exclude: ['http://(th co,']}", `scope.surt_exclude: "http://(th co," is not a SURT prefix`},
		{"scope: {surt_include: ['x(th,']}", `scope.surt_include: "x(th," is not a SURT prefix`},
		{"seeds: [{url: 'http://a.test/', scope: subdomain}]", `seeds: http://a.test/: scope "subdomain" must be host, domain or prefix`},
		{"seeds: [{url: 'http://a.test/', depth: -2}]", "seeds: http://a.test/: depth -2 must be at least 1"},
		{"seeds: [{url: 'http://a.test/', depth: deep}]", "seeds: item 1: depth deep is not a whole number"},
		{"seeds: [{url: 'http://a.test/', scop: host}]", `seeds: item 1: unknown key "scop"`},
		{"seeds: [http://b.test/, {scope: host}]", "seeds: item 2: no url"},
		{"seeds: ['ftp://a.test/']", `seeds: "ftp://a.test/" is not an absolute http(s) URL`},
	}
	for _, tt := range tests {
		_, err := Load(writeProfile(t, tt.profile+"\n"), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("profile %s: error %v, want %q", tt.profile, err, tt.want)
		}
	}
}

// TestSeedFlags: --seed adds seeds (a bare host gets http:// and is
// listed for the notice); --skip-bad-seeds lets a bad seed through
// validation, for the crawl to report and skip.
func TestSeedFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	AddFlags(fs)
	if err := fs.Parse([]string{"--seed", "b.test", "--seed=https://c.test/x"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(writeProfile(t, ""), fs)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Seeds, " "); got != "http://a.test/ http://b.test https://c.test/x" {
		t.Errorf("seeds = %s, want the profile's and both --seed", got)
	}
	if strings.Join(c.AssumedHTTP, " ") != "b.test" || c.SkipBadSeeds {
		t.Errorf("assumed http %v, skip %v", c.AssumedHTTP, c.SkipBadSeeds)
	}
	// Only --seed: no profile seeds needed.
	fs = pflag.NewFlagSet("t", pflag.ContinueOnError)
	AddFlags(fs)
	fs.Parse([]string{"--seed", "ftp://bad.test/", "--seed", "ok.test", "--user-agent", "x/1 (+https://lib.example/c)"})
	if _, err := Load("", fs); err == nil || !strings.Contains(err.Error(), `seeds: "ftp://bad.test/"`) {
		t.Errorf("a bad --seed: %v, want an error naming it", err)
	}
	fs.Parse([]string{"--skip-bad-seeds"})
	c, err = Load("", fs)
	if err != nil || !c.SkipBadSeeds || len(c.Seeds) != 2 {
		t.Errorf("with --skip-bad-seeds: %v, %+v; want the bad seed left for the crawl to skip", err, c)
	}
}

// TestFocusErrorBound: focus.error_bound defaults to 0.01 and
// focus.miss_bound to 0.001; both take values in (0, 0.5), and a value
// outside, or not a number, is an error that names the key, reported once;
// focus.foreign_dirs is keep (default) or cut.
func TestFocusErrorBound(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.yaml")
	load := func(focus string) (*Config, error) {
		t.Helper()
		os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nfocus: {language: th"+focus+"}\n"), 0o644)
		return Load(prof, nil)
	}
	c, err := load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Focus.ErrorBound != 0.01 || c.Focus.MissBound != 0.001 || c.Focus.ForeignDirs != "keep" {
		t.Errorf("defaults: error_bound %g, miss_bound %g, foreign_dirs %q", c.Focus.ErrorBound, c.Focus.MissBound, c.Focus.ForeignDirs)
	}
	c, err = load(", strategy: sequential, error_bound: 0.05, miss_bound: 0.01, foreign_dirs: Cut")
	if err != nil {
		t.Fatal(err)
	}
	if c.Focus.ErrorBound != 0.05 || c.Focus.MissBound != 0.01 || c.Focus.ForeignDirs != "cut" || c.Focus.Strategy != "sequential" {
		t.Errorf("set: %+v", c.Focus)
	}
	if c, err := load(", strategy: sequential, link_evidence: true"); err != nil || !c.Focus.LinkEvidence {
		t.Errorf("link_evidence: %v, %+v", err, c)
	}
	if _, err := load(", strategy: evidence, link_evidence: true"); err == nil || !strings.Contains(err.Error(), "focus.link_evidence") {
		t.Errorf("link_evidence with strategy evidence: err = %v, want one naming focus.link_evidence", err)
	}
	os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nfocus: {strategy: sequential, link_evidence: true}\n"), 0o644)
	if _, err := Load(prof, nil); err == nil || !strings.Contains(err.Error(), "focus.link_evidence") {
		t.Errorf("link_evidence without a language: err = %v, want one naming focus.link_evidence", err)
	}
	if _, err := load(", foreign_dirs: drop"); err == nil || !strings.Contains(err.Error(), "focus.foreign_dirs") {
		t.Errorf("foreign_dirs drop: err = %v, want one naming focus.foreign_dirs", err)
	}
	for _, v := range []string{"0", "-0.01", "0.5", "2", "often"} {
		_, err := load(", error_bound: " + v)
		if err == nil || strings.Count(err.Error(), "focus.error_bound") != 1 {
			t.Errorf("error_bound %s: err = %v, want one error naming focus.error_bound", v, err)
		}
		_, err = load(", miss_bound: " + v)
		if err == nil || strings.Count(err.Error(), "focus.miss_bound") != 1 {
			t.Errorf("miss_bound %s: err = %v, want one error naming focus.miss_bound", v, err)
		}
	}
}

func TestFocusLanguageSet(t *testing.T) {
	dir := t.TempDir()
	load := func(focus string, flags ...string) (*Config, error) {
		prof := filepath.Join(dir, "p.yaml")
		os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nfocus: {"+focus+"}\n"), 0o644)
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		AddFlags(fs)
		if err := fs.Parse(flags); err != nil {
			t.Fatal(err)
		}
		return Load(prof, fs)
	}
	for _, tc := range []struct {
		focus string
		flags []string
		want  string
	}{
		{"language: th", nil, "th"},
		{"language: TH", nil, "th"},
		{"language: [nb, nn]", nil, "nb,nn"},
		{"language: \"nb, nn\"", nil, "nb,nn"},
		{"language: [fi, sv, fi]", nil, "fi,sv"}, // each once, in order
		{"language: \"no\"", nil, "nb,nn"},       // Norwegian: both written standards
		{"language: [no, nb]", nil, "nb,nn"},
		{"language: zh-Hant", nil, "zh-hant"}, // a script: Traditional Chinese alone
		{"language: [th, zh-hans]", nil, "th,zh-hans"},
		{"language: no", nil, "nb,nn"},
		{"language: nb", []string{"--target", "NO,sv"}, "nb,nn,sv"},
		{"language: th", []string{"--target", "ms,id"}, "ms,id"},
		{"strategy: bfs", nil, ""},
	} {
		c, err := load(tc.focus, tc.flags...)
		if err != nil {
			t.Errorf("%s %v: %v", tc.focus, tc.flags, err)
			continue
		}
		if c.Focus.Language != tc.want {
			t.Errorf("%s %v: focus.language %q, want %q", tc.focus, tc.flags, c.Focus.Language, tc.want)
		}
		if got := strings.Join(c.Focus.Languages(), ","); got != tc.want {
			t.Errorf("%s %v: Languages() %q, want %q", tc.focus, tc.flags, got, tc.want)
		}
	}
	// A bad code is named, even in a set.
	if _, err := load("language: [nb, norsk]"); err == nil || !strings.Contains(err.Error(), `focus.language: "norsk"`) {
		t.Errorf("bad code in a set: err = %v, want one naming focus.language and \"norsk\"", err)
	}
	if got := SplitLanguages(""); got != nil {
		t.Errorf("SplitLanguages(\"\") = %q, want none", got)
	}
}

// TestFormatSize: sizes print as the profile writes them (1GiB, 100MiB)
// and read back exactly; langcrawl config shows the defaults so.
func TestFormatSize(t *testing.T) {
	for _, n := range []int64{1, 999, 1000, 1024, 1536, 300_000, 1 << 20, 100 << 20, 1e9, 1 << 30, 20 << 30, 123456789, 5 << 40} {
		s := FormatSize(n)
		if back, err := ParseSize(s); err != nil || back != n {
			t.Errorf("FormatSize(%d) = %q, read back as %d, %v", n, s, back, err)
		}
	}
	for n, want := range map[int64]string{1 << 30: "1GiB", 100 << 20: "100MiB", 1e9: "1GB", 1536: "1536", 300_000: "300KB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
	c, _, err := loadText(t, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"max_body_size: 100MiB", "min_free_space: 1GiB", "max_bytes: 0"} {
		if !strings.Contains(c.YAML(), want) {
			t.Errorf("YAML() lacks %q:\n%s", want, c.YAML())
		}
	}
}

// TestUnknownKeySuggests: an unknown key a typo away from a known one is
// named with it; one far from every key is named alone.
func TestUnknownKeySuggests(t *testing.T) {
	_, p, err := loadText(t, "wrkers: 4\nfocus: {langauge: th}\nzzzzzz: 1\n")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"wrkers: unknown key in profile " + p + " (did you mean workers?)",
		"focus.langauge: unknown key in profile " + p + " (did you mean focus.language?)",
		"zzzzzz: unknown key in profile " + p + "\n"} {
		if !strings.Contains(err.Error()+"\n", want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestUnknownEnv: a LANGCRAWL_* variable that sets no key is named, with
// the one a typo away; so is a key's name not in capitals, which is not
// read; the variable of a key is not, and neither is the environment of
// other programs.
func TestUnknownEnv(t *testing.T) {
	got := UnknownEnv([]string{"LANGCRAWL_WORKRES=4", "LANGCRAWL_WORKERS=4", "LANGCRAWL_WARC_MAX_SIZE=1GB",
		"LANGCRAWL_FOCUS_LANGUAGE=th", "LANGCRAWL_ZZZZZZ=1", "HOME=/root", "LANGCRAWLX=1", "LANGCRAWL_workers=3"})
	// Only the name in capitals is read: LANGCRAWL_workers would be
	// ignored, so it is named too.
	want := []string{"LANGCRAWL_WORKRES sets no profile key (did you mean LANGCRAWL_WORKERS?); it is ignored",
		"LANGCRAWL_ZZZZZZ sets no profile key; it is ignored",
		"LANGCRAWL_workers sets no profile key (did you mean LANGCRAWL_WORKERS?); it is ignored"}
	if !slices.Equal(got, want) {
		t.Errorf("UnknownEnv = %q, want %q", got, want)
	}
	t.Setenv("LANGCRAWL_DELAYY", "3s")
	c, _, err := loadText(t, "workers: 4\n")
	if err != nil {
		t.Fatal(err)
	}
	// Other LANGCRAWL_* variables of the test's own environment
	// (LANGCRAWL_CORPORA) may be named too.
	if !slices.ContainsFunc(c.Warnings, func(w string) bool {
		return strings.Contains(w, "LANGCRAWL_DELAYY sets no profile key (did you mean LANGCRAWL_DELAY?)")
	}) {
		t.Errorf("Load's warnings: %q", c.Warnings)
	}
}

// TestBadEnvValueNamed: a bad value that came from the environment names
// the variable, not only the key the profile may set otherwise.
func TestBadEnvValueNamed(t *testing.T) {
	t.Setenv("LANGCRAWL_WORKERS", "abc")
	_, _, err := loadText(t, "workers: 2\n")
	if err == nil || !strings.Contains(err.Error(), "workers: abc is not") || !strings.Contains(err.Error(), "(from LANGCRAWL_WORKERS, which overrides the profile)") {
		t.Errorf("error %v does not name LANGCRAWL_WORKERS", err)
	}
}

// TestBadProfileAndSeedsFile: a profile with a bad seed and a seeds file
// with a bad line names both at once (an archivist's trial fixed the
// profile, then met the file's lines at the next start).
func TestBadProfileAndSeedsFile(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("http://good.test/\nhttp://[bad\n"), 0o644)
	prof := filepath.Join(dir, "p.yaml")
	os.WriteFile(prof, []byte("seeds: [\"ftp://nowhere.example/\"]\nseeds_file: seeds.txt\nuser_agent: \"x/1 (+https://lib.example/c)\"\n"), 0o644)
	_, err := Load(prof, nil)
	if err == nil {
		t.Fatal("bad profile accepted")
	}
	for _, want := range []string{"ftp://nowhere.example/", seeds + ":2:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q:\n%v", want, err)
		}
	}
}

// TestConnectToKeys: a connect_to key is kept in the form the fetcher looks
// hosts up in (lower case, punycode, no trailing dot), and a key that could
// never match is an error naming it. Before, ทดสอบ.test and good.test:80
// were accepted and their hosts sent past the mapping to DNS (an
// address-guard trial).
func TestConnectToKeys(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.yaml")
	os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nnetwork:\n  connect_to:\n    ทดสอบ.test: 127.0.0.1:1\n    Mixed.Test.: 127.0.0.1:2\n"), 0o644)
	c, err := Load(prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Network.ConnectTo["xn--l3cfk7dp.test"] != "127.0.0.1:1" || c.Network.ConnectTo["mixed.test"] != "127.0.0.1:2" || len(c.Network.ConnectTo) != 2 {
		t.Errorf("connect_to = %v, want the keys as hosts are looked up", c.Network.ConnectTo)
	}
	os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nnetwork:\n  connect_to:\n    \"::1\": 127.0.0.1:1\n    \"[2001:DB8::5]\": 127.0.0.1:2\n"), 0o644)
	if c, err := Load(prof, nil); err != nil {
		t.Errorf("IPv6 literal keys: %v", err)
	} else if c.Network.ConnectTo["::1"] != "127.0.0.1:1" || c.Network.ConnectTo["2001:db8::5"] != "127.0.0.1:2" {
		t.Errorf("IPv6 literal keys: %v", c.Network.ConnectTo)
	}
	for _, key := range []string{"good.test:80", "http://other.test/", "bad host", ".domain.test", "*.example.test", "a*b.test"} {
		os.WriteFile(prof, []byte("seeds: [http://a.test/]\nuser_agent: \"x/1 (+https://lib.example/c)\"\nnetwork:\n  connect_to:\n    \""+key+"\": 127.0.0.1:1\n"), 0o644)
		if _, err := Load(prof, nil); err == nil || !strings.Contains(err.Error(), "network.connect_to") {
			t.Errorf("connect_to key %q: error %v, want one naming network.connect_to", key, err)
		}
	}
}
