// pi's own session code behind the harness's command line (common.mjs), for any pi release
// installed in tests/oracle/node_modules:
//
//   node pi.mjs --package @earendil-works/pi-coding-agent FILE [--op JSON]...
//   node pi.mjs --package @mariozechner/pi-coding-agent FILE ...     (pi's old name, ≤ 0.73)
//
// `SessionManager` and the helpers come from the package's compiled `dist/`, run as they are.
// The runtime's operations that need a live agent (`navigateTree`, `fork`) are re-enacted from
// the same `SessionManager` calls the runtime makes (agent-session.js `navigateTree`,
// agent-session-runtime.js `fork` in 1.6.0), with a canned summary instead of a model's.

import { describeSession, main, replyMessage, textOf } from "./common.mjs";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const argv = process.argv.slice(2);
const at = argv.indexOf("--package");
const pkg = at >= 0 ? argv.splice(at, 2)[1] : "@earendil-works/pi-coding-agent";
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../node_modules", pkg);
const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
const load = (rel) => import(path.join(root, "dist", rel));

const { SessionManager } = await load("core/session-manager.js");
const { convertToLlm } = await load("core/messages.js");
const { collectEntriesForBranchSummary } = await load("core/compaction/branch-summarization.js");
// pi ≥ 1.x totals a session's cost over every entry (`/session`'s usage breakdown).
const usageTotals = fs.existsSync(path.join(root, "dist/core/usage-totals.js")) ? await load("core/usage-totals.js") : null;

const ids = (list) => list.map((e) => e.id);

/** The text of a user message, as the runtime puts it in the editor. */
function editorText(content) {
  return typeof content === "string" ? content : textOf((content ?? []).filter((c) => c?.type === "text"));
}

