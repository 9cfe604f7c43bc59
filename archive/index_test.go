package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// checkIndexComplete checks that every line of dir's index is whole and
// points at a response or revisit record of its URL in a closed file, and
// that every such record has exactly one line.
func checkIndexComplete(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Errorf("index ends in a cut line: %q", data[max(0, len(data)-80):])
	}
	type at struct {
		file string
		off  int64
	}
	indexed := map[at]int{}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if !slices.IsSorted(lines) {
		t.Error("index not sorted")
	}
	for _, line := range lines {
		parts := strings.SplitN(line, " ", 3)
		var v struct{ URL, Filename, Offset string }
		if len(parts) != 3 || json.Unmarshal([]byte(parts[2]), &v) != nil {
			t.Errorf("bad index line %q", line)
			continue
		}
		off, _ := strconv.ParseInt(v.Offset, 10, 64)
		indexed[at{v.Filename, off}]++
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc*"))
	for _, f := range files {
		if strings.HasSuffix(f, openSuffix) {
			t.Errorf("%s still open", f)
			continue
		}
		for _, r := range readAll(t, f) {
			if r.Type != "response" && r.Type != "revisit" {
				continue
			}
			k := at{filepath.Base(f), r.Offset}
			if indexed[k] != 1 {
				t.Errorf("%s of %s at %s:%d has %d index lines, want 1", r.Type, r.TargetURI, k.file, k.off, indexed[k])
			}
			delete(indexed, k)
		}
	}
	for k, n := range indexed {
		t.Errorf("index line for %s:%d (%d times) points at no response record", k.file, k.off, n)
	}
}

// TestFullDiskAtIndexRun fills the disk when a file's index lines are
// written: the file stays ".open" (never a closed file without its lines),
// writing goes on in a new file, and Close publishes it once there is
// space again. When there is none even at Close, Recover does it at the
// next start. No cut line, no response without its line.
func TestFullDiskAtIndexRun(t *testing.T) {
	for _, spaceAtClose := range []bool{true, false} {
		t.Run(fmt.Sprintf("spaceAtClose=%v", spaceAtClose), func(t *testing.T) {
			cfg := testConfig(t)
			w := newWriter(t, cfg)
			full := false
			w.writeRun = func(dir, name string, lines []byte) error {
				if full {
					return &os.PathError{Op: "write", Path: filepath.Join(dir, RunsDir, name+".cdxj"), Err: syscall.ENOSPC}
				}
				return writeRun(dir, name, lines)
			}
			write := func(i int) {
				t.Helper()
				u := fmt.Sprintf("http://a.th/%d", i)
				if _, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response("page " + u)}); err != nil {
					t.Fatal(err)
				}
			}
			write(0)
			if err := w.Rotate(); err != nil {
				t.Fatal(err)
			}
			write(1)
			full = true
			err := w.Rotate()
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), openSuffix) {
				t.Fatalf("Rotate on a full disk: %v, want ENOSPC naming the file left open", err)
			}
			if open, _ := filepath.Glob(filepath.Join(cfg.Dir, "*"+openSuffix)); len(open) != 1 {
				t.Fatalf("%d .open files after the failed run, want the file whose lines failed", len(open))
			}
			write(2) // goes on in a new file
			full = !spaceAtClose
			err = w.Close()
			if spaceAtClose {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				if err == nil {
					t.Fatal("Close on a full disk reported nothing")
				}
				full = false
				if _, err := Recover(cfg.Dir); err != nil {
					t.Fatal(err)
				}
			}
			checkIndexComplete(t, cfg.Dir)
			if runs, _ := filepath.Glob(filepath.Join(cfg.Dir, RunsDir, "*")); len(runs) != 0 {
				t.Errorf("runs left after the merge: %v", runs)
			}
		})
	}
}

