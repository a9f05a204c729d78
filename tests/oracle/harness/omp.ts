// oh-my-pi's own session code behind the harness's command line (common.mjs), run by bun from
// the TypeScript `src/` the package ships:
//
//   bun omp.ts FILE [--op JSON]...
//
// The runtime's operations that need a live agent (`navigateTree`, `branch` = the user's
// `/fork`) are re-enacted from the same `SessionManager` calls AgentSession makes
// (src/session/agent-session.ts `navigateTree` and `branch` in 18.2.3), with a canned summary
// instead of a model's.

import { describeSession, main, replyMessage } from "./common.mjs";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.join(import.meta.dir, "../node_modules/@oh-my-pi/pi-coding-agent");
const version: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
const { SessionManager } = await import(path.join(root, "src/session/session-manager.ts"));
const { convertToLlm } = await import(path.join(root, "src/session/messages.ts"));
const context = await import(path.join(root, "src/session/session-context.ts"));
const { getBlobsDir } = await import(path.join(root, "../pi-utils/src/dirs.ts"));
const { humanizePlanTitle } = await import(path.join(root, "src/plan-mode/approved-plan.ts"));
const { collectEntriesForBranchSummary } = await import(
  path.join(root, "../pi-agent-core/src/compaction/branch-summarization.ts")
);

const SKILL_PROMPT_MESSAGE_TYPE = "skill-prompt";
const ids = (list: { id: string }[]) => list.map((e) => e.id);

