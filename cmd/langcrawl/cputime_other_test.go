//go:build !unix

package main

import (
	"os"
	"time"
)

// markSignal is nil where SIGUSR1 is missing: TestBenchServe as a server
// (scripts/bench, a shell script) then writes no stats file.
var markSignal os.Signal

// cpuTime is 0 where getrusage is missing, so BenchmarkCrawlLoopback's
// cpu-us/page reads 0 there; its pages/s still holds.
func cpuTime() time.Duration { return 0 }
