//! `sesstree show REV`: one entry in full.

use std::io::Write;

use serde_json::Value;
use sesstree::rev;
use sesstree::terminal::sanitize_keep_lines;

use crate::cli::complete;
use crate::cli::signals::leave_to_exit;
use crate::cli::time::short_time;
use crate::cli::ui::{Role, id_text};
use crate::cli::{Ctx, stdout};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The current leaf, for reading:
    sesstree -f session.jsonl show
  The original line of the entry whose id starts with 5c07, byte for byte:
    sesstree show 5c07 --raw
  The message of the parent of the entry labelled tests-green, through jq:
    sesstree show --json tests-green^ | jq .message"#;

/// Show one entry in full, as `git show` shows a commit.
///
/// REV defaults to `@`, the current leaf. First a header: the entry's id and type, the role of a
/// message, its parent, its time (in the local time zone; --utc for UTC) and its label. Then
/// its text whole, a message's tool calls with their arguments and the results that answer
/// them, or, for a tool result, the call it answers (and the calls the tool made itself, which
/// pi 1.6 records); for a pi system message, the prompt in effect there (the system messages
/// before it folded in) and what it changes. Entries of other kinds show their fields.
/// The same is printed to a pipe; --json prints the entry as the file has it, unknown fields
/// included, as one line of JSON (in a version 1 file, which has no ids, with the ids `migrate`
/// would give it), and --raw the original line of the file, byte for byte. Control characters
/// in the text are shown escaped.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct ShowArgs {
    /// The entry to show.
    #[arg(default_value = "@", add = complete::rev())]
    pub rev: String,
    /// Print the original JSONL line, byte for byte.
    #[arg(long)]
    pub raw: bool,
}

/// How many entries after a message are searched for the results of its calls (they follow
/// it, an assistant turn then its results).
const RESULTS_AHEAD: u32 = 64;

/// Runs `show`.
pub fn run(ctx: &Ctx, args: &ShowArgs) -> anyhow::Result<()> {
    let session = ctx.load()?;
    if session.is_empty() {
        anyhow::bail!(sesstree::Error::RevNotFound { rev: args.rev.clone() });
    }
    let idx = rev::resolve(&session, &args.rev)?;
    let mut out = stdout();
    if args.raw {
        out.write_all(&session.raw_line(idx)?)?;
        out.write_all(b"\n")?;
    } else if ctx.json {
        out.write_all(&session.value_json(idx)?)?;
        out.write_all(b"\n")?;
    } else {
        let text = readable(ctx.style, &session, idx)?;
        // Everything from the file goes through the sanitizer, lines kept.
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    leave_to_exit(session);
    Ok(())
}

/// The entry as a person reads it: the header, a blank line, the body indented (also the
/// preview of `tree -i`).
pub(crate) fn readable(
    style: crate::cli::ui::Style,
    session: &sesstree::Session,
    idx: u32,
) -> anyhow::Result<String> {
    let value = session.value(idx)?;
    let clean = |s: &str| sanitize_keep_lines(s).into_owned();
    let id = value.get("id").map_or_else(|| "-".to_owned(), id_text);
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("record");
    let message = value.get("message");
    let role = message.and_then(|m| m.get("role")).and_then(Value::as_str);
    let mut out = style.paint(&format!("entry {}", clean(&id)), Role::Id);
    out.push_str(&format!(" ({}", clean(kind)));
    if let Some(role) = role {
        out.push_str(&format!(", {}", clean(role)));
    }
    out.push_str(")\n");
    let field = |out: &mut String, name: &str, text: &str| {
        out.push_str(&format!("{name:<8}{}\n", clean(text)));
    };
    if let Some(parent) = value.get("parentId").filter(|p| !p.is_null()) {
        field(&mut out, "Parent:", &id_text(parent));
    }
    if let Some(time) = value.get("timestamp").filter(|t| !t.is_null()) {
        field(&mut out, "Date:", &short_time(Some(&id_text(time))));
    }
    if let Some((label, _)) = sesstree::row::view::labels(session).get(&idx) {
        field(&mut out, "Label:", label);
    }
    if let Some(model) = message.and_then(|m| m.get("model")).and_then(Value::as_str) {
        let provider = message.and_then(|m| m.get("provider")).and_then(Value::as_str);
        let model = provider.map_or_else(|| model.to_owned(), |p| format!("{p}/{model}"));
        field(&mut out, "Model:", &model);
    }
    let mut body = String::new();
    match message {
        Some(message) => message_body(session, idx, message, &mut body)?,
        None => other_body(&value, &mut body),
    }
    if !body.trim().is_empty() {
        out.push('\n');
        out.push_str(&clean(body.trim_start_matches('\n').trim_end()));
        out.push('\n');
    }
    Ok(out)
}

/// `text` indented by four spaces, a line at a time, onto `out`.
fn indented(out: &mut String, text: &str) {
    for line in text.trim_end().lines() {
        if !line.is_empty() {
            out.push_str("    ");
        }
        out.push_str(line);
        out.push('\n');
    }
}

/// The text of message content: a string, or each block (texts, thinking, images, calls).
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => {
            let parts = blocks.iter().filter_map(|block| {
                let kind = block.get("type").and_then(Value::as_str).unwrap_or_default();
                let text = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default();
                Some(match kind {
                    "text" => text("text").to_owned(),
                    "thinking" => format!("[thinking]\n{}", text("thinking")),
                    // Its type, and the size of an oh-my-pi blob in the store.
                    "image" => {
                        let blobs = crate::cli::places().omp_blobs();
                        format!("[{}]", sesstree::context::image_text(block, Some(&blobs)))
                    }
                    // Calls are shown on their own, with their results.
                    "toolCall" => return None,
                    other => format!("[{other}]"),
                })
            });
            parts.collect::<Vec<_>>().join("\n\n")
        }
        _ => String::new(),
    }
}

