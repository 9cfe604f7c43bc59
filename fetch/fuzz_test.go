package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httputil"
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

// FuzzResponseHead feeds arbitrary heads, interim responses included, to
// the client with small limits. Every failure must be a clear error (one of
// the package's sentinels, or the server closing early), never a panic; a
// success must respect the limits and split interim heads from the final
// response.
func FuzzResponseHead(f *testing.F) {
	for _, seed := range []string{
		"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 103 Early Hints\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
		"HTTP/1.0 200 OK\nA: 1\n\nbody",
		"HTTP/1.1 200 OK\r\nA: 1\r\n continued\r\n\r\n",
		"HTTP/1.1 101 Switching Protocols\r\n\r\n",
		"HTTP/2.0 200 OK\r\n\r\n",
		"HTTP/1.1 2000 OK\r\n\r\n",
		"HTTP/1.1 200\r\n\r\n",
		"HTTP/1.1 200 OK\r\nA: 1\r\nA: 2\r\nA: 3\r\nA: 4\r\nA: 5\r\nA: 6\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Ty",
		"<html>HTTP/0.9</html>",
		"ICY 200 OK\r\n\r\n",
		"\r\nHTTP/1.1 200 OK\r\n\r\n",
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(1))
	}
	const maxFields, maxHead = 4, 512
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		c, err := New(Config{
			Dial:            fakeDial(int(step), data),
			MaxHeaderSize:   maxHead,
			MaxHeaderFields: maxFields,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		res, err := c.Do(context.Background(), "GET", "http://fuzz.test/", nil)
		if err != nil {
			if res != nil {
				t.Fatalf("both a result and an error: %v", err)
			}
			for _, want := range []error{ErrMalformedResponse, ErrTooManyHeaderFields, ErrHeaderTooLarge, io.ErrUnexpectedEOF, io.EOF} {
				if errors.Is(err, want) {
					return
				}
			}
			t.Fatalf("unclear error: %v", err)
		}
		head := res.RawResponse[:res.BodyOffset]
		if len(res.Interim)+len(head) > maxHead {
			t.Fatalf("%d header bytes kept, limit %d", len(res.Interim)+len(head), maxHead)
		}
		if !bytes.HasPrefix(head, []byte("HTTP/1.")) || !strings.HasPrefix(res.Proto, "HTTP/1.") {
			t.Fatalf("final head %q, Proto %q", head, res.Proto)
		}
		if lines := bytes.Count(head, []byte("\n")) - 1; lines > maxFields+1 {
			t.Fatalf("%d lines in the head %q, limit %d fields", lines, head, maxFields)
		}
		if res.Status < 200 && res.Status != http.StatusSwitchingProtocols {
			t.Fatalf("final status %d", res.Status)
		}
		// Interim holds whole 1xx responses, back to back.
		br := bufio.NewReader(bytes.NewReader(res.Interim))
		for {
			if _, err := br.Peek(1); err == io.EOF {
				break
			}
			resp, err := http.ReadResponse(br, nil)
			if err != nil || resp.StatusCode >= 200 {
				t.Fatalf("interim %q: %v", res.Interim, err)
			}
		}
	})
}

// FuzzChunked feeds arbitrary chunked bodies to the client. The body kept
// must be a prefix of what was sent; when the client found a clean end of
// the message, Payload must decode exactly that body without error, and
// agree with httputil's chunked reader on it.
func FuzzChunked(f *testing.F) {
	for _, seed := range []string{
		"5\r\nhello\r\n0\r\n\r\n",
		"5;ext=1;q=\"a b\"\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\nT2: y\r\n\r\n",
		"5\nhello\n0\n\n",
		"0\r\n\r\nextra bytes after the end",
		"00000005\r\nhello\r\n0\r\n\r\n",
		"5 \r\nhello\r\n0\r\n\r\n",
		"ffffffffffffffff\r\nx\r\n",
		"10000000000000000\r\nx\r\n",
		"-5\r\nhello\r\n0\r\n\r\n",
		"0x5\r\nhello\r\n0\r\n\r\n",
		"5\r\nhelloXX0\r\n\r\n",
		"5\r\nhel",
		"1\r\n\x1f\r\n1\r\n\x8b\r\n0\r\n\r\n",
		"",
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(2))
	}
	const head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	const limit = 4096
	f.Fuzz(func(t *testing.T, body []byte, step uint8) {
		data := append([]byte(head), body...)
		c, err := New(Config{Dial: fakeDial(int(step), data), MaxBodySize: limit})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		res, err := c.Do(context.Background(), "GET", "http://fuzz.test/", nil)
		if err != nil {
			t.Fatalf("the head is fine, yet: %v", err)
		}
		if !res.Chunked || res.BodyOffset != len(head) || !bytes.HasPrefix(data, res.RawResponse) {
			t.Fatalf("chunked %v, offset %d, raw %q", res.Chunked, res.BodyOffset, res.RawResponse)
		}
		kept := res.RawResponse[res.BodyOffset:]
		if len(kept) > limit {
			t.Fatalf("kept %d body bytes, limit %d", len(kept), limit)
		}
		p, perr := res.Payload(limit)
		if len(p) > len(kept) {
			t.Fatalf("payload of %d bytes from a body of %d", len(p), len(kept))
		}
		if res.Truncated != "" {
			return // a truncated body may decode partly, or not at all
		}
		if res.Err != nil || perr != nil {
			t.Fatalf("clean end, yet Err %v, Payload error %v", res.Err, perr)
		}
		want, err := io.ReadAll(httputil.NewChunkedReader(bytes.NewReader(kept)))
		if err != nil || !bytes.Equal(p, want) {
			t.Fatalf("Payload %q, httputil %q, %v", p, want, err)
		}
		if short, _ := res.Payload(3); !bytes.HasPrefix(p, short) || len(short) > 3 {
			t.Fatalf("Payload(3) = %q, not a prefix of %q", short, p)
		}
	})
}
