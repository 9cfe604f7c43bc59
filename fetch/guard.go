package fetch

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/langcrawl/langcrawl/internal/plainurl"
)

// ErrAddressRefused is wrapped by the error of a fetch that the address
// guard refused: the URL's host is, or resolves to, an address in a class
// that Config.AllowAddresses does not allow. The refusal happens before any
// connection attempt, so it says nothing about the target port.
var ErrAddressRefused = errors.New("fetch: address refused")

// Address classes refused by the guard unless Config.AllowAddresses names
// them. IPv4 addresses embedded in IPv6 ones (IPv4-mapped ::ffff:a.b.c.d,
// IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d (SIIT, RFC
// 6145), NAT64 64:ff9b::a.b.c.d, 6to4 2002:AABB:CCDD:: and the client
// address of Teredo 2001:0::/32, stored inverted (RFC 4380)) fall in the
// class of the IPv4 address.
const (
	AddrLoopback    = "loopback"    // 127.0.0.0/8, ::1; also the names localhost and *.localhost
	AddrPrivate     = "private"     // 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918), fc00::/7, fec0::/10
	AddrLinkLocal   = "link-local"  // 169.254.0.0/16, fe80::/10
	AddrCGNAT       = "cgnat"       // 100.64.0.0/10 (RFC 6598)
	AddrMulticast   = "multicast"   // 224.0.0.0/4, ff00::/8
	AddrUnspecified = "unspecified" // 0.0.0.0/8, ::
	AddrBroadcast   = "broadcast"   // 255.255.255.255
	// AddrReserved: special-purpose blocks that are not globally reachable
	// (RFC 6890, IANA's registries): 192.0.0.0/24 (but 192.0.0.9 and
	// 192.0.0.10), the documentation blocks 192.0.2.0/24, 198.51.100.0/24,
	// 203.0.113.0/24, 2001:db8::/32 and 3fff::/20, benchmarking
	// 198.18.0.0/15 and 2001:2::/48, discard-only 100::/64, the IETF
	// protocol assignments 2001::/23 (but Teredo, and the blocks IANA marks
	// globally reachable), and 240.0.0.0/4. No public site answers there; a
	// private network may (an address-guard trial ran on a machine whose
	// own interface was 192.0.2.2).
	AddrReserved = "reserved"
	// AddrSelf: an address of one of this machine's own interfaces, read
	// when the client is made and every 30 s after: a public address of the crawler's machine
	// reaches the services it runs (its status page, with
	// metrics.all_interfaces) as loopback would. For a global IPv6
	// address, every address of its on-link prefix (a /64, from /48 to
	// /127) too: on an IPv6 network the library's own hosts (its router,
	// a NAS, a printer) have global addresses in the crawler's prefix,
	// which every site the crawler visits learns from its source address
	// (a security review). An IPv4 neighbour is not refused: a public
	// IPv4 block is often shared with others' servers.
	AddrSelf = "self"
	// AddrDenied: an address in Config.DenyAddresses, refused whatever
	// AllowAddresses says. Not a class AllowAddresses can name.
	AddrDenied = "denied"
)

// AddressClasses lists the class names Config.AllowAddresses accepts, for
// documentation and validation elsewhere (the config package); changing it
// changes nothing in this package.
var AddressClasses = []string{AddrLoopback, AddrPrivate, AddrLinkLocal, AddrCGNAT, AddrMulticast, AddrUnspecified, AddrBroadcast,
	AddrReserved, AddrSelf}

var classNames = map[string]bool{AddrLoopback: true, AddrPrivate: true, AddrLinkLocal: true, AddrCGNAT: true,
	AddrMulticast: true, AddrUnspecified: true, AddrBroadcast: true, AddrReserved: true, AddrSelf: true}

// AddressError is the error of a refused address. It wraps
// ErrAddressRefused. Host is the URL's host as written (lower case); Class
// is one of the Addr* constants.
type AddressError struct {
	Host  string
	Class string
}

// Error names the host and the class, never the port or the outcome of a
// connection, since none was attempted.
func (e *AddressError) Error() string {
	return fmt.Sprintf("%v: %s is a %s address", ErrAddressRefused, e.Host, e.Class)
}

// Unwrap returns ErrAddressRefused.
func (e *AddressError) Unwrap() error { return ErrAddressRefused }

