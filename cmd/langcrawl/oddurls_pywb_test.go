package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// oddPaths are links of odd.test's home page: URLs as real sites write
// them, percent-escapes kept as written, session ids, IDN and IPv4 hosts,
// redirects, error pages, coded bodies.
func oddPaths() []string {
	long := strings.Repeat("abcdefghij", 300)
	return []string{
		"/%7Euser/", "/~tilde/", "/a%2Fb", "/a%2fc", "/sp%20ace", "/plus+sign", "/q1?q=a+b", "/q2?q=a%20b",
		"/%E0%B8%97%E0%B8%94", "/ไทยดิบ", "/q3?q=ภาษา", "/upper?Q=%7e", "/dots/./x/../y", "/empty?", "/frag#x",
		"/sort1?b=2&a=1", "/x;jsessionid=ABCDEF0123456789ABCDEF0123456789",
		"/y?PHPSESSID=0123456789abcdef0123456789abcdef", "/q6?sid=0123456789abcdef0123456789abcdef",
		"/(S(abcdefghijklmnopqrstuvwx))/page.aspx", "/double//slash", "/%41%42", "/a%3Fb", "/pct%25",
		"/q4?a=%3D&b=%26", "/q5?x=%7E", "/long?x=" + long, "/long2/" + long[:2500] + "?y=" + long[:3000],
		"/r301", "/r302", "/r307", "/r308", "/chain1", "/rfrag", "/e404", "/e500", "/noct", "/gz", "/chunked",
		"http://UPPER.TEST:80/upper", "http://dot.test./dotted", "http://ไทย.test/idn", "http://93.184.216.34/ip",
		"http://www.w.test/www",
	}
}

// oddWeb serves odd.test and the hosts it links to, and thai.test, a
// TIS-620 site whose links carry Thai in their query strings, from one
// server routed by Host.
type oddWeb struct{}

func (oddWeb) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := strings.ToLower(strings.TrimSuffix(r.Host, "."))
	uri := r.URL.RequestURI()
	if r.URL.Path == "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	if host == "thai.test" {
		w.Header().Set("Content-Type", "text/html; charset=tis-620")
		if r.URL.Path == "/" {
			// ภาษาไทย สวัสดีครับ, and a search link for ไทย (E4 B7 C2 in TIS-620).
			w.Write([]byte("<html><head><title>\xc0\xd2\xc9\xd2\xe4\xb7\xc2</title></head><body><p>" +
				strings.Repeat("\xc0\xd2\xc9\xd2\xe4\xb7\xc2 \xca\xc7\xd1\xca\xb4\xd5\xa4\xc3\xd1\xba ", 5) +
				"</p><a href=\"/search?q=\xe4\xb7\xc2\">\xe4\xb7\xc2</a></body></html>"))
			return
		}
		// The server reads the query in its own charset, as a TIS-620 site does.
		fmt.Fprintf(w, "<html><body><p>\xc0\xd2\xc9\xd2\xe4\xb7\xc2 %q</p></body></html>", r.URL.RawQuery)
		return
	}
	if host == "odd.test" && r.URL.Path == "/" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><body><p>หน้าแรก</p>\n")
		for _, l := range oddPaths() {
			fmt.Fprintf(w, "<a href=\"%s\">l</a>\n", l)
		}
		fmt.Fprint(w, "</body></html>")
		return
	}
	switch r.URL.Path {
	case "/r301":
		http.Redirect(w, r, "/t301", 301)
	case "/r302":
		w.Header().Set("Location", "t302") // relative
		w.WriteHeader(302)
	case "/r307":
		http.Redirect(w, r, "/t307", 307)
	case "/r308":
		http.Redirect(w, r, "http://other.test/t308", 308)
	case "/chain1":
		http.Redirect(w, r, "/chain2", 302)
	case "/chain2":
		http.Redirect(w, r, "/chain3", 301)
	case "/rfrag":
		http.Redirect(w, r, "/tfrag#section", 302)
	case "/e404", "/e500":
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(map[string]int{"/e404": 404, "/e500": 500}[r.URL.Path])
		fmt.Fprint(w, "<html>error "+uri+"</html>")
	case "/noct":
		w.Header()["Content-Type"] = nil
		w.Write([]byte("<html>no type " + uri + "</html>"))
	case "/gz":
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		fmt.Fprint(zw, "<html>gzip "+uri+"</html>")
		zw.Close()
	case "/chunked":
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>chunk1 ")
		w.(http.Flusher).Flush()
		fmt.Fprint(w, uri+"</html>")
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><p>หน้า host=%s uri=%q</p></body></html>", host, r.RequestURI)
	}
}

