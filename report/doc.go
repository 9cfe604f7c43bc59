// Package report measures what a crawl did from its output directory: the
// WARC files and crawl.log that `langcrawl crawl` writes. It backs the
// `langcrawl report` command.
//
// # What it reads
//
// Build reads OUT/profile.yaml (focus.language, focus.strategy,
// focus.tolerance, depth), every metadata record (WARC 1.1 section 6.6,
// application/warc-fields, section 6.3) of every file in OUT/warcs —
// closed .warc.gz files and .open files alike, stopping at a record cut
// short by a crash — and OUT/logs/crawl.log (Heritrix column order). It
// never opens OUT/frontier, whose LevelDB lock a running crawl holds. It
// streams the WARC files and reads no response body, so memory grows with
// the number of URLs, not with the size of the archive.
//
// # Measures
//
// From Tamura, Somboonviwat and Kitsuregawa (2007), sections 4 and 5:
//
//   - Per server, N_a (HTML pages fetched) and N_r (pages in the target
//     language), and the status under tolerance T: relevant if N_r > 0,
//     undecided if N_r = 0 and N_a <= T, irrelevant otherwise. A crawl with
//     the sequential strategy, whose verdict weighs more than N_a and N_r,
//     shows instead the verdict the metadata of the server's latest page
//     records (focusStatus).
//   - The cumulative harvest rate: target-language pages over HTML pages,
//     against HTML pages crawled (their Fig. 6).
//   - The languages and charsets identified.
//
// From Nakahira, Hoshino and Mikami (2008), section 3, where a site tree is
// the pages under one registered domain reached from a starting URL, and an
// external URL is a link to a host outside the page's site tree (2.1):
//
//   - Fig. 1: cumulative pages and cumulative distinct external URLs by
//     depth level.
//   - Fig. 2: the number of site trees by the deepest depth level reached.
//   - Fig. 3: for each depth limit L, the load rate (pages at depth <= L
//     over all pages) against the capture rate (distinct external URLs found
//     on pages at depth <= L over all of them). DepthAdvice reads the
//     shallowest limit that keeps 80, 90, 95 and 100% of the external URLs.
//
// A page is an HTML page: a metadata record with a language field.
// Redirects, error pages and requisites have metadata records too, which
// date a server's first and last fetch but count as no page. An external
// URL is an "outlink" field with hop L (a link, not an embed or a redirect)
// whose canonical URL's host is outside the page's tree; it counts whether
// or not the crawler followed it.
//
// From crawl.log and the metadata records, for the curator:
//
//   - Fetch outcomes by status code, and lines and bytes by MIME type.
//   - Seeds: those profile.yaml lists and those crawl.log starts a hop path
//     with, each with the status of its last line and the pages archived in
//     its site tree.
//   - Candidate hosts (Tamura's focusing, audited): hosts with no
//     target-language page whose links focusing rejected (outlink fields
//     with "rejected:focus:", and their anchor text when the crawl recorded
//     it, see ParseOutlink) or whose queue it dropped (crawl.log -5003),
//     with referring pages, anchor texts and counts.
//
// # Output
//
// WriteMarkdown writes the summary; WriteJSON the whole Report as JSON
// (ReadJSON reads it back); WriteFiles writes report.md and report.json
// together with CSV tables and SVG charts (package plot) into a directory,
// usually OUT/report.
//
// # Concurrency
//
// A Report is a plain value. Its Write methods only read it and may run at
// once; SetTolerance changes it and must not run alongside them.
package report
