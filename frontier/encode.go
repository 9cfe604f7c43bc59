package frontier

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// Table prefixes; see the storage layout in doc.go.
const (
	tQueue    = 'q'
	tInflight = 'f'
	tSite     = 'n'
	tSeen     = 's'
	tCount    = 'c'
	tBudget   = 'g'
	tHistory  = 'h'
	tMeta     = 'm'
)

// keySuffixLen is the length of the ordering suffix of a queue key:
// priority (1), depth (4), sequence (8).
const keySuffixLen = 1 + 4 + 8

// ErrCorrupt is wrapped by errors about a stored record that cannot be
// decoded: a damaged database or one written by an incompatible version.
var ErrCorrupt = errors.New("frontier: corrupt record")

type urlHash [16]byte

// hashURL returns the 128-bit key of a canonical URL: the first 16 bytes of
// its SHA-256. A collision among 10^9 URLs has probability about 10^-21.
func hashURL(u string) urlHash {
	sum := sha256.Sum256([]byte(u))
	var h urlHash
	copy(h[:], sum[:16])
	return h
}

func hashKey(table byte, h urlHash) []byte {
	k := make([]byte, 17)
	k[0] = table
	copy(k[1:], h[:])
	return k
}

func siteKey(table byte, site string) []byte {
	k := make([]byte, 0, 1+len(site))
	k = append(k, table)
	return append(k, site...)
}

// queuePrefix is the prefix of every queued entry of site.
func queuePrefix(site string) []byte {
	k := make([]byte, 0, 2+len(site)+keySuffixLen)
	k = append(k, tQueue)
	k = append(k, site...)
	return append(k, 0)
}

// queueKey builds the queue key of an entry; lower keys are served first.
func queueKey(site string, prio Priority, depth int, seq uint64) []byte {
	k := queuePrefix(site)
	k = append(k, byte(prio))
	k = binary.BigEndian.AppendUint32(k, uint32(depth))
	return binary.BigEndian.AppendUint64(k, seq)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(b, 0)
	}
	b = append(b, 1)
	return binary.AppendVarint(b, t.UnixNano())
}

// decoder reads the fields written by the append helpers and remembers the
// first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = ErrCorrupt
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) < 1 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) time() time.Time {
	if d.byte() == 0 {
		return time.Time{}
	}
	return time.Unix(0, d.varint()).UTC()
}

// encodeEntry encodes e without its Site, which the key already holds.
func encodeEntry(b []byte, e *Entry) []byte {
	// Version 1 ends after Discovered, or after Tries and RetryAt when the
	// entry failed before; version 2, written only for an entry with a
	// Scope, always holds Tries and RetryAt, then Scope.
	v := byte(1)
	if e.Scope != "" {
		v = 2
	}
	b = append(b, v)
	b = appendString(b, e.URL)
	b = appendString(b, e.Tree)
	b = binary.AppendUvarint(b, uint64(e.Depth))
	b = append(b, byte(e.Priority))
	var req byte
	if e.Requisite {
		req = 1
	}
	if e.Recut {
		req |= 2
	}
	b = append(b, req)
	b = appendString(b, e.Via)
	b = appendString(b, e.Hops)
	b = appendTime(b, e.Discovered)
	if v == 2 || e.Tries > 0 || !e.RetryAt.IsZero() {
		// Absent in version-1 entries that never failed, and in frontiers
		// written before retries were kept.
		b = binary.AppendUvarint(b, uint64(e.Tries))
		b = appendTime(b, e.RetryAt)
	}
	if v == 2 {
		b = appendString(b, e.Scope)
	}
	return b
}

func decodeEntry(b []byte, site string) (Entry, error) {
	d := decoder{b: b}
	v := d.byte()
	if v != 1 && v != 2 && d.err == nil {
		return Entry{}, fmt.Errorf("%w: entry version %d", ErrCorrupt, v)
	}
	e := Entry{Site: site}
	e.URL = d.string()
	e.Tree = d.string()
	e.Depth = int(d.uvarint())
	e.Priority = Priority(d.byte())
	req := d.byte()
	e.Requisite, e.Recut = req&1 != 0, req&2 != 0
	e.Via = d.string()
	e.Hops = d.string()
	e.Discovered = d.time()
	if v == 2 || len(d.b) > 0 {
		e.Tries = int(d.uvarint())
		e.RetryAt = d.time()
	}
	if v == 2 {
		e.Scope = d.string()
	}
	if d.err != nil {
		return Entry{}, d.err
	}
	return e, nil
}

