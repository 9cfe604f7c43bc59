package frontier

import (
	"errors"
	"fmt"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/storage"
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

// journalSync is the frontier's storage: LevelDB's, with each journal
// fsynced when LevelDB closes it. LevelDB closes a journal without an
// fsync when its memtable is full and it starts the next; Sync fsyncs only
// the journal being written, so a power cut before the full memtable
// reached a table lost the closed journal's last writes while keeping
// later ones in the next journal: writes lost from the middle of the log,
// which Open would now refuse as damage.
type journalSync struct {
	storage.Storage
}

func (s journalSync) Create(fd storage.FileDesc) (storage.Writer, error) {
	w, err := s.Storage.Create(fd)
	if err != nil || fd.Type != storage.TypeJournal {
		return w, err
	}
	return syncOnClose{w}, nil
}

// syncOnClose is a journal writer that fsyncs before it closes.
type syncOnClose struct {
	storage.Writer
}

func (w syncOnClose) Close() error {
	return errors.Join(w.Sync(), w.Writer.Close())
}
