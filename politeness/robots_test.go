package politeness

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// allowedPath matches raw (a URL path with optional query, as a client
// would send it) against r the way Check does.
func allowedPath(t testing.TB, r rules, raw string) bool {
	t.Helper()
	u, err := url.Parse("http://example.com" + raw)
	if err != nil {
		t.Fatalf("parse %q: %v", raw, err)
	}
	return r.allowed(matchKey(matchPath(u)))
}

func TestParseRobots(t *testing.T) {
	const token = "langcrawl"
	tests := []struct {
		name  string
		body  string
		allow []string // paths that must be allowed
		deny  []string // paths that must be disallowed
		delay time.Duration
	}{
		{
			name:  "empty file allows all",
			body:  "",
			allow: []string{"/", "/private"},
		},
		{
			name:  "star group",
			body:  "User-agent: *\nDisallow: /private\n",
			allow: []string{"/", "/public", "/privat"},
			deny:  []string{"/private", "/private/x", "/private.html"},
		},
		{
			name:  "our group wins over star",
			body:  "User-agent: *\nDisallow: /\n\nUser-agent: langcrawl\nDisallow: /only-this\n",
			allow: []string{"/", "/other"},
			deny:  []string{"/only-this"},
		},
		{
			name:  "agent matched case-insensitively on product token with version",
			body:  "User-agent: LangCrawl/2.0\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
			allow: []string{"/b"},
			deny:  []string{"/a"},
		},
		{
			name:  "agent prefix of our token does not match",
			body:  "User-agent: lang\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
			allow: []string{"/a"},
			deny:  []string{"/b"},
		},
		{
			name:  "longer agent does not match",
			body:  "User-agent: langcrawlers\nDisallow: /a\n",
			allow: []string{"/a"},
		},
		{
			name:  "other agent only: allow all",
			body:  "User-agent: googlebot\nDisallow: /\n",
			allow: []string{"/", "/x"},
		},
		{
			name:  "several user-agent lines start one group",
			body:  "User-agent: other\nUser-agent: langcrawl\nDisallow: /a\nUser-agent: *\nDisallow: /\n",
			allow: []string{"/b"},
			deny:  []string{"/a"},
		},
		{
			name:  "groups naming us are merged",
			body:  "User-agent: langcrawl\nDisallow: /a\n\nUser-agent: other\nDisallow: /b\n\nUser-agent: langcrawl\nDisallow: /c\n",
			allow: []string{"/b"},
			deny:  []string{"/a", "/c"},
		},
		{
			name:  "longest match wins",
			body:  "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
			allow: []string{"/a/b", "/a/b/c"},
			deny:  []string{"/a", "/a/c"},
		},
		{
			name:  "equally specific allow wins whatever the order",
			body:  "User-agent: *\nDisallow: /page\nAllow: /page\n",
			allow: []string{"/page"},
		},
		{
			name:  "wildcard is anchored at the start",
			body:  "User-agent: *\nDisallow: /private*x\n",
			allow: []string{"/public/private/x", "/private"},
			deny:  []string{"/private/x", "/privatex"},
		},
		{
			name:  "end anchor",
			body:  "User-agent: *\nDisallow: /*.pdf$\n",
			allow: []string{"/a.pdf?x=1", "/a.pdfx"},
			deny:  []string{"/a.pdf", "/dir/b.pdf"},
		},
		{
			name: "bare star disallows all",
			body: "User-agent: *\nDisallow: *\n",
			deny: []string{"/", "/x"},
		},
		{
			name:  "slash disallows all but allow overrides",
			body:  "User-agent: *\nDisallow: /\nAllow: /ok\n",
			allow: []string{"/ok", "/ok/x"},
			deny:  []string{"/", "/no"},
		},
		{
			name:  "empty disallow allows all",
			body:  "User-agent: *\nDisallow:\n",
			allow: []string{"/", "/x"},
		},
		{
			name:  "query is matched",
			body:  "User-agent: *\nDisallow: /search?q=\n",
			allow: []string{"/search", "/search?page=2"},
			deny:  []string{"/search?q=thai"},
		},
		{
			name:  "rule before any user-agent is ignored, the rest kept",
			body:  "Disallow: /a\nUser-agent: *\nDisallow: /b\n",
			allow: []string{"/a"},
			deny:  []string{"/b"},
		},
		{
			name:  "malformed crawl-delay does not spoil the file",
			body:  "User-agent: *\nCrawl-delay: soon\nDisallow: /b\n",
			allow: []string{"/a"},
			deny:  []string{"/b"},
		},
		{
			name:  "comments, CRLF, BOM, odd spacing and case",
			body:  "\xef\xbb\xbf# hello\r\nUSER-AGENT :  *  # all\r\n  disallow:/x # no\r\n",
			allow: []string{"/", "/y"},
			deny:  []string{"/x"},
		},
		{
			name:  "percent-encoded unreserved characters are decoded",
			body:  "User-agent: *\nDisallow: /%7Efoo\nDisallow: /b%61r\n",
			allow: []string{"/foo"},
			deny:  []string{"/~foo", "/%7efoo", "/bar"},
		},
		{
			name:  "non-ASCII rule matches the encoded URL",
			body:  "User-agent: *\nDisallow: /ภาษา\n",
			allow: []string{"/other"},
			deny:  []string{"/%E0%B8%A0%E0%B8%B2%E0%B8%A9%E0%B8%B2/x", "/%e0%b8%a0%e0%b8%b2%e0%b8%a9%e0%b8%b2"},
		},
		{
			name:  "reserved escapes stay escaped",
			body:  "User-agent: *\nDisallow: /a%2Fb\n",
			allow: []string{"/a/b"},
			deny:  []string{"/a%2fb"},
		},
		{
			name:  "caret in URL cannot fake the anchor",
			body:  "User-agent: *\nDisallow: /x*y\n",
			allow: []string{"/^/x/y", "/a/^/xy"},
			deny:  []string{"/xy"},
		},
		{
			name:  "crawl-delay of our group",
			body:  "User-agent: *\nDisallow: /y\nCrawl-delay: 9\n\nUser-agent: langcrawl\nCrawl-delay: 2.5\n",
			allow: []string{"/", "/y"},
			delay: 2500 * time.Millisecond,
		},
		{
			// RFC 9309 section 2.2.4: a Crawl-delay line does not end the
			// user-agent lines, so * and langcrawl are one group here.
			name:  "crawl-delay between user-agent lines",
			body:  "User-agent: *\nCrawl-delay: 9\n\nUser-agent: langcrawl\nCrawl-delay: 2.5\n",
			allow: []string{"/"},
			delay: 9 * time.Second,
		},
		{
			name:  "crawl-delay of merged groups is the largest",
			body:  "User-agent: langcrawl\nCrawl-delay: 2\n\nUser-agent: langcrawl\nCrawl-delay: 7\n",
			delay: 7 * time.Second,
		},
		{
			name:  "huge crawl-delay does not overflow",
			body:  "User-agent: *\nCrawl-delay: 1e300\n",
			delay: maxCrawlDelaySeconds * time.Second,
		},
		{
			name: "negative crawl-delay ignored",
			body: "User-agent: *\nCrawl-delay: -5\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseRobots([]byte(tt.body), token)
			if err != nil {
				t.Fatalf("parseRobots: %v", err)
			}
			for _, p := range tt.allow {
				if !allowedPath(t, r, p) {
					t.Errorf("%s: disallowed, want allowed", p)
				}
			}
			for _, p := range tt.deny {
				if allowedPath(t, r, p) {
					t.Errorf("%s: allowed, want disallowed", p)
				}
			}
			if r.crawlDelay != tt.delay {
				t.Errorf("crawl delay = %v, want %v", r.crawlDelay, tt.delay)
			}
		})
	}
}

