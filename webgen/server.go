package webgen

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrNotTestHost is returned by the dialer of DialContext for a host name
// outside the .test TLD: the synthetic web never dials the real network.
var ErrNotTestHost = errors.New("webgen: not a .test host")

// ServerOptions configures a Server. The zero value is usable.
type ServerOptions struct {
	// Now is the clock for the request log. Default time.Now.
	Now func() time.Time
	// SlowDelay is how long the slow host waits before each response.
	// Default 2s; a negative value means no delay.
	SlowDelay time.Duration
	// Sleep waits d or until ctx is done; the slow host calls it before
	// each response. Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// EndlessChunk is the size of each write of the endless body. Default 16 KiB.
	EndlessChunk int
	// Prerender renders every page once, in NewServer, and serves the
	// bytes kept: for benchmarks, where rendering on each request would
	// take CPU from the crawler being measured. The responses are the
	// same. Default false.
	Prerender bool
	// Generation is the generation of the web served at first (see
	// Graph.Changes); SetGeneration changes it. Default 1, the graph as
	// generated.
	Generation int
	// NoLog keeps no request log (Log returns none). Every request is kept
	// otherwise, more than 100 bytes each, for as long as the server runs: a
	// test's record, a leak in a server left running for days, as
	// `langcrawl demo --serve` for an archivist's own crawls (a soak
	// trial's server grew so). Default false.
	NoLog bool
	// Validators makes the servers that support them
	// (ServerInfo.Validators) send ETag and Last-Modified with their pages
	// and answer a conditional request that matches with 304 Not Modified.
	// Default false: no server sends validators, as before generations
	// existed.
	Validators bool
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Hit is one request the server answered.
type Hit struct {
	Host string // without port
	URI  string // path and query, as requested
	// Start and End are when the handler began and returned, by ServerOptions.Now.
	Start, End time.Time
	// Sent is the earliest the client can have received the whole
	// response: when the handler's last write began, or End if it wrote
	// no body (net/http then sends the header after the handler
	// returns). A body larger than net/http's buffer reaches the client
	// during the write, possibly before End is taken, so a politeness
	// check measures from Sent, not End.
	Sent time.Time
	// ConnID identifies the TCP connection (1, 2, ...); 0 when the server
	// was not wired with ConnContext.
	ConnID uint64
	Status int
	Bytes  int64 // body bytes written
}

// Server serves a Graph over HTTP, routing on the Host header. It is an
// http.Handler and safe for concurrent use. NewServer starts nothing; use
// Listen, or an httptest.Server with Config.ConnContext set to
// Server.ConnContext.
type Server struct {
	g         *Graph
	opts      ServerOptions
	nextConn  atomic.Uint64
	mu        sync.Mutex
	hits      []Hit
	robots503 map[string]int // robots.txt requests so far, by host of a robots503 server
	rendered  []renderedPage // by page id, with Prerender
	gen       atomic.Int32   // the generation served
}

type renderedPage struct {
	ctype string
	body  []byte
	err   error
}

// NewServer returns a server for g.
func NewServer(g *Graph, opts ServerOptions) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.SlowDelay == 0 {
		opts.SlowDelay = 2 * time.Second
	}
	if opts.SlowDelay < 0 {
		opts.SlowDelay = 0
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	if opts.EndlessChunk <= 0 {
		opts.EndlessChunk = 16 << 10
	}
	if opts.Generation < 1 {
		opts.Generation = 1
	}
	s := &Server{g: g, opts: opts}
	s.gen.Store(int32(opts.Generation))
	if opts.Prerender {
		s.rendered = make([]renderedPage, g.NumPages())
		for id := range s.rendered {
			if k := g.pageKind(int32(id)); k != kindMissing && k != kindRedirect && k != kindEndless {
				r := &s.rendered[id]
				r.ctype, r.body, r.err = g.renderPage(int32(id))
			}
		}
	}
	return s
}

// render returns a page's content type and body, kept or rendered now.
func (s *Server) render(id int32) (string, []byte, error) {
	if s.rendered != nil {
		r := &s.rendered[id]
		return r.ctype, r.body, r.err
	}
	return s.g.renderPage(id)
}

// SetGeneration makes the server answer as the web is in generation n
// (at least 1) from the next request on; it builds the generations up to n
// first, so it returns an error for an n the graph cannot build. Requests
// in flight finish as they began.
func (s *Server) SetGeneration(n int) error {
	if _, err := s.g.generation(n); err != nil {
		return err
	}
	s.gen.Store(int32(n))
	return nil
}

// Generation returns the generation the server answers as.
func (s *Server) Generation() int { return int(s.gen.Load()) }

type connIDKey struct{}

// ConnContext numbers connections for the request log. Use it as
// http.Server.ConnContext.
func (s *Server) ConnContext(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, connIDKey{}, s.nextConn.Add(1))
}

