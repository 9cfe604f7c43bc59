package fetch

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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

// certFor returns a certificate for names, valid from notBefore to
// notAfter, signed by parent (self-signed when parent is nil).
func certFor(t *testing.T, names []string, notBefore, notAfter time.Time, isCA bool, parent *tls.Certificate) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: names[0]},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		DNSNames:              names,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  isCA,
	}
	signer, signerCert := any(key), tmpl
	if parent != nil {
		signer, signerCert = parent.PrivateKey, parent.Leaf
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signerCert, &key.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
}

// TestTLSVerifyErrorRecorded: with InsecureTLS, a self-signed, an expired
// and a wrong-host certificate are all fetched and their verification
// failure is in Result.TLSVerifyError; a good one leaves it empty. Without
// InsecureTLS each fails the fetch.
func TestTLSVerifyErrorRecorded(t *testing.T) {
	now := time.Now()
	ca := certFor(t, []string{"Test CA"}, now.Add(-time.Hour), now.Add(24*time.Hour), true, nil)
	roots := x509.NewCertPool()
	roots.AddCert(ca.Leaf)
	tests := []struct {
		name string
		cert tls.Certificate
		want string // in TLSVerifyError; "" for a certificate that verifies
	}{
		{"good", certFor(t, []string{"site.test"}, now.Add(-time.Hour), now.Add(time.Hour), false, &ca), ""},
		{"self-signed", certFor(t, []string{"site.test"}, now.Add(-time.Hour), now.Add(time.Hour), false, nil), "unknown authority"},
		{"expired", certFor(t, []string{"site.test"}, now.Add(-48*time.Hour), now.Add(-24*time.Hour), false, &ca), "expired"},
		{"not yet valid", certFor(t, []string{"site.test"}, now.Add(24*time.Hour), now.Add(48*time.Hour), false, &ca), "not yet valid"},
		{"wrong host", certFor(t, []string{"other.test"}, now.Add(-time.Hour), now.Add(time.Hour), false, &ca), "site.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte("body"))
			}))
			ts.TLS = &tls.Config{Certificates: []tls.Certificate{tt.cert}}
			ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the rejected handshakes are expected
			ts.StartTLS()
			t.Cleanup(ts.Close)
			connectTo := map[string]string{"site.test": ts.Listener.Addr().String()}

			c := newClient(t, Config{InsecureTLS: true, RootCAs: roots, ConnectTo: connectTo})
			res, err := c.Do(context.Background(), "GET", "https://site.test/", nil)
			if err != nil {
				t.Fatalf("InsecureTLS: %v", err)
			}
			if string(res.RawResponse[res.BodyOffset:]) != "body" {
				t.Errorf("body %q", res.RawResponse[res.BodyOffset:])
			}
			switch {
			case tt.want == "" && res.TLSVerifyError != "":
				t.Errorf("TLSVerifyError = %q for a good certificate", res.TLSVerifyError)
			case tt.want != "" && !strings.Contains(res.TLSVerifyError, tt.want):
				t.Errorf("TLSVerifyError = %q, want it to mention %q", res.TLSVerifyError, tt.want)
			}

			strict := newClient(t, Config{RootCAs: roots, ConnectTo: connectTo})
			_, err = strict.Do(context.Background(), "GET", "https://site.test/", nil)
			if (err == nil) != (tt.want == "") {
				t.Errorf("strict: err = %v", err)
			}
		})
	}
}
