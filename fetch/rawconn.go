package fetch

import (
	"net"
	"syscall"
)

// rawConn returns conn's file descriptor access, or nil when conn is not a
// socket (a TLS connection, a test pipe).
func rawConn(conn net.Conn) syscall.RawConn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}
