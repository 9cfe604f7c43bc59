package archive

import (
	"bytes"
	"testing"
)

// FuzzRoundTrip writes arbitrary response bytes as an exchange and reads
// them back: the block must come back verbatim, and every digest must check.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"), false, "")
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"), false, "")
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nhi\r\n1"), true, "length")
	f.Add([]byte("HTTP/1.0 404\nX: y\n\n"), false, "disconnect")
	f.Add([]byte(""), false, "")
	f.Add([]byte("\r\n\r\n\r\n"), true, "time")
	f.Fuzz(func(t *testing.T, raw []byte, compress bool, truncated string) {
		if checkTruncated(truncated) != nil {
			return
		}
		cfg := testConfig(t)
		cfg.Compress = compress
		w := newWriter(t, cfg)
		w.create = noSyncCreate // fsync per file makes fuzzing crawl
		ref, err := w.WriteExchange(&Exchange{
			URL: "http://a.th/", IP: "127.0.0.1",
			RawRequest: request("http://a.th/"), RawResponse: raw, Truncated: truncated,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		recs, err := ReadAll(ref.File)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 3 {
			t.Fatalf("%d records", len(recs))
		}
		resp := recs[2]
		if !bytes.Equal(resp.Block, raw) {
			t.Fatalf("block changed:\n%q\n%q", resp.Block, raw)
		}
		if resp.Header("WARC-Payload-Digest") != PayloadDigest(raw, 0, false, false) ||
			resp.Header("WARC-Block-Digest") != sha1b32(raw) {
			t.Fatalf("digests %v", resp.Headers)
		}
		if resp.Header("WARC-Truncated") != truncated || resp.ID != ref.ResponseID || resp.Offset != ref.Offset {
			t.Fatalf("headers %v, ref %+v", resp.Headers, ref)
		}
	})
}

// FuzzDechunk encodes data with chunk sizes taken from the fuzzer and checks
// that dechunking gives the data back, also for every truncated prefix
// length the fuzzer picks.
func FuzzDechunk(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{3, 1, 7}, 5)
	f.Add([]byte{}, []byte{}, 0)
	f.Fuzz(func(t *testing.T, data, sizes []byte, cut int) {
		var enc bytes.Buffer
		var pieces [][]byte
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := 1
			if len(sizes) > 0 {
				n = max(1, int(sizes[i%len(sizes)]))
			}
			n = min(n, len(rest))
			pieces = append(pieces, rest[:n])
			enc.WriteString(hexLen(n) + "\r\n")
			enc.Write(rest[:n])
			enc.WriteString("\r\n")
			rest = rest[n:]
		}
		enc.WriteString("0\r\n\r\n")
		var out bytes.Buffer
		if !dechunk(&out, enc.Bytes()) || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("dechunk(%q) = %q", enc.Bytes(), out.Bytes())
		}
		// A truncated body gives a prefix of the data.
		if cut < 0 {
			cut = -cut
		}
		cut %= enc.Len() + 1
		out.Reset()
		if !dechunk(&out, enc.Bytes()[:cut]) || !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("truncated dechunk(%q) = %q, not a prefix of %q", enc.Bytes()[:cut], out.Bytes(), data)
		}
	})
}

func hexLen(n int) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n >>= 4 {
		b = append([]byte{digits[n&15]}, b...)
	}
	return string(b)
}

type noSync struct{ file }

func (noSync) Sync() error { return nil }

func noSyncCreate(path string) (file, error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	return noSync{f}, nil
}
