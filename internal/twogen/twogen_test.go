package twogen

import "testing"

func TestBoundedAndRecent(t *testing.T) {
	m := New[int, int](4)
	for i := 0; i < 20; i++ {
		m.Put(i, i*i)
		if m.Len() > 8 {
			t.Fatalf("after %d puts: %d entries, at most 8", i+1, m.Len())
		}
	}
	if v, ok := m.Peek(19); !ok || v != 361 {
		t.Errorf("Peek(19) = %d, %v", v, ok)
	}
	if _, ok := m.Peek(0); ok {
		t.Error("the oldest entry is still held")
	}
}

func TestGetKeepsEntriesInUse(t *testing.T) {
	m := New[string, int](2)
	m.Put("a", 1)
	m.Put("b", 2)
	m.Put("c", 3) // a, b now in the older generation
	if _, ok := m.Get("a"); !ok {
		t.Fatal("a lost")
	}
	m.Put("d", 4) // the older generation (b) is dropped; a moved forward
	if _, ok := m.Peek("a"); !ok {
		t.Error("an entry in use was dropped")
	}
	if _, ok := m.Peek("b"); ok {
		t.Error("an entry not used since was kept")
	}
}
