package archive

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkWriteExchange measures WriteExchange for 10 KB pages; MB/s
// counts the response bytes.
func BenchmarkWriteExchange(b *testing.B) {
	page := response(strings.Repeat("<p>ข่าวภาษาไทย 12345</p>\n", 400)[:10_000])
	req := request("http://a.th/page")
	for _, compress := range []bool{true, false} {
		b.Run(fmt.Sprintf("compress=%v", compress), func(b *testing.B) {
			cfg := Config{Dir: b.TempDir(), Compress: compress, Hostname: "bench", MaxSize: 64 << 20}
			w, err := NewWriter(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			ex := &Exchange{URL: "http://a.th/page", IP: "127.0.0.1", RawRequest: req, RawResponse: page}
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := w.WriteExchange(ex); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPayloadDigest measures the chunked payload digest of 10 KB.
func BenchmarkPayloadDigest(b *testing.B) {
	body := chunk([]byte(strings.Repeat("x", 10_000)), 1024)
	msg := response(string(body), "Transfer-Encoding: chunked")
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		PayloadDigest(msg, 0, false, false)
	}
}
