package fetch

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/net/http/httpguts"
	"golang.org/x/net/idna"
)

// Sentinel errors. Errors returned by Do wrap them with the URL.
var (
	ErrClosed         = errors.New("fetch: client closed")
	ErrHeaderTooLarge = errors.New("fetch: response header too large")
	ErrTimeout        = errors.New("fetch: timeout")
	// ErrLocal is a failure of the crawler's own machine under a fetch
	// (a large body that could not be written to its temporary file):
	// not the server's, and not to be retried as if it were.
	ErrLocal               = errors.New("fetch: local failure")
	ErrUnsupportedScheme   = errors.New("fetch: unsupported URL scheme")
	ErrUnsupportedMethod   = errors.New("fetch: unsupported method")
	ErrUnsupportedEncoding = errors.New("fetch: unsupported content encoding")

	// ErrTooManyHeaderFields: a response head has more than
	// Config.MaxHeaderFields header lines.
	ErrTooManyHeaderFields = errors.New("fetch: too many response header fields")
	// ErrMalformedResponse: what the server sent is not an HTTP/1.x
	// response: a bad status line (HTTP/0.9 bodies without one, other
	// protocols, garbage), bad header fields or framing, or more than
	// maxInterim interim responses.
	ErrMalformedResponse = errors.New("fetch: malformed response")
	// ErrURLTooLong: the URL is longer than Config.MaxURLLength.
	ErrURLTooLong = errors.New("fetch: URL too long")
)

// maxInterim is the most interim (1xx) responses read before the final one.
const maxInterim = 8

// Values of Result.Truncated, the reasons of the WARC 1.1 WARC-Truncated field.
const (
	TruncatedLength      = "length"      // body cut at Config.MaxBodySize
	TruncatedTime        = "time"        // a timeout or the context's deadline
	TruncatedDisconnect  = "disconnect"  // the server closed or reset mid-body
	TruncatedUnspecified = "unspecified" // context canceled, or malformed framing
)

// Result is one recorded exchange. RawRequest and RawResponse are owned by
// the Result; nothing in the Client keeps or changes them.
type Result struct {
	URL         string
	IP          string        // remote IP dialed (WARC-IP-Address); the ConnectTo target if mapped
	Started     time.Time     // when the request was sent (WARC-Date), from Config.Now
	Duration    time.Duration // from Started to the last byte read
	RawRequest  []byte        // exact bytes written
	RawResponse []byte        // exact bytes read of the final response: status line + headers + body as received
	// Interim holds the interim 1xx responses (103 Early Hints, 100
	// Continue) that came before the final response, exactly as read,
	// back to back; nil when there were none. RawResponse does not
	// include them.
	Interim    []byte
	Status     int
	Proto      string      // "HTTP/1.1", "HTTP/1.0"
	Header     http.Header // header fields of the response as received (Transfer-Encoding included)
	BodyOffset int         // index in RawResponse where the body starts
	Chunked    bool        // the body has the chunked transfer coding
	Truncated  string      // "", or one of the Truncated* constants
	Reused     bool        // the connection was reused (keep-alive)
	// TLSVerifyError is the certificate verification failure that
	// Config.InsecureTLS let pass, or "" when the certificate verified or
	// the URL is plain HTTP.
	TLSVerifyError string
	// Err is non-nil when the exchange failed part way (Truncated "time",
	// "disconnect" or "unspecified"); the Raw fields still hold what was
	// sent and received. A body cut at MaxBodySize leaves Err nil.
	Err error

	// spill holds the bytes of the response after RawResponse when it was
	// longer than Config.SpillThreshold; see Spilled, Open and Close.
	spill  *os.File
	spillN int64
}

// Spilled reports whether the response was too long to keep in memory:
// RawResponse then holds only its first bytes (the head and the start of
// the body), and Open reads it whole.
func (r *Result) Spilled() bool { return r.spill != nil }

// Size is the length of the whole raw response, RawResponse and what
// spilled after it.
func (r *Result) Size() int64 { return int64(len(r.RawResponse)) + r.spillN }

// Open returns a reader of the whole raw response, RawResponse followed by
// what spilled to disk. Each call starts at the beginning.
func (r *Result) Open() io.Reader {
	if r.spill == nil {
		return bytes.NewReader(r.RawResponse)
	}
	return io.MultiReader(bytes.NewReader(r.RawResponse), io.NewSectionReader(r.spill, 0, r.spillN))
}

// Tail returns what spilled after RawResponse (nil when nothing did) and
// its length, for writers that take the response in two parts.
func (r *Result) Tail() (io.ReaderAt, int64) {
	if r.spill == nil {
		return nil, 0
	}
	return r.spill, r.spillN
}

// Close removes the temporary file of a spilled response. The holder of a
// Result calls it when done; it is safe on any Result, more than once.
func (r *Result) Close() error {
	if r == nil || r.spill == nil {
		return nil
	}
	f := r.spill
	r.spill, r.spillN = nil, 0
	return errors.Join(f.Close(), os.Remove(f.Name()))
}

type bodyLimitKey struct{}

// WithBodyLimit returns a context under which Do reads at most n bytes of
// a response body (as sent, before any decoding), when that is less than
// Config.MaxBodySize; a longer body is cut and marked Truncated "length",
// as at MaxBodySize. The engine reads robots.txt this way, up to the limit
// RFC 9309 section 2.5 sets for parsing.
func WithBodyLimit(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, bodyLimitKey{}, n)
}

// Stats are running totals since New. Take them with Client.Stats.
type Stats struct {
	Requests      int64 // requests written to a connection (retries included)
	Responses     int64 // responses whose header was read in full
	Failures      int64 // Do calls that returned an error
	Refused       int64 // Do calls refused by the address guard (counted in Failures too)
	Truncated     int64 // responses returned with Truncated set
	BytesSent     int64 // raw request bytes written
	BytesReceived int64 // raw response bytes kept in results
	ConnsOpened   int64 // connections dialed successfully
	ConnsReused   int64 // requests sent over a kept-alive connection
	IdleConns     int64 // idle connections held now
}

