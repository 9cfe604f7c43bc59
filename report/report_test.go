package report

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// page is one fetch of the synthetic crawl: an exchange and its metadata.
type page struct {
	url      string
	depth    int
	tree     string // "" leaves the field out
	lang     string // "" for a record without language fields; "zh/zh-Hant" adds a languageTag
	charset  string
	relevant bool
	outlinks []string
	status   string // focusStatus; "" writes "undecided"
	key      string // focusKey; "" writes "x"
	via      string // the referring page; "" writes "-"
	rival    string // languageRival and its confidence, "id 0.620"; "" writes neither
}

func (p page) fields() []archive.Field {
	via := p.via
	if via == "" {
		via = "-"
	}
	f := []archive.Field{{Name: "via", Value: via}, {Name: "hopsFromSeed", Value: strings.Repeat("L", p.depth)},
		{Name: "depth", Value: fmt.Sprint(p.depth)}}
	if p.tree != "" {
		f = append(f, archive.Field{Name: "tree", Value: p.tree})
	}
	f = append(f, archive.Field{Name: "fetchTimeMs", Value: "12"})
	if p.lang != "" {
		lang, tag, _ := strings.Cut(p.lang, "/")
		f = append(f,
			archive.Field{Name: "charset", Value: p.charset},
			archive.Field{Name: "language", Value: lang})
		if tag != "" {
			f = append(f, archive.Field{Name: "languageTag", Value: tag})
		}
		f = append(f,
			archive.Field{Name: "languageConfidence", Value: "0.900"},
			archive.Field{Name: "languageEvidence", Value: "ngram"},
			archive.Field{Name: "relevant", Value: fmt.Sprint(p.relevant)},
			archive.Field{Name: "focusKey", Value: cmp.Or(p.key, "x")},
			archive.Field{Name: "focusStatus", Value: cmp.Or(p.status, "undecided")})
		if rival, conf, ok := strings.Cut(p.rival, " "); ok {
			f = append(f, archive.Field{Name: "languageRival", Value: rival},
				archive.Field{Name: "languageRivalConfidence", Value: conf})
		}
	}
	for _, o := range p.outlinks {
		f = append(f, archive.Field{Name: "outlink", Value: o})
	}
	return f
}

