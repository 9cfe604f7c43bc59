package fetch

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestIdleConnectionsClosedWithoutFetches: a kept-alive connection idle
// for IdleTimeout is closed even when no fetch comes to the pool after it
// (a paused crawl, a queue waiting on its delays). Before, get and put
// closed the expired connections they came upon, so up to MaxIdleConns
// connections stayed open to their servers for as long as the crawl was
// paused, where the README promises 15 s. (from a soak review)
func TestIdleConnectionsClosedWithoutFetches(t *testing.T) {
	var closed atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newClient(t, Config{ConnectTo: map[string]string{"*": srv.Listener.Addr().String()}, IdleTimeout: 200 * time.Millisecond})
	for _, host := range []string{"a.test", "b.test"} {
		if res := mustDo(t, c, "GET", "http://"+host+"/", nil); res.Status != 200 {
			t.Fatalf("%s: status %d", host, res.Status)
		}
	}
	if n := c.Stats().IdleConns; n != 2 {
		t.Fatalf("idle connections after two fetches: %d, want 2", n)
	}
	// No fetch from here on: the connections must go by themselves.
	// (A deadline for the test's failure only, far past the timeout.)
	deadline := time.Now().Add(time.Minute)
	for closed.Load() < 2 || c.Stats().IdleConns > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("a minute after the last fetch, with IdleTimeout 200ms: %d idle connections in the pool, %d closed at the server",
				c.Stats().IdleConns, closed.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
