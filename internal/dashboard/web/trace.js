// The session's trace view, the histogram of decisions over time, and the
// formats the views share (times in the user's locale, durations, short
// ids). Plain functions on the page's global scope, loaded before app.js;
// no dependencies, no build step. The histogram is drawn as SVG here: a
// few dozen lines, where a vendored chart library would be a hundred
// kilobytes and a licence to carry for one chart.
"use strict";

// ---- formats

// timeFmt is the user's locale: its order, its month names and its clock
// (24-hour where the locale uses it), always with the date, since a
// session spans midnight and a dashboard stays open for days.
const timeFmt = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
const fullFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });
const tickFmt = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const tickSecFmt = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

const zeroTime = (t) => !t || t.startsWith("0001-");

function fmtTime(t) { return zeroTime(t) ? "" : timeFmt.format(new Date(t)); }
function fmtFull(t) { return zeroTime(t) ? "" : fullFmt.format(new Date(t)); }

// fmtDuration is a span's duration: ms under a second, then s, min, h.
function fmtDuration(ms) {
  if (ms === undefined || ms === null || ms < 0) return "";
  if (ms < 1000) return ms + " ms";
  if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s";
  if (ms < 3600000) return Math.floor(ms / 60000) + " min " + Math.round((ms % 60000) / 1000) + " s";
  return Math.floor(ms / 3600000) + " h " + Math.round((ms % 3600000) / 60000) + " min";
}

// shortId keeps the first 8 characters of a long id (a UUID), as git
// shows commits; the full id is in the element's title.
function shortId(id) { return id && id.length > 12 ? id.slice(0, 8) : id; }

// ---- histogram

const histVerdicts = ["deny", "block", "ask", "allow", "none"];

