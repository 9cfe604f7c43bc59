package main

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/frontier"
)

// startGeneration makes a run on a finished crawl an incremental re-crawl:
// with recrawl.previous (--previous DIR) it first takes the fetch history
// of the crawl in DIR into a new output directory; then, if the frontier
// holds a finished crawl, or a new generation that a crash cut short, it
// starts the next generation, queueing the known URLs that are due. A
// crawl whose last run was cut short (cutShort: a kill during the stop of
// a run that had emptied its queue) is not finished: this run closes it,
// and the next starts the new generation. It returns the generation the
// run crawls, and whether this run started it.
func startGeneration(c *crawl.Crawler, q *frontier.Queue, cfg *config.Config, stderr io.Writer, log *slog.Logger, cutShort bool) (gen int64, started bool, err error) {
	if prev := cfg.Recrawl.Previous; prev != "" {
		n, done, err := importHistory(q, prev, cfg.AcceptFrontierDamage)
		if errors.Is(err, errWARCsMissing) {
			fmt.Fprintf(stderr, "warning: %v\n", err)
			log.Warn("previous crawl's WARC files missing", "err", err)
			err = nil
		}
		if err != nil {
			return 0, false, err
		}
		if !done {
			fmt.Fprintf(stderr, "re-crawl from %s: %d captures known\n", prev, n)
			log.Info("history imported", "from", prev, "urls", n)
		}
	}
	for _, f := range cfg.Recrawl.DedupIndex {
		var skipped error
		n, again, err := importOnce(q, f, func(path string) (int, error) {
			n, err := importDedupIndex(c, path)
			if errors.Is(err, crawl.ErrDedupLinesSkipped) {
				skipped, err = err, nil
			}
			return n, err
		})
		if skipped != nil {
			fmt.Fprintf(stderr, "warning: %v\n", skipped)
			log.Warn("dedup index lines skipped", "err", skipped)
		}
		switch {
		case err != nil:
			return 0, false, err
		case again:
			log.Info("dedup index already imported, unchanged", "file", f)
		case n > 0:
			fmt.Fprintf(stderr, "deduplication history from %s: %d payloads\n", f, n)
			log.Info("dedup index imported", "file", f, "digests", n)
		}
	}
	st := q.Stats()
	finished, err := q.Finished()
	if err != nil {
		return 0, false, err
	}
	if !finished && !st.GenerationPending {
		return st.Generation, false, nil
	}
	if cutShort && !st.GenerationPending {
		// Before, the run after a kill at the very end re-crawled the
		// whole web (the crash trial): the operator meant to resume.
		fmt.Fprintf(stderr, "the crawl in %s had fetched every URL when its last run was cut short (a kill, a crash, a second Ctrl-C) before it closed; "+
			"this run closes it, and the next run starts generation %d\n", cfg.Out, st.Generation+1)
		log.Info("last run cut short after its queue emptied: closing, no new generation", "generation", st.Generation)
		return st.Generation, false, nil
	}
	gen, n, err := c.Recrawl(cfg.Recrawl.Interval, recrawlIntervals(cfg.Hosts), time.Now())
	if err != nil {
		return 0, false, err
	}
	fmt.Fprintf(stderr, "generation %d of the crawl in %s: %d known URLs due again (recrawl.interval %s)\n",
		gen, cfg.Out, n, cfg.Recrawl.Interval)
	if past := c.PastDepth(); past > 0 {
		fmt.Fprintf(stderr, "  %d known URLs past the depth limit in force are not queued again: a link nearer their seed queues them at their depth now\n", past)
		log.Info("known URLs past the depth limit not queued again", "generation", gen, "urls", past)
	}
	if cfg.Focus.Language != "" {
		// The server verdicts carry over: said, or a curator counting
		// the due URLs against those fetched reads the gap as lost.
		// A crawl begun with --previous takes the history only: it
		// judges every server again, and has nothing to re-check.
		switch {
		case cfg.Recrawl.Previous != "":
			fmt.Fprintf(stderr, "  the server verdicts of %s are not taken: every server is judged again\n", cfg.Recrawl.Previous)
		case cfg.Recrawl.RecheckIrrelevant:
			fmt.Fprintln(stderr, "  each server the earlier generations judged irrelevant is re-checked: a page of it fetched again, up to three tries (focus:recheck in crawl.log); "+
				"its other URLs are skipped (-5003) unless that page, or a later one, turns it relevant; the summary counts them")
		default:
			fmt.Fprintln(stderr, "  those on servers the earlier generations judged irrelevant are skipped (-5003) (recrawl.recheck_irrelevant is false); the summary counts them")
		}
	}
	log.Info("new generation", "generation", gen, "due", n)
	return gen, true, nil
}

