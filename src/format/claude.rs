//! Claude Code transcripts (`~/.claude/projects/<encoded cwd>/<session id>.jsonl`) read as
//! sessions: each record is written again as the entries sesstree reads ([`transcode`]), so
//! every read command reads such a file through its usual code.
//!
//! Messages become what oh-my-pi 18.2.3's importer makes of them
//! (`src/session/claude-session-store.ts`, `convertRecord`): assistant content as text,
//! thinking and tool-call blocks; a user record's content split into user messages and one
//! `toolResult` message per `tool_result` block. Unlike that importer, which keeps only what it
//! can continue, the tree keeps every record with a `uuid`:
//!
//! - a record's entry has the record's `uuid` as its id (a record that makes several messages
//!   gives the later ones `<uuid>.2`, `<uuid>.3`…), and hangs from `parentUuid`, through the
//!   last message its parent made;
//! - a compaction's `compact_boundary` (`parentUuid: null`) hangs from its
//!   `logicalParentUuid`, and the summary after it (`isCompactSummary`) is a `compaction`
//!   entry that keeps nothing before it;
//! - sidechains (`isSidechain`, subagents) are drawn where they hang;
//! - `isMeta` user records are hidden `custom_message`s (`claude-meta`); other records with a
//!   `uuid` (`system`, `attachment`, `progress`, records of types sesstree does not know,
//!   messages without content) are `custom` entries of type `claude:<type>` (and
//!   `:<subtype>` when the record has one) holding the record;
//! - records without `uuid` (`summary`, `last-prompt`, `custom-title`, `ai-title`,
//!   `file-history-snapshot`) make no entry: the title is read from them.
//!
//! The leaf is oh-my-pi's importer's: the last message of the last main-chain record that
//! makes one (not a sidechain, not `isMeta`), in file order. Claude Code's own `--resume`
//! picks the branch otherwise, and picks stale ones (anthropics/claude-code#48270); the last
//! record written is where the user was.

use serde_json::{Map, Value, json};

use super::transcript::{Imported, Transcoded, each_record, records};

/// The record types Claude Code writes without a `uuid`, which say it is a transcript even
/// when a file starts with one.
const UNCHAINED_TYPES: &[&str] = &[
    "summary",
    "file-history-snapshot",
    "custom-title",
    "ai-title",
    "last-prompt",
    "queue-operation",
];

/// Whether a file whose first record is `record` is a Claude Code transcript: not a header of
/// the agents (`type: "session"`, pi's lane header) but a record of Claude Code's.
pub fn is_transcript(record: &Map<String, Value>) -> bool {
    let kind = record.get("type").and_then(Value::as_str);
    if kind == Some("session") || kind.is_none() {
        return false;
    }
    ["uuid", "sessionId", "leafUuid"].iter().any(|key| record.contains_key(*key))
        || kind.is_some_and(|k| UNCHAINED_TYPES.contains(&k))
}

