package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
)

// A focused crawl whose pages link to hosts focusing turned away: lao.test
// (never fetched, two referring pages), ja.test (fetched, judged
// irrelevant, its queue dropped, a /th/ section among it, so it comes
// first), and th2.test, whose page is in Thai, so
// it is no candidate however many links to it were rejected.
var candidateCrawl = []page{
	{url: "http://th.test/", depth: 0, tree: "th.test", lang: "th", charset: "utf-8", relevant: true, outlinks: []string{
		`http://th.test/a L a/@href anchor:"ข่าว"`,
		`http://lao.test/ L a/@href rejected:focus:irrelevant-page anchor:"ຂ່າວ ລາວ"`,
		`http://lao.test/x L a/@href rejected:focus:irrelevant-page anchor:"ຂ່າວ ລາວ"`,
		`http://lao.test/logo.png E img/@src rejected:focus:irrelevant-page`, // an embed: not counted
		`http://ja.test/ L a/@href`,
		`http://th2.test/ L a/@href rejected:focus:undecided-source anchor:"ไทย"`,
	}},
	{url: "http://th.test/a", depth: 1, tree: "th.test", lang: "th", charset: "utf-8", relevant: true, outlinks: []string{
		`http://LAO.test/y L a/@href rejected:focus:irrelevant-page anchor:"Lao \"news\""`,
		`http://lao.test/z L a/@href rejected:focus:irrelevant-page`,               // no anchor (or an older crawl)
		`http://th.test/b L a/@href rejected:scope:depth 2, limit 1 anchor:"more"`, // scope, not focus
	}},
	{url: "http://ja.test/", depth: 0, tree: "ja.test", lang: "ja", charset: "utf-8", outlinks: []string{
		`http://ja.test/1 L a/@href rejected:focus:irrelevant-server anchor:"次へ"`,
	}},
	{url: "http://th2.test/", depth: 0, tree: "th2.test", lang: "th", charset: "utf-8", relevant: true},
}

const candidateLog = `2026-01-01T00:00:01.000Z   200       1000 http://th.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:th,charset:utf-8
2026-01-01T00:00:02.000Z   200        500 http://th.test/a L http://th.test/ text/html #002 20260101000100000+12 sha1:BBB - lang:th,charset:utf-8
2026-01-01T00:00:03.000Z   200       3000 http://th.test/img.png E http://th.test/ image/png #002 20260101000100000+12 sha1:BBC - -
2026-01-01T00:00:04.000Z   200        700 http://ja.test/ - - text/html #001 20260101000200000+3 sha1:CCC - lang:ja,charset:utf-8
2026-01-01T00:00:05.000Z -5003          0 http://ja.test/2 L http://ja.test/ - #002 - - - focus:dropped:ja.test
2026-01-01T00:00:05.000Z -5003          0 http://ja.test/3 L http://ja.test/ - #002 - - - focus:dropped:ja.test
2026-01-01T00:00:05.000Z -5003          0 http://ja.test/th/ L http://ja.test/ - #002 - - - focus:dropped:ja.test
2026-01-01T00:00:05.000Z -5003          0 http://ja.test/4 L http://th.test/a - #002 - - - focus:dropped:ja.test
2026-01-01T00:00:06.000Z    -2          0 http://down.test/ - - - #003 - - - err:connection_refused
2026-01-01T00:00:07.000Z   200        400 http://th2.test/ L http://th.test/ text/html #001 20260101000300000+5 sha1:DDD - lang:th,charset:utf-8
`

const candidateProfile = `depth: 1
seeds:
  - http://th.test/
  - url: http://never.test/
    scope: host
focus:
  language: th
  strategy: conservative-server
  tolerance: 0
`

func buildCandidateDir(t *testing.T) string {
	t.Helper()
	return writeCrawlOut(t, candidateCrawl, candidateLog, candidateProfile)
}

// writeCrawlOut writes a crawl's output directory: WARC files of pages,
// crawl.log and the profile.
func writeCrawlOut(t *testing.T, pages []page, log, profile string) string {
	t.Helper()
	out := t.TempDir()
	writeWARC(t, filepath.Join(out, WARCDir), t0, pages)
	writeLogProfile(t, out, log, profile)
	return out
}

