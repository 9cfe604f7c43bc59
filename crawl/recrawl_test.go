package crawl

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb/storage"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
)

// etagWeb is a fake web whose pages may carry an ETag and answer a
// matching If-None-Match with 304, and which records the headers of each
// request.
type etagWeb struct {
	*fakeFetcher
	etag map[string]string // URL -> ETag served
	mu   sync.Mutex
	hdrs map[string]http.Header
}

func (w *etagWeb) Do(ctx context.Context, m, u string, h http.Header) (*fetch.Result, error) {
	w.mu.Lock()
	w.hdrs[u] = h.Clone()
	w.mu.Unlock()
	if tag, ok := w.etag[u]; ok && h.Get("If-None-Match") == tag {
		saved := w.web[u]
		w.web[u] = "HTTP/1.1 304 Not Modified\r\nETag: " + tag + "\r\n\r\n"
		defer func() { w.web[u] = saved }()
	}
	res, err := w.fakeFetcher.Do(ctx, m, u, h)
	if res != nil && res.Status == 200 {
		if tag, ok := w.etag[u]; ok {
			res.Header.Set("ETag", tag)
		}
	}
	return res, err
}

// genRig is a frontier in memory and a fake web with ETags, which several
// crawlers, one per generation, crawl in turn.
type genRig struct {
	q *frontier.Queue
	w *etagWeb
	a *fakeArchive
}

