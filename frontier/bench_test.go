package frontier

import (
	"bufio"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	bigURLs  = flag.Int("frontier.urls", 10_000_000, "URLs queued by BenchmarkTenMillion")
	bigSites = flag.Int("frontier.sites", 100_000, "sites in BenchmarkTenMillion")
)

// benchEntry returns a realistic entry: URL i of site s.
func benchEntry(s, i int) Entry {
	host := fmt.Sprintf("www.site%d.example", s)
	return Entry{
		URL:        fmt.Sprintf("http://%s/dir%d/page-%d.html", host, i%97, i),
		Site:       host,
		Tree:       fmt.Sprintf("site%d.example", s),
		Depth:      i % 7,
		Priority:   Priority(i % 2),
		Via:        fmt.Sprintf("http://%s/dir%d/", host, i%97),
		Hops:       "LLL",
		Discovered: t0,
	}
}

func openBench(b *testing.B) *Queue {
	b.Helper()
	q, err := Open(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { q.Close() })
	return q
}

// BenchmarkPush pushes new URLs one at a time over 1000 sites, on disk.
func BenchmarkPush(b *testing.B) {
	q := openBench(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := q.Push(benchEntry(i%1000, i)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPushMany pushes the 50 links of one page per call, half of them
// seen before, as Complete does for a typical page.
func BenchmarkPushMany(b *testing.B) {
	q := openBench(b)
	b.ReportAllocs()
	es := make([]Entry, 50)
	i := 0
	for b.Loop() {
		for j := range es {
			k := i*25 + j // overlaps the previous call by 25
			es[j] = benchEntry(k%1000, k)
		}
		if _, err := q.PushMany(es); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSeenMiss looks up URLs that are not in a seen set of 100k.
func BenchmarkSeenMiss(b *testing.B) {
	q := openBench(b)
	fill(b, q, 100_000, 1000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if ok, err := q.Seen(fmt.Sprintf("http://nowhere/%d", i)); ok || err != nil {
			b.Fatal(ok, err)
		}
		i++
	}
}

// BenchmarkNextComplete leases and completes over 1000 sites holding 100k
// entries; every completion pushes one new link and bumps a counter, so the
// queue does not run dry.
func BenchmarkNextComplete(b *testing.B) {
	q := openBench(b)
	const sites = 1000
	n := fill(b, q, 100_000, sites)
	b.ReportAllocs()
	for b.Loop() {
		l, _, err := q.Next(t0)
		if err != nil || l == nil {
			b.Fatal("no lease:", err)
		}
		e := benchEntry(n%sites, n)
		n++
		if err := q.Complete(l, Completion{Links: []Entry{e}, Tally: []Tally{{Key: l.Entry.Site}}}); err != nil {
			b.Fatal(err)
		}
	}
}

// fill queues n entries over sites and returns n. It pushes them as the
// links of pages, 50 per PushMany: 40 to the page's own site and 10 to
// sites spread over the rest.
func fill(b *testing.B, q *Queue, n, sites int) int {
	b.Helper()
	const perPage = 50
	batch := make([]Entry, 0, perPage)
	for i := range n {
		page := i / perPage
		s := page % sites
		if i%perPage >= 40 {
			s = (i * 7919) % sites
		}
		batch = append(batch, benchEntry(s, i))
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := q.PushMany(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return n
}

// BenchmarkTenMillion queues -frontier.urls URLs (10 million) over
// -frontier.sites sites (100k) on disk, then leases and completes 100k of
// them, and reports the push and lease rates, Go heap, RSS and disk use. It
// takes minutes, so it runs only when -bench names it:
//
//	go test -run XXX -bench BenchmarkTenMillion -benchtime=1x ./frontier/
func BenchmarkTenMillion(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || !strings.Contains(f.Value.String(), "TenMillion") {
		b.Skip("runs only when -bench names BenchmarkTenMillion")
	}
	for b.Loop() {
		dir := b.TempDir()
		q, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		n := *bigURLs
		fill(b, q, n, *bigSites)
		push := time.Since(start)

		start = time.Now()
		const leases = 100_000
		for range leases {
			l, _, err := q.Next(t0)
			if err != nil || l == nil {
				b.Fatal("no lease:", err)
			}
			if err := q.Complete(l, Completion{Tally: []Tally{{Key: l.Entry.Site}}}); err != nil {
				b.Fatal(err)
			}
		}
		lease := time.Since(start)
		st := q.Stats()
		if st.Queued != int64(n-leases) {
			b.Fatalf("queued %d, want %d", st.Queued, n-leases)
		}

		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss, hwm := procStatus("VmRSS"), procStatus("VmHWM")
		if err := q.Close(); err != nil {
			b.Fatal(err)
		}

		start = time.Now()
		q, err = Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		reopen := time.Since(start)
		if got := q.Stats().Queued; got != int64(n-leases) {
			b.Fatalf("after reopen queued %d, want %d", got, n-leases)
		}
		if err := q.Close(); err != nil {
			b.Fatal(err)
		}

		b.ReportMetric(float64(n)/push.Seconds(), "push/s")
		b.ReportMetric(float64(leases)/lease.Seconds(), "next+complete/s")
		b.ReportMetric(reopen.Seconds(), "reopen-s")
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
		b.ReportMetric(float64(rss)/(1<<10), "rss-MB")
		b.ReportMetric(float64(hwm)/(1<<10), "peak-rss-MB")
		b.ReportMetric(float64(dirSize(b, dir))/(1<<20), "disk-MB")
	}
}

// procStatus returns a kB field of /proc/self/status, or 0 off Linux.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if ok && name == field {
			v, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v
		}
	}
	return 0
}

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
