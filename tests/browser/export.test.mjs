// The exported page in a real browser: headless Chromium (the system's, never a downloaded
// one) opens `sesstree export` of examples/demo.jsonl and checks that the active path is open,
// that a folded branch opens on click, that search finds an entry, that no request leaves the
// page, and that nothing the page holds is refused by its Content-Security-Policy; then that two
// branches of tests/fixtures/diff.jsonl compared in the page show `sesstree diff --stat --json`'s
// figures, and branches of a generated session the time, cost and tokens `diff --stat` prints
// (sides of minutes and of hours). It saves
// screenshots of a wide and a narrow window, light and dark, in $SCREENSHOTS (default
// tests/browser/out).
//
// Run: `npm ci && node export.test.mjs` in tests/browser, after `cargo build --release`.
// SESSTREE (the binary), CHROMIUM (the browser) and BIG (a large session to time) may be set.
// Every missing piece fails the run: CI must not pass by skipping it.

import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const sesstree = process.env.SESSTREE || join(root, "target/release/sesstree");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = process.env.SCREENSHOTS || join(here, "out");

let passed = 0;
let failed = 0;
const check = (name, ok, detail = "") => {
  if (ok) {
    passed++;
    console.log(`ok - ${name}`);
  } else {
    failed++;
    console.log(`FAIL - ${name}${detail ? `: ${detail}` : ""}`);
  }
};
const need = (what, path) => {
  if (!existsSync(path)) {
    console.error(`browser test: ${what} not found at ${path}`);
    process.exit(1);
  }
};
need("the sesstree binary (cargo build --release, or set SESSTREE)", sesstree);
need("Chromium (apt-get install chromium, or set CHROMIUM)", browserPath);
mkdirSync(shots, { recursive: true });

const work = mkdtempSync(join(tmpdir(), "sesstree-browser-"));
const exportTo = (session, name, extra = []) => {
  const out = join(work, name);
  const started = process.hrtime.bigint();
  execFileSync(sesstree, ["-f", session, "export", "-o", out, ...extra], { stdio: ["ignore", "ignore", "inherit"] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { out, ms };
};

const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  // Nothing of Chromium's own may reach the network either (updates, metrics, sync, ...).
  args: [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-sync",
    "--disable-client-side-phishing-detection",
    "--metrics-recording-only",
    "--no-default-browser-check",
    "--no-first-run",
    "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
  ],
});

