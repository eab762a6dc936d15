// The atreides dashboard: hash routing over the JSON endpoints of /api/,
// kept current by the server-sent events of /api/events. Hand-written, no
// dependencies; the DOM it builds is the contract in CONTRACT.md.
"use strict";

const csrf = document.querySelector('meta[name="csrf-token"]').content;
const views = ["sessions", "session", "decisions", "governance", "ledger", "tasks", "background"];
const state = { all: false, project: "", route: null, timelineLast: "", timelineSession: "" };

// el builds an element: attributes (on* are listeners), then children
// (strings become text, never HTML).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const k of kids.flat()) {
    if (k === undefined || k === null || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

const $ = (sel) => document.querySelector(sel);

function projectQuery(extra) {
  const q = new URLSearchParams(extra || {});
  if (state.project) q.set("project", state.project);
  for (const [k, v] of [...q.entries()]) if (v === "") q.delete(k);
  const s = q.toString();
  return s ? "?" + s : "";
}

async function api(path, params) {
  const res = await fetch("/api/" + path + projectQuery(params), { credentials: "same-origin" });
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw Object.assign(new Error(body.error || res.statusText), { status: res.status });
  return body;
}

// confirmKey keeps the confirmation code for this tab: the code atreides
// ui printed in its terminal, typed once by the person who started it.
const confirmKey = "atreides-confirm";

async function post(path, question) {
  if (!confirm(question)) return;
  let code = sessionStorage.getItem(confirmKey);
  if (!code) {
    code = prompt("Type the confirmation code that atreides ui printed in the terminal where it runs:");
    if (!code) return;
  }
  const res = await fetch("/api/" + path + projectQuery(), {
    method: "POST", credentials: "same-origin", headers: { "X-Atreides-CSRF": csrf, "X-Atreides-Confirm": code },
  });
  const body = await res.json().catch(() => ({}));
  if (body.confirm) sessionStorage.removeItem(confirmKey);
  else if (res.ok) sessionStorage.setItem(confirmKey, code);
  if (!res.ok) showError(body.error || res.statusText);
  else refresh();
}

function showError(msg) {
  const e = $("#error");
  e.textContent = msg || "";
  e.hidden = !msg;
}

function ago(t) {
  const s = Math.max(0, (Date.now() - new Date(t).getTime()) / 1000);
  if (s < 60) return Math.round(s) + " s ago";
  if (s < 3600) return Math.round(s / 60) + " min ago";
  if (s < 86400) return Math.round(s / 3600) + " h ago";
  return Math.round(s / 86400) + " d ago";
}

const verdict = (v) => (v ? el("span", { class: "badge v-" + v }, v) : "");
const shortHash = (h) => (h ? h.replace(/^sha256:/, "").slice(0, 12) : "—");

function fill(table, rows, emptyText) {
  const tb = $(table + " tbody");
  tb.replaceChildren(...rows);
  const empty = $(table).parentElement.querySelector(".empty");
  if (empty) empty.hidden = rows.length > 0;
  if (!rows.length && emptyText) tb.append(el("tr", { class: "none" }, el("td", { colspan: 20 }, emptyText)));
}

// ---- routing

function parseRoute() {
  const h = location.hash.replace(/^#\/?/, "");
  const [path, query] = h.split("?");
  const parts = path.split("/").map(decodeURIComponent);
  const params = new URLSearchParams(query || "");
  if (parts[0] === "session" && parts[1]) return { view: "session", id: parts[1], params };
  return { view: views.includes(parts[0]) ? parts[0] : "sessions", params };
}

async function route() {
  state.route = parseRoute();
  const v = state.route.view;
  for (const name of views) $("#view-" + name).hidden = name !== v;
  for (const a of document.querySelectorAll("nav a")) {
    a.classList.toggle("active", a.dataset.view === v || (v === "session" && a.dataset.view === "sessions"));
  }
  if (v === "session" && state.timelineSession !== state.route.id) {
    state.timelineLast = "";
    state.timelineSession = state.route.id;
    $("#timeline").replaceChildren();
  }
  await refresh();
}

const renderers = {
  sessions: renderSessions,
  session: renderSession,
  decisions: renderDecisions,
  governance: renderGovernance,
  ledger: renderLedger,
  tasks: renderTasks,
  background: renderBackground,
};

async function refresh() {
  try {
    await renderers[state.route.view]();
    showError("");
  } catch (e) {
    showError(e.message);
  }
}

// ---- views

async function renderSessions() {
  const all = state.all && !state.project;
  const data = await api("sessions", all ? { all: "1" } : {});
  document.body.classList.toggle("all-projects", all);
  fill("#sessions-table", data.sessions.map((s) => {
    const href = "#/session/" + encodeURIComponent(s.id);
    return el("tr", { "data-id": s.id, "data-project": s.project, class: s.active ? "active" : "" },
      el("td", { class: "col-project", title: s.project }, s.project.split("/").pop()),
      el("td", { class: "id", title: s.id }, el("a", { href, onclick: () => { if (all) state.project = s.project; } }, el("code", {}, shortId(s.id))),
        s.active ? el("span", { class: "badge active" }, "active") : s.ended ? el("span", { class: "badge ended" }, "ended") : ""),
      el("td", { class: "title", title: s.title || "" }, s.title || el("span", { class: "empty" }, "no prompt yet")),
      el("td", {}, s.host),
      el("td", {}, s.phase || "—"),
      el("td", { title: fmtFull(s.updated) }, ago(s.updated)),
      el("td", { class: "num" }, s.counters.tool_calls || 0),
      el("td", { class: "num" + (s.counters.denied ? " v-deny-text" : "") }, s.counters.denied || 0),
      el("td", { class: "num" + (s.counters.asked ? " v-ask-text" : "") }, s.counters.asked || 0),
      el("td", { class: "num" }, s.counters.failed || 0),
      el("td", { class: "num" }, s.open_todos),
      el("td", { class: "num" }, s.subagents_running ? `${s.subagents_running}/${s.subagents}` : s.subagents),
      el("td", {}, s.task ? `#${s.task} ${s.task_title || ""}` : ""));
  }));
}

async function renderSession() {
  const id = state.route.id;
  const d = await api("sessions/" + encodeURIComponent(id));
  const s = d.session;
  traceState.cwd = s.cwd || "";
  const tr = await renderTrace(id, state.route.params);
  $("#session-header").replaceChildren(
    el("h2", {}, el("code", { class: "sid", title: s.id }, s.id), " ", tr.title ? el("span", { class: "stitle" }, tr.title) : "", " ", s.active ? el("span", { class: "badge active" }, "active") : s.ended ? el("span", { class: "badge ended" }, "ended: " + s.ended) : ""),
    el("p", { class: "meta" },
      `${s.host} · phase ${s.phase || "—"} · started ${fmtTime(s.started)} · last activity ${ago(s.updated)}`,
      d.task ? ` · task #${d.task.number} ${d.task.title} (phase ${d.task.phase}/${d.task.phases})` : ""),
    el("p", { class: "meta" }, Object.entries(s.counters).map(([k, v]) => `${k.replace("_", " ")} ${v}`).join(" · ")));
  const list = (title, items, fmt) => el("div", { class: "panel" }, el("h3", {}, title),
    items.length ? el("ul", {}, items.map((x) => el("li", {}, fmt(x)))) : el("p", { class: "empty" }, "none"));
  $("#session-panels").replaceChildren(
    list("Todos", d.todos, (t) => [el("span", { class: "badge st-" + t.status }, t.status), " ", t.parent ? "↳ " : "", t.title]),
    list("Anchors", d.anchors, (a) => [el("span", { class: "badge" }, a.kind), " ", a.text, a.stale ? el("span", { class: "badge v-ask" }, "stale") : ""]),
    list("Subagents", d.delegations, (a) => `${a.type} (depth ${a.depth}) ${a.stopped && !a.stopped.startsWith("0001-") ? "stopped: " + (a.outcome || "ok") : "running"}`),
    list("Background", d.background, (b) => `${b.id} ${b.agent || ""} ${b.status}: ${b.description || ""}`),
    list("Strikes", d.strikes, (k) => `${k.tool} ${k.target}: ${k.count}× ${k.class || ""}`));
  await appendTimeline(id);
}

const kindIcons = {
  tool: "⚙", prompt: "›", decision: "⚖", event: "•", phase: "◆", strike: "✕", escalation: "⚠",
  todo_open: "☐", todo_close: "☑", tool_failed: "✕", compaction: "⇣",
  delegation_start: "↘", delegation_stop: "↗", background: "◷",
};

// appendTimeline fetches the items after the last one shown and appends
// them: the page never reloads the whole timeline on an event.
async function appendTimeline(id) {
  const data = await api("sessions/" + encodeURIComponent(id) + "/timeline", state.timelineLast ? { since: state.timelineLast } : { limit: "2000" });
  if (state.timelineSession !== id) return;
  const ol = $("#timeline");
  for (const it of data.items) {
    ol.append(el("li", { "data-kind": it.kind, "data-verdict": it.verdict || "", "data-time": it.t, class: "k-" + it.kind },
      el("time", { datetime: it.t }, fmtTime(it.t)),
      el("span", { class: "icon", title: it.kind }, kindIcons[it.kind] || "•"),
      el("span", { class: "title" }, it.title),
      verdict(it.verdict),
      it.rule ? el("code", { class: "rule" }, it.rule) : "",
      it.detail ? el("div", { class: "detail" }, it.detail) : ""));
    state.timelineLast = it.t;
  }
}

function decisionParams() {
  const p = state.route.params;
  return { verdict: p.get("verdict") || "", rule: p.get("rule") || "", host: p.get("host") || "", session: p.get("session") || "" };
}

async function renderDecisions() {
  const f = decisionParams();
  $("#filter-verdict").value = f.verdict;
  for (const k of ["rule", "host", "session"]) {
    const input = $("#filter-" + k);
    if (document.activeElement !== input) input.value = f[k];
  }
  const [data, all] = await Promise.all([api("decisions", { ...f, limit: "500" }), api("decisions", { ...f, verdict: "", limit: "5000" })]);
  decisionFacets(all.records);
  $("#decisions-count").textContent = data.total > data.records.length ? `newest ${data.records.length} of ${data.total}` : records(data.total);
  fill("#decisions-table", data.records.slice().reverse().map((r) => {
    const v = r.block ? "block" : r.verdict;
    return el("tr", { "data-id": r.time + " " + r.session, "data-verdict": v },
      el("td", {}, fmtTime(r.time)),
      el("td", {}, r.host),
      el("td", { title: r.session }, el("a", { href: "#/session/" + encodeURIComponent(r.session) }, el("code", {}, shortId(r.session)))),
      el("td", {}, r.host_event),
      el("td", {}, verdict(v)),
      el("td", {}, r.rule ? el("code", {}, r.rule) : ""),
      el("td", { class: "cmd" }, r.command ? el("code", {}, r.command) : (r.paths || []).join(" ") || r.tool),
      el("td", { class: "reason" }, r.block_reason || r.reason || ""));
  }), "No records match.");
}

// decisionFacets shows, beside the verdict filter, how many records of
// each verdict the other filters leave, and their histogram over time.
function decisionFacets(recs) {
  const counts = {};
  const points = recs.map((r) => ({ t: r.time, verdict: r.block ? "block" : r.verdict }));
  for (const p of points) counts[p.verdict] = (counts[p.verdict] || 0) + 1;
  for (const o of $("#filter-verdict").options) {
    o.dataset.count = o.value ? counts[o.value] || 0 : recs.length;
    o.textContent = `${o.value || "all"} (${o.dataset.count})`;
  }
  drawHistogram($("#decisions-histogram"), points, null, null, null);
  // The other filters suggest their values, most frequent first, with
  // how many records have each.
  for (const k of ["rule", "host", "session"]) {
    const n = new Map();
    for (const r of recs) if (r[k]) n.set(r[k], (n.get(r[k]) || 0) + 1);
    $("#facet-" + k).replaceChildren(...[...n.entries()].sort((a, b) => b[1] - a[1]).slice(0, 50)
      .map(([v, c]) => el("option", { value: v, "data-count": c }, records(c))));
  }
}

function setDecisionFilter() {
  const q = new URLSearchParams();
  for (const k of ["verdict", "rule", "host", "session"]) {
    const v = $("#filter-" + k).value.trim();
    if (v) q.set(k, v);
  }
  const s = q.toString();
  location.hash = "#/decisions" + (s ? "?" + s : "");
}

async function renderGovernance() {
  const g = await api("governance");
  const ie = $("#intents-error");
  ie.hidden = !g.intents_error;
  ie.textContent = g.intents_error ? "The intents file could not be read: " + g.intents_error : "";
  const listed = new Set(g.intents.map((i) => i.id));
  const orphan = g.leases.filter((l) => !listed.has(l.intent)).map((l) => ({ id: l.intent, title: "(not in the intents file)", status: "", owned_scope: [], lease: l }));
  fill("#governance-table", [...g.intents, ...orphan].map((i) => {
    const l = i.lease;
    return el("tr", { "data-id": i.id, class: l ? "held" : "" },
      el("td", {}, el("code", {}, i.id)),
      el("td", {}, i.title),
      el("td", {}, i.status),
      el("td", {}, (i.owned_scope || []).map((p) => el("code", { class: "scope" }, p))),
      el("td", { title: l ? l.session : "" }, l ? [el("a", { href: "#/session/" + encodeURIComponent(l.session) }, el("code", {}, shortId(l.session))), " ", l.host || ""] : "—"),
      el("td", {}, !l ? "" : l.expired ? el("span", { class: "badge v-ask" }, "expired") : l.expires ? "until " + fmtTime(l.expires) : "held"),
      el("td", {}, l ? el("button", { class: "release", onclick: () => post("sessions/" + encodeURIComponent(l.session) + "/release", `Release the lease of session ${l.session} on intent ${i.id}?`) }, "Release") : ""));
  }), "No intents: add one with atreides intent add.");
  fill("#expansions-table", g.expansions.map((x) => el("tr", { "data-id": x.id },
    el("td", {}, x.id), el("td", {}, x.intent), el("td", { title: x.session }, el("code", {}, shortId(x.session))),
    el("td", {}, (x.paths || []).map((p) => el("code", { class: "scope" }, p))),
    el("td", {}, x.reason || ""), el("td", {}, x.status), el("td", {}, fmtTime(x.time)))), "No requests.");
}

async function renderLedger() {
  const p = state.route.params;
  const f = { file: p.get("file") || "", intent: p.get("intent") || "" };
  const l = await api("ledger", { ...f, limit: "500" });
  const v = l.verify;
  const st = $("#ledger-status");
  st.className = "banner " + (v.ok ? "good" : "bad");
  st.textContent = (v.ok ? "Chain verified" : "Chain NOT verified") + ` · ${records(v.records ?? l.total)}` +
    (v.problem ? " · " + (v.problem.msg || JSON.stringify(v.problem)) : "") + (l.error ? " · " + l.error : "");
  const keys = (ul, list, key) => $(ul).replaceChildren(...list.map((k) => el("li", { class: f[key] === k.key ? "active" : "" },
    el("a", { href: "#/ledger?" + new URLSearchParams({ [key]: k.key }) }, k.key || "(no intent)"), ` ${k.records}`)));
  keys("#ledger-files", l.files, "file");
  keys("#ledger-intents", l.intents, "intent");
  const filtered = f.file || f.intent;
  $("#ledger-count").replaceChildren(records(l.total), filtered ? [" · ", el("a", { href: "#/ledger" }, "show all")] : "");
  fill("#ledger-table", l.records.slice().reverse().map((r) => el("tr", { "data-id": r.seq },
    el("td", { class: "num" }, r.seq),
    el("td", {}, fmtTime(r.time)),
    el("td", {}, r.files.map((x) => el("code", {}, x.path))),
    el("td", {}, r.change),
    el("td", {}, r.intent || ""),
    el("td", { title: r.session || "" }, r.session ? el("a", { href: "#/session/" + encodeURIComponent(r.session) }, el("code", {}, shortId(r.session))) : ""),
    el("td", {}, r.tool || ""),
    el("td", { class: "hash", title: `${r.before || ""} → ${r.after || ""}` }, el("code", {}, shortHash(r.before)), " → ", el("code", {}, shortHash(r.after))),
    el("td", {}, el("button", { class: "diff-toggle", onclick: (e) => toggleDiff(e.target, r.seq) }, "diff")))), "No records.");
}

async function toggleDiff(button, seq) {
  const row = button.closest("tr");
  const next = row.nextElementSibling;
  if (next && next.classList.contains("diff-row")) {
    next.remove();
    return;
  }
  const d = await api("ledger/" + seq + "/diff").catch((e) => ({ diff: null, why: e.message }));
  const body = d.diff === null
    ? el("p", { class: "why" }, "No diff: " + d.why)
    : el("div", {}, el("p", { class: "meta" }, `${d.from.slice(0, 12)} → ${d.to === "working tree" ? "working tree (not committed yet)" : d.to.slice(0, 12)}`, d.exact ? "" : " (includes other changes made between)"),
      el("pre", { class: "diff" }, d.diff.split("\n").map((line) => el("span", { class: line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : "" }, line + "\n"))));
  row.after(el("tr", { class: "diff-row", "data-for": seq }, el("td", { colspan: 9 }, body)));
}

async function renderTasks() {
  const t = await api("tasks");
  updateTasksNav(t);
  fill("#tasks-table", t.tasks.map((k) => el("tr", { "data-id": k.number },
    el("td", { class: "num" }, k.number), el("td", {}, k.title),
    el("td", {}, el("span", { class: "badge st-" + k.status }, k.status)),
    el("td", {}, k.priority || ""), el("td", {}, k.phase || ""),
    el("td", {}, k.plans && k.plans.length ? [el("code", {}, k.plans[k.plans.length - 1]), k.approved_plan ? ` (v${k.approved_plan} approved)` : " (not approved)"] : ""))), "No tasks.");
  fill("#errors-table", t.errors.map((x) => el("tr", { "data-id": x.number },
    el("td", { class: "num" }, x.number), el("td", {}, x.type), el("td", {}, x.severity),
    el("td", {}, x.message), el("td", { class: "num" }, x.count), el("td", {}, fmtTime(x.last_seen)), el("td", {}, x.fix || ""))), "No errors.");
}

function updateTasksNav(t) {
  $('nav a[data-view="tasks"]').hidden = !(t.tasks.length || t.errors.length);
}

async function renderBackground() {
  const b = await api("background");
  fill("#background-table", b.tasks.slice().reverse().map((t) => {
    const pending = t.status === "queued" || t.status === "running";
    return el("tr", { "data-id": t.id, "data-status": t.status },
      el("td", {}, el("code", {}, t.id)),
      el("td", { title: t.parent || "" }, t.parent ? el("a", { href: "#/session/" + encodeURIComponent(t.parent) }, el("code", {}, shortId(t.parent))) : ""),
      el("td", {}, t.agent || ""), el("td", {}, t.description || ""),
      el("td", {}, el("span", { class: "badge st-" + t.status }, t.status)),
      el("td", {}, fmtTime(t.created)),
      el("td", { class: "reason" }, t.error || (t.summary || "").split("\n")[0]),
      el("td", {}, pending ? el("button", { class: "cancel", onclick: () => post("background/" + encodeURIComponent(t.id) + "/cancel", `Cancel background task ${t.id}?`) }, "Cancel") : ""));
  }));
}

async function renderHealth() {
  const h = await api("health").catch(() => null);
  const box = $("#health");
  const n = h ? h.damaged.length + h.quarantined.length : 0;
  box.hidden = !n;
  box.textContent = n ? `${h.damaged.length} damaged and ${h.quarantined.length} quarantined state records: run atreides doctor.` : "";
}

// ---- live updates

let pending = null;

// schedule coalesces the events of a burst into one fetch per view.
function schedule(fn) {
  clearTimeout(pending);
  pending = setTimeout(fn, 80);
}

function connect() {
  const live = $("#live");
  const es = new EventSource("/api/events" + projectQuery());
  es.onopen = () => { live.textContent = "live"; live.className = "on"; };
  es.onerror = () => { live.textContent = "offline"; live.className = "off"; };
  es.addEventListener("audit", (e) => {
    const a = JSON.parse(e.data);
    const v = state.route.view;
    if (state.project && a.project !== state.project) return;
    if (v === "session" && a.session === state.route.id) {
      schedule(() => Promise.all([appendTimeline(state.route.id), renderTrace(state.route.id, state.route.params)]).catch((x) => showError(x.message)));
    }
    else if (v === "decisions" || v === "sessions") schedule(refresh);
  });
  es.addEventListener("state", () => {
    schedule(() => { if (state.route.view !== "decisions") refresh(); renderHealth(); api("tasks").then(updateTasksNav).catch(() => {}); });
  });
  es.addEventListener("resync", () => schedule(refresh));
}

async function start() {
  const p = await api("projects").catch(() => ({ all: false, projects: [] }));
  state.all = p.all;
  if (p.all) {
    const sel = $("#project");
    sel.replaceChildren(el("option", { value: "" }, "all projects"), ...p.projects.map((x) => el("option", { value: x.root }, x.name)));
    sel.hidden = false;
    sel.addEventListener("change", () => { state.project = sel.value; state.timelineSession = ""; route(); });
  }
  wireRange();
  $("#filter-verdict").addEventListener("change", setDecisionFilter);
  for (const k of ["rule", "host", "session"]) $("#filter-" + k).addEventListener("change", setDecisionFilter);
  $("#decision-filters").addEventListener("submit", (e) => { e.preventDefault(); setDecisionFilter(); });
  window.addEventListener("hashchange", route);
  await api("tasks").then(updateTasksNav).catch(() => {});
  renderHealth();
  await route();
  connect();
  document.body.dataset.ready = "1";
}

start();

// records is "1 record" or "N records".
function records(n) { return n === 1 ? "1 record" : `${n} records`; }