/// A call's arguments as pretty JSON.
fn arguments(call: &Value) -> String {
    call.get("arguments")
        .map(|a| serde_json::to_string_pretty(a).unwrap_or_default())
        .unwrap_or_default()
}

/// The body of a `message` entry: its text, then its calls with their results, or the call a
/// tool result answers and the result.
fn message_body(
    session: &sesstree::Session,
    idx: u32,
    message: &Value,
    out: &mut String,
) -> anyhow::Result<()> {
    let role = message.get("role").and_then(Value::as_str).unwrap_or_default();
    let str_of = |key: &str| message.get(key).and_then(Value::as_str);
    if role == "system" {
        return system_body(session, idx, message, out);
    }
    if role == "bashExecution" {
        indented(out, &format!("$ {}", str_of("command").unwrap_or_default()));
        indented(out, str_of("output").unwrap_or_default());
        return Ok(());
    }
    if role == "toolResult" {
        let call_id = str_of("toolCallId").unwrap_or_default();
        let name = str_of("toolName").unwrap_or("tool");
        let error = message.get("isError").and_then(Value::as_bool) == Some(true);
        match find_call(session, idx, call_id)? {
            Some(call) => {
                out.push_str(&format!("Result of {name} ({call_id}), called with:\n"));
                indented(out, &arguments(&call));
            }
            None => out.push_str(&format!("Result of {name} ({call_id}):\n")),
        }
        out.push('\n');
        if error {
            out.push_str("Error:\n");
        }
        indented(out, &content_text(message.get("content")));
        nested_calls(message.get("nestedCalls"), out);
        return Ok(());
    }
    indented(out, &content_text(message.get("content")));
    if let Some(error) = str_of("errorMessage").filter(|e| !e.is_empty()) {
        out.push_str(&format!("\nError: {error}\n"));
    }
    let blocks = message.get("content").and_then(Value::as_array);
    let calls = blocks
        .into_iter()
        .flatten()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("toolCall"));
    for call in calls {
        let call_id = call.get("id").and_then(Value::as_str).unwrap_or_default();
        let name = call.get("name").and_then(Value::as_str).unwrap_or("tool");
        out.push_str(&format!("\nTool call {name} ({call_id}):\n"));
        indented(out, &arguments(call));
        if let Some(result) = find_result(session, idx, call_id)? {
            let error = result.get("isError").and_then(Value::as_bool) == Some(true);
            out.push_str(if error { "Error:\n" } else { "Result:\n" });
            indented(out, &content_text(result.get("content")));
        }
    }
    Ok(())
}

/// The calls a tool made to other tools while it ran (pi 1.6.0's `nestedCalls` on a tool result:
/// never sent to the model, recorded without their results), each as a call is shown: its name,
/// id, status and duration, its arguments (or their size, when pi left them out) and its error.
fn nested_calls(nested: Option<&Value>, out: &mut String) {
    let Some(calls) = nested.and_then(|n| n.get("calls")).and_then(Value::as_array) else {
        return;
    };
    if calls.is_empty() {
        return;
    }
    // pi: calls dropped, arguments omitted, or calls unfinished.
    let incomplete = nested.and_then(|n| n.get("complete")) == Some(&Value::Bool(false));
    out.push_str(&format!(
        "\nNested calls: {}{}\n",
        calls.len(),
        if incomplete { " (incomplete record)" } else { "" }
    ));
    for call in calls {
        let str_of = |key: &str| call.get(key).and_then(Value::as_str);
        let mut head =
            format!("{} ({})", str_of("name").unwrap_or("tool"), str_of("id").unwrap_or_default());
        if let Some(status) = str_of("status") {
            head.push_str(&format!(", {status}"));
        }
        if let Some(ms) = call.get("durationMs").and_then(Value::as_f64) {
            head.push_str(&format!(", {} ms", sesstree::js::number(ms)));
        }
        out.push_str(&format!("\nNested call {head}:\n"));
        match call.get("argumentsBytes").and_then(Value::as_f64) {
            Some(bytes) if call.get("arguments").is_none() => {
                let bytes = sesstree::js::number(bytes);
                indented(out, &format!("[arguments omitted, {bytes} bytes]"));
            }
            _ => indented(out, &arguments(call)),
        }
        if let Some(error) = str_of("error").filter(|e| !e.is_empty()) {
            out.push_str("Error:\n");
            indented(out, error);
        }
    }
}

