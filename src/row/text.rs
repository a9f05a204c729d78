//! How one entry reads as text: its one-line row (FORMAT §9.3), its searchable text and the two
//! matchers (§9.4), and the filter modes (§9.2), all worked out from the entry's view
//! ([`Entry`]).
//!
//! Nothing here fails: `log` and `tree` show damaged files too, so a missing or ill-typed field
//! yields a plain fallback text instead of an error. Nothing here prints or reads the
//! environment; the home directory used to shorten paths is handed in
//! ([`Entry::from_value`]).
//!
//! Transcript text comes back as written, apart from the folding of line breaks and tabs that
//! makes a row one line. Callers writing text to a terminal pass it through
//! [`crate::terminal::sanitize_for_terminal`] last, so `--json` keeps the exact text.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::format::entry::Role;
use crate::row::cut::{TEXT_LIMIT, cut_chars, one_row, push_one_row, truncated};
use crate::row::entry::{Body, CustomMessage, Entry, Message};

/// How much of an assistant's error text a row shows, in characters.
const ERROR_LIMIT: usize = 80;

// ---------------------------------------------------------------------------------------------
// Tool calls

/// The tool calls of a session by `toolCallId`. A call is kept as what the row of its result shows
/// (`[read: ~/src/main.rs:10-19]`), worked out when its entry is read ([`Entry::from_value`]):
/// a session's calls are kept until their results are read, and the row is a few dozen bytes
/// where the arguments (file contents of `write`, both sides of `edit`) can be megabytes.
///
/// A `toolResult` row shows the call it answers (`[read: ~/src/main.rs:10-19]`), and that call
/// lives in an earlier assistant message, so callers [`add`](ToolCalls::add) every assistant
/// message they can reach before rendering results. The agent's selector collects the calls of
/// the whole tree; for `log`, the path from the root is enough, since a result always follows
/// its call.
#[derive(Debug, Clone, Default)]
pub struct ToolCalls {
    calls: HashMap<Box<str>, Box<str>, foldhash::fast::RandomState>,
}

impl ToolCalls {
    /// Records the `toolCall` blocks of an assistant `message` entry; any other entry is
    /// ignored. A later call with the same id replaces an earlier one, as in the agent.
    pub fn add(&mut self, entry: &Entry<'_>) {
        self.calls.extend(ToolCalls::of(entry).map(|(id, shown)| (id.into(), shown.into())));
    }

    /// The `toolCall` blocks of an assistant `message` entry, in order, each by its id and
    /// the row text of its result (before the row's last fold, [`one_line`]'s): what
    /// [`ToolCalls::add`] records. Any other entry has none.
    pub(crate) fn of<'e>(entry: &'e Entry<'_>) -> impl Iterator<Item = (&'e str, &'e str)> {
        let calls = match &entry.body {
            Body::Message(m) if m.role == Some(Role::Assistant) => &m.content.calls[..],
            _ => &[],
        };
        calls.iter().map(|call| (&*call.id, call.shown.as_str()))
    }

    /// The row of the call with this `toolCallId`.
    pub fn get(&self, tool_call_id: &str) -> Option<&str> {
        self.calls.get(tool_call_id).map(Box::as_ref)
    }

    /// The call a tool-result entry answers, as its row shows it: `None` for another entry, or
    /// a call not recorded.
    pub(crate) fn call_of(&self, entry: &Entry<'_>) -> Option<&str> {
        self.get(entry.answers()?)
    }
}

// ---------------------------------------------------------------------------------------------
// One-line text

/// The text for records that are not objects or have no string `type`. They are kept and shown
/// (SPEC §1), and nothing else about them is known.
pub const RECORD_TEXT: &str = "[record]";

/// The one-line text of an entry, as the agent's tree selector shows it (FORMAT §9.3), and
/// whether it cut the entry's own text short.
///
/// Line breaks and tabs become spaces and the result is trimmed, so it is always one line.
/// Message text is cut at 200 characters; `custom_message` and `branch_summary` text is not
/// cut. Records that are not objects or have no string `type` read [`RECORD_TEXT`]. The text is
/// not escaped for a terminal: see [`crate::terminal::sanitize_for_terminal`].
///
/// A user, developer or assistant message past the row's 200 characters is cut, and so is an
/// assistant's retry note or error past its 80. The rows of tool results and of calls summarize
/// the call and are never the result's content; branch summaries and custom messages are never
/// cut. A tool result shows `call`, the row of the call it answers (a [`ToolCalls`] entry),
/// when that is known.
pub fn one_line(entry: &Entry<'_>, call: Option<&str>) -> (String, bool) {
    let text = match &entry.body {
        Body::Message(message) => {
            let (text, cut) = message_line(message, call);
            return (into_one_row(text), cut);
        }
        Body::CustomMessage(custom) => custom_message_line(custom),
        Body::Compaction { tokens_before: Some(tokens) } => {
            let mut row = "[compaction: ".to_owned();
            crate::js::push_number(&mut row, crate::js::round(tokens / 1000.0));
            row.push_str("k tokens]");
            row
        }
        // Without a count there is nothing to round; the kind alone is still true.
        Body::Compaction { tokens_before: None } => "[compaction]".to_owned(),
        Body::BranchSummary { summary, .. } => {
            format!("[branch summary]: {}", one_row(summary))
        }
        Body::ModelUsage { purpose, role, provider, model } => {
            let role = one_row(role);
            let role = if role.is_empty() { String::new() } else { format!("{role} ") };
            format!(
                "[model usage: {} {role}{}/{}]",
                one_row(purpose),
                one_row(provider),
                one_row(model)
            )
        }
        Body::Usage { kind, provider, model } => {
            let model =
                if provider.is_empty() { model.to_string() } else { format!("{provider}/{model}") };
            format!("[usage: {} {}]", one_row(kind), one_row(&model))
        }
        Body::ContextEdit { target, drops } => {
            let what = if *drops { "omitted" } else { "replaced" };
            format!("[context edit → {}: {what}]", one_row(target))
        }
        Body::Setting { name: "label", value } if value.is_empty() => {
            "[label: (cleared)]".to_owned()
        }
        Body::Setting { name: "title", value } => format!("[title: {}]", one_row(value)),
        Body::Setting { name, value } => format!("[{name}: {value}]"),
        Body::ServiceTierChange { tiers } if tiers.is_empty() => {
            "[service tier: (default)]".to_owned()
        }
        Body::ServiceTierChange { tiers } => {
            let pairs: Vec<String> = tiers
                .iter()
                .map(|(family, tier)| match family {
                    Some(family) => format!("{family}:{tier}"),
                    None => tier.clone(),
                })
                .collect();
            format!("[service tier: {}]", pairs.join(" "))
        }
        Body::Archive { target, archived: true } => format!("[archived: {target}]"),
        Body::Archive { target, archived: false } => format!("[restored: {target}]"),
        // A row that names its kind beats an empty one (pi-mono draws nothing, leaving a bare
        // bullet).
        Body::TtsrInjection { .. } | Body::Named { .. } => {
            format!("[{}]", entry.kind.as_str().replace('_', " "))
        }
        Body::Record => return (RECORD_TEXT.to_owned(), false),
    };
    // A last fold, because the fields printed verbatim above (a model name, a custom type) can
    // hold line breaks too, and a row must stay one line.
    (into_one_row(text), false)
}

