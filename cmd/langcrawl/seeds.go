package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/scope"
)

// seedBatch is how many seeds of a seeds file are queued in one write.
const seedBatch = 10_000

// maxSeedErrors is how many bad seeds are listed before giving up.
const maxSeedErrors = 20

// seedAll queues the profile's seeds and then streams the seeds file, a
// batch at a time, so that a file of millions of seeds costs one batch of
// memory. A bad seed is an error naming its file and line; every bad seed
// (up to maxSeedErrors) is listed before anything of the file is queued,
// so a typo does not start half a crawl. It returns how many seeds were
// new.
func seedAll(c *crawl.Crawler, cfg *config.Config) (int, error) {
	n, err := c.Seed(cfg.Seeds)
	if err != nil || cfg.SeedsFile == "" {
		return n, err
	}
	// First pass: check every line, naming the bad ones.
	var errs []error
	err = config.EachSeed(cfg.SeedsFile, func(line int, s string) error {
		if _, err := scope.Canonicalize(s); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: seed %q: %w", cfg.SeedsFile, line, s, err))
			if len(errs) >= maxSeedErrors {
				return fmt.Errorf("%s: stopped after %d bad seeds", cfg.SeedsFile, maxSeedErrors)
			}
		}
		return nil
	})
	if err := errors.Join(append(errs, err)...); err != nil {
		return n, err
	}
	// Second pass: queue them.
	batch := make([]string, 0, seedBatch)
	flush := func() error {
		m, err := c.Seed(batch)
		n += m
		batch = batch[:0]
		return err
	}
	err = config.EachSeed(cfg.SeedsFile, func(_ int, s string) error {
		batch = append(batch, s)
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
