//! An entry in full, as `show` prints it and the selector previews it: a header (id, type,
//! role, parent, time, label, model), a blank line, and the body indented: a message's text,
//! its tool calls with their arguments and the results that answer them, the call a tool result
//! answers, a pi system message's prompt in effect; for other kinds their summary, content or
//! fields. Control characters are escaped, lines kept.

use std::borrow::Cow;
use std::path::Path;

use serde_json::Value;

use crate::context::image_text;
use crate::format::entry::{Block, Content, Message, Object, Payload, Raw, Role, Text};
use crate::json::scan::Scanner;
use crate::render::style::{self, Style};
use crate::session::Session;
use crate::terminal::sanitize_keep_lines;

/// What the entry printer needs besides the entry: the session around it, and what the caller
/// decides from its environment.
pub struct Around<'s> {
    /// The session: its labels, the calls and results near a message, the system messages
    /// before one.
    pub session: &'s Session,
    /// oh-my-pi's blob store, where the size of an image kept there is looked up.
    pub blobs: Option<&'s Path>,
    /// A timestamp as the caller shows it (its time zone).
    pub time: &'s dyn Fn(&str) -> String,
}

/// How many entries after a message are searched for the results of its calls (they follow
/// it, an assistant turn then its results).
const RESULTS_AHEAD: u32 = 64;

/// The entry at `idx` as a person reads it: the header, a blank line, the body indented.
pub fn entry(style: Style, around: &Around<'_>, idx: u32) -> crate::Result<String> {
    let session = around.session;
    let value = session.value(idx)?;
    let payload = Payload::from_value(&value);
    // The envelope as the line has it (a version-1 record's with the ids it was given).
    let entry = Raw::new(&value).object();
    let member = |key: &str| entry.as_ref().and_then(|e| e.member(key));
    let envelope = |key: &str| member(key).filter(|v| !v.is_null());
    let clean = |s: &str| sanitize_keep_lines(s).into_owned();
    let id = member("id").map_or_else(|| "-".to_owned(), id_text);
    let kind =
        member("type").and_then(|t| t.text()).map_or(Cow::Borrowed("record"), |t| t.decode());
    // A message whose `message` is there (else its fields are shown).
    let message = payload.message().filter(|_| member("message").is_some());
    let mut out = style.paint(&format!("entry {}", clean(&id)), style::Role::Id);
    out.push_str(&format!(" ({}", clean(&kind)));
    if let Some(role) = message.and_then(|m| m.role) {
        out.push_str(&format!(", {}", clean(role.as_str())));
    }
    out.push_str(")\n");
    let field = |out: &mut String, name: &str, text: &str| {
        out.push_str(&format!("{name:<8}{}\n", clean(text)));
    };
    if let Some(parent) = envelope("parentId") {
        field(&mut out, "Parent:", &id_text(parent));
    }
    if let Some(time) = envelope("timestamp") {
        field(&mut out, "Date:", &(around.time)(&id_text(time)));
    }
    if let Some((label, _)) = crate::row::view::labels(session).get(&idx) {
        field(&mut out, "Label:", label);
    }
    if let Some(model) = message.and_then(|m| m.text("model")) {
        let model = match message.and_then(|m| m.text("provider")) {
            Some(provider) => format!("{}/{}", provider.decode(), model.decode()),
            None => model.decode().into_owned(),
        };
        field(&mut out, "Model:", &model);
    }
    let mut body = String::new();
    match (message, &entry) {
        (Some(message), _) => message_body(around, idx, message, &mut body)?,
        (None, Some(entry)) => other_body(around, entry, &mut body),
        (None, None) => indented(&mut body, &value.to_string()),
    }
    if !body.trim().is_empty() {
        out.push('\n');
        out.push_str(&clean(body.trim_start_matches('\n').trim_end()));
        out.push('\n');
    }
    Ok(out)
}

