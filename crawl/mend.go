package crawl

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/langcrawl/langcrawl/archive"
	"github.com/langcrawl/langcrawl/frontier"
	"github.com/langcrawl/langcrawl/internal/logfiles"
)

// Mend appends a crawl.log line for every response or revisit record in
// the WARC files that has none, and returns how many it added. The engine
// writes a URL's records, then its line, then completes it in the frontier
// (archive's crash contract), so a kill between the records and the line
// leaves a capture without a line, of a URL still in flight that the
// resumed crawl fetches again under a line of its own; and a power cut can
// lose the last interval's lines when the WARC file was synced and
// crawl.log not yet. A resumed crawl calls Mend on the WARC files the
// kill may have touched (the one it left open and the one before), and
// the capture gets its line, rebuilt from its records and annotated
// "recovered-from-warc" (via and hops come from the metadata record;
// worker and fetch timing are unknown). Only lines written since the
// oldest of those records are compared, read from the end of the log.
// Mend needs a log opened with OpenCrawlLog.
func (l *CrawlLog) Mend(files []string) (int, error) {
	if l.f == nil {
		return 0, fmt.Errorf("crawl.log: Mend needs OpenCrawlLog")
	}
	// The first pass keeps 8 bytes a capture, its URL's hash, and the
	// oldest date; the log's URLs since then are hashed too. Only the
	// captures without a line, none or a few (those a kill or a power cut
	// caught between record and line), are read again in full. Keeping
	// every capture's fields and every logged URL at once held about
	// 900 bytes a capture, twice the running crawl's memory at the start
	// after a kill (a soak review: 2.3 GB for two WARC files of 1.1 GB).
	var (
		captures []uint64
		oldest   time.Time
	)
	for _, f := range files {
		err := archive.Each(f, 0, func(r archive.Record) error {
			if r.Type == "response" || r.Type == "revisit" {
				captures = append(captures, urlHash(r.TargetURI))
				if date, err := time.Parse(time.RFC3339, r.Header("WARC-Date")); err == nil && (oldest.IsZero() || date.Before(oldest)) {
					oldest = date
				}
			}
			return nil
		})
		if err != nil {
			return 0, fmt.Errorf("crawl.log: mend from %s: %w", f, err)
		}
	}
	if len(captures) == 0 {
		return 0, nil
	}
	logged, err := l.urlsSince(oldest.Add(-time.Minute))
	if err != nil {
		return 0, err
	}
	slices.Sort(logged)
	missing := map[uint64]bool{}
	for _, h := range captures {
		if _, ok := slices.BinarySearch(logged, h); !ok {
			missing[h] = true
		}
	}
	captures = nil
	if len(missing) == 0 {
		return 0, nil
	}

	type rec struct {
		url    string
		date   time.Time
		status int
		bytes  int64
		mime   string
		digest string
		id     string
	}
	var recs []rec
	meta := map[string][]archive.Field{} // WARC-Refers-To -> via, hopsFromSeed, of the records read
	for _, f := range files {
		err := archive.Each(f, 16<<10, func(r archive.Record) error {
			switch r.Type {
			case "response", "revisit":
				if !missing[urlHash(r.TargetURI)] {
					return nil
				}
				date, _ := time.Parse(time.RFC3339, r.Header("WARC-Date"))
				n, _ := strconv.ParseInt(r.Header("Content-Length"), 10, 64)
				status, mime := httpHead(r.Block)
				recs = append(recs, rec{url: r.TargetURI, date: date, status: status, bytes: n,
					mime: mime, digest: r.Header("WARC-Payload-Digest"), id: r.ID})
				meta[r.ID] = nil
			case "metadata":
				if _, ok := meta[r.RefersTo]; !ok {
					return nil
				}
				for _, line := range strings.Split(string(r.Block), "\r\n") {
					name, value, _ := strings.Cut(line, ": ")
					if name == "via" || name == "hopsFromSeed" {
						meta[r.RefersTo] = append(meta[r.RefersTo], archive.Field{Name: name, Value: value})
					}
				}
			}
			return nil
		})
		if err != nil {
			return 0, fmt.Errorf("crawl.log: mend from %s: %w", f, err)
		}
	}
	added := 0
	for _, r := range recs {
		h := urlHash(r.url)
		if !missing[h] {
			continue // a second capture of a URL given its line already
		}
		delete(missing, h)
		e := frontier.Entry{URL: r.url, Hops: "P"} // robots.txt has no metadata record
		if fs := meta[r.id]; len(fs) > 0 {
			e.Hops = ""
			for _, f := range fs {
				switch f.Name {
				case "via":
					e.Via = f.Value
				case "hopsFromSeed":
					e.Hops = f.Value
				}
			}
		}
		out := outcome{status: r.status, bytes: r.bytes, mime: r.mime, digest: r.digest, annot: []string{"recovered-from-warc"}}
		if err := l.Write(r.date, 0, e, out); err != nil {
			return added, err
		}
		added++
	}
	return added, nil
}

