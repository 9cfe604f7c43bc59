package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/syndtr/goleveldb/leveldb"
	lerrors "github.com/syndtr/goleveldb/leveldb/errors"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/storage"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// Sentinel errors. Errors returned by the Queue wrap them, so test with
// errors.Is.
var (
	// ErrClosed is returned by every method called after Close.
	ErrClosed = errors.New("frontier: closed")
	// ErrEmpty is returned by Next when nothing is queued and nothing is in
	// flight: the crawl is over.
	ErrEmpty = errors.New("frontier: empty")
	// ErrInvalidEntry is returned for an entry the queue cannot store: an
	// empty URL or Site, a Site holding a NUL byte, or a Depth out of range.
	ErrInvalidEntry = errors.New("frontier: invalid entry")
	// ErrUnknownLease is returned by Complete and Return for a lease that is
	// not outstanding: already completed or returned, or from another Queue.
	ErrUnknownLease = errors.New("frontier: unknown lease")
	// ErrInvalidOptions is wrapped by Open for every bad option.
	ErrInvalidOptions = errors.New("frontier: invalid options")
)

// Priority orders entries inside a site; lower values come first.
type Priority uint8

// Priorities. Tamura et al. queue the links of relevant pages with High
// priority and those of irrelevant pages with Low priority.
const (
	High Priority = 0
	Low  Priority = 1
)

func (p Priority) String() string {
	switch p {
	case High:
		return "high"
	case Low:
		return "low"
	}
	return fmt.Sprintf("Priority(%d)", uint8(p))
}

// Entry is one queued URL.
type Entry struct {
	URL        string    // canonical URL; the seen set is keyed by it
	Site       string    // queue key: the host (lowercase, with :port if non-default)
	Tree       string    // site tree key (registered domain of the tree root); opaque
	Depth      int       // links followed from the tree's start URL; 0..MaxUint32
	Priority   Priority  // High before Low inside a site
	Requisite  bool      // page requisite (img/css/js); opaque
	Via        string    // URL of the page that linked here ("" for seeds)
	Hops       string    // Heritrix-style hop path, e.g. "LLE"; opaque
	Discovered time.Time // when the link was found; stored with nanosecond precision in UTC
	// Tries counts the failed attempts to fetch the URL so far; the engine
	// sets it before Requeue. Opaque to the queue.
	Tries int
	// Claim, when not empty, is a key that must be new for the entry to
	// be queued: it is added to the seen set in the same write as the
	// entry, or the entry is skipped if it is there already. The engine
	// claims a script path for the query rule (Nakahira 2.2) this way, so
	// that the claim commits with the page that made it, never before.
	// Not stored with the entry.
	Claim string
	// Variant, when neither empty nor URL, is the key the URL's other
	// spellings share (scope.SeenKey): the entry is skipped when it is in
	// the seen set, and added to it with the URL. The URL stays what is
	// fetched and archived. Not stored with the entry.
	Variant string
	// RetryAt is the earliest time the engine wants to try the URL again
	// after a failure; zero if none. Opaque to the queue: it orders by
	// the site's NotBefore only.
	RetryAt time.Time
	// Scope names the operator's scope rules that admitted the URL
	// (scope.Decision.Admit); "" when none bore on it. Opaque.
	Scope string
	// Recut says the URL's body came cut once and it was queued to be
	// fetched again for that (the engine's); opaque. Kept in bit 2 of the
	// requisite byte, which frontiers written before it hold as 0.
	Recut bool
	// Front asks for the entry to be served before every other entry of
	// its site: it goes to the site's front place, the ordering suffix
	// (High, depth 0, sequence 0), which no other key sorts before. A site
	// has one front place; while it is taken (queued or leased), the
	// entry is queued at its usual place. When the URL is queued already,
	// Push moves its entry there instead (Queue.promote), unless that entry
	// waits for a retry (an entry queued earlier in the same batch too).
	// Under OrderBreadth the site then sorts before every other site, as
	// its head is the lowest key. Not stored: it decides the key only. The engine
	// puts there the link a re-check follows to a target section of the
	// server it re-checks, so that the link is the re-check's next try.
	Front bool
}

func (e *Entry) validate() error {
	switch {
	case e.URL == "":
		return fmt.Errorf("%w: empty URL", ErrInvalidEntry)
	case e.Site == "":
		return fmt.Errorf("%w: %s: empty Site", ErrInvalidEntry, e.URL)
	case strings.IndexByte(e.Site, 0) >= 0:
		return fmt.Errorf("%w: %s: Site %q holds a NUL byte", ErrInvalidEntry, e.URL, e.Site)
	case e.Depth < 0 || int64(e.Depth) > math.MaxUint32:
		return fmt.Errorf("%w: %s: Depth %d out of range", ErrInvalidEntry, e.URL, e.Depth)
	}
	return nil
}

// Lease is an entry handed out by Next. Exactly one of Complete or Return
// must be called with it; until then its site gets no other lease. A lease
// still outstanding at Close (or at a crash) is put back in the queue by the
// next Open.
type Lease struct {
	Entry Entry
	// SiteBudget is how many pages of the entry's site were counted
	// against its budget (Completion.Budget) before this lease, over all
	// runs. A site has one lease at a time, so it cannot change until
	// this lease ends.
	SiteBudget int64

	site   string
	suffix [keySuffixLen]byte // ordering suffix of its queue key
	value  []byte             // encoded entry
}

