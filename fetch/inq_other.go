//go:build !linux

package fetch

import "net"

// queued is not available here: the pacer is charged with the bytes read.
func queued(net.Conn) func() int { return nil }
