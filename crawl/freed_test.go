package crawl

import (
	"context"
	"runtime"
	"testing"
)

// TestCrawlerFreed checks that a Crawler that has run, paused and resumed
// is garbage once its caller drops it: nothing in the package keeps it.
// The simulator makes one per run, and a process that kept each one kept
// its frontier and caches too (pause.go).
func TestCrawlerFreed(t *testing.T) {
	web := fakeWeb{"http://a.test/": page("th", "http://a.test/1"), "http://a.test/1": page("th")}
	r := newRetryRig(t, web, nil)
	freed := make(chan struct{})
	func() {
		c := r.crawler(t, Config{}, nil, "http://a.test/")
		c.Pause("test")
		c.Resume()
		if _, err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, paused := c.Paused(); paused {
			t.Fatal("paused after Resume")
		}
		runtime.AddCleanup(c, func(ch chan struct{}) { close(ch) }, freed)
	}()
	for i := 0; ; i++ {
		runtime.GC()
		select {
		case <-freed:
			return
		default:
		}
		if i == 50 { // fifty collections, not a timing
			t.Fatal("the Crawler was not freed after its caller dropped it")
		}
		runtime.Gosched()
	}
}