// Listen listens on addr (such as "127.0.0.1:0") and returns an
// http.Server wired to s, and the listener. The caller runs
// srv.Serve(ln) and later srv.Close or srv.Shutdown.
func (s *Server) Listen(addr string) (*http.Server, net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("webgen: listen %s: %w", addr, err)
	}
	srv := &http.Server{Handler: s, ConnContext: s.ConnContext, ReadHeaderTimeout: 30 * time.Second}
	return srv, ln, nil
}

// DialContext returns a dial function for http.Transport.DialContext that
// connects every *.test host, whatever the port, to addr (the listener's
// address), and refuses every other host with ErrNotTestHost.
func DialContext(addr string) func(ctx context.Context, network, address string) (net.Conn, error) {
	var d net.Dialer
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			host = address
		}
		if !strings.HasSuffix(strings.ToLower(host), ".test") {
			return nil, fmt.Errorf("dial %s: %w", address, ErrNotTestHost)
		}
		return d.DialContext(ctx, "tcp", addr)
	}
}

// Log returns a copy of the requests answered so far, in the order they ended.
func (s *Server) Log() []Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Hit, len(s.hits))
	copy(out, s.hits)
	return out
}

type recorder struct {
	http.ResponseWriter
	status    int
	bytes     int64
	now       func() time.Time
	lastWrite time.Time
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.now != nil {
		r.lastWrite = r.now()
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// hostOnly strips the port and lower-cases.
func hostOnly(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.ToLower(h)
}

// ServeHTTP answers for the host in r.Host.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.opts.Now()
	rec := &recorder{ResponseWriter: w, now: s.opts.Now}
	host := hostOnly(r.Host)
	s.serve(rec, r, host)
	if s.opts.NoLog {
		return
	}
	id, _ := r.Context().Value(connIDKey{}).(uint64)
	h := Hit{Host: host, URI: r.URL.RequestURI(), Start: start, End: s.opts.Now(), ConnID: id, Status: rec.status, Bytes: rec.bytes}
	h.Sent = h.End
	if !rec.lastWrite.IsZero() {
		h.Sent = rec.lastWrite
	}
	if h.Status == 0 {
		h.Status = http.StatusOK
	}
	s.mu.Lock()
	s.hits = append(s.hits, h)
	s.mu.Unlock()
}

func (s *Server) serve(w *recorder, r *http.Request, host string) {
	g := s.g
	si, ok := g.LookupHost(host)
	if !ok {
		http.Error(w, "webgen: unknown host", http.StatusNotFound)
		return
	}
	sv := &g.servers[si]
	if sv.special != nil && sv.special.slow && s.opts.SlowDelay > 0 {
		if err := s.opts.Sleep(r.Context(), s.opts.SlowDelay); err != nil {
			return
		}
	}
	path := r.URL.EscapedPath()
	switch path {
	case "/robots.txt":
		s.serveRobots(w, sv)
		return
	case "/style.css":
		w.Header().Set("Content-Type", "text/css")
		w.Write([]byte(styleCSS))
		return
	case "/img/logo.png":
		w.Header().Set("Content-Type", "image/png")
		w.Write(logoPNG)
		return
	}
	pq := path
	if r.URL.RawQuery != "" {
		pq += "?" + r.URL.RawQuery
	}
	if sv.special != nil && sv.special.name == "calendar" {
		if y, m, ok := calendarPath(path); ok && r.URL.RawQuery == "" {
			ctype, body, err := g.renderCalendar(sv, y, m)
			s.writeBody(w, ctype, body, err)
			return
		}
	}
	if gen := int(s.gen.Load()); sv.special == nil && (gen > 1 || s.opts.Validators) {
		s.serveGeneration(w, r, si, pq, gen)
		return
	}
	id, ok := g.lookupPath(si, pq)
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch g.pageKind(id) {
	case kindMissing:
		http.NotFound(w, r)
	case kindRedirect:
		sp := &g.spPages[id-g.firstSpecial]
		w.Header().Set("Location", g.URL(sp.location))
		w.WriteHeader(sp.status)
	case kindEndless:
		s.serveEndless(w, r)
	case kindChunked:
		ctype, body, err := s.render(id)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", ctype)
		half := len(body) / 2
		w.Write(body[:half])
		w.Flush() // no Content-Length and a flush: net/http sends it chunked
		w.Write(body[half:])
	case kindGzip:
		ctype, body, err := s.render(id)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		zw.Write(body)
		zw.Close()
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(zb.Len()))
		w.Write(zb.Bytes())
	default:
		ctype, body, err := s.render(id)
		if l := g.DeclaredLang(id); l != "" {
			w.Header().Set("Content-Language", l)
		}
		s.writeBody(w, ctype, body, err)
	}
}

