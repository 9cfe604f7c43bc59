package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/langcrawl/langcrawl/internal/atomicfile"
	"github.com/langcrawl/langcrawl/internal/dirglob"
	"github.com/langcrawl/langcrawl/wacz"
)

func init() { extraCommands = append(extraCommands, waczCmd) }

func waczCmd() *cobra.Command {
	var out, title string
	cmd := &cobra.Command{
		Use:   "wacz OUT [--out FILE]",
		Short: "Package a crawl's WARC files as a WACZ 1.1.1 file for ReplayWeb.page and pywb",
		Long: `Wacz packages the WARC files of the crawl in OUT (its --out directory) as
one WACZ file: the WARC files stored as they are, the CDXJ index as
indexes/index.cdx.gz, pages/pages.jsonl (url, ts, title and the detected
language of every HTML page) and datapackage.json with the SHA-256 of
every file. It reads each WARC file once and streams, so memory stays
bounded whatever the crawl's size. The crawl must not be running.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return packageCrawl(cmd.Context(), args[0], out, title, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "the WACZ file to write (default: OUT.wacz beside OUT)")
	cmd.Flags().StringVar(&title, "title", "", "title in datapackage.json (default: the crawl's collection, warcinfo's isPartOf)")
	return onInterrupt(cmd, readStopping, readQuitting)
}

// packageCrawl writes the WACZ of the crawl in dir to out, through a
// temporary file beside it, holding the crawl's lock meanwhile.
func packageCrawl(ctx context.Context, dir, out, title string, stdout, stderr io.Writer) error {
	warcs := filepath.Join(dir, warcDir)
	if _, err := os.Stat(warcs); err != nil {
		return fmt.Errorf("%w: %s is not a crawl's output directory: %w", errUsage, dir, err)
	}
	unlock, err := lockOut(dir)
	if errors.Is(err, errOutBusy) {
		// Not "choose another --out": wacz's --out is the file it
		// writes (a README trial).
		return fmt.Errorf("%s is in use: a crawl is running on it, or another wacz is packaging it (it holds %s); wacz packages a stopped crawl: stop the crawl, or wait, and run it again", dir, filepath.Join(dir, lockName))
	}
	if err != nil {
		return err
	}
	defer unlock()
	files, err := warcFiles([]string{warcs})
	if err != nil {
		return err
	}
	if out == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		out = abs + ".wacz"
	}
	// Before hours of reading: the folder the WACZ goes into must be
	// there (else the error would name the temporary file beside it).
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: -o %s: the folder %s does not exist", errUsage, out, filepath.Dir(out))
	}
	// Every temporary file of a run is named after out ("OUT.tmp-*": the
	// WACZ being written, and a folder for the pages and the index's
	// sorted runs), so what a killed run left is found and removed here,
	// under the crawl's lock. A review found a killed run's files, as
	// large as what it had copied, left for good beside the WACZ.
	if err := atomicfile.RemoveLeftovers(out); err != nil {
		return fmt.Errorf("wacz %s: remove what an earlier run left: %w", out, err)
	}
	work, err := os.MkdirTemp(filepath.Dir(out), filepath.Base(out)+".tmp-*")
	if err != nil {
		return fmt.Errorf("wacz %s: %w", out, err)
	}
	defer os.RemoveAll(work)
	var st wacz.Stats
	meter := newFileMeter(ctx, stderr, "wacz", files)
	err = atomicfile.Write(out, 0o644, func(w io.Writer) error {
		var err error
		st, err = wacz.Write(w, files, wacz.Options{Title: title, Software: software(), TempDir: work, Done: meter.file})
		return err
	})
	meter.finish()
	if err != nil {
		return fmt.Errorf("wacz %s: %w", out, err)
	}
	fmt.Fprintf(stdout, "%s: %d WARC files (%d bytes), %d captures indexed, %d pages, %d bytes\n",
		out, st.WARCs, st.WARCBytes, st.Captures, st.Pages, st.TotalBytes)
	if others := earlierCollections(dir); len(others) > 0 {
		fmt.Fprintf(stderr, "warning: the crawl in %s was set to deduplicate against captures outside it (%s): any revisit of those "+
			"captures replays only beside them, so package or load those collections with this one\n", dir, strings.Join(others, ", "))
	}
	return nil
}

// earlierCollections names what the crawl in dir deduplicated against
// outside its own WARC files, from the profile of each of its runs
// (OUT/profiles/, and OUT/profile.yaml): recrawl.previous, an earlier
// crawl, and recrawl.dedup_index, other collections' indexes. Revisits
// written against them refer to records that are not in this crawl's
// WARC files, which a WACZ of this crawl alone cannot replay. A profile
// that does not read is passed over: this is a warning, not a check.
func earlierCollections(dir string) []string {
	files, _ := dirglob.Glob(filepath.Join(dir, profilesDir), "*.yaml")
	files = append(files, filepath.Join(dir, "profile.yaml"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var p struct {
			Recrawl struct {
				Previous   string   `yaml:"previous"`
				DedupIndex []string `yaml:"dedup_index"`
			} `yaml:"recrawl"`
		}
		if yaml.Unmarshal(b, &p) != nil {
			continue
		}
		if p.Recrawl.Previous != "" && !slices.Contains(out, p.Recrawl.Previous) {
			out = append(out, p.Recrawl.Previous)
		}
		for _, d := range p.Recrawl.DedupIndex {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}