/// The text of member `key` of `record`, when it is a non-empty string.
fn text<'a>(record: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    record.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Writes the transcript `input` (JSONL) as a session: see the module docs. The records are
/// read in one pass, each dropped once its entries are written.
pub fn transcode(input: &[u8]) -> Transcoded {
    let mut entries_out = Transcoded::default();
    entries_out.bytes.reserve(input.len());
    // What the header says: the first session id, time and cwd a record names, the titles.
    let (mut session_id, mut time, mut cwd) = (None, None, None);
    let (mut custom_title, mut ai_title) = (None, None);
    let mut first_line = None;
    // The last entry each record made, by the record's uuid: what its children hang from.
    let mut tails: std::collections::HashMap<String, String> = Default::default();
    let mut tool_names: std::collections::HashMap<String, String> = Default::default();
    // The tokens before each compaction, by the uuid of its `compact_boundary`.
    let mut pre_tokens: std::collections::HashMap<String, Value> = Default::default();
    // The last message of any user or assistant record: the leaf of a file of sidechains.
    let mut last_message = None;
    each_record(input, |line, record| {
        first_line.get_or_insert(line);
        let own = |key| text(&record, key).map(str::to_owned);
        session_id = session_id.take().or_else(|| own("sessionId"));
        time = time.take().or_else(|| own("timestamp"));
        cwd = cwd.take().or_else(|| own("cwd"));
        match text(&record, "type") {
            Some("custom-title") => custom_title = own("customTitle").or(custom_title.take()),
            Some("ai-title") => ai_title = own("aiTitle").or(ai_title.take()),
            _ => {}
        }
        let Some(uuid) = own("uuid") else { return };
        if let Some(tokens) = record.get("compactMetadata").and_then(|m| m.get("preTokens")) {
            pre_tokens.insert(uuid.clone(), tokens.clone());
        }
        let parent = text(&record, "parentUuid").or_else(|| text(&record, "logicalParentUuid"));
        let mut previous = parent.map(|p| tails.get(p).map_or(p, String::as_str).to_owned());
        let bodies = entries(&record, &mut tool_names);
        let continues = continues_main_chain(&record, &bodies);
        let mut id = uuid.clone();
        for (n, mut body) in bodies.into_iter().enumerate() {
            if n > 0 {
                id = format!("{uuid}.{}", n + 1);
            }
            let mut entry = Map::new();
            entry.insert("type".into(), body.remove("type").unwrap_or(Value::Null));
            entry.insert("id".into(), json!(id));
            entry.insert("parentId".into(), json!(previous));
            if let Some(ts) = record.get("timestamp") {
                entry.insert("timestamp".into(), ts.clone());
            }
            if entry["type"] == "compaction" {
                body.insert("firstKeptEntryId".into(), json!(id));
                if let Some(tokens) = text(&record, "parentUuid").and_then(|p| pre_tokens.get(p)) {
                    body.insert("tokensBefore".into(), tokens.clone());
                }
            }
            entry.append(&mut body);
            entries_out.push(&Value::Object(entry), line);
            previous = Some(id.clone());
        }
        if continues {
            entries_out.leaf = Some(id.clone());
        }
        if matches!(text(&record, "type"), Some("user" | "assistant")) {
            last_message = Some(id.clone());
        }
        tails.insert(uuid, id);
    });

    let mut header = json!({
        "type": "session",
        "version": crate::format::WRITE_VERSION,
        "id": session_id.unwrap_or_default(),
        "timestamp": time.unwrap_or_default(),
        "cwd": cwd.unwrap_or_default(),
    });
    // oh-my-pi's importer's title rule: `custom-title`, else `ai-title`.
    let title = custom_title.map(|t| (t, "user")).or(ai_title.map(|t| (t, "auto")));
    if let Some((title, source)) = title {
        header["title"] = json!(title);
        header["titleSource"] = json!(source);
    }
    // The header goes in front of the entries, in the room their buffer has spare.
    let mut out = entries_out;
    let mut header_line = header.to_string().into_bytes();
    header_line.push(b'\n');
    out.bytes.splice(0..0, header_line);
    out.lines.insert(0, first_line.unwrap_or(1));
    out.leaf = out.leaf.or(last_message);
    out
}