var v4Classes = []struct {
	prefix netip.Prefix
	class  string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), AddrUnspecified},
	{netip.MustParsePrefix("127.0.0.0/8"), AddrLoopback},
	{netip.MustParsePrefix("10.0.0.0/8"), AddrPrivate},
	{netip.MustParsePrefix("172.16.0.0/12"), AddrPrivate},
	{netip.MustParsePrefix("192.168.0.0/16"), AddrPrivate},
	{netip.MustParsePrefix("169.254.0.0/16"), AddrLinkLocal},
	{netip.MustParsePrefix("100.64.0.0/10"), AddrCGNAT},
	{netip.MustParsePrefix("224.0.0.0/4"), AddrMulticast},
	{netip.MustParsePrefix("255.255.255.255/32"), AddrBroadcast},
	// 192.0.0.9 and 192.0.0.10 are globally reachable anycast services
	// within 192.0.0.0/24 (IANA): public, so before the block.
	{netip.MustParsePrefix("192.0.0.9/32"), ""},
	{netip.MustParsePrefix("192.0.0.10/32"), ""},
	{netip.MustParsePrefix("192.0.0.0/24"), AddrReserved},
	{netip.MustParsePrefix("192.0.2.0/24"), AddrReserved},
	{netip.MustParsePrefix("198.51.100.0/24"), AddrReserved},
	{netip.MustParsePrefix("203.0.113.0/24"), AddrReserved},
	{netip.MustParsePrefix("198.18.0.0/15"), AddrReserved},
	{netip.MustParsePrefix("240.0.0.0/4"), AddrReserved},
}

var v6Classes = []struct {
	prefix netip.Prefix
	class  string
}{
	{netip.MustParsePrefix("::/128"), AddrUnspecified},
	{netip.MustParsePrefix("::1/128"), AddrLoopback},
	{netip.MustParsePrefix("fc00::/7"), AddrPrivate},
	{netip.MustParsePrefix("fec0::/10"), AddrPrivate}, // site-local, deprecated by RFC 3879
	{netip.MustParsePrefix("fe80::/10"), AddrLinkLocal},
	{netip.MustParsePrefix("ff00::/8"), AddrMulticast},
	{netip.MustParsePrefix("2001:db8::/32"), AddrReserved}, // documentation
	{netip.MustParsePrefix("3fff::/20"), AddrReserved},     // documentation (RFC 9637)
	{netip.MustParsePrefix("2001:2::/48"), AddrReserved},   // benchmarking
	{netip.MustParsePrefix("100::/64"), AddrReserved},      // discard-only
	// Local-use NAT64 (RFC 8215): unlike 64:ff9b::/96, a network's own
	// translator may map it to its private IPv4 addresses (a security
	// review). SRv6 segment identifiers (RFC 9602).
	{netip.MustParsePrefix("64:ff9b:1::/48"), AddrReserved},
	{netip.MustParsePrefix("5f00::/16"), AddrReserved},
	// Within the IETF protocol assignments 2001::/23, the blocks IANA's
	// special-purpose registry marks globally reachable (anycast PCP, TURN
	// and DNS-SD SRP, AMT, AS112-v6, ORCHIDv2, drone identifiers): public.
	// The rest of 2001::/23 but Teredo is reserved (addrClass).
	{netip.MustParsePrefix("2001:1::1/128"), ""},
	{netip.MustParsePrefix("2001:1::2/128"), ""},
	{netip.MustParsePrefix("2001:1::3/128"), ""},
	{netip.MustParsePrefix("2001:3::/32"), ""},
	{netip.MustParsePrefix("2001:4:112::/48"), ""},
	{netip.MustParsePrefix("2001:20::/28"), ""},
	{netip.MustParsePrefix("2001:30::/28"), ""},
}

var (
	compat4 = netip.MustParsePrefix("::/96")
	// IPv4-translated addresses (SIIT, RFC 6145 section 2.1, first in RFC
	// 2765): a stateless translator on the library's network sends them to
	// the IPv4 address in their last 32 bits (a review of the guard's
	// leftovers).
	translated4 = netip.MustParsePrefix("::ffff:0:0:0/96")
	nat64       = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4      = netip.MustParsePrefix("2002::/16")
	// Teredo (RFC 4380 section 4): a relay sends the packets to the client's
	// IPv4 address, the last 32 bits inverted; a relay inside the library's
	// network reaches a private one.
	teredo    = netip.MustParsePrefix("2001::/32")
	ietfProto = netip.MustParsePrefix("2001::/23")
)

