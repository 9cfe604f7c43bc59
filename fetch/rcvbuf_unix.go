//go:build unix

package fetch

import "syscall"

// readBufferAtDial: the receive buffer is set before connect(2).
const readBufferAtDial = true

// setReadBuffer sets SO_RCVBUF on the socket of rc to n bytes (Linux
// doubles it for its bookkeeping) and turns off the kernel's growing of
// the buffer.
func setReadBuffer(rc syscall.RawConn, n int) error {
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
	}); err != nil {
		return err
	}
	return serr
}
