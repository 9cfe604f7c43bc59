package frontier

import (
	"slices"
	"testing"

	"github.com/syndtr/goleveldb/leveldb/storage"
)

func front(e Entry) Entry {
	e.Front = true
	return e
}

// TestFrontPlace: an entry pushed with Front is served before every other
// entry of its site, seeds at depth 0 included; a second one, while the
// place is taken, queues at its usual place; the order survives a reopen.
func TestFrontPlace(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a", "seed", 0, High), ent("a", "x", 0, High), ent("a", "y", 3, Low))
	mustPush(t, q, front(ent("a", "home", 1, High)))
	mustPush(t, q, front(ent("a", "second", 2, High)), ent("a", "z", 0, High))
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = openDir(t, dir)
	defer q.Close()
	got := drain(t, q, t0)
	want := []string{"http://a/home", "http://a/seed", "http://a/x", "http://a/z", "http://a/second", "http://a/y"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestFrontKeepsEntry: the entry at the front place keeps its own depth
// and priority; only its place changes.
func TestFrontKeepsEntry(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a", "x", 0, High), front(ent("a", "home", 4, Low)))
	l := mustNext(t, q, t0)
	if l.Entry.URL != "http://a/home" || l.Entry.Depth != 4 || l.Entry.Priority != Low || l.Entry.Front {
		t.Errorf("leased %+v, want home at depth 4, Low, Front not stored", l.Entry)
	}
}

// TestFrontPromotes: a Front push of a URL already queued moves its entry
// to the front place (a Low one makes its site one with High work), once;
// one waiting for a retry stays behind, and nothing is lost or doubled.
func TestFrontPromotes(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a", "1", 0, Low), ent("a", "2", 1, Low), ent("a", "home", 2, Low))
	mustPush(t, q, ent("b", "1", 0, Low), ent("b", "2", 0, Low), ent("b", "3", 0, Low), ent("b", "4", 0, Low))
	if n, err := q.PushMany([]Entry{front(ent("a", "home", 0, High))}); n != 0 || err != nil {
		t.Fatalf("PushMany of a queued URL = %d, %v; want 0, nil", n, err)
	}
	// Site a now has High work, so it comes before b, which has more.
	if st := q.Stats(); st.Queued != 7 {
		t.Fatalf("queued %d after the promotion, want 7", st.Queued)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = openDir(t, dir)
	defer q.Close()
	l := mustNext(t, q, t0)
	if l.Entry.URL != "http://a/home" || l.Entry.Priority != Low || l.Entry.Depth != 2 {
		t.Fatalf("first lease %+v, want a/home as it was queued (Low, depth 2)", l.Entry)
	}
	if err := q.Complete(l, Completion{}); err != nil {
		t.Fatal(err)
	}
	got := drain(t, q, t0)
	slices.Sort(got)
	want := []string{"http://a/1", "http://a/2", "http://b/1", "http://b/2", "http://b/3", "http://b/4"}
	if !slices.Equal(got, want) {
		t.Errorf("then %q, want %q in some order", got, want)
	}

	// An entry deferred behind its site's work for a retry is not moved.
	q2 := openMem(t)
	mustPush(t, q2, ent("c", "home", 0, High), ent("c", "1", 1, High))
	l = mustNext(t, q2, t0)
	e := l.Entry
	e.Tries = 1
	if err := q2.Requeue(l, Deferral{Entry: e, Tail: true, NotBefore: t0}); err != nil {
		t.Fatal(err)
	}
	mustPush(t, q2, front(ent("c", "home", 0, High)))
	if got, want := drain(t, q2, t0), []string{"http://c/1", "http://c/home"}; !slices.Equal(got, want) {
		t.Errorf("with a retry: %q, want %q", got, want)
	}
}

// TestFrontLeased: while the entry at the front place is leased, the place
// stays taken, so a Return puts it back there and the new Front entry
// waits at its usual place; a Complete frees it for a Front link of its
// own completion.
func TestFrontLeased(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a", "x", 0, High), front(ent("a", "p1", 1, High)))
	l := mustNext(t, q, t0)
	if l.Entry.URL != "http://a/p1" {
		t.Fatalf("leased %s, want p1", l.Entry.URL)
	}
	mustPush(t, q, front(ent("a", "p2", 1, High)))
	if err := q.Return(l, t0); err != nil {
		t.Fatal(err)
	}
	l = mustNext(t, q, t0)
	if l.Entry.URL != "http://a/p1" {
		t.Fatalf("after Return leased %s, want p1 again", l.Entry.URL)
	}
	if err := q.Complete(l, Completion{Links: []Entry{front(ent("a", "p3", 2, High))}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"http://a/p3", "http://a/x", "http://a/p2"}
	if got := drain(t, q, t0); !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestFrontBeforeDrop: DropSite removes an entry at the front place as any
// other, and keep spares it as any other.
func TestFrontBeforeDrop(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a", "x", 0, High), front(ent("a", "home", 0, High)), ent("b", "y", 0, Low))
	n, err := q.DropSite("a", func(e Entry) bool { return e.URL == "http://a/home" }, nil)
	if n != 1 || err != nil {
		t.Fatalf("DropSite = %d, %v; want 1, nil", n, err)
	}
	if got, want := drain(t, q, t0), []string{"http://a/home", "http://b/y"}; !slices.Equal(got, want) {
		t.Errorf("after the drop: %q, want %q", got, want)
	}
}

// TestFrontLegacySeqZero: a frontier written before the front place, its
// meta stored with sequence 0 before anything was queued, starts its
// sequence at 1 when opened, so its first entry and a Front entry pushed
// in the same batch do not share a key (a review found the first one
// overwritten, while pending counted both).
func TestFrontLegacySeqZero(t *testing.T) {
	stor := storage.NewMemStorage()
	q, err := Open("", &Options{Storage: stor})
	if err != nil {
		t.Fatal(err)
	}
	q.meta.seq = 0 // as a frontier before the front place stored it
	if _, err := q.MarkSeen("http://other/"); err != nil {
		t.Fatal(err)
	}
	q.Close()
	if q, err = Open("", &Options{Storage: stor}); err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if n, err := q.PushMany([]Entry{ent("a", "seed", 0, High), front(ent("a", "next", 1, High))}); err != nil || n != 2 {
		t.Fatalf("PushMany = %d, %v", n, err)
	}
	if got, want := drain(t, q, t0), []string{"http://a/next", "http://a/seed"}; !slices.Equal(got, want) {
		t.Errorf("drained %q, want %q", got, want)
	}
}

// TestFrontSameBatch: a Front push of a URL queued earlier in the same
// batch moves it to the front, as one queued in an earlier batch is.
func TestFrontSameBatch(t *testing.T) {
	q := openMem(t)
	mustPush(t, q, ent("a", "x", 0, High))
	mustPush(t, q, ent("a", "y", 3, Low), front(ent("a", "y", 3, Low)))
	if got, want := drain(t, q, t0), []string{"http://a/y", "http://a/x"}; !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}
