//! The gist of a user, assistant or tool-result `message` line read straight from the line,
//! without its row value: nearly every line of the agents' files is one of these, and building
//! the row value, then reading it back member by member, cost about as much as loading the line.
//!
//! Only the usual shape is read here: the keys rows read written once and without escapes, a
//! string `role` before the `content`, string values where rows read strings. Anything else (or
//! a line that is not valid) gives `None`, and the caller reads the line through its row value,
//! which reads every shape. What this reads, it reads as the row value does, with the same
//! functions where they cut or decode (`cut_text`, `arguments`), so a line it takes is one the
//! row value takes too, to the same gist and envelope; the row functions of [`crate::row::text`] are
//! shared by both. Differential tests hold the two together.

use std::borrow::Cow;

use super::{ArenaVec, Bump, TEXT_LIMIT, arguments, cut_text, word};
use crate::format::Envelope;
use crate::json::scan::{Invalid, Line, Scan};
use crate::row::gist::{Gist, Parts};
use crate::row::text::{
    ASSISTANT, Facts, ToolCalls, assistant_row, ended_normally, into_one_row, text_row,
    tool_name_row,
};

/// The gist and the envelope of a `message` line (already indexed) whose role is `user`,
/// `assistant` or `toolResult`, in the usual shape; `None` for any other line. `none` holds no
/// calls: it gives the home directory that paths are shortened under.
pub(crate) fn message_gist<'a>(
    line: &Line<'a, '_>,
    stack: &mut Vec<bool>,
    none: &ToolCalls,
    arena: &Bump,
) -> Option<(Gist, Envelope<'a>)> {
    let start = line.ws(0);
    if line.at(start) != Some(b'{') {
        return None;
    }
    // The line's members for its envelope, as the row's walk gives them.
    let mut members: ArenaVec<'_, (&[u8], usize, usize)> = ArenaVec::with_capacity_in(8, arena);
    let mut message = None;
    let end = line
        .object(start, |line, span, value| {
            let key = plain_key(line, span)?;
            // Another type (or one written another way) is the row value's: the rest of the
            // line is not walked for nothing.
            if key == b"type" && line.bytes.get(value..value + 9) != Some(b"\"message\"") {
                return Err(Invalid);
            }
            let end = if key == b"message" {
                if message.is_some() || line.at(value) != Some(b'{') {
                    return Err(Invalid);
                }
                let (read, end) = read_message(line, value, stack, none, arena)?;
                message = Some(read);
                end
            } else {
                line.skip_value(value, stack)?
            };
            members.push((key, value, end));
            Ok(end)
        })
        .ok()?;
    line.end(end).ok()?;
    let written = |key: &[u8]| members.iter().filter(|m| m.0 == key).count();
    if written(b"type") != 1 || written(b"timestamp") > 1 {
        return None;
    }
    let envelope = Envelope::from_members(line, members.iter().copied()).ok()?;
    // A `timestamp` that is not a string is kept as a value: the row value's way.
    if envelope.kind.as_deref() != Some("message")
        || (written(b"timestamp") == 1 && envelope.timestamp.is_none())
    {
        return None;
    }
    let Message { role, content, stop_reason, error_message, tool_call_id, tool_name } = message?;
    let role = role?;
    let (text, silent, answers) = match role.as_ref() {
        "user" => (text_row("user: ", &content.text), false, None),
        "assistant" => {
            let stop_reason = stop_reason.as_deref();
            let text = text_row(ASSISTANT, &content.text);
            let silent = ended_normally(stop_reason) && !content.has_text;
            (assistant_row(text, false, stop_reason, error_message.as_deref()), silent, None)
        }
        "toolResult" => (tool_name_row(tool_name.as_deref()), false, tool_call_id.as_deref()),
        _ => return None,
    };
    // A message is no setting, and a user's message is a request.
    let facts = Facts::new(silent, false, role == "toolResult", role == "user");
    let gist = Gist::new(Parts {
        facts,
        text: into_one_row(text),
        kind: Some("message"),
        time: envelope.timestamp.as_deref(),
        answers,
        calls: &content.calls,
    });
    Some((gist, envelope))
}

/// The members of a message that its row reads.
#[derive(Default)]
struct Message<'a> {
    role: Option<Cow<'a, str>>,
    content: Content<'a>,
    stop_reason: Option<Cow<'a, str>>,
    error_message: Option<Cow<'a, str>>,
    tool_call_id: Option<Cow<'a, str>>,
    tool_name: Option<Cow<'a, str>>,
}

/// What a row reads of message content.
#[derive(Default)]
struct Content<'a> {
    /// The text: the string, or the text blocks' texts one after another, each cut as the row
    /// value cuts it.
    text: Cow<'a, str>,
    /// Whether any of it is not whitespace.
    has_text: bool,
    /// An assistant's tool calls: each call's id and its result's row, folded.
    calls: Vec<(Cow<'a, str>, String)>,
}

/// A key as written, which must have no escapes (a key with one is read by the row value).
fn plain_key<'a>(line: &Line<'a, '_>, span: (usize, usize)) -> Scan<&'a [u8]> {
    let key = line.bytes.get(span.0..span.1).ok_or(Invalid)?;
    if line.has_backslash(span) { Err(Invalid) } else { Ok(key) }
}

/// The string at `start`, decoded, and the position after it; not a string fails (at
/// `string_end`, which takes only an opening quote).
fn string<'a>(line: &Line<'a, '_>, start: usize) -> Scan<(Cow<'a, str>, usize)> {
    let end = line.string_end(start)? + 1;
    Ok((string_in(line, (start, end))?, end))
}

