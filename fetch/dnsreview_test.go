package fetch

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// scriptedDNS is a fake DNS server (nothing leaves the machine): answer
// gives the addresses for each question (A and AAAA alike; each is
// answered with those of its family), in the order given.
func scriptedDNS(t *testing.T, answer func(name string) []netip.Addr) *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go func() {
			defer server.Close()
			for {
				var n [2]byte
				if _, err := io.ReadFull(server, n[:]); err != nil {
					return
				}
				q := make([]byte, binary.BigEndian.Uint16(n[:]))
				if _, err := io.ReadFull(server, q); err != nil {
					return
				}
				var m dnsmessage.Message
				if err := m.Unpack(q); err != nil || len(m.Questions) == 0 {
					return
				}
				m.Header.Response, m.Header.Authoritative = true, true
				qq := m.Questions[0]
				for _, a := range answer(qq.Name.String()) {
					h := dnsmessage.ResourceHeader{Name: qq.Name, Type: qq.Type, Class: qq.Class, TTL: 0}
					switch {
					case qq.Type == dnsmessage.TypeA && a.Is4():
						m.Answers = append(m.Answers, dnsmessage.Resource{Header: h, Body: &dnsmessage.AResource{A: a.As4()}})
					case qq.Type == dnsmessage.TypeAAAA && a.Is6():
						m.Answers = append(m.Answers, dnsmessage.Resource{Header: h, Body: &dnsmessage.AAAAResource{AAAA: a.As16()}})
					}
				}
				out, err := m.Pack()
				if err != nil {
					t.Error(err)
					return
				}
				binary.BigEndian.PutUint16(n[:], uint16(len(out)))
				if _, err := server.Write(append(n[:], out...)); err != nil {
					return
				}
			}
		}()
		return client, nil
	}}
}

// TestDNSReviewAddressSkipsRefused (from an address and DNS review): a name
// whose DNS answer mixes an address the guard refuses with one it allows
// is fetched from the allowed one (the dialer's Control refuses the first
// before connect(2) and the dialer goes on to the next), so Address, which
// the crawler counts the site's first fetch under
// (scheduling.address_connections, max_sites_per_address), must say that
// one. It said the refused one: a thousand names answering "10.0.0.N,
// victim" each had their first fetch counted under a private address of
// its own, none under the victim's, which got every worker at once.
// Here the refused address is 127.0.0.2 (loopback, never connected to: the
// guard refuses it before connect) and the allowed one 127.0.0.1, where a
// test server listens.
func TestDNSReviewAddressSkipsRefused(t *testing.T) {
	srv := newRawServer(t, reply("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	_, port, _ := net.SplitHostPort(srv.addr())
	c, err := New(Config{AllowAddresses: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.resolver = scriptedDNS(t, func(string) []netip.Addr {
		return []netip.Addr{netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.1")}
	})
	u := "http://mixed.test:" + port + "/"
	got, err := c.Address(context.Background(), u)
	if err != nil {
		t.Fatalf("Address(%s): %v", u, err)
	}
	res, err := c.Do(context.Background(), "GET", u, nil)
	if err != nil {
		t.Fatalf("fetch %s: %v", u, err)
	}
	defer res.Close()
	if got != res.IP {
		t.Errorf("Address(%s) = %s, but the fetch connected to %s (%s is refused by the guard)", u, got, res.IP, got)
	}
}

// TestAddressCheckBeforeRequest: a fetch made with WithAddressCheck calls
// the check with the address its new connection reached, before the
// request goes out; an error from it fails the fetch with that error and
// nothing reaches the server. A kept-alive connection is not checked
// again. (The crawl counts a site's fetch under the address it reached
// so: serverSlots.moveTo, after an address and DNS review.)
func TestAddressCheckBeforeRequest(t *testing.T) {
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"
	srv := newRawServer(t, reply(resp))
	c := newClient(t, Config{})
	full := errors.New("the address has its fetches under way")
	var seen []string
	refuse := WithAddressCheck(context.Background(), func(ip string) error {
		seen = append(seen, ip)
		return full
	})
	if _, err := c.Do(refuse, "GET", srv.url("/a"), nil); !errors.Is(err, full) {
		t.Fatalf("a refused connection: %v, want the check's error", err)
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("the server got %d requests on a connection the check refused", n)
	}
	if len(seen) != 1 || seen[0] != "127.0.0.1" {
		t.Errorf("checked %q, want the connection's address once", seen)
	}
	seen = nil
	allow := WithAddressCheck(context.Background(), func(ip string) error {
		seen = append(seen, ip)
		return nil
	})
	for _, p := range []string{"/b", "/c"} {
		if res, err := c.Do(allow, "GET", srv.url(p), nil); err != nil || res.Status != 200 {
			t.Fatalf("GET %s: %v", p, err)
		}
	}
	if len(seen) != 1 {
		t.Errorf("checked %q for two fetches on one kept-alive connection, want once", seen)
	}
}
