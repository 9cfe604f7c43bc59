//go:build !unix

package fetch

import "syscall"

// readBufferAtDial is false here: wrapConn sets the receive buffer after
// the connection is made.
const readBufferAtDial = false

func setReadBuffer(syscall.RawConn, int) error { return nil }
