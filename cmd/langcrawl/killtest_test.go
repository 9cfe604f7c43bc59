package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/langcrawl/langcrawl/internal/logfiles"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/archive"
)

var kills = flag.Int("kills", 5, "TestKillNine: how many times to SIGKILL the crawl (scripts/killtest runs more)")

// TestKillNine is the crash contract's end-to-end test. It builds the
// langcrawl binary, crawls the built-in web with small WARC files (so that
// kills fall before, during and after rotations), SIGKILLs the crawl at a
// random point of its progress several times, resuming it on the same
// --out each time, and finally lets it finish. Then: no in-scope URL lost,
// no URL archived twice except those in flight at a kill, every WARC
// record and index line valid and matching, no ".open" file left, and
// every archived URL in crawl.log.
func TestKillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and crawls the demo web several times")
	}
	bin := buildLangcrawl(t)
	w := startWeb(t)
	out := t.TempDir()
	// Small files: rotation every megabyte (the smallest warc.max_size).
	// Retries quick, so that the failing pages of the web settle in
	// seconds; four tries get past th-robots503.test's two 503s.
	// crawl.log rotated every 64 KiB, some five times a crawl, so that
	// kills fall around rotations and the lines rebuilt after one are
	// checked across segments.
	cfg := w.profile(t, out, "warc: {max_size: 1MiB}\ncrawl_log: {max_size: 64KiB}\n"+
		"durability: {sync_interval: 200ms, min_free_space: 1MiB}\n"+
		"retries: {max: 4, delay: 20ms, max_delay: 100ms}\n")
	profile := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(profile, []byte(cfg.YAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d (kills at random request counts)", seed)
	rng := rand.New(rand.NewPCG(seed, 2))

	killed := 0
	for killed < *kills {
		var stderr bytes.Buffer
		child := exec.Command(bin, "crawl", "--profile", profile)
		child.Stderr = &stderr
		before := len(w.srv.Log())
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- child.Wait() }()
		// Kill after a random number of requests of this run: some kills
		// land in the first requests (robots.txt, a new WARC file), some
		// deep into the run.
		target := before + 1 + rng.IntN(60)
		finished := false
		for deadline := time.Now().Add(60 * time.Second); len(w.srv.Log()) < target; {
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("run %d exited with %v before the kill:\n%s", killed+1, err, stderr.String())
				}
				finished = true
			case <-time.After(5 * time.Millisecond): // polling the server's log
			}
			if finished {
				break
			}
			if time.Now().After(deadline) {
				child.Process.Kill()
				t.Fatalf("run %d made no progress in 60s:\n%s", killed+1, stderr.String())
			}
		}
		if finished {
			t.Logf("the crawl finished after %d kills", killed)
			break
		}
		child.Process.Signal(syscall.SIGKILL)
		<-exited
		killed++
	}
	t.Logf("%d kills", killed)

	// The last run goes to the end and exits 0.
	var stdout, stderr bytes.Buffer
	final := exec.Command(bin, "crawl", "--profile", profile)
	final.Stdout, final.Stderr = &stdout, &stderr
	if err := final.Run(); err != nil {
		t.Fatalf("final run: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "stopped: frontier empty") {
		t.Errorf("final run did not finish the crawl:\n%s", stdout.String())
	}

	warcs := filepath.Join(out, warcDir)
	if open, _ := filepath.Glob(filepath.Join(warcs, "*.open")); len(open) > 0 {
		t.Errorf("files left open after a clean final run: %v", open)
	}
	recs := warcRecords(t, warcs) // strict: a cut record or a bad digest fails
	resp := responses(recs)
	logged := crawlLogURLs(t, filepath.Join(out, logDir, "crawl.log"))

	t.Run("no URL lost", func(t *testing.T) {
		want := w.expected()
		for u := range want {
			if len(resp[u]) == 0 && !logged[u] {
				t.Errorf("%s is in scope but neither archived nor logged", u)
			}
		}
		t.Logf("%d in-scope URLs, %d URLs archived", len(want), len(resp))
	})

	t.Run("duplicates only from in-flight work", func(t *testing.T) {
		dups := 0
		for _, rs := range resp {
			// robots.txt too: its verdict is kept in the frontier, so
			// only one in flight at a kill is fetched again.
			dups += refetches(rs)
		}
		if max := killed * cfg.Workers; dups > max {
			t.Errorf("%d extra copies; at most %d (workers x kills) were in flight", dups, max)
		}
		t.Logf("%d URLs archived again after a kill", dups)
	})

	t.Run("every archived URL in crawl.log", func(t *testing.T) {
		for u := range resp {
			if !logged[u] {
				t.Errorf("%s archived but not in crawl.log", u)
			}
		}
		segs, _ := logfiles.Segments(filepath.Join(out, logDir, "crawl.log"))
		rebuilt := 0
		for _, seg := range segs {
			data, _ := os.ReadFile(seg)
			rebuilt += strings.Count(string(data), "recovered-from-warc")
		}
		t.Logf("%d crawl.log lines rebuilt from the WARC files after a kill, in %d segments", rebuilt, len(segs))
	})

	t.Run("index matches the records", func(t *testing.T) {
		checkIndex(t, warcs)
	})

	t.Run("warcio.js reads every record", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(warcs, "*.warc.gz"))
		js := warcioRecords(t, files)
		if len(js) != len(recs) {
			t.Errorf("warcio.js read %d records, gowarc %d", len(js), len(recs))
		}
		for _, r := range js {
			if !r.BlockDigestOK || !r.PayloadDigestOK {
				t.Errorf("warcio.js: digest mismatch in %s record for %s", r.Type, r.URI)
			}
		}
	})
}

