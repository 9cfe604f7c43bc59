package frontier

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// txn collects the writes of one operation in a LevelDB batch, with the
// in-memory changes they imply, and applies the latter only once the batch
// is written. The caller holds q.mu.
type txn struct {
	q     *Queue
	b     *leveldb.Batch
	meta  meta
	dirty bool // meta changed
	seen  map[urlHash]struct{}
	sites map[string]*siteDelta
	order []string // sites in first-touched order, for deterministic batches
	added int64
	// ending is the lease the txn ends (Complete), whose front place, if
	// it holds it, is free once the txn commits; fronts are the sites
	// whose front place the txn has filled.
	ending *Lease
	fronts map[string]struct{}
	// batched maps the URLs this txn queued to their keys, kept only
	// while it pushes entries with Front: promote finds one queued
	// earlier in the same batch there (a review).
	batched map[string][]byte
}

// siteDelta is the change a txn makes to one site.
type siteDelta struct {
	pending, high int64
	setNB         bool
	notBefore     int64
	unlease       bool
	budget        int64
	floor         []byte // lowest ordering suffix added, nil if none
}

func (d *siteDelta) lower(suffix []byte) {
	if d.floor == nil || bytes.Compare(suffix, d.floor) < 0 {
		d.floor = suffix
	}
}

func (q *Queue) begin() *txn {
	return &txn{q: q, b: new(leveldb.Batch), meta: q.meta}
}

func (t *txn) delta(name string) *siteDelta {
	if t.sites == nil {
		t.sites = make(map[string]*siteDelta)
	}
	d := t.sites[name]
	if d == nil {
		d = new(siteDelta)
		t.sites[name] = d
		t.order = append(t.order, name)
	}
	return d
}

// markSeen adds h to the seen set unless it is there already, either on
// disk or earlier in this txn.
func (t *txn) markSeen(h urlHash) (bool, error) {
	if _, dup := t.seen[h]; dup {
		return false, nil
	}
	if t.q.recent.has(h) {
		return false, nil
	}
	k := hashKey(tSeen, h)
	ok, err := t.q.db.Has(k, nil)
	if err != nil {
		return false, dbErr(err)
	}
	if ok {
		t.q.recent.add(h) // in the database already: committed
		return false, nil
	}
	if t.seen == nil {
		t.seen = make(map[urlHash]struct{})
	}
	t.seen[h] = struct{}{}
	t.b.Put(k, nil)
	t.meta.seen++
	t.dirty = true
	return true, nil
}

// has reports whether h is in the seen set, on disk or earlier in this txn.
func (t *txn) has(h urlHash) (bool, error) {
	if _, dup := t.seen[h]; dup || t.q.recent.has(h) {
		return true, nil
	}
	ok, err := t.q.db.Has(hashKey(tSeen, h), nil)
	return ok, dbErr(err)
}

// push queues the entries of es whose URLs are new. The entries are valid.
func (t *txn) push(es []Entry) (int, error) {
	n := 0
	var buf []byte
	if t.batched == nil && slices.ContainsFunc(es, func(e Entry) bool { return e.Front }) {
		t.batched = map[string][]byte{}
	}
	for i := range es {
		e := &es[i]
		variant := e.Variant != "" && e.Variant != e.URL
		if variant {
			// Checked before the claim is taken: a spelling of a URL
			// queued already claims nothing.
			seen, err := t.has(hashURL(e.Variant))
			if err != nil {
				return 0, fmt.Errorf("seen %s: %w", e.Variant, err)
			}
			if seen {
				continue
			}
		}
		if e.Claim != "" {
			fresh, err := t.markSeen(hashURL(e.Claim))
			if err != nil {
				return 0, fmt.Errorf("seen %s: %w", e.Claim, err)
			}
			if !fresh {
				continue
			}
		}
		added, err := t.markSeen(hashURL(e.URL))
		if err != nil {
			return 0, fmt.Errorf("seen %s: %w", e.URL, err)
		}
		if !added {
			if variant {
				// Seen before its spellings shared a key (a frontier
				// written before Variant): the key is marked now, so
				// that another spelling is not fetched again.
				if _, err := t.markSeen(hashURL(e.Variant)); err != nil {
					return 0, fmt.Errorf("seen %s: %w", e.Variant, err)
				}
			}
			if e.Front {
				if err := t.promote(e.Site, e.URL); err != nil {
					return 0, fmt.Errorf("front %s: %w", e.URL, err)
				}
			}
			continue
		}
		if variant {
			if _, err := t.markSeen(hashURL(e.Variant)); err != nil {
				return 0, fmt.Errorf("seen %s: %w", e.Variant, err)
			}
		}
		buf = encodeEntry(buf[:0], e)
		var k []byte
		if e.Front {
			free, err := t.frontFree(e.Site)
			if err != nil {
				return 0, fmt.Errorf("front %s: %w", e.URL, err)
			}
			if free {
				k = t.takeFront(e.Site)
			}
		}
		if k == nil {
			k = queueKey(e.Site, e.Priority, e.Depth, t.meta.seq)
			t.meta.seq++
		}
		t.b.Put(k, buf)
		if t.batched != nil {
			t.batched[e.URL] = k
		}
		d := t.delta(e.Site)
		d.pending++
		d.lower(k[len(k)-keySuffixLen:])
		if Priority(k[len(k)-keySuffixLen]) == High {
			d.high++
		}
		n++
	}
	t.added += int64(n)
	return n, nil
}

