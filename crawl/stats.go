package crawl

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/internal/logfiles"
)

// Stats are the engine's running counters. Safe for concurrent use.
type Stats struct {
	pages    atomic.Int64 // responses archived
	bytes    atomic.Int64 // raw response bytes archived
	relevant atomic.Int64 // HTML pages in the target language
	html     atomic.Int64 // HTML pages identified
	failed   atomic.Int64 // URLs given up on (after their last retry, or unusable)
	deferred atomic.Int64 // failed tries put back for a retry
	// Re-crawls: revisit records written (304, or the same payload),
	// known pages now 404 or 410, and pages whose language changed.
	revisits, gone, langChanged atomic.Int64
	deduplicated                atomic.Int64 // revisits of the same payload at another URL
	robots                      atomic.Int64 // URLs disallowed by robots.txt
	skipped                     atomic.Int64 // URLs skipped by focus or budgets
	skipFocus, skipBudget       atomic.Int64 // of them: on an irrelevant server or section (-5003), over a site's budget (-5002)
	refused                     atomic.Int64 // the address guard refused the host's address (-5010)
	dropped                     atomic.Int64 // queued URLs dropped when a server turned irrelevant

	mu       sync.Mutex
	status   map[int]int64
	retries  map[int]int64 // deferred tries by their status
	langs    map[string]int64
	rejects  map[string]int64
	hosts    map[string]*siteTally // by site: this run's responses, for the status page
	maxHosts int
	sites    siteCounts // hosts summed as Sites reports them, kept as they change
	errs     errorRing  // the latest failures, for the status page
}

func newStats() Stats {
	return Stats{status: map[int]int64{}, retries: map[int]int64{}, langs: map[string]int64{}, rejects: map[string]int64{},
		hosts: map[string]*siteTally{}, maxHosts: 1 << 20, sites: newSiteCounts()}
}

func (s *Stats) record(e frontier.Entry, out outcome) {
	switch {
	case out.status == codeRobots:
		s.robots.Add(1)
	case out.status == codeFocusSkip || out.status == codeSiteBudget || out.status == codeExcluded:
		s.skipped.Add(1)
		switch out.status {
		case codeFocusSkip:
			s.skipFocus.Add(1)
		case codeSiteBudget:
			s.skipBudget.Add(1)
		}
	case out.status == codeAddress:
		// Refused before any connection, and never retried: not a
		// failure after the last retry (an address-guard trial found 87
		// of a summary's 89 "given up" to be these).
		s.refused.Add(1)
	case out.status < 0:
		s.failed.Add(1)
	default:
		s.pages.Add(1)
		s.bytes.Add(out.bytes)
		if out.failed {
			s.failed.Add(1) // archived, but an error after the last retry
		}
	}
	if out.page {
		s.html.Add(1)
		if out.relevant {
			s.relevant.Add(1)
		}
	}
	s.mu.Lock()
	s.status[out.status]++
	if out.det != nil {
		s.langs[histLang(out.det)]++ // zh-Hant and zh-Hans apart, as the report counts them
	}
	if out.status > 0 {
		t := s.hosts[e.Site]
		if t == nil && len(s.hosts) < s.maxHosts {
			t = &siteTally{}
			s.hosts[e.Site] = t
			s.sites.add(t, 1)
		}
		if t != nil {
			s.sites.add(t, -1)
			t.responses++
			if out.page {
				t.pages++
				if out.relevant {
					t.relevant++
				}
			}
			s.sites.add(t, 1)
			s.sites.busier(e.Site, t, s.hosts)
		}
	}
	// Errors are what went wrong; what the crawl chose not to fetch
	// (robots.txt, focusing, a site's budget, an operator's exclusion)
	// would crowd them out of the status page's list.
	if out.status < 0 && out.status != codeRobots && out.status != codeFocusSkip && out.status != codeSiteBudget &&
		out.status != codeExcluded || out.status >= 400 || out.failed {
		s.errs.add(FailedURL{URL: e.URL, Status: out.status, Note: strings.Join(out.annot, ",")})
	}
	s.mu.Unlock()
}

