package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// powerFile is a file whose unsynced writes a power cut drops: it tracks
// how much of it was fsynced, and cut truncates it to that.
type powerFile struct {
	*os.File
	mu     *sync.Mutex
	synced *map[string]int64
}

func (f powerFile) Sync() error {
	if err := f.File.Sync(); err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	f.mu.Lock()
	(*f.synced)[f.Name()] = st.Size()
	f.mu.Unlock()
	return nil
}

// powerDisk hands out powerFiles and plays the power cut.
type powerDisk struct {
	mu     sync.Mutex
	synced map[string]int64 // path as created -> bytes fsynced
}

func (d *powerDisk) create(path string) (file, error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.synced[path] = 0
	d.mu.Unlock()
	return powerFile{File: f.(*os.File), mu: &d.mu, synced: &d.synced}, nil
}

// cut drops what was not fsynced from every file still ".open" (closed
// files were fsynced by finish).
func (d *powerDisk) cut(t *testing.T) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for path, n := range d.synced {
		if _, err := os.Stat(path); err != nil {
			continue // renamed: closed and synced
		}
		if err := os.Truncate(path, n); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSyncSurvivesPowerCut writes exchanges, syncs after some of them, and
// drops every unsynced byte: what Sync covered must read back whole, what
// came after it must be gone (so the test can tell Sync from no Sync).
func TestSyncSurvivesPowerCut(t *testing.T) {
	cfg := testConfig(t)
	cfg.Compress = true
	cfg.MaxSize = 6000 // a few rotations
	w := newWriter(t, cfg)
	d := &powerDisk{synced: map[string]int64{}}
	w.create = d.create
	page := strings.Repeat("ภาษาไทย", 150)
	var synced []string
	for i := range 20 {
		u := fmt.Sprintf("http://a.th/%d", i)
		if _, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response(page + u)}); err != nil {
			t.Fatal(err)
		}
		if i < 13 {
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
			synced = append(synced, u)
		}
	}
	d.cut(t)
	if _, err := Recover(cfg.Dir); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	files, _ := filepath.Glob(filepath.Join(cfg.Dir, "*.warc.gz"))
	for _, f := range files {
		for _, r := range readAll(t, f) {
			if r.Type == "response" {
				got[r.TargetURI]++
			}
		}
	}
	for _, u := range synced {
		if got[u] != 1 {
			t.Errorf("%s synced before the power cut, read back %d times", u, got[u])
		}
	}
	if got["http://a.th/19"] != 0 {
		t.Error("the last exchange, never synced, survived the power cut: the cut drops nothing")
	}
	// The index names exactly the responses that are there.
	index, _ := os.ReadFile(filepath.Join(cfg.Dir, IndexName))
	lines := strings.Split(strings.TrimSpace(string(index)), "\n")
	n := 0
	for _, c := range got {
		n += c
	}
	if len(lines) != n {
		t.Errorf("index has %d lines for %d responses:\n%s", len(lines), n, index)
	}
}

// TestRecoverAfterKillBeforeRename plays a kill between the index append
// and the rename that close a file, and a kill that cut an index line:
// Recover must leave each response indexed exactly once, and no cut line.
func TestRecoverAfterKillBeforeRename(t *testing.T) {
	cfg := testConfig(t)
	w := newWriter(t, cfg)
	for i := range 3 {
		u := fmt.Sprintf("http://a.th/%d", i)
		if _, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response("x " + u)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Rotate(); err != nil {
		t.Fatal(err)
	}
	u := "http://a.th/after"
	if _, err := w.WriteExchange(&Exchange{URL: u, RawRequest: request(u), RawResponse: response("y")}); err != nil {
		t.Fatal(err)
	}
	if err := w.Rotate(); err != nil {
		t.Fatal(err)
	}
	files := w.Files()
	if len(files) != 2 {
		t.Fatalf("%d files", len(files))
	}
	// The second file's lines are in the index, but the kill came before
	// its rename; then a later append was cut short.
	if err := os.Rename(files[1], files[1]+openSuffix); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(cfg.Dir, IndexName)
	f, _ := os.OpenFile(idx, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`a,th)/cut 20260101000000 {"url":"http://a.th/cut","mi`)
	f.Close()

	got, err := Recover(cfg.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != files[1] {
		t.Fatalf("Recover = %v, want [%s]", got, files[1])
	}
	data, _ := os.ReadFile(idx)
	if !strings.HasSuffix(string(data), "\n") || strings.Contains(string(data), "a.th/cut") {
		t.Errorf("cut index line not removed:\n%s", data)
	}
	count := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		_, rest, _ := strings.Cut(l, `"url":"`)
		u, _, _ := strings.Cut(rest, `"`)
		count[u]++
	}
	for _, u := range []string{"http://a.th/0", "http://a.th/1", "http://a.th/2", "http://a.th/after"} {
		if count[u] != 1 {
			t.Errorf("%s indexed %d times, want 1:\n%s", u, count[u], data)
		}
	}
}
