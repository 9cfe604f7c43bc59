// Package hostile is a web of misbehaving servers for langcrawl's
// hostile-server suite (cmd/langcrawl/hostile_test.go, issue 12 part 6).
//
// # The web
//
// [Start] opens three listeners on 127.0.0.1 in one process and plays many
// host names on them, beside a few ordinary hosts whose pages the crawl must
// archive whatever the others do:
//
//   - an HTTP server (net/http) routed on the Host header, for the cases
//     that are well-formed HTTP with a hostile payload or pacing: a slow
//     drip, an endless body, a gzip bomb, 100,000 links, redirect loops and
//     chains, 100,000 nested elements, a URL trap, invalid UTF-8, a 50 MB
//     robots.txt; two link farms, one making up fresh hosts under its own
//     domain, one fresh domains, all answered from one address;
//   - a raw TCP listener that reads the request line and the Host header
//     itself and then answers with bytes net/http would never write:
//     Content-Length lies both ways (the shorter one smuggling a second
//     response), a header flood, a 10 MB header line, a header line with
//     control bytes, malformed status lines, 1xx interim responses (and a
//     flood of them), invalid chunking, a reset mid-body, garbage, an
//     HTTP/0.9 reply, silence after the request, silence from robots.txt on;
//   - a TLS server with a freshly generated self-signed certificate.
//
// No name is resolved: [Server.ConnectTo] is the profile's
// network.connect_to map, which sends each host name to its listener and
// every other name ("*") to the HTTP server, which answers 404.
//
// Each [Case] names one hostile behaviour, its host and its seed URL. On
// the hostile hosts robots.txt is an ordinary 404 (except where robots.txt
// is the case), so that the crawl reaches the hostile page itself.
//
// # Request log
//
// The servers log every request they read ([Server.Hits]), so a test can
// tell what the crawler asked for: how far it followed a redirect chain or
// a trap, and that it never requested a URL a forged response planted.
//
// The servers only misbehave as far as a client lets them: every endless
// or slow answer stops when the client hangs up, and [Server.Close] ends
// them all.
package hostile
