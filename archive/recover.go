package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/langcrawl/langcrawl/internal/dirglob"
)

// Recover closes the files a crashed Writer left with the ".open" suffix in
// dir, so that a resumed crawl leaves no file behind that readers skip. For
// each one it keeps every whole record, cuts off a record the crash left
// half written, writes the index run of its responses and revisits
// (RunsDir) and renames the file to its final name. A file with no whole
// record is removed. Then it merges the runs into the index (MergeIndex),
// so that the index names every record of every closed file once. It
// returns the final names of the files it recovered.
//
// A run already there for an ".open" file (a kill between the run and the
// rename) is written again from the file itself. An index left by an older
// langcrawl, which appended lines to it, is mended too: a line cut short
// (no trailing newline) is removed, and so are the lines at its tail that
// name a file still ".open". Every change is fsynced, directories
// included.
//
// If only the merge fails (a disk too full for a copy of the index), the
// error wraps ErrIndexNotMerged: the files are recovered and every index
// line is still in RunsDir, which the next merge takes in, so the caller
// may go on.
//
// Call it before NewWriter on the same directory, never while a Writer
// writes there.
func Recover(dir string) ([]string, error) {
	open, err := dirglob.Glob(dir, "*"+openSuffix)
	if err != nil {
		return nil, fmt.Errorf("archive: recover %s: %w", dir, err)
	}
	index := filepath.Join(dir, IndexName)
	if err := trimCutLine(index); err != nil {
		return nil, err
	}
	// Temporary files of an interrupted run or merge.
	tmps, _ := dirglob.Glob(filepath.Join(dir, RunsDir), "*.tmp-*")
	tmps2, _ := dirglob.Glob(dir, IndexName+".tmp-*")
	for _, t := range append(tmps, tmps2...) {
		os.Remove(t)
	}
	var done []string
	var errs []error
	for _, path := range open {
		final, err := recoverFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if final != "" {
			done = append(done, final)
		}
	}
	if len(open) > 0 {
		errs = append(errs, syncDir(dir))
	}
	if err := errors.Join(errs...); err != nil {
		return done, err
	}
	if err := MergeIndex(dir); err != nil {
		return done, notMerged(dir, err)
	}
	return done, nil
}

// ErrIndexNotMerged is wrapped by the error of Recover, and of
// Writer.Close, when the index runs could not be merged (and by Recover's
// only then: the files were recovered). No line is lost: the runs stay in
// RunsDir, and the next merge takes them in.
var ErrIndexNotMerged = errors.New("archive: index not merged")

// notMerged wraps a failed merge of dir's runs in ErrIndexNotMerged.
func notMerged(dir string, err error) error {
	return fmt.Errorf("%w: %w (its lines stay in %s until a merge succeeds)", ErrIndexNotMerged, err, filepath.Join(dir, RunsDir))
}

// recoverFile recovers one .open file; it returns "" when the file held no
// whole record and was removed.
func recoverFile(path string) (string, error) {
	final := strings.TrimSuffix(path, openSuffix)
	dir, name := filepath.Dir(path), filepath.Base(final)
	good, index, err := scanWhole(path, name)
	if err != nil {
		return "", err
	}
	if err := dropTail(filepath.Join(dir, IndexName), name); err != nil {
		return "", err
	}
	run := filepath.Join(dir, RunsDir, name+".cdxj")
	if err := os.Remove(run); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("archive: recover %s: %w", path, err)
	}
	if good == 0 {
		if err := os.Remove(path); err != nil {
			return "", fmt.Errorf("archive: recover %s: %w", path, err)
		}
		return "", nil
	}
	if err := os.Truncate(path, good); err != nil {
		return "", fmt.Errorf("archive: recover %s: %w", path, err)
	}
	if err := syncFile(path); err != nil {
		return "", err
	}
	if len(index) > 0 {
		if err := writeRun(dir, name, index); err != nil {
			return "", err
		}
	}
	if err := os.Rename(path, final); err != nil {
		return "", fmt.Errorf("archive: recover %s: %w", path, err)
	}
	return final, nil
}