// Client is an archival HTTP/1.1 client. It is safe for concurrent use by
// multiple goroutines; requests to one host should be serialised by the
// caller, since the pool keeps only one idle connection per host. New starts
// no goroutines. Close the Client to close its idle connections.
type Client struct {
	cfg      Config
	guard    guard
	pool     *pool
	resolver *net.Resolver // nil: the default; tests set a fake DNS

	requests, responses, failures, truncated atomic.Int64
	refused                                  atomic.Int64
	bytesSent, bytesReceived                 atomic.Int64
	connsOpened, connsReused                 atomic.Int64
}

// New returns a Client for cfg, with defaults filled in. It reports every
// invalid field at once.
func New(cfg Config) (*Client, error) {
	cfg.fill()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.ConnectTo != nil {
		m := make(map[string]string, len(cfg.ConnectTo))
		for host, addr := range cfg.ConnectTo {
			if host != "*" {
				host = strings.TrimSuffix(strings.ToLower(host), ".")
			}
			m[host] = addr
		}
		cfg.ConnectTo = m
	}
	cfg.AllowAddresses = append([]string(nil), cfg.AllowAddresses...)
	g, _ := parseAllow(cfg.AllowAddresses) // validated above
	cfg.DenyAddresses = append([]string(nil), cfg.DenyAddresses...)
	g.deny, _ = parseDeny(cfg.DenyAddresses)
	g.self = &ownAddrs{read: selfAddrs, now: time.Now}
	return &Client{
		cfg:   cfg,
		guard: g,
		pool:  newPool(cfg.MaxIdleConns, cfg.IdleTimeout, cfg.Now),
	}, nil
}

// Close closes all idle connections. Connections in use by a running Do are
// closed when it finishes; Do after Close returns ErrClosed.
func (c *Client) Close() error { return c.pool.close() }

// Stats returns the running totals.
func (c *Client) Stats() Stats {
	return Stats{
		Requests:      c.requests.Load(),
		Responses:     c.responses.Load(),
		Failures:      c.failures.Load(),
		Refused:       c.refused.Load(),
		Truncated:     c.truncated.Load(),
		BytesSent:     c.bytesSent.Load(),
		BytesReceived: c.bytesReceived.Load(),
		ConnsOpened:   c.connsOpened.Load(),
		ConnsReused:   c.connsReused.Load(),
		IdleConns:     int64(c.pool.len()),
	}
}

// Do sends one GET (or HEAD) request and returns the raw exchange. Redirects
// are not followed: a 3xx comes back as is. A failure before a complete
// response header returns (nil, err): a refused address
// (ErrAddressRefused), a URL over MaxURLLength (ErrURLTooLong), dial, TLS,
// write, timeout (ErrTimeout), a header over MaxHeaderSize
// (ErrHeaderTooLarge) or MaxHeaderFields (ErrTooManyHeaderFields), or
// something that is not an HTTP/1.x response (ErrMalformedResponse). The
// error names the URL and wraps the sentinel. Once the header is in, Do
// returns a Result and a nil error; failures while reading the body are
// reported in Result.Err and Result.Truncated.
//
// extraHeader adds or replaces request headers (If-None-Match,
// Accept-Encoding, ...). Do adds no Accept-Encoding of its own. Host,
// Content-Length and Connection in extraHeader are ignored.
//
// A kept-alive connection that turns out to have been closed by the server
// before any response byte is retried once on a new connection.
func (c *Client) Do(ctx context.Context, method, rawURL string, extraHeader http.Header) (*Result, error) {
	res, err := c.do(ctx, method, rawURL, extraHeader)
	if err != nil {
		c.failures.Add(1)
		if errors.Is(err, ErrAddressRefused) {
			c.refused.Add(1)
		}
		return nil, fmt.Errorf("fetch %s: %w", shortURL(rawURL), err)
	}
	return res, nil
}

// shortURL cuts a URL for an error message: a URL refused for its length
// can be megabytes long.
func shortURL(u string) string {
	const max = 512
	if len(u) <= max {
		return u
	}
	return fmt.Sprintf("%s...(%d bytes)", u[:max], len(u))
}

