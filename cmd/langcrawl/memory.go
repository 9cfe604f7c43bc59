package main

import (
	"math"
	"os"
	"runtime/debug"
)

// memoryBound is the peak memory a crawl is built to stay under: 64 MiB,
// and 56 MiB for each worker (README.md, "Safe on the open web";
// TestHostileServers holds a crawl of hostile servers to it, whatever
// max_body_size is).
func memoryBound(workers int) int64 { return 64<<20 + int64(workers)*56<<20 }

// softMemoryLimit sets Go's soft memory limit (runtime/debug.SetMemoryLimit)
// to 85% of memoryBound(workers), unless the environment sets GOMEMLIMIT,
// which then stands. Below the limit nothing changes; near it the garbage
// collector runs sooner, so a crawl on a machine too busy to give the
// collector its share keeps to its bound instead of letting garbage pile
// up (a full test run on two loaded cores once saw 715 MiB against the
// 512 MiB bound). Live memory above the limit is not refused: the
// collector then takes at most about half the CPU, as the runtime caps
// it. It returns the limit in force, in bytes.
func softMemoryLimit(workers int) int64 {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return debug.SetMemoryLimit(-1) // -1 reads the limit without changing it
	}
	limit := memoryBound(workers) * 85 / 100
	if limit <= 0 { // an absurd worker count: no limit rather than a wrong one
		limit = math.MaxInt64
	}
	debug.SetMemoryLimit(limit)
	return limit
}
