//! What an entry says: a borrowed view of a whole payload, one enum arm per family of kinds
//! ([`Payload`]), in the style of gitoxide's `CommitRef`: fields are spans of the line, or
//! references into a parsed value, and are decoded when someone asks ([`Text::decode`],
//! [`Raw::to_value`]). Nothing is decoded that no reader reads.
//!
//! Two fills make the same view:
//!
//! - [`Payload::scan`], from a line's bytes through the line scanner: one walk of the line and
//!   of the objects every reader looks into (a message, its content, its blocks), spans only;
//! - [`Payload::from_value`], from a parsed line: for version-1 files and lines the scanner
//!   does not take.
//!
//! Both hand their objects to the one builder of the families, so they differ only in how an
//! object is reached; a differential property test holds them equal. The view knows nothing of
//! the envelope (id, parent, time, type: [`super::Envelope`]) nor of how the agents lay out a
//! line beyond the members it names, so another agent's format can be a third fill.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::format::Kind;
use crate::format::kind::Class;
use crate::id::EntryId;
use crate::json::scan::{Invalid, Line, Scan, Scanner};

/// A string of a payload: a JSON string literal as the line writes it (escapes not decoded), or
/// a string of a parsed value. Two texts are equal when they decode to the same string.
#[derive(Clone, Copy)]
pub struct Text<'a>(TextRepr<'a>);

#[derive(Clone, Copy)]
enum TextRepr<'a> {
    /// A string literal, quotes included, whose escapes the scanner checked.
    Literal(&'a [u8]),
    /// A string as it is.
    Str(&'a str),
}

impl<'a> Text<'a> {
    /// A text of a string as it is.
    pub fn new(text: &'a str) -> Text<'a> {
        Text(TextRepr::Str(text))
    }

    /// The string, borrowed when it needs no decoding. Invalid UTF-8 in a literal (which
    /// serde_json refuses, and the loader reads lossily) is replaced.
    pub fn decode(&self) -> Cow<'a, str> {
        match self.0 {
            TextRepr::Str(s) => Cow::Borrowed(s),
            TextRepr::Literal(literal) => {
                let inner = &literal[1..literal.len() - 1];
                if memchr::memchr(b'\\', inner).is_none() {
                    return String::from_utf8_lossy(inner);
                }
                serde_json::from_slice::<String>(literal).map_or_else(
                    |_| {
                        Cow::Owned(
                            serde_json::from_str(&String::from_utf8_lossy(literal))
                                .unwrap_or_default(),
                        )
                    },
                    Cow::Owned,
                )
            }
        }
    }

    /// The first `max_chars` characters, and whether that is all of it: a long literal is
    /// borrowed as far as it is plain ASCII, and decoded whole only when it is not.
    pub fn prefix(&self, max_chars: usize) -> (Cow<'a, str>, bool) {
        if let TextRepr::Literal(literal) = self.0 {
            let inner = &literal[1..literal.len() - 1];
            if let Some(head) = inner.get(..max_chars)
                && inner.len() > max_chars
                && head.is_ascii()
                && memchr::memchr(b'\\', head).is_none()
                && let Ok(head) = std::str::from_utf8(head)
            {
                return (Cow::Borrowed(head), false);
            }
        }
        let text = self.decode();
        match text.char_indices().nth(max_chars) {
            None => (text, true),
            Some((at, _)) => match text {
                Cow::Borrowed(s) => (Cow::Borrowed(&s[..at]), false),
                Cow::Owned(mut s) => {
                    s.truncate(at);
                    (Cow::Owned(s), false)
                }
            },
        }
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        match self.0 {
            TextRepr::Str(s) => s.is_empty(),
            TextRepr::Literal(literal) => literal.len() == 2,
        }
    }

    /// Whether the string is `other`: compared without decoding where it has no escape.
    pub fn is(&self, other: &str) -> bool {
        match self.0 {
            TextRepr::Str(s) => s == other,
            TextRepr::Literal(literal) => {
                // An escape decodes shorter than it is written: a literal as long as `other`
                // is it only byte for byte, and one shorter never is.
                let inner = &literal[1..literal.len() - 1];
                match inner.len().cmp(&other.len()) {
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Equal => {
                        inner == other.as_bytes() && memchr::memchr(b'\\', inner).is_none()
                    }
                    std::cmp::Ordering::Greater => {
                        memchr::memchr(b'\\', inner).is_some() && self.decode() == other
                    }
                }
            }
        }
    }
}

impl PartialEq for Text<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.decode() == other.decode()
    }
}

impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.decode(), f)
    }
}

/// A JSON value of a payload: its text as the line writes it, or a part of a parsed value. Two
/// raw values are equal when they parse to the same value.
#[derive(Clone, Copy)]
pub struct Raw<'a>(RawRepr<'a>);