func (c *Client) do(ctx context.Context, method, rawURL string, extra http.Header) (*Result, error) {
	if method == "" {
		method = http.MethodGet
	}
	if method != http.MethodGet && method != http.MethodHead {
		return nil, fmt.Errorf("%w %q", ErrUnsupportedMethod, method)
	}
	if len(rawURL) > c.cfg.MaxURLLength {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrURLTooLong, len(rawURL), c.cfg.MaxURLLength)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	scheme := strings.ToLower(u.Scheme)
	var defaultPort string
	switch scheme {
	case "http":
		defaultPort = "80"
	case "https":
		defaultPort = "443"
	default:
		return nil, fmt.Errorf("%w %q", ErrUnsupportedScheme, u.Scheme)
	}
	host, err := hostOf(u)
	if err != nil {
		return nil, err
	}
	port := u.Port()
	if port == "" {
		port = defaultPort
	}
	target, mapped := c.connectTo(host)
	dialHost := host
	if !mapped {
		if dialHost, err = c.checkHost(host); err != nil {
			return nil, err
		}
	}
	if c.pool.isClosed() {
		return nil, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// One deadline for the whole exchange, on the real clock.
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()

	req := &http.Request{
		Method:     method,
		URL:        u,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Host:       u.Host,
		Header:     make(http.Header, 4+len(extra)),
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", c.cfg.Accept)
	for k, vs := range extra {
		switch ck := textproto.CanonicalMIMEHeaderKey(k); ck {
		case "Host", "Content-Length", "Connection", "Transfer-Encoding":
		default:
			req.Header[ck] = append([]string(nil), vs...)
		}
	}

	key := scheme + "://" + net.JoinHostPort(dialHost, port)
	for attempt := 0; ; attempt++ {
		var pc *persistConn
		if attempt == 0 {
			pc = c.pool.get(key, c.cfg.Now())
			if pc != nil && pc.hasUnread() {
				// Bytes arrived while the connection sat idle: nobody
				// asked for them, so the connection is not trusted.
				pc.conn.Close()
				pc = nil
			}
		}
		reused := pc != nil
		if pc == nil {
			addr := target
			if !mapped {
				addr = net.JoinHostPort(dialHost, port)
			}
			if pc, err = c.dial(ctx, key, scheme == "https", host, dialHost, addr, mapped, siteOf(host, port, defaultPort)); err != nil {
				return nil, err
			}
		}
		res, retry, err := c.exchange(ctx, pc, reused, req, rawURL)
		if retry && attempt == 0 {
			continue
		}
		return res, err
	}
}

// hostOf is the host name u is dialled by: lower case, punycode.
func hostOf(u *url.URL) (string, error) {
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", errors.New("fetch: URL has no host")
	}
	if !isASCII(host) {
		var err error
		if host, err = idna.Lookup.ToASCII(host); err != nil {
			return "", fmt.Errorf("fetch: host name: %w", err)
		}
	}
	return host, nil
}

// ErrNoLookup is returned by Address for a host only a Config.Dial of the
// caller's own could tell the address of.
var ErrNoLookup = errors.New("fetch: no address lookup with a custom Dial")

// Address returns the IP address a fetch of rawURL would connect to, as
// Result.IP would give it, without connecting: the ConnectTo target for a
// mapped host, the address an IP-literal host spells, else the first
// address the resolver gives (the dialer may try the others too). The
// address guard applies as for a fetch; a name's resolved addresses are
// checked when a fetch dials them. The lookup is bounded by
// ConnectTimeout. For a crawler that bounds its connections per address
// before the first one tells it.
func (c *Client) Address(ctx context.Context, rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	host, err := hostOf(u)
	if err != nil {
		return "", err
	}
	if to, ok := c.connectTo(host); ok {
		h, _, err := net.SplitHostPort(to)
		if err != nil {
			return "", fmt.Errorf("fetch: connect_to %s: %w", to, err)
		}
		if a, err := netip.ParseAddr(h); err == nil {
			return a.Unmap().String(), nil
		}
		return h, nil
	}
	h, err := c.checkHost(host)
	if err != nil {
		return "", err
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap().String(), nil
	}
	if c.cfg.Dial != nil {
		return "", ErrNoLookup
	}
	lctx, cancel := context.WithTimeout(ctx, c.cfg.ConnectTimeout)
	defer cancel()
	r := c.resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(lctx, "ip", h)
	if err != nil {
		return "", err
	}
	if len(addrs) == 0 {
		return "", fmt.Errorf("fetch: %s has no address", h)
	}
	// The address the dialer connects to: the first the guard allows, in
	// the dialer's order (the family of the first answer, then the
	// other), as its Control refuses the others before connecting. The
	// first answer alone (an address and DNS review) was a refused one for
	// a name answering "10.0.0.N, victim", and the site's first fetch was
	// counted under it, not under the address it reached. With every
	// address refused, the fetch connects nowhere: the first is said.
	for _, sameFamily := range []bool{true, false} {
		for _, a := range addrs {
			if (a.Unmap().Is4() == addrs[0].Unmap().Is4()) != sameFamily {
				continue
			}
			if c.guard.check(host, a) == nil {
				return a.Unmap().String(), nil
			}
		}
	}
	return addrs[0].Unmap().String(), nil
}

// connectTo returns the ConnectTo target for host: its own entry, else "*".
// A fully qualified name (a trailing dot) is the same host: the crawl
// makes one site of the two, and a link to "mirror.example." must not
// reach the real server (and DNS) past a staging mirror's mapping.
func (c *Client) connectTo(host string) (addr string, ok bool) {
	if to, ok := c.cfg.ConnectTo[strings.TrimSuffix(strings.ToLower(host), ".")]; ok {
		return to, true
	}
	to, ok := c.cfg.ConnectTo["*"]
	return to, ok
}

// checkHost applies the address guard to the URL's host before any
// resolution and returns the host to dial: an IP address written in any
// spelling browsers accept is normalised (see hostAddr) and checked here;
// localhost names are loopback; other names are checked after resolution,
// by the dialer's Control function.
func (c *Client) checkHost(host string) (string, error) {
	if isLocalhostName(host) {
		if err := c.guard.check(host, netip.AddrFrom4([4]byte{127, 0, 0, 1})); err != nil {
			return "", err
		}
		return host, nil
	}
	a, ok, err := hostAddr(host)
	if err != nil || !ok {
		return host, err
	}
	if err := c.guard.check(host, a); err != nil {
		return "", err
	}
	if _, err := netip.ParseAddr(host); err != nil || !a.Is4() {
		host = a.String() // normalised; a canonical dotted quad stays as is
	}
	return host, nil
}

// dial opens a connection to addr for key, honouring ConnectTimeout and ctx,
// and completes the TLS handshake for https. host is the URL's host, for
// messages and the address guard; dialHost is the name or address dialled
// (host, or the normalised IP address it spells), for SNI and the
// certificate check. An addr that ConnectTo mapped is not guarded. site
// is the host the connection's reads are paced for (Config.Pacer).
func (c *Client) dial(ctx context.Context, key string, useTLS bool, host, dialHost, addr string, mapped bool, site string) (*persistConn, error) {
	dctx, cancel := context.WithTimeout(ctx, c.cfg.ConnectTimeout)
	defer cancel()
	dial := c.cfg.Dial
	if dial == nil {
		d := &net.Dialer{Resolver: c.resolver}
		if !mapped {
			// Check every address the dialer is about to connect to,
			// after resolution and before connect(2).
			d.Control = c.guard.control(host)
		}
		d.Control = c.dialControl(d.Control) // the receive buffer (dialer.go)
		dial = d.DialContext
	}
	conn, err := dial(dctx, "tcp", addr)
	if err != nil {
		var ae *AddressError
		if errors.As(err, &ae) {
			return nil, ae // no dial detail: the guard refused before connecting
		}
		return nil, &ConnectError{Err: fmt.Errorf("dial %s: %w", addr, timeoutErr(err))}
	}
	pc := &persistConn{key: key, conn: c.wrapConn(conn, c.cfg.Dial != nil, site), ip: remoteIP(conn, addr), peek: newSocketPeek(conn)}
	if check := AddressCheck(ctx); check != nil {
		if err := check(pc.ip); err != nil {
			conn.Close()
			return nil, err
		}
	}
	if useTLS {
		tc := tls.Client(pc.conn, &tls.Config{
			ServerName:         dialHost,
			InsecureSkipVerify: true, // verified below, so InsecureTLS can downgrade the failure
			NextProtos:         []string{"http/1.1"},
			MinVersion:         tls.VersionTLS10, // archive old servers too
			VerifyConnection: func(cs tls.ConnectionState) error {
				verr := verifyCert(cs, dialHost, c.cfg.RootCAs)
				if verr == nil {
					return nil
				}
				if !c.cfg.InsecureTLS {
					return verr
				}
				pc.tlsErr = verr.Error()
				return nil
			},
		})
		if err := tc.HandshakeContext(dctx); err != nil {
			conn.Close()
			return nil, &ConnectError{TLS: true, Err: fmt.Errorf("tls handshake with %s: %w", addr, timeoutErr(err))}
		}
		pc.conn = tc
	}
	c.connsOpened.Add(1)
	return pc, nil
}

func verifyCert(cs tls.ConnectionState, host string, roots *x509.CertPool) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("fetch: server sent no certificate")
	}
	inter := x509.NewCertPool()
	for _, cert := range cs.PeerCertificates[1:] {
		inter.AddCert(cert)
	}
	_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{
		DNSName:       host,
		Roots:         roots,
		Intermediates: inter,
	})
	return err
}

