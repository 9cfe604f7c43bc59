package webgen

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	htmlpkg "html"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// fakeClock advances one millisecond per reading.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// fakeSleep records the delays asked for and does not wait.
type fakeSleep struct {
	mu    sync.Mutex
	calls []time.Duration
}

func (f *fakeSleep) Sleep(_ context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, d)
	return nil
}

func (f *fakeSleep) n() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// start serves g on a loopback listener and returns a client that dials
// every .test host there and does not follow redirects.
func start(t *testing.T, g *Graph, opts ServerOptions) (*Server, *http.Client, func() *http.Client) {
	t.Helper()
	s := NewServer(g, opts)
	srv, ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	newClient := func() *http.Client {
		tr := &http.Transport{DialContext: DialContext(ln.Addr().String()), DisableCompression: true}
		t.Cleanup(tr.CloseIdleConnections)
		return &http.Client{
			Transport:     tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			Timeout:       20 * time.Second,
		}
	}
	return s, newClient(), newClient
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, []byte) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", u, err)
	}
	return resp, body
}

// hrefs returns the href attributes of the <a> elements of an HTML page.
func hrefs(t *testing.T, doc string) []string {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for n := range root.Descendants() {
		if n.Type == html.ElementNode && n.Data == "a" {
			for _, a := range n.Attr {
				if a.Key == "href" {
					out = append(out, a.Val)
				}
			}
		}
	}
	return out
}

var metaCharset = regexp.MustCompile(`<meta[^>]*charset=["]?([A-Za-z0-9_-]+)`)

// TestServeMatchesTruth fetches every URL of the demo web's truth table and
// checks the status, the charset declarations, that the bytes decode with
// the true charset to the page's text, and that the links are the graph's.
func TestServeMatchesTruth(t *testing.T) {
	g := demo(t)
	sl := &fakeSleep{}
	_, c, _ := start(t, g, ServerOptions{Sleep: sl.Sleep})
	checked := map[Decl]int{}
	for _, tr := range g.TruthTable() {
		if strings.HasSuffix(tr.URL, "/endless") {
			continue // TestSpecialCases reads a part of it
		}
		resp, body := get(t, c, tr.URL)
		if resp.StatusCode != tr.Status {
			t.Errorf("GET %s: status %d, want %d", tr.URL, resp.StatusCode, tr.Status)
			continue
		}
		if tr.Lang == "" || tr.Page < 0 {
			continue
		}
		kind := g.pageKind(tr.Page)
		if kind == kindCalendar || kind == kindMalformed {
			continue
		}
		if kind == kindGzip {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("%s: %v", tr.URL, err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: %v", tr.URL, err)
			}
		}
		checkDecl(t, tr, resp.Header.Get("Content-Type"), body)
		checked[tr.Decl]++

		// Round trip: the true charset decodes the bytes to the text.
		enc, err := Encoding(tr.Charset)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := enc.NewDecoder().Bytes(body)
		if err != nil {
			t.Fatalf("%s: decode as %s: %v", tr.URL, tr.Charset, err)
		}
		text := htmlpkg.UnescapeString(string(dec))
		for _, part := range strings.Split(g.Text(tr.Page), "\n\n") {
			if !strings.Contains(text, part) {
				t.Fatalf("%s (%s, %v): text %q not in decoded body", tr.URL, tr.Charset, tr.Decl, part)
			}
			if tr.Charset != "utf-8" && !isASCII(part) && bytes.Contains(body, []byte(part)) {
				t.Fatalf("%s: body holds UTF-8 text though the charset is %s", tr.URL, tr.Charset)
			}
		}

		// Links: every href resolves to a page the graph links.
		base, _ := url.Parse(tr.URL)
		var got []int32
		for _, h := range hrefs(t, string(dec)) {
			ref, err := url.Parse(h)
			if err != nil {
				if !slices.Contains(g.spPagesRaw(tr.Page), h) {
					t.Errorf("%s: unparsable href %q", tr.URL, h)
				}
				continue
			}
			id, ok := g.Lookup(base.ResolveReference(ref).String())
			if !ok {
				if !slices.Contains(g.spPagesRaw(tr.Page), h) {
					t.Errorf("%s: href %q is not a page", tr.URL, h)
				}
				continue
			}
			got = append(got, id)
		}
		if want := g.Links(tr.Page); !slices.Equal(got, want) {
			t.Errorf("%s: links %v, want %v", tr.URL, got, want)
		}
	}
	for d := range numDecl {
		if checked[d] == 0 {
			t.Errorf("no page with Decl %v was checked", d)
		}
	}
}

