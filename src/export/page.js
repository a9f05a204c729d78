(() => {
  "use strict";
  const parents = JSON.parse(document.getElementById("branches").textContent);
  const side = document.getElementById("side");
  // What is not shown yet is kept in a template element: a part of the main thread, a block of
  // sidebar rows, a folded branch or tool call. Filling moves its nodes into the page.
  const fill = (el) => {
    const t = el && el.querySelector(":scope > template");
    if (t) { el.appendChild(t.content); t.remove(); el.style.minHeight = ""; el.style.height = ""; }
  };
  const open = (d) => { fill(d); d.open = true; };
  document.addEventListener("toggle", (e) => {
    if (e.target.tagName === "DETAILS" && e.target.open) fill(e.target);
  }, true);
  // Parts and row blocks keep the height they will have, and are filled near the view.
  const parts = Array.from(document.querySelectorAll("main > section.part"));
  const blocks = Array.from(document.querySelectorAll("#tree > .ck"));
  const rowHeight = 18.6;
  for (const b of blocks) b.style.height = Number(b.dataset.n) * rowHeight + "px";
  for (const p of parts) p.style.minHeight = Number(p.dataset.n) * 60 + "px";
  if ("IntersectionObserver" in window) {
    const watch = (els, root) => {
      const io = new IntersectionObserver((seen) => {
        for (const s of seen) if (s.isIntersecting) { fill(s.target); io.unobserve(s.target); }
      }, { root, rootMargin: "1500px 0px" });
      for (const el of els) io.observe(el);
    };
    watch(parts, null);
    watch(blocks, side);
  } else {
    parts.forEach(fill);
    blocks.forEach(fill);
  }
  fill(parts[0]);
  fill(document.querySelector("main > section.leafpart"));
  // Every sidebar row by entry id, filled or not.
  const rows = [];
  const byId = new Map();
  for (const b of blocks) {
    const t = b.querySelector(":scope > template");
    for (const r of (t ? t.content : b).querySelectorAll("a")) {
      rows.push(r);
      byId.set(r.getAttribute("href").slice(1), r);
    }
  }
  // Brings an entry into the page: fills its part, opens the branches around it, outermost
  // first.
  const reveal = (id) => {
    let el = document.getElementById(id);
    const row = byId.get(id);
    if (!el && row) {
      fill(document.getElementById("p" + row.dataset.c));
      el = document.getElementById(id);
    }
    if (!el && row && row.dataset.b !== undefined) {
      const chain = [];
      for (let b = Number(row.dataset.b); b >= 0 && chain.length <= parents.length; b = parents[b]) chain.push(b);
      for (const b of chain.reverse()) {
        const d = document.getElementById("b" + b);
        if (d) open(d);
      }
      el = document.getElementById(id);
    }
    if (!el) return null;
    for (let p = el.parentElement; p; p = p.parentElement) if (p.tagName === "DETAILS" && !p.open) open(p);
    return el;
  };
  let lit = null;
  const go = (id, push) => {
    const el = reveal(id);
    if (!el) return;
    if (lit) lit.classList.remove("hit");
    el.classList.add("hit");
    lit = el;
    if (push) history.pushState(null, "", "#" + encodeURIComponent(id));
    side.classList.remove("show");
    if (document.activeElement && side.contains(document.activeElement)) document.activeElement.blur();
    el.scrollIntoView({ block: "start" });
    const row = byId.get(id);
    if (row) {
      for (const s of document.querySelectorAll("#tree .sel")) s.classList.remove("sel");
      row.classList.add("sel");
    }
  };
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[href^='#']");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    if (picks && a.classList.contains("r")) pick(a);
    else go(a.getAttribute("href").slice(1), true);
  });
  const hash = () => { try { return decodeURIComponent(location.hash.slice(1)); } catch (_) { return location.hash.slice(1); } };
  window.addEventListener("popstate", () => { if (location.hash) go(hash(), false); });
  // Search: the sidebar keeps the rows holding every word.
  const q = document.getElementById("q");
  const count = document.getElementById("count");
  let lower = null, timer = 0;
  const search = () => {
    const words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!lower) {
      blocks.forEach(fill);
      lower = rows.map((r) => r.textContent.toLowerCase());
    }
    let n = 0;
    for (let i = 0; i < rows.length; i++) {
      const ok = words.every((w) => lower[i].includes(w));
      rows[i].hidden = !ok;
      if (ok) n++;
    }
    count.textContent = words.length ? n + " of " + rows.length : "";
  };
  q.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(search, rows.length > 5000 ? 200 : 30); });
  q.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    search();
    const first = rows.find((r) => !r.hidden);
    if (first) go(first.getAttribute("href").slice(1), true);
  });
  // The selector's filters: which rows the sidebar shows.
  const tree = document.getElementById("tree");
  for (const b of document.querySelectorAll(".modes button")) {
    b.addEventListener("click", () => {
      for (const o of document.querySelectorAll(".modes button")) o.classList.toggle("on", o === b);
      tree.dataset.m = b.dataset.m;
    });
  }
  // Comparing two branches, as `sesstree diff --stat` does: the Compare button, then two rows
  // of the tree (clicked, or Enter on one), show a panel with the merge base and what each
  // side did after it. Escape cancels a pick and closes the panel. The figures are summed from
  // the facts of each row (read at the first comparison), in path order as `diff` sums them.
  let facts = null, calls = null;
  const cmpButton = document.getElementById("compare");
  const say = document.getElementById("say");
  const panel = document.getElementById("cmp");
  let picks = null;
  const marked = [];
  const unmark = () => { for (const [r, c] of marked.splice(0)) r.classList.remove(c); };
  const mark = (r, c) => { r.classList.add(c); marked.push([r, c]); };
  const idOf = (i) => rows[i].getAttribute("href").slice(1);
  const tell = (text) => { say.textContent = text; say.hidden = !text; };
  const stopPicking = () => {
    picks = null;
    cmpButton.setAttribute("aria-pressed", "false");
    tell("");
  };
  const cancel = () => { stopPicking(); unmark(); panel.hidden = true; };
  cmpButton.addEventListener("click", () => {
    if (picks) return cancel();
    cancel();
    picks = [];
    cmpButton.setAttribute("aria-pressed", "true");
    tell("Pick the first entry to compare (Esc cancels).");
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && (picks || !panel.hidden)) cancel();
  });
  const pick = (r) => {
    picks.push(rows.indexOf(r));
    mark(r, "pk");
    if (picks.length < 2) return tell("Pick the second entry (Esc cancels).");
    const [a, b] = picks;
    stopPicking();
    show(a, b);
  };
  // The path from the root to row `i`, root first; a walk round a cycle stops.
  const pathTo = (i) => {
    const path = [i];
    for (let d = facts.p[i]; d !== 0 && path.length <= rows.length; d = facts.p[i]) path.push(i -= d);
    return path.reverse();
  };
  // The deepest row on both paths, and each side's rows after it (`git merge-base`).
  const split = (a, b) => {
    const pa = pathTo(a), pb = pathTo(b);
    const onA = new Map(pa.map((r, k) => [r, k]));
    let kb = pb.length - 1;
    while (kb >= 0 && !onA.has(pb[kb])) kb--;
    if (kb < 0) return { base: null, sides: [pa, pb] };
    return { base: pb[kb], sides: [pa.slice(onA.get(pb[kb]) + 1), pb.slice(kb + 1)] };
  };
  const summary = (side) => {
    const s = { entries: side.length, prompts: 0, turns: 0, errors: 0, tools: new Map(), read: new Set(), changed: new Set(), commands: [], tokens: 0, cost: 0, first: null, last: null };
    for (const r of side) {
      const f = facts.f[r];
      s.prompts += f & 1;
      s.turns += (f >> 1) & 1;
      s.errors += f >> 2;
      s.tokens += facts.k[r];
      s.cost += facts.c[r];
      const t = facts.t[r];
      if (t !== null) {
        if (s.first === null || t < s.first) s.first = t;
        if (s.last === null || t > s.last) s.last = t;
      }
      const x = calls.get(r);
      if (!x) continue;
      for (const n of x[1] || []) s.tools.set(n, (s.tools.get(n) || 0) + 1);
      for (const n of x[2] || []) s.read.add(n);
      for (const n of x[3] || []) s.changed.add(n);
      for (const n of x[4] || []) s.commands.push(n);
    }
    return s;
  };
  // Each figure as `diff --stat` writes it.
  const list = (refs) => refs.length ? refs.map((n) => facts.s[n]).join(", ") : "-";
  const sorted = (set) => list(Array.from(set).sort((x, y) => x - y));
  const toolCounts = (m) => {
    const names = Array.from(m.keys()).sort((x, y) => m.get(y) - m.get(x) || x - y);
    return names.length ? names.map((n) => facts.s[n] + " " + m.get(n)).join(", ") : "-";
  };
  // `$` and four decimals, a tie rounded to even as Rust's `{:.4}` rounds it (toFixed rounds it
  // away from zero; only a multiple of 1/32 can tie).
  const money = (c) => {
    const m = Math.abs(c), scaled = m * 10000;
    const tie = Number.isInteger(c * 32) && scaled % 1 === 0.5 && Math.floor(scaled) % 2 === 0;
    return "$" + (c < 0 ? "-" : "") + (tie ? Math.floor(scaled) / 10000 : m).toFixed(4);
  };
  const span = (s) => {
    if (s.first === null) return "-";
    const secs = Math.floor((s.last - s.first) / 1000);
    const h = Math.floor(secs / 3600), m = Math.floor(secs / 60) % 60, sec = secs % 60;
    return h ? `${h}h ${m}m ${sec}s` : m ? `${m}m ${sec}s` : `${sec}s`;
  };
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const link = (i) => {
    const a = el("a");
    a.href = "#" + idOf(i);
    a.appendChild(el("code", rows[i].querySelector(".i").textContent));
    return a;
  };
  // Links to a side's entries, the first ones of a long side.
  const LINKS = 50;
  const links = (side) => {
    const cell = el("td", undefined, "ids");
    for (const r of side.slice(0, LINKS)) { cell.appendChild(link(r)); cell.appendChild(document.createTextNode(" ")); }
    if (side.length > LINKS) cell.appendChild(el("span", `and ${side.length - LINKS} more, marked in the tree`, "note"));
    if (!side.length) cell.textContent = "-";
    return cell;
  };
  const show = (a, b) => {
    if (!facts) {
      facts = JSON.parse(document.getElementById("facts").textContent);
      calls = new Map(facts.x.map((x) => [x[0], x]));
    }
    const found = split(a, b);
    const [sa, sb] = found.sides.map(summary);
    panel.replaceChildren();
    const head = el("div", undefined, "ch");
    head.appendChild(el("b", "Compare"));
    const base = el("span", "base ");
    base.appendChild(found.base === null ? el("span", "none (the paths share no entry)") : link(found.base));
    head.appendChild(base);
    const close = el("button", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", "Close the comparison");
    close.addEventListener("click", cancel);
    head.appendChild(close);
    panel.appendChild(head);
    const table = el("table");
    const row = (name, cells) => {
      const tr = el("tr");
      tr.appendChild(el("th", name));
      for (const c of cells) tr.appendChild(typeof c === "string" ? el("td", c) : c);
      table.appendChild(tr);
      return tr;
    };
    const heading = (k, i) => { const th = el("th", k + " "); th.appendChild(link(i)); return th; };
    row("", [heading("a", a), heading("b", b)]).className = "sides";
    const figures = [
      ["entries", (s) => String(s.entries)],
      ["user prompts", (s) => String(s.prompts)],
      ["assistant turns", (s) => String(s.turns)],
      ["tool calls", (s) => toolCounts(s.tools)],
      ["files read", (s) => sorted(s.read)],
      ["files changed", (s) => sorted(s.changed)],
      ["commands", (s) => list(s.commands)],
      ["errors", (s) => String(s.errors)],
      ["tokens", (s) => String(s.tokens)],
      ["cost", (s) => money(s.cost)],
      ["time", span],
    ];
    for (const [name, f] of figures) row(name, [f(sa), f(sb)]).dataset.f = name;
    row("after the base", found.sides.map(links));
    panel.appendChild(table);
    unmark();
    if (found.base !== null) mark(rows[found.base], "cbase");
    found.sides.forEach((side, k) => { for (const r of side) mark(rows[r], k ? "cb" : "ca"); });
    panel.hidden = false;
    close.focus();
  };
  // On a narrow window the tree is folded away behind a button (and shown while searching).
  document.getElementById("fold").addEventListener("click", () => side.classList.toggle("show"));
  if (location.hash) go(hash(), false);
})();