// markProfile records the profile generation gen crawls with and tells
// the crawler whether the generation before crawled with the same one
// (frontier.Queue.MarkProfile, crawl.Crawler.SameProfile): the profile as
// `langcrawl config` renders it, hashed. Then a 304 follows no link of
// the capture it stands for, whose links were decided under the same
// rules; after an edit (a depth limit raised, an exclusion lifted) it
// does, so that what the older profile left out is found.
//
// The exclusions in force count as the profile's: the operator's
// (control.json, the action directory read at start) decide links as
// the profile's do, and one lifted between generations must have the
// captures read as an edited profile does (a review of the last commits).
// excludes is the filter's rules once the start's steering is applied.
func markProfile(c *crawl.Crawler, q *frontier.Queue, cfg *config.Config, excludes []string, gen int64, log *slog.Logger) error {
	ex := slices.Clone(excludes)
	slices.Sort(ex)
	sum := sha256.Sum256([]byte(cfg.YAML() + "\n# exclusions in force:\n" + strings.Join(ex, "\n")))
	fp := hex.EncodeToString(sum[:])
	prev, known, mixed, err := q.MarkProfile(gen, fp)
	if err != nil {
		return err
	}
	// A first generation not begun from --previous queued nothing it did
	// not decide itself, under this profile unless a run of it was
	// resumed after an edit: its leases need no second scope decision
	// (4 to 5 µs each). A later one is the same as the generation before,
	// or it is not.
	same := !mixed && (gen == 1 && cfg.Recrawl.Previous == "" || known && prev == fp)
	c.SameProfile(same)
	if gen > 1 {
		log.Info("profile against the generation before", "generation", gen, "same", same, "known", known)
	}
	return nil
}

// refocus drops the server verdicts of an earlier run in cfg.Out whose
// focus.language differs from this run's (frontier.Queue.Refocus): N_r
// counted pages of the other target, so a server full of them stayed
// relevant and was crawled whole under the new one, and a server of the
// new target judged irrelevant stayed so until a re-check. Every server
// is judged again, and the start says so.
func refocus(q *frontier.Queue, cfg *config.Config, stderr io.Writer, log *slog.Logger) error {
	langs := slices.Clone(cfg.Focus.Languages())
	slices.Sort(langs)
	target := strings.Join(langs, ",")
	prev, changed, n, err := q.Refocus(target)
	if err != nil || !changed {
		return err
	}
	was, now := prev, target
	if was == "" {
		was = "none"
	}
	if now == "" {
		now = "none"
	}
	fmt.Fprintf(stderr, "warning: focus.language changed from %s to %s since the last run in %s: the server verdicts made for %s are dropped (%d counters), and every server is judged again; "+
		"the URLs they dropped in this generation are not queued again (start a new generation, or a new --out with --previous, to have them)\n", was, now, cfg.Out, was, n)
	log.Warn("focus target changed: server verdicts dropped", "from", was, "to", now, "counters", n)
	return nil
}

