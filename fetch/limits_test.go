package fetch

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A server that sends a second, unasked response on a kept-alive
// connection must not get it recorded as the answer to the next request:
// the client drops the connection and asks again on a new one.
func TestUnaskedResponseNotReused(t *testing.T) {
	const first = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789"
	const forged = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged"
	const second = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond"
	tests := []struct {
		name string
		// late: the forged response is written after the first exchange
		// has returned, while the connection sits idle in the pool.
		late bool
	}{
		{"in the same write", false},
		{"while idle", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})    // the first Do returned
			written := make(chan struct{}) // the forged bytes are sent
			srv := newRawServer(t, func(c net.Conn, _ []byte, n int) bool {
				if n > 0 {
					// A request on the poisoned connection: the test
					// fails below on the accept count and the body.
					io.WriteString(c, second)
					return true
				}
				select {
				case <-written: // a later connection
					io.WriteString(c, second)
					return true
				default:
				}
				if !tt.late {
					io.WriteString(c, first+forged)
				} else {
					io.WriteString(c, first)
					<-done
					io.WriteString(c, forged)
				}
				close(written)
				return true
			})
			c := newClient(t, Config{})
			res := mustDo(t, c, "GET", srv.url("/1"), nil)
			if string(res.RawResponse) != first {
				t.Fatalf("first response %q", res.RawResponse)
			}
			if st := c.Stats(); tt.late && st.IdleConns != 1 {
				t.Fatalf("the first connection is not idle in the pool: %+v", st)
			}
			close(done)
			<-written
			if tt.late {
				waitUnread(t, c)
			}
			res = mustDo(t, c, "GET", srv.url("/2"), nil)
			if body := string(res.RawResponse[res.BodyOffset:]); body != "second" || res.Reused {
				t.Errorf("second request got %q (reused %v), want the server's answer on a new connection", body, res.Reused)
			}
			if reqs := srv.requests(); len(reqs) != 2 || !strings.HasPrefix(string(reqs[1]), "GET /2 ") {
				t.Errorf("server received %q, want both requests", reqs)
			}
			if n := srv.accepts.Load(); n != 2 {
				t.Errorf("accepts = %d, want 2", n)
			}
		})
	}
}

// waitUnread polls, up to a generous bound, until the idle connection's
// socket holds unread bytes or a FIN, or the connection has left the pool
// (closed when it was put back): TCP delivery on loopback is quick but not
// synchronous with the server's write.
func waitUnread(t *testing.T, c *Client) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.pool.mu.Lock()
		var idle *persistConn
		for _, pc := range c.pool.idle {
			idle = pc
		}
		c.pool.mu.Unlock()
		if idle == nil || idle.peek == nil || idle.peek.unread() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the forged bytes never arrived")
		}
		time.Sleep(time.Millisecond)
	}
}

// A server that closes a kept-alive connection while it is idle is seen
// before the next request is written: no request is lost to a dead socket
// and no retry is needed.
func TestIdleCloseSeenBeforeReuse(t *testing.T) {
	var first atomic.Bool
	first.Store(true)
	srv := newRawServer(t, func(c net.Conn, _ []byte, _ int) bool {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		// Close after the first response, despite keep-alive.
		return !first.Swap(false)
	})
	c := newClient(t, Config{})
	mustDo(t, c, "GET", srv.url("/"), nil)
	waitUnread(t, c) // the FIN has arrived
	res := mustDo(t, c, "GET", srv.url("/"), nil)
	if res.Reused {
		t.Error("a connection closed by the server was reused")
	}
	if st := c.Stats(); st.Requests != 2 {
		t.Errorf("requests written = %d, want 2 (no failed write and retry)", st.Requests)
	}
}

func TestURLTooLong(t *testing.T) {
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
	c := newClient(t, Config{MaxURLLength: 100})
	base := srv.url("/?q=")
	ok := base + strings.Repeat("a", 100-len(base))
	if _, err := c.Do(context.Background(), "GET", ok, nil); err != nil {
		t.Fatalf("URL of exactly the limit: %v", err)
	}
	long := ok + "a"
	_, err := c.Do(context.Background(), "GET", long, nil)
	if !errors.Is(err, ErrURLTooLong) || !strings.Contains(err.Error(), long) {
		t.Fatalf("got %v, want ErrURLTooLong naming the URL", err)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
	// A huge URL is cut in the message.
	c = newClient(t, Config{})
	huge := "http://a.test/" + strings.Repeat("x", 1<<20)
	_, err = c.Do(context.Background(), "GET", huge, nil)
	if !errors.Is(err, ErrURLTooLong) || len(err.Error()) > 1024 || !strings.Contains(err.Error(), "http://a.test/xxx") {
		t.Errorf("error for a 1 MiB URL: %d bytes, %.100q", len(err.Error()), err)
	}
}

// What is not an HTTP/1.x response fails with ErrMalformedResponse, naming
// the URL; a head cut short by the server is a disconnect, not malformed.
func TestMalformedResponse(t *testing.T) {
	for _, tt := range []struct {
		name, sent string
		malformed  bool
	}{
		{"garbage", "garbage\r\n\r\n", true},
		{"HTTP/0.9 body", "<html><body>hello</body></html>\n", true},
		{"binary", "\x00\x01\x02\xff\xfe\r\n\r\n", true},
		{"ssh banner", "SSH-2.0-OpenSSH_9.6\r\n", true},
		{"shoutcast", "ICY 200 OK\r\nicy-name: radio\r\n\r\n", true},
		{"HTTP/2.0", "HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n", true},
		{"HTTP/9.9", "HTTP/9.9 200 OK\r\nContent-Length: 0\r\n\r\n", true},
		{"HTTP/0.9 status", "HTTP/0.9 200 OK\r\n\r\n", true},
		{"four-digit status", "HTTP/1.1 2000 OK\r\n\r\n", true},
		{"letters for status", "HTTP/1.1 abc OK\r\n\r\n", true},
		{"negative status", "HTTP/1.1 -20 OK\r\n\r\n", true},
		{"bad field", "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", true},
		{"bad content-length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", true},
		{"conflicting content-length", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", true},
		{"cut head", "HTTP/1.1 200 OK\r\nContent-Ty", false},
		{"empty", "", false},
		// Cut by a reset, not a close (a failure trial: failed at once
		// as malformed, and the pages of a server that reset once lost).
		{"reset in a field", "HTTP/1.1 200 OK\r\nContent-Ty", false},
		{"reset in the status line", "HTTP/1.1 20", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRawServer(t, func(c net.Conn, _ []byte, _ int) bool {
				io.WriteString(c, tt.sent)
				if strings.HasPrefix(tt.name, "reset") {
					c.(*net.TCPConn).SetLinger(0) // Close sends a reset
				}
				return false
			})
			c := newClient(t, Config{})
			res, err := c.Do(context.Background(), "GET", srv.url("/"), nil)
			if res != nil || err == nil {
				t.Fatalf("got %+v, %v; want an error", res, err)
			}
			if errors.Is(err, ErrMalformedResponse) != tt.malformed {
				t.Errorf("error %v: ErrMalformedResponse = %v, want %v", err, !tt.malformed, tt.malformed)
			}
			if !strings.Contains(err.Error(), srv.url("/")) {
				t.Errorf("error %q does not name the URL", err)
			}
		})
	}
}