func newGenRig(t *testing.T, web fakeWeb, etags map[string]string) *genRig {
	t.Helper()
	q, err := frontier.Open("", &frontier.Options{Storage: storage.NewMemStorage(), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	if etags == nil {
		etags = map[string]string{}
	}
	return &genRig{q: q, w: &etagWeb{fakeFetcher: &fakeFetcher{web: web}, etag: etags, hdrs: map[string]http.Header{}}, a: &fakeArchive{}}
}

// crawler makes a Crawler of cfg (one worker and fast retries unless
// set) over the rig's frontier, web and archive.
func (g *genRig) crawler(t *testing.T, cfg Config) *Crawler {
	t.Helper()
	if cfg.Workers == 0 {
		cfg.Workers = 1
	}
	if cfg.Retries == (Retries{}) {
		cfg.Retries = fastRetries
	}
	c, err := New(cfg, Parts{Queue: g.q, Archive: g.a, Fetcher: g.w, Gate: fakeGate{}, Detector: fakeDetector{}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// firstGeneration crawls the web from seeds to its end.
func (g *genRig) firstGeneration(t *testing.T, cfg Config, seeds ...string) *Crawler {
	t.Helper()
	c := g.crawler(t, cfg)
	if _, err := c.Seed(seeds); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

// nextGeneration starts a new generation of the rig's finished crawl with
// a crawler of cfg, seeds it, runs it to its end and returns the URLs it
// fetched.
func (g *genRig) nextGeneration(t *testing.T, cfg Config, seeds ...string) []string {
	t.Helper()
	c := g.crawler(t, cfg)
	if _, _, err := c.Recrawl(0, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	if len(seeds) > 0 {
		c.Seed(seeds)
	}
	before := len(g.w.got)
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return g.w.got[before:]
}

// A second generation of a finished crawl: the known URLs are fetched
// again with conditional requests; a 304 and an unchanged payload become
// revisit records that name the first capture (record ID, URL and date,
// as pywb needs); a changed page is archived anew and its new link
// followed; a page now 404 is recorded as gone.
func TestRecrawlGeneration(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":        page("th", "/same", "/changed", "/gone", "/etag"),
		"http://a.test/same":    page("th"),
		"http://a.test/changed": page("th"),
		"http://a.test/gone":    page("th"),
		"http://a.test/etag":    page("th"),
	}
	g := newGenRig(t, web, map[string]string{"http://a.test/etag": `"v1"`})
	q, w, a := g.q, g.w, g.a
	g.firstGeneration(t, Config{}, "http://a.test/")
	first, _, _ := q.History("http://a.test/etag")
	changedFirst, _, _ := q.History("http://a.test/changed")
	if first.RecordID == "" || first.URL != "http://a.test/etag" {
		t.Fatalf("history after the first crawl: %+v", first)
	}

	// The web changes.
	web["http://a.test/changed"] = page("en", "/new")
	web["http://a.test/new"] = page("th")
	web["http://a.test/gone"] = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"

	c2 := g.crawler(t, Config{})
	gen, n, err := c2.Recrawl(0, nil, time.Now())
	if err != nil || gen != 2 || n != 5 {
		t.Fatalf("Recrawl = %d, %d, %v; want generation 2 with the 5 known URLs", gen, n, err)
	}
	c2.Seed([]string{"http://a.test/"})
	before := len(w.got)
	if _, err := c2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(w.got[before:], " ")
	for _, u := range []string{"http://a.test/", "http://a.test/same", "http://a.test/changed", "http://a.test/gone", "http://a.test/etag", "http://a.test/new"} {
		if !strings.Contains(got+" ", u+" ") {
			t.Errorf("%s not fetched in the second generation: %s", u, got)
		}
	}
	if h := w.hdrs["http://a.test/etag"]; h.Get("If-None-Match") != `"v1"` {
		t.Errorf("no conditional request for a page with an ETag: %v", h)
	}
	profiles := map[string]archive.Revisit{}
	for _, rv := range a.revisits {
		profiles[rv.URL] = rv
	}
	nm, ok := profiles["http://a.test/etag"]
	if !ok || nm.Profile != archive.ProfileServerNotModified || nm.RefersTo != first.RecordID ||
		nm.RefersToTargetURI != first.URL || !nm.RefersToDate.Equal(first.Fetched) || nm.PayloadDigest != first.Digest {
		t.Errorf("304 revisit = %+v; want server-not-modified referring to %+v", nm, first)
	}
	// Its block holds no HTTP header (pywb then replays the original); the
	// 304 itself is in its metadata record.
	if nm.RawResponse != nil || len(nm.Metadata) == 0 || nm.Metadata[0].Name != "notModifiedResponse" ||
		!strings.HasPrefix(nm.Metadata[0].Value, "HTTP/1.1 304") {
		t.Errorf("304 revisit: block %q, metadata %v; want no block and the 304 in notModifiedResponse", nm.RawResponse, nm.Metadata)
	}
	// Its metadata says how the URL was reached, its last visit, and the
	// language of the capture it stands for, marked as not detected again
	// (an independent re-crawl trial found only the first two fields).
	for _, f := range []archive.Field{{Name: "hopsFromSeed", Value: "L"}, {Name: "via", Value: "http://a.test/"},
		{Name: "depth", Value: "1"}, {Name: "previousVisit", Value: first.Fetched.UTC().Format(time.RFC3339) + " 200"},
		{Name: "language", Value: "th"}, {Name: "languageFrom", Value: "refers-to"}, {Name: "relevant", Value: "true"}} {
		if !slices.Contains(nm.Metadata, f) {
			t.Errorf("304 revisit metadata %v lacks %v", nm.Metadata, f)
		}
	}
	same, ok := profiles["http://a.test/same"]
	if !ok || same.Profile != archive.ProfileIdenticalPayloadDigest || same.RefersToTargetURI != "http://a.test/same" || same.RefersTo == "" {
		t.Errorf("unchanged page: revisit %+v (%v)", same, ok)
	}
	if _, ok := profiles["http://a.test/changed"]; ok {
		t.Error("a changed page was written as a revisit")
	}
	h, _, _ := q.History("http://a.test/changed")
	if !h.Changed || h.Lang != "en" {
		t.Errorf("history of the changed page: %+v", h)
	}
	// Its metadata names the visit before, for the report to count it as
	// archived before (a --previous crawl's files cannot tell it); a page
	// new to the crawl has none.
	want := changedFirst.Fetched.UTC().Format(time.RFC3339) + " 200"
	if !slices.Contains(a.meta["http://a.test/changed"], archive.Field{Name: "previousVisit", Value: want}) {
		t.Errorf("changed page's metadata %v: want previousVisit %q", a.meta["http://a.test/changed"], want)
	}
	for _, f := range a.meta["http://a.test/new"] {
		if f.Name == "previousVisit" {
			t.Errorf("a page new to the crawl has previousVisit %q", f.Value)
		}
	}
	s := c2.Stats()
	if s.Revisits != 3 || s.Gone != 1 || s.LangChanged != 1 { // the seed page, /same and /etag
		t.Errorf("revisits %d, gone %d, language changed %d; want 3, 1, 1", s.Revisits, s.Gone, s.LangChanged)
	}
	// A third run on a finished generation with an interval not yet
	// reached queues nothing again.
	c3 := g.crawler(t, Config{})
	if _, n, err := c3.Recrawl(time.Hour, nil, time.Now()); err != nil || n != 0 {
		t.Errorf("Recrawl with a 1h interval right after a crawl queued %d (%v), want 0", n, err)
	}
	if _, n, err := c3.Recrawl(0, map[string]time.Duration{"a.test": time.Hour}, time.Now()); err != nil || n != 0 {
		t.Errorf("a per-host interval of 1h: queued %d (%v), want 0", n, err)
	}

}

// TestUnaskedNotModified: a 304 answers a conditional request only. To a
// request that was not conditional (the URL's earlier answer was a 404,
// or a page served without validators) a 304 is the server's own: it is
// archived as it came, not made into a revisit of a capture that is no
// page (it was made into one of the 404 before).
func TestUnaskedNotModified(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":      page("th", "/gone", "/noval", "/etag"),
		"http://a.test/gone":  "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
		"http://a.test/noval": page("th"),
		"http://a.test/etag":  page("th"),
	}
	g := newGenRig(t, web, map[string]string{"http://a.test/etag": `"v1"`})
	w, a := g.w, g.a
	g.firstGeneration(t, Config{}, "http://a.test/")
	// Now the server answers 304 to anything but the seed.
	for _, u := range []string{"http://a.test/gone", "http://a.test/noval"} {
		web[u] = "HTTP/1.1 304 Not Modified\r\n\r\n"
	}
	c2 := g.crawler(t, Config{})
	if _, _, err := c2.Recrawl(0, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	before := a.responses
	if _, err := c2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, rv := range a.revisits {
		if rv.URL == "http://a.test/gone" || rv.URL == "http://a.test/noval" {
			t.Errorf("a 304 to a request that was not conditional became a revisit: %+v", rv)
		}
	}
	if h := w.hdrs["http://a.test/noval"]; h.Get("If-None-Match") != "" || h.Get("If-Modified-Since") != "" {
		t.Errorf("a request for a page without validators was conditional: %v", h)
	}
	// The two 304s, and the seed page archived again (fakeFetcher's pages
	// carry no validators, and its payload is unchanged: a revisit).
	if got := a.responses - before; got != 2 {
		t.Errorf("%d responses archived in the second generation, want the two 304s", got)
	}
	var etag bool
	for _, rv := range a.revisits {
		etag = etag || rv.URL == "http://a.test/etag" && rv.Profile == archive.ProfileServerNotModified
	}
	if !etag {
		t.Error("the 304 to a conditional request is no server-not-modified revisit")
	}
}

// The same payload at two URLs: the second is written as a revisit that
// refers to the first capture by record ID, URL and date, when it is at
// least DedupMinSize bytes; smaller ones are archived again.
func TestDeduplicateAcrossURLs(t *testing.T) {
	big := strings.Repeat("ภาษาไทย ", 300) // 6 KB
	file := func(body string) string {
		return "HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	web := fakeWeb{
		"http://a.test/":         page("th", "/doc.pdf", "http://b.test/", "/small"),
		"http://a.test/doc.pdf":  file(big),
		"http://a.test/small":    file("tiny"),
		"http://b.test/":         page("th", "/copy.pdf", "/small"),
		"http://b.test/copy.pdf": file(big),
		"http://b.test/small":    file("tiny"),
	}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{DedupMinSize: 1024}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var dup *archive.Revisit
	for i := range r.a.revisits {
		if r.a.revisits[i].URL == "http://b.test/copy.pdf" {
			dup = &r.a.revisits[i]
		}
	}
	orig, _, _ := r.q.History("http://a.test/doc.pdf")
	if dup == nil || dup.Profile != archive.ProfileIdenticalPayloadDigest || dup.RefersTo != orig.RecordID ||
		dup.RefersToTargetURI != "http://a.test/doc.pdf" || !dup.RefersToDate.Equal(orig.Fetched) || dup.PayloadDigest != orig.Digest {
		t.Fatalf("duplicate at another URL: revisit %+v; want one referring to %+v", dup, orig)
	}
	if len(r.a.revisits) != 1 {
		t.Errorf("%d revisits, want 1 (the small duplicate is under the minimum size)", len(r.a.revisits))
	}
	if s := c.Stats(); s.Deduplicated != 1 {
		t.Errorf("deduplicated %d, want 1", s.Deduplicated)
	}
	// A second generation: b.test/copy.pdf is a duplicate of a.test/doc.pdf
	// again, and unchanged since its own last visit. Its metadata says
	// unchanged, and the summary counts it among the revisits, not as
	// deduplicated (a re-crawl trial found the two disagreeing).
	c2 := r.crawler(t, Config{DedupMinSize: 1024}, nil)
	if _, _, err := c2.Recrawl(0, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	n := len(r.a.revisits)
	if _, err := c2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	kind := ""
	for _, rv := range r.a.revisits[n:] {
		if rv.URL == "http://b.test/copy.pdf" {
			for _, f := range rv.Metadata {
				if f.Name == "revisit" {
					kind = f.Value
				}
			}
		}
	}
	if s := c2.Stats(); kind != revisitUnchanged || s.Deduplicated != 0 || s.Revisits < 2 {
		t.Errorf("generation 2: copy.pdf's revisit says %q; deduplicated %d, revisits %d; want unchanged, 0, and both PDFs among the revisits",
			kind, s.Deduplicated, s.Revisits)
	}
}

// A CDXJ index of another crawl (pywb's form: the digest without its
// algorithm) is deduplication history: a payload it lists is written as a
// revisit naming that capture by URL and date.
func TestImportDedupIndex(t *testing.T) {
	big := strings.Repeat("ภาษาไทย ", 300)
	resp := "HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: " + strconv.Itoa(len(big)) + "\r\n\r\n" + big
	i := strings.Index(resp, "\r\n\r\n") + 4
	d := archive.PayloadDigest([]byte(resp), i, false, true)
	resp2 := strings.Replace(resp, "ภาษาไทย", "ภาษาลาว", 1)
	d2 := archive.PayloadDigest([]byte(resp2), i, false, true)
	web := fakeWeb{"http://a.test/": page("th", "/doc.pdf", "/same.pdf"), "http://a.test/doc.pdf": resp, "http://a.test/same.pdf": resp2}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{DedupMinSize: 1024}, nil, "http://a.test/")
	cdxj := "!meta 0 {}\n" +
		`test,old)/doc.pdf 20250102030405 {"url": "http://old.test/doc.pdf", "mime": "application/pdf", "status": "200", "digest": "` + strings.TrimPrefix(d, "sha1:") + `", "length": "9", "offset": "0", "filename": "x.warc.gz"}` + "\n" +
		`test,old)/r 20250102030405 {"url": "http://old.test/r", "mime": "warc/revisit", "status": "-", "digest": "OTHER"}` + "\n" +
		// The usual re-crawl case: the same URL, captured by an earlier
		// crawl whose history this one does not hold.
		`test,a)/same.pdf 20250102030405 {"url": "http://a.test/same.pdf", "mime": "application/pdf", "status": "200", "digest": "` + strings.TrimPrefix(d2, "sha1:") + `"}` + "\n"
	n, err := c.ImportDedupIndex(strings.NewReader(cdxj), "old.cdxj")
	if err != nil || n != 2 {
		t.Fatalf("ImportDedupIndex = %d, %v; want 2 digests", n, err)
	}
	if _, err := c.ImportDedupIndex(strings.NewReader("not cdxj\n"), "bad.cdxj"); err == nil || !strings.Contains(err.Error(), "bad.cdxj:1") {
		t.Errorf("a bad line: %v, want an error naming bad.cdxj:1", err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(r.a.revisits) != 2 {
		t.Fatalf("%d revisits, want the two PDFs as revisits", len(r.a.revisits))
	}
	slices.SortFunc(r.a.revisits, func(a, b archive.Revisit) int { return strings.Compare(a.URL, b.URL) })
	if rv := r.a.revisits[1]; rv.URL != "http://a.test/same.pdf" || rv.RefersToTargetURI != rv.URL || rv.PayloadDigest != d2 {
		t.Errorf("the same URL in the index: revisit %+v", rv)
	}
	rv := r.a.revisits[0]
	if rv.URL != "http://a.test/doc.pdf" || rv.RefersToTargetURI != "http://old.test/doc.pdf" || rv.RefersTo != "" ||
		!rv.RefersToDate.Equal(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)) || rv.PayloadDigest != d {
		t.Errorf("revisit %+v", rv)
	}
}

// TestRecrawlIntervalHoldsForLinks: in a re-crawl with an interval, a link
// to a known URL that is not due is not followed (rejected:recrawl:not-due),
// as the start of the generation did not queue it; a new URL is followed.
// Before, every known URL a due page linked to was fetched again.
func TestRecrawlIntervalHoldsForLinks(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":  page("th", "http://b.test/x"),
		"http://b.test/x": page("th"),
	}
	g := newGenRig(t, web, nil)
	f := g.w
	cfg := Config{RecrawlInterval: time.Hour, RecrawlIntervals: map[string]time.Duration{"a.test": 0}}
	g.firstGeneration(t, cfg, "http://a.test/")
	// new2 links back to new, fetched earlier in the same generation on
	// a host not due: a duplicate link, not a URL held back as not due.
	web["http://a.test/"] = page("th", "http://b.test/x", "http://b.test/new")
	web["http://b.test/new"] = page("th", "http://b.test/new2")
	web["http://b.test/new2"] = page("th", "http://b.test/new")
	c2 := g.crawler(t, cfg)
	if _, n, err := c2.Recrawl(cfg.RecrawlInterval, cfg.RecrawlIntervals, time.Now()); err != nil || n != 1 {
		t.Fatalf("Recrawl queued %d (%v), want a.test's page alone", n, err)
	}
	before := len(f.got)
	if _, err := c2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(f.got[before:], " ")
	if strings.Contains(got+" ", "http://b.test/x ") {
		t.Errorf("a known URL not due was fetched by a link: %s", got)
	}
	if !strings.Contains(got, "http://b.test/new") || !strings.Contains(got, "http://a.test/") {
		t.Errorf("fetched %s; want the due page and the new link", got)
	}
	if n := c2.Stats().Rejects["recrawl:not-due"]; n != 1 {
		t.Errorf("rejected as not due: %d, want 1 (%v)", n, c2.Stats().Rejects)
	}
}

// TestRecheckIrrelevant: a re-crawl keeps the earlier server verdicts, but
// fetches one URL of each server judged irrelevant (Config.Recheck), so a
// server whose language turned to the target is crawled again, and one
// still foreign costs one page. Without the re-check (an independent
// re-crawl trial found it) such a server was never fetched again.
func TestRecheckIrrelevant(t *testing.T) {
	for _, recheck := range []bool{true, false} {
		t.Run(strconv.FormatBool(recheck), func(t *testing.T) {
			web := fakeWeb{
				"http://th.test/": page("th", "http://en.test/", "http://en.test/1", "http://en.test/2", "http://en.test/3",
					"http://fr.test/", "http://fr.test/1", "http://fr.test/2", "http://fr.test/3"),
				"http://en.test/":  page("en"),
				"http://en.test/1": page("en"),
				"http://en.test/2": page("en"),
				"http://en.test/3": page("en"),
				"http://fr.test/":  page("fr"),
				"http://fr.test/1": page("fr"),
				"http://fr.test/2": page("fr"),
				"http://fr.test/3": page("fr"),
			}
			pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 2})
			g := newGenRig(t, web, nil)
			g.firstGeneration(t, Config{Focus: pol, Recheck: recheck}, "http://th.test/")
			n := 0
			for _, u := range g.w.got {
				n += strings.Count(u, "http://en.test/")
			}
			if n != 3 {
				t.Fatalf("first generation fetched %d pages of en.test, want T+1 = 3", n)
			}
			// Months later en.test is in Thai, with a new page.
			for _, p := range []string{"", "1", "2"} {
				web["http://en.test/"+p] = page("th")
			}
			web["http://en.test/"] = page("th", "/4")
			web["http://en.test/4"] = page("th")

			for gen := int64(2); gen <= 3; gen++ {
				got := g.nextGeneration(t, Config{Focus: pol, Recheck: recheck}, "http://th.test/")
				en, fr := 0, 0
				for _, u := range got {
					en += strings.Count(u, "http://en.test/")
					fr += strings.Count(u, "http://fr.test/")
				}
				switch {
				case recheck && !slices.Contains(got, "http://en.test/4"):
					t.Errorf("generation %d: the server now in Thai was not crawled again: %q", gen, got)
				case recheck && gen == 2 && fr != 1:
					t.Errorf("generation 2: %d pages of the server still in French, want its one re-check", fr)
				case recheck && gen == 3 && fr != 1:
					t.Errorf("generation 3: %d pages of the server still in French, want one re-check per generation", fr)
				case !recheck && en+fr != 0:
					t.Errorf("generation %d without re-checks fetched %q", gen, got)
				}
				if recheck {
					cs, _ := g.q.Counts("fr.test")
					if cs.Rechecked != gen {
						t.Errorf("generation %d: fr.test re-checked in %d", gen, cs.Rechecked)
					}
				}
			}
		})
	}
}

// TestRecheckSection: a re-checked page still foreign that links a Thai
// section of its own server has that link followed next, as the re-check's
// next try (recheckSection, at the front of the queue): the server, English
// in the first generation, now with a Thai section, is found and crawled.
// A server whose "section" is foreign too costs at most maxRecheckTries
// fetches; one with no such link, one. Before, the link was rejected as any
// link into an irrelevant server, and the Thai section was lost.
func TestRecheckSection(t *testing.T) {
	web := fakeWeb{
		"http://th.test/": page("th", "http://en.test/", "http://en.test/1", "http://en.test/2",
			"http://de.test/", "http://de.test/1", "http://de.test/2", "http://fr.test/", "http://fr.test/1", "http://fr.test/2"),
	}
	for _, h := range []string{"en", "de", "fr"} {
		for _, p := range []string{"", "1", "2"} {
			web["http://"+h+".test/"+p] = page(h)
		}
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 2, Langs: []string{"th"}})
	g := newGenRig(t, web, nil)
	g.firstGeneration(t, Config{Focus: pol, Recheck: true}, "http://th.test/")
	// Months later en.test's pages, still English, link a new Thai
	// section; de.test's link one that is German too, deeper and deeper.
	for _, p := range []string{"", "1", "2"} {
		web["http://en.test/"+p] = page("en", "/th/")
		web["http://de.test/"+p] = page("de", "/th/")
	}
	web["http://en.test/th/"] = page("th", "/th/more")
	web["http://en.test/th/more"] = page("th")
	web["http://de.test/th/"] = page("de", "/th/a")
	web["http://de.test/th/a"] = page("de", "/th/b")
	web["http://de.test/th/b"] = page("de")

	got := g.nextGeneration(t, Config{Focus: pol, Recheck: true}, "http://th.test/")
	count := func(prefix string) int {
		n := 0
		for _, u := range got {
			if strings.HasPrefix(u, prefix) && !strings.HasSuffix(u, "/robots.txt") {
				n++
			}
		}
		return n
	}
	if !slices.Contains(got, "http://en.test/th/") || !slices.Contains(got, "http://en.test/th/more") {
		t.Errorf("en.test's new Thai section was not crawled: %q", got)
	}
	if c, _ := g.q.Counts("en.test"); pol.Status(focus.Counts(c)) != focus.Relevant {
		t.Errorf("en.test counters %+v: not relevant after its Thai section", c)
	}
	if n := count("http://de.test/"); n != maxRecheckTries {
		t.Errorf("de.test: %d fetches, want the re-check's %d tries: %q", n, maxRecheckTries, got)
	}
	if n := count("http://fr.test/"); n != 1 {
		t.Errorf("fr.test: %d fetches, want its one re-check", n)
	}
	var meta string
	for _, u := range []string{"http://en.test/", "http://en.test/1", "http://en.test/2"} {
		for _, f := range g.a.meta[u] {
			meta += f.Name + ": " + f.Value + "\n"
		}
	}
	if !strings.Contains(meta, "http://en.test/th/ L a/@href admitted:focus:"+focus.ReasonRecheckSection) {
		t.Errorf("no en.test page's metadata says its section link was admitted for the re-check:\n%s", meta)
	}
}

// notModified returns the last 304 revisit the rig archived for u, failing
// the test if there is none.
func (g *genRig) notModified(t *testing.T, u string) *archive.Revisit {
	t.Helper()
	var nm *archive.Revisit
	for i := range g.a.revisits {
		if rv := &g.a.revisits[i]; rv.URL == u && rv.Profile == archive.ProfileServerNotModified {
			nm = rv
		}
	}
	if nm == nil {
		t.Fatalf("no 304 revisit for %s: %+v", u, g.a.revisits)
	}
	return nm
}

// TestNotModifiedFocusStatus: in a focused re-crawl, a 304's revisit
// metadata says its server's focus key and the verdict on it now, as a
// page's record does, so a report reading the latest record of a server
// that answered only 304s has its verdict (an item noticed last session).
func TestNotModifiedFocusStatus(t *testing.T) {
	web := fakeWeb{
		"http://a.test/":     page("th", "/etag"),
		"http://a.test/etag": page("th"),
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 2, Langs: []string{"th"}})
	g := newGenRig(t, web, map[string]string{"http://a.test/etag": `"v1"`})
	g.firstGeneration(t, Config{Focus: pol}, "http://a.test/")
	g.nextGeneration(t, Config{Focus: pol}, "http://a.test/")
	nm := g.notModified(t, "http://a.test/etag")
	for _, f := range []archive.Field{{Name: "focusKey", Value: "a.test"}, {Name: "focusStatus", Value: focus.Relevant.String()}} {
		if !slices.Contains(nm.Metadata, f) {
			t.Errorf("304 revisit metadata %v lacks %v", nm.Metadata, f)
		}
	}
}

// TestFutureLastModified: a Last-Modified later than the response's Date
// (RFC 9110 8.8.2.1 forbids it) is not sent back as If-Modified-Since, so
// a server comparing dates cannot answer 304 for a page that changed (an
// independent re-crawl trial saw one do so); a sound one is.
func TestFutureLastModified(t *testing.T) {
	withLM := func(lm, date string) string {
		body := "<html lang=\"th\"><body>x</body></html>"
		return "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nDate: " + date + "\r\nLast-Modified: " + lm +
			"\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	now := time.Now().UTC()
	date := now.Format(http.TimeFormat)
	web := fakeWeb{
		"http://a.test/":       page("th", "/future", "/past", "/bad"),
		"http://a.test/future": withLM(now.AddDate(5, 0, 0).Format(http.TimeFormat), date),
		"http://a.test/past":   withLM(now.AddDate(-1, 0, 0).Format(http.TimeFormat), date),
		"http://a.test/bad":    withLM("yesterday", date),
	}
	g := newGenRig(t, web, nil)
	g.firstGeneration(t, Config{}, "http://a.test/")
	g.nextGeneration(t, Config{})
	for u, want := range map[string]bool{"http://a.test/future": false, "http://a.test/past": true, "http://a.test/bad": false} {
		h := g.w.hdrs[u]
		if got := h.Get("If-Modified-Since") != ""; got != want {
			t.Errorf("%s: If-Modified-Since %q sent: %v, want %v", u, h.Get("If-Modified-Since"), got, want)
		}
	}
}

// TestRecheckBounds: what one re-check may cost, and what it must reach
// (a review found each of these wrong in the first version).
//   - A server that moved from http to https between generations answers
//     every due URL with a redirect: redirects spend no try, so the target
//     is reached and the server, now Thai, is found.
//   - A server answering 500 everywhere costs maxRecheckTries fetches, not
//     every due URL with all its retries (16 fetches at four tries).
//   - A directory first judged irrelevant in this generation gets no
//     re-check in it (conservative-directory skips at fetch time): T+1.
func TestRecheckBounds(t *testing.T) {
	gen2 := func(t *testing.T, g *genRig, pol *focus.Policy, prefix string) (n int, got []string) {
		t.Helper()
		got = g.nextGeneration(t, Config{Focus: pol, Recheck: true, Retries: Retries{Max: 4, Delay: time.Millisecond, MaxDelay: time.Millisecond}},
			"http://th.test/")
		for _, u := range got {
			if strings.HasPrefix(u, prefix) {
				n++
			}
		}
		return n, got
	}
	en := func(n int) fakeWeb {
		w := fakeWeb{"http://en.test/": page("en")}
		links := []string{"http://en.test/"}
		for i := 1; i <= n; i++ {
			u := fmt.Sprint("http://en.test/", i)
			w[u] = page("en")
			links = append(links, u)
		}
		w["http://th.test/"] = page("th", links...)
		return w
	}
	server := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 2})
	t.Run("moved to https", func(t *testing.T) {
		web := en(3)
		g := newGenRig(t, web, nil)
		g.firstGeneration(t, Config{Focus: server, Recheck: true}, "http://th.test/")
		for _, p := range []string{"", "1", "2", "3"} {
			web["http://en.test/"+p] = redirectTo("https://en.test/" + p)
			web["https://en.test/"+p] = page("th")
		}
		if n, got := gen2(t, g, server, "https://en.test/"); n == 0 {
			t.Errorf("the server, now Thai behind redirects to https, was not found: %q", got)
		}
	})
	t.Run("not modified", func(t *testing.T) {
		// A 304 says the page is the foreign one captured before: the
		// re-check is over after one fetch (it took three tries before).
		web := en(3)
		etags := map[string]string{}
		for u := range web {
			if strings.HasPrefix(u, "http://en.test/") {
				etags[u] = `"v1"`
			}
		}
		g := newGenRig(t, web, etags)
		g.firstGeneration(t, Config{Focus: server, Recheck: true}, "http://th.test/")
		if n, got := gen2(t, g, server, "http://en.test/"); n != 1 {
			t.Errorf("a foreign server answering 304 cost %d fetches, want 1: %q", n, got)
		}
	})
	t.Run("500 everywhere", func(t *testing.T) {
		web := en(5)
		g := newGenRig(t, web, nil)
		g.firstGeneration(t, Config{Focus: server, Recheck: true}, "http://th.test/")
		for u := range web {
			if strings.HasPrefix(u, "http://en.test/") {
				web[u] = "HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n"
			}
		}
		if n, got := gen2(t, g, server, "http://en.test/"); n != maxRecheckTries {
			t.Errorf("a foreign server answering 500 cost %d fetches, want %d: %q", n, maxRecheckTries, got)
		}
	})
	t.Run("judged in this generation", func(t *testing.T) {
		dir := mustPolicy(t, focus.Config{Strategy: focus.ConservativeDirectory, Tolerance: 2})
		web := fakeWeb{"http://th.test/": page("th")}
		g := newGenRig(t, web, nil)
		g.firstGeneration(t, Config{Focus: dir, Recheck: true}, "http://th.test/")
		web["http://th.test/"] = page("th", "http://en.test/d/1", "http://en.test/d/2", "http://en.test/d/3", "http://en.test/d/4", "http://en.test/d/5")
		for i := 1; i <= 5; i++ {
			web[fmt.Sprint("http://en.test/d/", i)] = page("en")
		}
		if n, got := gen2(t, g, dir, "http://en.test/"); n != 3 {
			t.Errorf("a directory first judged in this generation: %d pages, want T+1 = 3: %q", n, got)
		}
	})
}

// TestRecrawlLeavesForeignRequisites: a focused re-crawl queues again from
// the history the requisites of relevant pages, but not those of pages
// that were not relevant: focusing never skips a queued requisite, so the
// image of a foreign page, itself skipped, was fetched in every generation
// (a review).
func TestRecrawlLeavesForeignRequisites(t *testing.T) {
	img := "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 3\r\n\r\nPNG"
	web := fakeWeb{
		"http://th.test/":         page("th", "http://en.test/1", "http://en.test/2", "img:http://en.test/logo.png"),
		"http://en.test/1":        page("en", "img:http://en.test/img.png"),
		"http://en.test/2":        page("en"),
		"http://en.test/img.png":  img,
		"http://en.test/logo.png": img,
	}
	pol := mustPolicy(t, focus.Config{Strategy: focus.ConservativeServer, Tolerance: 1})
	g := newGenRig(t, web, nil)
	g.firstGeneration(t, Config{Focus: pol, Requisites: true}, "http://th.test/")
	if !slices.Contains(g.w.got, "http://en.test/img.png") {
		t.Fatalf("first generation did not fetch the foreign page's image: %q", g.w.got)
	}
	got := g.nextGeneration(t, Config{Focus: pol, Requisites: true})
	if slices.Contains(got, "http://en.test/img.png") {
		t.Errorf("the image of a foreign page, itself skipped, was fetched again: %q", got)
	}
	if !slices.Contains(got, "http://en.test/logo.png") {
		t.Errorf("the image of a Thai page on a server judged irrelevant was not fetched again: %q", got)
	}
}

// TestDedupIndexURLNotHeaderSafe (from a review): ImportDedupIndex refuses
// a line whose url a WARC header cannot hold (a line break, a space, not
// http(s)), naming the line; and a capture with such a URL that a frontier
// already holds (imported before the refusal) is no capture to refer to:
// the page is archived in full, and the crawl goes on. The revisit's
// header was refused by the archive and stopped the crawl at every start.
func TestDedupIndexURLNotHeaderSafe(t *testing.T) {
	big := strings.Repeat("ภาษาไทย ", 300)
	resp := "HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: " + strconv.Itoa(len(big)) + "\r\n\r\n" + big
	d := archive.PayloadDigest([]byte(resp), strings.Index(resp, "\r\n\r\n")+4, false, true)
	web := fakeWeb{"http://a.test/": page("th", "/doc.pdf"), "http://a.test/doc.pdf": resp}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{DedupMinSize: 1024}, nil, "http://a.test/")
	line := func(u string) string {
		return `test,old)/doc.pdf 20250102030405 {"url": "` + u + `", "mime": "application/pdf", "status": "200", "digest": "` + strings.TrimPrefix(d, "sha1:") + `"}` + "\n"
	}
	// A control character would forge a header: the start stops.
	for _, u := range []string{`http://old.test/doc.pdf\r\nWARC-Type: response`, `http://old.test/a\u0000b`} {
		if _, err := c.ImportDedupIndex(strings.NewReader("!meta 0 {}\n"+line(u)), "old.cdxj"); err == nil || !strings.Contains(err.Error(), "old.cdxj:2") ||
			errors.Is(err, ErrDedupLinesSkipped) {
			t.Errorf("url %q: %v, want an error naming old.cdxj:2", u, err)
		}
	}
	// Printable but no header URL (a space, as older archives have; ftp;
	// relative): the line is skipped, the rest imported, and the warning
	// counts them and names the first.
	other := `test,old)/other.pdf 20250102030405 {"url": "http://old.test/other.pdf", "mime": "application/pdf", "status": "200", "digest": "sha1:OTHERDIGESTOTHERDIGESTOTHERDIGES"}` + "\n"
	n, err := c.ImportDedupIndex(strings.NewReader("!meta 0 {}\n"+line("http://old.test/a b")+line("ftp://old.test/doc.pdf")+other+line("/doc.pdf")), "old.cdxj")
	if !errors.Is(err, ErrDedupLinesSkipped) || !strings.Contains(err.Error(), "3 lines") || !strings.Contains(err.Error(), "line 2") || n != 1 {
		t.Errorf("three lines with no header URL beside a good one: %d added, %v; want 1 and a warning counting 3, the first at line 2", n, err)
	}
	if _, ok, _ := r.q.Capture(d); ok {
		t.Errorf("a skipped line's capture was taken")
	}
	if _, err := r.q.AddCapture(d, frontier.Capture{URL: "http://old.test/doc.pdf\r\nWARC-Type: response", Date: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatalf("a capture whose URL no header can hold stopped the crawl: %v", err)
	}
	if len(r.a.revisits) != 0 {
		t.Errorf("%d revisits of a capture whose URL no header can hold", len(r.a.revisits))
	}
	if !slices.Contains(r.a.urls, "http://a.test/doc.pdf") {
		t.Errorf("doc.pdf not archived in full: %v", r.a.urls)
	}
}
