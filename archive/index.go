package archive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nlnwa/gowarc"
)

// minHeadBlock is the least of a block Scan reads, so that the HTTP
// header section, which the index line is made from, is whole.
const minHeadBlock = 64 << 10

// errCut marks a record that does not read whole: the end of what a crash
// left, for Recover.
var errCut = errors.New("archive: record cut short")

// Scan reads the WARC records of r, a whole WARC file (compressed with one
// gzip member a record, or not) whose index lines are to name the file
// name, one record at a time. It calls fn with each record in file order,
// its Block cut to its first maxBlock bytes (at least 64 KiB), and, for a
// revisit record or a response record holding an HTTP message, the
// record's CDXJ index line as the Writer writes it (nil for other
// records). Memory stays bounded whatever the
// sizes of the file and its records. A record's line needs the offset of
// the next record, so fn sees each record once the next one has started.
// Scan stops at the first error, from r or from fn. It does not close r.
func Scan(r io.Reader, name string, maxBlock int, fn func(rec Record, line []byte) error) error {
	_, err := scan(r, name, maxBlock, nil, fn)
	return err
}

// scan is Scan; it also returns where the last record that read whole
// ends. An error reading the file is wrapped with errCut.
//
// Recover passes check, which checks in the file itself where a record
// that gowarc read whole ends: given gowarc's end (-1 when gowarc lost it,
// panicking on the record after; see Next), it returns the record's end,
// or an error if the record is not whole after all (an uncompressed
// record cut in its end-of-record marker, which gowarc lets pass).
func scan(r io.Reader, name string, maxBlock int, check func(rec *Record, end int64) (int64, error), fn func(rec Record, line []byte) error) (int64, error) {
	maxBlock = max(maxBlock, minHeadBlock)
	br := bufio.NewReader(r)
	plain := !gzipMagic(br)
	rd, err := gowarc.NewWarcFileReaderFromStream(br, 0, readerOptions(check != nil)...)
	if err != nil {
		return 0, fmt.Errorf("archive: read %s: %w", name, err)
	}
	defer rd.Close()
	var (
		good int64
		prev *Record
		line *cdxLine
	)
	// settle hands the previous record to fn once its end is known (-1:
	// for check to find).
	settle := func(end int64) error {
		if prev != nil && check != nil {
			var err error
			if end, err = check(prev, end); err != nil {
				return fmt.Errorf("%w: %s at %d: %w", errCut, name, prev.Offset, err)
			}
		}
		good = end
		if prev == nil {
			return nil
		}
		var b []byte
		if line != nil {
			line.Length = end - line.Offset
			b = line.appendTo(nil)
		}
		rec := *prev
		prev, line = nil, nil
		return fn(rec, b)
	}
	for {
		wr, off, _, err := Next(rd, good)
		if errors.Is(err, io.EOF) {
			err := settle(off)
			return good, err
		}
		if err != nil {
			// The record before this one was closed whole (below), so it
			// is whole whatever this one is: a crash that cut the file in
			// this record's first bytes must not take the one before with
			// it, whose URL may be done. Its end is off, unless gowarc
			// panicked and lost it.
			at := off
			if prev != nil && (off > prev.Offset || check != nil) {
				end := off
				if off <= prev.Offset {
					end = -1
				}
				if err := settle(end); err != nil {
					return good, err
				}
				at = good // where the record cut short starts
			}
			if prev == nil && at == 0 {
				// Not one record read: most likely no WARC file at all
				// (a README trial read "record cut short ... at 0").
				return good, fmt.Errorf("%w: %s at %d: it does not start with a WARC record, so it is no WARC file or is damaged at its start: %w", errCut, name, at, err)
			}
			return good, fmt.Errorf("%w: %s at %d: %w", errCut, name, at, err)
		}
		if err := settle(off); err != nil {
			return good, err
		}
		rec, err := recordOf(wr, off, maxBlock, plain)
		if err == nil {
			// Closing reads the end-of-record marker and, in a gzip
			// member, the checksum: a record is whole only after both.
			err = wr.Close()
		}
		if err != nil {
			return good, fmt.Errorf("%w: %s at %d: %w", errCut, name, off, err)
		}
		prev = &rec
		// A response that is not an HTTP message (a dns: record of another
		// crawler) has no status: pywb's indexer leaves it out too.
		http := strings.HasPrefix(strings.ToLower(rec.Header(gowarc.ContentType)), "application/http")
		if (rec.Type == "response" && http) || rec.Type == "revisit" {
			date, _ := time.Parse(time.RFC3339, rec.Header(gowarc.WarcDate))
			line = &cdxLine{URL: rec.TargetURI, Date: date, Digest: rec.Header(gowarc.WarcPayloadDigest),
				Offset: off, Filename: name}
			line.fromHTTP(rec.Block)
			if rec.Type == "revisit" {
				line.Mime = "warc/revisit"
			}
		}
	}
}

// IndexFiles writes the CDXJ index of the WARC files at paths to w: one
// line for each response and revisit record, as the Writer writes them,
// naming each file by its base name, sorted in byte order with repeated
// lines dropped. It reads each file once, in bounded memory: lines past
// DefaultSortMemory are spilled to sorted runs in tmpDir ("" means
// os.TempDir()). done, if not nil, is called with each file's path once it
// is read, for a progress line; an error from it (an interrupt) stops
// IndexFiles, which returns it.
func IndexFiles(w io.Writer, tmpDir string, done func(path string) error, paths ...string) error {
	s := NewSorter(tmpDir, 0)
	defer s.Close()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return fmt.Errorf("archive: index %s: %w", p, err)
		}
		err = Scan(f, filepath.Base(p), 0, func(_ Record, line []byte) error {
			if line == nil {
				return nil
			}
			return s.Add(line)
		})
		f.Close()
		if err != nil {
			return fmt.Errorf("archive: index %s: %w", p, err)
		}
		if done != nil {
			if err := done(p); err != nil {
				return err
			}
		}
	}
	if _, err := s.WriteTo(w); err != nil {
		return fmt.Errorf("archive: index: %w", err)
	}
	return nil
}