/// The call `call_id` a tool result at `idx` answers: in the nearest ancestors.
fn find_call(
    session: &sesstree::Session,
    idx: u32,
    call_id: &str,
) -> anyhow::Result<Option<Value>> {
    let ancestors = std::iter::successors(session.parent(idx), |&at| session.parent(at));
    for cur in ancestors.take(RESULTS_AHEAD as usize) {
        let value = session.value(cur)?;
        let blocks = value.pointer("/message/content").and_then(Value::as_array);
        let found = blocks.into_iter().flatten().rev().find(|b| {
            b.get("type").and_then(Value::as_str) == Some("toolCall")
                && b.get("id").and_then(Value::as_str) == Some(call_id)
        });
        if let Some(call) = found {
            return Ok(Some(call.clone()));
        }
    }
    Ok(None)
}

/// The result that answers call `call_id` of the message at `idx`: among the entries below it,
/// following the first child each time (the results of a turn follow it).
fn find_result(
    session: &sesstree::Session,
    idx: u32,
    call_id: &str,
) -> anyhow::Result<Option<Value>> {
    let mut next = vec![idx];
    let mut seen = 0;
    while let Some(cur) = next.pop() {
        for &child in session.children(cur) {
            seen += 1;
            if seen > RESULTS_AHEAD {
                return Ok(None);
            }
            let value = session.value(child)?;
            let message = value.get("message");
            if message.and_then(|m| m.get("toolCallId")).and_then(Value::as_str) == Some(call_id) {
                return Ok(message.cloned());
            }
            next.insert(0, child);
        }
    }
    Ok(None)
}

/// The body of an entry that is not a message: its summary or content, else its other fields.
fn other_body(value: &Value, out: &mut String) {
    let str_of = |key: &str| value.get(key).and_then(Value::as_str);
    if let Some(summary) = str_of("summary") {
        indented(out, summary);
        return;
    }
    if let Some(custom) = str_of("customType")
        && value.get("content").is_some()
    {
        out.push_str(&format!("[{custom}]\n"));
        indented(out, &content_text(value.get("content")));
        return;
    }
    let Some(object) = value.as_object() else {
        indented(out, &value.to_string());
        return;
    };
    for (key, member) in object {
        if matches!(key.as_str(), "type" | "id" | "parentId" | "timestamp") {
            continue;
        }
        let text = match member {
            Value::String(s) => s.clone(),
            other => serde_json::to_string(other).unwrap_or_default(),
        };
        out.push_str(&format!("    {key}: {text}\n"));
    }
}

/// The body of a pi `system` message, which patches the prompt of the ones before it (CHANGES
/// R1): first the prompt in effect at the entry, folded over the context there as pi 1.6.0's
/// `getCurrentSystemMessage` folds it, and its tools; then, for a patch, what it changes.
fn system_body(
    session: &sesstree::Session,
    idx: u32,
    message: &Value,
    out: &mut String,
) -> anyhow::Result<()> {
    use sesstree::context::{self, system_message_text, system_update_summary, tool_names};
    let path = context::path_values(session, idx)?;
    let messages = context::build(path, None, sesstree::format::Dialect::Pi).agent_messages;
    let prompt = context::current_system_message(&messages).unwrap_or_else(|| message.clone());
    out.push_str("Prompt in effect:\n");
    indented(out, &system_message_text(&prompt));
    let tools = tool_names(&prompt, "toolsAdded");
    if !tools.is_empty() {
        out.push_str(&format!("Tools: {}\n", tools.join(", ")));
    }
    let is_patch = messages.iter().filter(|m| m.get("role") == Some(&"system".into())).count() > 1;
    if is_patch {
        out.push_str(&format!("\nThis entry changes: {}\n", system_update_summary(message)));
        indented(out, &context::system_update_text(message));
    }
    Ok(())
}
