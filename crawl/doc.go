// Package crawl is the engine: a fixed pool of workers that takes URLs from
// the frontier, fetches them politely, archives every exchange, identifies
// the language of each page, and pushes the links that scope and the
// focusing strategy accept.
//
// # The data path
//
// One worker runs the loop in loop.go for one URL at a time; the file reads
// top to bottom as the path a URL takes:
//
//	frontier.Next ─▶ focus skip ─▶ robots ─▶ politeness gate ─▶ fetch
//	   ─▶ WARC request+response ─▶ detect charset and language
//	   ─▶ extract links ─▶ scope (depth, query rule, traps)
//	   ─▶ focus decision (Tamura Fig. 3) ─▶ WARC metadata
//	   ─▶ frontier.Complete (links, N_a/N_r tally, history) ─▶ crawl.log
//
// # Papers
//
//   - Castillo et al. 2004: sites ordered by pending pages, w seconds between
//     requests to a site, one connection per site, k pages per connection,
//     r workers (the frontier schedules sites; the politeness gate guarantees).
//   - Nakahira et al. 2008: site trees keyed by registered domain, a depth
//     limit per tree, external URLs start new trees at depth 0, one URL per
//     script among URLs that differ only in their query.
//   - Tamura et al. 2007: per-server (or per-directory) counters N_a and N_r,
//     tolerance T, and the six link-selection strategies (package focus).
//
// # Shutdown
//
// Run stops taking new URLs when its context is cancelled, when max_pages
// or max_time is reached, or when the frontier is empty. URLs in flight are
// finished (their fetch has its own timeout); then Run returns. The caller
// closes the archive writer and the frontier, in that order.
//
// A failed fetch is an outcome written to crawl.log, never an error that
// stops the crawl; only a failing disk or database stops it.
package crawl
