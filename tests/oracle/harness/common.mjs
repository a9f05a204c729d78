// The command line shared by the agent harnesses (pi.mjs, omp.ts): open FILE as the agent
// resumes a session, describe what it sees, apply operations, describe again, print one JSON
// object on stdout. See tests/oracle/README.md.
//
// Importing this module first gives the process a fresh HOME (and XDG directories), so the
// agents' modules, which read them when they load, never see the user's real agent directories.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

if (!process.env.ORACLE_KEEP_HOME) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "oracle-home-"));
  process.env.ORACLE_HOME_FRESH = home;
  process.env.HOME = home;
  process.env.USERPROFILE = home;
  for (const [k, sub] of [
    ["XDG_CONFIG_HOME", ".config"],
    ["XDG_DATA_HOME", ".local/share"],
    ["XDG_STATE_HOME", ".local/state"],
    ["XDG_CACHE_HOME", ".cache"],
  ]) {
    process.env[k] = path.join(home, sub);
  }
  for (const k of ["PI_CODING_AGENT_DIR", "PI_CODING_AGENT_SESSION_DIR", "PI_CONFIG_DIR", "OMP_PROFILE", "PI_PROFILE"]) {
    delete process.env[k];
  }
}

function lines(buf) {
  const parts = buf.toString("utf8").split("\n");
  if (parts.length && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

export function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => {
        if (!b || typeof b !== "object") return "";
        if (b.type === "text") return b.text ?? "";
        if (b.type === "thinking") return `[thinking]${b.thinking ?? ""}`;
        if (b.type === "toolCall") return `[toolCall ${b.name} ${JSON.stringify(b.arguments ?? {})}]`;
        if (b.type === "image") return "[image]";
        return `[${b.type}]`;
      })
      .join("");
  }
  return "";
}

function summarizeMessage(m) {
  if (!m || typeof m !== "object") return { role: typeof m, text: "" };
  const role = m.role;
  let text;
  if (role === "branchSummary" || role === "compactionSummary") text = m.summary ?? "";
  else if (role === "bashExecution") text = `$ ${m.command}\n${m.output ?? ""}`;
  else if (role === "pythonExecution") text = `>>> ${m.code}\n${m.output ?? ""}`;
  else if (role === "fileMention") text = (m.files ?? []).map((f) => f.path).join(",");
  else text = textOf(m.content);
  const out = { role, text };
  if (m.customType !== undefined) out.customType = m.customType;
  return out;
}

function entryInfo(e) {
  const info = { id: e?.id, parentId: e?.parentId, type: e?.type };
  if (e?.type === "branch_summary") info.emptySummary = !e.summary;
  if (e?.type === "message" && e.message) {
    info.role = e.message.role;
    if (e.message.stopReason !== undefined) info.stopReason = e.message.stopReason;
    if (e.message.role === "assistant") {
      const c = e.message.content;
      info.hasText = Array.isArray(c)
        ? c.some((b) => b?.type === "text" && String(b.text ?? "").trim() !== "")
        : typeof c === "string" && c.trim() !== "";
    }
  }
  return info;
}

function flattenTree(roots) {
  const out = [];
  const stack = [...roots].reverse();
  const seen = new Set();
  while (stack.length) {
    const node = stack.pop();
    if (seen.has(node)) {
      out.push({ id: node.entry?.id, repeatedNode: true });
      continue;
    }
    seen.add(node);
    out.push({ ...entryInfo(node.entry), children: node.children.map((c) => c.entry?.id), label: node.label ?? null });
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}

function labelsInMapOrder(entries, getLabel) {
  const m = new Map();
  for (const e of entries) {
    if (e?.type !== "label") continue;
    if (e.label) m.set(e.targetId, e.label);
    else m.delete(e.targetId);
  }
  const out = [];
  for (const [targetId, label] of m) {
    const agentSays = getLabel(targetId);
    out.push(agentSays === label ? { targetId, label } : { targetId, label, agentGetLabel: agentSays ?? null });
  }
  return out;
}

function snapshotDir(dir) {
  const m = new Map();
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isFile()) m.set(name, fs.readFileSync(p));
  }
  return m;
}

