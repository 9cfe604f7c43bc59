package frontier

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/util"
)

func TestStartGeneration(t *testing.T) {
	q := openMem(t)
	if ok, _ := q.Finished(); ok {
		t.Fatal("an empty frontier counts as finished")
	}
	mustPush(t, q, ent("a.test", "1", 0, High), ent("a.test", "2", 1, Low), ent("b.test", "x", 0, High))
	for {
		l, _, err := q.Next(t0)
		if errors.Is(err, ErrEmpty) {
			break
		}
		if err != nil || l == nil {
			t.Fatal(l, err)
		}
		h := &History{URL: l.Entry.URL, Fetched: t0, Status: 200, Digest: "sha1:X", Tree: "a.test", Depth: l.Entry.Depth, Priority: l.Entry.Priority}
		if err := q.Complete(l, Completion{History: h, Budget: true, Usage: Usage{Fetches: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := q.Finished(); !ok || err != nil {
		t.Fatalf("Finished = %v, %v after the crawl", ok, err)
	}
	gen, n, err := q.StartGeneration(func(h History) (Entry, bool) {
		if h.URL == "http://b.test/x" {
			return Entry{}, false // not due
		}
		return Entry{URL: h.URL, Site: "a.test", Tree: h.Tree, Depth: h.Depth, Priority: h.Priority}, true
	})
	if err != nil || gen != 2 || n != 2 {
		t.Fatalf("StartGeneration = %d, %d, %v; want generation 2 with 2 URLs", gen, n, err)
	}
	st := q.Stats()
	if st.Generation != 2 || st.Queued != 2 || st.Usage != (Usage{}) || st.GenerationPending {
		t.Errorf("stats after a new generation: %+v", st)
	}
	if ok, _ := q.Seen("http://b.test/x"); ok {
		t.Error("the seen set was not forgotten")
	}
	l := mustNext(t, q, t0)
	if l.SiteBudget != 0 {
		t.Errorf("site budget %d carried into the new generation", l.SiteBudget)
	}
	if _, _, err := q.StartGeneration(func(History) (Entry, bool) { return Entry{}, false }); !errors.Is(err, ErrNotFinished) {
		t.Errorf("StartGeneration during a crawl = %v, want ErrNotFinished", err)
	}
}

// A crash between the start of a generation and its last URL queued:
// the next call finishes the queueing without starting another.
func TestStartGenerationFinishesAfterCrash(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a.test", "1", 0, High))
	l := mustNext(t, q, t0)
	if err := q.Complete(l, Completion{History: &History{URL: l.Entry.URL, Fetched: t0, Status: 200}}); err != nil {
		t.Fatal(err)
	}
	// As if StartGeneration had stopped right after recording the new
	// generation.
	q.mu.Lock()
	if err := q.forget(); err != nil {
		t.Fatal(err)
	}
	q.meta.gen, q.meta.genPending = 2, true
	if err := q.db.Put([]byte{tMeta}, encodeMeta(q.meta), q.wo); err != nil {
		t.Fatal(err)
	}
	q.mu.Unlock()
	q.Close()

	q = openDir(t, dir)
	defer q.Close()
	if st := q.Stats(); !st.GenerationPending {
		t.Fatal("the pending generation was not recorded")
	}
	gen, n, err := q.StartGeneration(func(h History) (Entry, bool) {
		return Entry{URL: h.URL, Site: "a.test", Discovered: time.Now()}, true
	})
	if err != nil || gen != 2 || n != 1 {
		t.Fatalf("finishing the generation = %d, %d, %v; want 2, 1", gen, n, err)
	}
}

func TestHistoryRoundTrip(t *testing.T) {
	h := History{URL: "http://a.test/", Fetched: t0, Status: 200, Digest: "sha1:A", ETag: `"e"`, LastModified: "x",
		RecordID: "<urn:uuid:1>", File: "f.warc.gz", Offset: 1234, Checked: t0.Add(time.Hour), Changed: true,
		Lang: "th", Tree: "a.test", Depth: 3, Priority: Low, Requisite: true, Hops: "LLE", Via: "http://a.test/x"}
	got, err := decodeHistory(encodeHistory(&h))
	if err != nil || got != h {
		t.Fatalf("round trip: %+v, %v; want %+v", got, err, h)
	}
	// A version 2 record (before hops and via were kept) still reads,
	// with neither.
	v2 := encodeHistory(&h)
	v2[0] = 2
	v2 = v2[:len(v2)-len(appendString(appendString(nil, h.Hops), h.Via))]
	if got, err := decodeHistory(v2); err != nil || got.Hops != "" || got.Via != "" || !got.Legacy || got.Depth != 3 || got.Tree != "a.test" {
		t.Fatalf("version 2: %+v, %v", got, err)
	}
	// A version 1 record (before URLs were kept) still reads.
	v1 := []byte{1}
	v1 = appendTime(v1, t0)
	v1 = append(v1, 0x90, 0x03) // varint 200
	v1 = appendString(v1, "sha1:A")
	v1 = appendString(v1, "")
	v1 = appendString(v1, "")
	if got, err := decodeHistory(v1); err != nil || got.Status != 200 || got.Digest != "sha1:A" || got.URL != "" {
		t.Fatalf("version 1: %+v, %v", got, err)
	}
}

func TestCaptureIndex(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a.test", "1", 0, High), ent("b.test", "2", 0, High))
	for i, id := range []string{"<urn:uuid:first>", "<urn:uuid:second>"} {
		l := mustNext(t, q, t0)
		h := &History{URL: l.Entry.URL, Fetched: t0.Add(time.Duration(i) * time.Hour), Status: 200, Digest: "sha1:SAME", RecordID: id}
		if err := q.Complete(l, Completion{History: h, IndexDigest: true}); err != nil {
			t.Fatal(err)
		}
	}
	c, ok, err := q.Capture("sha1:SAME")
	if err != nil || !ok || c.RecordID != "<urn:uuid:first>" || !c.Date.Equal(t0) {
		t.Fatalf("Capture = %+v, %v, %v; want the first capture", c, ok, err)
	}
	if _, ok, _ := q.Capture("sha1:OTHER"); ok {
		t.Error("an unknown digest has a capture")
	}
}

// TestForgetManyChunks: forget deletes a seen set and site records of
// several chunks each, every key, and nothing of the other tables.
func TestForgetManyChunks(t *testing.T) {
	q := openDir(t, t.TempDir())
	defer q.Close()
	b := new(leveldb.Batch)
	n := 3*dropChunk + 17
	for i := range n {
		b.Put(hashKey(tSeen, hashURL(fmt.Sprintf("http://h%d.test/p%d", i%97, i))), nil)
		b.Put(append([]byte{tSite}, fmt.Sprintf("h%06d.test", i)...), []byte{0})
	}
	b.Put([]byte{tHistory, 'x'}, []byte("kept"))
	if err := q.db.Write(b, nil); err != nil {
		t.Fatal(err)
	}
	q.mu.Lock()
	err := q.forget()
	q.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []byte{tSeen, tSite} {
		it := q.db.NewIterator(util.BytesPrefix([]byte{table}), nil)
		left := 0
		for it.Next() {
			left++
		}
		it.Release()
		if left != 0 {
			t.Errorf("table %q: %d of %d keys left", table, left, n)
		}
	}
	if v, err := q.db.Get([]byte{tHistory, 'x'}, nil); err != nil || string(v) != "kept" {
		t.Errorf("history record: %q, %v; want it kept", v, err)
	}
}

// TestReadHistory: an earlier crawl's history is read without a Queue,
// read-only; a folder with no frontier and one a running crawl holds are
// errors that say which.
func TestReadHistory(t *testing.T) {
	dir := t.TempDir()
	q, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := History{URL: "http://a.test/", Fetched: t0, Status: 200}
	if err := q.SetHistory(h.URL, h); err != nil {
		t.Fatal(err)
	}
	err = ReadHistory(dir, false, func(History) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "held by a running crawl") {
		t.Errorf("ReadHistory of a frontier in use: %v", err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	var got []History
	if err := ReadHistory(dir, false, func(h History) error { got = append(got, h); return nil }); err != nil || len(got) != 1 || got[0].URL != h.URL {
		t.Errorf("ReadHistory = %v, %v", got, err)
	}
	if err := ReadHistory(t.TempDir(), false, func(History) error { return nil }); !errors.Is(err, ErrNoFrontier) {
		t.Errorf("ReadHistory of an empty folder: %v", err)
	}
}

// TestLegacyHops: a history record from before hop paths were kept reads
// back as Legacy, and LegacyHops gives it one hop (E for a requisite), so
// that a re-crawl of an older crawl does not log every URL as a seed; a
// record of this version keeps its own, a seed's empty path included.
func TestLegacyHops(t *testing.T) {
	q := openMem(t)
	page := History{URL: "http://a.test/p", Fetched: t0, Status: 200, Depth: 2}
	img := History{URL: "http://a.test/i.png", Fetched: t0, Status: 200, Requisite: true}
	for _, h := range []History{page, img} {
		v2 := encodeHistory(&h)
		v2[0] = 2
		v2 = v2[:len(v2)-2] // two empty strings: hops and via
		if err := q.db.Put(hashKey(tHistory, hashURL(h.URL)), v2, nil); err != nil {
			t.Fatal(err)
		}
	}
	seed := History{URL: "http://a.test/", Fetched: t0, Status: 200}
	if err := q.SetHistory(seed.URL, seed); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	q.EachHistory(func(h History) error {
		h.LegacyHops()
		got[h.URL] = h.Hops
		return nil
	})
	if got[page.URL] != "L" || got[img.URL] != "E" || got[seed.URL] != "" || len(got) != 3 {
		t.Errorf("hops after LegacyHops: %q; want L for the page, E for the image, none for the seed", got)
	}
}
