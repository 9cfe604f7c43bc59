package frontier

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"
)

// TestSiteBudgetSurvives checks that the pages counted against a site's
// budget hold across Close/Open and across the site being forgotten while
// idle, and that pages not counted do not move it.
func TestSiteBudgetSurvives(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a.test", "1", 0, Low), ent("a.test", "2", 1, Low), ent("a.test", "3", 1, Low))
	for i, budget := range []bool{true, false, true} {
		l := mustNext(t, q, t0)
		want := []int64{0, 1, 1}[i]
		if l.SiteBudget != want {
			t.Fatalf("lease %d: SiteBudget %d, want %d", i, l.SiteBudget, want)
		}
		if err := q.Complete(l, Completion{Budget: budget}); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing is queued for a.test now: Next forgets the idle site.
	if _, _, err := q.Next(t0); err != ErrEmpty {
		t.Fatalf("Next on an empty queue: %v", err)
	}
	if k := q.Stats().Known; k != 0 {
		t.Fatalf("idle site not forgotten: %d sites known", k)
	}
	mustPush(t, q, ent("a.test", "4", 1, Low))
	if l := mustNext(t, q, t0); l.SiteBudget != 2 {
		t.Fatalf("after the site was forgotten: SiteBudget %d, want 2", l.SiteBudget)
	} else if err := q.Complete(l, Completion{Budget: true}); err != nil {
		t.Fatal(err)
	}
	mustPush(t, q, ent("a.test", "5", 1, Low))
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}

	q = openDir(t, dir)
	defer q.Close()
	if l := mustNext(t, q, t0); l.SiteBudget != 3 {
		t.Fatalf("after reopening: SiteBudget %d, want 3", l.SiteBudget)
	}
	// Another site starts from zero.
	mustPush(t, q, ent("b.test", "1", 0, Low))
	if l := mustNext(t, q, t0); l.Entry.Site != "b.test" || l.SiteBudget != 0 {
		t.Fatalf("b.test: lease %s with SiteBudget %d", l.Entry.URL, l.SiteBudget)
	}
}

// TestPagesSurvive checks the count of completions marked Page across runs.
func TestPagesSurvive(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a.test", "1", 0, Low), ent("b.test", "1", 0, Low), ent("c.test", "1", 0, Low))
	for _, page := range []bool{true, false, true} {
		if err := q.Complete(mustNext(t, q, t0), Completion{Page: page}); err != nil {
			t.Fatal(err)
		}
	}
	if n := q.Stats().Pages; n != 2 {
		t.Fatalf("Pages %d, want 2", n)
	}
	q.Close()
	q = openDir(t, dir)
	defer q.Close()
	if n := q.Stats().Pages; n != 2 {
		t.Fatalf("Pages after reopening %d, want 2", n)
	}
}

// TestOldRecordsDecode: records written before the budget and the tally
// count were kept still read, as zero.
func TestOldRecordsDecode(t *testing.T) {
	var old []byte
	old = binary.AppendUvarint(old, 4)
	old = binary.AppendUvarint(old, 1)
	old = binary.AppendVarint(old, 77)
	r, err := decodeSite(old)
	if err != nil || r != (siteRecord{pending: 4, high: 1, notBefore: 77}) {
		t.Fatalf("old site record: %+v, %v", r, err)
	}
	m, err := decodeMeta(binary.AppendUvarint(binary.AppendUvarint(nil, 9), 5))
	if err != nil || m != (meta{seq: 9, seen: 5}) {
		t.Fatalf("old meta record: %+v, %v", m, err)
	}
	r2, err := decodeSite(encodeSite(siteRecord{pending: 1, high: 0, notBefore: -5, budget: 12}))
	if err != nil || r2.budget != 12 || r2.notBefore != -5 {
		t.Fatalf("round trip: %+v, %v", r2, err)
	}
}

// TestBudgetOfRecoveredLease: a site whose last entry was in flight at a
// crash keeps its budget when the lease is put back.
func TestBudgetOfRecoveredLease(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a.test", "1", 0, Low), ent("a.test", "2", 0, Low))
	if err := q.Complete(mustNext(t, q, t0), Completion{Budget: true}); err != nil {
		t.Fatal(err)
	}
	mustNext(t, q, t0) // in flight, nothing else queued for a.test
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = openDir(t, dir)
	defer q.Close()
	if st := q.Stats(); st.Recovered != 1 || st.Queued != 1 {
		t.Fatalf("after reopen: %+v", st)
	}
	if l := mustNext(t, q, t0); l.SiteBudget != 1 {
		t.Fatalf("recovered lease: SiteBudget %d, want 1", l.SiteBudget)
	}
}

// TestDelayOfRecoveredLease: a site whose last entry was in flight at a
// crash keeps its politeness delay when the lease is put back: it is not
// leased again before the time the previous completion set.
func TestDelayOfRecoveredLease(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a.test", "1", 0, Low), ent("a.test", "2", 0, Low))
	later := t0.Add(time.Hour)
	if err := q.Complete(mustNext(t, q, t0), Completion{NotBefore: later}); err != nil {
		t.Fatal(err)
	}
	mustNext(t, q, later) // in flight, nothing else queued for a.test
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = openDir(t, dir)
	defer q.Close()
	if l, _, err := q.Next(later.Add(-time.Minute)); err != nil || l != nil {
		t.Fatalf("recovered lease handed out a minute before its site's delay ends: %v, %v", l, err)
	}
	mustNext(t, q, later)
}

// TestOpenCorruptSite: a site record that cannot be read is an error naming
// the site, not a crash.
func TestOpenCorruptSite(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	if err := q.db.Put(siteKey(tSite, "b.test"), []byte{0x80}, nil); err != nil {
		t.Fatal(err)
	}
	q.Close()
	if q, err := Open(dir, nil); err == nil || !strings.Contains(err.Error(), "b.test") {
		if q != nil {
			q.Close()
		}
		t.Fatalf("Open = %v, want an error naming b.test", err)
	}
}

// TestBudgetCounts checks the budget counts of keys other than a site
// (Completion.Budgets): bumped once per key listed, atomically with the
// completion, kept across Close/Open, and forgotten by a new generation
// as the sites' budgets are, while the focus counters stay.
func TestBudgetCounts(t *testing.T) {
	dir := t.TempDir()
	q := openDir(t, dir)
	mustPush(t, q, ent("a.test", "1", 0, Low), ent("b.test", "1", 0, Low))
	for range 2 {
		l := mustNext(t, q, t0)
		h := &History{URL: l.Entry.URL, Fetched: t0, Status: 200}
		if err := q.Complete(l, Completion{Budgets: []string{"domain test", "address 192.0.2.1", "address 192.0.2.1"},
			Tally: []Tally{{Key: l.Entry.Site}}, History: h}); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = openDir(t, dir)
	defer q.Close()
	for key, want := range map[string]int64{"domain test": 2, "address 192.0.2.1": 4, "address 192.0.2.9": 0} {
		if n, err := q.BudgetCount(key); err != nil || n != want {
			t.Errorf("BudgetCount(%q) = %d, %v after reopening; want %d", key, n, err, want)
		}
	}
	if _, _, err := q.StartGeneration(func(h History) (Entry, bool) { return Entry{}, false }); err != nil {
		t.Fatal(err)
	}
	if n, err := q.BudgetCount("domain test"); err != nil || n != 0 {
		t.Errorf("BudgetCount after a new generation = %d, %v; want 0", n, err)
	}
	if c, err := q.Counts("a.test"); err != nil || c.Downloaded != 1 {
		t.Errorf("focus counters after a new generation = %+v, %v; want them kept", c, err)
	}
}
