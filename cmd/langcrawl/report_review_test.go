package main

// Tests from a report accounting review: does `langcrawl report` agree
// with what is in the WARC files and crawl.log?

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/report"
)

const rrThai = "ภาษาไทยเป็นภาษาราชการของประเทศไทย มีผู้พูดประมาณหกสิบล้านคน การศึกษาภาษาไทยในโรงเรียนเริ่มตั้งแต่ชั้นประถมศึกษา " +
	"วัฒนธรรมไทยมีความหลากหลายและมีประวัติศาสตร์ยาวนาน อาหารไทยเป็นที่รู้จักไปทั่วโลก กรุงเทพมหานครเป็นเมืองหลวงของประเทศ "

const rrEnglish = "The weather in the northern counties has been unusually wet this spring, and the farmers are worried about the harvest. " +
	"Our gardening club meets every Tuesday evening in the village hall to discuss vegetables, flowers and the best ways to keep slugs away. "

// rrPage is an HTML page of text with links.
func rrPage(title, text string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body><h1>%s</h1><p>%s</p><p>%s</p>\n", title, title, text, title)
	for _, l := range links {
		fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", l, l)
	}
	b.WriteString("</body></html>")
	return b.String()
}

// rrWeb is a small web of hosts served from one listener, with the
// things the open web brings; handle is per host, then path.
type rrWeb struct {
	mu    sync.Mutex
	hits  map[string]int
	pages map[string]func(w http.ResponseWriter, r *http.Request, hit int)
}

func (wb *rrWeb) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := strings.ToLower(r.Host) + r.URL.RequestURI()
	wb.mu.Lock()
	wb.hits[key]++
	n := wb.hits[key]
	h := wb.pages[key]
	wb.mu.Unlock()
	if h == nil {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		http.NotFound(w, r)
		return
	}
	h(w, r, n)
}

func rrHTML(body string) func(w http.ResponseWriter, r *http.Request, hit int) {
	return func(w http.ResponseWriter, r *http.Request, hit int) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}
}

// rrTruth is what the WARC files hold, counted independently of the
// report: per host, the distinct URLs with a metadata record that has a
// language, and those relevant.
type rrTruth struct {
	pages, relevant map[string]int
	urls            map[string][]map[string]string // metadata fields of each record, by URL
}

// rrReadTruth reads every metadata record of out's WARC files (in name
// order, which is the crawl's order here: one prefix, later files later):
// a URL is a page when any of its captures has a language, relevant as
// its first such capture says.
func rrReadTruth(t *testing.T, out string) rrTruth {
	t.Helper()
	tr := rrTruth{pages: map[string]int{}, relevant: map[string]int{}, urls: map[string][]map[string]string{}}
	files, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz*"))
	sort.Strings(files)
	for _, f := range files {
		recs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		for _, r := range recs {
			if r.Type != "metadata" {
				continue
			}
			m := map[string]string{}
			for _, f := range report.ParseFields(r.Block) {
				if _, ok := m[f.Name]; !ok {
					m[f.Name] = f.Value
				}
			}
			tr.urls[r.TargetURI] = append(tr.urls[r.TargetURI], m)
		}
	}
	for u, ms := range tr.urls {
		pu, _ := url.Parse(u)
		page, rel := false, false
		for _, m := range ms {
			if _, ok := m["language"]; ok {
				page, rel = true, m["relevant"] == "true"
				break
			}
		}
		if page {
			tr.pages[pu.Host]++
		}
		if rel {
			tr.relevant[pu.Host]++
		}
	}
	return tr
}

