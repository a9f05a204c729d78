(() => {
  "use strict";
  const parents = JSON.parse(document.getElementById("branches").textContent);
  const rows = Array.from(document.querySelectorAll("#tree a"));
  const byId = new Map();
  for (const r of rows) byId.set(r.getAttribute("href").slice(1), r);
  // A folded part is kept in a template element until it is opened.
  const fill = (d) => {
    const t = d.querySelector(":scope > template");
    if (t) { d.appendChild(t.content); t.remove(); }
  };
  const open = (d) => { fill(d); d.open = true; };
  document.addEventListener("toggle", (e) => {
    if (e.target.tagName === "DETAILS" && e.target.open) fill(e.target);
  }, true);
  // Brings an entry into the page: opens the branches around it, outermost first.
  const reveal = (id) => {
    let el = document.getElementById(id);
    if (!el) {
      const row = byId.get(id);
      if (!row || row.dataset.b === undefined) return null;
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
    go(a.getAttribute("href").slice(1), true);
  });
  const hash = () => { try { return decodeURIComponent(location.hash.slice(1)); } catch (_) { return location.hash.slice(1); } };
  window.addEventListener("popstate", () => { if (location.hash) go(hash(), false); });
  // Search: the sidebar keeps the rows holding every word.
  const q = document.getElementById("q");
  const count = document.getElementById("count");
  let lower = null, timer = 0;
  const search = () => {
    const words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!lower) lower = rows.map((r) => r.textContent.toLowerCase());
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
  // On a narrow window the tree is folded away behind a button (and shown while searching).
  const side = document.getElementById("side");
  document.getElementById("fold").addEventListener("click", () => side.classList.toggle("show"));
  if (location.hash) go(hash(), false);
})();
