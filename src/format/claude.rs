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
//! - sidechains (`isSidechain`, subagents) are drawn where they hang, and the files of their
//!   own that Claude Code 2.1.2 on writes them to ([`subagent_files`]) are read after the
//!   transcript ([`super::Foreign::read`]);
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
//!
//! A record is read from its line by the line scanner ([`crate::json::scan`]), not parsed into
//! a value: the members a conversion reads are decoded, and the rest (message text, tool
//! input and output, the record a `custom` entry holds) is copied as written, so a transcript
//! costs about a scan and a copy of its bytes. Lines are read a batch at a time on every core
//! (`each_line`); what hangs on earlier records (parents, tool names) is settled in file
//! order (`Transcoder`), while the next batch is read. The transcript itself is read a
//! stretch of lines at a time ([`super::Foreign::read`]): memory holds its conversion, not
//! the transcript too.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::transcript::{Imported, Transcoded, each_line};
use crate::json::MAX_NESTING;
use crate::json::object::{Object, number, readable};
use crate::json::pick::{Member, key, members};
use crate::json::scan::{Line, Scan, Scanner};

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

/// The files Claude Code (2.1.2 on) writes a session's subagents' sidechains to:
/// `<session>/subagents/agent-<id>.jsonl` beside `<session>.jsonl`, by name; none for a path
/// that is not a `.jsonl` file or has no such directory.
pub fn subagent_files(path: &std::path::Path) -> Vec<std::path::PathBuf> {
    if path.extension().is_none_or(|e| e != "jsonl") {
        return Vec::new();
    }
    let dir = path.with_extension("").join("subagents");
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with("agent-") && name.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    files
}

/// The tables of what earlier records said, by id: a fast hash, as the rows' own tables.
type Table<V> = HashMap<String, V, foldhash::fast::RandomState>;

/// One record of a transcript, as its line says it: the members the conversions read, and
/// the messages and entry it makes, written as JSON. What it says is borrowed from its line
/// where it can be: most of it is read in order once, and dropped.
#[derive(Debug, Default)]
struct Record<'a> {
    /// `type`.
    kind: Option<Cow<'a, str>>,
    uuid: Option<String>,
    /// `parentUuid`.
    parent: Option<Cow<'a, str>>,
    /// `logicalParentUuid`: where a `compact_boundary` (whose parent is null) was.
    logical_parent: Option<Cow<'a, str>>,
    session_id: Option<Cow<'a, str>>,
    cwd: Option<Cow<'a, str>>,
    /// `timestamp` when it is a string.
    time: Option<Cow<'a, str>>,
    /// `timestamp` as written, whatever it holds.
    timestamp: Option<Cow<'a, [u8]>>,
    /// The title a `custom-title` or `ai-title` record sets.
    custom_title: Option<Cow<'a, str>>,
    ai_title: Option<Cow<'a, str>>,
    sidechain: bool,
    meta: bool,
    /// `compactMetadata.preTokens` as written: the tokens before a compaction.
    pre_tokens: Option<Box<[u8]>>,
    /// The model of an assistant record's message.
    model: Option<Cow<'a, str>>,
    /// The messages oh-my-pi's importer makes of a user or assistant record (none for an
    /// `isMeta` one), in order.
    messages: Vec<Message>,
    /// The tool calls of an assistant record: id and name.
    tool_calls: Vec<(String, String)>,
    /// What the record is in the tree, when it has a `uuid`.
    body: Body,
}

impl Record<'_> {
    /// The record, owning what it borrowed.
    fn into_owned(self) -> Record<'static> {
        let own = |s: Option<Cow<'_, str>>| s.map(|s| Cow::Owned(s.into_owned()));
        Record {
            kind: own(self.kind),
            uuid: self.uuid,
            parent: own(self.parent),
            logical_parent: own(self.logical_parent),
            session_id: own(self.session_id),
            cwd: own(self.cwd),
            time: own(self.time),
            timestamp: self.timestamp.map(|t| Cow::Owned(t.into_owned())),
            custom_title: own(self.custom_title),
            ai_title: own(self.ai_title),
            sidechain: self.sidechain,
            meta: self.meta,
            pre_tokens: self.pre_tokens,
            model: own(self.model),
            messages: self.messages,
            tool_calls: self.tool_calls,
            body: self.body,
        }
    }
}

