//! Codex rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`) read as
//! sessions ([`transcode`]) and imported ([`import`]).
//!
//! A rollout is a list of `{timestamp, type, payload}` lines: `session_meta` first, then
//! `turn_context`, `response_item` (messages, reasoning, tool calls and their outputs),
//! `event_msg` and `compacted`. Each converts as oh-my-pi 18.2.3's importer converts it
//! (`src/session/codex-session-store.ts`): response items and the events that say what no
//! response item says (an event repeating a response item's text or call is left out), a
//! `model_change` where `turn_context` names another model, a `compaction` that keeps nothing
//! before it, the thread's name from `thread_name_updated`.
//!
//! A rollout is linear, but `thread_rolled_back {num_turns}` takes back the last turns in
//! place. oh-my-pi's importer drops them; sesstree's view keeps them as what they are, an
//! abandoned branch: the next entry hangs from the entry before the first user message taken
//! back, and the leaf is the end of the rollout after its rollbacks. Entries are named by the
//! rollout's line: `L<line>` (`L<line>.2` for the result that comes with a call).
//!
//! A line is read by the line scanner ([`crate::json::scan`]), not parsed into a value, a
//! batch of lines at a time on every core (`each_line`): the members a conversion reads are
//! decoded, and text is copied as serde_json writes it (as written when it is written so
//! already), so the session's lines are those a parse and a print of each value would give.
//! Only the payloads that are rare and read deep are parsed whole: `session_meta`,
//! `compacted`, and the events that make a call and its result (`mcp_tool_call_end`,
//! `web_search_end`, dynamic tool calls). What hangs on earlier lines (the model, the names
//! of calls) and on every line (the texts the events repeat) is settled after the reading.

use serde_json::{Map, Value, json};

use super::Dialect;
use super::transcript::{Imported, Transcoded, each_line};
use crate::json::MAX_NESTING;
use crate::json::object::{Object, elements, number, readable};
use crate::json::scan::{Line, Scanner};

/// The tables of what lines said, by text or id: a fast hash, as the rows' own tables.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
type HashSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

/// The types of a rollout's lines.
const LINE_TYPES: &[&str] =
    &["session_meta", "response_item", "turn_context", "event_msg", "compacted"];

/// Whether a file whose first record is `record` is a Codex rollout.
pub fn is_rollout(record: &Map<String, Value>) -> bool {
    let kind = record.get("type").and_then(Value::as_str);
    record.get("payload").is_some_and(Value::is_object)
        && kind.is_some_and(|k| LINE_TYPES.contains(&k))
}

/// Member `key` of `record`, when it is a string (of the payloads read whole).
fn string<'a>(record: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    record.get(key).and_then(Value::as_str)
}

/// Member `key` of `record`, when it is a non-empty string (JavaScript's `if (!value)`).
fn filled<'a>(record: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    string(record, key).filter(|s| !s.is_empty())
}

/// The time `key` of `object` says, as oh-my-pi reads it: epoch seconds or milliseconds, or
/// an ISO string; `None` when it says none (the caller's fallback counts then).
fn stamp(object: &Object<'_, '_, '_>, key: &str) -> Option<i64> {
    let raw = object.raw(key)?;
    if raw.first() == Some(&b'"') {
        return crate::clock::parse_timestamp(&object.str(key)?);
    }
    let n = number(raw)?;
    Some(if n < 10_000_000_000.0 { (n * 1000.0) as i64 } else { n as i64 })
}

/// `s` as a JSON string, as serde_json writes it.
fn write_str(out: &mut Vec<u8>, s: &str) {
    // Writing to a vector cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// The string at `start..end` of `line` (its quotes included) as serde_json writes the string
/// it decodes: copied when it is written so already, else decoded and written again.
fn copy_str(out: &mut Vec<u8>, line: &Line<'_, '_>, (start, end): (usize, usize)) {
    let raw = &line.bytes[start..end];
    if !line.has_backslash((start + 1, end - 1)) || escaped_as_serde_json_does(raw) {
        out.extend_from_slice(raw);
    } else if let Ok(text) = line.text((start + 1, end - 1)) {
        write_str(out, &text);
    }
}

/// Whether every escape of a JSON string is the one serde_json writes: `\"`, `\\`, the short
/// escapes of `\b \f \n \r \t`, and `\u00xx` (lower-case) for the other control characters.
fn escaped_as_serde_json_does(raw: &[u8]) -> bool {
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'\\', &raw[at..]) {
        let i = at + i;
        match raw.get(i + 1) {
            Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => at = i + 2,
            Some(b'u') => {
                let hex = raw.get(i + 2..i + 6).unwrap_or_default();
                let lower = hex.iter().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c));
                let code =
                    std::str::from_utf8(hex).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                let short = [0x08, 0x09, 0x0a, 0x0c, 0x0d];
                if !lower
                    || !hex.starts_with(b"00")
                    || !code.is_some_and(|c| c < 0x20 && !short.contains(&c))
                {
                    return false;
                }
                at = i + 6;
            }
            _ => return false,
        }
    }
    true
}

/// The string at `key` of `object`, copied as serde_json writes it; false when it is none.
fn copy_member(out: &mut Vec<u8>, object: &Object<'_, '_, '_>, key: &str) -> bool {
    match object.span(key).filter(|&(start, _)| object.line.at(start) == Some(b'"')) {
        Some(span) => {
            copy_str(out, object.line, span);
            true
        }
        None => false,
    }
}

