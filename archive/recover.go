package archive

import (
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
// Call it before NewWriter on the same directory, never while a Writer
// writes there.
func Recover(dir string) ([]string, error) {
	open, err := filepath.Glob(filepath.Join(dir, "*"+openSuffix))
	if err != nil {
		return nil, fmt.Errorf("archive: recover %s: %w", dir, err)
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
	return done, errors.Join(errs...)
}

// recoverFile recovers one .open file; it returns "" when the file held no
// whole record and was removed.
func recoverFile(path string) (string, error) {
	final := strings.TrimSuffix(path, openSuffix)
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
	if err := os.Rename(path, final); err != nil {
		return "", fmt.Errorf("archive: recover %s: %w", path, err)
	}
	if len(index) > 0 {
		if err := appendFile(filepath.Join(filepath.Dir(path), IndexName), index); err != nil {
			return final, err
		}
	}
	return final, nil
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