// judge keeps the focus verdict of site after one of its pages (the
// sequential strategy's, which depends on more than the counts Sites
// sees).
func (s *Stats) judge(site string, st focus.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.hosts[site]
	if t == nil {
		if len(s.hosts) >= s.maxHosts {
			return
		}
		t = &siteTally{}
		s.hosts[site] = t
		s.sites.add(t, 1)
	}
	s.sites.add(t, -1)
	t.verdict, t.judged = st, true
	s.sites.add(t, 1)
}

// rejected counts a link rejection by its reason class (the part before
// any detail), so the map stays small.
func (s *Stats) rejected(why string) {
	class, _, _ := strings.Cut(why, " ")
	s.mu.Lock()
	s.rejects[class]++
	s.mu.Unlock()
}

// Snapshot is a copy of the counters at one moment.
type Snapshot struct {
	Pages, Bytes, HTML, Relevant, Failed, Robots, Skipped, Dropped int64
	// SkippedFocus and SkippedBudget are the Skipped that focusing
	// (-5003) and a trap guard's budget (-5002) skipped; the rest an
	// operator's exclusion did (-5004).
	SkippedFocus, SkippedBudget int64
	// Refused counts the URLs the address guard refused (-5010).
	Refused                                   int64
	Deferred                                  int64
	Revisits, Gone, LangChanged, Deduplicated int64
	Sites                                     int
	Status                                    map[int]int64
	// Retries counts the deferred tries (Deferred) by their status.
	Retries  map[int]int64
	Langs    map[string]int64
	Rejects  map[string]int64
	Frontier frontier.Stats
	// Focused says the crawl has a target language; without one, every
	// page counts as relevant and no harvest rate is reported. The caller
	// sets it (the engine's counters do not know).
	Focused bool
	// Paused says the crawl is paused (Crawler.Pause), and PauseReason why.
	Paused      bool
	PauseReason string
}

func (s *Stats) snapshot(f frontier.Stats) Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := func(m map[string]int64) map[string]int64 {
		o := make(map[string]int64, len(m))
		for k, v := range m {
			o[k] = v
		}
		return o
	}
	st := make(map[int]int64, len(s.status))
	for k, v := range s.status {
		st[k] = v
	}
	rt := make(map[int]int64, len(s.retries))
	for k, v := range s.retries {
		rt[k] = v
	}
	return Snapshot{
		Pages: s.pages.Load(), Bytes: s.bytes.Load(), HTML: s.html.Load(), Relevant: s.relevant.Load(),
		Failed: s.failed.Load(), Robots: s.robots.Load(), Skipped: s.skipped.Load(), Dropped: s.dropped.Load(),
		SkippedFocus: s.skipFocus.Load(), SkippedBudget: s.skipBudget.Load(), Refused: s.refused.Load(),
		Deferred: s.deferred.Load(), Revisits: s.revisits.Load(), Gone: s.gone.Load(), LangChanged: s.langChanged.Load(),
		Deduplicated: s.deduplicated.Load(),
		Sites:        len(s.hosts), Status: st, Retries: rt, Langs: cp(s.langs), Rejects: cp(s.rejects), Frontier: f,
	}
}

// HarvestRate is the share of HTML pages in the target language (Tamura 5.2).
func (s Snapshot) HarvestRate() float64 {
	if s.HTML == 0 {
		return 0
	}
	return float64(s.Relevant) / float64(s.HTML)
}

// drop counts n URLs dropped from the queue when their server turned
// irrelevant: each has its -5003 line in crawl.log, so the status counts
// have them too.
func (s *Stats) drop(n int) {
	s.dropped.Add(int64(n))
	s.mu.Lock()
	s.status[codeFocusSkip] += int64(n)
	s.mu.Unlock()
}

// ProgressLine is the one-line live status: pages, MB, queue, sites, the
// rate over the whole run.
func (s Snapshot) ProgressLine(elapsed time.Duration) string {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(s.Pages) / elapsed.Seconds()
	}
	return s.ProgressLineAt(elapsed, rate)
}

