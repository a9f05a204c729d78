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

use serde_json::{Map, Value, json};

use super::Dialect;
use super::transcript::{Imported, Transcoded, records};

/// The types of a rollout's lines.
const LINE_TYPES: &[&str] =
    &["session_meta", "response_item", "turn_context", "event_msg", "compacted"];

/// Whether a file whose first record is `record` is a Codex rollout.
pub fn is_rollout(record: &Map<String, Value>) -> bool {
    let kind = record.get("type").and_then(Value::as_str);
    record.get("payload").is_some_and(Value::is_object)
        && kind.is_some_and(|k| LINE_TYPES.contains(&k))
}

/// Member `key` of `record`, when it is a string.
fn string<'a>(record: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    record.get(key).and_then(Value::as_str)
}

/// Member `key` of `record`, when it is a non-empty string (JavaScript's `if (!value)`).
fn filled<'a>(record: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    string(record, key).filter(|s| !s.is_empty())
}

/// A time as oh-my-pi reads it: epoch seconds or milliseconds, or an ISO string.
fn millis(value: Option<&Value>, fallback: i64) -> i64 {
    match value {
        Some(Value::Number(n)) => match n.as_f64().filter(|n| n.is_finite()) {
            Some(n) if n < 10_000_000_000.0 => (n * 1000.0) as i64,
            Some(n) => n as i64,
            None => fallback,
        },
        Some(Value::String(s)) => crate::clock::parse_timestamp(s).unwrap_or(fallback),
        _ => fallback,
    }
}

/// What one converted item says.
#[derive(Debug, Clone)]
enum Says {
    /// A message.
    Message(Value),
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
        matches!(&self.says, Says::Message(m) if m["role"] == "user")
    }
}

/// The text and image parts of a response item's content.
fn response_content(value: Option<&Value>) -> Vec<Value> {
    let mut content = Vec::new();
    for item in value.and_then(Value::as_array).into_iter().flatten() {
        let Some(item) = item.as_object() else { continue };
        let kind = string(item, "type");
        if let (Some("input_text" | "output_text" | "text"), Some(text)) =
            (kind, string(item, "text"))
        {
            content.push(json!({"type": "text", "text": text}));
        } else if kind == Some("input_image")
            && let Some(image) = image_from_url(item.get("image_url"), item.get("detail"))
        {
            content.push(image);
        }
    }
    content
}

/// An image given as a `data:` URL.
fn image_from_url(url: Option<&Value>, detail: Option<&Value>) -> Option<Value> {
    let url = url?.as_str()?.strip_prefix("data:")?;
    let (mime, data) = url.split_once(";base64,")?;
    if mime.is_empty() || mime.contains([';', ',']) || data.is_empty() {
        return None;
    }
    let mut image = json!({"type": "image", "mimeType": mime, "data": data});
    if let Some(detail) = detail
        .and_then(Value::as_str)
        .filter(|d| matches!(*d, "auto" | "low" | "high" | "original"))
    {
        image["detail"] = json!(detail);
    }
    Some(image)
}

/// The text of a response item's content, its text parts joined.
fn text_of(value: Option<&Value>) -> String {
    response_content(value).iter().filter_map(|p| p["text"].as_str()).collect()
}

/// A tool call's arguments: an object, a JSON object in a string, else `{input}`.
fn tool_arguments(value: Option<&Value>) -> Value {
    match value {
        Some(Value::Object(_)) => value.cloned().unwrap_or_default(),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(parsed @ Value::Object(_)) => parsed,
            _ => json!({"input": s}),
        },
        _ => json!({}),
    }
}

/// A tool's output as content parts.
fn tool_output(value: Option<&Value>) -> Vec<Value> {
    let structured = response_content(value);
    if !structured.is_empty() {
        return structured;
    }
    match value {
        Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
        None => Vec::new(),
        Some(other) => vec![json!({"type": "text", "text": other.to_string()})],
    }
}

/// The thinking parts of a reasoning item (its `summary`, then its `content`).
fn reasoning(payload: &Map<String, Value>) -> Vec<Value> {
    ["summary", "content"]
        .iter()
        .filter_map(|key| payload.get(*key).and_then(Value::as_array))
        .flatten()
        .filter_map(|item| filled(item.as_object()?, "text"))
        .map(|text| json!({"type": "thinking", "thinking": text}))
        .collect()
}

