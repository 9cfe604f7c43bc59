package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/internal/atomicfile"
)

func init() { extraCommands = append(extraCommands, indexCmd) }

func indexCmd() *cobra.Command {
	var out, tmp string
	cmd := &cobra.Command{
		Use:   "index WARC|DIR... [-o FILE]",
		Short: "Build the CDXJ index (as pywb reads it) of existing WARC files, or of the WARC files in a directory (a crawl's OUT: its warcs/)",
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
			// Before hours of reading: the sorted runs go to --tmp
			// only past 64 MiB of lines (a review).
			if tmp != "" {
				if fi, err := os.Stat(tmp); err != nil || !fi.IsDir() {
					return fmt.Errorf("%w: --tmp %s is not a directory", errUsage, tmp)
				}
			}
			meter := newFileMeter(cmd.Context(), cmd.ErrOrStderr(), "index", files)
			defer meter.finish()
			if out == "" {
				return archive.IndexFiles(cmd.OutOrStdout(), tmp, meter.file, files...)
			}
			// What a killed run left beside -o ("OUT.tmp-*", as large as
			// the lines it had written) goes, as wacz's does.
			if err := atomicfile.RemoveLeftovers(out); err != nil {
				return fmt.Errorf("index -o %s: remove what an earlier run left: %w", out, err)
			}
			return atomicfile.Write(out, 0o644, func(w io.Writer) error {
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
// langcrawl's), and a crawl's output directory, which holds none, for its
// warcs/ (a README trial: `langcrawl index OUT` said OUT held no WARC
// file). A file still ".open" is refused, named or in a directory.
func warcFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			if strings.HasSuffix(a, ".warc.gz.open") || strings.HasSuffix(a, ".warc.open") {
				return nil, fmt.Errorf("%s is still open: a crawl is writing it, or was killed (run the crawl again on its --out to close it)", a)
			}
			files = append(files, a)
			continue
		}
		if w := filepath.Join(a, warcDir); !hasWARCs(a) && hasWARCs(w) {
			a = w
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

// hasWARCs reports whether dir holds a WARC file, closed or open.
func hasWARCs(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := strings.TrimSuffix(e.Name(), ".open")
		if !e.IsDir() && (strings.HasSuffix(n, ".warc.gz") || strings.HasSuffix(n, ".warc")) {
			return true
		}
	}
	return false
}

// writeTextAtomic is atomicfile.Write for a text held whole.
func writeTextAtomic(path, text string) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}