// exchange sends req over pc and records the response. retry reports that a
// reused connection failed before the server can have read the request (a
// failed write, or a reset before any response byte), so the caller may
// try once more on a new connection. exchange always either pools or closes pc.
func (c *Client) exchange(ctx context.Context, pc *persistConn, reused bool, req *http.Request, rawURL string) (res *Result, retry bool, err error) {
	last := pc.uses+1 >= c.cfg.MaxRequestsPerConn
	if last {
		req.Header.Set("Connection", "close")
	} else {
		req.Header.Set("Connection", "keep-alive")
	}
	var reqBuf bytes.Buffer
	if err := req.Write(&reqBuf); err != nil {
		pc.conn.Close()
		return nil, false, fmt.Errorf("write request: %w", err)
	}
	rawReq := reqBuf.Bytes()

	deadline, _ := ctx.Deadline()
	rec := &recorder{
		conn:        pc.conn,
		buf:         make([]byte, 0, 8<<10),
		limit:       c.cfg.MaxHeaderSize,
		maxLines:    c.cfg.MaxHeaderFields + 1, // the status line too
		readTimeout: c.cfg.ReadTimeout,
		deadline:    deadline,
	}
	stop := context.AfterFunc(ctx, rec.cancel)
	keep := false
	defer func() {
		if stop() && keep {
			pc.conn.SetDeadline(time.Time{})
			c.pool.put(pc, c.cfg.Now())
		} else {
			pc.conn.Close()
		}
	}()

	started := c.cfg.Now()
	c.requests.Add(1)
	if reused {
		c.connsReused.Add(1)
	}
	pc.uses++
	n, err := rec.write(rawReq)
	c.bytesSent.Add(int64(n))
	if err != nil {
		err = rec.classify(ctx, err)
		return nil, reused && retryable(err), fmt.Errorf("write request: %w", err)
	}

	br := readers.Get().(*bufio.Reader)
	br.Reset(rec)
	defer func() { br.Reset(nil); readers.Put(br) }()
	var resp *http.Response
	headStart := 0
	// reframed: a head, interim ones included, read by reframe; the
	// connection is not kept.
	reframed := false
	for i := 0; ; i++ { // skip interim 1xx responses, keeping their bytes
		headStart = len(rec.buf) - br.Buffered()
		rec.countLines(headStart)
		resp, err = http.ReadResponse(br, req)
		if rec.hitLines {
			// A head read in one piece parses before the error shows.
			err = errLines
		}
		if err != nil && !rec.hitLimit && !rec.hitLines && framingRefused(err) {
			// net/http stops right after the head on these errors.
			if r, ok := reframe(rec.buf[headStart:len(rec.buf)-br.Buffered()], br, req); ok {
				resp, err, reframed = r, nil, true
			}
		}
		if err == nil && spacedFraming(resp.Header) {
			// "Transfer-Encoding : chunked": net/http keeps the name,
			// space and all, as a field it does not know, and frames
			// the body without it; a proxy removes the space (RFC 9112
			// section 5.1) and so does every replay tool. Its body is
			// not read yet.
			r, ok := reframe(rec.buf[headStart:len(rec.buf)-br.Buffered()], br, req)
			if !ok {
				err = fmt.Errorf("%w: framing fields that disagree", ErrMalformedResponse)
			} else {
				resp, reframed = r, true
			}
		}
		if err == nil && trimFieldNames(resp.Header) && httpguts.HeaderValuesContainsToken(resp.Header["Connection"], "close") {
			// "Connection : close", read as a field net/http does not
			// know: the server closes after this response.
			resp.Close = true
		}
		if err == nil && resp.ProtoMajor != 1 {
			err = fmt.Errorf("%w: protocol %q in the status line", ErrMalformedResponse, resp.Proto)
		}
		// Only 1xx is interim (RFC 9110 section 15.2); a code below 100
		// is invalid and final, as one of 600-999 is (section 15).
		if err != nil || resp.StatusCode >= 200 || resp.StatusCode < 100 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
		if i+1 == maxInterim {
			err = fmt.Errorf("%w: more than %d interim responses", ErrMalformedResponse, maxInterim)
			break
		}
	}
	if err != nil {
		err = rec.classify(ctx, err)
		switch {
		case rec.hitLimit:
			err = fmt.Errorf("%w (limit %d bytes)", ErrHeaderTooLarge, c.cfg.MaxHeaderSize)
		case rec.hitLines:
			err = fmt.Errorf("%w (limit %d)", ErrTooManyHeaderFields, c.cfg.MaxHeaderFields)
		case errors.Is(err, ErrMalformedResponse):
		case (rec.eof || rec.reset) && bytes.HasPrefix(rec.buf[headStart:], []byte("HTTP/1.")) && !headComplete(rec.buf[headStart:]):
			// The server closed, or reset, the connection in the middle
			// of a head that looked right: a disconnect, whatever the
			// parser made of the rest, and retried as one. Before the
			// nineteenth session a reset there failed the URL at once
			// as a malformed response (a failure trial lost two pages
			// of a server that reset once).
			err = fmt.Errorf("%w: %w", io.ErrUnexpectedEOF, err)
		case len(rec.buf) > 0 && !errors.Is(err, ErrTimeout) && !errors.Is(err, context.Canceled) &&
			!isNetErr(err) && !errors.Is(err, io.ErrUnexpectedEOF):
			// http.ReadResponse's own parse errors carry no type.
			err = fmt.Errorf("%w: %w", ErrMalformedResponse, err)
		}
		// Sent again at once on a new connection only when the server
		// reset it, the mark of a socket closed with the request unread
		// (an idle connection it closed as the request went out). A
		// clean close after the request went out is a server that may
		// have read it (a back end that crashed, a server shedding load):
		// sent again here it saw the request twice within a millisecond,
		// not w apart (TestPoliteNoInstantResend); it goes to the crawl's
		// own retry, which waits the site's delay.
		err = fmt.Errorf("read response header: %w", err)
		if len(rec.buf) > 0 {
			// The bytes crossed the wire all the same: a crawl's byte
			// budget counts them (Received).
			err = &receivedError{error: err, n: int64(len(rec.buf))}
		}
		return nil, reused && len(rec.buf) == 0 && rec.reset && retryable(err), err
	}
	c.responses.Add(1)
	rec.countLines(-1)
	bodyOffset := len(rec.buf) - br.Buffered()
	maxBody := c.cfg.MaxBodySize
	if n, ok := ctx.Value(bodyLimitKey{}).(int64); ok && n > 0 && n < maxBody {
		maxBody = n
	}
	rec.limit = satAdd(int64(bodyOffset), maxBody)
	if c.cfg.SpillThreshold > 0 {
		rec.spillAt, rec.tempDir = bodyOffset+int(c.cfg.SpillThreshold), c.cfg.TempDir
	}

	header := rawHeader(rec.buf[headStart:bodyOffset], resp.Header)
	// RFC 9112, 6.1: an HTTP/1.0 message with Transfer-Encoding has faulty
	// framing, whatever its Content-Length says, and the connection is
	// not to be kept. net/http ignores the header and frames the body by
	// Content-Length, which would cut a chunked body and leave the record
	// with a chunked header over bytes that are not. The body is read to
	// the close instead, so the record holds all the server sent. A
	// response that has no body whatever its header says (to HEAD, a 204,
	// a 304: RFC 9112, 6.3) still ends at its head; its connection is not
	// kept either.
	teOn10 := resp.ProtoMajor == 1 && resp.ProtoMinor == 0 && len(header.Values("Transfer-Encoding")) > 0
	faulty := teOn10 && resp.Body != http.NoBody
	body := io.Reader(resp.Body)
	if faulty {
		body = br
	}
	_, derr := io.Copy(io.Discard, body)
	end := int(rec.total()) - br.Buffered()
	truncated := ""
	if derr != nil && rec.spillErr != nil {
		// The crawler's own disk failed under the body (OUT/tmp gone, a
		// full disk), not the server: no result to archive as cut, and
		// an error the crawl stops on (a review found the body archived
		// as the server's disconnect, its rest lost).
		if rec.spill != nil {
			rec.spill.Close()
			os.Remove(rec.spill.Name())
			rec.spill = nil
		}
		return nil, false, fmt.Errorf("%w: %w", ErrLocal, rec.spillErr)
	}
	if derr != nil && rec.readErr != nil && strings.Contains(derr.Error(), "unexpected EOF reading trailer") {
		// net/http says this of any failed read between the last chunk
		// and the end of the trailer section, a close, a reset or a
		// timeout alike: the read's own error tells which.
		derr = fmt.Errorf("%w: %w", derr, rec.readErr)
	}
	if derr != nil {
		derr = rec.classify(ctx, derr)
		switch {
		case rec.hitLimit:
			truncated, derr = TruncatedLength, nil
		case errors.Is(derr, ErrTimeout):
			truncated = TruncatedTime
		case errors.Is(derr, context.Canceled):
			truncated = TruncatedUnspecified
		case errors.Is(derr, io.ErrUnexpectedEOF), isNetErr(derr):
			truncated = TruncatedDisconnect
		default:
			// Malformed chunked framing and the like. The parser stopped
			// where the framing broke, but the bytes already read past it
			// (what the read buffer held, up to its 16 KiB) went over the
			// wire too: the record keeps them, marked truncated, for a
			// curator to see. The rest of the connection is not read, and
			// the crawl's payload still ends at the break.
			truncated = TruncatedUnspecified
			end = int(rec.total())
		}
	}
	if maxEnd := satAdd(int64(bodyOffset), maxBody); int64(end) > maxEnd {
		end = int(maxEnd)
		if truncated == "" {
			truncated = TruncatedLength
		}
	}
	memEnd := min(end, len(rec.buf))
	res = &Result{
		URL:            rawURL,
		IP:             pc.ip,
		Started:        started,
		Duration:       c.cfg.Now().Sub(started),
		RawRequest:     rawReq,
		RawResponse:    rec.buf[headStart:memEnd:memEnd],
		Status:         resp.StatusCode,
		Proto:          resp.Proto,
		Header:         header,
		BodyOffset:     bodyOffset - headStart,
		Chunked:        len(resp.TransferEncoding) > 0 && resp.TransferEncoding[0] == "chunked" || faulty && lastCodingChunked(header),
		Truncated:      truncated,
		Reused:         reused,
		TLSVerifyError: pc.tlsErr,
	}
	if headStart > 0 {
		res.Interim = rec.buf[:headStart:headStart]
	}
	if rec.spill != nil {
		// Bytes read ahead past the end are cut off the file.
		if n := int64(end - memEnd); n > 0 && rec.spill.Truncate(n) == nil {
			res.spill, res.spillN = rec.spill, n
		} else {
			rec.spill.Close()
			os.Remove(rec.spill.Name())
		}
		rec.spill = nil
	}
	if derr != nil {
		res.Err = fmt.Errorf("fetch %s: read body: %w", rawURL, derr)
	}
	if truncated != "" {
		c.truncated.Add(1)
	}
	c.bytesReceived.Add(int64(end))
	// Bytes read ahead past the end of the response were not asked for:
	// never reuse the connection. Bytes still in the socket, or arriving
	// later, are looked for when the connection leaves the pool.
	// Transfer-Encoding beside Content-Length, which net/http reads, is
	// closed after as RFC 9112 section 6.3 asks, and so is framing reframe
	// read: where a forged second response would hide.
	bothLengths := len(header.Values("Transfer-Encoding")) > 0 && len(header.Values("Content-Length")) > 0
	keep = derr == nil && truncated == "" && !last && !resp.Close && !teOn10 && !reframed && !bothLengths &&
		resp.StatusCode != http.StatusSwitchingProtocols && br.Buffered() == 0
	return res, false, nil
}

