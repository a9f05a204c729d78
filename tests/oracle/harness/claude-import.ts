// oh-my-pi's own import of a Claude Code transcript (`omp --from-claude`, `/resume @claude`):
//
//   bun claude-import.ts TRANSCRIPT CWD
//
// runs `ClaudeSessionStore.load` and `persistForeignSession` (src/session/claude-session-store.ts,
// foreign-session-import.ts) on TRANSCRIPT, as the session picker lists it (`cwd` is the one
// the transcript records), into a fresh directory, and prints `{"file", "lines"}`: the session
// file oh-my-pi wrote and its lines.

import "./common.mjs";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.join(import.meta.dir, "../node_modules/@oh-my-pi/pi-coding-agent");
const { ClaudeSessionStore } = await import(path.join(root, "src/session/claude-session-store.ts"));
const { persistForeignSession } = await import(path.join(root, "src/session/foreign-session-import.ts"));

const [transcript, cwd] = process.argv.slice(2);
const sessionDir = fs.mkdtempSync(path.join(os.tmpdir(), "oracle-import-"));
const info = {
  source: "claude",
  id: path.basename(transcript, ".jsonl"),
  path: transcript,
  cwd,
  created: new Date(0),
  modified: new Date(0),
};
const manager = await persistForeignSession(new ClaudeSessionStore(sessionDir), info, { sessionDir });
const file = manager.getSessionFile();
const lines = fs.readFileSync(file, "utf8").split("\n").filter((l: string) => l !== "");
process.stdout.write(`${JSON.stringify({ file, lines })}\n`);
process.exit(0);