// Completion is the outcome of a lease, applied atomically by Complete.
type Completion struct {
	// NotBefore is the earliest time the lease's site may be leased again:
	// the politeness delay w, computed by the caller. Zero means at once.
	NotBefore time.Time
	// Links are pushed as by PushMany: URLs seen before are skipped.
	Links []Entry
	// Tally lists the focus counters to bump for the fetched page.
	Tally []Tally
	// History, when non-nil, is stored as the fetch history of the lease's URL.
	History *History
	// IndexDigest records History's capture under its payload digest
	// (Queue.Capture), unless the digest has a capture already, so that
	// the same payload met again can be written as a revisit.
	IndexDigest bool
	// Budget counts the page against its site's budget (Lease.SiteBudget),
	// the crawl's max-pages-per-site trap guard, which so holds across
	// restarts.
	Budget bool
	// Budgets lists keys other than the site (a registered domain, an
	// address: the caller's) whose budget counts (Queue.BudgetCount) the
	// completion bumps by one each, atomically with it. Like the sites'
	// budgets, and unlike the focus counters, a new generation forgets
	// them (StartGeneration).
	Budgets []string
	// Page counts the completion in Stats.Pages, a count kept across
	// restarts (the crawl counts the HTML pages it downloaded, on which
	// its focusing tolerance falls).
	Page bool
	// Usage is added to the job's totals (Stats.Usage), which survive
	// restarts so that job budgets hold across resumes.
	Usage Usage
	// Unsee takes the lease's URL out of the seen set, so that a later
	// link or seed may queue it again: a URL skipped by an operator's
	// exclusion, which the operator may lift. UnseeVariant, when not
	// empty, leaves it too: the key of the URL's spellings (Entry.Variant).
	Unsee        bool
	UnseeVariant string
	// Recheck, when not nil, records a re-check try of a focus key in the
	// current generation, atomically with the Tally (package crawl: a
	// page of a server judged irrelevant in an earlier generation is
	// fetched in a new one, to see whether its language changed).
	Recheck *Recheck
}

// Recheck is one try of a focus key's re-check in the current generation
// (Completion.Recheck, Deferral.Recheck): Counts.Rechecked becomes the
// generation (the tries of an earlier one are forgotten), RecheckTries
// grows by one, and Done ends the re-check for the generation.
type Recheck struct {
	Key  string
	Done bool
}

// Usage is what a job has spent, kept across restarts. Fetches and Bytes
// are added up; Elapsed is the running time the caller reports, and the
// queue keeps the largest it was given.
type Usage struct {
	Fetches int64         // requests that got a response from the server
	Bytes   int64         // response bytes received
	Elapsed time.Duration // crawl time over all runs
}

func (u *Usage) add(v Usage) {
	u.Fetches += v.Fetches
	u.Bytes += v.Bytes
	u.Elapsed = max(u.Elapsed, v.Elapsed)
}

// Tally bumps the counters under Key: N_a by one and, if Relevant, N_r by
// one; it adds Evidence to Counts.Evidence, if Home sets Counts.Home, and if
// Probe bumps Counts.Probes.
type Tally struct {
	Key      string
	Relevant bool
	// Evidence is added to the key's accumulated evidence (the caller's
	// unit; package focus uses millinats of log-likelihood ratio).
	Evidence int64
	// Home marks that the page counted is the key's home page.
	Home bool
	// Probe marks a page that no link asked for: the caller queued it to
	// judge the key (package focus: the sequential verdict's home probe).
	Probe bool
	// SelfLinks marks a page whose own links spoke for its key (package
	// focus: a link to a target section of its own server).
	SelfLinks bool
	// Close marks a page counted in Counts.Close instead of N_r: a
	// target verdict the caller does not count as a target page (package
	// focus: a close call). Relevant is false with it.
	Close bool
	// PageEvidence is added to the key's Counts.PageEvidence.
	PageEvidence int64
}

// Counts are Tamura et al.'s per-server (or per-directory) counters, and
// what a sequential server verdict accumulates beside them (package focus,
// strategy sequential). Records written before Evidence, Home, Probes,
// SelfLinks, Close and PageEvidence were kept read as zero for them.
type Counts struct {
	Downloaded int64 // N_a: pages downloaded
	Relevant   int64 // N_r: relevant pages among them
	Evidence   int64 // the sum of the Tally.Evidence given; may be negative
	Home       bool  // a Tally with Home was given
	Probes     int64 // pages among Downloaded that came with Tally.Probe
	SelfLinks  bool  // a Tally with SelfLinks was given
	Close      int64 // Tallies with Close given
	// PageEvidence: the sum of the Tally.PageEvidence given (package
	// focus: the evidence of the pages' own verdicts, without their links).
	PageEvidence int64
	// Rechecked is the generation of the key's last re-check
	// (Completion.Recheck), 0 if never; RecheckTries the tries in that
	// generation, and RecheckDone whether it ended there.
	Rechecked    int64
	RecheckTries int64
	RecheckDone  bool
}

// The status these counters give a server, with a tolerance T, is package
// focus's to judge (focus.StatusOf); the frontier only keeps the counts.

