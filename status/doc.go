// Package status serves a crawl's live status page and takes an
// operator's commands while the crawl runs.
//
// # The page
//
// Handler serves one HTML page (GET /) whose charts — pages and bytes per
// second, bandwidth against its limit, the queue, sites by status,
// harvest over time, languages, top hosts and recent errors — are drawn
// by hand-written JavaScript on canvas elements. Every asset is embedded
// in the binary (go:embed): the page works with no internet access. The
// page polls GET /status.json, which returns the samples the Server took
// (Run takes one a second and keeps the last hour) and the details of
// the moment.
//
// # Commands
//
// The crawl is steered with a small line-based language, the same in a
// POST to /control and in a file dropped in the crawl's action directory
// (the action directory of Heritrix's operator's manual, "Action
// Directory"): see ParseCommands. A POST must carry the token the crawl
// printed at start, in the X-Langcrawl-Token header or the token form
// field; the page reads it from its address (#token=...). The Server
// only parses and checks commands; a Controller, which the caller
// supplies, applies them.
//
// The Server imports no other package of langcrawl: the caller adapts
// the engine to Source and Controller.
package status
