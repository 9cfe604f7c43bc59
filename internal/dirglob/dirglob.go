// Package dirglob lists the files of one folder whose names match a
// pattern. Unlike filepath.Glob, only the name is a pattern: the folder
// is taken as written, since it is the operator's --out or below it and
// may hold glob characters. filepath.Glob read /data/thai[2026]/warcs as
// a pattern, matched nothing, and a crawl there never merged its index
// nor closed a WARC file a kill left open.
package dirglob

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Glob returns the paths in dir whose base names match pattern (as
// filepath.Match reads it), in name order. A folder that does not exist
// holds none. The error is a bad pattern's or the folder's that could not
// be read.
func Glob(dir, pattern string) ([]string, error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if ok, _ := filepath.Match(pattern, e.Name()); ok {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}
