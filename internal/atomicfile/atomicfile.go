// Package atomicfile writes a file beside its final path and puts it in
// place with a rename, so that a full disk, a kill or a power cut leaves
// either the old file or the whole new one, never a file cut short.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Pending is a file written under a temporary name beside its final path
// ("NAME.tmp-*") and not yet put in place. Commit renames it over the
// final path; Abort removes it.
type Pending struct {
	path string
	tmp  string
}

// Create writes the file of path with fill, through a 256 KiB buffer,
// under a temporary name in path's directory, with mode (a temporary
// file is made 0600: a replay server may run as another user), and
// fsyncs it. On error nothing is left behind.
func Create(path string, mode os.FileMode, fill func(io.Writer) error) (*Pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	err = f.Chmod(mode)
	if err == nil {
		bw := bufio.NewWriterSize(f, 256<<10)
		if err = fill(bw); err == nil {
			err = bw.Flush()
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, errors.Join(err, os.Remove(f.Name()))
	}
	return &Pending{path: path, tmp: f.Name()}, nil
}

// Commit puts the file in place and fsyncs its directory, so that the
// rename survives a power cut.
func (p *Pending) Commit() error {
	if err := os.Rename(p.tmp, p.path); err != nil {
		return errors.Join(err, os.Remove(p.tmp))
	}
	return SyncDir(filepath.Dir(p.path))
}

// Abort removes the file written; the final path is left as it was.
func (p *Pending) Abort() error { return os.Remove(p.tmp) }

// Write is Create and Commit: path holds either what it held or all that
// fill wrote.
func Write(path string, mode os.FileMode, fill func(io.Writer) error) error {
	p, err := Create(path, mode, fill)
	if err != nil {
		return err
	}
	return p.Commit()
}

// RemoveLeftovers removes what a writer of path killed before Commit or
// Abort left beside it: every file or folder named "NAME.tmp-*" after
// path's NAME, as Create names its temporary files (and as a caller may
// name a working folder of its own). The caller must know no other writer
// of path is at work. The folder is listed, not globbed: it is the
// operator's --out or below it, which may hold glob characters (a folder
// named crawl[2026] had nothing removed, and one named crawl* matched its
// neighbours, crawl1 and crawl2, whose leftovers went too).
func RemoveLeftovers(path string) error {
	dir, prefix := filepath.Dir(path), filepath.Base(path)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var errs []error
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			errs = append(errs, os.RemoveAll(filepath.Join(dir, e.Name())))
		}
	}
	return errors.Join(errs...)
}

// SyncDir fsyncs the directory dir, making the renames and creations in
// it durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	return nil
}
