package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/webgen"
)

// The replay test crawls the built-in web, then replays a sample of the
// archived pages in ReplayWeb.page — Webrecorder's replay app, whose
// service worker is wabac.js, the engine pywb 2.8+ uses for client-side
// replay — in headless Chromium (tools/replaycheck), and checks that each
// page shows the text the server sent, decoded in the page's charset, with
// its stylesheet and image served from the archive. pywb itself replays
// every capture in TestPywbReplaysEveryCapture (pywb_test.go); this test
// adds the browser's view of the pages.

// replayedPage is one line of tools/replaycheck/replay.mjs's output.
type replayedPage struct {
	URL       string
	InArchive bool
	Captures  []struct {
		TS     string
		Status int
		Mime   string
	}
	Status       int
	FinalURL     string
	ContentType  string
	Title        string
	Text         string
	BodySha256   string
	Subresources []struct {
		URL      string
		Type     string
		Status   int
		Archived bool
	}
	Blocked []string
	Error   string
}

// replayTool returns the directory of tools/replaycheck, and fails the
// test, saying how to install them, when node, Chromium or the npm
// packages are missing.
func replayTool(t *testing.T) string {
	t.Helper()
	tool, err := filepath.Abs("../../tools/replaycheck")
	if err != nil {
		t.Fatal(err)
	}
	const how = "run ./scripts/test, or tools/replaycheck/install.sh"
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not installed: %s: %v", how, err)
	}
	for _, p := range []string{
		filepath.Join(tool, "node_modules", "replaywebpage", "sw.js"),
		filepath.Join(tool, "node_modules", "playwright-core", "package.json"),
		"/usr/bin/chromium",
	} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("ReplayWeb.page replay check is not installed (%v): %s", err, how)
		}
	}
	return tool
}

// replay runs tools/replaycheck/replay.mjs over the WARC files for urls
// and returns its report for each URL.
func replay(t *testing.T, tool string, warcs, urls []string) map[string]replayedPage {
	t.Helper()
	// One generous deadline for the whole replay, within the test's own:
	// replay.mjs waits on each condition (archive indexed, frame loaded)
	// until it, never for a fixed time, so a loaded machine is slower, not
	// failing. It normally takes about 10 s.
	budget := 5 * time.Minute
	if d, ok := t.Deadline(); ok && time.Until(d)-time.Minute < budget {
		budget = max(time.Until(d)-time.Minute, 30*time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget+30*time.Second)
	defer cancel()
	args := append([]string{filepath.Join(tool, "replay.mjs"), "--deadline", strconv.Itoa(int(budget.Seconds()))}, warcs...)
	args = append(append(args, "--"), urls...)
	cmd := exec.CommandContext(ctx, "node", args...)
	// Should node outlive its own deadline, SIGINT first: playwright then closes Chromium.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	t.Logf("replayed %d URLs in ReplayWeb.page in %s", len(urls), time.Since(start).Round(time.Millisecond))
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		t.Fatalf("replay check not installed: run ./scripts/test, or tools/replaycheck/install.sh\n%s", stderr.String())
	}
	if err != nil {
		// Exit status 1 with output: some page did not load; its line
		// says why and the checks below report it.
		t.Logf("replay.mjs: %v\n%s", err, stderr.String())
		if len(out) == 0 {
			t.FailNow()
		}
	}
	got := map[string]replayedPage{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		var p replayedPage
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("replay.mjs output %q: %v", sc.Text(), err)
		}
		got[p.URL] = p
	}
	for _, u := range urls {
		if _, ok := got[u]; !ok {
			t.Fatalf("replay.mjs said nothing of %s\n%s", u, stderr.String())
		}
	}
	return got
}

// squash collapses runs of white space, as a browser's rendering does.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// replayCase is a page to replay and what the replay must show.
type replayCase struct {
	name  string
	url   string // the URL asked for
	final string // the page shown, after any redirects
}

