package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Recover closes the files a crashed Writer left with the ".open" suffix in
// dir, so that a resumed crawl leaves no file behind that readers skip. For
// each one it keeps every whole record, cuts off a record the crash left
// half written, renames the file to its final name and appends index lines
// for its responses and revisits. A file with no whole record is removed.
// It returns the final names of the files it recovered.
//
// The index is mended first: a line the crash cut short (no trailing
// newline) is removed, and so are the lines at its tail that name a file
// still ".open" (a Writer appends a file's lines just before renaming it,
// so a kill between the two leaves them there); they are written again
// from the file itself. Every change is fsynced, directory included.
//
// Call it before NewWriter on the same directory, never while a Writer
// writes there.
func Recover(dir string) ([]string, error) {
	open, err := filepath.Glob(filepath.Join(dir, "*"+openSuffix))
	if err != nil {
		return nil, fmt.Errorf("archive: recover %s: %w", dir, err)
	}
	index := filepath.Join(dir, IndexName)
	if err := trimCutLine(index); err != nil {
		return nil, err
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
	return done, errors.Join(errs...)
}

// recoverFile recovers one .open file; it returns "" when the file held no
// whole record and was removed.
func recoverFile(path string) (string, error) {
	final := strings.TrimSuffix(path, openSuffix)
	indexPath := filepath.Join(filepath.Dir(path), IndexName)
	if err := dropTail(indexPath, filepath.Base(final)); err != nil {
		return "", err
	}
	good, index, err := scanWhole(path, filepath.Base(final))
	if err != nil {
		return "", err
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
		if err := appendFile(indexPath, index); err != nil {
			return "", err
		}
	}
	if err := os.Rename(path, final); err != nil {
		return "", fmt.Errorf("archive: recover %s: %w", path, err)
	}
	return final, nil
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
	st, err := os.Stat(path)
	if err != nil {
		return 0, nil, fmt.Errorf("archive: recover %s: %w", path, err)
	}
	rd, err := NewReader(path, true)
	if err != nil {
		return 0, nil, fmt.Errorf("archive: recover %s: %w", path, err)
	}
	defer rd.Close()
	type pending struct {
		line cdxLine
		ok   bool
	}
	var (
		good  int64
		prev  *pending
		index []byte
	)
	// A record is known whole once the next one starts where it ends, or
	// the file ends cleanly after it.
	settle := func(end int64) {
		if prev != nil && prev.ok {
			prev.line.Length = end - prev.line.Offset
			index = prev.line.appendTo(index)
		}
		good = end
	}
	for {
		wr, off, _, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if prev != nil {
				settle(st.Size())
			}
			return good, index, nil
		}
		if err != nil {
			return good, index, nil // the record the crash cut short starts at or after good
		}
		rec, rerr := toRecord(wr, off)
		if rerr != nil {
			return good, index, nil
		}
		if prev != nil || off > 0 {
			settle(off)
		}
		p := &pending{}
		if rec.Type == "response" || rec.Type == "revisit" {
			date, _ := time.Parse(time.RFC3339, rec.Header("WARC-Date"))
			p.line = cdxLine{URL: rec.TargetURI, Date: date, Digest: rec.Header("WARC-Payload-Digest"),
				Offset: off, Filename: name}
			p.line.fromHTTP(rec.Block)
			if rec.Type == "revisit" {
				p.line.Mime = "warc/revisit"
			}
			p.ok = true
		}
		prev = p
	}
}
