// Package simulate reproduces the evaluation of Tamura, Somboonviwat and
// Kitsuregawa, "Language-specific Web crawling" (2007), section 5, on a
// synthetic web (package webgen) instead of the paper's Thai data set. It is
// the engine of `langcrawl simulate`.
//
// # What runs
//
// Every variant (a strategy with its tolerance T and improvements) crawls the
// graph with the real code of the crawler: a frontier.Queue (LevelDB; on
// storage.NewMemStorage by default, in a directory under Options.DiskDir
// otherwise) and a focus.Policy. "Downloading" a page is looking its URL up
// in the graph; a page is relevant if its language is the graph's target
// language. For each page the loop does what the engine does (Fig. 3):
// lease the next URL, skip it if its server turned irrelevant
// (focus.Policy.Skip), count it (steps 1-3, as a frontier Tally), decide each
// link with focus.Policy.Decide (steps 4.5-8), and complete the lease with
// the accepted links. Step 6 (links to pages already seen) and the counters
// are answered from exact in-memory mirrors of the frontier's seen set and
// counters, which only the run writes, so that the frontier's LevelDB is
// not read once per link; the tests check the mirrors against the
// frontier. When a server turns irrelevant its queue is dropped
// with frontier DropSite (server strategies) or skipped at lease time
// (directory strategy, whose key is finer than the frontier's site). Links
// deferred by the Defer improvement are kept in memory under their source
// key and decided again when that key turns relevant. Pages that answer 404
// count as a server access but not as a page crawled; redirects pass their
// target on. There is no politeness delay: every lease completes at once,
// so the crawl order is the frontier's (Castillo's Length order across
// sites, priority then breadth-first within a site). Depth limits and the
// query rule (Nakahira) are not applied: the synthetic web has no traps.
//
// # Perfect
//
// "perfect" (Tamura 5.1: "follows only links that are known to lead to
// relevant pages ... determined in advance using breadth-first search") is
// an oracle: a page is useful if it is reachable from the seeds and lies on a
// shortest path from the seeds to some target page, that is, it is a target
// page or links to a useful page one step farther from the seeds. Perfect
// follows exactly the links to useful pages, all with high priority. It
// reaches every reachable target page.
//
// # Measures
//
// Per variant, sampled every Options.SampleEvery pages crawled: coverage
// (target pages crawled / target pages reachable from the seeds, Fig. 5),
// cumulative harvest rate (target pages crawled / pages crawled, Fig. 6),
// queue size (frontier Stats().Queued, Fig. 7) and servers accessed (Fig. 8).
// At the end: the cumulative miss ratio by distance from the seeds, using
// webgen's Graph.Distances (Fig. 4). Results.WriteFiles writes them as
// summary.csv, curves.csv, miss.csv, five SVG line charts drawn with package plot, and
// results.md, which puts the final figures beside the paper's findings and
// the goals for the default strategy.
//
// # Concurrency
//
// Run starts up to Options.Parallel runs at once (default GOMAXPROCS), each
// with its own frontier, sharing the read-only graph. Nothing in the package
// is global; a Results value is not safe for concurrent mutation.
package simulate
