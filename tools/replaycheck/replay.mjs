// replay.mjs replays WARC files in ReplayWeb.page — Webrecorder's browser
// replay app, whose service worker is wabac.js, the engine pywb 2.8+ uses
// for client-side replay — inside headless Chromium, and reports what each
// replayed page shows.
//
// usage: node replay.mjs [--deadline SECONDS] WARC... -- URL...
//        node replay.mjs [--deadline SECONDS] FILE.wacz -- URL...
//
// Given one .wacz file, it serves that instead, as a user would open a
// WACZ with ReplayWeb.page: wabac.js then reads its index and its WARC
// records by range requests, as it does for a WACZ on the web.
//
// --deadline is one deadline for the whole run, counted from its start
// (default 300 s): every wait below (Chromium starting, wabac.js indexing
// the archive, each replay frame and its load event) waits for its
// condition until that deadline, never for a fixed time of its own, so a
// slow, loaded machine makes the run slower, not wrong.
//
// It serves ReplayWeb.page's static files (index.html, ui.js, sw.js from the
// npm package) and one WARC file, the concatenation of the given ones (a
// .warc.gz file is a series of gzip members, so the concatenation is a valid
// WARC file), from its own HTTP server on 127.0.0.1, on a random port. It
// opens the app at /?source=<that WARC>, as a user of
// https://replayweb.page/?source=URL would, and waits until wabac.js has
// indexed the archive. Then, for each URL, it opens the app at
// /?source=<WARC>#url=<URL>&ts=&view=replay (the link wabac.js itself
// makes to a page; no timestamp, so the latest capture), which puts
// /w/<collection>/mp_/<URL> in the app's replay iframe, waits for that frame
// to load, and prints one JSON object on stdout:
//
//	url           the URL asked for
//	inArchive     whether wabac.js's index of the archive holds the URL
//	captures      what that index says of it: [{ts, status, mime}], status
//	              being the archived HTTP status (a 301 stays a 301 here)
//	status        the HTTP status of the document shown in the replay frame;
//	              wabac.js follows archived redirects itself, so this is the
//	              status at the end of them, and 404 for a URL not archived
//	finalUrl      the archived URL shown (differs from url after a redirect)
//	contentType   the Content-Type of the replayed document
//	title         document.title in the replay frame
//	text          the visible text of the replay frame (body.innerText)
//	bodySha256    SHA-256 (hex) of the document as wabac.js served it to the
//	              frame; it rewrites HTML, so this is not the archived payload
//	subresources  the images and stylesheets the frame loaded:
//	              [{url, type, status, archived}], archived meaning the
//	              index holds the URL and wabac.js answered below 400
//	blocked       requests that tried to reach anything but this script's
//	              server; [] unless something escaped the replay
//	error         set when the replay frame did not load
//
// Nothing leaves the machine: Chromium maps every host name but 127.0.0.1
// to nothing (--host-resolver-rules), and every request that is not for
// this script's own server is aborted (context.route) and listed in blocked.
//
// Exit status: 0 when every URL got a report line, in the archive or not;
// 1 when the archive did not load or a replay frame did not load; 2 when
// Chromium or the npm packages are missing (run install.sh).
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const chromiumPath = process.env.REPLAYCHECK_CHROMIUM || "/usr/bin/chromium";
const debug = process.env.REPLAYCHECK_DEBUG ? (m) => process.stderr.write(`debug: ${m}\n`) : () => {};

function die(code, msg) {
  process.stderr.write(`replaycheck: ${msg}\n`);
  process.exit(code);
}

// ---- arguments -------------------------------------------------------------

