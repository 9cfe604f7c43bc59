package frontier

import (
	"errors"
	"fmt"
	"time"

	"github.com/syndtr/goleveldb/leveldb"
)

// tDigest is the table of payload digests already archived:
//
//	d<payload digest>  version 1, URL, record ID, date of the capture
//
// It lets the engine write an identical payload met at another URL, or in
// a later generation, as a revisit record instead of archiving it again.
const tDigest = 'd'

// Capture names the record that first archived a payload.
type Capture struct {
	URL      string
	RecordID string
	Date     time.Time
}

// Capture returns the first archived capture of a payload digest, and
// whether there is one.
func (q *Queue) Capture(digest string) (Capture, bool, error) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return Capture{}, false, ErrClosed
	}
	v, err := q.db.Get(siteKey(tDigest, digest), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return Capture{}, false, nil
	}
	if err != nil {
		return Capture{}, false, fmt.Errorf("frontier: capture of %s: %w", digest, dbErr(err))
	}
	d := decoder{b: v}
	if ver := d.byte(); ver != 1 && d.err == nil {
		return Capture{}, false, fmt.Errorf("frontier: capture of %s: %w: version %d", digest, ErrCorrupt, ver)
	}
	c := Capture{URL: d.string(), RecordID: d.string(), Date: d.time()}
	if d.err != nil {
		return Capture{}, false, fmt.Errorf("frontier: capture of %s: %w", digest, d.err)
	}
	return c, true, nil
}

func encodeCapture(c Capture) []byte {
	b := make([]byte, 0, 16+len(c.URL)+len(c.RecordID))
	b = append(b, 1)
	b = appendString(b, c.URL)
	b = appendString(b, c.RecordID)
	return appendTime(b, c.Date)
}

// indexCapture records the capture of h's payload digest in t's batch,
// unless one is recorded already (the first capture stays the one that
// revisits name). Called with q.mu held.
func (t *txn) indexCapture(h *History) error {
	if h.Digest == "" || h.RecordID == "" {
		return nil
	}
	k := siteKey(tDigest, h.Digest)
	ok, err := t.q.db.Has(k, nil)
	if err != nil {
		return dbErr(err)
	}
	if !ok {
		t.b.Put(k, encodeCapture(Capture{URL: h.URL, RecordID: h.RecordID, Date: h.Fetched}))
	}
	return nil
}

// AddCapture records c as the capture of a payload digest, unless the
// digest has one already; it reports whether it was added. It imports an
// index of earlier captures (another crawl's CDXJ) as deduplication
// history, whose records the frontier does not know by ID: c.RecordID may
// be empty, and revisits then name the capture by URL and date alone,
// which is what pywb resolves them by.
func (q *Queue) AddCapture(digest string, c Capture) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return false, ErrClosed
	}
	k := siteKey(tDigest, digest)
	ok, err := q.db.Has(k, nil)
	if err != nil || ok {
		return false, dbErr(err)
	}
	if err := q.db.Put(k, encodeCapture(c), q.wo); err != nil {
		return false, fmt.Errorf("frontier: add capture %s: %w", digest, dbErr(err))
	}
	return true, nil
}

// tImported holds the names of imports done (MarkImported): an empty
// value under i<name>.
const tImported = 'i'

// Imported reports whether MarkImported(name) was called on this frontier,
// in this run or an earlier one: an import the caller does once.
func (q *Queue) Imported(name string) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return false, ErrClosed
	}
	ok, err := q.db.Has(siteKey(tImported, name), nil)
	return ok, dbErr(err)
}

// MarkImported records that the import called name is done. It is
// written after the import's own records in the same journal, so a crash
// never leaves the mark without them; a crash before it leaves the import
// to be done again, which AddCapture makes harmless.
func (q *Queue) MarkImported(name string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return ErrClosed
	}
	if err := q.db.Put(siteKey(tImported, name), nil, q.wo); err != nil {
		return fmt.Errorf("frontier: mark import %s: %w", name, dbErr(err))
	}
	return nil
}
