package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/langcrawl/langcrawl/status"
)

// actionDir, under OUT, is Heritrix's action directory: a file dropped in
// it is read, its commands applied (status.ParseCommands gives the
// language; a file of bare URLs adds them as seeds), and moved to
// action/done/. Files whose name starts with '.' are left alone, so a
// file can be written under such a name and renamed when complete.
const actionDir = "action"

// actionPoll is how often the action directory is read.
const actionPoll = time.Second

// actionSettle is how long a file must have gone unchanged, by the
// crawler's own clock, before it is read: a file still being written (a
// slow copy, an editor's save) is left for a later poll rather than
// applied cut short. Writing under a dot-name and renaming is still the
// sure way.
const actionSettle = 3 * time.Second

// actionFiles remembers, between polls, each action file's size and
// modification time and since when the crawler has seen them unchanged:
// the file's own time is the writer's clock, which may be another
// machine's.
type actionFiles map[string]actionFile

type actionFile struct {
	size  int64
	mod   time.Time
	since time.Time // first poll that saw this size and time
}

// watchActions processes the files dropped in dir every actionPoll until
// ctx is done (startActions has read dir once before the crawl began).
func watchActions(ctx context.Context, dir string, s *steering, seen actionFiles) {
	t := time.NewTicker(actionPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		processActions(ctx, dir, s, time.Now(), seen, false)
	}
}

// processActions applies every action file in dir that has settled,
// oldest first (by modification time, then name), and moves each to
// dir/done/ under a name that starts with the time it was processed. A
// file has settled when seen has held its size and time unchanged for
// actionSettle by now; at start (the crawl's first look, before any
// fetch) also when its own time is that old and not ahead of now, so that
// a pause waiting there holds the first fetch. A file that does not parse
// is applied not at all; its errors are logged and written beside it in
// done/, as NAME.err. Problems with the directory itself are logged, and
// the next poll tries again.
// maxActionFile is the largest action file read: some 400,000 seeds.
const maxActionFile = 16 << 20

func processActions(ctx context.Context, dir string, s *steering, now time.Time, seen actionFiles, start bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !os.IsNotExist(err) {
			s.log.Error("action directory", "file", dir, "err", err)
		}
		return
	}
	type file struct {
		name string
		mod  time.Time
		size int64
	}
	var files []file
	present := map[string]bool{}
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // gone meanwhile
		}
		name, mod, size := e.Name(), info.ModTime(), info.Size()
		present[name] = true
		was, ok := seen[name]
		if !ok || was.size != size || !was.mod.Equal(mod) {
			was = actionFile{size: size, mod: mod, since: now}
			seen[name] = was
		}
		age := now.Sub(mod)
		if now.Sub(was.since) < actionSettle && !(start && age >= actionSettle) {
			continue // still being written, perhaps
		}
		files = append(files, file{name, mod, size})
	}
	for name := range seen {
		if !present[name] {
			delete(seen, name)
		}
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].mod.Equal(files[j].mod) {
			return files[i].mod.Before(files[j].mod)
		}
		return files[i].name < files[j].name
	})
	if len(files) == 0 {
		return
	}
	done := filepath.Join(dir, "done")
	if err := os.MkdirAll(done, 0o755); err != nil {
		s.log.Error("action directory", "file", done, "err", err)
		return
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		from := "action/" + f.name
		var cmds []status.Command
		var perr error
		if f.size > maxActionFile {
			// Not read: a stray file this large is no list of
			// commands (a steering trial's 30 MB of binary took the
			// crawler from 215 MB to 710 MB); a list of seeds this
			// long goes in several files.
			perr = fmt.Errorf("%d bytes, more than %d MiB: not read; split it into several files",
				f.size, maxActionFile>>20)
		} else if data, err := os.ReadFile(path); err != nil {
			s.log.Error("action file", "file", path, "err", err)
			continue
		} else {
			cmds, perr = status.ParseCommands(string(data))
		}
		if perr != nil {
			s.log.Warn("action file not applied", "file", path, "err", perr)
		} else if len(cmds) > 0 {
			perr = s.Apply(ctx, from, cmds) // logs each command
		}
		dest := filepath.Join(done, time.Now().UTC().Format("20060102T150405.000Z")+"-"+f.name)
		// The errors first, so that the file in done/ never stands
		// there without them. What was done with something to say (a
		// seed queued before) goes in .note, not .err.
		ext := ".err"
		if status.OnlyNotices(perr) {
			ext = ".note"
		}
		if perr != nil {
			if err := os.WriteFile(dest+ext, []byte(perr.Error()+"\n"), 0o644); err != nil {
				s.log.Error("action file", "file", dest+ext, "err", err)
			}
		}
		if err := os.Rename(path, dest); err != nil {
			s.log.Error("action file not moved to done/: it will be applied again", "file", path, "err", err)
			os.Remove(dest + ext)
			continue
		}
		delete(seen, f.name)
	}
}

// startActions makes OUT/action and watches it until the returned
// function is called.
func startActions(out string, s *steering) (func(), error) {
	dir := filepath.Join(out, actionDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("action directory: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Once before the crawl's workers start: a pause waiting in the
	// directory holds them before their first fetch.
	seen := actionFiles{}
	processActions(ctx, dir, s, time.Now(), seen, true)
	stopped := make(chan struct{})
	go func() { defer close(stopped); watchActions(ctx, dir, s, seen) }()
	return func() { cancel(); <-stopped }, nil
}