/// Content parts as a JSON array, built one at a time.
#[derive(Debug)]
struct Parts {
    json: Vec<u8>,
    count: usize,
    /// The text of its text parts, joined, when asked.
    text: String,
}

impl Parts {
    fn new() -> Parts {
        Parts { json: vec![b'['], count: 0, text: String::new() }
    }

    /// Starts the next part.
    fn next(&mut self) -> &mut Vec<u8> {
        if self.count > 0 {
            self.json.push(b',');
        }
        self.count += 1;
        &mut self.json
    }

    fn done(mut self) -> Parts {
        self.json.push(b']');
        self
    }
}

/// The text and image parts of a response item's content (the array at `at`).
fn response_content(line: &Line<'_, '_>, at: Option<usize>, stack: &mut Vec<bool>) -> Parts {
    let mut parts = Parts::new();
    for at in at.and_then(|at| elements(line, at, stack)).unwrap_or_default() {
        let Some(item) = Object::at(line, at, stack) else { continue };
        match item.str("type").as_deref() {
            Some("input_text" | "output_text" | "text") => {
                let Some(text) = item.str("text") else { continue };
                parts.text.push_str(&text);
                let out = parts.next();
                out.extend_from_slice(br#"{"type":"text","text":"#);
                copy_member(out, &item, "text");
                out.push(b'}');
            }
            Some("input_image") => {
                let (Some(url), detail) = (item.str("image_url"), item.str("detail")) else {
                    continue;
                };
                if let Some(image) = image_from_url(&url, detail.as_deref()) {
                    parts.next().extend_from_slice(&image);
                }
            }
            _ => {}
        }
    }
    parts.done()
}

/// An image given as a `data:` URL.
fn image_from_url(url: &str, detail: Option<&str>) -> Option<Vec<u8>> {
    let url = url.strip_prefix("data:")?;
    let (mime, data) = url.split_once(";base64,")?;
    if mime.is_empty() || mime.contains([';', ',']) || data.is_empty() {
        return None;
    }
    let mut image = br#"{"type":"image","mimeType":"#.to_vec();
    write_str(&mut image, mime);
    image.extend_from_slice(br#","data":"#);
    write_str(&mut image, data);
    if let Some(detail) = detail.filter(|d| matches!(*d, "auto" | "low" | "high" | "original")) {
        image.extend_from_slice(br#","detail":"#);
        write_str(&mut image, detail);
    }
    image.push(b'}');
    Some(image)
}

/// The value at `at` of `line`, parsed (the small values a conversion writes again whole).
fn value_at(line: &Line<'_, '_>, at: usize, stack: &mut Vec<bool>) -> Option<Value> {
    let end = line.skip_value(at, stack).ok()?;
    serde_json::from_slice(line.bytes.get(at..end)?).ok()
}

/// A tool call's arguments (the value at `at`), as JSON: an object, a JSON object in a
/// string, else `{input}`.
fn tool_arguments(line: &Line<'_, '_>, at: Option<usize>, stack: &mut Vec<bool>) -> Vec<u8> {
    let object = |value: Value| serde_json::to_vec(&value).unwrap_or_default();
    let Some(at) = at else { return b"{}".to_vec() };
    match line.at(at) {
        Some(b'{') => value_at(line, at, stack).map_or_else(|| b"{}".to_vec(), object),
        Some(b'"') => {
            let Ok(end) = line.skip_value(at, stack) else { return b"{}".to_vec() };
            let text = line.text((at + 1, end - 1)).unwrap_or_default();
            match serde_json::from_str::<Value>(&text) {
                Ok(parsed @ Value::Object(_)) => object(parsed),
                _ => {
                    let mut out = br#"{"input":"#.to_vec();
                    copy_str(&mut out, line, (at, end));
                    out.push(b'}');
                    out
                }
            }
        }
        _ => b"{}".to_vec(),
    }
}

/// A tool's output (the value at `at`) as content parts: the text and image parts of an array
/// that has some, else a string, or any other value as JSON text, as one text part.
fn tool_output(line: &Line<'_, '_>, at: Option<usize>, stack: &mut Vec<bool>) -> Vec<u8> {
    let Some(at) = at else { return b"[]".to_vec() };
    let structured = response_content(line, Some(at), stack);
    if structured.count > 0 {
        return structured.json;
    }
    let mut out = br#"[{"type":"text","text":"#.to_vec();
    if line.at(at) == Some(b'"') {
        let Ok(end) = line.skip_value(at, stack) else { return b"[]".to_vec() };
        copy_str(&mut out, line, (at, end));
    } else {
        let text = value_at(line, at, stack).map(|v| v.to_string()).unwrap_or_default();
        write_str(&mut out, &text);
    }
    out.extend_from_slice(b"}]");
    out
}

/// What `read` makes of a value of a payload read whole: it is written again and scanned, as
/// a line's value is read.
fn rescanned(
    value: Option<&Value>,
    read: fn(&Line<'_, '_>, Option<usize>, &mut Vec<bool>) -> Vec<u8>,
) -> Vec<u8> {
    let bytes = value.map(|v| serde_json::to_vec(v).unwrap_or_default()).unwrap_or_default();
    let mut scanner = Scanner::new();
    // What serde_json writes, the scanner reads.
    let Ok((line, stack)) = scanner.index(&bytes) else { return Vec::new() };
    read(&line, value.map(|_| 0), stack)
}

/// The thinking parts of a reasoning item (its `summary`, then its `content`), and their texts.
fn reasoning(payload: &Object<'_, '_, '_>, stack: &mut Vec<bool>) -> (Parts, Vec<String>) {
    let mut parts = Parts::new();
    let mut texts = Vec::new();
    for key in ["summary", "content"] {
        for at in payload.elements(key, stack).unwrap_or_default() {
            let Some(item) = Object::at(payload.line, at, stack) else { continue };
            let Some(text) = item.filled("text") else { continue };
            let out = parts.next();
            out.extend_from_slice(br#"{"type":"thinking","thinking":"#);
            copy_member(out, &item, "text");
            out.push(b'}');
            texts.push(text.into_owned());
        }
    }
    (parts.done(), texts)
}

/// A list of one content part.
fn one_part(part: &[u8]) -> Vec<u8> {
    [b"[", part, b"]"].concat()
}

/// A text part (`kind` `text`) or a thinking part (`thinking`) of `text`.
fn part(kind: &str, text: &str) -> Vec<u8> {
    let mut out = br#"{"type":""#.to_vec();
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(br#"",""#);
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(br#"":"#);
    write_str(&mut out, text);
    out.push(b'}');
    out
}

/// A tool call block; a custom tool's names its wire name too.
fn call(id: &str, name: &str, arguments: &[u8], custom: bool) -> Vec<u8> {
    let mut out = br#"{"type":"toolCall","id":"#.to_vec();
    write_str(&mut out, id);
    out.extend_from_slice(br#","name":"#);
    write_str(&mut out, name);
    out.extend_from_slice(br#","arguments":"#);
    out.extend_from_slice(arguments);
    if custom {
        out.extend_from_slice(br#","customWireName":"#);
        write_str(&mut out, name);
    }
    out.push(b'}');
    out
}

/// A user message of `content` (JSON: a string or parts).
fn user(content: &[u8], ms: i64) -> Says {
    let mut json = br#"{"role":"user","content":"#.to_vec();
    json.extend_from_slice(content);
    json.extend_from_slice(br#","timestamp":"#);
    json.extend_from_slice(ms.to_string().as_bytes());
    json.push(b'}');
    Says::Message { json, user: true }
}

fn assistant(content: &[u8], ms: i64, model: &str, stop: &str) -> Says {
    let mut json = br#"{"role":"assistant","content":"#.to_vec();
    json.extend_from_slice(content);
    json.extend_from_slice(
        br#","api":"openai-codex-responses","provider":"openai-codex","model":"#,
    );
    write_str(&mut json, model);
    json.extend_from_slice(
        br#","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"#,
    );
    write_str(&mut json, stop);
    json.extend_from_slice(br#","timestamp":"#);
    json.extend_from_slice(ms.to_string().as_bytes());
    json.push(b'}');
    Says::Message { json, user: false }
}

fn tool_result(call: &str, name: &str, content: &[u8], is_error: bool, ms: i64) -> Says {
    let mut json = br#"{"role":"toolResult","toolCallId":"#.to_vec();
    write_str(&mut json, call);
    json.extend_from_slice(br#","toolName":"#);
    write_str(&mut json, name);
    json.extend_from_slice(br#","content":"#);
    json.extend_from_slice(content);
    json.extend_from_slice(if is_error { br#","isError":true"# } else { br#","isError":false"# });
    json.extend_from_slice(br#","timestamp":"#);
    json.extend_from_slice(ms.to_string().as_bytes());
    json.push(b'}');
    Says::Message { json, user: false }
}

/// What one converted item says.
#[derive(Debug, Clone)]
enum Says {
    /// A message, as JSON; `user` when it is the user's.
    Message { json: Vec<u8>, user: bool },
    /// The model of the turns that follow.
    Model(String),
    /// A compaction: its summary, and what oh-my-pi preserves of Codex's replacement history.
    Compaction(String, Option<Value>),
    /// The last turns taken back.
    Rollback(u64),
    /// The thread's name.
    Title(String),
}

/// One converted item, with the line it comes from and its time.
#[derive(Debug, Clone)]
struct Item {
    line: u64,
    ms: i64,
    says: Says,
    /// Whether it is the second item of its line (the result that comes with a call).
    second: bool,
}

impl Item {
    fn is_user(&self) -> bool {
        matches!(self.says, Says::Message { user: true, .. })
    }
}

/// One line of a rollout, as read.
#[derive(Debug)]
struct Record {
    /// The time its `timestamp` says; `None` when it says none.
    ms: Option<i64>,
    /// What its payload says; `None` when it has no object payload.
    body: Option<Body>,
    /// What it says that the events repeating it must not say again.
    canon: Canon,
}

/// What a line's payload says.
#[derive(Debug)]
enum Body {
    /// `session_meta`.
    Meta(Meta),
    /// `turn_context`: its model, when it names one.
    Context(Option<String>),
    /// A response item or an event, as far as it is read alone.
    Said(Said),
    /// A `compacted` payload, read whole.
    Compacted(Map<String, Value>),
    /// Nothing that converts.
    Nothing,
}

/// What a `session_meta` payload names.
#[derive(Debug, Default)]
struct Meta {
    id: Option<String>,
    timestamp: Option<String>,
    cwd: Option<String>,
    forked_from_id: Option<String>,
    /// The time its `timestamp` says.
    ms: Option<i64>,
}

/// What a response item or an event says before what earlier lines said is known.
#[derive(Debug)]
enum Said {
    /// A user message's content.
    User(Vec<u8>),
    /// An assistant message's content.
    Assistant(Vec<u8>),
    /// A tool call: its id, tool name and block.
    Call {
        id: String,
        name: String,
        block: Vec<u8>,
    },
    /// A tool's output: the call's id, the content, whether it failed, and the tool's name
    /// when the call is not known.
    Output {
        id: String,
        content: Vec<u8>,
        failed: bool,
        unknown: &'static str,
    },
    /// The events that repeat a response item's text, unless one says it.
    UserEvent(String),
    AgentEvent(String),
    ReasoningEvent(String),
    /// Any other event that converts, read whole.
    Event(Map<String, Value>),
}

/// What a response item says that its events repeat.
#[derive(Debug, Default)]
struct Canon {
    user: Option<String>,
    assistant: Vec<String>,
    call: Option<String>,
}

/// Reads the line `line`; `None` when it is not a JSON object, or nests deeper than a parse
/// accepts.
fn read(scanner: &mut Scanner, line: &[u8]) -> Option<Record> {
    let bytes = readable(line)?;
    let (line, stack) = scanner.index(&bytes).ok()?;
    let record = Object::whole(&line, stack)?;
    if line.deepest() + 1 > MAX_NESTING {
        return None;
    }
    let mut canon = Canon::default();
    let body = record.object("payload", stack).map(|payload| match record.str("type").as_deref() {
        Some("session_meta") => Body::Meta(Meta {
            id: payload.str("id").map(Into::into),
            timestamp: payload.str("timestamp").map(Into::into),
            cwd: payload.str("cwd").map(Into::into),
            forked_from_id: payload.str("forked_from_id").map(Into::into),
            ms: stamp(&payload, "timestamp"),
        }),
        Some("turn_context") => Body::Context(payload.filled("model").map(Into::into)),
        Some("response_item") => {
            response_item(&payload, stack, &mut canon).map_or(Body::Nothing, Body::Said)
        }
        Some("event_msg") => event_said(&payload).map_or(Body::Nothing, Body::Said),
        Some("compacted") => whole(&payload).map_or(Body::Nothing, Body::Compacted),
        _ => Body::Nothing,
    });
    Some(Record { ms: stamp(&record, "timestamp"), body, canon })
}

/// An object of a line, parsed.
fn whole(object: &Object<'_, '_, '_>) -> Option<Map<String, Value>> {
    serde_json::from_slice(object.bytes()).ok()
}

/// A response item (oh-my-pi's `convertedResponseItem`), and what its events repeat.
fn response_item(
    payload: &Object<'_, '_, '_>,
    stack: &mut Vec<bool>,
    canon: &mut Canon,
) -> Option<Said> {
    let line = payload.line;
    let kind = payload.str("type")?;
    let id = || payload.filled("call_id").or_else(|| payload.filled("id"));
    if kind.contains("call") {
        canon.call = id().map(Into::into);
    }
    match &*kind {
        "message" => {
            let content = response_content(line, payload.start("content"), stack);
            let role = payload.str("role");
            match role.as_deref() {
                _ if content.text.is_empty() => {}
                Some("user") => canon.user = Some(content.text.clone()),
                Some("assistant") => canon.assistant.push(content.text.clone()),
                _ => {}
            }
            if content.count == 0 {
                return None;
            }
            match role?.as_ref() {
                "user" => Some(Said::User(content.json)),
                "assistant" => Some(Said::Assistant(content.json)),
                _ => None,
            }
        }
        "reasoning" => {
            let (content, texts) = reasoning(payload, stack);
            canon.assistant.extend(texts);
            (content.count > 0).then_some(Said::Assistant(content.json))
        }
        "function_call" | "custom_tool_call" => {
            let id = id()?;
            let name = payload.filled("name")?;
            let custom = kind == "custom_tool_call";
            let input = payload.start(if custom { "input" } else { "arguments" });
            let block = call(&id, &name, &tool_arguments(line, input, stack), custom);
            Some(Said::Call { id: id.into(), name: name.into(), block })
        }
        "function_call_output" | "custom_tool_call_output" => {
            let id = payload.filled("call_id")?;
            let content = tool_output(line, payload.start("output"), stack);
            Some(Said::Output { id: id.into(), content, failed: false, unknown: "unknown" })
        }
        "web_search_call" | "tool_search_call" => {
            let id = id()?;
            let web = kind == "web_search_call";
            let name = if web { "web_search" } else { "tool_search" };
            let input = payload.start(if web { "action" } else { "arguments" });
            let block = call(&id, name, &tool_arguments(line, input, stack), false);
            Some(Said::Call { id: id.into(), name: name.into(), block })
        }
        "tool_search_output" => {
            let id = payload.filled("call_id")?;
            let failed = payload.str("status").as_deref() == Some("failed");
            let content = tool_output(line, payload.start("tools"), stack);
            Some(Said::Output { id: id.into(), content, failed, unknown: "tool_search" })
        }
        _ => None,
    }
}

/// What an event says alone: the events repeating a response item read here, the others that
/// convert read whole (oh-my-pi's `convertedEvent`, [`event`]).
fn event_said(payload: &Object<'_, '_, '_>) -> Option<Said> {
    match payload.str("type").as_deref().unwrap_or_default() {
        "user_message" => Some(Said::UserEvent(payload.filled("message")?.into())),
        "agent_message" => Some(Said::AgentEvent(payload.filled("message")?.into())),
        "agent_reasoning" => Some(Said::ReasoningEvent(payload.filled("text")?.into())),
        "dynamic_tool_call_request"
        | "dynamic_tool_call_response"
        | "web_search_end"
        | "mcp_tool_call_end"
        | "thread_name_updated"
        | "thread_rolled_back" => whole(payload).map(Said::Event),
        _ => None,
    }
}

impl Said {
    /// What it says, once the lines before it are known: the model, the texts the response
    /// items say, and the names of the calls so far.
    fn says(
        &self,
        ms: i64,
        model: &str,
        canonical: &Canonical,
        names: &mut HashMap<String, String>,
    ) -> Vec<Says> {
        let one = |says: Says| vec![says];
        match self {
            Said::User(content) => one(user(content, ms)),
            Said::Assistant(content) => one(assistant(content, ms, model, "stop")),
            Said::Call { id, name, block } => {
                names.insert(id.clone(), name.clone());
                one(assistant(&one_part(block), ms, model, "toolUse"))
            }
            Said::Output { id, content, failed, unknown } => {
                let name = names.get(id).map_or(*unknown, String::as_str);
                one(tool_result(id, name, content, *failed, ms))
            }
            Said::UserEvent(text) if !canonical.users.contains(text) => {
                let mut content = Vec::new();
                write_str(&mut content, text);
                one(user(&content, ms))
            }
            Said::AgentEvent(text) if !canonical.assistants.contains(text) => {
                one(assistant(&one_part(&part("text", text)), ms, model, "stop"))
            }
            Said::ReasoningEvent(text) if !canonical.assistants.contains(text) => {
                one(assistant(&one_part(&part("thinking", text)), ms, model, "stop"))
            }
            Said::Event(payload) => event(payload, ms, model, canonical, names),
            Said::UserEvent(_) | Said::AgentEvent(_) | Said::ReasoningEvent(_) => Vec::new(),
        }
    }
}

/// What the response items say, which the events repeating them must not say again.
#[derive(Default)]
struct Canonical {
    users: HashSet<String>,
    assistants: HashSet<String>,
    calls: HashSet<String>,
}

impl Canonical {
    /// Takes what each record's response item says.
    fn of(records: &mut [(u64, Record)]) -> Canonical {
        let mut canonical = Canonical::default();
        for (_, record) in records {
            let canon = std::mem::take(&mut record.canon);
            canonical.users.extend(canon.user);
            canonical.assistants.extend(canon.assistant);
            canonical.calls.extend(canon.call);
        }
        canonical
    }
}

/// Everything a rollout says, in order, as oh-my-pi converts it (`load`), rollbacks included
/// as items.
fn items(records: &[(u64, Record)], canonical: &Canonical) -> Vec<Item> {
    let mut names: HashMap<String, String> = HashMap::default();
    let mut model = "codex".to_owned();
    let mut fallback = meta(records).map_or(0, |m| m.ms.unwrap_or(0));
    let mut out = Vec::new();
    for (line, record) in records {
        let ms = record.ms.unwrap_or(fallback);
        fallback = (fallback + 1).max(ms);
        let mut push = |says: Says, second: bool| out.push(Item { line: *line, ms, says, second });
        match &record.body {
            Some(Body::Context(Some(next))) if *next != model => {
                model = next.clone();
                push(Says::Model(model.clone()), false);
            }
            Some(Body::Said(said)) => {
                for (n, says) in
                    said.says(ms, &model, canonical, &mut names).into_iter().enumerate()
                {
                    push(says, n > 0);
                }
            }
            Some(Body::Compacted(payload)) => {
                if let Some(says) = compaction(payload) {
                    push(says, false);
                }
            }
            _ => {}
        }
    }
    out
}

/// A `compacted` line: its summary, and what oh-my-pi preserves of the replacement history.
fn compaction(payload: &Map<String, Value>) -> Option<Says> {
    let summary = string(payload, "message").map(str::trim).filter(|s| !s.is_empty());
    let history = payload
        .get("replacement_history")
        .filter(|h| h.as_array().is_some_and(|a| a.iter().all(Value::is_object)));
    if summary.is_none() && history.is_none() {
        return None;
    }
    let preserve = history.map(|history| {
        let item = history.as_array().into_iter().flatten().rev().find(|c| {
            (c["type"] == "compaction" && c["encrypted_content"].is_string())
                || c["type"] == "compaction_summary"
        });
        let mut remote = json!({"provider": "openai-codex", "replacementHistory": history});
        if let Some(item) = item {
            remote["compactionItem"] = item.clone();
        }
        json!({"openaiRemoteCompaction": remote})
    });
    let summary = summary.unwrap_or("Context compacted by Codex.").to_owned();
    Some(Says::Compaction(summary, preserve))
}

/// The `session_meta` payload.
fn meta(records: &[(u64, Record)]) -> Option<&Meta> {
    records.iter().find_map(|(_, r)| match &r.body {
        Some(Body::Meta(meta)) => Some(meta),
        _ => None,
    })
}

/// An event read whole (oh-my-pi's `convertedEvent`, but for the events repeating a response
/// item, [`Said::says`]): none, one item, or a call and its result.
fn event(
    payload: &Map<String, Value>,
    ms: i64,
    model: &str,
    canonical: &Canonical,
    names: &mut HashMap<String, String>,
) -> Vec<Says> {
    let one = |says: Says| vec![says];
    let arguments = |value: Option<&Value>| rescanned(value, tool_arguments);
    let output = |value: Option<&Value>| rescanned(value, tool_output);
    match string(payload, "type").unwrap_or_default() {
        "dynamic_tool_call_request" => {
            let id = filled(payload, "callId").or_else(|| filled(payload, "call_id"));
            match (id, filled(payload, "tool")) {
                (Some(id), Some(name)) if !canonical.calls.contains(id) => {
                    names.insert(id.to_owned(), name.to_owned());
                    let block = call(id, name, &arguments(payload.get("arguments")), false);
                    one(assistant(&one_part(&block), ms, model, "toolUse"))
                }
                _ => Vec::new(),
            }
        }
        "dynamic_tool_call_response" => {
            let Some(id) = filled(payload, "call_id").or_else(|| filled(payload, "callId")) else {
                return Vec::new();
            };
            if canonical.calls.contains(id) {
                return Vec::new();
            }
            let error = string(payload, "error");
            let name = names
                .get(id)
                .map(String::as_str)
                .or_else(|| string(payload, "tool"))
                .unwrap_or("unknown");
            let content = match error {
                Some(error) => one_part(&part("text", error)),
                None => output(payload.get("content_items")),
            };
            let failed = error.is_some() || payload.get("success") == Some(&json!(false));
            one(tool_result(id, name, &content, failed, ms))
        }
        "web_search_end" => {
            let Some(id) = filled(payload, "call_id") else { return Vec::new() };
            let name = names.get(id).cloned().unwrap_or_else(|| "web_search".into());
            let results = payload.get("results").filter(|r| !r.is_null()).or(payload.get("query"));
            let result = tool_result(id, &name, &output(results), false, ms);
            if canonical.calls.contains(id) || names.contains_key(id) {
                return one(result);
            }
            names.insert(id.to_owned(), name.clone());
            let input = payload.get("action").filter(|a| !a.is_null()).or(payload.get("query"));
            let block = call(id, &name, &arguments(input), false);
            vec![assistant(&one_part(&block), ms, model, "toolUse"), result]
        }
        "mcp_tool_call_end" => {
            let Some(id) = filled(payload, "call_id").filter(|id| !canonical.calls.contains(*id))
            else {
                return Vec::new();
            };
            let Some(invocation) = payload.get("invocation").and_then(Value::as_object) else {
                return Vec::new();
            };
            let (Some(server), Some(tool)) =
                (filled(invocation, "server"), filled(invocation, "tool"))
            else {
                return Vec::new();
            };
            let name = format!("{server}/{tool}");
            names.insert(id.to_owned(), name.clone());
            let block = call(id, &name, &arguments(invocation.get("arguments")), false);
            let result = payload.get("result");
            let ok = result.and_then(|r| r.get("Ok")).filter(|o| o.is_object()).or(result);
            let error = result.and_then(|r| r.get("Err")).and_then(Value::as_str);
            let content = match error {
                Some(error) => one_part(&part("text", error)),
                None => output(match ok {
                    Some(Value::Object(ok)) => ok.get("content"),
                    other => other,
                }),
            };
            let failed = error.is_some() || ok.and_then(|o| o.get("isError")) == Some(&json!(true));
            vec![
                assistant(&one_part(&block), ms, model, "toolUse"),
                tool_result(id, &name, &content, failed, ms),
            ]
        }
        "thread_name_updated" => {
            string(payload, "thread_name").map(|t| Says::Title(t.to_owned())).into_iter().collect()
        }
        "thread_rolled_back" => {
            let turns = payload.get("num_turns").and_then(Value::as_f64).unwrap_or(0.0);
            one(Says::Rollback(turns.max(0.0) as u64))
        }
        _ => Vec::new(),
    }
}

/// The entry (without id, parent and time) an item other than a message makes, if any; `id`
/// is the entry's own (a compaction keeps nothing before it).
fn entry(says: &Says, id: &str, to: Dialect) -> Option<Value> {
    Some(match says {
        Says::Message { json, .. } => {
            json!({"type": "message", "message": serde_json::from_slice::<Value>(json).ok()?})
        }
        Says::Model(model) => match to {
            Dialect::Omp => {
                json!({"type": "model_change", "model": format!("openai-codex/{model}")})
            }
            Dialect::Pi => {
                json!({"type": "model_change", "provider": "openai-codex", "modelId": model})
            }
        },
        Says::Compaction(summary, preserve) => {
            let mut entry = json!({"type": "compaction", "summary": summary,
                "shortSummary": "Imported Codex compaction", "firstKeptEntryId": id,
                "tokensBefore": 0});
            if let Some(preserve) = preserve {
                entry["preserveData"] = preserve.clone();
            }
            entry
        }
        Says::Rollback(_) | Says::Title(_) => return None,
    })
}

/// An entry line: `type, id, parentId, timestamp`, then the fields of `body`.
fn line(body: Value, id: &str, parent: Option<&str>, timestamp: &str) -> Value {
    let Value::Object(body) = body else { return body };
    let mut entry = Map::new();
    entry.insert("type".into(), body.get("type").cloned().unwrap_or_default());
    entry.insert("id".into(), json!(id));
    entry.insert("parentId".into(), json!(parent));
    entry.insert("timestamp".into(), json!(timestamp));
    entry.extend(body.into_iter().filter(|(k, _)| k != "type"));
    Value::Object(entry)
}

/// The last title the rollout gives its thread.
fn title(items: &[Item]) -> Option<String> {
    items.iter().rev().find_map(|item| match &item.says {
        Says::Title(t) => Some(t.clone()),
        _ => None,
    })
}

/// The lines of `input`, read a batch at a time on every core, with what the response items
/// say that their events repeat.
fn records(input: &[u8]) -> (Vec<(u64, Record)>, Canonical) {
    let mut records = Vec::new();
    each_line(input, 1, read, |line, record| records.push((line, record)));
    let canonical = Canonical::of(&mut records);
    (records, canonical)
}

/// Writes the rollout `input` as a session: see the module docs.
pub fn transcode(input: &[u8]) -> Transcoded {
    let (records, canonical) = records(input);
    let items = items(&records, &canonical);
    let meta = meta(&records);
    let field = |key: fn(&Meta) -> &Option<String>| {
        meta.and_then(|m| key(m).as_deref()).unwrap_or_default()
    };
    let mut header = json!({"type": "session", "version": super::WRITE_VERSION,
        "id": field(|m| &m.id), "timestamp": field(|m| &m.timestamp), "cwd": field(|m| &m.cwd)});
    if let Some(title) = title(&items).and_then(|t| crate::naming::clean_name(&t)) {
        header["title"] = json!(title);
        header["titleSource"] = json!("auto");
    }
    // A fork is a rollout of its own, naming the thread it came from: the session it came from,
    // as pi's and oh-my-pi's headers name theirs (`ls --tree` hangs it there).
    if let Some(parent) = meta.and_then(|m| m.forked_from_id.as_deref()).filter(|p| !p.is_empty()) {
        header["parentSession"] = json!(parent);
    }
    let mut out = Transcoded::default();
    out.bytes.reserve(input.len());
    out.push(&header, records.first().map_or(1, |(line, _)| *line));
    // The path to the current end of the rollout: (id, whether a user message).
    let mut path: Vec<(String, bool)> = Vec::new();
    for item in &items {
        if let Says::Rollback(turns) = item.says {
            for _ in 0..turns {
                let Some(user) = path.iter().rposition(|(_, user)| *user) else { break };
                path.truncate(user);
            }
            continue;
        }
        let id = if item.second { format!("L{}.2", item.line) } else { format!("L{}", item.line) };
        let parent = path.last().map(|(id, _)| id.as_str());
        let timestamp = crate::clock::format_iso_millis(item.ms);
        if let Says::Message { json, .. } = &item.says {
            // Straight into the bytes, as `line` orders an entry's members.
            let bytes = &mut out.bytes;
            bytes.extend_from_slice(br#"{"type":"message","id":"#);
            write_str(bytes, &id);
            bytes.extend_from_slice(br#","parentId":"#);
            match parent {
                Some(parent) => write_str(bytes, parent),
                None => bytes.extend_from_slice(b"null"),
            }
            bytes.extend_from_slice(br#","timestamp":"#);
            write_str(bytes, &timestamp);
            bytes.extend_from_slice(br#","message":"#);
            bytes.extend_from_slice(json);
            bytes.extend_from_slice(b"}\n");
            out.lines.push(item.line);
        } else {
            let Some(body) = entry(&item.says, &id, Dialect::Omp) else { continue };
            out.push(&line(body, &id, parent, &timestamp), item.line);
        }
        path.push((id, item.is_user()));
    }
    out.leaf = path.pop().map(|(id, _)| id);
    out
}

/// What oh-my-pi 18.2.3's importer makes of the rollout `input` (`CodexSessionStore.load`):
/// the items left after the rollbacks, in one chain, named `codex-<n>` in base 36 by their
/// place among the items (names and empty rollbacks count), and the thread's last name as an
/// automatic title.
pub fn import(input: &[u8], to: Dialect) -> Imported {
    let (records, canonical) = records(input);
    let all = items(&records, &canonical);
    let mut kept: Vec<Item> = Vec::new();
    for item in all.iter().cloned() {
        match item.says {
            Says::Rollback(turns) if turns > 0 => {
                for _ in 0..turns {
                    let Some(user) = kept.iter().rposition(Item::is_user) else { break };
                    kept.truncate(user);
                }
            }
            _ => kept.push(item),
        }
    }
    let meta = meta(&records);
    let mut imported = Imported {
        cwd: meta.and_then(|m| m.cwd.clone()),
        session_id: meta.and_then(|m| m.id.clone()),
        title: title(&all)
            .and_then(|t| crate::naming::clean_name(&t))
            .map(|t| (t, crate::naming::TitleSource::Auto)),
        title_trigger: Some("codex-import"),
        ..Imported::default()
    };
    let mut parent: Option<String> = None;
    for (n, item) in kept.iter().enumerate() {
        let id = format!("codex-{}", base36(n as u64 + 1));
        let Some(body) = entry(&item.says, &id, to) else { continue };
        let timestamp = crate::clock::format_iso_millis(item.ms);
        imported.entries.push(line(body, &id, parent.as_deref(), &timestamp));
        imported.ids.insert(id.clone());
        parent = Some(id);
    }
    imported.leaf = parent;
    imported
}

/// `n` in base 36, as JavaScript's `n.toString(36)`.
fn base36(mut n: u64) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_are_written_as_javascript_writes_them_in_base_36() {
        assert_eq!([1, 9, 10, 35, 36, 1296].map(base36), ["1", "9", "a", "z", "10", "100"]);
    }

    #[test]
    fn a_rollout_is_told_by_its_lines_shape() {
        let object = |line: &str| serde_json::from_str::<Map<String, Value>>(line).unwrap();
        assert!(is_rollout(&object(
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}"#
        )));
        assert!(is_rollout(&object(r#"{"type":"response_item","payload":{"type":"message"}}"#)));
        assert!(!is_rollout(&object(r#"{"type":"session_meta","payload":"x"}"#)));
        assert!(!is_rollout(&object(r#"{"type":"message","id":"a","payload":{}}"#)));
    }

    /// A string written as `{"s":RAW}` and copied as serde_json writes it.
    fn copied(raw: &str) -> String {
        let line = format!(r#"{{"s":{raw}}}"#);
        let mut scanner = Scanner::new();
        let (line, stack) = scanner.index(line.as_bytes()).unwrap();
        let object = Object::whole(&line, stack).unwrap();
        let mut out = Vec::new();
        assert!(copy_member(&mut out, &object, "s"));
        String::from_utf8(out).unwrap()
    }

    /// Another writer's escapes: every character but printable ASCII as `\uXXXX` (in upper or
    /// lower case, surrogate pairs above the BMP), and `/` as `\/`.
    fn escaped_otherwise(s: &str, upper: bool) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '/' => out.push_str("\\/"),
                ' '..='~' => out.push(c),
                _ => {
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        let hex = format!("{unit:04x}");
                        out.push_str("\\u");
                        out.push_str(&if upper { hex.to_uppercase() } else { hex });
                    }
                }
            }
        }
        out.push('"');
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 1000, failure_persistence: None, ..Default::default()
        })]

        /// Text is copied as serde_json writes it, whatever escapes the rollout wrote it with.
        #[test]
        fn text_is_copied_as_serde_json_writes_it(s in "\\PC*|[\\x00-\\x20\"\\\\/é😀]*", upper: bool) {
            let serde = serde_json::to_string(&s).unwrap();
            proptest::prop_assert_eq!(&copied(&serde), &serde);
            proptest::prop_assert_eq!(&copied(&escaped_otherwise(&s, upper)), &serde);
        }
    }

    #[test]
    fn the_session_s_lines_are_what_a_parse_and_a_print_of_them_give() {
        // Escapes serde_json writes otherwise, numbers as written, an image, a custom tool's
        // input that is no JSON, outputs that are no text, events that do and do not repeat a
        // response item, a payload that is no object: each line reads as its value prints.
        let input = concat!(
            r#"{"timestamp":"2026-03-01T10:00:00Z","type":"session_meta","payload":{"id":"s","cwd":"/w","timestamp":"2026-03-01T10:00:00Z"}}"#,
            "\n",
            r#"{"timestamp":1772359201,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a \/ \u00E9 \u001B \ud83d\ude00"},{"type":"input_image","image_url":"data:image/png;base64,QUJD","detail":"high"}]}}"#,
            "\n",
            r#"{"type":"event_msg","payload":{"type":"user_message","message":"a / é \u001b 😀"}}"#,
            "\n",
            r#"{"type":"event_msg","payload":{"type":"user_message","message":"typed \"here\""}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":{"b":1.50,"a":[1e5],"b":3},"call_id":"c1"}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":{"exit":0}}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin\n\"x\"","call_id":"c2"}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c2","output":null}}"#,
            "\n",
            r#"{"type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"m","invocation":{"server":"s","tool":"t","arguments":{"k":"v"}},"result":{"Err":"boom"}}}"#,
            "\n",
            r#"{"type":"response_item","payload":"no object"}"#,
            "\n",
        );
        let t = transcode(input.as_bytes());
        let lines: Vec<&[u8]> = t.bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        for line in &lines {
            let value: Value = serde_json::from_slice(line).unwrap();
            assert_eq!(serde_json::to_vec(&value).unwrap(), *line);
        }
        let ids: Vec<Value> = lines[1..]
            .iter()
            .map(|l| serde_json::from_slice::<Value>(l).unwrap()["id"].clone())
            .collect();
        // The user_message repeating L2 is left out; the one typed alone is kept.
        assert_eq!(ids, ["L2", "L4", "L5", "L6", "L7", "L8", "L9", "L9.2"]);
        let entry = |i: usize| serde_json::from_slice::<Value>(lines[i]).unwrap();
        assert_eq!(entry(1)["message"]["content"][0]["text"], "a / é \u{1b} 😀");
        assert_eq!(entry(1)["message"]["content"][1]["detail"], "high");
        assert_eq!(entry(1)["message"]["timestamp"], 1_772_359_201_000_i64);
        let arguments: Value = serde_json::from_str(r#"{"b":3,"a":[1e5]}"#).unwrap();
        assert_eq!(entry(3)["message"]["content"][0]["arguments"], arguments);
        assert_eq!(entry(4)["message"]["content"][0]["text"], r#"{"exit":0}"#);
        assert_eq!(entry(5)["message"]["content"][0]["arguments"]["input"], "*** Begin\n\"x\"");
        assert_eq!(entry(6)["message"]["content"][0]["text"], "null");
        assert_eq!(entry(8)["message"]["toolName"], "s/t");
    }

    #[test]
    fn a_rollback_of_more_turns_than_there_are_takes_back_what_there_is() {
        let input = concat!(
            r#"{"type":"session_meta","payload":{"id":"s","cwd":"/w","timestamp":"2026-01-01T00:00:00Z"}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"b"}]}}"#,
            "\n",
            r#"{"type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":5}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"c"}]}}"#,
            "\n",
        );
        let t = transcode(input.as_bytes());
        assert_eq!(t.leaf.as_deref(), Some("L5"));
        let text = String::from_utf8(t.bytes).unwrap();
        // The turn taken back stays, and the next prompt starts a second root.
        assert!(text.contains(r#""id":"L5","parentId":null"#), "{text}");
        let imported = import(input.as_bytes(), Dialect::Omp);
        let ids: Vec<&str> = imported.entries.iter().map(|e| e["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["codex-1"]);
    }
}
