// Package logfiles names the segments of a log that is rotated by size:
// the live file keeps its name (crawl.log), and each full one is renamed
// to that name with the UTC time of its rotation (crawl.log.20261126170412),
// "-1", "-2" … added when two rotations fall in one second. Readers take
// the segments in the order Segments gives, which is the order they were
// written. A segment the operator compressed (crawl.log.20261126170412.gz)
// takes the place of the plain one, except while both are there (gzip at
// work): then the plain one is whole and the .gz may not be.
package logfiles

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// stamp is the layout of a segment's rotation time.
const stamp = "20060102150405"

// Rotated returns the name a full live file at path gets when rotated at
// t: path.STAMP, or path.STAMP-N when that is taken. exists says whether a
// name is taken.
func Rotated(path string, t time.Time, exists func(string) bool) string {
	base := path + "." + t.UTC().Format(stamp)
	name := base
	// A compressed segment holds its name too: a plain file beside it
	// would be taken for gzip at work, and the .gz passed over.
	for n := 1; exists(name) || exists(name+".gz"); n++ {
		name = base + "-" + strconv.Itoa(n)
	}
	return name
}

// segment is a rotated segment's place in the order: its stamp, then its
// number (0 for none).
type segment struct {
	name  string
	stamp string
	n     int
}

// parse reads a rotated segment's suffix (STAMP or STAMP-N); ok is false
// for any other name.
func parse(suffix string) (at string, n int, ok bool) {
	s, num, dash := strings.Cut(suffix, "-")
	if len(s) != len(stamp) || strings.Trim(s, "0123456789") != "" {
		return "", 0, false
	}
	if dash {
		v, err := strconv.Atoi(num)
		if err != nil || v < 1 || strconv.Itoa(v) != num {
			return "", 0, false
		}
		n = v
	}
	return s, n, true
}

// hasName reports whether entries, sorted by name as os.ReadDir gives
// them, hold name.
func hasName(entries []fs.DirEntry, name string) bool {
	_, ok := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	return ok
}

// Segments returns the files of the log whose live file is path: the
// rotated segments, oldest first, then path itself when it exists. A
// missing directory or log gives none.
func Segments(path string) ([]string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("log segments of %s: %w", path, err)
	}
	var segs []segment
	live := false
	for _, e := range entries {
		name := e.Name()
		if name == base {
			live = !e.IsDir()
			continue
		}
		if !strings.HasPrefix(name, base+".") || e.IsDir() {
			continue
		}
		suffix, gz := strings.CutSuffix(name[len(base)+1:], ".gz")
		if s, n, ok := parse(suffix); ok {
			if gz && hasName(entries, strings.TrimSuffix(name, ".gz")) {
				continue
			}
			segs = append(segs, segment{filepath.Join(dir, name), s, n})
		}
	}
	slices.SortFunc(segs, func(a, b segment) int {
		if c := strings.Compare(a.stamp, b.stamp); c != 0 {
			return c
		}
		return a.n - b.n
	})
	out := make([]string, 0, len(segs)+1)
	for _, s := range segs {
		out = append(out, s.name)
	}
	if live {
		out = append(out, path)
	}
	return out, nil
}

// Open opens a segment for reading, through gzip when it is compressed.
func Open(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil || !strings.HasSuffix(name, ".gz") {
		return f, err
	}
	z, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return gzFile{z, f}, nil
}

// gzFile closes the gzip reader and the file under it.
type gzFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzFile) Close() error { return errors.Join(g.Reader.Close(), g.f.Close()) }
