package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/internal/hostile"
)

// The hostile-server suite (issue 12, part 6): one crawl, in a child
// process, of a web where most hosts misbehave (package internal/hostile)
// and a few ordinary hosts sit beside them. The crawl must stay up and
// stop normally, stay under a memory bound, write a crawl.log line for
// every hostile case, write WARC files that gowarc and warcio.js both
// read, and archive every ordinary page.

// knownBroken lists the checks that fail today because of a crawler bug,
// by case name (or by suite-wide check: crawl-exit, peak-rss, ordinary,
// crawl-log, warc-gowarc, warc-warcio), with the reason. A listed check
// that fails is logged, not failed, so CI stays green while the fix is under way; a
// listed check that passes fails the test, so that the entry is removed
// as soon as the fix lands. The map is printed on every run.
var knownBroken = map[string]string{
	// Empty: the two entries this suite started with (crawl.log lines of
	// robots.txt outcomes with spaces in the annotation, cases
	// never-answers-robots and huge-robots) were fixed by 9bcaa7a.
}

// Profile limits of the hostile crawl. The memory bound is stated in
// terms of them (hostileRSSBound).
const (
	hostileWorkers     = 8
	hostileMaxBody     = 64 << 20 // max_body_size: past fetch's 4 MiB spill threshold, so bodies spill
	hostileSitePages   = 40       // max_pages_per_site: 100,000 links and the trap stop here
	hostileMaxRedirect = 20       // the engine's redirect-chain limit (crawl.maxRedirects)
	// max_pages_per_domain and max_sites_per_address: the two link
	// farms stop here. Every host of the suite is answered from
	// 127.0.0.1, so the sites bound counts the ordinary and hostile
	// hosts too, which are seeds (always taken) and the subdomain
	// farm's hosts. The fresh-domain farm is a chain, one new site a
	// page, so that the subdomain farm (three a page) meets its domain
	// bound before the two farms have filled the address's.
	hostileDomainPages  = 30
	hostileAddressSites = 300
)

// hostileRSSBound is the peak RSS the crawl must stay under: 64 MiB of
// base (the same crawl of the ordinary hosts alone peaks at about 63 MiB:
// runtime, LevelDB, test binary) plus 56 MiB per worker, whatever
// max_body_size is: a body past the fetcher's 4 MiB spill threshold goes
// to a temporary file and is archived from it, and a page is parsed up to
// crawl.Config.MaxParse (8 MiB decoded), which costs several times that.
//
// Measured on this suite with max_body_size 4, 16 and 64 MiB: 244, 294
// and 259 MiB peak; later, with the detector's larger word models and the
// steering and re-crawl code, 275 to 340 MiB alone and 400 MiB once while
// the whole test suite ran beside it (the garbage collector lags more on a
// loaded machine): the bound, 512 MiB, leaves room for that. Before bodies spilled, the suite
// peaked at 176, 230 and 334 MiB with max_body_size 1, 4 and 16 MiB, and
// the endless body alone grew with it (83, 178, 246 MiB).
func hostileRSSBound() int64 {
	return 64<<20 + hostileWorkers*56<<20
}

// hostileRun is what one crawl of the hostile web left behind.
type hostileRun struct {
	out    string
	hits   []hostile.Hit
	log    map[string][]crawlLogLine // by URL
	recs   []archive.Record
	resp   map[string][]archive.Record
	meta   map[string]archive.Record // metadata record by the response it refers to
	byID   map[string]archive.Record
	stdout string
	notes  []string // for the test log
}

type crawlLogLine struct {
	status string
	annot  string
	hops   string
}

// hostileCheck is what a case must show, beyond its seed's crawl.log line.
type hostileCheck struct {
	logged   []string // paths that must have a crawl.log line
	archived []string // paths that must have exactly one response record
	// check returns what is wrong, if anything.
	check func(r *hostileRun, c hostile.Case) []string
}

