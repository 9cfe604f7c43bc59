//go:build unix

package main

import (
	"os"
	"syscall"
	"time"
)

// markSignal asks TestBenchServe for its stats file (scripts/bench).
var markSignal os.Signal = syscall.SIGUSR1

// cpuTime returns the user plus system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
