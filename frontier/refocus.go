package frontier

import (
	"errors"
	"fmt"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// tFocusTarget holds the focus target the counters of table c were
// counted for (Refocus): o<name>, one record.
const tFocusTarget = 'o'

var focusTargetKey = []byte{tFocusTarget, 't'}

// Refocus records that the focus counters are counted for target (the
// caller's spelling of its target languages; "" for no focusing). If
// the frontier recorded another target, every focus counter is deleted
// first, since N_r counted pages of the old target; it returns that
// target, changed true, and how many counters went. A frontier that
// recorded none (new, or written before the target was kept) takes
// target with its counters as they are. The counters go in batches and
// the target is written last, so a crash part way leaves the old target
// and the next call deletes the rest.
func (q *Queue) Refocus(target string) (prev string, changed bool, deleted int, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return "", false, 0, ErrClosed
	}
	v, err := q.db.Get(focusTargetKey, nil)
	switch {
	case errors.Is(err, leveldb.ErrNotFound):
		return "", false, 0, q.putFocusTarget(target)
	case err != nil:
		return "", false, 0, fmt.Errorf("frontier: focus target: %w", dbErr(err))
	}
	if prev = string(v); prev == target {
		return prev, false, 0, nil
	}
	it := q.db.NewIterator(util.BytesPrefix([]byte{tCount}), nil)
	b := new(leveldb.Batch)
	flush := func() error {
		if b.Len() == 0 {
			return nil
		}
		err := q.db.Write(b, q.wo)
		b.Reset()
		return err
	}
	for it.Next() {
		b.Delete(append([]byte(nil), it.Key()...))
		deleted++
		if b.Len() >= 10000 {
			if err = flush(); err != nil {
				break
			}
		}
	}
	it.Release()
	if err == nil {
		err = it.Error()
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		return prev, true, deleted, fmt.Errorf("frontier: drop focus counters of %q: %w", prev, dbErr(err))
	}
	return prev, true, deleted, q.putFocusTarget(target)
}

func (q *Queue) putFocusTarget(target string) error {
	if err := q.db.Put(focusTargetKey, []byte(target), q.wo); err != nil {
		return fmt.Errorf("frontier: focus target: %w", dbErr(err))
	}
	return nil
}
