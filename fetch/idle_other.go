//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fetch

import "net"

// socketPeek cannot look into a socket on this platform.
type socketPeek struct{}

// newSocketPeek returns nil: hasUnread falls back to a non-blocking read.
func newSocketPeek(net.Conn) *socketPeek { return nil }

func (*socketPeek) unread() bool { return false }