// framingRefused reports whether err is net/http refusing a response for
// its Transfer-Encoding or Content-Length fields alone, once the head is
// read.
func framingRefused(err error) bool {
	m := err.Error()
	return strings.Contains(m, "transfer encoding") || strings.Contains(m, "Content-Length") ||
		strings.Contains(m, "bad trailer key")
}

// spacedFraming reports whether h has Transfer-Encoding or Content-Length
// with whitespace before the colon, a name net/http keeps as it came.
func spacedFraming(h http.Header) bool {
	for k := range h {
		if t := strings.TrimRight(k, " \t"); t != k &&
			(strings.EqualFold(t, "Transfer-Encoding") || strings.EqualFold(t, "Content-Length")) {
			return true
		}
	}
	return false
}

// trimFieldNames moves the values of every field whose name ends in
// whitespace ("Content-Type : text/html", which net/http keeps as a name
// of its own) to the name without it, as a proxy must (RFC 9112 section
// 5.1) and browsers do: the page's declared charset, language, validators
// and Location are read as a browser reads them. The record keeps the
// head as it came. It reports whether it moved any. (Framing fields so
// written are reframed before: spacedFraming.)
func trimFieldNames(h http.Header) bool {
	moved := false
	for k, vs := range h {
		t := strings.TrimRight(k, " \t")
		if t == k || t == "" {
			continue
		}
		ck := http.CanonicalHeaderKey(t)
		h[ck] = append(h[ck], vs...)
		delete(h, k)
		moved = true
	}
	return moved
}