// TestMergeIndexTwice plays a kill after the merged index was renamed into
// place but before the runs were removed: merging them again adds nothing.
func TestMergeIndexTwice(t *testing.T) {
	cfg := testConfig(t)
	w := newWriter(t, cfg)
	for i := range 4 {
		u := fmt.Sprintf("http://a.th/%d", i)
		if _, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response("x")}); err != nil {
			t.Fatal(err)
		}
		if err := w.Rotate(); err != nil {
			t.Fatal(err)
		}
	}
	runs, _ := filepath.Glob(filepath.Join(cfg.Dir, RunsDir, "*.cdxj"))
	if len(runs) != 4 {
		t.Fatalf("%d runs for 4 closed files", len(runs))
	}
	saved := map[string][]byte{}
	for _, r := range runs {
		saved[r], _ = os.ReadFile(r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(cfg.Dir, IndexName))
	for r, b := range saved {
		os.WriteFile(r, b, 0o644)
	}
	if err := MergeIndex(cfg.Dir); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(cfg.Dir, IndexName))
	if !bytes.Equal(before, after) {
		t.Errorf("merging the runs again changed the index:\n%s\nwant:\n%s", after, before)
	}
	checkIndexComplete(t, cfg.Dir)
}

// TestMergeIndexUnsorted: an index an older langcrawl left unsorted (it
// appended lines, and was killed before its sort) is sorted in the merge.
func TestMergeIndexUnsorted(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, IndexName), []byte("c)/ 3 {}\na)/ 1 {}\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, RunsDir), 0o755)
	os.WriteFile(filepath.Join(dir, RunsDir, "f.warc.gz.cdxj"), []byte("b)/ 2 {}\nd)/ 4 {}\n"), 0o644)
	if err := MergeIndex(dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, IndexName))
	if want := "a)/ 1 {}\nb)/ 2 {}\nc)/ 3 {}\nd)/ 4 {}\n"; string(got) != want {
		t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
}

// TestSorterExternal sorts more lines than its memory holds, in more runs
// than one merge round takes.
func TestSorterExternal(t *testing.T) {
	dir := t.TempDir()
	s := NewSorter(dir, 400)
	r := rand.New(rand.NewPCG(1, 2))
	var want []string
	for i := range 20000 {
		l := fmt.Sprintf("k%06d %d {}\n", r.IntN(5000), i%3)
		want = append(want, l)
		if err := s.Add([]byte(strings.TrimSuffix(l, "\n"))); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.runs) <= maxFanIn {
		t.Fatalf("only %d runs: the test does not reach a second merge round", len(s.runs))
	}
	slices.Sort(want)
	want = slices.Compact(want)
	var out bytes.Buffer
	if _, err := s.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != strings.Join(want, "") {
		t.Errorf("external sort differs from sort -u: %d bytes, want %d", len(got), len(strings.Join(want, "")))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d temporary files left", len(left))
	}
}

// TestSerialContinues: a second Writer on the same directory numbers its
// files after the first one's, ".open" files included.
func TestSerialContinues(t *testing.T) {
	cfg := testConfig(t)
	w := newWriter(t, cfg)
	for range 2 {
		if _, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("x")}); err != nil {
			t.Fatal(err)
		}
		if err := w.Rotate(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	serials := func(files []string) []string {
		var s []string
		for _, f := range files {
			m := nameRE.FindStringSubmatch(filepath.Base(f))
			if m == nil {
				t.Fatalf("file name %s", f)
			}
			s = append(s, m[2])
		}
		return s
	}
	if got := serials(w.Files()); !slices.Equal(got, []string{"00000", "00001"}) {
		t.Fatalf("first writer's serials %v", got)
	}
	w2 := newWriter(t, cfg)
	if _, err := w2.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("y")}); err != nil {
		t.Fatal(err)
	}
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	if got := serials(w2.Files()); !slices.Equal(got, []string{"00002"}) {
		t.Errorf("second writer's serials %v, want [00002]", got)
	}
	// A file a crash left open counts too.
	os.WriteFile(filepath.Join(cfg.Dir, "langcrawl-20260101000000000-00041-crawler-1.example.org.warc.gz.open"), nil, 0o644)
	os.WriteFile(filepath.Join(cfg.Dir, "other-20260101000000000-00099-h.warc.gz"), nil, 0o644) // another prefix
	if n, err := nextSerial(cfg.Dir, DefaultPrefix); err != nil || n != 42 {
		t.Errorf("nextSerial = %d, %v; want 42", n, err)
	}
}

