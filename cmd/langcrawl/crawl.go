package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/bandwidth"
	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/crawl"
	"github.com/langcrawl/langcrawl/detect"
	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/focus"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/internal/atomicfile"
	"github.com/langcrawl/langcrawl/internal/dirglob"
	"github.com/langcrawl/langcrawl/politeness"
	"github.com/langcrawl/langcrawl/scope"
)

func crawlCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "crawl --profile FILE [flags]",
		Short: "Crawl from seed URLs into WARC files; run again on the same --out to resume",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			_, err = runCrawl(cmd.Context(), cfg, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return err
		},
	}
	config.AddFlags(cmd.Flags())
	return onInterrupt(cmd, "finishing in-flight fetches (for up to timeouts.drain) and closing files", "quitting at once; in-flight URLs will be fetched again on resume")
}

// loadConfig resolves the configuration from --profile and the other
// flags of cmd; a bad one is a usage error.
func loadConfig(cmd *cobra.Command) (*config.Config, error) {
	profile, _ := cmd.Flags().GetString("profile")
	// The target languages are checked with the rest, so that an unknown
	// one is listed beside the profile's other problems.
	cfg, err := config.LoadChecked(profile, cmd.Flags(), targetErrors)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, err)
	}
	warnConfig(cfg, cmd.ErrOrStderr())
	return cfg, nil
}

// warnConfig prints what Load found wrong but not fatal, one warning a
// line.
func warnConfig(cfg *config.Config, stderr io.Writer) {
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
}

// Output layout under cfg.Out.
const (
	warcDir     = "warcs"
	frontierDir = "frontier"
	logDir      = "logs"
	// tmpDir holds the temporary files of bodies too large for memory;
	// emptied at every start (a crash may leave some behind).
	tmpDir = "tmp"
)

// lockName is the lock file in --out that a running crawl holds.
const lockName = ".lock"

// errOutBusy: another process holds the output directory's lock (lockOut).
var errOutBusy = errors.New("its lock is held")

// checkOutDir refuses an output directory that holds files but is no
// crawl's: a crawl's has frontier/. A new or empty directory is fine, and
// so is one that holds only what can be there before a first start made
// frontier/ (outNames: the lock, demo's profile, action files, a start
// killed early), besides dot files and lost+found (a mounted volume). A
// start empties tmp/ and writes profile.yaml, so a folder of someone
// else's must not be taken for a crawl's.
func checkOutDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	if fi, err := os.Stat(filepath.Join(dir, frontierDir, "CURRENT")); err == nil && !fi.IsDir() {
		return nil
	}
	for _, e := range entries {
		name := e.Name()
		if lost := crawlLeft(dir, name); lost != "" {
			// A crawl's own files with no frontier beside them: its
			// frontier was emptied or lost (a bad restore, a half-deleted
			// copy), and a start would take the directory for a new crawl
			// and fetch the web again as generation 1 over it (a review).
			return fmt.Errorf("output directory %s holds %s, but no frontier (%s/ is missing or empty): a crawl whose frontier was lost; a start would fetch everything again as a first generation. Restore %s/, or give a new directory as --out",
				dir, lost, frontierDir, frontierDir)
		}
		if outNames[name] || strings.HasPrefix(name, ".") || name == "lost+found" {
			continue
		}
		if name == frontierDir && e.IsDir() {
			if sub, err := os.ReadDir(filepath.Join(dir, name)); err == nil && len(sub) == 0 {
				continue // made by a start killed before its frontier opened
			}
		}
		return fmt.Errorf("output directory %s holds %s, and is not a langcrawl crawl (it has no %s/): give a new or empty directory as --out", dir, name, frontierDir)
	}
	return nil
}

// crawlLeft names what an output directory's entry name holds of a crawl
// that ran (a WARC file in warcs/, a crawl.log with lines, profile.yaml),
// or "" when it holds nothing of one: what a start killed early leaves is
// allowed (outNames).
func crawlLeft(dir, name string) string {
	switch name {
	case warcDir:
		files, _ := dirglob.Glob(filepath.Join(dir, warcDir), "*.warc*")
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil && fi.Size() > 0 {
				return filepath.Join(warcDir, filepath.Base(f))
			}
		}
	case logDir:
		if fi, err := os.Stat(filepath.Join(dir, logDir, "crawl.log")); err == nil && fi.Size() > 0 {
			return filepath.Join(logDir, "crawl.log")
		}
	}
	return ""
}

