//! The part of an entry that its row reads: what [`crate::text`] needs for the one-line text,
//! the search text, the filter modes and the tool calls (FORMAT §9.2–§9.4), taken from the line
//! without building the rest.
//!
//! `log` and `tree` show nearly every entry of a file, and a full `serde_json::Value` per entry
//! (tool output, file contents, thinking, images) costs far more than the row it gives. So the
//! row value keeps, per entry type, only the fields the row functions look at, cuts message text
//! to what a row or a search can show, and reduces tool-call arguments as [`call_arguments`]
//! does. Every row function gives the same result on it as on the full value; a differential
//! test holds them together. Lines the scanner does not take (not an object, not JSON, invalid
//! UTF-8 in a kept field) give `None`, and the caller parses them in full.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::format::scan::{Invalid, Line, Scan, Scanner};
use crate::text::call_arguments;

/// How many characters of message text rows and searches read (FORMAT §9.3, §9.4).
const TEXT_LIMIT: usize = 200;

/// The row value of one line (without its newline), or `None` to parse it in full.
pub fn row_value(scanner: &mut Scanner, bytes: &[u8]) -> Option<Value> {
    let (line, stack) = scanner.index(bytes).ok()?;
    let start = line.ws(0);
    if line.at(start) != Some(b'{') {
        return None;
    }
    let members = members(&line, start, stack).ok()?;
    let kind = members
        .iter()
        .rev()
        .find(|m| *m.key == *b"type")
        .and_then(|m| line.at(m.start).filter(|&c| c == b'"').map(|_| m))
        .and_then(|m| line.text((m.start + 1, m.end - 1)).ok());
    let keep: &[&str] = match kind.as_deref() {
        Some("message") => &["message"],
        Some("custom_message") => &["customType", "content", "details", "attribution"],
        Some("compaction") => &["tokensBefore"],
        Some("branch_summary") => &["summary"],
        Some("model_change") => &["model", "modelId"],
        Some("model_usage") => &["role", "purpose", "provider", "model"],
        Some("thinking_level_change") => &["thinkingLevel"],
        Some("custom") => &["customType"],
        Some("label") => &["label"],
        Some("service_tier_change") => &["serviceTier"],
        Some("title_change") => &["title"],
        Some("mode_change") => &["mode"],
        Some("credential_pin") => &["provider"],
        Some("archive") => &["targetId", "archived"],
        Some("ttsr_injection") => &["injectedRules"],
        _ => &[],
    };
    // Sized for every key kept: an IndexMap grown from empty reallocates twice per row.
    let mut out = Map::with_capacity(2 + keep.len());
    for m in &members {
        let Some(key) = ["type", "timestamp"]
            .into_iter()
            .chain(keep.iter().copied())
            .find(|k| k.as_bytes() == &*m.key)
        else {
            continue;
        };
        let value = match key {
            "message" => message(&line, m.start, m.end, stack),
            "details" => details(&line, m.start, m.end, stack),
            _ => parse(&line, m.start, m.end),
        };
        // A later duplicate key wins, in the place of the first, as serde_json keeps it.
        out.insert(key.to_owned(), value.ok()?);
    }
    Some(Value::Object(out))
}

/// A member to keep from an object: parsed in full when `inner` is empty, else reduced to the
/// members `inner` names (when it is an object; a value of another shape is parsed in full).
pub struct Pick<'k> {
    /// The member's key.
    pub key: &'k str,
    /// What to keep of its value.
    pub inner: &'k [Pick<'k>],
}

impl<'k> Pick<'k> {
    /// A member kept whole.
    pub const fn whole(key: &'k str) -> Self {
        Pick { key, inner: &[] }
    }
}

