//go:build linux

package fetch

import (
	"net"
	"syscall"
	"unsafe"
)

// queued returns a function reporting how many bytes are waiting in the
// socket's receive queue (ioctl SIOCINQ), or nil when conn is not a
// socket.
func queued(conn net.Conn) func() int {
	rc := rawConn(conn)
	if rc == nil {
		return nil
	}
	var n int32
	var errno syscall.Errno
	f := func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}
	return func() int {
		n = 0
		if rc.Control(f) != nil || errno != 0 {
			return 0
		}
		return int(n)
	}
}