func TestReplayInReplayWebPage(t *testing.T) {
	tool := replayTool(t)
	w := startWeb(t)
	out := t.TempDir()
	// WARC files of the smallest size allowed, so that the crawl spans
	// several and the replay reads them together, as an archive's would.
	cfg := w.profile(t, out, "warc:\n  max_size: 1MiB\n")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, warcDir)
	resp := responses(warcRecords(t, dir))
	warcs, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(warcs) < 2 {
		t.Fatalf("the crawl wrote %d WARC file(s); the replay should read several", len(warcs))
	}

	// The sample: Thai pages in each legacy charset (declared where a
	// browser reads it), a UTF-8 page, redirects (one to another host),
	// the gzip and chunked pages. Every one references /style.css and
	// /img/logo.png on its host.
	cases := []replayCase{
		{"redirect 301", "http://th-redirect.test/r301", "http://th-redirect.test/target1.html"},
		{"redirect chain 301 then 302", "http://th-redirect.test/chain1", "http://th-redirect.test/final.html"},
		{"redirect to another host", "http://th-redirect.test/offsite", "http://th-norobots.test/2.html"},
		{"gzip content coding", "http://th-odd.test/gzip.html", "http://th-odd.test/gzip.html"},
		{"chunked transfer coding", "http://th-odd.test/chunked.html", "http://th-odd.test/chunked.html"},
	}
	for _, cs := range []string{"tis-620", "windows-874", "utf-8"} {
		u := w.archivedThai(resp, cs)
		if u == "" {
			t.Fatalf("no archived Thai page in %s with a charset a browser reads; the demo web has them", cs)
		}
		cases = append(cases, replayCase{"Thai in " + cs, u, u})
	}
	// An archived 404, and a URL never crawled: robots.txt disallows it.
	gone := w.archived404(resp)
	if gone == "" {
		t.Fatal("no archived 404 page; the demo web links to some")
	}
	const disallowed = "http://th-robots.test/private/1.html"
	if len(resp[disallowed]) != 0 {
		t.Fatalf("%s archived; robots.txt disallows it", disallowed)
	}
	const unknown = "http://never-crawled.test/"

	urls := []string{gone, disallowed, unknown}
	for _, c := range cases {
		urls = append(urls, c.url)
	}
	got := replay(t, tool, warcs, urls)
	w.checkReplayed(t, resp, got, cases)

	t.Run("archived 404 replays as 404", func(t *testing.T) {
		r := got[gone]
		if !r.InArchive || r.Status != 404 {
			t.Errorf("%s: in archive %v, replay status %d; want an archived 404 replayed as 404", gone, r.InArchive, r.Status)
		}
		body, _ := httpBody(resp[gone][0].Block)
		if want := squash(string(body)); !strings.Contains(squash(r.Text), want) {
			t.Errorf("%s: replay shows %q, want the archived body %q", gone, r.Text, want)
		}
	})

	t.Run("never crawled is not in the archive", func(t *testing.T) {
		id, ok := w.g.Lookup(disallowed)
		if !ok {
			t.Fatalf("%s is not a page of the demo web", disallowed)
		}
		title, _, _ := strings.Cut(w.g.Text(id), "\n")
		for _, u := range []string{disallowed, unknown} {
			r := got[u]
			if r.InArchive || len(r.Captures) > 0 {
				t.Errorf("%s: reported in the archive (%+v); it was never crawled", u, r.Captures)
			}
			if r.Status != 404 {
				t.Errorf("%s: replay status %d, want 404", u, r.Status)
			}
			if u == disallowed && strings.Contains(r.Text, title) {
				t.Errorf("%s: the replay shows the page's text, which was never archived", u)
			}
			if len(r.Blocked) > 0 {
				t.Errorf("%s: the replay tried to leave the archive: %v", u, r.Blocked)
			}
		}
	})
}

// checkReplayed checks each case's replay in got: loaded, in wabac.js's
// index, shown with status 200 at its final URL (an archived redirect on
// the way), with the page's text and its stylesheet and logo from the
// archive, and nothing requested outside it.
func (w *demoWeb) checkReplayed(t *testing.T, resp map[string][]archive.Record, got map[string]replayedPage, cases []replayCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := got[c.url]
			if r.Error != "" {
				t.Fatalf("%s: %s", c.url, r.Error)
			}
			if !r.InArchive {
				t.Errorf("%s: not in wabac.js's index of the archive", c.url)
			}
			if r.Status != 200 || r.FinalURL != c.final {
				t.Errorf("%s replays as %d %s, want 200 %s", c.url, r.Status, r.FinalURL, c.final)
			}
			if c.url != c.final {
				if len(r.Captures) == 0 || r.Captures[0].Status < 300 || r.Captures[0].Status >= 400 {
					t.Errorf("%s: index holds %+v, want the archived redirect", c.url, r.Captures)
				}
			}
			w.checkText(t, resp, c.final, r)
			for _, want := range []string{"/style.css", "/img/logo.png"} {
				sub := hostOf(c.final) + want
				found := false
				for _, s := range r.Subresources {
					if s.URL == sub {
						found = true
						if !s.Archived || s.Status != 200 {
							t.Errorf("%s: %s %s answered %d, archived %v; want 200 from the archive", c.final, s.Type, s.URL, s.Status, s.Archived)
						}
					}
				}
				if !found {
					t.Errorf("%s: the replay never loaded %s (loaded %+v)", c.final, sub, r.Subresources)
				}
			}
			if len(r.Blocked) > 0 {
				t.Errorf("%s: the replay tried to leave the archive: %v", c.url, r.Blocked)
			}
		})
	}
}

