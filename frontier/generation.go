package frontier

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/iterator"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/storage"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// ErrNotFinished is returned by StartGeneration while URLs are queued or
// in flight: the crawl is to be resumed, not crawled again.
var ErrNotFinished = errors.New("frontier: the crawl is not finished")

// Finished reports whether the frontier holds a crawl that ran to its end:
// nothing queued, nothing in flight, and fetch history stored. Such a
// crawl, run again, starts a new generation.
func (q *Queue) Finished() (bool, error) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return false, ErrClosed
	}
	if q.queued > 0 || len(q.leases) > 0 {
		return false, nil
	}
	it := q.db.NewIterator(util.BytesPrefix([]byte{tHistory}), nil)
	defer it.Release()
	found := it.First()
	return found, dbErr(it.Error())
}

// StartGeneration begins a new crawl generation on a finished crawl, the
// incremental re-crawl of DESIGN.md: it forgets the seen set (and with it
// the query-rule claims), the page budgets of the sites and of the other
// keys (Completion.Budgets) and the job's totals,
// keeps the fetch history, the focus counters, the bandwidth estimates and
// the robots.txt verdicts, and queues again every URL of the history that
// due turns into an entry (return false to leave one out, e.g. one not yet
// due by the re-crawl interval). It returns the new generation number and
// how many URLs it queued.
//
// It is safe against a crash: the generation is recorded as pending before
// any URL is queued and done after the last, and a call after a crash
// (Stats.GenerationPending) finishes the queueing, skipping what is queued
// already, without starting yet another generation.
func (q *Queue) StartGeneration(due func(History) (Entry, bool)) (int64, int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return 0, 0, ErrClosed
	}
	if !q.meta.genPending {
		if q.queued > 0 || len(q.leases) > 0 {
			return 0, 0, ErrNotFinished
		}
		if err := q.forget(); err != nil {
			return 0, 0, fmt.Errorf("frontier: new generation: %w", err)
		}
		m := q.meta
		m.gen = max(m.gen, 1) + 1
		m.genPending = true
		m.seen, m.usage, m.pages = 0, Usage{}, 0
		if err := q.db.Put([]byte{tMeta}, encodeMeta(m), q.wo); err != nil {
			return 0, 0, fmt.Errorf("frontier: new generation: %w", dbErr(err))
		}
		q.meta = m
	}

	// Queue the known URLs, a batch at a time.
	pushed := 0
	var batch []Entry
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		t := q.begin()
		n, err := t.push(batch)
		if err == nil && (n > 0 || t.dirty) {
			err = t.commit()
		}
		batch = batch[:0]
		pushed += n
		return err
	}
	it := q.db.NewIterator(util.BytesPrefix([]byte{tHistory}), nil)
	for it.Next() {
		h, err := decodeHistory(it.Value())
		if err != nil || h.URL == "" {
			continue // a damaged record, or one from before URLs were kept
		}
		e, ok := due(h)
		if !ok {
			continue
		}
		if err := e.validate(); err != nil {
			continue
		}
		batch = append(batch, e)
		if len(batch) == dropChunk {
			if err := flush(); err != nil {
				it.Release()
				return 0, pushed, fmt.Errorf("frontier: new generation: %w", err)
			}
		}
	}
	it.Release()
	if err := errors.Join(dbErr(it.Error()), flush()); err != nil {
		return 0, pushed, fmt.Errorf("frontier: new generation: %w", err)
	}
	m := q.meta
	m.genPending = false
	if err := q.db.Put([]byte{tMeta}, encodeMeta(m), q.wo); err != nil {
		return 0, pushed, fmt.Errorf("frontier: new generation: %w", dbErr(err))
	}
	q.meta = m
	return m.gen, pushed, nil
}

