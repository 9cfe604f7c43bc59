//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fetch

import (
	"net"
	"syscall"
)

// peekSocket reports whether the socket under conn has bytes waiting or has
// been closed by the peer, without consuming anything or blocking:
// recv(MSG_PEEK|MSG_DONTWAIT). known is false when conn is not a socket.
func peekSocket(conn net.Conn) (unread, known bool) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true, true
	}
	var b [1]byte
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		_, _, rerr = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return true // never wait for readiness
	})
	if err != nil {
		return true, true
	}
	if rerr == syscall.EAGAIN || rerr == syscall.EWOULDBLOCK || rerr == syscall.EINTR {
		return false, true // open, nothing waiting
	}
	// A byte waiting (unasked data), a return of 0 (the peer closed) or
	// any other error: the connection must not be reused.
	return true, true
}
