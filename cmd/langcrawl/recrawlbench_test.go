package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/langcrawl/langcrawl/config"
	"github.com/langcrawl/langcrawl/webgen"
)

// BenchmarkRecrawlLoopback times a second generation: the web of
// BenchmarkCrawlLoopback, its servers sending validators (half of them
// answer a conditional request with 304), crawled once outside the timer
// and then again in place, nothing changed. It reports the second
// generation's pages/s and CPU per URL. Since the twenty-ninth session a
// 304 reads the links of the capture it stands for from its WARC record
// (crawl/capturelinks.go); this is what that costs. Run it with
// -benchtime=1x.
func BenchmarkRecrawlLoopback(b *testing.B) {
	g, err := webgen.Generate(benchParams(*benchServers, *benchPages))
	if err != nil {
		b.Fatal(err)
	}
	hs, ln, err := webgen.NewServer(g, webgen.ServerOptions{Prerender: true, Validators: true, NoLog: true}).Listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go hs.Serve(ln)
	b.Cleanup(func() { hs.Close() })
	seeds := benchSeeds(g)
	var (
		urls         int64
		elapsed, cpu time.Duration
	)
	b.ReportAllocs()
	for b.Loop() {
		dir := b.TempDir()
		out := filepath.Join(dir, "out")
		p, err := writeBenchProfile(dir, out, ln.Addr().String(), seeds, *benchWorkers)
		if err != nil {
			b.Fatal(err)
		}
		load := func() *config.Config {
			cfg, err := config.Load(p, nil)
			if err != nil {
				b.Fatal(err)
			}
			return cfg
		}
		b.StopTimer()
		if _, err := runCrawl(context.Background(), load(), io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		snap, err := runCrawl(context.Background(), load(), io.Discard, io.Discard)
		elapsed += time.Since(start)
		cpu += cpuTime() - cpu0
		if err != nil {
			b.Fatal(err)
		}
		if snap.Revisits == 0 {
			b.Fatal("the second generation wrote no revisit: not a re-crawl")
		}
		urls += snap.Pages + snap.Revisits
		os.RemoveAll(dir)
	}
	b.ReportMetric(float64(urls)/elapsed.Seconds(), "urls/s")
	if cpuTime() >= 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(urls), "cpu-us/url")
	}
}