// ProgressLineAt is ProgressLine with the rate given: the caller's recent
// one (an average over the whole run, paused time included, still read
// 61 pages/s after 15 s paused: an archivist's trial).
func (s Snapshot) ProgressLineAt(elapsed time.Duration, rate float64) string {
	harvest := ""
	if s.Focused {
		harvest = fmt.Sprintf("  harvest %.0f%%", 100*s.HarvestRate())
	}
	paused := ""
	if s.Paused {
		// A paused crawl fetches nothing: say so, or it looks hung.
		paused = "  PAUSED"
		if s.PauseReason != "" {
			paused += " (" + s.PauseReason + ")"
		}
	}
	// "sites" were those fetched from, "ready" the frontier's sites
	// ready to lease: read as a part of a whole, the second was larger.
	return fmt.Sprintf("pages %d  %.1f MB  queue %d  sites %d fetched, %d ready  %.1f pages/s%s  retries %d  %s%s",
		s.Pages, float64(s.Bytes)/1e6, s.Frontier.Queued+s.Frontier.InFlight, s.Sites, s.Frontier.Ready, rate,
		harvest, s.Deferred, elapsed.Truncate(time.Second), paused)
}

// WriteSummary prints the end-of-crawl summary.
func (s Snapshot) WriteSummary(w io.Writer, elapsed time.Duration, reason string) {
	fmt.Fprintf(w, "stopped: %s after %s\n", reason, elapsed.Truncate(time.Millisecond))
	// The bytes are those received: a revisit's payload was received and
	// not stored again (a statistics review read "archived: 0.2 MB"
	// where the WARC file held 10 KB).
	fmt.Fprintf(w, "archived: %d responses, %.1f MB received, from %d sites\n", s.Pages, float64(s.Bytes)/1e6, s.Sites)
	if s.Focused {
		fmt.Fprintf(w, "pages: %d HTML, %d in the target language (harvest rate %.1f%%)\n", s.HTML, s.Relevant, 100*s.HarvestRate())
	} else {
		fmt.Fprintf(w, "pages: %d HTML (no target language)\n", s.HTML)
	}
	// Each kind apart: a re-crawl's URLs on servers an earlier generation
	// judged irrelevant are skipped, and read as lost when lumped with a
	// site budget's (an archivist's trial).
	fmt.Fprintf(w, "not fetched: %d disallowed by robots.txt; %d skipped (%d on servers or sections judged irrelevant, %d over a trap guard's budget (a site's, a domain's or an address's), %d excluded by the operator); %d dropped from the queue when their server was judged irrelevant\n",
		s.Robots, s.Skipped, s.SkippedFocus, s.SkippedBudget, s.Skipped-s.SkippedFocus-s.SkippedBudget, s.Dropped)
	if s.Refused > 0 {
		fmt.Fprintf(w, "refused: %d URLs whose host's address the address guard refused (loopback, private, ...; crawl.log -5010)\n", s.Refused)
	}
	fmt.Fprintf(w, "failed: %d given up on after their last retry (crawl.log -8 or an error status); %d tries deferred for a retry\n",
		s.Failed, s.Deferred)
	if s.Deduplicated > 0 {
		fmt.Fprintf(w, "deduplicated: %d payloads already archived at another URL, written as revisits in this run\n", s.Deduplicated)
	}
	if s.Frontier.Generation > 1 || s.Revisits > 0 {
		fmt.Fprintf(w, "re-crawl: generation %d; this run: %d revisits (not modified, or the same payload), %d gone (404, 410), %d changed language (crawl.log has the generation's)\n",
			s.Frontier.Generation, s.Revisits, s.Gone, s.LangChanged)
	}
	fmt.Fprintf(w, "frontier: %d queued, %d seen\n", s.Frontier.Queued+s.Frontier.InFlight, s.Frontier.Seen)
	u := s.Frontier.Usage
	fmt.Fprintf(w, "job totals over all runs of this generation: %d requests, %.1f MB, %s\n", u.Fetches, float64(u.Bytes)/1e6, u.Elapsed.Truncate(time.Second))
	fmt.Fprintf(w, "status:%s\n", joinCounts(s.Status))
	if len(s.Langs) > 0 {
		fmt.Fprintf(w, "languages:%s\n", joinCounts(s.Langs))
	}
}