/// The entries oh-my-pi's importer makes of `input`: every main-chain user and assistant record
/// that converts to a message (sidechains, `isMeta` records and other types make none), with the
/// ids `claude-<uuid>-<suffix>-<count>`, parents resolved through the records that made
/// nothing, and a `model_change` before an assistant message whose model differs from the last
/// one. `fallback_ms` is the time of a record without a readable one (oh-my-pi takes the
/// file's modification time). The entries have the shapes of `to`: oh-my-pi's `model_change`
/// names `provider/model`, pi's has `provider` and `modelId` (pi 1.6.0's
/// `appendModelChange`); the others are the same for both.
pub fn import(input: &[u8], fallback_ms: i64, to: super::Dialect) -> Imported {
    use crate::naming::TitleSource;
    let records = records(input);
    let mut imported = Imported::default();
    let mut source_parents: std::collections::HashMap<&str, Option<&str>> = Default::default();
    let (mut custom, mut ai) = (None, None);
    for (_, record) in &records {
        if let Some(uuid) = text(record, "uuid") {
            source_parents.insert(uuid, text(record, "parentUuid"));
        }
        if imported.cwd.is_none() {
            imported.cwd = text(record, "cwd").map(str::to_owned);
        }
        match text(record, "type") {
            Some("custom-title") => custom = text(record, "customTitle").or(custom),
            Some("ai-title") => ai = text(record, "aiTitle").or(ai),
            _ => {}
        }
    }
    imported.title = custom
        .map(|t| (t, TitleSource::User))
        .or(ai.map(|t| (t, TitleSource::Auto)))
        .and_then(|(t, source)| Some((crate::naming::clean_name(t)?, source)));

    let mut tails: std::collections::HashMap<String, String> = Default::default();
    let mut used: std::collections::HashSet<String> = Default::default();
    let mut tool_names = Default::default();
    let mut last_model: Option<&str> = None;
    let mut count = 0;
    // The last entry made: the leaf.
    let mut last = None;
    let resolve = |tails: &std::collections::HashMap<String, String>, from: Option<&str>| {
        let mut seen = std::collections::HashSet::new();
        let mut cursor = from;
        while let Some(at) = cursor.filter(|at| seen.insert(*at)) {
            if let Some(tail) = tails.get(at) {
                return Some(tail.clone());
            }
            cursor = source_parents.get(at).copied().flatten();
        }
        None
    };
    let mut unique = |base: String| {
        let mut id = base.clone();
        let mut n = 2;
        while used.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        used.insert(id.clone());
        id
    };
    for (line, record) in &records {
        let is = |key: &str| record.get(key) == Some(&Value::Bool(true));
        let Some(message) = record.get("message").and_then(Value::as_object) else { continue };
        if is("isSidechain") || is("isMeta") {
            continue;
        }
        let converted = match text(record, "type") {
            Some("assistant") => assistant(record, message, &mut tool_names)
                .map(|m| ("message".to_owned(), m))
                .into_iter()
                .collect(),
            Some("user") => user(message, record, &tool_names),
            _ => continue,
        };
        if converted.is_empty() {
            continue;
        }
        let source = text(record, "uuid").map_or_else(|| format!("line-{line}"), str::to_owned);
        let mut parent = resolve(&tails, text(record, "parentUuid"));
        let ms = record
            .get("timestamp")
            .and_then(|t| match t {
                Value::Number(n) => n.as_f64().map(|n| n as i64),
                Value::String(s) => crate::clock::parse_timestamp(s),
                _ => None,
            })
            .unwrap_or(fallback_ms);
        let timestamp = crate::clock::format_iso_millis(ms);
        let model = text(message, "model").filter(|_| text(record, "type") == Some("assistant"));
        if let Some(model) = model.filter(|m| Some(*m) != last_model) {
            let id = unique(format!("claude-{source}-model"));
            imported.entries.push(match to {
                super::Dialect::Omp => json!({"type": "model_change", "id": id,
                    "parentId": parent, "timestamp": timestamp,
                    "model": format!("anthropic/{model}")}),
                super::Dialect::Pi => json!({"type": "model_change", "id": id,
                    "parentId": parent, "timestamp": timestamp,
                    "provider": "anthropic", "modelId": model}),
            });
            parent = Some(id);
            last_model = Some(model);
        }
        for (suffix, mut message) in converted {
            count += 1;
            let id = unique(format!("claude-{source}-{suffix}-{count}"));
            // oh-my-pi times a message by the record, or by the file when it has no time.
            message["timestamp"] = json!(ms);
            imported.entries.push(json!({"type": "message", "id": id, "parentId": parent,
                "timestamp": timestamp, "message": message}));
            parent = Some(id);
        }
        if let Some(parent) = parent {
            last = Some(parent.clone());
            tails.insert(source, parent);
        }
    }
    imported.leaf = last;
    imported.ids = used;
    imported
}