fn assistant(content: Vec<Value>, ms: i64, model: &str, stop: &str) -> Says {
    Says::Message(json!({
        "role": "assistant",
        "content": content,
        "api": "openai-codex-responses",
        "provider": "openai-codex",
        "model": model,
        "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
        "stopReason": stop,
        "timestamp": ms,
    }))
}

fn tool_result(call: &str, name: &str, content: Vec<Value>, is_error: bool, ms: i64) -> Says {
    Says::Message(json!({"role": "toolResult", "toolCallId": call, "toolName": name,
        "content": content, "isError": is_error, "timestamp": ms}))
}

fn call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"type": "toolCall", "id": id, "name": name, "arguments": arguments})
}

/// What the response items say, which the events repeating them must not say again.
#[derive(Default)]
struct Canonical {
    users: std::collections::HashSet<String>,
    assistants: std::collections::HashSet<String>,
    calls: std::collections::HashSet<String>,
}

impl Canonical {
    fn of(records: &[(u64, Map<String, Value>)]) -> Canonical {
        let mut canonical = Canonical::default();
        for (_, record) in records {
            if string(record, "type") != Some("response_item") {
                continue;
            }
            let Some(payload) = record.get("payload").and_then(Value::as_object) else { continue };
            let kind = string(payload, "type").unwrap_or_default();
            if let Some(id) = filled(payload, "call_id").or_else(|| filled(payload, "id"))
                && kind.contains("call")
            {
                canonical.calls.insert(id.to_owned());
            }
            if kind == "message" {
                let text = text_of(payload.get("content"));
                match string(payload, "role") {
                    _ if text.is_empty() => {}
                    Some("user") => _ = canonical.users.insert(text),
                    Some("assistant") => _ = canonical.assistants.insert(text),
                    _ => {}
                }
            } else if kind == "reasoning" {
                for part in reasoning(payload) {
                    canonical
                        .assistants
                        .insert(part["thinking"].as_str().unwrap_or_default().into());
                }
            }
        }
        canonical
    }
}

/// Everything a rollout says, in order, as oh-my-pi converts it (`load`), rollbacks included
/// as items; and the session id, working directory and creation time its `session_meta` names.
fn items(records: &[(u64, Map<String, Value>)]) -> Vec<Item> {
    let canonical = Canonical::of(records);
    let meta = meta(records);
    let mut names: std::collections::HashMap<String, String> = Default::default();
    let mut model = "codex".to_owned();
    let mut fallback = meta.and_then(|m| m.get("timestamp")).map_or(0, |t| millis(Some(t), 0));
    let mut out = Vec::new();
    for (line, record) in records {
        let ms = millis(record.get("timestamp"), fallback);
        fallback = (fallback + 1).max(ms);
        let Some(payload) = record.get("payload").and_then(Value::as_object) else { continue };
        let mut push = |says: Says, second: bool| out.push(Item { line: *line, ms, says, second });
        match string(record, "type") {
            Some("turn_context") => {
                if let Some(next) = filled(payload, "model").filter(|m| *m != model) {
                    model = next.to_owned();
                    push(Says::Model(model.clone()), false);
                }
            }
            Some("response_item") => {
                if let Some(says) = response_item(payload, ms, &model, &mut names) {
                    push(says, false);
                }
            }
            Some("event_msg") => {
                for (n, says) in
                    event(payload, ms, &model, &canonical, &mut names).into_iter().enumerate()
                {
                    push(says, n > 0);
                }
            }
            Some("compacted") => {
                let summary = string(payload, "message").map(str::trim).filter(|s| !s.is_empty());
                let history = payload
                    .get("replacement_history")
                    .filter(|h| h.as_array().is_some_and(|a| a.iter().all(Value::is_object)));
                if summary.is_some() || history.is_some() {
                    let preserve = history.map(|history| {
                        let item = history.as_array().into_iter().flatten().rev().find(|c| {
                            (c["type"] == "compaction" && c["encrypted_content"].is_string())
                                || c["type"] == "compaction_summary"
                        });
                        let mut remote =
                            json!({"provider": "openai-codex", "replacementHistory": history});
                        if let Some(item) = item {
                            remote["compactionItem"] = item.clone();
                        }
                        json!({"openaiRemoteCompaction": remote})
                    });
                    let summary = summary.unwrap_or("Context compacted by Codex.").to_owned();
                    push(Says::Compaction(summary, preserve), false);
                }
            }
            _ => {}
        }
    }
    out
}