func joinCounts[K int | string](m map[K]int64) string {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %v=%d", k, m[k])
	}
	return b.String()
}

// CrawlLog writes one line per fetch attempt, in the column order of
// Heritrix's crawl.log so existing tools read it:
//
//	timestamp status size url hops via mime worker start+duration digest source annotations
//
// Each line goes to the file in one write as soon as it is complete, with
// no buffer in between: the log is current while the crawl runs, and a
// killed process loses no line it wrote. Sync fsyncs it, for power
// failures. A failed write (a full disk) is returned, and returned again by
// every later Write, after the cut line is removed when the log is a file.
//
// A log opened from a file may rotate (RotateAt): once the live file holds
// the size given, it is fsynced and renamed with the time
// (crawl.log.20261126170412, package logfiles), and a new live file is
// begun. Readers take the segments in logfiles.Segments' order.
//
// Safe for concurrent use. Call Close when done.
type CrawlLog struct {
	mu   sync.Mutex
	w    io.Writer
	c    io.Closer
	f    *os.File // set by OpenCrawlLog
	name string
	size int64 // bytes of whole lines in f
	err  error // the first failed write

	rotateAt  int64 // rotate once size reaches this; 0: never
	rotateErr error // why rotation stopped, if it did
}

// NewCrawlLog writes to wc, which Close closes.
func NewCrawlLog(wc io.WriteCloser) *CrawlLog {
	return &CrawlLog{w: wc, c: wc, name: "crawl.log"}
}

// OpenCrawlLog opens the log file at path for appending, creating it. A
// last line without its newline, which a crash or a full disk left, is cut
// off first, so that every line in the file is whole.
func OpenCrawlLog(path string) (*CrawlLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("crawl.log: %w", err)
	}
	size, err := wholeLines(f)
	if err == nil {
		err = f.Truncate(size)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("crawl.log %s: %w", path, err)
	}
	return &CrawlLog{w: f, c: f, f: f, name: path, size: size}, nil
}

// RotateAt makes a log opened with OpenCrawlLog begin a new file once the
// live one holds max bytes, at the end of a line (0: never, the default).
func (l *CrawlLog) RotateAt(max int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.rotateAt = max
	}
}

// RotateErr returns why the log stopped rotating, nil while it has not.
// A rotation that fails loses no line: the log goes on in the file it was
// writing, which may by then carry its rotated name, and rotates no more
// until it is opened again.
func (l *CrawlLog) RotateErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rotateErr
}

// rotate renames the full live file with the time, now, and begins a new
// one.
// l.mu is held and the file ends with a whole line.
func (l *CrawlLog) rotate(now time.Time) {
	fail := func(err error) {
		l.rotateAt, l.rotateErr = 0, fmt.Errorf("crawl.log %s: rotate: %w", l.name, err)
	}
	// The old file is whole on disk before its name says it is done.
	if err := l.f.Sync(); err != nil {
		fail(err)
		return
	}
	name := logfiles.Rotated(l.name, now, func(p string) bool {
		_, err := os.Lstat(p)
		return err == nil
	})
	if err := renameFile(l.name, name); err != nil {
		fail(err)
		return
	}
	f, err := os.OpenFile(l.name, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		fail(err) // lines go on into the file now named name
		return
	}
	// The renaming and the new file survive a power failure with the
	// lines written to it next.
	if d, err := os.Open(filepath.Dir(l.name)); err == nil {
		d.Sync()
		d.Close()
	}
	old := l.f
	l.f, l.w, l.c, l.size = f, f, f, 0
	if err := old.Close(); err != nil {
		l.rotateErr = fmt.Errorf("crawl.log %s: close: %w", name, err)
	}
}

// renameFile is os.Rename; tests make it fail.
var renameFile = os.Rename

// wholeLines returns the size of f up to and including its last newline.
func wholeLines(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	end := st.Size()
	buf := make([]byte, 4096)
	for end > 0 {
		n := min(int64(len(buf)), end)
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return end - n + int64(i) + 1, nil
		}
		end -= n
	}
	return 0, nil
}

