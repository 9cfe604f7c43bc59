//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fetch

import (
	"net"
	"syscall"
)

// socketPeek looks into one socket without consuming anything or blocking:
// recv(MSG_PEEK|MSG_DONTWAIT). It is made once per connection so that a
// peek allocates nothing. Not safe for concurrent use; a connection is used
// by one exchange at a time.
type socketPeek struct {
	rc   syscall.RawConn
	rerr error
	b    [1]byte
	fn   func(fd uintptr) bool
}

// newSocketPeek returns a peek for conn, or nil when conn is not a socket.
func newSocketPeek(conn net.Conn) *socketPeek {
	rc := rawConn(conn)
	if rc == nil {
		return nil
	}
	p := &socketPeek{rc: rc}
	p.fn = func(fd uintptr) bool {
		_, _, p.rerr = syscall.Recvfrom(int(fd), p.b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return true // never wait for readiness
	}
	return p
}

// unread reports whether the socket has bytes waiting or has been closed
// by the peer.
func (p *socketPeek) unread() bool {
	if err := p.rc.Read(p.fn); err != nil {
		return true
	}
	if p.rerr == syscall.EAGAIN || p.rerr == syscall.EWOULDBLOCK || p.rerr == syscall.EINTR {
		return false // open, nothing waiting
	}
	// A byte waiting (unasked data), a return of 0 (the peer closed) or
	// any other error: the connection must not be reused.
	return true
}
