package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

// TestLocalUseNAT64Refused (from a security review): 64:ff9b:1::/48 is the local-use NAT64 prefix of RFC
// 8215 (IANA special-purpose registry: not globally reachable). Unlike the
// well-known prefix 64:ff9b::/96, RFC 6052's ban on translating to
// non-global IPv4 does not apply to it: a library network's own NAT64 (and
// the DNS64 in front of it, which synthesises AAAA answers from A answers)
// translates 64:ff9b:1::a00:5 to 10.0.0.5. The guard documents that "NAT64
// 64:ff9b::a.b.c.d" falls in the class of the embedded IPv4 address, but
// classified the local-use prefix as public, so both a literal URL host
// and a (DNS64-synthesised) AAAA answer in it were let through, before
// resolution and at dial time; the whole /48 is reserved now. The fake Dial stands for the network: it
// records the dial and sends nothing.
func TestLocalUseNAT64Refused(t *testing.T) {
	for _, tt := range []struct{ addr, embeds string }{
		{"64:ff9b:1::a00:5", "10.0.0.5 at /96"},
		{"64:ff9b:1::7f00:1", "127.0.0.1 at /96"},
		{"64:ff9b:1::a9fe:a9fe", "169.254.169.254 at /96 (cloud metadata)"},
		{"64:ff9b:1:a00:0:500::", "10.0.0.5 with the /48 prefix itself (RFC 6052 section 2.2)"},
		{"64:ff9b:1:ffff:ff00:0:1::", "none: the block itself is not globally reachable"},
	} {
		a := netip.MustParseAddr(tt.addr)
		if class, _ := addrClass(a); class == "" {
			t.Errorf("addrClass(%s) = public; want refused (RFC 8215 local-use NAT64, not globally reachable; embeds %s)", a, tt.embeds)
		}
		// At dial time, as a DNS64 answer for an attacker's name would be
		// checked.
		g := guard{classes: map[string]bool{}}
		if err := g.control("dns64.test")("tcp6", net.JoinHostPort(a.String(), "80"), nil); !errors.Is(err, ErrAddressRefused) {
			t.Errorf("dial-time check of [%s]:80 for dns64.test: %v; want ErrAddressRefused", a, err)
		}
		// As a URL host (a link, a redirect, a requisite).
		var dialled atomic.Int64
		c, err := New(Config{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialled.Add(1)
			return nil, errors.New("review: the fake network was dialled")
		}})
		if err != nil {
			t.Fatal(err)
		}
		u := "http://[" + tt.addr + "]/"
		_, err = c.Do(context.Background(), "GET", u, nil)
		if !errors.Is(err, ErrAddressRefused) || dialled.Load() != 0 {
			t.Errorf("%s: %v (dials: %d); want ErrAddressRefused before any dial", u, err, dialled.Load())
		}
		c.Close()
	}
}

// TestOwnIPv6LinkRefused (from a security review): in an IPv6 library network every intranet host has a
// global unicast address in the library's prefix, not a private (ULA) one,
// and the crawler's own connections tell every site it visits that prefix
// (the source address). The guard refuses only the crawler's own exact
// addresses ("self"), so a page can link, redirect or point a DNS name at
// the router (prefix::1) or any other host on the crawler's own /64,
// found from the address the crawler came from. The guard refused only
// the crawler's own exact addresses; selfAddrs now keeps the on-link
// prefixes of global IPv6 addresses too. This test fakes an interface
// 2a01:4f8:c17:1d2::10/64. No connection is made: only the guard's check
// runs. An IPv4 neighbour stays allowed (TestGuardRefusesSelf).
func TestOwnIPv6LinkRefused(t *testing.T) {
	own := netip.MustParseAddr("2a01:4f8:c17:1d2::10")
	g, _ := parseAllow(nil)
	g.self = fixedOwnNet(netip.MustParsePrefix("2a01:4f8:c17:1d2::10/64"))
	if err := g.check("me.example", own); !errors.Is(err, ErrAddressRefused) {
		t.Fatalf("own address itself: %v (the existing self check should hold)", err)
	}
	for _, n := range []string{
		"2a01:4f8:c17:1d2::1",                 // the router of the crawler's /64
		"2a01:4f8:c17:1d2::53",                // a resolver, a NAS, a printer's admin page
		"2a01:4f8:c17:1d2:225:90ff:fe12:3456", // a BMC with an EUI-64 address
	} {
		if err := g.check("intranet.example", netip.MustParseAddr(n)); err == nil {
			t.Errorf("%s, on the crawler's own /64 next to %s, let through; want refused (the library's own network)", n, own)
		}
	}
	if err := g.check("elsewhere.example", netip.MustParseAddr("2a01:4f8:c17:1d3::1")); err != nil {
		t.Errorf("the next /64 refused: %v", err)
	}
	for _, tc := range []struct {
		p    string
		want int
	}{{"2a01:4f8::10/32", 0}, {"fd00::2/64", 0}, {"2a01:4f8:c17:1d2::10/128", 0}, {"192.0.2.2/24", 0}, {"2a01:4f8:c17:1d2::10/56", 1}} {
		p := netip.MustParsePrefix(tc.p)
		if got := onLink(p.Addr(), p.Bits()); len(got) != tc.want {
			t.Errorf("onLink(%s) = %v, want %d prefixes", tc.p, got, tc.want)
		}
	}
}

// TestLocalUseNAT64Allowed: an IPv6-only network that reaches IPv4 sites
// through a local-use NAT64 allows the prefix, as README says.
func TestLocalUseNAT64Allowed(t *testing.T) {
	g, errs := parseAllow([]string{"64:ff9b:1::/48"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if err := g.check("v4only.example", netip.MustParseAddr("64:ff9b:1::5db8:d822")); err != nil {
		t.Errorf("allowed local-use NAT64: %v", err)
	}
	if err := g.check("v4only.example", netip.MustParseAddr("64:ff9b:2::1")); err != nil {
		t.Errorf("outside the prefix, a public address: %v", err)
	}
}

// TestDenyAddresses: Config.DenyAddresses refuses a library's own public
// ranges, which no class covers, in every spelling of an address in them
// and whatever AllowAddresses says; other public addresses pass; a bad
// entry is an error naming it.
func TestDenyAddresses(t *testing.T) {
	g, errs := parseAllow([]string{"198.18.0.0/15", "private"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var derrs []error
	g.deny, derrs = parseDeny([]string{"130.225.0.0/16", "2001:878::/32", "93.184.216.34"})
	if len(derrs) > 0 {
		t.Fatal(derrs)
	}
	for _, a := range []string{"130.225.1.2", "::ffff:130.225.1.2", "2002:82e1:0102::1", "64:ff9b::82e1:102", "2001:878:1::5", "93.184.216.34"} {
		err := g.check("intranet.example", netip.MustParseAddr(a))
		var ae *AddressError
		if !errors.As(err, &ae) || ae.Class != AddrDenied {
			t.Errorf("%s in a denied range: %v, want refused as %q", a, err, AddrDenied)
		}
	}
	for _, a := range []string{"130.226.1.2", "2001:879::1", "93.184.216.35"} {
		if err := g.check("elsewhere.example", netip.MustParseAddr(a)); err != nil {
			t.Errorf("%s outside the denied ranges: %v", a, err)
		}
	}
	if _, err := New(Config{DenyAddresses: []string{"10.0.0.0/33", "intranet"}}); err == nil ||
		!strings.Contains(err.Error(), "DenyAddresses[0]") || !strings.Contains(err.Error(), "DenyAddresses[1]") {
		t.Errorf("bad deny entries: %v, want each named", err)
	}
}
