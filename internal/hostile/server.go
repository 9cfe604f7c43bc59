package hostile

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Hit is one request a server read.
type Hit struct {
	Host string // the Host header, without a port, lower case
	Path string // the request target, path and query
	Conn uint64 // the connection it came on, numbered from 1 (0 on the HTTP and TLS listeners)
}

// Server is the hostile web: three listeners on 127.0.0.1 and the host
// names they play. Start it with [Start]; Close stops every listener and
// every connection. Safe for concurrent use.
type Server struct {
	httpSrv, tlsSrv *http.Server
	httpLn, tlsLn   net.Listener
	rawLn           net.Listener

	done chan struct{} // closed by Close: every slow or endless answer stops

	mu    sync.Mutex
	hits  []Hit
	seen  map[[2]string]int     // requests so far by host and path
	conns map[net.Conn]struct{} // open raw connections
	nconn uint64                // raw connections accepted
	wg    sync.WaitGroup        // raw accept loop and connections

	farmed atomic.Uint64 // fresh host names the link farms made up
}

// Start opens the listeners on 127.0.0.1 (ports chosen by the system) and
// starts serving. The caller must call Close.
func Start() (*Server, error) {
	s := &Server{done: make(chan struct{}), conns: map[net.Conn]struct{}{}, seen: map[[2]string]int{}}
	cert, err := selfSigned(tlsHost)
	if err != nil {
		return nil, fmt.Errorf("hostile: certificate: %w", err)
	}
	var lns []net.Listener
	listen := func() net.Listener {
		ln, lerr := net.Listen("tcp", "127.0.0.1:0")
		if lerr != nil {
			err = errors.Join(err, lerr)
			return nil
		}
		lns = append(lns, ln)
		return ln
	}
	s.httpLn, s.rawLn, s.tlsLn = listen(), listen(), listen()
	if err != nil {
		for _, ln := range lns {
			ln.Close()
		}
		return nil, fmt.Errorf("hostile: listen: %w", err)
	}
	s.tlsLn = tls.NewListener(s.tlsLn, &tls.Config{Certificates: []tls.Certificate{cert}})
	s.httpSrv = &http.Server{Handler: s.logged(http.HandlerFunc(s.serveHTTP)), ErrorLog: quietLog()}
	s.tlsSrv = &http.Server{Handler: s.logged(http.HandlerFunc(serveTLS)), ErrorLog: quietLog()}
	go s.httpSrv.Serve(s.httpLn)
	go s.tlsSrv.Serve(s.tlsLn)
	s.wg.Add(1)
	go s.acceptRaw()
	return s, nil
}

// Close stops the servers and closes every connection, ending every
// answer in progress.
func (s *Server) Close() error {
	select {
	case <-s.done:
		return nil
	default:
	}
	close(s.done)
	err := errors.Join(s.httpSrv.Close(), s.tlsSrv.Close(), s.rawLn.Close())
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

// ConnectTo is the profile's network.connect_to map: each raw and TLS case
// host to its listener, every other name to the HTTP server.
func (s *Server) ConnectTo() map[string]string {
	m := map[string]string{"*": s.httpLn.Addr().String()}
	for _, c := range cases {
		switch c.Kind {
		case Raw:
			m[c.Host] = s.rawLn.Addr().String()
		case TLS:
			m[c.Host] = s.tlsLn.Addr().String()
		}
	}
	return m
}

// Hits returns a copy of the requests read so far, in the order they came.
func (s *Server) Hits() []Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Hit(nil), s.hits...)
}

// hit records a request, and returns how many requests of host and path
// there have been, this one included.
func (s *Server) hit(host, path string, conn uint64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits = append(s.hits, Hit{Host: host, Path: path, Conn: conn})
	k := [2]string{host, path}
	s.seen[k]++
	return s.seen[k]
}

func (s *Server) logged(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hit(hostOnly(r.Host), r.URL.RequestURI(), 0)
		h.ServeHTTP(w, r)
	})
}

func hostOnly(hostport string) string {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	return strings.ToLower(h)
}

// acceptRaw serves the raw listener: each connection reads requests with
// net/http's parser (the crawler's requests are well formed) and hands
// them to the raw case of their host.
func (s *Server) acceptRaw() {
	defer s.wg.Done()
	for {
		c, err := s.rawLn.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = struct{}{}
		s.nconn++
		id := s.nconn
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			s.serveRaw(c, id)
		}()
	}
}

// rawIdle bounds how long a raw connection waits for a request and how
// long one write may block, so that no connection outlives a stuck client
// for long.
const rawIdle = 30 * time.Second

func (s *Server) serveRaw(c net.Conn, id uint64) {
	br := bufio.NewReader(c)
	for {
		c.SetReadDeadline(time.Now().Add(rawIdle))
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		host := hostOnly(req.Host)
		nth := s.hit(host, req.URL.RequestURI(), id)
		c.SetReadDeadline(time.Time{})
		c.SetWriteDeadline(time.Now().Add(rawIdle))
		h, ok := rawCases[host]
		switch {
		case !ok:
			io.WriteString(c, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			return
		case req.URL.Path == "/robots.txt" && host != blackholeHost:
			io.WriteString(c, "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n")
			continue
		}
		if !h(&rawConn{Conn: c, r: br, done: s.done, nth: nth}, req.URL.Path) {
			return
		}
	}
}

// rawConn is a raw case's view of its connection.
type rawConn struct {
	net.Conn
	r    *bufio.Reader // the rest of the client's bytes
	done <-chan struct{}
	nth  int // this request is the nth of its host and path
}

// selfSigned makes a self-signed ECDSA certificate for host, valid from an
// hour ago for a day.
func selfSigned(host string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(now.UnixNano()),
		Subject:      pkix.Name{CommonName: host, Organization: []string{"langcrawl hostile suite"}},
		DNSNames:     []string{host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
