//! An entry's grep text, read off its scanned line: the strings of it a person reads, as spans
//! of the line, decoded only when the prefilter finds something in their raw bytes.

use std::borrow::Cow;

use super::Scope;
use crate::format::Kind;
use crate::json::pick::{Member, is_marked, members};
use crate::json::scan::{Invalid, Line, Scan};

/// How deep under a tool call's arguments strings are looked for: deeper than serde_json reads.
const MAX_DEPTH: usize = 128;

/// An entry as grep sees it: its role, its id and time, and its grep text.
#[derive(Debug)]
pub(super) struct Grepped<'a> {
    pub id: Option<Cow<'a, str>>,
    pub role: Cow<'a, str>,
    pub timestamp: Option<Cow<'a, str>>,
    /// The spans of the strings searched (between their quotes), each on its own.
    pub parts: Vec<(usize, usize)>,
}

/// The last member named `key` (serde_json keeps the last of duplicates).
fn field<'m, 'a>(members: &'m [Member<'a>], key: &str) -> Option<&'m Member<'a>> {
    members.iter().rev().find(|m| &*m.key == key.as_bytes())
}

/// The span of a member's value when it is a string.
fn span(line: &Line<'_, '_>, member: Option<&Member<'_>>) -> Option<(usize, usize)> {
    let m = member?;
    (line.at(m.start) == Some(b'"')).then_some((m.start + 1, m.end - 1))
}

/// A member's value decoded, when it is a string.
fn text<'a>(line: &Line<'a, '_>, member: Option<&Member<'a>>) -> Scan<Option<Cow<'a, str>>> {
    span(line, member).map(|s| line.text(s)).transpose()
}

/// The members of a member's value when it is an object.
fn object<'a>(
    line: &Line<'a, '_>,
    member: Option<&Member<'a>>,
    stack: &mut Vec<bool>,
) -> Scan<Option<Vec<Member<'a>>>> {
    match member {
        Some(m) if line.at(m.start) == Some(b'{') => {
            if is_marked(line, m.start) {
                return Err(Invalid);
            }
            Ok(Some(members(line, m.start, stack)?.0))
        }
        _ => Ok(None),
    }
}

/// The members of each object element of a member's value when it is an array (the blocks of
/// a content field); other elements are left out.
fn blocks<'a>(
    line: &Line<'a, '_>,
    member: Option<&Member<'a>>,
    stack: &mut Vec<bool>,
) -> Scan<Vec<Vec<Member<'a>>>> {
    let mut starts = Vec::new();
    if let Some(m) = member
        && line.at(m.start) == Some(b'[')
    {
        line.array(m.start, |line, at| {
            starts.push(at);
            line.skip_value(at, stack)
        })?;
    }
    let objects =
        starts.into_iter().filter(|&at| line.at(at) == Some(b'{') && !is_marked(line, at));
    objects.map(|at| Ok(members(line, at, stack)?.0)).collect()
}

impl<'a> Grepped<'a> {
    /// The grep text of the entry on `line` in `scope`; `None` when it is out of it; `Err`
    /// where the scan does not take the line (the caller reads it in full).
    pub(super) fn of(
        line: &Line<'a, '_>,
        stack: &mut Vec<bool>,
        scope: &Scope,
    ) -> Scan<Option<Grepped<'a>>> {
        let start = line.ws(0);
        if line.at(start) != Some(b'{') || is_marked(line, start) {
            return Err(Invalid);
        }
        let (top, end) = members(line, start, stack)?;
        line.end(end)?;
        let Some(kind) = text(line, field(&top, "type"))? else { return Ok(None) };
        if !scope.types.is_empty() && !scope.types.iter().any(|t| *t == kind) {
            return Ok(None);
        }
        let timestamp = text(line, field(&top, "timestamp"))?;
        if scope.since.is_some() || scope.until.is_some() {
            let Some(time) = timestamp.as_deref().and_then(crate::clock::parse_timestamp) else {
                return Ok(None);
            };
            if scope.since.is_some_and(|s| time < s) || scope.until.is_some_and(|u| time >= u) {
                return Ok(None);
            }
        }
        let mut parts = Vec::new();
        let role: Cow<'a, str> = match Kind::from_name(&kind) {
            Kind::Message => {
                let Some(message) = object(line, field(&top, "message"), stack)? else {
                    return Ok(None);
                };
                let role = text(line, field(&message, "role"))?.unwrap_or(Cow::Borrowed("message"));
                parts_of_message(line, &message, &role, &scope.tools, stack, &mut parts)?;
                match &*role {
                    "toolResult" => Cow::Borrowed("tool"),
                    "bashExecution" => Cow::Borrowed("bash"),
                    _ => role,
                }
            }
            Kind::CustomMessage if scope.tools.is_empty() => {
                content_text(line, field(&top, "content"), stack, &mut parts)?;
                kind
            }
            Kind::Compaction | Kind::BranchSummary if scope.tools.is_empty() => {
                parts.extend(span(line, field(&top, "summary")));
                kind
            }
            // Out of a `--tool` search, or kinds without text a person reads: settings,
            // bookkeeping and opaque kinds. (A kind of the conversation's classes has an arm
            // above: `Kind::class`.)
            _ => return Ok(None),
        };
        if !scope.roles.is_empty() && !scope.roles.iter().any(|r| *r == role) {
            return Ok(None);
        }
        if parts.is_empty() {
            return Ok(None);
        }
        let id = text(line, field(&top, "id"))?;
        Ok(Some(Grepped { id, role, timestamp, parts }))
    }
}