/// Whether a record is one oh-my-pi's importer continues from: a main-chain message that
/// converts to one at least.
fn continues_main_chain(record: &Map<String, Value>, bodies: &[Map<String, Value>]) -> bool {
    let is = |key: &str| record.get(key) == Some(&Value::Bool(true));
    matches!(text(record, "type"), Some("user" | "assistant"))
        && !is("isSidechain")
        && !is("isMeta")
        && bodies.first().is_some_and(|b| b.get("type") != Some(&json!("custom")))
}

/// The entries (without id, parent and timestamp) a record with a `uuid` makes, in order.
fn entries(
    record: &Map<String, Value>,
    tool_names: &mut std::collections::HashMap<String, String>,
) -> Vec<Map<String, Value>> {
    let message = record.get("message").and_then(Value::as_object);
    let is = |key: &str| record.get(key) == Some(&Value::Bool(true));
    let wrap = |message: Value| object(json!({"type": "message", "message": message}));
    let converted = match (text(record, "type"), message) {
        (Some("assistant"), Some(message)) => {
            assistant(record, message, tool_names).map(wrap).into_iter().collect()
        }
        (Some("user"), Some(message)) if is("isCompactSummary") => {
            // Nothing before it is kept: `firstKeptEntryId` is its own id (CHANGES R2), set
            // where the id is given.
            let summary = user_content(message.get("content")).map(|content| match content {
                Value::String(s) => s,
                parts => parts
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect(),
            });
            summary.map_or_else(Vec::new, |summary| {
                vec![object(json!({"type": "compaction", "summary": summary, "tokensBefore": 0}))]
            })
        }
        (Some("user"), Some(message)) if is("isMeta") => user_content(message.get("content"))
            .map(|content| {
                object(json!({"type": "custom_message", "customType": "claude-meta",
                    "content": content, "display": false}))
            })
            .into_iter()
            .collect(),
        (Some("user"), Some(message)) => {
            user(message, record, tool_names).into_iter().map(|(_, m)| wrap(m)).collect()
        }
        _ => Vec::new(),
    };
    if !converted.is_empty() {
        return converted;
    }
    let kind = match (text(record, "type"), text(record, "subtype")) {
        (Some(kind), Some(subtype)) => format!("claude:{kind}:{subtype}"),
        (kind, _) => format!("claude:{}", kind.unwrap_or("record")),
    };
    vec![object(json!({"type": "custom", "customType": kind, "data": record}))]
}

/// The members of an object built here.
fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The record's time in milliseconds, as the agents' messages carry it.
fn millis(record: &Map<String, Value>) -> Value {
    record
        .get("timestamp")
        .and_then(Value::as_str)
        .and_then(crate::clock::parse_timestamp)
        .map_or(Value::Null, |ms| json!(ms))
}

