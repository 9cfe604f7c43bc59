// Package webgen is langcrawl's built-in synthetic multilingual web. One
// generator serves three uses: `langcrawl demo` serves a small instance over
// loopback, the end-to-end tests crawl it and compare the WARCs with its
// ground truth, and `langcrawl simulate` runs the frontier and strategy code
// over a large instance in memory, without HTTP.
//
// # The graph
//
// Generate builds a Graph from Params, deterministically from Params.Seed.
// Servers have a host name under the reserved .test TLD (RFC 2606), a
// language and a charset; pages belong to servers and have a language.
// Links are stored in compressed sparse rows (per-page offsets into one
// []int32 of destinations), so SimulatorDefaults — 100,000 servers, about
// 2.3 million pages and 14 million links — takes well under 500 MB (about
// 90 MB) and a few seconds of CPU.
//
// The link mix follows Tamura, Somboonviwat and Kitsuregawa 2007,
// "Language-specific Web crawling", §2–3 (the papers are in
// shared/papers): 4.6% of servers hold target pages (§2.3), target servers
// also carry English pages, and each link's destination language and
// intra/inter-server kind are drawn from the rows of Table 4 (target page;
// non-target page on a target server; page on a non-target server), with the
// share of inter-server links that stay among target servers set to give
// Table 5's 87.4%. Page counts per server are lognormal (heavy-tailed);
// inter-server links go to a server in proportion to its size or, with
// Params.PreferentialShare, copy an earlier link's server (preferential
// attachment), which makes hubs. Tables 4 and 5 give the shares of links
// but not how concentrated their destinations are: with Params.HubShare
// (default 1%), the links that leave target servers for non-target servers
// all go to a small pool of popular non-target servers, with strong
// preferential attachment and mostly to their home pages, as links from a
// national web to foreign servers pile up on a few portals and vendors on
// the real web. The share of foreign pages on target servers (17.7%) is
// derived from Table 4's link counts (see Params). Half of the intra-server links go to one of
// the next few pages, so sites are deep, like the site trees of Nakahira,
// Hoshino and Mikami 2008, "Low-load server crawler". Some links point at
// pages that answer 404, and a share of target servers keep their pages in
// language directories (/th/, /en/), which the directory strategy needs.
//
// Graph.Seeds are the home pages of the best-linked target servers (three
// by default, as in Tamura et al.). Graph.Distances gives the BFS distance
// of every page from a set of seeds, or -1: the ground truth for coverage
// and for the miss ratio by distance (Tamura Fig. 4).
//
// Generated paths are "/" (the home page), "/pageN.html",
// "/<lang>/N.html" on servers with language directories, "/~uK/N.html" on
// hosting servers, and "/gone/N.html" for pages that answer 404.
//
// # The family's parameters
//
// What the paper leaves open is a parameter, 0 by default, so that the
// default and demo webs keep their bytes; the simulator's family of webs
// (simulate.Family, simulate/RESULTS.md) moves each over a stated range.
// Graph-shaping: Params.HubShare, HiddenTargetShare (target servers only
// non-target servers link to, Tamura Fig. 2), ForeignHomeShare (an English
// home page on a server with language directories, Tamura 3.3),
// HostingShare (per-user directories in two languages, Tamura 4.3), the
// ccTLD shares (Tamura Table 1). Evidence only, the graph unchanged:
// Graph.Anchor (AnchorDestShare, AnchorSrcShare, AnchorURLShare),
// Graph.Hreflang (HreflangShare), Graph.LinkContext (ContextWords,
// ContextDestShare) and Graph.DeclaredLang (LangDeclShare; the server
// answers Content-Language and <html lang>). The per-server and per-link
// draws come from hashes or a generator of their own, never from the one
// that shapes the default graph.
//
// # The server
//
// NewServer serves a Graph as HTML over HTTP, routing on r.Host. Page text
// is generated from the page id from small word lists per language (th, lo,
// en, ja, zh, ko, ru, de, fr, es, vi, id) with English navigation
// boilerplate, and encoded in the server's charset with
// golang.org/x/text/encoding: TIS-620, windows-874, Shift_JIS, EUC-JP,
// ISO-2022-JP, GBK, Big5, EUC-KR, KOI8-R, windows-1251, ISO-8859-1,
// windows-1252 and UTF-8. How a server declares its charset is its Decl: in
// the header and META, one of them, neither, a wrong header, a wrong META
// (ISO-8859-1 on TIS-620 bytes), two METAs, or Thai text as numeric
// character references (&#3652;) on an ISO-8859-1 page, the case Tamura
// §2.3 reports. Intra-server links are relative, inter-server links
// absolute; every page references /style.css and /img/logo.png, which
// every host serves.
//
// Every host serves /robots.txt ("Disallow:" with nothing disallowed)
// unless it is one of the special hosts below. The server logs every
// request (Server.Log) with times from an injected clock and a connection
// id (wire Server.ConnContext, or use Server.Listen). DialContext sends
// every *.test host to the listener, so no DNS is involved and nothing
// else is ever dialled.
//
// Graph.Truth and Graph.TruthTable give, for each URL, its true language,
// whether it is a target page, whether robots.txt disallows it and the
// status the server answers with.
//
// # Special cases
//
// Params.Special (on in DemoDefaults) adds these hosts, all Thai, linked
// from the home page of the largest Thai server (the first seed):
//
//	host                path                    answer
//	th-robots.test      /robots.txt             Disallow: /private/
//	                    /private/1.html, 2.html 200, disallowed; linked from / and /a.html
//	th-crawldelay.test  /robots.txt             Crawl-delay: 1
//	th-robots503.test   /robots.txt             503 twice with Retry-After: 1, then allow all (RFC 9309 §2.3.1.4: the crawl waits, loses nothing)
//	th-norobots.test    /robots.txt             404: everything allowed (RFC 9309 §2.3.1.3)
//	th-redirect.test    /r301                   301 to /target1.html
//	                    /r302                   302 to /target2.html
//	                    /chain1                 301 to /chain2, which is 302 to /final.html
//	                    /loop1                  302 to /loop2, which is 302 to /loop1
//	                    /offsite                301 to http://th-norobots.test/2.html
//	                    /nope.html              404
//	                    /broken.html            links to "http://[::1" and "http://bad host/"
//	th-query.test       /list.php?id=1..50      each links to the 49 others (one crawl per script)
//	th-calendar.test    /calendar/2026/11/      links to the next month, forever (a trap)
//	th-slow.test        every path              delayed by ServerOptions.SlowDelay (default 2s)
//	th-odd.test         /endless                an HTML body that never ends
//	                    /malformed.html         unclosed tags and garbage bytes
//	                    /chunked.html           Transfer-Encoding: chunked
//	                    /gzip.html              Content-Encoding: gzip, whatever the request asks
//
// With Params.CoverDecl (on in DemoDefaults) the Thai servers take the Decl
// cases in turn, so the demo web has each of them; Params.LangDirShare > 0
// guarantees at least one target server with /th/ and /en/ directories.
//
// # Generations
//
// The web changes between re-crawls. ServerOptions.Generation (default 1,
// the graph as generated) and Server.SetGeneration choose the generation
// served; each later one is drawn from the one before, deterministically,
// for the pages of the generated servers (generation.go): 4% of the pages
// go (404 or 410, and stay gone), 10% change text, 3% of the pages of
// target servers change language, each changed page links to a new page
// (/new/G/N.html), one in three also to a copy of an unchanged page of at
// least 1 KiB (copyG-NAME beside it), and the rest stay byte for byte. With
// ServerOptions.Validators, half the generated servers
// (ServerInfo.Validators) send ETag and Last-Modified and answer a
// matching conditional request with 304. Graph.Changes(gen) and
// Graph.TruthAt give the ground truth. On the demo web generation 2 has 56
// changed, 6 lang-changed, 24 gone, 62 new and 21 copied URLs, and 547
// unchanged (318 on servers with validators, 229 without).
//
// # Concurrency
//
// A Graph is immutable and safe for concurrent use. A Server is safe for
// concurrent use; NewServer starts no goroutines.
package webgen
