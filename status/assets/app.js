// The status page: polls status.json, draws the charts on canvas, and
// sends commands to /control with the crawl's token. No library: the page
// must work with no internet access.
"use strict";

const keep = 3600;     // samples kept, as the server keeps them
let samples = [];      // oldest first
let last = 0;          // time of the newest sample, for ?since=
let every = 1000;
let token = "";

// The token comes from the address (#token=...), as the crawl prints it,
// or from the field the page shows when it is missing.
{
  const m = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
  token = m ? decodeURIComponent(m[1]) : (sessionStorage.getItem("langcrawl-token") || "");
  if (m) sessionStorage.setItem("langcrawl-token", token);
  const input = document.getElementById("token");
  input.value = token;
  input.addEventListener("change", () => { token = input.value.trim(); sessionStorage.setItem("langcrawl-token", token); });
  document.getElementById("token-row").hidden = token !== "";
}

const $ = (id) => document.getElementById(id);

function fmtInt(n) { return Math.round(n).toLocaleString("en"); }
function fmtBytes(n) {
  const u = ["B", "kB", "MB", "GB", "TB"];
  let i = 0;
  while (Math.abs(n) >= 1000 && i < u.length - 1) { n /= 1000; i++; }
  return (i === 0 ? Math.round(n) : n.toFixed(1)) + " " + u[i];
}
function setNum(id, v, text) {
  const el = $(id);
  el.dataset.value = String(v);
  el.textContent = text === undefined ? fmtInt(v) : text;
}

// rates turns a cumulative counter into per-second rates between samples.
function rates(key) {
  const out = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1], b = samples[i];
    const dt = (b.t - a.t) / 1000;
    out.push({ t: b.t, v: dt > 0 ? Math.max(0, (b[key] - a[key]) / dt) : 0 });
  }
  return out;
}
function values(key) { return samples.map((s) => ({ t: s.t, v: s[key] })); }

// niceStep returns a round step for about n ticks over span; integer
// says the quantity is a count, whose ticks must be whole.
function niceStep(span, n, integer) {
  const raw = span / n;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  let step = p;
  for (const m of [1, 2, 5, 10]) { if (m * p >= raw) { step = m * p; break; } }
  return integer ? Math.max(1, Math.round(step)) : step;
}

// draw plots series ([{name, color, points: [{t, v}], dash}]) on canvas,
// with a y axis from 0, time ticks and a legend above the plot.
function draw(canvas, series, opts) {
  const ctx = canvas.getContext("2d");
  const W = canvas.width, H = canvas.height;
  const left = 64, right = 10, top = 24, bottom = 22;
  ctx.clearRect(0, 0, W, H);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, W, H);
  ctx.font = "11px system-ui, sans-serif";
  let t0 = Infinity, t1 = -Infinity, vmax = 0, n = 0;
  for (const s of series) for (const p of s.points) {
    t0 = Math.min(t0, p.t); t1 = Math.max(t1, p.t); vmax = Math.max(vmax, p.v); n++;
  }
  // Legend, one entry after another, wrapped to the width.
  let lx = left, ly = 12;
  for (const s of series) {
    const w = ctx.measureText(s.name).width + 26;
    if (lx + w > W - right) { lx = left; ly += 12; }
    ctx.strokeStyle = s.color; ctx.lineWidth = 2; ctx.setLineDash(s.dash || []);
    ctx.beginPath(); ctx.moveTo(lx, ly - 4); ctx.lineTo(lx + 14, ly - 4); ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = "#333"; ctx.fillText(s.name, lx + 18, ly);
    lx += w;
  }
  canvas.dataset.points = String(n);
  if (n === 0 || !isFinite(t0)) {
    ctx.fillStyle = "#888"; ctx.fillText("waiting for data", left + 10, H / 2);
    canvas.dataset.drawn = "0";
    return;
  }
  if (t1 === t0) t1 = t0 + 1000;
  if (vmax <= 0) vmax = opts.integer ? 1 : 1;
  const step = niceStep(vmax, 4, opts.integer);
  vmax = Math.ceil(vmax / step) * step;
  const x = (t) => left + (W - left - right) * (t - t0) / (t1 - t0);
  const y = (v) => H - bottom - (H - top - bottom) * v / vmax;
  // Axes and grid.
  ctx.strokeStyle = "#e4e4e4"; ctx.lineWidth = 1; ctx.fillStyle = "#555";
  ctx.textAlign = "right";
  for (let v = 0; v <= vmax + step / 2; v += step) {
    ctx.beginPath(); ctx.moveTo(left, y(v)); ctx.lineTo(W - right, y(v)); ctx.stroke();
    ctx.fillText(opts.fmt ? opts.fmt(v) : fmtInt(v), left - 4, y(v) + 4);
  }
  ctx.textAlign = "center";
  const span = (t1 - t0) / 1000;
  const tstep = niceStep(span, 5, true) * 1000;
  for (let t = Math.ceil(t0 / tstep) * tstep; t <= t1; t += tstep) {
    const d = new Date(t);
    const label = d.toTimeString().slice(0, 8);
    ctx.fillText(label, x(t), H - 6);
  }
  ctx.textAlign = "left";
  for (const s of series) {
    ctx.strokeStyle = s.color; ctx.lineWidth = 1.6; ctx.setLineDash(s.dash || []);
    ctx.beginPath();
    s.points.forEach((p, i) => { i ? ctx.lineTo(x(p.t), y(p.v)) : ctx.moveTo(x(p.t), y(p.v)); });
    if (s.points.length === 1) { const p = s.points[0]; ctx.moveTo(x(p.t) - 2, y(p.v)); ctx.lineTo(x(p.t) + 2, y(p.v)); }
    ctx.stroke();
    ctx.setLineDash([]);
  }
  canvas.dataset.drawn = "1";
}