// History is what the last fetch of a URL left for incremental re-crawls:
// the capture (where its record is, for revisit records that refer to
// it), the validators for conditional requests, and how the URL was
// reached, so that a new generation can queue it again.
type History struct {
	URL          string    // the URL; "" in records written before it was kept
	Fetched      time.Time // when the capture was made; stored with nanosecond precision in UTC
	Status       int       // HTTP status, or a negative code the caller chooses for failures
	Digest       string    // payload digest, e.g. "sha1:..." as in WARC-Payload-Digest
	ETag         string
	LastModified string

	RecordID string // WARC-Record-ID of the capture's response record
	File     string // the WARC file that holds it
	Offset   int64  // where in the file

	Checked time.Time // the last visit, when it found the capture unchanged (304 or the same digest); zero if none
	Changed bool      // the capture's payload differed from the one before it
	Lang    string    // detected language of the page, "" if not a page
	// Relevant: the page was in a target language; Judged says Relevant
	// was recorded (false in records written before it was kept).
	Relevant, Judged bool

	Tree      string   // the site tree the URL was in
	Depth     int      // its depth in that tree
	Priority  Priority // its priority in its site
	Requisite bool     // a page requisite
	// Hops and Via are how the crawl first reached the URL (Entry.Hops,
	// Entry.Via), so that a re-crawl's visit says so too rather than
	// look like a seed; "" in records written before they were kept.
	Hops, Via string
	// Legacy is set on a record read back from before Hops and Via were
	// kept (history version 1 or 2), whose empty Hops says nothing. It is
	// not stored.
	Legacy bool
}

// LegacyHops gives a Legacy record's empty Hops one hop, L or E for a
// requisite, standing for the lost path: the URL was reached, not seeded
// as far as anyone can tell, and a re-crawl must not log every such URL as
// a seed. Other records are left as they are.
func (h *History) LegacyHops() {
	if !h.Legacy || h.Hops != "" {
		return
	}
	h.Hops = "L"
	if h.Requisite {
		h.Hops = "E"
	}
}

// Stats is a snapshot of the queue for metrics. Queued, InFlight, Sites and
// Seen describe the store; the other fields count calls since Open.
type Stats struct {
	Queued   int64 // entries waiting, not counting leased ones
	InFlight int64 // outstanding leases
	Sites    int64 // sites with entries waiting or leased
	Ready    int64 // sites that could be leased now (their delay is over); bounds the useful parallelism r
	Known    int64 // sites held in memory (includes idle sites still in their delay)
	Seen     int64 // URLs in the seen set

	Pushed    int64 // entries added by Push, PushMany and Complete
	Popped    int64 // leases handed out by Next
	Completed int64 // leases completed
	Pages     int64 // completions with Completion.Page, over all runs (the others count this run)
	Returned  int64 // leases returned
	Requeued  int64 // leases put back by Requeue (retries)
	Usage     Usage // the job's totals over all runs of this generation (Completion.Usage)
	// Generation is the crawl generation: 1 for the first crawl of this
	// frontier, one more per re-crawl (StartGeneration).
	Generation int64
	// GenerationPending reports a StartGeneration cut short by a crash:
	// call it again to finish queueing the generation's known URLs.
	GenerationPending bool
	Dropped           int64 // entries removed by DropSite
	Recovered         int64 // in-flight leases put back by Open
}

// Options configure Open. The zero value is ready to use.
type Options struct {
	// Storage, when non-nil, is used instead of dir (tests use
	// storage.NewMemStorage()). The Queue does not close it.
	Storage storage.Storage
	// AcceptDamage opens a frontier whose journal was damaged in its
	// middle (ErrDamaged), dropping the records there as LevelDB's replay
	// does; Damage lists what was dropped. Off, Open refuses it.
	AcceptDamage bool
	// BlockCacheMB is the LevelDB block cache in MiB. Default 32.
	BlockCacheMB int
	// WriteBufferMB is the LevelDB memtable size in MiB; up to two are held
	// in memory. Default 16.
	WriteBufferMB int
	// OpenFiles is how many table files LevelDB keeps open. Default 500.
	OpenFiles int
	// SeenCache is how many seen-URL hashes are kept in memory, in two
	// generations of half each (recent.go), so that a link found again is
	// answered without a LevelDB lookup. It changes no result, only the cost
	// of the seen-set lookups: about 40 bytes per hash at most. Default
	// 131,072 (about 5 MB). When the seen set fits in one generation
	// (SeenCache/2), a URL is read back from LevelDB at most once per
	// start (the cache starts empty) and new URLs are checked there; the
	// simulator sizes it so, to its web (simulate.Options.SeenCache).
	SeenCache int
	// BloomBits is the bits per key of the Bloom filter that makes seen-set
	// misses cheap. Default 10; -1 disables the filter.
	BloomBits int
	// Sync makes every write fsync the journal. Default false: a process
	// crash loses nothing, a power failure may lose the last writes.
	Sync bool
	// PollInterval is the wait Next returns when nothing is eligible but
	// leases are outstanding, whose completion may add work. Default 250ms.
	PollInterval time.Duration
	// Order is the site order of the ready heap, one of Orders (see
	// order.go): "length" (the default, also for ""), "breadth" or "random".
	Order string
}

