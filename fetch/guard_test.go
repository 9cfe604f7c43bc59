package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// Every spelling of the loopback address is refused through Client.Do,
// before any connection: the server listening on the URL's port sees none.
func TestGuardRefusesLoopbackSpellings(t *testing.T) {
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
	_, port, _ := net.SplitHostPort(srv.addr())
	c, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tt := range []struct{ host, class string }{
		{"127.0.0.1", AddrLoopback},
		{"2130706433", AddrLoopback},
		{"0x7f.1", AddrLoopback},
		{"0x7F000001", AddrLoopback},
		{"017700000001", AddrLoopback},
		{"0177.0.0.1", AddrLoopback},
		{"127.1", AddrLoopback},
		{"127.0.1", AddrLoopback},
		{"127.0.0.1.", AddrLoopback},
		{"127.254.0.9", AddrLoopback},
		{"[::ffff:7f00:1]", AddrLoopback},
		{"[::ffff:127.0.0.1]", AddrLoopback},
		{"[::127.0.0.1]", AddrLoopback},
		{"[64:ff9b::7f00:1]", AddrLoopback},
		{"[2002:7f00:1::1]", AddrLoopback},
		{"[::1]", AddrLoopback},
		{"user@127.0.0.1", AddrLoopback},
		{"user:pw@0x7f.1", AddrLoopback},
		{"localhost", AddrLoopback},
		{"LOCALHOST", AddrLoopback},
		{"localhost.", AddrLoopback},
		{"www.localhost", AddrLoopback},
		{"１２７.０.０.１", AddrLoopback}, // fullwidth digits, mapped by IDNA
		{"0.0.0.0", AddrUnspecified},
		{"0", AddrUnspecified},
		{"[::]", AddrUnspecified},
		{"10.1.2.3", AddrPrivate},
		{"172.31.255.255", AddrPrivate},
		{"192.168.0.1", AddrPrivate},
		{"[fd00::1]", AddrPrivate},
		{"169.254.169.254", AddrLinkLocal},
		{"[fe80::1%25eth0]", AddrLinkLocal},
		{"100.64.0.1", AddrCGNAT},
		{"224.0.0.1", AddrMulticast},
		{"[ff02::1]", AddrMulticast},
		{"255.255.255.255", AddrBroadcast},
		{"[::ffff:a9fe:a9fe]", AddrLinkLocal},
	} {
		for _, scheme := range []string{"http", "https"} {
			u := scheme + "://" + tt.host + ":" + port + "/x"
			res, err := c.Do(context.Background(), "GET", u, nil)
			if res != nil || !errors.Is(err, ErrAddressRefused) {
				t.Errorf("%s: got %v, %v; want ErrAddressRefused", u, res, err)
				continue
			}
			var ae *AddressError
			if !errors.As(err, &ae) || ae.Class != tt.class {
				t.Errorf("%s: class %+v, want %s", u, ae, tt.class)
			}
			msg := err.Error()
			if !strings.Contains(msg, u) || !strings.Contains(msg, tt.class) || !strings.Contains(msg, ae.Host) {
				t.Errorf("%s: error %q does not name the URL, the host and the class", u, msg)
			}
			if strings.Contains(msg, "dial") || strings.Contains(msg, "connect") {
				t.Errorf("%s: error %q tells about the connection", u, msg)
			}
		}
	}
	if st := c.Stats(); st.ConnsOpened != 0 || st.Requests != 0 || st.Refused != st.Failures || st.Refused == 0 {
		t.Errorf("stats %+v", st)
	}
	// Spellings that are not valid URL hosts fail before the guard.
	for _, host := range []string{"%31%32%37.0.0.1", "127.0.0.1.1", "0x7f.0.0.0.1", "127.0.0.256", "[::ffff:7f00:1%]"} {
		u := "http://" + host + ":" + port + "/"
		if res, err := c.Do(context.Background(), "GET", u, nil); res != nil || err == nil {
			t.Errorf("%s: got %v, %v; want an error", u, res, err)
		}
	}
	if n := srv.accepts.Load(); n != 0 {
		t.Errorf("the loopback server accepted %d connections", n)
	}
}

