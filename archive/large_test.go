package archive

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// An exchange whose response comes in two parts (RawResponse and a Tail,
// as the fetcher hands over a body too large for memory) is archived
// exactly as the same response held whole: the same block, the same
// digests, the same index line; and it leaves no temporary file behind.
func TestLargeResponseFromTail(t *testing.T) {
	for _, c := range []struct {
		name     string
		compress bool
		raw      bool
		chunked  bool
	}{{"gz raw", true, true, false}, {"plain raw", false, true, false}, {"gz chunked raw", true, true, true}, {"gz chunked dechunked", true, false, true}} {
		t.Run(c.name, func(t *testing.T) {
			var resp bytes.Buffer
			body := bytes.Repeat([]byte("0123456789abcdef"), 200_000) // 3.2 MB
			if c.chunked {
				resp.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n")
				for i := 0; i < len(body); i += 100_000 {
					fmt.Fprintf(&resp, "%x\r\n%s\r\n", 100_000, body[i:i+100_000])
				}
				resp.WriteString("0\r\n\r\n")
			} else {
				fmt.Fprintf(&resp, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			}
			raw := resp.Bytes()
			split := 100_000
			tmp := t.TempDir()
			tailFile := filepath.Join(tmp, "tail")
			if err := os.WriteFile(tailFile, raw[split:], 0o644); err != nil {
				t.Fatal(err)
			}
			tail, err := os.Open(tailFile)
			if err != nil {
				t.Fatal(err)
			}
			defer tail.Close()

			write := func(ex *Exchange, tempDir string) (Ref, []Record) {
				dir := t.TempDir()
				w := newWriter(t, Config{Dir: dir, Compress: c.compress, RawPayloadDigest: c.raw, TempDir: tempDir})
				ref, err := w.WriteExchange(ex)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				recs, err := ReadAll(w.Files()[0])
				if err != nil {
					t.Fatal(err)
				}
				return ref, recs
			}
			req := []byte("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n")
			whole, wrecs := write(&Exchange{URL: "http://a.test/", RawRequest: req, RawResponse: raw, Chunked: c.chunked}, "")
			spillDir := t.TempDir()
			parts, precs := write(&Exchange{URL: "http://a.test/", RawRequest: req, RawResponse: raw[:split],
				Tail: tail, TailSize: int64(len(raw) - split), Chunked: c.chunked}, spillDir)
			if whole.PayloadDigest != parts.PayloadDigest || whole.Length == 0 {
				t.Errorf("payload digest %s from parts, %s whole", parts.PayloadDigest, whole.PayloadDigest)
			}
			var wr, pr *Record
			for i := range wrecs {
				if wrecs[i].Type == "response" {
					wr = &wrecs[i]
				}
			}
			for i := range precs {
				if precs[i].Type == "response" {
					pr = &precs[i]
				}
			}
			if wr == nil || pr == nil || !bytes.Equal(pr.Block, raw) || !bytes.Equal(wr.Block, pr.Block) {
				t.Fatal("the response block from parts differs from the response")
			}
			for _, f := range []string{"WARC-Block-Digest", "WARC-Payload-Digest", "Content-Length"} {
				if pr.Header(f) != wr.Header(f) {
					t.Errorf("%s: %q from parts, %q whole", f, pr.Header(f), wr.Header(f))
				}
			}
			if left, _ := os.ReadDir(spillDir); len(left) != 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}
