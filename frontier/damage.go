package frontier

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/syndtr/goleveldb/leveldb/storage"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// ErrDamaged is wrapped by Open's error for a frontier whose journal (the
// log of LevelDB's writes not yet in a table) was damaged in its middle: a
// record that does not read whole, with whole records after it. LevelDB
// replays a journal leniently, dropping every block that fails its
// checksum and going on, so a bad sector or a flipped bit there opened
// without a word, the URLs its records had queued lost and those it had
// recorded done fetched again (a failure review). A crash cuts a journal
// at its end only: a torn last write, which Open drops as the crash
// contract allows (Queue.Damage says so).
var ErrDamaged = errors.New("frontier: journal damaged in its middle")

// blockSize is the journal's block: LevelDB checks and drops whole blocks.
const blockSize = 32 * 1024

// journalDamage is what checkJournals found wrong in one journal file.
type journalDamage struct {
	file   string
	at     int64  // where the first record that does not read whole starts
	bytes  int64  // from at to the first whole record after it, or to the end
	reason string // what is wrong with the first chunk that does not read
	// after is where the first whole record after the damage starts (in
	// this journal, or 0 in a later one: laterFile), or -1 when nothing
	// whole follows (a cut end).
	after     int64
	laterFile string
}

// mid reports whether whole records follow the damage.
func (d journalDamage) mid() bool { return d.after >= 0 }

func (d journalDamage) String() string {
	switch {
	case d.laterFile != "":
		return fmt.Sprintf("journal %s: its last %d bytes from offset %d do not read (%s), and whole records follow in the later journal %s",
			d.file, d.bytes, d.at, d.reason, d.laterFile)
	case d.mid():
		return fmt.Sprintf("journal %s: %d bytes from offset %d do not read (%s), and whole records follow from offset %d",
			d.file, d.bytes, d.at, d.reason, d.after)
	}
	return fmt.Sprintf("journal %s: its last %d bytes from offset %d do not read (%s): a write cut by a crash or a power failure, dropped",
		d.file, d.bytes, d.at, d.reason)
}

// checkJournals reads every journal of stor, chunk by chunk as LevelDB's
// replay does, and reports the damage found, in file order; dir names
// the files (the storage's own names when empty). It reads the files only.
//
// LevelDB drops the rest of a 32 KiB block at the first chunk that fails
// its checksum, so a replay cannot see what follows damage in its own
// block; this walk looks past it for the next chunk that reads whole
// (journalWalk.resync), so damage in a journal's last block, or in a
// journal of one block, is not taken for a cut end (a review found one
// flipped byte in a 20 KB journal opening with 99 of 100 URLs lost).
//
// Damage counts as a cut end only when nothing whole follows it, in its
// own journal or a later one: a journal is written in order, and LevelDB
// writes a later journal only after an earlier one, so a crash cuts the
// newest at its end. Every journal file is read, also an obsolete one that
// a crash left behind before LevelDB removed it; damage there is reported
// though the replay would skip it (rare: a crash between two of LevelDB's
// own steps).
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
		w, err := walkJournal(stor, fd)
		if err != nil {
			return nil, fmt.Errorf("read journal %s: %w", name, err)
		}
		// A later journal's whole record makes every earlier cut end a
		// loss in the middle of the log.
		if w.records > 0 {
			for i := range found {
				if !found[i].mid() {
					found[i].after, found[i].laterFile = 0, name
				}
			}
		}
		if w.at >= 0 {
			d := journalDamage{file: name, at: w.at, reason: w.reason, after: w.after, bytes: w.size - w.at}
			if d.mid() {
				d.bytes = w.after - w.at
			}
			found = append(found, d)
		}
	}
	return found, nil
}

// journalWalk is the state of walkJournal over one journal file.
type journalWalk struct {
	size    int64 // bytes read
	records int   // whole records
	// in: a record whose first chunk read whole is open, from recStart.
	in       bool
	recStart int64
	// at, reason: the first damage (-1: none); after: the first whole
	// record after it (-1: none).
	at     int64
	reason string
	after  int64
}