func (o *Options) fill() error {
	var errs []error
	check := func(name string, v *int, def int) {
		switch {
		case *v == 0:
			*v = def
		case *v < 0:
			errs = append(errs, fmt.Errorf("%w: %s is %d, must not be negative", ErrInvalidOptions, name, *v))
		}
	}
	check("BlockCacheMB", &o.BlockCacheMB, 32)
	check("WriteBufferMB", &o.WriteBufferMB, 16)
	check("OpenFiles", &o.OpenFiles, 500)
	check("SeenCache", &o.SeenCache, 2*recentSeenHalf)
	switch {
	case o.BloomBits == 0:
		o.BloomBits = 10
	case o.BloomBits < -1:
		errs = append(errs, fmt.Errorf("%w: BloomBits is %d, must be -1 or positive", ErrInvalidOptions, o.BloomBits))
	}
	switch {
	case o.PollInterval == 0:
		o.PollInterval = 250 * time.Millisecond
	case o.PollInterval < 0:
		errs = append(errs, fmt.Errorf("%w: PollInterval is %v, must not be negative", ErrInvalidOptions, o.PollInterval))
	}
	errs = append(errs, checkOrder(o.Order)) // nil for a good order; Join drops it
	return errors.Join(errs...)
}

// Queue is the crawl frontier. It is safe for concurrent use by many
// goroutines. Open it with Open and release it with Close.
type Queue struct {
	opts Options
	wo   *opt.WriteOptions

	mu    sync.RWMutex
	db    *leveldb.DB // nil once closed
	sites map[string]*site
	ready siteHeap
	timed siteHeap
	// readySeq counts the moves of sites into ready (site.readySeq).
	readySeq uint64
	leases   map[string]*Lease
	meta     meta
	queued   int64
	active   int64 // sites with pending > 0 or leased
	stats    Stats // the since-Open counters
	recent   *recentSeen
	// stor is the storage Open made for dir, closed after db; nil when
	// Options.Storage was given.
	stor storage.Storage
	// damage is what Open found wrong in the journal and dropped.
	damage []string
	// recovered names the sites whose leases Open put back: a request to
	// each may have been in flight when the previous run ended.
	recovered []string
}

// Open opens or creates the frontier in dir, or in opts.Storage if set.
// It copies opts (nil means all defaults), fills in defaults and validates
// them, reporting every bad option at once. It puts back every lease left
// outstanding by the previous run. Open starts no goroutines of its own;
// LevelDB runs its compaction goroutines until Close.
func Open(dir string, opts *Options) (*Queue, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := o.fill(); err != nil {
		return nil, err
	}
	lo := &opt.Options{
		BlockCacheCapacity:     o.BlockCacheMB * opt.MiB,
		WriteBuffer:            o.WriteBufferMB * opt.MiB,
		OpenFilesCacheCapacity: o.OpenFiles,
		CompactionTableSize:    8 * opt.MiB,
	}
	if o.BloomBits > 0 {
		lo.Filter = filter.NewBloomFilter(o.BloomBits)
	}
	// The storage is opened here, not by leveldb.OpenFile, so that its
	// journals are read before LevelDB replays them (checkJournals).
	stor, own := o.Storage, storage.Storage(nil)
	if stor == nil {
		fs, err := storage.OpenFile(dir, false)
		if err != nil {
			return nil, fmt.Errorf("frontier: open %s: %w", dir, err)
		}
		stor, own = fs, fs
	}
	closeOwn := func() error {
		if own == nil {
			return nil
		}
		return own.Close()
	}
	found, err := checkJournals(stor, dir)
	if err == nil && !o.AcceptDamage {
		err = damageError(found)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("frontier: open %s: %w", dir, err), closeOwn())
	}
	db, err := leveldb.Open(journalSync{stor}, lo)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("frontier: open %s: %w", dir, corrupt(err)), closeOwn())
	}
	q := &Queue{
		opts:   o,
		wo:     &opt.WriteOptions{Sync: o.Sync},
		db:     db,
		sites:  make(map[string]*site),
		ready:  siteHeap{less: orderLess(o.Order)},
		timed:  siteHeap{less: timeLess},
		leases: make(map[string]*Lease),
		recent: newRecentSeen(o.SeenCache / 2),
		stor:   own,
	}
	for _, d := range found {
		q.damage = append(q.damage, d.String())
	}
	if err := q.load(); err != nil {
		return nil, errors.Join(fmt.Errorf("frontier: open %s: %w", dir, corrupt(err)), db.Close(), closeOwn())
	}
	return q, nil
}

