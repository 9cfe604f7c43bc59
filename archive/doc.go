// Package archive writes the WARC files that langcrawl produces, and the
// CDXJ index that lets pywb replay them.
//
// It implements the WARC File Format 1.1 (ISO 28500:2017, published by the
// IIPC at https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/)
// on top of github.com/nlnwa/gowarc, which builds and serializes each record.
// This package owns the files: their names, rotation, compression and the
// index.
//
// # Files
//
// A [Writer] writes into Config.Dir. Each file is named
//
//	<prefix>-<timestamp>-<serial>-<host>.warc.gz
//
// where timestamp is the UTC time the file was opened as yyyyMMddHHmmssSSS
// (17 digits), serial counts the files of Dir from 00000 (a new Writer
// continues after the highest serial already there, so numbers never
// restart across runs), and host
// is the name of the crawling machine. A file carries the suffix ".open"
// while it is being written, and is renamed (after fsync) when it is closed
// by [Writer.Rotate] or [Writer.Close]. A file is rotated once it has reached
// Config.MaxSize (default 1 GB, the customary size), checked before each
// exchange, so an exchange is never split over two files and a file may
// exceed MaxSize by one exchange plus its metadata.
//
// With Config.Compress each record is its own gzip member (the
// "record-at-time compression" of the WARC 1.1 GZIP annex), so a reader can
// seek to any record's offset. Without it files are named .warc and hold
// plain records.
//
// # Records
//
// Every file starts with a warcinfo record (section 6.2, application/warc-fields)
// describing the software, the collection it is part of (isPartOf), the
// host, the operator, the user agent, the robots policy and the resolved
// crawl profile. Every other record carries
// WARC-Warcinfo-ID pointing at the warcinfo record of its own file.
//
// [Writer.WriteExchange] writes a request record and a response record
// (sections 6.5 and 6.3, application/http;msgtype=request|response) whose
// blocks are the bytes that went over the wire, verbatim. The two are linked
// both ways by WARC-Concurrent-To; with Exchange.Metadata a metadata record
// (section 6.6) referring to the response follows in the same append.
// [Writer.WriteMetadata] writes such a record on its own, and
// [Writer.WriteRevisit] writes a revisit record (section 6.7) for a page that
// was unchanged on a re-crawl.
//
// # Digests
//
// WARC-Block-Digest is the SHA-1 of the whole block, written as
// "sha1:" and base32, as gowarc computes it. The Writer computes it, and
// Content-Length, itself and turns gowarc's per-record header validation
// off: that validation parsed every record ID and target URI with the
// WHATWG URL parser, a third of a crawl's allocations (BENCHMARKS.md), and
// with it off gowarc v1.6.0 would write no correct block digest of its
// own. The fields the Writer writes are checked by it (checkField; target
// URIs come canonical from the crawl), and the tests read every record back
// with gowarc's validation on and with warcio.js, both of which recompute
// the digests.
//
// WARC-Payload-Digest follows WARC 1.1 section 6.3.2: the
// payload of an HTTP response is its entity-body "with any transfer-encoding
// removed". The digest is therefore taken over the body after undoing
// Transfer-Encoding: chunked (chunk sizes, extensions and trailers are not
// part of the payload), but with any Content-Encoding (gzip, br, ...) left
// in place: content-coding is part of the entity. A body that ends inside a
// chunk (a truncated download) is digested up to where it ends, as the
// section asks. A body whose chunk framing is not valid cannot have its
// transfer-encoding removed, so its digest is taken over the body as stored.
// The same rule applies to request bodies. A transfer coding besides
// chunked ("Transfer-Encoding: gzip, chunked", which RFC 9112 allows and no
// common server sends) is not undone: its digest is over the de-chunked
// but still gzipped body, an exception to the section kept for its rarity.
//
// This is the reading that the IIPC settled in warc-specifications issue 22
// and that Heritrix is moving to (heritrix3 issue 769, PR 770): two
// responses that differ only in their chunk boundaries get the same
// payload digest, which is what identical-payload-digest revisits on
// re-crawls rely on. It is not what every tool does. Python warcio's
// `warcio check`, and gowarc's own validation, digest the stored body with
// its chunk framing still in it (warcio issues 74 and 75, still open), so
// they report a payload digest mismatch on chunked responses written by this
// package; block digests, and
// payload digests of unchunked bodies, agree everywhere. pywb, as far as we
// know, does not check digests: it only compares CDXJ "digest" values with
// each other, so replay and deduplication work either way. warcio.js does
// not check them either. Set Config.RawPayloadDigest to digest the stored
// body instead, for archives that must pass `warcio check` unchanged.
// [ReadAll] accepts a payload digest made by either rule and reports any
// other.
//
// # Index
//
// Beside the WARC files the Writer keeps one CDXJ index, Dir/index.cdxj
// (the format pywb reads, https://pywb.readthedocs.io/en/latest/manual/indexing.html).
// Each response or revisit adds one line:
//
//	<SURT key> <14-digit timestamp> {"url":..., "mime":..., "status":..., "digest":..., "length":..., "offset":..., "filename":...}
//
// The lines of the file being written are held in memory (some 300 bytes
// a response; the file itself is their journal). When the file is closed
// they are sorted and written as its run, Dir/index.d/<file name>.cdxj
// (through a temporary file, fsynced, renamed), and only then is the WARC
// file renamed from ".open". So no closed file lacks its lines, and no
// index file ever holds a cut line: a kill before the rename leaves the
// file ".open", and [Recover] writes its run again from the file; a full
// disk at the run leaves the file ".open" too, the Writer goes on in a new
// file, and [Writer.Close] (or Recover) tries again. [Writer.Close] and
// Recover merge the runs into index.cdxj ([MergeIndex]): a k-way merge of
// sorted files in bounded memory, written to a temporary file renamed over
// the index, after which the runs are removed; a line in both (a kill
// between the two) is written once. The index is sorted in byte order (as
// `LC_ALL=C sort`), which pywb needs for its binary search; [SortIndex]
// sorts any file, and [Sorter] any stream of lines, in bounded memory.
// While a crawl runs, index.cdxj holds the files closed before it started
// and index.d the files closed since, and also older ones when the merge
// at the start failed (ErrIndexNotMerged: a disk with no room for a copy
// of the index), which the next merge takes in.
//
// [IndexFiles] builds the same lines from existing WARC files, reading
// each record once with its block cut ([Scan]), so that `langcrawl index`
// reproduces the Writer's index byte for byte. The lines are those of
// pywb 2.9.1's own indexer (`wb-manager reindex`) for response records;
// pywb's gives a revisit the status "-" where ours gives the revisit's own
// (304, or 200), and neither indexes request or metadata records.
//
// The SURT key follows the Internet Archive
// canonicalization that pywb uses (lower case, "www." and default ports
// dropped, query arguments sorted), without session-id stripping; pywb's
// `wb-manager reindex` can always rebuild the index from the WARC files.
//
// # Errors
//
// A failed write (a full disk) is returned wrapped with the name of the file.
// The partial exchange is cut off again, the file is closed and renamed with
// every record written before (or left ".open" if its index run cannot be
// written, see Index), and the next write opens a new file. Files
// already closed are never touched again.
//
// # The crash contract
//
// A URL is complete only after its records are in the WARC: the engine
// writes them (WriteExchange), then the URL's crawl.log line, and only
// then does the frontier record the URL done (a kill between the last two
// leaves a line for a URL fetched again on resume, never a URL done
// without its line). Every append reaches the
// operating system before WriteExchange returns, crawl.log lines are
// written whole as they complete, and the frontier's writes go to
// LevelDB's journal, so a process kill (SIGKILL, a crash, OOM) loses
// nothing reported done: on the next start [Recover] closes the ".open"
// file, cutting off at most a half-written record, whose URL the frontier
// still holds in flight and fetches again. Recover cuts at the last
// record boundary at or before the crash's cut, wherever that falls
// (TestRecoverEveryCut tries every byte): a record is kept only if its
// block holds all of its Content-Length, its end-of-record marker is there
// and, compressed, its gzip member's checksum reads; and the whole record
// before a cut one is kept. Power failures are covered by
// a group commit (crawl.Syncer): every durability.sync_interval (default
// 1s) the open WARC file is fsynced ([Writer.Sync]), then the frontier's
// journal (frontier.Queue.Sync), then crawl.log, with completions held
// back between the first two, so no sync makes a URL's completion durable
// before its records. At most one interval of
// completed work can be lost on power loss (it is fetched again);
// sync_interval 0 fsyncs around every URL and loses none. Closed files are
// fsynced before their rename, and the directory after it; a file's index
// run is fsynced (directory too) before that rename. One caveat: between two syncs the kernel
// may write back the frontier's journal before the WARC file, so on a
// power cut a URL completed in the last interval can, rarely, be held
// complete without its records; sync_interval 0 closes that window.
//
// # Concurrency
//
// A Writer is safe for concurrent use; one mutex serializes writes, which all
// go to the current file. NewWriter starts no goroutines.
package archive
