//! The branch summarizer: sesstree's stand-in for the agent's "active model" (SPEC §4).
//!
//! The user names a command (`--summarizer CMD`, `SESSTREE_SUMMARIZER`); it gets the abandoned
//! entries rendered as a transcript plus the summarization instructions on standard input, and
//! what it prints is the summary. sesstree then finishes the summary as the file's agent's
//! built-in branch summarizer does: the preamble in front, the files behind, and
//! `details: {readFiles, modifiedFiles}` from the abandoned tool calls. oh-my-pi lists the
//! files in one `<files>` block (FORMAT §8.4); pi in `<read-files>` and `<modified-files>`
//! blocks, counting the files of the earlier summaries it abandons too (`formatFileOperations`
//! and `prepareBranchEntries` in pi's `compaction/utils.ts` and `branch-summarization.ts`).
//!
//! The command string is the user's own, so it runs through `sh -c` (`cmd /C` on Windows) like
//! a git alias; the transcript never appears in it, only on standard input.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::format::Dialect;
use crate::format::entry::{Block, Message, Payload, Raw, Role, Summary, Text, ToolCall};
use crate::process::{self, CancelToken, RunError};
use crate::row::entry::file_path_arg;

/// What the agent's branch summarizer puts in front of the model's text (FORMAT §8.4).
pub(crate) const PREAMBLE: &str = "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n";

/// The instructions given to the summarizer unless `--replace-instructions` replaces them.
/// Modelled on the agents' branch summary prompt: goal, what was tried, outcome, files.
pub(crate) const DEFAULT_INSTRUCTIONS: &str = "\
The conversation above is a branch that the user is leaving to continue from an earlier point.
Write a summary of it that lets the work go on without the branch itself.

Use this structure:

## Goal
What the user was trying to achieve on this branch.

## What was tried
- The approaches taken, commands run and changes made, in order.

## Outcome
- What worked, what failed (quote exact error messages), and what was left unfinished.

## Files
- The files that were read or changed, and why they matter.

Be brief. Keep exact file paths, function names, commands and error messages.
Answer with the summary only.";

/// How many paths the `<files>` block lists at most (FORMAT §8.4).
const FILES_LIMIT: usize = 20;
/// How many characters of one tool result or command output the transcript keeps.
const OUTPUT_LIMIT: usize = 2000;

/// The instructions for one run: the default ones, `extra` appended, or `extra` alone when
/// `replace` is set.
pub fn instructions(extra: Option<&str>, replace: bool) -> String {
    match extra {
        Some(extra) if replace => extra.to_string(),
        Some(extra) if !extra.trim().is_empty() => format!("{DEFAULT_INSTRUCTIONS}\n\n{extra}"),
        _ => DEFAULT_INSTRUCTIONS.to_string(),
    }
}

/// What the summarizer reads: the transcript in a `<conversation>` block, then the
/// instructions.
pub fn prompt(entries: &[Value], instructions: &str) -> String {
    format!("<conversation>\n{}\n</conversation>\n\n{instructions}\n", transcript(entries))
}

/// The entries as a plain transcript, one block per message, blocks separated by blank lines.
/// Only what a model would have seen is rendered; bookkeeping entries are left out.
pub fn transcript(entries: &[Value]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for entry in entries {
        match Payload::from_value(entry) {
            Payload::Message(message) => render_message(&message, &mut parts),
            Payload::CustomMessage(m) => {
                let kind = m.custom_type.map_or(Cow::Borrowed("custom"), |t| t.decode());
                push(&mut parts, &format!("[{kind}]"), &m.content.text());
            }
            Payload::BranchSummary(s) => push(&mut parts, "[Branch summary]", &summary(&s)),
            Payload::Compaction(s) => push(&mut parts, "[Compaction summary]", &summary(&s)),
            _ => {}
        }
    }
    parts.join("\n\n")
}

/// A summary's text (`""` when it has none).
fn summary<'a>(summary: &Summary<'a>) -> Cow<'a, str> {
    summary.summary.and_then(|s| s.text()).map(|t| t.decode()).unwrap_or_default()
}

