package crawl

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/fetch"
	"github.com/langcrawl/langcrawl/politeness"
)

// TestRobotsCutAtLimitDropsHalfLine (from an RFC 9309 review; section 2.5;
// politeness.TestParseRobotsTruncates): a robots.txt longer than
// MaxRobotsSize is read to the limit, and a rule cut in half there is
// dropped. RobotsFetcher hands the gate exactly MaxRobotsSize bytes, and
// the gate cuts a body back to its last line break only when it is longer
// than that, so the half rule is obeyed: "Allow: /secret-archive" cut to
// "Allow: /s" outranks "Disallow: /" and lets /secret through.
func TestRobotsCutAtLimitDropsHalfLine(t *testing.T) {
	const prefix = "Allow: /s"
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /\n")
	for b.Len() < politeness.MaxRobotsSize-len(prefix)-40 {
		b.WriteString("# padding padding padding\n")
	}
	b.WriteString(strings.Repeat("#", politeness.MaxRobotsSize-len(prefix)-b.Len()-1) + "\n")
	b.WriteString("Allow: /secret-archive\n# more\n")
	body := b.String()
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, body)
	}, fetch.Config{})
	if d := secretAllowed(t, client); d.Allowed {
		t.Errorf("robots.txt of %d bytes, %q straddling the %d-byte limit: /secret allowed by its first %d bytes (%s)",
			len(body), "Allow: /secret-archive", politeness.MaxRobotsSize, len(prefix), d.Reason)
	}
}

// TestMalformedRobotsResponseDisallows (from an RFC 9309 review; section
// 2.3.1.4: a robots.txt unreachable "due to server or network errors" is
// undefined, and the crawler MUST assume complete disallow). A server that
// answers /robots.txt with a response that is not HTTP (garbage, an
// oversized head) but serves its pages: RobotsFetcher counted the
// malformed answer among the "permanent" failures and reported it to the
// gate as a 404, which allowed everything. Now it defers as a 5xx does.
func TestMalformedRobotsResponseDisallows(t *testing.T) {
	client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
				fmt.Fprint(c, "HTTP/1.1 2OO OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /\n")
				c.Close()
			}
			return
		}
		attackPage(w)
	}, fetch.Config{})
	if d := secretAllowed(t, client); d.Allowed {
		t.Errorf("robots.txt answered with a malformed response: /secret allowed (%s), want disallowed for now", d.Reason)
	}
}

// TestRobotsRedirectsFollowedAcrossHosts (RFC 9309 section 2.3.1.2: follow
// at least five consecutive redirects, even across authorities; the rules
// found apply to the initial authority). It conformed when an RFC 9309
// review wrote it; kept as a record.
func TestRobotsRedirectsFollowedAcrossHosts(t *testing.T) {
	for _, tt := range []struct {
		hops    int
		allowed bool
	}{{5, false}, {6, true}} {
		client := attackServer(t, func(w http.ResponseWriter, r *http.Request) {
			n := 0
			fmt.Sscanf(r.Host, "h%d.test", &n)
			if r.Host == "a.test" || n < tt.hops {
				http.Redirect(w, r, fmt.Sprintf("http://h%d.test/robots.txt", n+1), http.StatusFound)
				return
			}
			fmt.Fprint(w, "User-agent: *\nDisallow: /secret\n")
		}, fetch.Config{})
		if d := secretAllowed(t, client); d.Allowed != tt.allowed {
			t.Errorf("%d redirects across hosts: allowed %v, want %v (%s)", tt.hops, d.Allowed, tt.allowed, d.Reason)
		}
	}
}
