package frontier

import (
	"errors"
	"testing"
)

func TestBandwidthStore(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	s := q.Bandwidth()
	if _, ok, err := s.Get("a.test"); ok || err != nil {
		t.Fatalf("Get of an unknown server = %v, %v", ok, err)
	}
	var r [BandwidthSlots]float64
	for i := range r {
		r[i] = float64(i) * 1000.5
	}
	if err := s.Put("a.test", r); err != nil {
		t.Fatal(err)
	}
	q.Close()
	if _, _, err := s.Get("a.test"); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: err = %v, want ErrClosed", err)
	}
	if err := s.Put("a.test", r); !errors.Is(err, ErrClosed) {
		t.Errorf("Put after Close: err = %v, want ErrClosed", err)
	}
	if q.Bandwidth() != nil {
		t.Error("Bandwidth of a closed queue is not nil")
	}

	q = openDir(t, dir)
	defer q.Close()
	got, ok, err := q.Bandwidth().Get("a.test")
	if err != nil || !ok || got != r {
		t.Errorf("after reopen: %v, %v, %v; want %v", got, ok, err, r)
	}
	// The estimates are not sites: the queue has none.
	if st := q.Stats(); st.Sites != 0 || st.Known != 0 {
		t.Errorf("stats %+v: estimates counted as sites", st)
	}
	if err := q.db.Put(siteKey(tBandwidth, "b.test"), []byte{1, 2, 3}, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := q.Bandwidth().Get("b.test"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("short record: err = %v, want ErrCorrupt", err)
	}
}
