package main

import (
	"runtime/debug"
	"testing"
)

// TestSoftMemoryLimit checks that a crawl sets Go's soft memory limit
// under its documented bound, and leaves one set by GOMEMLIMIT alone.
func TestSoftMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	want := int64(512<<20) * 85 / 100 // 85% of 64 MiB + 8 x 56 MiB
	if got := softMemoryLimit(8); got != want || debug.SetMemoryLimit(-1) != want {
		t.Errorf("8 workers: limit %d, in force %d; want %d", got, debug.SetMemoryLimit(-1), want)
	}
	if got := softMemoryLimit(8); got >= memoryBound(8) {
		t.Errorf("limit %d is not under the bound %d", got, memoryBound(8))
	}
	debug.SetMemoryLimit(300 << 20)
	t.Setenv("GOMEMLIMIT", "300MiB")
	if got := softMemoryLimit(8); got != 300<<20 {
		t.Errorf("with GOMEMLIMIT set: limit %d MiB, want it left at 300 MiB", got>>20)
	}
}