// serveGeneration answers for a generated server si as in generation gen,
// with validators if the options and the server say so.
func (s *Server) serveGeneration(w *recorder, r *http.Request, si int32, pq string, gen int) {
	g := s.g
	cur, err := g.generation(gen)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var (
		ctype   string
		body    []byte
		version int
	)
	if e, ok := cur.lookupExtra(g, si, pq); ok {
		ctype, body, err = g.renderExtra(e)
		version = e.gen
	} else {
		id, ok := g.lookupPath(si, pq)
		if !ok || !g.generated(id) {
			http.NotFound(w, r)
			return
		}
		ps := cur.state[id]
		switch ps.status {
		case http.StatusNotFound:
			http.NotFound(w, r)
			return
		case http.StatusGone:
			http.Error(w, "410 gone", http.StatusGone)
			return
		}
		if ps.version == 1 && len(cur.links[id]) == 0 && g.langs[ps.lang] == g.pageLang(id) {
			ctype, body, err = s.render(id) // generation 1's bytes, kept with Prerender
		} else {
			ctype, body, err = g.renderAt(cur, id)
		}
		version = int(ps.version)
		if l := g.DeclaredLang(id); l != "" {
			w.Header().Set("Content-Language", l)
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.opts.Validators && g.serverValidators(si) {
		etag := fmt.Sprintf(`"%016x"`, fnv64a(body))
		mod := lastModified(version)
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", mod.Format(http.TimeFormat))
		if notModified(r, etag, mod) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	s.writeBody(w, ctype, body, nil)
}

// notModified evaluates If-None-Match, else If-Modified-Since, for a GET
// or HEAD (RFC 9110 §13.2.2).
func notModified(r *http.Request, etag string, mod time.Time) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == etag {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		if t, err := http.ParseTime(ims); err == nil && !mod.After(t) {
			return true
		}
	}
	return false
}

// fnv64a is the 64-bit FNV-1a hash of b.
func fnv64a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func (s *Server) writeBody(w http.ResponseWriter, ctype string, body []byte, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

func (s *Server) serveRobots(w http.ResponseWriter, sv *server) {
	kind := robotsAllow
	if sv.special != nil {
		kind = sv.special.robots
	}
	w.Header().Set("Content-Type", "text/plain")
	switch kind {
	case robots503:
		// Down for a moment: the first two requests of each host get a
		// 503 with Retry-After: 1, the next ones the rules (RFC 9309
		// 2.3.1.4: the crawler waits and loses nothing).
		s.mu.Lock()
		if s.robots503 == nil {
			s.robots503 = map[string]int{}
		}
		s.robots503[sv.host]++
		n := s.robots503[sv.host]
		s.mu.Unlock()
		if n <= Robots503Answers {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "service unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(robotsBody(robotsAllow)))
	case robots404:
		http.Error(w, "not found", http.StatusNotFound)
	default:
		w.Write([]byte(robotsBody(kind)))
	}
}

// Robots503Answers is how many times th-robots503.test answers 503 for its
// robots.txt before it serves the rules.
const Robots503Answers = 2

func robotsBody(kind robotsKind) string {
	switch kind {
	case robotsPrivate:
		return "# webgen\nUser-agent: *\nDisallow: /private/\n"
	case robotsDelay:
		return "# webgen\nUser-agent: *\nCrawl-delay: 1\nDisallow:\n"
	}
	return "# webgen\nUser-agent: *\nDisallow:\n"
}

// serveEndless streams HTML until the client hangs up.
func (s *Server) serveEndless(w *recorder, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte("<!DOCTYPE html>\n<html><head><title>endless</title></head><body>\n"))
	chunk := bytes.Repeat([]byte("<p>this page never ends</p>\n"), s.opts.EndlessChunk/28+1)
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
		w.Flush()
	}
}

const styleCSS = "body { font-family: sans-serif; margin: 2em; }\n.nav, .footer { color: #555; }\n"

var logoPNG = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range 16 {
		img.Set(i%4, i/4, color.RGBA{R: 200, G: uint8(i * 16), B: 80, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()