var hostileChecks = map[string]hostileCheck{
	"slow-drip": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		p := r.truncated(c.URL("/"), "time")
		// Cut by time, it was tried once more before it was archived
		// (a deferred try, -4, in crawl.log).
		deferred := 0
		for _, l := range r.log[c.URL("/")] {
			if l.status == "-4" && strings.Contains(l.annot, "truncated:time") {
				deferred++
			}
		}
		if deferred != 1 {
			p = append(p, fmt.Sprintf("%d deferred tries cut by time in crawl.log, want 1: a cut body is tried once more", deferred))
		}
		return p
	}},
	"endless-body": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		return r.truncated(c.URL("/"), "length")
	}},
	"gzip-bomb": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		for _, rec := range r.resp[c.URL("/")] {
			body, err := httpBody(rec.Block)
			switch {
			case err != nil:
				p = append(p, err.Error())
			case !bytes.HasPrefix(body, []byte{0x1f, 0x8b}):
				p = append(p, "archived body is not the gzip bytes the server sent")
			case int64(len(body)) > hostileMaxBody:
				p = append(p, fmt.Sprintf("archived body of %d bytes, more than max_body_size", len(body)))
			}
			if tr := rec.Header("WARC-Truncated"); tr != "" {
				p = append(p, "WARC-Truncated "+tr+" on a body under max_body_size")
			}
		}
		return p
	}},
	"content-length-longer": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		return r.truncated(c.URL("/"), "")
	}},
	"content-length-shorter": {archived: []string{"/", "/second.html"}, check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		for _, rec := range r.resp[c.URL("/")] {
			if body, _ := httpBody(rec.Block); bytes.Contains(body, []byte("FORGED")) {
				p = append(p, "the bytes past Content-Length were archived as part of /")
			}
		}
		for _, rec := range r.resp[c.URL("/second.html")] {
			if !bytes.Contains(rec.Block, []byte("the real second page")) {
				p = append(p, "/second.html archived with the forged response, not the server's answer")
			}
		}
		p = append(p, r.neverRequested(c, "/planted.html")...)
		// The forged response can only be taken for /second.html on a
		// connection that is reused; say whether this crawl gave it the
		// chance (robots.txt and / on one connection).
		conn := map[string]uint64{}
		for _, h := range r.hits {
			if h.Host == c.Host {
				conn[h.Path] = h.Conn
			}
		}
		r.notes = append(r.notes, fmt.Sprintf("%s: connections robots.txt #%d, / #%d, /second.html #%d",
			c.Name, conn["/robots.txt"], conn["/"], conn["/second.html"]))
		if len(r.resp[c.URL("/planted.html")]) > 0 {
			p = append(p, "/planted.html, linked only from the forged response, archived")
		}
		return p
	}},
	// Heads past the limits (256 lines, 1 MiB) and a header line that is
	// not one are refused at once: -3, not retried, nothing archived.
	"header-flood":     {check: refused},
	"header-10mb-line": {check: refused},
	"header-bad-line":  {check: refused},
	"links-100k": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		if !r.annotated(c.URL("/"), "links-truncated") {
			p = append(p, "crawl.log line for / has no links-truncated note")
		}
		if m, ok := r.metaOf(c.URL("/")); !ok || !bytes.Contains(m.Block, []byte("linksTruncated")) {
			p = append(p, "metadata record for / has no linksTruncated field")
		}
		if n := r.requested(c, "/p/"); n > hostileSitePages {
			p = append(p, fmt.Sprintf("%d of the linked pages requested, more than max_pages_per_site %d", n, hostileSitePages))
		} else if n == 0 {
			p = append(p, "none of the linked pages requested")
		}
		return p
	}},
	"redirect-loop": {logged: []string{"/loop1", "/loop2"}, check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		for _, path := range []string{"/loop1", "/loop2"} {
			if n := r.requested(c, path); n > 1 {
				p = append(p, fmt.Sprintf("%s requested %d times", path, n))
			}
		}
		return p
	}},
	"redirect-chain": {check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		if n := r.requested(c, "/r/"); n > hostileMaxRedirect+1 {
			p = append(p, fmt.Sprintf("%d redirects of the chain followed, limit %d", n, hostileMaxRedirect))
		}
		p = append(p, r.neverRequested(c, "/final.html")...)
		found := false
		for u := range r.log {
			if strings.HasPrefix(u, c.URL("/r/")) && r.annotated(u, "redirect-chain-limit") {
				found = true
			}
		}
		if !found {
			p = append(p, "no crawl.log line notes redirect-chain-limit")
		}
		return p
	}},
	// A status line that is not HTTP/1.x fails as malformed (-3), at once.
	"status-letters": {check: refused},
	"status-range":   {check: refused},
	"status-mangled": {check: refused},
	"interim-1xx": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		for _, rec := range r.resp[c.URL("/")] {
			if !bytes.HasPrefix(rec.Block, []byte("HTTP/1.1 200 ")) {
				line, _, _ := bytes.Cut(rec.Block, []byte("\r\n"))
				p = append(p, fmt.Sprintf("response record starts with %q, not the final 200", line))
			}
		}
		return p
	}},
	"interim-flood": {check: refused},
	// A chunk size that is not hex: the response is archived once, cut
	// (WARC-Truncated: unspecified), with the bytes read up to and
	// including the bad size line (TestMalformedChunk).
	"invalid-chunking": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		u := c.URL("/")
		p := r.truncated(u, "unspecified")
		for _, rec := range r.resp[u] {
			if !bytes.Contains(rec.Block, []byte("\r\n\r\nf\r\n<html><body><p>\r\nzz")) {
				p = append(p, fmt.Sprintf("response record does not hold the bytes read up to the break: %q", tail(string(rec.Block), 200)))
			}
		}
		p = append(p, r.statuses(u, "200")...)
		if !r.annotated(u, "truncated:unspecified") {
			p = append(p, "crawl.log line for / has no truncated:unspecified note")
		}
		return p
	}},
	// A body cut by a reset is tried once more (-3, retry:1/2), then
	// archived cut: 200, WARC-Truncated: disconnect.
	"reset-mid-body": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		u := c.URL("/")
		p := r.truncated(u, "disconnect")
		p = append(p, r.statuses(u, "-3", "200")...)
		if ls := r.log[u]; len(ls) == 2 {
			if a := annots(ls[0]); !slices.Contains(a, "retry:1/2") || !slices.Contains(a, "truncated:disconnect") {
				p = append(p, "first crawl.log line of / is not noted retry:1/2 and truncated:disconnect: "+ls[0].annot)
			}
			if !slices.Contains(annots(ls[1]), "truncated:disconnect") {
				p = append(p, "last crawl.log line of / is not noted truncated:disconnect: "+ls[1].annot)
			}
		}
		if n := r.hitCount(c, "/"); n != 2 {
			p = append(p, fmt.Sprintf("/ requested %d times, want 2 (once more after the cut)", n))
		}
		return p
	}},
	// A reset in the middle of the body is tried again (TestCutBodyIsRetried):
	// the whole page is archived, once, and the link only it holds is
	// followed.
	"reset-once": {archived: []string{"/", "/next.html"}, check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		for _, rec := range r.resp[c.URL("/")] {
			if got := rec.Header("WARC-Truncated"); got != "" {
				p = append(p, "/ archived cut (WARC-Truncated "+got+"), not the whole answer of its second try")
			}
		}
		return p
	}},
	// Not HTTP/1.x: malformed (-3), at once.
	"garbage":  {check: refused},
	"http-0.9": {check: refused},
	// A server that never answers: each try times out (-4, retry:1/2,
	// at:TIME), and after retries.max (2) tries the URL fails: -8,
	// gave-up:2-tries, last:-4. Nothing archived.
	"never-answers": {check: func(r *hostileRun, c hostile.Case) []string {
		u := c.URL("/")
		p := r.gaveUp(u, "-4", 2)
		if n := len(r.resp[u]); n != 0 {
			p = append(p, fmt.Sprintf("/ archived %d times, want none", n))
		}
		if n := r.hitCount(c, "/"); n != 2 {
			p = append(p, fmt.Sprintf("/ requested %d times, want 2 (retries.max)", n))
		}
		return p
	}},
	// Its robots.txt never answers either: each robots.txt try times out
	// (-4), the seed is deferred (-61) and then fails, -8 gave-up:2-tries
	// last:-61, never requested, nothing archived.
	"never-answers-robots": {logged: []string{"/robots.txt"}, check: func(r *hostileRun, c hostile.Case) []string {
		u := c.URL("/")
		p := r.gaveUp(u, "-61", 2)
		for _, l := range r.log[c.URL("/robots.txt")] {
			if l.status != "-4" {
				p = append(p, fmt.Sprintf("robots.txt logged %s, want -4 (timeout): %s", l.status, l.annot))
			}
		}
		for _, path := range []string{"/", "/robots.txt"} {
			if n := len(r.resp[c.URL(path)]); n != 0 {
				p = append(p, fmt.Sprintf("%s archived %d times, want none", path, n))
			}
		}
		if n := r.hitCount(c, "/"); n != 0 {
			p = append(p, fmt.Sprintf("/ requested %d times behind a robots.txt that never answered", n))
		}
		return p
	}},
	"huge-robots": {archived: []string{"/", "/robots.txt"}, logged: []string{"/private/secret.html"}, check: func(r *hostileRun, c hostile.Case) []string {
		p := r.truncated(c.URL("/robots.txt"), "length")
		if r.requested(c, "/private/") > 0 {
			p = append(p, "/private/secret.html requested, though the first lines of robots.txt disallow it")
		}
		return p
	}},
	"nested-html": {archived: []string{"/", "/after.html"}},
	"url-trap": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		if n := r.requested(c, "/"); n > 10 {
			return []string{fmt.Sprintf("%d trap pages requested", n)}
		}
		return nil
	}},
	"invalid-utf8": {archived: []string{"/", "/ok.html"}},
	// A link farm of fresh subdomains is one registered domain: bound
	// by max_pages_per_domain, with -5002 lines naming it.
	"subdomain-farm": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		return r.farm(func(h string) bool { return h == c.Host || strings.HasSuffix(h, "."+c.Host) },
			hostileDomainPages, "max-pages-per-domain:subfarm.test")
	}},
	// A link farm of fresh domains has only its address in common: bound
	// by max_sites_per_address.
	"domain-farm": {archived: []string{"/"}, check: func(r *hostileRun, c hostile.Case) []string {
		return r.farm(func(h string) bool { return h == c.Host || strings.HasPrefix(h, "farm-") },
			hostileAddressSites, "max-sites-per-address:127.0.0.1")
	}},
	"self-signed-tls": {archived: []string{"/", "/2.html"}, check: func(r *hostileRun, c hostile.Case) []string {
		var p []string
		tlsNote := regexp.MustCompile(`(?i)tls|cert|x509`)
		u := c.URL("/")
		noted := false
		for _, l := range r.log[u] {
			noted = noted || tlsNote.MatchString(l.annot)
		}
		if !noted {
			p = append(p, "certificate verification failure not in crawl.log")
		}
		if m, ok := r.metaOf(u); !ok || !tlsNote.Match(m.Block) {
			p = append(p, "certificate verification failure not in the metadata record")
		}
		return p
	}},
}