// crawlOddWeb crawls oddWeb from seeds into out (with --previous prev
// when prev is not ""), and returns the WARC files of out.
func crawlOddWeb(t *testing.T, addr, out, prev string, seeds ...string) []string {
	t.Helper()
	var s strings.Builder
	for _, u := range seeds {
		fmt.Fprintf(&s, "  - %s\n", u)
	}
	recrawl := ""
	if prev != "" {
		recrawl = fmt.Sprintf("recrawl: {previous: %q}\n", prev)
	}
	p := filepath.Join(t.TempDir(), "profile.yaml")
	text := fmt.Sprintf(`seeds:
%sout: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: 4
delay: 2ms
scope: {one_query_per_script: false, max_url_length: 10000}
retries: {max: 2, delay: 20ms, max_delay: 100ms}
network:
  connect_to:
    "*": %s
%s`, s.String(), out, addr, recrawl)
	cfg := loadProfileText(t, p, text)
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	warcs, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
	if len(warcs) == 0 {
		t.Fatalf("the crawl of %s wrote no WARC file", out)
	}
	return warcs
}

func startOddWeb(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: oddWeb{}}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// pywbServesEach asks pywb (id_, at the capture's own timestamp) for every
// capture and fails for each one not served with its archived status and
// payload.
func pywbServesEach(t *testing.T, name string, pw *pywbServer, caps []*pywbCapture) {
	t.Helper()
	ok := 0
	for _, c := range caps {
		res, body, err := pw.get(c.ts+"id_", c.url, "identity")
		if err != nil {
			t.Errorf("%s: %s: %v", name, c.url, err)
			continue
		}
		want := c.payload
		if c.head.Get("Content-Encoding") == "gzip" {
			if want, err = pywbDecode("gzip", want); err != nil {
				t.Fatal(err)
			}
		}
		if res.StatusCode != c.status || !bytes.Equal(body, want) {
			t.Errorf("%s: %s %s: pywb id_ served %d (%d bytes), want the archived %d with %d bytes %q",
				name, c.typ, c.url, res.StatusCode, len(body), c.status, len(want), pywbTail(string(want), 80))
			continue
		}
		ok++
	}
	t.Logf("%s: %d of %d captures served", name, ok, len(caps))
}

// TestWACZKeysFoundByPywb (from a replay review) crawls URLs written as real sites write them
// (oddPaths), then replays every capture in pywb 2.9.1 three ways: from the
// WARC files (pywb indexes them itself), from the crawl's WACZ
// (`wb-manager add --unpack-wacz` merges the WACZ's index, langcrawl's own
// CDXJ lines, into the collection as they are), and, after a re-crawl with
// --previous into a new directory, from the WARC files of both crawls
// (revisits resolved across them). Each capture must be served by id_ at
// its timestamp with its archived status and payload. From the WACZ, a
// line whose key is not the one pywb computes for the URL (surt.surt) is
// never found: pywb answers 404.
func TestWACZKeysFoundByPywb(t *testing.T) {
	bin := pywbBin(t)
	addr := startOddWeb(t)
	out := t.TempDir()
	warcs := crawlOddWeb(t, addr, out, "", "http://odd.test/")
	caps := pywbCaptures(t, warcs)
	if len(caps) < 50 {
		t.Fatalf("only %d captures archived; odd.test links to %d URLs", len(caps), len(oddPaths()))
	}
	waczPath := filepath.Join(t.TempDir(), "crawl.wacz")
	if err := packageCrawl(context.Background(), out, waczPath, "", io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	t.Run("from the WARC files", func(t *testing.T) {
		pywbServesEach(t, "warc", startPywb(t, bin, warcs), caps)
	})
	t.Run("from the WACZ", func(t *testing.T) {
		pywbServesEach(t, "wacz", startPywb(t, bin, []string{"--unpack-wacz", waczPath}), caps)
	})
	t.Run("a re-crawl with --previous", func(t *testing.T) {
		out2 := filepath.Join(t.TempDir(), "out2")
		warcs2 := crawlOddWeb(t, addr, out2, out, "http://odd.test/")
		caps2 := pywbCaptures(t, append(append([]string{}, warcs...), warcs2...))
		revisits := 0
		for _, c := range caps2 {
			if c.typ == "revisit" {
				revisits++
			}
		}
		if revisits < 30 {
			t.Errorf("the re-crawl wrote %d revisit records; want one per unchanged page", revisits)
		}
		pywbServesEach(t, "warc, two crawls", startPywb(t, bin, append(append([]string{}, warcs...), warcs2...)), caps2)
	})
}