// With loopback allowed, the same spellings reach the server.
func TestGuardAllowLoopback(t *testing.T) {
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	_, port, _ := net.SplitHostPort(srv.addr())
	for _, allow := range [][]string{{"loopback"}, {"Loopback", "10.0.0.0/8"}, {"127.0.0.0/8"}, {"127.0.0.1"}} {
		c, err := New(Config{AllowAddresses: allow})
		if err != nil {
			t.Fatal(err)
		}
		for _, host := range []string{"127.0.0.1", "2130706433", "0x7f.0.0.1", "017700000001", "127.0.0.1.", "user@127.0.0.1", "[::ffff:7f00:1]"} {
			u := "http://" + host + ":" + port + "/"
			res, err := c.Do(context.Background(), "GET", u, nil)
			if err != nil {
				t.Errorf("allow %v: %s: %v", allow, u, err)
				continue
			}
			if string(res.RawResponse[res.BodyOffset:]) != "ok" || res.IP != "127.0.0.1" {
				t.Errorf("allow %v: %s: body %q from %s", allow, u, res.RawResponse[res.BodyOffset:], res.IP)
			}
		}
		c.Close()
	}
	// A prefix that does not cover loopback lets nothing else through.
	c := newClient(t, Config{AllowAddresses: []string{"10.0.0.0/8", "private"}})
	if _, err := c.Do(context.Background(), "GET", "http://127.0.0.1:"+port+"/", nil); !errors.Is(err, ErrAddressRefused) {
		t.Errorf("loopback with only private allowed: %v", err)
	}
}

// ConnectTo targets are the operator's choice and are never refused.
func TestGuardConnectToAllowed(t *testing.T) {
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	for _, m := range []map[string]string{{"localhost": srv.addr()}, {"*": srv.addr()}} {
		c, err := New(Config{ConnectTo: m})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Do(context.Background(), "GET", "http://localhost/", nil)
		if err != nil || string(res.RawResponse[res.BodyOffset:]) != "ok" {
			t.Errorf("ConnectTo %v: %v", m, err)
		}
		c.Close()
	}
}

// fakeDNS answers every A question with a and every other question with
// no records (scriptedDNS): no socket at all.
func fakeDNS(t *testing.T, a netip.Addr) *net.Resolver {
	return scriptedDNS(t, func(string) []netip.Addr { return []netip.Addr{a} })
}

// A name is checked by the address it resolves to, at dial time, so a
// DNS answer pointing at an internal address (rebinding) is refused before
// the connection.
func TestGuardCheckedAfterResolution(t *testing.T) {
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	_, port, _ := net.SplitHostPort(srv.addr())
	for _, tt := range []struct {
		ip    string
		allow []string
		class string // "" when allowed
	}{
		{"127.0.0.1", nil, AddrLoopback},
		{"10.9.8.7", nil, AddrPrivate},
		{"169.254.169.254", nil, AddrLinkLocal},
		{"127.0.0.1", []string{"loopback"}, ""},
	} {
		c, err := New(Config{AllowAddresses: tt.allow})
		if err != nil {
			t.Fatal(err)
		}
		c.resolver = fakeDNS(t, netip.MustParseAddr(tt.ip))
		u := "http://rebind.test:" + port + "/"
		res, err := c.Do(context.Background(), "GET", u, nil)
		var ae *AddressError
		switch {
		case tt.class == "" && err != nil:
			t.Errorf("%s -> %s allowed by %v: %v", u, tt.ip, tt.allow, err)
		case tt.class == "" && string(res.RawResponse[res.BodyOffset:]) != "ok":
			t.Errorf("%s -> %s: %q", u, tt.ip, res.RawResponse)
		case tt.class != "" && (!errors.As(err, &ae) || ae.Class != tt.class || ae.Host != "rebind.test"):
			t.Errorf("%s -> %s: got %v, want a refused %s address", u, tt.ip, err, tt.class)
		}
		c.Close()
	}
	if n := srv.accepts.Load(); n != 1 {
		t.Errorf("server accepted %d connections, want 1 (the allowed one)", n)
	}
}

