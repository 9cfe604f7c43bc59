package main

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

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
		n, done, err := importHistory(q, prev)
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
		n, again, err := importOnce(q, f, func(path string) (int, error) { return importDedupIndex(c, path) })
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

// importHistory copies the fetch history of the crawl in dir into q, once,
// reading dir's frontier read-only (frontier.ReadHistory: an earlier
// crawl is left as it was). The import is marked done in q when it is
// whole; until then each start takes it up again, so a kill part way
// loses none of it. A URL q knows already (copied before the kill, or
// crawled since in a frontier of an older version, which marked nothing)
// keeps its own history. It returns how many captures it copied and
// whether an earlier start had copied them all.
func importHistory(q *frontier.Queue, dir string) (n int, done bool, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return 0, false, fmt.Errorf("recrawl.previous: %w", err)
	}
	mark := "previous " + abs
	if done, err := q.Imported(mark); err != nil || done {
		return 0, done, err
	}
	var missing warcsMissing
	err = frontier.ReadHistory(filepath.Join(abs, frontierDir), func(h frontier.History) error {
		if _, known, err := q.History(h.URL); err != nil || known {
			return err
		}
		n++
		h.LegacyHops() // stored anew, the record would say nothing of that
		if h.File != "" && missing.gone(filepath.Join(abs, warcDir), h.File) {
			// Its capture's WARC file is not in DIR/warcs: a revisit
			// would name a record that exists nowhere, and a 304 would
			// let it stand for the page (a review). The URL stays known
			// and due; it is fetched in full, unconditionally.
			h.Digest, h.RecordID, h.File, h.Offset = "", "", "", 0
			h.ETag, h.LastModified = "", ""
		}
		return q.SetHistory(h.URL, h)
	})
	if errors.Is(err, frontier.ErrNoFrontier) {
		return 0, false, fmt.Errorf("%w: recrawl.previous (--previous) %s: not a langcrawl crawl (no %s/ in it)", errUsage, dir, frontierDir)
	}
	if err != nil {
		return n, false, fmt.Errorf("recrawl.previous %s: %w", dir, err)
	}
	if err := q.MarkImported(mark); err != nil {
		return n, false, err
	}
	return n, false, missing.err(dir)
}

// warcsMissing is importHistory's account of the WARC files its captures
// name that DIR/warcs does not hold.
type warcsMissing struct {
	checked  map[string]bool // base name: gone
	files    []string        // the gone ones, in the order met
	captures int
}

// gone reports whether the WARC file named by a capture (its path when
// written, which the crawl may since have moved) is missing from warcs,
// and counts the capture.
func (m *warcsMissing) gone(warcs, file string) bool {
	base := filepath.Base(file)
	g, ok := m.checked[base]
	if !ok {
		fi, err := os.Stat(filepath.Join(warcs, base))
		g = err != nil || fi.Size() == 0
		if m.checked == nil {
			m.checked = make(map[string]bool)
		}
		m.checked[base] = g
		if g {
			m.files = append(m.files, base)
		}
	}
	if g {
		m.captures++
	}
	return g
}

// errWARCsMissing is importHistory's warning that some captures' WARC
// files were missing; the import is whole all the same.
var errWARCsMissing = errors.New("WARC files missing")

// err is nil when no file was missing, else a warning naming them.
func (m *warcsMissing) err(dir string) error {
	if m.captures == 0 {
		return nil
	}
	names := m.files
	more := ""
	if len(names) > 5 {
		names, more = names[:5], fmt.Sprintf(" and %d more", len(m.files)-5)
	}
	return fmt.Errorf("%w: recrawl.previous %s: %d captures are in WARC files no longer in %s (%s%s): their URLs are fetched in full, not as revisits of records that exist nowhere",
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