function drawAll(focused, bw) {
  draw($("c-pages"), [{ name: "responses/s", color: "#4a7fb5", points: rates("pages") },
    { name: "HTML pages/s", color: "#e08a2c", points: rates("html") }], { fmt: (v) => v.toFixed(v < 10 ? 1 : 0) });
  draw($("c-bytes"), [{ name: "bytes/s archived", color: "#4a7fb5", points: rates("bytes") }], { fmt: fmtBytes });
  if (bw) {
    draw($("c-bw"), [{ name: "received/s", color: "#4a7fb5", points: rates("bytes") },
      { name: "expected (CB)", color: "#6a9f4a", points: values("bw_predicted") },
      { name: "limit", color: "#c03030", dash: [5, 4], points: values("bw_limit") }], { fmt: fmtBytes });
  }
  draw($("c-queue"), [{ name: "queued", color: "#4a7fb5", points: values("queued") },
    { name: "in flight", color: "#e08a2c", points: values("inflight") }], { integer: true });
  const sites = [];
  if (focused) {
    sites.push({ name: "relevant", color: "#3a9a3a", points: values("sites_relevant") },
      { name: "undecided", color: "#b0a030", points: values("sites_undecided") },
      { name: "irrelevant", color: "#b04040", points: values("sites_irrelevant") });
  } else {
    sites.push({ name: "answered", color: "#3a9a3a", points: values("sites") });
  }
  sites.push({ name: "waiting (delay)", color: "#7a60b0", points: values("waiting") },
    { name: "ready", color: "#4a7fb5", points: values("ready") },
    { name: "retries deferred", color: "#999", dash: [3, 3], points: values("retrying") });
  draw($("c-sites"), sites, { integer: true });
  if (focused) {
    draw($("c-harvest"), [{ name: "harvest rate %", color: "#3a9a3a",
      points: samples.filter((s) => s.html > 0).map((s) => ({ t: s.t, v: 100 * s.relevant / s.html })) }], { fmt: (v) => v.toFixed(0) + "%" });
  }
}

function rows(tbody, list, cells) {
  tbody.replaceChildren(...list.map((item) => {
    const tr = document.createElement("tr");
    for (const c of cells(item)) {
      const td = document.createElement("td");
      if (c instanceof Node) td.append(c); else td.textContent = String(c);
      if (typeof c === "number") td.className = "n";
      tr.append(td);
    }
    return tr;
  }));
}
function bar(frac) {
  const s = document.createElement("span");
  s.className = "bar"; s.style.width = Math.max(1, Math.round(120 * frac)) + "px";
  return s;
}

