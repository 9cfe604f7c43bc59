package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// tRobots is the table of robots.txt outcomes, by robots.txt URL:
//
//	r<robots URL>  version 1, fetched, expires, status, failures, body
//
// so that a restart neither fetches robots.txt again before its verdict
// expires nor forgets how many times in a row it failed.
const tRobots = 'r'

// tRobotsExpiry indexes tRobots by when each record may go:
//
//	R<unix nanoseconds, big endian><robots URL>  (empty)
//
// a day past its expiry (robotsKeep). Each save deletes the records whose
// time has come by the saver's clock, a few at a time (robotsPrunePerSave):
// an expired success is never read again (politeness fetches anew), and
// without it the table held every robots.txt of every origin the crawl
// ever met, bodies and all (a soak review). Records stored before the
// index was kept have no entry and stay.
const tRobotsExpiry = 'R'

// robotsKeep is how long a record is kept past its expiry: a run of
// failures of a host tried again within it goes on counting.
const robotsKeep = 24 * time.Hour

// robotsPrunePerSave bounds the records one save deletes: more than one,
// so that the pruning keeps ahead of the saves.
const robotsPrunePerSave = 8

func robotsExpiryKey(at time.Time, robotsURL string) []byte {
	k := make([]byte, 9, 9+len(robotsURL))
	k[0] = tRobotsExpiry
	binary.BigEndian.PutUint64(k[1:], uint64(max(at.UnixNano(), 0)))
	return append(k, robotsURL...)
}

// RobotsRecord is one stored robots.txt outcome. Status 0 means no HTTP
// status was obtained (a network error).
type RobotsRecord struct {
	Fetched  time.Time
	Expires  time.Time
	Status   int
	Failures int    // failures in a row, for the retry delay
	Body     []byte // the part of the body that is parsed (at most 500 KiB)
}

// RobotsStore keeps robots.txt outcomes in the frontier's database. It
// does not take the Queue's lock and is safe for concurrent use. After the
// Queue's Close its methods return ErrClosed.
type RobotsStore struct {
	db *leveldb.DB
	wo *opt.WriteOptions
}

// Robots returns the store of robots.txt outcomes, or nil if q is closed.
func (q *Queue) Robots() *RobotsStore {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return nil
	}
	return &RobotsStore{db: q.db, wo: q.wo}
}

// LoadRobots returns the outcome stored for robotsURL and whether there is one.
func (s *RobotsStore) LoadRobots(robotsURL string) (RobotsRecord, bool, error) {
	if s == nil {
		return RobotsRecord{}, false, ErrClosed
	}
	v, err := s.db.Get(siteKey(tRobots, robotsURL), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return RobotsRecord{}, false, nil
	}
	if err != nil {
		return RobotsRecord{}, false, fmt.Errorf("frontier: robots %s: %w", robotsURL, dbErr(err))
	}
	d := decoder{b: v}
	if ver := d.byte(); ver != 1 && d.err == nil {
		return RobotsRecord{}, false, fmt.Errorf("frontier: robots %s: %w: version %d", robotsURL, ErrCorrupt, ver)
	}
	r := RobotsRecord{Fetched: d.time(), Expires: d.time(), Status: int(d.varint()), Failures: int(d.uvarint())}
	r.Body = []byte(d.string())
	if d.err != nil {
		return RobotsRecord{}, false, fmt.Errorf("frontier: robots %s: %w", robotsURL, d.err)
	}
	return r, true, nil
}

// SaveRobots stores the outcome for robotsURL, replacing any before it.
func (s *RobotsStore) SaveRobots(robotsURL string, r RobotsRecord) error {
	if s == nil {
		return ErrClosed
	}
	b := make([]byte, 0, 32+len(r.Body))
	b = append(b, 1)
	b = appendTime(b, r.Fetched)
	b = appendTime(b, r.Expires)
	b = binary.AppendVarint(b, int64(r.Status))
	b = binary.AppendUvarint(b, uint64(r.Failures))
	b = appendString(b, string(r.Body))
	batch := new(leveldb.Batch)
	if old, ok, err := s.LoadRobots(robotsURL); err == nil && ok {
		batch.Delete(robotsExpiryKey(old.Expires.Add(robotsKeep), robotsURL))
	}
	batch.Put(siteKey(tRobots, robotsURL), b)
	batch.Put(robotsExpiryKey(r.Expires.Add(robotsKeep), robotsURL), nil)
	s.prune(batch, r.Fetched, robotsURL)
	if err := s.db.Write(batch, s.wo); err != nil {
		return fmt.Errorf("frontier: save robots %s: %w", robotsURL, dbErr(err))
	}
	return nil
}

// prune adds to batch the deletion of up to robotsPrunePerSave records
// whose time to go (their expiry and robotsKeep) is now or before, but the
// one being saved.
func (s *RobotsStore) prune(batch *leveldb.Batch, now time.Time, saving string) {
	if now.IsZero() {
		return
	}
	end := robotsExpiryKey(now.Add(1), "") // its time come at now included
	it := s.db.NewIterator(&util.Range{Start: []byte{tRobotsExpiry}, Limit: end}, nil)
	defer it.Release()
	for n := 0; n < robotsPrunePerSave && it.Next(); n++ {
		k := it.Key()
		if len(k) < 9 {
			continue
		}
		u := string(k[9:])
		if u == saving {
			continue // its old index entry is deleted by the save itself
		}
		// A record saved again meanwhile by another worker may go with
		// its old entry: the store is best effort (a restart fetches
		// that robots.txt again), and its new entry deletes nothing.
		batch.Delete(append([]byte(nil), k...))
		batch.Delete(siteKey(tRobots, u))
	}
}