// reframe reads a response that net/http refuses for framing RFC 9112 lets
// a recipient read (a hostile-server trial found each archived as nothing,
// -3): more than one transfer coding ("gzip, chunked", section 6.1) or
// Transfer-Encoding on two lines, the "identity" coding of older servers,
// and a Content-Length repeated with one value ("103, 103", RFC 9110
// section 8.6). head is the head as received, br the connection after it.
// Transfer-Encoding overrides Content-Length (RFC 9112 section 6.3); one
// whose last coding is not chunked is read to the close; Content-Lengths
// that differ are refused still. The head is parsed again with one
// framing field, and the body read from br as that field says; the
// record keeps the head as it came, and the connection is closed after.
func reframe(head []byte, br *bufio.Reader, req *http.Request) (*http.Response, bool) {
	if !headComplete(head) {
		return nil, false
	}
	lines := strings.Split(strings.ReplaceAll(string(head), "\r\n", "\n"), "\n")
	// An obs-fold is replaced with SP before a field is interpreted (RFC
	// 9112 section 5.2), as net/http does: "Transfer-Encoding: gzip,"
	// folded before "chunked" is one list. A fold before any field is
	// left for the parse below to refuse.
	var fields []string
	for _, l := range lines[1:] {
		if l == "" {
			break
		}
		if (l[0] == ' ' || l[0] == '\t') && len(fields) > 0 {
			fields[len(fields)-1] += " " + strings.TrimLeft(l, " \t")
			continue
		}
		fields = append(fields, l)
	}
	var kept, te, cl []string
	for _, l := range fields {
		name, value, _ := strings.Cut(l, ":")
		// Whitespace before the colon, which a proxy removes (RFC 9112
		// section 5.1), does not hide a framing field.
		name = strings.TrimRight(name, " \t")
		switch {
		case strings.EqualFold(name, "Transfer-Encoding"):
			te = append(te, value)
		case strings.EqualFold(name, "Content-Length"):
			cl = append(cl, value)
		case strings.EqualFold(name, "Trailer"):
			// Dropped from the parse: it only announces trailer fields,
			// which are read and not merged (chunkedBody), and net/http
			// refuses one naming a field that may not be a trailer,
			// which a recipient ignores (RFC 9110 section 6.5.1).
		default:
			kept = append(kept, l)
		}
	}
	framing := ""
	var codings []string
	for _, c := range strings.Split(strings.Join(te, ","), ",") {
		if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
			codings = append(codings, c)
		}
	}
	switch {
	case len(codings) > 0 && strings.EqualFold(codings[len(codings)-1], "chunked"):
		framing = "Transfer-Encoding: chunked"
	case len(codings) > 0:
		// Read to the close: no framing field.
	case len(cl) > 0:
		n := ""
		for _, v := range strings.Split(strings.Join(cl, ","), ",") {
			if v = strings.TrimSpace(v); v == "" || n != "" && v != n {
				return nil, false
			}
			n = v
		}
		framing = "Content-Length: " + n
	}
	var b strings.Builder
	b.WriteString(lines[0] + "\r\n")
	for _, l := range kept {
		b.WriteString(l + "\r\n")
	}
	if framing != "" {
		b.WriteString(framing + "\r\n")
	}
	b.WriteString("\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(b.String())), req)
	if err != nil {
		return nil, false
	}
	// The connection is not kept: framing that needed this is where a
	// forged second response would hide (RFC 9112 section 6.3 asks the
	// same of Transfer-Encoding beside Content-Length).
	resp.Close = true
	switch {
	case resp.Body == http.NoBody: // to HEAD, a 204, a 304
	case len(resp.TransferEncoding) > 0:
		resp.Body = io.NopCloser(&chunkedBody{r: httputil.NewChunkedReader(br), br: br})
	case resp.ContentLength >= 0:
		resp.Body = io.NopCloser(&lengthBody{r: br, n: resp.ContentLength})
	default:
		resp.Body = io.NopCloser(br)
	}
	return resp, true
}

