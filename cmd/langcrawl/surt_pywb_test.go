package main

import (
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/langcrawl/langcrawl/archive"
)

// TestSURTMatchesPywb holds archive.SURT, the key of every index line
// langcrawl writes, to pywb's own (surt.surt, which pywb 2.9.1 looks a URL
// up with), run in pywb's Python on 3,000 URLs: the odd ones of
// TestWACZKeysFoundByPywb and random ones built from the pieces real sites
// write (escapes of unreserved and reserved characters in either case,
// empty and dot segments, session ids, sorted and unsorted queries, IPv4,
// IDN and www hosts, ports). A replay review found 14 of 59 captures of
// such URLs not found in a WACZ, their keys not pywb's.
func TestSURTMatchesPywb(t *testing.T) {
	python := filepath.Join(pywbBin(t), "..", "venv", "bin", "python")
	urls := []string{}
	for _, p := range oddPaths() {
		if !strings.HasPrefix(p, "http") {
			p = "http://odd.test" + p
		}
		if !strings.ContainsAny(p, " \t") && !strings.ContainsFunc(p, func(r rune) bool { return r > 0x7e }) {
			urls = append(urls, p)
		}
	}
	rng := rand.New(rand.NewPCG(2, 9))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	hosts := []string{"odd.test", "ODD.Test", "www.odd.test", "www2.odd.test", "wwwodd.test", "93.184.216.34", "xn--o3cw4h.test",
		"odd.test:8080", "odd.test:80", "sub.odd.co.th", "[2001:db8::1]"}
	segs := []string{"a", "B", "%7E", "%7e", "~", "%2F", "%2f", "%25", "%3F", "%41", "%E0%B8%97", "%e0%b8%97", "", ".", "..", "x;jsessionid=ABCDEF0123456789ABCDEF0123456789",
		"(S(abcdefghijklmnopqrstuvwx))", "page.aspx", "+", "%20", "a.html", "index.php", "%2B", "!", "$", "'", "*", ":", "@"}
	args := []string{"a=1", "b=2", "B=%7e", "q=a+b", "q=a%20b", "sid=0123456789abcdef0123456789abcdef",
		"PHPSESSID=0123456789abcdef0123456789abcdef", "x", "=y", "a=", "a=%3D", "b=%26", "c=%E0%B8%97", "cfid=1&cftoken=2", "z=%7E", ""}
	for len(urls) < 3000 {
		var b strings.Builder
		b.WriteString(pick([]string{"http://", "https://"}) + pick(hosts))
		for range rng.IntN(5) {
			b.WriteString("/" + pick(segs))
		}
		if rng.IntN(4) == 0 {
			b.WriteString("/")
		}
		if rng.IntN(2) == 0 {
			b.WriteString("?")
			for i := range rng.IntN(4) {
				if i > 0 {
					b.WriteString("&")
				}
				b.WriteString(pick(args))
			}
		}
		urls = append(urls, b.String())
	}
	cmd := exec.Command(python, "-c", "import sys, surt\nfor l in sys.stdin.read().split('\\n'):\n    print(surt.surt(l) if l else '')")
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pywb's surt in %s: %v", python, err)
	}
	keys := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(keys) != len(urls) {
		t.Fatalf("pywb's surt gave %d keys for %d URLs", len(keys), len(urls))
	}
	bad := 0
	for i, u := range urls {
		if got := archive.SURT(u); got != keys[i] {
			if bad++; bad <= 20 {
				t.Errorf("SURT(%q) = %q; pywb's key %q", u, got, keys[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d keys differ from pywb's", bad, len(urls))
	}
}