/// A converted message: its JSON, but for the tool names of tool results, which hang on the
/// calls of earlier records.
#[derive(Debug)]
struct Message {
    /// What oh-my-pi's importer puts in the message's id: `message`, `user-<block>`,
    /// `tool-<block>`.
    suffix: Cow<'static, str>,
    /// The message's JSON, without the `toolName` of a tool result.
    json: Vec<u8>,
    /// Where the `toolName` of a tool result goes in `json`, and the id of its call.
    tool_name_at: Option<(usize, String)>,
}

impl Message {
    /// The message's JSON, with the name of its tool call from `tool_names`.
    fn write(&self, out: &mut Vec<u8>, tool_names: &Table<String>) {
        let Some((at, call)) = &self.tool_name_at else {
            out.extend_from_slice(&self.json);
            return;
        };
        out.extend_from_slice(&self.json[..*at]);
        string(out, tool_names.get(call).map_or("unknown", String::as_str));
        out.extend_from_slice(&self.json[*at..]);
    }
}

/// What a record with a `uuid` is in the tree, besides its messages.
#[derive(Debug, Default)]
enum Body {
    /// Its messages, or nothing for a record without a `uuid`.
    #[default]
    Messages,
    /// A compaction's summary (`isCompactSummary`).
    Compaction(String),
    /// An `isMeta` user record's content, as JSON: a hidden `custom_message`.
    Meta(Vec<u8>),
    /// Any other record: a `custom` entry of this type holding the record (as written).
    Custom(String, Vec<u8>),
}

/// The text of `s` as a JSON string, as serde_json writes it.
fn string(out: &mut Vec<u8>, s: &str) {
    // Ids and names rarely hold what JSON escapes: those are copied between quotes.
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
        return;
    }
    // Writing to a vector cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// The record object at `start` of `line` and its `message` object (the last `message`, when
/// that is an object whose members read). The message's members are read on the way: skipping
/// the message, then reading it, walked the largest value of the line twice.
fn record_members<'l, 'a, 'q>(
    line: &'l Line<'a, 'q>,
    start: usize,
    stack: &mut Vec<bool>,
) -> Scan<(Object<'l, 'a, 'q>, Option<Object<'l, 'a, 'q>>)> {
    let mut out = Vec::with_capacity(16);
    let mut message = None;
    let end = line.object(start, |l, span, value| {
        let key = key(l, span)?;
        let mut end = None;
        if &*key == b"message" {
            message = None;
            if l.at(value) == Some(b'{')
                && let Ok((members, after)) = members(l, value, stack)
            {
                message = Some(Object::of_members(line, members, (value, after)));
                end = Some(after);
            }
        }
        let end = match end {
            Some(end) => end,
            None => l.skip_value(value, stack)?,
        };
        out.push(Member { key, start: value, end });
        Ok(end)
    })?;
    Ok((Object::of_members(line, out, (start, end)), message))
}

/// Reads the record on `line`; `None` when the line is not a JSON object, or nests deeper than
/// a parse accepts.
fn read<'a>(scanner: &mut Scanner, line: &'a [u8]) -> Option<Record<'a>> {
    match readable(line)? {
        Cow::Borrowed(line) => read_readable(scanner, line),
        Cow::Owned(line) => read_readable(scanner, &line).map(Record::into_owned),
    }
}