const adapter = {
  agent: "omp",
  version,
  async create(dir: string) {
    return SessionManager.create("/oracle/project", dir);
  },
  async open(file: string) {
    return SessionManager.open(file);
  },
  // Where `SessionManager` reads the images a `blob:sha256:` reference names (blob-store.ts).
  blobsDir() {
    return getBlobsDir();
  },
  async describe(sm: any) {
    const { view, step } = describeSession(sm, convertToLlm);
    step("sessionNameSource", () => sm.titleSource ?? null);
    return view;
  },
  ops: {
    // AgentSession.navigateTree: a user request moves the leaf to its parent (its text goes to
    // the editor), so does a custom message other than a skill prompt; any other entry becomes
    // the leaf. A summary (`summary`, or an extension's `hookSummary`) hangs at the new leaf.
    async navigate(ctx: any, op: any) {
      const sm = ctx.sm;
      const oldLeafId = sm.getLeafId();
      const target = sm.getEntry(op.target);
      if (!target) throw new Error(`Entry ${op.target} not found`);
      const isUser = target.type === "message" && target.message.role === "user";
      if (op.target === oldLeafId && !isUser) return { noop: true, leafAfter: oldLeafId };
      const { entries, commonAncestorId } = collectEntriesForBranchSummary(sm, oldLeafId, op.target);
      const fromHook = op.hookSummary !== undefined;
      const summary = fromHook ? op.hookSummary : entries.length > 0 ? op.summary : undefined;
      let newLeafId = op.target;
      let editorText = null;
      if (context.isTranscriptEntry(target) && context.isUserRequestEntry(target)) {
        newLeafId = target.parentId;
        editorText = context.userTurnDraft(target) ?? null;
      } else if (target.type === "custom_message" && target.customType !== SKILL_PROMPT_MESSAGE_TYPE) {
        newLeafId = target.parentId;
        editorText =
          typeof target.content === "string"
            ? target.content
            : target.content.filter((c: any) => c.type === "text").map((c: any) => c.text).join("");
      }
      let summaryEntryId = null;
      if (summary) {
        const details = fromHook ? op.hookDetails : { readFiles: [], modifiedFiles: [] };
        summaryEntryId = sm.branchWithSummary(newLeafId, summary, details, fromHook);
      } else if (newLeafId === null) sm.resetLeaf();
      else sm.branch(newLeafId);
      return { editorText, commonAncestorId, entriesToSummarize: ids(entries), summaryEntryId, leafAfter: sm.getLeafId() };
    },
    // AgentSession.branch (the user's /fork of a user message): a new file with the history
    // before it; of the root prompt, a new empty session that keeps the name.
    async fork(ctx: any, op: any) {
      const sm = ctx.sm;
      const previous = sm.getSessionFile();
      const selected = sm.getEntry(op.target);
      if (selected?.type !== "message" || selected.message.role !== "user") throw new Error("Invalid entry ID for branching");
      await sm.flush();
      if (!selected.parentId) {
        const title = sm.getSessionName();
        const titleSource = sm.titleSource;
        await sm.newSession({ parentSession: previous });
        if (title) await sm.setSessionName(title, titleSource);
      } else {
        sm.createBranchedSession(selected.parentId);
      }
      await sm.flush();
      return { newFile: sm.getSessionFile(), leafAfter: sm.getLeafId() };
    },
    async collect(ctx: any, op: any) {
      const r = collectEntriesForBranchSummary(ctx.sm, op.oldLeaf ?? ctx.sm.getLeafId(), op.target);
      return { commonAncestorId: r.commonAncestorId, entries: ids(r.entries) };
    },
    async branch(ctx: any, op: any) {
      ctx.sm.branch(op.id);
      return { leafAfter: ctx.sm.getLeafId() };
    },
    async resetLeaf(ctx: any) {
      ctx.sm.resetLeaf();
      return { leafAfter: ctx.sm.getLeafId() };
    },
    async branchWithSummary(ctx: any, op: any) {
      return { id: ctx.sm.branchWithSummary(op.from ?? null, op.summary, op.details, op.fromHook) };
    },
    async label(ctx: any, op: any) {
      return { id: ctx.sm.appendLabelChange(op.target, op.label ?? undefined) };
    },
    async createBranchedSession(ctx: any, op: any) {
      const f = ctx.sm.createBranchedSession(op.leaf);
      await ctx.sm.flush();
      return { newFile: f ?? null };
    },
    async setName(ctx: any, op: any) {
      const ok = await ctx.sm.setSessionName(op.name, op.source ?? "user", op.trigger);
      return { applied: ok, name: ctx.sm.getSessionName() ?? null, source: ctx.sm.titleSource ?? null };
    },
    // Plan approval naming (modes/interactive-mode.ts, "Seed an auto-name from the plan title").
    async fromPlan(ctx: any, op: any) {
      const seededName = humanizePlanTitle(op.title);
      let applied = false;
      if (seededName && !ctx.sm.getSessionName()) applied = await ctx.sm.setSessionName(seededName, "auto");
      return { seededName, applied, name: ctx.sm.getSessionName() ?? null, source: ctx.sm.titleSource ?? null };
    },
    async appendUser(ctx: any, op: any) {
      return { id: ctx.sm.appendMessage({ role: "user", content: op.text, timestamp: Date.now() }) };
    },
    async appendAssistant(ctx: any, op: any) {
      return { id: ctx.sm.appendMessage(replyMessage(op.text)) };
    },
    async appendMessage(ctx: any, op: any) {
      return { id: ctx.sm.appendMessage({ timestamp: Date.now(), ...op.message }) };
    },
    async appendCompaction(ctx: any, op: any) {
      const options = { details: op.details, fromExtension: op.fromHook };
      return { id: ctx.sm.appendCompaction(op.summary, op.shortSummary, op.firstKept, op.tokensBefore ?? 1000, options) };
    },
    async appendModelChange(ctx: any, op: any) {
      return { id: ctx.sm.appendModelChange(op.model, op.role) };
    },
    async appendThinkingLevelChange(ctx: any, op: any) {
      return { id: ctx.sm.appendThinkingLevelChange(op.level) };
    },
    async appendCustomMessage(ctx: any, op: any) {
      return { id: ctx.sm.appendCustomMessageEntry(op.customType, op.content, op.display ?? true, op.details) };
    },
    async reopen(ctx: any) {
      await ctx.sm.flush();
      const file = ctx.sm.getSessionFile() ?? ctx.file;
      await ctx.sm.close?.();
      const sm = await SessionManager.open(file);
      ctx.setSm(sm);
      return { file: sm.getSessionFile(), leafAfter: sm.getLeafId() };
    },
  },
  async flush(sm: any) {
    await sm.flush();
  },
};

main(adapter, process.argv.slice(2)).catch((err: any) => {
  process.stdout.write(`${JSON.stringify({ agent: "omp", fatal: String(err?.stack ?? err) })}\n`);
  process.exit(2);
});