func TestHostileServers(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls the hostile web in a child process for about half a minute")
	}
	names := slices.Sorted(maps.Keys(knownBroken))
	t.Logf("knownBroken: %d entries", len(names))
	for _, k := range names {
		t.Logf("  knownBroken[%q] = %s", k, knownBroken[k])
	}

	srv, err := hostile.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cases := hostile.Cases()
	for _, c := range cases {
		if _, ok := hostileChecks[c.Name]; !ok {
			t.Fatalf("case %s has no entry in hostileChecks", c.Name)
		}
	}

	out := t.TempDir()
	profile := hostileProfile(t, srv, out)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // max_time is 45s
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperLangcrawl$")
	hwm := filepath.Join(t.TempDir(), "vmhwm")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=crawl --profile "+profile, "E2E_CHILD_HWM="+hwm)
	var stdout, stderr bytes.Buffer
	child.Stdout, child.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := child.Run()
	wall := time.Since(start)

	problems := map[string][]string{}
	fail := func(name, format string, args ...any) {
		problems[name] = append(problems[name], fmt.Sprintf(format, args...))
	}

	// The crawl stays up and stops for a reason of its own.
	if runErr != nil {
		fail("crawl-exit", "crawl exited with %v\nstdout:\n%s\nstderr (tail):\n%s", runErr, stdout.String(), tail(stderr.String(), 4000))
	}
	reason := ""
	for _, line := range strings.Split(stdout.String(), "\n") {
		if r, ok := strings.CutPrefix(line, "stopped: "); ok {
			reason = r
		}
	}
	if reason == "" || strings.HasPrefix(reason, "error:") {
		fail("crawl-exit", "no normal stop reason in the summary:\n%s", stdout.String())
	}
	t.Logf("crawl: %s, wall time %s", reason, wall.Truncate(time.Millisecond))

	// Peak RSS, from the kernel's own account of the child: its VmHWM,
	// which it writes as it exits. The rusage of the child is not used:
	// Linux carries the parent's peak into a child at exec (the test
	// process, after the package's earlier crawls, reached 700 MiB), so
	// it measured the test more than the crawl.
	if b, err := os.ReadFile(hwm); runtime.GOOS != "linux" {
		t.Logf("peak RSS not measured: VmHWM is Linux's")
	} else if err != nil {
		fail("peak-rss", "the crawl did not report its peak RSS: %v", err)
	} else {
		var kib int64
		if _, err := fmt.Sscanf(string(b), "%d kB", &kib); err != nil {
			fail("peak-rss", "VmHWM %q: %v", b, err)
		} else {
			peak := kib << 10
			bound := hostileRSSBound()
			t.Logf("peak RSS %d MiB; bound %d MiB = 64 MiB + workers (%d) x 56 MiB, whatever max_body_size (%d MiB)",
				peak>>20, bound>>20, hostileWorkers, hostileMaxBody>>20)
			if peak > bound {
				fail("peak-rss", "peak RSS %d MiB over the bound %d MiB", peak>>20, bound>>20)
			}
		}
	}

	// HOSTILE_KEEP=DIR keeps a copy of the crawl's output, to debug.
	if d := os.Getenv("HOSTILE_KEEP"); d != "" {
		exec.Command("cp", "-r", out, d).Run()
	}
	r := readHostileRun(t, out, srv, cases, fail)
	r.stdout = stdout.String()

	// Every case gets a crawl.log line, and what its check asks for.
	for _, c := range cases {
		chk := hostileChecks[c.Name]
		for _, path := range append([]string{"/"}, chk.logged...) {
			if len(r.log[c.URL(path)]) == 0 {
				fail(c.Name, "%s has no crawl.log line", c.URL(path))
			}
		}
		for _, path := range chk.archived {
			if n := len(r.resp[c.URL(path)]); n != 1 {
				fail(c.Name, "%s archived %d times, want 1 (crawl.log: %s)", c.URL(path), n, r.logSummary(c.URL(path)))
			}
		}
		if chk.check != nil {
			for _, p := range chk.check(r, c) {
				fail(c.Name, "%s", p)
			}
		}
	}

	for _, n := range r.notes {
		t.Log(n)
	}

	// The ordinary pages beside them are all archived, once, with a 200.
	for _, u := range hostile.Ordinary() {
		rs := r.resp[u]
		if len(rs) != 1 {
			fail("ordinary", "%s archived %d times, want 1 (crawl.log: %s)", u, len(rs), r.logSummary(u))
			continue
		}
		if !bytes.HasPrefix(rs[0].Block, []byte("HTTP/1.1 200 ")) {
			fail("ordinary", "%s archived without its 200", u)
		}
	}

	// warcio.js reads every record gowarc read, with good digests. A
	// digest that does not match is charged to the case of its host.
	files, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
	js := warcioRecords(t, files)
	count := map[string]int{}
	for _, rec := range r.recs {
		count[rec.Type+" "+rec.TargetURI]++
	}
	for _, rec := range js {
		if !rec.BlockDigestOK || !rec.PayloadDigestOK {
			fail(caseOf(cases, rec.URI, "warc-warcio"), "warcio.js: digest mismatch (block ok %v, payload ok %v) in %s record for %s",
				rec.BlockDigestOK, rec.PayloadDigestOK, rec.Type, rec.URI)
		}
		count[rec.Type+" "+rec.URI]--
	}
	for k, n := range count {
		if n != 0 {
			fail("warc-warcio", "gowarc and warcio.js disagree on %q by %d", k, n)
		}
	}

	// The verdict, case by case.
	all := []string{"crawl-exit", "peak-rss", "ordinary", "crawl-log", "warc-gowarc", "warc-warcio"}
	for _, c := range cases {
		all = append(all, c.Name)
	}
	survived := 0
	for _, name := range all {
		ps := problems[name]
		why, broken := knownBroken[name]
		switch {
		case len(ps) == 0 && broken:
			t.Errorf("%s passes now: remove it from knownBroken (%s)", name, why)
		case len(ps) == 0:
			t.Logf("ok    %s", name)
		case broken:
			t.Logf("KNOWN BROKEN %s (%s):\n\t%s", name, why, strings.Join(ps, "\n\t"))
		default:
			t.Errorf("%s:\n\t%s", name, strings.Join(ps, "\n\t"))
		}
		if len(ps) == 0 && slices.ContainsFunc(cases, func(c hostile.Case) bool { return c.Name == name }) {
			survived++
		}
	}
	for name := range problems {
		if !slices.Contains(all, name) {
			t.Errorf("problems under unknown name %s: %v", name, problems[name])
		}
	}
	t.Logf("%d hostile cases tried, %d passed every check", len(cases), survived)
}

