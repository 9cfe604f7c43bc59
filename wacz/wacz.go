package wacz

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/langcrawl/langcrawl/archive"
)

// Version is the WACZ version written into datapackage.json.
const Version = "1.1.1"

// Paths inside the WACZ.
const (
	IndexPath       = "indexes/index.cdx.gz"
	SummaryPath     = "indexes/index.idx"
	PagesPath       = "pages/pages.jsonl"
	DataPackagePath = "datapackage.json"
	DigestPath      = "datapackage-digest.json"
)

// ErrNoWARC is returned by Write when it is given no WARC file.
var ErrNoWARC = errors.New("wacz: no WARC file")

// maxBlock is how much of a record's block is read for its page: the HTTP
// header and the start of the body, where <title> is.
const maxBlock = 256 << 10

// Options configures Write. The zero value works.
type Options struct {
	// Title goes into datapackage.json; default the isPartOf field of the
	// first warcinfo record, else empty.
	Title string
	// Software goes into datapackage.json; left out if empty.
	Software string
	// Now gives the "created" date; default time.Now.
	Now func() time.Time
	// TempDir holds the temporary files (sorted runs of index lines, the
	// pages); "" means os.TempDir().
	TempDir string
	// Done, if not nil, is called with each WARC file's path once it is
	// packaged, for a progress line. An error from it (an interrupt) stops
	// Write, which returns it.
	Done func(path string) error
}

// Resource is one file of the WACZ as datapackage.json lists it.
type Resource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"` // "sha256:" and hex
	Bytes int64  `json:"bytes"`
}

// DataPackage is the content of datapackage.json.
type DataPackage struct {
	Profile     string     `json:"profile"`
	WACZVersion string     `json:"wacz_version"`
	Title       string     `json:"title,omitempty"`
	Created     string     `json:"created"`
	Software    string     `json:"software,omitempty"`
	Resources   []Resource `json:"resources"`
}

// Digest is the content of datapackage-digest.json.
type Digest struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// Page is a line of pages.jsonl.
type Page struct {
	URL   string `json:"url"`
	TS    string `json:"ts"`
	Title string `json:"title,omitempty"`
	Lang  string `json:"lang,omitempty"`
}

// Stats tells what Write packaged.
type Stats struct {
	WARCs      int
	Captures   int64 // index lines
	Pages      int64
	WARCBytes  int64
	TotalBytes int64 // size of the WACZ
}