let deadlineMs = 300000;
const warcs = [];
const urls = [];
{
  const args = process.argv.slice(2);
  let i = 0;
  for (; i < args.length && args[i] !== "--"; i++) {
    if (args[i] === "--deadline") {
      deadlineMs = 1000 * Number(args[++i]);
      if (!(deadlineMs > 0)) die(1, "--deadline wants a number of seconds");
    } else {
      warcs.push(args[i]);
    }
  }
  urls.push(...args.slice(i + 1));
}
if (warcs.length === 0 || urls.length === 0) {
  die(1, "usage: node replay.mjs [--deadline SECONDS] WARC... -- URL... (or one FILE.wacz)");
}
const startedAt = Date.now();
const deadline = startedAt + deadlineMs;
// left is the time until the deadline, in ms (at least 1: playwright reads 0 as no limit).
const left = () => Math.max(1, deadline - Date.now());
const late = () => `before the deadline (${deadlineMs / 1000}s after the start; ${((Date.now() - startedAt) / 1000).toFixed(1)}s now)`;

// ---- what must be installed ---------------------------------------------------

const appDir = join(here, "node_modules", "replaywebpage");
for (const f of ["index.html", "ui.js", "sw.js"]) {
  if (!existsSync(join(appDir, f))) {
    die(2, `ReplayWeb.page is not installed (${join(appDir, f)} is missing): run tools/replaycheck/install.sh`);
  }
}
if (!existsSync(chromiumPath)) {
  die(2, `Chromium is not installed (${chromiumPath} is missing): run tools/replaycheck/install.sh, which runs apt-get install chromium`);
}
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch (e) {
  die(2, `playwright-core is not installed (${e.message}): run tools/replaycheck/install.sh`);
}

// ---- the archive: one WARC file, the concatenation of the given ones ---------

const wacz = warcs.length === 1 && warcs[0].endsWith(".wacz");
let archive;
try {
  archive = Buffer.concat(warcs.map((f) => readFileSync(f)));
} catch (e) {
  die(1, `read ${wacz ? "WACZ" : "WARC"}: ${e.message}`);
}
const archivePath = wacz
  ? "/archive/crawl.wacz"
  : warcs.every((f) => f.endsWith(".gz"))
    ? "/archive/all.warc.gz"
    : "/archive/all.warc";

// ---- the server -------------------------------------------------------------------

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "application/javascript",
  ".json": "application/json",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
};

// serveArchive answers whole and Range requests for the archive.
function serveArchive(req, res) {
  const total = archive.length;
  const head = { "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes" };
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range || "");
  if (m && (m[1] !== "" || m[2] !== "")) {
    let start, end;
    if (m[1] === "") {
      start = Math.max(0, total - Number(m[2]));
      end = total - 1;
    } else {
      start = Number(m[1]);
      end = m[2] === "" ? total - 1 : Math.min(Number(m[2]), total - 1);
    }
    if (start >= total || start > end) {
      res.writeHead(416, { "Content-Range": `bytes */${total}` });
      return res.end();
    }
    res.writeHead(206, { ...head, "Content-Range": `bytes ${start}-${end}/${total}`, "Content-Length": end - start + 1 });
    return res.end(req.method === "HEAD" ? undefined : archive.subarray(start, end + 1));
  }
  res.writeHead(200, { ...head, "Content-Length": total });
  res.end(req.method === "HEAD" ? undefined : archive);
}

// blankPath is an empty page inside the service worker's scope, from which
// the script asks wabac.js's API about the archive.
const blankPath = "/replaycheck-blank.html";

