package frontier

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/syndtr/goleveldb/leveldb/storage"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// A reference model of the queue's per-site order and counts, with the
// front place, checked against the real queue after every operation,
// across Close/Open.

type mEntry struct {
	url  string
	site string
	key  [keySuffixLen]byte
}

type model struct {
	seq    uint64
	seen   map[string]bool
	queued map[string]map[[keySuffixLen]byte]string // site -> key -> url
	leases map[string]mEntry                        // site -> leased
}

func mkey(p Priority, depth int, seq uint64) (k [keySuffixLen]byte) {
	k[0] = byte(p)
	binary.BigEndian.PutUint32(k[1:], uint32(depth))
	binary.BigEndian.PutUint64(k[5:], seq)
	return
}

func (m *model) frontFree(site string, ending string, batchFront map[string]bool) bool {
	if batchFront[site] {
		return false
	}
	if l, ok := m.leases[site]; ok && l.site != ending && l.key == frontSuffix {
		return false
	}
	_, in := m.queued[site][frontSuffix]
	return !in
}

// push applies es as one txn; ending is the site of the lease a Complete ends.
func (m *model) push(es []Entry, ending string) {
	batchFront := map[string]bool{}
	for _, e := range es {
		if m.queued[e.Site] == nil {
			m.queued[e.Site] = map[[keySuffixLen]byte]string{}
		}
		if m.seen[e.URL] {
			if e.Front && m.frontFree(e.Site, ending, batchFront) {
				// Entries queued earlier in the same batch move too.
				view := m.queued[e.Site]
				var keys [][keySuffixLen]byte
				for k := range view {
					keys = append(keys, k)
				}
				sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i][:], keys[j][:]) < 0 })
				for _, k := range keys {
					if view[k] != e.URL {
						continue
					}
					if Priority(k[0]) == retryClass {
						break
					}
					delete(m.queued[e.Site], k)
					m.queued[e.Site][frontSuffix] = e.URL
					batchFront[e.Site] = true
					break
				}
			}
			continue
		}
		m.seen[e.URL] = true
		var k [keySuffixLen]byte
		if e.Front && m.frontFree(e.Site, ending, batchFront) {
			k = frontSuffix
			batchFront[e.Site] = true
		} else {
			k = mkey(e.Priority, e.Depth, m.seq)
			m.seq++
		}
		if old, dup := m.queued[e.Site][k]; dup {
			panic(fmt.Sprintf("model: two entries at one key: %s and %s", old, e.URL))
		}
		m.queued[e.Site][k] = e.URL
	}
}

func (m *model) head(site string) ([keySuffixLen]byte, string, bool) {
	var best [keySuffixLen]byte
	found := false
	for k := range m.queued[site] {
		if !found || bytes.Compare(k[:], best[:]) < 0 {
			best, found = k, true
		}
	}
	return best, m.queued[site][best], found
}

func (m *model) total() (n int) {
	for _, s := range m.queued {
		n += len(s)
	}
	return
}

// check compares the queue's store and counts with the model.
func (m *model) check(t *testing.T, q *Queue, step int, what string) {
	t.Helper()
	// The store's queue table.
	got := map[string]map[[keySuffixLen]byte]string{}
	it := q.db.NewIterator(util.BytesPrefix([]byte{tQueue}), nil)
	for it.Next() {
		k := it.Key()
		i := bytes.IndexByte(k, 0)
		site := string(k[1:i])
		var suf [keySuffixLen]byte
		copy(suf[:], k[i+1:])
		e, err := decodeEntry(it.Value(), site)
		if err != nil {
			t.Fatal(err)
		}
		if got[site] == nil {
			got[site] = map[[keySuffixLen]byte]string{}
		}
		got[site][suf] = e.URL
	}
	it.Release()
	for site, want := range m.queued {
		for k, u := range want {
			if got[site][k] != u {
				t.Fatalf("step %d (%s): site %s key %x: store has %q, model %q", step, what, site, k, got[site][k], u)
			}
		}
		if len(got[site]) != len(want) {
			t.Fatalf("step %d (%s): site %s: store has %d entries %v, model %d %v", step, what, site, len(got[site]), got[site], len(want), want)
		}
	}
	for site, g := range got {
		if len(g) != len(m.queued[site]) {
			t.Fatalf("step %d (%s): site %s: store has %v, model %v", step, what, site, g, m.queued[site])
		}
	}
	// Counts.
	if st := q.Stats(); st.Queued != int64(m.total()) || st.InFlight != int64(len(m.leases)) {
		t.Fatalf("step %d (%s): stats queued %d inflight %d, model %d %d", step, what, st.Queued, st.InFlight, m.total(), len(m.leases))
	}
	for site, ks := range m.queued {
		var high int64
		for k := range ks {
			if Priority(k[0]) == High {
				high++
			}
		}
		s := q.sites[site]
		if len(ks) == 0 && s == nil {
			continue
		}
		if s == nil {
			t.Fatalf("step %d (%s): site %s with %d entries not in memory", step, what, site, len(ks))
		}
		if s.pending != int64(len(ks)) || s.high != high {
			t.Fatalf("step %d (%s): site %s pending %d high %d, model %d %d", step, what, site, s.pending, s.high, len(ks), high)
		}
		if hk, _, ok := m.head(site); ok && s.floor != nil && bytes.Compare(s.floor, hk[:]) > 0 {
			t.Fatalf("step %d (%s): site %s floor %x above its head %x", step, what, site, s.floor, hk)
		}
	}
}

