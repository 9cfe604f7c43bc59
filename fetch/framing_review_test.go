package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"
)

// An HTTP/1.1 framing review (RFC 9112, RFC 9110), each case on a raw
// loopback server. The forged response a case appends must never be
// recorded as part of, or as the answer to, the request.
const forgedAfter = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged"

// TestStatusBelow100IsFinal (from an HTTP framing review): only 1xx responses are interim (RFC 9110
// section 15.2); a three-digit code below 100 is invalid and is
// processed as a final response, as one of 600-999 already is (section
// 15: "SHOULD process the response as if it had a 5xx"). The review
// found 000-099 skipped as interim: a "000" head with no body made the
// next bytes (a forged 200) the archived answer, and a "042" with a
// chunked body failed as malformed, its body read as a status line.
func TestStatusBelow100IsFinal(t *testing.T) {
	for _, c := range []struct {
		sent    string
		status  int
		payload string
	}{
		// No framing: the body runs to the close, forged bytes and all.
		{"HTTP/1.1 000 Zero\r\n\r\n" + forgedAfter, 0, forgedAfter},
		{"HTTP/1.1 042 X\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 42, "abc"},
		{"HTTP/1.1 099 X\r\nContent-Length: 3\r\n\r\nabc", 99, "abc"},
	} {
		srv := newRawServer(t, func(conn net.Conn, _ []byte, _ int) bool {
			io.WriteString(conn, c.sent)
			return false
		})
		res, err := newClient(t, Config{}).Do(context.Background(), "GET", srv.url("/"), nil)
		if err != nil {
			t.Errorf("%q: %v; want the response archived as sent", c.sent, err)
			continue
		}
		if res.Status != c.status || res.Interim != nil || string(res.RawResponse) != c.sent || res.Truncated != "" {
			t.Errorf("%q: status %d, interim %q, raw %q, truncated %q; want status %d as sent, no interim",
				c.sent, res.Status, res.Interim, res.RawResponse, res.Truncated, c.status)
		}
		if p, err := res.Payload(0); err != nil || string(p) != c.payload {
			t.Errorf("%q: payload %q, %v; want %q", c.sent, p, err, c.payload)
		}
	}
}

// TestObsFoldInFramingField (from an HTTP framing review): a user agent replaces each obs-fold with SP
// before interpreting a field (RFC 9112 section 5.2), as net/http does
// for fields it reads itself. The review found reframe (Transfer-Encoding
// lists net/http leaves to it) splitting the head by lines without
// unfolding: "Transfer-Encoding: gzip,\r\n chunked" read as "gzip," alone,
// the chunked body read to the close with the forged response after it
// recorded as this URL's body, or, the field first in the head, the page
// refused as malformed.
func TestObsFoldInFramingField(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("zipped"))
	zw.Close()
	body := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", gz.Len(), gz.String())
	for _, head := range []string{
		"X-A: 1\r\nTransfer-Encoding: gzip,\r\n chunked\r\n",
		"Transfer-Encoding: gzip,\r\n\tchunked\r\nX-A: 1\r\n",
	} {
		resp := "HTTP/1.1 200 OK\r\n" + head + "\r\n" + body
		srv := newRawServer(t, func(conn net.Conn, _ []byte, _ int) bool {
			io.WriteString(conn, resp+forgedAfter)
			return false
		})
		res, err := newClient(t, Config{}).Do(context.Background(), "GET", srv.url("/"), nil)
		if err != nil {
			t.Errorf("%q: %v; want the response read as chunked", head, err)
			continue
		}
		if string(res.RawResponse) != resp || !res.Chunked || res.Truncated != "" {
			t.Errorf("%q: chunked %v, truncated %q, raw %q; want the chunked response alone, without the bytes after it",
				head, res.Chunked, res.Truncated, res.RawResponse)
		}
		if p, err := res.Payload(0); err != nil || string(p) != "zipped" {
			t.Errorf("%q: payload %q, %v; want zipped", head, p, err)
		}
	}
}

// TestSpaceBeforeColonInFramingField (from an HTTP framing review): "Transfer-Encoding : chunked" is
// not a field net/http knows (it keeps the name, space and all, since Go
// issue 34540), so the review found the body framed by the other field
// or by the close: a chunked body cut after 3 bytes by a Content-Length
// beside it and recorded as whole, and a Content-Length of 5 ignored and
// the forged response after the body recorded in it. RFC 9112 section
// 5.1 has a proxy remove such whitespace from a response, so every proxy
// and replay tool (warcio strips the name) reads the field as framing:
// the record is framed as they read it, and the connection not kept; or,
// with fields that then disagree, refused.
func TestSpaceBeforeColonInFramingField(t *testing.T) {
	for _, c := range []struct{ resp, payload string }{
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "hello"},
		{"HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello", "hello"},
	} {
		srv := newRawServer(t, func(conn net.Conn, _ []byte, n int) bool {
			if n == 0 {
				io.WriteString(conn, c.resp+forgedAfter)
			} else {
				io.WriteString(conn, c.resp)
			}
			return true
		})
		// The bound only shortens the failure: read to the close, the
		// server keeping it open, the body ends at the read timeout.
		cl := newClient(t, Config{ReadTimeout: 2 * time.Second})
		res, err := cl.Do(context.Background(), "GET", srv.url("/"), nil)
		if err != nil {
			t.Errorf("%q: %v", c.resp, err)
			continue
		}
		if string(res.RawResponse) != c.resp || res.Truncated != "" {
			t.Errorf("%q: truncated %q, raw %q; want the response as framed by the spaced field, alone", c.resp, res.Truncated, res.RawResponse)
		}
		if p, err := res.Payload(0); err != nil || string(p) != c.payload {
			t.Errorf("%q: payload %q, %v; want %q", c.resp, p, err, c.payload)
		}
		if again := mustDo(t, cl, "GET", srv.url("/"), nil); again.Reused {
			t.Errorf("%q: the connection was kept", c.resp)
		}
	}
	// Fields that disagree once the space is gone are refused, as two
	// Content-Lengths are.
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length : 5\r\n\r\nhello"))
	if _, err := newClient(t, Config{}).Do(context.Background(), "GET", srv.url("/"), nil); err == nil {
		t.Error("Content-Length 3 beside \"Content-Length : 5\": read; want ErrMalformedResponse")
	}
}

