package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecover plays a crash: a Writer writes exchanges and is never closed,
// and the crash leaves half a record at the end of the .open file.
func TestRecover(t *testing.T) {
	for _, compress := range []bool{true, false} {
		cfg := testConfig(t)
		cfg.Compress = compress
		w := newWriter(t, cfg)
		urls := []string{"http://a.th/1", "http://a.th/2", "http://a.th/3"}
		for _, u := range urls {
			ref, err := w.WriteExchange(&Exchange{URL: u, IP: "127.0.0.1", RawRequest: request(u), RawResponse: response("สวัสดี " + u)})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteMetadata(u, ref.ResponseID, t0, []Field{{"via", ""}}); err != nil {
				t.Fatal(err)
			}
		}
		open, _ := filepath.Glob(filepath.Join(cfg.Dir, "*.open"))
		if len(open) != 1 {
			t.Fatalf("%d .open files", len(open))
		}
		whole, _ := os.ReadFile(open[0])
		// Half of the first record again: a write the crash cut short.
		// (Half of the first record only: a whole record before the cut
		// is kept, TestRecoverEveryCut.)
		first := readAll(t, open[0])[1].Offset
		os.WriteFile(open[0], append(append([]byte{}, whole...), whole[:first/2]...), 0o644)

		got, err := Recover(cfg.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != strings.TrimSuffix(open[0], ".open") {
			t.Fatalf("Recover = %v, want %s without .open", got, open[0])
		}
		st, _ := os.Stat(got[0])
		if st.Size() != int64(len(whole)) {
			t.Errorf("compress=%v: recovered file has %d bytes, want the %d of its whole records", compress, st.Size(), len(whole))
		}
		recs := readAll(t, got[0]) // strict: fails on a cut record
		if len(recs) != 1+3*3 {
			t.Errorf("compress=%v: %d records, want warcinfo + 3 exchanges with metadata", compress, len(recs))
		}
		index, _ := os.ReadFile(filepath.Join(cfg.Dir, IndexName))
		lines := strings.Split(strings.TrimSpace(string(index)), "\n")
		if len(lines) != 3 {
			t.Fatalf("compress=%v: index has %d lines, want 3:\n%s", compress, len(lines), index)
		}
		for i, l := range lines {
			if !strings.Contains(l, `"url":"`+urls[i]+`"`) || !strings.Contains(l, `"status":"200"`) || !strings.Contains(l, filepath.Base(got[0])) {
				t.Errorf("index line %d: %s", i, l)
			}
		}
		if again, err := Recover(cfg.Dir); err != nil || len(again) != 0 {
			t.Errorf("second Recover = %v, %v; want nothing to do", again, err)
		}
	}
}

func TestRecoverDropsEmptyFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "langcrawl-20260101000000000-00000-h.warc.gz.open")
	os.WriteFile(p, []byte{0x1f, 0x8b, 0x08}, 0o644)
	got, err := Recover(dir)
	if err != nil || len(got) != 0 {
		t.Fatalf("Recover = %v, %v", got, err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Error("a file with no whole record was kept")
	}
}

// TestRecoverEveryCut: whatever byte a crash or a full disk cuts an .open
// file at, Recover keeps exactly its whole records, up to the last record
// boundary at or before the cut, and indexes those, so that a resumed
// crawl leaves no half record for pywb to replay. With an uncompressed
// file, gowarc v1.6.0 read a record cut in its block or at the end of a
// header line as whole, and Recover kept it (on the file of one exchange
// without a request, 107 of its 512 cuts in the exchange left a file that
// did not end at a record boundary). And a cut in the first bytes of a
// record took the whole record before it too, whose URL may be done.
func TestRecoverEveryCut(t *testing.T) {
	for _, compress := range []bool{true, false} {
		cfg := testConfig(t)
		cfg.Compress = compress
		w := newWriter(t, cfg)
		u := "http://a.th/1"
		if _, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response("สวัสดี " + u)}); err != nil {
			t.Fatal(err)
		}
		w.Close()
		files, _ := filepath.Glob(filepath.Join(cfg.Dir, "*.warc*"))
		if len(files) != 1 {
			t.Fatalf("%d WARC files", len(files))
		}
		whole, _ := os.ReadFile(files[0])
		ends := recordEnds(t, files[0])
		name := filepath.Base(files[0])
		for n := 1; n < len(whole); n++ {
			var want int64 // the last record boundary at or before n
			for e := range ends {
				if e <= int64(n) && e > want {
					want = e
				}
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, name+".open"), whole[:n], 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Recover(dir)
			if err != nil {
				t.Fatalf("compress=%v, cut at %d: %v", compress, n, err)
			}
			if want == 0 {
				if len(got) != 0 {
					t.Errorf("compress=%v, cut at %d inside the warcinfo record: kept %v", compress, n, got)
				}
				continue
			}
			if len(got) != 1 {
				t.Fatalf("compress=%v, cut at %d: Recover = %v", compress, n, got)
			}
			data, _ := os.ReadFile(got[0])
			if int64(len(data)) != want || !bytes.Equal(data, whole[:want]) {
				t.Errorf("compress=%v, cut at %d of %d: kept %d bytes, want the %d of the whole records", compress, n, len(whole), len(data), want)
				continue
			}
			recs := readAll(t, got[0])
			responses := 0
			for _, r := range recs {
				if r.Type == "response" {
					responses++
				}
			}
			index, _ := os.ReadFile(filepath.Join(dir, IndexName))
			if lines := strings.Count(string(index), "\n"); lines != responses {
				t.Errorf("compress=%v, cut at %d: %d index lines for %d responses", compress, n, lines, responses)
			}
		}
	}
}

