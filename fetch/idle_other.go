//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fetch

import "net"

// peekSocket cannot look into the socket on this platform; the caller
// falls back to a non-blocking read of conn.
func peekSocket(net.Conn) (unread, known bool) { return false, false }