// addrClass returns the refused class a belongs to, or "" for a public
// address. It also returns the IPv4 address embedded in a, if any, so that
// a CIDR allowance for IPv4 covers its IPv6 spellings.
func addrClass(a netip.Addr) (class string, v4 netip.Addr) {
	a = a.WithZone("")
	if a.Is4In6() {
		a = a.Unmap()
	}
	if a.Is6() {
		for _, c := range v6Classes {
			if c.prefix.Contains(a) {
				return c.class, netip.Addr{}
			}
		}
		b := a.As16()
		switch {
		case compat4.Contains(a), translated4.Contains(a), nat64.Contains(a):
			a = netip.AddrFrom4([4]byte(b[12:16]))
		case sixTo4.Contains(a):
			a = netip.AddrFrom4([4]byte(b[2:6]))
		case teredo.Contains(a):
			a = netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
		case ietfProto.Contains(a):
			return AddrReserved, netip.Addr{}
		default:
			return "", netip.Addr{}
		}
	}
	for _, c := range v4Classes {
		if c.prefix.Contains(a) {
			return c.class, a
		}
	}
	return "", a
}

// guard holds the parsed Config.AllowAddresses, and this machine's own
// addresses (AddrSelf).
type guard struct {
	classes  map[string]bool
	prefixes []netip.Prefix
	deny     []netip.Prefix // Config.DenyAddresses
	self     *ownAddrs
}

// ownAddrsTTL is how long the guard trusts its reading of this machine's
// interface addresses.
const ownAddrsTTL = 30 * time.Second

// ownAddrs is this machine's interface addresses (AddrSelf), read again once
// the last reading is ownAddrsTTL old: an address the machine gains during
// a weeks-long crawl (a DHCP lease renewed to a new address, an IPv6 privacy
// address, which rotates daily, a container's new interface) is refused as
// the first were. Before the nineteenth session they were read once, at
// start.
type ownAddrs struct {
	// read returns the addresses, or an error: then the set read before
	// is kept, and read again after ownAddrsTTL (a review: an empty set
	// let the machine's own addresses through for 30 s).
	read func() (ownSet, error)
	now  func() time.Time

	mu  sync.Mutex
	at  time.Time
	set *ownSet
}

// ownSet is one reading of this machine's interfaces: their addresses, and
// the on-link prefixes of their global IPv6 addresses (AddrSelf).
type ownSet struct {
	addrs map[netip.Addr]bool
	links []netip.Prefix
}

// has reports whether a, zone and IPv4 mapping removed, is one of this
// machine's addresses, or on the on-link prefix of a global IPv6 one.
func (o *ownAddrs) has(a netip.Addr) bool {
	if o == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if now := o.now(); o.set == nil || now.Sub(o.at) >= ownAddrsTTL || now.Before(o.at) {
		if set, err := o.read(); err == nil || o.set == nil {
			o.set = &set
		}
		o.at = now
	}
	if o.set.addrs[a] {
		return true
	}
	for _, p := range o.set.links {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// selfAddrs returns the addresses of this machine's interfaces, as the
// guard compares them (zone and IPv4 mapping removed), and the on-link
// prefixes of the global IPv6 ones; none if they cannot be read.
func selfAddrs() (ownSet, error) {
	out := ownSet{addrs: map[netip.Addr]bool{}}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return out, err
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				ip = ip.Unmap().WithZone("")
				out.addrs[ip] = true
				bits, _ := n.Mask.Size()
				out.links = append(out.links, onLink(ip, bits)...)
			}
		}
	}
	return out, nil
}

// onLink is the on-link prefix of an interface address ip/bits that
// AddrSelf covers: one for a global IPv6 address whose prefix is from /48
// to /127 (a wider one is no single link), none otherwise.
func onLink(ip netip.Addr, bits int) []netip.Prefix {
	if !ip.Is6() || !ip.IsGlobalUnicast() || bits < 48 || bits >= 128 {
		return nil
	}
	if class, _ := addrClass(ip); class != "" {
		return nil // a private or reserved prefix: refused by its class
	}
	return []netip.Prefix{netip.PrefixFrom(ip, bits).Masked()}
}

