package fetch

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"testing"
)

// TestSpillFailureNotServerDisconnect (from a review): a body past SpillThreshold goes to a temporary file in OUT/tmp. When that
// file cannot be made or written (OUT/tmp removed by a cleaner, a full
// disk, no file descriptors left) the failure is the crawler's own, but
// the Result said the server cut the connection (Truncated "disconnect"):
// crawl/loop.go then logs -3 (connection lost), tries once more, and on a
// second such failure archives the first 4 MiB marked
// WARC-Truncated: disconnect and completes the URL. The rest of the body
// is lost, blamed on the server, with no "disk full" stop (README,
// "Crashes and full disks": "A write that fails for lack of space anyway
// stops the crawl with disk full").
func TestSpillFailureNotServerDisconnect(t *testing.T) {
	body := bytes.Repeat([]byte("<p>x "), 100000)
	want := []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
	srv := newRawServer(t, func(conn net.Conn, _ []byte, _ int) bool { conn.Write(want); return true })
	cl := newClient(t, Config{SpillThreshold: 64 << 10, TempDir: filepath.Join(t.TempDir(), "removed")})
	res, err := cl.Do(t.Context(), "GET", srv.url("/big"), nil)
	if err != nil {
		if !errors.Is(err, ErrLocal) {
			t.Errorf("a failure to spill the body: %v, want ErrLocal", err)
		}
		return
	}
	if res.Truncated == TruncatedDisconnect {
		t.Errorf("a local failure to spill the body is reported as the server's disconnect: truncated %q, size %d of %d, err %v",
			res.Truncated, res.Size(), len(want), res.Err)
	}
}