// Write packages the WARC files at warcs, in the order given, as a WACZ
// into w, which it does not close. See the package documentation for the
// layout. It reads each file once and holds none in memory. A WARC file
// that does not read whole is an error naming it: a WACZ must index every
// record it holds.
func Write(w io.Writer, warcs []string, opts Options) (Stats, error) {
	var st Stats
	if len(warcs) == 0 {
		return st, ErrNoWARC
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	seen := map[string]string{}
	for _, p := range warcs {
		// Two files whose resource names are one (Frictionless names are
		// unique; resourceName lower-cases) would be one resource.
		b := resourceName(filepath.Base(p))
		if other, ok := seen[b]; ok {
			return st, fmt.Errorf("wacz: %s and %s have the same name", other, p)
		}
		seen[b] = p
	}
	cw := &counter{w: w}
	zw := zip.NewWriter(cw)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestCompression)
	})
	sorter := archive.NewSorter(opts.TempDir, 0)
	defer sorter.Close()
	pagesFile, err := os.CreateTemp(opts.TempDir, "langcrawl-wacz-pages-*")
	if err != nil {
		return st, fmt.Errorf("wacz: pages: %w", err)
	}
	defer func() {
		pagesFile.Close()
		os.Remove(pagesFile.Name())
	}()
	pw := bufio.NewWriter(pagesFile)
	pw.WriteString(`{"format":"json-pages-1.0","id":"pages","title":"All Pages"}` + "\n")
	pages := &pageFinder{out: json.NewEncoder(pw)}
	pages.out.SetEscapeHTML(false)

	var res []Resource
	title := opts.Title
	now := opts.Now()
	for _, p := range warcs {
		r, n, err := addWARC(zw, p, sorter, pages, &title)
		if err != nil {
			return st, err
		}
		res = append(res, r)
		st.WARCs++
		st.WARCBytes += n
		if opts.Done != nil {
			if err := opts.Done(p); err != nil {
				return st, err
			}
		}
	}
	st.Captures, st.Pages = pages.captures, pages.pages

	// The index, ZipNum: gzipped in blocks, so stored, and the summary
	// that locates each block, which is what ReplayWeb.page loads.
	var summary bytes.Buffer
	r, err := addEntry(zw, IndexPath, zip.Store, now, func(w io.Writer) error {
		zn := newZipNum(w, &summary, path.Base(IndexPath))
		if _, err := sorter.WriteTo(zn); err != nil {
			return err
		}
		return zn.Close()
	})
	if err != nil {
		return st, fmt.Errorf("wacz: index: %w", err)
	}
	res = append(res, r)
	r, err = addEntry(zw, SummaryPath, zip.Deflate, now, func(w io.Writer) error {
		_, err := w.Write(summary.Bytes())
		return err
	})
	if err != nil {
		return st, fmt.Errorf("wacz: index: %w", err)
	}
	res = append(res, r)

	if err := pw.Flush(); err != nil {
		return st, fmt.Errorf("wacz: pages: %w", err)
	}
	if _, err := pagesFile.Seek(0, io.SeekStart); err != nil {
		return st, fmt.Errorf("wacz: pages: %w", err)
	}
	r, err = addEntry(zw, PagesPath, zip.Deflate, now, func(w io.Writer) error {
		_, err := io.Copy(w, pagesFile)
		return err
	})
	if err != nil {
		return st, fmt.Errorf("wacz: pages: %w", err)
	}
	res = append(res, r)

	dp := DataPackage{Profile: "data-package", WACZVersion: Version, Title: title,
		Created: now.UTC().Format(time.RFC3339), Software: opts.Software, Resources: res}
	dpJSON, err := json.MarshalIndent(dp, "", "  ")
	if err != nil {
		return st, err
	}
	r, err = addEntry(zw, DataPackagePath, zip.Deflate, now, func(w io.Writer) error {
		_, err := w.Write(dpJSON)
		return err
	})
	if err != nil {
		return st, fmt.Errorf("wacz: %s: %w", DataPackagePath, err)
	}
	dgJSON, _ := json.MarshalIndent(Digest{Path: DataPackagePath, Hash: r.Hash}, "", "  ")
	if _, err := addEntry(zw, DigestPath, zip.Deflate, now, func(w io.Writer) error {
		_, err := w.Write(dgJSON)
		return err
	}); err != nil {
		return st, fmt.Errorf("wacz: %s: %w", DigestPath, err)
	}
	if err := zw.Close(); err != nil {
		return st, fmt.Errorf("wacz: %w", err)
	}
	st.TotalBytes = cw.n
	return st, nil
}

// addWARC copies the WARC file at p into archive/, stored, while it hashes
// it and scans its records for index lines and pages.
// writeErr is a writer that keeps the first error of w.
type writeErr struct {
	w   io.Writer
	err error
}

func (e *writeErr) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

func addWARC(zw *zip.Writer, p string, sorter *archive.Sorter, pages *pageFinder, title *string) (Resource, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return Resource{}, 0, fmt.Errorf("wacz: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Resource{}, 0, fmt.Errorf("wacz: %w", err)
	}
	name := filepath.Base(p)
	var size int64
	r, err := addEntryHeader(zw, &zip.FileHeader{Name: "archive/" + name, Method: zip.Store, Modified: fi.ModTime()},
		func(w io.Writer) error {
			// A failed write to the WACZ comes back through the tee as a
			// read error of the WARC file, which the scan would report as
			// a record cut short: the write's own error is said instead (a
			// review: a full disk read as a damaged WARC file).
			out := &writeErr{w: w}
			tee := io.TeeReader(f, out)
			err := archive.Scan(tee, name, maxBlock, func(rec archive.Record, line []byte) error {
				if rec.Type == "warcinfo" && *title == "" {
					*title = warcinfoField(rec.Block, "isPartOf")
				}
				if line != nil {
					if err := sorter.Add(line); err != nil {
						return err
					}
				}
				return pages.record(rec, line != nil)
			})
			if out.err != nil {
				return fmt.Errorf("write %s into the WACZ: %w", name, out.err)
			}
			if err != nil {
				return err
			}
			if err := pages.flush(); err != nil {
				return err
			}
			// Whatever the reader left unread (nothing, normally).
			if _, err = io.Copy(io.Discard, tee); out.err != nil {
				return fmt.Errorf("write %s into the WACZ: %w", name, out.err)
			}
			return err
		})
	if err != nil {
		return Resource{}, 0, fmt.Errorf("wacz: %s: %w", p, err)
	}
	size = r.Bytes
	if size != fi.Size() {
		return Resource{}, 0, fmt.Errorf("wacz: %s changed while it was packaged (%d bytes read, %d on disk)", p, size, fi.Size())
	}
	return r, size, nil
}

