// status.mjs drives langcrawl's status page in headless Chromium for the
// status page test (cmd/langcrawl/statuspage_test.go). It reuses
// tools/replaycheck's install: Debian's /usr/bin/chromium and the
// playwright-core npm package in tools/replaycheck/node_modules.
//
// usage: node status.mjs [--deadline SECONDS] [--screenshot FILE] PAGE SEED HOST DELAY RULE
//
// PAGE is the address the crawl printed (http://127.0.0.1:PORT/#token=...).
// It talks with the test in lines: one JSON object on stdout per phase,
// and it waits for a line on stdin where the test has checks to make.
//
//	{"phase":"drawn", "charts":{id:{drawn,points,inked}}, "numbers":{id:value}}
//	    the page polled, and the charts drew lines (inked: pixels that are
//	    neither white nor the background)
//	{"phase":"paused", "numbers":{...}}
//	    after a click on Resume (the test starts it paused), three more
//	    pages, and a click on Pause: the page shows the crawl paused with
//	    nothing in flight, and the same numbers in two polls in a row
//	<- "steer"
//	{"phase":"steered"}
//	    the exclusion rule RULE removed, SEED added and HOST's delay set
//	    to DELAY through the page's forms, each answered ok, and the page
//	    lists the delay and no longer lists the rule
//	<- "resume"
//	{"phase":"resumed"}
//	    after a click on Resume, answered ok
//
// Every wait is for a condition, up to one deadline for the whole run
// (default 120 s). Nothing leaves the machine: host names other than
// 127.0.0.1 resolve to nothing, and any request that is not for PAGE's
// origin is aborted. Exit status: 0 done, 1 a step failed, 2 Chromium or
// playwright-core missing.
import { createInterface } from "node:readline";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const here = dirname(fileURLToPath(import.meta.url));
const chromiumPath = process.env.REPLAYCHECK_CHROMIUM || "/usr/bin/chromium";

function die(code, msg) {
  process.stderr.write(`statuscheck: ${msg}\n`);
  process.exit(code);
}

let deadlineMs = 120000;
let screenshot = "";
const rest = [];
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === "--deadline") deadlineMs = 1000 * Number(a[++i]);
    else if (a[i] === "--screenshot") screenshot = a[++i];
    else rest.push(a[i]);
  }
}
if (rest.length !== 5) die(1, "usage: node status.mjs [--deadline S] [--screenshot FILE] PAGE SEED HOST DELAY RULE");
const [page0, seed, host, delay, rule] = rest;
const start = Date.now();
const left = () => Math.max(1, deadlineMs - (Date.now() - start));

let chromium;
try {
  const require = createRequire(join(here, "..", "replaycheck", "package.json"));
  ({ chromium } = require("playwright-core"));
} catch (e) {
  die(2, `playwright-core is missing (${e.message.split("\n")[0]}); run tools/replaycheck/install.sh`);
}

// Lines from the test, one awaited at a time.
const lines = [];
let wake = null;
createInterface({ input: process.stdin }).on("line", (l) => { lines.push(l.trim()); if (wake) wake(); });
async function expect(word) {
  while (true) {
    if (lines.length) {
      const l = lines.shift();
      if (l === word) return;
      die(1, `wanted ${word} on stdin, got ${l}`);
    }
    await new Promise((r) => { wake = r; setTimeout(r, left()); });
    if (left() <= 1) die(1, `timed out waiting for ${word} on stdin`);
  }
}
const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");

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
  die(2, `cannot start Chromium (${chromiumPath}): ${e.message.split("\n")[0]}; run tools/replaycheck/install.sh`);
}

