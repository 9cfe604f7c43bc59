package fetch

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// Defaults that [New] fills in for zero fields of [Config].
const (
	DefaultConnectTimeout     = 10 * time.Second
	DefaultTimeout            = 60 * time.Second
	DefaultReadTimeout        = 30 * time.Second
	DefaultMaxBodySize        = int64(100 << 20) // 100 MiB
	DefaultSpillThreshold     = int64(4 << 20)   // 4 MiB
	DefaultMaxHeaderSize      = int64(1 << 20)   // 1 MiB
	DefaultMaxHeaderFields    = 256              // header lines per response head
	DefaultMaxURLLength       = 8 << 10          // 8 KiB, twice what most servers accept in a request line
	DefaultMaxIdleConns       = 1000
	DefaultIdleTimeout        = 15 * time.Second
	DefaultMaxRequestsPerConn = 100 // Apache's MaxKeepAliveRequests, as in Castillo et al. 2004
	DefaultUserAgent          = "langcrawl/0.1"
	DefaultAccept             = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
)

// Config configures a [Client]. [New] copies it, so later changes to the
// caller's value (including the ConnectTo map) have no effect.
//
// Zero numeric and string fields take the defaults listed beside them. A
// bool cannot say "unset", so InsecureTLS is false in a zero Config; start
// from [DefaultConfig] to get the archival default of true.
type Config struct {
	// UserAgent is sent in every request. Default DefaultUserAgent.
	UserAgent string
	// Accept is the Accept header sent unless the caller's extra headers
	// set one. Default DefaultAccept.
	Accept string

	// ConnectTo maps a host name (no port, case-insensitive) or "*" to an
	// "ip:port" (or "host:port") to dial instead of resolving the URL's
	// host, like curl --connect-to. An exact host entry wins over "*".
	// The Host header, SNI and certificate check still use the URL's host.
	// ConnectTo targets bypass the address guard: the operator named them.
	ConnectTo map[string]string

	// AllowAddresses lets the address guard dial addresses it refuses by
	// default. Before connecting, the client checks the address actually
	// dialled (after DNS resolution) and refuses loopback, private,
	// link-local, CGNAT, multicast, unspecified and broadcast addresses,
	// and their IPv4-in-IPv6 forms, with an error wrapping
	// ErrAddressRefused. Each entry is a class name (see AddressClasses:
	// "loopback", "private", "link-local", "cgnat", "multicast",
	// "unspecified", "broadcast"), a CIDR prefix such as "10.20.0.0/16",
	// or a single address. Default: none, every class refused. Note that
	// on most systems connecting to "unspecified" 0.0.0.0 reaches the
	// local host, so allowing it is close to allowing loopback.
	//
	// The guard does not apply to ConnectTo targets, and only to literal
	// IP hosts when Dial is set (Dial resolves names itself).
	AllowAddresses []string

	// DenyAddresses are CIDR prefixes or single addresses the guard always
	// refuses (class AddrDenied), whatever AllowAddresses says and however
	// the address is spelled (an IPv4 one in its IPv6 forms too): a
	// library's own ranges that are public addresses, which no class
	// covers (a university's /16, an IPv6 prefix). ConnectTo targets
	// are not checked, as for AllowAddresses.
	DenyAddresses []string

	// ConnectTimeout bounds the TCP connect plus the TLS handshake.
	// Default 10s.
	ConnectTimeout time.Duration
	// Timeout bounds the whole exchange, from dial to the last body byte.
	// The context passed to Do may shorten it. Default 60s.
	Timeout time.Duration
	// ReadTimeout bounds the wait for each read from the connection,
	// that is the longest silence tolerated from the server. Default 30s.
	ReadTimeout time.Duration
	// MaxBodySize is the largest body kept, counted in raw bytes as sent
	// (chunk framing and compression included). A longer body is cut at
	// exactly this size and reported with Truncated "length".
	// Default 100 MiB.
	MaxBodySize int64
	// SpillThreshold bounds the memory one response takes: past this many
	// raw bytes, the rest of the response goes to a temporary file in
	// TempDir (Result.Spilled), so that memory does not grow with
	// MaxBodySize. Default 4 MiB; negative keeps every response in memory.
	SpillThreshold int64
	// TempDir is where spilled responses are written; "" means
	// os.TempDir(). The engine passes a directory of its output, which it
	// empties at start, so that a crash leaves no stray files behind.
	TempDir string
	// MaxHeaderSize bounds the status line plus header fields, those of
	// any interim 1xx responses included. A larger header fails the fetch
	// with ErrHeaderTooLarge. Default 1 MiB.
	MaxHeaderSize int64
	// MaxHeaderFields bounds the number of header lines (fields and
	// obsolete continuation lines) in one response head, interim 1xx heads
	// each counted apart. More fail the fetch with ErrTooManyHeaderFields.
	// Default 256.
	MaxHeaderFields int
	// MaxURLLength is the longest URL Do accepts, in bytes as given; a
	// longer one fails with ErrURLTooLong before anything is sent.
	// Default 8 KiB.
	MaxURLLength int

	// MaxIdleConns is the most idle kept-alive connections held in all;
	// the least recently used is closed first. Default 1000.
	MaxIdleConns int
	// IdleTimeout closes kept-alive connections idle for this long
	// (checked lazily, as the pool is used). Default 15s: longer than most
	// sites' delay w, and short enough that a server answering many host
	// names is not left holding hundreds of idle connections (it was 90s;
	// Apache closes its own after 5s).
	IdleTimeout time.Duration
	// MaxRequestsPerConn is k, the number of requests sent over one
	// connection before it is closed (Castillo et al. 2004, section 4.2).
	// The last request carries "Connection: close". 1 disables keep-alive.
	// Default 100.
	MaxRequestsPerConn int

	// InsecureTLS, when true, accepts any server certificate and records
	// the verification failure in Result.TLSVerifyError instead of failing.
	// Archivists want the content of misconfigured servers too, so
	// DefaultConfig sets it to true; when false a bad certificate fails
	// the fetch.
	InsecureTLS bool
	// RootCAs verifies server certificates. Default: the system roots.
	RootCAs *x509.CertPool

	// Pacer, when set, paces every read from the network for a bandwidth
	// limit (bandwidth.Manager.Pacer): reads take at most Pacer.Quantum
	// bytes, Pacer.Wait comes before each and Pacer.Done after, with the
	// bytes that reached the connection. It paces the bytes on the wire,
	// TLS records and response heads included. Default: none.
	Pacer Pacer
	// ReadBuffer, when positive, is the socket receive buffer (SO_RCVBUF)
	// of new connections, in bytes, set before connecting. With a Pacer,
	// a small one lets TCP flow control hold a server back while its
	// reader waits, instead of the kernel taking its bytes ahead of the
	// pacer (bandwidth.Manager.ReadBuffer). It also caps one connection
	// at about ReadBuffer per round trip. Default 0: the system's
	// default, which grows with the connection.
	ReadBuffer int

	// Dial, when set, replaces the TCP dialer (tests). It receives the
	// address after ConnectTo mapping and must honour ctx. It also
	// replaces the address guard's check of resolved addresses: only IP
	// literals in URLs are checked before Dial is called.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Now gives the time for Result.Started, Result.Duration and the idle
	// bookkeeping of the pool. Socket deadlines always use the real clock.
	// Default time.Now.
	Now func() time.Time
}