// writeWARC writes pages, one minute apart from start, into a WARC file in
// dir and returns its path and the offset of each page's first record.
func writeWARC(t testing.TB, dir string, start time.Time, pages []page) string {
	t.Helper()
	now := start
	w, err := archive.NewWriter(archive.Config{Dir: dir, Compress: true, Hostname: "test", Software: "report-test",
		Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pages {
		date := start.Add(time.Duration(i) * time.Minute)
		body := "<html>page</html>"
		resp := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
		ref, err := w.WriteExchange(&archive.Exchange{URL: p.url, IP: "127.0.0.1", Date: date,
			RawRequest:  []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
			RawResponse: []byte(resp), BodyOffset: len(resp) - len(body)})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteMetadata(p.url, ref.ResponseID, date, p.fields()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	for _, f := range files {
		if strings.Contains(f, start.Format("20060102150405")) {
			return f
		}
	}
	t.Fatalf("no WARC file for %s in %v", start, files)
	return ""
}

// firstCrawl is the closed file of the synthetic crawl; see the expected
// values in TestBuild.
var firstCrawl = []page{
	{url: "http://a.test/", depth: 0, tree: "a.test", lang: "th", charset: "tis-620", relevant: true, outlinks: []string{
		"http://a.test/1 L a/@href",
		"http://www.a.test/2 L a/@href",
		"http://b.test/ L a/@href",
		"http://a.test/img.png E img/@src",
		"http://c.test/x L a/@href rejected:focus:irrelevant-server",
	}},
	{url: "http://a.test/img.png", depth: 0, tree: "a.test"},
	{url: "http://a.test/old", depth: 1, tree: "a.test", outlinks: []string{"http://a.test/1 R http/@Location"}},
	{url: "http://a.test/1", depth: 1, tree: "a.test", lang: "en", charset: "utf-8", outlinks: []string{
		"http://b.test/ L a/@href",
		"http://d.test/p L a/@href rejected:seen",
		"http://a.test/3 L a/@href",
	}},
	{url: "http://www.a.test/2", depth: 1, tree: "a.test", lang: "th", charset: "utf-8", relevant: true, outlinks: []string{
		"http://e.test/logo.png E img/@src",
	}},
	{url: "http://a.test/3", depth: 2, tree: "a.test", lang: "th", charset: "tis-620", relevant: true, outlinks: []string{
		"http://f.test/ L a/@href",
		"http://B.TEST:80/ L a/@href",
		"http://a.test/4 L a/@href rejected:scope:depth 3, limit 2",
	}},
	{url: "http://b.test/", depth: 0, tree: "b.test", lang: "en", charset: "utf-8", outlinks: []string{"http://a.test/ L a/@href"}},
	{url: "http://b.test/x", depth: 1, tree: "b.test", lang: "en", charset: "iso-8859-1"},
	{url: "http://b.test/y", depth: 1, lang: "fr", charset: "utf-8"}, // no tree field: RegisteredDomain of the host
	{url: "http://c.test/", depth: 0, tree: "c.test", lang: "en", charset: "utf-8", outlinks: []string{"http://www.c.test/z L a/@href"}},
}

// secondRun is the .open file of a resumed crawl: a page already archived
// (counted once), a new one, and a last one that the crash cut short.
var secondRun = []page{
	{url: "http://c.test/", depth: 0, tree: "c.test", lang: "en", charset: "utf-8"},
	{url: "http://d.test/", depth: 0, tree: "d.test", lang: "ko", charset: "euc-kr", outlinks: []string{"mailto:x@d.test L a/@href"}},
	{url: "http://g.test/", depth: 0, tree: "g.test", lang: "th", charset: "utf-8", relevant: true},
}

const crawlLog = `2026-01-01T00:00:01.000Z   200       1000 http://a.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:th,charset:tis-620
2026-01-01T00:00:02.000Z   200        500 http://a.test/1 L http://a.test/ text/html #002 20260101000100000+12 sha1:BBB - truncated:length,lang:en,charset:utf-8
2026-01-01T00:00:03.000Z   404        100 http://a.test/missing L http://a.test/ text/html #001 20260101000200000+3 sha1:CCC - -
2026-01-01T00:00:04.000Z    -2          0 http://h.test/ L http://a.test/ - #003 - - - err:dial tcp 127.0.0.1:1: connect: connection refused
2026-01-01T00:00:05.000Z -9998          0 http://b.test/private L http://b.test/ - #001 - - - robots: disallowed by http://b.test/robots.txt for langcrawl
2026-01-01T00:00:06.000Z -5003          0 http://b.test/z L http://b.test/ - #002 - - - focus:irrelevant-server
garbage line
2026-01-01T00:00:07.000Z   200        250 http://b.test/ - - text/html #001 20260101000300000+5 sha1:DDD - lang:en,charset:utf-8

2026-01-01T00:00:08.000Z   200        250 http://c.test/ - - text/html #001 20260101000400000+5 sha1:EEE - lang:en,charset:utf-8
`

// buildCrawlDir writes a crawl output directory: profile, one closed WARC
// file, one .open file cut inside its last record, and crawl.log.
func buildCrawlDir(t testing.TB, profile string) string {
	t.Helper()
	out := t.TempDir()
	warcs := filepath.Join(out, WARCDir)
	writeWARC(t, warcs, t0, firstCrawl)
	second := writeWARC(t, filepath.Join(out, "tmp"), t0.Add(time.Hour), secondRun)
	recs, err := archive.ReadAll(second)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	// Cut inside the last record (g.test's metadata): it must not count.
	last := recs[len(recs)-1]
	if last.TargetURI != "http://g.test/" || last.Type != "metadata" {
		t.Fatalf("last record is %s %s", last.Type, last.TargetURI)
	}
	cut := last.Offset + (int64(len(data))-last.Offset)/2
	if err := os.WriteFile(filepath.Join(warcs, filepath.Base(second)+".open"), data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(out, "tmp")); err != nil {
		t.Fatal(err)
	}
	if profile != "" {
		if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte(profile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(out, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, LogFile), []byte(crawlLog), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

const thaiProfile = `depth: 2
focus:
  language: th
  strategy: conservative-server
  tolerance: 2
  charsets: []
out: /somewhere
`

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestBuild(t *testing.T) {
	out := buildCrawlDir(t, thaiProfile)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("totals", func(t *testing.T) {
		for _, c := range []struct {
			name      string
			got, want int
		}{
			{"WARCFiles", r.WARCFiles, 2},
			{"OpenFiles", r.OpenFiles, 1},
			// closed: warcinfo + 10 × (request, response, metadata);
			// open: warcinfo + 2 × 3 + request and response of g.test.
			{"Records", r.Records, 31 + 9},
			{"MetaRecords", r.MetaRecords, 12},
			{"DuplicateURLs", r.DuplicateURLs, 1},
			{"Pages", r.Pages, 9},
			{"Relevant", r.Relevant, 3},
			{"ExternalURLs", r.ExternalURLs, 5},
			{"SiteTrees", r.SiteTrees, 4},
			{"LogLines", r.LogLines, 8},
			{"BadLogLines", r.BadLogLines, 1},
			{"Tolerance", r.Tolerance, 2},
			{"Profile.Depth", r.Profile.Depth, 2},
		} {
			if c.got != c.want {
				t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
			}
		}
		if r.Profile.Language != "th" || r.Profile.Strategy != "conservative-server" {
			t.Errorf("profile %+v", r.Profile)
		}
		if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], ".open") || !strings.Contains(r.Warnings[0], "cut record") {
			t.Errorf("warnings %q, want one about the cut .open file", r.Warnings)
		}
	})

	t.Run("servers", func(t *testing.T) {
		type row struct {
			host            string
			pages, relevant int
			status          string
			first, last     time.Time
		}
		want := []row{ // by pages, then host
			{"a.test", 3, 2, "relevant", t0, t0.Add(5 * time.Minute)}, // img.png and /old date it too
			{"b.test", 3, 0, "irrelevant", t0.Add(6 * time.Minute), t0.Add(8 * time.Minute)},
			// Last is its second capture's (a resumed crawl's), as the
			// field says: the latest fetch of any record of the host.
			{"c.test", 1, 0, "undecided", t0.Add(9 * time.Minute), t0.Add(60 * time.Minute)},
			{"d.test", 1, 0, "undecided", t0.Add(time.Hour + time.Minute), t0.Add(time.Hour + time.Minute)},
			{"www.a.test", 1, 1, "relevant", t0.Add(4 * time.Minute), t0.Add(4 * time.Minute)},
		}
		var got []row
		for _, s := range r.Servers {
			got = append(got, row{s.Host, s.Pages, s.Relevant, s.Status, s.First, s.Last})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("servers\n got %v\nwant %v", got, want)
		}
	})

	t.Run("harvest", func(t *testing.T) {
		want := [][2]int{{1, 1}, {2, 1}, {3, 2}, {4, 3}, {5, 3}, {6, 3}, {7, 3}, {8, 3}, {9, 3}}
		var got [][2]int
		for _, h := range r.Harvest {
			got = append(got, [2]int{h.Pages, h.Relevant})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("harvest %v, want %v", got, want)
		}
		if n := len(r.Harvest); n > 0 && (!r.Harvest[n-1].Time.Equal(t0.Add(time.Hour+time.Minute)) || !near(r.Harvest[n-1].Rate(), 1.0/3)) {
			t.Errorf("last harvest point %+v rate %v", r.Harvest[n-1], r.Harvest[n-1].Rate())
		}
	})

	t.Run("languages", func(t *testing.T) {
		want := []Language{
			{Code: "en", Pages: 4, Share: 4.0 / 9, Charsets: map[string]int{"utf-8": 3, "iso-8859-1": 1}},
			{Code: "th", Pages: 3, Share: 3.0 / 9, Charsets: map[string]int{"tis-620": 2, "utf-8": 1}},
			{Code: "fr", Pages: 1, Share: 1.0 / 9, Charsets: map[string]int{"utf-8": 1}},
			{Code: "ko", Pages: 1, Share: 1.0 / 9, Charsets: map[string]int{"euc-kr": 1}},
		}
		if !reflect.DeepEqual(r.Languages, want) {
			t.Errorf("languages\n got %+v\nwant %+v", r.Languages, want)
		}
	})

	t.Run("depth levels", func(t *testing.T) {
		want := []DepthLevel{
			{Depth: 0, Pages: 4, NewExternal: 3, CumPages: 4, CumExternal: 3, LoadRate: 4.0 / 9, CaptureRate: 3.0 / 5},
			{Depth: 1, Pages: 4, NewExternal: 1, CumPages: 8, CumExternal: 4, LoadRate: 8.0 / 9, CaptureRate: 4.0 / 5},
			{Depth: 2, Pages: 1, NewExternal: 1, CumPages: 9, CumExternal: 5, LoadRate: 1, CaptureRate: 1},
		}
		if !reflect.DeepEqual(r.Depths, want) {
			t.Errorf("depths\n got %+v\nwant %+v", r.Depths, want)
		}
		wantTrees := []TreeDepth{{0, 2}, {1, 1}, {2, 1}} // c, d; b; a
		if !reflect.DeepEqual(r.TreeDepths, wantTrees) {
			t.Errorf("tree depths %+v, want %+v", r.TreeDepths, wantTrees)
		}
		wantAdv := []Advice{{Target: 0.8, Depth: 1, Load: 8.0 / 9, Capture: 0.8}, {Target: 1, Depth: 2, Load: 1, Capture: 1}}
		if adv := r.DepthAdvice(); !reflect.DeepEqual(adv, wantAdv) {
			t.Errorf("advice %+v, want %+v", adv, wantAdv)
		}
	})

	t.Run("crawl.log", func(t *testing.T) {
		want := []StatusCount{
			{-9998, "disallowed by robots.txt", 1, 0},
			{-5003, "focusing: server or section judged irrelevant (queued URL dropped or skipped)", 1, 0},
			{-2, "connect failed", 1, 0},
			{200, "OK", 4, 2000},
			{404, "Not Found", 1, 100},
		}
		if !reflect.DeepEqual(r.Statuses, want) {
			t.Errorf("statuses\n got %+v\nwant %+v", r.Statuses, want)
		}
		wantAnn := []Count{{"err:connection refused", 1}, {"focus:irrelevant-server", 1}, {"robots:disallowed", 1}, {"truncated:length", 1}}
		if !reflect.DeepEqual(r.Annotations, wantAnn) {
			t.Errorf("annotations %+v, want %+v", r.Annotations, wantAnn)
		}
	})
}

func TestSetTolerance(t *testing.T) {
	r, err := Build(buildCrawlDir(t, thaiProfile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tol  int
		want map[string]string
	}{
		{0, map[string]string{"a.test": "relevant", "b.test": "irrelevant", "c.test": "irrelevant", "www.a.test": "relevant"}},
		{2, map[string]string{"a.test": "relevant", "b.test": "irrelevant", "c.test": "undecided", "www.a.test": "relevant"}},
		{3, map[string]string{"a.test": "relevant", "b.test": "undecided", "c.test": "undecided", "www.a.test": "relevant"}},
	} {
		r.SetTolerance(tc.tol)
		for host, want := range tc.want {
			s, ok := r.Server(host)
			if !ok || s.Status != want {
				t.Errorf("T=%d: %s status %q (found %v), want %q", tc.tol, host, s.Status, ok, want)
			}
		}
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "tolerance T = 3 (the crawl ran with T = 2)") {
		t.Errorf("markdown does not say the tolerance was changed:\n%s", md.String())
	}
}

func TestFocusingOff(t *testing.T) {
	for name, profile := range map[string]string{
		"no language": "depth: 2\nfocus:\n  language: \"\"\n  tolerance: 10\n",
		"no profile":  "",
	} {
		t.Run(name, func(t *testing.T) {
			r, err := Build(buildCrawlDir(t, profile))
			if err != nil {
				t.Fatal(err)
			}
			if r.Relevant != 0 {
				t.Errorf("Relevant = %d with focusing off", r.Relevant)
			}
			for _, s := range r.Servers {
				if s.Status != StatusOff || s.Relevant != 0 {
					t.Errorf("%s: status %q, N_r %d", s.Host, s.Status, s.Relevant)
				}
			}
			if r.Pages != 9 || r.ExternalURLs != 5 {
				t.Errorf("pages %d, external %d: the measures that need no focus changed", r.Pages, r.ExternalURLs)
			}
			warnedProfile := false
			for _, w := range r.Warnings {
				warnedProfile = warnedProfile || strings.HasPrefix(w, "profile:")
			}
			if warnedProfile != (profile == "") {
				t.Errorf("warnings %q", r.Warnings)
			}
			var md bytes.Buffer
			if err := r.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(md.String(), "Focusing: **off**") {
				t.Error("markdown does not say focusing was off")
			}
		})
	}
}

func TestDamagedClosedFile(t *testing.T) {
	out := t.TempDir()
	warcs := filepath.Join(out, WARCDir)
	f := writeWARC(t, warcs, t0, firstCrawl)
	data, _ := os.ReadFile(f)
	// Cut the file in its middle, leaving the .warc.gz name: the pages
	// before the cut count, and a warning names the file.
	if err := os.WriteFile(f, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pages == 0 || r.Pages >= 8 {
		t.Errorf("%d pages from half a file of 8", r.Pages)
	}
	var damaged, noLog bool
	for _, w := range r.Warnings {
		damaged = damaged || (strings.Contains(w, "damaged") && strings.Contains(w, filepath.Base(f)))
		noLog = noLog || strings.HasPrefix(w, "crawl.log:")
	}
	if !damaged || !noLog {
		t.Errorf("warnings %q: want the damaged file and the missing crawl.log", r.Warnings)
	}
}

func TestBuildErrors(t *testing.T) {
	empty := t.TempDir()
	os.MkdirAll(filepath.Join(empty, WARCDir), 0o755)
	for name, dir := range map[string]string{
		"no warcs dir":   t.TempDir(),
		"empty warcs":    empty,
		"does not exist": filepath.Join(t.TempDir(), "nope"),
	} {
		_, err := Build(dir)
		if err == nil {
			t.Errorf("%s: no error", name)
		}
		if name != "does not exist" && !errors.Is(err, ErrNoWARC) {
			t.Errorf("%s: %v, want ErrNoWARC", name, err)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func TestWriteFiles(t *testing.T) {
	out := buildCrawlDir(t, thaiProfile)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, Dir)
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		rows [][]string // expected rows after the header; nil: only count
		n    int
	}{
		{FileServers, [][]string{
			{"a.test", "3", "2", "relevant", "2026-01-01T00:00:00Z", "2026-01-01T00:05:00Z"},
			{"b.test", "3", "0", "irrelevant", "2026-01-01T00:06:00Z", "2026-01-01T00:08:00Z"},
			{"c.test", "1", "0", "undecided", "2026-01-01T00:09:00Z", "2026-01-01T01:00:00Z"},
			{"d.test", "1", "0", "undecided", "2026-01-01T01:01:00Z", "2026-01-01T01:01:00Z"},
			{"www.a.test", "1", "1", "relevant", "2026-01-01T00:04:00Z", "2026-01-01T00:04:00Z"},
		}, 5},
		{FileLimitCSV, [][]string{
			{"0", "0.444444", "0.600000", "4", "3"},
			{"1", "0.888889", "0.800000", "8", "4"},
			{"2", "1.000000", "1.000000", "9", "5"},
		}, 3},
		{FileDepthCSV, [][]string{{"0", "4", "4", "3", "3"}, {"1", "4", "8", "1", "4"}, {"2", "1", "9", "1", "5"}}, 3},
		{FileTreesCSV, [][]string{{"0", "2"}, {"1", "1"}, {"2", "1"}}, 3},
		{FileLanguages, [][]string{
			{"en", "4", "0.444444", "utf-8 3, iso-8859-1 1"},
			{"th", "3", "0.333333", "tis-620 2, utf-8 1"},
			{"fr", "1", "0.111111", "utf-8 1"},
			{"ko", "1", "0.111111", "euc-kr 1"},
		}, 4},
		{FileHarvestCSV, nil, 9},
		{FileStatusCSV, nil, 5},
		{FileAnnotations, nil, 4},
	} {
		rows := readCSV(t, filepath.Join(dir, c.file))
		if len(rows)-1 != c.n {
			t.Errorf("%s: %d rows, want %d", c.file, len(rows)-1, c.n)
			continue
		}
		if c.rows != nil && !reflect.DeepEqual(rows[1:], c.rows) {
			t.Errorf("%s:\n got %q\nwant %q", c.file, rows[1:], c.rows)
		}
	}
	for _, name := range []string{FileHarvestSVG, FileDepthSVG, FileTreesSVG, FileLimitSVG} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, FileLimitSVG))
	for _, l := range []string{">L=0<", ">L=1<", ">L=2<"} {
		if !bytes.Contains(svg, []byte(l)) {
			t.Errorf("%s has no point label %s", FileLimitSVG, l)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, FileMarkdown))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"depth 1 keeps 80% of the external URLs at 88.9% of the load.",
		"depth 2 keeps 100% of the external URLs at 100% of the load.",
		"| a.test | 3 | 2 | relevant |",
		"2 relevant, 2 undecided, 1 irrelevant",
		"| th | 3 | 33.3% | tis-620 2, utf-8 1 |",
		"| -2 | connect failed | 1 | 0 |",
		"| harvest rate | 33.3% |",
		"which had a depth limit of 2",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

func wellFormed(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// The harvest series is thinned to a bounded number of points that still
// end at the last page.
func TestHarvestThinning(t *testing.T) {
	r := &Report{Profile: Profile{Language: "th"}}
	a := newAccumulator(r)
	const n = 5*maxHarvestPoints + 3
	for i := 1; i <= n; i++ {
		a.add(metaRecord{URI: fmt.Sprintf("http://h.test/%d", i), Fields: []Field{{"depth", "0"},
			{"language", "th"}, {"relevant", fmt.Sprint(i%3 == 0)}}})
	}
	a.finish()
	if len(r.Harvest) > maxHarvestPoints+1 || len(r.Harvest) < maxHarvestPoints/2 {
		t.Errorf("%d harvest points for %d pages", len(r.Harvest), n)
	}
	for i, p := range r.Harvest {
		if p.Relevant != p.Pages/3 {
			t.Errorf("point %d: %d relevant of %d, want %d", i, p.Relevant, p.Pages, p.Pages/3)
		}
		if i > 0 && p.Pages <= r.Harvest[i-1].Pages {
			t.Errorf("point %d not after point %d", i, i-1)
		}
	}
	if last := r.Harvest[len(r.Harvest)-1]; last.Pages != n {
		t.Errorf("last point at %d pages, want %d", last.Pages, n)
	}
}

// Retries and the bandwidth trace: deferred tries and final failures are
// counted from crawl.log, and a trace in logs/ is read and drawn.
func TestRetriesAndBandwidth(t *testing.T) {
	out := buildCrawlDir(t, thaiProfile)
	extra := "2026-01-01T00:00:09.000Z   503          0 http://d.test/ - - - #001 - - - retry:1/3,at:2026-01-01T00:00:39Z,http:503\n" +
		"2026-01-01T00:00:10.000Z   -61          0 http://e.test/ - - - #001 - - - retry:1/3,at:2026-01-01T00:00:40Z,robots:_x\n" +
		"2026-01-01T00:00:11.000Z    -8          0 http://f.test/ - - - #001 - - - gave-up:3-tries,last:-2,err:dial\n" +
		"2026-01-01T00:00:12.000Z    -3          0 http://i.test/ - - - #001 - - - err:malformed_response\n" +
		"2026-01-01T00:00:13.000Z    -7          0 http://j.test/x - - - #001 - - - err:unsupported_scheme\n"
	f, err := os.OpenFile(filepath.Join(out, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(extra)
	f.Close()
	trace := "time,predicted_Bps,measured_Bps,limit_Bps\n" +
		"2026-01-01T00:00:01Z,900,800,1000\n2026-01-01T00:00:02Z,1000,1000,1000\n"
	if err := os.WriteFile(filepath.Join(out, BandwidthFile), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	// Failed as the summary counts them: f.test after its last try, and
	// h.test's -2, i.test's -3 and j.test's -7 with no retry (before the
	// nineteenth session, only the first: a failure trial's report said 8
	// where its summary said 21).
	if r.Deferred != 2 || r.GaveUp != 4 {
		t.Errorf("deferred %d, gave up %d; want 2 and 4", r.Deferred, r.GaveUp)
	}
	if len(r.Bandwidth) != 2 || r.Bandwidth[1].Measured != 1000 {
		t.Errorf("bandwidth trace = %+v", r.Bandwidth)
	}
	dir := filepath.Join(out, Dir)
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, FileBandwidthSVG))
	if err != nil || wellFormed(svg) != nil {
		t.Errorf("bandwidth.svg: %v, %v", err, wellFormed(svg))
	}
	md, _ := os.ReadFile(filepath.Join(dir, FileMarkdown))
	for _, want := range []string{"90% of L", "2 tries failed and were deferred", "4 URLs failed, after their last try or at once"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestSequentialStatus: for a crawl with the sequential strategy, a
// server's status is the verdict the metadata of its latest page records,
// which Tamura's rule on N_a and N_r cannot give (en.test, judged
// irrelevant after three pages, is undecided under T = 10); another
// strategy's report judges the same records by the rule.
func TestSequentialStatus(t *testing.T) {
	pages := []page{
		{url: "http://th.test/", lang: "th", charset: "utf-8", relevant: true, status: "relevant", key: "th.test"},
		{url: "http://en.test/a", lang: "en", charset: "utf-8", key: "en.test"},
		{url: "http://en.test/b", lang: "en", charset: "utf-8", key: "en.test"},
		{url: "http://en.test/", lang: "en", charset: "utf-8", status: "irrelevant", key: "en.test"},
		// A directory's status (conservative-directory keys) is no server's verdict.
		{url: "http://mixed.test/en/", lang: "en", charset: "utf-8", status: "irrelevant", key: "mixed.test/en/"},
	}
	for _, c := range []struct {
		strategy         string
		decay            string // focus.tolerance_decay_every; "": the default, T falls
		en, mixed, thai  string
		enVerdictWritten string
	}{
		{"sequential", "", "irrelevant", "undecided", "relevant", "irrelevant"},
		{"conservative-server", "0", "undecided", "undecided", "relevant", "irrelevant"},
		// T fell as the crawl ran (TestFallenToleranceVerdicts): the
		// crawl's own verdict.
		{"conservative-server", "", "irrelevant", "undecided", "relevant", "irrelevant"},
	} {
		out := t.TempDir()
		writeWARC(t, filepath.Join(out, WARCDir), t0, pages)
		prof := "focus:\n  language: th\n  strategy: " + c.strategy + "\n  tolerance: 10\n"
		if c.decay != "" {
			prof += "  tolerance_decay_every: " + c.decay + "\n"
		}
		if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte(prof), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Build(out)
		if err != nil {
			t.Fatal(err)
		}
		for host, want := range map[string]string{"en.test": c.en, "mixed.test": c.mixed, "th.test": c.thai} {
			s, ok := r.Server(host)
			if !ok || s.Status != want {
				t.Errorf("%s: %s status %q, want %q", c.strategy, host, s.Status, want)
			}
		}
		if s, _ := r.Server("en.test"); s.Verdict != c.enVerdictWritten {
			t.Errorf("%s: en.test verdict %q, want the latest page's %q", c.strategy, s.Verdict, c.enVerdictWritten)
		}
		r.SetTolerance(100) // a what-if under another T leaves a sequential verdict alone, and judges others by the rule
		want := "undecided"
		if c.strategy == "sequential" {
			want = "irrelevant"
		}
		if s, _ := r.Server("en.test"); s.Status != want {
			t.Errorf("%s (decay %q): under T = 100, en.test %q, want %q", c.strategy, c.decay, s.Status, want)
		}
	}
	// A later capture of a URL already seen (a re-crawl) carries the later
	// verdict.
	out := t.TempDir()
	again := append(pages[:len(pages):len(pages)], page{url: "http://en.test/a", lang: "en", charset: "utf-8", status: "undecided", key: "en.test"})
	writeWARC(t, filepath.Join(out, WARCDir), t0, again)
	os.WriteFile(filepath.Join(out, ProfileFile), []byte("focus:\n  language: th\n  strategy: sequential\n"), 0o644)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Server("en.test"); s.Verdict != "undecided" || s.Status != "undecided" || s.Pages != 3 {
		t.Errorf("after a later capture: en.test %+v, want the later verdict, 3 pages", s)
	}
}

// TestProfileLanguageSet: a set of targets, given as a list or a string,
// reads as the crawl reads it, and the report names it.
func TestProfileLanguageSet(t *testing.T) {
	for _, lang := range []string{"[nb, nn]", `"nb,nn"`, "NB, nn, nb"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "profile.yaml")
		if err := os.WriteFile(path, []byte("focus:\n  language: "+lang+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := readProfile(path)
		if err != nil {
			t.Fatal(err)
		}
		if p.Language != "nb, nn" {
			t.Errorf("language: %s read as %q, want \"nb, nn\"", lang, p.Language)
		}
		r := &Report{Profile: p}
		var md bytes.Buffer
		if err := r.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md.String(), "Target languages (collected together): **nb, nn**") {
			t.Errorf("language: %s: the report does not name the set:\n%s", lang, md.String())
		}
	}
}

// TestBuildReadsRotatedLog: a crawl.log rotated into segments, one of
// them compressed by the operator, reads as the one file did.
func TestBuildReadsRotatedLog(t *testing.T) {
	out := buildCrawlDir(t, thaiProfile)
	whole, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(crawlLog, "\n")
	live := filepath.Join(out, LogFile)
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte(strings.Join(lines[:3], "")))
	z.Close()
	for name, data := range map[string][]byte{
		live + ".20260101000000.gz": gz.Bytes(),
		live + ".20260101000100":    []byte(strings.Join(lines[3:5], "")),
		live:                        []byte(strings.Join(lines[5:], "")),
	} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.LogFiles != 3 || whole.LogFiles != 1 {
		t.Errorf("LogFiles %d and %d, want 3 and 1", r.LogFiles, whole.LogFiles)
	}
	if r.LogLines != whole.LogLines || r.BadLogLines != whole.BadLogLines || !reflect.DeepEqual(r.Statuses, whole.Statuses) ||
		!reflect.DeepEqual(r.Annotations, whole.Annotations) || !reflect.DeepEqual(r.MIMETypes, whole.MIMETypes) ||
		!reflect.DeepEqual(r.Seeds, whole.Seeds) || len(r.Warnings) != len(whole.Warnings) {
		t.Errorf("rotated log read as %d lines (%d bad), %v, warnings %q; one file: %d (%d), %v, %q",
			r.LogLines, r.BadLogLines, r.Statuses, r.Warnings, whole.LogLines, whole.BadLogLines, whole.Statuses, whole.Warnings)
	}
}

// TestStatusMeaningsCoverReadme: every negative code README.md's crawl.log
// paragraph defines has a meaning in the report, not "other" (a
// hostile-server trial found -5010, -5004 and -7 under "other").
func TestStatusMeaningsCoverReadme(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, "crawl.log columns:")
	if i < 0 {
		t.Fatal(`README.md has no "crawl.log columns:" paragraph`)
	}
	para, _, _ := strings.Cut(text[i:], "\n\n")
	codes := regexp.MustCompile(`[\s(](-\d+)\s`).FindAllStringSubmatch(para, -1)
	if len(codes) < 11 {
		t.Fatalf("found %d codes in README's crawl.log paragraph, want the 11 it lists: %q", len(codes), para)
	}
	for _, m := range codes {
		code, _ := strconv.Atoi(m[1])
		if got := statusMeaning(code); got == "other" {
			t.Errorf("crawl.log code %d, defined in README.md, reads as %q in the report", code, got)
		}
	}
}

// TestDomains: the servers summed by registered domain, most hosts first,
// in the markdown and domains.csv: a subdomain farm's thousands of hosts
// of a few pages each show there, not among the servers (a trap trial).
func TestDomains(t *testing.T) {
	out := buildCrawlDir(t, thaiProfile)
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	var pages, relevant int
	for _, s := range r.Servers {
		if s.Host == "a.test" || s.Host == "www.a.test" {
			pages += s.Pages
			relevant += s.Relevant
		}
	}
	if len(r.Domains) == 0 || r.Domains[0] != (Domain{Domain: "a.test", Hosts: 2, Pages: pages, Relevant: relevant}) {
		t.Fatalf("Domains = %+v; want a.test first, with its 2 hosts, %d pages, %d relevant", r.Domains, pages, relevant)
	}
	dir := filepath.Join(out, Dir)
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, FileMarkdown))
	csv, _ := os.ReadFile(filepath.Join(dir, FileDomains))
	if !strings.Contains(string(md), fmt.Sprintf("| a.test | 2 | %d | %d |", pages, relevant)) ||
		!strings.HasPrefix(string(csv), "registered_domain,hosts,html_pages,target_pages\na.test,2,") {
		t.Errorf("report.md or domains.csv lacks the domain row:\n%s\n%s", md, csv)
	}
}

// TestLanguagesByTag: the languages table tells Traditional from Simplified
// Chinese by the metadata's languageTag (a Taipei library's crawl showed
// only zh), and warns when older records without it sit beside them.
func TestLanguagesByTag(t *testing.T) {
	out := t.TempDir()
	writeWARC(t, filepath.Join(out, WARCDir), t0, []page{
		{url: "http://tw.test/", tree: "tw.test", lang: "zh/zh-Hant", charset: "big5", relevant: true},
		{url: "http://tw.test/a", depth: 1, tree: "tw.test", lang: "zh/zh-Hant", charset: "utf-8", relevant: true},
		{url: "http://cn.test/", tree: "cn.test", lang: "zh/zh-Hans", charset: "gbk"},
		{url: "http://th.test/", tree: "th.test", lang: "th", charset: "utf-8"},
	})
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, l := range r.Languages {
		got[l.Code] = l.Pages
	}
	if got["zh-Hant"] != 2 || got["zh-Hans"] != 1 || got["th"] != 1 || got["zh"] != 0 {
		t.Errorf("languages %v, want zh-Hant 2, zh-Hans 1, th 1", got)
	}
	if len(r.Warnings) > 0 && strings.Contains(strings.Join(r.Warnings, "\n"), "languageTag") {
		t.Errorf("a warning of records without languageTag where every one has it: %v", r.Warnings)
	}
	// Records of an older langcrawl, without the tag, beside newer ones:
	// the table has a bare zh row, and a warning says why (a review found
	// it split without a word).
	writeWARC(t, filepath.Join(out, WARCDir), t0.Add(time.Hour), []page{
		{url: "http://old.test/", tree: "old.test", lang: "zh", charset: "big5", relevant: true},
	})
	if r, err = Build(out); err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(r.Warnings, "\n"); !strings.Contains(w, "1 pages of zh have no languageTag") {
		t.Errorf("records without languageTag beside tagged ones: warnings %q, want one naming them", w)
	}
}

// TestSequentialUndecidedKept: under the sequential strategy a server with
// a page read as the target stays undecided until its evidence calls it
// relevant, and is never judged irrelevant, so it is crawled in full. Two
// trials (twenty-third session) read such servers, "undecided" at 24 and
// 35 pages with T = 10, as ones the crawl had not got to; the markdown now
// says what they are.
func TestSequentialUndecidedKept(t *testing.T) {
	var pages []page
	pages = append(pages, page{url: "http://mr.test/0", lang: "hi", charset: "utf-8", relevant: true, status: "undecided", key: "mr.test"})
	for i := 1; i < 24; i++ {
		pages = append(pages, page{url: fmt.Sprintf("http://mr.test/%d", i), lang: "mr", charset: "utf-8", status: "undecided", key: "mr.test"})
	}
	pages = append(pages, page{url: "http://en.test/", lang: "en", charset: "utf-8", status: "undecided", key: "en.test"})
	for _, c := range []struct {
		strategy string
		want     bool
	}{{"sequential", true}, {"conservative-server", false}} {
		out := t.TempDir()
		writeWARC(t, filepath.Join(out, WARCDir), t0, pages)
		prof := "focus:\n  language: hi\n  strategy: " + c.strategy + "\n  tolerance: 10\n"
		if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte(prof), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Build(out)
		if err != nil {
			t.Fatal(err)
		}
		var md bytes.Buffer
		if err := r.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(md.String(), "Of the undecided, 1 served a page read as the target")
		if got != c.want {
			t.Errorf("%s: the markdown says of the kept undecided server: %v, want %v", c.strategy, got, c.want)
		}
	}
}
