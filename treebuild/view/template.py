"""The HTML, CSS and script of the tree view; ``{{TITLE}}`` and ``{{DATA}}`` are filled in.

The script builds the DOM with ``textContent`` only (never ``innerHTML``), renders children
when a node is first opened, and takes ``#<node_id>`` in the URL to open and select a node.
"""

from __future__ import annotations

__all__ = ["PAGE"]

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
      content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="treebuild view">
<title>{{TITLE}}</title>
<style>
:root { --fg:#1d232b; --muted:#5d6875; --line:#dde2e8; --accent:#1f5fbf; --sel:#e7f0fd; --hit:#fff2a8; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg);
       display:flex; flex-direction:column; height:100vh; }
header { padding:10px 16px 8px; border-bottom:1px solid var(--line); }
header h1 { font-size:18px; margin:0 0 2px; }
header .facts, .muted { color:var(--muted); font-size:12.5px; }
header .desc { margin:4px 0 0; max-width:110ch; }
#notes { margin:6px 0 0; padding:0; list-style:none; }
#notes li { background:#fff6e0; border-left:3px solid #e0a100; padding:2px 8px; margin:2px 0; font-size:12.5px; }
#toolbar { display:flex; gap:8px; align-items:center; padding:6px 16px; border-bottom:1px solid var(--line); }
#search { width:320px; padding:4px 8px; font:inherit; }
button { font:inherit; }
main { flex:1; display:flex; min-height:0; }
#tree { width:48%; overflow:auto; padding:6px 8px 40px; border-right:1px solid var(--line); }
#detail { flex:1; overflow:auto; padding:12px 18px 40px; }
ul.kids, #roots { list-style:none; margin:0; padding-left:18px; }
#roots { padding-left:0; }
.row { display:flex; flex-wrap:wrap; align-items:baseline; gap:6px; padding:1px 4px; border-radius:4px;
       cursor:pointer; }
