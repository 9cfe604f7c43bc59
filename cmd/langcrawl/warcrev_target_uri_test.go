package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
)

// targetURIRFC3986 is an absolute http URI of RFC 3986 (appendix A).
var targetURIRFC3986 = regexp.MustCompile(`^https?://([A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*(:[0-9]*)?` +
	`(/([A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*` +
	`(\?([A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$`)

// TestCrawlTargetURIsAreRFC3986 (a WARC review) crawls a page whose links
// carry bytes a browser sends bare but RFC 3986 does not allow ('{', '|',
// '^', '[', ']', a stray '%' in a query; '[' in a path) and checks every
// WARC-Target-URI: WARC 1.1 section 5 defines it as "uri = <'URI' per
// RFC3986>", "written as specified in [RFC 3986]". jwarc's
// WarcTargetRecord.targetURI() (java.net.URI.create) throws on the
// others. The index's url must be the record's.
func TestCrawlTargetURIsAreRFC3986(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><body><p>หน้าแรก</p>`+
			`<a href="/s?q={x}|y^z">a</a><a href="/list?a[]=1&amp;b[c]=2">b</a>`+
			`<a href="/p?q=100%">c</a><a href="/p[1]/x">d</a></body></html>`)
	})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	out := t.TempDir()
	p := filepath.Join(t.TempDir(), "profile.yaml")
	cfg := loadProfileText(t, p, fmt.Sprintf(`seeds: ["http://brackets.test/"]
out: %q
user_agent: "langcrawl-test/1 (+https://example.org/test)"
workers: 2
delay: 2ms
scope: {one_query_per_script: false}
network:
  connect_to:
    "*": %s
`, out, ln.Addr().String()))
	if _, err := runCrawl(context.Background(), cfg, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	warcs, _ := filepath.Glob(filepath.Join(out, warcDir, "*.warc.gz"))
	n := 0
	for _, f := range warcs {
		recs, err := archive.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.TargetURI == "" {
				continue
			}
			n++
			if !targetURIRFC3986.MatchString(r.TargetURI) {
				t.Errorf("%s record: WARC-Target-URI %q is not an RFC 3986 URI", r.Type, r.TargetURI)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d records with a WARC-Target-URI; want the seed, robots.txt and the four links", n)
	}
}
