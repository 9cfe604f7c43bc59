package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFileMeter: the progress line of wacz, index and report counts files
// and bytes, estimates the time left from the bytes read, and, off a
// terminal, writes at most one line per interval and one after the last
// file.
func TestFileMeter(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, size := range []int{1 << 20, 1 << 20, 2 << 20} {
		p := filepath.Join(dir, string(rune('a'+i))+".warc.gz")
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	var out strings.Builder
	clock := time.Unix(0, 0)
	m := newFileMeter(context.Background(), &out, "wacz", files)
	m.now = func() time.Time { return clock }
	m.start, m.last = clock, clock

	clock = clock.Add(10 * time.Second)
	m.file(files[0])
	if out.Len() != 0 {
		t.Fatalf("a line before the interval: %q", out.String())
	}
	clock = clock.Add(30 * time.Second)
	m.file(files[1])
	want := "wacz: 2 of 3 WARC files, 2.0 MiB of 4.0 MiB (50%), 40s, about 40s left\n"
	if out.String() != want {
		t.Fatalf("line after the interval:\n got %q\nwant %q", out.String(), want)
	}
	out.Reset()
	clock = clock.Add(time.Second)
	m.file(files[2])
	want = "wacz: 3 of 3 WARC files, 4.0 MiB of 4.0 MiB (100%), 41s\n"
	if out.String() != want {
		t.Fatalf("line after the last file:\n got %q\nwant %q", out.String(), want)
	}
	out.Reset()
	m.finish()
	if out.Len() != 0 {
		t.Errorf("finish wrote %q off a terminal", out.String())
	}
}
