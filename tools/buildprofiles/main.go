// Command buildprofiles builds the language/charset profiles that package
// detect embeds (byte trigrams per language and charset, and the word
// models that decide between close languages such as Indonesian and
// Malay), and its two evaluation texts (held-out UDHR articles and
// held-out message catalogues), from the corpora that
// detect/corpora/fetch.sh downloads.
//
//	detect/corpora/fetch.sh            # fills detect/corpora/cache
//	go run ./tools/buildprofiles       # writes detect/profiles.bin.gz and detect/testdata/*.txt.gz
//
// With -udhr-only the profiles are trained on the UDHR alone: the baseline
// that the out-of-domain evaluation compares the shipped profiles with.
// Write those somewhere else (-profiles) and point the evaluation tests at
// them with LANGCRAWL_PROFILES:
//
//	go run ./tools/buildprofiles -udhr-only -profiles /tmp/udhr.bin.gz
//	LANGCRAWL_PROFILES=/tmp/udhr.bin.gz go test ./detect -run Evaluation -v
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/langcrawl/langcrawl/detect"
)

func main() {
	corpora := flag.String("corpora", "detect/corpora/cache", "directory fetch.sh filled")
	out := flag.String("out", "detect", "directory of package detect")
	profiles := flag.String("profiles", "", "write the profiles here instead of `FILE` out/"+detect.ProfilesFile+"; the evaluation texts are then not written")
	udhrOnly := flag.Bool("udhr-only", false, "train on the UDHR alone, without the message catalogues")
	verbose := flag.Bool("v", false, "print how much training text each language has")
	flag.Parse()
	if err := run(*corpora, *out, *profiles, detect.BuildOptions{UDHROnly: *udhrOnly}, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "buildprofiles:", err)
		os.Exit(1)
	}
}

func run(corpora, out, profiles string, opts detect.BuildOptions, verbose bool) error {
	b, err := detect.Build(corpora, opts)
	if err != nil {
		return err
	}
	if verbose {
		for _, s := range b.Train {
			fmt.Printf("train %-8s udhr %6d  catalogue %6d  word list %6d bytes\n", s.Tag, s.UDHR, s.Catalogue, s.Wordlist)
		}
	}
	files := []struct {
		path string
		data []byte
	}{
		{filepath.Join(out, detect.ProfilesFile), b.Profiles},
		{filepath.Join(out, detect.HeldOutFile), b.HeldOut},
		{filepath.Join(out, detect.CatalogueEvalFile), b.CatalogueEval},
	}
	if profiles != "" {
		files = files[:1]
		files[0].path = profiles
	}
	for _, f := range files {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", f.path, err)
		}
		fmt.Printf("wrote %s (%d bytes)\n", f.path, len(f.data))
	}
	return nil
}