#[derive(Clone, Copy)]
enum RawRepr<'a> {
    /// One value as written, which the scanner checked and serde_json parses to the value the
    /// whole line holds there.
    Json(&'a [u8]),
    /// A parsed value.
    Value(&'a Value),
}

impl<'a> Raw<'a> {
    /// A view of a parsed value.
    pub fn new(value: &'a Value) -> Raw<'a> {
        Raw(RawRepr::Value(value))
    }

    /// The value, parsed when it is text (`null` where serde_json does not take it, which a
    /// checked span never is).
    pub fn to_value(&self) -> Cow<'a, Value> {
        match self.0 {
            RawRepr::Value(value) => Cow::Borrowed(value),
            RawRepr::Json(json) => Cow::Owned(serde_json::from_slice(json).unwrap_or_default()),
        }
    }

    /// The first byte of the value as written, or of its JSON text.
    fn first(&self) -> Option<u8> {
        match self.0 {
            RawRepr::Json(json) => json.first().copied(),
            RawRepr::Value(Value::Null) => Some(b'n'),
            RawRepr::Value(Value::Bool(true)) => Some(b't'),
            RawRepr::Value(Value::Bool(false)) => Some(b'f'),
            RawRepr::Value(Value::Number(_)) => Some(b'0'),
            RawRepr::Value(Value::String(_)) => Some(b'"'),
            RawRepr::Value(Value::Array(_)) => Some(b'['),
            RawRepr::Value(Value::Object(_)) => Some(b'{'),
        }
    }

    /// The string, when the value is one.
    pub fn text(&self) -> Option<Text<'a>> {
        match self.0 {
            RawRepr::Value(value) => value.as_str().map(Text::new),
            RawRepr::Json(json) => {
                (json.first() == Some(&b'"')).then_some(Text(TextRepr::Literal(json)))
            }
        }
    }

    /// The number as a finite `f64`, when the value is a number (as serde_json reads it).
    pub fn as_f64(&self) -> Option<f64> {
        match self.0 {
            RawRepr::Value(value) => value.as_f64(),
            RawRepr::Json(json) => match json.first() {
                Some(b'-' | b'0'..=b'9') => {
                    std::str::from_utf8(json).ok()?.parse::<f64>().ok().filter(|n| n.is_finite())
                }
                _ => None,
            },
        }
    }

    /// The number as an `i64`, when the value is an integer that fits (as serde_json reads it).
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            RawRepr::Value(value) => value.as_i64(),
            RawRepr::Json(_) => self.to_value().as_i64(),
        }
    }

    /// The number as a `u64`, when the value is an integer that fits (as serde_json reads it).
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            RawRepr::Value(value) => value.as_u64(),
            RawRepr::Json(_) => self.to_value().as_u64(),
        }
    }

    /// The entry id the value is, as the index reads ids: `null` is none, a string its text,
    /// any other value its JSON text.
    pub fn entry_id(&self) -> Option<EntryId> {
        EntryId::from_value(&self.to_value())
    }

    /// The boolean, when the value is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.first() {
            Some(b't') => Some(true),
            Some(b'f') => Some(false),
            _ => None,
        }
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        self.first() == Some(b'n')
    }

    /// Whether the value is a number (finite or not).
    pub fn is_number(&self) -> bool {
        matches!(self.first(), Some(b'-' | b'0'..=b'9'))
    }

    /// Whether the value is an object.
    pub fn is_object(&self) -> bool {
        self.first() == Some(b'{')
    }

    /// Whether the value is an array.
    pub fn is_array(&self) -> bool {
        self.first() == Some(b'[')
    }

    /// The members, when the value is an object (a span is walked for them now).
    pub fn object(&self) -> Option<Object<'a>> {
        match self.0 {
            RawRepr::Value(value) => value.as_object().map(|map| Object(ObjectRepr::Value(map))),
            RawRepr::Json(json) => Spans::walk(json, |spans, start| spans.object(start)),
        }
    }

    /// The elements, when the value is an array (a span is walked for them now).
    pub fn elements(&self) -> Option<Vec<Raw<'a>>> {
        match self.0 {
            RawRepr::Value(value) => Some(value.as_array()?.iter().map(Raw::new).collect()),
            RawRepr::Json(json) => Spans::walk(json, |spans, start| spans.elements(start)),
        }
    }
}

impl PartialEq for Raw<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.to_value() == other.to_value()
    }
}

impl fmt::Debug for Raw<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_value(), f)
    }
}

/// The members of a JSON object, read as serde_json reads them: a key written twice has its
/// last value, in the place of its first. Two objects are equal when their members are.
#[derive(Clone)]
pub struct Object<'a>(ObjectRepr<'a>);