// writeLogProfile writes crawl.log and the profile into a crawl's output
// directory out.
func writeLogProfile(t *testing.T, out, log, profile string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(out, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{LogFile: log, ProfileFile: profile} {
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCandidatesSeedsMIME(t *testing.T) {
	r, err := Build(buildCandidateDir(t))
	if err != nil {
		t.Fatal(err)
	}
	wantCand := []Candidate{
		// th.test/a's link to ja.test/4 was queued, then dropped: th.test/a
		// refers to ja.test too; ja.test/'s own dropped links do not count,
		// nor does its own rejected link (since the twentieth session: a
		// trial found sampled foreign servers "linked from" their own pages
		// leading the list).
		{Host: "ja.test", Links: 1, Referrers: 1, ReferrerSample: []string{"http://th.test/a"},
			Anchors: []Count{{"次へ", 1}}, Reasons: []Count{{"irrelevant-server", 1}}, Dropped: 4, Pages: 1,
			SectionURLs: 1, SectionSample: []string{"http://ja.test/th/"}},
		// Both referring pages are Thai.
		{Host: "lao.test", Links: 4, Referrers: 2, TargetReferrers: 2, ReferrerSample: []string{"http://th.test/", "http://th.test/a"},
			Anchors: []Count{{"ຂ່າວ ລາວ", 2}, {`Lao "news"`, 1}}, Reasons: []Count{{"irrelevant-page", 4}}},
	}
	if !reflect.DeepEqual(r.Candidates, wantCand) {
		t.Errorf("candidates\n got %+v\nwant %+v", r.Candidates, wantCand)
	}

	wantSeeds := []Seed{
		{URL: "http://th.test/", Status: 200, Meaning: "OK", Tree: "th.test", Pages: 2, Relevant: 2, InProfile: true, Server: "relevant"},
		{URL: "http://never.test/", Meaning: "not fetched", Tree: "never.test", InProfile: true},
		{URL: "http://ja.test/", Status: 200, Meaning: "OK", Tree: "ja.test", Pages: 1, Server: "irrelevant"},
		{URL: "http://down.test/", Status: -2, Meaning: "connect failed", Tree: "down.test"},
	}
	if !reflect.DeepEqual(r.Seeds, wantSeeds) {
		t.Errorf("seeds\n got %+v\nwant %+v", r.Seeds, wantSeeds)
	}

	wantMIME := []MIMEType{{"image/png", 1, 3000}, {"text/html", 4, 2600}, {"", 5, 0}}
	if !reflect.DeepEqual(r.MIMETypes, wantMIME) {
		t.Errorf("MIME types\n got %+v\nwant %+v", r.MIMETypes, wantMIME)
	}

	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Candidate hosts", `| lao.test | 2 | 2 | 4 | 0 | 0 | 0 | "ຂ່າວ ລາວ" ×2, "Lao \\"news\\"" |`, // a backslash is escaped for markdown (a security review)
		"| ja.test | 1 | 0 | 1 | 4 | 1 | 1, e.g. http://ja.test/th/ |", "**1 of them had URLs naming a th section**",
		"## Seeds", "| http://never.test/ | - | not fetched | never.test | 0 | 0 |", "## MIME types", "| image/png | 1 | 3000 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}

	rows := candidatesCSV(t, r)
	if len(rows) != 3 || rows[2][0] != "lao.test" || rows[1][3] != "4" || !strings.Contains(rows[2][5], "ຂ່າວ ລາວ") ||
		rows[0][8] != "section_urls" || rows[1][8] != "1" || rows[1][9] != "http://ja.test/th/" {
		t.Errorf("%s: %q", FileCandidates, rows)
	}
}

// TestFocusingOffNoCandidates: without a target language nothing is
// turned away for its language, so there are no candidates to show.
func TestFocusingOffNoCandidates(t *testing.T) {
	out := buildCandidateDir(t)
	if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte("depth: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Candidates) != 0 {
		t.Errorf("candidates with focusing off: %+v", r.Candidates)
	}
	if len(r.Seeds) != 3 { // the three crawl.log names
		t.Errorf("seeds %+v", r.Seeds)
	}
}

// TestJSONRoundTrip writes a report as JSON and reads it back unchanged,
// and checks that WriteFiles leaves the same JSON in report.json.
func TestJSONRoundTrip(t *testing.T) {
	for name, out := range map[string]string{"thai": buildCrawlDir(t, thaiProfile), "candidates": buildCandidateDir(t)} {
		t.Run(name, func(t *testing.T) {
			r, err := Build(out)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := r.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := ReadJSON(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, r) {
				t.Errorf("JSON round trip changed the report\n got %+v\nwant %+v", back, r)
			}
			if len(r.Seeds) == 0 || len(r.MIMETypes) == 0 {
				t.Errorf("nothing to round-trip: %d seeds, %d MIME types", len(r.Seeds), len(r.MIMETypes))
			}
			dir := t.TempDir()
			if err := r.WriteFiles(dir); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, FileJSON))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, buf.Bytes()) {
				t.Errorf("%s differs from WriteJSON", FileJSON)
			}
		})
	}
	if _, err := ReadJSON(strings.NewReader("{")); err == nil {
		t.Error("ReadJSON of a cut document: no error")
	}
}