// DefaultConfig returns a Config with every default filled in, including
// InsecureTLS true.
func DefaultConfig() Config {
	cfg := Config{InsecureTLS: true}
	cfg.fill()
	return cfg
}

func (cfg *Config) fill() {
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.Accept == "" {
		cfg.Accept = DefaultAccept
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.MaxBodySize == 0 {
		cfg.MaxBodySize = DefaultMaxBodySize
	}
	if cfg.SpillThreshold == 0 {
		cfg.SpillThreshold = DefaultSpillThreshold
	}
	if cfg.MaxHeaderSize == 0 {
		cfg.MaxHeaderSize = DefaultMaxHeaderSize
	}
	if cfg.MaxHeaderFields == 0 {
		cfg.MaxHeaderFields = DefaultMaxHeaderFields
	}
	if cfg.MaxURLLength == 0 {
		cfg.MaxURLLength = DefaultMaxURLLength
	}
	if cfg.MaxIdleConns == 0 {
		cfg.MaxIdleConns = DefaultMaxIdleConns
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.MaxRequestsPerConn == 0 {
		cfg.MaxRequestsPerConn = DefaultMaxRequestsPerConn
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
}

// validate reports every problem at once.
func (cfg *Config) validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("fetch: config %s: %s", key, fmt.Sprintf(format, args...)))
	}
	for key, d := range map[string]time.Duration{
		"ConnectTimeout": cfg.ConnectTimeout,
		"Timeout":        cfg.Timeout,
		"ReadTimeout":    cfg.ReadTimeout,
		"IdleTimeout":    cfg.IdleTimeout,
	} {
		if d < 0 {
			bad(key, "must not be negative, got %v", d)
		}
	}
	if cfg.MaxBodySize < 0 {
		bad("MaxBodySize", "must not be negative, got %d", cfg.MaxBodySize)
	}
	if cfg.MaxHeaderSize < 0 {
		bad("MaxHeaderSize", "must not be negative, got %d", cfg.MaxHeaderSize)
	}
	if cfg.MaxHeaderFields < 0 {
		bad("MaxHeaderFields", "must not be negative, got %d", cfg.MaxHeaderFields)
	}
	if cfg.MaxURLLength < 0 {
		bad("MaxURLLength", "must not be negative, got %d", cfg.MaxURLLength)
	}
	if _, gerrs := parseAllow(cfg.AllowAddresses); gerrs != nil {
		errs = append(errs, gerrs...)
	}
	if _, derrs := parseDeny(cfg.DenyAddresses); derrs != nil {
		errs = append(errs, derrs...)
	}
	if cfg.ReadBuffer < 0 {
		bad("ReadBuffer", "must not be negative, got %d", cfg.ReadBuffer)
	}
	if cfg.MaxIdleConns < 0 {
		bad("MaxIdleConns", "must not be negative, got %d", cfg.MaxIdleConns)
	}
	if cfg.MaxRequestsPerConn < 0 {
		bad("MaxRequestsPerConn", "must not be negative, got %d", cfg.MaxRequestsPerConn)
	}
	if strings.ContainsAny(cfg.UserAgent, "\r\n") {
		bad("UserAgent", "must not contain line breaks")
	}
	if strings.ContainsAny(cfg.Accept, "\r\n") {
		bad("Accept", "must not contain line breaks")
	}
	for host, addr := range cfg.ConnectTo {
		if host == "" {
			bad("ConnectTo", "empty host name (use \"*\" for any host)")
		}
		if _, port, err := net.SplitHostPort(addr); err != nil || port == "" {
			bad("ConnectTo["+host+"]", "want host:port, got %q", addr)
		}
	}
	return errors.Join(errs...)
}