// LevelDB's journal chunk header: checksum (4 bytes), length (2), type (1).
const (
	chunkHeader = 7
	chunkFull   = 1
	chunkFirst  = 2
	chunkMiddle = 3
	chunkLast   = 4
)

// walkJournal reads a journal file a block at a time.
func walkJournal(stor storage.Storage, fd storage.FileDesc) (*journalWalk, error) {
	f, err := stor.Open(fd)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := &journalWalk{at: -1, after: -1}
	buf := make([]byte, blockSize)
	for {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			w.block(w.size, buf[:n])
			w.size += int64(n)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if w.in {
		// A record whose last chunk never came: the end was cut.
		w.damage(w.recStart, "a record's last chunk missing")
	}
	return w, nil
}

// chunkAt reads the chunk header at pos of b: its type and the end of its
// data, or a reason it does not read whole.
func chunkAt(b []byte, pos int) (typ byte, end int, bad string) {
	h := b[pos : pos+chunkHeader]
	sum := binary.LittleEndian.Uint32(h[0:4])
	length := int(binary.LittleEndian.Uint16(h[4:6]))
	typ = h[6]
	end = pos + chunkHeader + length
	switch {
	case sum == 0 && length == 0 && typ == 0:
		return 0, 0, "zero header"
	case typ < chunkFull || typ > chunkLast:
		return 0, 0, fmt.Sprintf("invalid chunk type %#x", typ)
	case end > len(b):
		return 0, 0, "chunk length overflows block"
	case util.NewCRC(b[pos+chunkHeader-1:end]).Value() != sum:
		return 0, 0, "checksum mismatch"
	}
	return typ, end, ""
}

// block walks the chunks of one block b, which starts at off.
func (w *journalWalk) block(off int64, b []byte) {
	pos := 0
	for pos+chunkHeader <= len(b) {
		typ, end, bad := chunkAt(b, pos)
		if bad != "" {
			if w.in {
				w.damage(w.recStart, bad)
				w.in = false
			} else {
				w.damage(off+int64(pos), bad)
			}
			next, ok := resync(b, pos+1)
			if !ok {
				return // the rest of the block is dropped, as LevelDB does
			}
			pos = next
			continue
		}
		at := off + int64(pos)
		switch typ {
		case chunkFull, chunkFirst:
			if w.in {
				w.damage(w.recStart, "a record's last chunk missing")
			}
			w.in, w.recStart = typ == chunkFirst, at
			if typ == chunkFull {
				w.whole(at)
			}
		case chunkMiddle, chunkLast:
			if !w.in {
				// The rest of a record whose start was damaged:
				// already counted.
				break
			}
			if typ == chunkLast {
				w.in = false
				w.whole(w.recStart)
			}
		}
		pos = end
	}
}

// resync finds the first place from pos in b where a chunk that starts a
// record (full or first) reads whole: where LevelDB's replay, had it not
// dropped the rest of the block, would find records again.
func resync(b []byte, pos int) (int, bool) {
	for ; pos+chunkHeader <= len(b); pos++ {
		if t := b[pos+6]; t != chunkFull && t != chunkFirst {
			continue
		}
		if _, _, bad := chunkAt(b, pos); bad == "" {
			return pos, true
		}
	}
	return 0, false
}

// damage records damage at a record or chunk starting at at.
func (w *journalWalk) damage(at int64, reason string) {
	if w.at < 0 {
		w.at, w.reason = at, reason
	}
}

// whole records a whole record starting at at.
func (w *journalWalk) whole(at int64) {
	w.records++
	if w.at >= 0 && w.after < 0 && at > w.at {
		w.after = at
	}
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
	return fmt.Errorf("%w: %s: opening it would drop the records there, and the rest of their 32 KiB block, without a word (URLs they queued lost, URLs they recorded done fetched again); nothing was changed. "+
		"A kill cannot do this; a bad disk can, and so can a power failure that wrote the last second's writes out of order (then dropping them loses what the crash contract allows)",
		ErrDamaged, strings.Join(mids, "; "))
}
