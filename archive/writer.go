package archive

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc"

	"github.com/langcrawl/langcrawl/internal/atomicfile"
)

// Defaults for Config fields left at their zero value.
const (
	DefaultPrefix        = "langcrawl"
	DefaultMaxSize int64 = 1_000_000_000 // 1 GB

	// IndexName is the name of the CDXJ index the Writer keeps in Config.Dir.
	IndexName = "index.cdxj"

	openSuffix = ".open"
)

// Revisit profiles (WARC 1.1 sections 6.7.2 and 6.7.3).
const (
	ProfileIdenticalPayloadDigest = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
	ProfileServerNotModified      = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
)

// Values of Exchange.Truncated (the WARC 1.1 WARC-Truncated field).
const (
	TruncatedLength      = "length"
	TruncatedTime        = "time"
	TruncatedDisconnect  = "disconnect"
	TruncatedUnspecified = "unspecified"
)

// Sentinel errors.
var (
	ErrClosed    = errors.New("archive: writer closed")
	ErrTruncated = errors.New("archive: invalid WARC-Truncated reason")
	ErrField     = errors.New("archive: invalid warc-fields field")
	ErrDigest    = errors.New("archive: digest mismatch")
	ErrConfig    = errors.New("archive: invalid config")
)

const conformsTo = "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"

// Config configures a Writer. NewWriter copies it and fills in defaults.
type Config struct {
	// Dir is where the WARC files and the index go. Required; created if
	// missing.
	Dir string
	// Prefix starts every file name. Default DefaultPrefix ("langcrawl").
	Prefix string
	// MaxSize is the size in bytes at which a file is rotated, checked
	// before each exchange. Default DefaultMaxSize (1 GB).
	MaxSize int64
	// Compress writes each record as its own gzip member into .warc.gz
	// files. The zero value writes uncompressed .warc files: callers that
	// want the usual .warc.gz must set it to true.
	Compress bool
	// Hostname is the crawling machine, for file names and warcinfo.
	// Default os.Hostname().
	Hostname string
	// Software, IsPartOf, Operator, UserAgent and Robots ("obey" or
	// "ignore") go into the warcinfo record as given; empty ones are left
	// out. IsPartOf names the collection or job the files belong to (the
	// warcinfo field isPartOf of WARC 1.1 annex B).
	Software  string
	IsPartOf  string
	Operator  string
	UserAgent string
	Robots    string
	// Profile is the resolved crawl profile (YAML). The warcinfo record
	// holds it in its "profile" field as one JSON string (RFC 8259), so
	// that its line breaks and indentation survive warc-fields parsing.
	Profile string
	// Now gives the time for file names and warcinfo dates, and for records
	// whose date is zero. Default time.Now.
	Now func() time.Time
	// RawPayloadDigest digests response and request bodies as stored, chunk
	// framing included, as `warcio check` expects, instead of with the
	// chunked transfer-coding removed as WARC 1.1 section 6.3.2 says. See
	// the package documentation. Default false.
	RawPayloadDigest bool
	// TempDir holds the temporary files of records too large to build in
	// memory (an Exchange with a Tail); "" means os.TempDir().
	TempDir string
}

// Exchange is one HTTP request and its response, as bytes on the wire.
type Exchange struct {
	URL  string
	IP   string    // remote IP address; WARC-IP-Address is left out if empty
	Date time.Time // when the request started; Config.Now() if zero
	// RawRequest is the request as sent. If nil no request record is
	// written.
	RawRequest []byte
	// RawResponse is the response as received: status line, headers and
	// body with transfer and content codings untouched. It is stored
	// verbatim.
	RawResponse []byte
	// Tail, when not nil, holds TailSize more bytes of the response after
	// RawResponse: a response too large to keep in memory. The record is
	// then built and compressed through temporary files, so memory does
	// not grow with the response. RawResponse must hold the whole header.
	Tail     io.ReaderAt
	TailSize int64
	// BodyOffset is where the body starts in RawResponse. If 0 the Writer
	// finds the end of the header section itself.
	BodyOffset int
	// Chunked says the body has Transfer-Encoding: chunked. The Writer also
	// detects it from the headers; either one is enough.
	Chunked bool
	// Truncated is "", or a WARC-Truncated reason: "length", "time",
	// "disconnect" or "unspecified".
	Truncated string
	// Metadata, when not nil, is written as a metadata record about the
	// response (as by WriteMetadata, referring to it) right after it, in
	// the same append: a page's records are never split across files, and
	// the page costs one append instead of two.
	Metadata []Field
}

// Ref tells where a response or revisit record went.
type Ref struct {
	RequestID  string // WARC-Record-ID of the request record, "" if none
	ResponseID string // WARC-Record-ID of the response or revisit record
	// File is the path the WARC file will have once closed (without
	// ".open"); the record is in it at Offset, taking Length bytes (the
	// gzip member when compressed).
	File          string
	Offset        int64
	Length        int64
	PayloadDigest string // WARC-Payload-Digest of the response
}

// Field is a named field of a warc-fields block.
type Field struct{ Name, Value string }