/// The members of an object line that `keep` names, reduced as it says, without building the
/// rest; `None` when the scanner does not take the line or it is not an object, and the caller
/// parses it in full. The reduced value reads the same as the full one for every path `keep`
/// names.
pub fn pick(scanner: &mut Scanner, bytes: &[u8], keep: &[Pick<'_>]) -> Option<Value> {
    let (line, stack) = scanner.index(bytes).ok()?;
    let start = line.ws(0);
    if line.at(start) != Some(b'{') {
        return None;
    }
    let members = members(&line, start, stack).ok()?;
    picked(&line, members, keep, stack).ok()
}

fn picked(
    line: &Line<'_, '_>,
    members: Vec<Member<'_>>,
    keep: &[Pick<'_>],
    stack: &mut Vec<bool>,
) -> Scan<Value> {
    let mut out = Map::with_capacity(keep.len());
    for m in members {
        let Some(pick) = keep.iter().find(|p| p.key.as_bytes() == &*m.key) else { continue };
        let value = if !pick.inner.is_empty() && line.at(m.start) == Some(b'{') {
            let inner = nested(line, m.start, stack)?;
            picked(line, inner, pick.inner, stack)?
        } else {
            parse(line, m.start, m.end)?
        };
        // A later duplicate key wins, in the place of the first, as serde_json keeps it.
        out.insert(pick.key.to_owned(), value);
    }
    Ok(Value::Object(out))
}

/// What the context's state reads of a `message` entry ([`crate::context::build`] tracks the
/// model of assistant turns): `type`, `id` and the message's `role`, `provider` and `model`,
/// without the content. `None` when the scanner does not take the line or it is no `message`
/// object; the caller then parses it in full.
pub fn message_model(scanner: &mut Scanner, bytes: &[u8]) -> Option<Value> {
    const KEEP: &[Pick<'_>] = &[
        Pick::whole("type"),
        Pick::whole("id"),
        Pick {
            key: "message",
            inner: &[Pick::whole("role"), Pick::whole("provider"), Pick::whole("model")],
        },
    ];
    let value = pick(scanner, bytes, KEEP)?;
    (value.get("type").and_then(Value::as_str) == Some("message")).then_some(value)
}

/// One member of an object: its key (decoded only when it has escapes; compared as bytes with
/// the ASCII names rows read, so other keys cost nothing) and the span of its value.
struct Member<'a> {
    key: Cow<'a, [u8]>,
    start: usize,
    end: usize,
}

/// The key of a member as written, escapes decoded.
fn key<'a>(line: &Line<'a, '_>, span: (usize, usize)) -> Scan<Cow<'a, [u8]>> {
    let raw = line.bytes.get(span.0..span.1).ok_or(Invalid)?;
    if memchr::memchr(b'\\', raw).is_none() {
        return Ok(Cow::Borrowed(raw));
    }
    Ok(match line.text(span)? {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    })
}

/// The members of the object at `start`, which must be the whole line.
fn members<'a>(line: &Line<'a, '_>, start: usize, stack: &mut Vec<bool>) -> Scan<Vec<Member<'a>>> {
    let mut out = Vec::new();
    let end = line.object(start, |line, span, value| {
        let end = line.skip_value(value, stack)?;
        out.push(Member { key: key(line, span)?, start: value, end });
        Ok(end)
    })?;
    line.end(end)?;
    Ok(out)
}

/// The members of a nested object at `start` (ending before `end`).
fn nested<'a>(line: &Line<'a, '_>, start: usize, stack: &mut Vec<bool>) -> Scan<Vec<Member<'a>>> {
    let mut out = Vec::new();
    line.object(start, |line, span, value| {
        let end = line.skip_value(value, stack)?;
        out.push(Member { key: key(line, span)?, start: value, end });
        Ok(end)
    })?;
    Ok(out)
}

/// A value parsed in full (a string straight from the line).
fn parse(line: &Line<'_, '_>, start: usize, end: usize) -> Scan<Value> {
    if line.at(start) == Some(b'"') {
        return Ok(Value::String(line.text((start + 1, end - 1))?.into_owned()));
    }
    let raw = line.bytes.get(start..end).ok_or(Invalid)?;
    serde_json::from_slice(raw).map_err(|_| Invalid)
}

/// The `message` of a `message` entry: role and the fields rows read, content cut.
fn message(line: &Line<'_, '_>, start: usize, end: usize, stack: &mut Vec<bool>) -> Scan<Value> {
    if line.at(start) != Some(b'{') {
        return parse(line, start, end);
    }
    const KEYS: [&str; 10] = [
        "content",
        "role",
        "toolCallId",
        "toolName",
        "command",
        "stopReason",
        "errorMessage",
        "retryRecovery",
        "customType",
        "attribution",
    ];
    let mut out = Map::with_capacity(KEYS.len());
    for m in nested(line, start, stack)? {
        let Some(key) = KEYS.into_iter().find(|k| k.as_bytes() == &*m.key) else { continue };
        let value = match key {
            "content" => content(line, m.start, m.end, stack)?,
            _ => parse(line, m.start, m.end)?,
        };
        out.insert(key.to_owned(), value);
    }
    Ok(Value::Object(out))
}

/// Message content: a string or the blocks rows read, text cut. Content of any other shape
/// reads as no text, like `null`.
fn content(line: &Line<'_, '_>, start: usize, end: usize, stack: &mut Vec<bool>) -> Scan<Value> {
    match line.at(start) {
        Some(b'"') => Ok(Value::String(cut_text(line, (start + 1, end - 1))?)),
        Some(b'[') => {
            let mut blocks = Vec::new();
            let mut spans = Vec::new();
            line.array(start, |line, at| {
                let after = line.skip_value(at, stack)?;
                spans.push((at, after));
                Ok(after)
            })?;
            for (at, after) in spans {
                blocks.push(block(line, at, after, stack)?);
            }
            Ok(Value::Array(blocks))
        }
        _ => Ok(Value::Null),
    }
}

/// A content block: a `text` block's text (cut), a `toolCall` block's id, name and reduced
/// arguments, and the type of any other block.
fn block(line: &Line<'_, '_>, start: usize, end: usize, stack: &mut Vec<bool>) -> Scan<Value> {
    if line.at(start) != Some(b'{') {
        // Only objects are ever read as blocks.
        let _ = end;
        return Ok(Value::Null);
    }
    let members = nested(line, start, stack)?;
    let last = |key: &str| members.iter().rev().find(|m| &*m.key == key.as_bytes());
    let kind = match last("type") {
        Some(m) => parse(line, m.start, m.end)?,
        None => Value::Null,
    };
    let keep: &[&str] = match kind.as_str() {
        Some("text") => &["type", "text"],
        Some("toolCall") => &["type", "id", "name", "arguments"],
        _ => &["type"],
    };
    let mut out = Map::with_capacity(keep.len());
    let name = match last("name") {
        Some(m) if line.at(m.start) == Some(b'"') => line.text((m.start + 1, m.end - 1))?,
        _ => Cow::Borrowed(""),
    };
    for m in &members {
        let Some(key) = keep.iter().copied().find(|k| k.as_bytes() == &*m.key) else { continue };
        let value = match key {
            "text" if line.at(m.start) == Some(b'"') => {
                Value::String(cut_text(line, (m.start + 1, m.end - 1))?)
            }
            // A text that is not a string reads as none.
            "text" => Value::Null,
            "arguments" => arguments(line, &name, m.start, m.end, stack)?,
            _ => parse(line, m.start, m.end)?,
        };
        out.insert(key.to_owned(), value);
    }
    Ok(Value::Object(out))
}

/// A tool call's arguments as [`call_arguments`] reduces them, parsing only the keys a known
/// tool's row reads.
fn arguments(
    line: &Line<'_, '_>,
    name: &str,
    start: usize,
    end: usize,
    stack: &mut Vec<bool>,
) -> Scan<Value> {
    let known = matches!(name, "read" | "write" | "edit" | "bash" | "grep" | "glob" | "ls");
    if !known || line.at(start) != Some(b'{') {
        return Ok(call_arguments(name, &parse(line, start, end)?));
    }
    const KEYS: [&str; 7] = ["path", "file_path", "offset", "limit", "command", "pattern", "paths"];
    let mut map = Map::with_capacity(KEYS.len());
    for m in nested(line, start, stack)? {
        if let Some(key) = KEYS.into_iter().find(|k| k.as_bytes() == &*m.key) {
            map.insert(key.to_owned(), parse(line, m.start, m.end)?);
        }
    }
    Ok(call_arguments(name, &Value::Object(map)))
}

/// `details` of a `custom_message`: only the advisor `notes` are read.
fn details(line: &Line<'_, '_>, start: usize, end: usize, stack: &mut Vec<bool>) -> Scan<Value> {
    if line.at(start) != Some(b'{') {
        return parse(line, start, end);
    }
    let mut out = Map::new();
    for m in nested(line, start, stack)? {
        if *m.key == *b"notes" {
            out.insert("notes".to_owned(), parse(line, m.start, m.end)?);
        }
    }
    Ok(Value::Object(out))
}

/// Message text cut to what rows and searches read: the first [`TEXT_LIMIT`] characters (text
/// blocks are joined before the cut, so no block shows more), decoded only that far. Whether
/// the text holds anything but whitespace decides if an assistant turn is shown, so a cut that
/// leaves only whitespace keeps one character of the rest that is not; it sits past the cut
/// and never shows.
fn cut_text(line: &Line<'_, '_>, span: (usize, usize)) -> Scan<String> {
    let (kept, complete) = line.text_prefix(span, TEXT_LIMIT)?;
    if complete || !kept.trim().is_empty() {
        return Ok(kept.into_owned());
    }
    let text = line.text(span)?;
    let mut kept = kept.into_owned();
    if let Some(c) = text.chars().skip(TEXT_LIMIT).find(|c| !c.is_whitespace()) {
        kept.push(c);
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::text::{FilterMode, ToolCalls, is_user_request, one_line, search_text, shows};

    /// Every row function on the row value against the full value.
    fn check(entry: &Value) -> std::result::Result<(), TestCaseError> {
        let bytes = serde_json::to_vec(entry).unwrap_or_default();
        let Some(row) = row_value(&mut Scanner::new(), &bytes) else {
            prop_assert!(!entry.is_object(), "an object line must give a row value");
            return Ok(());
        };
        let mut full_tools = ToolCalls::with_home("/home/al");
        let mut row_tools = ToolCalls::with_home("/home/al");
        full_tools.add(entry);
        row_tools.add(&row);
        prop_assert_eq!(full_tools.len(), row_tools.len());
        // Results are described through the calls, so replay the entry as a result too.
        let result_of = |call: &str| json!({"type": "message", "message": {"role": "toolResult", "toolCallId": call}});
        for id in ["c1", "c2", "c3"] {
            prop_assert_eq!(
                one_line(&result_of(id), &full_tools),
                one_line(&result_of(id), &row_tools)
            );
        }
        let tools = ToolCalls::with_home("/home/al");
        prop_assert_eq!(one_line(entry, &tools), one_line(&row, &tools));
        prop_assert_eq!(
            search_text(entry, Some("lbl"), &full_tools),
            search_text(&row, Some("lbl"), &row_tools)
        );
        prop_assert_eq!(is_user_request(entry), is_user_request(&row));
        for mode in FilterMode::CYCLE {
            for leaf in [false, true] {
                prop_assert_eq!(shows(mode, entry, leaf, false), shows(mode, &row, leaf, false));
            }
        }
        prop_assert_eq!(entry.get("type"), row.get("type"));
        prop_assert_eq!(entry.get("timestamp"), row.get("timestamp"));
        Ok(())
    }

    #[test]
    fn rows_are_the_same_on_examples() {
        let long = "x".repeat(300);
        let spaces = format!("{}y", " ".repeat(250));
        let command = format!("  {}  tail", "echo hi && ".repeat(20));
        for entry in [
            json!({"type": "message", "timestamp": "t", "message": {"role": "user", "content": long}}),
            json!({"type": "message", "message": {"role": "assistant", "stopReason": "stop",
                "content": [{"type": "text", "text": spaces}, {"type": "thinking", "thinking": long}]}}),
            json!({"type": "message", "message": {"role": "assistant", "content": [
                {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": command}},
                {"type": "toolCall", "id": "c2", "name": "edit",
                    "arguments": {"path": "/home/al/x", "oldText": long, "newText": long}},
                {"type": "toolCall", "id": "c3", "name": "task",
                    "arguments": {"prompt": long, "n": [1, 2, {"k": long}]}}]}}),
            json!({"type": "message", "message": {"role": "custom", "customType": "skill-prompt",
                "attribution": "user", "content": [{"type": "text", "text": long}]}}),
            json!({"type": "custom_message", "customType": "advisor", "content": long,
                "details": {"notes": [{"note": "n", "advisor": "a", "severity": "high"}], "x": long}}),
            json!({"type": "branch_summary", "summary": long, "fromId": "a"}),
            json!({"type": "compaction", "tokensBefore": 12345, "summary": long}),
            json!({"type": "archive", "targetId": 7, "archived": true}),
            json!({"type": "ttsr_injection", "injectedRules": ["a", "b"]}),
            json!({"type": 5, "id": "x"}),
            json!({"id": "x"}),
        ] {
            check(&entry).unwrap();
        }
    }

    #[test]
    fn lines_the_scanner_does_not_take_are_parsed_in_full() {
        assert_eq!(row_value(&mut Scanner::new(), b"[1]"), None);
        assert_eq!(row_value(&mut Scanner::new(), b"{\"type\":"), None);
        assert_eq!(row_value(&mut Scanner::new(), b"{\"type\":\"\xff\"}"), None);
    }

    /// Text that is long, or blank for a long stretch, or both.
    fn arb_text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z \\n\\t]{0,20}",
            ("[ \\n\\t\u{a0}]{190,230}", "[a-z ]{0,5}").prop_map(|(a, b)| a + &b),
            "[a-zé \\n]{150,260}",
        ]
    }

    fn arb_args() -> impl Strategy<Value = Value> {
        let scalar = prop_oneof![
            arb_text().prop_map(Value::String),
            any::<i32>().prop_map(Value::from),
            Just(Value::Null),
        ];
        let key = prop_oneof![
            Just("path"),
            Just("file_path"),
            Just("offset"),
            Just("limit"),
            Just("command"),
            Just("pattern"),
            Just("paths"),
            Just("other"),
            Just("a"),
        ];
        let value = scalar.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec(("[a-z]{0,3}", inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        });
        prop_oneof![
            4 => proptest::collection::vec((key, value.clone()), 0..5).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
            1 => value,
        ]
    }

    fn arb_block() -> impl Strategy<Value = Value> {
        let name = prop_oneof![
            Just("read"),
            Just("write"),
            Just("edit"),
            Just("bash"),
            Just("grep"),
            Just("glob"),
            Just("ls"),
            Just("task"),
            Just(""),
        ];
        prop_oneof![
            arb_text().prop_map(|t| json!({"type": "text", "text": t})),
            arb_text().prop_map(|t| json!({"type": "thinking", "thinking": t})),
            (prop_oneof![Just("c1"), Just("c2"), Just("c3")], name, arb_args()).prop_map(
                |(id, name, args)| json!({"type": "toolCall", "id": id, "name": name, "arguments": args})
            ),
            Just(json!({"type": "text", "text": 5})),
            Just(json!("loose")),
        ]
    }

    fn arb_entry() -> impl Strategy<Value = Value> {
        let role = prop_oneof![
            Just("user"),
            Just("assistant"),
            Just("toolResult"),
            Just("developer"),
            Just("bashExecution"),
            Just("custom"),
        ];
        let content = prop_oneof![
            arb_text().prop_map(Value::String),
            proptest::collection::vec(arb_block(), 0..4).prop_map(Value::Array),
            Just(json!({"text": "obj"})),
        ];
        let stop = prop_oneof![
            Just(json!("stop")),
            Just(json!("toolUse")),
            Just(json!("error")),
            Just(json!("aborted")),
            Just(json!(null))
        ];
        prop_oneof![
            (role, content.clone(), stop, arb_text(), any::<bool>()).prop_map(
                |(role, content, stop, text, user)| json!({"type": "message", "id": "e",
                    "timestamp": "2026-01-01T00:00:00.000Z",
                    "message": {"role": role, "content": content, "stopReason": stop,
                        "toolCallId": "c1", "toolName": "read", "command": text,
                        "errorMessage": text, "customType": "skill-prompt",
                        "attribution": if user { "user" } else { "agent" },
                        "usage": {"input": 1}, "details": {"diff": text}}})
            ),
            (content, arb_text()).prop_map(|(content, text)| json!({"type": "custom_message",
                "customType": "skill-prompt", "attribution": "user", "content": content,
                "details": {"notes": [{"note": text}]}})),
            arb_text().prop_map(|t| json!({"type": "branch_summary", "summary": t})),
        ]
    }

    proptest! {
        #[test]
        fn rows_are_the_same_as_from_the_full_value(entry in arb_entry()) {
            check(&entry)?;
        }
    }
}