// lengthBody is a body of n bytes read by reframe: an end before them is
// io.ErrUnexpectedEOF, as net/http's own body says, so that a cut body is
// marked truncated (a review: a plain io.LimitReader ended it cleanly, and
// a robots.txt cut that way was obeyed as whole).
type lengthBody struct {
	r io.Reader
	n int64
}

func (b *lengthBody) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	n, err := b.r.Read(p)
	b.n -= int64(n)
	if err == io.EOF && b.n > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// chunkedBody is a chunked body read by reframe: after the last chunk, it
// reads the trailer section to its blank line, as net/http does, so that
// the response ends where the server's did.
type chunkedBody struct {
	r    io.Reader
	br   *bufio.Reader
	done bool
}

// maxTrailerLines bounds the trailer section chunkedBody reads.
const maxTrailerLines = 256

func (c *chunkedBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != io.EOF || c.done {
		return n, err
	}
	c.done = true
	for range maxTrailerLines {
		line, lerr := c.br.ReadSlice('\n')
		if lerr == io.EOF {
			return n, io.ErrUnexpectedEOF
		}
		if lerr != nil {
			return n, fmt.Errorf("%w: trailer: %w", ErrMalformedResponse, lerr)
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return n, io.EOF
		}
	}
	return n, fmt.Errorf("%w: more than %d trailer lines", ErrMalformedResponse, maxTrailerLines)
}

// lastCodingChunked reports whether chunked is the last transfer coding h
// names, as it must be for a chunked body; empty list items are skipped,
// as the archive's payload digest skips them.
func lastCodingChunked(h http.Header) bool {
	last := ""
	for _, c := range strings.Split(strings.Join(h.Values("Transfer-Encoding"), ","), ",") {
		if c = strings.TrimSpace(c); c != "" {
			last = c
		}
	}
	return strings.EqualFold(last, "chunked")
}

// headComplete reports whether b holds the blank line that ends a head.
func headComplete(b []byte) bool {
	return bytes.Contains(b, []byte("\n\r\n")) || bytes.Contains(b, []byte("\n\n"))
}

// readers holds the buffered readers of exchange and rawHeader: one
// allocation of 16 KiB per response was the client's largest.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 16<<10) }}

// rawHeader re-reads the header block as received: http.ReadResponse drops
// Transfer-Encoding and, for chunked bodies, Content-Length from resp.Header.
func rawHeader(block []byte, fallback http.Header) http.Header {
	br := readers.Get().(*bufio.Reader)
	br.Reset(bytes.NewReader(block))
	defer func() { br.Reset(nil); readers.Put(br) }()
	tp := textproto.NewReader(br)
	if _, err := tp.ReadLine(); err != nil {
		return fallback
	}
	h, err := tp.ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return fallback
	}
	trimFieldNames(http.Header(h))
	return http.Header(h)
}

// recorder reads from the connection and keeps every byte read, up to
// limit bytes in all. Each read gets a deadline of ReadTimeout from now,
// capped by the exchange deadline. cancel makes pending and later reads
// and writes fail.
type recorder struct {
	conn net.Conn
	buf  []byte
	// Spilling: past spillAt bytes (0: never), what is read goes to
	// spill, a temporary file in tempDir, instead of buf.
	spillAt     int
	tempDir     string
	spill       *os.File
	spilled     int64
	spillErr    error
	limit       int64
	readTimeout time.Duration
	deadline    time.Time
	hitLimit    bool
	readErr     error // the last read's error, nil if it had none
	eof         bool  // the server closed its side
	// reset: a read failed with the connection reset or aborted, not a
	// timeout: the server's side went away as with eof, less politely.
	reset bool

	// Header line counting, from buf[scan:] while counting: lines seen
	// in the current head and the length of the current line (CR not
	// counted). An empty line ends the head and the counting.
	maxLines    int
	counting    bool
	scan, lines int
	lineLen     int
	hitLines    bool

	mu       sync.Mutex
	canceled bool
}

var (
	errLimit = errors.New("fetch: size limit reached")
	errLines = errors.New("fetch: header line limit reached")
)

// countLines starts counting the lines of a head that begins at buf[from:],
// including bytes already read; from < 0 stops counting.
func (r *recorder) countLines(from int) {
	r.counting = from >= 0
	r.scan, r.lines, r.lineLen = from, 0, 0
	r.scanLines()
}

// scanLines counts head lines in the bytes not yet scanned and reports
// whether the head has more than maxLines lines.
func (r *recorder) scanLines() bool {
	for ; r.counting && r.scan < len(r.buf); r.scan++ {
		switch r.buf[r.scan] {
		case '\n':
			if r.lineLen == 0 {
				r.counting = false // the blank line that ends the head
				break
			}
			r.lines++
			r.lineLen = 0
			if r.lines > r.maxLines {
				r.hitLines = true
				return true
			}
		case '\r':
		default:
			r.lineLen++
		}
	}
	return false
}