const adapter = {
  agent: "pi",
  version,
  async create(dir) {
    return SessionManager.create("/oracle/project", dir);
  },
  async open(file) {
    return SessionManager.open(file);
  },
  async describe(sm) {
    const { view, step } = describeSession(sm, convertToLlm);
    if (usageTotals) {
      step("cost", () => {
        const parts = usageTotals.getUsageCostBreakdown(sm.getEntries());
        return { total: parts.reduce((s, p) => s + p.cost, 0), tokens: parts.reduce((s, p) => s + p.tokens, 0), parts };
      });
    }
    return view;
  },
  ops: {
    // navigateTree(target, {summarize, label}) as the runtime does it: a user or custom message
    // moves the leaf to its parent (its text goes to the editor), any other entry becomes the
    // leaf; a summary hangs at the new leaf (`summary`: pi's summarizer, `hookSummary`: an
    // extension's, marked fromHook), a label goes on the summary or else on the target.
    async navigate(ctx, op) {
      const sm = ctx.sm;
      const oldLeafId = sm.getLeafId();
      if (op.target === oldLeafId) return { noop: true, leafAfter: oldLeafId };
      const target = sm.getEntry(op.target);
      if (!target) throw new Error(`Entry ${op.target} not found`);
      const { entries, commonAncestorId } = collectEntriesForBranchSummary(sm, oldLeafId, op.target);
      let newLeafId = op.target;
      let text = null;
      if (target.type === "message" && target.message.role === "user") {
        newLeafId = target.parentId;
        text = editorText(target.message.content);
      } else if (target.type === "custom_message") {
        newLeafId = target.parentId;
        text = editorText(target.content);
      }
      const fromHook = op.hookSummary !== undefined;
      const summary = fromHook ? op.hookSummary : entries.length > 0 ? op.summary : undefined;
      let summaryEntryId = null;
      if (summary) {
        summaryEntryId = sm.branchWithSummary(newLeafId, summary, fromHook ? op.hookDetails : { readFiles: [], modifiedFiles: [] }, fromHook);
        if (op.label) sm.appendLabelChange(summaryEntryId, op.label);
      } else if (newLeafId === null) sm.resetLeaf();
      else sm.branch(newLeafId);
      if (op.label && !summary) sm.appendLabelChange(op.target, op.label);
      return { editorText: text, commonAncestorId, entriesToSummarize: ids(entries), summaryEntryId, leafAfter: sm.getLeafId() };
    },
    // The runtime's fork(entryId, {position}) of a saved session: "before" a user message (the
    // new file ends at its parent; the root prompt starts an empty session) or "at" any entry.
    async fork(ctx, op) {
      const sm = ctx.sm;
      const position = op.position ?? "before";
      const selected = sm.getEntry(op.target);
      if (!selected) throw new Error("Invalid entry ID for forking");
      let leaf = selected.id;
      if (position !== "at") {
        if (selected.type !== "message" || selected.message.role !== "user") throw new Error("Invalid entry ID for forking");
        leaf = selected.parentId;
      }
      const previous = sm.getSessionFile();
      let next;
      if (!leaf) {
        next = SessionManager.create(sm.getCwd(), sm.getSessionDir());
        next.newSession({ parentSession: previous });
      } else {
        next = SessionManager.open(previous, sm.getSessionDir());
        if (!next.createBranchedSession(leaf)) throw new Error("Failed to create forked session");
      }
      ctx.setSm(next);
      return { newFile: next.getSessionFile() ?? null, leafAfter: next.getLeafId() };
    },
    async collect(ctx, op) {
      const r = collectEntriesForBranchSummary(ctx.sm, op.oldLeaf ?? ctx.sm.getLeafId(), op.target);
      return { commonAncestorId: r.commonAncestorId, entries: ids(r.entries) };
    },
    async branch(ctx, op) {
      ctx.sm.branch(op.id);
      return { leafAfter: ctx.sm.getLeafId() };
    },
    async resetLeaf(ctx) {
      ctx.sm.resetLeaf();
      return { leafAfter: ctx.sm.getLeafId() };
    },
    async branchWithSummary(ctx, op) {
      return { id: ctx.sm.branchWithSummary(op.from ?? null, op.summary, op.details, op.fromHook, op.usage) };
    },
    async label(ctx, op) {
      return { id: ctx.sm.appendLabelChange(op.target, op.label ?? undefined) };
    },
    async createBranchedSession(ctx, op) {
      return { newFile: ctx.sm.createBranchedSession(op.leaf) ?? null };
    },
    // pi's /name.
    async setName(ctx, op) {
      return { id: ctx.sm.appendSessionInfo(op.name), name: ctx.sm.getSessionName() ?? null };
    },
    async appendUser(ctx, op) {
      return { id: ctx.sm.appendMessage({ role: "user", content: op.text, timestamp: Date.now() }) };
    },
    async appendAssistant(ctx, op) {
      return { id: ctx.sm.appendMessage(replyMessage(op.text)) };
    },
    // Any message, as given (system messages, tool results, …): `message` without a timestamp
    // gets one.
    async appendMessage(ctx, op) {
      return { id: ctx.sm.appendMessage({ timestamp: Date.now(), ...op.message }) };
    },
    async appendCompaction(ctx, op) {
      const firstKept = op.firstKept === undefined ? null : op.firstKept;
      return { id: ctx.sm.appendCompaction(op.summary, firstKept, op.tokensBefore ?? 1000, op.details, op.fromHook, op.usage) };
    },
    async appendContextEdit(ctx, op) {
      return { id: ctx.sm.appendContextEdit(op.target, op.replacement ?? null) };
    },
    async appendUsage(ctx, op) {
      return { id: ctx.sm.appendUsage(op.kind, op.provider, op.model, op.usage, op.note) };
    },
    async appendCustomMessage(ctx, op) {
      return { id: ctx.sm.appendCustomMessageEntry(op.customType, op.content, op.display ?? true, op.details) };
    },
    async appendModelChange(ctx, op) {
      return { id: ctx.sm.appendModelChange(op.provider, op.modelId) };
    },
    async appendThinkingLevelChange(ctx, op) {
      return { id: ctx.sm.appendThinkingLevelChange(op.level) };
    },
    async reopen(ctx) {
      const sm = SessionManager.open(ctx.sm.getSessionFile() ?? ctx.file);
      ctx.setSm(sm);
      return { file: sm.getSessionFile(), leafAfter: sm.getLeafId() };
    },
  },
  async flush() {},
};

main(adapter, argv).catch((err) => {
  process.stdout.write(`${JSON.stringify({ agent: "pi", fatal: String(err?.stack ?? err) })}\n`);
  process.exit(2);
});
