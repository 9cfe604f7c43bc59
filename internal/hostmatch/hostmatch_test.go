package hostmatch

import (
	"testing"

	"github.com/langcrawl/langcrawl/scope"
)

func TestLookup(t *testing.T) {
	m := map[string]string{"a.example.org": "host", ".example.org": "domain", ".org": "tld", ".b.example.org": "sub"}
	for host, want := range map[string]string{
		"a.example.org":      "host",
		"A.Example.ORG:8080": "host",
		"example.org":        "domain",
		"x.example.org":      "domain",
		"y.b.example.org":    "sub",
		"b.example.org":      "sub",
		"other.org":          "tld",
		"example.com":        "",
		"a.example.org.":     "host",
	} {
		got, ok := Lookup(m, host)
		if got != want || ok != (want != "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", host, got, ok, want)
		}
	}
	if _, ok := Lookup[string](nil, "a.org"); ok {
		t.Error("nil map matched")
	}
}

// TestKey: the key a host setting is kept under is the form crawled URLs
// carry: lower-case, punycode, no trailing dot; a domain keeps its dot; a
// port, a path or a scheme is refused (a setting with one never matched).
func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"TH-Travel25.test":    "th-travel25.test",
		" a.example.org. ":    "a.example.org",
		".Example.ORG":        ".example.org",
		"ทดสอบ.test":          "xn--l3cfk7dp.test",
		".ตัวอย่าง.ไทย":       ".xn--72c1a1bt4awk9o.xn--o3cw4h",
		"my_host.example":     "my_host.example",
		"r3---sn-abc.Example": "r3---sn-abc.example",
		"a.test..":            "",
		"..a.test":            "",
		"a..b.example":        "",
		"a.test:8080":         "",
		"http://a.test/":      "",
		"a.test/x":            "",
		"":                    "",
		".":                   "",
	} {
		got, err := Key(in)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("Key(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// The crawler's own canonical form of such a host (the WHATWG
	// parser) is what the key must match.
	u, err := scope.Canonicalize("http://ทดสอบ.test:80/")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int{}
	k, _ := Key("ทดสอบ.test")
	m[k] = 1
	if v, ok := Lookup(m, scope.SiteKey(u)); !ok || v != 1 {
		t.Errorf("key %q made from a Thai name does not match the crawled host %q", k, scope.SiteKey(u))
	}
}