func (g *Graph) spPagesRaw(i int32) []string {
	if i >= g.firstSpecial && g.servers[g.pageServer[i]].special != nil {
		return g.spPages[i-g.firstSpecial].raw
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// checkDecl checks the Content-Type and META charsets against tr.Decl.
func checkDecl(t *testing.T, tr Truth, ctype string, body []byte) {
	t.Helper()
	_, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		t.Fatalf("%s: Content-Type %q: %v", tr.URL, ctype, err)
	}
	header := params["charset"]
	var metas []string
	head, _, _ := bytes.Cut(body, []byte("</head>"))
	for _, m := range metaCharset.FindAllSubmatch(head, -1) {
		metas = append(metas, string(m[1]))
	}
	cs, wrong := tr.Charset, wrongCharset(tr.Charset)
	var wantHeader string
	var wantMetas []string
	switch tr.Decl {
	case DeclHeaderMeta, DeclNCR:
		wantHeader, wantMetas = cs, []string{cs}
	case DeclHeader:
		wantHeader = cs
	case DeclMeta:
		wantMetas = []string{cs}
	case DeclNone:
	case DeclWrongHeader:
		wantHeader, wantMetas = wrong, []string{cs}
	case DeclWrongMeta:
		wantMetas = []string{wrong}
	case DeclRepeatedMeta:
		wantMetas = []string{cs, wrong}
	}
	if header != wantHeader || !slices.Equal(metas, wantMetas) {
		t.Errorf("%s (%v, true %s): header charset %q metas %q; want %q %q", tr.URL, tr.Decl, cs, header, metas, wantHeader, wantMetas)
	}
	if tr.Decl == DeclNCR && tr.Target {
		if !isASCII(string(body)) || !bytes.Contains(body, []byte("&#")) {
			t.Errorf("%s: NCR page is not ASCII with character references", tr.URL)
		}
	}
}

func TestSpecialCases(t *testing.T) {
	g := demo(t)
	sl := &fakeSleep{}
	_, c, _ := start(t, g, ServerOptions{Sleep: sl.Sleep, SlowDelay: 3 * time.Second})
	tests := []struct {
		url      string
		status   int
		location string
		contains string
	}{
		{"http://th-robots.test/robots.txt", 200, "", "Disallow: /private/"},
		{"http://th-robots.test/private/1.html", 200, "", "<title>"},
		{"http://th-crawldelay.test/robots.txt", 200, "", "Crawl-delay: 1"},
		{"http://th-robots503.test/robots.txt", 503, "", ""},
		{"http://th-norobots.test/robots.txt", 404, "", ""},
		{"http://th-news0.test/robots.txt", 404, "", ""}, // not a host of the demo web
		{"http://th-redirect.test/r301", 301, "http://th-redirect.test/target1.html", ""},
		{"http://th-redirect.test/r302", 302, "http://th-redirect.test/target2.html", ""},
		{"http://th-redirect.test/chain1", 301, "http://th-redirect.test/chain2", ""},
		{"http://th-redirect.test/chain2", 302, "http://th-redirect.test/final.html", ""},
		{"http://th-redirect.test/loop1", 302, "http://th-redirect.test/loop2", ""},
		{"http://th-redirect.test/loop2", 302, "http://th-redirect.test/loop1", ""},
		{"http://th-redirect.test/offsite", 301, "http://th-norobots.test/2.html", ""},
		{"http://th-redirect.test/nope.html", 404, "", ""},
		{"http://th-redirect.test/broken.html", 200, "", `href="http://[::1"`},
		{"http://th-redirect.test/broken.html", 200, "", `href="http://bad host/"`},
		{"http://th-query.test/list.php?id=50", 200, "", `href="list.php?id=49"`},
		{"http://th-query.test/list.php?id=51", 404, "", ""},
		{"http://th-calendar.test/calendar/2026/11/", 200, "", `href="/calendar/2026/12/"`},
		{"http://th-calendar.test/calendar/2026/12/", 200, "", `href="/calendar/2027/01/"`},
		{"http://th-calendar.test/calendar/2026/13/", 404, "", ""},
		{"http://th-odd.test/malformed.html", 200, "", "\x00\x01\xff\xfe"},
		{"http://th-odd.test/style.css", 200, "", "font-family"},
		{"http://th-odd.test/img/logo.png", 200, "", "\x89PNG"},
	}
	for _, tc := range tests {
		resp, body := get(t, c, tc.url)
		if resp.StatusCode != tc.status {
			t.Errorf("GET %s: status %d, want %d", tc.url, resp.StatusCode, tc.status)
		}
		if got := resp.Header.Get("Location"); got != tc.location {
			t.Errorf("GET %s: Location %q, want %q", tc.url, got, tc.location)
		}
		if !bytes.Contains(body, []byte(tc.contains)) {
			t.Errorf("GET %s: body lacks %q", tc.url, tc.contains)
		}
		if tr, ok := g.Truth(tc.url); ok && tr.Status != resp.StatusCode {
			t.Errorf("Truth(%s).Status = %d, server says %d", tc.url, tr.Status, resp.StatusCode)
		}
	}

	// Truth: robots.
	for u, want := range map[string]bool{
		"http://th-robots.test/private/2.html": true,
		"http://th-robots.test/a.html":         false,
		"http://th-robots503.test/1.html":      false, // 503 for a moment: deferred, then fetched
		"http://th-norobots.test/1.html":       false,
	} {
		if tr, ok := g.Truth(u); !ok || tr.Disallowed != want {
			t.Errorf("Truth(%s).Disallowed = %v (ok %v), want %v", u, tr.Disallowed, ok, want)
		}
	}

	// The calendar never ends.
	u := "http://th-calendar.test/calendar/2026/11/"
	for range 30 {
		_, body := get(t, c, u)
		hs := hrefs(t, string(body))
		next := hs[len(hs)-1]
		if next == "/" || !strings.HasPrefix(next, "/calendar/") {
			t.Fatalf("%s: last link %q is not the next month", u, next)
		}
		u = "http://th-calendar.test" + next
		if tr, ok := g.Truth(u); !ok || tr.Status != 200 || !tr.Target {
			t.Fatalf("Truth(%s) = %+v, %v", u, tr, ok)
		}
	}

	// Chunked and gzip.
	resp, body := get(t, c, "http://th-odd.test/chunked.html")
	if !slices.Equal(resp.TransferEncoding, []string{"chunked"}) || !bytes.Contains(body, []byte("</html>")) {
		t.Errorf("chunked.html: Transfer-Encoding %v, %d bytes", resp.TransferEncoding, len(body))
	}
	resp, body = get(t, c, "http://th-odd.test/gzip.html")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gzip.html: Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	if zr, err := gzip.NewReader(bytes.NewReader(body)); err != nil {
		t.Errorf("gzip.html: %v", err)
	} else if plain, err := io.ReadAll(zr); err != nil || !bytes.Contains(plain, []byte("</html>")) {
		t.Errorf("gzip.html: gunzip: %v", err)
	}

	// The endless body: read 1 MiB, find no end, hang up.
	resp, err := c.Get("http://th-odd.test/endless")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.CopyN(io.Discard, resp.Body, 1<<20)
	resp.Body.Close()
	if n != 1<<20 || err != nil {
		t.Errorf("endless: read %d bytes, %v", n, err)
	}
	if resp.ContentLength != -1 {
		t.Errorf("endless: Content-Length %d", resp.ContentLength)
	}
}

func TestSlowHost(t *testing.T) {
	g := demo(t)
	sl := &fakeSleep{}
	_, c, _ := start(t, g, ServerOptions{Sleep: sl.Sleep, SlowDelay: 3 * time.Second})
	get(t, c, "http://th-robots.test/")
	if sl.n() != 0 {
		t.Fatalf("a normal host slept %v", sl.calls)
	}
	get(t, c, "http://th-slow.test/")
	get(t, c, "http://th-slow.test/robots.txt")
	if !slices.Equal(sl.calls, []time.Duration{3 * time.Second, 3 * time.Second}) {
		t.Fatalf("slow host slept %v, want 3s per response", sl.calls)
	}
	if d := NewServer(g, ServerOptions{}).opts.SlowDelay; d != 2*time.Second {
		t.Errorf("default SlowDelay %v, want 2s", d)
	}
}

func TestLogAndConnIDs(t *testing.T) {
	g := demo(t)
	clk := &fakeClock{t: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	s, c1, newClient := start(t, g, ServerOptions{Now: clk.Now})
	get(t, c1, "http://th-query.test/")
	get(t, c1, "http://th-query.test/list.php?id=2")
	get(t, c1, "http://th-query.test/list.php?id=999")
	get(t, newClient(), "http://TH-QUERY.test/")
	log := s.Log()
	if len(log) != 4 {
		t.Fatalf("%d hits, want 4: %+v", len(log), log)
	}
	want := []struct {
		host, uri string
		status    int
	}{
		{"th-query.test", "/", 200},
		{"th-query.test", "/list.php?id=2", 200},
		{"th-query.test", "/list.php?id=999", 404},
		{"th-query.test", "/", 200},
	}
	for i, h := range log {
		if h.Host != want[i].host || h.URI != want[i].uri || h.Status != want[i].status {
			t.Errorf("hit %d: %s %s %d, want %+v", i, h.Host, h.URI, h.Status, want[i])
		}
		if !h.Start.Before(h.End) || (i > 0 && !log[i-1].End.Before(h.Start)) {
			t.Errorf("hit %d: times %v–%v out of order", i, h.Start, h.End)
		}
		if h.Status == 200 && h.Bytes == 0 {
			t.Errorf("hit %d: no bytes counted", i)
		}
	}
	if log[0].ConnID == 0 || log[0].ConnID != log[1].ConnID || log[1].ConnID != log[2].ConnID {
		t.Errorf("keep-alive requests on connections %d, %d, %d", log[0].ConnID, log[1].ConnID, log[2].ConnID)
	}
	if log[3].ConnID == log[0].ConnID {
		t.Errorf("a second client shares connection %d", log[3].ConnID)
	}
}

// TestNoLog: a server with ServerOptions.NoLog answers as any other and
// keeps no request (langcrawl demo --serve, which may run for days).
func TestNoLog(t *testing.T) {
	s, c, _ := start(t, demo(t), ServerOptions{NoLog: true})
	for range 3 {
		if resp, body := get(t, c, "http://th-query.test/"); resp.StatusCode != 200 || len(body) == 0 {
			t.Fatalf("status %d, %d bytes: want the page", resp.StatusCode, len(body))
		}
	}
	if n := len(s.Log()); n != 0 {
		t.Errorf("%d requests kept, want none", n)
	}
}

func TestDialContextRefusesOtherHosts(t *testing.T) {
	dial := DialContext("127.0.0.1:1")
	for _, addr := range []string{"example.com:80", "127.0.0.1:80", "test:80", "th-news.test.example:80"} {
		if _, err := dial(context.Background(), "tcp", addr); !errors.Is(err, ErrNotTestHost) {
			t.Errorf("dial %s: %v, want ErrNotTestHost", addr, err)
		}
	}
}

func TestBytesDeterministic(t *testing.T) {
	a, b := NewServer(demo(t), ServerOptions{SlowDelay: -1}), NewServer(demo(t), ServerOptions{SlowDelay: -1})
	testSameBytes(t, a, b)
}

// TestPrerenderServesTheSame: a server with Prerender answers as one that
// renders on each request.
func TestPrerenderServesTheSame(t *testing.T) {
	a, b := NewServer(demo(t), ServerOptions{SlowDelay: -1}), NewServer(demo(t), ServerOptions{SlowDelay: -1, Prerender: true})
	if b.rendered == nil {
		t.Fatal("Prerender kept nothing")
	}
	testSameBytes(t, a, b)
}

func testSameBytes(t *testing.T, a, b *Server) {
	t.Helper()
	g := a.g
	for i := int32(0); i < int32(g.NumPages()); i++ {
		if g.pageKind(i) == kindEndless {
			continue
		}
		u := g.URL(i)
		ra, rb := httptest.NewRecorder(), httptest.NewRecorder()
		a.ServeHTTP(ra, httptest.NewRequest("GET", u, nil))
		b.ServeHTTP(rb, httptest.NewRequest("GET", u, nil))
		if ra.Code != rb.Code || !bytes.Equal(ra.Body.Bytes(), rb.Body.Bytes()) || ra.Header().Get("Content-Type") != rb.Header().Get("Content-Type") {
			t.Fatalf("%s: two servers of the same graph differ", u)
		}
		if ra.Code == 200 && ra.Body.Len() == 0 {
			t.Fatalf("%s: empty body", u)
		}
	}
}

func BenchmarkServePage(b *testing.B) {
	g, err := Generate(DemoDefaults())
	if err != nil {
		b.Fatal(err)
	}
	s := NewServer(g, ServerOptions{})
	req := httptest.NewRequest("GET", g.URL(g.Seeds()[0]), nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
	}
}
