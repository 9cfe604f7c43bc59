package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/bandwidth"
)

// TestTraceBandwidthAfterCrash: a crawl resumed after a crash appends to
// the trace the crash cut short; the cut line, which may have lost digits,
// is dropped, and the report reads both runs' samples without a warning.
func TestTraceBandwidthAfterCrash(t *testing.T) {
	out := t.TempDir()
	path := filepath.Join(out, logDir, bandwidthTrace)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	cut := "time,predicted_Bps,measured_Bps,limit_Bps\n2026-01-01T00:00:01Z,1,2,3\n2026-01-01T00:00:02Z,1,2"
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := bandwidth.New(bandwidth.Config{Limit: 1e6, Store: bandwidth.NewMemStore()})
	if err != nil {
		t.Fatal(err)
	}
	stop := traceBandwidth(m, out, io.Discard)
	// Wait for the first sample of this run (one a second), not a fixed time.
	deadline := time.Now().Add(time.Minute)
	for {
		b, _ := os.ReadFile(path)
		if strings.Count(string(b), "\n") >= 4 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if b, _ := os.ReadFile(path); !strings.HasPrefix(string(b), "time,predicted_Bps,measured_Bps,limit_Bps\n2026-01-01T00:00:01Z,1,2,3\ntime,") {
		t.Errorf("the cut line was not dropped before this run's lines:\n%s", b)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := bandwidth.ReadTrace(f)
	if len(got) < 2 || err != nil {
		t.Fatalf("%d samples read (%v), want the first run's and this run's", len(got), err)
	}
}

// TestCutTrace: a cut last line is dropped; a whole file stays as it is; a
// file whose tail holds no line break at all (not a trace this wrote) is
// kept, its last line ended so that the next run starts a line of its own.
func TestCutTrace(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"cut", "h\n1,2,3\n4,5", "h\n1,2,3\n"},
		{"whole", "h\n1,2,3\n", "h\n1,2,3\n"},
		{"only a cut header", "time,pred", ""},
		{"no line break in 64 KiB", strings.Repeat("x", 70<<10), strings.Repeat("x", 70<<10) + "\n"},
	} {
		path := filepath.Join(t.TempDir(), "bandwidth.csv")
		os.WriteFile(path, []byte(tc.in), 0o644)
		f, err := os.OpenFile(path, os.O_APPEND|os.O_RDWR, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		cutTrace(f)
		f.Close()
		if b, _ := os.ReadFile(path); string(b) != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, b[:min(len(b), 40)], tc.want[:min(len(tc.want), 40)])
		}
	}
}