/// [`one_row`] of a string already owned: nearly every row is one already, and is kept as it
/// is, without a copy.
pub(crate) fn into_one_row(text: String) -> String {
    if is_one_row(&text) { text } else { one_row(&text) }
}

/// Whether `text` is its own [`one_row`]: no line break or tab, nothing to trim.
pub(crate) fn is_one_row(text: &str) -> bool {
    text.len() == text.trim().len()
        && memchr::memchr3(b'\n', b'\r', b'\t', text.as_bytes()).is_none()
}

/// The row of a `message` entry, by role, and whether it cut the message's text short.
fn message_line(message: &Message<'_>, call: Option<&str>) -> (String, bool) {
    let more = message.content.more;
    let row = match message.role {
        // Joined, not formatted: nearly every row of a file is one of these four.
        Some(Role::User) => return (text_row("user: ", &message.content.text), more),
        Some(Role::Developer) => return (text_row("developer: ", &message.content.text), more),
        Some(Role::Assistant) => return assistant_text(message),
        Some(Role::ToolResult) => {
            // A call not known shows the result's `toolName`, or `tool`.
            let name = message.tool_name.as_deref().filter(|n| !n.is_empty());
            call.map_or_else(|| ["[", name.unwrap_or("tool"), "]"].concat(), str::to_owned)
        }
        Some(Role::BashExecution) => {
            format!("[bash]: {}", one_row(message.command.as_deref().unwrap_or_default()))
        }
        // pi's persisted system prompt, or a patch of it (CHANGES R1): one collapsed row, not
        // its sections; `show` gives the prompt in effect and what the patch changes.
        Some(Role::System) => "[system prompt]".to_owned(),
        Some(role) => format!("[{}]", role.as_str()),
        None => "[message]".to_owned(),
    };
    (row, false)
}

/// What an assistant row starts with.
const ASSISTANT: &str = "assistant: ";

/// An assistant row: `assistant: ` and what it shows; and whether it cut the text, note or
/// error it shows short.
fn assistant_text(message: &Message<'_>) -> (String, bool) {
    let status = message.retry_status.as_deref();
    if status == Some("recovered") {
        // A failed attempt that a retry recovered from: the agent shows the retry note instead
        // of the (partial) text, whitespace collapsed.
        let note = message.retry_note.as_deref().unwrap_or_default();
        let note = note.split_whitespace().collect::<Vec<_>>().join(" ");
        if note.is_empty() {
            return ([ASSISTANT, "retried"].concat(), false);
        }
        let (head, cut) = truncated(&note, ERROR_LIMIT);
        return if cut {
            (format!("{ASSISTANT}{}…", cut_chars(head, ERROR_LIMIT - 1)), true)
        } else {
            ([ASSISTANT, &note].concat(), false)
        };
    }
    // Text cut to blanks shows no text, but the message is still cut.
    let more = message.content.more;
    let text = text_row(ASSISTANT, &message.content.text);
    if text.len() > ASSISTANT.len() {
        return (text, more);
    }
    let stop_reason = message.stop_reason.as_deref();
    let error_message = message.error_message.as_deref().filter(|e| !e.is_empty());
    if stop_reason == Some("aborted") {
        return ([ASSISTANT, "(aborted)"].concat(), more);
    }
    let error = match (stop_reason, error_message) {
        // An attempt superseded by a later retry shows no error: the final attempt carries it.
        _ if status == Some("superseded") => None,
        (Some("error"), message) => Some(message.unwrap_or("Error")),
        (_, message) => message,
    };
    match error {
        Some(error) => {
            let error = one_row(error);
            let (head, cut) = truncated(&error, ERROR_LIMIT);
            ([ASSISTANT, head].concat(), more || cut)
        }
        None => ([ASSISTANT, "(no content)"].concat(), more),
    }
}

/// The row of a `custom_message` entry.
fn custom_message_line(custom: &CustomMessage<'_>) -> String {
    if let Some((qualifier, notes)) = &custom.advisor {
        let notes = one_row(notes);
        return if qualifier.is_empty() {
            format!("advisor: {notes}")
        } else {
            format!("advisor ({qualifier}): {notes}")
        };
    }
    format!("[{}]: {}", custom.custom_type, one_row(strip_system_wrapper(&custom.text)))
}

/// Removes one outer `<system-…>…</system-…>` envelope: the model-facing wrapper some
/// extensions put around a custom message. Anything else, including system tags nested inside
/// or a wrapper that does not span the whole text, stays as written.
fn strip_system_wrapper(content: &str) -> &str {
    system_body(content.trim()).unwrap_or(content)
}

/// The body of the `<system-…>` element that is the whole of `text`, trimmed.
fn system_body(text: &str) -> Option<&str> {
    let after_lt = text.strip_prefix('<')?;
    // The tag name: `system-` and at least one more word character or dash, any case.
    let name_len = after_lt.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    let name_len = name_len.unwrap_or(after_lt.len());
    let name = &after_lt[..name_len];
    let is_system = name.len() > "system-".len()
        && name.as_bytes()[.."system-".len()].eq_ignore_ascii_case(b"system-");
    // The opening tag ends at the first `>` outside quotes; a `<` first means it is not a tag.
    let rest = &after_lt[name_len..];
    if !is_system || !rest.starts_with(|c: char| c == '>' || c.is_whitespace()) {
        return None;
    }
    let mut quote = None;
    let mut open_end = None;
    for (i, c) in rest.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '<') => return None,
            (None, '>') => {
                open_end = Some(1 + name_len + i + 1);
                break;
            }
            (None, _) => {}
        }
    }
    let body_start = open_end?;
    let closing = format!("</{name}>");
    let close_start = text.len().checked_sub(closing.len())?;
    let closes = close_start >= body_start
        && text.is_char_boundary(close_start)
        && text[close_start..].eq_ignore_ascii_case(&closing);
    closes.then(|| text[body_start..close_start].trim())
}

