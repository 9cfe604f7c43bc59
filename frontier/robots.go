package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
)

// tRobots is the table of robots.txt outcomes, by robots.txt URL:
//
//	r<robots URL>  version 1, fetched, expires, status, failures, body
//
// so that a restart neither fetches robots.txt again before its verdict
// expires nor forgets how many times in a row it failed.
const tRobots = 'r'

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
	if err := s.db.Put(siteKey(tRobots, robotsURL), b, s.wo); err != nil {
		return fmt.Errorf("frontier: save robots %s: %w", robotsURL, dbErr(err))
	}
	return nil
}