/// The `session_meta` payload.
fn meta(records: &[(u64, Map<String, Value>)]) -> Option<&Map<String, Value>> {
    records
        .iter()
        .find(|(_, r)| string(r, "type") == Some("session_meta") && r["payload"].is_object())
        .and_then(|(_, r)| r["payload"].as_object())
}

/// A response item (oh-my-pi's `convertedResponseItem`).
fn response_item(
    payload: &Map<String, Value>,
    ms: i64,
    model: &str,
    names: &mut std::collections::HashMap<String, String>,
) -> Option<Says> {
    let kind = string(payload, "type")?;
    match kind {
        "message" => {
            let content = response_content(payload.get("content"));
            if content.is_empty() {
                return None;
            }
            match string(payload, "role")? {
                "user" => Some(Says::Message(json!({"role": "user", "content": content,
                    "timestamp": ms}))),
                "assistant" => Some(assistant(content, ms, model, "stop")),
                _ => None,
            }
        }
        "reasoning" => {
            let content = reasoning(payload);
            (!content.is_empty()).then(|| assistant(content, ms, model, "stop"))
        }
        "function_call" | "custom_tool_call" => {
            let id = filled(payload, "call_id").or_else(|| filled(payload, "id"))?;
            let name = filled(payload, "name")?;
            names.insert(id.to_owned(), name.to_owned());
            let custom = kind == "custom_tool_call";
            let input = if custom { payload.get("input") } else { payload.get("arguments") };
            let mut block = call(id, name, tool_arguments(input));
            if custom {
                block["customWireName"] = json!(name);
            }
            Some(assistant(vec![block], ms, model, "toolUse"))
        }
        "function_call_output" | "custom_tool_call_output" => {
            let id = filled(payload, "call_id")?;
            let name = names.get(id).map_or("unknown", String::as_str);
            Some(tool_result(id, name, tool_output(payload.get("output")), false, ms))
        }
        "web_search_call" | "tool_search_call" => {
            let id = filled(payload, "call_id").or_else(|| filled(payload, "id"))?;
            let web = kind == "web_search_call";
            let name = if web { "web_search" } else { "tool_search" };
            names.insert(id.to_owned(), name.to_owned());
            let input = if web { payload.get("action") } else { payload.get("arguments") };
            Some(assistant(vec![call(id, name, tool_arguments(input))], ms, model, "toolUse"))
        }
        "tool_search_output" => {
            let id = filled(payload, "call_id")?;
            let name = names.get(id).map_or("tool_search", String::as_str);
            let failed = payload.get("status") == Some(&json!("failed"));
            Some(tool_result(id, name, tool_output(payload.get("tools")), failed, ms))
        }
        _ => None,
    }
}