// load reads the meta and site records and puts back in-flight leases.
func (q *Queue) load() error {
	v, err := q.db.Get([]byte{tMeta}, nil)
	switch {
	case errors.Is(err, leveldb.ErrNotFound):
		// A new frontier: sequence 0 is left to the front place
		// (Entry.Front), whose key is the lowest.
		q.meta.seq = 1
	case err != nil:
		return fmt.Errorf("read meta: %w", err)
	default:
		if q.meta, err = decodeMeta(v); err != nil {
			return fmt.Errorf("read meta: %w", err)
		}
		if q.meta.seq == 0 {
			// Nothing was ever queued (the meta was written by
			// MarkSeen or AddUsage): sequence 0 is free, and left to
			// the front place as in a new frontier (a review).
			q.meta.seq = 1
		}
	}

	// Sites with nothing queued are not held in memory (Next forgets them;
	// their records stay only for their budgets, and commit reads them
	// back), unless a lease of theirs is put back below, which reads its
	// record again: every site that ever answered keeps one, and a long
	// crawl's million of them must not be held here at every start.
	it := q.db.NewIterator(util.BytesPrefix([]byte{tSite}), nil)
	for it.Next() {
		r, err := decodeSite(it.Value())
		if err != nil {
			name := string(it.Key()[1:]) // before Release, which empties Key
			it.Release()
			return fmt.Errorf("read site %s: %w", name, err)
		}
		if r.pending == 0 {
			continue
		}
		name := string(it.Key()[1:])
		s := &site{name: name, pending: r.pending, high: r.high, notBefore: r.notBefore, budget: r.budget, idx: -1}
		q.sites[name] = s
		q.queued += s.pending
		if s.pending > 0 {
			q.active++
		}
		q.timed.push(s)
	}
	it.Release()
	if err := it.Error(); err != nil {
		return fmt.Errorf("read sites: %w", err)
	}

	// Put back the leases of the previous run, each at its original key.
	b := new(leveldb.Batch)
	changed := make(map[string]*site)
	it = q.db.NewIterator(util.BytesPrefix([]byte{tInflight}), nil)
	for it.Next() {
		name := string(it.Key()[1:])
		val := it.Value()
		if len(val) < keySuffixLen {
			it.Release()
			return fmt.Errorf("read lease of %s: %w", name, ErrCorrupt)
		}
		k := append(queuePrefix(name), val[:keySuffixLen]...)
		b.Delete(it.Key())
		b.Put(k, val[keySuffixLen:])
		s := q.sites[name]
		if s == nil {
			var r siteRecord // an idle site's record, if it has one
			if v, err := q.db.Get(siteKey(tSite, name), nil); err == nil {
				if r, err = decodeSite(v); err != nil {
					it.Release()
					return fmt.Errorf("read site %s: %w", name, err)
				}
			} else if !errors.Is(err, leveldb.ErrNotFound) {
				it.Release()
				return fmt.Errorf("read site %s: %w", name, dbErr(err))
			}
			s = &site{name: name, notBefore: r.notBefore, budget: r.budget, idx: -1}
			q.sites[name] = s
			q.timed.push(s)
		}
		if s.pending == 0 {
			q.active++
		}
		s.pending++
		if Priority(val[0]) == High {
			s.high++
		}
		q.queued++
		q.stats.Recovered++
		changed[name] = s
	}
	it.Release()
	if err := it.Error(); err != nil {
		return fmt.Errorf("read leases: %w", err)
	}
	if b.Len() == 0 {
		return nil
	}
	for name, s := range changed {
		b.Put(siteKey(tSite, name), encodeSite(s.record()))
		q.timed.fix(s)
		q.recovered = append(q.recovered, name)
	}
	if err := q.db.Write(b, q.wo); err != nil {
		return fmt.Errorf("recover leases: %w", err)
	}
	return nil
}

// RecoveredSites names the sites whose leases Open put back, the previous
// run having ended with them outstanding (a kill, a crash): a request to
// each may have been in flight, and may have ended as late as the start.
func (q *Queue) RecoveredSites() []string {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return append([]string(nil), q.recovered...)
}

// Close closes the database. Outstanding leases stay recorded and are put
// back by the next Open; to keep their order and delays, Return them first.
// Calls after Close return ErrClosed.
func (q *Queue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return ErrClosed
	}
	err := q.db.Close()
	q.db = nil
	if q.stor != nil {
		err = errors.Join(err, q.stor.Close())
	}
	if err != nil {
		return fmt.Errorf("frontier: close: %w", err)
	}
	return nil
}

// Damage lists what Open found wrong in the frontier's journal and
// dropped: a last write cut by a crash, or, with Options.AcceptDamage,
// damage in a journal's middle. Empty for a journal that read whole.
func (q *Queue) Damage() []string { return slices.Clone(q.damage) }

// corrupt wraps err with ErrCorrupt when LevelDB says it found damage (a
// MANIFEST or a table that fails its checksum), so that the caller can
// send the operator to a backup rather than look for another program
// holding the directory (a review).
func corrupt(err error) error {
	if lerrors.IsCorrupted(err) {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}

// dbErr maps LevelDB's closed error to ErrClosed.
func dbErr(err error) error {
	if errors.Is(err, leveldb.ErrClosed) {
		return ErrClosed
	}
	return err
}

// Push adds e unless its URL was seen before, and marks the URL seen. It
// reports whether e was added.
func (q *Queue) Push(e Entry) (bool, error) {
	n, err := q.PushMany([]Entry{e})
	return n == 1, err
}

// PushMany is Push for a batch, written in one LevelDB write: either all new
// entries are added or, on error, none. Duplicates inside es count once. It
// returns how many entries were added. An invalid entry fails the whole call.
func (q *Queue) PushMany(es []Entry) (int, error) {
	for i := range es {
		if err := es[i].validate(); err != nil {
			return 0, err
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return 0, ErrClosed
	}
	t := q.begin()
	n, err := t.push(es)
	if err != nil {
		return 0, err
	}
	if n == 0 && len(t.fronts) == 0 && !t.dirty {
		return 0, nil
	}
	if err := t.commit(); err != nil {
		return 0, fmt.Errorf("frontier: push %d entries: %w", len(es), err)
	}
	return n, nil
}

// Seen reports whether url is in the seen set.
func (q *Queue) Seen(url string) (bool, error) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return false, ErrClosed
	}
	h := hashURL(url)
	if q.recent.has(h) {
		return true, nil
	}
	ok, err := q.db.Has(hashKey(tSeen, h), nil)
	if err != nil {
		return false, fmt.Errorf("frontier: seen %s: %w", url, dbErr(err))
	}
	return ok, nil
}

// MarkSeen adds url to the seen set without queueing it, e.g. for a
// redirect target already handled. It reports whether url was new.
func (q *Queue) MarkSeen(url string) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return false, ErrClosed
	}
	t := q.begin()
	added, err := t.markSeen(hashURL(url))
	if err != nil || !added {
		return false, err
	}
	if err := t.commit(); err != nil {
		return false, fmt.Errorf("frontier: mark seen %s: %w", url, err)
	}
	return true, nil
}

