package hostile

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Kind says which listener plays a case's host.
type Kind string

const (
	HTTP Kind = "http" // net/http, routed on the Host header
	Raw  Kind = "raw"  // raw TCP: the case writes the bytes itself
	TLS  Kind = "tls"  // HTTPS with a self-signed certificate
)

// Case is one hostile host.
type Case struct {
	Name string // short and stable, e.g. "slow-drip"
	Host string // the host name it plays, under .test
	Kind Kind
	What string // what the server does, in a few words
}

// Seed is the URL a crawl starts the case from.
func (c Case) Seed() string {
	if c.Kind == TLS {
		return "https://" + c.Host + "/"
	}
	return "http://" + c.Host + "/"
}

// URL is the case's URL for path.
func (c Case) URL(path string) string {
	return strings.TrimSuffix(c.Seed(), "/") + path
}

const (
	tlsHost       = "selfsigned.test"
	blackholeHost = "blackhole.test"
)

// Sizes of the hostile payloads.
const (
	DripInterval  = 100 * time.Millisecond // slow drip: one byte this often
	BombInflated  = 2 << 30                // gzip bomb: bytes after gunzip
	ManyLinks     = 100_000                // links on one page
	NestDepth     = 100_000                // nested <div>s
	ChainLength   = 50                     // redirects in the long chain
	FloodHeaders  = 10_000                 // header lines in the flood
	BigHeaderSize = 10 << 20               // one header line
	RobotsSize    = 50 << 20               // the huge robots.txt
	FloodInterims = 10_000                 // 100 Continue before the answer
	FarmPace      = 30 * time.Millisecond  // the fresh-domain farm's wait before each page
)

var cases = []Case{
	{"slow-drip", "drip.test", HTTP, "a byte every 100 ms of a 100 kB body"},
	{"endless-body", "endless.test", HTTP, "a chunked HTML body that never ends"},
	{"gzip-bomb", "gzip-bomb.test", HTTP, "2 MB of gzip that inflates to 2 GiB"},
	{"content-length-longer", "cl-long.test", Raw, "Content-Length 100x the body, then close"},
	{"content-length-shorter", "cl-short.test", Raw, "Content-Length shorter than the body, which holds a forged second response"},
	{"header-flood", "header-flood.test", Raw, "10,000 header lines"},
	{"header-10mb-line", "big-header.test", Raw, "one 10 MB header line"},
	{"header-bad-line", "bad-header.test", Raw, "a header line with no colon, holding a tab, a vertical tab and invalid UTF-8"},
	{"links-100k", "links.test", HTTP, "a page with 100,000 links"},
	{"redirect-loop", "redirect-loop.test", HTTP, "/loop1 and /loop2 redirect to each other"},
	{"redirect-chain", "redirect-chain.test", HTTP, "50 redirects in a row"},
	{"status-letters", "status-letters.test", Raw, "status line HTTP/1.1 2OO OK"},
	{"status-range", "status-range.test", Raw, "status line HTTP/1.1 1234567 Big"},
	{"status-mangled", "status-mangled.test", Raw, "status line HTTP/1.1200OK"},
	{"interim-1xx", "interim.test", Raw, "100 Continue and 103 Early Hints before the 200"},
	{"interim-flood", "interim-flood.test", Raw, "10,000 100 Continue before the 200"},
	{"invalid-chunking", "bad-chunk.test", Raw, "a chunk size that is not hex"},
	{"reset-mid-body", "reset.test", Raw, "64 KiB of a 1 MB body, then a TCP reset"},
	{"reset-once", "reset-once.test", Raw, "the first answer of / is cut mid-body by a close; the next is whole and links to /next.html"},
	{"garbage", "garbage.test", Raw, "8 KiB of random bytes, no HTTP"},
	{"http-0.9", "http09.test", Raw, "a body with no status line"},
	{"never-answers", "silent.test", Raw, "reads the request, never answers"},
	{"never-answers-robots", blackholeHost, Raw, "never answers anything, robots.txt included"},
	{"huge-robots", "huge-robots.test", HTTP, "a 50 MB robots.txt whose first lines disallow /private/, linked from /"},
	{"nested-html", "nested.test", HTTP, "100,000 nested <div>s, then a link"},
	{"url-trap", "trap.test", HTTP, "every page links to a/ below itself"},
	{"subdomain-farm", "subfarm.test", HTTP, "every page links to three fresh hosts under subfarm.test"},
	{"domain-farm", "domain-farm.test", HTTP, "every page links to a fresh domain farm-N.test, all served from one address"},
	{"invalid-utf8", "bad-utf8.test", HTTP, "invalid UTF-8 in a page declared UTF-8"},
	{"self-signed-tls", tlsHost, TLS, "HTTPS with a self-signed certificate"},
}