function diffDir(before, after) {
  const out = {};
  for (const [name, b] of after) {
    const a = before.get(name);
    if (!a) {
      out[name] = { created: true, lines: lines(b) };
    } else if (!a.equals(b)) {
      if (b.length >= a.length && b.subarray(0, a.length).equals(a)) {
        out[name] = { appended: lines(b.subarray(a.length)), appendedBytes: b.length - a.length };
      } else {
        out[name] = { rewritten: true, before: a.length, after: b.length, lines: lines(b) };
      }
    }
  }
  for (const name of before.keys()) if (!after.has(name)) out[name] = { deleted: true };
  return out;
}

/** Runs `step(name, fn)` for each part of a view, keeping an error in place of a failed part. */
function viewBuilder() {
  const view = {};
  const step = (name, fn) => {
    process.stderr.write(`#section ${name}\n`);
    try {
      view[name] = fn();
    } catch (err) {
      view[name] = { error: String(err?.message ?? err) };
    }
  };
  return { view, step };
}

/** An op with each string "$N" replaced by the id op N returned (`result.id`, else the leaf). */
function resolveRefs(op, done) {
  const walk = (v) => {
    if (typeof v === "string" && /^\$\d+$/.test(v)) {
      const r = done[Number(v.slice(1))]?.result;
      return r?.id ?? r?.leafAfter ?? null;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(op);
}

/**
 * What every agent's session manager shows: the leaf, header, name, entries, tree, labels,
 * path and context (`convertToLlm` turns the agent messages into what the model gets). Returns
 * the view and its `step`, for the parts one agent adds.
 */
export function describeSession(sm, convertToLlm) {
  const { view, step } = viewBuilder();
  step("leafId", () => sm.getLeafId());
  step("header", () => {
    const h = sm.getHeader();
    return h && { id: h.id, version: h.version, parentSession: h.parentSession, cwd: h.cwd, title: h.title, titleSource: h.titleSource };
  });
  step("sessionId", () => sm.getSessionId());
  step("sessionName", () => sm.getSessionName() ?? null);
  step("entryCount", () => sm.getEntries().length);
  step("ids", () => sm.getEntries().map((e) => e?.id));
  step("tree", () => flattenTree(sm.getTree()));
  step("labels", () => labelsInMapOrder(sm.getEntries(), (id) => sm.getLabel(id)));
  step("branch", () => sm.getBranch().map((e) => e.id));
  step("branchInfo", () => sm.getBranch().map(entryInfo));
  step("context", () => {
    const { messages, ...state } = sm.buildSessionContext();
    return { ...state, messages: messages.map(summarizeMessage), agentMessages: messages, llm: convertToLlm(messages) };
  });
  return { view, step };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The harness's command line around an adapter: `{agent, version, open, describe, ops, flush}`. */
export async function main(adapter, argv) {
  let file;
  let keep;
  let inPlace = false;
  let settle = 50;
  let fresh = false;
  let blobs;
  const ops = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--keep") keep = argv[++i];
    else if (a === "--in-place") inPlace = true;
    else if (a === "--new") fresh = true;
    else if (a === "--op") ops.push(JSON.parse(argv[++i]));
    else if (a === "--ops-file") ops.push(...JSON.parse(fs.readFileSync(argv[++i], "utf8")));
    else if (a === "--settle") settle = Number(argv[++i]);
    else if (a === "--blobs") blobs = argv[++i];
    else if (a === "--help" || a === "-h") {
      console.log(
        `usage: ${adapter.agent} FILE|--new [--keep DIR] [--in-place] [--blobs DIR] [--op JSON]... [--ops-file F]\n` +
          `--new: a new session (cwd /oracle/project) in DIR instead of FILE; "$N" in an op stands for op N's id\n` +
          `--blobs: copy DIR's files into the agent's blob store first (oh-my-pi only)\n` +
          `ops: ${Object.keys(adapter.ops).join(", ")}`,
      );
      return;
    } else file = a;
  }
  if (!file && !fresh) throw new Error("no FILE (or --new)");
  if (blobs) {
    // The blobs a file names by `blob:sha256:` references, where the agent looks for them.
    if (!adapter.blobsDir) throw new Error(`${adapter.agent} has no blob store`);
    const store = adapter.blobsDir();
    fs.mkdirSync(store, { recursive: true });
    for (const name of fs.readdirSync(blobs)) fs.copyFileSync(path.join(blobs, name), path.join(store, name));
  }
  // The agents log to the console; keep stdout for the one JSON object.
  const warnings = [];
  for (const level of ["warn", "error", "info", "debug", "log"]) {
    const orig = console[level].bind(console);
    console[level] = (...args) => {
      warnings.push(`${level}: ${args.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" ")}`);
      if (process.env.ORACLE_DEBUG) orig(...args);
    };
  }
  let dir;
  let work;
  if (fresh) {
    dir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), `oracle-${adapter.agent}-`));
    fs.mkdirSync(dir, { recursive: true });
  } else if (inPlace) {
    work = path.resolve(file);
    dir = path.dirname(work);
  } else {
    dir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), `oracle-${adapter.agent}-`));
    fs.mkdirSync(dir, { recursive: true });
    work = path.join(dir, path.basename(file));
    fs.copyFileSync(file, work);
  }
  const result = { agent: adapter.agent, version: adapter.version, file: file && path.resolve(file), workFile: work };
  const before = snapshotDir(dir);
  let sm;
  try {
    sm = fresh ? await adapter.create(dir) : await adapter.open(work);
    await sleep(settle);
  } catch (err) {
    result.openError = String(err?.stack ?? err);
  }
  const afterOpen = snapshotDir(dir);
  result.writtenOnOpen = diffDir(before, afterOpen);
  if (sm) {
    try {
      result.view = await adapter.describe(sm);
    } catch (err) {
      result.describeError = String(err?.stack ?? err);
    }
    if (ops.length) {
      const ctx = { sm, dir, file: work, setSm(x) { ctx.sm = x; } };
      result.ops = [];
      for (const raw of ops) {
        const op = resolveRefs(raw, result.ops);
        const fn = adapter.ops[op.op];
        if (!fn) {
          result.ops.push({ op: op.op, error: `unknown op ${op.op}` });
          continue;
        }
        try {
          result.ops.push({ op: op.op, result: (await fn(ctx, op)) ?? null });
        } catch (err) {
          result.ops.push({ op: op.op, error: String(err?.message ?? err) });
        }
      }
      try {
        await adapter.flush(ctx.sm);
      } catch (err) {
        result.flushError = String(err?.message ?? err);
      }
      await sleep(settle);
      result.written = diffDir(afterOpen, snapshotDir(dir));
      if (fresh) result.workFile = ctx.sm.getSessionFile?.() ?? null;
      for (const o of result.ops) {
        const nf = o.result?.newFile;
        if (typeof nf === "string" && path.dirname(nf) !== dir && fs.existsSync(nf)) {
          result.written[nf] = { created: true, elsewhere: true, lines: lines(fs.readFileSync(nf)) };
        }
      }
      try {
        result.viewAfter = await adapter.describe(ctx.sm);
      } catch (err) {
        result.describeAfterError = String(err?.stack ?? err);
      }
    }
  }
  result.warnings = warnings;
  const tidy = () => {
    if (!keep && !inPlace) fs.rmSync(dir, { recursive: true, force: true });
    if (process.env.ORACLE_HOME_FRESH) fs.rmSync(process.env.ORACLE_HOME_FRESH, { recursive: true, force: true });
  };
  process.stdout.write(`${JSON.stringify(result)}\n`, () => {
    tidy();
    setTimeout(() => process.exit(0), 10);
  });
}

/** What the continuation appends as the agent's reply: a real-looking assistant message. */
export function replyMessage(text) {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: Date.now(),
  };
}