// importHistory copies the fetch history of the crawl in dir into q, once,
// reading dir's frontier read-only (frontier.ReadHistory: an earlier
// crawl is left as it was). The import is marked done in q when it is
// whole; until then each start takes it up again, so a kill part way
// loses none of it. A URL q knows already (copied before the kill, or
// crawled since in a frontier of an older version, which marked nothing)
// keeps its own history. It returns how many captures it copied and
// whether an earlier start had copied them all.
func importHistory(q *frontier.Queue, dir string, acceptDamage bool) (n int, done bool, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return 0, false, fmt.Errorf("recrawl.previous: %w", err)
	}
	mark := "previous " + abs
	if done, err := q.Imported(mark); err != nil || done {
		return 0, done, err
	}
	// Two passes: the first finds where each capture's WARC file is and
	// whether the capture nearest its end reads whole; the second copies.
	// A history once copied may have brought its capture along into the
	// deduplication history too, so a capture must be judged before it
	// is copied, not mended after (a review's test found a revisit of a
	// cut record written so).
	prevFrontier := filepath.Join(abs, frontierDir)
	missing := warcsMissing{warcs: filepath.Join(abs, warcDir)}
	err = frontier.ReadHistory(prevFrontier, acceptDamage, func(h frontier.History) error {
		if h.File != "" {
			missing.see(h)
		}
		return nil
	})
	if err == nil {
		missing.checkEnds()
		err = frontier.ReadHistory(prevFrontier, acceptDamage, func(h frontier.History) error {
			stored, known, err := q.History(h.URL)
			if err != nil {
				return err
			}
			if known {
				// Copied before a kill, or crawled since: kept as it is,
				// unless it is this capture, copied before the kill with
				// the capture nearest a cut, which is judged only now.
				if h.File != "" && missing.gone(h) && stored.RecordID != "" &&
					filepath.Base(stored.File) == filepath.Base(h.File) && stored.Offset == h.Offset {
					noCapture(&stored)
					return q.SetHistory(h.URL, stored)
				}
				return nil
			}
			n++
			h.LegacyHops() // stored anew, the record would say nothing of that
			if h.File != "" && missing.gone(h) {
				// Its capture is in no WARC file at hand: a revisit
				// would name a record that exists nowhere, and a 304
				// would let it stand for the page (a review). The URL
				// stays known and due; it is fetched in full.
				noCapture(&h)
			}
			return q.SetHistory(h.URL, h)
		})
	}
	if errors.Is(err, frontier.ErrNoFrontier) {
		return 0, false, fmt.Errorf("%w: recrawl.previous (--previous) %s: not a langcrawl crawl (no %s/ in it)", errUsage, dir, frontierDir)
	}
	if errors.Is(err, frontier.ErrDamaged) {
		return n, false, fmt.Errorf("recrawl.previous %s: %w: restore its %s/ from a backup, or run again with --accept-frontier-damage to take its history without those records (their URLs are then unknown to the re-crawl)", dir, err, frontierDir)
	}
	if err != nil {
		return n, false, fmt.Errorf("recrawl.previous %s: %w", dir, err)
	}
	if err := q.MarkImported(mark); err != nil {
		return n, false, err
	}
	return n, false, missing.err(dir)
}

// noCapture makes h name no capture: its URL is fetched in full, with no
// conditional request and no revisit.
func noCapture(h *frontier.History) {
	h.Digest, h.RecordID, h.File, h.Offset = "", "", "", 0
	h.ETag, h.LastModified = "", ""
}

// warcsMissing is importHistory's account of the WARC files its captures
// name: where each is (the path the capture was written to, which holds
// for a capture a revisit carried over from an older crawl of a chain,
// else the previous crawl's own warcs/ by base name), its size, and which
// are gone or cut short.
type warcsMissing struct {
	warcs string                // the previous crawl's warcs/
	files map[string]warcAtHand // base name: where the file is, and its size
	last  map[string]lastRecord // base name: the capture nearest its end
	cut   map[string]bool       // base name: cut short (named once)
	named []string              // the gone ones, in the order met
	// captures counts the captures gone: in a missing file, or in the cut
	// part of one cut short.
	captures int
}

// warcAtHand is where a WARC file a capture names was found, and its
// size; size -1 when nowhere.
type warcAtHand struct {
	path string
	size int64
}

// lastRecord is the capture of url at offset in the WARC file base; cut
// when its record does not read whole.
type lastRecord struct {
	base   string
	offset int64
	url    string
	cut    bool
}

// see looks for the WARC file the capture of h names, once a file, and
// keeps the capture nearest its end. A file is looked for where the
// capture was written (a capture a revisit carried over from an older
// crawl of a chain is there), then in the previous crawl's warcs/, closed
// or still ".open" (a crawl killed and not resumed).
func (m *warcsMissing) see(h frontier.History) {
	base := filepath.Base(h.File)
	at, ok := m.files[base]
	if !ok {
		at = warcAtHand{size: -1}
		for _, p := range []string{h.File, filepath.Join(m.warcs, base), filepath.Join(m.warcs, base+".open")} {
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
				at = warcAtHand{path: p, size: fi.Size()}
				break
			}
		}
		if m.files == nil {
			m.files, m.last, m.cut = make(map[string]warcAtHand), make(map[string]lastRecord), make(map[string]bool)
		}
		m.files[base] = at
		if at.size < 0 {
			m.named = append(m.named, base)
		}
	}
	if at.size < 0 {
		return
	}
	if h.Offset >= at.size {
		m.cutShort(base)
	} else if l, ok := m.last[base]; !ok || h.Offset >= l.offset {
		m.last[base] = lastRecord{base: base, offset: h.Offset, url: h.URL}
	}
}

// checkEnds reads, for each file found, the record of the capture
// nearest its end: a file cut inside it is cut short too, and that
// capture is gone. One record is read a file.
func (m *warcsMissing) checkEnds() {
	for base, l := range m.last {
		if !recordWhole(m.files[base].path, l.offset) {
			m.cutShort(base)
			l.cut = true
			m.last[base] = l
		}
	}
}

