// Package wacz packages WARC files as a WACZ file, the Web Archive
// Collection Zipped format 1.1.1 (https://specs.webrecorder.net/wacz/1.1.1/),
// which ReplayWeb.page opens as it is and pywb loads with
// `wb-manager add --unpack-wacz`.
//
// # Layout
//
// A WACZ is a ZIP file holding, in this order:
//
//	archive/<name>.warc.gz      every WARC file, stored (never deflated again)
//	indexes/index.cdx.gz        the CDXJ index of every response and revisit, gzipped in blocks, stored
//	indexes/index.idx           the ZipNum summary: where each block starts and its first key
//	pages/pages.jsonl           one line a page: url, ts, title and lang
//	datapackage.json            profile, wacz_version, and every file's name, path, sha256 and size
//	datapackage-digest.json     the sha256 of datapackage.json
//
// WARC files are stored, not deflated: they are gzipped record by record
// already, and a replay tool reads a record by its offset, which it can do
// only in a stored entry.
//
// The index is named index.cdx.gz, not index.cdxj: pywb 2.9.1's
// `wb-manager add --unpack-wacz` takes only the files whose names end in
// .cdx or .cdx.gz (manager.py, _add_wacz_unpacked), and reads each line
// with CDXObject, which takes a line whose third field starts with "{" as
// CDXJ. Its lines are the ones archive.Writer writes (archive.Scan), with
// "filename" the WARC file's base name, which pywb maps to the name it
// gives the file in its collection. ReplayWeb.page (wabac.js, loadIndex)
// loads no .cdx.gz by itself, only .cdx, .cdxj and .idx files: the index
// is written as py-wacz writes it, ZipNum, one gzip member for every 3,000
// lines, and index.idx ("!meta 0 {"format":"cdxj-gzip-1.0",...}", then a
// line a block: its first key and timestamp, offset and length), from
// which ReplayWeb.page reads the one block a URL needs.
//
// Resource names in datapackage.json are Frictionless names: lower case,
// [a-z0-9._-] (py-wacz lower-cases too); paths keep the file's own name.
//
// A page is a response with status 200 and an HTML content type, or a
// 2xx response (one without a Content-Type, which the crawler parses as
// HTML) or a revisit that the crawler described with a language. Its title is the
// page's <title>, decoded with the charset the crawler detected (from the
// metadata record that follows the response) or declared by the server;
// lang is the language the crawler detected. pages.jsonl starts with the
// header line {"format":"json-pages-1.0","id":"pages","title":"All Pages"}.
//
// # Memory and size
//
// [Write] streams: each WARC file is read once, copied into the ZIP while
// it is hashed and scanned for its index lines and pages; the index lines
// are sorted in bounded memory (archive.Sorter, spilling runs to
// Options.TempDir) and the pages go through a temporary file. Memory does
// not grow with the crawl. archive/zip writes ZIP64 records for entries
// and archives past 4 GiB.
package wacz
