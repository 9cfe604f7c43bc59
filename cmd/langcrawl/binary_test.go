package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// buildLangcrawl builds the langcrawl binary into the test's temporary
// directory, for the tests that run it as an operator does: a process to
// kill, signal or resume.
func buildLangcrawl(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "langcrawl")
	if msg, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	return bin
}
