// Package frontier is langcrawl's crawl frontier: the on-disk URL queue, the
// seen set, the per-server focus counters and the fetch history, all kept in
// one LevelDB database (github.com/syndtr/goleveldb).
//
// # Scheduling
//
// The queue follows the two-level scheduling of Castillo, Marin, Rodriguez
// and Baeza-Yates, "Scheduling algorithms for Web crawling" (2004), section 5
// and figure 4. The upper level orders sites; the lower level orders the
// pages inside one site.
//
//   - Sites are ordered by the number of pages they have pending, largest
//     first: the paper's "Length" strategy, which keeps as many sites active
//     as possible for as long as possible. One exception comes from the
//     language focus of Tamura et al. (see below): a site with at least one
//     High priority entry comes before every site that has only Low ones.
//   - Inside a site, entries are ordered by (priority, depth, insertion
//     sequence): High before Low, then breadth-first, then first come first
//     served. One place, the front (High, depth 0, sequence 0), comes before
//     all: an entry pushed with Entry.Front goes there while it is free, and
//     one already queued is moved there (a new frontier starts its sequence
//     at 1, so no other entry takes it).
//   - At most one entry per site is leased at a time, which gives the
//     paper's "never more than one connection to a Web site". When the lease
//     is completed the caller says when the site may be visited again
//     (Completion.NotBefore); the caller computes the delay w, from robots.txt
//     Crawl-delay, its own policy or the observed response time.
//
// Time is never read inside the package: Next takes now as an argument and
// Complete takes the next eligible time, so tests control the clock.
//
// # Focus counters
//
// Section 4.1 of Tamura, Somboonviwat and Kitsuregawa, "Language-specific Web
// crawling" (2007), classifies each server i by N_a(i), the pages downloaded
// from it, and N_r(i), the relevant ones among them, with a tolerance T:
// relevant if N_r > 0, undecided if N_r = 0 and N_a <= T, irrelevant
// otherwise. Section 4.3 keys the same counters by top-level directory. The
// queue stores these counters under an opaque key chosen by the caller (a
// host, or host/dir/) and bumps them in the same LevelDB batch that completes
// the lease, so a crash can never count a page twice or not at all. Beside
// N_a and N_r each key keeps the evidence a sequential server verdict adds
// up (Tally.Evidence, Counts.Evidence), whether its home page was counted
// (Counts.Home), and how many of its pages no link asked for
// (Tally.Probe, Counts.Probes: the verdict's home probe), written in the
// same batch.
// Package focus applies the tolerance. When a server turns irrelevant the
// caller removes its queued URLs with DropSite.
//
// # Storage layout and crash safety
//
// Every key starts with one byte that names its table:
//
//	q<site>\x00<prio:1><depth:4><seq:8>  queued entry (sorted per site)
//	f<site>                              in-flight lease of that site
//	n<site>                              site record: pending, high, notBefore, budget
//	s<hash:16>                           seen set: 128-bit hash of the URL (or of a query-rule claim)
//	c<key>                               focus counters N_a, N_r[, evidence, flags[, probes]]; flags: home, probes, self links
//	g<key>                               budget count of a key other than a site (Completion.Budgets), forgotten by a new generation
//	h<hash:16>                           fetch history of a URL
//	b<server>                            bandwidth estimates B(server, hour, workday), 48 values
//	r<robots URL>                        robots.txt outcome: status, body, expiry, failures in a row
//	R<time, 8 bytes><robots URL>         (empty) when that outcome is deleted: a day past its expiry
//	d<digest>                            capture of a payload digest (deduplication)
//	i<name>                              an import done once (Queue.MarkImported)
//	ot                                   the focus target the c counters were counted for (Queue.Refocus)
//	op<gen, 8 bytes>                     the fingerprint of the profile generation gen crawled with (Queue.MarkProfile)
//	y                                    sync marker (Queue.Sync's synced write)
//	m                                    meta: insertion sequence, seen count, pages, the job's
//	                                     totals (requests, bytes, running time)
//
// A queued entry also carries its failed tries and retry time (Requeue). The
// priority byte 2 in a queue key puts an entry retried for a failure of its
// own behind its site's other work.
//
// Leasing moves an entry from q to f in one atomic batch; Complete deletes
// the f record, queues the links, bumps the counters and writes the history in
// another. On Open every f record left behind by a crash moves back to its
// original q key, so a URL is never lost and nothing but in-flight work is
// fetched twice. Writes are not fsynced by default (Options.Sync): a process
// crash loses nothing, a power failure may lose the last writes; the
// engine's group commit calls Sync every interval, after the WARC file's
// fsync (see crawl.Syncer and the crash contract in package archive).
//
// # Memory
//
// URLs live on disk only. Memory holds one small record per site with work
// queued, leased or a notBefore still in the future (sites that are idle and
// past their delay are forgotten by Next), plus LevelDB's block cache and
// write buffers, which Options bounds.
//
// # Concurrency
//
// A *Queue is safe for concurrent use by many goroutines. Writes are
// serialised by one mutex; the crawl is bound by politeness delays and
// network, not by the frontier.
package frontier