// TestRecoverKeepsRecordsGowarcWarnsAbout: a whole record that breaks a
// rule of the WARC specification without being cut (here a WARC-IP-Address
// that is a host name, which the fetcher can write when it knows no
// address) is kept, with every record after it.
func TestRecoverKeepsRecordsGowarcWarnsAbout(t *testing.T) {
	for _, compress := range []bool{true, false} {
		cfg := testConfig(t)
		cfg.Compress = compress
		w := newWriter(t, cfg)
		for _, u := range []string{"http://a.th/1", "http://a.th/2"} {
			if _, err := w.WriteExchange(&Exchange{URL: u, IP: "host.example", RawRequest: request(u), RawResponse: response("x")}); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		files, _ := filepath.Glob(filepath.Join(cfg.Dir, "*.warc*"))
		whole, _ := os.ReadFile(files[0])
		dir := t.TempDir()
		name := filepath.Base(files[0])
		os.WriteFile(filepath.Join(dir, name+".open"), whole, 0o644)
		got, err := Recover(dir)
		if err != nil || len(got) != 1 {
			t.Fatalf("compress=%v: Recover = %v, %v", compress, got, err)
		}
		if st, _ := os.Stat(got[0]); st.Size() != int64(len(whole)) {
			t.Errorf("compress=%v: kept %d of the %d bytes of whole records", compress, st.Size(), len(whole))
		}
	}
}

// TestScanForeignGzipRecords: in a gzip WARC file of another tool, a member
// that reads whole is indexed as it is, even if its record has no
// Content-Length or a block shorter than it says: the checksum shows a
// crash's cut, and one odd record must not stop the index of a file.
func TestScanForeignGzipRecords(t *testing.T) {
	member := func(rec string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(rec))
		zw.Close()
		return b.Bytes()
	}
	head := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:%s>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: http://a.th/%s\r\nContent-Type: text/plain\r\n"
	var file []byte
	file = append(file, member(fmt.Sprintf(head, "00000000-0000-0000-0000-000000000001", "none")+"\r\n\r\n\r\n")...)
	file = append(file, member(fmt.Sprintf(head, "00000000-0000-0000-0000-000000000002", "short")+"Content-Length: 60\r\n\r\nfifty-three bytes of a block that says it has sixty!!\r\n\r\n")...)
	file = append(file, member(fmt.Sprintf(head, "00000000-0000-0000-0000-000000000003", "good")+"Content-Length: 2\r\n\r\nok\r\n\r\n")...)
	path := filepath.Join(t.TempDir(), "other.warc.gz")
	os.WriteFile(path, file, 0o644)
	var uris []string
	if err := Scan(bytes.NewReader(file), "other.warc.gz", 0, func(r Record, _ []byte) error {
		uris = append(uris, r.TargetURI)
		return nil
	}); err != nil {
		t.Fatalf("Scan: %v", err)
	}
	if len(uris) != 3 {
		t.Errorf("Scan read %v, want the three records", uris)
	}
	n := 0
	if err := Each(path, 1<<16, func(Record) error { n++; return nil }); err != nil || n != 3 {
		t.Errorf("Each: %d records, %v; want 3, nil", n, err)
	}
}

// TestRecoverIndexNotMerged: when only the merge fails (here a run that
// cannot be read, as a full disk fails the copy of the index), the files
// are recovered, the error says so, and the index runs stay for the next
// merge.
func TestRecoverIndexNotMerged(t *testing.T) {
	cfg := testConfig(t)
	w := newWriter(t, cfg)
	if _, err := w.WriteExchange(&Exchange{URL: "http://a.th/1", IP: "127.0.0.1", RawRequest: request("http://a.th/1"), RawResponse: response("สวัสดี")}); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(cfg.Dir, RunsDir, "bad.warc.gz.cdxj")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Recover(cfg.Dir)
	if !errors.Is(err, ErrIndexNotMerged) {
		t.Fatalf("Recover error %v, want ErrIndexNotMerged", err)
	}
	if len(got) != 1 || strings.HasSuffix(got[0], ".open") {
		t.Errorf("recovered %v, want the file closed", got)
	}
	runs, _ := filepath.Glob(filepath.Join(cfg.Dir, RunsDir, "*.cdxj"))
	if len(runs) != 2 {
		t.Errorf("%d index runs left, want the recovered file's beside the bad one", len(runs))
	}
	os.RemoveAll(bad)
	if _, err := Recover(cfg.Dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(cfg.Dir, IndexName)); !strings.Contains(string(b), "http://a.th/1") {
		t.Errorf("the next merge did not take the run in: %q", b)
	}
}
