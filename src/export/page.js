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
  // On a narrow window the tree is folded away behind a button (and shown while searching).
  document.getElementById("fold").addEventListener("click", () => side.classList.toggle("show"));
  if (location.hash) go(hash(), false);
})();