// TestFrontModel runs random sequences of pushes (with Front, duplicates
// and entries queued earlier in the same batch), leases, completions with
// Front links, returns, requeues with and without Tail, drops with a keep
// predicate, and Close/Open with leases outstanding, and after every step
// compares the stored queue keys, the counts, each site's pending, high
// and floor with a reference model, then checks that everything drains.
// Written by a review of the front place; it found the same-batch promote
// missing, now done.
func TestFrontModel(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			runFrontModel(t, seed)
		})
	}
}

func runFrontModel(t *testing.T, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	stor := storage.NewMemStorage()
	open := func() *Queue {
		q, err := Open("", &Options{Storage: stor})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	q := open()
	defer func() { q.Close() }()
	m := &model{seq: 1, seen: map[string]bool{}, queued: map[string]map[[keySuffixLen]byte]string{}, leases: map[string]mEntry{}}
	sites := []string{"a", "b", "c"}
	leases := map[string]*Lease{}
	randEntry := func() Entry {
		s := sites[rng.Intn(len(sites))]
		e := ent(s, fmt.Sprint(rng.Intn(25)), rng.Intn(3), Priority(rng.Intn(2)))
		e.Front = rng.Intn(3) == 0
		return e
	}
	randEntries := func() []Entry {
		es := make([]Entry, 1+rng.Intn(4))
		for i := range es {
			es[i] = randEntry()
		}
		return es
	}
	for step := 0; step < 200; step++ {
		var what string
		switch op := rng.Intn(10); {
		case op < 3:
			es := randEntries()
			what = fmt.Sprintf("push %v", es)
			if _, err := q.PushMany(es); err != nil {
				t.Fatal(err)
			}
			m.push(es, "")
		case op < 5:
			what = "next"
			l, _, err := q.Next(t0)
			if err != nil && m.total() == 0 && len(m.leases) == 0 {
				break
			}
			if err != nil {
				t.Fatalf("step %d: next: %v", step, err)
			}
			if l == nil {
				// Every unleased site with work is eligible.
				for site, ks := range m.queued {
					if _, leased := m.leases[site]; !leased && len(ks) > 0 {
						t.Fatalf("step %d: no lease while %s has %d entries (%v)", step, site, len(ks), ks)
					}
				}
				break
			}
			site := l.Entry.Site
			if _, leased := m.leases[site]; leased {
				t.Fatalf("step %d: second lease of %s", step, site)
			}
			hk, hu, ok := m.head(site)
			if !ok || hu != l.Entry.URL || hk != l.suffix {
				t.Fatalf("step %d: leased %s at %x, model head %s at %x", step, l.Entry.URL, l.suffix, hu, hk)
			}
			delete(m.queued[site], hk)
			m.leases[site] = mEntry{url: hu, site: site, key: hk}
			leases[site] = l
		case op < 8:
			if len(leases) == 0 {
				continue
			}
			var names []string
			for s := range leases {
				names = append(names, s)
			}
			slices.Sort(names)
			site := names[rng.Intn(len(names))]
			l := leases[site]
			me := m.leases[site]
			switch rng.Intn(4) {
			case 0, 1:
				links := randEntries()
				what = fmt.Sprintf("complete %s links %v", l.Entry.URL, links)
				if err := q.Complete(l, Completion{Links: links}); err != nil {
					t.Fatal(err)
				}
				m.push(links, site)
			case 2:
				what = "return " + l.Entry.URL
				if err := q.Return(l, t0); err != nil {
					t.Fatal(err)
				}
				if old, dup := m.queued[site][me.key]; dup {
					t.Fatalf("step %d: return of %s onto %s's key %x", step, me.url, old, me.key)
				}
				m.queued[site][me.key] = me.url
			case 3:
				tail := rng.Intn(2) == 0
				what = fmt.Sprintf("requeue %s tail %v", l.Entry.URL, tail)
				e := l.Entry
				e.Tries++
				if err := q.Requeue(l, Deferral{Entry: e, Tail: tail, NotBefore: t0}); err != nil {
					t.Fatal(err)
				}
				k := me.key
				if tail {
					k = mkey(retryClass, e.Depth, m.seq)
					m.seq++
				}
				if old, dup := m.queued[site][k]; dup {
					t.Fatalf("step %d: requeue of %s onto %s's key %x", step, me.url, old, k)
				}
				m.queued[site][k] = me.url
			}
			delete(leases, site)
			delete(m.leases, site)
		case op < 9:
			site := sites[rng.Intn(len(sites))]
			keepMod := rng.Intn(3)
			what = fmt.Sprintf("drop %s keep %d", site, keepMod)
			keep := func(e Entry) bool { return keepMod > 0 && len(e.URL)%keepMod == 0 }
			if _, err := q.DropSite(site, keep, nil); err != nil {
				t.Fatal(err)
			}
			for k, u := range m.queued[site] {
				if !(keepMod > 0 && len(u)%keepMod == 0) {
					delete(m.queued[site], k)
				}
			}
		default:
			what = "reopen"
			if err := q.Close(); err != nil {
				t.Fatal(err)
			}
			q = open()
			for site, me := range m.leases {
				if old, dup := m.queued[site][me.key]; dup {
					t.Fatalf("step %d: restored lease %s onto %s's key %x", step, me.url, old, me.key)
				}
				m.queued[site][me.key] = me.url
			}
			m.leases = map[string]mEntry{}
			leases = map[string]*Lease{}
		}
		m.check(t, q, step, what)
	}
	// Everything drains, each URL once.
	for site, l := range leases {
		if err := q.Return(l, t0); err != nil {
			t.Fatal(err)
		}
		me := m.leases[site]
		m.queued[site][me.key] = me.url
	}
	var want []string
	for _, ks := range m.queued {
		for _, u := range ks {
			want = append(want, u)
		}
	}
	got := drain(t, q, t0)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("drained %q, model %q", got, want)
	}
}
