package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/scope"
)

// seedBatch is how many seeds of a seeds file are queued in one write.
const seedBatch = 10_000

// seedAll queues the seeds of cfg, reporting nothing (see seeder).
func seedAll(c *crawl.Crawler, cfg *config.Config) (int, error) {
	return (&seeder{c: c, cfg: cfg}).run()
}

// seeder queues the profile's seeds (and --seed's) and then streams the
// seeds file, a batch at a time, so that a file of millions of seeds costs
// one batch of memory.
//
// A bad seed is an error naming it, and in the seeds file its FILE:LINE.
// By default every bad seed of the file (up to 20) is listed
// before anything of it is queued, so a typo does not start half a crawl.
// With cfg.SkipBadSeeds (--skip-bad-seeds) each bad seed is reported on
// stderr and in langcrawl.log, and the crawl goes on without it.
//
// Seeds given without a scheme get http://; one notice on stderr says so.
type seeder struct {
	c   *crawl.Crawler
	cfg *config.Config
	// stderr gets the notice and the skipped seeds; nil: nothing.
	stderr io.Writer
	// log gets the skipped seeds; nil: nothing.
	log *slog.Logger

	// checked: runCrawl has checked the seeds file already (config.CheckSeedsFile),
	// so seedFile only queues it.
	checked bool

	bare      int    // seeds that got http://
	firstBare string // the first of them, with its FILE:LINE if any
	skipped   int
	good      int
}

// run queues the seeds and returns how many were new.
func (s *seeder) run() (int, error) {
	s.bare = len(s.cfg.AssumedHTTP)
	if s.bare > 0 {
		s.firstBare = s.cfg.AssumedHTTP[0]
	}
	n, err := s.seedListed()
	if err == nil && s.cfg.SeedsFile != "" {
		var m int
		if s.cfg.SkipBadSeeds {
			m, err = s.seedFileSkipping()
		} else {
			m, err = s.seedFile()
		}
		n += m
	}
	s.notice()
	if err == nil && s.skipped > 0 && s.good == 0 {
		err = fmt.Errorf("no good seeds: all %d were bad", s.skipped)
	}
	return n, err
}

// seedListed queues cfg.Seeds.
func (s *seeder) seedListed() (int, error) {
	if !s.cfg.SkipBadSeeds {
		s.good += len(s.cfg.Seeds)
		return s.c.Seed(s.cfg.Seeds)
	}
	good := make([]string, 0, len(s.cfg.Seeds))
	for _, u := range s.cfg.Seeds {
		if _, err := scope.Canonicalize(u); err != nil {
			where := "seeds"
			if s.cfg.ProfilePath != "" {
				where = s.cfg.ProfilePath + ": seeds"
			}
			s.skip(fmt.Errorf("%s: seed %q: %w", where, u, scope.Why(err)))
			continue
		}
		good = append(good, u)
	}
	s.good += len(good)
	return s.c.Seed(good)
}

// seedFile checks every line of the seeds file, then queues them.
func (s *seeder) seedFile() (int, error) {
	if !s.checked {
		if err := config.CheckSeedsFile(s.cfg.SeedsFile); err != nil {
			return 0, err
		}
	}
	return s.queueFile(func(int, string, string) bool { return true })
}

// seedFileSkipping queues the good lines of the seeds file in one pass,
// reporting each bad one.
func (s *seeder) seedFileSkipping() (int, error) {
	return s.queueFile(func(line int, raw, u string) bool {
		if err := config.CheckSeed(u); err != nil {
			s.skip(fmt.Errorf("%s:%d: seed %q: %w", s.cfg.SeedsFile, line, raw, scope.Why(err)))
			return false
		}
		return true
	})
}

// queueFile streams the seeds file into the frontier in batches, keeping
// the lines ok accepts.
func (s *seeder) queueFile(ok func(line int, raw, u string) bool) (int, error) {
	n := 0
	batch := make([]string, 0, seedBatch)
	flush := func() error {
		m, err := s.c.Seed(batch)
		n += m
		batch = batch[:0]
		return err
	}
	err := config.EachSeedLine(s.cfg.SeedsFile, func(line int, raw, u string) error {
		if !ok(line, raw, u) {
			return nil
		}
		s.good++
		if raw != u && s.bare == 0 {
			s.firstBare = fmt.Sprintf("%s (%s:%d)", raw, s.cfg.SeedsFile, line)
		}
		if raw != u {
			s.bare++
		}
		batch = append(batch, u)
		if len(batch) == seedBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	return n, err
}

// skip reports a bad seed that the crawl goes on without.
func (s *seeder) skip(err error) {
	s.skipped++
	if s.stderr != nil {
		fmt.Fprintf(s.stderr, "skipping bad seed: %v\n", err)
	}
	if s.log != nil {
		s.log.Warn("bad seed skipped", "err", err)
	}
}

// notice says, once, that seeds without a scheme got http://.
func (s *seeder) notice() {
	if s.bare == 0 || s.stderr == nil {
		return
	}
	what := "a seed was"
	if s.bare > 1 {
		what = fmt.Sprintf("%d seeds were", s.bare)
	}
	fmt.Fprintf(s.stderr, "note: %s given without a scheme and crawled with http:// (first: %s); write https:// where a site needs it\n",
		what, s.firstBare)
}

// scopeFilter builds the crawl's scope rules from the profile: include and
// exclude rules, and the scopes of the seeds given one. It is the Filter
// that an operator's exclusions added while the crawl runs go to
// (scope.Filter.AddExclude). A seed whose scope cannot be set is an error,
// or with --skip-bad-seeds left to seeder to report.
func scopeFilter(cfg *config.Config) (*scope.Filter, error) {
	f := &scope.Filter{}
	var errs []error
	add := func(key string, rules []string, prefix string, fn func(string) error) {
		for _, r := range rules {
			if err := fn(prefix + r); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", key, err))
			}
		}
	}
	add("scope.include", cfg.Scope.Include, "", f.AddInclude)
	add("scope.surt_include", cfg.Scope.SURTInclude, scope.SURTRule, f.AddInclude)
	add("scope.exclude", cfg.Scope.Exclude, "", f.AddExclude)
	add("scope.surt_exclude", cfg.Scope.SURTExclude, scope.SURTRule, f.AddExclude)
	seeds := make([]scope.SeedScope, 0, len(cfg.SeedScopes))
	for _, s := range cfg.SeedScopes {
		kind := scope.Domain
		if s.Scope != "" {
			kind = scope.Kind(s.Scope)
		}
		seeds = append(seeds, scope.SeedScope{Seed: s.URL, Kind: kind, Depth: s.Depth})
	}
	// In one change: each bad seed is named, the good ones are added.
	if err := f.AddSeeds(seeds); err != nil && !cfg.SkipBadSeeds {
		errs = append(errs, fmt.Errorf("seeds: %w", err))
	}
	return f, errors.Join(errs...)
}

// seedsFileNote describes the seeds file for the warcinfo record and the
// kept profile: its path, size and SHA-256, instead of its contents.
func seedsFileNote(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("seeds_file: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	size, err := io.Copy(h, f)
	if err != nil {
		return "", fmt.Errorf("seeds_file %s: %w", path, err)
	}
	return fmt.Sprintf("# seeds_file %s: %d bytes, sha256:%s\n", path, size, hex.EncodeToString(h.Sum(nil))), nil
}
