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

// TestRemoveProfileTemps: the temporary files a kill leaves while a profile
// is written are removed at the next start, and nothing else is.
func TestRemoveProfileTemps(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{ // name: removed
		"profile.yaml.tmp-123":                   true,
		"profile-20261126100000123.yaml.tmp-456": true,
		"profile.yaml":                           false,
		"profile-20261126100000123.yaml":         false,
		"notes.tmp-1":                            false,
		"my-profile.yaml.tmp-1":                  false,
	}
	for n := range files {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	removeProfileTemps(dir)
	for n, removed := range files {
		_, err := os.Stat(filepath.Join(dir, n))
		if gone := err != nil; gone != removed {
			t.Errorf("%s: removed %v, want %v", n, gone, removed)
		}
	}
}
