package frontier

import "testing"

// TestRefocus: a frontier keeps the focus target its counters were
// counted for. The first call takes the target with the counters as
// they are; the same target again changes nothing; another target drops
// every counter, kept across a reopening, and records the new one.
func TestRefocus(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	if prev, changed, n, err := q.Refocus("th"); err != nil || changed || prev != "" || n != 0 {
		t.Fatalf("first Refocus(th) = %q %v %d %v; want nothing changed", prev, changed, n, err)
	}
	mustPush(t, q, ent("a.test", "1", 0, Low), ent("b.test", "1", 0, Low))
	for range 2 {
		l := mustNext(t, q, t0)
		if err := q.Complete(l, Completion{Tally: []Tally{{Key: l.Entry.Site, Relevant: true}, {Key: l.Entry.Site + "/dir/"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if prev, changed, _, err := q.Refocus("th"); err != nil || changed || prev != "th" {
		t.Fatalf("Refocus(th) again = %q %v %v; want unchanged", prev, changed, err)
	}
	if c, _ := q.Counts("a.test"); c.Relevant != 1 {
		t.Fatalf("counts of a.test %+v before the change", c)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = openDir(t, dir)
	defer q.Close()
	prev, changed, n, err := q.Refocus("lo")
	if err != nil || !changed || prev != "th" || n != 4 {
		t.Fatalf("Refocus(lo) = %q %v %d %v; want th, changed, 4 counters dropped", prev, changed, n, err)
	}
	for _, k := range []string{"a.test", "b.test", "a.test/dir/"} {
		if c, err := q.Counts(k); err != nil || c != (Counts{}) {
			t.Errorf("counts of %s after the change: %+v %v; want none", k, c, err)
		}
	}
	if prev, changed, _, err := q.Refocus("lo"); err != nil || changed || prev != "lo" {
		t.Errorf("Refocus(lo) again = %q %v %v; want lo, unchanged", prev, changed, err)
	}
}

// TestMarkProfileMixed: a generation's mark is the profile its runs
// crawled with; one resumed with another profile is mixed from then on
// (sticky, whatever the later runs' profile), and the next generation
// sees the earlier one's mark, mixed matching no fingerprint.
func TestMarkProfileMixed(t *testing.T) {
	q := openDir(t, t.TempDir())
	mark := func(gen int64, fp string) (string, bool, bool) {
		t.Helper()
		prev, known, mixed, err := q.MarkProfile(gen, fp)
		if err != nil {
			t.Fatal(err)
		}
		return prev, known, mixed
	}
	if _, known, mixed := mark(1, "A"); known || mixed {
		t.Fatalf("generation 1, first run: known %v, mixed %v; want neither", known, mixed)
	}
	if _, _, mixed := mark(1, "A"); mixed {
		t.Error("generation 1 resumed with its own profile: mixed")
	}
	if prev, known, mixed := mark(2, "B"); !known || prev != "A" || mixed {
		t.Errorf("generation 2: prev %q known %v mixed %v; want A, known, not mixed", prev, known, mixed)
	}
	if _, _, mixed := mark(2, "A"); !mixed {
		t.Error("generation 2 resumed with the profile of generation 1: not mixed, though its queue was decided under B")
	}
	if _, _, mixed := mark(2, "B"); !mixed {
		t.Error("a mixed generation resumed again: no longer mixed")
	}
	if prev, _, _ := mark(3, "B"); prev != MixedProfile {
		t.Errorf("generation 3 sees %q for generation 2, want %q", prev, MixedProfile)
	}
}