// Next leases the head entry of the best eligible site at time now: a site
// with no lease outstanding, entries queued and a notBefore not after now,
// chosen by the Length order described in the package doc.
//
// If no site is eligible but entries are queued or leases outstanding, Next
// returns (nil, wait, nil): wait is at most the time until the earliest site
// becomes eligible, and at most Options.PollInterval while leases are
// outstanding. It is always positive. If nothing is queued and nothing is in
// flight, Next returns ErrEmpty.
func (q *Queue) Next(now time.Time) (*Lease, time.Duration, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return nil, 0, ErrClosed
	}
	nowN := now.UnixNano()
	// Move the sites that are due from timed to ready; forget idle ones.
	if err := q.promote(nowN); err != nil {
		return nil, 0, fmt.Errorf("frontier: next: %w", err)
	}

	for s := q.ready.top(); s != nil; s = q.ready.top() {
		if s.notBefore > nowN { // the caller's clock went back
			q.ready.remove(s)
			q.timed.push(s)
			continue
		}
		l, err := q.lease(s)
		if err != nil {
			return nil, 0, fmt.Errorf("frontier: next: lease from %s: %w", s.name, err)
		}
		if l != nil {
			return l, 0, nil
		}
	}

	if q.queued == 0 && len(q.leases) == 0 {
		return nil, 0, ErrEmpty
	}
	wait := time.Duration(math.MaxInt64)
	if len(q.leases) > 0 {
		wait = q.opts.PollInterval
	}
	if s := q.timed.top(); s != nil {
		wait = min(wait, time.Duration(s.notBefore-nowN))
	}
	if wait <= 0 || wait == math.MaxInt64 {
		// Cannot happen while the counts are consistent; poll anyway.
		wait = q.opts.PollInterval
	}
	return nil, max(wait, time.Nanosecond), nil
}

// lease takes the head entry of s, which is at the top of the ready heap.
// It returns a nil lease if s turned out to have no entries, which repairs
// a site record that disagreed with the queue.
func (q *Queue) lease(s *site) (*Lease, error) {
	prefix := queuePrefix(s.name)
	rng := util.BytesPrefix(prefix)
	if s.floor != nil {
		rng.Start = append(prefix[:len(prefix):len(prefix)], s.floor...)
	}
	it := q.db.NewIterator(rng, nil)
	defer it.Release()
	if !it.First() {
		if err := it.Error(); err != nil {
			return nil, dbErr(err)
		}
		// The record said there was work; there is none. Repair it.
		q.ready.remove(s)
		q.queued -= s.pending
		q.active--
		s.pending, s.high = 0, 0
		s.floor = maxFloor
		q.timed.push(s)
		if err := q.db.Put(siteKey(tSite, s.name), encodeSite(s.record()), q.wo); err != nil {
			return nil, dbErr(err)
		}
		return nil, nil
	}
	key := it.Key()
	if len(key) != len(prefix)+keySuffixLen {
		return nil, fmt.Errorf("queue key %q: %w", key, ErrCorrupt)
	}
	suffix := key[len(prefix):]
	e, err := decodeEntry(it.Value(), s.name)
	if err != nil {
		return nil, fmt.Errorf("queue key %q: %w", key, err)
	}
	l := &Lease{Entry: e, SiteBudget: s.budget, site: s.name, value: append([]byte(nil), it.Value()...)}
	copy(l.suffix[:], suffix)

	rec := s.record()
	rec.pending--
	prio := Priority(suffix[0])
	if prio == High {
		rec.high--
	}
	fv := make([]byte, 0, keySuffixLen+len(l.value))
	fv = append(fv, suffix...)
	fv = append(fv, l.value...)
	b := new(leveldb.Batch)
	b.Delete(key)
	b.Put(siteKey(tInflight, s.name), fv)
	b.Put(siteKey(tSite, s.name), encodeSite(rec))
	if err := q.db.Write(b, q.wo); err != nil {
		return nil, dbErr(err)
	}
	q.ready.remove(s)
	s.pending, s.high = rec.pending, rec.high
	s.leased = true
	s.floor = append([]byte(nil), suffix...)
	q.queued--
	q.leases[s.name] = l
	q.stats.Popped++
	return l, nil
}