/// An event (oh-my-pi's `convertedEvent`): none, one item, or a call and its result.
fn event(
    payload: &Map<String, Value>,
    ms: i64,
    model: &str,
    canonical: &Canonical,
    names: &mut std::collections::HashMap<String, String>,
) -> Vec<Says> {
    let one = |says: Says| vec![says];
    match string(payload, "type").unwrap_or_default() {
        "user_message" => match filled(payload, "message") {
            Some(text) if !canonical.users.contains(text) => {
                one(Says::Message(json!({"role": "user", "content": text, "timestamp": ms})))
            }
            _ => Vec::new(),
        },
        "agent_message" => match filled(payload, "message") {
            Some(text) if !canonical.assistants.contains(text) => {
                one(assistant(vec![json!({"type": "text", "text": text})], ms, model, "stop"))
            }
            _ => Vec::new(),
        },
        "agent_reasoning" => match filled(payload, "text") {
            Some(text) if !canonical.assistants.contains(text) => one(assistant(
                vec![json!({"type": "thinking", "thinking": text})],
                ms,
                model,
                "stop",
            )),
            _ => Vec::new(),
        },
        "dynamic_tool_call_request" => {
            let id = filled(payload, "callId").or_else(|| filled(payload, "call_id"));
            match (id, filled(payload, "tool")) {
                (Some(id), Some(name)) if !canonical.calls.contains(id) => {
                    names.insert(id.to_owned(), name.to_owned());
                    let block = call(id, name, tool_arguments(payload.get("arguments")));
                    one(assistant(vec![block], ms, model, "toolUse"))
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
                Some(error) => vec![json!({"type": "text", "text": error})],
                None => tool_output(payload.get("content_items")),
            };
            let failed = error.is_some() || payload.get("success") == Some(&json!(false));
            one(tool_result(id, name, content, failed, ms))
        }
        "web_search_end" => {
            let Some(id) = filled(payload, "call_id") else { return Vec::new() };
            let name = names.get(id).cloned().unwrap_or_else(|| "web_search".into());
            let output = payload.get("results").filter(|r| !r.is_null()).or(payload.get("query"));
            let result = tool_result(id, &name, tool_output(output), false, ms);
            if canonical.calls.contains(id) || names.contains_key(id) {
                return one(result);
            }
            names.insert(id.to_owned(), name.clone());
            let input = payload.get("action").filter(|a| !a.is_null()).or(payload.get("query"));
            let block = call(id, &name, tool_arguments(input));
            vec![assistant(vec![block], ms, model, "toolUse"), result]
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
            let block = call(id, &name, tool_arguments(invocation.get("arguments")));
            let result = payload.get("result");
            let ok = result.and_then(|r| r.get("Ok")).filter(|o| o.is_object()).or(result);
            let error = result.and_then(|r| r.get("Err")).and_then(Value::as_str);
            let content = match error {
                Some(error) => vec![json!({"type": "text", "text": error})],
                None => tool_output(match ok {
                    Some(Value::Object(ok)) => ok.get("content"),
                    other => other,
                }),
            };
            let failed = error.is_some() || ok.and_then(|o| o.get("isError")) == Some(&json!(true));
            vec![
                assistant(vec![block], ms, model, "toolUse"),
                tool_result(id, &name, content, failed, ms),
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

/// The entry (without id, parent and time) an item makes, if any; `id` is the entry's own
/// (a compaction keeps nothing before it).
fn entry(says: &Says, id: &str, to: Dialect) -> Option<Value> {
    Some(match says {
        Says::Message(message) => json!({"type": "message", "message": message}),
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

/// The time of an item's entry: its message's, else its own.
fn entry_time(item: &Item) -> String {
    let ms = match &item.says {
        Says::Message(m) => m["timestamp"].as_i64().unwrap_or(item.ms),
        _ => item.ms,
    };
    crate::clock::format_iso_millis(ms)
}

/// The last title the rollout gives its thread.
fn title(items: &[Item]) -> Option<String> {
    items.iter().rev().find_map(|item| match &item.says {
        Says::Title(t) => Some(t.clone()),
        _ => None,
    })
}

/// Writes the rollout `input` as a session: see the module docs.
pub fn transcode(input: &[u8]) -> Transcoded {
    let records = records(input);
    let items = items(&records);
    let meta = meta(&records);
    let field = |key: &str| meta.and_then(|m| string(m, key)).unwrap_or_default();
    let mut header = json!({"type": "session", "version": super::WRITE_VERSION,
        "id": field("id"), "timestamp": field("timestamp"), "cwd": field("cwd")});
    if let Some(title) = title(&items).and_then(|t| crate::naming::clean_name(&t)) {
        header["title"] = json!(title);
        header["titleSource"] = json!("auto");
    }
    // A fork is a rollout of its own, naming the thread it came from: the session it came from,
    // as pi's and oh-my-pi's headers name theirs (`ls --tree` hangs it there).
    if let Some(parent) = meta.and_then(|m| string(m, "forked_from_id")).filter(|p| !p.is_empty()) {
        header["parentSession"] = json!(parent);
    }
    let mut out = Transcoded::default();
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
        let Some(body) = entry(&item.says, &id, Dialect::Omp) else { continue };
        let parent = path.last().map(|(id, _)| id.as_str());
        out.push(&line(body, &id, parent, &entry_time(item)), item.line);
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
    let records = records(input);
    let all = items(&records);
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
        cwd: meta.and_then(|m| string(m, "cwd")).map(str::to_owned),
        session_id: meta.and_then(|m| string(m, "id")).map(str::to_owned),
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
        imported.entries.push(line(body, &id, parent.as_deref(), &entry_time(item)));
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