.row:hover { background:#f3f5f8; }
.row.selected { background:var(--sel); }
.tog { width:18px; border:0; background:none; padding:0; color:var(--muted); cursor:pointer; flex:none; }
.tog.leaf { visibility:hidden; }
.nid { color:var(--muted); font:11px ui-monospace, monospace; }
.title { font-weight:500; }
.title mark { background:var(--hit); }
.pages { color:var(--muted); font-size:12px; white-space:nowrap; }
.badge { font-size:11px; padding:0 5px; border-radius:8px; background:#eef1f5; color:#3b4652; white-space:nowrap; }
.badge.low { background:#fde8e8; color:#9b1c1c; }
.sum { flex-basis:100%; margin-left:24px; color:var(--muted); font-size:12.5px; display:none;
        overflow:hidden; -webkit-line-clamp:2; -webkit-box-orient:vertical; }
body.show-summaries .sum { display:-webkit-box; }
.hidden { display:none; }
#detail h2 { font-size:17px; margin:0 0 4px; }
#detail .path { color:var(--muted); font-size:12.5px; margin-bottom:6px; }
#detail .summary { background:#f6f8fa; border-left:3px solid var(--accent); padding:6px 10px; margin:8px 0; }
#detail pre { white-space:pre-wrap; word-wrap:break-word; font:12.5px/1.5 ui-monospace, monospace;
              background:#fbfbfc; border:1px solid var(--line); padding:10px; }
.thumbs { display:flex; gap:10px; flex-wrap:wrap; margin:8px 0; }
.thumbs figure { margin:0; }
.thumbs img { border:1px solid var(--line); box-shadow:0 1px 3px rgba(0,0,0,.12); display:block; }
.thumbs figcaption { color:var(--muted); font-size:11.5px; text-align:center; }
.cut { color:#9b5a00; font-size:12.5px; }
#detail table.md { border-collapse:collapse; font-size:12.5px; margin:6px 0; }
#detail table.md th, #detail table.md td { border:1px solid var(--line); padding:2px 8px; vertical-align:top; }
#detail table.md th { background:#f6f8fa; }
#detail table.md td.num, #detail table.md th.num { text-align:right; white-space:nowrap; }
</style>
</head>
<body class="show-summaries">
<header>
  <h1 id="doc-title"></h1>
  <div class="facts" id="doc-facts"></div>
  <p class="desc" id="doc-desc"></p>
  <ul id="notes"></ul>
</header>
<div id="toolbar">
  <input id="search" type="search" placeholder="Search titles" aria-label="Search titles" autocomplete="off">
  <span id="hits" class="muted"></span>
  <button id="expand-all" type="button">Expand all</button>
  <button id="collapse-all" type="button">Collapse all</button>
  <label class="muted"><input id="show-summaries" type="checkbox" checked> summaries</label>
</div>
<main>
  <nav id="tree" aria-label="Table of contents"><ul id="roots"></ul></nav>
  <section id="detail"><p class="muted">Click a section to see its text and pages.</p></section>
</main>
<script type="application/json" id="treebuild-data">{{DATA}}</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("treebuild-data").textContent);
const byId = new Map(), kids = new Map(), rendered = new Map();
for (const n of DATA.nodes) { byId.set(n.id, n); kids.set(n.id, []); }
const roots = [];
for (const n of DATA.nodes) { (n.parent !== null && kids.has(n.parent) ? kids.get(n.parent) : roots).push(n); }

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
// A section's text as <pre> blocks, with its Markdown tables (tables the reader kept as data) as <table>s.
const RULE = /^\|(\s*:?-+:?\s*\|)+$/;
function mdCells(line) {
  return line.trim().slice(1, -1).split(/(?<!\\)\|/).map(c => c.trim().replace(/\\\|/g, "|"));
}
function textBlocks(text) {
  const out = [], lines = text.split("\n");
  let prose = [];
  const flush = () => { if (prose.join("").trim()) out.push(el("pre", "text", prose.join("\n"))); prose = []; };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim().startsWith("|") && i + 1 < lines.length && RULE.test(lines[i + 1].trim())) {
      flush();
      const right = mdCells(lines[i + 1]).map(c => c.endsWith(":"));
      const table = el("table", "md"), head = el("tr");
      mdCells(lines[i]).forEach((c, k) => { const th = el("th", right[k] ? "num" : "", c); head.append(th); });
      table.append(head);
      i += 2;
      for (; i < lines.length && lines[i].trim().startsWith("|"); i++) {
        const tr = el("tr");
        mdCells(lines[i]).forEach((c, k) => tr.append(el("td", right[k] ? "num" : "", c)));
        table.append(tr);
      }
      i--;
      out.push(table);
    } else prose.push(lines[i]);
  }
  flush();
  return out.length ? out : [el("pre", "text", text)];
}
function pages(n) {
  if (n.sp === null || n.sp === undefined) return "";
  return n.sp === n.ep ? "p. " + n.sp : "pp. " + n.sp + "\u2013" + n.ep;
}
function setTitle(span, title, query) {
  span.textContent = "";
  const i = query ? title.toLowerCase().indexOf(query) : -1;
  if (i < 0) { span.textContent = title; return; }
  span.append(document.createTextNode(title.slice(0, i)), el("mark", "", title.slice(i, i + query.length)),
              document.createTextNode(title.slice(i + query.length)));
}

function renderNode(n) {
  const li = el("li", "node");
  li.dataset.id = n.id;
  const row = el("div", "row");
  const tog = el("button", "tog" + (kids.get(n.id).length ? "" : " leaf"), kids.get(n.id).length ? "\u25b8" : "");
  tog.type = "button";
  tog.setAttribute("aria-expanded", "false");
  tog.setAttribute("aria-label", "expand");
  const title = el("span", "title");
  setTitle(title, n.title, "");
  row.append(tog, el("span", "nid", n.id), title, el("span", "pages", pages(n)),
             el("span", "badge", n.origin), el("span", "badge" + (n.conf < 0.6 ? " low" : ""), n.conf.toFixed(2)));
  if (n.summary) row.append(el("div", "sum", n.summary));
  row.title = n.summary || n.title;
  tog.addEventListener("click", ev => { ev.stopPropagation(); toggle(n.id); });
  row.addEventListener("click", () => select(n.id));
  li.append(row);
  rendered.set(n.id, li);
  return li;
}
function childList(id) {
  const li = rendered.get(id);
  let ul = li.querySelector(":scope > ul.kids");
  if (!ul) {
    ul = el("ul", "kids hidden");
    for (const c of kids.get(id)) ul.append(renderNode(c));
    li.append(ul);
  }
  return ul;
}
function setOpen(id, open) {
  if (!kids.get(id).length) return;
  const ul = childList(id);
  ul.classList.toggle("hidden", !open);
  const tog = rendered.get(id).querySelector(":scope > .row > .tog");
  tog.textContent = open ? "\u25be" : "\u25b8";
  tog.setAttribute("aria-expanded", String(open));
  tog.setAttribute("aria-label", open ? "collapse" : "expand");
}
function toggle(id) {
  const ul = rendered.get(id).querySelector(":scope > ul.kids");
  setOpen(id, !ul || ul.classList.contains("hidden"));
}
function reveal(id) {
  const chain = [];
  for (let n = byId.get(id); n; n = n.parent !== null ? byId.get(n.parent) : null) chain.unshift(n.id);
  for (const a of chain.slice(0, -1)) setOpen(a, true);
}

function select(id) {
  const n = byId.get(id);
  if (!n) return;
  reveal(id);
  for (const r of document.querySelectorAll(".row.selected")) r.classList.remove("selected");
  const row = rendered.get(id).querySelector(":scope > .row");
  row.classList.add("selected");
  const d = document.getElementById("detail");
  d.textContent = "";
  const path = [];
  for (let p = n.parent !== null ? byId.get(n.parent) : null; p; p = p.parent !== null ? byId.get(p.parent) : null)
    path.unshift(p.title);
  d.append(el("h2", "", n.title));
  if (path.length) d.append(el("div", "path", path.join(" \u203a ")));
  const facts = ["node " + n.id, pages(n), "origin " + n.origin, "confidence " + n.conf.toFixed(2),
                 n.chars.toLocaleString() + " characters" +
                 (n.children ? " with " + n.children + " subsection(s)" : "")];
  d.append(el("div", "muted", facts.filter(Boolean).join(" \u00b7 ")));
  if (n.summary) {
    const s = el("div", "summary", n.summary);
    if (n.summaryOrigin) s.title = "summary by " + n.summaryOrigin;
    d.append(s);
  }
  if (n.thumbs.length) {
    const box = el("div", "thumbs");
    for (const p of n.thumbs) {
      const uri = DATA.thumbs[String(p)];
      if (typeof uri !== "string" || !uri.startsWith("data:image/")) continue;
      const fig = el("figure"), img = el("img");
      img.src = uri; img.alt = "page " + p;
      fig.append(img, el("figcaption", "", "page " + p));
      box.append(fig);
    }
    d.append(box);
  }
  if (n.children) d.append(el("div", "muted", "Text before the first subsection (each subsection shows its own):"));
  d.append(...textBlocks(n.text || "(no text of its own)"));
  if (n.cut) d.append(el("div", "cut", "Cut at " + n.text.length.toLocaleString() + " of " +
                                    n.ownChars.toLocaleString() + " characters to keep this file small."));
  if (location.hash !== "#" + id) history.replaceState(null, "", "#" + id);
}

function search(q) {
  q = q.trim().toLowerCase();
  const hits = document.getElementById("hits");
  if (!q) {
    for (const li of rendered.values()) {
      li.classList.remove("hidden");
      setTitle(li.querySelector(":scope > .row > .title"), byId.get(li.dataset.id).title, "");
    }
    hits.textContent = "";
    return;
  }
  const show = new Set(), matches = [];
  for (const n of DATA.nodes) {
    if (!n.title.toLowerCase().includes(q)) continue;
    matches.push(n.id);
    for (let p = n; p; p = p.parent !== null ? byId.get(p.parent) : null) show.add(p.id);
  }
  for (const id of matches) reveal(id);
  for (const [id, li] of rendered) {
    li.classList.toggle("hidden", !show.has(id));
    setTitle(li.querySelector(":scope > .row > .title"), byId.get(id).title, matches.includes(id) ? q : "");
  }
  hits.textContent = matches.length + " match" + (matches.length === 1 ? "" : "es");
}

function header() {
  const doc = DATA.doc;
  document.getElementById("doc-title").textContent =
    doc.title + (doc.docId ? "  (" + doc.docId + " v" + doc.version + ")" : "");
  const facts = [doc.format, doc.pages ? doc.pages + " pages" : null, doc.nodes + " sections", "method " + doc.method,
                 doc.model ? "summaries " + doc.model : null, "source " + doc.source];
  for (const [k, v] of Object.entries(doc.meta || {})) facts.push(k + "=" + v);
  document.getElementById("doc-facts").textContent = facts.filter(Boolean).join(" \u00b7 ");
  document.getElementById("doc-desc").textContent = doc.description || "";
  const notes = document.getElementById("notes");
  for (const t of DATA.notes) notes.append(el("li", "", t));
  // the build's findings, grouped by the stage that recorded them
  const byStage = {};
  for (const f of doc.findings || []) (byStage[f.stage] = byStage[f.stage] || []).push(f);
  for (const [stage, found] of Object.entries(byStage)) {
    for (const f of found) {
      const where = f.page ? " (page " + f.page + ")" : "";
      const times = f.count > 1 ? " (" + f.count + " times)" : "";
      notes.append(el("li", "", stage + ": " + f.message + where + times));
    }
  }
}

header();
const rootList = document.getElementById("roots");
for (const n of roots) rootList.append(renderNode(n));
document.getElementById("search").addEventListener("input", ev => search(ev.target.value));
document.getElementById("expand-all").addEventListener("click",
  () => { for (const n of DATA.nodes) setOpen(n.id, true); });
document.getElementById("collapse-all").addEventListener("click",
  () => { for (const id of rendered.keys()) setOpen(id, false); });
document.getElementById("show-summaries").addEventListener("change",
  ev => document.body.classList.toggle("show-summaries", ev.target.checked));
const start = decodeURIComponent(location.hash.slice(1));
if (byId.has(start)) { select(start); rendered.get(start).scrollIntoView({block: "center"}); }
document.body.dataset.ready = "1";
</script>
</body>
</html>
"""