// urlHash is the 64-bit FNV-1a hash Mend keeps of a URL in place of the
// URL: two URLs of one crawl sharing one is a chance of about one in 10^7
// for a million URLs, and costs at worst one line not rebuilt.
func urlHash(u string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(u))
	return h.Sum64()
}

// urlsSince returns the URLs (urlHash) of the log lines stamped at or after since,
// reading the log backwards from its end, through the segments rotated
// before the live file (logfiles) as far as since reaches.
func (l *CrawlLog) urlsSince(since time.Time) ([]uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var urls []uint64
	old, err := linesSince(l.f, l.size, since, &urls)
	if err != nil || old {
		return urls, wrapLogErr(l.f.Name(), err)
	}
	segs, err := logfiles.Segments(l.name)
	if err != nil {
		return nil, err
	}
	for i := len(segs) - 1; i >= 0 && !old; i-- {
		if segs[i] == l.name {
			continue // the live file, read above
		}
		if strings.HasSuffix(segs[i], ".gz") {
			// Compressed by the operator, so long done: at worst a
			// URL of it gets a second line.
			break
		}
		f, err := os.Open(segs[i])
		if err != nil {
			return nil, fmt.Errorf("crawl.log: %w", err)
		}
		size, err := wholeLines(f)
		if err == nil {
			old, err = linesSince(f, size, since, &urls)
		}
		f.Close()
		if err != nil {
			return nil, wrapLogErr(segs[i], err)
		}
	}
	return urls, nil
}

func wrapLogErr(name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("crawl.log %s: %w", name, err)
}

// linesSince adds to urls the URL (urlHash) of each line of the first size bytes of
// r stamped at or after since, reading backwards from the end; old says
// that it met an older line, so that nothing before r is wanted.
func linesSince(r io.ReaderAt, size int64, since time.Time, urls *[]uint64) (old bool, err error) {
	end := size
	var carry []byte // the start of a line whose beginning is in the next chunk back
	buf := make([]byte, 64<<10)
	for end > 0 {
		n := min(int64(len(buf)), end)
		if _, err := r.ReadAt(buf[:n], end-n); err != nil {
			return false, err
		}
		chunk := append(append([]byte(nil), buf[:n]...), carry...)
		end -= n
		lines := bytes.Split(chunk, []byte("\n"))
		carry = lines[0] // may be cut; handled with the next chunk back
		if end == 0 {
			carry = nil
		} else {
			lines = lines[1:]
		}
		for i := len(lines) - 1; i >= 0; i-- {
			f := strings.Fields(string(lines[i]))
			if len(f) < 4 {
				continue
			}
			if ts, err := time.Parse("2006-01-02T15:04:05.000Z", f[0]); err == nil && ts.Before(since) {
				return true, nil
			}
			*urls = append(*urls, urlHash(f[3]))
		}
	}
	return false, nil
}

// httpHead reads the status and media type of a raw HTTP response.
func httpHead(msg []byte) (int, string) {
	head, _, _ := bytes.Cut(msg, []byte("\r\n\r\n"))
	lines := strings.Split(string(head), "\r\n")
	status := 0
	if f := strings.Fields(lines[0]); len(f) >= 2 {
		status, _ = strconv.Atoi(f[1])
	}
	for _, line := range lines[1:] {
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Type") {
			return status, mediaType(strings.TrimSpace(value))
		}
	}
	return status, ""
}
