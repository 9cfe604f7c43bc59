package frontier

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/syndtr/goleveldb/leveldb/journal"
	"github.com/syndtr/goleveldb/leveldb/storage"
)

// ErrDamaged is wrapped by Open's error for a frontier whose journal (the
// log of LevelDB's writes not yet in a table) was damaged in its middle: a
// block that does not read whole, with whole records after it. LevelDB
// replays a journal leniently, dropping every block that fails its
// checksum and going on, so a bad sector or a flipped bit there opened
// without a word, the URLs its records had queued lost and those it had
// recorded done fetched again (a failure review). A crash cuts a journal
// at its end only: a torn last write, which Open drops as the crash
// contract allows (Queue.Damage says so).
var ErrDamaged = errors.New("frontier: journal damaged in its middle")

// blockSize is the journal's block: LevelDB checks and drops whole blocks.
const blockSize = 32 * 1024

// journalDamage is what checkJournal found wrong in one journal file.
type journalDamage struct {
	file   string
	at     int64  // where the block of the first drop starts
	bytes  int    // the bytes the drops cover
	reason string // the first drop's, as LevelDB gives it
	// after is where the block holding the first whole record after the
	// damage starts, or -1 when nothing whole follows (a cut end).
	after int64
}

// mid reports whether whole records follow the damage.
func (d journalDamage) mid() bool { return d.after >= 0 }

func (d journalDamage) String() string {
	if d.mid() {
		return fmt.Sprintf("journal %s: %d bytes from offset %d do not read (%s), and whole records follow from offset %d",
			d.file, d.bytes, d.at, d.reason, d.after)
	}
	return fmt.Sprintf("journal %s: its last %d bytes from offset %d do not read (%s): a write cut by a crash or a power failure, dropped",
		d.file, d.bytes, d.at, d.reason)
}

// checkJournals reads every journal of stor as LevelDB's replay would and
// reports the damage found, in file order; dir names the files (the
// storage's own names when empty). It reads the files only.
//
// Every journal file is read, also an obsolete one that a crash left
// behind before LevelDB could remove it; damage in such a file is
// reported though the replay would skip it. Only damage followed by a
// whole record in its own file counts as a middle's: a journal is written
// in order, so a crash cuts the newest file at its end.
func checkJournals(stor storage.Storage, dir string) ([]journalDamage, error) {
	fds, err := stor.List(storage.TypeJournal)
	if err != nil {
		return nil, fmt.Errorf("list journals: %w", err)
	}
	slices.SortFunc(fds, func(a, b storage.FileDesc) int { return cmp.Compare(a.Num, b.Num) })
	var found []journalDamage
	for _, fd := range fds {
		name := fd.String()
		if dir != "" {
			name = filepath.Join(dir, name)
		}
		d, err := checkJournal(stor, fd, name)
		if err != nil {
			return nil, err
		}
		if d != nil {
			found = append(found, *d)
		}
	}
	return found, nil
}

// checkJournal reads one journal file; nil when it reads whole.
func checkJournal(stor storage.Storage, fd storage.FileDesc, name string) (*journalDamage, error) {
	f, err := stor.Open(fd)
	if err != nil {
		return nil, fmt.Errorf("open journal %s: %w", name, err)
	}
	defer f.Close()
	cr := &blockReader{r: f}
	rec := &dropRecorder{cr: cr, d: journalDamage{file: name, at: -1, after: -1}}
	jr := journal.NewReader(cr, rec, false, true)
	for {
		r, err := jr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read journal %s: %w", name, err)
		}
		start := cr.block()
		_, err = io.Copy(io.Discard, r)
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			// A record cut by a drop: the drop is recorded.
		case err != nil:
			return nil, fmt.Errorf("read journal %s: %w", name, err)
		case rec.d.at >= 0 && rec.d.after < 0:
			rec.d.after = start
		}
	}
	if rec.d.at < 0 {
		return nil, nil
	}
	return &rec.d, nil
}

// blockReader counts the bytes read: the journal reader reads whole
// blocks, so the last byte read is in the block it works on.
type blockReader struct {
	r io.Reader
	n int64
}

func (b *blockReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

// block is where the block the journal reader works on starts.
func (b *blockReader) block() int64 {
	if b.n == 0 {
		return 0
	}
	return (b.n - 1) / blockSize * blockSize
}

// dropRecorder is the journal reader's Dropper: it keeps the first drop's
// place and reason, and adds up the bytes of all.
type dropRecorder struct {
	cr *blockReader
	d  journalDamage
}

func (r *dropRecorder) Drop(err error) {
	var c *journal.ErrCorrupted
	size, reason := 0, err.Error()
	if errors.As(err, &c) {
		size, reason = c.Size, c.Reason
	}
	if r.d.at < 0 {
		r.d.at, r.d.reason = r.cr.block(), reason
	}
	r.d.bytes += size
}

// damageError is Open's error for damage in a journal's middle.
func damageError(found []journalDamage) error {
	var mids []string
	for _, d := range found {
		if d.mid() {
			mids = append(mids, d.String())
		}
	}
	if mids == nil {
		return nil
	}
	return fmt.Errorf("%w: %s: opening it would drop the records there without a word (URLs they queued lost, URLs they recorded done fetched again); nothing was changed",
		ErrDamaged, strings.Join(mids, "; "))
}
