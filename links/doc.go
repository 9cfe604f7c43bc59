// Package links extracts the links of an HTML page and of a stylesheet: the pages a
// crawler follows, and the page requisites a replay (pywb) needs to render the page.
//
// # What is extracted
//
// [Extract] reads HTML that the engine has already decoded to UTF-8, with the streaming
// tokenizer of golang.org/x/net/html (no DOM is built). It reports:
//
//   - [Nav]: a[href], area[href], and link[href] with rel canonical, alternate, next or
//     prev (rel="alternate stylesheet" is a requisite);
//   - [Frame]: frame[src] and iframe[src], navigation that the engine counts for depth but
//     may treat apart;
//   - [Refresh]: the URL of <meta http-equiv="refresh" content="5; url=...">, parsed as
//     the HTML Standard's "shared declarative refresh steps" do, which the engine treats like
//     a redirect;
//   - [Requisite]: img[src], img[srcset] and source[srcset] (every candidate), source[src],
//     img[data-src] and img[data-srcset] (lazy loading scripts swap these in when the replay
//     runs), link[href] with rel stylesheet, icon, apple-touch-icon, mask-icon, manifest,
//     preload or modulepreload, script[src], video[src], video[poster], audio[src],
//     track[src], embed[src], object[data], input[type=image][src], svg image[href] and
//     image[xlink:href], the background attribute, and the url(...) and @import of
//     style attributes and <style> blocks.
//
// The contents of <noscript> and <noframes> are read as markup, so the links a
// browser without scripts or frames would see are found too.
//
// URLs are resolved against the document base URL, as the HTML Standard defines it: the
// first <base href> of the document (wherever it stands) resolved against the page URL,
// or the page URL itself. Resolution follows the WHATWG URL Standard
// (https://url.spec.whatwg.org/, via github.com/nlnwa/whatwg-url), so each URL is the one a
// browser would request; fragments are removed, and nothing else is normalised (the
// scope package canonicalises). Only http and https URLs are returned: javascript:,
// mailto:, tel:, data:, about: and the like, and links to a fragment of the page itself,
// are skipped. Each URL is returned once per Kind; it is NoFollow only when every
// occurrence of it is.
//
// The engine decodes pages to UTF-8 first. A link's query is encoded as a browser
// encodes it: in the page's own charset (Options.QueryCharset, the URL Standard's query
// state), its path and fragment in UTF-8, so a TIS-620 page's search link is fetched
// and archived as the URL a reader of the page follows in replay. Before, every query
// was UTF-8, and a replay review found such a link archived under a URL no browser asks
// for.
//
// # Per-link evidence
//
// For the language focusing of the engine (Tamura 4.1's "per-link attributes": "the
// anchor and surrounding text"), each <a> link carries its anchor text ([Link.Anchor]),
// the text around it ([Link.Context]: at most [MaxContextLen] bytes of the page's text
// either side, inside its block; for a link in a quotation's citation, the end of the
// quotation), and, on a, area and link elements, its hreflang and lang attributes. The
// page's own <html lang> is [Page.Lang]. All are bounded and cost one pass over text the
// tokenizer already returns.
//
// # Robots directives
//
// <meta name="robots"> with nofollow, noindex or none sets [Page.NoFollow] and
// [Page.NoIndex], and rel="nofollow" sets [Link.NoFollow]. They are reported, not
// applied: the engine decides. See https://www.rfc-editor.org/rfc/rfc9309 (robots.txt)
// and the HTML Standard's link types for the meaning of nofollow.
//
// # Limits
//
// Malformed HTML never makes Extract panic or fail: it extracts what the tokenizer can
// see. Options.MaxLinks bounds the links of one page (default 10,000) and
// Options.MaxAttrLen bounds the attribute values read (default 32 KiB); longer values are
// ignored. The work is linear in the size of the page.
//
// # Papers
//
// Link extraction is step 4 of the crawl loop of Tamura, Somboonviwat and Kitsuregawa
// (2007), and feeds the site trees of Nakahira, Hoshino and Mikami (2008); see
// shared/papers/.
//
// # Concurrency
//
// Extract and ExtractCSS keep no state and are safe for concurrent use.
package links
