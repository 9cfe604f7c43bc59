package frontier

import "testing"

// TestVariantMarkedWhenURLSeenBefore (from a review of the session's diff): on a frontier whose seen
// set was written before spellings shared a key (no Variant marked), the
// crawl that resumes it meets www.example.com/a again, seen already, and
// queues nothing, but leaves its key (example.com/a) unmarked: the next
// link spelled example.com/a is queued and the page fetched and archived a
// second time, which the seen key promised not to do.
func TestVariantMarkedWhenURLSeenBefore(t *testing.T) {
	q := openMem(t)
	const www, bare = "http://www.example.com/a", "http://example.com/a"
	// Queued before the change: no Variant.
	if ok, err := q.Push(Entry{URL: www, Site: "www.example.com"}); err != nil || !ok {
		t.Fatalf("push %s: %v %v", www, ok, err)
	}
	// After the change, a link spells it the same way again.
	if ok, err := q.Push(Entry{URL: www, Site: "www.example.com", Variant: bare}); err != nil || ok {
		t.Fatalf("push %s again: %v %v; want not queued", www, ok, err)
	}
	// And another spells it without www.
	ok, err := q.Push(Entry{URL: bare, Site: "example.com", Variant: bare})
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Errorf("%s queued: a spelling of %s, queued already, is fetched twice", bare, www)
	}
}
