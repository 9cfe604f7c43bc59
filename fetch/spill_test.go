package fetch

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// A response longer than SpillThreshold keeps only its first bytes in
// memory; the rest is in a temporary file that Open reads back byte for
// byte and Close removes. Payload decodes through the file.
func TestSpill(t *testing.T) {
	for _, c := range []struct {
		name    string
		chunked bool
		gzipped bool
	}{{"plain", false, false}, {"chunked", true, false}, {"gzip", false, true}} {
		t.Run(c.name, func(t *testing.T) {
			body := bytes.Repeat([]byte("<p>ภาษาไทย "), 30000) // ~500 KB
			sent := body
			if c.gzipped {
				var b bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
				zw.Write(body)
				zw.Close()
				sent = b.Bytes()
			}
			var raw bytes.Buffer
			raw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
			if c.gzipped {
				raw.WriteString("Content-Encoding: gzip\r\n")
			}
			if c.chunked {
				raw.WriteString("Transfer-Encoding: chunked\r\n\r\n")
				for i := 0; i < len(sent); i += 7000 {
					chunk := sent[i:min(i+7000, len(sent))]
					fmt.Fprintf(&raw, "%x\r\n%s\r\n", len(chunk), chunk)
				}
				raw.WriteString("0\r\n\r\n")
			} else {
				fmt.Fprintf(&raw, "Content-Length: %d\r\n\r\n%s", len(sent), sent)
			}
			want := raw.Bytes()
			srv := newRawServer(t, func(conn net.Conn, _ []byte, _ int) bool {
				conn.Write(want)
				return true
			})
			dir := t.TempDir()
			cl := newClient(t, Config{SpillThreshold: 64 << 10, TempDir: dir})
			res := mustDo(t, cl, "GET", srv.url("/big"), nil)
			if !res.Spilled() || len(res.RawResponse) > 64<<10+res.BodyOffset || res.Size() != int64(len(want)) {
				t.Fatalf("spilled %v, in memory %d, size %d; want a spill past 64 KiB of body and size %d",
					res.Spilled(), len(res.RawResponse), res.Size(), len(want))
			}
			got, err := io.ReadAll(res.Open())
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("Open read %d bytes (%v), want the %d bytes sent", len(got), err, len(want))
			}
			payload, err := res.Payload(1 << 30)
			if err != nil || !bytes.Equal(payload, body) {
				t.Fatalf("Payload: %d bytes, %v; want the %d-byte body", len(payload), err, len(body))
			}
			if part, _ := res.Payload(1000); len(part) != 1000 {
				t.Errorf("Payload(1000) = %d bytes", len(part))
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			if len(files) != 1 {
				t.Errorf("temp files %v, want one", files)
			}
			if err := res.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
				t.Errorf("Close left %s behind", files[0])
			}
			if err := res.Close(); err != nil {
				t.Errorf("a second Close: %v", err)
			}
		})
	}
}

// A short response never touches the disk.
func TestNoSpillBelowThreshold(t *testing.T) {
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
	dir := t.TempDir()
	res := mustDo(t, newClient(t, Config{SpillThreshold: 64 << 10, TempDir: dir}), "GET", srv.url("/"), nil)
	if res.Spilled() || string(res.RawResponse[res.BodyOffset:]) != "hello" {
		t.Fatalf("spilled %v, body %q", res.Spilled(), res.RawResponse[res.BodyOffset:])
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("temp files %v for a short response", files)
	}
}