// A page that records every request but its own document, every CSP refusal and every error.
const open = async (file, viewport, colorScheme = "light") => {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const left = [];
  const problems = [];
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u === url || u.startsWith(url + "#")) return route.continue();
    left.push(u);
    return route.abort();
  });
  page.on("request", (r) => {
    const u = r.url();
    if (u !== url && !u.startsWith(url + "#") && !u.startsWith("data:")) left.push(u);
  });
  page.on("console", (m) => {
    if (m.type() === "error" || /Content.Security.Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(String(e)));
  const started = Date.now();
  await page.goto(url, { waitUntil: "load" });
  const loadMs = Date.now() - started;
  return { context, page, left, problems, loadMs };
};

// The demo session.
const demo = exportTo(join(root, "examples/demo.jsonl"), "demo.html");
{
  const { context, page, left, problems } = await open(demo.out, { width: 1400, height: 900 });
  await page.screenshot({ path: join(shots, "demo-wide.png") });
  const leaf = page.locator("main article.leaf");
  check("the leaf is on the page", (await leaf.count()) === 1);
  check("the active path is open: its first and last entries are shown", (await page.locator("main article.e.on").count()) > 10 && (await page.locator("main article.e.on").first().isVisible()));
  await leaf.scrollIntoViewIfNeeded();
  check("the leaf is visible", await leaf.isVisible());

  const branch = page.locator("main details.br").first();
  check("a branch is folded", (await branch.count()) === 1 && !(await branch.evaluate((d) => d.open)));
  check("a folded branch keeps its entries out of the page", (await branch.locator("article").count()) === 0);
  await branch.locator("summary").first().click();
  await page.waitForFunction(() => document.querySelector("main details.br")?.querySelector("article") !== null);
  check("a click opens it, with its entries", (await branch.evaluate((d) => d.open)) && (await branch.locator("article").first().isVisible()));
  await page.screenshot({ path: join(shots, "demo-wide-branch-open.png") });
  await branch.locator("summary").first().click();

  // The selector's filters.
  await page.click(".modes button[data-m=u]");
  const users = await page.locator("#tree a:visible").allInnerTexts();
  check("the User filter shows only user messages", users.length === 3 && users.every((t) => / user: /.test(t)), users.join(" | "));
  await page.click(".modes button[data-m=a]");
  check("the All filter shows every row", (await page.locator("#tree a:visible").count()) === (await page.locator("#tree a").count()));

  // Search: a word only the abandoned branch holds.
  await page.reload({ waitUntil: "load" });
  await page.fill("#q", "vendored");
  await page.waitForFunction(() => document.getElementById("count").textContent !== "");
  const shown = await page.locator("#tree a:not([hidden])").count();
  const all = await page.locator("#tree a").count();
  check("search narrows the tree", shown > 0 && shown < all, `${shown} of ${all}`);
  await page.press("#q", "Enter");
  const hit = page.locator("main article.hit");
  await hit.waitFor({ state: "visible", timeout: 5000 }).catch(() => {});
  check("Enter in the search goes to the entry, opening its branch", (await hit.count()) === 1 && (await hit.isVisible()) && (await hit.evaluate((a) => a.closest("details.br") !== null)));
  const text = (await hit.count()) ? await hit.innerText() : "";
  check("the entry found holds the word", /vendored/i.test(text), text.slice(0, 80));

  // A link to an entry inside a folded branch opens it too.
  await page.goto(pathToFileURL(demo.out).href + "#" + (await page.locator("main details.br article").first().getAttribute("id")));
  await page.reload({ waitUntil: "load" });
  check("a #id link to a folded entry opens its branch", (await page.locator("main article.hit").count()) === 1);

  // Folded tool calls and results open on click.
  await page.goto(pathToFileURL(demo.out).href, { waitUntil: "load" });
  const call = page.locator("main article.on details.call").first();
  await call.locator("summary").click();
  await call.locator("pre").waitFor({ timeout: 5000 }).catch(() => {});
  check("a tool call opens on click, with its arguments", (await call.locator("pre").count()) === 1 && (await call.locator("pre").isVisible()));

  check("no request left the page", left.length === 0, left.join(", "));
  check("no error and no CSP refusal", problems.length === 0, problems.join(" | "));
  await context.close();
}
// A narrow window, and the dark theme.
for (const [name, viewport, scheme] of [
  ["demo-narrow.png", { width: 420, height: 900 }, "light"],
  ["demo-wide-dark.png", { width: 1400, height: 900 }, "dark"],
  ["demo-narrow-dark.png", { width: 420, height: 900 }, "dark"],
]) {
  const { context, page, left, problems } = await open(demo.out, viewport, scheme);
  await page.screenshot({ path: join(shots, name) });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(`${name}: nothing wider than the window`, overflow <= 0, `${overflow}px`);
  check(`${name}: no request, no error`, left.length === 0 && problems.length === 0, [...left, ...problems].join(" | "));
  await context.close();
}

// Comparing two branches in the page: its figures are those of `sesstree diff --stat --json`
// for the same two entries (the two tries of tests/fixtures/diff.jsonl, with different tool
// calls and files; then an entry against its own descendant, whose side is empty).
{
  const fixture = join(root, "tests/fixtures/diff.jsonl");
  const diffPage = exportTo(fixture, "diff.html");
  const { context, page, left, problems } = await open(diffPage.out, { width: 1400, height: 900 });
  const diff = (a, b) => JSON.parse(execFileSync(sesstree, ["-f", fixture, "--json", "diff", "--stat", a, b], { encoding: "utf8" }));
  // Each figure as `diff --stat` writes it, from the JSON.
  const list = (items) => (items.length ? items.join(", ") : "-");
  const expected = (s) => ({
    "entries": String(s.entries),
    "user prompts": String(s.prompts),
    "assistant turns": String(s.turns),
    "tool calls": list(Object.entries(s.toolCalls).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([n, c]) => `${n} ${c}`)),
    "files read": list(s.filesRead),
    "files changed": list(s.filesChanged),
    "commands": list(s.commands),
    "errors": String(s.errors),
    "tokens": String(s.tokens),
    "cost": "$" + s.cost.toFixed(4),
    "time": s.durationMs === null ? "-" : `${Math.floor(s.durationMs / 1000)}s`,
  });
  // What the panel shows: each figure's two cells, the base, each side's entry links.
  const shown = () => page.evaluate(() => {
    const panel = document.getElementById("cmp");
    const figures = {};
    for (const tr of panel.querySelectorAll("tr[data-f]")) figures[tr.dataset.f] = Array.from(tr.querySelectorAll("td"), (td) => td.textContent);
    const ids = Array.from(panel.querySelectorAll("td.ids"), (td) => Array.from(td.querySelectorAll("a"), (a) => a.getAttribute("href").slice(1)));
    const base = panel.querySelector(".ch a");
    return { visible: !panel.hidden, figures, ids, base: base ? base.getAttribute("href").slice(1) : null };
  });
  const row = (id) => page.locator(`#tree a[href="#${id}"]`);
  const compare = async (a, b, how) => {
    await page.click("#compare");
    await row(a).click();
    if (how === "keyboard") {
      await row(b).focus();
      await page.keyboard.press("Enter");
    } else {
      await row(b).click();
    }
    const got = await shown();
    const want = diff(a, b);
    check(`compare ${a} ${b}: the panel is shown`, got.visible);
    check(`compare ${a} ${b}: the base is diff's`, got.base === want.base, `${got.base} vs ${want.base}`);
    for (const [name, value] of Object.entries(expected(want.sides[0].summary))) {
      const other = expected(want.sides[1].summary)[name];
      const cells = got.figures[name] || [];
      check(`compare ${a} ${b}: ${name} as diff --stat --json`, cells[0] === value && cells[1] === other, `${cells.join(" | ")} vs ${value} | ${other}`);
    }
    const ids = want.sides.map((s) => s.entries);
    check(`compare ${a} ${b}: links to each side's entries`, JSON.stringify(got.ids) === JSON.stringify(ids), JSON.stringify(got.ids));
  };
  await compare("b2000005", "c3000009", "click");
  await page.screenshot({ path: join(shots, "diff-compare.png") });
  check("the sides are marked in the tree", (await page.locator("#tree a.ca").count()) === 5 && (await page.locator("#tree a.cb").count()) === 9);
  await page.click("#cmp .ch a");
  check("the base's link goes to the base", (await page.locator("main article.hit").getAttribute("id")) === "a1000003");
  await page.keyboard.press("Escape");
  check("Escape closes the panel and unmarks the tree", (await page.locator("#cmp").isHidden()) && (await page.locator("#tree a.ca, #tree a.cb, #tree a.pk").count()) === 0);
  await compare("a1000001", "b2000003", "keyboard");
  // A pick cancelled: the next click on a row goes to its entry again.
  await page.click("#compare");
  await row("c3000001").click();
  check("a first pick marks the row and says what to do", (await row("c3000001").evaluate((r) => r.classList.contains("pk"))) && /second/.test(await page.locator("#say").innerText()));
  await page.keyboard.press("Escape");
  check("Escape cancels a pick", (await page.locator("#tree a.pk").count()) === 0 && (await page.locator("#say").isHidden()) && (await page.getAttribute("#compare", "aria-pressed")) === "false");
  await row("c3000006").click();
  check("after a cancel, a click on a row goes to its entry", (await page.locator("main article.hit").getAttribute("id")) === "c3000006" && (await page.locator("#cmp").isHidden()));
  check("compare: no request, no error", left.length === 0 && problems.length === 0, [...left, ...problems].join(" | "));
  await context.close();
}