func TestWarcinfoIsPartOf(t *testing.T) {
	cfg := testConfig(t)
	cfg.IsPartOf = "thai-web-2026"
	w := newWriter(t, cfg)
	ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("x")})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, ref.File)
	f := parseFields(t, recs[0].Block)
	if got := f["isPartOf"]; !slices.Equal(got, []string{"thai-web-2026"}) {
		t.Errorf("warcinfo isPartOf = %q", got)
	}
	if got := f["software"]; !slices.Equal(got, []string{cfg.Software}) {
		t.Errorf("warcinfo software = %q", got)
	}
}

// TestWarcinfoGeneration: SetGeneration puts the crawl generation into the
// warcinfo record of the files opened after it; a writer never told says
// nothing of it (and an older reader sees no new field).
func TestWarcinfoGeneration(t *testing.T) {
	for _, gen := range []int64{0, 3} {
		w := newWriter(t, testConfig(t))
		if gen > 0 {
			w.SetGeneration(gen)
		}
		ref, err := w.WriteExchange(&Exchange{URL: "http://a.th/", RawResponse: response("x")})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got := parseFields(t, readAll(t, ref.File)[0].Block)["generation"]
		if want := []string{"3"}; gen == 0 && got != nil || gen > 0 && !slices.Equal(got, want) {
			t.Errorf("SetGeneration(%d): warcinfo generation %q", gen, got)
		}
	}
}

// TestIndexFilesMatchesWriter: the index built from the WARC files alone
// is the Writer's own, byte for byte, for compressed and plain files with
// responses (one larger than Scan reads of a block), revisits, metadata
// and rotations.
func TestIndexFilesMatchesWriter(t *testing.T) {
	for _, compress := range []bool{true, false} {
		cfg := testConfig(t)
		cfg.Compress = compress
		cfg.MaxSize = 5000
		w := newWriter(t, cfg)
		big := strings.Repeat("ภาษาไทย ", 30000) // ~660 KB, past minHeadBlock
		for i := range 8 {
			u := fmt.Sprintf("http://www.a.th/p?b=%d&a=1", i)
			body := "page " + u
			if i == 3 {
				body = big
			}
			ref, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response(body),
				Metadata: []Field{{"language", "th"}}})
			if err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				_, err := w.WriteRevisit(&Revisit{URL: u, RawRequest: request(u), RawResponse: []byte("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"),
					Profile: ProfileServerNotModified, RefersTo: ref.ResponseID, RefersToTargetURI: u, RefersToDate: t0,
					PayloadDigest: ref.PayloadDigest, Date: t0.Add(time.Hour)})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(cfg.Dir, IndexName))
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(want, []byte("\n")); n != 8+3 {
			t.Fatalf("writer's index has %d lines, want 11", n)
		}
		var got bytes.Buffer
		if err := IndexFiles(&got, t.TempDir(), nil, w.Files()...); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("compress=%v: IndexFiles:\n%s\nwriter's index:\n%s", compress, got.Bytes(), want)
		}
	}
}

// TestIndexFilesNotAWARC: a file that does not start with a WARC record
// (another file named .warc.gz by mistake) is said as that, not only as
// "a record cut short at 0" (a README trial).
func TestIndexFilesNotAWARC(t *testing.T) {
	junk := filepath.Join(t.TempDir(), "junk.warc.gz")
	if err := os.WriteFile(junk, []byte("<html>not a WARC file</html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := IndexFiles(io.Discard, t.TempDir(), nil, junk)
	if err == nil || !strings.Contains(err.Error(), "no WARC file") || !strings.Contains(err.Error(), "junk.warc.gz") {
		t.Errorf("index of a file that is no WARC: %v, want it named and said to be no WARC file", err)
	}
}