func TestGuardSchemes(t *testing.T) {
	c, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, u := range []string{"file:///etc/passwd", "gopher://127.0.0.1:70/", "ftp://a.test/", "ws://a.test/", "dict://127.0.0.1:11211/", "//a.test/", "a.test/"} {
		if _, err := c.Do(context.Background(), "GET", u, nil); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
}

func TestAddrClass(t *testing.T) {
	for _, tt := range []struct{ addr, class string }{
		{"8.8.8.8", ""},
		{"93.184.216.34", ""},
		{"172.32.0.1", ""},
		{"172.15.255.255", ""},
		{"100.128.0.1", ""},
		{"2606:4700::1111", ""},
		{"::ffff:8.8.8.8", ""},
		{"0.1.2.3", AddrUnspecified},
		{"127.0.0.1", AddrLoopback},
		{"10.0.0.0", AddrPrivate},
		{"172.16.0.1", AddrPrivate},
		{"192.168.255.255", AddrPrivate},
		{"fc00::1", AddrPrivate},
		{"fec0::1", AddrPrivate},
		{"169.254.0.1", AddrLinkLocal},
		{"fe80::1%eth0", AddrLinkLocal},
		{"100.64.0.0", AddrCGNAT},
		{"100.127.255.255", AddrCGNAT},
		{"239.255.255.250", AddrMulticast},
		{"ff05::2", AddrMulticast},
		{"255.255.255.255", AddrBroadcast},
		{"::", AddrUnspecified},
		{"::1", AddrLoopback},
		{"::ffff:10.0.0.1", AddrPrivate},
		{"::ffff:0.0.0.0", AddrUnspecified},
		{"::10.0.0.1", AddrPrivate},
		{"64:ff9b::a9fe:a9fe", AddrLinkLocal},
		{"2002:c0a8:0101::", AddrPrivate},
		// Not globally reachable (RFC 6890): an address-guard trial ran on
		// a machine whose own interface was 192.0.2.2.
		{"192.0.2.2", AddrReserved},
		{"198.51.100.7", AddrReserved},
		{"203.0.113.1", AddrReserved},
		{"198.19.255.255", AddrReserved},
		{"240.0.0.1", AddrReserved},
		{"::ffff:192.0.2.2", AddrReserved},
		{"2001:db8::1", AddrReserved},
		{"198.20.0.1", ""},
		{"192.0.0.9", ""}, // globally reachable anycast (IANA)
		{"3fff::1", AddrReserved},
		{"2001:2::1", AddrReserved},
		{"192.0.3.1", ""},
	} {
		if got, _ := addrClass(netip.MustParseAddr(tt.addr)); got != tt.class {
			t.Errorf("addrClass(%s) = %q, want %q", tt.addr, got, tt.class)
		}
	}
}

func TestHostAddr(t *testing.T) {
	for _, tt := range []struct {
		host string
		want string // "" for a name, "error" for an invalid address
	}{
		{"example.com", ""},
		{"a.b.c.d.e", ""},
		{"1.example", ""},
		{"example.0x1g", ""},
		{"127.0.0.1", "127.0.0.1"},
		{"127.0.0.1.", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0X7F.0.0.1", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"0177.0.0.01", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"192.168.257", "192.168.1.1"},
		{"0x", "0.0.0.0"},
		{"0", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"::ffff:7f00:1", "::ffff:127.0.0.1"},
		{"1.2.3.4.5", "error"},
		{"1.2.3.256", "error"},
		{"256.1", "error"},
		{"4294967296", "error"},
		{"08", "error"},
		{"1..1", "error"},
		{"abc.1", "error"},
		{"::zz", "error"},
	} {
		a, ok, err := hostAddr(tt.host)
		switch {
		case tt.want == "error" && err == nil:
			t.Errorf("hostAddr(%q) = %v, %v; want an error", tt.host, a, ok)
		case tt.want == "" && (ok || err != nil):
			t.Errorf("hostAddr(%q) = %v, %v, %v; want a name", tt.host, a, ok, err)
		case tt.want != "" && tt.want != "error" && (err != nil || !ok || a.String() != tt.want):
			t.Errorf("hostAddr(%q) = %v, %v, %v; want %s", tt.host, a, ok, err, tt.want)
		}
	}
}

func TestAllowAddressesValidated(t *testing.T) {
	_, err := New(Config{AllowAddresses: []string{"loopback", "intranet", "10.0.0.0/33", "private", "10.0.0.300"}})
	if err == nil {
		t.Fatal("bad AllowAddresses accepted")
	}
	for _, want := range []string{`AllowAddresses[1]: "intranet"`, `AllowAddresses[2]: "10.0.0.0/33"`, `AllowAddresses[4]: "10.0.0.300"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "[0]") || strings.Contains(err.Error(), "[3]") {
		t.Errorf("good entries reported: %v", err)
	}
}

func TestAddressClassesListed(t *testing.T) {
	if len(AddressClasses) != len(classNames) {
		t.Fatalf("AddressClasses %v, classNames %v", AddressClasses, classNames)
	}
	for _, c := range AddressClasses {
		if !classNames[c] {
			t.Errorf("%s listed but not accepted", c)
		}
	}
}

// TestAddress: the address a fetch would connect to, told without
// connecting: a connect_to target, an IP literal in any spelling (the
// guard applies as for a fetch), a name through the resolver (a fake DNS
// here: nothing leaves the machine), and no lookup under a Dial of the
// caller's own, whose network only it knows.
func TestAddress(t *testing.T) {
	c, err := New(Config{ConnectTo: map[string]string{"mapped.test": "192.0.2.5:8080"}, AllowAddresses: []string{"loopback"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.resolver = fakeDNS(t, netip.MustParseAddr("203.0.113.9"))
	for _, tt := range []struct{ url, want, err string }{
		{"http://MAPPED.test:81/x", "192.0.2.5", ""},
		{"http://0x7f.1/", "127.0.0.1", ""},
		{"https://[::ffff:127.0.0.1]/", "127.0.0.1", ""},
		{"http://shop.test/", "203.0.113.9", ""},
		{"http://10.0.0.1/", "", "refused"},
		{"ftp://x.test/", "203.0.113.9", ""}, // the scheme is the fetch's to refuse
		{"http:///nohost", "", "no host"},
	} {
		got, err := c.Address(context.Background(), tt.url)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("Address(%s) = %q, %v; want %s", tt.url, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Address(%s) = %q, %v; want an error saying %q", tt.url, got, err, tt.err)
		}
	}
	d, err := New(Config{Dial: func(context.Context, string, string) (net.Conn, error) { return nil, errors.New("no") }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Address(context.Background(), "http://shop.test/"); !errors.Is(err, ErrNoLookup) {
		t.Errorf("Address under a custom Dial: %v, want ErrNoLookup", err)
	}
}

// fixedOwn is an ownAddrs that always reads as.
func fixedOwn(as ...netip.Addr) *ownAddrs {
	set := ownSet{addrs: map[netip.Addr]bool{}}
	for _, a := range as {
		set.addrs[a] = true
	}
	return &ownAddrs{read: func() (ownSet, error) { return set, nil }, now: time.Now}
}

// fixedOwnNet is an ownAddrs whose one interface address is p's, with p's
// prefix as onLink reads it.
func fixedOwnNet(p netip.Prefix) *ownAddrs {
	set := ownSet{addrs: map[netip.Addr]bool{p.Addr(): true}, links: onLink(p.Addr(), p.Bits())}
	return &ownAddrs{read: func() (ownSet, error) { return set, nil }, now: time.Now}
}

// TestGuardRereadsSelf: an address the machine gains after the start is
// refused as "self" once the reading is ownAddrsTTL old (a clock stepped
// back reads again too); within it, the interfaces are not read again.
func TestGuardRereadsSelf(t *testing.T) {
	first, later := netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("2001:4860::1234")
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	reads := 0
	set := map[netip.Addr]bool{first: true}
	g, _ := parseAllow(nil)
	var readErr error
	g.self = &ownAddrs{read: func() (ownSet, error) {
		reads++
		out := ownSet{addrs: map[netip.Addr]bool{}}
		for a := range set {
			out.addrs[a] = true
		}
		return out, readErr
	}, now: func() time.Time { return now }}
	if err := g.check("me.example", first); err == nil {
		t.Fatal("the first own address was let through")
	}
	set[later] = true // the machine gains an address
	if err := g.check("new.example", later); err != nil || reads != 1 {
		t.Fatalf("within the TTL: %v after %d reads, want let through on the first reading", err, reads)
	}
	now = now.Add(ownAddrsTTL)
	var ae *AddressError
	if err := g.check("new.example", later); !errors.As(err, &ae) || ae.Class != AddrSelf || reads != 2 {
		t.Errorf("after the TTL: %v after %d reads, want refused as %s on a second reading", err, reads, AddrSelf)
	}
	// A reading that fails keeps the addresses read before (a review:
	// an empty set let them through for 30 s).
	readErr = errors.New("netlink: no buffer space")
	delete(set, first)
	now = now.Add(ownAddrsTTL)
	if err := g.check("me.example", first); !errors.As(err, &ae) || reads != 3 {
		t.Errorf("after a failed reading: %v after %d reads, want still refused", err, reads)
	}
	readErr = nil
	set[first] = true
	delete(set, later)
	now = now.Add(-time.Hour) // the clock stepped back
	if err := g.check("new.example", later); err != nil || reads != 4 {
		t.Errorf("after a clock step back: %v after %d reads, want let through on a fourth reading", err, reads)
	}
}

// TestGuardRefusesSelf: an address of this machine's own interfaces is
// refused as "self" unless allowed (its public address reaches what it
// serves, as loopback does); a public address that is not its own is not.
func TestGuardRefusesSelf(t *testing.T) {
	own := netip.MustParseAddr("93.184.216.34")
	g, _ := parseAllow(nil)
	g.self = fixedOwn(own)
	var ae *AddressError
	if err := g.check("me.example", own); !errors.As(err, &ae) || ae.Class != AddrSelf {
		t.Errorf("own address: %v, want refused as %s", err, AddrSelf)
	}
	if err := g.check("me.example", netip.MustParseAddr("::ffff:93.184.216.34")); !errors.As(err, &ae) || ae.Class != AddrSelf {
		t.Errorf("own address, IPv4-mapped: %v, want refused as %s", err, AddrSelf)
	}
	if err := g.check("other.example", netip.MustParseAddr("93.184.216.35")); err != nil {
		t.Errorf("another public address: %v", err)
	}
	g, _ = parseAllow([]string{"self"})
	g.self = fixedOwn(own)
	if err := g.check("me.example", own); err != nil {
		t.Errorf("own address with self allowed: %v", err)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil && len(addrs) > 0 && func() int { m, _ := selfAddrs(); return len(m.addrs) }() == 0 {
		t.Errorf("selfAddrs read none of this machine's %d interface addresses", len(addrs))
	}
}

// TestTranslatedAndTeredoClassified: two more IPv6 spellings of an IPv4
// address fall in its class, as the mapped and NAT64 ones do: the
// IPv4-translated ::ffff:0:a.b.c.d of a stateless translator (RFC 6145), and
// Teredo's client address, stored inverted in the last 32 bits (RFC 4380).
// The rest of the IETF protocol assignments 2001::/23 is reserved, but for
// the blocks IANA's registry marks globally reachable. Before, all of them
// were public.
func TestTranslatedAndTeredoClassified(t *testing.T) {
	for _, tt := range []struct {
		addr, class, v4 string
	}{
		{"::ffff:0:a00:5", AddrPrivate, "10.0.0.5"},
		{"::ffff:0:7f00:1", AddrLoopback, "127.0.0.1"},
		{"::ffff:0:5db8:d822", "", "93.184.216.34"},
		// Teredo, server 65.54.227.120, client 10.0.0.5 and 169.254.169.254.
		{"2001:0:4136:e378:8000:63bf:f5ff:fffa", AddrPrivate, "10.0.0.5"},
		{"2001:0:4136:e378:8000:63bf:5601:5601", AddrLinkLocal, "169.254.169.254"},
		{"2001:0:4136:e378:8000:63bf:a247:27dd", "", "93.184.216.34"},
		{"2001:5::1", AddrReserved, ""},
		{"2001:10::1", AddrReserved, ""}, // ORCHID, deprecated
		{"2001:1::4", AddrReserved, ""},
		{"2001:2::1", AddrReserved, ""}, // benchmarking, as before
		{"2001:1::1", "", ""},           // anycast PCP
		{"2001:4:112::1", "", ""},       // AS112-v6
		{"2001:20::1", "", ""},          // ORCHIDv2
		{"2001:200::1", "", ""},         // past 2001::/23: an ordinary allocation
	} {
		class, v4 := addrClass(netip.MustParseAddr(tt.addr))
		if class != tt.class {
			t.Errorf("addrClass(%s) = %q, want %q", tt.addr, class, tt.class)
		}
		if tt.v4 != "" && v4.String() != tt.v4 {
			t.Errorf("addrClass(%s) embeds %v, want %s", tt.addr, v4, tt.v4)
		}
	}
	// An IPv4 allowance covers the translated spelling, as it covers the
	// mapped one.
	g, errs := parseAllow([]string{"10.0.0.0/24"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if err := g.check("intranet.example", netip.MustParseAddr("::ffff:0:a00:5")); err != nil {
		t.Errorf("10.0.0.0/24 allowed, ::ffff:0:a00:5 refused: %v", err)
	}
	if err := g.check("intranet.example", netip.MustParseAddr("::ffff:0:a00:105")); !errors.Is(err, ErrAddressRefused) {
		t.Errorf("::ffff:0:a00:105 (10.0.1.5) not refused: %v", err)
	}
}