#[derive(Clone)]
enum ObjectRepr<'a> {
    /// Members as written, in order, keys written twice included.
    Spans(Vec<(Text<'a>, Raw<'a>)>),
    /// A parsed object.
    Value(&'a Map<String, Value>),
}

impl<'a> Object<'a> {
    /// The value of member `key`.
    pub fn member(&self, key: &str) -> Option<Raw<'a>> {
        match &self.0 {
            ObjectRepr::Value(map) => map.get(key).map(Raw::new),
            ObjectRepr::Spans(members) => {
                members.iter().rev().find(|(k, _)| k.is(key)).map(|&(_, value)| value)
            }
        }
    }

    /// The string of member `key`, when it is one.
    pub fn text(&self, key: &str) -> Option<Text<'a>> {
        self.member(key)?.text()
    }

    /// The number of member `key`, when it is one.
    pub fn number(&self, key: &str) -> Option<f64> {
        self.member(key)?.as_f64()
    }

    /// Whether member `key` is `true`.
    pub fn is_true(&self, key: &str) -> bool {
        self.member(key).and_then(|v| v.as_bool()) == Some(true)
    }

    /// The members in serde_json's order, each key once.
    pub fn members(&self) -> Vec<(Cow<'a, str>, Raw<'a>)> {
        match &self.0 {
            ObjectRepr::Value(map) => {
                map.iter().map(|(k, v)| (Cow::Borrowed(k.as_str()), Raw::new(v))).collect()
            }
            ObjectRepr::Spans(members) => {
                let mut out: Vec<(Cow<'a, str>, Raw<'a>)> = Vec::with_capacity(members.len());
                for (key, value) in members {
                    let key = key.decode();
                    match out.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = *value,
                        None => out.push((key, *value)),
                    }
                }
                out
            }
        }
    }

    /// The object as a parsed value.
    pub fn to_value(&self) -> Value {
        match &self.0 {
            ObjectRepr::Value(map) => Value::Object((*map).clone()),
            ObjectRepr::Spans(_) => Value::Object(
                self.members()
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.to_value().into_owned()))
                    .collect(),
            ),
        }
    }
}

impl Default for Object<'_> {
    /// No members.
    fn default() -> Self {
        Object(ObjectRepr::Spans(Vec::new()))
    }
}

impl PartialEq for Object<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.members() == other.members()
    }
}

impl fmt::Debug for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.members()).finish()
    }
}

/// The role of a message: who says it. The agents write the named ones (FORMAT §4, CHANGES
/// P4, R1; oh-my-pi 18.2.3's `session/messages.ts`, pi 1.6.0's `core/messages.js`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role<'a> {
    /// `user`.
    User,
    /// `assistant`.
    Assistant,
    /// `toolResult`.
    ToolResult,
    /// `bashExecution`: a command the user ran.
    BashExecution,
    /// `pythonExecution` (oh-my-pi): code the user ran.
    PythonExecution,
    /// `custom`: a message an extension wrote.
    Custom,
    /// `hookMessage` (oh-my-pi).
    HookMessage,
    /// `fileMention` (oh-my-pi).
    FileMention,
    /// `branchSummary`.
    BranchSummary,
    /// `compactionSummary`.
    CompactionSummary,
    /// `system` (pi 1.6, CHANGES R1).
    System,
    /// `developer`.
    Developer,
    /// Any other role.
    Other(&'a str),
}

impl<'a> Role<'a> {
    /// The role named `name`.
    pub fn from_name(name: &'a str) -> Role<'a> {
        Role::known(name).unwrap_or(Role::Other(name))
    }

    /// The known role named `name`.
    pub(crate) fn known(name: &str) -> Option<Role<'static>> {
        Some(match name {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "toolResult" => Role::ToolResult,
            "bashExecution" => Role::BashExecution,
            "pythonExecution" => Role::PythonExecution,
            "custom" => Role::Custom,
            "hookMessage" => Role::HookMessage,
            "fileMention" => Role::FileMention,
            "branchSummary" => Role::BranchSummary,
            "compactionSummary" => Role::CompactionSummary,
            "system" => Role::System,
            "developer" => Role::Developer,
            _ => return None,
        })
    }

    /// The name as written.
    pub fn as_str(&self) -> &'a str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::ToolResult => "toolResult",
            Role::BashExecution => "bashExecution",
            Role::PythonExecution => "pythonExecution",
            Role::Custom => "custom",
            Role::HookMessage => "hookMessage",
            Role::FileMention => "fileMention",
            Role::BranchSummary => "branchSummary",
            Role::CompactionSummary => "compactionSummary",
            Role::System => "system",
            Role::Developer => "developer",
            Role::Other(name) => name,
        }
    }
}