// Complete finishes lease l in one atomic write: it removes the in-flight
// record, pushes c.Links (skipping URLs seen before), bumps the focus
// counters of c.Tally and stores c.History for the lease's URL. The site
// becomes eligible again at c.NotBefore. On error nothing is written and
// the lease stays outstanding.
func (q *Queue) Complete(l *Lease, c Completion) error {
	if l == nil {
		return fmt.Errorf("%w: nil", ErrUnknownLease)
	}
	for i := range c.Links {
		if err := c.Links[i].validate(); err != nil {
			return fmt.Errorf("frontier: complete %s: %w", l.Entry.URL, err)
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	t, err := q.endLease(l)
	if err != nil {
		return err
	}
	t.ending = l
	d := t.delta(l.site)
	d.unlease = true
	d.setNB, d.notBefore = true, unixNano(c.NotBefore)
	if c.Budget {
		d.budget++
	}
	if c.Page {
		t.meta.pages++
		t.dirty = true
	}
	if c.Usage != (Usage{}) {
		t.meta.usage.add(c.Usage)
		t.dirty = true
	}
	if _, err := t.push(c.Links); err != nil {
		return fmt.Errorf("frontier: complete %s: %w", l.Entry.URL, err)
	}
	if err := t.tally(c.Tally, c.Recheck); err != nil {
		return fmt.Errorf("frontier: complete %s: %w", l.Entry.URL, err)
	}
	if err := t.budgets(c.Budgets); err != nil {
		return fmt.Errorf("frontier: complete %s: %w", l.Entry.URL, err)
	}
	if c.History != nil {
		t.b.Put(hashKey(tHistory, hashURL(l.Entry.URL)), encodeHistory(c.History))
		if c.IndexDigest {
			if err := t.indexCapture(c.History); err != nil {
				return fmt.Errorf("frontier: complete %s: %w", l.Entry.URL, err)
			}
		}
	}
	var unseen []urlHash
	if c.Unsee {
		unseen = append(unseen, hashURL(l.Entry.URL))
		if c.UnseeVariant != "" && c.UnseeVariant != l.Entry.URL {
			unseen = append(unseen, hashURL(c.UnseeVariant))
		}
	}
	for _, h := range unseen {
		k := hashKey(tSeen, h)
		if in, err := q.db.Has(k, nil); err != nil {
			return fmt.Errorf("frontier: complete %s: %w", l.Entry.URL, dbErr(err))
		} else if in {
			t.b.Delete(k)
			t.meta.seen--
			t.dirty = true
		}
	}
	if err := t.commit(); err != nil {
		return fmt.Errorf("frontier: complete %s: %w", l.Entry.URL, err)
	}
	for _, h := range unseen {
		q.recent.remove(h)
	}
	delete(q.leases, l.site)
	q.stats.Completed++
	return nil
}

// endLease checks that l is outstanding and starts the batch that ends it
// by deleting its in-flight record. Called with q.mu held.
func (q *Queue) endLease(l *Lease) (*txn, error) {
	if q.db == nil {
		return nil, ErrClosed
	}
	if q.leases[l.site] != l {
		return nil, fmt.Errorf("%w: %s", ErrUnknownLease, l.Entry.URL)
	}
	t := q.begin()
	t.b.Delete(siteKey(tInflight, l.site))
	return t, nil
}

// Return puts a leased entry back in its site queue at its original place,
// which is the head unless more urgent entries arrived meanwhile; use it to
// drain leases on shutdown or to retry later. The site becomes eligible
// again at notBefore.
func (q *Queue) Return(l *Lease, notBefore time.Time) error {
	if l == nil {
		return fmt.Errorf("%w: nil", ErrUnknownLease)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	t, err := q.endLease(l)
	if err != nil {
		return err
	}
	t.b.Put(append(queuePrefix(l.site), l.suffix[:]...), l.value)
	d := t.delta(l.site)
	d.unlease = true
	d.setNB, d.notBefore = true, unixNano(notBefore)
	d.pending++
	d.lower(l.suffix[:])
	if Priority(l.suffix[0]) == High {
		d.high++
	}
	if err := t.commit(); err != nil {
		return fmt.Errorf("frontier: return %s: %w", l.Entry.URL, err)
	}
	delete(q.leases, l.site)
	if s := q.sites[l.site]; s != nil {
		s.passed = true // not served: it keeps its place among ties
	}
	q.stats.Returned++
	return nil
}

// dropChunk bounds the size of one DropSite batch.
const dropChunk = 4096

// DropSite removes the queued entries of site, e.g. when its server turned
// irrelevant, and returns how many it removed. keep, when not nil, spares
// the entries it returns true for (the engine keeps the requisites of
// relevant pages, which a relevant page needs to replay). The removed URLs
// stay in the seen set, so they are not queued again. A lease outstanding
// for the site is not affected. Large sites are removed in several writes;
// each write keeps the store consistent. each, when not nil, is called with
// every entry to remove before the write that removes it (the engine logs
// each dropped URL), so a crash never removes an entry it was not called
// for; an error from it stops DropSite before that write.
func (q *Queue) DropSite(site string, keep func(Entry) bool, each func(Entry) error) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return 0, ErrClosed
	}
	s := q.sites[site]
	if s == nil || s.pending == 0 {
		return 0, nil
	}
	prefix := queuePrefix(site)
	rng := util.BytesPrefix(prefix)
	total := 0
	var kept, keptHigh int64
	var lastKey []byte
	for {
		t := q.begin()
		d := t.delta(site)
		it := q.db.NewIterator(rng, nil)
		n, seen := 0, 0
		for seen < dropChunk && it.Next() {
			seen++
			k := it.Key()
			high := len(k) == len(prefix)+keySuffixLen && Priority(k[len(prefix)]) == High
			if keep != nil || each != nil {
				// An entry that does not decode is not kept: it is
				// dropped, unless each must see it (then, as before,
				// the drop stops with the error).
				e, err := decodeEntry(it.Value(), site)
				if err != nil && each == nil {
					err = nil
				} else if err == nil && keep != nil && keep(e) {
					kept++
					if high {
						keptHigh++
					}
					lastKey = append(lastKey[:0], k...)
					continue
				}
				if err == nil && each != nil {
					err = each(e)
				}
				if err != nil {
					it.Release()
					return total, fmt.Errorf("frontier: drop site %s: %w", site, err)
				}
			}
			if high {
				d.high--
			}
			d.pending--
			t.b.Delete(k)
			lastKey = append(lastKey[:0], k...)
			n++
		}
		it.Release()
		if err := it.Error(); err != nil {
			return total, fmt.Errorf("frontier: drop site %s: %w", site, dbErr(err))
		}
		if lastKey != nil {
			rng.Start = append(append([]byte(nil), lastKey...), 0) // the next chunk starts after it
		}
		last := seen < dropChunk
		if last {
			// Last chunk: whatever the record said, the site now holds
			// the entries kept.
			d.pending, d.high = kept-s.pending, keptHigh-s.high
		}
		if n > 0 || (last && (s.pending != kept || s.high != keptHigh)) {
			if err := t.commit(); err != nil {
				return total, fmt.Errorf("frontier: drop site %s: %w", site, err)
			}
		}
		total += n
		q.stats.Dropped += int64(n)
		if last {
			if kept == 0 {
				s.floor = maxFloor
			}
			return total, nil
		}
	}
}

// Counts returns the focus counters stored under key; zero if never bumped.
func (q *Queue) Counts(key string) (Counts, error) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return Counts{}, ErrClosed
	}
	c, err := q.counts(key)
	if err != nil {
		return Counts{}, fmt.Errorf("frontier: counts %s: %w", key, err)
	}
	return c, nil
}

