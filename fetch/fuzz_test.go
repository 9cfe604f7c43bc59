package fetch

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// FuzzResponse feeds arbitrary bytes to the response reader through a fake
// connection. It must never panic, and whatever it returns must be a prefix
// of what the server sent, within the configured limits.
func FuzzResponse(f *testing.F) {
	for _, seed := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nok\r\n0\r\nT: 1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n3\r\n\x1f\x8b\x08\r\n0\r\n\r\n",
		"HTTP/1.0 200 OK\r\n\r\nread to the end",
		"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort",
		"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		"HTTP/1.1 301 Moved\r\nLocation: /x\r\n\r\n",
		"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\nframes",
		"HTTP/9.9 999 What\r\n\r\n",
		"garbage",
		"",
	} {
		f.Add([]byte(seed), uint8(0), false)
		f.Add([]byte(seed), uint8(3), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, step uint8, head bool) {
		const limit = 4096
		c, err := New(Config{
			Dial:          fakeDial(int(step), data),
			MaxHeaderSize: limit,
			MaxBodySize:   limit,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		method := "GET"
		if head {
			method = "HEAD"
		}
		res, err := c.Do(context.Background(), method, "http://fuzz.test/", nil)
		if err != nil {
			if res != nil {
				t.Fatalf("both a result and an error: %v", err)
			}
			return
		}
		if got := append(append([]byte(nil), res.Interim...), res.RawResponse...); !bytes.HasPrefix(data, got) {
			t.Fatalf("Interim %q + RawResponse %q is not a prefix of the input %q", res.Interim, res.RawResponse, data)
		}
		if res.Proto != "HTTP/1.0" && res.Proto != "HTTP/1.1" && !strings.HasPrefix(res.Proto, "HTTP/1.") {
			t.Fatalf("Proto %q accepted", res.Proto)
		}
		if len(res.Interim) > 0 && !bytes.HasPrefix(res.Interim, []byte("HTTP/1.")) {
			t.Fatalf("Interim %q does not start with a status line", res.Interim)
		}
		if res.BodyOffset < 0 || res.BodyOffset > len(res.RawResponse) {
			t.Fatalf("BodyOffset %d outside %d bytes", res.BodyOffset, len(res.RawResponse))
		}
		if body := len(res.RawResponse) - res.BodyOffset; body > limit {
			t.Fatalf("body of %d bytes exceeds MaxBodySize %d", body, limit)
		}
		switch res.Truncated {
		case "", TruncatedLength, TruncatedTime, TruncatedDisconnect, TruncatedUnspecified:
		default:
			t.Fatalf("Truncated = %q", res.Truncated)
		}
		if res.Err != nil && res.Truncated == "" {
			t.Fatalf("Err %v without Truncated", res.Err)
		}
		if res.Status < 100 || res.Status > 999 {
			t.Fatalf("Status %d", res.Status)
		}
		if p, _ := res.Payload(limit); len(p) > limit {
			t.Fatalf("Payload of %d bytes exceeds its limit", len(p))
		}
	})
}