func rrReport(t *testing.T, out string) *report.Report {
	t.Helper()
	var js bytes.Buffer
	cmd := reportCmd()
	cmd.SetArgs([]string{"--out", out, "--json"})
	cmd.SetOut(&js)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	r, err := report.ReadJSON(&js)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rrLogLines(t *testing.T, out string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(out, "logs", "crawl.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// rrStartWeb serves th.test (Thai pages, with a 503 that passes, a 500
// that does not, redirect chains and a loop, an image, a PDF, a page cut
// at max_body_size, a robots-excluded URL, one payload at two URLs, pages
// with ETags that answer 304, a page that turns English, and /later, a
// 404 in the first generation and a Thai page after), en.test (English:
// judged irrelevant at T = 2, its queue dropped), go.test (a redirect to
// en2.test).
func rrStartWeb(t *testing.T) *polServer {
	wb := &rrWeb{hits: map[string]int{}, pages: map[string]func(w http.ResponseWriter, r *http.Request, hit int){}}
	wb.pages["th.test/"] = rrHTML(rrPage("home", rrThai, "/a", "/b", "/flaky", "/dead", "/r1", "/loop1", "/img.png", "/doc.pdf",
		"/big", "/private/x", "/dup1", "/dup2", "/changing", "http://en.test/", "http://go.test/out", "/notfound", "/later"))
	for _, p := range []string{"/a", "/b"} {
		body := rrPage("page "+p, rrThai+p)
		wb.pages["th.test"+p] = func(w http.ResponseWriter, r *http.Request, hit int) {
			w.Header().Set("ETag", `"`+p+`"`)
			if r.Header.Get("If-None-Match") == `"`+p+`"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, body)
		}
	}
	wb.pages["th.test/flaky"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		if hit == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		rrHTML(rrPage("flaky", rrThai+"flaky"))(w, r, hit)
	}
	wb.pages["th.test/later"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		if hit == 1 {
			http.NotFound(w, r)
			return
		}
		rrHTML(rrPage("later", rrThai+"later"))(w, r, hit)
	}
	wb.pages["th.test/dead"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		http.Error(w, "broken", http.StatusInternalServerError)
	}
	wb.pages["th.test/r1"] = func(w http.ResponseWriter, r *http.Request, hit int) { http.Redirect(w, r, "/r2", http.StatusFound) }
	wb.pages["th.test/r2"] = func(w http.ResponseWriter, r *http.Request, hit int) { http.Redirect(w, r, "/a", http.StatusFound) }
	wb.pages["th.test/loop1"] = func(w http.ResponseWriter, r *http.Request, hit int) { http.Redirect(w, r, "/loop2", http.StatusFound) }
	wb.pages["th.test/loop2"] = func(w http.ResponseWriter, r *http.Request, hit int) { http.Redirect(w, r, "/loop1", http.StatusFound) }
	wb.pages["th.test/img.png"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{1}, 100)...))
	}
	wb.pages["th.test/doc.pdf"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		w.Header().Set("Content-Type", "application/pdf")
		io.WriteString(w, "%PDF-1.4\n"+strings.Repeat("x", 200))
	}
	wb.pages["th.test/big"] = rrHTML(rrPage("big", strings.Repeat(rrThai, 600)))
	dup := rrPage("dup", strings.Repeat(rrThai, 5))
	wb.pages["th.test/dup1"] = rrHTML(dup)
	wb.pages["th.test/dup2"] = rrHTML(dup)
	wb.pages["th.test/changing"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		text := rrThai
		if hit > 1 {
			text = rrEnglish + rrEnglish + rrEnglish
		}
		rrHTML(rrPage(fmt.Sprintf("changing %d", hit), text))(w, r, hit)
	}
	var en []string
	for i := range 8 {
		en = append(en, fmt.Sprintf("/e%d", i))
	}
	wb.pages["en.test/"] = rrHTML(rrPage("english", rrEnglish, en...))
	for _, p := range en {
		wb.pages["en.test"+p] = rrHTML(rrPage("english "+p, rrEnglish+p, en...))
	}
	wb.pages["go.test/out"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		http.Redirect(w, r, "http://en2.test/", http.StatusFound)
	}
	wb.pages["en2.test/"] = rrHTML(rrPage("english two", rrEnglish+"two"))
	return startPolServer(t, wb.ServeHTTP)
}

// rrCrawl crawls rrStartWeb's web gens times into one --out (a first
// crawl, then re-crawls) and returns the directory and each run's
// summary counters.
func rrCrawl(t *testing.T, gens int) (string, []crawl.Snapshot) {
	t.Helper()
	srv := rrStartWeb(t)
	out := filepath.Join(t.TempDir(), "out")
	f := polProfile(t, srv, out, []string{"http://th.test/"}, `workers: 4
delay: 10ms
max_body_size: 64KiB
retries: {max: 3, delay: 20ms, max_delay: 100ms}
focus: {language: th, strategy: conservative-server, tolerance: 2}
`)
	cfg := loadProfileText(t, f, mustRead(t, f))
	var snaps []crawl.Snapshot
	for range gens {
		snap, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, snap)
	}
	return out, snaps
}

// TestReportReviewPageFirstCapturedAsError: a URL whose first capture was
// no page (a 404 in generation 1) and whose later capture is an HTML page
// (generation 2) is a page of its server: N_a, N_r, the HTML pages and
// the languages count it, as the WARC files hold it. (From a report
// accounting review: th.test showed N_a 8 with 9 distinct HTML pages
// archived, /later lost because only a URL's first record was read.)
func TestReportReviewPageFirstCapturedAsError(t *testing.T) {
	out, _ := rrCrawl(t, 2)
	tr := rrReadTruth(t, out)
	r := rrReport(t, out)
	total, rel := 0, 0
	for host, n := range tr.pages {
		total += n
		rel += tr.relevant[host]
		s, ok := r.Server(host)
		if !ok || s.Pages != n || s.Relevant != tr.relevant[host] {
			t.Errorf("%s: report N_a %d, N_r %d; the WARC files hold %d distinct HTML pages, %d in Thai at their first page capture",
				host, s.Pages, s.Relevant, n, tr.relevant[host])
		}
	}
	if r.Pages != total || r.Relevant != rel {
		t.Errorf("report: %d HTML pages, %d target; the WARC files hold %d and %d", r.Pages, r.Relevant, total, rel)
	}
	langs := 0
	for _, l := range r.Languages {
		langs += l.Pages
	}
	if langs != total {
		t.Errorf("languages table sums to %d pages, the WARC files hold %d", langs, total)
	}
	if tr.pages["th.test"] == 0 || len(tr.urls["http://th.test/later"]) != 2 {
		t.Fatalf("the web did not serve /later twice: %v", tr.urls["http://th.test/later"])
	}
}

// TestReportReviewGenerationPagesAsSummary: each generation's row of the
// Generations table says the HTML pages it read and its target-language
// pages, as the crawl's summary of that run says them ("pages: N HTML, M
// in the target language"); a 304 revisit's page is not read (its
// metadata carries the language of the capture it stands for, and the
// server's N_a counts it once, at that capture). (From a report
// accounting review: generation 2 read 9 HTML pages, 6 Thai, by the
// summary, and the report said 11 and 8, the two 304s counted.)
func TestReportReviewGenerationPagesAsSummary(t *testing.T) {
	out, snaps := rrCrawl(t, 2)
	r := rrReport(t, out)
	if len(r.Generations) != len(snaps) {
		t.Fatalf("generations %+v for %d runs", r.Generations, len(snaps))
	}
	for i, g := range r.Generations {
		if int64(g.Pages) != snaps[i].HTML || int64(g.Relevant) != snaps[i].Relevant {
			t.Errorf("generation %d: the report's row reads %d HTML pages, %d target; the crawl's summary %d and %d",
				g.N, g.Pages, g.Relevant, snaps[i].HTML, snaps[i].Relevant)
		}
	}
	if snaps[1].Revisits == 0 {
		t.Fatal("generation 2 wrote no revisit")
	}
}

// TestReportReviewRetryTimesNotKinds: annotations.csv counts annotations
// by kind; the time a deferred try was put off to ("at:TIME") is no kind,
// or every second of a crawl with retries becomes a row of its own (and a
// 503 burst's shared second outranks real kinds in report.md's top 20).
// (From a report accounting review: rows "at:2026-…T09:59:26Z" and
// "at:…27Z" beside "retry:1/3".)
func TestReportReviewRetryTimesNotKinds(t *testing.T) {
	out, _ := rrCrawl(t, 1)
	r := rrReport(t, out)
	retried := false
	for _, a := range r.Annotations {
		if strings.HasPrefix(a.Name, "retry:") {
			retried = true
		}
		if strings.HasPrefix(a.Name, "at:") {
			t.Errorf("annotation kind %q (%d): a retry time, one row per second", a.Name, a.Count)
		}
	}
	if !retried || r.Deferred == 0 {
		t.Fatalf("no deferred try in the crawl: %+v", r.Annotations)
	}
	rows := readCSVFile(t, filepath.Join(out, report.Dir, report.FileAnnotations))
	for _, row := range rows[1:] {
		if strings.HasPrefix(row[0], "at:") {
			t.Errorf("%s row %q", report.FileAnnotations, row)
		}
	}
}

// TestReportReviewDroppedURLsOnce: a candidate host's dropped_urls are
// the URLs of its queue dropped or skipped (crawl.log -5003), each once:
// a re-crawl that skips the same URLs of a server judged irrelevant
// again adds no URL. (From a report accounting review: en.test had 8
// distinct URLs with -5003 lines in three generations and the report said
// 10, one more line per generation for each of its re-queued pages.)
func TestReportReviewDroppedURLsOnce(t *testing.T) {
	out, _ := rrCrawl(t, 3)
	dropped := map[string]bool{}
	lines := 0
	for _, l := range rrLogLines(t, out) {
		ll, err := report.ParseLogLine(l)
		if err != nil {
			t.Fatal(err)
		}
		if ll.Status == -5003 && strings.HasPrefix(ll.URL, "http://en.test/") {
			dropped[ll.URL] = true
			lines++
		}
	}
	if lines == len(dropped) {
		t.Fatalf("no en.test URL was skipped twice (%d lines): the test shows nothing", lines)
	}
	r := rrReport(t, out)
	for _, c := range r.Candidates {
		if c.Host == "en.test" {
			if c.Dropped != len(dropped) {
				t.Errorf("en.test: %d dropped URLs in the report; crawl.log has %d -5003 lines for %d distinct URLs", c.Dropped, lines, len(dropped))
			}
			return
		}
	}
	t.Fatalf("en.test is no candidate: %+v", r.Candidates)
}

// TestReportReviewKillResume: a crawl killed (SIGKILL) while a fetch hangs,
// then resumed on the same --out: crawl.log has lines from two runs, the
// WARC files a ".open" file mended. The report's pages per server are
// the distinct HTML pages the WARC files hold, and its repeats the URLs
// archived more than once. (From a report accounting review.)
func TestReportReviewKillResume(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	wb := &rrWeb{hits: map[string]int{}, pages: map[string]func(w http.ResponseWriter, r *http.Request, hit int){}}
	var links []string
	for i := range 6 {
		p := fmt.Sprintf("/p%d", i)
		links = append(links, p)
		wb.pages["th.test"+p] = rrHTML(rrPage("page "+p, rrThai+p))
	}
	wb.pages["th.test/"] = rrHTML(rrPage("home", rrThai, append(links, "http://hang.test/")...))
	wb.pages["hang.test/"] = func(w http.ResponseWriter, r *http.Request, hit int) {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		rrHTML(rrPage("hang", rrThai+"hang"))(w, r, hit)
	}
	srv := startPolServer(t, wb.ServeHTTP)
	out := filepath.Join(t.TempDir(), "out")
	f := polProfile(t, srv, out, []string{"http://th.test/"}, `workers: 4
delay: 10ms
timeouts: {connect: 2s, fetch: 60s, read: 60s}
durability: {sync_interval: 50ms}
focus: {language: th, strategy: conservative-server, tolerance: 2}
`)
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=crawl --profile "+f)
	child.Stdout, child.Stderr = io.Discard, io.Discard
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until every th.test page has its crawl.log line and hang.test/
	// is being fetched.
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile(filepath.Join(out, "logs", "crawl.log"))
		n := strings.Count(string(data), " http://th.test/p")
		wb.mu.Lock()
		hung := wb.hits["hang.test/"]
		wb.mu.Unlock()
		if n >= 6 && hung > 0 {
			break
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			t.Fatalf("child crawl: %d lines, hang.test hit %d times", n, hung)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// And until the WARC writer has synced: the records on disk.
	for {
		files, _ := filepath.Glob(filepath.Join(out, warcDir, "*.open"))
		if len(files) > 0 {
			if recs, _ := archive.ReadAll(files[0]); len(recs) >= 20 {
				break
			}
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			t.Fatal("no synced .open file")
		}
		time.Sleep(20 * time.Millisecond)
	}
	child.Process.Kill()
	child.Wait()
	free()
	cfg := loadProfileText(t, f, mustRead(t, f))
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz")); len(files) < 2 {
		t.Fatalf("WARC files %q: want the killed run's, mended, and the resumed run's", files)
	}
	tr := rrReadTruth(t, out)
	r := rrReport(t, out)
	if r.WARCFiles < 2 || tr.pages["hang.test"] != 1 {
		t.Fatalf("report read %d WARC files; hang.test pages %d", r.WARCFiles, tr.pages["hang.test"])
	}
	for host, n := range tr.pages {
		if s, _ := r.Server(host); s.Pages != n || s.Relevant != tr.relevant[host] {
			t.Errorf("%s: N_a %d N_r %d; the WARC files hold %d pages, %d relevant", host, s.Pages, s.Relevant, n, tr.relevant[host])
		}
	}
	twice := 0
	for _, ms := range tr.urls {
		if len(ms) > 1 {
			twice += len(ms) - 1
		}
	}
	if r.DuplicateURLs != twice {
		t.Errorf("report: %d URLs archived more than once; the WARC files hold %d extra captures", r.DuplicateURLs, twice)
	}
	if len(r.Warnings) > 0 || r.OpenFiles > 0 {
		t.Errorf("warnings %q, %d open files", r.Warnings, r.OpenFiles)
	}
}