// samePath reports whether a and b name the same directory: the same
// absolute path, or the same file once both exist (a symbolic link).
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// runMarker is OUT/.running: there from a run's start until it returns,
// saying "started", "crawling" once its workers run, and, once its crawl
// has stopped and it closes what it opened, "stopping". A start that
// finds it saying "crawling" or "stopping" knows the last run was cut
// short after it had crawled (a queue it found empty was emptied by that
// run: a kill while it waited paused after its last URL, or before its
// stop wrote its marker); one cut short in its start (saying "started")
// had crawled nothing.
const runMarker = ".running"

// markRun writes OUT/.running saying phase, fsynced with its directory,
// and reports whether an earlier run had left it in its stop.
func markRun(out, phase string) (cutShort bool, err error) {
	path := filepath.Join(out, runMarker)
	if b, err := os.ReadFile(path); err == nil && (strings.HasPrefix(string(b), "stopping") || strings.HasPrefix(string(b), "crawling")) {
		cutShort = true
	}
	if cutShort && phase == "started" {
		// Not closed yet: it stays saying "stopping" until the start has
		// closed the generation (runCrawl, writeRun), so that a start
		// that fails or is killed before then leaves it for the next.
		return cutShort, nil
	}
	return cutShort, writeRun(out, phase)
}

// writeRun writes OUT/.running saying phase, fsynced with its directory.
// Through a temporary file renamed over it (fsynced, and its directory
// after the rename): a kill while it was truncated and rewritten in
// place left it empty, read as no run cut short.
func writeRun(out, phase string) error {
	path := filepath.Join(out, runMarker)
	atomicfile.RemoveLeftovers(path) // what a kill left beside it; best effort
	return writeTextAtomic(path, fmt.Sprintf("%s: a langcrawl run (pid %d) at %s\n", phase, os.Getpid(), time.Now().UTC().Format(time.RFC3339)))
}

// clearRun removes OUT/.running at the end of a run, fsyncing its
// directory: a power cut must not bring back a "stopping" marker after a
// run that closed everything, which would make the next start close the
// crawl again instead of starting the next generation.
func clearRun(out string) {
	if err := os.Remove(filepath.Join(out, runMarker)); err != nil {
		return
	}
	syncDir(out)
}

// syncDir fsyncs directory dir, so that the names made or removed in it
// last survive a power cut; best effort.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// outDirErr is an error writing the output directory at start; a full
// disk says so (the crash trial found "no space left" on profile.yaml's
// temporary file, read as a failed profile).
func outDirErr(out string, err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("output directory: disk full under %s: %w (nothing was crawled and nothing is lost: make room and run again)", out, err)
	}
	return fmt.Errorf("output directory: %w", err)
}

// outNames are what an output directory may hold before a first start
// has made frontier/: the lock, demo's profile, files dropped into
// action/, and what a start killed before frontier/ had made.
var outNames = map[string]bool{lockName: true, warcDir: true, logDir: true, demoProfileName: true, actionDir: true}

// focusDetector builds the detector for cfg's target languages and
// charsets. A target it has no profile for is the operator's to fix
// (exit 2), named with its key; a set naming one Norwegian standard alone
// gets a warning on stderr.
func focusDetector(cfg *config.Config, stderr io.Writer) (*detect.Detector, error) {
	det, err := detect.New(detect.Options{Targets: cfg.Focus.Languages(), TargetCharsets: cfg.Focus.Charsets})
	if errors.Is(err, detect.ErrBadOptions) {
		return nil, fmt.Errorf("%w: %w", errUsage, errors.Join(focusErrors(err)...))
	}
	if err != nil {
		return nil, fmt.Errorf("focus: %w", err)
	}
	if note := detect.VariantNote(cfg.Focus.Languages()); note != "" {
		fmt.Fprintf(stderr, "warning: focus: %s\n", note)
	}
	return det, nil
}

// targetErrors checks the profile's target languages and charsets against
// the detector's profiles (config.LoadChecked).
func targetErrors(cfg *config.Config) []error {
	_, err := detect.New(detect.Options{Targets: cfg.Focus.Languages(), TargetCharsets: cfg.Focus.Charsets})
	if errors.Is(err, detect.ErrBadOptions) {
		return focusErrors(err)
	}
	return nil
}

