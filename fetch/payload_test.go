package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

func compress(t testing.TB, coding, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		return gzipped(t, s)
	case "zlib":
		w = zlib.NewWriter(&b)
	case "flate":
		fw, err := flate.NewWriter(&b, flate.BestSpeed)
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	}
	io.WriteString(w, s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func chunk(b []byte, size int) []byte {
	var out []byte
	for len(b) > 0 {
		n := min(size, len(b))
		out = append(out, fmt.Sprintf("%x\r\n", n)...)
		out = append(out, b[:n]...)
		out = append(out, "\r\n"...)
		b = b[n:]
	}
	return append(out, "0\r\n\r\n"...)
}

func TestPayload(t *testing.T) {
	const page = "<html><body>ภาษาไทย and some English text, repeated. ภาษาไทย</body></html>"
	gz := compress(t, "gzip", page)
	double := gzipped(t, string(gz))
	tests := []struct {
		name      string
		header    http.Header
		chunked   bool
		body      []byte
		truncated string
		limit     int64
		want      string
		wantErr   error
	}{
		{name: "identity", body: []byte(page), want: page},
		{name: "identity coding named", header: http.Header{"Content-Encoding": {"identity"}}, body: []byte(page), want: page},
		{name: "chunked", chunked: true, body: chunk([]byte(page), 7), want: page},
		{name: "gzip", header: http.Header{"Content-Encoding": {"gzip"}}, body: gz, want: page},
		{name: "x-gzip upper case", header: http.Header{"Content-Encoding": {"X-GZIP"}}, body: gz, want: page},
		{name: "gzip chunked", header: http.Header{"Content-Encoding": {"gzip"}}, chunked: true, body: chunk(gz, 10), want: page},
		{name: "gzip twice", header: http.Header{"Content-Encoding": {"gzip, gzip"}}, body: double, want: page},
		{name: "deflate as zlib", header: http.Header{"Content-Encoding": {"deflate"}}, body: compress(t, "zlib", page), want: page},
		{name: "deflate raw", header: http.Header{"Content-Encoding": {"deflate"}}, body: compress(t, "flate", page), want: page},
		{name: "limit", body: []byte(page), limit: 6, want: page[:6]},
		{name: "gzip limit", header: http.Header{"Content-Encoding": {"gzip"}}, body: gz, limit: 6, want: page[:6]},
		{name: "empty gzip body", header: http.Header{"Content-Encoding": {"gzip"}}, body: nil, want: ""},
		{name: "truncated gzip", header: http.Header{"Content-Encoding": {"gzip"}}, body: gz[:len(gz)-12], truncated: TruncatedLength, want: page[:40]},
		{name: "truncated chunked", chunked: true, body: chunk([]byte(page), 7)[:30], truncated: TruncatedDisconnect, want: page[:14]},
		{name: "corrupt gzip", header: http.Header{"Content-Encoding": {"gzip"}}, body: []byte("not gzip at all"), wantErr: gzip.ErrHeader},
		{name: "brotli", header: http.Header{"Content-Encoding": {"br"}}, body: []byte{1, 2, 3}, wantErr: ErrUnsupportedEncoding},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head := "HTTP/1.1 200 OK\r\n\r\n"
			r := &Result{
				URL:         "http://a.test/",
				RawResponse: append([]byte(head), tt.body...),
				BodyOffset:  len(head),
				Header:      tt.header,
				Chunked:     tt.chunked,
				Truncated:   tt.truncated,
			}
			got, err := r.Payload(tt.limit)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if tt.truncated != "" {
				// Truncated input yields a prefix of the page, at least as long as asked.
				if !strings.HasPrefix(page, string(got)) || len(got) < len(tt.want) {
					t.Fatalf("Payload = %q, want a prefix of the page of at least %d bytes", got, len(tt.want))
				}
				return
			}
			if string(got) != tt.want {
				t.Fatalf("Payload = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPayloadBadOffset(t *testing.T) {
	r := &Result{RawResponse: []byte("abc"), BodyOffset: 10}
	if _, err := r.Payload(10); err == nil {
		t.Fatal("offset past the end accepted")
	}
}
