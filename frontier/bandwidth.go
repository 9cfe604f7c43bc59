package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
)

// tBandwidth is the table of per-server bandwidth estimates:
//
//	b<server>  version 1, then 48 float64 (little endian), bytes per second
//
// The layout of the 48 values is package bandwidth's (bandwidth.Rates):
// hour h of a weekend day at h, of a working day at 24+h.
const tBandwidth = 'b'

// BandwidthSlots is the number of estimates stored per server.
const BandwidthSlots = 48

const bandwidthRecordLen = 1 + 8*BandwidthSlots

// BandwidthStore keeps the bandwidth estimates B(server, hour, workday) of
// the fetcher manager in the frontier's database, so that a resumed crawl
// knows its servers' speeds. It implements bandwidth.Store. It does not
// take the Queue's lock, so a manager may call it from inside a NextFit
// callback; it is safe for concurrent use. After the Queue's Close its
// methods return ErrClosed.
type BandwidthStore struct {
	db *leveldb.DB
	wo *opt.WriteOptions
}

// Bandwidth returns the store of bandwidth estimates, or nil if q is closed.
func (q *Queue) Bandwidth() *BandwidthStore {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return nil
	}
	return &BandwidthStore{db: q.db, wo: q.wo}
}

// Get returns the estimates of server and whether any are stored.
func (s *BandwidthStore) Get(server string) ([BandwidthSlots]float64, bool, error) {
	var r [BandwidthSlots]float64
	if s == nil {
		return r, false, ErrClosed
	}
	v, err := s.db.Get(siteKey(tBandwidth, server), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("frontier: bandwidth of %s: %w", server, dbErr(err))
	}
	if len(v) != bandwidthRecordLen || v[0] != 1 {
		return r, false, fmt.Errorf("frontier: bandwidth of %s: %w", server, ErrCorrupt)
	}
	for i := range r {
		r[i] = math.Float64frombits(binary.LittleEndian.Uint64(v[1+8*i:]))
	}
	return r, true, nil
}

// Put stores the estimates of server.
func (s *BandwidthStore) Put(server string, rates [BandwidthSlots]float64) error {
	if s == nil {
		return ErrClosed
	}
	b := make([]byte, 1, bandwidthRecordLen)
	b[0] = 1
	for _, x := range rates {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	if err := s.db.Put(siteKey(tBandwidth, server), b, s.wo); err != nil {
		return fmt.Errorf("frontier: store bandwidth of %s: %w", server, dbErr(err))
	}
	return nil
}