// focusErrors puts each problem detect.New found under its key: a target
// charset's under focus.charsets (its message names the charset and what
// to do), a target without a profile under focus.language.
func focusErrors(err error) []error {
	var errs []error
	for _, e := range unjoin(err) {
		var ce *detect.CharsetError
		switch {
		case errors.As(e, &ce):
			e = fmt.Errorf("focus.charsets: %w", e)
		case errors.Is(e, detect.ErrNoProfile):
			e = fmt.Errorf("focus.language: %s (langcrawl languages lists the languages it knows)",
				strings.TrimPrefix(e.Error(), detect.ErrBadOptions.Error()+": "))
		default: // a target that is no language code
			e = fmt.Errorf("focus.language: %s", strings.TrimPrefix(e.Error(), detect.ErrBadOptions.Error()+": "))
		}
		errs = append(errs, e)
	}
	return errs
}

// unjoin returns the errors errors.Join joined into err, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// checkStart makes the checks a crawl makes before it makes anything:
// the seeds file's lines, the output directory, the --previous crawl.
// `langcrawl config` makes them too, so that a profile it passes is one
// the crawl starts on (a README trial: a seeds file with bad lines passed
// it, and the crawl refused it).
func checkStart(cfg *config.Config) error {
	// A bad line in the seeds file is named before anything is made.
	if cfg.SeedsFile != "" && !cfg.SkipBadSeeds {
		if err := config.CheckSeedsFile(cfg.SeedsFile); err != nil {
			return fmt.Errorf("%w: %w", errUsage, err)
		}
	}
	// A directory that holds other files is not taken over: the start
	// empties tmp/ and writes beside whatever is there.
	if err := checkOutDir(cfg.Out); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	// The earlier crawl a first start imports must be one, named before
	// anything is made. A later start need not reach it: the import was
	// done (or is taken up again, and says so if it cannot).
	if prev := cfg.Recrawl.Previous; prev != "" {
		if samePath(prev, cfg.Out) {
			// It was read as a crawl held by a running one: this one.
			return fmt.Errorf("%w: recrawl.previous (--previous) %s is the output directory itself: to re-crawl it in place, run again on it without --previous (a new generation); --previous starts a new directory from it", errUsage, prev)
		}
		if _, err := os.Stat(filepath.Join(cfg.Out, frontierDir)); errors.Is(err, fs.ErrNotExist) {
			if _, err := os.Stat(filepath.Join(prev, frontierDir, "CURRENT")); err != nil {
				return fmt.Errorf("%w: recrawl.previous (--previous): %s is not the output directory of a langcrawl crawl (it has no %s/ database)", errUsage, prev, frontierDir)
			}
			if crawlLeft(prev, warcDir) == "" {
				// Its captures are what the re-crawl's revisits name: with
				// none, every unchanged page would become a revisit of a
				// record that exists nowhere (a review).
				return fmt.Errorf("%w: recrawl.previous (--previous): %s holds no WARC file in %s/: the captures a re-crawl's revisits refer to are gone; restore them, or start a new crawl without it", errUsage, prev, warcDir)
			}
			// A frontier that cannot be read (damaged, held by a running
			// crawl) is said now: found at the import, it left OUT made,
			// with a profile naming it, and the next start without
			// --previous took OUT for a new crawl (a README trial).
			if err := frontier.CheckHistory(filepath.Join(prev, frontierDir), cfg.AcceptFrontierDamage); err != nil {
				return fmt.Errorf("recrawl.previous (--previous) %s: %w; nothing was made in %s", prev, err, cfg.Out)
			}
		}
	}
	return nil
}