/// What an entry says, by family of kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload<'a> {
    /// A `message`.
    Message(Message<'a>),
    /// A `custom_message`: a message an extension put into the context.
    CustomMessage(CustomMessage<'a>),
    /// A `compaction`.
    Compaction(Summary<'a>),
    /// A `branch_summary`.
    BranchSummary(Summary<'a>),
    /// A kind of the setting class ([`Class::Setting`]): what changes the agent's state or
    /// records an event outside a turn (model, thinking level, usage, extension state, …).
    Setting(Fields<'a>),
    /// A kind of the bookkeeping class ([`Class::Bookkeeping`]): a session name or a label.
    Bookkeeping(Fields<'a>),
    /// An opaque kind ([`Class::Opaque`]): a legacy type, a stray header, an unknown type, a
    /// record without one.
    Other(Fields<'a>),
    /// A record that is not an object.
    Record(Raw<'a>),
}

/// The members of an entry whose family the view reads no further: read by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Fields<'a> {
    /// The entry's members, envelope included.
    pub members: Object<'a>,
}

/// A `message` entry's message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message<'a> {
    /// `role`, when a string.
    pub role: Option<Role<'a>>,
    /// `content`.
    pub content: Content<'a>,
    /// The message's members (empty where `message` is not an object).
    pub members: Object<'a>,
}

/// A `custom_message`.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomMessage<'a> {
    /// `customType`, when a string.
    pub custom_type: Option<Text<'a>>,
    /// `content`.
    pub content: Content<'a>,
    /// The entry's members.
    pub members: Object<'a>,
}

/// A `compaction` or a `branch_summary`.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary<'a> {
    /// `summary`, as written (a move marker's is missing, `null` or empty).
    pub summary: Option<Raw<'a>>,
    /// The entry's members.
    pub members: Object<'a>,
}

/// Message content.
#[derive(Debug, Clone, PartialEq)]
pub enum Content<'a> {
    /// A string.
    Text(Text<'a>),
    /// A list of blocks.
    Blocks(Vec<Block<'a>>),
    /// Missing, or a value of another shape: no content.
    Absent,
}

/// A content block.
#[derive(Debug, Clone, PartialEq)]
pub enum Block<'a> {
    /// `text`: its `text`, when a string.
    Text(Option<Text<'a>>),
    /// `thinking`: its `thinking`, when a string.
    Thinking(Option<Text<'a>>),
    /// `toolCall`.
    ToolCall(ToolCall<'a>),
    /// `image`.
    Image(Image<'a>),
    /// Another type (`None` when the block has no string `type`, or is not an object).
    Other(Option<Text<'a>>),
}

/// A `toolCall` block.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall<'a> {
    /// `id`, when a string.
    pub id: Option<Text<'a>>,
    /// `name`, when a string.
    pub name: Option<Text<'a>>,
    /// `arguments`.
    pub arguments: Option<Raw<'a>>,
}

/// An `image` block.
#[derive(Debug, Clone, PartialEq)]
pub struct Image<'a> {
    /// `mimeType`, when a string.
    pub mime_type: Option<Text<'a>>,
    /// `data` (base64, or oh-my-pi's `blob:sha256:…` reference), when a string.
    pub data: Option<Text<'a>>,
}

impl<'a> Content<'a> {
    /// The content `raw` holds, its blocks walked now.
    pub fn of(raw: Option<Raw<'a>>) -> Content<'a> {
        Content::read(raw, &mut OnDemand).unwrap_or(Content::Absent)
    }

    /// The content of `raw` (as a fill reaches into it).
    fn read(raw: Option<Raw<'a>>, fill: &mut impl Fill<'a>) -> Scan<Content<'a>> {
        let Some(raw) = raw else { return Ok(Content::Absent) };
        if let Some(text) = raw.text() {
            return Ok(Content::Text(text));
        }
        if !raw.is_array() {
            return Ok(Content::Absent);
        }
        let blocks = fill.elements(raw)?.into_iter().map(|block| Block::read(block, fill));
        blocks.collect::<Scan<_>>().map(Content::Blocks)
    }

    /// Whether it is a string or a list of blocks: content an agent restores as a message.
    pub fn is_some(&self) -> bool {
        !matches!(self, Content::Absent)
    }

    /// The blocks (none for string content).
    pub fn blocks(&self) -> &[Block<'a>] {
        match self {
            Content::Blocks(blocks) => blocks,
            _ => &[],
        }
    }

    /// The text of the content: a string as it is, or the `text` blocks' texts concatenated
    /// with no separator (images, thinking and tool calls are skipped); borrowed when it is one
    /// string. Other content has none.
    pub fn text(&self) -> Cow<'a, str> {
        match self {
            Content::Text(text) => text.decode(),
            Content::Blocks(blocks) => {
                let mut texts = blocks.iter().filter_map(|block| match block {
                    Block::Text(Some(text)) => Some(text.decode()),
                    _ => None,
                });
                let Some(first) = texts.next() else { return Cow::Borrowed("") };
                match texts.next() {
                    None => first,
                    Some(second) => {
                        let mut joined = first.into_owned();
                        joined.push_str(&second);
                        texts.for_each(|t| joined.push_str(&t));
                        Cow::Owned(joined)
                    }
                }
            }
            Content::Absent => Cow::Borrowed(""),
        }
    }

    /// The `toolCall` blocks.
    pub fn calls(&self) -> impl Iterator<Item = &ToolCall<'a>> {
        self.blocks().iter().filter_map(|block| match block {
            Block::ToolCall(call) => Some(call),
            _ => None,
        })
    }
}

impl<'a> Block<'a> {
    fn read(raw: Raw<'a>, fill: &mut impl Fill<'a>) -> Scan<Block<'a>> {
        if !raw.is_object() {
            return Ok(Block::Other(None));
        }
        let block = fill.object(raw)?;
        let Some(kind) = block.text("type") else { return Ok(Block::Other(None)) };
        Ok(if kind.is("text") {
            Block::Text(block.text("text"))
        } else if kind.is("thinking") {
            Block::Thinking(block.text("thinking"))
        } else if kind.is("toolCall") {
            Block::ToolCall(ToolCall {
                id: block.text("id"),
                name: block.text("name"),
                arguments: block.member("arguments"),
            })
        } else if kind.is("image") {
            Block::Image(Image { mime_type: block.text("mimeType"), data: block.text("data") })
        } else {
            Block::Other(Some(kind))
        })
    }
}

impl<'a> Payload<'a> {
    /// The view of a parsed line.
    pub fn from_value(entry: &'a Value) -> Payload<'a> {
        match entry.as_object() {
            Some(map) => Payload::read(Object(ObjectRepr::Value(map)), &mut OnDemand)
                .expect("invariant: a parsed value's fill does not fail"),
            None => Payload::Record(Raw::new(entry)),
        }
    }

    /// The view of a line straight from its bytes, in one walk of the scanner; `None` where
    /// the scan does not take the line (not a JSON object, one serde_json reads as something
    /// else, nested deeper than serde_json reads, or a role that is neither known nor plain),
    /// and the caller parses it for [`Payload::from_value`].
    pub fn scan(bytes: &'a [u8], scanner: &mut Scanner) -> Option<Payload<'a>> {
        // serde_json's marker objects (numbers and raw values kept as text) read as something
        // else than they are written: such a line is left to a full parse.
        if memchr::memmem::find(bytes, b"$serde_json::private::").is_some() {
            return None;
        }
        let (line, stack) = scanner.index(bytes).ok()?;
        let start = line.ws(0);
        let mut spans = Spans { line, stack };
        let (top, end) = spans.object_at(start).ok()?;
        line.end(end).ok()?;
        if line.deepest() + 1 > crate::json::MAX_NESTING {
            return None;
        }
        Payload::read(top, &mut spans).ok()
    }

    /// The families, read the same for both fills from the entry's members.
    fn read(top: Object<'a>, fill: &mut impl Fill<'a>) -> Scan<Payload<'a>> {
        let kind = match top.text("type") {
            Some(name) => Kind::from_name(&name.decode()),
            None => Kind::Missing,
        };
        let fields = |members| Fields { members };
        // By the kind's class (the kind table), so a new kind needs no arm here.
        Ok(match kind.class() {
            Class::Message => {
                let message = match top.member("message") {
                    Some(raw) if raw.is_object() => fill.object(raw)?,
                    _ => Object::default(),
                };
                Payload::Message(Message::read(message, fill)?)
            }
            Class::CustomMessage => Payload::CustomMessage(CustomMessage {
                custom_type: top.text("customType"),
                content: Content::read(top.member("content"), fill)?,
                members: top,
            }),
            Class::Summary => {
                let summary = Summary { summary: top.member("summary"), members: top };
                match kind {
                    Kind::Compaction => Payload::Compaction(summary),
                    _ => Payload::BranchSummary(summary),
                }
            }
            Class::Setting => Payload::Setting(fields(top)),
            Class::Bookkeeping => Payload::Bookkeeping(fields(top)),
            Class::Opaque => Payload::Other(fields(top)),
        })
    }

    /// The message, when the entry is one.
    pub fn message(&self) -> Option<&Message<'a>> {
        if let Payload::Message(m) = self { Some(m) } else { None }
    }

    /// The role of a message.
    pub fn role(&self) -> Option<Role<'a>> {
        self.message()?.role
    }

    /// The entry a compaction keeps from (`firstKeptEntryId`): none when it is absent or
    /// `null`, or the entry is no compaction. pi 1.6 writes the compaction's own id when it
    /// keeps nothing (CHANGES R2).
    pub fn first_kept(&self) -> Option<EntryId> {
        let Payload::Compaction(compaction) = self else { return None };
        compaction.members.member("firstKeptEntryId")?.entry_id()
    }

    /// Where a branch summary comes from (`fromId`), as written: the leaf it left (pi ≥ 0.84.3)
    /// or the entry it marks (oh-my-pi), `"root"` for none (CHANGES R5b). None when the entry
    /// is no branch summary.
    pub fn from_id(&self) -> Option<Raw<'a>> {
        let Payload::BranchSummary(summary) = self else { return None };
        summary.members.member("fromId")
    }

    /// The entry a label, an archive or a context edit is about (`targetId`): none when it is
    /// absent or `null`, or the entry is of another family.
    pub fn target_id(&self) -> Option<EntryId> {
        let (Payload::Setting(fields) | Payload::Bookkeeping(fields)) = self else { return None };
        fields.members.member("targetId")?.entry_id()
    }
}

impl<'a> Message<'a> {
    /// The view of a parsed message (an object with a `role`, as the context holds them).
    pub fn from_value(message: &'a Value) -> Message<'a> {
        Message::of(Some(Raw::new(message)))
    }

    /// The message `raw` holds (a value that is not an object holds nothing), walked now.
    pub fn of(raw: Option<Raw<'a>>) -> Message<'a> {
        let members = raw.and_then(|raw| raw.object()).unwrap_or_default();
        let message = Message::read(members, &mut OnDemand);
        // Only a role that is neither known nor a span fails, which a value's never is.
        message.unwrap_or_else(|_| Message {
            role: None,
            content: Content::Absent,
            members: Object::default(),
        })
    }

    /// The message whose members are `members`.
    fn read(members: Object<'a>, fill: &mut impl Fill<'a>) -> Scan<Message<'a>> {
        let role = match members.text("role").map(|role| role.decode()) {
            None => None,
            Some(Cow::Borrowed(name)) => Some(Role::from_name(name)),
            // An escaped name: kept when it is a known role.
            Some(Cow::Owned(name)) => Some(Role::known(&name).ok_or(Invalid)?),
        };
        let content = Content::read(members.member("content"), fill)?;
        Ok(Message { role, content, members })
    }

    /// The string of member `key` of the message.
    pub fn text(&self, key: &str) -> Option<Text<'a>> {
        self.members.text(key)
    }

    /// Whether a tool result says it failed (`isError: true`).
    pub fn is_error(&self) -> bool {
        self.members.is_true("isError")
    }
}

/// How a fill reaches into the values the builder looks into.
trait Fill<'a> {
    /// The members of `raw`, an object.
    fn object(&mut self, raw: Raw<'a>) -> Scan<Object<'a>>;
    /// The elements of `raw`, an array.
    fn elements(&mut self, raw: Raw<'a>) -> Scan<Vec<Raw<'a>>>;
}

/// The fill from a parsed value, or from spans walked when asked for.
struct OnDemand;

impl<'a> Fill<'a> for OnDemand {
    fn object(&mut self, raw: Raw<'a>) -> Scan<Object<'a>> {
        raw.object().ok_or(Invalid)
    }

    fn elements(&mut self, raw: Raw<'a>) -> Scan<Vec<Raw<'a>>> {
        raw.elements().ok_or(Invalid)
    }
}

/// The fill from a line the scanner indexed: values are spans of it.
struct Spans<'a, 'q, 's> {
    line: Line<'a, 'q>,
    stack: &'s mut Vec<bool>,
}

impl<'a> Spans<'a, '_, '_> {
    /// Indexes `json` (one value) and calls `read` with its start.
    fn walk<T>(
        json: &'a [u8],
        read: impl FnOnce(&mut Spans<'a, '_, '_>, usize) -> Scan<T>,
    ) -> Option<T> {
        let mut scanner = Scanner::new();
        let (line, stack) = scanner.index(json).ok()?;
        read(&mut Spans { line, stack }, 0).ok()
    }

    /// Where the span `raw` (of this line) starts.
    fn start_of(&self, raw: Raw<'a>) -> Scan<usize> {
        match raw.0 {
            RawRepr::Json(json) => {
                let at = (json.as_ptr() as usize).wrapping_sub(self.line.bytes.as_ptr() as usize);
                (at < self.line.bytes.len()).then_some(at).ok_or(Invalid)
            }
            RawRepr::Value(_) => Err(Invalid),
        }
    }

    /// The members of the object at `start`, and the position after it.
    fn object_at(&mut self, start: usize) -> Scan<(Object<'a>, usize)> {
        let mut members = Vec::with_capacity(8);
        let stack = &mut *self.stack;
        let end = self.line.object(start, |line, (key_start, key_end), value| {
            let end = line.skip_value(value, stack)?;
            let key = line.bytes.get(key_start - 1..key_end + 1).ok_or(Invalid)?;
            let json = line.bytes.get(value..end).ok_or(Invalid)?;
            members.push((Text(TextRepr::Literal(key)), Raw(RawRepr::Json(json))));
            Ok(end)
        })?;
        Ok((Object(ObjectRepr::Spans(members)), end))
    }

    fn object(&mut self, start: usize) -> Scan<Object<'a>> {
        self.object_at(start).map(|(object, _)| object)
    }

    fn elements(&mut self, start: usize) -> Scan<Vec<Raw<'a>>> {
        let mut elements = Vec::new();
        let stack = &mut *self.stack;
        self.line.array(start, |line, at| {
            let end = line.skip_value(at, stack)?;
            elements.push(Raw(RawRepr::Json(line.bytes.get(at..end).ok_or(Invalid)?)));
            Ok(end)
        })?;
        Ok(elements)
    }
}

impl<'a> Fill<'a> for Spans<'a, '_, '_> {
    fn object(&mut self, raw: Raw<'a>) -> Scan<Object<'a>> {
        let start = self.start_of(raw)?;
        Spans::object(self, start)
    }

    fn elements(&mut self, raw: Raw<'a>) -> Scan<Vec<Raw<'a>>> {
        let start = self.start_of(raw)?;
        Spans::elements(self, start)
    }
}

#[cfg(test)]
pub(crate) mod arb;

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::arb::{arb_entry, arb_line, arb_message, arb_odd_entry, arb_usual_message};
    use super::*;
    use crate::json::scan::arb_json;

    /// The scan of `bytes`, where it takes the line, is the view of the line parsed in full;
    /// whether it took it.
    fn fills_agree(bytes: &[u8]) -> Result<bool, TestCaseError> {
        let Ok(value) = serde_json::from_slice::<Value>(bytes) else { return Ok(false) };
        let Some(scanned) = Payload::scan(bytes, &mut Scanner::new()) else { return Ok(false) };
        let parsed = Payload::from_value(&value);
        prop_assert_eq!(&scanned, &parsed);
        // What readers work out of the view, too.
        if let (Some(a), Some(b)) = (scanned.message(), parsed.message()) {
            prop_assert_eq!(a.content.text(), b.content.text());
            let (a, b) = (a.content.calls().count(), b.content.calls().count());
            prop_assert_eq!(a, b);
        }
        Ok(true)
    }

    /// `value` written as serde_json writes it, and as a line with spaces between tokens.
    fn both_ways(value: &Value) -> Result<(), TestCaseError> {
        fills_agree(value.to_string().as_bytes())?;
        fills_agree(serde_json::to_string_pretty(value).unwrap_or_default().as_bytes())?;
        Ok(())
    }

    proptest! {
        #[test]
        fn the_fills_agree_on_any_line_serde_json_reads(bytes in arb_line()) {
            fills_agree(&bytes)?;
        }

        #[test]
        fn the_fills_agree_on_entries_of_every_family(entry in arb_entry()) {
            both_ways(&entry)?;
        }

        #[test]
        fn the_fills_agree_on_any_value_in_the_fields_read(entry in arb_odd_entry()) {
            both_ways(&entry)?;
        }

        #[test]
        fn the_fills_agree_on_messages_in_any_order(entry in arb_message()) {
            both_ways(&entry)?;
        }

        #[test]
        fn the_scan_takes_every_usual_message(entry in arb_usual_message()) {
            prop_assert!(fills_agree(entry.to_string().as_bytes())?);
        }

        #[test]
        fn the_fills_agree_on_any_json_where_a_payload_reads(value in arb_json()) {
            both_ways(&value)?;
            both_ways(&json!({"type": "message", "message": {"role": "user", "content": value}}))?;
            both_ways(&json!({"type": "message", "message": {"role": "assistant",
                "content": [value, {"type": "toolCall", "id": "c", "arguments": value}]}}))?;
            both_ways(&json!({"type": "custom_message", "content": [{"type": "text", "text": value}]}))?;
            both_ways(&json!({"type": "label", "label": value, "x": value}))?;
        }
    }

    proptest! {
        /// `Text::is` compares without decoding where it can: it must answer as comparing the
        /// decoded string would, whether the literal is written plain or every unit escaped.
        #[test]
        fn a_literal_is_what_it_decodes_to(
            text in "[anu0\\\\\"\n\u{e9}\u{1f600}]{0,6}|\\PC{0,8}",
            other in "[anu0\\\\\"\n\u{e9}\u{1f600}]{0,6}|\\PC{0,8}",
            escape_all in any::<bool>(),
            other_is_written in any::<bool>(),
        ) {
            let written = if escape_all {
                let units: String = text.encode_utf16().map(|u| format!("\\u{u:04x}")).collect();
                format!("\"{units}\"")
            } else {
                serde_json::to_string(&text).unwrap()
            };
            let literal = Text(TextRepr::Literal(written.as_bytes()));
            prop_assert!(literal.is(&text), "{written} is {text:?}");
            // The text as written, escapes and all, is another string where there are any.
            let other = if other_is_written { written[1..written.len() - 1].to_owned() } else { other };
            prop_assert_eq!(literal.is(&other), text == other, "{} is {:?}", written, other);
        }
    }

    #[test]
    fn text_is_decoded_on_demand_and_cut_cheaply() {
        let line = br#"{"type":"message","message":{"role":"user","content":"caf\u00e9 au lait"}}"#;
        let payload = Payload::scan(line, &mut Scanner::new()).expect("a message line");
        let Some(Message { content: Content::Text(text), .. }) = payload.message() else {
            panic!("string content: {payload:?}");
        };
        assert_eq!(text.decode(), "café au lait");
        assert_eq!(text.prefix(4), (Cow::Borrowed("café"), false));
        assert!(!text.is_empty());
        let plain = br#"{"type":"message","message":{"content":"abcdef\n"}}"#;
        let payload = Payload::scan(plain, &mut Scanner::new()).expect("a message line");
        let content = &payload.message().expect("a message").content;
        let Content::Text(text) = content else { panic!("string content: {content:?}") };
        assert!(matches!(text.prefix(3), (Cow::Borrowed("abc"), false)));
    }

    #[test]
    fn a_key_written_twice_reads_as_serde_json_reads_it() {
        let line = br#"{"type":"label","a":1,"label":"x","a":2}"#;
        let scanned = Payload::scan(line, &mut Scanner::new()).expect("an object line");
        let Payload::Bookkeeping(label) = scanned else { panic!("a label: {scanned:?}") };
        let members = label.members.members();
        let keys: Vec<_> = members.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
        assert_eq!(keys, ["type=\"label\"", "a=2", "label=\"x\""]);
    }

    #[test]
    fn roles_are_read_as_the_agents_write_them() {
        fn role(line: &[u8]) -> Option<Option<Role<'_>>> {
            Payload::scan(line, &mut Scanner::new()).map(|p| p.role())
        }
        assert_eq!(
            role(br#"{"type":"message","message":{"role":"system"}}"#),
            Some(Some(Role::System))
        );
        assert_eq!(
            role(br#"{"type":"message","message":{"role":"us\u0065r"}}"#),
            Some(Some(Role::User))
        );
        assert_eq!(
            role(br#"{"type":"message","message":{"role":"guest"}}"#),
            Some(Some(Role::Other("guest")))
        );
        // An unknown role with an escape is not a span of the line: left to a full parse.
        assert_eq!(role(br#"{"type":"message","message":{"role":"gu\u0065st"}}"#), None);
        assert_eq!(role(br#"{"type":"message","message":{"role":1}}"#), Some(None));
    }

    #[test]
    fn the_ids_an_entry_points_at_are_read_by_both_fills() {
        let lines: [&[u8]; 6] = [
            br#"{"type":"compaction","id":"c","firstKeptEntryId":"a\u0031"}"#,
            br#"{"type":"compaction","id":"c","firstKeptEntryId":null,"targetId":"x"}"#,
            br#"{"type":"branch_summary","fromId":"root","firstKeptEntryId":"a1"}"#,
            br#"{"type":"label","targetId":12,"fromId":"x"}"#,
            br#"{"type":"context_edit","targetId":"m1"}"#,
            br#"{"type":"message","targetId":"m1","message":{"role":"user"}}"#,
        ];
        let id = |s: &str| Some(EntryId::new(s));
        let expected = [
            (id("a1"), None, None),
            (None, None, None),
            (None, Some(json!("root")), None),
            (None, None, Some(EntryId::from_non_string("12"))),
            (None, None, id("m1")),
            (None, None, None),
        ];
        for (line, expected) in lines.iter().zip(expected) {
            let value: Value = serde_json::from_slice(line).expect("a JSON line");
            let scanned = Payload::scan(line, &mut Scanner::new()).expect("a line the scan takes");
            for payload in [scanned, Payload::from_value(&value)] {
                let from = payload.from_id().map(|raw| raw.to_value().into_owned());
                assert_eq!((payload.first_kept(), from, payload.target_id()), expected);
            }
        }
    }

    #[test]
    fn lines_the_scan_does_not_take_are_left_to_a_full_parse() {
        fn scan(line: &[u8]) -> Option<Payload<'_>> {
            Payload::scan(line, &mut Scanner::new())
        }
        assert_eq!(scan(b"[1]"), None);
        assert_eq!(scan(b"{\"type\":"), None);
        assert_eq!(scan(br#"{"type":"x","n":{"$serde_json::private::Number":"1"}}"#), None);
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(130), "]".repeat(130));
        assert_eq!(scan(deep.as_bytes()), None);
    }
}