// Cases returns the hostile cases, in a fixed order.
func Cases() []Case { return append([]Case(nil), cases...) }

// ordinaryHosts are the well-behaved hosts beside the hostile ones.
var ordinaryHosts = []string{"ok-a.test", "ok-b.test", "ok-c.test"}

// ordinaryPages are the paths of each ordinary host; "/" links to the rest.
var ordinaryPages = []string{"/", "/1.html", "/2.html", "/3.html", "/4.html"}

// Ordinary returns the URLs of the ordinary pages. A crawl seeded with
// [Seeds] must archive every one of them.
func Ordinary() []string {
	var out []string
	for _, h := range ordinaryHosts {
		for _, p := range ordinaryPages {
			out = append(out, "http://"+h+p)
		}
	}
	return out
}

// Seeds returns the seed of every case and the home page of every ordinary
// host.
func Seeds() []string {
	var out []string
	for _, c := range cases {
		out = append(out, c.Seed())
	}
	for _, h := range ordinaryHosts {
		out = append(out, "http://"+h+"/")
	}
	return out
}

// page is a small well-formed HTML page with English text and the links.
func page(title string, links ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n", title)
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p>This is an ordinary page of the hostile suite. The quick brown fox jumps over the lazy dog, and the crawler should archive it whatever its neighbours do.</p>\n", title)
	for _, l := range links {
		fmt.Fprintf(&b, "<p><a href=\"%s\">%s</a></p>\n", l, l)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

func writeHTML(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

func redirect(w http.ResponseWriter, to string) {
	w.Header().Set("Location", to)
	w.WriteHeader(http.StatusFound)
}

// fresh returns n URLs of hosts never named before, format holding one
// number: a link farm's next names.
func (s *Server) fresh(format string, n int) []string {
	var out []string
	for range n {
		out = append(out, fmt.Sprintf(format, s.farmed.Add(1)))
	}
	return out
}

// serveHTTP routes the HTTP listener on the Host header.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	host, path := hostOnly(r.Host), r.URL.Path
	for _, h := range ordinaryHosts {
		if host == h {
			serveOrdinary(w, r, h)
			return
		}
	}
	if path == "/robots.txt" && host != "huge-robots.test" {
		http.NotFound(w, r)
		return
	}
	switch {
	case host == "subfarm.test" || strings.HasSuffix(host, ".subfarm.test"):
		writeHTML(w, page("farm "+host, s.fresh("http://s%d.subfarm.test/", 3)...))
		return
	case host == "domain-farm.test" || strings.HasPrefix(host, "farm-") && strings.HasSuffix(host, ".test"):
		// Each page a little slow, as a farm on one busy server is, so
		// that the subdomain farm (fast, three links a page) meets its
		// own bound before this one has filled the address's.
		select {
		case <-time.After(FarmPace):
		case <-r.Context().Done():
		case <-s.done:
		}
		writeHTML(w, page("farm "+host, s.fresh("http://farm-%d.test/", 1)...))
		return
	}
	switch host {
	case "drip.test":
		s.drip(w, r)
	case "endless.test":
		s.endless(w, r)
	case "gzip-bomb.test":
		body := gzipBomb()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	case "links.test":
		if path == "/" {
			writeHTML(w, manyLinks())
			return
		}
		writeHTML(w, page("links.test "+path))
	case "redirect-loop.test":
		switch path {
		case "/", "/loop2":
			redirect(w, "/loop1")
		case "/loop1":
			redirect(w, "/loop2")
		default:
			http.NotFound(w, r)
		}
	case "redirect-chain.test":
		n := 0
		if rest, ok := strings.CutPrefix(path, "/r/"); ok {
			n, _ = strconv.Atoi(rest)
		}
		switch {
		case path == "/":
			redirect(w, "/r/1")
		case n >= 1 && n < ChainLength:
			redirect(w, fmt.Sprintf("/r/%d", n+1))
		case n == ChainLength:
			redirect(w, "/final.html")
		case path == "/final.html":
			writeHTML(w, page("end of the chain"))
		default:
			http.NotFound(w, r)
		}
	case "huge-robots.test":
		if path == "/robots.txt" {
			s.hugeRobots(w, r)
			return
		}
		writeHTML(w, page("behind a huge robots.txt", "/private/secret.html"))
	case "nested.test":
		if path == "/" {
			writeHTML(w, nested())
			return
		}
		writeHTML(w, page("after the nesting"))
	case "trap.test":
		if !strings.HasSuffix(path, "/") {
			http.NotFound(w, r)
			return
		}
		writeHTML(w, page("trap "+path, "a/"))
	case "bad-utf8.test":
		if path == "/" {
			body := []byte("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>bad \xff\xfe utf-8</title></head><body>\n" +
				"<p>Declared UTF-8, but: \xc3\x28 \xa0\xa1 \xe2\x28\xa1 \xe2\x82\x28 \xf0\x28\x8c\xbc \xf8\xa1\xa1\xa1\xa1 \xed\xa0\x80 \xc0\xaf</p>\n" +
				"<p><a href=\"/ok\xff.html\">broken link</a> <a href=\"/ok.html\">the next page</a></p></body></html>\n")
			writeHTML(w, body)
			return
		}
		writeHTML(w, page("bad-utf8.test "+path))
	default:
		http.NotFound(w, r)
	}
}

func serveOrdinary(w http.ResponseWriter, r *http.Request, host string) {
	switch r.URL.Path {
	case "/":
		writeHTML(w, page(host+" home", ordinaryPages[1:]...))
	case "/1.html", "/2.html", "/3.html", "/4.html":
		writeHTML(w, page(host+" "+r.URL.Path, "/"))
	default:
		http.NotFound(w, r)
	}
}

// serveTLS is the self-signed host: an ordinary two-page site.
func serveTLS(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		writeHTML(w, page("self-signed home", "/2.html"))
	case "/2.html":
		writeHTML(w, page("self-signed page two", "/"))
	default:
		http.NotFound(w, r)
	}
}

// drip declares a 100 kB body and sends one byte of it every DripInterval
// until the client hangs up.
func (s *Server) drip(w http.ResponseWriter, r *http.Request) {
	const size = 100_000
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	rc.Flush()
	tick := time.NewTicker(DripInterval)
	defer tick.Stop()
	body := bytes.Repeat([]byte("<p>drip</p>\n"), size/12+1)[:size]
	for i := range size {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-tick.C:
		}
		if _, err := w.Write(body[i : i+1]); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// endless writes HTML, chunked, until the client hangs up.
func (s *Server) endless(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte("<!DOCTYPE html>\n<html><head><title>endless</title></head><body>\n"))
	chunk := bytes.Repeat([]byte("<p>and on and on and on</p>\n"), 32<<10/28)
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		default:
		}
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// hugeRobots streams a RobotsSize robots.txt: a few rules, then comments.
func (s *Server) hugeRobots(w http.ResponseWriter, r *http.Request) {
	head := "User-agent: *\nDisallow: /private/\n"
	line := "# " + strings.Repeat("padding ", 12) + "\n"
	w.Header().Set("Content-Type", "text/plain")
	w.Header().Set("Content-Length", strconv.Itoa(RobotsSize))
	buf := bytes.NewBufferString(head)
	for buf.Len() < 64<<10 {
		buf.WriteString(line)
	}
	block := buf.Bytes()[len(head):]
	sent := 0
	write := func(p []byte) bool {
		p = p[:min(len(p), RobotsSize-sent)]
		n, err := w.Write(p)
		sent += n
		return err == nil && sent < RobotsSize
	}
	if !write([]byte(head)) {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		default:
		}
		if !write(block) {
			return
		}
	}
}