/// Reads the record on a line the scanner reads as a parse would ([`readable`]).
fn read_readable<'a>(scanner: &mut Scanner, bytes: &'a [u8]) -> Option<Record<'a>> {
    let (line, stack) = scanner.index(bytes).ok()?;
    let start = line.ws(0);
    if line.at(start) != Some(b'{') {
        return None;
    }
    let (record, message) = record_members(&line, start, stack).ok()?;
    line.end(start + record.bytes().len()).ok()?;
    if line.deepest() + 1 > MAX_NESTING {
        return None;
    }
    let kind = record.filled("type");
    let mut out = Record {
        uuid: record.filled("uuid").map(Cow::into_owned),
        parent: record.filled("parentUuid"),
        logical_parent: record.filled("logicalParentUuid"),
        session_id: record.filled("sessionId"),
        cwd: record.filled("cwd"),
        time: record.filled("timestamp"),
        timestamp: record.raw("timestamp").map(Cow::Borrowed),
        sidechain: record.is("isSidechain"),
        meta: record.is("isMeta"),
        ..Record::default()
    };
    match kind.as_deref() {
        Some("custom-title") => out.custom_title = record.filled("customTitle"),
        Some("ai-title") => out.ai_title = record.filled("aiTitle"),
        _ => {}
    }
    if let Some(metadata) = record.object("compactMetadata", stack) {
        out.pre_tokens = metadata.raw("preTokens").map(Box::from);
    }
    let millis = out.time.as_deref().and_then(crate::clock::parse_timestamp);
    // Whether the record makes an entry other than a `custom` one.
    let converts = match (kind.as_deref(), &message) {
        (Some("assistant"), Some(message)) => {
            out.model = message.filled("model");
            out.messages = assistant(&record, message, millis, &mut out.tool_calls, stack)
                .map(|json| Message { suffix: Cow::Borrowed("message"), json, tool_name_at: None })
                .into_iter()
                .collect();
            !out.messages.is_empty()
        }
        (Some("user"), Some(message)) if out.meta => {
            user_content(message, "content", stack).map(|c| out.body = Body::Meta(c)).is_some()
        }
        (Some("user"), Some(message)) => {
            out.messages = user(message, millis, stack);
            if record.is("isCompactSummary") {
                compact_summary(message, stack).map(|s| out.body = Body::Compaction(s)).is_some()
            } else {
                !out.messages.is_empty()
            }
        }
        _ => false,
    };
    if out.uuid.is_some() && !converts {
        let kind = match (kind.as_deref(), record.filled("subtype")) {
            (Some(kind), Some(subtype)) => format!("claude:{kind}:{subtype}"),
            (kind, _) => format!("claude:{}", kind.unwrap_or("record")),
        };
        out.body = Body::Custom(kind, record.bytes().to_vec());
    }
    out.kind = kind;
    Some(out)
}

/// The text of a compaction's summary: its string content, or its text blocks joined; none
/// when the content has neither text nor images.
fn compact_summary(message: &Object<'_, '_, '_>, stack: &mut Vec<bool>) -> Option<String> {
    user_content(message, "content", stack)?;
    if let Some(text) = message.str("content") {
        return Some(text.into_owned());
    }
    let mut summary = String::new();
    for at in message.elements("content", stack)? {
        let Some(block) = Object::at(message.line, at, stack) else { continue };
        if block.str("type").as_deref() == Some("text")
            && let Some(text) = block.str("text")
        {
            summary.push_str(&text);
        }
    }
    Some(summary)
}