// frontSuffix is the ordering suffix of a site's front place (Entry.Front):
// priority High, depth 0, sequence 0, the lowest there is. A frontier
// written before the front place may hold its first entry there (sequence
// 0 at depth 0); frontFree sees it as a taken place.
var frontSuffix [keySuffixLen]byte

// frontScan bounds how many queued entries of a site promote reads to find
// a URL: a site's head is what the front place is for.
const frontScan = 4096

// frontFree reports whether the front place of site is free: nothing
// queued there, nothing put there earlier in this txn, and no lease taken
// from it outstanding (Return puts a lease back at its own place), but the
// lease this txn ends.
func (t *txn) frontFree(site string) (bool, error) {
	if _, taken := t.fronts[site]; taken {
		return false, nil
	}
	if l := t.q.leases[site]; l != nil && l != t.ending && l.suffix == frontSuffix {
		return false, nil
	}
	in, err := t.q.db.Has(append(queuePrefix(site), frontSuffix[:]...), nil)
	if err != nil {
		return false, dbErr(err)
	}
	return !in, nil
}

// takeFront marks the front place of site taken in this txn and returns
// its key.
func (t *txn) takeFront(site string) []byte {
	if t.fronts == nil {
		t.fronts = make(map[string]struct{})
	}
	t.fronts[site] = struct{}{}
	return append(queuePrefix(site), frontSuffix[:]...)
}

// promote moves the queued entry of url, among the first frontScan of its
// site, to the site's front place when that is free (Entry.Front). An entry
// waiting for a retry (retryClass) stays where it is, as does one not found:
// fetched already, in flight, or queued further back.
func (t *txn) promote(site, url string) error {
	free, err := t.frontFree(site)
	if err != nil || !free {
		return err
	}
	prefix := queuePrefix(site)
	if k, ok := t.batched[url]; ok {
		// Queued earlier in this batch: moved within it.
		class := Priority(k[len(prefix)])
		if class == retryClass {
			return nil
		}
		v, err := batchValue(t.b, k)
		if err != nil {
			return err
		}
		t.b.Delete(k)
		fk := t.takeFront(site)
		t.b.Put(fk, v)
		t.batched[url] = fk
		sd := t.delta(site)
		sd.lower(frontSuffix[:])
		if class != High {
			sd.high++
		}
		return nil
	}
	it := t.q.db.NewIterator(util.BytesPrefix(prefix), nil)
	defer it.Release()
	for n := 0; n < frontScan && it.Next(); n++ {
		k := it.Key()
		if len(k) != len(prefix)+keySuffixLen {
			return fmt.Errorf("queue key %q: %w", k, ErrCorrupt)
		}
		d := decoder{b: it.Value()}
		if v := d.byte(); (v != 1 && v != 2) || d.string() != url || d.err != nil {
			continue
		}
		class := Priority(k[len(prefix)])
		if class == retryClass {
			return nil
		}
		t.b.Delete(k)
		t.b.Put(t.takeFront(site), append([]byte(nil), it.Value()...))
		sd := t.delta(site)
		sd.lower(frontSuffix[:])
		if class != High {
			sd.high++
		}
		return nil
	}
	return dbErr(it.Error())
}

// batchValue returns the value the batch b last put at key k.
func batchValue(b *leveldb.Batch, k []byte) ([]byte, error) {
	var v []byte
	err := b.Replay(batchReader{func(key, value []byte) {
		if bytes.Equal(key, k) {
			v = append(v[:0], value...)
		}
	}})
	if err == nil && v == nil {
		err = fmt.Errorf("frontier: key %q not in the batch", k)
	}
	return v, err
}

// batchReader is a leveldb.BatchReplay that calls put for each Put.
type batchReader struct{ put func(key, value []byte) }

func (r batchReader) Put(key, value []byte) { r.put(key, value) }
func (r batchReader) Delete(key []byte)     {}