/// A string, or `""` when it is missing or no string.
fn text(text: Option<Text<'_>>) -> Cow<'_, str> {
    text.map(|t| t.decode()).unwrap_or_default()
}

fn render_message(message: &Message<'_>, parts: &mut Vec<String>) {
    let field = |key: &str| text(message.text(key));
    match message.role {
        Some(Role::User) => push(parts, "[User]", &message.content.text()),
        Some(Role::Developer) => push(parts, "[Developer]", &message.content.text()),
        Some(Role::Assistant) => {
            for block in message.content.blocks() {
                match block {
                    Block::Thinking(t) => push(parts, "[Assistant thinking]", &text(*t)),
                    Block::Text(t) => push(parts, "[Assistant]", &text(*t)),
                    Block::ToolCall(call) => push(parts, "[Tool call]", &tool_call(call)),
                    _ => {}
                }
            }
            if let Some(err) = message.text("errorMessage") {
                push(parts, "[Assistant error]", &err.decode());
            }
        }
        Some(Role::ToolResult) => {
            let name = message.text("toolName").map_or(Cow::Borrowed("tool"), |t| t.decode());
            let what = if message.is_error() { "error" } else { "result" };
            push(parts, &format!("[Tool {what}: {name}]"), &cut(&message.content.text()));
        }
        Some(Role::BashExecution) => {
            let (command, output) = (field("command"), cut(&field("output")));
            push(parts, "[Bash]", &format!("$ {command}\n{output}"));
        }
        Some(Role::PythonExecution) => {
            let (code, output) = (field("code"), cut(&field("output")));
            push(parts, "[Python]", &format!("{code}\n---\n{output}"));
        }
        Some(Role::Custom | Role::HookMessage) => {
            let kind = message.text("customType").map_or(Cow::Borrowed("custom"), |t| t.decode());
            push(parts, &format!("[{kind}]"), &message.content.text());
        }
        Some(Role::FileMention) => {
            let files = message.members.member("files").and_then(|f| f.elements());
            let paths: Vec<String> = files
                .into_iter()
                .flatten()
                .filter_map(|f| Some(f.object()?.text("path")?.decode().into_owned()))
                .collect();
            push(parts, "[Files mentioned]", &paths.join(", "));
        }
        _ => {}
    }
}

/// A tool call as `name(key=json, ...)`.
fn tool_call(call: &ToolCall<'_>) -> String {
    let name = call.name.map_or(Cow::Borrowed("tool"), |t| t.decode());
    let args = match call.arguments.map(|a| a.to_value()).as_deref() {
        Some(Value::Object(m)) => {
            m.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
        }
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    cut(&format!("{name}({args})"))
}

fn push(parts: &mut Vec<String>, who: &str, text: &str) {
    let text = text.trim();
    if !text.is_empty() {
        parts.push(format!("{who}: {text}"));
    }
}

/// Long output keeps its head and its tail, where errors usually are.
fn cut(s: &str) -> String {
    let n = s.chars().count();
    if n <= OUTPUT_LIMIT {
        return s.to_string();
    }
    let keep = OUTPUT_LIMIT / 2;
    let head: String = s.chars().take(keep).collect();
    let tail: String = s.chars().skip(n - keep).collect();
    format!("{head}\n[… {} characters left out …]\n{tail}", n - 2 * keep)
}

/// The messages of `role` among `entries`.
fn messages<'e>(entries: &'e [Value], role: Role<'static>) -> impl Iterator<Item = Message<'e>> {
    entries.iter().filter_map(move |entry| match Payload::from_value(entry) {
        Payload::Message(message) if message.role == Some(role) => Some(message),
        _ => None,
    })
}

/// The files the abandoned tool calls touched: `read` calls read, `write` and `edit` calls
/// modify (the `path` argument of each, or the older `file_path`, as the rows show them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileOps {
    /// Paths that were read.
    pub read: BTreeSet<String>,
    /// Paths that were written or edited.
    pub modified: BTreeSet<String>,
}

impl FileOps {
    /// The files pi's summarizer lists for `entries`: those of the tool calls, those of the
    /// calls a tool made itself (a tool result's `nestedCalls`, which pi 1.6.0's
    /// `extractFileOpsFromMessage` reads by their `path`), and those in the `details` of the
    /// branch summaries pi made itself (not `fromHook`), whose modified files count as
    /// modified.
    pub fn collect_pi(entries: &[Value]) -> FileOps {
        let mut ops = FileOps::collect(entries);
        for message in messages(entries, Role::ToolResult) {
            let nested = message.members.member("nestedCalls").and_then(|n| n.object());
            let calls = nested.and_then(|n| n.member("calls")?.elements()).unwrap_or_default();
            for call in calls.iter().filter_map(Raw::object) {
                let args = call.member("arguments").and_then(|a| a.object());
                let path = text(args.and_then(|a| a.text("path")));
                ops.add(call.text("name").map(|t| t.decode()).as_deref(), &path);
            }
        }
        for entry in entries {
            let Payload::BranchSummary(summary) = Payload::from_value(entry) else { continue };
            if summary.members.is_true("fromHook") {
                continue;
            }
            let Some(details) = summary.members.member("details") else { continue };
            let details = details.object().unwrap_or_default();
            let paths = |key| {
                let list = details.member(key).and_then(|l| l.elements()).unwrap_or_default();
                list.into_iter().filter_map(|p| Some(p.text()?.decode().into_owned()))
            };
            ops.read.extend(paths("readFiles"));
            ops.modified.extend(paths("modifiedFiles"));
        }
        ops
    }

    /// Collects the tool calls of the assistant messages among `entries`.
    pub fn collect(entries: &[Value]) -> FileOps {
        let mut ops = FileOps::default();
        for message in messages(entries, Role::Assistant) {
            ops.add_calls(&message);
        }
        ops
    }

    /// Collects the tool calls of `message`, an assistant message.
    pub fn add_calls(&mut self, message: &Message<'_>) {
        for call in message.content.calls() {
            let path = file_path_arg(call.arguments);
            self.add(call.name.map(|t| t.decode()).as_deref(), &path);
        }
    }

    /// Counts a call of tool `name` on `path`: `read` reads it, `write` and `edit` modify it.
    fn add(&mut self, name: Option<&str>, path: &str) {
        let files = match name {
            Some("read") => &mut self.read,
            Some("write" | "edit") => &mut self.modified,
            _ => return,
        };
        if !path.is_empty() {
            files.insert(path.to_string());
        }
    }

    /// `{readFiles, modifiedFiles}` as the agent stores them: files only read, and files
    /// modified (whether or not they were read too), each sorted.
    pub fn details(&self) -> Value {
        let read_only: Vec<&String> = self.read.difference(&self.modified).collect();
        json!({"readFiles": read_only, "modifiedFiles": self.modified})
    }

    /// The `<files>` block appended to a generated summary: every path with ` (Read)`,
    /// ` (Write)` or ` (RW)`, sorted, at most 20; empty when no file was touched.
    pub(crate) fn files_block(&self) -> String {
        let all: BTreeSet<&String> = self.read.union(&self.modified).collect();
        if all.is_empty() {
            return String::new();
        }
        let mut out = String::from("<files>\n");
        for path in all.iter().take(FILES_LIMIT) {
            let mode = match (self.read.contains(*path), self.modified.contains(*path)) {
                (true, true) => "RW",
                (false, true) => "Write",
                _ => "Read",
            };
            let _ = writeln!(out, "{path} ({mode})");
        }
        if all.len() > FILES_LIMIT {
            let _ = writeln!(out, "[… {} more files]", all.len() - FILES_LIMIT);
        }
        out.push_str("</files>");
        out
    }

    /// pi's file blocks: `<read-files>` (files only read) and `<modified-files>`, each
    /// sorted and complete, with a blank line between; empty when no file was touched.
    pub(crate) fn pi_blocks(&self) -> String {
        let read_only: Vec<&str> =
            self.read.difference(&self.modified).map(String::as_str).collect();
        let modified: Vec<&str> = self.modified.iter().map(String::as_str).collect();
        let mut sections = Vec::new();
        for (tag, paths) in [("read-files", read_only), ("modified-files", modified)] {
            if !paths.is_empty() {
                sections.push(format!("<{tag}>\n{}\n</{tag}>", paths.join("\n")));
            }
        }
        sections.join("\n\n")
    }
}

/// A summary's text as `dialect`'s summarizer stores it: the preamble, the model's text, and
/// the files (oh-my-pi's `<files>` block, pi's `<read-files>`/`<modified-files>` blocks).
pub fn finish(model_text: &str, files: &FileOps, dialect: Dialect) -> String {
    let mut text = format!("{PREAMBLE}{}", model_text.trim());
    let block = match dialect {
        Dialect::Omp => files.files_block(),
        Dialect::Pi => files.pi_blocks(),
    };
    if !block.is_empty() {
        text.push_str("\n\n");
        text.push_str(&block);
    }
    text
}

/// Summarizes `entries` with the shell command `command`: runs it with [`prompt`] on its
/// standard input, interrupted when `cancel` is set, and returns the finished summary text and
/// its details.
///
/// Fails with [`Error::Failed`] when the command cannot run, exits non-zero, or prints
/// nothing (the agent's "No summary generated"), and with [`Error::Cancelled`] when interrupted.
pub fn run(
    command: &str,
    cancel: &CancelToken,
    entries: &[Value],
    instructions: &str,
    dialect: Dialect,
) -> Result<(String, Value)> {
    let input = prompt(entries, instructions);
    let fail = |what: String| Error::Failed(format!("summarizer `{command}` {what}"));
    let done = match process::run(process::shell(command), input.as_bytes(), None, cancel) {
        Ok(done) => done,
        Err(RunError::Spawn(e)) => return Err(fail(format!("could not run: {e}"))),
        Err(RunError::TimedOut(_)) => return Err(fail("ran out of time".into())),
        Err(RunError::Cancelled) => {
            return Err(Error::Cancelled(
                "branch summarization cancelled; nothing was written".into(),
            ));
        }
    };
    if !done.status.success() {
        return Err(fail(format!(
            "exited with {}; nothing was written",
            process::describe_status(done.status)
        )));
    }
    let text = String::from_utf8_lossy(&done.stdout);
    if text.trim().is_empty() {
        // The agent's words ("No summary generated"), said as the other failures are.
        return Err(fail("printed no summary (No summary generated); nothing was written".into()));
    }
    let files = match dialect {
        Dialect::Omp => FileOps::collect(entries),
        Dialect::Pi => FileOps::collect_pi(entries),
    };
    Ok((finish(&text, &files, dialect), files.details()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, path: &str) -> Value {
        json!({"type":"toolCall","id":format!("c-{name}-{path}"),"name":name,"arguments":{"path":path}})
    }

    fn assistant(blocks: Vec<Value>) -> Value {
        json!({"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"assistant","content":blocks}})
    }

    #[test]
    fn file_ops_and_block() {
        let entries = vec![assistant(vec![
            call("read", "src/a.rs"),
            call("read", "src/b.rs"),
            call("edit", "src/b.rs"),
            call("write", "new.txt"),
            call("bash", "ignored"),
        ])];
        let ops = FileOps::collect(&entries);
        assert_eq!(
            ops.details(),
            json!({"readFiles":["src/a.rs"],"modifiedFiles":["new.txt","src/b.rs"]})
        );
        assert_eq!(
            ops.files_block(),
            "<files>\nnew.txt (Write)\nsrc/a.rs (Read)\nsrc/b.rs (RW)\n</files>"
        );
        assert_eq!(
            finish(" Tried things.\n", &ops, Dialect::Omp),
            format!("{PREAMBLE}Tried things.\n\n{}", ops.files_block())
        );
        assert_eq!(finish("x", &FileOps::default(), Dialect::Omp), format!("{PREAMBLE}x"));
    }

    #[test]
    fn pi_lists_files_in_its_own_blocks_and_counts_earlier_summaries() {
        let earlier = |from_hook: bool, read: &str, modified: &str| {
            json!({"type":"branch_summary","id":"s","parentId":null,"timestamp":"t","fromId":"x",
                   "summary":"S","fromHook":from_hook,
                   "details":{"readFiles":[read],"modifiedFiles":[modified]}})
        };
        let entries = vec![
            earlier(false, "old-read.rs", "old-mod.rs"),
            earlier(true, "hook-read.rs", "hook-mod.rs"),
            assistant(vec![
                call("read", "src/a.rs"),
                call("read", "old-mod.rs"),
                call("edit", "b.rs"),
            ]),
        ];
        let ops = FileOps::collect_pi(&entries);
        assert_eq!(
            finish("Tried things.", &ops, Dialect::Pi),
            format!(
                "{PREAMBLE}Tried things.\n\n<read-files>\nold-read.rs\nsrc/a.rs\n</read-files>\n\n\
                 <modified-files>\nb.rs\nold-mod.rs\n</modified-files>"
            )
        );
        // Only what was touched: a block with no path is left out, and no block at all is none.
        let read_only = FileOps::collect_pi(&[assistant(vec![call("read", "a")])]);
        assert_eq!(read_only.pi_blocks(), "<read-files>\na\n</read-files>");
        assert_eq!(finish("x", &FileOps::default(), Dialect::Pi), format!("{PREAMBLE}x"));
        // pi lists every file: no limit of 20.
        let many = (0..25).map(|i| call("read", &format!("f{i:02}"))).collect();
        assert_eq!(FileOps::collect_pi(&[assistant(many)]).pi_blocks().lines().count(), 27);
    }

    /// pi 1.6.0 (`compaction/utils.js` `extractFileOpsFromMessage`): the calls a tool made
    /// itself count by their `path`; oh-my-pi records none, so `collect` leaves them.
    #[test]
    fn pi_counts_the_calls_a_tool_made_itself() {
        let result = json!({"type":"message","message":{"role":"toolResult","toolName":"codemode",
            "content":[],"nestedCalls":{"complete":true,"calls":[
                {"id":"n1","name":"read","arguments":{"path":"a.rs"},"status":"ok"},
                {"id":"n2","name":"edit","arguments":{"path":"b.rs"},"status":"ok"},
                {"id":"n3","name":"bash","arguments":{"path":"c.rs"},"status":"ok"},
                {"id":"n4","name":"write","argumentsBytes":9,"status":"error"}]}}});
        let entries = [result];
        let pi = FileOps::collect_pi(&entries);
        assert_eq!(pi.read.iter().collect::<Vec<_>>(), ["a.rs"]);
        assert_eq!(pi.modified.iter().collect::<Vec<_>>(), ["b.rs"]);
        assert_eq!(FileOps::collect(&entries), FileOps::default());
    }

    #[test]
    fn older_calls_name_their_file_as_file_path() {
        let old = |name: &str, path: &str| json!({"type":"toolCall","id":"c","name":name,"arguments":{"file_path":path}});
        let ops = FileOps::collect(&[assistant(vec![old("read", "a.rs"), old("edit", "b.rs")])]);
        assert_eq!(ops.details(), json!({"readFiles":["a.rs"],"modifiedFiles":["b.rs"]}));
    }

    #[test]
    fn at_most_twenty_files() {
        let calls = (0..25).map(|i| call("read", &format!("f{i:02}"))).collect();
        let block = FileOps::collect(&[assistant(calls)]).files_block();
        assert_eq!(block.lines().count(), 1 + 20 + 1 + 1);
        assert!(block.contains("[… 5 more files]"));
    }

    #[test]
    fn transcript_renders_what_the_model_saw() {
        let entries = vec![
            json!({"type":"message","message":{"role":"user","content":[{"type":"text","text":"Fix the bug"}]}}),
            assistant(vec![json!({"type":"text","text":"Reading"}), call("read", "src/main.rs")]),
            json!({"type":"message","message":{"role":"toolResult","toolName":"read","content":[{"type":"text","text":"fn main() {}"}],"isError":false}}),
            json!({"type":"label","targetId":"x","label":"l"}),
            json!({"type":"custom_message","customType":"note","content":"remember"}),
        ];
        assert_eq!(
            transcript(&entries),
            "[User]: Fix the bug\n\n[Assistant]: Reading\n\n[Tool call]: read(path=\"src/main.rs\")\n\n[Tool result: read]: fn main() {}\n\n[note]: remember"
        );
    }

    #[test]
    fn instruction_options() {
        assert_eq!(instructions(None, false), DEFAULT_INSTRUCTIONS);
        assert_eq!(
            instructions(Some("Focus on tests."), false),
            format!("{DEFAULT_INSTRUCTIONS}\n\nFocus on tests.")
        );
        assert_eq!(instructions(Some("Only this."), true), "Only this.");
    }

    #[test]
    fn long_output_is_cut_in_the_middle() {
        let s = "a".repeat(1500) + &"b".repeat(1500);
        let c = cut(&s);
        assert!(c.starts_with(&"a".repeat(1000)));
        assert!(c.ends_with(&"b".repeat(1000)));
        assert!(c.contains("1000 characters left out"));
    }
}
