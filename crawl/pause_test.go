package crawl

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestPauseHoldsWorkers checks that a paused worker waits until Resume,
// and that stopping the crawl ends the wait.
func TestPauseHoldsWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Crawler{}
		if err := c.waitUnpaused(context.Background()); err != nil {
			t.Fatalf("not paused: waitUnpaused = %v", err)
		}
		c.Pause("disk full")
		if why, ok := c.Paused(); !ok || why != "disk full" {
			t.Fatalf("Paused() = %q, %v", why, ok)
		}
		done := make(chan error, 1)
		go func() { done <- c.waitUnpaused(context.Background()) }()
		synctest.Wait() // the worker is blocked, or has returned
		select {
		case err := <-done:
			t.Fatalf("waitUnpaused returned %v while paused", err)
		default:
		}
		c.Pause("still full") // a second Pause keeps the workers waiting
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("waitUnpaused returned %v after a second Pause", err)
		default:
		}
		c.Resume()
		synctest.Wait()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("after Resume: %v", err)
			}
		default:
			t.Fatal("worker still waiting after Resume")
		}
		if _, ok := c.Paused(); ok {
			t.Fatal("Paused() after Resume")
		}

		// Stopping the crawl ends a paused wait.
		c.Pause("disk full")
		ctx, cancel := context.WithCancel(context.Background())
		go func() { done <- c.waitUnpaused(ctx) }()
		synctest.Wait()
		cancel()
		synctest.Wait()
		select {
		case err := <-done:
			if err == nil {
				t.Fatal("waitUnpaused returned nil on a stopped crawl")
			}
		default:
			t.Fatal("a stopped crawl still waits")
		}
		c.Resume()
		c.Resume() // does nothing
	})
}

// TestPauseSources: the operator's pause and the free-space watch's are
// held apart. The operator's resume while the disk is full leaves the
// crawl paused for the disk (it used to resume it onto the full disk),
// and space coming back leaves the operator's hold in force (it used to
// lift it); the crawl runs again only once both have let go.
func TestPauseSources(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Crawler{}
		c.Pause("legal review")
		c.PauseFor("disk", "disk nearly full")
		if why, ok := c.Paused(); !ok || why != "disk nearly full; legal review" {
			t.Fatalf("Paused() = %q, %v", why, ok)
		}
		done := make(chan error, 1)
		go func() { done <- c.waitUnpaused(context.Background()) }()
		c.ResumeFor("disk") // space is back
		synctest.Wait()
		if why, ok := c.Paused(); !ok || why != "legal review" {
			t.Fatalf("after the disk's resume: Paused() = %q, %v; want the operator's hold", why, ok)
		}
		c.PauseFor("disk", "disk nearly full") // and full again
		c.Resume()                             // the operator lets go
		synctest.Wait()
		if why, ok := c.Paused(); !ok || why != "disk nearly full" {
			t.Fatalf("after the operator's resume: Paused() = %q, %v; want the disk's pause", why, ok)
		}
		select {
		case err := <-done:
			t.Fatalf("a worker went on (%v) while the disk was full", err)
		default:
		}
		c.ResumeFor("disk")
		synctest.Wait()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatal("worker still waiting once both let go")
		}
	})
}

// TestProgressLineSaysPaused: a paused crawl fetches nothing, and its
// progress line says so, with the reason, instead of looking hung.
func TestProgressLineSaysPaused(t *testing.T) {
	s := Snapshot{Paused: true, PauseReason: "lunch"}
	if line := s.ProgressLine(time.Minute); !strings.HasSuffix(line, "PAUSED (lunch)") {
		t.Errorf("paused: %q", line)
	}
	s = Snapshot{}
	if line := s.ProgressLine(time.Minute); strings.Contains(line, "PAUSED") {
		t.Errorf("not paused: %q", line)
	}
}