var (
	bombOnce  sync.Once
	bombBytes []byte
	linksOnce sync.Once
	linksBody []byte
	nestOnce  sync.Once
	nestBody  []byte
)

// gzipBomb is a multi-member gzip body (RFC 1952 section 2.2) of about
// 2 MB that inflates to BombInflated bytes: an HTML start, then spaces.
// One member of 16 MiB is compressed once and repeated.
func gzipBomb() []byte {
	bombOnce.Do(func() {
		const member = 16 << 20
		var one bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&one, gzip.BestCompression)
		zw.Write(bytes.Repeat([]byte(" "), member))
		zw.Close()
		var b bytes.Buffer
		zw, _ = gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write([]byte("<!DOCTYPE html>\n<html><head><title>bomb</title></head><body><p>boom</p>\n"))
		zw.Close()
		for range BombInflated / member {
			b.Write(one.Bytes())
		}
		bombBytes = b.Bytes()
	})
	return bombBytes
}

func manyLinks() []byte {
	linksOnce.Do(func() {
		var b bytes.Buffer
		b.WriteString("<!DOCTYPE html>\n<html><head><title>many links</title></head><body>\n")
		for i := range ManyLinks {
			fmt.Fprintf(&b, "<a href=\"/p/%d\">%d</a>\n", i, i)
		}
		b.WriteString("</body></html>\n")
		linksBody = b.Bytes()
	})
	return linksBody
}

