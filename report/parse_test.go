package report

import (
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseFields(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Field
	}{
		{"via: -\r\ndepth: 2\r\n", []Field{{"via", "-"}, {"depth", "2"}}},
		{"a: 1\nb:2\n", []Field{{"a", "1"}, {"b", "2"}}},
		{"outlink: http://x.test/a?b=c:d L a/@href\r\n", []Field{{"outlink", "http://x.test/a?b=c:d L a/@href"}}},
		{"a: 1\r\n  more\r\nno colon\r\n\r\nb: \r\n", []Field{{"a", "1 more"}, {"b", ""}}},
		{"", nil},
		{"last: no newline", []Field{{"last", "no newline"}}},
	} {
		if got := ParseFields([]byte(tc.in)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseFields(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseOutlink(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Outlink
		ok   bool
	}{
		{"http://a.test/ L a/@href", Outlink{URL: "http://a.test/", Hop: "L", Context: "a/@href"}, true},
		{"http://a.test/x.png E img/@src rejected:focus:irrelevant-server",
			Outlink{URL: "http://a.test/x.png", Hop: "E", Context: "img/@src", Rejected: "focus:irrelevant-server"}, true},
		{"http://a.test/4 L a/@href rejected:scope:depth 3, limit 2",
			Outlink{URL: "http://a.test/4", Hop: "L", Context: "a/@href", Rejected: "scope:depth 3, limit 2"}, true},
		{"http://a.test/ R", Outlink{URL: "http://a.test/", Hop: "R"}, true},
		// The operator's rules that admitted a followed link.
		{`http://a.co.th/ L a/@href admitted:include:\.th/;seed:host:a.co.th anchor:"หน้าแรก"`,
			Outlink{URL: "http://a.co.th/", Hop: "L", Context: "a/@href", Admitted: `include:\.th/;seed:host:a.co.th`, Anchor: "หน้าแรก"}, true},
		// Anchors, written last and Go-quoted since the crawl added them.
		{`http://a.test/ L a/@href anchor:"Home page"`,
			Outlink{URL: "http://a.test/", Hop: "L", Context: "a/@href", Anchor: "Home page"}, true},
		{`http://c.test/x L a/@href rejected:focus:irrelevant-server anchor:"ข่าว \"วันนี้\""`,
			Outlink{URL: "http://c.test/x", Hop: "L", Context: "a/@href", Rejected: "focus:irrelevant-server", Anchor: `ข่าว "วันนี้"`}, true},
		{`http://a.test/4 L a/@href rejected:scope:depth 3, limit 2 anchor:"x rejected:y anchor:\"z\""`,
			Outlink{URL: "http://a.test/4", Hop: "L", Context: "a/@href", Rejected: "scope:depth 3, limit 2", Anchor: `x rejected:y anchor:"z"`}, true},
		// The text around a rejected link, before its anchor (the
		// twenty-fifth session on); with no anchor, last.
		{`http://d.pt/ L a/@href rejected:focus:unvisited-server around:"– arquivo de \"cante\" anchor:\"x\"" anchor:"www.d.pt"`,
			Outlink{URL: "http://d.pt/", Hop: "L", Context: "a/@href", Rejected: "focus:unvisited-server", Around: `– arquivo de "cante" anchor:"x"`, Anchor: "www.d.pt"}, true},
		{`http://d.pt/ L a/@href rejected:focus:unvisited-server around:"– arquivo"`,
			Outlink{URL: "http://d.pt/", Hop: "L", Context: "a/@href", Rejected: "focus:unvisited-server", Around: "– arquivo"}, true},
		// A tail that does not unquote is no anchor: it stays in the reason.
		{`http://a.test/ L a/@href rejected:odd anchor:"open`,
			Outlink{URL: "http://a.test/", Hop: "L", Context: "a/@href", Rejected: `odd anchor:"open`}, true},
		{`http://a.test/ L a/@href anchor:"a" more`,
			Outlink{URL: "http://a.test/", Hop: "L", Context: "a/@href", Rejected: ""}, true},
		{"http://a.test/", Outlink{}, false},
		{"", Outlink{}, false},
		{"   ", Outlink{}, false},
	} {
		got, ok := ParseOutlink(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseOutlink(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseLogLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want LogLine
		err  bool
	}{
		{
			in: "2026-01-01T00:00:01.000Z   200       1000 http://a.test/ L http://b.test/ text/html #001 20260101000000000+12 sha1:AAA - lang:th,charset:tis-620",
			want: LogLine{Time: time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC), Status: 200, Size: 1000, URL: "http://a.test/",
				Hops: "L", Via: "http://b.test/", MIME: "text/html", Annotations: []string{"lang:th", "charset:tis-620"}},
		},
		{
			in: "2026-01-01T00:00:01.000Z    -4          0 http://a.test/ - - - #002 - - - err:read tcp: i/o timeout, peer gone,truncated:time",
			want: LogLine{Time: time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC), Status: -4, URL: "http://a.test/",
				Annotations: []string{"err:read tcp: i/o timeout, peer gone", "truncated:time"}},
		},
		{in: "2026-01-01T00:00:01.000Z 200 1 http://a.test/ - - - #1 - -",
			want: LogLine{Time: time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC), Status: 200, Size: 1, URL: "http://a.test/"}},
		{in: "too few columns", err: true},
		{in: "yesterday 200 1 http://a.test/ - - - #1 - - - -", err: true},
		{in: "2026-01-01T00:00:01.000Z OK 1 http://a.test/ - - - #1 - - - -", err: true},
		{in: "2026-01-01T00:00:01.000Z 200 big http://a.test/ - - - #1 - - - -", err: true},
	} {
		got, err := ParseLogLine(tc.in)
		if tc.err {
			if !errors.Is(err, ErrLogLine) {
				t.Errorf("ParseLogLine(%q): error %v, want ErrLogLine", tc.in, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseLogLine(%q)\n got %+v, %v\nwant %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestAnnotationKind(t *testing.T) {
	for in, want := range map[string]string{
		"lang:th":            "",
		"charset:utf-8":      "",
		"truncated:length":   "truncated:length",
		"max-pages-per-site": "max-pages-per-site",
		// The site stays, as the domain does (since the nineteenth session).
		"max-pages-per-site:big.test": "max-pages-per-site:big.test",
		// The guard's domain or address stays: which of them a farm hit.
		"max-pages-per-domain:farm.test":  "max-pages-per-domain:farm.test",
		"max-sites-per-address:192.0.2.7": "max-sites-per-address:192.0.2.7",
		"focus:irrelevant-server":         "focus:irrelevant-server",
		"focus:dropped:a.test":            "focus:dropped",
		// One kind for every duplicate, its URL left out (a trap trial
		// found "utm source=fb&utm " and a row per duplicate).
		"revisit:duplicate-of:http://p.test/news.html?utm_source=fb&utm_medium=social":       "revisit:duplicate-of",
		"err:dial tcp 127.0.0.1:80: connect: connection refused":                             "err:connection refused",
		"robots: disallowed by http://a.test/robots.txt for ua":                              "robots:disallowed",
		"robots: http://a.test/robots.txt returned 503, disallow until 2026-11-22T02:00:19Z": "robots:returned 503",
		"err:" + strings.Repeat("x y", 40):                                                   "err:" + strings.Repeat("x y", 40)[:60],
	} {
		if got := annotationKind(in); got != want {
			t.Errorf("annotationKind(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseFields(f *testing.F) {
	f.Add([]byte("via: -\r\ndepth: 2\r\noutlink: http://a.test/ L a/@href\r\n"))
	f.Add([]byte("a:\n \n:\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fl := range ParseFields(data) {
			if strings.Contains(fl.Name, "\n") || strings.Contains(fl.Value, "\n") {
				t.Fatalf("field %q holds a line break", fl)
			}
			if fl.Value != strings.TrimSpace(fl.Value) {
				t.Fatalf("value %q not trimmed", fl.Value)
			}
		}
	})
}

func FuzzParseOutlink(f *testing.F) {
	f.Add("http://a.test/ L a/@href rejected:scope:depth 3, limit 2")
	f.Add("x E")
	f.Add(`http://c.test/x L a/@href rejected:focus:irrelevant-server anchor:"ข่าว \"x\""`)
	f.Add(`http://d.pt/ L a/@href rejected:focus:unvisited-server around:"– arquivo \"x\"" anchor:"www.d.pt"`)
	f.Fuzz(func(t *testing.T, v string) {
		o, ok := ParseOutlink(v)
		if !ok {
			return
		}
		if o.URL == "" || o.Hop == "" || strings.Contains(o.URL, " ") || strings.Contains(o.Hop, " ") {
			t.Fatalf("ParseOutlink(%q) = %+v", v, o)
		}
		// Writing it back the way the crawler does reads the same.
		s := o.URL + " " + o.Hop + " " + o.Context
		if o.Rejected != "" {
			s += " rejected:" + o.Rejected
		}
		if o.Around != "" {
			s += " around:" + strconv.Quote(o.Around)
		}
		if o.Anchor != "" {
			s += " anchor:" + strconv.Quote(o.Anchor)
		}
		if o.Context != "" && !strings.Contains(o.Context, " ") && strings.TrimSpace(o.Rejected) == o.Rejected {
			if o2, ok := ParseOutlink(s); !ok || o2 != o {
				t.Fatalf("round trip of %+v gave %+v", o, o2)
			}
		}
	})
}

func FuzzParseLogLine(f *testing.F) {
	f.Add("2026-01-01T00:00:01.000Z   200       1000 http://a.test/ L http://b.test/ text/html #001 20260101000000000+12 sha1:AAA - lang:th,charset:tis-620")
	f.Add("2026-01-01T00:00:01.000Z    -4          0 http://a.test/ - - - #002 - - - err:a, b,c")
	f.Fuzz(func(t *testing.T, line string) {
		l, err := ParseLogLine(line)
		if err != nil {
			if !errors.Is(err, ErrLogLine) {
				t.Fatalf("error %v does not wrap ErrLogLine", err)
			}
			return
		}
		if l.URL == "" || strings.ContainsAny(l.URL, " \t\n") {
			t.Fatalf("URL %q", l.URL)
		}
		for _, a := range l.Annotations {
			if a == "" || (utf8.ValidString(line) && !strings.Contains(line, strings.Fields(a)[0])) {
				t.Fatalf("annotation %q not from %q", a, line)
			}
		}
	})
}

// BenchmarkBuild reads a crawl of 3000 pages with 20 outlinks each.
func BenchmarkBuild(b *testing.B) {
	out := b.TempDir()
	var pages []page
	for i := range 3000 {
		p := page{url: "http://h" + itoa(i%50) + ".test/" + itoa(i), depth: i % 9, tree: "h" + itoa(i%50) + ".test",
			lang: "th", charset: "utf-8", relevant: i%3 != 0}
		for j := range 20 {
			p.outlinks = append(p.outlinks, "http://h"+itoa((i+j)%70)+".test/"+itoa(j)+" L a/@href")
		}
		pages = append(pages, p)
	}
	writeWARC(b, filepath.Join(out, WARCDir), t0, pages)
	b.ReportAllocs()
	for b.Loop() {
		r, err := Build(out)
		if err != nil || r.Pages != 3000 {
			b.Fatal(err)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