// ---------------------------------------------------------------------------------------------
// Search

/// The text a search looks at for an entry (FORMAT §9.4): the resolved label (if any), then
/// parts that depend on the kind, joined with single spaces.
///
/// One addition to the reference: a `toolResult` message also carries the call its row shows
/// (`[read: src/main.rs]`, given as `call` when known), so what a row displays can be found by
/// searching for it.
pub fn search_text(entry: &Entry<'_>, label: Option<&str>, call: Option<&str>) -> String {
    let mut parts: Vec<Cow<'_, str>> = Vec::new();
    if let Some(label) = label {
        parts.push(label.into());
    }
    let mut words = |words: &[&str]| parts.extend(words.iter().map(|w| Cow::Owned(w.to_string())));
    match &entry.body {
        Body::Message(message) => {
            words(&[message.role.map(|r| r.as_str()).unwrap_or_default(), &message.content.text]);
            match message.role {
                Some(Role::BashExecution) => {
                    words(&[message.command.as_deref().unwrap_or_default()]);
                }
                Some(Role::ToolResult) => words(&[call.unwrap_or_default()]),
                _ => {}
            }
        }
        Body::CustomMessage(custom) => match &custom.advisor {
            Some((qualifier, notes)) => words(&[&custom.custom_type, qualifier, notes]),
            None => {
                let text = strip_system_wrapper(&custom.text);
                words(&[&custom.custom_type, cut_chars(text, TEXT_LIMIT)]);
            }
        },
        Body::Compaction { .. } => words(&["compaction"]),
        Body::BranchSummary { summary, .. } => words(&["branch summary", summary]),
        Body::ModelUsage { purpose, role, provider, model } => {
            let fields = [purpose, role, provider, model].map(|f| one_row(f));
            words(&["model usage"]);
            words(&fields.each_ref().map(String::as_str));
        }
        Body::Usage { kind, provider, model } => words(&["usage", kind, provider, model]),
        Body::ContextEdit { target, .. } => words(&["context edit", target]),
        Body::Setting { name, value } => words(&[name, value]),
        Body::ServiceTierChange { tiers } => {
            words(&["service tier"]);
            for (family, tier) in tiers {
                words(&[family.as_deref().unwrap_or_default(), tier]);
            }
        }
        Body::TtsrInjection { rules } => {
            words(&["ttsr injection"]);
            for rule in rules {
                words(&[rule]);
            }
        }
        Body::Archive { target, .. } => words(&["archive", target]),
        Body::Named { searched: true } => words(&[&entry.kind.as_str().replace('_', " ")]),
        // Unknown kinds and odd records are found by their label only, as in the agent.
        Body::Named { searched: false } | Body::Record => {}
    }
    // Empty parts would only add doubled spaces, which no query token can contain.
    parts.retain(|p| !p.is_empty());
    parts.join(" ")
}

/// Whether every whitespace-separated word of `query` is a case-insensitive subsequence of
/// `text`: the agent's fuzzy search (`--fuzzy`). An empty query matches everything.
pub fn fuzzy_match(query: &str, text: &str) -> bool {
    let text: Vec<char> = text.to_lowercase().chars().collect();
    query.to_lowercase().split_whitespace().all(|token| {
        let mut haystack = text.iter();
        token.chars().all(|wanted| haystack.any(|c| *c == wanted))
    })
}

/// Whether every whitespace-separated word of `query` occurs in `text`, ignoring case: plain
/// `--search` (pi-mono's matching, applied word by word). An empty query matches everything.
pub fn substring_match(query: &str, text: &str) -> bool {
    let text = text.to_lowercase();
    query.to_lowercase().split_whitespace().all(|token| text.contains(token))
}

// ---------------------------------------------------------------------------------------------
// Filters

/// Which entries a `tree` or `log` listing shows (FORMAT §9.2), in the agent's cycle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FilterMode {
    /// Everything except settings entries ([`crate::format::Kind::is_setting`]); unknown types
    /// are shown.
    #[default]
    Default,
    /// `Default` minus tool results.
    NoTools,
    /// User requests only ([`is_user_request`]).
    UserOnly,
    /// Entries that have a label.
    LabeledOnly,
    /// Everything.
    All,
}

impl FilterMode {
    /// Every mode, in the order the agent's Ctrl+O cycles through them.
    pub const CYCLE: [FilterMode; 5] = [
        FilterMode::Default,
        FilterMode::NoTools,
        FilterMode::UserOnly,
        FilterMode::LabeledOnly,
        FilterMode::All,
    ];

    /// The mode's name as `--filter` spells it (`default`, `no-tools`, `user-only`,
    /// `labeled-only`, `all`).
    pub fn as_str(self) -> &'static str {
        match self {
            FilterMode::Default => "default",
            FilterMode::NoTools => "no-tools",
            FilterMode::UserOnly => "user-only",
            FilterMode::LabeledOnly => "labeled-only",
            FilterMode::All => "all",
        }
    }
}

/// What the filter modes read of an entry (FORMAT §9.2), as five bits: kept instead of the
/// entry when rows are worked out ahead (see [`crate::row::gist`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Facts(u8);

impl Facts {
    const SILENT: u8 = 1;
    const SETTING: u8 = 2;
    const TOOL_RESULT: u8 = 4;
    const USER_REQUEST: u8 = 8;
    const MOVE_MARKER: u8 = 16;

    /// The facts of an entry.
    pub fn of(entry: &Entry<'_>) -> Facts {
        let role = entry.role();
        let silent = match &entry.body {
            // A turn that only called tools says nothing a row could show, while errors,
            // aborts and `length` stops stay.
            Body::Message(m) if role == Some(Role::Assistant) => {
                matches!(m.stop_reason.as_deref().unwrap_or_default(), "" | "stop" | "toolUse")
                    && !m.content.has_text
            }
            _ => false,
        };
        let marker = matches!(entry.body, Body::BranchSummary { marker: true, .. });
        let bits = [
            (marker, Facts::MOVE_MARKER),
            (silent, Facts::SILENT),
            (entry.kind.is_setting(), Facts::SETTING),
            (role == Some(Role::ToolResult), Facts::TOOL_RESULT),
            (is_user_request(entry), Facts::USER_REQUEST),
        ];
        Facts(bits.iter().filter(|(set, _)| *set).fold(0, |acc, (_, bit)| acc | bit))
    }