// siteRecord is the persisted part of a site's scheduling state.
type siteRecord struct {
	pending   int64
	high      int64
	notBefore int64 // Unix nanoseconds; 0 means no delay
	budget    int64 // pages counted against the site's budget (Completion.Budget)
}

func encodeSite(r siteRecord) []byte {
	b := make([]byte, 0, 24)
	b = binary.AppendUvarint(b, uint64(r.pending))
	b = binary.AppendUvarint(b, uint64(r.high))
	b = binary.AppendVarint(b, r.notBefore)
	return binary.AppendUvarint(b, uint64(r.budget))
}

func decodeSite(b []byte) (siteRecord, error) {
	d := decoder{b: b}
	r := siteRecord{pending: int64(d.uvarint()), high: int64(d.uvarint()), notBefore: d.varint()}
	if len(d.b) > 0 { // absent in frontiers written before the budget was kept
		r.budget = int64(d.uvarint())
	}
	return r, d.err
}

// encodeCounts writes N_a and N_r, then, only when any of the others is
// set, the evidence (a signed varint) and a flags byte (1: Home, 2: a
// uvarint of Probes follows, 4: SelfLinks, 8: the re-check's two uvarints
// follow, 16: RecheckDone, 32: a uvarint of Close follows, 64: a signed
// varint of PageEvidence follows), so counters of the paper's strategies
// keep their two-varint records and older records read as before.
func encodeCounts(c Counts) []byte {
	b := make([]byte, 0, 24)
	b = binary.AppendUvarint(b, uint64(c.Downloaded))
	b = binary.AppendUvarint(b, uint64(c.Relevant))
	if c.Evidence != 0 || c.Home || c.Probes != 0 || c.SelfLinks || c.Rechecked != 0 || c.RecheckDone || c.Close != 0 || c.PageEvidence != 0 {
		b = binary.AppendVarint(b, c.Evidence)
		var flags byte
		if c.Home {
			flags |= 1
		}
		if c.Probes != 0 {
			flags |= 2
		}
		if c.SelfLinks {
			flags |= 4
		}
		if c.Rechecked != 0 {
			flags |= 8
		}
		if c.RecheckDone {
			flags |= 16
		}
		if c.Close != 0 {
			flags |= 32
		}
		if c.PageEvidence != 0 {
			flags |= 64
		}
		b = append(b, flags)
		if c.Probes != 0 {
			b = binary.AppendUvarint(b, uint64(c.Probes))
		}
		if c.Rechecked != 0 {
			b = binary.AppendUvarint(b, uint64(c.Rechecked))
			b = binary.AppendUvarint(b, uint64(c.RecheckTries))
		}
		if c.Close != 0 {
			b = binary.AppendUvarint(b, uint64(c.Close))
		}
		if c.PageEvidence != 0 {
			b = binary.AppendVarint(b, c.PageEvidence)
		}
	}
	return b
}

func decodeCounts(b []byte) (Counts, error) {
	d := decoder{b: b}
	c := Counts{Downloaded: int64(d.uvarint()), Relevant: int64(d.uvarint())}
	if d.err == nil && len(d.b) > 0 { // absent in records of the paper's strategies and older frontiers
		c.Evidence = d.varint()
		flags := d.byte()
		c.Home, c.SelfLinks = flags&1 != 0, flags&4 != 0
		if flags&2 != 0 {
			c.Probes = int64(d.uvarint())
		}
		if flags&8 != 0 {
			c.Rechecked = int64(d.uvarint())
			c.RecheckTries = int64(d.uvarint())
		}
		c.RecheckDone = flags&16 != 0
		if flags&32 != 0 {
			c.Close = int64(d.uvarint())
		}
		if flags&64 != 0 {
			c.PageEvidence = d.varint()
		}
	}
	return c, d.err
}