/// An id (or a label, or a time) as rows show it: a string as it is, another value as its JSON
/// text.
fn id_text(id: Raw<'_>) -> String {
    match id.text() {
        Some(text) => text.decode().into_owned(),
        None => id.to_value().to_string(),
    }
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

/// The text of message content: a string, or each block (texts, thinking, images; calls are
/// shown on their own, with their results).
fn content_text(around: &Around<'_>, content: &Content<'_>) -> String {
    fn text(t: Option<Text<'_>>) -> Cow<'_, str> {
        t.map(|t| t.decode()).unwrap_or_default()
    }
    match content {
        Content::Text(text) => text.decode().into_owned(),
        Content::Blocks(blocks) => {
            let parts = blocks.iter().filter_map(|block| {
                Some(match block {
                    Block::Text(t) => text(*t).into_owned(),
                    Block::Thinking(t) => format!("[thinking]\n{}", text(*t)),
                    // Its type, and the size of an oh-my-pi blob in the store.
                    Block::Image(image) => {
                        let mime = image.mime_type.map(|t| t.decode());
                        let data = image.data.map(|t| t.decode());
                        let text = image_text(mime.as_deref(), data.as_deref(), around.blobs);
                        format!("[{text}]")
                    }
                    Block::ToolCall(_) => return None,
                    Block::Other(kind) => format!("[{}]", text(*kind)),
                })
            });
            parts.collect::<Vec<_>>().join("\n\n")
        }
        Content::Absent => String::new(),
    }
}

/// Arguments as pretty JSON (none: nothing).
fn arguments(args: Option<Raw<'_>>) -> String {
    args.map(|a| serde_json::to_string_pretty(&*a.to_value()).unwrap_or_default())
        .unwrap_or_default()
}

/// The body of a `message` entry: its text, then its calls with their results, or the call a
/// tool result answers and the result.
fn message_body(
    around: &Around<'_>,
    idx: u32,
    message: &Message<'_>,
    out: &mut String,
) -> crate::Result<()> {
    let text = |key: &str| message.text(key).map(|t| t.decode());
    match message.role {
        Some(Role::System) => return system_body(around.session, idx, message, out),
        Some(Role::BashExecution) => {
            indented(out, &format!("$ {}", text("command").unwrap_or_default()));
            indented(out, &text("output").unwrap_or_default());
            return Ok(());
        }
        Some(Role::ToolResult) => {
            let call_id = text("toolCallId").unwrap_or_default();
            let name = text("toolName").unwrap_or(Cow::Borrowed("tool"));
            match find_call(around.session, idx, &call_id)? {
                Some(args) => {
                    out.push_str(&format!("Result of {name} ({call_id}), called with:\n"));
                    indented(out, &args);
                }
                None => out.push_str(&format!("Result of {name} ({call_id}):\n")),
            }
            out.push('\n');
            if message.is_error() {
                out.push_str("Error:\n");
            }
            indented(out, &content_text(around, &message.content));
            nested_calls(message.members.member("nestedCalls"), out);
            return Ok(());
        }
        _ => {}
    }
    indented(out, &content_text(around, &message.content));
    if let Some(error) = text("errorMessage").filter(|e| !e.is_empty()) {
        out.push_str(&format!("\nError: {error}\n"));
    }
    for call in message.content.calls() {
        let call_id = call.id.map(|t| t.decode()).unwrap_or_default();
        let name = call.name.map_or(Cow::Borrowed("tool"), |t| t.decode());
        out.push_str(&format!("\nTool call {name} ({call_id}):\n"));
        indented(out, &arguments(call.arguments));
        if let Some((error, result)) = find_result(around, idx, &call_id)? {
            out.push_str(if error { "Error:\n" } else { "Result:\n" });
            indented(out, &result);
        }
    }
    Ok(())
}

/// The calls a tool made to other tools while it ran (pi 1.6.0's `nestedCalls` on a tool result:
/// never sent to the model, recorded without their results), each as a call is shown: its name,
/// id, status and duration, its arguments (or their size, when pi left them out) and its error.
fn nested_calls(nested: Option<Raw<'_>>, out: &mut String) {
    let nested = nested.and_then(|n| n.object());
    let calls = nested.as_ref().and_then(|n| n.member("calls")).and_then(|c| c.elements());
    let Some(calls) = calls.filter(|c| !c.is_empty()) else { return };
    // pi: calls dropped, arguments omitted, or calls unfinished.
    let complete = nested.as_ref().and_then(|n| n.member("complete")).and_then(|c| c.as_bool());
    out.push_str(&format!(
        "\nNested calls: {}{}\n",
        calls.len(),
        if complete == Some(false) { " (incomplete record)" } else { "" }
    ));
    let none = Object::default();
    for call in calls {
        let call = call.object().unwrap_or_else(|| none.clone());
        let text = |key: &str| call.text(key).map(|t| t.decode());
        let mut head = format!(
            "{} ({})",
            text("name").unwrap_or(Cow::Borrowed("tool")),
            text("id").unwrap_or_default()
        );
        if let Some(status) = text("status") {
            head.push_str(&format!(", {status}"));
        }
        if let Some(ms) = call.number("durationMs") {
            head.push_str(&format!(", {} ms", crate::js::number(ms)));
        }
        out.push_str(&format!("\nNested call {head}:\n"));
        let args = call.member("arguments");
        match call.number("argumentsBytes") {
            Some(bytes) if args.is_none() => {
                let bytes = crate::js::number(bytes);
                indented(out, &format!("[arguments omitted, {bytes} bytes]"));
            }
            _ => indented(out, &arguments(args)),
        }
        if let Some(error) = text("error").filter(|e| !e.is_empty()) {
            out.push_str("Error:\n");
            indented(out, &error);
        }
    }
}

/// `read` of the payload of the entry at `idx`, scanned from its line where the scan takes it.
fn read_payload<T>(
    session: &Session,
    scanner: &mut Scanner,
    idx: u32,
    read: impl Fn(&Payload<'_>) -> T,
) -> crate::Result<T> {
    let line = session.raw_line(idx)?;
    match Payload::scan(&line, scanner) {
        Some(payload) => Ok(read(&payload)),
        None => Ok(read(&Payload::from_value(&session.value(idx)?))),
    }
}

/// The arguments (as shown) of the call `call_id` a tool result at `idx` answers: in the
/// nearest ancestors.
fn find_call(session: &Session, idx: u32, call_id: &str) -> crate::Result<Option<String>> {
    let mut scanner = Scanner::new();
    let ancestors = std::iter::successors(session.parent(idx), |&at| session.parent(at));
    for cur in ancestors.take(RESULTS_AHEAD as usize) {
        let found = read_payload(session, &mut scanner, cur, |payload| {
            let calls = payload.message().map(|m| m.content.calls().collect::<Vec<_>>());
            let call =
                calls.into_iter().flatten().rev().find(|c| c.id.is_some_and(|id| id.is(call_id)));
            call.map(|call| arguments(call.arguments))
        })?;
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// Whether the result that answers call `call_id` of the message at `idx` failed, and its text:
/// among the entries below it, following the first child each time (the results of a turn
/// follow it).
fn find_result(
    around: &Around<'_>,
    idx: u32,
    call_id: &str,
) -> crate::Result<Option<(bool, String)>> {
    let session = around.session;
    let mut scanner = Scanner::new();
    let mut next = vec![idx];
    let mut seen = 0;
    while let Some(cur) = next.pop() {
        for &child in session.children(cur) {
            seen += 1;
            if seen > RESULTS_AHEAD {
                return Ok(None);
            }
            let found = read_payload(session, &mut scanner, child, |payload| {
                let message = payload.message()?;
                message.text("toolCallId").filter(|id| id.is(call_id))?;
                Some((message.is_error(), content_text(around, &message.content)))
            })?;
            if found.is_some() {
                return Ok(found);
            }
            next.insert(0, child);
        }
    }
    Ok(None)
}

/// The body of an entry that is not a message: its summary or content, else its other fields.
fn other_body(around: &Around<'_>, entry: &Object<'_>, out: &mut String) {
    if let Some(summary) = entry.text("summary") {
        indented(out, &summary.decode());
        return;
    }
    if let Some(custom) = entry.text("customType")
        && entry.member("content").is_some()
    {
        out.push_str(&format!("[{}]\n", custom.decode()));
        indented(out, &content_text(around, &Content::of(entry.member("content"))));
        return;
    }
    for (key, member) in entry.members() {
        if matches!(&*key, "type" | "id" | "parentId" | "timestamp") {
            continue;
        }
        let text = match member.text() {
            Some(text) => text.decode().into_owned(),
            None => serde_json::to_string(&*member.to_value()).unwrap_or_default(),
        };
        out.push_str(&format!("    {key}: {text}\n"));
    }
}

/// The body of a pi `system` message, which patches the prompt of the ones before it (CHANGES
/// R1): first the prompt in effect at the entry, folded over the context there as pi 1.6.0's
/// `getCurrentSystemMessage` folds it, and its tools; then, for a patch, what it changes.
fn system_body(
    session: &Session,
    idx: u32,
    message: &Message<'_>,
    out: &mut String,
) -> crate::Result<()> {
    use crate::context::{self, system_message_text, system_update_summary, tool_names};
    // The context's rules are ported from pi's JavaScript over parsed values.
    let message = message.members.to_value();
    let path = context::path_values(session, idx)?;
    let messages = context::build(path, None, crate::format::Dialect::Pi).agent_messages;
    let prompt = context::current_system_message(&messages).unwrap_or_else(|| message.clone());
    out.push_str("Prompt in effect:\n");
    indented(out, &system_message_text(&prompt));
    let tools = tool_names(&prompt, "toolsAdded");
    if !tools.is_empty() {
        out.push_str(&format!("Tools: {}\n", tools.join(", ")));
    }
    let system = |m: &&Value| Message::from_value(m).role == Some(Role::System);
    if messages.iter().filter(system).count() > 1 {
        out.push_str(&format!("\nThis entry changes: {}\n", system_update_summary(&message)));
        indented(out, &context::system_update_text(&message));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printer is a function of what it is given: the time as the caller shows it, no
    /// colour, the calls and results around a message.
    #[test]
    fn an_entry_is_printed_into_a_string_with_the_callers_time() {
        let lines = [
            r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}"#,
            r#"{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","provider":"p","model":"m","content":[{"type":"text","text":"Reading."},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x"}}]}}"#,
            r#"{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":"hello\u001b[2J"}}"#,
        ];
        let session =
            Session::from_bytes(Path::new("t.jsonl"), lines.join("\n").into_bytes()).unwrap();
        let time = |ts: &str| format!("<{ts}>");
        let around = Around { session: &session, blobs: None, time: &time };
        let shown = entry(Style { color: false }, &around, 0).unwrap();
        assert_eq!(
            shown,
            "entry a1 (message, assistant)\nDate:   <2026-01-01T00:00:01.000Z>\nModel:  p/m\n\n    \
             Reading.\n\nTool call read (c1):\n    {\n      \"path\": \"x\"\n    }\nResult:\n    \
             hello\\x1b[2J\n"
        );
        let result = entry(Style { color: false }, &around, 1).unwrap();
        assert!(result.starts_with("entry r1 (message, toolResult)\nParent: a1\n"), "{result}");
        assert!(result.contains("Result of read (c1), called with:\n"), "{result}");
    }
}