// addEntry writes one entry with fill, hashing what fill writes.
func addEntry(zw *zip.Writer, name string, method uint16, mod time.Time, fill func(io.Writer) error) (Resource, error) {
	return addEntryHeader(zw, &zip.FileHeader{Name: name, Method: method, Modified: mod}, fill)
}

func addEntryHeader(zw *zip.Writer, fh *zip.FileHeader, fill func(io.Writer) error) (Resource, error) {
	fw, err := zw.CreateHeader(fh)
	if err != nil {
		return Resource{}, err
	}
	h := sha256.New()
	c := &counter{w: io.MultiWriter(fw, h)}
	if err := fill(c); err != nil {
		return Resource{}, err
	}
	return Resource{Name: resourceName(path.Base(fh.Name)), Path: fh.Name, Hash: sha256Hex(h), Bytes: c.n}, nil
}

// resourceName is a file's name as a Frictionless Data Resource name,
// which "MUST consist only of lowercase alphanumeric characters plus '.',
// '-' and '_'": lower-cased (as py-wacz does), any other character '_'.
func resourceName(base string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, base)
}

// zipNumLines is how many index lines a block of the ZipNum index holds
// (py-wacz's, by way of cdxj-indexer, is 3000).
const zipNumLines = 3000

// zipNum writes sorted CDXJ lines as a ZipNum index: one gzip member for
// every zipNumLines lines into w, and into summary the !meta line then,
// for each block, its first line's key and timestamp with the block's
// offset and length in w ("cdxj-gzip-1.0", as py-wacz writes index.idx
// and wabac.js reads it).
type zipNum struct {
	w       *counter
	summary *bytes.Buffer
	name    string
	gz      *gzip.Writer
	start   int64
	prefix  []byte
	lines   int
	partial []byte
}

func newZipNum(w io.Writer, summary *bytes.Buffer, name string) *zipNum {
	meta, _ := json.Marshal(struct {
		Format   string `json:"format"`
		Filename string `json:"filename"`
	}{"cdxj-gzip-1.0", name})
	summary.WriteString("!meta 0 ")
	summary.Write(meta)
	summary.WriteByte('\n')
	return &zipNum{w: &counter{w: w}, summary: summary, name: name}
}

// Write takes whole lines, or parts of them, in order.
func (z *zipNum) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			z.partial = append(z.partial, p...)
			break
		}
		line := p[:i+1]
		if len(z.partial) > 0 {
			z.partial = append(z.partial, line...)
			line = z.partial
		}
		if err := z.line(line); err != nil {
			return 0, err
		}
		z.partial = z.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (z *zipNum) line(l []byte) error {
	if z.gz == nil {
		z.start = z.w.n
		key, rest, _ := bytes.Cut(l, []byte(" "))
		ts, _, _ := bytes.Cut(rest, []byte(" "))
		z.prefix = append(append(append(z.prefix[:0], key...), ' '), ts...)
		z.gz, _ = gzip.NewWriterLevel(z.w, gzip.BestCompression)
	}
	if _, err := z.gz.Write(l); err != nil {
		return err
	}
	if z.lines++; z.lines == zipNumLines {
		return z.endBlock()
	}
	return nil
}

func (z *zipNum) endBlock() error {
	if err := z.gz.Close(); err != nil {
		return err
	}
	loc, _ := json.Marshal(struct {
		Offset   int64  `json:"offset"`
		Length   int64  `json:"length"`
		Filename string `json:"filename"`
	}{z.start, z.w.n - z.start, z.name})
	z.summary.Write(z.prefix)
	z.summary.WriteByte(' ')
	z.summary.Write(loc)
	z.summary.WriteByte('\n')
	z.gz, z.lines = nil, 0
	return nil
}

// Close ends the last block (a line without its newline gets one). An
// index of no line is one empty gzip member, a gzip file still.
func (z *zipNum) Close() error {
	if len(z.partial) > 0 {
		if err := z.line(append(z.partial, '\n')); err != nil {
			return err
		}
		z.partial = nil
	}
	if z.gz != nil {
		return z.endBlock()
	}
	if z.w.n == 0 {
		return gzip.NewWriter(z.w).Close()
	}
	return nil
}