/// An assistant record's message (oh-my-pi's `convertRecord`); none without content or error.
fn assistant(
    record: &Map<String, Value>,
    message: &Map<String, Value>,
    tool_names: &mut std::collections::HashMap<String, String>,
) -> Option<Value> {
    let mut content = Vec::new();
    for block in message.get("content").and_then(Value::as_array).into_iter().flatten() {
        let Some(block) = block.as_object() else { continue };
        match block.get("type").and_then(Value::as_str) {
            Some("text") if block.get("text").is_some_and(Value::is_string) => {
                content.push(json!({"type": "text", "text": block["text"]}));
            }
            Some("thinking") if block.get("thinking").is_some_and(Value::is_string) => {
                let mut thinking = json!({"type": "thinking", "thinking": block["thinking"]});
                if let Some(signature) = block.get("signature").filter(|s| s.is_string()) {
                    thinking["thinkingSignature"] = signature.clone();
                }
                content.push(thinking);
            }
            Some("tool_use") => {
                let (Some(id), Some(name)) = (text(block, "id"), text(block, "name")) else {
                    continue;
                };
                let arguments = block.get("input").filter(|i| i.is_object()).cloned();
                content.push(json!({"type": "toolCall", "id": id, "name": name,
                    "arguments": arguments.unwrap_or_else(|| json!({}))}));
                tool_names.insert(id.to_owned(), name.to_owned());
            }
            _ => {}
        }
    }
    let error = text(record, "error");
    if content.is_empty() && error.is_none() {
        return None;
    }
    let number = |usage: &Map<String, Value>, key: &str| {
        usage.get(key).and_then(Value::as_f64).filter(|n| n.is_finite()).unwrap_or(0.0)
    };
    let usage = message.get("usage").and_then(Value::as_object).map_or_else(
        || (0.0, 0.0, 0.0, 0.0),
        |u| {
            let n = |key| number(u, key);
            (
                n("input_tokens"),
                n("output_tokens"),
                n("cache_read_input_tokens"),
                n("cache_creation_input_tokens"),
            )
        },
    );
    let stop_reason = if record.get("isApiErrorMessage") == Some(&Value::Bool(true)) {
        "error"
    } else {
        match message.get("stop_reason").and_then(Value::as_str) {
            Some("tool_use") => "toolUse",
            Some("max_tokens") => "length",
            Some("end_turn" | "stop_sequence" | "pause_turn") | None => "stop",
            Some(_) => "error",
        }
    };
    let (input, output, cache_read, cache_write) = usage;
    // A count as JavaScript writes it: an integral number without a fraction.
    let count =
        |n: f64| if n.fract() == 0.0 && n.abs() < 9e15 { json!(n as i64) } else { json!(n) };
    let mut converted = json!({
        "role": "assistant",
        "content": content,
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": text(message, "model").unwrap_or("unknown"),
        "usage": {
            "input": count(input), "output": count(output),
            "cacheRead": count(cache_read), "cacheWrite": count(cache_write),
            "totalTokens": count(input + output + cache_read + cache_write),
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
        },
        "stopReason": stop_reason,
        "timestamp": millis(record),
    });
    if let Some(id) = text(message, "id") {
        converted["responseId"] = json!(id);
    }
    if let Some(error) = error {
        converted["errorMessage"] = json!(error);
    }
    if let Some(status) = record.get("apiErrorStatus").filter(|s| s.as_f64().is_some()) {
        converted["errorStatus"] = status.clone();
    }
    Some(converted)
}

/// A Claude image block as the agents' image block.
fn image_block(block: &Map<String, Value>) -> Option<Value> {
    let source = block.get("source")?.as_object()?;
    let (data, mime) = (text(source, "data")?, text(source, "media_type")?);
    Some(json!({"type": "image", "data": data, "mimeType": mime}))
}

/// A user block's part of a user message: text or an image.
fn user_part(block: &Value) -> Option<Value> {
    let block = block.as_object()?;
    match block.get("type").and_then(Value::as_str)? {
        "text" => Some(json!({"type": "text", "text": block.get("text")?.as_str()?})),
        "image" => image_block(block),
        _ => None,
    }
}

/// User content: a string, or the text and image blocks (none when nothing is left).
fn user_content(content: Option<&Value>) -> Option<Value> {
    match content? {
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(json!(s)),
        Value::Array(blocks) => {
            let parts: Vec<Value> = blocks.iter().filter_map(user_part).collect();
            (!parts.is_empty()).then(|| json!(parts))
        }
        _ => None,
    }
}

