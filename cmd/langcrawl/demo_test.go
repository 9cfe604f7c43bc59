package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs `langcrawl demo --out DIR` as an operator would and checks
// that it exits 0, leaves readable WARC files in DIR/warcs/ and says where.
func TestDemo(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestHelperLangcrawl$")
	child.Env = append(os.Environ(), "E2E_CHILD_ARGS=demo --out "+dir)
	var stdout, stderr bytes.Buffer
	child.Stdout, child.Stderr = &stdout, &stderr
	if err := child.Run(); err != nil {
		t.Fatalf("langcrawl demo: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	warcs := filepath.Join(dir, "warcs")
	if !strings.Contains(stdout.String(), "WARC files are in "+warcs) {
		t.Errorf("demo does not say where the WARCs are:\n%s", stdout.String())
	}
	recs := warcRecords(t, warcs)
	pages := 0
	for _, r := range recs {
		if r.Type == "response" {
			pages++
		}
	}
	if pages < 300 {
		t.Errorf("demo archived %d responses; the built-in web has hundreds of pages", pages)
	}
	if _, err := os.Stat(filepath.Join(dir, "demo-profile.yaml")); err != nil {
		t.Errorf("demo leaves no profile to reuse: %v", err)
	}
}