// runCrawl wires the leaves together, runs the crawl and shuts down in the
// order STYLE.md gives: stop taking work, finish in-flight leases, close
// the WARC writer checking every error, close LevelDB last.
func runCrawl(ctx context.Context, cfg *config.Config, stdout, stderr io.Writer) (crawl.Snapshot, error) {
	var snap crawl.Snapshot
	// The detector first: a target language it has no profile for (bs, a
	// typo such as "tn") stops the crawl before anything is written.
	det, err := focusDetector(cfg, stderr)
	if err != nil {
		return snap, err
	}
	if err := checkStart(cfg); err != nil {
		return snap, err
	}
	// The lock comes before anything in cfg.Out is written: a second crawl
	// on the same directory fails here and touches nothing.
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return snap, fmt.Errorf("output directory: %w", err)
	}
	unlock, err := lockOut(cfg.Out)
	if err != nil {
		return snap, err
	}
	defer unlock()
	if err := os.RemoveAll(filepath.Join(cfg.Out, tmpDir)); err != nil {
		return snap, outDirErr(cfg.Out, err)
	}
	for _, d := range []string{warcDir, frontierDir, logDir, tmpDir} {
		if err := os.MkdirAll(filepath.Join(cfg.Out, d), 0o755); err != nil {
			return snap, outDirErr(cfg.Out, err)
		}
	}
	// A run that did not reach its end (a kill, a crash, a second Ctrl-C)
	// leaves its marker: a crawl whose queue it had emptied is then closed
	// by the next start, not taken for a finished crawl to re-crawl.
	cutShort, err := markRun(cfg.Out, "started")
	if err != nil {
		return snap, outDirErr(cfg.Out, err)
	}
	// Every return closes what it opened, and clears the marker; but a
	// start that fails before it has closed the generation a stop cut
	// short (startGeneration) keeps it saying "stopping" for the next
	// (a review: a refused start erased it, and the start after began a
	// new generation, fetching the web again).
	pending := cutShort
	defer func() {
		if !pending {
			clearRun(cfg.Out)
		}
	}()
	note, err := seedsFileNote(cfg.SeedsFile)
	if err != nil {
		return snap, fmt.Errorf("%w: %w", errUsage, err)
	}
	profileText := cfg.YAML() + note
	// Through a temporary file: a full disk or a kill while writing must
	// not leave the last run's profile.yaml cut short or empty. A kill
	// leaves the temporary file (here or in profiles/, saveProfile),
	// removed at the next start.
	removeProfileTemps(cfg.Out)
	removeProfileTemps(filepath.Join(cfg.Out, profilesDir))
	if err := writeTextAtomic(filepath.Join(cfg.Out, "profile.yaml"), profileText); err != nil {
		return snap, outDirErr(cfg.Out, err)
	}
	// Every run keeps its profile too, so each generation's (the run that
	// started it) survives the next one: profiles/profile-<UTC time>.yaml.
	if err := saveProfile(cfg.Out, profileText, time.Now()); err != nil {
		return snap, outDirErr(cfg.Out, err)
	}
	logFile, err := os.OpenFile(filepath.Join(cfg.Out, logDir, "langcrawl.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return snap, fmt.Errorf("log: %w", err)
	}
	defer logFile.Close()
	log := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: slog.LevelInfo}))

	// A damaged OUT/control.json stops the start before anything changes:
	// it was read after a new generation had begun and the seeds were
	// queued, so the refused start had changed the frontier (a steering
	// trial).
	if err := checkControlState(cfg.Out); err != nil {
		return snap, err
	}
	q, err := frontier.Open(filepath.Join(cfg.Out, frontierDir), frontierOptions(cfg))
	if errors.Is(err, syscall.ENOSPC) {
		return snap, fmt.Errorf("open frontier in %s: disk full: %w (make room and run again: nothing is lost)", cfg.Out, err)
	}
	if errors.Is(err, frontier.ErrDamaged) {
		return snap, fmt.Errorf("open frontier in %s: %w: restore %s from a backup, or run again with --accept-frontier-damage to drop the damaged records and go on (URLs they queued are lost; URLs they recorded done are fetched again)",
			cfg.Out, err, filepath.Join(cfg.Out, frontierDir))
	}
	if errors.Is(err, frontier.ErrCorrupt) {
		return snap, fmt.Errorf("open frontier in %s: %w: the database is damaged, or was written by an incompatible version of langcrawl: restore %s from a backup (nothing was changed)", cfg.Out, err, filepath.Join(cfg.Out, frontierDir))
	}
	if err != nil {
		return snap, fmt.Errorf("open frontier in %s (is another program using this directory?): %w", cfg.Out, err)
	}
	for _, d := range q.Damage() {
		fmt.Fprintf(stderr, "warning: frontier: %s\n", d)
		log.Warn("frontier journal damage dropped", "damage", d)
	}
	// WARC files a crash left open: keep their whole records, close them.
	recovered, err := archive.Recover(filepath.Join(cfg.Out, warcDir))
	if errors.Is(err, archive.ErrIndexNotMerged) {
		// A disk too full for a copy of the index must not keep the crawl
		// from resuming: no index line is lost, and the stop merges again.
		fmt.Fprintf(stderr, "warning: %v\n", err)
		log.Warn("index not merged at start", "err", err)
		err = nil
	}
	if err != nil {
		return snap, errors.Join(fmt.Errorf("recover WARC files: %w", err), q.Close())
	}
	for _, f := range recovered {
		fmt.Fprintf(stderr, "closed %s, left open by an earlier run that did not finish (a kill, a crash or a full disk)\n", f)
		log.Info("recovered WARC file", "file", f)
	}
	arc, err := archive.NewWriter(archive.Config{
		Dir: filepath.Join(cfg.Out, warcDir), Prefix: cfg.WARC.Prefix, MaxSize: cfg.WARC.MaxSize,
		Compress: cfg.WARC.Compress, Software: software(), Operator: cfg.Operator,
		IsPartOf:  cfg.Collection,
		UserAgent: cfg.UserAgent, Robots: cfg.Robots.Policy, Profile: profileText,
		// Payload digests as warcio computes and checks them (the body as
		// stored, chunk framing included), so `warcio check` passes and
		// pywb's indexes agree; see the archive package documentation.
		RawPayloadDigest: true,
		TempDir:          filepath.Join(cfg.Out, tmpDir),
	})
	if err != nil {
		return snap, errors.Join(fmt.Errorf("archive: %w", err), q.Close())
	}
	// The bandwidth limit's manager, and its pacer and receive buffer,
	// which the client reads through (package bandwidth, "Beyond the
	// paper").
	bw, err := newBandwidth(cfg, q)
	if err != nil {
		return snap, errors.Join(err, arc.Close(), q.Close())
	}
	client, err := fetch.New(fetchConfig(cfg, bw))
	if err != nil {
		return snap, errors.Join(fmt.Errorf("fetch: %w", err), arc.Close(), q.Close())
	}
	defer client.Close()
	// crawl.log: a half line a crash left is cut off; each line is
	// written as its URL completes.
	clog, err := crawl.OpenCrawlLog(filepath.Join(cfg.Out, logDir, "crawl.log"))
	if err != nil {
		return snap, errors.Join(err, arc.Close(), q.Close())
	}
	clog.RotateAt(cfg.CrawlLog.MaxSize)
	if len(recovered) > 0 || q.Stats().Recovered > 0 {
		// A kill may have come between a URL's completion and its line.
		n, err := clog.Mend(newestWARCs(filepath.Join(cfg.Out, warcDir), 2))
		if err != nil {
			return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
		}
		if n > 0 {
			log.Info("crawl.log lines rebuilt from the WARC files", "lines", n)
		}
	}
	// The group commit (crash contract, package crawl): the WARC file,
	// then the frontier, then crawl.log are fsynced every
	// durability.sync_interval; 0 syncs around every completion.
	syncer, err := crawl.NewSyncer(crawl.SyncConfig{Interval: cfg.Durability.SyncInterval,
		Every: cfg.Durability.SyncInterval == 0}, arc, q, clog)
	if err != nil {
		return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
	}
	var gate *politeness.Steered // per-host delays the operator may change (status.go)
	var c *crawl.Crawler         // told of robots.txt answers (crawl.Answered), made below
	slot := func(ctx context.Context, site string) (func(time.Time), error) { return gate.Acquire(ctx, site) }
	gateHosts, siteBudgets, domainBudgets := hostRules(cfg.Hosts)
	pgate, err := politeness.New(politeness.Config{
		UserAgent: cfg.UserAgent, Policy: politeness.Policy(cfg.Robots.Policy), Delay: cfg.Delay,
		MaxCrawlDelay: cfg.Robots.MaxCrawlDelay,
		// robots.txt that cannot be fetched is tried again on the same
		// schedule as a failed page.
		RetryAfterError: cfg.Retries.Delay, MaxRetryDelay: cfg.Retries.MaxDelay,
		Store:       robotsStore{q.Robots()},
		DelayFactor: cfg.AdaptiveDelay.Factor, MinDelay: cfg.AdaptiveDelay.Min, MaxDelay: cfg.AdaptiveDelay.Max,
		Hosts: gateHosts,
	}, crawl.CountedRobotsFetcher(client, arc, slot, clog, func(site, ip string, status int) { c.Answered(site, ip, status) },
		func(n int64) error { return c.RobotsReceived(n) }))
	if err != nil {
		return snap, errors.Join(fmt.Errorf("politeness: %w", err), clog.Close(), arc.Close(), q.Close())
	}
	gate = politeness.NewSteered(pgate)
	var policy *focus.Policy
	if cfg.Focus.Language != "" {
		policy, err = focus.New(focus.Config{
			Strategy: focus.Strategy(cfg.Focus.Strategy), Tolerance: cfg.Focus.Tolerance,
			Decay: focus.Decay{Every: int64(cfg.Focus.DecayEvery), Min: cfg.Focus.Floor},
			Langs: cfg.Focus.Languages(), // the evidence strategy reads links for them
			// The sequential strategy's error bounds and directory switch.
			ErrorBound: cfg.Focus.ErrorBound, MissBound: cfg.Focus.MissBound, CutForeignDirs: cfg.Focus.ForeignDirs == "cut",
			LinkEvidence: cfg.Focus.LinkEvidence,
		})
		if err != nil {
			return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
		}
	}

	// The scope rules; exclusions added while the crawl runs go to filter.
	filter, err := scopeFilter(cfg)
	if err != nil {
		return snap, errors.Join(fmt.Errorf("%w: %w", errUsage, err), clog.Close(), arc.Close(), q.Close())
	}
	c, err = crawl.New(crawl.Config{
		Workers: cfg.Workers, MaxPages: cfg.MaxPages, MaxTime: cfg.MaxTime, MaxBytes: cfg.MaxBytes, MaxPagesPerSite: cfg.MaxPagesPerSite,
		MaxPagesPerDomain: cfg.MaxPagesPerDomain, DomainBudgets: domainBudgets, MaxSitesPerAddress: cfg.MaxSitesPerAddress,
		Retries:         crawl.Retries{Max: cfg.Retries.Max, Delay: cfg.Retries.Delay, MaxDelay: cfg.Retries.MaxDelay},
		DedupMinSize:    cfg.Recrawl.DedupMinSize,
		Recheck:         cfg.Recrawl.RecheckIrrelevant,
		RecrawlInterval: cfg.Recrawl.Interval, RecrawlIntervals: recrawlIntervals(cfg.Hosts),
		DomainConnections: cfg.Scheduling.DomainConnections, AddressConnections: cfg.Scheduling.AddressConnections,
		Resolve:    client.Address,
		Requisites: cfg.Scope.Requisites, MaxEmbedHops: cfg.Scope.MaxEmbedHops, Focus: policy, Bandwidth: bw, SiteBudgets: siteBudgets,
		Drain:       cfg.Timeouts.Drain,
		CaptureDirs: captureDirs(cfg),
		Scope: scope.Decider{
			MaxDepth:  cfg.Depth,
			QueryRule: cfg.Scope.OneQueryPerScript,
			Cache:     scope.NewCache(0),
			Filter:    filter,
			Rules: scope.Rules{MaxURLLength: cfg.Scope.MaxURLLength, MaxPathSegments: cfg.Scope.MaxPathSegments,
				MaxRepeatedSegment: cfg.Scope.MaxRepeatedSegment, MaxQueryParams: cfg.Scope.MaxQueryParams},
		},
	}, crawl.Parts{Queue: syncer.Queue(q), Archive: arc, Fetcher: client, Gate: gate, Detector: det, Log: log, CrawlLog: clog})
	if err != nil {
		return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
	}
	if err := refocus(q, cfg, stderr, log); err != nil {
		return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
	}
	gen, newGen, err := startGeneration(c, q, cfg, stderr, log, cutShort)
	if err != nil {
		return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
	}
	if pending {
		// The stop cut short is closed: from here the run is a start's.
		if err := writeRun(cfg.Out, "started"); err != nil {
			return snap, errors.Join(outDirErr(cfg.Out, err), clog.Close(), arc.Close(), q.Close())
		}
		pending = false
	}
	arc.SetGeneration(gen) // before the first record: each WARC's warcinfo says which visit it holds
	sd := &seeder{c: c, cfg: cfg, stderr: stderr, log: log, checked: cfg.SeedsFile != "" && !cfg.SkipBadSeeds}
	seeded, err := sd.run()
	if err != nil {
		return snap, errors.Join(fmt.Errorf("%w: %w", errUsage, err), clog.Close(), arc.Close(), q.Close())
	}
	// What the operator changed while an earlier run ran (OUT/control.json).
	steer := newSteering(cfg.Out, c, gate, filter, bw, cfg.Focus.Language, log)
	if err := steer.restore(); err != nil {
		return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
	}
	if note := steer.restoredNote(); note != "" {
		fmt.Fprintln(stderr, note)
	}
	fs := q.Stats()
	switch {
	case newGen:
		// A new generation has said what it queued (startGeneration).
	case fs.Completed > 0 || fs.Recovered > 0 || fs.Queued > int64(seeded):
		fmt.Fprintf(stderr, "resuming crawl in %s: %d queued, %d in flight at the last stop put back\n", cfg.Out, fs.Queued, fs.Recovered)
	default:
		// Said too, by its absolute path: out is relative to the working
		// directory, and a profile run from another one starts afresh.
		abs, _ := filepath.Abs(cfg.Out)
		fmt.Fprintf(stderr, "new crawl in %s: %d seeds queued\n", abs, seeded)
	}
	if reason, paused := c.Paused(); paused {
		if reason != "" {
			reason = " (" + reason + ")"
		}
		fmt.Fprintf(stderr, "paused since an earlier run%s: nothing is fetched until it is resumed (a file saying resume in %s, or the status page)\n",
			reason, filepath.Join(cfg.Out, actionDir))
	}
	// seeds: the good ones of the profile and the seeds file; new: those
	// not queued before.
	log.Info("crawl started", "seeds", sd.good, "new", seeded, "out", cfg.Out, "generation", gen)

	start := time.Now()
	stopProgress := progress(stderr, log, steer.snapshot, start)
	stopTrace := traceBandwidth(bw, cfg.Out, stderr)
	defer stopTrace()
	// The syncer runs until the crawl has stopped, then syncs once more;
	// a failed sync (a full or failing disk) stops the crawl.
	runCtx, stopRun := context.WithCancelCause(ctx)
	defer stopRun(nil)
	// The status page, /metrics and the action directory steer the crawl
	// while it runs (status.go, action.go).
	steer.setStop(func() { stopRun(errOperatorStop) })
	leaves := crawl.Leaves{Fetch: client.Stats, Gate: pgate.Stats, Archive: arc.Stats, Frontier: q.Stats}
	if bw != nil {
		leaves.Bandwidth = bw.Stats
	}
	stopStatus := serveStatus(cfg.Metrics.Listen, steer, leaves, stderr)
	defer stopStatus()
	stopActions, err := startActions(cfg.Out, steer)
	if err != nil {
		return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
	}
	defer stopActions()
	// After control.json and the action files read at start: the
	// exclusions in force are part of the profile marked.
	if err := markProfile(c, q, cfg, filter.Excludes(), gen, log); err != nil {
		return snap, errors.Join(err, clog.Close(), arc.Close(), q.Close())
	}
	steer.onRules(func() error {
		// An exclusion added or lifted while the generation runs: its
		// links were decided under more than one set of rules.
		c.SameProfile(false)
		_, _, _, err := q.MarkProfile(gen, frontier.MixedProfile)
		return err
	})
	syncCtx, stopSync := context.WithCancel(context.WithoutCancel(ctx))
	synced := make(chan error, 1)
	go func() {
		err := syncer.Run(syncCtx)
		if err != nil {
			stopRun(err)
		}
		synced <- err
	}()
	watchCtx, stopWatch := context.WithCancel(runCtx)
	watched := make(chan struct{})
	watch := &spaceWatch{dir: cfg.Out, min: cfg.Durability.MinFreeSpace, interval: time.Second, free: freeSpace,
		crawl: c, stderr: stderr, log: log}
	// Once before the workers start: a crawl started on a full disk
	// fetches nothing (the watch used to start beside the workers).
	if watch.check() {
		go func() {
			defer close(watched)
			t := time.NewTimer(watch.interval)
			defer t.Stop()
			select {
			case <-watchCtx.Done():
				return
			case <-t.C:
			}
			watch.run(watchCtx)
		}()
	} else {
		close(watched)
	}
	// From here the run crawls: a kill from now on is a run cut short
	// (markRun), even one that leaves the queue empty (its last URL done
	// while the crawl waited paused, or before the stop's marker below),
	// which the next start closes instead of starting a new generation.
	if err := writeRun(cfg.Out, "crawling"); err != nil {
		log.Warn("run marker not updated", "err", err)
	}
	reason, runErr := c.Run(runCtx)
	// A kill from here on, in the stop, leaves a crawl that may have
	// emptied its queue: the next start closes it (startGeneration).
	if _, err := markRun(cfg.Out, "stopping"); err != nil {
		log.Warn("run marker not updated", "err", err)
	}
	stopActions() // no command once the crawl has stopped
	stopStatus()
	stopWatch()
	<-watched
	stopSync()
	runErr = errors.Join(runErr, <-synced)
	stopProgress()
	if runErr != nil {
		reason = failureReason(cfg.Out, runErr) // the error itself is returned
	}

	// Shut down: the WARC writer first, checking every error, then the
	// logs, then LevelDB last.
	closeErr := errors.Join(runErr, arc.Close(), clog.Close(), q.Close())
	if err := clog.RotateErr(); err != nil {
		// No line was lost; the log grew on in one file.
		log.Warn("crawl.log stopped rotating", "err", err)
		fmt.Fprintf(stderr, "warning: %v; crawl.log grew on in one file from then\n", err)
	}
	snap = steer.snapshot()
	snap.WriteSummary(stdout, time.Since(start), reason)
	fmt.Fprintf(stdout, "WARC files: %s\n", filepath.Join(cfg.Out, warcDir))
	fmt.Fprintf(stdout, "crawl log:  %s\n", filepath.Join(cfg.Out, logDir, "crawl.log"))
	log.Info("crawl stopped", "reason", reason, "pages", snap.Pages, "err", closeErr)
	if hint := spentHint(reason, snap.Pages, cfg); hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	return snap, closeErr
}