/// A user record's messages, each with the suffix oh-my-pi's importer gives its id: runs of
/// text and images as user messages (`user-<first block>`), each `tool_result` block as a
/// `toolResult` message (`tool-<block>`), string content as one message (`message`)
/// (`convertRecord`).
fn user(
    message: &Map<String, Value>,
    record: &Map<String, Value>,
    tool_names: &std::collections::HashMap<String, String>,
) -> Vec<(String, Value)> {
    let timestamp = millis(record);
    let Some(blocks) = message.get("content").and_then(Value::as_array) else {
        return user_content(message.get("content"))
            .map(|content| {
                let message = json!({"role": "user", "content": content, "timestamp": timestamp});
                ("message".to_owned(), message)
            })
            .into_iter()
            .collect();
    };
    let mut out = Vec::new();
    let mut parts = Vec::new();
    let mut start = 0;
    let flush = |parts: &mut Vec<Value>, start: usize, out: &mut Vec<(String, Value)>| {
        if !parts.is_empty() {
            let content = std::mem::take(parts);
            let message = json!({"role": "user", "content": content, "timestamp": timestamp});
            out.push((format!("user-{start}"), message));
        }
    };
    for (index, block) in blocks.iter().enumerate() {
        if let Some(part) = user_part(block) {
            if parts.is_empty() {
                start = index;
            }
            parts.push(part);
            continue;
        }
        let Some(block) = block.as_object() else { continue };
        if block.get("type").and_then(Value::as_str) != Some("tool_result") {
            continue;
        }
        let Some(call) = text(block, "tool_use_id") else { continue };
        flush(&mut parts, start, &mut out);
        let content = match block.get("content") {
            Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
            Some(Value::Array(blocks)) => blocks
                .iter()
                .filter_map(|b| {
                    let b = b.as_object()?;
                    match b.get("type").and_then(Value::as_str)? {
                        "text" => Some(json!({"type": "text", "text": b.get("text")?.as_str()?})),
                        "image" => image_block(b),
                        _ => None,
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        let result = json!({
            "role": "toolResult",
            "toolCallId": call,
            "toolName": tool_names.get(call).map_or("unknown", String::as_str),
            "content": content,
            "isError": block.get("is_error") == Some(&Value::Bool(true)),
            "timestamp": timestamp,
        });
        out.push((format!("tool-{index}"), result));
    }
    flush(&mut parts, start, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(line: &str) -> Map<String, Value> {
        serde_json::from_str(line).unwrap()
    }

    /// The transcoded lines, parsed.
    fn lines(t: &Transcoded) -> Vec<Value> {
        t.bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect()
    }

    #[test]
    fn a_transcript_is_told_from_the_agents_sessions_by_its_first_record() {
        assert!(is_transcript(&object(r#"{"type":"user","uuid":"u","parentUuid":null}"#)));
        assert!(is_transcript(&object(r#"{"type":"file-history-snapshot","messageId":"m"}"#)));
        assert!(is_transcript(&object(r#"{"type":"summary","summary":"s","leafUuid":"u"}"#)));
        assert!(!is_transcript(&object(r#"{"type":"session","version":3,"id":"s"}"#)));
        assert!(!is_transcript(&object(r#"{"type":"message","id":"a","parentId":null}"#)));
        assert!(!is_transcript(&object(r#"{"kind":"header","version":4,"id":"s"}"#)));
        assert!(!is_transcript(&object(r#"{"title":"t","v":1}"#)));
    }

    #[test]
    fn the_leaf_is_the_last_main_chain_message_whatever_comes_after_it() {
        let input = concat!(
            r#"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"a"}}"#,
            "\n",
            r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"role":"assistant","content":[{"type":"text","text":"b"}]}}"#,
            "\n",
            r#"{"type":"user","uuid":"u2","parentUuid":"u1","message":{"role":"user","content":"c"}}"#,
            "\n",
            r#"{"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"message":{"role":"user","content":"d"}}"#,
            "\n",
            r#"{"type":"user","uuid":"m1","parentUuid":"u2","isMeta":true,"message":{"role":"user","content":"e"}}"#,
            "\n",
            r#"{"type":"system","uuid":"y1","parentUuid":"m1","subtype":"turn_duration"}"#,
            "\n",
            r#"{"type":"last-prompt","leafUuid":"a1"}"#,
            "\n",
        );
        let t = transcode(input.as_bytes());
        assert_eq!(t.leaf.as_deref(), Some("u2"));
        // The header, then one entry per record with a uuid, each keeping its line.
        assert_eq!(t.lines, [1, 1, 2, 3, 4, 5, 6]);
        let kinds: Vec<Value> = lines(&t).iter().map(|l| l["type"].clone()).collect();
        assert_eq!(
            kinds,
            ["session", "message", "message", "message", "message", "custom_message", "custom"]
        );
    }

    #[test]
    fn a_record_of_several_messages_gives_its_later_ones_numbered_ids_and_its_children_the_last() {
        let input = concat!(
            r#"{"type":"assistant","uuid":"a","parentUuid":null,"message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}},{"type":"tool_use","id":"t2","name":"Read","input":{}}]}}"#,
            "\n",
            r#"{"type":"user","uuid":"u","parentUuid":"a","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"x"},{"type":"tool_result","tool_use_id":"t2","content":"y"}]}}"#,
            "\n",
            r#"{"type":"assistant","uuid":"b","parentUuid":"u","message":{"content":[{"type":"text","text":"z"}]}}"#,
            "\n",
        );
        let lines = lines(&transcode(input.as_bytes()));
        let ids: Vec<(&str, Option<&str>)> = lines[1..]
            .iter()
            .map(|l| (l["id"].as_str().unwrap(), l["parentId"].as_str()))
            .collect();
        assert_eq!(ids, [("a", None), ("u", Some("a")), ("u.2", Some("u")), ("b", Some("u.2"))]);
        assert_eq!(lines[3]["message"]["toolName"], "Read");
    }

    #[test]
    fn a_compaction_hangs_from_its_logical_parent_and_keeps_nothing_before_it() {
        let input = concat!(
            r#"{"type":"user","uuid":"u1","parentUuid":null,"message":{"content":"a"}}"#,
            "\n",
            r#"{"type":"system","uuid":"b","parentUuid":null,"logicalParentUuid":"u1","subtype":"compact_boundary","compactMetadata":{"preTokens":900}}"#,
            "\n",
            r#"{"type":"user","uuid":"s","parentUuid":"b","isCompactSummary":true,"message":{"content":[{"type":"text","text":"sum"}]}}"#,
            "\n",
        );
        let lines = lines(&transcode(input.as_bytes()));
        assert_eq!(lines[2]["parentId"], "u1");
        let summary = &lines[3];
        assert_eq!((&summary["type"], &summary["summary"]), (&json!("compaction"), &json!("sum")));
        assert_eq!(
            (&summary["firstKeptEntryId"], &summary["tokensBefore"]),
            (&json!("s"), &json!(900))
        );
    }

    #[test]
    fn the_import_resolves_parents_through_records_that_make_nothing() {
        // oh-my-pi 18.2.3: the system record makes nothing, so the reply hangs from the prompt.
        let input = concat!(
            r#"{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-01-01T00:00:00Z","message":{"content":"a"}}"#,
            "\n",
            r#"{"type":"system","uuid":"y","parentUuid":"u1"}"#,
            "\n",
            r#"{"type":"assistant","uuid":"a1","parentUuid":"y","message":{"model":"m","content":[{"type":"text","text":"b"}]}}"#,
            "\n",
        );
        let imported = import(input.as_bytes(), 5, crate::format::Dialect::Omp);
        let ids: Vec<&str> = imported.entries.iter().map(|e| e["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["claude-u1-message-1", "claude-a1-model", "claude-a1-message-2"]);
        assert_eq!(imported.entries[1]["parentId"], "claude-u1-message-1");
        // A record without a time takes the fallback.
        assert_eq!(imported.entries[2]["message"]["timestamp"], 5);
        assert_eq!(imported.leaf.as_deref(), Some("claude-a1-message-2"));
    }
}
