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
// untouched. [Result.Payload] removes both codings for link extraction and
// language detection.
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
// bytes beyond the end of the response.
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
// # TLS
//
// HTTPS uses crypto/tls with SNI set to the host name. With
// Config.InsecureTLS (true in [DefaultConfig]) certificates are not enforced,
// because archivists want the content even from a misconfigured server; the
// verification outcome is still computed and reported in
// [Result.TLSVerifyError].
package fetch
