package fetch

import (
	"net"
	"strings"
	"syscall"
	"time"
)

// Pacer paces the client's reads from the network, for a bandwidth limit
// (Config.Pacer; bandwidth.Manager.Pacer is one). It must be safe for
// concurrent use.
type Pacer interface {
	// Quantum is the most bytes the client reads from a connection at
	// once.
	Quantum() int
	// Wait is called before every read of up to n bytes from a
	// connection to host, and returns when the read may go ahead, with
	// the time it waited. host is the URL's host in lower case, with
	// ":port" when the port is not the scheme's default: the site the
	// bytes are for.
	Wait(host string, n int) time.Duration
	// Done is called after the read with the bytes that reached the
	// connection since the previous read: those read, plus the growth of
	// the socket's receive queue where the system reports it (Linux),
	// which is what crossed the network and the bytes an uplink sees.
	// Over a connection the sum is the bytes read. Done may wait too.
	Done(host string, n int)
}

// dialControl returns the net.Dialer.Control of a new connection: the
// address guard's check (guard may be nil) and then, if ReadBuffer is set,
// the receive buffer, before connect(2), so that the window TCP offers in
// its handshake already fits the buffer.
func (c *Client) dialControl(guard func(network, address string, rc syscall.RawConn) error) func(network, address string, rc syscall.RawConn) error {
	n := c.cfg.ReadBuffer
	if n <= 0 {
		return guard
	}
	return func(network, address string, rc syscall.RawConn) error {
		if guard != nil {
			if err := guard(network, address, rc); err != nil {
				return err
			}
		}
		return setReadBuffer(rc, n)
	}
}

// wrapConn applies ReadBuffer to a connection from a custom Config.Dial,
// or on a system where dialControl cannot, after the fact, and the Pacer to
// every connection. The pacer wraps the TCP connection, under TLS, so it
// paces the bytes on the wire.
func (c *Client) wrapConn(conn net.Conn, custom bool, site string) net.Conn {
	if tc, ok := conn.(*net.TCPConn); ok && (custom || !readBufferAtDial) && c.cfg.ReadBuffer > 0 {
		_ = tc.SetReadBuffer(c.cfg.ReadBuffer) // best effort: the kernel may round it
	}
	if c.cfg.Pacer == nil {
		return conn
	}
	return &pacedConn{Conn: conn, p: c.cfg.Pacer, quantum: max(c.cfg.Pacer.Quantum(), 1), site: site, queued: queued(conn)}
}

// siteOf is the host given to Pacer.Pace: host, with ":port" unless port
// is the scheme's default.
func siteOf(host, port, defaultPort string) string {
	host = strings.ToLower(host)
	if port == defaultPort {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return net.JoinHostPort(host, port)
}

// pacedConn is a connection whose reads go through a Pacer.
type pacedConn struct {
	net.Conn
	p       Pacer
	quantum int
	site    string
	queued  func() int // the socket's receive queue; nil if unknown
	inq     int        // the queue after the previous read
}

func (pc *pacedConn) Read(b []byte) (int, error) {
	if len(b) > pc.quantum {
		b = b[:pc.quantum]
	}
	pc.p.Wait(pc.site, len(b))
	n, err := pc.Conn.Read(b)
	arrived := n
	if pc.queued != nil && n > 0 {
		// Bytes that arrived while the reader waited are on the wire
		// already: charge them now, not when they are read.
		q := pc.queued()
		arrived = max(n+q-pc.inq, 0)
		pc.inq = q
	}
	pc.p.Done(pc.site, arrived)
	return n, err
}
