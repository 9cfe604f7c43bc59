package crawl

import "testing"

// TestInterimLinesStatusLinesOnly (from an HTTP framing review): the interimResponses metadata lists
// the status line of each interim head, and nothing else. The review
// found an obs-fold continuation line of a 103's field (" HTTP/1.1 404
// Fake", which net/http reads as part of the Link value) listed as an
// interim response of its own: a server wrote into the metadata record
// a response it never sent.
func TestInterimLinesStatusLinesOnly(t *testing.T) {
	raw := "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n HTTP/1.1 404 Fake\r\n\r\n" +
		"HTTP/1.1 100 Continue\r\n\r\n"
	if got, want := interimLines([]byte(raw)), "HTTP/1.1 103 Early Hints; HTTP/1.1 100 Continue"; got != want {
		t.Errorf("interimLines = %q, want %q", got, want)
	}
}
