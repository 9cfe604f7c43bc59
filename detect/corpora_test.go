package detect

import (
	"os"
	"path/filepath"
)

// corporaDir is where the tests read the corpora from (corpora/fetch.sh):
// $LANGCRAWL_CORPORA if set, else corpora/cache.
func corporaDir() string {
	if dir := os.Getenv("LANGCRAWL_CORPORA"); dir != "" {
		return dir
	}
	return filepath.Join("corpora", "cache")
}