// drawHistogram draws points ({t, verdict}) in buckets over [from, to],
// stacked by verdict; a click on a bucket calls onPick(start, end).
function drawHistogram(box, points, from, to, onPick) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs, ...kids) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    e.append(...kids);
    return e;
  };
  const W = 900, H = 90, pad = 18, n = 40;
  let a = from ? from.getTime() : NaN, b = to ? to.getTime() : NaN;
  const ts = points.map((p) => new Date(p.t).getTime());
  if (isNaN(a)) a = Math.min(...ts);
  if (isNaN(b)) b = Math.max(...ts);
  if (!points.length || !isFinite(a) || !isFinite(b)) {
    box.replaceChildren(el("p", { class: "empty" }, "No decisions in this range."));
    return;
  }
  if (b <= a) b = a + 60000;
  const step = (b - a) / n;
  const buckets = Array.from({ length: n }, () => Object.fromEntries(histVerdicts.map((v) => [v, 0])));
  points.forEach((p, i) => {
    const k = Math.min(n - 1, Math.max(0, Math.floor((ts[i] - a) / step)));
    buckets[k][histVerdicts.includes(p.verdict) ? p.verdict : "none"]++;
  });
  const max = Math.max(1, ...buckets.map((c) => histVerdicts.reduce((s, v) => s + c[v], 0)));
  const bw = (W - 2) / n;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H + pad}`, class: "hist", role: "img" });
  buckets.forEach((c, i) => {
    let y = H;
    const start = new Date(a + i * step), end = new Date(a + (i + 1) * step);
    const total = histVerdicts.reduce((s, v) => s + c[v], 0);
    const g = svg("g", { class: "bucket", "data-count": total, "data-start": start.toISOString() },
      svg("title", {}, `${fmtTime(start.toISOString())} – ${fmtTime(end.toISOString())}: ` +
        (histVerdicts.filter((v) => c[v]).map((v) => `${c[v]} ${v}`).join(", ") || "none")));
    g.append(svg("rect", { x: 1 + i * bw, y: 0, width: bw, height: H, class: "hit" }));
    for (const v of histVerdicts) {
      if (!c[v]) continue;
      const h = (c[v] / max) * (H - 4);
      y -= h;
      g.append(svg("rect", { x: 1 + i * bw + 1, y, width: Math.max(1, bw - 2), height: h, class: "bar v-" + v }));
    }
    if (onPick && total) g.addEventListener("click", () => onPick(start, end));
    root.append(g);
  });
  for (let i = 0; i <= 4; i++) {
    const x = 1 + (i * (W - 2)) / 4;
    root.append(svg("text", { x, y: H + 13, class: "tick", "text-anchor": i === 0 ? "start" : i === 4 ? "end" : "middle" },
      (b - a < 6e5 ? tickSecFmt : tickFmt).format(new Date(a + (i * (b - a)) / 4))));
  }
  const legend = el("div", { class: "legend" }, histVerdicts.map((v) => el("span", { class: "key" }, el("i", { class: "v-" + v }), v)));
  box.replaceChildren(root, legend);
}

// ---- the trace view

// traceState is the view's: the spans shown, the rows expanded, the
// facets chosen, and the explains fetched (one per call: a live event
// renders the rows again, it does not ask the guard again).
const traceState = { id: "", cwd: "", open: new Set(), facets: {}, spans: [], explains: new Map() };

const spanIcons = { prompt: "›", tool: "⚙", delegation: "↘", background: "◷", event: "•" };

// traceVerdict is what a span shows as its verdict: block for a stop
// kept going or a refused event.
function traceVerdict(sp) {
  if (sp.kind === "event" && /kept going/.test(sp.title)) return "block";
  return sp.verdict || "";
}

// rangeParams is the route's time range: a preset relative to now, or
// custom from/to; the trace endpoint takes since and until.
function rangeParams(params) {
  const preset = params.get("range") || "";
  const ms = { "15m": 9e5, "1h": 36e5, "24h": 864e5 }[preset];
  if (ms) return { preset, since: new Date(Date.now() - ms).toISOString(), until: "" };
  return { preset: params.get("since") || params.get("until") ? "custom" : "", since: params.get("since") || "", until: params.get("until") || "" };
}

function localInput(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// setRange changes the route's range; the route renders it.
function setRange(id, q) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) p.set(k, v);
  const s = p.toString();
  location.hash = "#/session/" + encodeURIComponent(id) + (s ? "?" + s : "");
}

function wireRange() {
  const id = () => traceState.id;
  $("#range-preset").addEventListener("change", (e) => {
    const v = e.target.value;
    if (v === "custom") {
      $("#range-since").focus();
      return;
    }
    setRange(id(), { range: v });
  });
  const custom = () => {
    const s = $("#range-since").value, u = $("#range-until").value;
    setRange(id(), { since: s ? new Date(s).toISOString() : "", until: u ? new Date(u).toISOString() : "" });
  };
  $("#range-since").addEventListener("change", custom);
  $("#range-until").addEventListener("change", custom);
  $("#range").addEventListener("submit", (e) => { e.preventDefault(); custom(); });
}

// renderTrace fetches the session's spans in the route's range and shows
// them: the histogram, the facets and the rows, keeping the rows that
// were expanded. A live event calls it again (no reload).
async function renderTrace(id, params) {
  const r = rangeParams(params);
  const data = await api("sessions/" + encodeURIComponent(id) + "/trace", { since: r.since, until: r.until });
  if (traceState.id !== id) { traceState.open.clear(); traceState.facets = {}; traceState.explains.clear(); }
  traceState.id = id;
  traceState.spans = data.spans;
  $("#range-preset").value = r.preset;
  for (const [k, v] of [["since", r.since], ["until", r.until]]) {
    const input = $("#range-" + k);
    if (document.activeElement !== input) input.value = localInput(v);
  }
  $("#range-label").textContent = `${data.spans.length} spans`;
  const decided = data.spans.filter((sp) => sp.kind === "tool" || traceVerdict(sp) === "block")
    .map((sp) => ({ t: sp.start, verdict: traceVerdict(sp) || "none" }));
  drawHistogram($("#histogram"), decided, r.since ? new Date(r.since) : null, r.until ? new Date(r.until) : null,
    (a, b) => setRange(id, { since: a.toISOString(), until: b.toISOString() }));
  renderFacets();
  renderSpans();
  return data;
}

// facetDefs are the trace's filters: by kind, verdict and outcome, each
// value shown with how many spans have it.
const facetDefs = [
  ["kind", (sp) => sp.kind],
  ["verdict", (sp) => traceVerdict(sp)],
  ["outcome", (sp) => sp.kind === "tool" ? sp.outcome : ""],
];

function renderFacets() {
  const box = $("#trace-facets");
  box.replaceChildren(...facetDefs.map(([name, get]) => {
    const counts = new Map();
    for (const sp of traceState.spans) {
      const v = get(sp);
      if (v) counts.set(v, (counts.get(v) || 0) + 1);
    }
    const on = traceState.facets[name];
    return el("div", { class: "facet", "data-facet": name }, el("span", { class: "facet-name" }, name),
      [...counts.entries()].sort((x, y) => y[1] - x[1]).map(([v, c]) =>
        el("button", { type: "button", class: "chip" + (on === v ? " on" : ""), "data-value": v, "data-count": c,
          onclick: () => { traceState.facets[name] = on === v ? undefined : v; renderFacets(); renderSpans(); } },
        v, el("span", { class: "n" }, c))));
  }));
}

// matches reports whether a span passes the facets; a span is shown when
// it or one of its descendants does, so the tree holds.
function visibleSpans() {
  const active = facetDefs.filter(([name]) => traceState.facets[name]);
  if (!active.length) return new Set(traceState.spans.map((sp) => sp.id));
  const byId = new Map(traceState.spans.map((sp) => [sp.id, sp]));
  const keep = new Set();
  for (const sp of traceState.spans) {
    if (!active.every(([name, get]) => get(sp) === traceState.facets[name])) continue;
    for (let p = sp; p && !keep.has(p.id); p = byId.get(p.parent)) keep.add(p.id);
  }
  return keep;
}

function renderSpans() {
  const keep = visibleSpans();
  const rows = [];
  for (const sp of traceState.spans) {
    if (!keep.has(sp.id)) continue;
    const v = traceVerdict(sp);
    const row = el("tr", { "data-id": sp.id, "data-kind": sp.kind, "data-depth": sp.depth, "data-parent": sp.parent || "",
      "data-verdict": v, "data-outcome": sp.outcome || "", "data-duration": sp.duration_ms, "data-start": sp.start,
      class: "span k-" + sp.kind + (traceState.open.has(sp.id) ? " open" : ""), tabindex: 0,
      onclick: () => toggleSpan(sp), onkeydown: (e) => { if (e.key === "Enter") toggleSpan(sp); } },
      el("td", { class: "time", title: fmtFull(sp.start) }, el("time", { datetime: sp.start }, fmtTime(sp.start))),
      el("td", { class: "name", title: sp.title },
        indent(sp.depth),
        el("span", { class: "icon" }, spanIcons[sp.kind] || "•"),
        sp.agent && sp.kind !== "delegation" ? el("span", { class: "agent" }, sp.agent) : "",
        el("span", { class: "title" }, sp.title)),
      el("td", { class: "num dur" }, fmtDuration(sp.duration_ms)),
      el("td", {}, v ? el("span", { class: "badge v-" + v }, v) : ""),
      el("td", {}, sp.outcome ? el("span", { class: "badge st-" + sp.outcome }, sp.outcome) : ""));
    rows.push(row);
    if (traceState.open.has(sp.id)) rows.push(explainRow(sp));
  }
  fill("#trace-table", rows, "No spans in this range.");
}

// indent is the space before a span's name, by its depth (set through
// the CSSOM: the page's CSP refuses style attributes).
function indent(depth) {
  const e = el("span", { class: "indent" });
  e.style.width = depth * 1.25 + "rem";
  return e;
}

function toggleSpan(sp) {
  if (traceState.open.has(sp.id)) traceState.open.delete(sp.id);
  else traceState.open.add(sp.id);
  renderSpans();
}

// guardTool is the tool the guard judges a call as, for its explain.
function guardTool(sp) {
  if (["shell", "read", "write", "edit", "search"].includes(sp.tool_kind)) return sp.tool_kind;
  return "";
}

// explainRow is the expanded row: what was recorded, and, for a call the
// guard judges, its explain trace under today's configuration and the
// configuration that would change the verdict.
function explainRow(sp) {
  const dl = el("dl", { class: "facts" });
  const fact = (k, v) => { if (v !== undefined && v !== null && v !== "") dl.append(el("dt", {}, k), el("dd", {}, v)); };
  fact("span", `${sp.kind} ${sp.id}`);
  fact("started", fmtFull(sp.start));
  fact("ended", fmtFull(sp.end));
  fact("duration", fmtDuration(sp.duration_ms));
  fact("tool", sp.tool);
  fact("target", sp.target ? el("code", { class: "target" }, sp.target) : "");
  fact("agent", sp.agent ? `${sp.agent}${sp.agent_id ? " (" + sp.agent_id + ")" : ""}` : "");
  fact("verdict", traceVerdict(sp));
  fact("rule", sp.rule ? el("code", {}, sp.rule) : "");
  fact("reason", sp.reason);
  fact("outcome", sp.outcome);
  fact("tool-use id", sp.call);
  if (sp.kind === "background") fact("task", el("a", { href: "#/background" }, sp.id + " in Background tasks"));
  if (sp.session) fact("its session", el("a", { href: "#/session/" + encodeURIComponent(sp.session) }, el("code", {}, shortId(sp.session))));
  const box = el("div", { class: "explain" }, dl);
  const tool = guardTool(sp);
  if (tool && sp.target) {
    const out = el("div", { class: "explain-guard" }, el("p", { class: "meta" }, "Asking the guard…"));
    box.append(out);
    // Judged from the session's working directory, as the hook did.
    const key = tool + "\n" + sp.target;
    if (!traceState.explains.has(key)) traceState.explains.set(key, api("explain", { tool, target: sp.target, cwd: traceState.cwd || "" }));
    traceState.explains.get(key).then((x) => out.replaceChildren(
      el("h4", {}, "The guard today (atreides check --explain)"),
      el("p", {}, el("span", { class: "badge v-" + x.verdict }, x.verdict), " ", x.rule ? el("code", {}, x.rule) : "no rule", x.category ? ` (${x.category})` : ""),
      x.reason ? el("p", { class: "meta" }, x.reason) : "",
      x.effect ? el("p", {}, "effect: ", x.effect) : "",
      x.evidence ? el("p", {}, "evidence: ", el("code", {}, x.evidence)) : "",
      x.commands.length ? el("p", {}, "commands seen: ", x.commands.map((c) => el("code", { class: "cmd-seen" }, c))) : "",
      x.config ? el("div", {}, el("h4", {}, "The configuration that would change it: ", x.config_why), el("pre", { class: "config" }, "# .atreides/config.yaml\n" + x.config)) : ""))
      .catch((e) => { traceState.explains.delete(key); out.replaceChildren(el("p", { class: "why" }, "No explain: " + e.message)); });
  }
  return el("tr", { class: "explain-row", "data-for": sp.id }, el("td", { colspan: 5 }, box));
}