// ErrDamaged is wrapped by Recover's error for a .open file damaged in its
// middle (a bad sector, a flipped bit): a record that does not read whole
// with whole records after it. A crash cuts a file at its end only; cutting
// there would delete every whole record after the damage, whose URLs the
// frontier holds done (a review found Recover doing so without a word, and
// deleting a file whose warcinfo record was damaged).
var ErrDamaged = errors.New("archive: WARC file damaged in its middle")

// wholeAfter reports whether a whole record starts in the WARC file f
// (size bytes, compressed when gz; at path) after the record at from, which does not read whole, and where:
// it looks for the start of a gzip member (compressed) or a "WARC/1."
// version line at each place past from, and reads a record there. At most
// maxProbes places are tried: a crash's cut record, the only thing after
// from when a crash cut the file, holds such bytes only by chance.
func wholeAfter(f io.ReaderAt, size int64, gz bool, path, name string, from int64) (int64, bool, error) {
	magic := []byte("WARC/1.")
	if gz {
		magic = []byte{0x1f, 0x8b, 0x08}
	}
	const maxProbes = 256
	buf := make([]byte, 1<<20)
	for off, probes := from+1, 0; off < size && probes < maxProbes; {
		n, err := f.ReadAt(buf, off)
		if n == 0 {
			if err != nil && !errors.Is(err, io.EOF) {
				return 0, false, fmt.Errorf("archive: recover %s: %w", path, err)
			}
			break
		}
		i := bytes.Index(buf[:n], magic)
		if i < 0 {
			off += int64(max(n-len(magic)+1, 1)) // a magic across the chunks' seam is read with the next
			continue
		}
		at := off + int64(i)
		probes++
		sec := io.NewSectionReader(f, at, size-at)
		good, _ := scan(io.NewSectionReader(f, at, size-at), name, 0, wholeCheck(sec, size-at, gz), func(Record, []byte) error { return nil })
		if good > 0 {
			return at, true, nil
		}
		off = at + 1
	}
	return 0, false, nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("archive: recover %s: %w", path, err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("archive: recover %s: %w", path, err)
	}
	return nil
}

// trimCutLine cuts off the last line of the file at path if it does not
// end in a newline: what a crash in the middle of an append leaves. A
// missing file is fine.
func trimCutLine(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("archive: recover index %s: %w", path, err)
	}
	defer f.Close()
	keep, err := lastNewline(f)
	if err == nil && keep >= 0 {
		if err = f.Truncate(keep); err == nil {
			err = f.Sync()
		}
	}
	if err != nil {
		return fmt.Errorf("archive: recover index %s: %w", path, err)
	}
	return nil
}

// lastNewline returns the size f should have to end with its last whole
// line, or -1 if it already does (or is empty).
func lastNewline(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	buf := make([]byte, 64<<10)
	end := size
	for end > 0 {
		n := min(int64(len(buf)), end)
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return 0, err
		}
		i := bytes.LastIndexByte(buf[:n], '\n')
		if i >= 0 {
			k := end - n + int64(i) + 1
			if k == size {
				return -1, nil
			}
			return k, nil
		}
		end -= n
	}
	if size == 0 {
		return -1, nil
	}
	return 0, nil
}

