//go:build !unix

package main

import (
	"os"
	"time"
)

// markSignal is nil where SIGUSR1 is missing: TestBenchServe as a server
// (scripts/bench, a shell script) then writes no stats file.
var markSignal os.Signal

// cpuTime is -1 where getrusage is missing: BenchmarkCrawlLoopback then
// reports no cpu-us/page, only its rates.
func cpuTime() time.Duration { return -1 }