// tally bumps the focus counters, adding up repeated keys first, and
// records the re-check try rc (if not nil).
func (t *txn) tally(ts []Tally, rc *Recheck) error {
	if len(ts) == 0 && rc == nil {
		return nil
	}
	sum := make(map[string]Counts, len(ts)+1)
	var keys []string
	if rc != nil {
		keys = append(keys, rc.Key)
		sum[rc.Key] = Counts{}
	}
	for _, x := range ts {
		c, ok := sum[x.Key]
		if !ok {
			keys = append(keys, x.Key)
		}
		c.Downloaded++
		if x.Relevant {
			c.Relevant++
		}
		c.Evidence += x.Evidence
		c.Home = c.Home || x.Home
		c.SelfLinks = c.SelfLinks || x.SelfLinks
		if x.Probe {
			c.Probes++
		}
		if x.Close {
			c.Close++
		}
		c.PageEvidence += x.PageEvidence
		sum[x.Key] = c
	}
	for _, k := range keys {
		c, err := t.q.counts(k)
		if err != nil {
			return fmt.Errorf("counts %s: %w", k, err)
		}
		add := sum[k]
		c.Downloaded += add.Downloaded
		c.Relevant += add.Relevant
		c.Evidence += add.Evidence
		c.Home = c.Home || add.Home
		c.SelfLinks = c.SelfLinks || add.SelfLinks
		c.Probes += add.Probes
		c.Close += add.Close
		c.PageEvidence += add.PageEvidence
		if rc != nil && k == rc.Key {
			if gen := max(t.meta.gen, 1); c.Rechecked != gen {
				c.Rechecked, c.RecheckTries, c.RecheckDone = gen, 0, false
			}
			c.RecheckTries++
			c.RecheckDone = c.RecheckDone || rc.Done
		}
		t.b.Put(siteKey(tCount, k), encodeCounts(c))
	}
	return nil
}

// budgets bumps the budget count of each key by one; a key listed twice
// is bumped twice.
func (t *txn) budgets(keys []string) error {
	add := map[string]int64{}
	for _, k := range keys {
		add[k]++
	}
	for k, n := range add {
		c, err := t.q.budgetCount(k)
		if err != nil {
			return fmt.Errorf("budget count %s: %w", k, err)
		}
		t.b.Put(siteKey(tBudget, k), binary.AppendVarint(nil, c+n))
	}
	return nil
}

// commit writes the batch with the new site and meta records, then applies
// the changes in memory.
func (t *txn) commit() error {
	q := t.q
	var stored map[string]siteRecord // records of sites not held in memory
	for _, name := range t.order {
		d := t.sites[name]
		var r siteRecord
		if s := q.sites[name]; s != nil {
			r = s.record()
		} else {
			// A forgotten site keeps its record only for its budget.
			v, err := q.db.Get(siteKey(tSite, name), nil)
			switch {
			case errors.Is(err, leveldb.ErrNotFound):
			case err != nil:
				return dbErr(err)
			default:
				if r, err = decodeSite(v); err != nil {
					return fmt.Errorf("read site %s: %w", name, err)
				}
				r.pending, r.high = 0, 0
				if stored == nil {
					stored = make(map[string]siteRecord)
				}
				stored[name] = r
			}
		}
		r = d.apply(r)
		t.b.Put(siteKey(tSite, name), encodeSite(r))
	}
	if t.dirty {
		t.b.Put([]byte{tMeta}, encodeMeta(t.meta))
	}
	if err := q.db.Write(t.b, q.wo); err != nil {
		return dbErr(err)
	}
	q.meta = t.meta
	q.stats.Pushed += t.added
	for h := range t.seen {
		q.recent.add(h)
	}
	for _, name := range t.order {
		d := t.sites[name]
		s := q.sites[name]
		if s == nil {
			// A site not held in memory has nothing queued.
			r := stored[name]
			s = &site{name: name, notBefore: r.notBefore, budget: r.budget, idx: -1, floor: maxFloor}
			q.sites[name] = s
		}
		if d.floor != nil {
			s.lower(d.floor)
		}
		wasActive := s.pending > 0 || s.leased
		r := d.apply(s.record())
		q.queued += r.pending - s.pending
		s.pending, s.high, s.notBefore, s.budget = r.pending, r.high, r.notBefore, r.budget
		if d.unlease {
			s.leased = false
		}
		if isActive := s.pending > 0 || s.leased; isActive != wasActive {
			if isActive {
				q.active++
			} else {
				q.active--
			}
		}
		q.place(s)
	}
	return nil
}

func (d *siteDelta) apply(r siteRecord) siteRecord {
	r.pending += d.pending
	r.high += d.high
	r.budget += d.budget
	if d.setNB {
		r.notBefore = d.notBefore
	}
	return r
}

// place puts s in the heap its state calls for; see the site type.
func (q *Queue) place(s *site) {
	switch {
	case s.leased:
		if s.in != nil {
			s.in.remove(s)
		}
	case s.in == &q.ready && s.pending > 0:
		q.ready.fix(s)
	case s.in == &q.ready:
		q.ready.remove(s)
		q.timed.push(s)
	case s.in == &q.timed:
		q.timed.fix(s)
	default:
		q.timed.push(s)
	}
}
