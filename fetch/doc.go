// Package fetch is langcrawl's archival HTTP/1.1 client.
//
// A web archive must hold each exchange exactly as it crossed the wire. Go's
// net/http client decodes chunked bodies, may add Accept-Encoding and undoes
// gzip on its own, so the bytes it hands back are not the bytes the server
// sent. This package is a small client on top of net.Conn that keeps both
// sides of the exchange verbatim, ready for the "request" and "response"
// records of WARC 1.1 (ISO 28500:2017), whose blocks hold the full HTTP
// messages as sent and received (message format: RFC 9112, section 2.1).
//
// # Recording
//
// [Client.Do] serialises the request with (*http.Request).Write into a buffer,
// keeps those bytes as [Result.RawRequest] and writes them to the connection.
// Every byte read from the connection is appended to a recording buffer
// before http.ReadResponse sees it; draining the decoded body tells where the
// message ends (Content-Length, the last chunk and its trailers, or the end of
// the connection, RFC 9112 section 6.3). Bytes that the buffered reader read
// ahead but the message did not use are trimmed off, so
// [Result.RawResponse] is exactly one response: status line, header fields
// and body with its transfer coding (chunked) and content coding (gzip)
// untouched. Interim 1xx responses (100 Continue, 103 Early Hints) that came
// before it are kept apart, verbatim, in [Result.Interim], for the
// engine to record as metadata. [Result.Payload] removes both codings for
// link extraction and language detection.
//
// # Connections
//
// Following Castillo et al. 2004, "Scheduling algorithms for Web crawling"
// (section 4.2, k pages per connection), a connection is kept alive and
// reused for up to Config.MaxRequestsPerConn requests to the same scheme,
// host and port. The pool keeps at most one idle connection per host and at
// most Config.MaxIdleConns in all, closing the least recently used first; an
// idle connection older than Config.IdleTimeout is closed instead of reused.
// The crawler opens no more than one connection per site at a time because
// the caller (the politeness gate) serialises requests per host; the pool
// itself only guarantees that it never keeps two idle connections for one host.
//
// A connection is closed, not reused, after "Connection: close", after an
// HTTP/1.0 response without keep-alive, after a body delimited by the end of
// the connection, after any error or truncation, and when the server sent
// bytes beyond the end of the response. Those bytes are looked for when the
// response ends (read ahead, or already in the socket) and again just
// before an idle connection is reused, with a peek that never blocks: a
// response nobody asked for must not be recorded as the answer to the next
// request (response smuggling, HTTP desync), and a connection the server
// closed while idle is dropped before a request is lost on it.
//
// # Address guard
//
// A crawler follows links that anyone can write, so a page can point it at
// http://127.0.0.1:6379/, the cloud metadata service at 169.254.169.254 or
// a router's admin page (server-side request forgery). The client refuses
// to connect to loopback, private (RFC 1918, fc00::/7), link-local, CGNAT
// (RFC 6598), multicast, unspecified and broadcast addresses, including
// their IPv4-in-IPv6 forms (::ffff:127.0.0.1 and the IPv4-compatible,
// IPv4-translated, NAT64, 6to4 and Teredo embeddings). The check runs twice:
//
//   - before resolution, on the URL's host: an IP address in any spelling
//     that browsers or inet_aton accept (2130706433, 0x7f.1, 017700000001,
//     127.1, 127.0.0.1.) is normalised and checked, and the names localhost
//     and *.localhost are loopback (RFC 6761);
//   - at dial time, in net.Dialer.Control, on each address the dialer is
//     about to connect to, after DNS resolution. The address checked is the
//     address dialled, so a DNS answer that changes between two lookups
//     (DNS rebinding) cannot slip past.
//
// A refusal returns an [*AddressError] wrapping [ErrAddressRefused] that
// names the host and the class; it happens before any packet is sent to the
// target, so it tells nothing about whether a port is open. Only http and
// https URLs are fetched. Config.AllowAddresses opens classes or CIDR
// prefixes (an intranet crawl); ConnectTo targets are never refused, since
// the operator named them. A custom Config.Dial replaces the dial-time
// check.
//
// # Limits and truncation
//
// The connect timeout bounds the TCP connect and TLS handshake; the read
// timeout bounds the wait for each read; the overall timeout and the context
// bound the whole exchange. A body larger than Config.MaxBodySize (counted in
// raw, still encoded bytes) is cut at exactly that size. A response cut short
// is still returned, with [Result.Truncated] set to a reason for the
// WARC-Truncated field of WARC 1.1: "length", "time", "disconnect" or
// "unspecified".
//
// What a hostile server can send before the body is bounded too, and fails
// the fetch with an error that names the URL and wraps a sentinel:
//
//   - Config.MaxURLLength (8 KiB): longer URLs are not sent
//     ([ErrURLTooLong]);
//   - Config.MaxHeaderSize (1 MiB): status line and header fields, interim
//     responses included ([ErrHeaderTooLarge]);
//   - Config.MaxHeaderFields (256): header lines in one head, counted as
//     they arrive ([ErrTooManyHeaderFields]);
//   - at most 8 interim responses, and only HTTP/1.x status lines: HTTP/0.9
//     bodies without a status line, other protocols (SSH banners, ICY) and
//     garbage are [ErrMalformedResponse], as are bad header fields and
//     framing that net/http refuses (conflicting Content-Length).
//
// # TLS
//
// HTTPS uses crypto/tls with SNI set to the host name. With
// Config.InsecureTLS (true in [DefaultConfig]) certificates are not enforced,
// because archivists want the content even from a misconfigured server; the
// verification outcome is still computed and reported in
// [Result.TLSVerifyError]: an unknown authority (self-signed), an expired or
// not yet valid certificate, or one for another host name.
package fetch
