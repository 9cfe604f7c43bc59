// Package focus decides which links a language-focused crawl follows. It is
// the pure decision logic of Tamura, Somboonviwat and Kitsuregawa, "Language-
// specific Web crawling" (2007), sections 4 and 5.1 (the paper is kept in
// shared/papers/tamura-2007-language-specific-web-crawling.txt). It holds no
// state: the caller (the crawl engine or the simulator) keeps the per-server
// counters N_a and N_r in the frontier and passes them in.
//
// # Server status (section 4.1)
//
// For a server (or directory) i with N_a(i) pages downloaded, N_r(i) of them
// relevant (in the target language), and a tolerance T:
//
//	relevant    N_r > 0
//	undecided   N_r = 0 and N_a <= T
//	irrelevant  N_r = 0 and N_a > T
//
// [StatusOf] implements exactly this table.
//
// # Fig. 3 and where each step lives
//
// For every downloaded page of server i the caller performs:
//
//  1. Identify the language of the page (package detect).
//  2. If the page is relevant, N_r(i)++ (frontier Tally).
//  3. N_a(i)++ (frontier Tally).
//  4. Extract links (package links).
//
// then asks [Policy.Decide] once per link, with the source counters already
// updated by steps 2 and 3. Decide implements, in this order:
//
//   - step 6 (reject links to pages already downloaded): destVisited;
//   - step 4.5 (section 4.2, conservative strategies only): when the page's
//     server has N_r(i) = 0, reject links to servers never visited
//     (N_a(j) = 0);
//   - step 5 (server strategies): reject links to irrelevant servers;
//   - steps 7 and 8: enqueue, with high priority if the page was relevant and
//     low priority otherwise.
//
// The page-based strategies of section 5.1 replace steps 4.5 to 8:
//
//	bfs           every link, one priority
//	hard-focused  links of relevant pages only (high priority)
//	soft-focused  every link; high priority from relevant pages, low otherwise
//
// and the server-based ones use the steps above:
//
//	aggressive-server       steps 5-8 (section 4.1)
//	conservative-server     steps 4.5-8 (section 4.2), the default
//	conservative-directory  steps 4.5-8 keyed by directory (section 4.3)
//
// The directory variant keys the counters by host plus first path segment
// (scope.DirKey: www.xsp.com/user1/). [Policy.Key] tells the caller which key
// to tally and look up; it is "" for page-based strategies, which keep no
// counters.
//
// When a server turns irrelevant its queued URLs must be dropped
// (frontier DropSite, for server keys) or skipped at fetch time:
// [Policy.Skip] answers the latter.
//
// Page requisites (images, stylesheets, scripts) of a relevant page are always
// fetched so that the page replays: [Policy.Requisite].
//
// # Improvements on the paper
//
// Both are off in the zero Config; see the end of this section for what the
// simulator measured.
//
//   - Deferred links (Config.Defer). Section 4.2 names deferring link
//     extraction from undecided servers as the alternative to step 4.5, and
//     section 5.2 blames the directory variant's misses on links "not
//     reprocessed after they turned out to be relevant". With Defer, a link
//     that step 4.5 would reject gets Verdict.Defer instead; the caller keeps
//     it under the source key and calls Decide again when that key turns
//     relevant (it drops them when the key turns irrelevant).
//
//   - Decaying tolerance (Config.Decay). Section 5.2 observes that starting
//     strict and ending lax raised the overall harvest rate and suggests a
//     tolerance that falls as the crawl proceeds. [Policy.At] returns the
//     policy in force after a given number of pages were crawled:
//     T(n) = max(Decay.Min, T - n/Decay.Every).
//
// The simulator (package simulate, results in simulate/RESULTS.md, on the
// default 2.3-million-page web) finds that Defer does not help: it
// re-processed 340 of 25,000 deferred links and found no target page more,
// so leave it off. A decaying tolerance helps with a floor of 5: falling by
// one every 22,972 pages to 5 (and [RecommendedDecay], every 25,000 pages)
// raised conservative-server's harvest rate from 79.87% to about 80.6% with
// the same coverage (99.91%), queue and servers, while a floor of 2 cost
// 0.74 points of coverage.
//
// # Sequential server verdicts and directory status
//
// The strategy "sequential" (not the paper's; not the default, see
// simulate/RESULTS.md) is conservative-server with Tamura's fixed
// tolerance replaced by Wald's sequential probability ratio test, per
// server: each downloaded page adds its evidence for "the server holds
// target pages" against "it holds none" ([Policy.Weigh], kept in
// Counts.Evidence by the frontier beside N_a and N_r), weighted by the
// detector's calibrated confidence and by how the crawl reached the page
// ([Reach]: a foreign page reached through the server's own foreign pages
// says little), and raised when the page links to a server known
// relevant, to a target section (/th/), or with strong evidence for the
// target ([Policy.Score]). The profile bounds the test's two errors apart,
// as Wald's test allows: alpha (Config.ErrorBound, focus.error_bound,
// default 0.01), a server holding no target page judged relevant, which
// costs pages; and beta (Config.MissBound, focus.miss_bound, default
// 0.001), a server holding target pages judged irrelevant, which loses
// them. A server is relevant once the evidence reaches ln((1-beta)/alpha),
// or at once on a target verdict of confidence 1-alpha or more; it is
// irrelevant once the evidence falls to ln(beta/(1-alpha)), its home page
// has been counted ([Policy.Probe] asks for it while the verdict is open)
// and none of its pages was called target. Tamura's rule stays as a
// backstop: more than T pages that links asked for (the probed home page
// is not one), and none relevant, is irrelevant. A foreign hub linked from
// many target pages is judged after six pages at the default bounds (five
// reached from other servers, the home page); T = 10 pays eleven. On a
// hosting server ([Page.UserDir]: pages in /~name/ directories) a foreign
// user's page is no evidence about the other users, so such a server is
// judged by its home page and the backstop, as under T, unless its target
// pages or links make it relevant.
//
// Inside a relevant server, the same test keyed by the first path segment
// ([Policy.DirKey]: www.xsp.com/en/) judges its sections: links into a
// section judged foreign are rejected ([Policy.DecideDir],
// "irrelevant-directory") and its queued URLs skipped ([Policy.SkipDir]).
// It is off by default (focus.foreign_dirs: keep, for completeness) and
// on with Config.CutForeignDirs (focus.foreign_dirs: cut) when harvest
// matters. Tamura's conservative-directory (4.3) keys everything by
// directory; here the server decides which servers are crawled, and the
// directory only which sections of a relevant server are.
//
// Nakahira's depth limit and query rule are applied by the engine (package
// scope) before and independently of these decisions.
//
// # Concurrency
//
// A [Policy] is immutable after [New] and safe for concurrent use.
package focus
