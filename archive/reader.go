package archive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nlnwa/gowarc"
)

// Record is a WARC record as ReadAll returns it.
type Record struct {
	Type         string // WARC-Type
	TargetURI    string // WARC-Target-URI
	ID           string // WARC-Record-ID, with its angle brackets
	ConcurrentTo string // first WARC-Concurrent-To
	RefersTo     string // WARC-Refers-To
	WarcinfoID   string // WARC-Warcinfo-ID
	// Headers holds every WARC header field in file order.
	Headers []Field
	// Block is the record's content block.
	Block []byte
	// Offset is where the record starts in the file (its gzip member when
	// compressed).
	Offset int64
}

// Header returns the first value of the named WARC header field, matched
// without regard to case, or "".
func (r *Record) Header(name string) string {
	for _, f := range r.Headers {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// ReadAll reads every record of a WARC file, compressed or not, with
// gowarc's reader. It checks each record's WARC-Block-Digest and, for HTTP
// requests and responses, its WARC-Payload-Digest; a payload digest is
// accepted if it matches any convention in the package documentation
// (chunked transfer-coding removed, as declared by the headers or as hinted
// by Exchange.Chunked; or the body as stored). It returns ErrDigest,
// wrapped with the file, offset and record id, on the first mismatch, and
// any syntax or spec violation gowarc reports.
func ReadAll(path string) ([]Record, error) {
	rd, err := NewReader(path, true)
	if err != nil {
		return nil, fmt.Errorf("archive: read %s: %w", path, err)
	}
	defer rd.Close()
	plain := !gzipFile(path)
	var out []Record
	var last int64
	for {
		wr, off, val, err := Next(rd, last)
		last = off
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("archive: read %s at %d: %w", path, off, err)
		}
		rec, err := toRecord(wr, off, plain)
		if err == nil && val != nil && !val.Valid() {
			err = val
		}
		if err == nil {
			err = checkDigests(&rec)
		}
		if err != nil {
			return out, fmt.Errorf("archive: read %s at %d (%s): %w", path, off, rec.ID, err)
		}
		out = append(out, rec)
	}
}

// Next is rd.Next, except that a panic inside gowarc becomes an error.
// gowarc v1.6.0 panics on some records cut short (its warc-fields parser
// reads the first byte of an empty peek when a gzip member ends early), as
// a crash or a full disk leaves the tail of a WARC file (TestEveryCut).
// after is the offset of the last record the caller read (0 for none); the
// error gives it, since gowarc's own offset is lost with the panic.
func Next(rd *gowarc.WarcFileReader, after int64) (wr gowarc.WarcRecord, off int64, val *gowarc.Validation, err error) {
	defer func() {
		if r := recover(); r != nil {
			wr, off, val = nil, after, nil
			err = fmt.Errorf("a record cut short after the one at offset %d (gowarc: %v)", after, r)
		}
	}()
	return rd.Next()
}

// NewReader opens a WARC file, compressed or not, for reading its records
// as they are stored: gowarc fixes nothing, adds nothing, and does not parse
// blocks. A syntax error ends the reading (under ErrWarn, gowarc v1.6.0
// loops forever on a record cut short: its warc-fields parser retries at
// EOF). With spec, violations of the WARC specification are reported in
// each record's validation; without it they are ignored. The caller closes
// the reader.
func NewReader(path string, spec bool) (*gowarc.WarcFileReader, error) {
	return gowarc.NewWarcFileReader(path, 0, readerOptions(spec)...)
}

// readerOptions are NewReader's gowarc settings.
func readerOptions(spec bool) []gowarc.WarcRecordOption {
	policy := gowarc.ErrIgnore
	if spec {
		policy = gowarc.ErrWarn
	}
	return []gowarc.WarcRecordOption{
		gowarc.WithSkipParseBlock(),
		gowarc.WithSpecViolationPolicy(policy),
		gowarc.WithSyntaxErrorPolicy(gowarc.ErrFail),
		gowarc.WithUnknownRecordTypePolicy(policy),
		gowarc.WithFixDigest(false),
		gowarc.WithFixContentLength(false),
		gowarc.WithFixSyntaxErrors(false),
		gowarc.WithAddMissingDigest(false),
		gowarc.WithAddMissingContentLength(false),
		gowarc.WithAddMissingRecordId(false),
	}
}

func toRecord(wr gowarc.WarcRecord, off int64, plain bool) (Record, error) {
	h := wr.WarcHeader()
	rec := Record{
		Type:         wr.Type().String(),
		TargetURI:    h.Get(gowarc.WarcTargetURI),
		ID:           h.Get(gowarc.WarcRecordID),
		ConcurrentTo: h.Get(gowarc.WarcConcurrentTo),
		RefersTo:     h.Get(gowarc.WarcRefersTo),
		WarcinfoID:   h.Get(gowarc.WarcWarcinfoID),
		Offset:       off,
	}
	for _, nv := range *h {
		rec.Headers = append(rec.Headers, Field{Name: nv.Name, Value: nv.Value})
	}
	r, err := wr.Block().RawBytes()
	if err != nil {
		return rec, err
	}
	if rec.Block, err = io.ReadAll(r); err != nil {
		return rec, err
	}
	return rec, wholeBlock(h, int64(len(rec.Block)), plain)
}

func checkDigests(r *Record) error {
	if want := r.Header(gowarc.WarcBlockDigest); want != "" {
		if got := BlockDigest(r.Block); !strings.EqualFold(got, want) {
			return fmt.Errorf("%w: block: header %s, computed %s", ErrDigest, want, got)
		}
	}
	want := r.Header(gowarc.WarcPayloadDigest)
	if want == "" || (r.Type != "response" && r.Type != "request") ||
		!strings.HasPrefix(strings.ToLower(r.Header(gowarc.ContentType)), "application/http") {
		return nil
	}
	spec := PayloadDigest(r.Block, 0, false, false)
	raw := PayloadDigest(r.Block, 0, false, true)
	hinted := PayloadDigest(r.Block, 0, true, false) // Exchange.Chunked without the header
	if !strings.EqualFold(want, spec) && !strings.EqualFold(want, raw) && !strings.EqualFold(want, hinted) {
		return fmt.Errorf("%w: payload: header %s, computed %s", ErrDigest, want, spec)
	}
	return nil
}

// Each calls fn with every record of the WARC file at path, in order, one
// at a time, each Block cut to its first maxBlock bytes, so that memory
// stays bounded on files of any size. It checks no digests (the blocks are
// cut), and stops at the first error, from the file or from fn.
func Each(path string, maxBlock int, fn func(Record) error) error {
	rd, err := NewReader(path, false)
	if err != nil {
		return fmt.Errorf("archive: read %s: %w", path, err)
	}
	defer rd.Close()
	plain := !gzipFile(path)
	var last int64
	for {
		wr, off, _, err := Next(rd, last)
		last = off
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("archive: read %s: %w", path, err)
		}
		rec, err := recordOf(wr, off, maxBlock, plain)
		if cerr := wr.Close(); err == nil {
			// A gzip member cut after the record's block fails here, when
			// its checksum is read; gowarc does not report it twice.
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("archive: read %s at %d: %w", path, off, err)
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// recordOf copies a gowarc record's header fields and the first maxBlock
// bytes of its block into a Record found at off. It reads the rest of the
// block too (gowarc would skip it anyway) and, in an uncompressed (plain)
// file, returns ErrShortBlock if the block holds fewer bytes than the
// record's Content-Length: the file was cut inside it, by a crash or a
// full disk. gowarc v1.6.0 does not see this itself (TestEveryCut); in a
// compressed file the gzip member's checksum does.
func recordOf(wr gowarc.WarcRecord, off int64, maxBlock int, plain bool) (Record, error) {
	h := wr.WarcHeader()
	rec := Record{Type: wr.Type().String(), TargetURI: h.Get(gowarc.WarcTargetURI), ID: h.Get(gowarc.WarcRecordID),
		ConcurrentTo: h.Get(gowarc.WarcConcurrentTo), RefersTo: h.Get(gowarc.WarcRefersTo),
		WarcinfoID: h.Get(gowarc.WarcWarcinfoID), Offset: off}
	for _, nv := range *h {
		rec.Headers = append(rec.Headers, Field{Name: nv.Name, Value: nv.Value})
	}
	r, err := wr.Block().RawBytes()
	if err != nil {
		return rec, err
	}
	if rec.Block, err = io.ReadAll(io.LimitReader(r, int64(maxBlock))); err != nil {
		return rec, err
	}
	rest, err := io.Copy(io.Discard, r)
	if err != nil {
		return rec, err
	}
	return rec, wholeBlock(h, int64(len(rec.Block))+rest, plain)
}

// ErrShortBlock is the error of a record of an uncompressed WARC file whose
// block is shorter than its Content-Length, or that has none: the file was
// cut inside the record.
var ErrShortBlock = errors.New("archive: record block shorter than its Content-Length")

// wholeBlock checks that a block of n bytes is as long as the header says,
// in an uncompressed (plain) file. There, a record without Content-Length
// is cut too (its header was cut at the end of a line): nothing else tells
// where its block ends. In a gzip file the member's checksum shows a cut,
// and a member that reads whole is taken as it is, as before: a short
// block or a missing Content-Length there is another tool's slip, not a
// crash's, and gowarc reads it with the block it has.
func wholeBlock(h *gowarc.WarcFields, n int64, plain bool) error {
	if !plain {
		return nil
	}
	want, err := h.GetInt64(gowarc.ContentLength)
	if err != nil || !h.Has(gowarc.ContentLength) {
		return fmt.Errorf("%w: no Content-Length", ErrShortBlock)
	}
	if n < want {
		return fmt.Errorf("%w: %d of %d bytes", ErrShortBlock, n, want)
	}
	return nil
}

// gzipMagic reports whether br starts with the gzip magic number.
func gzipMagic(br *bufio.Reader) bool {
	magic, err := br.Peek(2)
	return err == nil && magic[0] == 0x1f && magic[1] == 0x8b
}

// gzipFile reports whether the file at path starts with the gzip magic
// number (a file that cannot be read counts as plain: its reader will
// name the error).
func gzipFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return gzipMagic(bufio.NewReaderSize(f, 16))
}
