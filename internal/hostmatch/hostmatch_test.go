package hostmatch

import "testing"

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