const server = createServer((req, res) => {
  debug(`server: ${req.method} ${req.url} ${req.headers.range || ""}`);
  let path;
  try {
    path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  } catch {
    path = "";
  }
  if (path === archivePath) return serveArchive(req, res);
  if (path === blankPath) {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    return res.end("<!doctype html><title>replaycheck</title>\n");
  }
  const file = normalize(join(appDir, path === "/" ? "index.html" : path.slice(1)));
  if (!path || !file.startsWith(appDir + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { "Content-Type": "text/plain" });
    return res.end("not found\n");
  }
  res.writeHead(200, { "Content-Type": types[extname(file)] || "application/octet-stream" });
  res.end(req.method === "HEAD" ? undefined : readFileSync(file));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;
const sourceUrl = origin + archivePath;
const appUrl = `${origin}/?source=${encodeURIComponent(sourceUrl)}`;

// ReplayWeb.page names a collection loaded from a URL "id-" and the first
// 12 hex digits of the SHA-256 of the URL (sourceToId in src/pageutils.ts);
// wabac.js serves it under /w/<collection>/ and its API under /w/api/c/.
const coll = "id-" + createHash("sha256").update(sourceUrl).digest("hex").slice(0, 12);
const replayPrefix = `${origin}/w/${coll}/`;
const apiPrefix = `${origin}/w/api/c/${coll}`;

// archivedURL turns a replay URL (/w/<coll>/<ts><mod>_/<url>, from a WACZ
// /w/<coll>/:<id>/<ts><mod>_/<url>) back into the
// archived URL, and leaves any other URL as it is.
function archivedURL(u) {
  if (!u.startsWith(replayPrefix)) return u;
  // From a WACZ, wabac.js puts the WACZ's own id first: ":<hash>/".
  const m = /^(?::[0-9a-f]+\/)?[0-9]*(?:[a-z]{2}_)?\/(.*)$/s.exec(u.slice(replayPrefix.length));
  return m ? m[1] : u;
}

// ---- replaying one URL -------------------------------------------------------------

// Index asks wabac.js's own index of the collection (the API behind
// ReplayWeb.page's "URLs" tab) what it holds for a URL.
class Index {
  constructor(page) {
    this.page = page;
    this.memo = new Map();
  }

  // captures returns [{ts, status, mime}] for url, exactly as archived.
  async captures(url) {
    if (!this.memo.has(url)) {
      const q = new URLSearchParams({ mime: "", url, prefix: "0", count: "100" });
      const res = await this.page.evaluate(async (u) => {
        const r = await fetch(u);
        return { status: r.status, body: await r.text() };
      }, `${apiPrefix}/urls?${q}`);
      if (res.status !== 200) throw new Error(`wabac.js index: ${res.status} ${res.body.slice(0, 200)}`);
      const caps = JSON.parse(res.body).urls
        .filter((c) => c.url === url)
        .map((c) => ({ ts: c.ts, status: c.status, mime: c.mime }));
      this.memo.set(url, caps);
    }
    return this.memo.get(url);
  }
}

async function replay(page, index, url) {
  const out = { url, inArchive: false, captures: [], status: 0, finalUrl: "", contentType: "",
    title: "", text: "", bodySha256: "", subresources: [], blocked: [] };
  const subs = [];
  let gotDoc;
  const doc = new Promise((ok) => (gotDoc = ok));
  const inFrame = (req) => req.url().startsWith(replayPrefix) && req.frame() !== page.mainFrame();
  const isSub = (req) => ["image", "stylesheet"].includes(req.resourceType());
  const onResponse = (resp) => {
    const req = resp.request();
    if (!inFrame(req)) return;
    debug(`frame response ${resp.status()} ${req.url()}`);
    if (req.isNavigationRequest()) {
      if (resp.status() < 300 || resp.status() >= 400) gotDoc(resp);
    } else if (isSub(req)) {
      subs.push({ url: archivedURL(req.url()), type: req.resourceType(), status: resp.status() });
    }
  };
  const onFailed = (req) => {
    if (inFrame(req) && isSub(req)) {
      subs.push({ url: archivedURL(req.url()), type: req.resourceType(), status: 0, failure: req.failure()?.errorText || "failed" });
    }
  };
  // A document the browser refuses (a redirect loop, say) shows as a
  // chrome-error: page in the frame, and never as a response.
  let frameError;
  const errored = new Promise((ok) => (frameError = ok));
  const onNavigated = (f) => {
    if (f !== page.mainFrame() && f.url().startsWith("chrome-error:")) frameError();
  };
  page.on("response", onResponse);
  page.on("requestfailed", onFailed);
  page.on("framenavigated", onNavigated);
  let timer;
  try {
    await page.goto("about:blank");
    const hash = new URLSearchParams({ url, ts: "", view: "replay" }).toString();
    await page.goto(`${appUrl}#${hash}`);
    const resp = await Promise.race([
      doc,
      errored.then(() => {
        throw new Error(`the replay frame shows a browser error page for ${url} (a redirect loop?)`);
      }),
      new Promise((_, fail) => {
        timer = setTimeout(() => fail(new Error(`the replay frame did not open ${url} ${late()}`)), left());
      }),
    ]);
    const frame = resp.frame();
    // The load event waits for the document's images and stylesheets.
    await frame.waitForLoadState("load");
    const h = await resp.allHeaders();
    out.status = resp.status();
    out.finalUrl = archivedURL(resp.url());
    out.contentType = h["content-type"] || "";
    out.bodySha256 = createHash("sha256").update(await resp.body()).digest("hex");
    out.title = await frame.title();
    out.text = await frame.evaluate(() => (document.body ? document.body.innerText : ""));
  } catch (e) {
    out.error = e.message.split("\n")[0];
  } finally {
    clearTimeout(timer);
    page.off("response", onResponse);
    page.off("requestfailed", onFailed);
    page.off("framenavigated", onNavigated);
  }
  try {
    out.captures = await index.captures(url);
    out.inArchive = out.captures.length > 0;
    for (const s of subs) {
      s.archived = s.status > 0 && s.status < 400 && (await index.captures(s.url)).length > 0;
    }
    out.subresources = subs;
  } catch (e) {
    out.error = out.error || e.message.split("\n")[0];
  }
  return out;
}

// ---- the browser --------------------------------------------------------------------

let browser;
try {
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: left(),
    args: [
      ...(process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : []),
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-domain-reliability",
      "--disable-dev-shm-usage",
      "--no-first-run",
    ],
  });
} catch (e) {
  server.close();
  die(2, `cannot start Chromium (${chromiumPath}): ${e.message.split("\n")[0]}; run tools/replaycheck/install.sh`);
}

