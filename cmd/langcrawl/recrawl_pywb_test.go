package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/webgen"
)

// TestRecrawlChangingWebInPywb crawls generation 1 of the built-in web,
// switches the server to generation 2 (webgen's generations: pages change,
// change language, disappear, appear, and are copied to new URLs; half the
// servers send ETag and Last-Modified), runs the crawl again on the same
// output directory, and judges the two generations by what was archived,
// by the server's request log, and by replaying every capture in pywb
// 2.9.1, from the WARC files and from the crawl's WACZ.
//
// From the WARC files and the request log, against webgen's ground truth
// (Graph.Changes(2)), for every URL archived in generation 1:
//
//   - an unchanged page on a server with validators was answered 304 and
//     archived as a server-not-modified revisit naming its generation-1
//     record; one without validators was answered 200 and archived as an
//     identical-payload-digest revisit naming it;
//   - a changed page (new text, or another language) was archived anew,
//     with generation 2's bytes, and a language change is noted
//     lang-changed in crawl.log;
//   - a page gone (404 or 410) was archived with that status and noted
//     gone in crawl.log;
//   - a new page linked from a changed page was fetched and archived;
//   - a copy of a page (the same bytes at a new URL) is an
//     identical-payload-digest revisit naming the original's generation-1
//     record, its URL and its date.
//
// In pywb (the WARC files indexed with `wb-manager add`, and the WACZ from
// `langcrawl wacz` loaded with `wb-manager add --unpack-wacz` into a fresh
// collection): the CDX API lists every capture; id_ serves every capture
// at its own timestamp with its archived status and payload (a revisit
// with its original's payload and its own headers), and every page of a
// generated server with the exact bytes the server sent in that
// generation. warcio.js reads and digests every record.
//
// Failures that come from a known defect in langcrawl's records are
// collected in recrawlKnownBroken's classes, printed on every run, and
// fail the test once a class no longer fails.
func TestRecrawlChangingWebInPywb(t *testing.T) {
	start := time.Now()
	bin := pywbBin(t)
	for class, why := range recrawlKnownBroken {
		t.Logf("recrawlKnownBroken[%q]: %s", class, why)
	}
	graphOnce.Do(func() { graph, graphErr = webgen.Generate(webgen.DemoDefaults()) })
	if graphErr != nil {
		t.Fatal(graphErr)
	}
	srv := webgen.NewServer(graph, webgen.ServerOptions{SlowDelay: 300 * time.Millisecond, Validators: true})
	hs, ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	w := &demoWeb{g: graph, srv: srv, addr: ln.Addr().String()}

	out := t.TempDir()
	cfg := w.profile(t, out, "warc:\n  max_size: 1MiB\nretries: {max: 4, delay: 20ms, max_delay: 100ms}\n")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	// WARC dates are to the second, so the generations are told apart by
	// file: a run opens WARC files of its own.
	files1, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
	inFirst := map[string]bool{}
	for _, f := range files1 {
		inFirst[filepath.Base(f)] = true
	}
	hits1 := len(srv.Log())
	logPath := filepath.Join(out, logDir, "crawl.log")
	log1, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetGeneration(2); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	snap, err := runCrawl(context.Background(), cfg, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Frontier.Generation != 2 {
		t.Fatalf("the second run is generation %d, want 2:\n%s", snap.Frontier.Generation, stderr.String())
	}
	crawled := time.Now()

	ck := &recrawlChecker{failed: map[string][]string{}}
	warcs, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
	if len(warcs) <= len(files1) {
		t.Fatalf("generation 2 wrote no WARC file of its own (%d files after generation 1, %d after 2)", len(files1), len(warcs))
	}
	recs := warcRecords(t, filepath.Join(out, warcDir)) // strict: every record and digest
	byID := map[string]archive.Record{}
	first := map[string]archive.Record{}    // URL -> its generation-1 response
	second := map[string][]archive.Record{} // URL -> its generation-2 responses and revisits
	for _, f := range warcs {
		rs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		for _, r := range rs {
			if r.Type != "response" && r.Type != "revisit" {
				continue
			}
			byID[r.ID] = r
			if inFirst[filepath.Base(f)] {
				if _, ok := first[r.TargetURI]; !ok && r.Type == "response" {
					first[r.TargetURI] = r
				}
			} else {
				second[r.TargetURI] = append(second[r.TargetURI], r)
			}
		}
	}
	// What the server answered in generation 2, by URL.
	answered := map[string][]int{}
	var bytes1, bytes2 int64
	for k, h := range srv.Log() {
		if k < hits1 {
			bytes1 += h.Bytes
			continue
		}
		bytes2 += h.Bytes
		answered["http://"+h.Host+h.URI] = append(answered["http://"+h.Host+h.URI], h.Status)
	}
	// crawl.log lines of generation 2, by URL: status and annotations.
	log2 := map[string][]string{}
	all, err := os.ReadFile(logPath)
	if err != nil || !bytes.HasPrefix(all, log1) {
		t.Fatalf("crawl.log: %v (or generation 1's lines rewritten)", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(all[len(log1):])), "\n") {
		f := strings.Fields(line)
		if len(f) < 12 {
			t.Errorf("crawl.log line is not whole: %q", line)
			continue
		}
		log2[f[3]] = append(log2[f[3]], f[1]+" "+strings.Join(f[10:], " "))
	}

	changes, err := graph.Changes(2)
	if err != nil {
		t.Fatal(err)
	}
	ref := [3]*webgen.Server{nil, recrawlRef(1), recrawlRef(2)}
	count := map[string]int{}
	var notModified, samePayload, copies int
	t.Run("WARC files and request log against the ground truth", func(t *testing.T) {
		for _, c := range changes {
			revisit := func(profile, refersTo string) (archive.Record, bool) {
				for _, r := range second[c.URL] {
					if r.Type == "revisit" && r.Header("WARC-Profile") == profile {
						if refersTo == "" || r.RefersTo == refersTo {
							return r, true
						}
					}
				}
				return archive.Record{}, false
			}
			var orig archive.Record
			if c.Kind == webgen.Copy {
				orig = first[c.Original]
			} else {
				orig = first[c.URL]
			}
			if orig.ID == "" || !strings.HasPrefix(string(orig.Block), "HTTP/1.1 200") {
				// Not archived in generation 1 (out of reach); a new page
				// is judged by its parent's capture.
				if c.Kind != webgen.New || first[graph.URL(c.Page)].ID == "" {
					continue
				}
			}
			kind := c.Kind.String()
			if c.Kind == webgen.Unchanged {
				kind += fmt.Sprintf(" (validators %v)", c.Validators)
			}
			count[kind]++
			switch c.Kind {
			case webgen.Unchanged:
				if c.Validators {
					if !slices.Contains(answered[c.URL], http.StatusNotModified) {
						ck.errorf(t, "", c.URL, "unchanged, with validators: the server answered %v in generation 2, want a 304", answered[c.URL])
					}
					if r, ok := revisit(archive.ProfileServerNotModified, orig.ID); !ok {
						ck.errorf(t, "", c.URL, "unchanged, with validators: no server-not-modified revisit naming %s", orig.ID)
					} else {
						recrawlNames(t, ck, r, orig)
						notModified++
					}
				} else {
					if r, ok := revisit(archive.ProfileIdenticalPayloadDigest, orig.ID); !ok {
						ck.errorf(t, "", c.URL, "unchanged, without validators: no identical-payload-digest revisit naming %s (answered %v)", orig.ID, answered[c.URL])
					} else {
						recrawlNames(t, ck, r, orig)
						samePayload++
					}
				}
			case webgen.Changed, webgen.LangChanged, webgen.New:
				want := recrawlBody(t, ref[2], c.URL)
				got := false
				for _, r := range second[c.URL] {
					if b, err := httpBody(r.Block); r.Type == "response" && err == nil && bytes.Equal(b, want) {
						got = true
					}
				}
				if !got {
					ck.errorf(t, "", c.URL, "%s: no generation-2 response record with generation 2's %d bytes (answered %v)", c.Kind, len(want), answered[c.URL])
				}
				if c.Kind == webgen.LangChanged && !recrawlLogged(log2[c.URL], "lang-changed:") {
					ck.errorf(t, "", c.URL, "language changed from %s to %s, but crawl.log does not say lang-changed: %q", c.PrevLang, c.Lang, log2[c.URL])
				}
			case webgen.Gone:
				got := false
				for _, r := range second[c.URL] {
					if r.Type == "response" && strings.HasPrefix(string(r.Block), fmt.Sprintf("HTTP/1.1 %d", c.Status)) {
						got = true
					}
				}
				if !got {
					ck.errorf(t, "", c.URL, "gone (%d): no generation-2 response record with that status", c.Status)
				}
				if !recrawlLogged(log2[c.URL], "gone") || !strings.HasPrefix(strings.Join(log2[c.URL], ";"), fmt.Sprint(c.Status)) {
					ck.errorf(t, "", c.URL, "gone (%d): crawl.log says %q, want the status and gone", c.Status, log2[c.URL])
				}
			case webgen.Copy:
				r, ok := revisit(archive.ProfileIdenticalPayloadDigest, "")
				if !ok {
					ck.errorf(t, "", c.URL, "a copy of %s: no identical-payload-digest revisit (records %d, answered %v)", c.Original, len(second[c.URL]), answered[c.URL])
					continue
				}
				if r.RefersTo != orig.ID {
					ck.errorf(t, "", c.URL, "a copy of %s: the revisit names %s, not the first capture %s", c.Original, r.RefersTo, orig.ID)
				}
				recrawlNames(t, ck, r, orig)
				copies++
			}
		}
		t.Logf("generation 2 against the truth, for the URLs within the crawl's reach: %v", count)
		for _, k := range []string{"unchanged (validators true)", "unchanged (validators false)", "changed", "gone", "new", "copy"} {
			if count[k] == 0 {
				t.Errorf("no %s URL within the crawl's reach: the test checks nothing of that kind", k)
			}
		}
	})
	var revisitBytes int64
	for _, rs := range second {
		for _, r := range rs {
			if o, ok := byID[r.RefersTo]; ok && r.Type == "revisit" {
				if b, err := httpBody(o.Block); err == nil {
					revisitBytes += int64(len(b))
				}
			}
		}
	}
	t.Logf("generation 1: %d requests, %d body bytes; generation 2: %d requests, %d body bytes, %d answered 304; "+
		"%d server-not-modified and %d identical-payload revisits checked, %d copies deduplicated; "+
		"the engine counted %d revisits, %d gone, %d language changes; revisits stand for %d payload bytes not stored again",
		hits1, bytes1, len(srv.Log())-hits1, bytes2, recrawlCount(answered, 304), notModified, samePayload, copies,
		snap.Revisits, snap.Gone, snap.LangChanged, revisitBytes)

	t.Run("warcio.js reads every record", func(t *testing.T) {
		js := warcioRecords(t, warcs)
		if len(js) != len(recs) {
			t.Errorf("warcio.js read %d records, gowarc %d", len(js), len(recs))
		}
		for _, r := range js {
			if !r.BlockDigestOK || !r.PayloadDigestOK {
				t.Errorf("warcio.js: digest mismatch in %s record for %s", r.Type, r.URI)
			}
		}
	})

	caps := pywbCaptures(t, warcs)
	genOf := func(c *pywbCapture) int {
		if inFirst[c.file] {
			return 1
		}
		return 2
	}
	pw := startPywb(t, bin, warcs)
	t.Logf("crawl of both generations %s; pywb indexed %d captures in %d WARC files and started in %s",
		crawled.Sub(start).Round(time.Millisecond), len(caps), len(warcs), time.Since(crawled).Round(time.Millisecond))
	t.Run("pywb from the WARC files", func(t *testing.T) {
		recrawlReplay(t, ck, "warc", pw, caps, genOf, ref, byID, false)
	})

	waczPath := filepath.Join(t.TempDir(), "crawl.wacz")
	if err := packageCrawl(context.Background(), out, waczPath, "", io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	pz := startPywb(t, bin, []string{"--unpack-wacz", waczPath})
	t.Run("pywb from the WACZ", func(t *testing.T) {
		recrawlReplay(t, ck, "wacz", pz, caps, genOf, ref, byID, true)
	})

	for class := range recrawlKnownBroken {
		urls := ck.failed[class]
		sort.Strings(urls)
		t.Logf("recrawlKnownBroken[%q] fails for %d URLs: %s", class, len(urls), strings.Join(urls, " "))
		if len(urls) == 0 {
			t.Errorf("recrawlKnownBroken[%q] no longer fails: take it out", class)
		}
	}
	t.Logf("whole test %s", time.Since(start).Round(time.Millisecond))
}

// recrawlKnownBroken names classes of failure that come from a known
// defect in langcrawl's records, each with the defect. A failure of a
// class is logged with its URL rather than reported as an error, the URLs
// of each class are printed on every run, and the test fails once a class
// fails no more, so that it is taken out.
var recrawlKnownBroken = map[string]string{
	// Empty: pywb 2.9.1 replayed langcrawl's server-not-modified revisits
	// as an empty 304 while they held the 304 status line (its resolving
	// loader keeps the revisit's status line and drops a 304's body); they
	// are now written with an empty block, the 304 in their metadata
	// record, and replay the original at their own date.
}

// recrawlChecker reports failed checks; it is safe for concurrent use.
type recrawlChecker struct {
	mu     sync.Mutex
	failed map[string][]string // class -> URLs
}

func (ck *recrawlChecker) errorf(t *testing.T, class, u, format string, args ...any) {
	t.Helper()
	msg := u + ": " + fmt.Sprintf(format, args...)
	if _, known := recrawlKnownBroken[class]; known && class != "" {
		ck.mu.Lock()
		if !slices.Contains(ck.failed[class], u) {
			ck.failed[class] = append(ck.failed[class], u)
		}
		ck.mu.Unlock()
		t.Logf("known broken (%s): %s", class, msg)
		return
	}
	t.Error(msg)
}

// recrawlNames checks that revisit r names the capture orig by record ID,
// URL, date and payload digest.
func recrawlNames(t *testing.T, ck *recrawlChecker, r, orig archive.Record) {
	t.Helper()
	if r.RefersTo != orig.ID || r.Header("WARC-Refers-To-Target-URI") != orig.TargetURI ||
		r.Header("WARC-Refers-To-Date") != orig.Header("WARC-Date") ||
		r.Header("WARC-Payload-Digest") != orig.Header("WARC-Payload-Digest") {
		ck.errorf(t, "", r.TargetURI, "revisit names %s %s %s %s, want the capture %s %s %s %s",
			r.RefersTo, r.Header("WARC-Refers-To-Target-URI"), r.Header("WARC-Refers-To-Date"), r.Header("WARC-Payload-Digest"),
			orig.ID, orig.TargetURI, orig.Header("WARC-Date"), orig.Header("WARC-Payload-Digest"))
	}
}

// recrawlRef is a server of generation n to ask for the exact bytes of a
// page, without a listener.
func recrawlRef(n int) *webgen.Server {
	return webgen.NewServer(graph, webgen.ServerOptions{SlowDelay: -1, Validators: true, Generation: n})
}

// recrawlBody is what s answers for u to a plain GET.
func recrawlBody(t *testing.T, s *webgen.Server, u string) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
	return rec.Body.Bytes()
}

func recrawlLogged(lines []string, annot string) bool {
	for _, l := range lines {
		if strings.Contains(l, annot) {
			return true
		}
	}
	return false
}

func recrawlCount(answered map[string][]int, status int) int {
	n := 0
	for _, ss := range answered {
		for _, s := range ss {
			if s == status {
				n++
			}
		}
	}
	return n
}

// recrawlReplay checks pywb against the captures: the CDX API lists them
// all; id_ serves each at its timestamp with its status, payload and
// headers, and each page of a generated server with the bytes of its
// generation; and, but for a WACZ, mp_ serves every HTML page rewritten.
//
// A collection made from a WACZ differs in two ways that are not
// defects: wb-manager renames the WARC files it unpacks
// (crawl-N.warc.gz), and pywb lists the WACZ's own index, langcrawl's,
// which gives a revisit the status of its HTTP header where pywb's
// indexer gives none. There the CDX lines are compared without the file
// name, and without the status of revisits.
func recrawlReplay(t *testing.T, ck *recrawlChecker, name string, pw *pywbServer, caps []*pywbCapture,
	genOf func(*pywbCapture) int, ref [3]*webgen.Server, byID map[string]archive.Record, wacz bool) {
	line := func(u, ts, status, mime, digest, file, offset string) string {
		if wacz {
			file = "-"
			if mime == "warc/revisit" {
				status = "-"
			}
		}
		return strings.Join([]string{u, ts, status, mime, digest, file + ":" + offset}, " ")
	}
	{
		byHost := map[string][]string{}
		var hosts []string
		for _, c := range caps {
			h := pywbHost(c.url)
			if byHost[h] == nil {
				hosts = append(hosts, h)
			}
			f := strings.Fields(c.cdxLine())
			if len(f) == 4 { // a revisit, with no status
				f = append(f[:1], append([]string{""}, f[1:]...)...)
			}
			file, offset, _ := strings.Cut(f[4], ":")
			byHost[h] = append(byHost[h], line(c.url, f[0], f[1], f[2], f[3], file, offset))
		}
		var mu sync.Mutex
		listed := 0
		pywbEach(len(hosts), func(i int) {
			got, err := pw.cdx(hosts[i]+"/", "host")
			if err != nil {
				ck.errorf(t, "", hosts[i], "%s: CDX API: %v", name, err)
				return
			}
			var gs []string
			for _, l := range got {
				gs = append(gs, line(l.URL, l.Timestamp, l.Status, l.Mime, l.Digest, l.Filename, l.Offset))
			}
			ws := byHost[hosts[i]]
			slices.Sort(ws)
			slices.Sort(gs)
			if !slices.Equal(ws, gs) {
				ck.errorf(t, "", hosts[i], "%s: CDX API lists %d captures, the WARC files %d, and they differ:\n pywb:  %s\n warcs: %s",
					name, len(gs), len(ws), strings.Join(gs, "\n        "), strings.Join(ws, "\n        "))
			}
			mu.Lock()
			listed += len(got)
			mu.Unlock()
		})
		if listed != len(caps) {
			t.Errorf("%s: CDX API listed %d captures, the WARC files hold %d", name, listed, len(caps))
		}
		t.Logf("%s: CDX API listed %d captures on %d hosts", name, listed, len(hosts))
	}

	same := map[string]int{} // captures pywb can only be asked for together: same URL key, same second
	for _, c := range caps {
		same[archive.SURT(c.url)+" "+c.ts]++
	}
	var mu sync.Mutex
	var served, revisits, exact int
	pywbEach(len(caps), func(i int) {
		c := caps[i]
		if same[archive.SURT(c.url)+" "+c.ts] > 1 {
			return // th-robots503.test's robots.txt tries; TestPywbReplaysEveryCapture checks them
		}
		ae := c.head.Get("Content-Encoding")
		if ae == "" {
			ae = "identity"
		}
		res, body, err := pw.get(c.ts+"id_", c.url, ae)
		if err != nil {
			ck.errorf(t, "", c.url, "%s: id_: %v", name, err)
			return
		}
		class, wantStatus, wantBody := "", c.status, c.payload
		switch {
		case c.typ == "revisit" && (c.status == http.StatusNotModified || c.headless):
			// The page did not change: replay serves the original's
			// status and payload, with the revisit's own headers.
			class = "server-not-modified revisit"
			if o, ok := byID[c.refersTo]; ok {
				wantStatus, _, _ = pywbHTTPHead(o.Block)
				wantBody, _ = httpBody(o.Block)
			}
		case c.typ == "revisit":
			class = "identical-payload-digest revisit"
		}
		if res.StatusCode != wantStatus || !bytes.Equal(body, wantBody) {
			ck.errorf(t, class, c.url, "%s: id_ %s (%s) served %d with %d bytes (sha1 %s), want %d with the %d archived payload bytes (sha1 %s)",
				name, c.ts, c.typ, res.StatusCode, len(body), pywbSHA1(body), wantStatus, len(wantBody), pywbSHA1(wantBody))
			return
		}
		if got, want := res.Header.Get("Memento-Datetime"), c.date.UTC().Format(http.TimeFormat); got != want {
			ck.errorf(t, class, c.url, "%s: id_ Memento-Datetime %q, want the capture's own WARC-Date %q", name, got, want)
		}
		if got, want := res.Header.Get("Content-Type"), c.head.Get("Content-Type"); got != want {
			ck.errorf(t, class, c.url, "%s: id_ Content-Type %q, the capture's own is %q", name, got, want)
		}
		// pywb keeps the cache validators as X-Archive-Orig-* headers.
		for _, h := range []string{"ETag", "Last-Modified", "Date"} {
			if want := c.head.Get(h); want != "" && res.Header.Get("X-Archive-Orig-"+h) != want {
				ck.errorf(t, class, c.url, "%s: id_ X-Archive-Orig-%s %q, the capture's own %s is %q", name, h, res.Header.Get("X-Archive-Orig-"+h), h, want)
			}
		}
		ex := 0
		if _, ok := graph.TruthAt(c.url, genOf(c)); ok && res.StatusCode == 200 && c.truncated == "" && ae == "identity" &&
			!strings.HasSuffix(c.url, "/robots.txt") {
			// The exact bytes the server sent in the capture's generation.
			if want := recrawlBody(t, ref[genOf(c)], c.url); !bytes.Equal(body, want) {
				ck.errorf(t, class, c.url, "%s: id_ %s served %d bytes, but generation %d of the web sent %d bytes there",
					name, c.ts, len(body), genOf(c), len(want))
				return
			}
			ex = 1
		}
		mu.Lock()
		served++
		exact += ex
		if c.typ == "revisit" {
			revisits++
		}
		mu.Unlock()
	})
	t.Logf("%s: id_ served %d of %d captures as archived (%d revisits with their original's payload), %d of them compared with the exact bytes of their generation",
		name, served, len(caps), revisits, exact)

	if wacz {
		return
	}
	// mp_, the mode a browser replays in: every HTML page of both
	// generations, revisits included, is served 200 and rewritten.
	var pages []*pywbCapture
	for _, c := range caps {
		if mt, _, _ := mime.ParseMediaType(c.head.Get("Content-Type")); (c.status == 200 || c.status == 304) && mt == "text/html" &&
			same[archive.SURT(c.url)+" "+c.ts] == 1 {
			pages = append(pages, c)
		}
	}
	ok := 0
	pywbEach(len(pages), func(i int) {
		c := pages[i]
		class := ""
		if c.status == http.StatusNotModified || c.headless {
			class = "server-not-modified revisit"
		}
		res, body, err := pw.get(c.ts+"mp_", c.url, "identity")
		switch {
		case err != nil:
			ck.errorf(t, class, c.url, "%s: mp_: %v", name, err)
		case res.StatusCode != 200 || !bytes.Contains(body, []byte("wombat.js")):
			ck.errorf(t, class, c.url, "%s: mp_ %s (%s) answered %d with %d bytes, want 200 and a page rewritten by pywb", name, c.ts, c.typ, res.StatusCode, len(body))
		default:
			mu.Lock()
			ok++
			mu.Unlock()
		}
	})
	t.Logf("%s: mp_ served %d of %d HTML captures 200, rewritten", name, ok, len(pages))
}