func encodeHistory(h *History) []byte {
	b := make([]byte, 0, 128+len(h.URL))
	b = append(b, 3) // version
	b = appendTime(b, h.Fetched)
	b = binary.AppendVarint(b, int64(h.Status))
	b = appendString(b, h.Digest)
	b = appendString(b, h.ETag)
	b = appendString(b, h.LastModified)
	// Version 2 on.
	b = appendString(b, h.URL)
	b = appendString(b, h.RecordID)
	b = appendString(b, h.File)
	b = binary.AppendVarint(b, h.Offset)
	b = appendTime(b, h.Checked)
	var flags byte
	if h.Changed {
		flags |= 1
	}
	if h.Requisite {
		flags |= 2
	}
	if h.Relevant {
		flags |= 4
	}
	if h.Judged {
		flags |= 8
	}
	b = append(b, flags, byte(h.Priority))
	b = appendString(b, h.Lang)
	b = appendString(b, h.Tree)
	b = binary.AppendUvarint(b, uint64(h.Depth))
	// Version 3 on.
	b = appendString(b, h.Hops)
	return appendString(b, h.Via)
}

func decodeHistory(b []byte) (History, error) {
	d := decoder{b: b}
	v := d.byte()
	if (v < 1 || v > 3) && d.err == nil {
		return History{}, fmt.Errorf("%w: history version %d", ErrCorrupt, v)
	}
	var h History
	h.Fetched = d.time()
	h.Status = int(d.varint())
	h.Digest = d.string()
	h.ETag = d.string()
	h.LastModified = d.string()
	if v >= 2 {
		h.URL = d.string()
		h.RecordID = d.string()
		h.File = d.string()
		h.Offset = d.varint()
		h.Checked = d.time()
		flags := d.byte()
		h.Changed, h.Requisite = flags&1 != 0, flags&2 != 0
		h.Relevant, h.Judged = flags&4 != 0, flags&8 != 0
		h.Priority = Priority(d.byte())
		h.Lang = d.string()
		h.Tree = d.string()
		h.Depth = int(d.uvarint())
	}
	if v >= 3 {
		h.Hops = d.string()
		h.Via = d.string()
	} else {
		h.Legacy = true
	}
	return h, d.err
}

// meta holds the queue-wide counters that survive a restart.
type meta struct {
	seq   uint64 // next insertion sequence
	seen  int64  // URLs in the seen set
	pages int64  // completions with Completion.Page, over all runs
	usage Usage  // the job's totals, over all runs
	gen   int64  // crawl generation: 1 for the first crawl, then one more per re-crawl
	// genPending is set while StartGeneration queues the known URLs of a
	// new generation, so that a crash in between finishes it on resume.
	genPending bool
}

func encodeMeta(m meta) []byte {
	b := make([]byte, 0, 30)
	b = binary.AppendUvarint(b, m.seq)
	b = binary.AppendUvarint(b, uint64(m.seen))
	b = binary.AppendUvarint(b, uint64(m.pages))
	b = binary.AppendUvarint(b, uint64(m.usage.Fetches))
	b = binary.AppendUvarint(b, uint64(m.usage.Bytes))
	b = binary.AppendUvarint(b, uint64(m.usage.Elapsed))
	b = binary.AppendUvarint(b, uint64(m.gen))
	var pending byte
	if m.genPending {
		pending = 1
	}
	return append(b, pending)
}

func decodeMeta(b []byte) (meta, error) {
	d := decoder{b: b}
	m := meta{seq: d.uvarint(), seen: int64(d.uvarint())}
	if len(d.b) > 0 { // absent in frontiers written before pages were counted
		m.pages = int64(d.uvarint())
	}
	if len(d.b) > 0 { // absent in frontiers written before the job totals were kept
		m.usage.Fetches = int64(d.uvarint())
		m.usage.Bytes = int64(d.uvarint())
		m.usage.Elapsed = time.Duration(d.uvarint())
	}
	if len(d.b) > 0 { // absent in frontiers written before generations were kept
		m.gen = int64(d.uvarint())
		m.genPending = d.byte() == 1
	}
	return m, d.err
}