func (q *Queue) counts(key string) (Counts, error) {
	v, err := q.db.Get(siteKey(tCount, key), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return Counts{}, nil
	}
	if err != nil {
		return Counts{}, dbErr(err)
	}
	return decodeCounts(v)
}

// SetFlags stores a budget count of 1 under each key that has none (a
// flag, which BudgetCount reads as 1; a count already there is kept). Like
// the other budget counts, a new generation forgets them.
func (q *Queue) SetFlags(keys []string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return ErrClosed
	}
	b := new(leveldb.Batch)
	for _, k := range keys {
		ok, err := q.db.Has(siteKey(tBudget, k), nil)
		if err != nil {
			return fmt.Errorf("frontier: set flag %s: %w", k, dbErr(err))
		}
		if !ok {
			b.Put(siteKey(tBudget, k), binary.AppendVarint(nil, 1))
		}
	}
	if b.Len() == 0 {
		return nil
	}
	if err := q.db.Write(b, q.wo); err != nil {
		return fmt.Errorf("frontier: set flags: %w", dbErr(err))
	}
	return nil
}

// BudgetCount returns the budget count of key (Completion.Budgets) in this
// generation; zero if never bumped.
func (q *Queue) BudgetCount(key string) (int64, error) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return 0, ErrClosed
	}
	n, err := q.budgetCount(key)
	if err != nil {
		return 0, fmt.Errorf("frontier: budget count %s: %w", key, err)
	}
	return n, nil
}

func (q *Queue) budgetCount(key string) (int64, error) {
	v, err := q.db.Get(siteKey(tBudget, key), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, dbErr(err)
	}
	n, k := binary.Varint(v)
	if k <= 0 {
		return 0, fmt.Errorf("%w: budget count of %d bytes", ErrCorrupt, len(v))
	}
	return n, nil
}

// History returns the fetch history stored for url and whether there is one.
func (q *Queue) History(url string) (History, bool, error) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.db == nil {
		return History{}, false, ErrClosed
	}
	v, err := q.db.Get(hashKey(tHistory, hashURL(url)), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return History{}, false, nil
	}
	if err != nil {
		return History{}, false, fmt.Errorf("frontier: history %s: %w", url, dbErr(err))
	}
	h, err := decodeHistory(v)
	if err != nil {
		return History{}, false, fmt.Errorf("frontier: history %s: %w", url, err)
	}
	return h, true, nil
}

// SetHistory stores h as the fetch history of url, for URLs fetched outside
// a lease (e.g. redirect targets or robots.txt) or taken from an earlier
// crawl, and records its capture under its payload digest as Complete
// does with IndexDigest.
func (q *Queue) SetHistory(url string, h History) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return ErrClosed
	}
	t := q.begin()
	t.b.Put(hashKey(tHistory, hashURL(url)), encodeHistory(&h))
	if err := t.indexCapture(&h); err != nil {
		return fmt.Errorf("frontier: set history %s: %w", url, err)
	}
	if err := q.db.Write(t.b, q.wo); err != nil {
		return fmt.Errorf("frontier: set history %s: %w", url, dbErr(err))
	}
	return nil
}

// Stats returns a snapshot of the queue. It works after Close too.
func (q *Queue) Stats() Stats {
	q.mu.RLock()
	defer q.mu.RUnlock()
	st := q.stats
	st.Queued = q.queued
	st.InFlight = int64(len(q.leases))
	st.Sites = q.active
	st.Ready = int64(len(q.ready.s))
	st.Known = int64(len(q.sites))
	st.Seen = q.meta.seen
	st.Pages = q.meta.pages
	st.Usage = q.meta.usage
	st.Generation = max(q.meta.gen, 1)
	st.GenerationPending = q.meta.genPending
	return st
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// AddUsage adds u to the job's totals (Stats.Usage) outside a completion:
// the running time of a run that ends with no URL completed since its
// last one (a crawl paused or waiting until it was stopped), which would
// otherwise not be kept.
func (q *Queue) AddUsage(u Usage) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.db == nil {
		return ErrClosed
	}
	t := q.begin()
	t.meta.usage.add(u)
	t.dirty = true
	if err := t.commit(); err != nil {
		return fmt.Errorf("frontier: usage: %w", err)
	}
	return nil
}