// checkText checks that the replay r of page u shows the title and every
// paragraph of the page's text as the generator wrote it, and that the
// archived response, decoded in the server's charset, holds the same
// title: the replay shows what was archived, and that is what was sent.
func (w *demoWeb) checkText(t *testing.T, resp map[string][]archive.Record, u string, r replayedPage) {
	t.Helper()
	id, ok := w.g.Lookup(u)
	if !ok {
		t.Fatalf("%s is not a page of the demo web", u)
	}
	title, rest, _ := strings.Cut(w.g.Text(id), "\n\n")
	if squash(r.Title) != squash(title) {
		t.Errorf("%s: replayed title %q, want %q", u, r.Title, title)
	}
	text := squash(r.Text)
	for _, p := range strings.Split(rest, "\n\n") {
		if !strings.Contains(text, squash(p)) {
			t.Errorf("%s: replayed text lacks the paragraph %q\nit shows: %q", u, p, r.Text)
		}
	}
	rs := resp[u]
	if len(rs) == 0 {
		t.Fatalf("%s not archived", u)
	}
	body, err := decodedBody(rs[0].Block, w.g.Server(w.g.Page(id).Server).Charset)
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	if !strings.Contains(body, "<title>"+html.EscapeString(title)+"</title>") {
		t.Errorf("%s: the archived body, decoded, lacks the title %q", u, title)
	}
}

// decodedBody returns the body of a raw HTTP response as UTF-8: transfer
// and gzip content coding removed, decoded from charset.
func decodedBody(raw []byte, charset string) (string, error) {
	body, err := httpBody(raw)
	if err != nil {
		return "", err
	}
	head, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	if bytes.Contains(bytes.ToLower(head), []byte("content-encoding: gzip")) {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return "", fmt.Errorf("gunzip: %w", err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			return "", fmt.Errorf("gunzip: %w", err)
		}
	}
	enc, err := webgen.Encoding(charset)
	if err != nil {
		return "", err
	}
	s, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return "", fmt.Errorf("decode %s: %w", charset, err)
	}
	return string(s), nil
}

// archivedThai returns the first (in URL order) archived Thai page with
// status 200 on a server whose charset is cs, declared where a browser
// reads it (header, META, or both, or a right first META), or "".
func (w *demoWeb) archivedThai(resp map[string][]archive.Record, cs string) string {
	var urls []string
	for u := range resp {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	for _, u := range urls {
		if strings.Contains(u, "?") || strings.HasPrefix(u, "http://th-odd.test/") {
			continue
		}
		id, ok := w.g.Lookup(u)
		if !ok {
			continue
		}
		p := w.g.Page(id)
		s := w.g.Server(p.Server)
		switch s.Decl {
		case webgen.DeclHeaderMeta, webgen.DeclHeader, webgen.DeclMeta, webgen.DeclRepeatedMeta:
		default:
			continue
		}
		if p.Lang == "th" && p.Status == 200 && s.Charset == cs && w.g.Text(id) != "" {
			return u
		}
	}
	return ""
}

// archived404 returns the first (in URL order) archived page that
// answered 404, or "".
func (w *demoWeb) archived404(resp map[string][]archive.Record) string {
	var urls []string
	for u := range resp {
		if id, ok := w.g.Lookup(u); ok && w.g.Page(id).Status == 404 {
			urls = append(urls, u)
		}
	}
	sort.Strings(urls)
	if len(urls) == 0 {
		return ""
	}
	return urls[0]
}

// hostOf returns the scheme and host of an absolute URL.
func hostOf(u string) string {
	i := strings.Index(u, "://")
	if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
		return u[:i+3+j]
	}
	return u
}

// TestReplayWACZInReplayWebPage opens the WACZ of a crawl of two
// generations (revisits in the second) in ReplayWeb.page, as an archivist
// would, and replays Thai pages in each charset and a redirect, checked as
// TestReplayInReplayWebPage checks them (checkReplayed): in wabac.js's
// index, shown with their text, their stylesheet and logo from the archive. A WACZ review found
// none found: wabac.js loads a WACZ's index only from an .idx summary or a
// plain .cdx(j), and the package held a single gzipped index without one;
// the WACZ had never been opened in ReplayWeb.page by a test.
func TestReplayWACZInReplayWebPage(t *testing.T) {
	tool := replayTool(t)
	w := startWeb(t)
	out := t.TempDir()
	crawlInto(t, w, out, "")
	crawlInto(t, w, out, "") // a new generation: revisits of what did not change
	resp := responses(warcRecords(t, filepath.Join(out, warcDir)))
	waczPath := filepath.Join(t.TempDir(), "crawl.wacz")
	if err := packageCrawl(context.Background(), out, waczPath, "", io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	cases := []replayCase{{"redirect 301", "http://th-redirect.test/r301", "http://th-redirect.test/target1.html"}}
	for _, cs := range []string{"tis-620", "windows-874", "utf-8"} {
		u := w.archivedThai(resp, cs)
		if u == "" {
			t.Fatalf("no archived Thai page in %s; the demo web has them", cs)
		}
		cases = append(cases, replayCase{"Thai in " + cs, u, u})
	}
	var urls []string
	for _, c := range cases {
		urls = append(urls, c.url)
	}
	w.checkReplayed(t, resp, replay(t, tool, []string{waczPath}, urls), cases)
}
