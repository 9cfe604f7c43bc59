package crawl

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/langcrawl/langcrawl/frontier"
)

// Syncable is a store whose writes Sync makes durable: archive.Writer,
// frontier.Queue and CrawlLog.
type Syncable interface {
	Sync() error
}

// DefaultSyncInterval is how much completed work a power failure may cost
// at most when SyncConfig.Interval is left at zero and Every is false.
const DefaultSyncInterval = time.Second

// SyncConfig configures a Syncer.
type SyncConfig struct {
	// Interval between group commits. Default DefaultSyncInterval (1s).
	Interval time.Duration
	// Every syncs at every completion instead: the WARC file before the
	// frontier records the URL complete, the journal after. Slow (two
	// fsyncs a URL) and exact: a power failure loses no completed URL.
	Every bool
}

// Syncer is the crawl's group commit, the part of the crash contract that
// covers power failures (see the package documentation). Every Interval,
// Sync fsyncs the WARC file, then the frontier's journal, then crawl.log;
// while the first two run, the completions of leases wait. A URL that the
// frontier holds as complete after a power failure therefore had its WARC
// records fsynced first.
//
// Wrap the queue the engine uses with Queue, then call Run in its own
// goroutine: NewSyncer starts nothing. Safe for concurrent use.
type Syncer struct {
	cfg     SyncConfig
	archive Syncable
	queue   Syncable
	log     Syncable // may be nil

	// gate is held shared by each Complete, exclusive by a sync: no
	// completion can slip in between the archive's fsync and the
	// journal's, which would make it durable before its records.
	gate sync.RWMutex
}

// NewSyncer returns a Syncer of the archive, the queue and the crawl log
// (nil for none). It starts no goroutine.
func NewSyncer(cfg SyncConfig, archive, queue, log Syncable) (*Syncer, error) {
	if archive == nil || queue == nil {
		return nil, errors.New("crawl: NewSyncer needs the archive and the queue")
	}
	if cfg.Interval < 0 {
		return nil, fmt.Errorf("crawl: sync interval %s is negative", cfg.Interval)
	}
	if cfg.Interval == 0 {
		cfg.Interval = DefaultSyncInterval
	}
	if l, ok := log.(*CrawlLog); ok && l == nil {
		log = nil // a nil *CrawlLog is no log
	}
	return &Syncer{cfg: cfg, archive: archive, queue: queue, log: log}, nil
}

// Queue returns q with its Complete calls ordered against the syncs. Pass
// it to the engine in place of q.
func (s *Syncer) Queue(q Queue) Queue { return &syncedQueue{Queue: q, s: s} }

type syncedQueue struct {
	Queue
	s *Syncer
}

func (sq *syncedQueue) Complete(l *frontier.Lease, c frontier.Completion) error {
	if !sq.s.cfg.Every {
		sq.s.gate.RLock()
		defer sq.s.gate.RUnlock()
		return sq.Queue.Complete(l, c)
	}
	// The records of l were written before Complete was called: fsync them
	// before the frontier may record the URL complete, then the journal.
	if err := sq.s.archive.Sync(); err != nil {
		return fmt.Errorf("sync before completing %s: %w", l.Entry.URL, err)
	}
	if err := sq.Queue.Complete(l, c); err != nil {
		return err
	}
	if err := sq.s.queue.Sync(); err != nil {
		return fmt.Errorf("sync after completing %s: %w", l.Entry.URL, err)
	}
	return nil
}

// Sync makes durable every record written and every lease completed so
// far: the WARC file first, then the frontier, then crawl.log.
func (s *Syncer) Sync() error {
	s.gate.Lock()
	err := s.archive.Sync()
	if err == nil {
		err = s.queue.Sync()
	}
	s.gate.Unlock()
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	if s.log != nil {
		if err := s.log.Sync(); err != nil {
			return fmt.Errorf("sync: %w", err)
		}
	}
	return nil
}

// Run syncs every Interval until ctx is done, then once more, and returns
// nil; or it returns the first error, at once. Run it while the crawl runs
// and let it return before closing the archive, the log and the queue.
func (s *Syncer) Run(ctx context.Context) error {
	if s.cfg.Every {
		<-ctx.Done()
		return s.Sync()
	}
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return s.Sync()
		case <-t.C:
			if err := s.Sync(); err != nil {
				return err
			}
		}
	}
}

// RecoveredSites passes on the frontier's RecoveredSites, if it has them
// (Crawler.holdRecovered).
func (q *syncedQueue) RecoveredSites() []string {
	if r, ok := q.Queue.(interface{ RecoveredSites() []string }); ok {
		return r.RecoveredSites()
	}
	return nil
}
