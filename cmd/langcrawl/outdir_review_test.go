package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/frontier"
)

// TestEmptiedFrontierRefused (from a review): a crawl directory whose frontier/ lost its files (emptied by a bad
// restore, a half-deleted copy) holds WARC files, crawl.log and the
// profiles of earlier runs. Taking it for a new crawl starts generation 1
// again over them: every URL is fetched anew, the WARCs name generation 1
// twice, the job budgets restart. It must be refused, as a directory with
// no frontier/ at all is, naming what it holds.
func TestEmptiedFrontierRefused(t *testing.T) {
	out := t.TempDir()
	for _, d := range []string{"frontier", "warcs", "logs", "profiles"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{
		"profile.yaml": "out: x\n",
		"warcs/langcrawl-20261128030936764-00000-vm.warc.gz": "not empty",
		"logs/crawl.log": "2026-11-28T03:09:37.000Z 200 10 http://a.test/ - - text/html #001 - - -\n",
	} {
		if err := os.WriteFile(filepath.Join(out, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkOutDir(out); err == nil {
		t.Errorf("a crawl directory with WARC files, crawl.log and profile.yaml but an empty frontier/ is taken for a new crawl")
	}
}

// TestPreviousWithoutWARCsRefused (from a review): recrawl.previous naming a half-deleted crawl, its frontier/ kept and its
// warcs/ gone (moved to tape, deleted by mistake), must not be taken
// silently: every unchanged page then becomes a revisit naming a record
// that exists nowhere, and its payload is archived nowhere.
func TestPreviousWithoutWARCsRefused(t *testing.T) {
	w := startWeb(t)
	prev := t.TempDir()
	crawlInto(t, w, prev, "")
	if err := os.RemoveAll(filepath.Join(prev, warcDir)); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cfg := w.profile(t, out, fmt.Sprintf("recrawl:\n  previous: %s\n", prev))
	var stderr bytes.Buffer
	_, err := runCrawl(context.Background(), cfg, io.Discard, &stderr)
	if err != nil {
		t.Logf("refused: %v", err)
		return
	}
	revisits := 0
	for _, r := range warcRecords(t, filepath.Join(out, warcDir)) {
		if r.Type == "revisit" {
			revisits++
		}
	}
	if revisits > 0 {
		t.Errorf("--previous %s with no WARC files: the re-crawl wrote %d revisits naming records that exist nowhere, with no error\nstderr:\n%s", prev, revisits, stderr.String())
	}
}

// TestFailedStartKeepsStoppingMarker (from a review): a run cut short in its stop leaves .running saying "stopping", so that
// the next start closes the crawl rather than re-crawl the web (README,
// "Crashes and full disks"). A start that fails in between (here a
// damaged control.json, refused with its name; a full disk writing
// profile.yaml does the same) must not erase that: its deferred clearRun
// removed the marker, and the start after the fix began generation 2.
func TestFailedStartKeepsStoppingMarker(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(out, runMarker)
	if err := os.WriteFile(marker, []byte("stopping: a langcrawl run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	control := filepath.Join(out, "control.json")
	if err := os.WriteFile(control, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err == nil {
		t.Fatal("a damaged control.json was accepted")
	}
	os.Remove(control)
	requests := len(w.srv.Log())
	var stderr bytes.Buffer
	snap, err := runCrawl(context.Background(), cfg, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Frontier.Generation != 1 || len(w.srv.Log()) != requests {
		t.Errorf("after a run cut short in its stop and a failed start: generation %d, %d requests; want generation 1 closed, none\nstderr:\n%s",
			snap.Frontier.Generation, len(w.srv.Log())-requests, stderr.String())
	}
}

// TestNegativeDelayCheckedBeforeStart (from a review): checkControlState is to refuse, before a start changes anything, every
// control.json that restore would refuse (TestDamagedControlStateStopsStart).
// A negative delay parsed as a duration, passed the check, and was refused
// by restore only after the start has begun a new generation and queued
// it (README, "Monitoring and steering": the refused start must not).
func TestNegativeDelayCheckedBeforeStart(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, controlFile), []byte(`{"delays": {"a.test": "-5s"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkControlState(out); err == nil {
		t.Errorf("control.json with delay a.test -5s passes checkControlState; restore refuses it only after the start changed the frontier")
	}
}

// TestControlDelayTooLongRefused (from a review): a control.json delay
// longer than the delay command takes (24 h) is refused before the start,
// as README says; restore took one of 100 years.
func TestControlDelayTooLongRefused(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, controlFile), []byte(`{"delays": {"a.test": "876000h"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkControlState(out); err == nil {
		t.Error("control.json with a delay of 876000h passes checkControlState")
	}
}

// TestDamagedFrontierJournalRefused: a start on a frontier whose journal
// was damaged in its middle stops before anything changes, naming the
// journal and --accept-frontier-damage; with that flag it goes on and
// says what was dropped. Before, LevelDB's lenient replay dropped the
// damaged block's records without a word (a failure review).
func TestDamagedFrontierJournalRefused(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "")
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	logs, err := filepath.Glob(filepath.Join(out, frontierDir, "*.log"))
	if err != nil || len(logs) != 1 {
		t.Fatalf("journals: %v (%v), want one", logs, err)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	const block = 32 * 1024
	if len(data) < 2*block+100 {
		t.Fatalf("the journal holds %d bytes, want more than two blocks", len(data))
	}
	data[block+100] ^= 0x01
	if err := os.WriteFile(logs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}

	_, err = runCrawl(context.Background(), w.profile(t, out, ""), io.Discard, io.Discard)
	if !errors.Is(err, frontier.ErrDamaged) {
		t.Fatalf("start on a damaged journal: %v, want frontier.ErrDamaged", err)
	}
	for _, want := range []string{logs[0], "--accept-frontier-damage"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if after, err := os.ReadFile(logs[0]); err != nil || !bytes.Equal(after, data) {
		t.Errorf("the refused start changed the journal (%v)", err)
	}

	cfg = w.profile(t, out, "")
	cfg.AcceptFrontierDamage = true
	var stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
		t.Fatalf("start with --accept-frontier-damage: %v", err)
	}
	if !strings.Contains(stderr.String(), "warning: frontier: journal "+logs[0]) {
		t.Errorf("the accepted start does not say what it dropped; stderr:\n%s", stderr.String())
	}
}

// previousInFiles crawls the demo web into a new directory in WARC files
// of 1 MiB, for a re-crawl to take as recrawl.previous, and returns the
// web, the directory and its WARC files (two at least).
func previousInFiles(t *testing.T) (*demoWeb, string, []string) {
	t.Helper()
	w := startWeb(t)
	prev := t.TempDir()
	crawlInto(t, w, prev, "warc: {max_size: 1MiB}\n")
	files, err := filepath.Glob(filepath.Join(prev, warcDir, "*.warc.gz"))
	if err != nil || len(files) < 2 {
		t.Fatalf("previous crawl's WARC files: %v (%v), want two at least", files, err)
	}
	return w, prev, files
}

// TestPreviousMissingWARCFetchedInFull: recrawl.previous naming a crawl
// one of whose WARC files is gone (moved to tape, deleted by mistake)
// takes the history of the rest as before; the URLs whose captures were
// in the missing file are fetched in full, never written as revisits of
// records that exist nowhere, and the start names the file. Before, every
// unchanged page of that file became a revisit that pywb cannot replay
// (the half-deleted case a review left after TestPreviousWithoutWARCsRefused).
func TestPreviousMissingWARCFetchedInFull(t *testing.T) {
	w, prev, files := previousInFiles(t)
	gone := files[0]
	goneIDs := make(map[string]bool)
	recs, err := archive.ReadAll(gone)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		goneIDs[r.ID] = true
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	kept := make(map[string]bool)
	for _, r := range warcRecords(t, filepath.Join(prev, warcDir)) {
		kept[r.ID] = true
	}

	out := t.TempDir()
	var stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), w.profile(t, out, fmt.Sprintf("recrawl:\n  previous: %s\n", prev)), io.Discard, &stderr); err != nil {
		t.Fatalf("re-crawl: %v\nstderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), filepath.Base(gone)) {
		t.Errorf("the start does not name the missing WARC file %s; stderr:\n%s", filepath.Base(gone), stderr.String())
	}
	outRecs := warcRecords(t, filepath.Join(out, warcDir))
	own := make(map[string]bool)
	for _, r := range outRecs {
		own[r.ID] = true
	}
	revisits := 0
	for _, r := range outRecs {
		if r.Type != "revisit" {
			continue
		}
		revisits++
		switch {
		case goneIDs[r.RefersTo]:
			t.Errorf("revisit of %s refers to %s, a record of the missing file", r.TargetURI, r.RefersTo)
		case !kept[r.RefersTo] && !own[r.RefersTo]:
			t.Errorf("revisit of %s refers to %s, a record found nowhere", r.TargetURI, r.RefersTo)
		}
	}
	if revisits == 0 {
		t.Errorf("the re-crawl wrote no revisit of the kept files' captures: the test shows nothing")
	}
}
