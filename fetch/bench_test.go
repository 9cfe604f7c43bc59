package fetch

import (
	"bytes"
	"context"
	"testing"
)

// BenchmarkKeepAlive measures requests per second over one kept-alive
// loopback connection, with a small chunked response.
func BenchmarkKeepAlive(b *testing.B) {
	body := bytes.Repeat([]byte("<p>ภาษาไทย</p>\n"), 200)
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n" + string(chunk(body, 1024))
	srv := newRawServer(b, reply(resp))
	c := newClient(b, Config{MaxRequestsPerConn: 1 << 30})
	url := srv.url("/page")
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(int64(len(resp)))
	for b.Loop() {
		res, err := c.Do(ctx, "GET", url, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.RawResponse) != len(resp) {
			b.Fatalf("got %d bytes, want %d", len(res.RawResponse), len(resp))
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	if n := srv.accepts.Load(); n != 1 {
		b.Errorf("server accepted %d connections, want 1", n)
	}
}

// BenchmarkPayloadGzip measures decoding a gzip, chunked body.
func BenchmarkPayloadGzip(b *testing.B) {
	page := string(bytes.Repeat([]byte("<p>ภาษาไทย and English</p>\n"), 2000))
	head := "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
	r := &Result{
		RawResponse: append([]byte(head), chunk(gzipped(b, page), 4096)...),
		BodyOffset:  len(head),
		Chunked:     true,
		Header:      map[string][]string{"Content-Encoding": {"gzip"}},
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		p, err := r.Payload(0)
		if err != nil || len(p) != len(page) {
			b.Fatal(len(p), err)
		}
	}
}
