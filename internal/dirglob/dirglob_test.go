package dirglob

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGlobFolderTakenAsWritten: a folder named with glob characters is
// listed as it is, and only the name is matched; a neighbour the folder
// would match as a pattern is not read.
func TestGlobFolderTakenAsWritten(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"thai[2026]/a.warc.gz", "thai[2026]/b.warc.gz", "thai[2026]/c.txt", "thai2/d.warc.gz", "thai*/e.warc.gz"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Glob(filepath.Join(root, "thai[2026]"), "*.warc.gz")
	want := []string{filepath.Join(root, "thai[2026]", "a.warc.gz"), filepath.Join(root, "thai[2026]", "b.warc.gz")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Glob(thai[2026], *.warc.gz) = %v, %v; want %v", got, err, want)
	}
	got, err = Glob(filepath.Join(root, "thai*"), "*.warc.gz")
	if want := []string{filepath.Join(root, "thai*", "e.warc.gz")}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Glob(thai*, *.warc.gz) = %v, %v; want %v", got, err, want)
	}
	if got, err := Glob(filepath.Join(root, "absent"), "*"); err != nil || got != nil {
		t.Errorf("Glob of a folder not there = %v, %v; want none", got, err)
	}
	if _, err := Glob(root, "["); err == nil {
		t.Errorf("a bad pattern: no error")
	}
}
