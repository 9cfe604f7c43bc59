// Command buildprofiles builds the language/charset profiles that package
// detect embeds, and its held-out evaluation text, from the corpora that
// detect/corpora/fetch.sh downloads.
//
//	detect/corpora/fetch.sh            # fills detect/corpora/cache
//	go run ./tools/buildprofiles       # writes detect/profiles.bin.gz and detect/testdata/heldout.txt.gz
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
	flag.Parse()
	if err := run(*corpora, *out); err != nil {
		fmt.Fprintln(os.Stderr, "buildprofiles:", err)
		os.Exit(1)
	}
}

func run(corpora, out string) error {
	profiles, heldout, err := detect.Build(corpora)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, detect.ProfilesFile), profiles, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, detect.HeldOutFile), heldout, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes) and %s (%d bytes)\n", detect.ProfilesFile, len(profiles), detect.HeldOutFile, len(heldout))
	return nil
}
