//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/config"
)

// TestSecondCrawlFailsFast runs a crawl on an --out another crawl holds:
// it must fail at once, name the directory, and write nothing there.
func TestSecondCrawlFailsFast(t *testing.T) {
	out := t.TempDir()
	unlock, err := lockOut(out) // the first crawl
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	profile := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(profile, []byte(fmt.Sprintf("seeds: [\"http://a.test/\"]\nout: %q\nuser_agent: \"t/1 (+https://example.org/t)\"\n", out)), 0o644)
	cfg, err := config.Load(profile, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runCrawl(context.Background(), cfg, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second crawl: %v; want an error naming %s as in use", err, out)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != lockName {
			t.Errorf("second crawl wrote %s into the locked directory", e.Name())
		}
	}
	unlock()
	if again, err := lockOut(out); err != nil {
		t.Errorf("lock not free after unlock: %v", err)
	} else {
		again()
	}
}