// Revisit describes a page fetched again and found unchanged (WARC 1.1
// section 6.7).
type Revisit struct {
	URL  string
	IP   string
	Date time.Time // Config.Now() if zero
	// RawRequest, if not nil, is written as a request record before the
	// revisit record.
	RawRequest []byte
	// RawResponse holds the status line and headers of the new response;
	// any body after the header section is left out, and the record then
	// says WARC-Truncated: length (WARC 1.1 section 6.7.2).
	RawResponse []byte
	// Profile is ProfileIdenticalPayloadDigest (the default) or
	// ProfileServerNotModified.
	Profile string
	// RefersTo, RefersToTargetURI and RefersToDate name the earlier
	// response; each is left out if empty.
	RefersTo          string
	RefersToTargetURI string
	RefersToDate      time.Time
	// PayloadDigest is the WARC-Payload-Digest of the earlier response;
	// required for ProfileIdenticalPayloadDigest.
	PayloadDigest string
	// Metadata, when not nil, is written as a metadata record about the
	// revisit right after it, in the same append, as for an Exchange.
	Metadata []Field
}

// Stats counts what a Writer has done.
type Stats struct {
	Records     int64 // records written, warcinfo included
	Exchanges   int64 // calls to WriteExchange and WriteRevisit that succeeded
	Bytes       int64 // bytes written to WARC files (compressed size)
	Files       int64 // files opened
	WriteErrors int64 // writes that failed
	Syncs       int64 // calls to Sync that succeeded
}

// file is what the Writer needs of an open WARC file; tests substitute one
// that fails.
type file interface {
	io.Writer
	io.Closer
	Truncate(size int64) error
	Sync() error
}

type warcFile struct {
	f          file
	bw         *bufio.Writer
	open       string // path with the .open suffix
	final      string // path once closed
	size       int64
	warcinfoID string
	index      []byte // CDXJ lines of this file, written as its run when it is closed
}

// Writer writes WARC records into rotating files in one directory. It is
// safe for concurrent use. Call Close when done; a Writer that is not closed
// leaves its current file with the ".open" suffix.
type Writer struct {
	mu    sync.Mutex
	cfg   Config
	opts  []gowarc.WarcRecordOption
	marsh gowarc.Marshaler // stateless, shared by all coders
	// coders is a stack of idle encoders: records are encoded outside mu.
	// Not a sync.Pool, which every GC empties (a gzip encoder is some
	// hundreds of KB to allocate and clear); a stack, so that the few
	// encoders in use at a time stay warm in the CPU caches.
	codersMu sync.Mutex
	coders   []*coder
	cur      *warcFile
	serial   int
	// unfinished holds files whose index run could not be written (a full
	// disk): they stay ".open", and Close tries again.
	unfinished []*warcFile
	files      []string
	stats      Stats
	closed     bool
	generation int64 // SetGeneration; 0: not said
	dirDirty   bool  // a file was created since the directory was last fsynced
	create     func(path string) (file, error)
	writeRun   func(dir, name string, lines []byte) error
	newUUID    func() string
}

