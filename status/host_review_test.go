package status

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHostHeaderChecked (from a review): the status server binds 127.0.0.1
// by default, but answered whatever Host a request named. A page the
// archivist opens (http://rebind.attacker.example:9100/) whose name the
// attacker then points at 127.0.0.1 (DNS rebinding) is same-origin with
// the crawl's server and reads /status.json (the operator's seeds, pause
// reason, exclusion rules and changes, the hosts crawled, the latest
// errors) and /metrics, with no token. A loopback-bound server should
// answer only a Host that is an IP literal or localhost (or the name it
// was configured with), 403 or 421 otherwise. Its own names must still work.
func TestHostHeaderChecked(t *testing.T) {
	srv, err := New(Config{Source: fakeSource{}, Control: &fakeControl{}, Token: "secret",
		Metrics: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "langcrawl_pages_total 7\n") })})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	get := func(host, path string) (int, string) {
		req := httptest.NewRequest("GET", "http://127.0.0.1:9100"+path, nil)
		req.Host = host
		req.RemoteAddr = "127.0.0.1:50000" // a rebound page's request comes from the archivist's own browser
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	for _, host := range []string{"127.0.0.1:9100", "localhost:9100", "[::1]:9100"} {
		if code, _ := get(host, "/status.json"); code != http.StatusOK {
			t.Errorf("Host %s: /status.json answered %d, want 200", host, code)
		}
	}
	for _, path := range []string{"/status.json", "/metrics", "/"} {
		code, body := get("rebind.attacker.example:9100", path)
		if code == http.StatusOK {
			t.Errorf("Host rebind.attacker.example:9100: %s answered 200 (%.60q…); want 403 or 421 (DNS rebinding reads the crawl's state)",
				path, strings.TrimSpace(body))
		}
	}
	// A server on a network address (metrics.all_interfaces) is reached
	// by the machine's names: AnyHost.
	any, err := New(Config{Source: fakeSource{}, AnyHost: true})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "http://crawler.lib.example:9100/status.json", nil)
	w := httptest.NewRecorder()
	any.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		t.Errorf("AnyHost: Host crawler.lib.example answered %d, want 200", w.Code)
	}
}