/// The string that spans `(start, end)` with its quotes, decoded; not a string fails. The
/// words that fill nearly every line (roles, block types) are not checked for UTF-8, as in the
/// row value.
fn string_in<'a>(line: &Line<'a, '_>, (start, end): (usize, usize)) -> Scan<Cow<'a, str>> {
    if line.at(start) != Some(b'"') {
        return Err(Invalid);
    }
    let span = (start + 1, end.saturating_sub(1));
    let raw = line.bytes.get(span.0..span.1).ok_or(Invalid)?;
    Ok(match word(raw) {
        Some(word) => Cow::Borrowed(word),
        None => line.text(span)?,
    })
}

/// The `message` object at `start` and the position after it.
fn read_message<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    none: &ToolCalls,
    arena: &Bump,
) -> Scan<(Message<'a>, usize)> {
    let mut m = Message::default();
    let mut has_content = false;
    let end = line.object(start, |line, span, value| {
        let slot = match plain_key(line, span)? {
            b"role" => &mut m.role,
            b"stopReason" => &mut m.stop_reason,
            b"errorMessage" => &mut m.error_message,
            b"toolCallId" => &mut m.tool_call_id,
            b"toolName" => &mut m.tool_name,
            b"content" if !has_content => {
                has_content = true;
                // The role says how content is read: it must come first, as the agents write it.
                let (content, end) = match m.role.as_deref().ok_or(Invalid)? {
                    "user" => read_content(line, value, stack, None, arena)?,
                    "assistant" => read_content(line, value, stack, Some(none), arena)?,
                    // A tool result's content is read by no row.
                    "toolResult" => (Content::default(), line.skip_value(value, stack)?),
                    _ => return Err(Invalid),
                };
                m.content = content;
                return Ok(end);
            }
            // Read by the rows of other roles, or of a retried attempt; or written twice.
            b"command" | b"customType" | b"attribution" | b"retryRecovery" | b"content" => {
                return Err(Invalid);
            }
            _ => return line.skip_value(value, stack),
        };
        if slot.is_some() {
            return Err(Invalid);
        }
        let (text, end) = string(line, value)?;
        *slot = Some(text);
        Ok(end)
    })?;
    Ok((m, end))
}

/// Message content at `start` and the position after it: a string, or blocks of which the text
/// blocks are read, and with `calls` (an assistant's), the tool calls as `calls` shows them.
/// Content of another shape has no text.
fn read_content<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    calls: Option<&ToolCalls>,
    arena: &Bump,
) -> Scan<(Content<'a>, usize)> {
    let mut content = Content::default();
    let end = match line.at(start) {
        Some(b'"') => {
            let close = line.string_end(start)?;
            content.text = cut_text(line, (start + 1, close))?;
            content.has_text = !content.text.trim().is_empty();
            close + 1
        }
        Some(b'[') => line.array(start, |line, at| {
            if line.at(at) != Some(b'{') {
                // Only objects are read as blocks.
                return line.skip_value(at, stack);
            }
            read_block(line, at, stack, calls, arena, &mut content)
        })?,
        _ => line.skip_value(start, stack)?,
    };
    Ok((content, end))
}

/// The content block at `start` (an object): its text onto `content`'s, or its tool call onto
/// its calls; the position after it.
fn read_block<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    calls: Option<&ToolCalls>,
    arena: &Bump,
    content: &mut Content<'a>,
) -> Scan<usize> {
    // The spans of `type`, `text`, `id`, `name` and `arguments`.
    let mut spans = [None; 5];
    let end = line.object(start, |line, span, value| {
        let end = line.skip_value(value, stack)?;
        let slot = match plain_key(line, span)? {
            b"type" => 0,
            b"text" => 1,
            b"id" => 2,
            b"name" => 3,
            b"arguments" => 4,
            _ => return Ok(end),
        };
        if spans[slot].replace((value, end)).is_some() {
            return Err(Invalid);
        }
        Ok(end)
    })?;
    let [kind, text, id, name, args] = spans;
    let kind = kind.map(|span| string_in(line, span)).transpose()?;
    // The row value decodes a block's string `name` whatever the block.
    let name = name.map_or(Ok(Cow::Borrowed("")), |span| string_in(line, span))?;
    match kind.as_deref() {
        Some("text") => {
            if let Some((at, end)) = text.filter(|&(at, _)| line.at(at) == Some(b'"')) {
                let text = cut_text(line, (at + 1, end - 1))?;
                content.has_text |= !text.trim().is_empty();
                match &mut content.text {
                    Cow::Borrowed("") => content.text = text,
                    // The row shows the first `TEXT_LIMIT` characters of the joined text, which
                    // `4 * TEXT_LIMIT` bytes hold: a line of a million blocks joins no more.
                    joined if joined.len() >= 4 * TEXT_LIMIT => {}
                    joined => joined.to_mut().push_str(&text),
                }
            }
        }
        Some("toolCall") => {
            // A user's tool call is read by no row, but the row value reads it.
            let calls = calls.ok_or(Invalid)?;
            let id = string_in(line, id.ok_or(Invalid)?)?;
            let shown = match args {
                Some((at, end)) => {
                    calls.describe_call(&name, &arguments(line, &name, at, end, stack, arena)?)
                }
                None => calls.describe_call(&name, &serde_json::Value::Object(Default::default())),
            };
            content.calls.push((id, into_one_row(shown)));
        }
        _ => {}
    }
    Ok(end)
}
