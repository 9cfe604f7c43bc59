package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// countPacer records what the client asks of a Pacer.
type countPacer struct {
	mu       sync.Mutex
	hosts    map[string]int // bytes per host
	bigWait  int            // the largest read asked for
	waits    int
	quantum  int
	negative bool
}

func (p *countPacer) Quantum() int { return p.quantum }

func (p *countPacer) Wait(host string, n int) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waits++
	p.bigWait = max(p.bigWait, n)
	return 0
}

func (p *countPacer) Done(host string, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n < 0 {
		p.negative = true
	}
	p.hosts[host] += n
}

// Every byte of a response goes through the Pacer, in reads of at most
// its quantum, charged to the URL's host with its port unless it is the
// default.
func TestPacerChargedByHost(t *testing.T) {
	body := strings.Repeat("x", 50_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	p := &countPacer{hosts: map[string]int{}, quantum: 1000}
	c := newClient(t, Config{ConnectTo: map[string]string{"*": srv.Listener.Addr().String()}, Pacer: p, ReadBuffer: 4096})
	want := map[string]int{}
	for _, u := range []string{"http://a.test/", "http://A.test:80/x", "http://b.test:8080/", "http://b.test:8080/y"} {
		res, err := c.Do(context.Background(), http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.RawResponse[res.BodyOffset:]); got != body {
			t.Errorf("%s: body of %d bytes, want %d", u, len(got), len(body))
		}
		host := "a.test"
		if strings.Contains(u, "8080") {
			host = "b.test:8080"
		}
		want[host] += int(res.Size())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for h, n := range want {
		if p.hosts[h] != n {
			t.Errorf("Pacer charged %s with %d bytes, want %d (the responses read); all: %v", h, p.hosts[h], n, p.hosts)
		}
	}
	if len(p.hosts) != len(want) {
		t.Errorf("Pacer charged hosts %v, want %v", p.hosts, want)
	}
	if p.bigWait > p.quantum || p.waits == 0 || p.negative {
		t.Errorf("reads asked for up to %d bytes (quantum %d), %d waits, negative charge %v", p.bigWait, p.quantum, p.waits, p.negative)
	}
}

func TestReadBufferValidated(t *testing.T) {
	if _, err := New(Config{ReadBuffer: -1}); err == nil || !strings.Contains(err.Error(), "ReadBuffer") {
		t.Errorf("New(ReadBuffer: -1) = %v, want an error naming ReadBuffer", err)
	}
}

func TestSiteOf(t *testing.T) {
	for _, tc := range []struct{ host, port, def, want string }{
		{"a.test", "80", "80", "a.test"},
		{"A.Test", "443", "443", "a.test"},
		{"a.test", "8080", "80", "a.test:8080"},
		{"::1", "80", "80", "[::1]"},
		{"::1", "81", "80", "[::1]:81"},
	} {
		if got := siteOf(tc.host, tc.port, tc.def); got != tc.want {
			t.Errorf("siteOf(%q, %q, %q) = %q, want %q", tc.host, tc.port, tc.def, got, tc.want)
		}
	}
}
