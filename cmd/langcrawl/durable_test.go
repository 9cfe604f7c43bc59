package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

type fakePauser struct {
	mu     sync.Mutex
	paused bool
	events []string
}

func (p *fakePauser) PauseFor(source, reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	p.events = append(p.events, "pause "+source+": "+reason)
}

func (p *fakePauser) ResumeFor(source string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = false
	p.events = append(p.events, "resume "+source)
}

// TestSpaceWatch plays a disk that fills and is freed again.
func TestSpaceWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		free := int64(5 << 30)
		setFree := func(n int64) { mu.Lock(); free = n; mu.Unlock() }
		p := &fakePauser{}
		var stderr bytes.Buffer
		w := &spaceWatch{dir: "/crawl/out", min: 1 << 30, interval: time.Second,
			free:  func(string) (int64, error) { mu.Lock(); defer mu.Unlock(); return free, nil },
			crawl: p, stderr: &stderr, log: slog.New(slog.DiscardHandler)}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { w.run(ctx); close(done) }()
		step := func() { time.Sleep(time.Second); synctest.Wait() }

		synctest.Wait()
		if p.paused {
			t.Fatal("paused with 5 GiB free")
		}
		setFree(300 << 20)
		step()
		if !p.paused {
			t.Fatal("not paused with 300 MiB free and a 1 GiB minimum")
		}
		step() // still low: no second pause
		setFree(2 << 30)
		step()
		if p.paused {
			t.Fatal("still paused with 2 GiB free")
		}
		cancel()
		<-done
		want := []string{"pause disk: /crawl/out has 300.0 MiB free, below durability.min_free_space (1.0 GiB): crawl paused until space is freed", "resume disk"}
		if fmt.Sprint(p.events) != fmt.Sprint(want) {
			t.Errorf("events %q, want %q", p.events, want)
		}
		if s := stderr.String(); !strings.Contains(s, "/crawl/out") || !strings.Contains(s, "300.0 MiB") || !strings.Contains(s, "resumed") {
			t.Errorf("stderr does not name the directory and the space:\n%s", s)
		}
	})
}

func TestFailureReason(t *testing.T) {
	full := fmt.Errorf("archive http://a.test/: %w", &os.PathError{Op: "write", Path: "/out/warcs/x.warc.gz.open", Err: syscall.ENOSPC})
	if r := failureReason("/out", errors.Join(full, errors.New("other"))); !strings.HasPrefix(r, "disk full under /out: ") || strings.Contains(r, "frontier empty") {
		t.Errorf("ENOSPC reason %q", r)
	}
	if r := failureReason("/out", errors.New("frontier: corrupt")); r != "error: frontier: corrupt" {
		t.Errorf("reason %q", r)
	}
}

// TestOutDirErr: a start that cannot write its own files for lack of space
// says the disk is full and names the directory (the crash trial read "no
// space left" on profile.yaml's temporary file); another error is as it
// was.
func TestOutDirErr(t *testing.T) {
	full := &os.PathError{Op: "write", Path: "/o/profile.yaml.tmp-1", Err: syscall.ENOSPC}
	if msg := outDirErr("/o", full).Error(); !strings.Contains(msg, "disk full under /o") || !strings.Contains(msg, "profile.yaml") {
		t.Errorf("full disk: %q", msg)
	}
	denied := &os.PathError{Op: "mkdir", Path: "/o/warcs", Err: syscall.EACCES}
	if msg := outDirErr("/o", denied).Error(); strings.Contains(msg, "disk full") || !strings.Contains(msg, "permission denied") {
		t.Errorf("permission: %q", msg)
	}
}

// TestRecentRate: the progress line's rate is over the last window, so a
// paused crawl's falls to 0 within it (the average over the run read 61
// pages/s after 15 s paused: an archivist's trial).
func TestRecentRate(t *testing.T) {
	t0 := time.Unix(0, 0)
	r := recentRate{window: 10 * time.Second, at: []time.Time{t0}, pages: []int64{0}}
	var got float64
	for i := 1; i <= 20; i++ { // 100 pages a second for 20 s
		got = r.rate(t0.Add(time.Duration(i)*time.Second), int64(100*i))
	}
	if got != 100 {
		t.Errorf("rate while crawling: %v, want 100", got)
	}
	for i := 21; i <= 31; i++ { // paused: no page for 11 s
		got = r.rate(t0.Add(time.Duration(i)*time.Second), 2000)
	}
	if got != 0 {
		t.Errorf("rate after 11 s paused: %v, want 0", got)
	}
	if len(r.at) > 12 {
		t.Errorf("%d samples kept for a 10 s window of 1 s samples", len(r.at))
	}
	// README: the last 10 s on a terminal, 20 s in the log.
	if a, b := rateWindow(time.Second), rateWindow(progressEvery); a != 10*time.Second || b != 20*time.Second {
		t.Errorf("rate windows %v on a terminal and %v in the log, want 10s and 20s", a, b)
	}
}
