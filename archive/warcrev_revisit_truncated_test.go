package archive

import (
	"testing"
	"time"
)

// TestRevisitIdenticalDigestSaysTruncatedLength (a WARC review): an
// identical-payload-digest revisit whose block holds the new response's
// header but not its body is a response "truncated to avoid storing the
// duplicate content", and WARC 1.1 section 6.7.2 says "A WARC-Truncated
// header with reason 'length' shall be used for any identical-digest
// truncation" (Heritrix's RevisitRecordBuilder writes it on every
// revisit). A revisit with no body to leave out, and a
// server-not-modified one with an empty block, need none.
func TestRevisitIdenticalDigestSaysTruncatedLength(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(Config{Dir: dir, Compress: true, Hostname: "h"})
	if err != nil {
		t.Fatal(err)
	}
	body := "<html>unchanged page</html>"
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 27\r\n\r\n" + body
	date := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if _, err := w.WriteRevisit(&Revisit{URL: "http://example.test/", RawResponse: []byte(resp),
		Profile: ProfileIdenticalPayloadDigest, PayloadDigest: PayloadDigest([]byte(resp), 0, false, true),
		RefersTo: "<urn:uuid:00000000-0000-4000-8000-000000000001>", RefersToTargetURI: "http://example.test/",
		RefersToDate: date.Add(-time.Hour), Date: date}); err != nil {
		t.Fatal(err)
	}
	empty := "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
	if _, err := w.WriteRevisit(&Revisit{URL: "http://example.test/empty", RawResponse: []byte(empty),
		Profile: ProfileIdenticalPayloadDigest, PayloadDigest: PayloadDigest([]byte(empty), 0, false, true),
		Date: date}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteRevisit(&Revisit{URL: "http://example.test/304", Profile: ProfileServerNotModified,
		RawResponse: []byte("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"),
		RefersTo:    "<urn:uuid:00000000-0000-4000-8000-000000000001>", Date: date}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"http://example.test/": TruncatedLength, "http://example.test/empty": "", "http://example.test/304": ""}
	seen := 0
	for _, f := range w.Files() {
		for _, r := range readAll(t, f) {
			if r.Type != "revisit" {
				continue
			}
			seen++
			if got := r.Header("WARC-Truncated"); got != want[r.TargetURI] {
				t.Errorf("revisit of %s (%s, block %q): WARC-Truncated %q, want %q", r.TargetURI,
					r.Header("WARC-Profile"), r.Block, got, want[r.TargetURI])
			}
		}
	}
	if seen != 3 {
		t.Fatalf("read %d revisit records, want 3", seen)
	}
}