let code = 0;
try {
  const origin = new URL(page0).origin;
  const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
  context.setDefaultTimeout(left());
  const blocked = [];
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u.startsWith(origin + "/")) return route.continue();
    blocked.push(u);
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("dialog", (d) => d.accept());
  await page.goto(page0);

  const numbers = () => page.evaluate(() => {
    const o = {};
    for (const el of document.querySelectorAll(".num")) o[el.id] = el.dataset.value === "" ? null : Number(el.dataset.value);
    o.state = document.getElementById("state").dataset.state || "";
    o.polls = Number(document.body.dataset.polls || 0);
    return o;
  });
  // Charts: drawn, with points, and with ink of their series' colours.
  const charts = () => page.evaluate(() => {
    const o = {};
    for (const c of document.querySelectorAll("canvas")) {
      if (c.closest("[hidden]") || c.offsetParent === null) continue;
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      for (let i = 0; i < d.length; i += 4) {
        const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
        // Series colours are saturated; text and grid are grey.
        if (Math.max(r, g, b) - Math.min(r, g, b) > 60) inked++;
      }
      o[c.id] = { drawn: c.dataset.drawn === "1", points: Number(c.dataset.points || 0), inked };
    }
    return o;
  });

  await page.waitForFunction(() => Number(document.body.dataset.polls || 0) >= 3 &&
    ["c-pages", "c-bytes", "c-queue", "c-sites"].every((id) => document.getElementById(id).dataset.drawn === "1"), null, { timeout: left() });
  const sent = async () => Number(await page.locator("#result").getAttribute("data-sent") || 0);
  say({ phase: "drawn", charts: await charts(), numbers: await numbers(), blocked, errors });

  // The test paused the crawl so that it would not end before the page
  // was up: resume it from the page, let it fetch, pause it again.
  {
    const before = await sent();
    await page.click("#b-resume");
    await page.waitForFunction((b) => Number(document.getElementById("result").dataset.sent || 0) > b, before, { timeout: left() });
    const p0 = (await numbers())["n-pages"];
    await page.waitForFunction((p) => Number(document.getElementById("n-pages").dataset.value) >= p + 3 &&
      document.getElementById("state").dataset.state === "running", p0, { timeout: left() });
  }
  await page.click("#b-pause");
  let prev = null;
  while (true) {
    await page.waitForFunction((p) => Number(document.body.dataset.polls || 0) > p, (await numbers()).polls, { timeout: left() });
    const n = await numbers();
    if (n.state === "paused" && n["n-inflight"] === 0 && prev && prev.state === "paused" &&
        prev["n-pages"] === n["n-pages"] && prev["n-failed"] === n["n-failed"]) {
      say({ phase: "paused", numbers: n });
      break;
    }
    prev = n;
  }

  await expect("steer");
  const submit = async (form) => {
    const before = await sent();
    await page.click(`${form} button[type=submit]`);
    await page.waitForFunction((b) => Number(document.getElementById("result").dataset.sent || 0) > b ||
      Number(document.getElementById("result").dataset.failed || 0) > 0, before, { timeout: left() });
    if ((await sent()) <= before) throw new Error(`${form}: ${await page.locator("#result").textContent()}`);
  };
  await page.waitForFunction((r) => document.getElementById("t-excludes").textContent.includes(r), rule, { timeout: left() });
  {
    const before = await sent();
    await page.fill("#exclude-rule", rule);
    await page.click("#b-unexclude");
    await page.waitForFunction((b) => Number(document.getElementById("result").dataset.sent || 0) > b ||
      Number(document.getElementById("result").dataset.failed || 0) > 0, before, { timeout: left() });
    if ((await sent()) <= before) throw new Error(`unexclude: ${await page.locator("#result").textContent()}`);
  }
  await page.fill("#seeds", seed);
  await submit("#f-seeds");
  await page.fill("#delay-host", host);
  await page.fill("#delay-value", delay);
  await submit("#f-delay");
  await page.waitForFunction(([h, r]) => document.getElementById("t-delays").textContent.includes(h) &&
    !document.getElementById("t-excludes").textContent.includes(r), [host, rule], { timeout: left() });
  say({ phase: "steered" });

  await expect("resume");
  {
    const before = await sent();
    await page.click("#b-resume");
    await page.waitForFunction((b) => Number(document.getElementById("result").dataset.sent || 0) > b, before, { timeout: left() });
    await page.waitForFunction(() => document.getElementById("state").dataset.state === "running", null, { timeout: left() });
  }
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  say({ phase: "resumed", blocked, errors });
} catch (e) {
  process.stderr.write(`statuscheck: ${e.message}\n`);
  code = 1;
} finally {
  await browser.close();
}
process.exit(code);
