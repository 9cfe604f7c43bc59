package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rawServer is a loopback TCP server that writes hand-crafted bytes. It reads
// each request head (GET and HEAD have no body) and calls handle with the
// connection, the raw request and its index on the connection (0, 1, ...).
// handle returns whether to keep the connection open for another request.
type rawServer struct {
	ln      net.Listener
	handle  func(conn net.Conn, req []byte, n int) bool
	accepts atomic.Int64

	mu    sync.Mutex
	reqs  [][]byte
	conns []net.Conn
	wg    sync.WaitGroup
}

func newRawServer(t testing.TB, handle func(conn net.Conn, req []byte, n int) bool) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln, handle: handle}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.close)
	return s
}

func (s *rawServer) addr() string { return s.ln.Addr().String() }

// url returns "http://127.0.0.1:port" + path.
func (s *rawServer) url(path string) string { return "http://" + s.addr() + path }

func (s *rawServer) serve() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.accepts.Add(1)
		s.mu.Lock()
		s.conns = append(s.conns, conn)
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer conn.Close()
			br := bufio.NewReader(conn)
			for n := 0; ; n++ {
				req, err := readHead(br)
				if err != nil {
					return
				}
				s.mu.Lock()
				s.reqs = append(s.reqs, req)
				s.mu.Unlock()
				if !s.handle(conn, req, n) {
					return
				}
			}
		}()
	}
}

func (s *rawServer) requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.reqs...)
}

func (s *rawServer) close() {
	s.ln.Close()
	s.mu.Lock()
	for _, c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// readHead reads up to and including the blank line that ends a head.
func readHead(br *bufio.Reader) ([]byte, error) {
	var head []byte
	for {
		line, err := br.ReadBytes('\n')
		head = append(head, line...)
		if err != nil {
			return head, err
		}
		if bytes.Equal(line, []byte("\r\n")) || bytes.Equal(line, []byte("\n")) {
			return head, nil
		}
	}
}

// reply returns a handler that writes resp to every request and keeps the
// connection open.
func reply(resp string) func(net.Conn, []byte, int) bool {
	return func(c net.Conn, _ []byte, _ int) bool {
		_, err := io.WriteString(c, resp)
		return err == nil
	}
}

// waitClosed blocks until the peer closes c (or the server shuts down).
func waitClosed(c net.Conn) {
	io.Copy(io.Discard, c)
}

// writeForever writes a repeating pattern until the peer goes away and
// returns the bytes written, bounded so a test can never spin forever.
func writeForever(c net.Conn, chunk []byte) {
	c.SetWriteDeadline(time.Now().Add(20 * time.Second))
	for range 1 << 20 {
		if _, err := c.Write(chunk); err != nil {
			return
		}
	}
}

// pattern returns n deterministic bytes.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// newClient returns a Client closed at the end of the test. Unless cfg
// says otherwise, it may dial loopback addresses, where the test servers
// listen; the address guard's own tests use New directly.
func newClient(t testing.TB, cfg Config) *Client {
	t.Helper()
	if cfg.AllowAddresses == nil {
		cfg.AllowAddresses = []string{AddrLoopback}
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func mustDo(t testing.TB, c *Client, method, url string, h map[string][]string) *Result {
	t.Helper()
	res, err := c.Do(context.Background(), method, url, h)
	if err != nil {
		t.Fatalf("Do %s: %v", url, err)
	}
	return res
}

// fakeConn serves fixed bytes, then EOF; writes are discarded.
type fakeConn struct {
	r      *bytes.Reader
	step   int // bytes per Read, 0 for as many as asked
	closed atomic.Bool
}

func (f *fakeConn) Read(p []byte) (int, error) {
	if f.closed.Load() {
		return 0, net.ErrClosed
	}
	if f.step > 0 && len(p) > f.step {
		p = p[:f.step]
	}
	return f.r.Read(p)
}
func (f *fakeConn) Write(p []byte) (int, error) {
	if f.closed.Load() {
		return 0, net.ErrClosed
	}
	return len(p), nil
}
func (f *fakeConn) Close() error                     { f.closed.Store(true); return nil }
func (f *fakeConn) LocalAddr() net.Addr              { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1} }
func (f *fakeConn) RemoteAddr() net.Addr             { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80} }
func (f *fakeConn) SetDeadline(time.Time) error      { return nil }
func (f *fakeConn) SetReadDeadline(time.Time) error  { return nil }
func (f *fakeConn) SetWriteDeadline(time.Time) error { return nil }

var errNoMoreConns = errors.New("test: no more fake connections")

// fakeDial returns a Dial func that hands out one fakeConn per response.
func fakeDial(step int, responses ...[]byte) func(context.Context, string, string) (net.Conn, error) {
	var mu sync.Mutex
	return func(context.Context, string, string) (net.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(responses) == 0 {
			return nil, errNoMoreConns
		}
		c := &fakeConn{r: bytes.NewReader(responses[0]), step: step}
		responses = responses[1:]
		return c, nil
	}
}