    /// Whether a listing in `mode` shows the entry (FORMAT §9.2); `is_leaf` is whether it is the
    /// leaf and `has_label` whether its resolved label is set.
    ///
    /// First, in every mode, an assistant message that is not the leaf is hidden when it has no
    /// non-empty text and its `stopReason` is missing, `stop` or `toolUse`; and in every mode
    /// but `all`, a move marker (a `branch_summary` without a summary, which `checkout` leaves
    /// behind a bare move: it carries no text) is folded away.
    pub fn shows(self, mode: FilterMode, is_leaf: bool, has_label: bool) -> bool {
        let has = |bit: u8| self.0 & bit != 0;
        if !is_leaf && has(Facts::SILENT) {
            return false;
        }
        if has(Facts::MOVE_MARKER) && mode != FilterMode::All {
            return false;
        }
        match mode {
            FilterMode::Default => !has(Facts::SETTING),
            FilterMode::NoTools => !has(Facts::SETTING) && !has(Facts::TOOL_RESULT),
            FilterMode::UserOnly => has(Facts::USER_REQUEST),
            FilterMode::LabeledOnly => has_label,
            FilterMode::All => true,
        }
    }
}

/// Whether `entry` is a request the user made: a `message` with role `user`, or a skill or
/// collab prompt the user invoked (`customType` `skill-prompt`/`collab-prompt` with
/// `attribution: "user"`), stored as a `custom_message` entry or as a `custom`-role message.
///
/// Other custom messages never count, whatever their attribution says: an extension may set
/// `attribution` freely, so the type is what marks a user turn.
pub fn is_user_request(entry: &Entry<'_>) -> bool {
    let custom_prompt = |custom_type: Option<&str>, attribution: Option<&str>, content: bool| {
        matches!(custom_type, Some("skill-prompt" | "collab-prompt"))
            && attribution == Some("user")
            // Content the agent could not send back is not restored as a message at all.
            && content
    };
    match &entry.body {
        Body::Message(m) => match m.role {
            Some(Role::User) => true,
            Some(Role::Custom) => custom_prompt(
                m.custom_type.as_deref(),
                m.attribution.as_deref(),
                m.content.string_or_blocks,
            ),
            _ => false,
        },
        Body::CustomMessage(c) => {
            custom_prompt(Some(&c.custom_type), c.attribution.as_deref(), c.string_or_blocks)
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/// `prefix` and the message text as a row shows it: the text, already cut at 200 characters
/// ([`crate::row::entry::Content::text`]), folded onto one line. The cut comes first, as in the
/// agent, so leading blank lines count against the 200.
fn text_row(prefix: &str, text: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + text.len());
    out.push_str(prefix);
    push_one_row(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    // The row functions of a whole parsed entry, as the tests below write them.
    /// The home directory of the tests' calls.
    const HOME: Option<&str> = Some("/home/al");

    fn one_line(entry: &Value, tools: &ToolCalls) -> String {
        let entry = Entry::from_value(entry, HOME);
        super::one_line(&entry, tools.call_of(&entry)).0
    }

    /// The search text of an entry, with the call it answers among `tools`.
    fn search_text(entry: &Value, label: Option<&str>, tools: &ToolCalls) -> String {
        let entry = Entry::from_value(entry, HOME);
        super::search_text(&entry, label, tools.call_of(&entry))
    }

    fn is_user_request(entry: &Value) -> bool {
        super::is_user_request(&Entry::from_value(entry, None))
    }

    fn shows(mode: FilterMode, entry: &Value, is_leaf: bool, has_label: bool) -> bool {
        Facts::of(&Entry::from_value(entry, None)).shows(mode, is_leaf, has_label)
    }

    fn message_text(content: &Value) -> String {
        use crate::format::entry::{Content, Raw};
        Content::of(Some(Raw::new(content))).text().into_owned()
    }

    fn add(tools: &mut ToolCalls, entry: &Value) {
        tools.add(&Entry::from_value(entry, HOME));
    }

    fn line(entry: Value) -> String {
        one_line(&entry, &ToolCalls::default())
    }

    fn message(message: Value) -> Value {
        json!({"type": "message", "id": "a1", "parentId": null, "message": message})
    }

    fn assistant(content: Value, stop_reason: &str) -> Value {
        message(json!({"role": "assistant", "content": content, "stopReason": stop_reason}))
    }

    /// Tool calls of one assistant message, with `/home/al` as home.
    fn tools_with(calls: &[(&str, &str, Value)]) -> ToolCalls {
        let blocks: Vec<Value> = calls
            .iter()
            .map(|(id, name, args)| json!({"type": "toolCall", "id": id, "name": name, "arguments": args}))
            .collect();
        let mut tools = ToolCalls::default();
        add(&mut tools, &assistant(Value::Array(blocks), "toolUse"));
        tools
    }

    /// The row of a result for a call to `name` with `args`.
    fn result_line(name: &str, args: Value) -> String {
        let tools = tools_with(&[("c1", name, args)]);
        let result = message(json!({"role": "toolResult", "toolCallId": "c1", "toolName": name,
            "content": [{"type": "text", "text": "out"}], "isError": false}));
        one_line(&result, &tools)
    }

    // -- one_line: messages --------------------------------------------------------------------

    #[test]
    fn user_and_developer_rows() {
        assert_eq!(
            line(message(json!({"role": "user", "content": "Add a --json flag"}))),
            "user: Add a --json flag"
        );
        let blocks = json!([{"type": "text", "text": "one"}, {"type": "image", "data": "…"},
            {"type": "text", "text": "two"}]);
        assert_eq!(line(message(json!({"role": "user", "content": blocks}))), "user: onetwo");
        assert_eq!(
            line(message(json!({"role": "developer", "content": "\tbe brief\nplease\r\n"}))),
            "developer: be brief please"
        );
        assert_eq!(line(message(json!({"role": "user", "content": ""}))), "user:");
    }

    #[test]
    fn rows_fold_line_breaks_and_tabs_into_spaces() {
        assert_eq!(one_row(" \ta\tb\r\nc é\n"), "a b  c é");
        assert_eq!(one_row("\n\t"), "");
        assert_eq!(one_row("plain"), "plain");
        for text in [" a\tb ", "a\r\nb", "plain", "", "\n"] {
            assert_eq!(into_one_row(text.to_owned()), one_row(text), "{text:?}");
        }
    }

    #[test]
    fn message_text_is_cut_at_200_characters_before_folding() {
        let long = "é".repeat(250);
        let row = line(message(json!({"role": "user", "content": long})));
        assert_eq!(row, format!("user: {}", "é".repeat(200)));
        // The cut counts the raw text, leading blank lines included, as the agent does.
        let padded = format!("\n\n{}", "x".repeat(300));
        let row = line(message(json!({"role": "user", "content": padded})));
        assert_eq!(row, format!("user: {}", "x".repeat(198)));
    }

    #[test]
    fn assistant_rows() {
        let text = json!([{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Reading main.rs"},
            {"type": "toolCall", "id": "c", "name": "read", "arguments": {}}]);
        assert_eq!(line(assistant(text, "toolUse")), "assistant: Reading main.rs");
        assert_eq!(line(assistant(json!([]), "toolUse")), "assistant: (no content)");
        assert_eq!(line(assistant(json!([]), "aborted")), "assistant: (aborted)");

        let long_error = format!("rate limited\n{}", "z".repeat(100));
        let error = message(json!({"role": "assistant", "content": [], "stopReason": "error",
            "errorMessage": long_error}));
        let row = line(error);
        assert_eq!(row, format!("assistant: rate limited {}", "z".repeat(80 - 13)));
        let bare_error =
            message(json!({"role": "assistant", "content": [], "stopReason": "error"}));
        assert_eq!(line(bare_error), "assistant: Error");
    }

    #[test]
    fn assistant_retry_recovery_rows() {
        let recovered = message(
            json!({"role": "assistant", "content": [{"type": "text", "text": "partial"}],
            "stopReason": "error", "retryRecovery": {"status": "recovered", "note": "  retried\n after 529 "}}),
        );
        assert_eq!(line(recovered), "assistant: retried after 529");
        let no_note = message(json!({"role": "assistant", "content": [], "stopReason": "error",
            "retryRecovery": {"status": "recovered"}}));
        assert_eq!(line(no_note), "assistant: retried");
        let long = message(json!({"role": "assistant", "content": [], "stopReason": "error",
            "retryRecovery": {"status": "recovered", "note": "n".repeat(90)}}));
        assert_eq!(line(long), format!("assistant: {}…", "n".repeat(79)));
        let superseded = message(json!({"role": "assistant", "content": [], "stopReason": "error",
            "errorMessage": "overloaded", "retryRecovery": {"status": "superseded"}}));
        assert_eq!(line(superseded), "assistant: (no content)");
    }

    /// The rows of results of calls to each tool, with `/home/al` as home.
    #[test]
    fn result_rows() {
        let (exactly, wide) = ("e".repeat(50), "ü".repeat(60));
        let web = json!({"query": "how do I cut a string at a char boundary"});
        let cases = [
            ("read", json!({"path": "src/main.rs"}), "[read: src/main.rs]"),
            (
                "read",
                json!({"path": "/home/al/src/main.rs", "offset": 10, "limit": 10}),
                "[read: ~/src/main.rs:10-19]",
            ),
            ("read", json!({"path": "a.rs", "offset": 7}), "[read: a.rs:7]"),
            ("read", json!({"path": "a.rs", "limit": 5}), "[read: a.rs:1-5]"),
            // Numbers as JavaScript prints them: integers without a fraction, others in full.
            ("read", json!({"path": "a.rs", "offset": 1.5, "limit": 3}), "[read: a.rs:1.5-3.5]"),
            (
                "read",
                json!({"path": "a.rs", "offset": -4.0, "limit": 1e15}),
                "[read: a.rs:-4-999999999999995]",
            ),
            (
                "read",
                json!({"path": "a.rs", "offset": 2e15, "limit": 0}),
                "[read: a.rs:2000000000000000]",
            ),
            ("read", json!({"file_path": "old.rs"}), "[read: old.rs]"),
            ("read", json!({"path": "", "file_path": "old.rs"}), "[read: old.rs]"),
            // Home is shortened on whole path components only.
            ("write", json!({"path": "/home/al"}), "[write: ~]"),
            ("write", json!({"path": "/home/alice/x"}), "[write: /home/alice/x]"),
            ("write", json!({"path": "/etc/home/al/x"}), "[write: /etc/home/al/x]"),
            ("write", json!({"path": "/home/al/notes.md"}), "[write: ~/notes.md]"),
            ("edit", json!({"path": "src/lib.rs", "edits": []}), "[edit: src/lib.rs]"),
            ("ls", json!({"path": "/home/al/src"}), "[ls: ~/src]"),
            ("ls", json!({}), "[ls: .]"),
            // A command is cut at 50 characters, not bytes.
            ("bash", json!({"command": "cargo test\n--lib"}), "[bash: cargo test --lib]"),
            ("bash", json!({"command": exactly}), &format!("[bash: {exactly}]")),
            (
                "bash",
                json!({"command": format!("{exactly}tail")}),
                &format!("[bash: {exactly}...]"),
            ),
            ("bash", json!({"command": wide}), &format!("[bash: {}...]", "ü".repeat(50))),
            (
                "grep",
                json!({"pattern": "fn main", "paths": ["/home/al/a", "b"]}),
                "[grep: /fn main/ in ~/a, b]",
            ),
            ("grep", json!({"pattern": "x", "path": "src"}), "[grep: /x/ in src]"),
            ("grep", json!({"pattern": "x", "paths": "[\"a\",\"b\"]"}), "[grep: /x/ in a, b]"),
            ("grep", json!({"pattern": "x"}), "[grep: /x/ in .]"),
            ("glob", json!({"pattern": "*.rs", "path": "/home/al/p"}), "[glob: ~/p]"),
            ("glob", json!({"pattern": "*.rs", "paths": ["a", "b"]}), "[glob: a, b]"),
            ("glob", json!({"pattern": "*.rs"}), "[glob: .]"),
            // Another tool shows its JSON arguments, cut at 40 characters.
            ("todo", json!({"a": 1}), r#"[todo: {"a":1}]"#),
            ("web_search", web.clone(), &format!("[web_search: {}...]", &web.to_string()[..40])),
        ];
        for (name, args, want) in cases {
            assert_eq!(result_line(name, args.clone()), want, "{name} {args}");
        }
    }

    #[test]
    fn results_without_a_call() {
        let tools = tools_with(&[("c1", "read", json!({"path": "x"}))]);
        let unmatched =
            message(json!({"role": "toolResult", "toolCallId": "c9", "toolName": "grep"}));
        assert_eq!(one_line(&unmatched, &tools), "[grep]");
        let nameless = message(json!({"role": "toolResult", "toolCallId": "c9"}));
        assert_eq!(one_line(&nameless, &tools), "[tool]");
    }

    #[test]
    fn tool_calls_are_collected_from_assistant_messages_only() {
        let mut tools = ToolCalls::default();
        let user =
            json!({"role": "user", "content": [{"type": "toolCall", "id": "u", "name": "x"}]});
        let custom = json!({"type": "custom", "customType": "toolCall"});
        for entry in [message(user), custom, json!("not an object")] {
            add(&mut tools, &entry);
        }
        assert!(tools.calls.is_empty());
        let calls = json!([{"type": "toolCall", "id": "c1", "name": "read"},
            {"type": "toolCall", "name": "no id"}]);
        add(&mut tools, &assistant(calls, "toolUse"));
        assert_eq!(tools.calls.len(), 1);
        assert_eq!(tools.get("c1"), Some("[read: ]"));
        // A later call with the same id wins.
        let again = json!([{"type": "toolCall", "id": "c1", "name": "ls", "arguments": {}}]);
        add(&mut tools, &assistant(again, "toolUse"));
        assert_eq!(tools.get("c1"), Some("[ls: .]"));
    }

    #[test]
    fn other_message_roles() {
        let bash = message(
            json!({"role": "bashExecution", "command": "ls -la\n", "output": "…", "exitCode": 0}),
        );
        assert_eq!(line(bash), "[bash]: ls -la");
        assert_eq!(
            line(message(json!({"role": "pythonExecution", "code": "1"}))),
            "[pythonExecution]"
        );
        assert_eq!(line(message(json!({"role": "fileMention", "files": []}))), "[fileMention]");
        assert_eq!(line(json!({"type": "message", "id": "x"})), "[message]");
    }

    // -- one_line: other kinds -----------------------------------------------------------------

    #[test]
    fn custom_message_rows() {
        let plain = json!({"type": "custom_message", "customType": "my-extension", "content": "Injected\ncontext"});
        assert_eq!(line(plain), "[my-extension]: Injected context");
        let wrapped = json!({"type": "custom_message", "customType": "reminder",
            "content": "\n<system-reminder kind=\"a>b\">\n  Keep going\n</system-reminder>\n"});
        assert_eq!(line(wrapped), "[reminder]: Keep going");
        let blocks = json!({"type": "custom_message", "customType": "r",
            "content": [{"type": "text", "text": "<SYSTEM-Note>"}, {"type": "text", "text": "hi</system-note>"}]});
        assert_eq!(line(blocks), "[r]: hi");
        // No length cut for custom messages.
        let long = "w".repeat(300);
        let row = line(json!({"type": "custom_message", "customType": "t", "content": long}));
        assert_eq!(row, format!("[t]: {long}"));
    }

    #[test]
    fn system_wrapper_is_removed_only_when_it_wraps_everything() {
        for kept in [
            "<system>x</system>",                                // no name after `system-`
            "<system-reminder>x</system-reminder> and more",     // does not span the text
            "<system-reminder>x</system-other>",                 // closing tag differs
            "<system-reminder<b>x</system-reminder>",            // `<` inside the opening tag
            "<system-reminder x=\"unclosed>x</system-reminder>", // quote never closes
            "<system-remindery",
            "<system-a>",
        ] {
            assert_eq!(strip_system_wrapper(kept), kept, "{kept}");
        }
        assert_eq!(
            strip_system_wrapper("<system-a><system-b>in</system-b></system-a>"),
            "<system-b>in</system-b>"
        );
        assert_eq!(strip_system_wrapper("<system-a></system-a>"), "");
        assert_eq!(strip_system_wrapper("<system-é>x</system-é>"), "<system-é>x</system-é>");
    }

    #[test]
    fn advisor_rows() {
        let advisor = json!({"type": "custom_message", "customType": "advisor", "content": "<advisory>…</advisory>",
            "details": {"notes": [
                {"note": "Check the lock.", "severity": "concern", "advisor": "default"},
                {"note": "Tests\nmissing.", "severity": "blocker", "advisor": "sec"},
                {"note": "Again.", "severity": "concern", "advisor": "sec"}]}});
        assert_eq!(
            line(advisor),
            "advisor (sec, concern, blocker): Check the lock. Tests missing. Again."
        );
        let bare = json!({"type": "custom_message", "customType": "advisor", "details": {"notes": [{"note": "n"}]}});
        assert_eq!(line(bare), "advisor: n");
        let empty = json!({"type": "custom_message", "customType": "advisor", "content": "x"});
        assert_eq!(line(empty), "advisor:");
    }

    #[test]
    fn compaction_rows_round_like_javascript() {
        for (tokens, k) in [(42000, 42), (1500, 2), (2500, 3), (2499, 2), (0, 0)] {
            let row = line(json!({"type": "compaction", "summary": "s", "tokensBefore": tokens}));
            assert_eq!(row, format!("[compaction: {k}k tokens]"), "{tokens}");
        }
        assert_eq!(line(json!({"type": "compaction", "summary": "s"})), "[compaction]");
    }

    #[test]
    fn settings_and_bookkeeping_rows() {
        let rows = [
            (
                json!({"type": "branch_summary", "fromId": "root", "summary": "The user\nexplored"}),
                "[branch summary]: The user explored",
            ),
            (
                json!({"type": "model_change", "model": "openai/gpt-5", "role": "default"}),
                "[model: openai/gpt-5]",
            ),
            (
                json!({"type": "model_change", "provider": "anthropic", "modelId": "claude-sonnet-4-5"}),
                "[model: claude-sonnet-4-5]",
            ),
            (
                json!({"type": "model_usage", "purpose": "auto-thinking", "role": "smol", "provider": "anthropic",
                "model": "claude-haiku-4-5"}),
                "[model usage: auto-thinking smol anthropic/claude-haiku-4-5]",
            ),
            (
                json!({"type": "model_usage", "purpose": "title", "provider": "openai", "model": "gpt-5"}),
                "[model usage: title openai/gpt-5]",
            ),
            (
                json!({"type": "thinking_level_change", "thinkingLevel": "high", "configured": "auto"}),
                "[thinking: high]",
            ),
            (
                json!({"type": "thinking_level_change", "thinkingLevel": null, "configured": null}),
                "[thinking: off]",
            ),
            (
                json!({"type": "custom", "customType": "com.example.state", "data": {}}),
                "[custom: com.example.state]",
            ),
            (
                json!({"type": "label", "targetId": "a1", "label": "checkpoint"}),
                "[label: checkpoint]",
            ),
            (json!({"type": "label", "targetId": "a1"}), "[label: (cleared)]"),
            (json!({"type": "label", "targetId": "a1", "label": ""}), "[label: (cleared)]"),
            (
                json!({"type": "service_tier_change", "serviceTier": {"openai": "priority", "anthropic": "auto"}}),
                "[service tier: openai:priority anthropic:auto]",
            ),
            (
                json!({"type": "service_tier_change", "serviceTier": null}),
                "[service tier: (default)]",
            ),
            (
                json!({"type": "service_tier_change", "serviceTier": {"openai": null}}),
                "[service tier: (default)]",
            ),
            (json!({"type": "service_tier_change", "serviceTier": "flex"}), "[service tier: flex]"),
            (
                json!({"type": "title_change", "title": "Json\nflag", "source": "auto"}),
                "[title: Json flag]",
            ),
            (json!({"type": "mode_change", "mode": "plan"}), "[mode: plan]"),
            (
                json!({"type": "credential_pin", "provider": "anthropic", "hash": "3f1c"}),
                "[credential pin: anthropic]",
            ),
            (
                json!({"type": "archive", "targetId": "0a1b2c3d", "archived": true}),
                "[archived: 0a1b2c3d]",
            ),
            (
                json!({"type": "archive", "targetId": "0a1b2c3d", "archived": false}),
                "[restored: 0a1b2c3d]",
            ),
            (json!({"type": "archive", "targetId": 7, "archived": true}), "[archived: 7]"),
            (
                json!({"type": "session_init", "systemPrompt": ["…"], "task": "t", "tools": []}),
                "[session init]",
            ),
            (json!({"type": "reset_boundary"}), "[reset boundary]"),
            (
                json!({"type": "ttsr_injection", "injectedRules": ["no-console"]}),
                "[ttsr injection]",
            ),
            (json!({"type": "session_info", "name": "x"}), "[session info]"),
            (json!({"type": "mcp_tool_selection"}), "[mcp tool selection]"),
            (json!({"type": "future_thing"}), "[future thing]"),
        ];
        for (entry, want) in rows {
            assert_eq!(line(entry.clone()), want, "{entry}");
        }
    }

    #[test]
    fn odd_records() {
        for record in [json!([1, 2]), json!("text"), json!({"id": "a1"}), json!({"type": 3})] {
            assert_eq!(line(record.clone()), RECORD_TEXT, "{record}");
        }
        // Fields printed as written still end up on one line.
        assert_eq!(line(json!({"type": "mode_change", "mode": "a\nb"})), "[mode: a b]");
    }

    // -- search --------------------------------------------------------------------------------

    #[test]
    fn search_text_of_messages() {
        let tools = tools_with(&[("c1", "read", json!({"path": "/home/al/src/main.rs"}))]);
        let user = message(json!({"role": "user", "content": "Add a flag"}));
        assert_eq!(search_text(&user, Some("checkpoint"), &tools), "checkpoint user Add a flag");
        assert_eq!(search_text(&user, None, &tools), "user Add a flag");
        let long = message(
            json!({"role": "assistant", "content": [{"type": "text", "text": "y".repeat(300)}]}),
        );
        assert_eq!(search_text(&long, None, &tools), format!("assistant {}", "y".repeat(200)));
        let bash = message(json!({"role": "bashExecution", "command": "make"}));
        assert_eq!(search_text(&bash, None, &tools), "bashExecution make");
        let result = message(json!({"role": "toolResult", "toolCallId": "c1", "toolName": "read",
            "content": [{"type": "text", "text": "fn main() {}"}]}));
        assert_eq!(
            search_text(&result, None, &tools),
            "toolResult fn main() {} [read: ~/src/main.rs]"
        );
    }

    #[test]
    fn search_text_of_other_kinds() {
        let tools = ToolCalls::default();
        let cases = [
            (
                json!({"type": "custom_message", "customType": "note", "content": "<system-x>hello</system-x>"}),
                "note hello",
            ),
            (
                json!({"type": "custom_message", "customType": "advisor",
                "details": {"notes": [{"note": "Check it.", "severity": "nit", "advisor": "sec"}]}}),
                "advisor sec, nit Check it.",
            ),
            (json!({"type": "compaction", "tokensBefore": 5000}), "compaction"),
            (json!({"type": "branch_summary", "summary": "explored"}), "branch summary explored"),
            (json!({"type": "model_change", "model": "openai/gpt-5"}), "model openai/gpt-5"),
            (
                json!({"type": "model_change", "provider": "openai", "modelId": "gpt-5"}),
                "model gpt-5",
            ),
            (
                json!({"type": "model_usage", "purpose": "title", "role": "smol", "provider": "p", "model": "m"}),
                "model usage title smol p m",
            ),
            (json!({"type": "thinking_level_change", "thinkingLevel": null}), "thinking off"),
            (json!({"type": "custom", "customType": "state"}), "custom state"),
            (json!({"type": "label", "label": "v1"}), "label v1"),
            (
                json!({"type": "service_tier_change", "serviceTier": {"openai": "flex", "google": null}}),
                "service tier openai flex",
            ),
            (json!({"type": "title_change", "title": "Json flag"}), "title Json flag"),
            (json!({"type": "mode_change", "mode": "plan"}), "mode plan"),
            (
                json!({"type": "credential_pin", "provider": "anthropic"}),
                "credential pin anthropic",
            ),
            (
                json!({"type": "ttsr_injection", "injectedRules": ["no-console", "hard-tabs"]}),
                "ttsr injection no-console hard-tabs",
            ),
            (json!({"type": "reset_boundary"}), "reset boundary"),
            (json!({"type": "session_init", "task": "t"}), "session init"),
            (json!({"type": "archive", "targetId": "0a1b", "archived": true}), "archive 0a1b"),
            (json!({"type": "future_thing"}), ""),
            (json!(42), ""),
        ];
        for (entry, want) in cases {
            assert_eq!(search_text(&entry, None, &tools), want, "{entry}");
        }
        assert_eq!(search_text(&json!({"type": "future_thing"}), Some("keep"), &tools), "keep");
    }

    #[test]
    fn fuzzy_matching() {
        assert!(fuzzy_match("mrs", "src/main.rs"));
        assert!(fuzzy_match("MAIN rs", "src/Main.rs"));
        assert!(fuzzy_match("", "anything"));
        assert!(fuzzy_match("   ", ""));
        assert!(!fuzzy_match("srm", "main.rs")); // order matters
        assert!(!fuzzy_match("main xyz", "src/main.rs")); // every token must match
        assert!(fuzzy_match("ÄB", "äxb"));
    }

    #[test]
    fn substring_matching() {
        assert!(substring_match("flag ADD", "user Add a --json flag"));
        assert!(substring_match("", "x"));
        assert!(!substring_match("mrs", "src/main.rs")); // a subsequence is not enough
        assert!(!substring_match("flag missing", "user Add a --json flag"));
    }

    #[test]
    fn search_matches_the_label() {
        let tools = ToolCalls::default();
        let entry = json!({"type": "model_change", "model": "openai/gpt-5"});
        let text = search_text(&entry, Some("Checkpoint-1"), &tools);
        assert!(substring_match("checkpoint-1 gpt", &text));
        assert!(fuzzy_match("chk1", &text));
        assert!(!substring_match("checkpoint", &search_text(&entry, None, &tools)));
    }

    // -- filters -------------------------------------------------------------------------------

    fn user() -> Value {
        message(json!({"role": "user", "content": "hi"}))
    }

    fn tool_result() -> Value {
        message(
            json!({"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": []}),
        )
    }

    fn custom_prompt(custom_type: &str, attribution: &str) -> Value {
        json!({"type": "custom_message", "customType": custom_type, "content": "/skill:x",
            "display": true, "attribution": attribution})
    }

    #[test]
    fn silent_assistant_turns_are_hidden_in_every_mode_unless_leaf() {
        let silent = [
            assistant(json!([{"type": "toolCall", "id": "c", "name": "ls"}]), "toolUse"),
            assistant(json!([{"type": "text", "text": "  \n"}]), "stop"),
            message(json!({"role": "assistant", "content": []})),
            message(json!({"role": "assistant", "content": "", "stopReason": ""})),
        ];
        for entry in &silent {
            for mode in FilterMode::CYCLE {
                assert!(!shows(mode, entry, false, true), "{mode:?} {entry}");
            }
            assert!(shows(FilterMode::Default, entry, true, false));
            assert!(shows(FilterMode::All, entry, true, false));
        }
        let mut shown =
            ["error", "aborted", "length"].map(|stop| assistant(json!([]), stop)).to_vec();
        shown.push(assistant(json!([{"type": "text", "text": "done"}]), "stop"));
        shown.push(assistant(json!("plain string"), "stop"));
        for entry in &shown {
            assert!(shows(FilterMode::Default, entry, false, false), "{entry}");
        }
    }

    #[test]
    fn default_and_no_tools_modes() {
        // Settings (`Kind::is_setting`, pinned to FORMAT §9.2 in format/kind.rs) are hidden,
        // even as the leaf; every other kind is shown.
        for kind in crate::format::Kind::ALL {
            let entry = crate::format::kind::tests::example(kind);
            let shown = !kind.is_setting();
            assert_eq!(shows(FilterMode::Default, &entry, false, false), shown, "{kind:?}");
            assert_eq!(shows(FilterMode::NoTools, &entry, false, false), shown, "{kind:?}");
            assert_eq!(shows(FilterMode::Default, &entry, true, true), shown, "{kind:?} as leaf");
            assert!(shows(FilterMode::All, &entry, false, false), "{kind:?}");
        }
        let shown = [
            user(),
            json!({"type": "compaction", "tokensBefore": 1}),
            json!({"type": "branch_summary", "summary": "s"}),
            json!({"type": "custom_message", "customType": "x", "content": "y"}),
            json!({"type": "future_thing"}),
            json!("odd record"),
        ];
        for entry in &shown {
            assert!(shows(FilterMode::Default, entry, false, false), "{entry}");
            assert!(shows(FilterMode::NoTools, entry, false, false), "{entry}");
        }
        assert!(shows(FilterMode::Default, &tool_result(), false, false));
        assert!(!shows(FilterMode::NoTools, &tool_result(), false, false));
        assert!(!shows(FilterMode::NoTools, &tool_result(), true, true));
    }

    #[test]
    fn user_only_mode() {
        let requests = [
            user(),
            custom_prompt("skill-prompt", "user"),
            custom_prompt("collab-prompt", "user"),
            message(
                json!({"role": "custom", "customType": "skill-prompt", "content": "x", "attribution": "user"}),
            ),
        ];
        for entry in &requests {
            assert!(is_user_request(entry), "{entry}");
            assert!(shows(FilterMode::UserOnly, entry, false, false), "{entry}");
        }
        let others = [
            custom_prompt("skill-prompt", "agent"),
            custom_prompt("peer-message", "user"),
            json!({"type": "custom_message", "customType": "skill-prompt", "attribution": "user"}),
            message(
                json!({"role": "custom", "customType": "note", "content": "x", "attribution": "user"}),
            ),
            message(json!({"role": "developer", "content": "x"})),
            assistant(json!([{"type": "text", "text": "hi"}]), "stop"),
            tool_result(),
            json!({"type": "label", "label": "x"}),
            json!({"type": "user"}),
        ];
        for entry in &others {
            assert!(!is_user_request(entry), "{entry}");
            assert!(!shows(FilterMode::UserOnly, entry, false, true), "{entry}");
        }
    }

    #[test]
    fn labeled_only_and_all_modes() {
        let label = json!({"type": "label", "targetId": "a1", "label": "x"});
        for entry in [user(), tool_result(), label, json!({"type": "future_thing"})] {
            assert!(shows(FilterMode::LabeledOnly, &entry, false, true), "{entry}");
            assert!(!shows(FilterMode::LabeledOnly, &entry, false, false), "{entry}");
            assert!(!shows(FilterMode::LabeledOnly, &entry, true, false), "{entry}");
            assert!(shows(FilterMode::All, &entry, false, false), "{entry}");
        }
    }

    #[test]
    fn filter_mode_names() {
        let names: Vec<&str> = FilterMode::CYCLE.iter().map(|m| m.as_str()).collect();
        assert_eq!(names, ["default", "no-tools", "user-only", "labeled-only", "all"]);
        assert_eq!(FilterMode::default(), FilterMode::Default);
    }

    // -- message_text --------------------------------------------------------------------------

    #[test]
    fn message_text_joins_text_blocks() {
        assert_eq!(message_text(&json!("as is\n")), "as is\n");
        let blocks = json!([{"type": "text", "text": "a\n"}, {"type": "image", "data": "…", "mimeType": "image/png"},
            {"type": "text", "text": "b"}, {"type": "text"}, "stray"]);
        assert_eq!(message_text(&blocks), "a\nb");
        assert_eq!(message_text(&json!(null)), "");
        assert_eq!(message_text(&json!({"text": "x"})), "");
    }

    proptest::proptest! {
        #[test]
        fn one_line_is_one_line(text in "[a-z\\n\\r\\t \\x1b]{0,300}") {
            let row = line(message(json!({"role": "user", "content": text})));
            proptest::prop_assert!(!row.contains(['\n', '\r', '\t']));
            proptest::prop_assert_eq!(row.trim(), row.as_str());
        }
    }
}