// crawlLogURLs reads crawl.log and the segments rotated before it,
// failing on a line that is not whole.
func crawlLogURLs(t *testing.T, path string) map[string]bool {
	t.Helper()
	segs, err := logfiles.Segments(path)
	if err != nil || len(segs) == 0 {
		t.Fatalf("crawl.log segments of %s: %q, %v", path, segs, err)
	}
	urls := map[string]bool{}
	for _, seg := range segs {
		data, err := os.ReadFile(seg)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			continue // a live file just begun by a rotation
		}
		if data[len(data)-1] != '\n' {
			t.Errorf("%s ends in a cut line", seg)
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			f := strings.Fields(line)
			if len(f) < 12 {
				t.Errorf("%s line is not whole: %q", seg, line)
				continue
			}
			urls[f[3]] = true
		}
	}
	return urls
}

// checkIndex checks that every line of index.cdxj parses and points at a
// response or revisit record of its URL, and that every such record has
// exactly one line.
func checkIndex(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "index.cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	type at struct {
		file string
		off  int64
	}
	indexed := map[at]int{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		parts := strings.SplitN(line, " ", 3)
		if len(parts) != 3 || len(parts[1]) != 14 {
			t.Errorf("bad index line %q", line)
			continue
		}
		var v struct{ URL, Filename, Offset, Length string }
		if err := json.Unmarshal([]byte(parts[2]), &v); err != nil {
			t.Errorf("bad index line %q: %v", line, err)
			continue
		}
		var off int64
		fmt.Sscan(v.Offset, &off)
		indexed[at{v.Filename, off}]++
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	for _, f := range files {
		recs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Type != "response" && r.Type != "revisit" {
				continue
			}
			k := at{filepath.Base(f), r.Offset}
			if indexed[k] != 1 {
				t.Errorf("%s record of %s at %s:%d has %d index lines, want 1", r.Type, r.TargetURI, k.file, k.off, indexed[k])
			}
			delete(indexed, k)
		}
	}
	for k, n := range indexed {
		t.Errorf("index line for %s:%d (%d times) points at no response record", k.file, k.off, n)
	}
}