// Long sides: in a generated session, sides that last minutes and over an hour, each cost a sum
// of many. The time, cost and token cells are those `sesstree diff --stat` prints.
{
  const session = join(work, "generated.jsonl");
  execFileSync("python3", [join(root, "bench/gen-session.py"), "-n", "190", "-b", "2", "--seed", "42", "-o", session], { stdio: "ignore" });
  const { context, page, left, problems } = await open(exportTo(session, "generated.html").out, { width: 1400, height: 900 });
  const times = [];
  // An abandoned branch against the leaf; then the root against the leaf, its descendant.
  for (const [a, b] of [["990f0c5b", "d97766be"], ["bd9c66b3", "d97766be"]]) {
    const text = execFileSync(sesstree, ["-f", session, "diff", "--stat", a, b], { encoding: "utf8" });
    const printed = (name) => (text.match(new RegExp(`^${name}\\s+(.+?)\\s{2,}(.+)$`, "m")) || []).slice(1);
    await page.click("#compare");
    await page.locator(`#tree a[href="#${a}"]`).click();
    await page.locator(`#tree a[href="#${b}"]`).click();
    const figures = await page.evaluate(() => {
      const out = {};
      for (const tr of document.querySelectorAll("#cmp tr[data-f]")) out[tr.dataset.f] = Array.from(tr.querySelectorAll("td"), (td) => td.textContent);
      return out;
    });
    for (const name of ["time", "cost", "tokens"]) {
      const want = printed(name);
      check(`long sides ${a} ${b}: ${name} as diff --stat prints it`, want.length === 2 && JSON.stringify(figures[name]) === JSON.stringify(want), `${JSON.stringify(figures[name])} vs ${JSON.stringify(want)}`);
    }
    times.push(...printed("time"));
    await page.keyboard.press("Escape");
  }
  check("long sides: minutes and hours are both shown", times.some((t) => /^\d+m \d+s$/.test(t)) && times.some((t) => /^\d+h \d+m \d+s$/.test(t)), times.join(" | "));
  check("long sides: no request, no error", left.length === 0 && problems.length === 0, [...left, ...problems].join(" | "));
  await context.close();
}