// field keeps an annotation one column wide: white space and control
// characters become '_', as in Heritrix's crawl.log.
func field(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return '_'
		}
		return r
	}, s)
}

// Write logs one outcome, one line of twelve columns whatever the server
// sent: its Content-Type (`text/html foo bar`, a hostile-server trial) is
// kept one column wide as the annotations are.
func (l *CrawlLog) Write(now time.Time, worker int, e frontier.Entry, out outcome) error {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return field(s)
	}
	timing := "-"
	if !out.started.IsZero() {
		timing = out.started.UTC().Format("20060102150405.000") + "+" + fmt.Sprint(out.dur.Milliseconds())
		timing = strings.Replace(timing, ".", "", 1)
	}
	annot := make([]string, 0, len(out.annot)+3)
	for _, a := range out.annot {
		annot = append(annot, field(a))
	}
	if e.Scope != "" {
		// The operator's scope rules that admitted the URL (scope.Decision.Admit).
		annot = append(annot, "admitted:"+field(e.Scope))
	}
	if out.det != nil {
		annot = append(annot, "lang:"+field(out.det.Lang), "charset:"+field(out.det.Charset))
	}
	line := fmt.Sprintf("%s %5d %10d %s %s %s %s #%03d %s %s - %s\n",
		now.UTC().Format("2006-01-02T15:04:05.000Z"), out.status, out.bytes, e.URL, dash(e.Hops), dash(e.Via),
		dash(out.mime), worker, timing, dash(out.digest), dash(strings.Join(annot, ",")))
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	n, err := l.w.Write([]byte(line))
	if err != nil {
		l.err = fmt.Errorf("crawl.log %s: %w", l.name, err)
		if l.f != nil && n > 0 {
			l.f.Truncate(l.size) // no cut line left behind; the next open would trim it anyway
		}
		return l.err
	}
	l.size += int64(n)
	if l.rotateAt > 0 && l.size >= l.rotateAt {
		l.rotate(time.Now()) // not now: Mend writes lines of the past
	}
	return nil
}

// Flush returns the error of the first failed write, if any. Lines are
// written as they complete, so there is nothing to flush; Flush stays for
// callers that flush.
func (l *CrawlLog) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Sync fsyncs the log when it is a file.
func (l *CrawlLog) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if l.f == nil {
		return nil
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("crawl.log %s: sync: %w", l.name, err)
	}
	return nil
}

// Close closes the log, fsyncing it first when it is a file. It returns
// the error of the first failed write too.
func (l *CrawlLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.err
	if l.f != nil {
		if serr := l.f.Sync(); err == nil && serr != nil {
			err = fmt.Errorf("crawl.log %s: sync: %w", l.name, serr)
		}
	}
	if cerr := l.c.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("crawl.log %s: close: %w", l.name, cerr)
	}
	return err
}

// Collector exposes a Crawler's counters to Prometheus. No metric is
// labelled by URL or host.
type Collector struct {
	c     *Crawler
	descs map[string]*prometheus.Desc
}