// gone reports whether the capture of h is in no WARC file at hand: its
// file is missing, ends before the capture starts (a copy cut short), or
// ends inside it; and counts it.
func (m *warcsMissing) gone(h frontier.History) bool {
	base := filepath.Base(h.File)
	at := m.files[base]
	l := m.last[base]
	if at.size < 0 || h.Offset >= at.size || (l.cut && l.offset == h.Offset && l.url == h.URL) {
		m.captures++
		return true
	}
	return false
}

// cutShort records that the file base is cut short.
func (m *warcsMissing) cutShort(base string) {
	if !m.cut[base] {
		m.cut[base] = true
		m.named = append(m.named, base+" (cut short)")
	}
}

// recordWhole reports whether a whole record starts at off in the WARC
// file at path (a gzip member read to its checksum).
func recordWhole(path string, off int64) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || off >= fi.Size() {
		return false
	}
	whole := false
	err = archive.Scan(io.NewSectionReader(f, off, fi.Size()-off), filepath.Base(path), 0, func(archive.Record, []byte) error {
		whole = true
		return errStop // the first record read whole: enough
	})
	return whole && (err == nil || errors.Is(err, errStop))
}

// errWARCsMissing is importHistory's warning that some captures' WARC
// files were missing; the import is whole all the same.
var errWARCsMissing = errors.New("WARC files missing")

// err is nil when no file was missing, else a warning naming them.
func (m *warcsMissing) err(dir string) error {
	if m.captures == 0 {
		return nil
	}
	names := m.named
	more := ""
	if len(names) > 5 {
		names, more = names[:5], fmt.Sprintf(" and %d more", len(m.named)-5)
	}
	return fmt.Errorf("%w: recrawl.previous %s: %d captures are in WARC files missing or cut short in %s (%s%s): their URLs are fetched in full, not as revisits of records that exist nowhere",
		errWARCsMissing, dir, m.captures, filepath.Join(dir, warcDir), strings.Join(names, ", "), more)
}

var errStop = fmt.Errorf("stop")

// importDedupIndex reads one CDXJ file (gzipped if its name ends in .gz)
// into the crawl's deduplication history.
func importDedupIndex(c *crawl.Crawler, path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("recrawl.dedup_index: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		// The gzip checksum is read at the end of the stream, after the
		// lines have gone into the frontier, where a capture once added
		// is never replaced: a damaged copy would leave its damaged
		// URLs for good (a review). Read it through once first.
		if err := checkGzip(f); err != nil {
			return 0, fmt.Errorf("recrawl.dedup_index %s: %w (nothing imported)", path, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return 0, fmt.Errorf("recrawl.dedup_index %s: %w", path, err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			return 0, fmt.Errorf("recrawl.dedup_index %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	n, err := c.ImportDedupIndex(r, path)
	if err != nil {
		return n, fmt.Errorf("recrawl.dedup_index: %w", err)
	}
	return n, nil
}

// checkGzip reads the gzip stream of r to its end, checking every
// member's checksum.
func checkGzip(r io.Reader) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, zr)
	return errors.Join(err, zr.Close())
}

// importMarks remembers which imports a frontier has done
// (frontier.Queue.Imported, MarkImported).
type importMarks interface {
	Imported(name string) (bool, error)
	MarkImported(name string) error
}

// importOnce runs load on the file at path unless the frontier already
// imported it as it is now (same absolute path, size and modification
// time): a dedup index of a large earlier crawl, tens of millions of
// lines, is read at the first start, not again at every resume. It
// reports done when it skipped the file for that reason.
func importOnce(marks importMarks, path string, load func(string) (int, error)) (n int, done bool, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, false, fmt.Errorf("recrawl.dedup_index: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return 0, false, fmt.Errorf("recrawl.dedup_index: %w", err)
	}
	name := fmt.Sprintf("dedup-index %s %d %d", abs, st.Size(), st.ModTime().UnixNano())
	if done, err := marks.Imported(name); err != nil || done {
		return 0, done, err
	}
	if n, err = load(path); err != nil {
		return n, false, err
	}
	return n, false, marks.MarkImported(name)
}

// recrawlIntervals picks the per-host re-crawl intervals out of the
// profile's host overrides.
func recrawlIntervals(hosts map[string]config.HostRules) map[string]time.Duration {
	m := map[string]time.Duration{}
	for h, r := range hosts {
		if r.RecrawlInterval != nil {
			m[h] = *r.RecrawlInterval
		}
	}
	return m
}
