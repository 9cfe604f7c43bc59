//go:build !unix

package detect

import (
	"testing"
	"time"
)

// cpuTime is -1 where getrusage is missing: BenchmarkDetect then reports
// wall time only.
func cpuTime(testing.TB) time.Duration { return -1 }
