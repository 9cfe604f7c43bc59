package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/internal/logfiles"
	"github.com/langcrawl/langcrawl/report"
)

// TestCrawlLogRotatesInACrawl crawls the demo web with crawl_log.max_size
// at its 4 KiB minimum: crawl.log is rotated many times, every archived
// response has its line in one of the segments, no line is written twice,
// and langcrawl report counts the lines of every segment.
func TestCrawlLogRotatesInACrawl(t *testing.T) {
	w := startWeb(t)
	out := t.TempDir()
	cfg := w.profile(t, out, "crawl_log:\n  max_size: 4KiB\n")
	var stderr bytes.Buffer
	if _, err := runCrawl(context.Background(), cfg, io.Discard, &stderr); err != nil {
		t.Fatal(err)
	}
	// A first start says where it crawls (it said nothing before).
	if want := "new crawl in " + out + ": "; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
	}
	segs, err := logfiles.Segments(filepath.Join(out, logDir, "crawl.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) < 10 {
		t.Fatalf("%d crawl.log files, want many at 4 KiB each: %q", len(segs), segs)
	}
	lines := map[string]int{}
	logged := map[string]bool{} // URL and status
	total := 0
	for i, s := range segs {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		if i < len(segs)-1 && len(data) < 4<<10 {
			t.Errorf("%s: %d bytes, rotated before 4 KiB", s, len(data))
		}
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if line == "" {
				continue
			}
			if !strings.HasSuffix(line, "\n") {
				t.Errorf("%s ends in a cut line %q", s, line)
			}
			total++
			lines[line]++
			if f := strings.Fields(line); len(f) == 12 {
				logged[f[3]+" "+f[1]] = true
			} else {
				t.Errorf("%s: line of %d columns: %q", s, len(f), line)
			}
		}
	}
	for line, n := range lines {
		if n > 1 {
			t.Errorf("line written %d times: %q", n, line)
		}
	}
	for _, r := range warcRecords(t, filepath.Join(out, warcDir)) {
		if r.Type != "response" {
			continue
		}
		status := ""
		if f := strings.Fields(string(r.Block[:min(len(r.Block), 64)])); len(f) > 1 {
			status = f[1]
		}
		if !logged[r.TargetURI+" "+status] {
			t.Errorf("%s (status %s) is archived but in no crawl.log file", r.TargetURI, status)
		}
	}

	var stdout bytes.Buffer
	cmd := reportCmd()
	cmd.SetArgs([]string{"--out", out})
	cmd.SetOut(&stdout)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("| crawl.log lines | %d (in %d files, crawl.log and %d rotated) |", total, len(segs), len(segs)-1)
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, stdout.String())
	}
	if _, err := os.Stat(filepath.Join(out, report.Dir, report.FileMarkdown)); err != nil {
		t.Error(err)
	}
}