func sha256Hex(h hash.Hash) string { return "sha256:" + hex.EncodeToString(h.Sum(nil)) }

type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// warcinfoField returns the first value of a field of a warc-fields block.
func warcinfoField(block []byte, name string) string {
	for _, l := range strings.Split(string(block), "\n") {
		k, v, ok := strings.Cut(strings.TrimRight(l, "\r"), ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// pageFinder turns records, in file order, into pages: a candidate
// response or revisit waits for the metadata record that follows it (the
// crawler writes it in the same append) to learn its language and
// charset.
type pageFinder struct {
	out      *json.Encoder
	pending  *candidate
	captures int64
	pages    int64
}

type candidate struct {
	id      string
	page    Page
	html    bool
	revisit bool
	never   bool   // a response that is no page, whatever its metadata
	title   []byte // raw bytes of <title>, charset not yet known
	charset string // from Content-Type
}

func (pf *pageFinder) record(rec archive.Record, indexed bool) error {
	if rec.Type == "metadata" && pf.pending != nil && rec.RefersTo == pf.pending.id {
		lang := warcinfoField(rec.Block, "language")
		if lang != "" && lang != "und" {
			pf.pending.page.Lang = lang
		}
		if cs := warcinfoField(rec.Block, "charset"); cs != "" {
			pf.pending.charset = cs
		}
		return pf.flush()
	}
	if !indexed {
		return nil
	}
	pf.captures++
	if err := pf.flush(); err != nil {
		return err
	}
	pf.pending = newCandidate(rec)
	return nil
}

// flush writes the pending candidate if it is a page.
func (pf *pageFinder) flush() error {
	c := pf.pending
	pf.pending = nil
	if c == nil || c.never || !(c.html || c.page.Lang != "") {
		return nil
	}
	c.page.Title = decodeTitle(c.title, c.charset)
	pf.pages++
	return pf.out.Encode(c.page)
}

// newCandidate reads what a page needs from a response or revisit: nil
// if it cannot be one.
func newCandidate(rec archive.Record) *candidate {
	c := &candidate{id: rec.ID, revisit: rec.Type == "revisit", never: rec.Type != "revisit",
		page: Page{URL: rec.TargetURI, TS: rec.Header("WARC-Date")}}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(rec.Block)), nil)
	if err != nil {
		return c
	}
	defer resp.Body.Close()
	mt, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	c.charset = params["charset"]
	isHTML := mt == "text/html" || mt == "application/xhtml+xml"
	if c.revisit {
		c.html = isHTML && (resp.StatusCode == 200 || resp.StatusCode == 304)
		return c
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 || !(isHTML || mt == "") {
		return c
	}
	// A 200 HTML response is a page; a 2xx one with no Content-Type, or
	// another 2xx, is one if the crawler, which parsed it as HTML,
	// described it with a language (flush), as its revisits are.
	c.html, c.never = isHTML && resp.StatusCode == 200, false
	var body io.Reader = resp.Body
	switch strings.ToLower(resp.Header.Get("Content-Encoding")) {
	case "gzip", "x-gzip":
		if gz, err := gzip.NewReader(body); err == nil {
			body = gz
		}
	case "deflate":
		body = flate.NewReader(body)
	case "", "identity":
	default:
		return c // a coding we cannot undo: no title
	}
	c.title = findTitle(io.LimitReader(body, maxBlock))
	return c
}

// findTitle returns the raw text of the first <title> element, up to the
// body. A body cut short gives what it holds.
func findTitle(r io.Reader) []byte {
	z := html.NewTokenizer(r)
	in := false
	var t []byte
	for {
		switch z.Next() {
		case html.ErrorToken:
			return t
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "title":
				in = true
			case "body":
				return t
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "title" {
				return t
			}
		case html.TextToken:
			if in {
				t = append(t, z.Raw()...)
			}
		}
	}
}

// decodeTitle decodes a raw title in charset (UTF-8 if unknown), resolves
// its character references and collapses its white space.
func decodeTitle(raw []byte, charset string) string {
	if len(raw) == 0 {
		return ""
	}
	s := string(raw)
	if charset != "" && !strings.EqualFold(charset, "utf-8") {
		if enc, err := htmlindex.Get(charset); err == nil {
			if d, err := enc.NewDecoder().Bytes(raw); err == nil {
				s = string(d)
			}
		}
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}