// NewWriter checks cfg, fills in its defaults and creates cfg.Dir. It opens
// no file until the first write and starts no goroutines.
func NewWriter(cfg Config) (*Writer, error) {
	var errs []error
	if cfg.Dir == "" {
		errs = append(errs, fmt.Errorf("%w: Dir is empty", ErrConfig))
	}
	if cfg.MaxSize < 0 {
		errs = append(errs, fmt.Errorf("%w: MaxSize %d is negative", ErrConfig, cfg.MaxSize))
	}
	if strings.ContainsAny(cfg.Prefix, `/\`) {
		errs = append(errs, fmt.Errorf("%w: Prefix %q holds a path separator", ErrConfig, cfg.Prefix))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.MaxSize == 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	if cfg.Hostname == "" {
		h, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("archive: hostname: %w", err)
		}
		cfg.Hostname = h
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("archive: create dir %s: %w", cfg.Dir, err)
	}
	w := &Writer{
		cfg: cfg,
		opts: []gowarc.WarcRecordOption{
			gowarc.WithVersion(gowarc.V1_1),
			// The block is stored exactly as given: gowarc must not parse
			// (and "fix") HTTP messages.
			gowarc.WithSkipParseBlock(),
			// build sets Content-Length and both digests itself and
			// checks every field it writes (checkField, canonical
			// target URIs), so gowarc's per-record header validation is
			// off: it parsed every WARC-Record-ID, WARC-Concurrent-To
			// and WARC-Target-URI with the WHATWG URL parser, half of
			// the crawl's allocations and a tenth of its CPU
			// (BENCHMARKS.md). Under ErrIgnore gowarc neither computes
			// nor checks the block digest, hence ours in build. Every
			// test reads the records back with gowarc's validation on.
			gowarc.WithSpecViolationPolicy(gowarc.ErrIgnore),
			gowarc.WithAddMissingDigest(false),
			gowarc.WithAddMissingContentLength(false),
			gowarc.WithSyntaxErrorPolicy(gowarc.ErrFail),
			gowarc.WithUnknownRecordTypePolicy(gowarc.ErrFail),
		},
		marsh:    gowarc.NewMarshaler(),
		create:   createFile,
		writeRun: writeRun,
		newUUID: func() string {
			uuidMu.Lock()
			defer uuidMu.Unlock()
			return "<urn:uuid:" + uuid.NewString() + ">"
		},
	}
	serial, err := nextSerial(cfg.Dir, cfg.Prefix)
	if err != nil {
		return nil, err
	}
	w.serial = serial
	return w, nil
}

// nextSerial returns the serial number after the highest one of the WARC
// files named <prefix>-<timestamp>-<serial>-... in dir (".open" ones too),
// or 0 if there is none: serial numbers continue across runs.
func nextSerial(dir, prefix string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("archive: read dir %s: %w", dir, err)
	}
	next := 0
	for _, e := range entries {
		if n, ok := serialOf(e.Name(), prefix); ok && n >= next {
			next = n + 1
		}
	}
	return next, nil
}

// serialOf parses the serial number out of a file name the Writer made.
func serialOf(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix+"-")
	if !ok || !strings.Contains(name, ".warc") {
		return 0, false
	}
	ts, rest, ok := strings.Cut(rest, "-")
	if !ok || len(ts) != 17 || !allDigits(ts) {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, "-")
	if !ok || len(num) < 5 || !allDigits(num) {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil
}

// uuidMu serialises gowarc's record builder set-up with UUID generation;
// see Writer.build.
var uuidMu sync.Mutex

func createFile(path string) (file, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

// header is an ordered list of WARC header fields.
type header [][2]string

func (h *header) add(name, value string) {
	if value != "" {
		*h = append(*h, [2]string{name, value})
	}
}

func warcDate(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// WriteExchange writes a request record (if ex.RawRequest is not nil) and a
// response record into the current file, rotating first if the file has
// reached MaxSize. It returns where the response went.
func (w *Writer) WriteExchange(ex *Exchange) (Ref, error) {
	if ex.URL == "" {
		return Ref{}, fmt.Errorf("archive: exchange without URL")
	}
	if err := checkTruncated(ex.Truncated); err != nil {
		return Ref{}, fmt.Errorf("archive: write %s: %w", ex.URL, err)
	}
	date := ex.Date
	if date.IsZero() {
		date = w.cfg.Now()
	}
	ref := Ref{ResponseID: w.newUUID()}
	if ex.Tail != nil && ex.TailSize > 0 {
		d, err := payloadDigestTail(ex.RawResponse, ex.BodyOffset, ex.Chunked, w.cfg.RawPayloadDigest, ex.Tail, ex.TailSize)
		if err != nil {
			return Ref{}, fmt.Errorf("archive: write %s: %w", ex.URL, err)
		}
		ref.PayloadDigest = d
	} else {
		ex.Tail, ex.TailSize = nil, 0
		ref.PayloadDigest = PayloadDigest(ex.RawResponse, ex.BodyOffset, ex.Chunked, w.cfg.RawPayloadDigest)
	}
	if ex.RawRequest != nil {
		ref.RequestID = w.newUUID()
	}
	resp := header{}
	resp.add(gowarc.WarcRecordID, ref.ResponseID)
	resp.add(gowarc.WarcDate, warcDate(date))
	resp.add(gowarc.WarcTargetURI, ex.URL)
	resp.add(gowarc.WarcIPAddress, ex.IP)
	resp.add(gowarc.WarcConcurrentTo, ref.RequestID)
	resp.add(gowarc.ContentType, "application/http;msgtype=response")
	resp.add(gowarc.WarcPayloadDigest, ref.PayloadDigest)
	resp.add(gowarc.WarcTruncated, ex.Truncated)
	line := cdxLine{URL: ex.URL, Date: date, Digest: ref.PayloadDigest}
	line.fromHTTP(ex.RawResponse)
	var extra []part
	if ex.Metadata != nil {
		mp, err := w.metadataPart(ex.URL, ref.ResponseID, date, ex.Metadata)
		if err != nil {
			return Ref{}, err
		}
		extra = append(extra, mp)
	}
	main := part{typ: gowarc.Response, h: resp, block: ex.RawResponse, tail: ex.Tail, tailN: ex.TailSize}
	err := w.writeExchange(ex.URL, ex.RawRequest, ex.IP, date, ref.RequestID, ref.ResponseID,
		main, &line, &ref, extra...)
	return ref, err
}

// WriteRevisit writes a revisit record, after a request record if
// rv.RawRequest is not nil, and indexes it. It returns where the revisit
// record went.
func (w *Writer) WriteRevisit(rv *Revisit) (Ref, error) {
	profile := rv.Profile
	if profile == "" {
		profile = ProfileIdenticalPayloadDigest
	}
	switch {
	case profile != ProfileIdenticalPayloadDigest && profile != ProfileServerNotModified:
		return Ref{}, fmt.Errorf("archive: revisit %s: unknown profile %q", rv.URL, profile)
	case profile == ProfileIdenticalPayloadDigest && rv.PayloadDigest == "":
		return Ref{}, fmt.Errorf("archive: revisit %s: identical-payload-digest needs PayloadDigest", rv.URL)
	}
	date := rv.Date
	if date.IsZero() {
		date = w.cfg.Now()
	}
	ref := Ref{ResponseID: w.newUUID(), PayloadDigest: rv.PayloadDigest}
	if rv.RawRequest != nil {
		ref.RequestID = w.newUUID()
	}
	block := rv.RawResponse[:headerEnd(rv.RawResponse)]
	h := header{}
	h.add(gowarc.WarcRecordID, ref.ResponseID)
	h.add(gowarc.WarcDate, warcDate(date))
	h.add(gowarc.WarcTargetURI, rv.URL)
	h.add(gowarc.WarcIPAddress, rv.IP)
	h.add(gowarc.WarcConcurrentTo, ref.RequestID)
	h.add(gowarc.WarcProfile, profile)
	h.add(gowarc.WarcRefersTo, rv.RefersTo)
	h.add(gowarc.WarcRefersToTargetURI, rv.RefersToTargetURI)
	if !rv.RefersToDate.IsZero() {
		h.add(gowarc.WarcRefersToDate, warcDate(rv.RefersToDate))
	}
	if len(block) > 0 {
		h.add(gowarc.ContentType, "application/http;msgtype=response")
	}
	h.add(gowarc.WarcPayloadDigest, rv.PayloadDigest)
	if len(block) > 0 && len(block) < len(rv.RawResponse) {
		// The block is the response cut before its body, which the
		// record referred to holds: WARC 1.1 section 6.7.2 says "A
		// WARC-Truncated header with reason 'length' shall be used for
		// any identical-digest truncation" (Heritrix writes it so).
		h.add(gowarc.WarcTruncated, TruncatedLength)
	}
	line := cdxLine{URL: rv.URL, Date: date, Digest: rv.PayloadDigest}
	line.fromHTTP(block)
	line.Mime = "warc/revisit"
	var extra []part
	if rv.Metadata != nil {
		mp, err := w.metadataPart(rv.URL, ref.ResponseID, date, rv.Metadata)
		if err != nil {
			return Ref{}, err
		}
		extra = append(extra, mp)
	}
	err := w.writeExchange(rv.URL, rv.RawRequest, rv.IP, date, ref.RequestID, ref.ResponseID,
		part{typ: gowarc.Revisit, h: h, block: block}, &line, &ref, extra...)
	return ref, err
}

// writeExchange writes an optional request record and then the main record
// as one unit: both land in the same file, or neither does. The records are
// built, digested and compressed outside w.mu, so that several workers
// encode at once; only the append to the file is serialised. If the file
// was rotated meanwhile, the records are encoded again for the new file's
// warcinfo record.
func (w *Writer) writeExchange(url string, rawReq []byte, ip string, date time.Time, reqID, mainID string,
	main part, line *cdxLine, ref *Ref, extra ...part) error {
	typ := main.typ
	var rh header
	if rawReq != nil {
		rh.add(gowarc.WarcRecordID, reqID)
		rh.add(gowarc.WarcDate, warcDate(date))
		rh.add(gowarc.WarcTargetURI, url)
		rh.add(gowarc.WarcIPAddress, ip)
		rh.add(gowarc.WarcConcurrentTo, mainID)
		rh.add(gowarc.ContentType, "application/http;msgtype=request")
		rh.add(gowarc.WarcPayloadDigest, PayloadDigest(rawReq, 0, false, w.cfg.RawPayloadDigest))
	}
	for {
		cur, err := w.current(true)
		if err != nil {
			return fmt.Errorf("archive: write %s: %w", url, err)
		}
		var parts []part
		if rawReq != nil {
			parts = append(parts, part{typ: gowarc.Request, h: rh, block: rawReq})
		}
		mi := len(parts)
		parts = append(parts, main)
		parts = append(parts, extra...)
		enc, err := w.encode(cur.warcinfoID, parts...)
		if err != nil {
			return fmt.Errorf("archive: %s record for %s: %w", typ, url, err)
		}
		w.mu.Lock()
		if w.cur != cur && !w.closed {
			w.mu.Unlock()
			enc.release()
			continue // rotated while we encoded
		}
		if w.closed {
			w.mu.Unlock()
			enc.release()
			return fmt.Errorf("archive: write %s: %w", url, ErrClosed)
		}
		offs, err := w.emit(enc)
		enc.release()
		if err != nil {
			w.mu.Unlock()
			return err
		}
		ref.File = w.cur.final
		ref.Offset = offs[mi]
		ref.Length = enc.sizes[mi]
		line.Offset, line.Length, line.Filename = ref.Offset, ref.Length, filepath.Base(ref.File)
		w.cur.index = line.appendTo(w.cur.index)
		w.stats.Exchanges++
		w.mu.Unlock()
		return nil
	}
}

// current returns the open file, opening one (and, with rotate, rotating a
// full one) first.
func (w *Writer) current(rotate bool) (*warcFile, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var err error
	if rotate {
		err = w.ready()
	} else {
		err = w.ensureFile()
	}
	return w.cur, err
}

// WriteMetadata writes a metadata record (application/warc-fields) about
// targetURI that refers to the record refersTo (usually Ref.ResponseID),
// holding fields in order. Field names may repeat (outlink, ...). A zero
// date means Config.Now(). The record goes into the current file, without
// rotating, so it normally sits beside the exchange it describes.
func (w *Writer) WriteMetadata(targetURI, refersTo string, date time.Time, fields []Field) error {
	mp, err := w.metadataPart(targetURI, refersTo, date, fields)
	if err != nil {
		return err
	}
	for {
		cur, err := w.current(false)
		if err != nil {
			return fmt.Errorf("archive: metadata for %s: %w", targetURI, err)
		}
		enc, err := w.encode(cur.warcinfoID, mp)
		if err != nil {
			return fmt.Errorf("archive: metadata record for %s: %w", targetURI, err)
		}
		w.mu.Lock()
		if w.cur != cur && !w.closed {
			w.mu.Unlock()
			continue
		}
		if w.closed {
			w.mu.Unlock()
			return fmt.Errorf("archive: metadata for %s: %w", targetURI, ErrClosed)
		}
		_, err = w.emit(enc)
		w.mu.Unlock()
		return err
	}
}

// metadataPart builds a metadata record (application/warc-fields) about
// targetURI referring to the record refersTo, holding fields in order.
func (w *Writer) metadataPart(targetURI, refersTo string, date time.Time, fields []Field) (part, error) {
	var b strings.Builder
	for _, f := range fields {
		if err := checkField(f); err != nil {
			return part{}, fmt.Errorf("archive: metadata for %s: %w", targetURI, err)
		}
		b.WriteString(f.Name)
		b.WriteString(": ")
		b.WriteString(f.Value)
		b.WriteString("\r\n")
	}
	if date.IsZero() {
		date = w.cfg.Now()
	}
	if refersTo != "" && !strings.HasPrefix(refersTo, "<") {
		refersTo = "<" + refersTo + ">"
	}
	h := header{}
	h.add(gowarc.WarcRecordID, w.newUUID())
	h.add(gowarc.WarcDate, warcDate(date))
	h.add(gowarc.WarcTargetURI, targetURI)
	h.add(gowarc.WarcRefersTo, refersTo)
	h.add(gowarc.ContentType, gowarc.ApplicationWarcFields)
	return part{typ: gowarc.Metadata, h: h, block: []byte(b.String())}, nil
}

func checkTruncated(reason string) error {
	switch reason {
	case "", TruncatedLength, TruncatedTime, TruncatedDisconnect, TruncatedUnspecified:
		return nil
	}
	return fmt.Errorf("%w: %q", ErrTruncated, reason)
}

// checkField rejects fields that would break the warc-fields syntax
// (WARC 1.1 named fields: a field-name is an HTTP token; values hold no line breaks here).
func checkField(f Field) error {
	if f.Name == "" {
		return fmt.Errorf("%w: empty name", ErrField)
	}
	for i := 0; i < len(f.Name); i++ {
		c := f.Name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return fmt.Errorf("%w: name %q", ErrField, f.Name)
		}
	}
	if strings.ContainsAny(f.Value, "\r\n") {
		return fmt.Errorf("%w: value of %s holds a line break", ErrField, f.Name)
	}
	return nil
}

// build makes a gowarc record with the given header fields and block, and
// WARC-Warcinfo-ID warcinfoID (not on the warcinfo record itself).
func (w *Writer) build(p part, warcinfoID string) (gowarc.WarcRecord, error) {
	typ, h, block := p.typ, p.h, p.block
	// gowarc v1.6.0 writes a global of package uuid (EnableRandPool) in
	// every NewRecordBuilder; uuidMu keeps that write apart from the reads
	// of concurrent builders and ID generators.
	//
	// The builder copies the block into a buffer of gowarc's that starts
	// at 16 KiB and spills to a temporary file past 1 MiB. Capping its
	// memory at the block's size (plus the one byte the buffer keeps
	// free) makes it allocate just that and never touch the disk: the
	// block is in memory already.
	//
	// A part with a tail is too large for memory: gowarc's buffer then
	// keeps largeMem bytes in memory and the rest in a file of its own.
	mem := int64(len(block)) + 1
	if p.tail != nil {
		mem = largeMem
	}
	opts := append(w.opts[:len(w.opts):len(w.opts)], gowarc.WithBufferMaxMemBytes(mem))
	if p.tail != nil && w.cfg.TempDir != "" {
		opts = append(opts, gowarc.WithBufferTmpDir(w.cfg.TempDir))
	}
	uuidMu.Lock()
	rb := gowarc.NewRecordBuilder(typ, opts...)
	uuidMu.Unlock()
	for _, f := range h {
		if strings.ContainsAny(f[1], "\r\n") {
			// gowarc's validation is off (see NewWriter): a line break
			// would end the header early and corrupt the file.
			rb.Close()
			return nil, fmt.Errorf("%w: value of %s holds a line break", ErrField, f[0])
		}
		rb.AddWarcHeader(f[0], f[1])
	}
	if typ != gowarc.Warcinfo {
		rb.AddWarcHeader(gowarc.WarcWarcinfoID, warcinfoID)
	}
	rb.AddWarcHeader(gowarc.ContentLength, strconv.FormatInt(p.size(), 10))
	if p.tail == nil {
		rb.AddWarcHeader(gowarc.WarcBlockDigest, BlockDigest(block))
	} else {
		h := sha1.New()
		if _, err := io.Copy(h, p.reader()); err != nil {
			rb.Close()
			return nil, fmt.Errorf("read the block: %w", err)
		}
		rb.AddWarcHeader(gowarc.WarcBlockDigest, sha1Digest(h))
	}
	if _, err := io.Copy(rb, p.reader()); err != nil {
		rb.Close()
		return nil, err
	}
	r, _, err := rb.Build()
	if err != nil {
		if r != nil {
			r.Close()
		} else {
			rb.Close()
		}
		return nil, err
	}
	return r, nil
}

// largeMem is the memory gowarc's buffer may use for a block too large to
// hold (a part with a tail); the rest goes to its temporary file.
const largeMem = 1 << 20

// ready rotates if the current file is full and makes sure a file is open.
func (w *Writer) ready() error {
	if w.closed {
		return ErrClosed
	}
	if w.cur != nil && w.cur.size >= w.cfg.MaxSize {
		if err := w.finish(); err != nil {
			return err
		}
	}
	return w.ensureFile()
}

// ensureFile opens a new file, starting with its warcinfo record, unless
// one is open.
func (w *Writer) ensureFile() error {
	if w.closed {
		return ErrClosed
	}
	if w.cur != nil {
		return nil
	}
	now := w.cfg.Now().UTC()
	ext := ".warc"
	if w.cfg.Compress {
		ext = ".warc.gz"
	}
	name := fmt.Sprintf("%s-%s%03d-%05d-%s%s", w.cfg.Prefix, now.Format("20060102150405"),
		now.Nanosecond()/1e6, w.serial, fileSafe(w.cfg.Hostname), ext)
	final := filepath.Join(w.cfg.Dir, name)
	f, err := w.create(final + openSuffix)
	if err != nil {
		w.stats.WriteErrors++
		return fmt.Errorf("archive: create %s: %w", final+openSuffix, err)
	}
	w.serial++
	w.stats.Files++
	w.dirDirty = true
	w.cur = &warcFile{f: f, bw: bufio.NewWriterSize(f, 64<<10), open: final + openSuffix,
		final: final, warcinfoID: w.newUUID()}

	h := header{}
	h.add(gowarc.WarcRecordID, w.cur.warcinfoID)
	h.add(gowarc.WarcDate, warcDate(now))
	h.add(gowarc.WarcFilename, name)
	h.add(gowarc.ContentType, gowarc.ApplicationWarcFields)
	enc, err := w.encode("", part{typ: gowarc.Warcinfo, h: h, block: w.warcinfoBlock()})
	if err != nil {
		w.abandon()
		return fmt.Errorf("archive: warcinfo record for %s: %w", final, err)
	}
	_, err = w.emit(enc)
	return err
}

func (w *Writer) warcinfoBlock() []byte {
	var b strings.Builder
	field := func(name, value string) {
		if value == "" {
			return
		}
		b.WriteString(name)
		b.WriteString(": ")
		b.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(value))
		b.WriteString("\r\n")
	}
	field("software", w.cfg.Software)
	field("isPartOf", w.cfg.IsPartOf)
	field("hostname", w.cfg.Hostname)
	field("operator", w.cfg.Operator)
	field("http-header-user-agent", w.cfg.UserAgent)
	field("robots", w.cfg.Robots)
	if w.generation > 0 {
		field("generation", strconv.FormatInt(w.generation, 10))
	}
	field("format", "WARC File Format 1.1")
	field("conformsTo", conformsTo)
	if w.cfg.Profile != "" {
		p, _ := json.Marshal(w.cfg.Profile) // a string always marshals
		field("profile", string(p))
	}
	return []byte(b.String())
}

// fileSafe keeps a host name from putting path separators or spaces into a
// file name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// part is one record to build: its type, header fields and block.
type part struct {
	typ   gowarc.RecordType
	h     header
	block []byte
	// tail, when not nil, holds tailN more bytes of the block after block.
	tail  io.ReaderAt
	tailN int64
}

// size is the length of the part's block.
func (p part) size() int64 { return int64(len(p.block)) + p.tailN }

// reader reads the part's whole block.
func (p part) reader() io.Reader {
	if p.tail == nil {
		return bytes.NewReader(p.block)
	}
	return io.MultiReader(bytes.NewReader(p.block), io.NewSectionReader(p.tail, 0, p.tailN))
}

// encoded holds records marshalled (and, with Compress, gzipped one member
// a record), ready to append to a file: in memory, or in a temporary file
// when a block was too large to hold (a part with a tail).
type encoded struct {
	data  []byte
	file  *os.File // instead of data
	n     int64    // bytes in file
	sizes []int64
}

// release removes the temporary file, if any.
func (e *encoded) release() {
	if e.file != nil {
		e.file.Close()
		os.Remove(e.file.Name())
		e.file = nil
	}
}

const (
	maxCoders     = 128     // idle encoders kept: more than the workers of a large crawl
	maxKeptBuffer = 1 << 20 // an idle encoder keeps a buffer up to this size
)

// getCoder takes the most recently used idle encoder, or makes one.
func (w *Writer) getCoder() *coder {
	w.codersMu.Lock()
	defer w.codersMu.Unlock()
	if n := len(w.coders); n > 0 {
		c := w.coders[n-1]
		w.coders = w.coders[:n-1]
		return c
	}
	return &coder{copy: copier{buf: make([]byte, 32<<10)}}
}

// putCoder returns an encoder to the stack, keeping at most maxCoders.
func (w *Writer) putCoder(c *coder) {
	if c.buf.Cap() > maxKeptBuffer {
		c.buf = bytes.Buffer{} // do not keep the buffer of a huge record
	}
	w.codersMu.Lock()
	defer w.codersMu.Unlock()
	if len(w.coders) < maxCoders {
		w.coders = append(w.coders, c)
	}
}

// coder is the reusable state of encode.
type coder struct {
	buf  bytes.Buffer
	gz   *gzip.Writer
	copy copier
}

// encode builds the parts with WARC-Warcinfo-ID warcinfoID and marshals
// them. It runs without w.mu.
func (w *Writer) encode(warcinfoID string, parts ...part) (encoded, error) {
	for _, p := range parts {
		if p.tail != nil {
			return w.encodeLarge(warcinfoID, parts...)
		}
	}
	c := w.getCoder()
	defer w.putCoder(c)
	c.buf.Reset()
	var enc encoded
	for _, p := range parts {
		r, err := w.build(p, warcinfoID)
		if err != nil {
			return encoded{}, err
		}
		before := c.buf.Len()
		err = w.marshal(c, r, &c.buf)
		r.Close()
		if err != nil {
			return encoded{}, err
		}
		enc.sizes = append(enc.sizes, int64(c.buf.Len()-before))
	}
	enc.data = bytes.Clone(c.buf.Bytes())
	return enc, nil
}

// encodeLarge is encode for parts with a block too large for memory: the
// records are marshalled into a temporary file, through gowarc's own
// disk-backed buffer, so that memory stays bounded whatever the size.
func (w *Writer) encodeLarge(warcinfoID string, parts ...part) (encoded, error) {
	f, err := os.CreateTemp(w.cfg.TempDir, "langcrawl-record-*")
	if err != nil {
		return encoded{}, fmt.Errorf("temporary file for a large record: %w", err)
	}
	enc := encoded{file: f}
	c := w.getCoder()
	defer w.putCoder(c)
	cw := &countWriter{w: f}
	for _, p := range parts {
		r, err := w.build(p, warcinfoID)
		if err != nil {
			enc.release()
			return encoded{}, err
		}
		before := cw.n
		err = w.marshal(c, r, cw)
		r.Close()
		if err != nil {
			enc.release()
			return encoded{}, fmt.Errorf("write %s: %w", f.Name(), err)
		}
		enc.sizes = append(enc.sizes, cw.n-before)
	}
	enc.n = cw.n
	return enc, nil
}

// emit appends encoded records to the current file and returns their
// offsets. It writes all of them or none: after a failed write the file is
// cut back to where it was, closed and renamed, and the error names the
// file. Called with w.mu held.
func (w *Writer) emit(enc encoded) ([]int64, error) {
	cf := w.cur
	start := cf.size
	offs := make([]int64, 0, len(enc.sizes))
	off := start
	for _, n := range enc.sizes {
		offs = append(offs, off)
		off += n
	}
	var err error
	n := int64(len(enc.data))
	if enc.file != nil {
		n = enc.n
		if _, err = enc.file.Seek(0, io.SeekStart); err == nil {
			_, err = io.Copy(cf.bw, io.LimitReader(enc.file, enc.n))
		}
	} else {
		_, err = cf.bw.Write(enc.data)
	}
	if err == nil {
		err = cf.bw.Flush()
	}
	if err != nil {
		return nil, w.fail(start, err)
	}
	cf.size += n
	w.stats.Bytes += n
	w.stats.Records += int64(len(enc.sizes))
	return offs, nil
}

// marshal writes r into out, as one gzip member when Compress is on.
func (w *Writer) marshal(c *coder, r gowarc.WarcRecord, out io.Writer) error {
	if !w.cfg.Compress {
		c.copy.w = out
		_, _, err := w.marsh.Marshal(&c.copy, r, 0)
		return err
	}
	if c.gz == nil {
		c.gz = gzip.NewWriter(out)
	} else {
		c.gz.Reset(out)
	}
	c.copy.w = c.gz
	if _, _, err := w.marsh.Marshal(&c.copy, r, 0); err != nil {
		return err
	}
	return c.gz.Close()
}

// copier gives gowarc's io.Copy a ReaderFrom with a buffer kept across
// records, instead of a new 32 KB buffer per record.
type copier struct {
	w   io.Writer
	buf []byte
}

func (c *copier) Write(p []byte) (int, error) { return c.w.Write(p) }

func (c *copier) ReadFrom(r io.Reader) (int64, error) {
	var n int64
	for {
		k, rerr := r.Read(c.buf)
		if k > 0 {
			m, werr := c.w.Write(c.buf[:k])
			n += int64(m)
			if werr != nil {
				return n, werr
			}
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// fail handles a failed write: it cuts the file back to start, closes it
// under its final name (it holds only whole records) and forgets it, so the
// next write opens a new file.
func (w *Writer) fail(start int64, cause error) error {
	cf := w.cur
	w.stats.WriteErrors++
	werr := fmt.Errorf("archive: write %s: %w", cf.open, cause)
	if pe := (*fs.PathError)(nil); errors.As(cause, &pe) && pe.Path == cf.open {
		werr = fmt.Errorf("archive: %w", cause) // it names the file already
	}
	errs := []error{werr}
	if err := cf.f.Truncate(start); err != nil {
		errs = append(errs, fmt.Errorf("archive: truncate %s: %w", cf.open, err))
	}
	if start == 0 {
		// Not even the warcinfo record made it: drop the file.
		w.abandon()
		return errors.Join(errs...)
	}
	cf.bw.Reset(cf.f) // drop what failed to flush
	if err := w.finish(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// abandon closes and removes the current file, which holds nothing of use.
func (w *Writer) abandon() {
	cf := w.cur
	w.cur = nil
	cf.f.Close()
	os.Remove(cf.open)
}

// finish closes the current file: flush, fsync, close, write its index
// lines as a sorted run (RunsDir, fsynced), rename the file to drop
// ".open", fsync the directory. Every error names the file.
//
// The run is written before the rename, so that no closed file lacks its
// index lines: after a kill between the two, Recover finds the file still
// ".open" and writes its run again from the file itself. If the run cannot
// be written (a full disk), the file stays ".open" and is kept in
// w.unfinished for Close to try again (or Recover, at the next start).
func (w *Writer) finish() error {
	cf := w.cur
	w.cur = nil
	var errs []error
	if err := cf.bw.Flush(); err != nil {
		errs = append(errs, fmt.Errorf("archive: flush %s: %w", cf.open, err))
	}
	if err := cf.f.Sync(); err != nil {
		errs = append(errs, fmt.Errorf("archive: sync %s: %w", cf.open, err))
	}
	if err := cf.f.Close(); err != nil {
		errs = append(errs, fmt.Errorf("archive: close %s: %w", cf.open, err))
	}
	errs = append(errs, w.publish(cf))
	return errors.Join(errs...)
}

// publish writes the index run of a closed file, then renames the file to
// its final name and fsyncs the directory. A file whose run fails goes to
// w.unfinished, still ".open".
func (w *Writer) publish(cf *warcFile) error {
	if len(cf.index) > 0 {
		if err := w.writeRun(w.cfg.Dir, filepath.Base(cf.final), cf.index); err != nil {
			w.stats.WriteErrors++
			w.unfinished = append(w.unfinished, cf)
			return fmt.Errorf("%w (%s stays %s until its index lines are written)", err, cf.final, openSuffix)
		}
	}
	if err := os.Rename(cf.open, cf.final); err != nil {
		return fmt.Errorf("archive: rename %s: %w", cf.open, err)
	}
	w.files = append(w.files, cf.final)
	err := syncDir(w.cfg.Dir)
	w.dirDirty = false
	return err
}

// syncDir fsyncs a directory, so that the files created and renamed in it
// survive a power failure.
func syncDir(dir string) error {
	if err := atomicfile.SyncDir(dir); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// Sync makes every record written so far durable: it fsyncs the current
// file, and the directory if a file was created in it since the last Sync
// or rotation (closed files were fsynced when they were closed). Records
// are written to the operating system as each append completes, so a
// killed process loses none of them; Sync is what a power failure needs.
// Appends wait while it runs. Sync after Close does nothing (Close syncs).
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	if w.cur != nil {
		if err := w.cur.f.Sync(); err != nil {
			w.stats.WriteErrors++
			return fmt.Errorf("archive: sync %s: %w", w.cur.open, err)
		}
	}
	if w.dirDirty {
		if err := syncDir(w.cfg.Dir); err != nil {
			return err
		}
		w.dirDirty = false
	}
	w.stats.Syncs++
	return nil
}

// Rotate closes the current file, writing its index run and renaming it
// from ".open". The next write opens a new file. It does nothing if no file
// is open, and returns ErrClosed after Close.
func (w *Writer) Rotate() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	if w.cur == nil {
		return nil
	}
	return w.finish()
}

// Close closes the current file, tries again to publish the files whose
// index run failed, and merges the runs into the index (MergeIndex), in
// bounded memory. It returns every error it met, joined. Calling Close
// again does nothing.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	var errs []error
	if w.cur != nil {
		errs = append(errs, w.finish())
	}
	retry := w.unfinished
	w.unfinished = nil
	for _, cf := range retry {
		errs = append(errs, w.publish(cf))
	}
	if err := MergeIndex(w.cfg.Dir); err != nil {
		errs = append(errs, notMerged(w.cfg.Dir, err))
	}
	return errors.Join(errs...)
}

// Files returns the paths of the files closed so far, oldest first.
func (w *Writer) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.files...)
}

// SetGeneration names the crawl generation the records belong to (1 for
// a first crawl, one more per re-crawl, a crawl that took an earlier
// one's history counting as its re-crawl), written
// as the "generation" field of each warcinfo record, so that a WARC file
// says which visit of the web it holds. It applies from the next file
// opened: call it before the first record.
func (w *Writer) SetGeneration(n int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.generation = n
}

// Stats returns the counters so far.
func (w *Writer) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// statusOf returns the status code of a raw HTTP response, or "" if the
// status line does not parse.
func statusOf(msg []byte) string {
	line, _, _ := strings.Cut(string(msg[:min(len(msg), 256)]), "\n")
	parts := strings.Fields(line)
	if len(parts) < 2 || !strings.HasPrefix(parts[0], "HTTP/") {
		return ""
	}
	if _, err := strconv.Atoi(parts[1]); err != nil || len(parts[1]) != 3 {
		return ""
	}
	return parts[1]
}
