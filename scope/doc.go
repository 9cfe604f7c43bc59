// Package scope decides which URLs a crawl may visit: it canonicalises them, groups them
// into site trees, applies the operator's include and exclude rules and per-seed scopes,
// applies the one-crawl-per-script rule for query URLs, and guards against crawler traps.
//
// # Canonical URLs
//
// [Canonicalize] and [CanonicalizeRef] parse with the WHATWG URL Standard
// (https://url.spec.whatwg.org/, via github.com/nlnwa/whatwg-url), the same algorithm
// browsers use, so that the URL the crawler fetches is the URL a browser would fetch
// when pywb replays the page. Only http and https URLs are accepted. The host is
// lowercased and converted to punycode (UTS #46), default ports are dropped, dot
// segments are resolved, an empty path becomes "/", and the fragment is dropped. The
// query is kept byte for byte, in its order: archives replay exact URLs.
//
// A few steps go beyond the standard, and each is there so that the result is a valid
// RFC 3986 URL that net/url round-trips exactly (u.String() gives back the canonical form):
//
//   - a '%' not followed by two hex digits is encoded as "%25", in the query too;
//   - the bytes the standard leaves bare in a path or a query but RFC 3986 does not
//     allow there ('|', '^', '[', ']' in a path; '{', '}', '|', '^', '`', '\', '[',
//     ']' in a query) are percent-encoded, so that the URL is a WARC-Target-URI as
//     WARC 1.1 defines it (uri per RFC 3986);
//   - user name and password are removed (a crawler never sends credentials found in links);
//   - hosts with characters that DNS does not allow (anything but a-z, 0-9, '-', '_', '.')
//     are rejected.
//
// Existing percent-escapes are kept as written (%7e stays %7e): the WHATWG way.
//
// # Site trees
//
// Nakahira, Hoshino and Mikami (2008), "Low-load server crawler" (see
// shared/papers/nakahira-2008-low-load-server-crawler.txt), define a site tree as the
// pages reachable from a starting URL within its domain. Section 2.1: an internal URL
// belongs to the same domain as the starting URL or one of its subdomains; every other
// URL is external, is not followed within the tree, and becomes a new starting URL.
// [RegisteredDomain] gives the domain of a tree (the public suffix plus one label, from
// golang.org/x/net/publicsuffix) and [Internal] tells internal from external.
//
// Section 2.2 limits query URLs to one crawl per script: once /index.php?id=2 has been
// crawled, no other /index.php?... is. [QueryKey] gives the key the engine marks as seen.
//
// [SeenKey] gives the key the spellings of one URL share in the seen set (escapes,
// an empty query, session ids, a leading www.), so that a resource is fetched once
// however it is linked, and a site that mints a fresh session id at every link is
// no trap; the URL fetched and archived stays the first spelling met.
//
// # Keys
//
// [SiteKey] is the host a politeness queue is kept for. [DirKey] is the directory
// granularity of Tamura, Somboonviwat and Kitsuregawa (2007), section 4.3
// (shared/papers/tamura-2007-language-specific-web-crawling.txt): the host plus the
// first path segment.
//
// # Traps
//
// [Rules] holds limits on URL length, path depth, repeated path segments and query
// parameters; [Rules.Trap] names the limit a URL breaks.
//
// # Rules
//
// A [Filter] holds the operator's rules, which [Decider] applies to every link after
// canonicalisation. A link is followed only when it passes every kind of rule:
//
//   - no exclude rule matches it;
//   - when include rules are set, one of them matches it;
//   - when its registered domain has seeds with a scope of their own
//     ([Filter.AddSeed]), it lies in one of those scopes;
//   - it is within the depth limit: the largest of those seeds' depths, or
//     [Decider.MaxDepth];
//   - it breaks no trap guard.
//
// A rule is an RE2 regular expression (https://github.com/google/re2/wiki/Syntax)
// matched anywhere in the canonical URL, or [SURTRule] followed by a SURT prefix
// ("surt:http://(th,co,"). [SURT] is the Sort-friendly URI Reordering Transform of
// Heritrix, in which a prefix selects a domain and everything under it; see
// [SURTPrefix] for the forms a prefix may be written in. The scheme is not compared.
//
// A seed's scope is one of [Host], [Domain] (the default, Nakahira's site tree) or
// [Prefix], with its own depth limit. Scopes bind a domain however a link reaches it,
// from its own pages or from another site's.
//
// Page requisites and redirect targets ([Decider.DecideRequisite]) are part of a page
// already accepted: they are fetched from any host, whatever the include rules, the
// seed scopes and the depth limit say. Exclude rules and trap guards still bind them.
//
// A rejection names the rule that made it ([Decision].Reject): "exclude:" and the
// rule, "not-included", "outside-seed:" and the scope, "trap: " and the limit, or
// "depth N, limit M". The engine writes it into the metadata record's outlinks as
// "rejected:scope:<reason>".
//
// An acceptance names the operator's rules that let the URL in ([Decision].Admit):
// "include:" and the first include rule it matches, "seed:" and the seed scope that
// gives its depth limit ("seed:host:a.test", "seed:prefix:a.test/th/",
// "seed:domain:a.test"), both joined by ";" when both bear on it, or "requisite" for a
// requisite or redirect that include rules or seed scopes would otherwise have judged.
// It is "" when no operator rule bears on the URL. The engine keeps it with the queued
// URL and writes it into crawl.log ("admitted:<admit>") when the URL is fetched, and into
// the metadata record's outlinks ("admitted:<admit>").
//
// # Concurrency
//
// Every function in this package is safe for concurrent use. [Filter] and [Cache] keep
// state behind their own locks; a Filter's rules may be changed while a crawl runs
// ([Filter.AddExclude], [Filter.RemoveExclude], or [Decider.AddExclude]), and each
// change applies to the decisions that start after it. Nothing else keeps state.
package scope
