package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSaveProfileKeepsEveryRun: two runs that start in the same millisecond
// keep a profile each, whole, under two names, and no temporary file is
// left beside them.
func TestSaveProfileKeepsEveryRun(t *testing.T) {
	out := t.TempDir()
	now := time.Date(2026, 11, 26, 10, 0, 0, 123e6, time.UTC)
	for _, text := range []string{"name: first\n", "name: second\n"} {
		if err := saveProfile(out, text, now); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(out, profilesDir))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"profile-20261126100000123-2.yaml", "profile-20261126100000123.yaml"}
	if len(names) != 2 || names[0] != want[0] || names[1] != want[1] {
		t.Fatalf("profiles %v, want %v", names, want)
	}
	for name, text := range map[string]string{want[1]: "name: first\n", want[0]: "name: second\n"} {
		if b, _ := os.ReadFile(filepath.Join(out, profilesDir, name)); string(b) != text {
			t.Errorf("%s holds %q, want %q", name, b, text)
		}
	}
}