func (r *recorder) Read(p []byte) (int, error) {
	if r.hitLines {
		return 0, errLines
	}
	room := r.limit - r.total()
	if room <= 0 {
		r.hitLimit = true
		return 0, errLimit
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	if err := r.setDeadline(false); err != nil {
		return 0, err
	}
	n, err := r.conn.Read(p)
	if kerr := r.keep(p[:n]); kerr != nil {
		return n, kerr
	}
	r.readErr = err
	r.eof = r.eof || errors.Is(err, io.EOF)
	r.reset = r.reset || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED)
	if r.scanLines() {
		return n, errLines
	}
	return n, err
}

// total is how many bytes were read: in buf and spilled.
func (r *recorder) total() int64 { return int64(len(r.buf)) + r.spilled }

// keep records bytes read: in buf up to spillAt, then in the spill file.
func (r *recorder) keep(b []byte) error {
	if r.spillAt <= 0 || len(r.buf)+len(b) <= r.spillAt && r.spill == nil {
		r.buf = append(r.buf, b...)
		return nil
	}
	if k := r.spillAt - len(r.buf); k > 0 {
		r.buf = append(r.buf, b[:k]...)
		b = b[k:]
	}
	if r.spillErr != nil {
		return r.spillErr
	}
	if r.spill == nil {
		f, err := os.CreateTemp(r.tempDir, "langcrawl-body-*")
		if err != nil {
			r.spillErr = fmt.Errorf("fetch: spill a large body: %w", err)
			return r.spillErr
		}
		r.spill = f
	}
	n, err := r.spill.Write(b)
	r.spilled += int64(n)
	if err != nil {
		r.spillErr = fmt.Errorf("fetch: spill a large body to %s: %w", r.spill.Name(), err)
		return r.spillErr
	}
	return nil
}

func (r *recorder) write(p []byte) (int, error) {
	if err := r.setDeadline(true); err != nil {
		return 0, err
	}
	return r.conn.Write(p)
}

func (r *recorder) setDeadline(write bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.canceled {
		return context.Canceled
	}
	d := time.Now().Add(r.readTimeout)
	if !r.deadline.IsZero() && r.deadline.Before(d) {
		d = r.deadline
	}
	if write {
		return r.conn.SetWriteDeadline(d)
	}
	return r.conn.SetReadDeadline(d)
}

func (r *recorder) cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.canceled = true
	r.conn.SetDeadline(time.Unix(1, 0))
}

// classify maps an I/O error to ErrTimeout or the context's error, so that
// callers can tell timeouts from cancellation and disconnects.
func (r *recorder) classify(ctx context.Context, err error) error {
	r.mu.Lock()
	canceled := r.canceled
	r.mu.Unlock()
	if canceled {
		if cerr := ctx.Err(); errors.Is(cerr, context.DeadlineExceeded) {
			return fmt.Errorf("%w: %w", ErrTimeout, cerr)
		} else if cerr != nil {
			return cerr
		}
	}
	return timeoutErr(err)
}

// ConnectError is a failure to make the connection a request goes on: in
// dialling (the name's lookup included) or in the TLS handshake. No request
// reached the server, so it says nothing of the URL: a crawl counts it
// against the site. An error after a connection carried the request (lost
// before a response, or no response in time) is not one.
type ConnectError struct {
	TLS bool // in the TLS handshake, after the TCP connection was made
	Err error
}

func (e *ConnectError) Error() string { return e.Err.Error() }
func (e *ConnectError) Unwrap() error { return e.Err }

func timeoutErr(err error) error {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		if errors.Is(err, ErrTimeout) {
			return err
		}
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return err
}

// retryable reports whether err looks like a kept-alive connection that the
// server had closed: not a timeout, not a cancellation, not a size limit.
func retryable(err error) bool {
	return !errors.Is(err, ErrTimeout) && !errors.Is(err, context.Canceled) &&
		!errors.Is(err, errLimit) && !errors.Is(err, ErrHeaderTooLarge) &&
		!errors.Is(err, ErrTooManyHeaderFields) && !errors.Is(err, ErrMalformedResponse)
}

func isNetErr(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed)
}

func remoteIP(conn net.Conn, addr string) string {
	if ra := conn.RemoteAddr(); ra != nil {
		if tcp, ok := ra.(*net.TCPAddr); ok {
			return tcp.IP.String()
		}
		if h, _, err := net.SplitHostPort(ra.String()); err == nil {
			return h
		}
	}
	h, _, _ := net.SplitHostPort(addr)
	return h
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return 1<<63 - 1
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// receivedError is an error of Do that came after bytes of a response had
// arrived, too few or too bad for a Result (a head over the limits, cut
// short or malformed).
type receivedError struct {
	error
	n int64
}

func (e *receivedError) Unwrap() error { return e.error }

// Received returns how many bytes of a response the fetch that failed
// with err read before it failed (0: none, or not known). They crossed
// the network as a Result's do, and a byte budget counts them: a server
// whose every answer is a head over MaxHeaderSize cost a megabyte each,
// uncounted (a bandwidth and steering review).
func Received(err error) int64 {
	var r *receivedError
	if errors.As(err, &r) {
		return r.n
	}
	return 0
}

type addressCheckKey struct{}

// WithAddressCheck returns a context whose fetches call check with the
// address of each new connection they make, once it is connected and
// before anything is sent on it; an error from check closes the
// connection and fails the fetch with that error, as it is. The crawl
// counts a site's fetches against the address it last reached the site
// at; a site whose DNS now answers another address (a site that moved,
// or a hostile DNS that switches many names to one victim) is checked
// against the bound of the address it does reach, before its request
// goes out (an address and DNS review). A kept-alive connection is not
// checked again: it is at the address the site was reached at.
func WithAddressCheck(ctx context.Context, check func(ip string) error) context.Context {
	return context.WithValue(ctx, addressCheckKey{}, check)
}

// AddressCheck returns the check WithAddressCheck put in ctx, nil if
// none: a Fetcher other than Client calls it as Client does.
func AddressCheck(ctx context.Context) func(ip string) error {
	check, _ := ctx.Value(addressCheckKey{}).(func(string) error)
	return check
}