// TestProhibitedTrailerAnnounced (from an HTTP framing review): a Trailer field naming a field that
// may not be a trailer (Content-Length, Transfer-Encoding) announces
// trailer fields the recipient ignores (RFC 9110 sections 6.5.1, 6.6.2);
// it does not make the framing doubtful. net/http refuses the response
// ("bad trailer key"), and the review found such pages archived as
// nothing (-3). They are read and recorded as they came, the connection
// not kept.
func TestProhibitedTrailerAnnounced(t *testing.T) {
	for _, sent := range []string{
		"HTTP/1.1 200 OK\r\nTrailer: Content-Length\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nContent-Length: 99\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTrailer: Transfer-Encoding\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
	} {
		srv := newRawServer(t, reply(sent))
		cl := newClient(t, Config{})
		res, err := cl.Do(context.Background(), "GET", srv.url("/"), nil)
		if err != nil {
			t.Errorf("%q: %v; want it archived", sent, err)
			continue
		}
		if string(res.RawResponse) != sent || !res.Chunked || res.Truncated != "" {
			t.Errorf("%q: chunked %v, truncated %q, raw %q; want as sent", sent, res.Chunked, res.Truncated, res.RawResponse)
		}
		if p, err := res.Payload(0); err != nil || string(p) != "hello" {
			t.Errorf("%q: payload %q, %v", sent, p, err)
		}
		if again := mustDo(t, cl, "GET", srv.url("/"), nil); again.Reused {
			t.Errorf("%q: the connection was kept", sent)
		}
	}
}

// TestCutBeforeLastCRLF (from an HTTP framing review): a chunked body cut between its last chunk and
// the CRLF that ends the trailer section is incomplete (RFC 9112 section
// 7.1) and cut by the server, as one cut anywhere else in the body is:
// "disconnect" after a close or a reset, "time" after a silence, and so
// tried again by the crawl. The review found net/http's "unexpected EOF
// reading trailer" marked "unspecified" in all three (not retried), where
// reframe's own reader of the same body said "disconnect".
func TestCutBeforeLastCRLF(t *testing.T) {
	const sent = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"
	for _, c := range []struct {
		name, want string
		cut        func(net.Conn) bool
	}{
		{"close", TruncatedDisconnect, func(net.Conn) bool { return false }},
		{"reset", TruncatedDisconnect, func(conn net.Conn) bool { conn.(*net.TCPConn).SetLinger(0); return false }},
		{"silence", TruncatedTime, func(net.Conn) bool { return true }},
	} {
		srv := newRawServer(t, func(conn net.Conn, _ []byte, _ int) bool {
			io.WriteString(conn, sent)
			return c.cut(conn)
		})
		res := mustDo(t, newClient(t, Config{ReadTimeout: time.Second}), "GET", srv.url("/"), nil)
		if res.Truncated != c.want || string(res.RawResponse) != sent {
			t.Errorf("%s after the last chunk: truncated %q (%v), raw %q; want %q", c.name, res.Truncated, res.Err, res.RawResponse, c.want)
		}
	}
}

// TestSpaceBeforeColonInOrdinaryField: "Content-Type : text/html;
// charset=tis-620" is read as Content-Type, as a proxy must rewrite it
// (RFC 9112 section 5.1) and browsers read it: before, net/http kept the
// name with its space, so the page's declared charset went unread, and
// "Connection : close" kept a connection the server closes (left open by
// the HTTP framing review). The record keeps the head as it came.
func TestSpaceBeforeColonInOrdinaryField(t *testing.T) {
	const resp = "HTTP/1.1 200 OK\r\nContent-Type : text/html; charset=tis-620\r\nContent-Language : th\r\nConnection : close\r\nContent-Length: 5\r\n\r\nhello"
	srv := newRawServer(t, reply(resp))
	cl := newClient(t, Config{})
	res := mustDo(t, cl, "GET", srv.url("/"), nil)
	if got := res.Header.Get("Content-Type"); got != "text/html; charset=tis-620" {
		t.Errorf("Content-Type %q, want the spaced field's value", got)
	}
	if got := res.Header.Get("Content-Language"); got != "th" {
		t.Errorf("Content-Language %q, want th", got)
	}
	if string(res.RawResponse) != resp {
		t.Errorf("raw %q, want the head as it came", res.RawResponse)
	}
	if again := mustDo(t, cl, "GET", srv.url("/"), nil); again.Reused {
		t.Error(`"Connection : close": the connection was kept`)
	}
}