// dropTail removes the lines at the end of the index at path that name
// the WARC file name. A Writer appends the lines of one file at a time, so
// a file's lines, if any are there, are the last ones.
func dropTail(path, name string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("archive: recover index %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("archive: recover index %s: %w", path, err)
	}
	size := st.Size()
	mark := []byte(`"filename":"` + name + `"}`)
	// Read a window at the tail, doubled until it reaches a line that
	// names another file or the start of the index.
	var data []byte
	var base int64 // offset of data[0] in the file
	keep := 0
	for window := int64(64 << 10); ; window *= 2 {
		base = max(size-window, 0)
		data = make([]byte, size-base)
		if _, err := f.ReadAt(data, base); err != nil {
			return fmt.Errorf("archive: recover index %s: %w", path, err)
		}
		keep = len(data)
		other := false
		for keep > 0 {
			start := bytes.LastIndexByte(data[:keep-1], '\n') + 1
			if start == 0 && base > 0 {
				break // the line may start before the window
			}
			if !bytes.Contains(data[start:keep], mark) {
				other = true
				break
			}
			keep = start
		}
		if other || base == 0 {
			break
		}
	}
	if keep == len(data) {
		return nil
	}
	if err := f.Truncate(base + int64(keep)); err != nil {
		return fmt.Errorf("archive: recover index %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("archive: recover index %s: %w", path, err)
	}
	return nil
}

// scanWhole reads records until the first one that is not whole, and
// returns where the whole ones end and their CDXJ lines.
func scanWhole(path, name string) (int64, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, fmt.Errorf("archive: recover %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, nil, fmt.Errorf("archive: recover %s: %w", path, err)
	}
	var index []byte
	size, gz := st.Size(), gzipFile(path)
	good, err := scan(f, name, 0, wholeCheck(f, size, gz), func(_ Record, line []byte) error {
		index = append(index, line...)
		return nil
	})
	if err != nil && !errors.Is(err, errCut) {
		return 0, nil, fmt.Errorf("archive: recover %s: %w", path, err)
	}
	// good is where the last record that read whole ends: a record the
	// crash cut short starts at or after it, and nothing whole follows
	// it; a file with whole records after a broken one was damaged in
	// its middle, and is not cut (ErrDamaged).
	if at, ok, err := wholeAfter(f, size, gz, path, name, good); err != nil {
		return 0, nil, err
	} else if ok {
		return 0, nil, fmt.Errorf("%w: %s: the record at %d does not read whole, and whole records follow from %d: the file was damaged in its middle, not cut at its end by a crash; it is left as it is, not cut: move it aside (it holds whole records) or repair it, then start again",
			ErrDamaged, path, good, at)
	}
	return good, index, nil
}

// wholeCheck is Recover's check that a record of the WARC file f (size
// bytes, compressed when gz) read whole. gowarc read a gzip member to its
// checksum: the record is whole and ends where gowarc says. An
// uncompressed record is checked byte by byte, as gowarc lets a cut
// end-of-record marker pass; and where gowarc lost the end (end < 0), it
// is found in the file.
func wholeCheck(f io.ReaderAt, size int64, gz bool) func(rec *Record, end int64) (int64, error) {
	return func(rec *Record, end int64) (int64, error) {
		if gz && end >= 0 {
			return end, nil
		}
		got, err := recordEnd(f, size, rec)
		switch {
		case err != nil:
			return 0, err
		case end >= 0 && got > end:
			return 0, fmt.Errorf("record runs to %d, past where the next starts (%d)", got, end)
		case end >= 0:
			return end, nil // anything between got and end is what gowarc skipped
		}
		return got, nil
	}
}

// recordEnd returns where rec, a record of the WARC file f (size bytes)
// that gowarc read whole, ends: for a gzip member, where the member's
// trailer ends; for an uncompressed record, after its header, its
// Content-Length bytes of block and its four-byte end-of-record marker,
// which must be there. Recover's check needs it for every uncompressed
// record, and for a gzip member when gowarc panics on the record after,
// which loses gowarc's offset.
func recordEnd(f io.ReaderAt, size int64, rec *Record) (int64, error) {
	src := &countingReader{r: bufio.NewReader(io.NewSectionReader(f, rec.Offset, size-rec.Offset))}
	magic, err := src.r.Peek(2)
	if err != nil {
		return 0, err
	}
	if magic[0] == 0x1f && magic[1] == 0x8b {
		// gzip reads src byte-exact, as it is an io.ByteReader: what it
		// has consumed when the member ends is the member.
		zr, err := gzip.NewReader(src)
		if err != nil {
			return 0, err
		}
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, zr); err != nil {
			return 0, err
		}
		return rec.Offset + src.n, nil
	}
	length, err := strconv.ParseInt(rec.Header("Content-Length"), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("Content-Length: %w", err)
	}
	// The header ends at the first empty line: no header line is empty.
	var last [4]byte
	for string(last[:]) != "\r\n\r\n" {
		b, err := src.ReadByte()
		if err != nil {
			return 0, err
		}
		copy(last[:], last[1:])
		last[3] = b
	}
	end := rec.Offset + src.n + length + 4
	if end > size {
		return 0, io.ErrUnexpectedEOF
	}
	var marker [4]byte
	if _, err := f.ReadAt(marker[:], end-4); err != nil {
		return 0, err
	}
	if string(marker[:]) != "\r\n\r\n" {
		return 0, fmt.Errorf("no end-of-record marker at %d", end-4)
	}
	return end, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}
