// check.mjs reads WARC files with warcio.js, an independent reader, and
// prints one JSON object per record: its type, target URI, record IDs, the
// HTTP status of responses, and whether WARC-Block-Digest matches the block.
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
    if (record.warcType === "response") {
      const line = Buffer.from(block.subarray(0, 64)).toString("latin1").split("\r\n")[0];
      status = parseInt(line.split(" ")[1], 10) || 0;
    }
    const ok = want.toUpperCase() === got.toUpperCase();
    if (!ok) failed = true;
    console.log(JSON.stringify({
      file, type: record.warcType, uri: record.warcTargetURI || "",
      id: record.warcHeader("WARC-Record-ID") || "",
      concurrentTo: record.warcHeader("WARC-Concurrent-To") || "",
      length: block.length, status, blockDigestOK: ok,
    }));
  }
}
process.exit(failed ? 1 : 0);
