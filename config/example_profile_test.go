package config

import (
	"path/filepath"
	"testing"
)

// The example profiles in examples/ load without a problem, so what
// README.md shows an archivist to start from is a working profile.
func TestExampleProfilesLoad(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	if len(files) == 0 {
		t.Fatal("no example profile in examples/")
	}
	for _, f := range files {
		c, err := Load(f, nil)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if c.Focus.Language == "" || c.SeedsFile == "" || len(c.Seeds) == 0 {
			t.Errorf("%s: language %q, seeds file %q, %d seeds", f, c.Focus.Language, c.SeedsFile, len(c.Seeds))
		}
	}
}