// hostileProfile writes the profile of the hostile crawl and returns its path.
func hostileProfile(t *testing.T, srv *hostile.Server, out string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("seeds:\n")
	for _, s := range hostile.Seeds() {
		fmt.Fprintf(&b, "  - %q\n", s)
	}
	fmt.Fprintf(&b, `out: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: %d
delay: 0s
depth: 20
max_pages_per_site: %d
max_pages_per_domain: %d
max_sites_per_address: %d
max_body_size: %d
max_time: 45s
retries: {max: 2, delay: 100ms, max_delay: 200ms}
timeouts: {connect: 2s, fetch: 4s, read: 2s}
durability: {min_free_space: 1MiB}
network:
  connect_to:
`, out, hostileWorkers, hostileSitePages, hostileDomainPages, hostileAddressSites, hostileMaxBody)
	ct := srv.ConnectTo()
	for _, h := range slices.Sorted(maps.Keys(ct)) {
		fmt.Fprintf(&b, "    %q: %q\n", h, ct[h])
	}
	p := filepath.Join(t.TempDir(), "hostile.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readHostileRun reads crawl.log and every WARC file (gowarc, strictly).
func readHostileRun(t *testing.T, out string, srv *hostile.Server, cases []hostile.Case, fail func(name, format string, args ...any)) *hostileRun {
	t.Helper()
	r := &hostileRun{out: out, hits: srv.Hits(), log: map[string][]crawlLogLine{},
		resp: map[string][]archive.Record{}, meta: map[string]archive.Record{}, byID: map[string]archive.Record{}}
	data, err := os.ReadFile(filepath.Join(out, logDir, "crawl.log"))
	if err != nil {
		fail("crawl-exit", "crawl.log: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) < 12 {
			if line != "" {
				fail("crawl-log", "short crawl.log line %q", line)
			}
			continue
		}
		// Heritrix's format: twelve columns split on white space, in
		// UTF-8, whatever bytes a server put in its answer.
		if len(f) != 12 || !utf8.ValidString(line) {
			fail(caseOf(cases, f[3], "crawl-log"), "crawl.log line for %s has %d columns, not 12, or is not UTF-8: %q", f[3], len(f), tail(line, 300))
		}
		r.log[f[3]] = append(r.log[f[3]], crawlLogLine{status: f[1], hops: f[4], annot: strings.Join(f[11:], " ")})
	}
	files, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz*"))
	if len(files) == 0 {
		fail("warc-gowarc", "no WARC files")
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".open") {
			fail("warc-gowarc", "%s left open", filepath.Base(f))
			continue
		}
		recs, err := archive.ReadAll(f)
		if err != nil {
			fail("warc-gowarc", "read %s: %v", filepath.Base(f), err)
		}
		r.recs = append(r.recs, recs...)
	}
	for _, rec := range r.recs {
		r.byID[rec.ID] = rec
		switch rec.Type {
		case "response":
			r.resp[rec.TargetURI] = append(r.resp[rec.TargetURI], rec)
		case "metadata":
			r.meta[rec.RefersTo] = rec
		}
	}
	return r
}

// truncated reports whether each response record for u is marked
// truncated for the reason want ("" for any reason).
func (r *hostileRun) truncated(u, want string) []string {
	var p []string
	for _, rec := range r.resp[u] {
		got := rec.Header("WARC-Truncated")
		switch {
		case got == "":
			p = append(p, fmt.Sprintf("%s archived without WARC-Truncated (block %d bytes)", u, len(rec.Block)))
		case want != "" && got != want:
			p = append(p, fmt.Sprintf("%s archived with WARC-Truncated %q, want %q", u, got, want))
		}
		if int64(len(rec.Block)) > hostileMaxBody+64<<10 {
			p = append(p, fmt.Sprintf("%s archived with a block of %d bytes, past max_body_size", u, len(rec.Block)))
		}
	}
	return p
}

func (r *hostileRun) annotated(u, note string) bool {
	for _, l := range r.log[u] {
		if strings.Contains(l.annot, note) {
			return true
		}
	}
	return false
}

// metaOf returns the metadata record of u's (first) response.
func (r *hostileRun) metaOf(u string) (archive.Record, bool) {
	rs := r.resp[u]
	if len(rs) == 0 {
		return archive.Record{}, false
	}
	m, ok := r.meta[rs[0].ID]
	return m, ok
}

// refused checks a case whose answer cannot be taken (README: "What no
// retry can mend fails at once"): its seed has one crawl.log line, -3,
// with no retry, was requested once, and nothing of it is archived.
func refused(r *hostileRun, c hostile.Case) []string {
	u := c.URL("/")
	p := r.statuses(u, "-3")
	if r.annotated(u, "retry:") {
		p = append(p, "crawl.log notes a retry of a response no retry can mend: "+r.logSummary(u))
	}
	if n := len(r.resp[u]); n != 0 {
		p = append(p, fmt.Sprintf("/ archived %d times, want none", n))
	}
	if n := r.hitCount(c, "/"); n != 1 {
		p = append(p, fmt.Sprintf("/ requested %d times, want 1", n))
	}
	return p
}

// statuses checks that u's crawl.log lines have these status codes, in
// this order.
func (r *hostileRun) statuses(u string, want ...string) []string {
	var got []string
	for _, l := range r.log[u] {
		got = append(got, l.status)
	}
	if !slices.Equal(got, want) {
		return []string{fmt.Sprintf("crawl.log status of %s %v, want %v (crawl.log: %s)", u, got, want, r.logSummary(u))}
	}
	return nil
}

// gaveUp checks the crawl.log lines of a URL that failed every one of its
// tries with the code last: a line per deferred try with that code,
// retry:N/tries and at:TIME (RFC 3339), then a -8 line with
// gave-up:TRIES-tries and last:CODE.
func (r *hostileRun) gaveUp(u, last string, tries int) []string {
	var want []string
	for range tries - 1 {
		want = append(want, last)
	}
	p := r.statuses(u, append(want, "-8")...)
	if len(p) > 0 {
		return p
	}
	ls := r.log[u]
	for i, l := range ls[:tries-1] {
		a := annots(l)
		if !slices.Contains(a, fmt.Sprintf("retry:%d/%d", i+1, tries)) {
			p = append(p, fmt.Sprintf("deferred try %d of %s not noted retry:%d/%d: %s", i+1, u, i+1, tries, l.annot))
		}
		at := slices.IndexFunc(a, func(s string) bool { return strings.HasPrefix(s, "at:") })
		if at < 0 {
			p = append(p, fmt.Sprintf("deferred try %d of %s has no at:TIME: %s", i+1, u, l.annot))
		} else if _, err := time.Parse(time.RFC3339, strings.TrimPrefix(a[at], "at:")); err != nil {
			p = append(p, fmt.Sprintf("deferred try %d of %s: %s: %v", i+1, u, a[at], err))
		}
	}
	a := annots(ls[tries-1])
	for _, note := range []string{fmt.Sprintf("gave-up:%d-tries", tries), "last:" + last} {
		if !slices.Contains(a, note) {
			p = append(p, fmt.Sprintf("-8 line of %s not noted %s: %s", u, note, ls[tries-1].annot))
		}
	}
	return p
}

// annots splits a crawl.log line's annotations.
func annots(l crawlLogLine) []string { return strings.Split(l.annot, ",") }

// hitCount counts the requests to c's host for exactly path.
func (r *hostileRun) hitCount(c hostile.Case, path string) int {
	n := 0
	for _, h := range r.hits {
		if h.Host == c.Host && h.Path == path {
			n++
		}
	}
	return n
}

// farm checks a link farm whose hosts in reports true: its pages (robots.txt
// aside) were at most bound, and crawl.log turned the rest away with the
// annotation guard. A farm never runs out of links, so the guard must
// have been met.
func (r *hostileRun) farm(in func(host string) bool, bound int, guard string) []string {
	var p []string
	pages := 0
	for _, h := range r.hits {
		if in(h.Host) && h.Path != "/robots.txt" {
			pages++
		}
	}
	// Up to scheduling.domain_connections leases of one domain, or the
	// workers, may pass the check at once.
	if pages > bound+hostileWorkers {
		p = append(p, fmt.Sprintf("%d farm pages requested, more than the bound %d", pages, bound))
	}
	turned := 0
	for _, lines := range r.log {
		for _, l := range lines {
			if l.status == "-5002" && strings.Contains(l.annot, guard) {
				turned++
			}
		}
	}
	if turned == 0 {
		p = append(p, fmt.Sprintf("no -5002 line with %s after %d farm pages", guard, pages))
	}
	r.notes = append(r.notes, fmt.Sprintf("%s: %d pages requested, %d URLs turned away", guard, pages, turned))
	return p
}

// requested counts the requests to c's host whose path starts with prefix.
func (r *hostileRun) requested(c hostile.Case, prefix string) int {
	n := 0
	for _, h := range r.hits {
		if h.Host == c.Host && strings.HasPrefix(h.Path, prefix) {
			n++
		}
	}
	return n
}

func (r *hostileRun) neverRequested(c hostile.Case, path string) []string {
	for _, h := range r.hits {
		if h.Host == c.Host && h.Path == path {
			return []string{path + " requested, though no page the server sent in answer to a request links to it"}
		}
	}
	return nil
}

// logSummary is u's crawl.log lines in short, for failure messages.
func (r *hostileRun) logSummary(u string) string {
	if len(r.log[u]) == 0 {
		return "none"
	}
	var s []string
	for _, l := range r.log[u] {
		s = append(s, l.status+" "+l.annot)
	}
	return strings.Join(s, "; ")
}

// caseOf names the case whose host u is on, or def.
func caseOf(cases []hostile.Case, u, def string) string {
	for _, c := range cases {
		if strings.Contains(u, "://"+c.Host+"/") {
			return c.Name
		}
	}
	if strings.Contains(u, "://ok-") {
		return "ordinary"
	}
	return def
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// TestHostileCasesInReadme: README's table of hostile cases ("Safe on the
// open web") names every case TestHostileServers runs, and its counts are
// the number of cases. (A review found it said 28 after two farm cases
// were added.)
func TestHostileCasesInReadme(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "| hostile case |")
	end := strings.Index(readme[max(start, 0):], "| **in all** |")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no table of hostile cases ending in an **in all** row")
	}
	table := readme[start : start+end]
	cases := hostile.Cases()
	for _, c := range cases {
		if !regexp.MustCompile(`(?m)^\| ([\w.-]+, )*` + regexp.QuoteMeta(c.Name) + `(,|\s\|)`).MatchString(table) {
			t.Errorf("README's table of hostile cases does not name %s", c.Name)
		}
	}
	n := len(cases)
	for _, want := range []string{fmt.Sprintf("| **in all** | **%d cases, %d survived** |", n, n), fmt.Sprintf("plays %d hostile hosts", n),
		fmt.Sprintf("a hostile web of %d misbehaving servers", n)} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q: TestHostileServers runs %d cases", want, n)
		}
	}
}
