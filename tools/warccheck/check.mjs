// check.mjs reads WARC files with warcio.js, an independent reader, and
// prints one JSON object per record: its type, target URI, record IDs, the
// HTTP status of responses, and whether WARC-Block-Digest and
// WARC-Payload-Digest match, computed the way warcio computes them.
// langcrawl's end-to-end tests compare this with what gowarc reads.
//
// usage: node check.mjs FILE.warc.gz...
import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import { WARCParser } from "warcio";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(buf) {
  let bits = 0, value = 0, out = "";
  for (const b of buf) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

let failed = false;
for (const file of process.argv.slice(2)) {
  const parser = new WARCParser(createReadStream(file), { parseHttp: false });
  for await (const record of parser) {
    const block = await record.readFully(false);
    const want = record.warcBlockDigest || "";
    const got = "sha1:" + base32(createHash("sha1").update(block).digest());
    let status = 0;
    let payloadOK = true;
    if (record.warcType === "response" || record.warcType === "request") {
      const line = Buffer.from(block.subarray(0, 64)).toString("latin1").split("\r\n")[0];
      if (record.warcType === "response") status = parseInt(line.split(" ")[1], 10) || 0;
      // warcio digests the payload as stored: everything after the HTTP
      // headers, transfer coding included.
      const end = Buffer.from(block).indexOf("\r\n\r\n");
      const pd = record.warcPayloadDigest;
      if (pd && end >= 0) {
        const p = "sha1:" + base32(createHash("sha1").update(block.subarray(end + 4)).digest());
        payloadOK = pd.toUpperCase() === p.toUpperCase();
      }
    }
    const ok = want.toUpperCase() === got.toUpperCase();
    if (!ok || !payloadOK) failed = true;
    console.log(JSON.stringify({
      file, type: record.warcType, uri: record.warcTargetURI || "",
      id: record.warcHeader("WARC-Record-ID") || "",
      concurrentTo: record.warcHeader("WARC-Concurrent-To") || "",
      length: block.length, status, blockDigestOK: ok, payloadDigestOK: payloadOK,
    }));
  }
}
process.exit(failed ? 1 : 0);
