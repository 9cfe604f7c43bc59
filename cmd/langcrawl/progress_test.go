package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/langcrawl/langcrawl/crawl"
)

// TestProgressLogged checks README's promise for a crawl whose stderr is
// not a terminal (a service, nohup): a progress line goes to langcrawl.log
// every 20 seconds, and nothing to stderr. The clock is synctest's.
func TestProgressLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var stderr, logBuf bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logBuf, nil))
		pages := int64(0)
		snapshot := func() crawl.Snapshot { pages += 7; return crawl.Snapshot{Pages: pages} }
		stop := progress(&stderr, log, snapshot, time.Now())
		time.Sleep(61 * time.Second)
		synctest.Wait()
		stop()
		lines := strings.Count(logBuf.String(), "progress: ")
		if lines != 3 {
			t.Errorf("%d progress lines in 61 s, want 3 (every 20 s):\n%s", lines, logBuf.String())
		}
		if stderr.Len() != 0 {
			t.Errorf("progress wrote to a stderr that is not a terminal: %q", stderr.String())
		}
	})
}

// TestTokenChanges: each start draws a new control token (serveStatus
// calls newToken), 128 random bits in hex.
func TestTokenChanges(t *testing.T) {
	a, b := newToken(), newToken()
	if a == b || len(a) != 32 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Errorf("tokens %q and %q: want two different 32-digit hex strings", a, b)
	}
}