// NewCollector returns a collector for c, to register on a registry the
// caller owns.
func NewCollector(c *Crawler) *Collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("langcrawl_"+name, help, labels, nil)
	}
	return &Collector{c: c, descs: map[string]*prometheus.Desc{
		"responses": d("responses_total", "Responses archived."),
		"bytes":     d("response_bytes_total", "Raw response bytes received (a revisit's payload is received, not stored again)."),
		"html":      d("html_pages_total", "HTML pages whose language was identified."),
		"relevant":  d("relevant_pages_total", "HTML pages in the target language."),
		"failed":    d("fetch_failures_total", "URLs given up on after their last try, or failing at once (a URL too long, a response that is not HTTP)."),
		"refused":   d("address_refused_total", "URLs whose host's address the address guard refused (crawl.log -5010), before any connection."),
		"robots":    d("robots_disallowed_total", "URLs not fetched because robots.txt disallows them."),
		"skipped":   d("skipped_total", "URLs skipped by focusing, a trap guard's budget or an operator's exclusion added while they were queued."),
		"queued":    d("frontier_queued", "URLs waiting in the frontier."),
		"inflight":  d("frontier_inflight", "URLs being fetched."),
		"seen":      d("frontier_seen", "URLs in the seen set."),
		"status":    d("status_total", "URLs' outcomes by status code class, as their last crawl.log line: HTTP statuses (2xx ... 5xx), URLs not fetched by a rule (skipped: focusing, robots.txt, a budget, an exclusion, the address guard), and failures (error). Tries put back for a retry are in retries_total; robots.txt's own fetches in neither.", "class"),
		"retries":   d("retries_total", "Tries that failed and were put back for a retry, by status code class (5xx, 4xx for a 429, error for a failure with no HTTP status of the URL's own: no response, a cut body, robots.txt unavailable), as crawl.log's lines with retry:N/M: a server answering 503 to everything shows here.", "class"),
		"paused":    d("paused", "1 while the crawl is paused (by the operator, or for a disk below durability.min_free_space), else 0."),
		"held":      d("held_back_total", "Times a ready site was passed over because the fetches under way to its registered domain (scheduling.domain_connections) or its IP address (scheduling.address_connections) were at the bound; a site waiting is counted each time it is looked at again (every 50 ms or so), so read it as a rate.", "bound"),
		"slowed":    d("slowed_addresses", "IP addresses whose bound of fetches at once (scheduling.address_connections) a 429 or 503 answer has lowered, for now."),
	}}
}

// Describe implements prometheus.Collector.
func (col *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range col.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (col *Collector) Collect(ch chan<- prometheus.Metric) {
	s := col.c.Stats()
	counter := func(name string, v int64) {
		ch <- prometheus.MustNewConstMetric(col.descs[name], prometheus.CounterValue, float64(v))
	}
	gauge := func(name string, v int64) {
		ch <- prometheus.MustNewConstMetric(col.descs[name], prometheus.GaugeValue, float64(v))
	}
	counter("responses", s.Pages)
	counter("bytes", s.Bytes)
	counter("html", s.HTML)
	counter("relevant", s.Relevant)
	counter("failed", s.Failed)
	counter("refused", s.Refused)
	counter("robots", s.Robots)
	counter("skipped", s.Skipped)
	gauge("queued", s.Frontier.Queued)
	gauge("inflight", s.Frontier.InFlight)
	gauge("seen", s.Frontier.Seen)
	paused := int64(0)
	if _, ok := col.c.Paused(); ok {
		paused = 1
	}
	gauge("paused", paused)
	dom, addr := col.c.slots.heldBack()
	ch <- prometheus.MustNewConstMetric(col.descs["held"], prometheus.CounterValue, float64(dom), "domain")
	ch <- prometheus.MustNewConstMetric(col.descs["held"], prometheus.CounterValue, float64(addr), "address")
	gauge("slowed", int64(col.c.slots.slowed()))
	for _, m := range []struct {
		desc  string
		codes map[int]int64
	}{{"status", s.Status}, {"retries", s.Retries}} {
		// Every class is exported from the start, at 0, so that a rate
		// over it is defined before its first line (a steering trial).
		classes := map[string]int64{"2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, "skipped": 0, "error": 0}
		for code, n := range m.codes {
			classes[statusClass(code)] += n
		}
		for class, n := range classes {
			ch <- prometheus.MustNewConstMetric(col.descs[m.desc], prometheus.CounterValue, float64(n), class)
		}
	}
}

// statusClass is the class label of a crawl.log status code in
// langcrawl_status_total: "2xx" and so on for HTTP statuses, "skipped" for
// the codes of URLs a rule kept from being fetched (Heritrix's -5000 range
// and robots.txt's -9998), "error" for failures. A focused crawl drops
// many URLs by rule; counted as errors they set off an alert on errors
// (a trial: all 120 "errors" of its crawl were focus drops).
func statusClass(code int) string {
	switch {
	case code > 0:
		return fmt.Sprintf("%dxx", code/100)
	case code <= -5000:
		return "skipped"
	}
	return "error"
}