// forget deletes the seen set and the site records, a chunk at a time, and
// the sites held in memory. Called with q.mu held, nothing queued.
func (q *Queue) forget() error {
	for _, table := range []byte{tSeen, tSite, tBudget} {
		// Each chunk's iterator starts after the last key deleted: one
		// started at the table's first key stepped over every deletion
		// before it (1.2M seen keys took 28-40 s, now 1.8 s; BENCHMARKS.md).
		rng := util.BytesPrefix([]byte{table})
		for {
			b := new(leveldb.Batch)
			it := q.db.NewIterator(rng, nil)
			var last []byte
			for b.Len() < dropChunk && it.Next() {
				last = append(last[:0], it.Key()...)
				b.Delete(last)
			}
			it.Release()
			rng.Start = append(last, 0) // the least key after last
			if err := it.Error(); err != nil {
				return dbErr(err)
			}
			if b.Len() == 0 {
				break
			}
			if err := q.db.Write(b, q.wo); err != nil {
				return dbErr(err)
			}
		}
	}
	q.sites = make(map[string]*site)
	q.ready = siteHeap{less: q.ready.less}
	q.timed = siteHeap{less: q.timed.less}
	q.active = 0
	q.recent = newRecentSeen(q.opts.SeenCache / 2)
	return nil
}

// EachHistory calls fn with every fetch history that has its URL, in no
// particular order, until fn returns an error, which it returns.
func (q *Queue) EachHistory(fn func(History) error) error {
	q.mu.RLock()
	if q.db == nil {
		q.mu.RUnlock()
		return ErrClosed
	}
	snap, err := q.db.GetSnapshot()
	q.mu.RUnlock()
	if err != nil {
		return dbErr(err)
	}
	defer snap.Release()
	return eachHistory(snap.NewIterator(util.BytesPrefix([]byte{tHistory}), nil), fn)
}

// eachHistory calls fn with each history record it iterates over, passing
// over records that do not decode or have no URL, and releases it.
func eachHistory(it iterator.Iterator, fn func(History) error) error {
	defer it.Release()
	for it.Next() {
		h, err := decodeHistory(it.Value())
		if err != nil || h.URL == "" {
			continue
		}
		if err := fn(h); err != nil {
			return err
		}
	}
	return dbErr(it.Error())
}

// ErrNoFrontier: ReadHistory found no frontier database at the path given.
var ErrNoFrontier = errors.New("frontier: no frontier database")

// CheckHistory opens the frontier in dir read-only as ReadHistory does,
// its journals checked, and reads nothing: a crawl that imports it learns
// that it cannot before it makes anything of its own.
func CheckHistory(dir string, acceptDamage bool) error {
	err := ReadHistory(dir, acceptDamage, func(History) error { return errCheckedHistory })
	if errors.Is(err, errCheckedHistory) {
		return nil
	}
	return err
}

var errCheckedHistory = errors.New("frontier: history readable")

// ReadHistory calls fn with every fetch history of the frontier database
// in dir, as EachHistory does, without opening it as a Queue: the
// database is opened read-only, must exist, and is left byte for byte as
// it was (no lease put back, no journal replayed into its tables), so an
// earlier crawl on read-only or fixity-checked storage can be read. A
// database that a running crawl holds is an error naming that. A journal
// damaged in its middle is ErrDamaged, as for Open, unless acceptDamage:
// LevelDB's replay would skip the histories there without a word, and a
// re-crawl would take their URLs for unknown ones (a review).
func ReadHistory(dir string, acceptDamage bool, fn func(History) error) error {
	if fi, err := os.Stat(filepath.Join(dir, "CURRENT")); err != nil || fi.IsDir() {
		return fmt.Errorf("%w in %s", ErrNoFrontier, dir)
	}
	stor, err := storage.OpenFile(dir, true)
	if err != nil {
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("frontier %s is held by a running crawl: stop it first: %w", dir, err)
		}
		return fmt.Errorf("frontier: open %s read-only: %w", dir, err)
	}
	defer stor.Close()
	found, err := checkJournals(stor, dir)
	if err == nil && !acceptDamage {
		err = damageError(found)
	}
	if err != nil {
		return fmt.Errorf("frontier: open %s read-only: %w", dir, err)
	}
	db, err := leveldb.Open(stor, &opt.Options{ReadOnly: true, ErrorIfMissing: true})
	if err != nil {
		return fmt.Errorf("frontier: open %s read-only: %w", dir, err)
	}
	defer db.Close()
	return eachHistory(db.NewIterator(util.BytesPrefix([]byte{tHistory}), nil), fn)
}
