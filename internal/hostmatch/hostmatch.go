// Package hostmatch finds the settings that apply to a host among settings
// keyed by host name or by domain, as Heritrix's sheets apply by SURT
// prefix: a key "example.org" applies to that host only, a key
// ".example.org" to example.org and every host under it. The most specific
// key wins: the host itself, then its nearest enclosing domain.
package hostmatch

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/net/idna"
)

// Lookup returns the value for host in m and whether one applies. host may
// carry a port, which is ignored; it is compared case-insensitively. The
// keys of m must be lower-case.
func Lookup[T any](m map[string]T, host string) (T, bool) {
	var zero T
	if len(m) == 0 {
		return zero, false
	}
	h := strings.ToLower(host)
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	h = strings.TrimSuffix(h, ".")
	if v, ok := m[h]; ok {
		return v, true
	}
	for d := h; d != ""; {
		if v, ok := m["."+d]; ok {
			return v, true
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			break
		}
		d = d[i+1:]
	}
	return zero, false
}

// Key returns the key a setting for name is kept under, the form Lookup
// compares hosts in: lower-case, an internationalised name in its ASCII
// (punycode) form as crawled URLs carry it (ทดสอบ.test -> xn--...), no
// trailing dot; a leading dot (a domain) kept. Only a name with non-ASCII
// letters goes through IDNA, as the fetcher's does: an ASCII name keeps
// what URLs may hold and strict host-name rules refuse (my_host.example,
// r3---sn-abc.example). A name with a port, a path, white space or an
// empty label is an error: a setting applies to a host on every port.
func Key(name string) (string, error) {
	s := strings.TrimSpace(name)
	dot := strings.HasPrefix(s, ".")
	h := strings.TrimSuffix(strings.TrimPrefix(s, "."), ".")
	if h == "" || strings.ContainsAny(h, "/: \t\\@") || slices.Contains(strings.Split(h, "."), "") {
		return "", fmt.Errorf("%q is not a host name, or .domain (no port, path, scheme or empty label)", name)
	}
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			a, err := idna.Lookup.ToASCII(h)
			if err != nil {
				return "", fmt.Errorf("%q is not a host name: %v", name, err)
			}
			h = a
			break
		}
	}
	h = strings.ToLower(h)
	if dot {
		h = "." + h
	}
	return h, nil
}
