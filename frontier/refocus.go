package frontier

import (
	"encoding/binary"
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

// profileMarkKey is the key of the profile fingerprint of generation gen
// (MarkProfile): o p <gen, 8 bytes big-endian>.
func profileMarkKey(gen int64) []byte {
	k := []byte{tFocusTarget, 'p', 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint64(k[2:], uint64(gen))
	return k
}

// MarkProfile records fp, the fingerprint of the profile a run of
// generation gen crawls with (the run's last word: a resumed run of gen
// overwrites it), and returns the one recorded for generation gen-1;
// known is false when there is none (a first generation, a frontier
// written before fingerprints were kept, or one a --previous import
// began). A re-crawl whose profile is that of the generation before
// follows no link of a capture a 304 stands for: that capture's links
// were decided under the same rules already.
//
// A generation marked with another fingerprint before (a resumed run
// whose profile was edited) is marked MixedProfile, which matches none,
// and mixed reports it: its queue holds entries decided under another
// profile.
func (q *Queue) MarkProfile(gen int64, fp string) (prev string, known, mixed bool, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return "", false, false, ErrClosed
	}
	if gen > 1 {
		v, err := q.db.Get(profileMarkKey(gen-1), nil)
		switch {
		case err == nil:
			prev, known = string(v), true
		case !errors.Is(err, leveldb.ErrNotFound):
			return "", false, false, fmt.Errorf("frontier: profile mark: %w", dbErr(err))
		}
	}
	// A generation whose runs crawled with different profiles (a run
	// resumed after an edit) decided its links under more than one: it is
	// marked as no profile's (a review of the last commits: the resumed
	// run's mark alone let the next generation skip the captures whose
	// links the first run's profile had decided).
	switch cur, err := q.db.Get(profileMarkKey(gen), nil); {
	case err == nil && string(cur) != fp:
		fp, mixed = MixedProfile, true
	case err != nil && !errors.Is(err, leveldb.ErrNotFound):
		return "", false, false, fmt.Errorf("frontier: profile mark: %w", dbErr(err))
	}
	if err := q.db.Put(profileMarkKey(gen), []byte(fp), q.wo); err != nil {
		return prev, known, mixed, fmt.Errorf("frontier: profile mark: %w", dbErr(err))
	}
	return prev, known, mixed, nil
}

// MixedProfile is the mark of a generation whose runs crawled with more
// than one profile (MarkProfile); no fingerprint equals it.
const MixedProfile = "mixed"