function render(rep) {
  const d = rep.details, c = rep.current;
  const focused = d.target !== "";
  document.body.classList.toggle("unfocused", !focused);
  const state = $("state");
  const st = d.stopping ? "stopping" : d.paused ? "paused" : "running";
  state.textContent = st + (d.paused && d.pause_reason ? ": " + d.pause_reason : "");
  state.className = "badge " + st;
  state.dataset.state = st;
  $("since").textContent = "started " + new Date(d.started).toLocaleString();
  $("target").textContent = focused ? (d.target.includes(",") ? "target languages: " : "target language: ") + d.target : "no target language";
  setNum("n-pages", c.pages);
  setNum("n-bytes", c.bytes, fmtBytes(c.bytes));
  setNum("n-html", c.html);
  setNum("n-relevant", c.relevant);
  if (focused) setNum("n-harvest", c.html ? c.relevant / c.html : 0, c.html ? (100 * c.relevant / c.html).toFixed(1) + "%" : "–");
  setNum("n-failed", c.failed);
  setNum("n-queued", c.queued);
  setNum("n-inflight", c.inflight);
  setNum("n-sites", c.sites);
  const bw = c.bw_limit > 0;
  $("f-bw").hidden = !bw;
  drawAll(focused, bw);

  const langs = Object.entries(d.languages || {}).sort((a, b) => b[1] - a[1]);
  const lmax = langs.length ? langs[0][1] : 1;
  rows($("t-langs").tBodies[0], langs, ([l, n]) => [l, n, bar(n / lmax)]);
  const hosts = d.top_hosts || [];
  const hmax = hosts.length ? hosts[0].responses : 1;
  rows($("t-hosts").tBodies[0], hosts, (h) => {
    const cells = [h.host, h.responses, h.pages];
    if (focused) cells.push(h.relevant);
    cells.push(bar(h.responses / hmax));
    return cells;
  });
  rows($("t-errors").tBodies[0], d.errors || [], (e) => [new Date(e.time).toLocaleTimeString(), e.status, e.url, e.note || ""]);
  rows($("t-excludes").tBodies[0], d.excludes || [], (r) => [r]);
  rows($("t-delays").tBodies[0], Object.entries(d.delays || {}), ([h, v]) => [h, v]);
  rows($("t-changes").tBodies[0], (d.changes || []).slice().reverse(), (ch) => [new Date(ch.time).toLocaleTimeString(), ch.from, ch.command, ch.err || ch.note || ""]);
  $("control").hidden = !rep.control;
}

async function poll() {
  try {
    const r = await fetch("status.json?since=" + last, { cache: "no-store" });
    if (!r.ok) throw new Error("status " + r.status);
    const rep = await r.json();
    every = rep.every_ms || every;
    for (const s of rep.samples) samples.push(s);
    if (samples.length > keep) samples = samples.slice(samples.length - keep);
    if (samples.length) last = samples[samples.length - 1].t;
    render(rep);
    document.body.dataset.polls = String(Number(document.body.dataset.polls || 0) + 1);
  } catch (e) {
    const state = $("state");
    state.textContent = "no answer from the crawl (" + e.message + ")";
    state.className = "badge offline";
    state.dataset.state = "offline";
  }
  setTimeout(poll, every);
}

// send POSTs commands (lines of the action-file language) with the token.
async function send(commands) {
  const out = $("result");
  out.className = "";
  out.textContent = "sending…";
  try {
    const r = await fetch("control", { method: "POST", headers: { "X-Langcrawl-Token": token, "Content-Type": "text/plain" }, body: commands });
    const text = (await r.text()).trim();
    if (!r.ok) throw new Error(text || "status " + r.status);
    out.textContent = "done: " + commands.trim().split("\n").join("; ");
    // A note after "ok" (a seed queued before): said, not in red.
    const note = text.split("\n").slice(1).join("; ");
    if (note) out.textContent += " (" + note + ")";
    out.dataset.sent = String(Number(out.dataset.sent || 0) + 1);
  } catch (e) {
    out.className = "error";
    out.textContent = e.message;
    out.dataset.failed = String(Number(out.dataset.failed || 0) + 1);
  }
}

$("b-pause").addEventListener("click", () => send("pause from the status page\n"));
$("b-resume").addEventListener("click", () => send("resume\n"));
$("b-stop").addEventListener("click", () => { if (confirm("Stop the crawl? In-flight fetches finish; run the crawl again to resume it.")) send("stop\n"); });
$("f-seeds").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const urls = $("seeds").value.split(/\s+/).filter(Boolean);
  if (urls.length) send("seed " + urls.join(" ") + "\n").then(() => { $("seeds").value = ""; });
});
$("f-delay").addEventListener("submit", (ev) => {
  ev.preventDefault();
  send("delay " + $("delay-host").value.trim() + " " + $("delay-value").value.trim() + "\n");
});
$("f-exclude").addEventListener("submit", (ev) => { ev.preventDefault(); send("exclude " + $("exclude-rule").value.trim() + "\n"); });
$("b-unexclude").addEventListener("click", () => send("unexclude " + $("exclude-rule").value.trim() + "\n"));

poll();
