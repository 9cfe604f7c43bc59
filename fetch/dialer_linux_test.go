//go:build linux

package fetch

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// ReadBuffer is set on the socket before it connects (Linux reports
// twice the size asked for), and left alone when it is 0.
func TestReadBufferBeforeConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	rcvbuf := func(size int) int {
		c := newClient(t, Config{ReadBuffer: size})
		d := &net.Dialer{Control: c.dialControl(nil)}
		conn, err := d.DialContext(context.Background(), "tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		rc, err := conn.(*net.TCPConn).SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var n int
		var serr error
		rc.Control(func(fd uintptr) { n, serr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF) })
		if serr != nil {
			t.Fatal(serr)
		}
		return n
	}
	if got := rcvbuf(4096); got != 8192 {
		t.Errorf("SO_RCVBUF with ReadBuffer 4096 = %d, want 8192 (Linux doubles it)", got)
	}
	if got := rcvbuf(0); got <= 8192 {
		t.Errorf("SO_RCVBUF with ReadBuffer 0 = %d, want the system's larger default", got)
	}
}