let exitCode = 0;
try {
  const context = await browser.newContext({ serviceWorkers: "allow" });
  context.setDefaultTimeout(left());
  let blocked = [];
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u.startsWith(origin + "/")) return route.continue();
    blocked.push(u);
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();

  // Load the archive into ReplayWeb.page and wait until wabac.js has indexed
  // it: its API answers 200 for the collection only then.
  await page.goto(appUrl);
  let loaded = false;
  while (!loaded && Date.now() < deadline) {
    loaded = await page
      .evaluate(async (api) => {
        try {
          return (await fetch(api)).status === 200;
        } catch {
          return false;
        }
      }, apiPrefix)
      .catch(() => false);
    if (!loaded) await new Promise((ok) => setTimeout(ok, 250));
  }
  if (!loaded) {
    const shown = await page.evaluate(() => document.body.innerText).catch(() => "");
    throw new Error(`ReplayWeb.page did not load ${sourceUrl} ${late()} (it shows: ${JSON.stringify(shown.slice(0, 300))})`);
  }
  if (blocked.length > 0) {
    throw new Error(`ReplayWeb.page tried to leave 127.0.0.1 while loading: ${blocked.join(" ")}`);
  }
  const api = await context.newPage();
  await api.goto(origin + blankPath);
  const index = new Index(api);

  for (const url of urls) {
    blocked = [];
    // Each playwright wait (navigation, load event) ends at the deadline.
    context.setDefaultTimeout(left());
    const rep = await replay(page, index, url);
    rep.blocked = blocked.slice();
    if (rep.error) exitCode = 1;
    process.stdout.write(JSON.stringify(rep) + "\n");
  }
} catch (e) {
  process.stderr.write(`replaycheck: ${e.message}\n`);
  exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(exitCode);