// TestCandidatesFromLaterGeneration: a re-crawl's capture of a page rejects
// links of its own (a server judged irrelevant in an earlier generation),
// and they count toward the candidate hosts; an independent re-crawl trial
// found generation 2's rejections missing, hiding the very servers a
// curator should re-seed. A resumed crawl's second capture of a page in
// the same generation, and a third generation's capture of the same page
// with the same link, count once.
func TestCandidatesFromLaterGeneration(t *testing.T) {
	out := t.TempDir()
	link := `http://en2th.test/ L a/@href rejected:focus:irrelevant-server anchor:"ข่าวไทย"`
	for i, gen := range []int64{1, 2, 2, 3} {
		at := t0.Add(time.Duration(i) * 24 * time.Hour)
		w, err := archive.NewWriter(archive.Config{Dir: filepath.Join(out, WARCDir), Prefix: fmt.Sprint("g", i), Compress: true,
			Hostname: "h", Software: "langcrawl test", Now: func() time.Time { return at }})
		if err != nil {
			t.Fatal(err)
		}
		w.SetGeneration(gen)
		p := page{url: "http://th.test/", tree: "th.test", lang: "th", charset: "utf-8", relevant: true}
		if gen >= 2 {
			p.outlinks = []string{link}
		}
		const body = "<html>x</html>"
		resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		ref, err := w.WriteExchange(&archive.Exchange{URL: p.url, IP: "192.0.2.1", Date: at,
			RawRequest: []byte("GET / HTTP/1.1\r\n\r\n"), RawResponse: []byte(resp), BodyOffset: len(resp) - len(body)})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteMetadata(p.url, ref.ResponseID, at, p.fields()); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte("focus:\n  language: th\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Candidates) != 1 || r.Candidates[0].Host != "en2th.test" || r.Candidates[0].Links != 1 || r.Candidates[0].Referrers != 1 {
		t.Errorf("candidates %+v, want en2th.test with 1 rejected link from 1 page", r.Candidates)
	}
}

// TestCandidateOrder: after section URLs, the hosts on a target's national
// domain come first, then those target-language pages link to, then those
// never fetched before those sampled and found foreign, then by referring
// pages of other hosts; a host's own pages are no referrers. Trials found
// hidden target servers, never fetched and linked from two foreign pages
// each, below servers already sampled, past the 25 rows the markdown shows;
// a review found a version that put every host never fetched first burying
// a host twenty Thai pages link to.
func TestCandidateOrder(t *testing.T) {
	en := func(u string, links ...string) page {
		return page{url: u, depth: 0, tree: strings.Split(strings.TrimPrefix(u, "http://"), "/")[0], lang: "en", charset: "utf-8", outlinks: links}
	}
	crawl := []page{
		{url: "http://th.test/", depth: 0, tree: "th.test", lang: "th", charset: "utf-8", relevant: true, outlinks: []string{
			`http://hub.test/ L a/@href rejected:focus:irrelevant-dest`}},
		en("http://sampled.test/", `http://sampled.test/1 L a/@href rejected:focus:irrelevant-server`,
			`http://sampled.test/2 L a/@href rejected:focus:irrelevant-server`, `http://sampled.test/3 L a/@href rejected:focus:irrelevant-server`,
			`http://hidden.test/ L a/@href rejected:focus:unvisited-server`),
		en("http://sampled.test/p", `http://sampled.test/4 L a/@href rejected:focus:irrelevant-server`,
			`http://hidden.test/x L a/@href rejected:focus:unvisited-server`,
			`http://secret.co.th/ L a/@href rejected:focus:unvisited-server`),
		en("http://other.test/", `http://sampled.test/5 L a/@href rejected:focus:irrelevant-dest`),
		en("http://hub.test/"),
	}
	got := candidateRows(t, crawl)
	want := []string{"secret.co.th:1/0/0", "hub.test:1/1/1", "hidden.test:2/0/0", "sampled.test:1/0/2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("candidates (host:referrers/in th/pages fetched)\n got %v\nwant %v", got, want)
	}
}

// candidateRows builds the report of a Thai crawl of pages and returns its
// candidate hosts in order, each as "host:referrers/in th/pages fetched".
func candidateRows(t *testing.T, crawl []page) []string {
	t.Helper()
	out := t.TempDir()
	writeWARC(t, filepath.Join(out, WARCDir), t0, crawl)
	if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte("seeds: [http://th.test/]\nfocus:\n  language: th\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Candidates {
		got = append(got, fmt.Sprintf("%s:%d/%d/%d", c.Host, c.Referrers, c.TargetReferrers, c.Pages))
	}
	return got
}

// TestCandidateEnteredFromTargetPage: a host the crawl entered through a
// link of a target-language page of another host, then turned away, has
// that page among its referrers, first in the sample. A trial (twenty-third
// session) found a Hindi shop a Hindi hub linked to, cut at T+1, listed
// with no referring page at all: the hub's link had been followed, not
// rejected, and only rejected links and dropped URLs counted.
func TestCandidateEnteredFromTargetPage(t *testing.T) {
	pages := []page{
		{url: "http://hub.test/", depth: 0, tree: "hub.test", lang: "hi", charset: "utf-8", relevant: true, outlinks: []string{
			`http://shop.test/ L a/@href anchor:"दुकान"`,
		}},
		{url: "http://en.test/", depth: 0, tree: "en.test", lang: "en", charset: "utf-8", outlinks: []string{
			`http://shop.test/p/1 L a/@href`,
		}},
		{url: "http://shop.test/", depth: 1, tree: "hub.test", lang: "en", charset: "utf-8", via: "http://hub.test/", outlinks: []string{
			`http://shop.test/p/2 L a/@href`,
		}},
		{url: "http://shop.test/p/1", depth: 1, tree: "en.test", lang: "en", charset: "utf-8", via: "http://en.test/"},
		// Its own pages are no referrers.
		{url: "http://shop.test/p/3", depth: 2, tree: "hub.test", lang: "en", charset: "utf-8", via: "http://shop.test/"},
	}
	const log = `2026-01-01T00:00:01.000Z   200       1000 http://hub.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:hi,charset:utf-8
2026-01-01T00:00:02.000Z   200       1000 http://en.test/ - - text/html #001 20260101000000000+12 sha1:AAB - lang:en,charset:utf-8
2026-01-01T00:00:03.000Z   200        500 http://shop.test/ L http://hub.test/ text/html #002 20260101000100000+12 sha1:BBB - lang:en,charset:utf-8
2026-01-01T00:00:04.000Z   200        500 http://shop.test/p/1 L http://en.test/ text/html #002 20260101000100000+12 sha1:BBC - lang:en,charset:utf-8
2026-01-01T00:00:05.000Z   200        500 http://shop.test/p/3 LL http://shop.test/ text/html #002 20260101000100000+12 sha1:BBD - lang:en,charset:utf-8
2026-01-01T00:00:06.000Z -5003          0 http://shop.test/p/2 LL http://shop.test/ - #002 - - - focus:dropped:shop.test
`
	const profile = "focus:\n  language: hi\n  strategy: conservative-server\n  tolerance: 2\n"
	r, err := Build(writeCrawlOut(t, pages, log, profile))
	if err != nil {
		t.Fatal(err)
	}
	var c *Candidate
	for i := range r.Candidates {
		if r.Candidates[i].Host == "shop.test" {
			c = &r.Candidates[i]
		}
	}
	if c == nil {
		t.Fatalf("shop.test is no candidate: %+v", r.Candidates)
	}
	if c.Referrers != 2 || c.TargetReferrers != 1 || len(c.ReferrerSample) == 0 || c.ReferrerSample[0] != "http://hub.test/" {
		t.Errorf("shop.test: %d referrers, %d in the target, sample %v; want 2, 1, the hub first", c.Referrers, c.TargetReferrers, c.ReferrerSample)
	}
}

// TestCandidateTextsAround: the text around a link focusing turned away,
// which the crawl writes before its anchor, is shown with the candidate
// host (the most frequent first), beside the anchors: a host name as the
// anchor says little, the line beside it says what the site is.
func TestCandidateTextsAround(t *testing.T) {
	const line = "– arquivo de música popular portuguesa"
	pages := []page{{url: "http://en.test/", depth: 0, tree: "en.test", lang: "en", charset: "utf-8", outlinks: []string{
		`http://fado.test/ L a/@href rejected:focus:unvisited-server around:"` + line + `" anchor:"www.fado.test"`,
		`http://fado.test/a L a/@href rejected:focus:unvisited-server around:"` + line + `" anchor:"Website"`,
		`http://fado.test/b L a/@href rejected:focus:unvisited-server around:"Read more about it"`,
		`http://fado.test/c L a/@href rejected:focus:unvisited-server anchor:"fado"`, // an older crawl: no text around
		`http://fado.test/d L a/@href rejected:focus:unvisited-server around:"Casa do Fado" anchor:"d"`,
		`http://fado.test/e L a/@href rejected:focus:unvisited-server around:"Lisboa" anchor:"e"`,
		`http://fado.test/f L a/@href rejected:focus:unvisited-server around:"Lisboa" anchor:"f"`,
	}}}
	log := "2026-01-01T00:00:01.000Z   200       1000 http://en.test/ - - text/html #001 20260101000000000+12 sha1:AAA - lang:en,charset:utf-8\n"
	out := writeCrawlOut(t, pages, log, "focus:\n  language: pt\n  strategy: evidence\n")
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Candidates) != 1 || r.Candidates[0].Host != "fado.test" {
		t.Fatalf("candidates %+v", r.Candidates)
	}
	// The three most frequent, most frequent first, ties in the texts'
	// byte order: "Read more about it", after "Casa do Fado", is left out.
	if got, want := r.Candidates[0].Around, []Count{{"Lisboa", 2}, {line, 2}, {"Casa do Fado", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("texts around %+v, want %+v", got, want)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if want := `"Website", "d", "e", "f", "fado"; beside: "Lisboa"`; !strings.Contains(md.String(), want) {
		t.Errorf("markdown lacks %q:\n%s", want, md.String())
	}
	rows := candidatesCSV(t, r)
	last := len(rows[0]) - 1
	if rows[0][last] != "texts_around" || rows[1][last] != "Lisboa | "+line+" | Casa do Fado" {
		t.Errorf("%s: last column %q / %q", FileCandidates, rows[0][last], rows[1][last])
	}
}

// candidatesCSV writes r's files and returns the rows of its
// candidate-hosts.csv, the header first.
func candidatesCSV(t *testing.T, r *Report) [][]string {
	t.Helper()
	dir := t.TempDir()
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, FileCandidates))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestSeedsFileSeedsListed: seeds.csv lists each seed of the profile's
// seeds file, fetched or not. Before, only those crawl.log named were
// listed, so a crawl stopped by its budget showed one of a seeds file's
// four seeds and said nothing of the other three (a README trial).
func TestSeedsFileSeedsListed(t *testing.T) {
	out := t.TempDir()
	writeWARC(t, filepath.Join(out, WARCDir), t0, []page{
		{url: "http://th.test/", depth: 0, tree: "th.test", lang: "th", charset: "utf-8", relevant: true},
	})
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	if err := os.WriteFile(seeds, []byte("# four seeds\nhttp://th.test/\nhttp://b.test/\nc.test\nhttp://d.test/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := fmt.Sprintf("seeds: [http://a.test/]\nseeds_file: %s\nfocus:\n  language: th\n", seeds)
	if err := os.WriteFile(filepath.Join(out, ProfileFile), []byte(prof), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range r.Seeds {
		got[s.URL] = s.InProfile
	}
	for _, u := range []string{"http://a.test/", "http://th.test/", "http://b.test/", "http://c.test/", "http://d.test/x"} {
		if in, ok := got[u]; !ok || !in {
			t.Errorf("seed %s: listed %v, in profile %v; seeds %v", u, ok, in, got)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d seeds listed, want 5: %v", len(got), got)
	}
	// A seeds file since removed is said, and the rest still reported.
	if err := os.Remove(seeds); err != nil {
		t.Fatal(err)
	}
	r, err = Build(out)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, w := range r.Warnings {
		warned = warned || strings.Contains(w, "seeds_file")
	}
	if !warned {
		t.Errorf("a seeds file gone is not said: %v", r.Warnings)
	}
}
