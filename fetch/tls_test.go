package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestHTTPS(t *testing.T) {
	var sni atomic.Value
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("secret " + r.Host))
	}))
	ts.TLS = &tls.Config{GetConfigForClient: func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
		sni.Store(hello.ServerName)
		return nil, nil
	}}
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the rejected handshakes are expected
	ts.StartTLS()
	t.Cleanup(ts.Close)
	addr := ts.Listener.Addr().String()
	trusted := x509.NewCertPool()
	trusted.AddCert(ts.Certificate())

	tests := []struct {
		name        string
		cfg         Config
		url         string
		wantErr     bool
		wantVerify  bool // TLSVerifyError set
		wantBodyEnd string
	}{
		{"insecure accepts an unknown CA", Config{InsecureTLS: true}, "https://" + addr + "/", false, true, "secret " + addr},
		{"strict rejects an unknown CA", Config{}, "https://" + addr + "/", true, false, ""},
		{"strict with the CA, name via ConnectTo", Config{RootCAs: trusted, ConnectTo: map[string]string{"example.com": addr}},
			"https://example.com/", false, false, "secret example.com"},
		{"wrong name fails strict", Config{RootCAs: trusted, ConnectTo: map[string]string{"wrong.test": addr}},
			"https://wrong.test/", true, false, ""},
		{"wrong name recorded when insecure", Config{InsecureTLS: true, RootCAs: trusted, ConnectTo: map[string]string{"wrong.test": addr}},
			"https://wrong.test/", false, true, "secret wrong.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, tt.cfg)
			res, err := c.Do(context.Background(), "GET", tt.url, nil)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("fetched despite a bad certificate: %q", res.TLSVerifyError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.RawResponse[res.BodyOffset:]); got != tt.wantBodyEnd {
				t.Errorf("body %q, want %q", got, tt.wantBodyEnd)
			}
			if (res.TLSVerifyError != "") != tt.wantVerify {
				t.Errorf("TLSVerifyError = %q", res.TLSVerifyError)
			}
			if !strings.HasPrefix(string(res.RawResponse), "HTTP/1.1 200 OK\r\n") {
				t.Errorf("RawResponse %q", res.RawResponse)
			}
			if host, _, _ := strings.Cut(strings.TrimPrefix(tt.url, "https://"), "/"); !strings.Contains(host, ":") {
				if got, _ := sni.Load().(string); got != host {
					t.Errorf("SNI %q, want %q", got, host)
				}
			}
			// Keep-alive works over TLS too.
			res2, err := c.Do(context.Background(), "GET", tt.url, nil)
			if err != nil {
				t.Fatalf("second request: %v", err)
			}
			if !res2.Reused || res2.TLSVerifyError != res.TLSVerifyError {
				t.Errorf("second request: reused %v, verify %q", res2.Reused, res2.TLSVerifyError)
			}
		})
	}
}