/// An assistant record's message (oh-my-pi's `convertRecord`); none without content or error.
/// Its tool calls go to `tool_calls`.
fn assistant(
    record: &Object<'_, '_, '_>,
    message: &Object<'_, '_, '_>,
    millis: Option<i64>,
    tool_calls: &mut Vec<(String, String)>,
    stack: &mut Vec<bool>,
) -> Option<Vec<u8>> {
    // The message is written as it is read, in room for the line's bytes: its text is copied
    // once, and its buffer grows once at most.
    let mut out = Vec::with_capacity(message.line.bytes.len() + 400);
    out.extend_from_slice(br#"{"role":"assistant","content":"#);
    let mut blocks = 0;
    let mut push = |out: &mut Vec<u8>, parts: &[&[u8]]| {
        out.push(if blocks == 0 { b'[' } else { b',' });
        parts.iter().for_each(|p| out.extend_from_slice(p));
        blocks += 1;
    };
    for at in message.elements("content", stack).unwrap_or_default() {
        let Some(block) = Object::at(message.line, at, stack) else { continue };
        match block.str("type").as_deref() {
            Some("text") => {
                let Some(text) = block.raw_str("text") else { continue };
                push(&mut out, &[br#"{"type":"text","text":"#, text, b"}"]);
            }
            Some("thinking") => {
                let Some(thinking) = block.raw_str("thinking") else { continue };
                let signature = block.raw_str("signature");
                let (key, signature) = match signature {
                    Some(s) => (&br#","thinkingSignature":"#[..], s),
                    None => (&b""[..], &b""[..]),
                };
                push(
                    &mut out,
                    &[br#"{"type":"thinking","thinking":"#, thinking, key, signature, b"}"],
                );
            }
            Some("tool_use") => {
                let (Some(id), Some(name)) = (block.filled("id"), block.filled("name")) else {
                    continue;
                };
                let input = block.raw("input").filter(|i| i.first() == Some(&b'{'));
                push(&mut out, &[br#"{"type":"toolCall","id":"#]);
                string(&mut out, &id);
                out.extend_from_slice(br#","name":"#);
                string(&mut out, &name);
                out.extend_from_slice(br#","arguments":"#);
                out.extend_from_slice(input.unwrap_or(b"{}"));
                out.push(b'}');
                tool_calls.push((id.into_owned(), name.into_owned()));
            }
            _ => {}
        }
    }
    let error = record.raw_filled("error");
    if blocks == 0 && error.is_none() {
        return None;
    }
    if blocks == 0 {
        out.push(b'[');
    }
    out.push(b']');
    let usage = message.object("usage", stack);
    let count = |key| usage.as_ref().and_then(|u| u.number(key)).unwrap_or(0.0);
    let (input, output) = (count("input_tokens"), count("output_tokens"));
    let (cache_read, cache_write) =
        (count("cache_read_input_tokens"), count("cache_creation_input_tokens"));
    let stop_reason = if record.is("isApiErrorMessage") {
        "error"
    } else {
        match message.str("stop_reason").as_deref() {
            Some("tool_use") => "toolUse",
            Some("max_tokens") => "length",
            Some("end_turn" | "stop_sequence" | "pause_turn") | None => "stop",
            Some(_) => "error",
        }
    };
    out.extend_from_slice(br#","api":"anthropic-messages","provider":"anthropic","model":"#);
    out.extend_from_slice(message.raw_filled("model").unwrap_or(br#""unknown""#));
    // Counts as JavaScript writes them: an integral number without a fraction.
    let write_count = |out: &mut Vec<u8>, key: &[u8], n: f64| {
        out.extend_from_slice(key);
        let _ = serde_json::to_writer(&mut *out, &crate::json::js_number(n));
    };
    write_count(&mut out, br#","usage":{"input":"#, input);
    write_count(&mut out, br#","output":"#, output);
    write_count(&mut out, br#","cacheRead":"#, cache_read);
    write_count(&mut out, br#","cacheWrite":"#, cache_write);
    write_count(&mut out, br#","totalTokens":"#, input + output + cache_read + cache_write);
    out.extend_from_slice(
        br#","cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":""#,
    );
    out.extend_from_slice(stop_reason.as_bytes());
    out.extend_from_slice(br#"","timestamp":"#);
    write_millis(&mut out, millis);
    if let Some(id) = message.raw_filled("id") {
        out.extend_from_slice(br#","responseId":"#);
        out.extend_from_slice(id);
    }
    if let Some(error) = error {
        out.extend_from_slice(br#","errorMessage":"#);
        out.extend_from_slice(error);
    }
    if let Some(status) = record.raw("apiErrorStatus").filter(|s| number(s).is_some()) {
        out.extend_from_slice(br#","errorStatus":"#);
        out.extend_from_slice(status);
    }
    out.push(b'}');
    Some(out)
}

/// A record's time in milliseconds, as the agents' messages carry it, or `null`.
fn write_millis(out: &mut Vec<u8>, millis: Option<i64>) {
    match millis {
        Some(ms) => out.extend_from_slice(itoa::Buffer::new().format(ms).as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
}

/// A Claude image block as the agents' image block.
fn image_block(block: &Object<'_, '_, '_>, stack: &mut Vec<bool>, out: &mut Vec<u8>) -> bool {
    let Some(source) = block.object("source", stack) else { return false };
    let (Some(data), Some(mime)) = (source.raw_filled("data"), source.raw_filled("media_type"))
    else {
        return false;
    };
    out.extend_from_slice(br#"{"type":"image","data":"#);
    out.extend_from_slice(data);
    out.extend_from_slice(br#","mimeType":"#);
    out.extend_from_slice(mime);
    out.push(b'}');
    true
}

/// A block's part of a user message or tool result: text or an image, appended to `out`.
fn user_part(block: &Object<'_, '_, '_>, stack: &mut Vec<bool>, out: &mut Vec<u8>) -> bool {
    match block.str("type").as_deref() {
        Some("text") => {
            let Some(text) = block.raw_str("text") else { return false };
            out.extend_from_slice(br#"{"type":"text","text":"#);
            out.extend_from_slice(text);
            out.push(b'}');
            true
        }
        Some("image") => image_block(block, stack, out),
        _ => false,
    }
}

/// The parts of the blocks at `elements`: their text and image blocks, as a JSON array.
fn parts(
    line: &Line<'_, '_>,
    elements: impl IntoIterator<Item = usize>,
    stack: &mut Vec<bool>,
) -> (Vec<u8>, usize) {
    let mut out = vec![b'['];
    let mut count = 0;
    for at in elements {
        let Some(block) = Object::at(line, at, stack) else { continue };
        let len = out.len();
        if count > 0 {
            out.push(b',');
        }
        if user_part(&block, stack, &mut out) {
            count += 1;
        } else {
            out.truncate(len);
        }
    }
    out.push(b']');
    (out, count)
}

/// User content, as JSON: a non-empty string, or the text and image blocks (none when
/// nothing is left).
fn user_content(message: &Object<'_, '_, '_>, key: &str, stack: &mut Vec<bool>) -> Option<Vec<u8>> {
    if let Some(text) = message.raw_str(key) {
        return (text.len() > 2).then(|| text.to_vec());
    }
    let (parts, count) = parts(message.line, message.elements(key, stack)?, stack);
    (count > 0).then_some(parts)
}

/// A user record's messages, each with the suffix oh-my-pi's importer gives its id: runs of
/// text and images as user messages (`user-<first block>`), each `tool_result` block as a
/// `toolResult` message (`tool-<block>`), string content as one message (`message`)
/// (`convertRecord`).
fn user(message: &Object<'_, '_, '_>, millis: Option<i64>, stack: &mut Vec<bool>) -> Vec<Message> {
    let user_message = |suffix: Cow<'static, str>, content: &[u8]| {
        let mut json = br#"{"role":"user","content":"#.to_vec();
        json.extend_from_slice(content);
        json.extend_from_slice(br#","timestamp":"#);
        write_millis(&mut json, millis);
        json.push(b'}');
        Message { suffix, json, tool_name_at: None }
    };
    let Some(blocks) = message.elements("content", stack) else {
        return user_content(message, "content", stack)
            .map(|content| user_message(Cow::Borrowed("message"), &content))
            .into_iter()
            .collect();
    };
    let mut out = Vec::new();
    // The run of text and image blocks not yet made a message, and where it starts.
    let mut run: Vec<usize> = Vec::new();
    let flush = |run: &mut Vec<usize>, out: &mut Vec<Message>, stack: &mut Vec<bool>| {
        let Some(&start) = run.first() else { return };
        let (content, _) = parts(message.line, run.iter().map(|&i| blocks[i]), stack);
        out.push(user_message(Cow::Owned(format!("user-{start}")), &content));
        run.clear();
    };
    // What a block's part is written to, to learn whether it has one.
    let mut scratch = Vec::new();
    for (index, &at) in blocks.iter().enumerate() {
        let Some(block) = Object::at(message.line, at, stack) else { continue };
        scratch.clear();
        if user_part(&block, stack, &mut scratch) {
            run.push(index);
            continue;
        }
        if block.str("type").as_deref() != Some("tool_result") {
            continue;
        }
        let Some(call) = block.filled("tool_use_id") else { continue };
        flush(&mut run, &mut out, stack);
        let content = match block.raw_str("content") {
            Some(text) => [&br#"[{"type":"text","text":"#[..], text, b"}]"].concat(),
            None => block
                .elements("content", stack)
                .map_or_else(|| b"[]".to_vec(), |e| parts(message.line, e, stack).0),
        };
        let mut json = br#"{"role":"toolResult","toolCallId":"#.to_vec();
        string(&mut json, &call);
        json.extend_from_slice(br#","toolName":"#);
        let at = json.len();
        json.extend_from_slice(br#","content":"#);
        json.extend_from_slice(&content);
        json.extend_from_slice(if block.is("is_error") {
            br#","isError":true,"timestamp":"#
        } else {
            br#","isError":false,"timestamp":"#
        });
        write_millis(&mut json, millis);
        json.push(b'}');
        out.push(Message {
            suffix: Cow::Owned(format!("tool-{index}")),
            json,
            tool_name_at: Some((at, call.into_owned())),
        });
    }
    flush(&mut run, &mut out, stack);
    out
}

/// Starts an entry from line `line`: writes `{"type":KIND,"id":ID,"parentId":PARENT` and the
/// `timestamp` when there is one, the members every entry has.
fn entry_start(
    transcoded: &mut Transcoded,
    line: u64,
    kind: &str,
    (id, parent): (&str, Option<&str>),
    timestamp: Option<&[u8]>,
) {
    transcoded.lines.push(line);
    let out = &mut transcoded.bytes;
    out.extend_from_slice(br#"{"type":""#);
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(br#"","id":"#);
    string(out, id);
    out.extend_from_slice(br#","parentId":"#);
    match parent {
        Some(parent) => string(out, parent),
        None => out.extend_from_slice(b"null"),
    }
    if let Some(timestamp) = timestamp {
        out.extend_from_slice(br#","timestamp":"#);
        out.extend_from_slice(timestamp);
    }
}

/// Writes the transcript `input` (JSONL) as a session: see the module docs. The records are
/// read a batch at a time, each dropped once its entries are written.
pub fn transcode(input: &[u8]) -> Transcoded {
    let mut transcoder = Transcoder::new(input.len());
    transcoder.lines(input, 1);
    transcoder.finish()
}

/// A transcript being written as a session, a stretch of lines at a time ([`transcode`]).
#[derive(Default)]
pub(super) struct Transcoder {
    out: Transcoded,
    /// What the header says: the first session id, time and cwd a record names, the titles.
    session_id: Option<String>,
    time: Option<String>,
    cwd: Option<String>,
    custom_title: Option<String>,
    ai_title: Option<String>,
    first_line: Option<u64>,
    /// The last entry each record made, by the record's uuid: what its children hang from.
    tails: Table<String>,
    tool_names: Table<String>,
    /// The tokens before each compaction, by the uuid of its `compact_boundary`.
    pre_tokens: Table<Box<[u8]>>,
    /// The last message of any user or assistant record: the leaf of a file of sidechains.
    last_message: Option<String>,
}

impl Transcoder {
    /// A transcoder for a transcript of about `len` bytes.
    pub(super) fn new(len: usize) -> Transcoder {
        let mut transcoder = Transcoder::default();
        transcoder.out.bytes.reserve(len);
        transcoder
    }

    /// Writes the records of `lines`, the lines of the transcript from line `first` (1-based)
    /// on, after those written so far.
    pub(super) fn lines(&mut self, lines: &[u8], first: u64) {
        each_line(lines, first, read, |line, record| self.record(line, record));
    }

    /// Writes the entries of `record`, from line `line`.
    fn record(&mut self, line: u64, record: Record) {
        let out = &mut self.out;
        self.first_line.get_or_insert(line);
        // The first of each, and the last title.
        let first = |kept: &mut Option<String>, said: Option<Cow<'_, str>>| {
            if kept.is_none() {
                *kept = said.map(Cow::into_owned);
            }
        };
        first(&mut self.session_id, record.session_id);
        first(&mut self.time, record.time);
        first(&mut self.cwd, record.cwd);
        if let Some(title) = record.custom_title {
            self.custom_title = Some(title.into_owned());
        }
        if let Some(title) = record.ai_title {
            self.ai_title = Some(title.into_owned());
        }
        let Some(uuid) = record.uuid else { return };
        self.tool_names.extend(record.tool_calls);
        if let Some(tokens) = record.pre_tokens {
            self.pre_tokens.insert(uuid.clone(), tokens);
        }
        let parent = record.parent.as_deref().or(record.logical_parent.as_deref());
        let mut previous = parent.map(|p| self.tails.get(p).map_or(p, String::as_str).to_owned());
        let timestamp = record.timestamp.as_deref();
        let mut id = uuid.clone();
        match &record.body {
            Body::Messages => {
                for (n, message) in record.messages.iter().enumerate() {
                    if n > 0 {
                        id = format!("{uuid}.{}", n + 1);
                    }
                    entry_start(out, line, "message", (&id, previous.as_deref()), timestamp);
                    out.bytes.extend_from_slice(br#","message":"#);
                    message.write(&mut out.bytes, &self.tool_names);
                    out.bytes.extend_from_slice(b"}\n");
                    previous = Some(id.clone());
                }
            }
            Body::Compaction(summary) => {
                entry_start(out, line, "compaction", (&id, previous.as_deref()), timestamp);
                // Nothing before it is kept: `firstKeptEntryId` is its own id (CHANGES R2).
                out.bytes.extend_from_slice(br#","tokensBefore":"#);
                let tokens = record.parent.as_deref().and_then(|p| self.pre_tokens.get(p));
                out.bytes.extend_from_slice(tokens.map_or(&b"0"[..], |t| t));
                out.bytes.extend_from_slice(br#","summary":"#);
                string(&mut out.bytes, summary);
                out.bytes.extend_from_slice(br#","firstKeptEntryId":"#);
                string(&mut out.bytes, &id);
                out.bytes.extend_from_slice(b"}\n");
            }
            Body::Meta(content) => {
                entry_start(out, line, "custom_message", (&id, previous.as_deref()), timestamp);
                out.bytes.extend_from_slice(
                    br#","display":false,"customType":"claude-meta","content":"#,
                );
                out.bytes.extend_from_slice(content);
                out.bytes.extend_from_slice(b"}\n");
            }
            Body::Custom(kind, data) => {
                entry_start(out, line, "custom", (&id, previous.as_deref()), timestamp);
                out.bytes.extend_from_slice(br#","data":"#);
                out.bytes.extend_from_slice(data);
                out.bytes.extend_from_slice(br#","customType":"#);
                string(&mut out.bytes, kind);
                out.bytes.extend_from_slice(b"}\n");
            }
        }
        let message_record = matches!(record.kind.as_deref(), Some("user" | "assistant"));
        // A main-chain message that converts to one at least: where oh-my-pi's importer
        // continues from.
        if message_record
            && !record.sidechain
            && !record.meta
            && !matches!(record.body, Body::Custom(..))
        {
            out.leaf = Some(id.clone());
        }
        if message_record {
            self.last_message = Some(id.clone());
        }
        self.tails.insert(uuid, id);
    }

    /// The session: the header, then the entries written.
    pub(super) fn finish(self) -> Transcoded {
        let mut out = self.out;
        let mut header = json!({
            "type": "session",
            "version": crate::format::WRITE_VERSION,
            "id": self.session_id.unwrap_or_default(),
            "timestamp": self.time.unwrap_or_default(),
            "cwd": self.cwd.unwrap_or_default(),
        });
        // oh-my-pi's importer's title rule: `custom-title`, else `ai-title`.
        let title = self.custom_title.map(|t| (t, "user")).or(self.ai_title.map(|t| (t, "auto")));
        if let Some((title, source)) = title {
            header["title"] = json!(title);
            header["titleSource"] = json!(source);
        }
        // The header goes in front of the entries, in the room their buffer has spare.
        let mut header_line = header.to_string().into_bytes();
        header_line.push(b'\n');
        out.bytes.splice(0..0, header_line);
        out.lines.insert(0, self.first_line.unwrap_or(1));
        out.leaf = out.leaf.or(self.last_message);
        out
    }
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
    let mut records = Vec::new();
    each_line(input, 1, read, |line, record| records.push((line, record)));
    let mut imported = Imported::default();
    let mut source_parents: HashMap<&str, Option<&str>> = HashMap::new();
    let (mut custom, mut ai) = (None, None);
    for (_, record) in &records {
        if let Some(uuid) = &record.uuid {
            source_parents.insert(uuid, record.parent.as_deref());
        }
        if imported.cwd.is_none() {
            imported.cwd = record.cwd.as_deref().map(str::to_owned);
        }
        custom = record.custom_title.as_deref().or(custom);
        ai = record.ai_title.as_deref().or(ai);
    }
    imported.title = custom
        .map(|t| (t, TitleSource::User))
        .or(ai.map(|t| (t, TitleSource::Auto)))
        .and_then(|(t, source)| Some((crate::naming::clean_name(t)?, source)));

    let mut tails: Table<String> = Table::default();
    let mut used: std::collections::HashSet<String> = Default::default();
    let mut tool_names = Table::default();
    let mut last_model: Option<&str> = None;
    let mut count = 0;
    // The last entry made: the leaf.
    let mut last = None;
    let resolve = |tails: &Table<String>, from: Option<&str>| {
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
        if record.sidechain || record.meta {
            continue;
        }
        tool_names.extend(record.tool_calls.iter().cloned());
        if record.messages.is_empty() {
            continue;
        }
        let source = record.uuid.clone().unwrap_or_else(|| format!("line-{line}"));
        let mut parent = resolve(&tails, record.parent.as_deref());
        let ms = match record.timestamp.as_deref() {
            Some(raw) if raw.first() == Some(&b'"') => {
                record.time.as_deref().and_then(crate::clock::parse_timestamp)
            }
            Some(raw) => number(raw).map(|n| n as i64),
            None => None,
        }
        .unwrap_or(fallback_ms);
        let timestamp = crate::clock::format_iso_millis(ms);
        if let Some(model) = record.model.as_deref().filter(|m| Some(*m) != last_model) {
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
        for converted in &record.messages {
            count += 1;
            let id = unique(format!("claude-{source}-{}-{count}", converted.suffix));
            let mut json = Vec::new();
            converted.write(&mut json, &tool_names);
            let mut message: Value = serde_json::from_slice(&json).unwrap_or(Value::Null);
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

    proptest::proptest! {
        /// A string is written as serde_json writes it, escapes and all.
        #[test]
        fn a_string_is_written_as_serde_json_writes_it(s in "(\\PC|[\"\\\\\x00-\x1f\x7f])*") {
            let mut out = Vec::new();
            string(&mut out, &s);
            proptest::prop_assert_eq!(out, serde_json::to_vec(&s).unwrap());
        }
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

    #[test]
    fn a_line_reads_as_its_parse_reads_whatever_its_escapes_numbers_and_bytes() {
        let mut input = Vec::new();
        for line in [
            // Escapes are copied as written, and read as what they say.
            &br#"{"type":"user","uuid":"u1","parentUuid":null,"message":{"content":"a\u00e9\/b"}}"#[..],
            // Invalid UTF-8 reads as U+FFFD, as the lossy parse reads it.
            b"{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"u1\",\"message\":{\"content\":\"x\xffy\"}}",
            // A lone surrogate does not parse: no entry.
            br#"{"type":"user","uuid":"u3","parentUuid":"u2","message":{"content":"\ud800"}}"#,
            // serde_json's number marker reads as the number it holds.
            br#"{"type":"assistant","uuid":"a1","parentUuid":"u2","message":{"content":[{"type":"text","text":"t"}],"usage":{"input_tokens":{"$serde_json::private::Number":"42"}}}}"#,
            // A key written with escapes is the key it says.
            br#"{"\u0074ype":"user","uuid":"u4","parentUuid":"a1","message":{"content":"k"}}"#,
        ] {
            input.extend_from_slice(line);
            input.push(b'\n');
        }
        // Nested deeper than a parse accepts: no entry.
        let deep = format!(
            r#"{{"type":"user","uuid":"u5","parentUuid":"u4","x":{}{}}}"#,
            "[".repeat(127),
            "]".repeat(127)
        );
        input.extend_from_slice(deep.as_bytes());
        let lines = lines(&transcode(&input));
        let ids: Vec<&str> = lines[1..].iter().map(|l| l["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["u1", "u2", "a1", "u4"]);
        assert_eq!(lines[1]["message"]["content"], "a\u{e9}/b");
        assert_eq!(lines[2]["message"]["content"], "x\u{fffd}y");
        assert_eq!(lines[3]["message"]["usage"]["input"], 42);
        assert_eq!(lines[4]["message"]["content"], "k");
    }
}