// parseAllow reads Config.AllowAddresses: class names, CIDR prefixes or
// single addresses. It returns one error per bad entry.
func parseAllow(list []string) (guard, []error) {
	g := guard{classes: map[string]bool{}}
	var errs []error
	for i, s := range list {
		s = strings.TrimSpace(s)
		name := strings.ToLower(s)
		switch {
		case classNames[name]:
			g.classes[name] = true
		case strings.Contains(s, "/"):
			p, err := netip.ParsePrefix(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("fetch: config AllowAddresses[%d]: %q is not a CIDR prefix: %v", i, s, err))
				continue
			}
			g.prefixes = append(g.prefixes, p.Masked())
		default:
			a, err := netip.ParseAddr(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("fetch: config AllowAddresses[%d]: %q is neither an address class (%s) nor a CIDR prefix",
					i, s, strings.Join(AddressClasses, ", ")))
				continue
			}
			g.prefixes = append(g.prefixes, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return g, errs
}

// parseDeny reads Config.DenyAddresses: CIDR prefixes or single
// addresses. It returns one error per bad entry.
func parseDeny(list []string) ([]netip.Prefix, []error) {
	var out []netip.Prefix
	var errs []error
	for i, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.WithZone(""), a.BitLen()))
		} else {
			errs = append(errs, fmt.Errorf("fetch: config DenyAddresses[%d]: %q is neither a CIDR prefix nor an address", i, s))
		}
	}
	return out, errs
}

// check returns nil if a may be dialled for host, or an *AddressError.
func (g *guard) check(host string, a netip.Addr) error {
	class, v4 := addrClass(a)
	plain := a.Unmap().WithZone("")
	for _, p := range g.deny {
		if p.Contains(plain) || (v4.IsValid() && p.Contains(v4)) {
			return &AddressError{Host: host, Class: AddrDenied}
		}
	}
	if class == "" && (g.self.has(a.Unmap().WithZone("")) || (v4.IsValid() && g.self.has(v4))) {
		class = AddrSelf
	}
	if class == "" || g.classes[class] {
		return nil
	}
	a = a.WithZone("")
	for _, p := range g.prefixes {
		if p.Contains(a) || (v4.IsValid() && p.Contains(v4)) {
			return nil
		}
	}
	return &AddressError{Host: host, Class: class}
}

// control is a net.Dialer.Control function that checks the address about to
// be connected to, after name resolution: what DNS answered, not what it
// answered an earlier lookup, is what gets checked (DNS rebinding).
func (g *guard) control(host string) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("fetch: address guard: cannot parse dialled address: %w", err)
		}
		return g.check(host, ap.Addr())
	}
}

// isLocalhostName reports whether host is localhost or a name under
// .localhost, which RFC 6761 section 6.3 reserves for loopback.
func isLocalhostName(host string) bool {
	host = strings.TrimSuffix(host, ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// hostAddr reads host as an IP address the way browsers do (WHATWG URL
// Standard, "IPv4 parser"): an IPv6 literal, or a host whose last label is
// a number is an IPv4 address written in decimal, octal or hex, with one to
// four parts ("2130706433", "0x7f.1", "017700000001", "127.1",
// "127.0.0.1."). C resolvers (inet_aton) read most of these spellings the
// same way, so the client normalises them itself instead of leaving them to
// whichever resolver runs. ok is false for a host name; err is set for a
// host that ends in a number but is not a valid IPv4 address.
func hostAddr(host string) (a netip.Addr, ok bool, err error) {
	if strings.Contains(host, ":") {
		a, err := netip.ParseAddr(host)
		if err != nil {
			return netip.Addr{}, false, fmt.Errorf("fetch: bad IPv6 address %q", host)
		}
		return a, true, nil
	}
	s := strings.TrimSuffix(host, ".")
	parts := strings.Split(s, ".")
	if !isNumberLabel(parts[len(parts)-1]) {
		return netip.Addr{}, false, nil
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return a, true, nil // the common, canonical spelling
	}
	bad := func() (netip.Addr, bool, error) {
		return netip.Addr{}, false, fmt.Errorf("fetch: host %q ends in a number but is not an IPv4 address", host)
	}
	if len(parts) > 4 {
		return bad()
	}
	var v uint64
	for i, p := range parts {
		n, ok := parseIPv4Part(p)
		if !ok {
			return bad()
		}
		if i < len(parts)-1 {
			if n > 255 {
				return bad()
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return bad()
		}
		v |= n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// isNumberLabel reports whether a label reads as a number: all decimal
// digits, or 0x followed by hex digits (WHATWG "ends in a number").
func isNumberLabel(l string) bool {
	if l == "" {
		return false
	}
	if len(l) >= 2 && l[0] == '0' && (l[1] == 'x' || l[1] == 'X') {
		for i := 2; i < len(l); i++ {
			if !plainurl.IsHex(l[i]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return true
}

// parseIPv4Part reads one part: 0x-prefixed hex, 0-prefixed octal, or
// decimal. Values beyond 32 bits are rejected.
func parseIPv4Part(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) >= 2 && p[0] == '0':
		p, base = p[1:], 8
	}
	n, err := strconv.ParseUint(p, base, 32)
	return n, err == nil
}
