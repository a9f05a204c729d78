// oh-my-pi's own import of another agent's transcript (`omp --from-claude`, `--from-codex`,
// `/resume @claude`, `/resume @codex`):
//
//   bun foreign-import.ts claude|codex TRANSCRIPT CWD [CREATED]
//
// runs `ClaudeSessionStore.load` or `CodexSessionStore.load`, then `persistForeignSession`
// (src/session/claude-session-store.ts, codex-session-store.ts, foreign-session-import.ts), on
// TRANSCRIPT as the session picker lists it (`cwd` is the one the transcript records; CREATED,
// an ISO time, the one a Codex rollout's `session_meta` records; the id is the file name's, or
// for Codex the `session_meta` id), into a fresh directory, and prints `{"file", "lines"}`: the
// session file oh-my-pi wrote and its lines.

import "./common.mjs";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.join(import.meta.dir, "../node_modules/@oh-my-pi/pi-coding-agent");
const { ClaudeSessionStore } = await import(path.join(root, "src/session/claude-session-store.ts"));
const { CodexSessionStore } = await import(path.join(root, "src/session/codex-session-store.ts"));
const { persistForeignSession } = await import(path.join(root, "src/session/foreign-session-import.ts"));

const [source, transcript, cwd, created] = process.argv.slice(2);
const sessionDir = fs.mkdtempSync(path.join(os.tmpdir(), "oracle-import-"));
let id = path.basename(transcript, ".jsonl");
if (source === "codex") {
  const first = JSON.parse(fs.readFileSync(transcript, "utf8").split("\n")[0]);
  id = first?.payload?.id ?? id;
}
const info = {
  source,
  id,
  path: transcript,
  cwd,
  created: created ? new Date(created) : new Date(0),
  modified: new Date(0),
};
const store = source === "claude" ? new ClaudeSessionStore(sessionDir) : new CodexSessionStore(sessionDir);
const manager = await persistForeignSession(store, info, { sessionDir });
const file = manager.getSessionFile();
const lines = fs.readFileSync(file, "utf8").split("\n").filter((l: string) => l !== "");
process.stdout.write(`${JSON.stringify({ file, lines })}\n`);
process.exit(0);