/// The grep text of a message of `role`, limited to calls of `tools` and their results when
/// some are named.
fn parts_of_message<'a>(
    line: &Line<'a, '_>,
    message: &[Member<'a>],
    role: &str,
    tools: &[String],
    stack: &mut Vec<bool>,
    parts: &mut Vec<(usize, usize)>,
) -> Scan<()> {
    let wanted =
        |name: Option<&str>| tools.is_empty() || name.is_some_and(|n| tools.iter().any(|t| t == n));
    match role {
        "toolResult" => {
            if wanted(text(line, field(message, "toolName"))?.as_deref()) {
                content_text(line, field(message, "content"), stack, parts)?;
            }
            // The calls the tool made itself (pi 1.6.0), searched as the model's calls are,
            // with their error text.
            let nested = object(line, field(message, "nestedCalls"), stack)?.unwrap_or_default();
            for call in blocks(line, field(&nested, "calls"), stack)? {
                if wanted(text(line, field(&call, "name"))?.as_deref()) {
                    if let Some(args) = field(&call, "arguments") {
                        string_leaves(line, args.start, stack, parts)?;
                    }
                    parts.extend(span(line, field(&call, "error")));
                }
            }
        }
        "bashExecution" => {
            if wanted(Some("bash")) {
                parts.extend(span(line, field(message, "command")));
                parts.extend(span(line, field(message, "output")));
            }
        }
        _ => {
            let content = field(message, "content");
            if tools.is_empty() {
                parts.extend(span(line, content));
            }
            for block in blocks(line, content, stack)? {
                match text(line, field(&block, "type"))?.as_deref() {
                    Some("toolCall") if wanted(text(line, field(&block, "name"))?.as_deref()) => {
                        if let Some(args) = field(&block, "arguments") {
                            string_leaves(line, args.start, stack, parts)?;
                        }
                    }
                    Some("text") if tools.is_empty() => {
                        parts.extend(span(line, field(&block, "text")));
                    }
                    Some("thinking") if tools.is_empty() => {
                        parts.extend(span(line, field(&block, "thinking")));
                    }
                    _ => {}
                }
            }
            if tools.is_empty() {
                parts.extend(span(line, field(message, "errorMessage")));
            }
        }
    }
    Ok(())
}

/// The text of a content field: a string, or the `text` of its text blocks.
fn content_text(
    line: &Line<'_, '_>,
    content: Option<&Member<'_>>,
    stack: &mut Vec<bool>,
    parts: &mut Vec<(usize, usize)>,
) -> Scan<()> {
    parts.extend(span(line, content));
    for block in blocks(line, content, stack)? {
        if text(line, field(&block, "type"))?.as_deref() == Some("text") {
            parts.extend(span(line, field(&block, "text")));
        }
    }
    Ok(())
}

/// The spans of the strings under the value at `start`, keys left out, in order, without
/// recursion; a value nested deeper than [`MAX_DEPTH`] is not taken.
fn string_leaves(
    line: &Line<'_, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    parts: &mut Vec<(usize, usize)>,
) -> Scan<()> {
    let mut work = vec![(start, 0usize)];
    while let Some((at, depth)) = work.pop() {
        if depth > MAX_DEPTH {
            return Err(Invalid);
        }
        match line.at(at) {
            Some(b'"') => parts.push((at + 1, line.skip_value(at, stack)? - 1)),
            Some(b'{') => {
                if is_marked(line, at) {
                    return Err(Invalid);
                }
                let inner = members(line, at, stack)?.0;
                work.extend(inner.iter().rev().map(|m| (m.start, depth + 1)));
            }
            Some(b'[') => {
                let mut inner = Vec::new();
                line.array(at, |line, at| {
                    inner.push(at);
                    line.skip_value(at, stack)
                })?;
                work.extend(inner.into_iter().rev().map(|at| (at, depth + 1)));
            }
            _ => {}
        }
    }
    Ok(())
}
