package frontier

import (
	"fmt"
	"testing"
)

func TestRecentSeenBounded(t *testing.T) {
	r := newRecentSeen(4)
	var hs []urlHash
	for i := 0; i < 20; i++ {
		h := hashURL(fmt.Sprint("http://a.test/", i))
		hs = append(hs, h)
		r.add(h)
		if n := r.m.Len(); n > 8 {
			t.Fatalf("holds %d hashes, at most 8", n)
		}
	}
	if !r.has(hs[19]) || !r.has(hs[16]) {
		t.Error("recent hashes forgotten")
	}
	if r.has(hs[0]) {
		t.Error("the oldest hash is still held")
	}
}

// TestSeenThroughCacheAndDisk: the seen set answers the same from the
// cache of recent URLs, after a push that found nothing new, and after a
// reopen, when the cache is empty.
func TestSeenThroughCacheAndDisk(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	e := ent("a.test", "x", 0, Low)
	mustPush(t, q, e)
	if n, err := q.PushMany([]Entry{e}); err != nil || n != 0 {
		t.Fatalf("second push of a URL: %d new, %v", n, err)
	}
	if ok, err := q.Seen(e.URL); !ok || err != nil {
		t.Fatalf("Seen right after the push: %v %v", ok, err)
	}
	if ok, _ := q.Seen("http://a.test/never"); ok {
		t.Fatal("a URL never pushed is seen")
	}
	q.Close()
	q = openDir(t, dir)
	defer q.Close()
	if q.recent.has(hashURL(e.URL)) {
		t.Fatal("a reopened queue starts with a cache")
	}
	if ok, err := q.Seen(e.URL); !ok || err != nil {
		t.Fatalf("Seen after reopening: %v %v", ok, err)
	}
	if n, _ := q.PushMany([]Entry{e}); n != 0 {
		t.Fatal("a URL seen before the restart was queued again")
	}
	if !q.recent.has(hashURL(e.URL)) {
		t.Error("a URL found seen on disk was not remembered")
	}
}