func TestParseRobotsTruncates(t *testing.T) {
	// A Disallow rule that starts beyond MaxRobotsSize is not seen; one
	// cut in half at the limit is dropped rather than shortened.
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early\n")
	for b.Len() < MaxRobotsSize-10 {
		b.WriteString("# padding padding padding padding\n")
	}
	b.WriteString("Disallow: /abcdefghijklmnop\n") // straddles the limit
	b.WriteString("Disallow: /late\n")
	r, err := parseRobots([]byte(b.String()), "langcrawl")
	if err != nil {
		t.Fatal(err)
	}
	if allowedPath(t, r, "/early") {
		t.Error("/early allowed, want disallowed")
	}
	for _, p := range []string{"/late", "/abc", "/abcdefghijklmnop"} {
		if !allowedPath(t, r, p) {
			t.Errorf("%s disallowed, want allowed: rule is beyond the limit", p)
		}
	}
}

func TestNormPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/plain/path?q=1&b=2", "/plain/path?q=1&b=2"},
		{"/%7e%41", "/~A"},
		{"/%2f%3a", "/%2F%3A"},
		{"/a b", "/a%20b"},
		{"/ä", "/%C3%A4"},
		{"/100%", "/100%25"},
		{"/%zz", "/%25zz"},
		{"/^x", "/%5Ex"},
		{"/*.pdf$", "/*.pdf$"},
	}
	for _, tt := range tests {
		if got := normPath(tt.in); got != tt.want {
			t.Errorf("normPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestProductToken(t *testing.T) {
	tests := []struct{ in, want string }{
		{"langcrawl/0.1 (+https://lib.example/crawl)", "langcrawl"},
		{"LangCrawl", "langcrawl"},
		{"  my_bot-x/1", "my_bot-x"},
		{"Mozilla/5.0 (compatible; langcrawl/0.1)", "mozilla"},
		{"/0.1", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ProductToken(tt.in); got != tt.want {
			t.Errorf("ProductToken(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCrawlerToken: a browser-compatible User-Agent is matched on the
// token after "compatible;", the crawler's own name.
func TestCrawlerToken(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"langcrawl/0.1 (+https://lib.example/crawl)", "langcrawl"},
		{"Mozilla/5.0 (compatible; natlib-bot/1.0; +https://lib.example/crawl)", "natlib-bot"},
		{"Mozilla/5.0 (Compatible;  NatLib_Bot/2)", "natlib_bot"},
		{"Mozilla/5.0 (X11; Linux x86_64) +https://lib.example/crawl", "mozilla"},
		{"Mozilla/5.0 (compatible; /1.0)", "mozilla"},
	} {
		if got := CrawlerToken(tt.in); got != tt.want {
			t.Errorf("CrawlerToken(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// End to end: the group naming the crawler applies, not "*".
	g := newGate(t, Config{UserAgent: "Mozilla/5.0 (compatible; natlib-bot/1.0; +https://lib.example/crawl)"},
		fixed(200, "User-agent: *\nDisallow: /all\n\nUser-agent: natlib-bot\nDisallow: /ours\n", nil).fetch)
	if d := check(t, g, "http://a.example/ours/x", t0); d.Allowed {
		t.Errorf("/ours allowed: the group naming natlib-bot was not applied (%s)", d.Reason)
	}
	if d := check(t, g, "http://a.example/all/x", t0); !d.Allowed {
		t.Errorf("/all refused: the * group was applied beside ours (%s)", d.Reason)
	}
}

func FuzzRobots(f *testing.F) {
	f.Add("User-agent: *\nDisallow: /private\nAllow: /private/ok\n", "/private/x")
	f.Add("User-agent: langcrawl\nDisallow: /*.pdf$\nCrawl-delay: 3\n", "/a.pdf?x")
	f.Add("Disallow: /a\nUser-agent:\nAllow:\nCrawl-delay: x\n", "/%7e%zz")
	f.Add("user-agent: *\r\ndisallow: /ภาษา*$\r\n# c\r\n", "/%E0%B8%A0")
	f.Add("\xef\xbb\xbfUser-agent: *\nDisallow: \xff\xfe*\n", "/\xff")
	f.Fuzz(func(t *testing.T, body, path string) {
		r, err := parseRobots([]byte(body), "langcrawl")
		if err != nil {
			t.Fatalf("parseRobots(%q): %v", body, err)
		}
		if r.crawlDelay < 0 {
			t.Fatalf("negative crawl delay %v", r.crawlDelay)
		}
		n := normPath(path)
		if again := normPath(n); again != n {
			t.Fatalf("normPath not idempotent: %q -> %q -> %q", path, n, again)
		}
		p := matchKey(path)
		first := r.allowed(p)
		r2, err := parseRobots([]byte(body), "langcrawl")
		if err != nil {
			t.Fatalf("second parse: %v", err)
		}
		if r.allowed(p) != first || r2.allowed(p) != first {
			t.Fatalf("body %q path %q: answers disagree", body, path)
		}
		if r2.crawlDelay != r.crawlDelay {
			t.Fatalf("crawl delay %v then %v", r.crawlDelay, r2.crawlDelay)
		}
	})
}