// spentHint says what to do when a run stopped at once on a job budget
// that earlier runs had spent (a crawl that ended on max_time, run again
// months later to re-crawl it, does only that), "" otherwise.
func spentHint(reason string, pages int64, cfg *config.Config) string {
	var budget string
	switch reason {
	case crawl.StopPages:
		budget = fmt.Sprintf("max_pages (%d)", cfg.MaxPages)
	case crawl.StopBytes:
		budget = fmt.Sprintf("max_bytes (%s)", config.FormatSize(cfg.MaxBytes))
	case crawl.StopTime:
		budget = fmt.Sprintf("max_time (%s)", cfg.MaxTime)
	default:
		return ""
	}
	if pages > 0 {
		return ""
	}
	return fmt.Sprintf("nothing fetched: the job budget %s was spent by earlier runs of the crawl in %s. Raise it to crawl on; "+
		"to re-crawl what it archived instead (a crawl starts a new generation only once its queue is empty), run with --previous %s and a new --out.",
		budget, cfg.Out, cfg.Out)
}

// fetchConfig is the HTTP client's configuration for cfg; bw, the
// bandwidth limit's manager (nil: no limit), gives its pacer and receive
// buffer, through which the client reads every byte.
func fetchConfig(cfg *config.Config, bw *bandwidth.Manager) fetch.Config {
	fc := fetch.Config{
		UserAgent: cfg.UserAgent, ConnectTo: cfg.Network.ConnectTo, ConnectTimeout: cfg.Timeouts.Connect,
		Timeout: cfg.Timeouts.Fetch, ReadTimeout: cfg.Timeouts.Read, MaxBodySize: cfg.MaxBodySize,
		MaxRequestsPerConn: cfg.Scheduling.PagesPerConnection,
		// Bodies past 4 MiB go to OUT/tmp, so memory does not grow with
		// max_body_size.
		TempDir: filepath.Join(cfg.Out, tmpDir),

		// The operator's exceptions to the fetcher's address guard.
		AllowAddresses: cfg.Network.AllowAddresses,
		DenyAddresses:  cfg.Network.DenyAddresses,
		// Archives keep what a site serves even when its certificate does
		// not verify; the verification error is recorded instead.
		InsecureTLS: true,
	}
	if bw != nil && bw.Pacer() != nil { // a nil *Pacer must not become a non-nil fetch.Pacer
		fc.Pacer, fc.ReadBuffer = bw.Pacer(), bw.ReadBuffer()
	}
	return fc
}

// frontierOptions are the frontier's options from the profile: the site
// order, the seen cache, and the block cache in whole MiB, rounded up.
func frontierOptions(cfg *config.Config) *frontier.Options {
	cache := cmp.Or(cfg.Scheduling.FrontierCache, config.DefaultFrontierCache)
	return &frontier.Options{Order: cfg.Scheduling.Order, SeenCache: cfg.Scheduling.SeenCache,
		BlockCacheMB: int((cache + 1<<20 - 1) >> 20), AcceptDamage: cfg.AcceptFrontierDamage}
}

// captureDirs are where the engine looks for a capture's WARC file by its
// base name (crawl.Config.CaptureDirs): out's warcs/, and the --previous
// crawl's.
func captureDirs(cfg *config.Config) []string {
	var dirs []string
	if abs, err := filepath.Abs(filepath.Join(cfg.Out, warcDir)); err == nil {
		dirs = append(dirs, abs)
	}
	if cfg.Recrawl.Previous != "" {
		dirs = append(dirs, filepath.Join(cfg.Recrawl.Previous, warcDir))
	}
	return dirs
}