// A hostile transcript: nothing of it runs, loads or opens a dialog, even with every fold open.
{
  const evil = '<script>window.pwned=1</script></template></details><img src=x onerror="window.pwned=2">' +
    '<a href="javascript:window.pwned=3">x</a><iframe src="https://example.com/"></iframe>\u001b[31m';
  const entry = (id, parentId, message) =>
    JSON.stringify({ type: "message", id, parentId, timestamp: "2026-03-02T10:00:01.000Z", message });
  const lines = [
    JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-03-02T10:00:00.000Z", cwd: evil }),
    entry("m1", null, { role: "user", content: evil }),
    entry("m2", "m1", { role: "assistant", content: [{ type: "text", text: evil }, { type: "thinking", thinking: evil },
      { type: "toolCall", id: "c1", name: evil, arguments: { command: evil } },
      { type: "toolCall", id: "c2", name: "edit", arguments: { path: evil } },
      { type: "toolCall", id: "c3", name: "bash", arguments: { command: evil } },
      { type: "image", mimeType: "image/svg+xml", data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.pwned=4"/>').toString("base64") }] }),
    entry("m3", "m2", { role: "toolResult", toolCallId: "c1", toolName: evil, content: [{ type: "text", text: evil }] }),
    entry("m4", "m1", { role: "user", content: evil }),
  ];
  const file = join(work, "evil.jsonl");
  writeFileSync(file, lines.join("\n") + "\n");
  const page = exportTo(file, "evil.html");
  const { context, page: p, left, problems } = await open(page.out, { width: 1000, height: 800 });
  let dialogs = 0;
  p.on("dialog", (d) => { dialogs++; d.dismiss(); });
  await p.evaluate(() => { for (const d of document.querySelectorAll("details")) d.open = true; });
  await p.waitForTimeout(300);
  await p.evaluate(() => { for (const d of document.querySelectorAll("details")) d.open = true; });
  await p.waitForTimeout(300);
  check("hostile: every fold opened", (await p.locator("main article").count()) === 4);
  // The two branches compared: the tool's name, the file and the command show as text.
  await p.click("#compare");
  await p.click('#tree a[href="#m3"]');
  await p.click('#tree a[href="#m4"]');
  const cells = await p.locator("#cmp td").allTextContents();
  check("hostile: the comparison shows the names as text", cells.filter((c) => c.includes("<script>window.pwned=1</script>")).length >= 3, cells.join(" | ").slice(0, 200));
  check("hostile: nothing of the transcript ran", (await p.evaluate(() => window.pwned)) === undefined && dialogs === 0);
  check("hostile: no element of the transcript's", (await p.locator("main script, main iframe, main img, main a[href^='javascript'], #cmp script, #cmp iframe, #cmp img").count()) === 0);
  check("hostile: no request, no error", left.length === 0 && problems.length === 0, [...left, ...problems].join(" | "));
  await context.close();
}

// A large session, when one is given: how long the export and the page's opening take.
if (process.env.BIG) {
  const big = exportTo(process.env.BIG, "big.html");
  const mb = (statSync(big.out).size / 1e6).toFixed(1);
  const { context, page, left, problems, loadMs } = await open(big.out, { width: 1400, height: 900 });
  const paint = await page.evaluate(() => {
    const p = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
    return p ? Math.round(p.startTime) : -1;
  });
  const started = Date.now();
  await page.fill("#q", "retry");
  await page.waitForFunction(() => document.getElementById("count").textContent !== "", null, { timeout: 60000 });
  const searchMs = Date.now() - started;
  console.log(`big: export ${Math.round(big.ms)} ms, ${mb} MB; page load event ${loadMs} ms, first paint ${paint} ms, first search ${searchMs} ms`);
  check("the large page opens within 10 s", loadMs < 10000, `${loadMs} ms`);
  check("the large page: no request, no error", left.length === 0 && problems.length === 0, [...left, ...problems].join(" | "));
  await context.close();
}

await browser.close();
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
