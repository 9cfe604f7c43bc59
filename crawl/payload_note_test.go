package crawl

import (
	"context"
	"strings"
	"testing"
)

// TestPayloadNoteCut (from a review): a server answering 200 text/html
// with a Content-Encoding of 900 KiB (the real fetcher takes header
// blocks up to 1 MiB; checked against it) got the whole coding into its
// crawl.log annotation: "payload:"+perr.Error() was not cut as
// errString cuts fetch errors to 200 bytes. Every such page writes a
// line of that size to crawl.log, which report and every log tool read.
func TestPayloadNoteCut(t *testing.T) {
	coding := strings.Repeat("a", 900<<10) // printable: textproto takes it; under the 1 MiB header limit
	body := `<html lang="th"><body>x</body></html>`
	web := fakeWeb{"http://a.test/": "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: " + coding +
		"\r\nContent-Length: 37\r\n\r\n" + body}
	r := newRetryRig(t, web, nil)
	c := r.crawler(t, Config{}, nil, "http://a.test/")
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	log := r.lines(t)
	if !strings.Contains(log, "payload:") {
		t.Fatalf("no payload annotation; crawl.log:\n%.400s", log)
	}
	for _, line := range strings.Split(log, "\n") {
		if len(line) > 8<<10 {
			t.Errorf("one crawl.log line of %d bytes from a server's Content-Encoding; want the annotation cut (as errString cuts to 200)", len(line))
		}
	}
	for _, e := range c.Sites(0).Errors {
		if len(e.Note) > 8<<10 {
			t.Errorf("status page error note of %d bytes", len(e.Note))
		}
	}
}
