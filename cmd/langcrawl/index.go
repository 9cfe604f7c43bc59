package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/archive"
)

func init() { extraCommands = append(extraCommands, indexCmd) }

func indexCmd() *cobra.Command {
	var out, tmp string
	cmd := &cobra.Command{
		Use:   "index WARC... [--out FILE]",
		Short: "Build the CDXJ index (as pywb reads it) of existing WARC files, or of the WARC files in a directory",
		Long: `Index reads each WARC file once and writes the sorted CDXJ index of its
response and revisit records: the lines langcrawl's own index.cdxj holds,
with the same SURT keys and fields, each naming its file by base name.
Memory stays bounded: lines past 64 MiB are sorted into runs in --tmp.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := warcFiles(args)
			if err != nil {
				return fmt.Errorf("%w: %w", errUsage, err)
			}
			meter := newFileMeter(cmd.Context(), cmd.ErrOrStderr(), "index", files)
			defer meter.finish()
			if out == "" {
				return archive.IndexFiles(cmd.OutOrStdout(), tmp, meter.file, files...)
			}
			return writeOutAtomic(out, func(w io.Writer) error {
				return archive.IndexFiles(w, tmp, meter.file, files...)
			})
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the index to FILE instead of standard output")
	cmd.Flags().StringVar(&tmp, "tmp", "", "directory for the sorted runs of a large index (default: the system's)")
	return onInterrupt(cmd, readStopping, readQuitting)
}

// warcFiles expands the arguments: a file is taken as it is, a directory
// stands for its .warc and .warc.gz files in name order (serial order for
// langcrawl's). A file still ".open" is refused.
func warcFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		var found []string
		for _, e := range entries {
			n := e.Name()
			switch {
			case e.IsDir():
			case strings.HasSuffix(n, ".warc.gz.open"), strings.HasSuffix(n, ".warc.open"):
				return nil, fmt.Errorf("%s is still open: a crawl is writing it, or was killed (run the crawl again on its --out to close it)", filepath.Join(a, n))
			case strings.HasSuffix(n, ".warc.gz"), strings.HasSuffix(n, ".warc"):
				found = append(found, filepath.Join(a, n))
			}
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no .warc or .warc.gz file", a)
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	return files, nil
}

// writeTextAtomic is writeOutAtomic for a text held whole.
func writeTextAtomic(path, text string) error {
	return writeOutAtomic(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// writeOutAtomic writes path through a temporary file beside it, fsynced
// and renamed into place, so a failure leaves no partial file.
func writeOutAtomic(path string, fill func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	err = fill(tmp)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return errors.Join(err, os.Remove(tmp.Name()))
	}
	return nil
}
