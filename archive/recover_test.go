package archive

import (
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
		os.WriteFile(open[0], append(append([]byte{}, whole...), whole[:len(whole)/5]...), 0o644)

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