func nested() []byte {
	nestOnce.Do(func() {
		var b bytes.Buffer
		b.WriteString("<!DOCTYPE html>\n<html><head><title>nested</title></head><body>\n")
		b.WriteString(strings.Repeat("<div>", NestDepth))
		b.WriteString("deep down")
		b.WriteString(strings.Repeat("</div>", NestDepth))
		b.WriteString("\n<p><a href=\"/after.html\">after the nesting</a></p></body></html>\n")
		nestBody = b.Bytes()
	})
	return nestBody
}

// rawCases answer one request on a raw connection; they return whether
// the connection stays open for the next request.
var rawCases = map[string]func(c *rawConn, path string) bool{
	"cl-long.test": func(c *rawConn, _ string) bool {
		body := page("Content-Length longer than the body")
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", 100*len(body), body)
		return false
	},
	// The body is longer than Content-Length says: the rest is a second
	// response nobody asked for, which links to /planted.html. A client
	// that reuses the connection reads it as the answer to /second.html.
	"cl-short.test": func(c *rawConn, path string) bool {
		switch path {
		case "/":
			body := "<!DOCTYPE html>\n<html><body><p>first</p><a href=\"/second.html\">second</a></body></html>\n"
			forged := "<html><body><p>FORGED</p><a href=\"/planted.html\">planted</a></body></html>\n"
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s"+
				"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s",
				len(body), body, len(forged), forged)
		case "/second.html":
			body := page("the real second page")
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		default:
			io.WriteString(c, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
		}
		return true
	},
	"header-flood.test": func(c *rawConn, _ string) bool {
		var b bytes.Buffer
		b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
		for i := range FloodHeaders {
			fmt.Fprintf(&b, "X-Flood-%d: %d\r\n", i, i)
		}
		b.WriteString("Content-Length: 2\r\nConnection: close\r\n\r\nok")
		c.Write(b.Bytes())
		return false
	},
	"big-header.test": func(c *rawConn, _ string) bool {
		if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Big: "); err != nil {
			return false
		}
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for sent := 0; sent < BigHeaderSize; sent += len(chunk) {
			if _, err := c.Write(chunk); err != nil {
				return false
			}
		}
		io.WriteString(c, "\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
		return false
	},
	"bad-header.test": func(c *rawConn, _ string) bool {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"+
			"X-Evil\tno colon\vhere \xff\xfe\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
		return false
	},
	"status-letters.test": func(c *rawConn, _ string) bool {
		io.WriteString(c, "HTTP/1.1 2OO OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok")
		return false
	},
	"status-range.test": func(c *rawConn, _ string) bool {
		io.WriteString(c, "HTTP/1.1 1234567 Big\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok")
		return false
	},
	"status-mangled.test": func(c *rawConn, _ string) bool {
		io.WriteString(c, "HTTP/1.1200OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok")
		return false
	},
	"interim.test": func(c *rawConn, _ string) bool {
		body := page("after two interim responses")
		fmt.Fprintf(c, "HTTP/1.1 100 Continue\r\n\r\n"+
			"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"+
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
		return false
	},
	"interim-flood.test": func(c *rawConn, _ string) bool {
		flood := strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", FloodInterims)
		if _, err := io.WriteString(c, flood); err != nil {
			return false
		}
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
		return false
	},
	"bad-chunk.test": func(c *rawConn, _ string) bool {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"+
			"f\r\n<html><body><p>\r\nzz\r\nnot a chunk size\r\n0\r\n\r\n")
		return false
	},
	"reset-once.test": func(c *rawConn, path string) bool {
		// The link comes after 64 KiB: the cut answer does not hold it.
		body := strings.Repeat("<!-- padding -->\n", 4096) + string(page("A page whose first answer was cut.", "/next.html"))
		if path != "/" {
			body = string(page("The page only the whole answer links to."))
		}
		head := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", len(body))
		if path == "/" && c.nth == 1 {
			// Closed, not reset: a reset could reach the client before the
			// bytes, and this case is about a body cut after some of it.
			io.WriteString(c, head+body[:len(body)/3])
			return false
		}
		io.WriteString(c, head+body)
		return true
	},
	"reset.test": func(c *rawConn, _ string) bool {
		head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000000\r\n\r\n<!DOCTYPE html>\n<html><body>\n"
		if _, err := io.WriteString(c, head); err != nil {
			return false
		}
		c.Write(bytes.Repeat([]byte("<p>cut off</p>\n"), 64<<10/15))
		if tc, ok := c.Conn.(*net.TCPConn); ok {
			tc.SetLinger(0) // Close sends RST
		}
		return false
	},
	"garbage.test": func(c *rawConn, _ string) bool {
		rng := rand.New(rand.NewPCG(12, 6))
		b := make([]byte, 8<<10)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		b[0] = 0xff // never "HTTP/"
		c.Write(b)
		return false
	},
	"http09.test": func(c *rawConn, _ string) bool {
		io.WriteString(c, "<html><body><p>HTTP/0.9 had no status line and no headers.</p></body></html>\n")
		return false
	},
	"silent.test": func(c *rawConn, _ string) bool {
		silence(c)
		return false
	},
	blackholeHost: func(c *rawConn, _ string) bool {
		silence(c)
		return false
	},
}

// silence reads and discards until the client hangs up or the server
// closes; it never answers.
func silence(c *rawConn) {
	c.SetReadDeadline(time.Time{})
	go func() {
		<-c.done
		c.Close()
	}()
	io.Copy(io.Discard, c.r)
}

func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
