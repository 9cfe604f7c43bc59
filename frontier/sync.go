package frontier

import (
	"fmt"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
)

// tSync is the key of the sync marker, a record that no reader reads:
// writing it with Sync set is how Queue.Sync fsyncs the journal.
const tSync = 'y'

// Sync makes every write made so far durable. Writes are not fsynced one
// by one (unless Options.Sync): a process crash loses none of them, but a
// power failure may lose those since the last Sync. LevelDB's journal is
// written in order, so one synced write of a small marker record fsyncs it
// with everything before it. Reads go on while Sync runs; writes wait.
//
// A caller that must keep the frontier behind other files (a URL is
// complete only once its WARC records are on disk) fsyncs those first and
// holds back the writes it cares about until Sync returns.
func (q *Queue) Sync() error {
	// The read lock keeps q.db open; LevelDB orders the marker after
	// every write that returned before it.
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return ErrClosed
	}
	b := new(leveldb.Batch)
	b.Put([]byte{tSync}, nil)
	if err := q.db.Write(b, &opt.WriteOptions{Sync: true}); err != nil {
		return fmt.Errorf("frontier: sync: %w", dbErr(err))
	}
	return nil
}
