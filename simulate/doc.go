// Package simulate reproduces the evaluation of Tamura, Somboonviwat and
// Kitsuregawa, "Language-specific Web crawling" (2007), section 5, on a
// synthetic web (package webgen) instead of the paper's Thai data set. It is
// the engine of `langcrawl simulate`.
//
// # What runs
//
// Every variant (a strategy with its tolerance T and improvements) is one
// run of the crawl engine itself: crawl.New and Crawler.Run, the loop of
// crawl/loop.go, with the real frontier.Queue (LevelDB; on
// storage.NewMemStorage by default, in a directory under Options.DiskDir
// otherwise), the real focus.Policy and the real link decisions (link
// extraction, scope canonicalisation, Tamura Fig. 3 steps 1-8, skipping
// and DropSite when a server turns irrelevant). Nothing of the loop is
// re-implemented here. Only the parts that touch the network or the disk
// are replaced (engine.go):
//
//   - the Fetcher answers from the graph, without HTTP: a page answers 200
//     with a small HTML document holding its language in <html lang> and
//     one absolute link per graph link; a redirect answers 301; a missing
//     page 404;
//   - the Detector reads that lang attribute: a page is relevant if it is
//     in the graph's target language (a perfect detector; the real one,
//     package detect, needs real text, which these pages do not carry),
//     with a confidence drawn per page from the real detector's measured
//     confidences out of domain (engine.go, langDetector), which only the
//     sequential strategy reads;
//   - the politeness Gate allows everything at once, with no delay;
//   - the Archive discards what it is given;
//   - the clock stands still, so every site is eligible again at once.
//
// The engine runs one worker, so the crawl order is the frontier's
// (Castillo's Length order across sites, priority then depth within a site,
// as in a real crawl with w = 0) and a run is deterministic. Depth limits
// and the query rule (Nakahira) are off: the synthetic web has no traps.
// The measures are taken beside the engine, not in it: the Fetcher counts
// pages "downloaded", target pages and servers accessed, and the Queue
// the engine is given is the frontier with a look at its size after each
// completion. Pages that answer 404 count as a server access but not as a
// page crawled. The engine's own counters give the URLs skipped and
// dropped. The Defer improvement of the previous simulator is gone: the
// engine does not defer links (it found no extra target page; RESULTS.md).
//
// # Perfect
//
// "perfect" (Tamura 5.1: "follows only links that are known to lead to
// relevant pages ... determined in advance using breadth-first search") is
// an oracle: a page is useful if it is reachable from the seeds and lies on a
// shortest path from the seeds to some target page, that is, it is a target
// page or links to a useful page one step farther from the seeds. It runs
// through the engine too, unfocused: the oracle is the one thing outside
// the crawler, so the Fetcher applies it, serving each page with only its
// links to useful pages, and the engine, with no focus policy, queues them
// all at high priority. It reaches every reachable target page.
//
// # Verdict oracles
//
// "server-oracle" and "directory-oracle" bound what a better server (or
// top-directory) verdict can gain: conservative-server (conservative-
// directory) whose verdict is never wrong and needs one page, T = 0 with
// a page labelled target when its server (directory) holds a target page.
// A server without target pages costs exactly one page; everything else is
// the strategy's own rules, through the engine. What they do not reach,
// no strategy that judges a server by its own pages reaches; it takes
// evidence read before a server's first page.
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
