//! The part of an entry that its row reads: what [`crate::row::text`] needs for the one-line text,
//! the search text, the filter modes and the tool calls (FORMAT §9.2–§9.4), taken from the line
//! without building the rest.
//!
//! `log` and `tree` show nearly every entry of a file, and a full `serde_json::Value` per entry
//! (tool output, file contents, thinking, images) costs far more than the row it gives. So the
//! row value ([`RowValue`]) keeps, per entry type, only the fields the row functions look at,
//! cuts message text to what a row or a search can show, and reduces tool-call arguments to what
//! their result's row shows. The row functions read it through [`Json`], as they read a whole
//! entry, and give the same result on both; a differential test holds them together. Lines the
//! scanner does not take (not an object, not JSON, invalid UTF-8 in a kept field) give `None`,
//! and the caller parses them in full.
//!
//! The fields `stats` and `context` read are picked the same way, into a `serde_json::Value`
//! ([`pick`]).

use std::borrow::Cow;
use std::cell::RefCell;

use bumpalo::Bump;
use serde_json::{Map, Value};

use crate::format::{Envelope, Kind};
use crate::json::scan::{Invalid, Line, Scan, Scanner};
use crate::json::transcode::MARKERS;
use crate::row::Json;
use crate::row::text::{ARGS_LIMIT, TEXT_LIMIT, command_prefix, row_argument_keys, row_members};

mod direct;

pub(crate) use direct::message_gist;

/// A vector in a row arena (see [`with_arena`]).
type ArenaVec<'b, T> = bumpalo::collections::Vec<'b, T>;

/// The elements of an array or the members of an object in a [`RowValue`]: in a row arena
/// ([`with_arena`]) while the line is read, owned once copied out of it.
#[derive(Debug, Clone)]
pub enum Items<'a, T> {
    /// In a row arena.
    Arena(&'a [T]),
    /// Owned.
    Owned(Vec<T>),
}

impl<T> std::ops::Deref for Items<'_, T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Items::Arena(items) => items,
            Items::Owned(items) => items,
        }
    }
}

impl<T: PartialEq> PartialEq for Items<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

thread_local! {
    /// Each thread's arena for row values, emptied for each line (see [`with_arena`]).
    static ARENA: RefCell<Bump> = RefCell::new(Bump::new());
}

/// Runs `build` with this thread's row arena, emptied first: the row values of a line, its
/// arrays, objects and decoded strings, are built there instead of in an allocation each, and
/// go all at once when the next line is read (`log` on the 10k-entry file made 13 allocations
/// a line, most of them for row values, and spent 10% of its instructions allocating, freeing
/// and dropping them). What `build` returns cannot borrow the arena: it copies out what it
/// keeps ([`RowValue::into_owned`], or a gist).
pub fn with_arena<R>(build: impl FnOnce(&Bump) -> R) -> R {
    /// Past this, an arena is given back rather than kept for the next line: one huge line
    /// (a field rows keep holding an array of millions) should not hold its memory to the end.
    const KEPT: usize = 1 << 20;
    ARENA.with(|arena| match arena.try_borrow_mut() {
        Ok(mut arena) => {
            arena.reset();
            let built = build(&arena);
            if arena.allocated_bytes() > KEPT {
                *arena = Bump::new();
            }
            built
        }
        // A row built while another is (nothing does that) gets an arena of its own.
        Err(_) => build(&Bump::new()),
    })
}

/// The row value of a line: the members its row reads (see the module), in a shape that costs
/// far less than a [`Value`] to build and drop. Member names are the static names rows read,
/// words that recur on every line (entry types, roles, block types) are not copied, numbers
/// stay as written, and strings and numbers borrow from the line (`'a`). Built from a line, its
/// arrays, objects and decoded strings borrow from a row arena too ([`with_arena`]), so that
/// dropping it frees nothing; [`RowValue::into_owned`] copies it all out to keep the value
/// past the line, into the owned variants a value converted [`From`] a [`Value`] has.
#[derive(Debug, Clone)]
pub enum RowValue<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(Cow<'a, str>),
    /// A string, decoded.
    String(Cow<'a, str>),
    /// An array.
    Array(Items<'a, RowValue<'a>>),
    /// An object's members in order. A key written twice keeps its first place and its last
    /// value, as in a [`Value`].
    Object(Items<'a, (Cow<'a, str>, RowValue<'a>)>),
    /// An array or an object in a field rows read only as a whole (`parse_row` keeps it): its JSON
    /// text as written, which serde_json parses ([`Json::to_value`]) only for a row that
    /// prints it. Read member by member, it is neither a string nor anything else.
    Raw(Cow<'a, str>),
}

static ROW_NULL: RowValue<'static> = RowValue::Null;

/// Structurally, numbers as written; a [`RowValue::Raw`] is equal to a value that serializes
/// to the same JSON text (keys in the same order).
impl PartialEq for RowValue<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (RowValue::Null, RowValue::Null) => true,
            (RowValue::Bool(a), RowValue::Bool(b)) => a == b,
            (RowValue::Number(a), RowValue::Number(b))
            | (RowValue::String(a), RowValue::String(b)) => a == b,
            (RowValue::Array(a), RowValue::Array(b)) => a == b,
            (RowValue::Object(a), RowValue::Object(b)) => a == b,
            // As serialized: a map's equality would ignore the order of its keys.
            (RowValue::Raw(_), _) | (_, RowValue::Raw(_)) => {
                serde_json::to_string(self).ok() == serde_json::to_string(other).ok()
            }
            _ => false,
        }
    }
}

impl<'a> RowValue<'a> {
    /// The value with its text copied out of the line it borrows from.
    pub fn into_owned(self) -> RowValue<'static> {
        let owned = |text: Cow<'_, str>| Cow::Owned(text.into_owned());
        match self {
            RowValue::Null => RowValue::Null,
            RowValue::Bool(b) => RowValue::Bool(b),
            RowValue::Number(n) => RowValue::Number(owned(n)),
            // A word rows keep without a copy stays one.
            RowValue::String(Cow::Borrowed(text)) => match word(text.as_bytes()) {
                Some(word) => RowValue::String(Cow::Borrowed(word)),
                None => RowValue::String(owned(Cow::Borrowed(text))),
            },
            RowValue::String(Cow::Owned(text)) => RowValue::String(Cow::Owned(text)),
            RowValue::Raw(text) => RowValue::Raw(owned(text)),
            RowValue::Array(items) => RowValue::Array(Items::Owned(match items {
                Items::Arena(items) => items.iter().cloned().map(RowValue::into_owned).collect(),
                Items::Owned(items) => items.into_iter().map(RowValue::into_owned).collect(),
            })),
            RowValue::Object(members) => {
                let member = |(k, v): (Cow<'_, str>, RowValue<'_>)| (owned(k), v.into_owned());
                RowValue::Object(Items::Owned(match members {
                    Items::Arena(members) => members.iter().cloned().map(member).collect(),
                    Items::Owned(members) => members.into_iter().map(member).collect(),
                }))
            }
        }
    }

    /// The value with a string it owns (one whose escapes were decoded) moved into `arena`, so
    /// that it can go into an arena's array or object, whose elements are never dropped and
    /// would leak what they own. Arrays and objects are built in the arena from the start.
    #[inline]
    fn in_arena(self, arena: &'a Bump) -> RowValue<'a> {
        debug_assert!(
            !matches!(self, RowValue::Array(Items::Owned(_)) | RowValue::Object(Items::Owned(_))),
            "a row's arrays and objects are built in its arena"
        );
        match self {
            RowValue::Number(Cow::Owned(n)) => RowValue::Number(Cow::Borrowed(arena.alloc_str(&n))),
            RowValue::String(Cow::Owned(s)) => RowValue::String(Cow::Borrowed(arena.alloc_str(&s))),
            RowValue::Raw(Cow::Owned(s)) => RowValue::Raw(Cow::Borrowed(arena.alloc_str(&s))),
            other => other,
        }
    }

    /// Whether the value owns nothing: what an arena's arrays and objects must hold.
    #[cfg(test)]
    fn owns_nothing(&self) -> bool {
        match self {
            RowValue::Null | RowValue::Bool(_) => true,
            RowValue::Number(text) | RowValue::String(text) | RowValue::Raw(text) => {
                matches!(text, Cow::Borrowed(_))
            }
            RowValue::Array(Items::Arena(items)) => items.iter().all(RowValue::owns_nothing),
            RowValue::Object(Items::Arena(members)) => {
                members.iter().all(|(k, v)| matches!(k, Cow::Borrowed(_)) && v.owns_nothing())
            }
            RowValue::Array(Items::Owned(_)) | RowValue::Object(Items::Owned(_)) => false,
        }
    }
}

/// Finishes an arena vector as the items of a row value.
fn arena_slice<'b, T>(items: ArenaVec<'b, T>) -> Items<'b, T> {
    Items::Arena(items.into_bump_slice())
}

impl Json for RowValue<'_> {
    fn null<'s>() -> &'s Self {
        &ROW_NULL
    }

    fn get(&self, key: &str) -> Option<&Self> {
        match self {
            RowValue::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            RowValue::String(s) => Some(s),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&[Self]> {
        match self {
            RowValue::Array(items) => Some(&**items),
            _ => None,
        }
    }

    fn as_f64(&self) -> Option<f64> {
        match self {
            // As serde_json reads a number it keeps as written.
            RowValue::Number(n) => n.parse::<f64>().ok().filter(|f| f.is_finite()),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            RowValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self, RowValue::Null)
    }

    fn to_value(&self) -> Value {
        match self {
            RowValue::Null => Value::Null,
            RowValue::Bool(b) => Value::Bool(*b),
            // A number the scanner took is one serde_json takes.
            RowValue::Number(n) => serde_json::from_str(n).unwrap_or(Value::Null),
            RowValue::String(s) => Value::String(s.to_string()),
            // Text serde_json parsed once already (see `parse_row`).
            RowValue::Raw(text) => serde_json::from_str(text).unwrap_or(Value::Null),
            RowValue::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            RowValue::Object(members) => {
                Value::Object(members.iter().map(|(k, v)| (k.to_string(), v.to_value())).collect())
            }
        }
    }
}

impl From<Value> for RowValue<'static> {
    fn from(value: Value) -> RowValue<'static> {
        match value {
            Value::Null => RowValue::Null,
            Value::Bool(b) => RowValue::Bool(b),
            Value::Number(n) => RowValue::Number(Cow::Owned(n.to_string())),
            Value::String(s) => RowValue::String(Cow::Owned(s)),
            Value::Array(items) => {
                RowValue::Array(Items::Owned(items.into_iter().map(RowValue::from).collect()))
            }
            Value::Object(map) => RowValue::Object(Items::Owned(
                map.into_iter().map(|(k, v)| (Cow::Owned(k), RowValue::from(v))).collect(),
            )),
        }
    }
}

impl serde::Serialize for RowValue<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            RowValue::String(text) => s.serialize_str(text),
            RowValue::Null => s.serialize_unit(),
            // Megabytes of small values, it may be (see `parse_row`): not built.
            RowValue::Raw(text) => crate::json::transcode::serialize_text(text, s),
            // Rows print only `type` and `timestamp`, strings nearly always.
            other => other.to_value().serialize(s),
        }
    }
}

/// Words besides the entry types ([`Kind::known_name`]) that fill the kept fields of nearly
/// every line: roles, block types, stop reasons, the common tools. Kept without a copy.
const WORDS: [&str; 16] = [
    "user",
    "assistant",
    "toolResult",
    "developer",
    "bashExecution",
    "text",
    "thinking",
    "toolCall",
    "image",
    "stop",
    "toolUse",
    "error",
    "aborted",
    "length",
    "read",
    "bash",
];

/// The entry type or one of the [`WORDS`] that `text` is, kept without a copy.
fn word(text: &[u8]) -> Option<&'static str> {
    // The words of nearly every line first, in one `match` (lengths, then bytes), before the
    // lists are searched one by one.
    let common = match text {
        b"message" => "message",
        b"user" => "user",
        b"assistant" => "assistant",
        b"toolResult" => "toolResult",
        b"text" => "text",
        b"thinking" => "thinking",
        b"toolCall" => "toolCall",
        b"toolUse" => "toolUse",
        b"stop" => "stop",
        _ => {
            return Kind::known_name_bytes(text)
                .or_else(|| WORDS.into_iter().find(|w| w.as_bytes() == text));
        }
    };
    Some(common)
}

/// A string as a row value: an entry type or one of the [`WORDS`] as its static name, any other
/// as it comes (borrowed from the line, or decoded).
fn string(text: Cow<'_, str>) -> RowValue<'_> {
    match word(text.as_bytes()) {
        Some(word) => RowValue::String(Cow::Borrowed(word)),
        None => RowValue::String(text),
    }
}

/// The string whose content is `span` as a row value: an entry type or one of the [`WORDS`]
/// straight from its bytes, without decoding them or copying it. What [`string`] of
/// [`Line::text`] gives, without a UTF-8 check of the words that fill nearly every line
/// (`log` on the 10k-entry file: 2% more instructions through `string`).
fn string_at<'a>(line: &Line<'a, '_>, span: (usize, usize)) -> Scan<RowValue<'a>> {
    let raw = line.bytes.get(span.0..span.1).ok_or(Invalid)?;
    if line.has_backslash(span) {
        // Escapes may spell a word too.
        return Ok(string(line.text(span)?));
    }
    Ok(RowValue::String(match word(raw) {
        Some(word) => Cow::Borrowed(word),
        None => Cow::Borrowed(std::str::from_utf8(raw).map_err(|_| Invalid)?),
    }))
}

/// Adds a member to an object's members: a key already there keeps its place and takes the new
/// value, as serde_json does with a key written twice.
fn insert<'a>(
    members: &mut ArenaVec<'a, (Cow<'a, str>, RowValue<'a>)>,
    key: &'static str,
    value: RowValue<'a>,
    arena: &'a Bump,
) {
    let value = value.in_arena(arena);
    match members.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => members.push((Cow::Borrowed(key), value)),
    }
}

/// The row value of one line (without its newline), or `None` to parse it in full.
pub fn row_value(scanner: &mut Scanner, bytes: &[u8]) -> Option<RowValue<'static>> {
    let (line, stack) = scanner.index(bytes).ok()?;
    with_arena(|arena| {
        row_value_in(&line, stack, Reads::RowsAndSearch, arena).map(RowValue::into_owned)
    })
}

/// What a row value is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// The one-line text, the filters and the tool calls: a tool result's content is left out.
    Rows,
    /// Searches too.
    RowsAndSearch,
}

/// [`row_value`] of a line the scanner has indexed, for what `reads` says, built in `arena`.
pub fn row_value_in<'a>(
    line: &Line<'a, '_>,
    stack: &mut Vec<bool>,
    reads: Reads,
    arena: &'a Bump,
) -> Option<RowValue<'a>> {
    row_of_members(line, top_members(line, stack, reads, arena)?, stack, None, arena)
}

/// The line's `type` and `timestamp` when they are strings, as its envelope read them: the row
/// takes them from there instead of decoding them again.
#[derive(Debug)]
struct Decoded<'a> {
    kind: Option<Cow<'a, str>>,
    timestamp: Option<Cow<'a, str>>,
}

/// The members of an object line, its `message` built for what `reads` says.
fn top_members<'a>(
    line: &Line<'a, '_>,
    stack: &mut Vec<bool>,
    reads: Reads,
    arena: &'a Bump,
) -> Option<ArenaVec<'a, Member<'a>>> {
    let start = line.ws(0);
    if line.at(start) != Some(b'{') {
        return None;
    }
    members(line, start, stack, Some(reads), arena).ok()
}

/// How deep the row walk nests by itself, above the values it skips: the line's object, a
/// message, its content, a block, a call's arguments. A line whose skipped values nest
/// [`Line::deepest`] levels is at most this much deeper (one less, in fact: a block's members
/// are skipped before its arguments are walked, and that skip counts the arguments' level).
pub(crate) const WALKED_DEPTH: usize = 5;

/// [`row_value_in`], and the line's envelope read from the same walk, for loading with gists:
/// the line is walked once for both. `None` where either would fail; the caller then reads
/// the line the usual way.
pub(crate) fn row_value_and_envelope<'a: 'b, 'b>(
    line: &Line<'a, '_>,
    stack: &mut Vec<bool>,
    reads: Reads,
    arena: &'b Bump,
) -> Option<(RowValue<'b>, Envelope<'a>)> {
    let walked: &Line<'b, '_> = line;
    let members = top_members(walked, stack, reads, arena)?;
    let spans = members.iter().map(|m| (&*m.key, m.start, m.end));
    let envelope = Envelope::from_members(line, spans).ok()?;
    // Clones of text borrowed from the line: copies only where escapes were decoded.
    let decoded = Decoded { kind: envelope.kind.clone(), timestamp: envelope.timestamp.clone() };
    let row = row_of_members(walked, members, stack, Some(decoded), arena)?;
    Some((row, envelope))
}

/// The row value of a line from its top-level members, and its `type` and `timestamp` when
/// they were decoded already.
fn row_of_members<'a>(
    line: &Line<'a, '_>,
    mut members: ArenaVec<'a, Member<'a>>,
    stack: &mut Vec<bool>,
    decoded: Option<Decoded<'a>>,
    arena: &'a Bump,
) -> Option<RowValue<'a>> {
    let kind = match &decoded {
        Some(decoded) => decoded.kind.as_deref().map(Cow::Borrowed),
        // The last `type`, as serde_json keeps it, when it is a string.
        None => members
            .iter()
            .rev()
            .find(|m| *m.key == *b"type")
            .and_then(|m| line.at(m.start).filter(|&c| c == b'"').map(|_| m))
            .and_then(|m| line.text((m.start + 1, m.end - 1)).ok()),
    };
    let keep = row_members(&kind.as_deref().map_or(Kind::Missing, Kind::from_name));
    let last = |name: &[u8]| members.iter().rposition(|m| *m.key == *name);
    let (last_type, last_time) = (last(b"type"), last(b"timestamp"));
    let mut out = ArenaVec::with_capacity_in(2 + keep.len(), arena);
    for (at, m) in members.iter_mut().enumerate() {
        let Some(key) = ["type", "timestamp"]
            .into_iter()
            .chain(keep.iter().copied())
            .find(|k| k.as_bytes() == &*m.key)
        else {
            continue;
        };
        // A decoded string is the value of the last member with its key. An earlier one is
        // replaced by it, but is still read: one that cannot be (a lone surrogate in an
        // array) fails the row, as it fails serde_json.
        let known = match (key, &decoded) {
            ("type", Some(decoded)) if Some(at) == last_type => decoded.kind.clone(),
            ("timestamp", Some(decoded)) if Some(at) == last_time => decoded.timestamp.clone(),
            _ => None,
        };
        let value = match (key, m.built.take()) {
            ("message", Some(built)) => Ok(built),
            ("details", _) => details(line, m.start, m.end, stack, arena),
            // A custom message's text blocks, and the rules a search reads.
            ("content", _) if line.at(m.start) == Some(b'[') => {
                let text = |b: &RowValue<'_>| b.get("type").and_then(Json::as_str) == Some("text");
                elements_read(line, m.start, m.end, &["type", "text"], text, stack, arena)
            }
            ("injectedRules", _) => {
                elements_read(line, m.start, m.end, &[], Json::is_string, stack, arena)
            }
            _ => match known {
                Some(text) => Ok(string(text)),
                None => parse_row(line, m.start, m.end, arena),
            },
        };
        insert(&mut out, key, value.ok()?, arena);
    }
    Some(RowValue::Object(arena_slice(out)))
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
    with_arena(|arena| {
        let members = members(&line, start, stack, None, arena).ok()?;
        picked(&line, members, keep, stack, arena).ok()
    })
}

fn picked<'a>(
    line: &Line<'a, '_>,
    members: ArenaVec<'a, Member<'a>>,
    keep: &[Pick<'_>],
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<Value> {
    let mut out = Map::with_capacity(keep.len());
    for m in members {
        let Some(pick) = keep.iter().find(|p| p.key.as_bytes() == &*m.key) else { continue };
        let value = if !pick.inner.is_empty() && line.at(m.start) == Some(b'{') {
            let (inner, _) = nested(line, m.start, stack, arena)?;
            picked(line, inner, pick.inner, stack, arena)?
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
pub(crate) fn message_model(scanner: &mut Scanner, bytes: &[u8]) -> Option<Value> {
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
    /// The row value of a `message` object, built while walking it (see [`members`]).
    built: Option<RowValue<'a>>,
}

/// The key of a member as written, escapes decoded.
#[inline]
fn key<'a>(line: &Line<'a, '_>, span: (usize, usize)) -> Scan<Cow<'a, [u8]>> {
    let raw = line.bytes.get(span.0..span.1).ok_or(Invalid)?;
    if !line.has_backslash(span) {
        return Ok(Cow::Borrowed(raw));
    }
    Ok(match line.text(span)? {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    })
}

/// The members of the object at `start`, which must be the whole line. With `build`, a
/// `message` object is made into its row value (for what `build` reads) as it is walked, so
/// that the message (nearly all of a line) is walked once, not once to find its end and again
/// to read it; its row value is wasted only on the rare line whose type does not keep it.
fn members<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    build: Option<Reads>,
    arena: &'a Bump,
) -> Scan<ArenaVec<'a, Member<'a>>> {
    // Entries and messages have a handful of members.
    let mut out = ArenaVec::with_capacity_in(8, arena);
    let end = line.object(start, |line, span, value| {
        let key = key(line, span)?;
        let message_at = (*key == *b"message" && line.at(value) == Some(b'{')).then_some(value);
        let (built, end) = if let (Some(reads), Some(at)) = (build, message_at) {
            let (message, end) = message(line, at, stack, reads, arena)?;
            (Some(message), end)
        } else {
            (None, line.skip_value(value, stack)?)
        };
        out.push(Member { key, start: value, end, built });
        Ok(end)
    })?;
    line.end(end)?;
    Ok(out)
}

/// The members of a nested object at `start`, and the position after it.
fn nested<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<(ArenaVec<'a, Member<'a>>, usize)> {
    let mut out = ArenaVec::with_capacity_in(8, arena);
    let end = line.object(start, |line, span, value| {
        let end = line.skip_value(value, stack)?;
        out.push(Member { key: key(line, span)?, start: value, end, built: None });
        Ok(end)
    })?;
    Ok((out, end))
}

/// A value parsed in full (a string straight from the line).
fn parse(line: &Line<'_, '_>, start: usize, end: usize) -> Scan<Value> {
    if line.at(start) == Some(b'"') {
        return Ok(Value::String(line.text((start + 1, end - 1))?.into_owned()));
    }
    let raw = line.bytes.get(start..end).ok_or(Invalid)?;
    serde_json::from_slice(raw).map_err(|_| Invalid)
}

/// A value in a field rows read as a whole, as a row value: scalars straight from the line, an
/// array or an object as its JSON text ([`RowValue::Raw`]). Rows read such a field as a string
/// (a container there reads as none) or print it as JSON; a row value for each element cost
/// some 70 times the line's bytes (`log` on a 10 MB line of `[0,0,…]` in `stopReason` peaked at
/// 684 MB). The text is taken only where serde_json parses it, as the row would have failed
/// then before.
fn parse_row<'a>(
    line: &Line<'a, '_>,
    start: usize,
    end: usize,
    arena: &'a Bump,
) -> Scan<RowValue<'a>> {
    let raw = line.bytes.get(start..end).ok_or(Invalid)?;
    Ok(match raw.first() {
        Some(b'"') => string_at(line, (start + 1, end - 1))?,
        // The scanner checked the number; its bytes are ASCII.
        Some(b'-' | b'0'..=b'9') => {
            RowValue::Number(Cow::Borrowed(std::str::from_utf8(raw).map_err(|_| Invalid)?))
        }
        Some(b't') => RowValue::Bool(true),
        Some(b'f') => RowValue::Bool(false),
        Some(b'n') => RowValue::Null,
        _ => container_row(line, start, raw, arena)?,
    })
}

/// [`parse_row`] of an array or object (`raw`, at `start`): rare in the fields it reads, and
/// kept out of line so that the scalars' path stays small.
#[cold]
#[inline(never)]
fn container_row<'a>(
    line: &Line<'a, '_>,
    start: usize,
    raw: &'a [u8],
    arena: &'a Bump,
) -> Scan<RowValue<'a>> {
    if line.at(start) == Some(b'{') && is_marked(line, start) {
        return Ok(value_in(serde_json::from_slice(raw).map_err(|_| Invalid)?, arena));
    }
    if !parses_as_value(raw) {
        return Err(Invalid);
    }
    Ok(RowValue::Raw(Cow::Borrowed(std::str::from_utf8(raw).map_err(|_| Invalid)?)))
}

/// Whether serde_json parses `raw` into a [`Value`], found without building it: strings are
/// decoded (a lone surrogate fails) and numbers read, and the rest is dropped as it comes.
fn parses_as_value(raw: &[u8]) -> bool {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    struct Checked;
    impl<'de> Deserialize<'de> for Checked {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Checked, D::Error> {
            d.deserialize_any(Checked)
        }
    }
    impl<'de> Visitor<'de> for Checked {
        type Value = Checked;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_unit<E>(self) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_bool<E>(self, _: bool) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_i64<E>(self, _: i64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_u64<E>(self, _: u64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_f64<E>(self, _: f64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_str<E>(self, _: &str) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_seq<A: SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> std::result::Result<Checked, A::Error> {
            while seq.next_element::<Checked>()?.is_some() {}
            Ok(Checked)
        }
        // Objects, and numbers as serde_json's `arbitrary_precision` hands them over: as
        // `Value` does, an object whose first key is one of the MARKERS is a number (its
        // text must be one) or the JSON text it holds (which must parse), and nothing more.
        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<Checked, A::Error> {
            use serde::de::Error;
            let Some(FirstKey(first)) = map.next_key::<FirstKey>()? else { return Ok(Checked) };
            if first == Some(0) {
                let number = map.next_value::<String>()?;
                number.parse::<serde_json::Number>().map_err(A::Error::custom)?;
                return Ok(Checked);
            }
            if first == Some(1) {
                let text = map.next_value::<String>()?;
                return match parses_as_value(text.as_bytes()) {
                    true => Ok(Checked),
                    false => Err(A::Error::custom("invalid raw value")),
                };
            }
            map.next_value::<Checked>()?;
            while map.next_entry::<Checked, Checked>()?.is_some() {}
            Ok(Checked)
        }
    }
    /// Which of the MARKERS an object's first key is, if any, read without a copy.
    struct FirstKey(Option<usize>);
    impl<'de> Deserialize<'de> for FirstKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<FirstKey, D::Error> {
            d.deserialize_str(FirstKey(None))
        }
    }
    impl<'de> Visitor<'de> for FirstKey {
        type Value = FirstKey;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a key")
        }
        fn visit_str<E>(self, key: &str) -> std::result::Result<FirstKey, E> {
            Ok(FirstKey(MARKERS.iter().position(|m| *m == key)))
        }
    }
    serde_json::from_slice::<Checked>(raw).is_ok()
}

/// The members named `keys` of the object at `start`, each read by `read` (with its key, and
/// its value's start and end), and the others skipped as they come, not collected; a value of
/// another shape as [`parse_row`] reads it. For the fields whose members rows read (a retry,
/// a block, a note, a known tool's arguments, a custom message's details), built no further.
fn members_named<'a>(
    line: &Line<'a, '_>,
    start: usize,
    end: usize,
    keys: &[&'static str],
    mut read: impl FnMut(&'static str, usize, usize, &mut Vec<bool>) -> Scan<RowValue<'a>>,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<RowValue<'a>> {
    if line.at(start) != Some(b'{') || is_marked(line, start) {
        return parse_row(line, start, end, arena);
    }
    let mut out = ArenaVec::with_capacity_in(keys.len(), arena);
    line.object(start, |line, span, value| {
        let end = line.skip_value(value, stack)?;
        let name = key(line, span)?;
        if let Some(key) = keys.iter().copied().find(|k| k.as_bytes() == &*name) {
            insert(&mut out, key, read(key, value, end, stack)?, arena);
        } else if line.at(value).is_some_and(|c| c == b'[' || c == b'{') {
            // Not read, but the line must still be one serde_json parses.
            parse_row(line, value, end, arena)?;
        }
        Ok(end)
    })?;
    Ok(RowValue::Object(arena_slice(out)))
}

/// The elements of the array at `start` that rows read (`keep` of each as [`parse_row`] reads
/// it, or of each object reduced to its members `keys`); a value of another shape as
/// [`parse_row`] reads it. For the lists rows read element by element (injected rules, a
/// search's paths, a custom message's text blocks, advisor notes), built no further than that.
fn elements_read<'a>(
    line: &Line<'a, '_>,
    start: usize,
    end: usize,
    keys: &[&'static str],
    keep: impl Fn(&RowValue<'a>) -> bool,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<RowValue<'a>> {
    if line.at(start) != Some(b'[') {
        return parse_row(line, start, end, arena);
    }
    let mut out = ArenaVec::new_in(arena);
    line.array(start, |line, at| {
        let end = line.skip_value(at, stack)?;
        let element = if keys.is_empty() || line.at(at) != Some(b'{') {
            parse_row(line, at, end, arena)?
        } else {
            let read = |_, at, end, _: &mut _| parse_row(line, at, end, arena);
            members_named(line, at, end, keys, read, stack, arena)?
        };
        if keep(&element) {
            out.push(element.in_arena(arena));
        }
        Ok(end)
    })?;
    Ok(RowValue::Array(arena_slice(out)))
}

/// Whether the object at `start` is one that serde_json reads as something else: its first
/// key is one of the [`MARKERS`]. Such an object is parsed by serde_json, not walked.
fn is_marked(line: &Line<'_, '_>, start: usize) -> bool {
    let mut marked = false;
    // Stopped after the first key (the error), which is all that is read.
    let _ = line.object(start, |line, span, _| {
        let first = key(line, span)?;
        marked = MARKERS.iter().any(|m| m.as_bytes() == &*first);
        Err(Invalid)
    });
    marked
}

/// A value parsed by serde_json, as a row value in `arena`, built there straight from it.
fn value_in(value: Value, arena: &Bump) -> RowValue<'_> {
    let text = |text: &str| Cow::Borrowed(&*arena.alloc_str(text));
    match value {
        Value::Null => RowValue::Null,
        Value::Bool(b) => RowValue::Bool(b),
        Value::Number(n) => RowValue::Number(text(&n.to_string())),
        Value::String(s) => RowValue::String(text(&s)),
        Value::Array(items) => RowValue::Array(Items::Arena(
            arena.alloc_slice_fill_iter(items.into_iter().map(|v| value_in(v, arena))),
        )),
        Value::Object(map) => {
            RowValue::Object(Items::Arena(arena.alloc_slice_fill_iter(
                map.into_iter().map(|(k, v)| (text(&k), value_in(v, arena))),
            )))
        }
    }
}

/// The `message` object of a `message` entry at `start`: role and the fields rows read,
/// content cut; and the position after it.
fn message<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    reads: Reads,
    arena: &'a Bump,
) -> Scan<(RowValue<'a>, usize)> {
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
    let mut out: ArenaVec<'a, (Cow<'a, str>, RowValue<'a>)> = ArenaVec::with_capacity_in(6, arena);
    // Without searches, a tool result's content is read by nothing: it is skipped, unless a
    // later `role` turns out to say otherwise.
    let mut skipped = None;
    let end = line.object(start, |line, span, value| {
        let key = key(line, span)?;
        let Some(name) = KEYS.into_iter().find(|k| k.as_bytes() == &*key) else {
            return line.skip_value(value, stack);
        };
        let (row, end) = if name == "content" {
            let role = out.iter().find(|(k, _)| k == "role").and_then(|(_, v)| v.as_str());
            if reads == Reads::Rows && role == Some("toolResult") {
                let end = line.skip_value(value, stack)?;
                skipped = Some(value);
                (RowValue::Null, end)
            } else {
                skipped = None;
                content(line, value, stack, arena)?
            }
        } else {
            let end = line.skip_value(value, stack)?;
            let row = match name {
                // Its `status` and `note` are read.
                "retryRecovery" => {
                    let read = |_, at, end, _: &mut _| parse_row(line, at, end, arena);
                    members_named(line, value, end, &["status", "note"], read, stack, arena)?
                }
                _ => parse_row(line, value, end, arena)?,
            };
            (row, end)
        };
        insert(&mut out, name, row, arena);
        Ok(end)
    })?;
    let role = out.iter().find(|(k, _)| k == "role").and_then(|(_, v)| v.as_str());
    if let Some(at) = skipped.filter(|_| role != Some("toolResult")) {
        insert(&mut out, "content", content(line, at, stack, arena)?.0, arena);
    }
    Ok((RowValue::Object(arena_slice(out)), end))
}

/// Message content at `start`: a string or the blocks rows read, text cut (content of any
/// other shape reads as no text, like `null`); and the position after it.
fn content<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<(RowValue<'a>, usize)> {
    match line.at(start) {
        Some(b'"') => {
            let close = line.string_end(start)?;
            Ok((RowValue::String(cut_text(line, (start + 1, close))?), close + 1))
        }
        Some(b'[') => {
            let mut blocks = ArenaVec::new_in(arena);
            let end = line.array(start, |line, at| {
                let (block, end) = block(line, at, stack, arena)?;
                blocks.push(block.in_arena(arena));
                Ok(end)
            })?;
            Ok((RowValue::Array(arena_slice(blocks)), end))
        }
        _ => Ok((RowValue::Null, line.skip_value(start, stack)?)),
    }
}

/// A content block: a `text` block's text (cut), a `toolCall` block's id, name and reduced
/// arguments, and the type of any other block.
fn block<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<(RowValue<'a>, usize)> {
    if line.at(start) != Some(b'{') {
        // Only objects are ever read as blocks.
        return Ok((RowValue::Null, line.skip_value(start, stack)?));
    }
    let (members, end) = nested(line, start, stack, arena)?;
    let last = |key: &str| members.iter().rev().find(|m| &*m.key == key.as_bytes());
    let kind = match last("type") {
        Some(m) => parse_row(line, m.start, m.end, arena)?,
        None => RowValue::Null,
    };
    let keep: &[&'static str] = match Json::as_str(&kind) {
        Some("text") => &["text"],
        Some("toolCall") => &["id", "name", "arguments"],
        _ => &[],
    };
    let mut out = ArenaVec::with_capacity_in(1 + keep.len(), arena);
    if last("type").is_some() {
        out.push((Cow::Borrowed("type"), kind.in_arena(arena)));
    }
    let name = match last("name") {
        Some(m) if line.at(m.start) == Some(b'"') => line.text((m.start + 1, m.end - 1))?,
        _ => Cow::Borrowed(""),
    };
    for m in &members {
        let Some(key) = keep.iter().copied().find(|k| k.as_bytes() == &*m.key) else { continue };
        let value = match key {
            "text" if line.at(m.start) == Some(b'"') => {
                RowValue::String(cut_text(line, (m.start + 1, m.end - 1))?)
            }
            // A text that is not a string reads as none.
            "text" => RowValue::Null,
            "arguments" => arguments(line, &name, m.start, m.end, stack, arena)?,
            _ => parse_row(line, m.start, m.end, arena)?,
        };
        insert(&mut out, key, value, arena);
    }
    Ok((RowValue::Object(arena_slice(out)), end))
}

/// A tool call's arguments as far as its result's row reads them: the keys a known tool's row
/// reads (a `bash` command cut), or the JSON prefix another tool's row shows.
fn arguments<'a>(
    line: &Line<'a, '_>,
    name: &str,
    start: usize,
    end: usize,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<RowValue<'a>> {
    let Some(keys) = row_argument_keys(name) else {
        let raw = line.bytes.get(start..end).ok_or(Invalid)?;
        if !parses_as_value(raw) {
            return Err(Invalid);
        }
        return prefix_values(line, start, end, &mut (ARGS_LIMIT + 2), stack, arena);
    };
    if line.at(start) != Some(b'{') {
        // Only keys are looked up, and a value that is not an object has none.
        return Ok(RowValue::Null);
    }
    let read = |key, at, end, stack: &mut Vec<bool>| {
        Ok(match key {
            // A search's list of paths: only its strings are read.
            "path" | "paths" if matches!(name, "grep" | "glob") => {
                elements_read(line, at, end, &[], Json::is_string, stack, arena)?
            }
            _ => match parse_row(line, at, end, arena)? {
                RowValue::String(command) if key == "command" => {
                    RowValue::String(Cow::Owned(command_prefix(&command)))
                }
                value => value,
            },
        })
    };
    members_named(line, start, end, keys, read, stack, arena)
}

/// The values of an unknown tool's arguments (at `start`, which serde_json parses) that their
/// row's JSON prefix reads ([`crate::row::text`]'s `json_prefix`), with no more than that built:
/// its first `left` values in the order it reads them (an object's keys in the order they
/// first appear, each with its last value, as serde_json keeps them), strings cut to
/// `ARGS_LIMIT + 2` characters, and the rest skipped. The prefix reads fewer values than that,
/// each costing one of its `ARGS_LIMIT + 1` characters at least, and the same characters of
/// them: its text is the same as from the whole arguments, which a tool's payload (rows of
/// data, a file) can make megabytes of values.
fn prefix_values<'a>(
    line: &Line<'a, '_>,
    start: usize,
    end: usize,
    left: &mut usize,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<RowValue<'a>> {
    *left = left.saturating_sub(1);
    let room = *left;
    match line.at(start) {
        Some(b'"') => {
            Ok(RowValue::String(line.text_prefix((start + 1, end - 1), ARGS_LIMIT + 2)?.0))
        }
        Some(b'[') => {
            let mut spans = ArenaVec::new_in(arena);
            line.array(start, |line, at| {
                let end = line.skip_value(at, stack)?;
                if spans.len() < room {
                    spans.push((at, end));
                }
                Ok(end)
            })?;
            let mut out = ArenaVec::with_capacity_in(spans.len(), arena);
            for (at, end) in spans {
                if *left == 0 {
                    break;
                }
                out.push(prefix_values(line, at, end, left, stack, arena)?.in_arena(arena));
            }
            Ok(RowValue::Array(arena_slice(out)))
        }
        Some(b'{') if is_marked(line, start) => parse_row(line, start, end, arena),
        Some(b'{') => {
            let mut members: ArenaVec<'a, (Cow<'a, [u8]>, usize, usize)> = ArenaVec::new_in(arena);
            line.object(start, |line, span, value| {
                let end = line.skip_value(value, stack)?;
                let key = key(line, span)?;
                if let Some(member) = members.iter_mut().find(|m| m.0 == key) {
                    (member.1, member.2) = (value, end);
                } else if members.len() < room {
                    members.push((key, value, end));
                }
                Ok(end)
            })?;
            let mut out = ArenaVec::with_capacity_in(members.len(), arena);
            for (key, at, end) in members {
                if *left == 0 {
                    break;
                }
                let key = match key {
                    Cow::Borrowed(key) => std::str::from_utf8(key).map_err(|_| Invalid)?,
                    Cow::Owned(key) => {
                        arena.alloc_str(&String::from_utf8(key).map_err(|_| Invalid)?)
                    }
                };
                let value = prefix_values(line, at, end, left, stack, arena)?.in_arena(arena);
                out.push((Cow::Borrowed(key), value));
            }
            Ok(RowValue::Object(arena_slice(out)))
        }
        _ => parse_row(line, start, end, arena),
    }
}

/// `details` of a `custom_message`: only the advisor `notes` are read, and of each note its
/// text, advisor and severity.
fn details<'a>(
    line: &Line<'a, '_>,
    start: usize,
    end: usize,
    stack: &mut Vec<bool>,
    arena: &'a Bump,
) -> Scan<RowValue<'a>> {
    const NOTE: [&str; 3] = ["note", "advisor", "severity"];
    let read = |_, at, end, stack: &mut Vec<bool>| {
        let kept = |n: &RowValue<'_>| NOTE.iter().any(|k| n.get(k).is_some_and(Json::is_string));
        elements_read(line, at, end, &NOTE, kept, stack, arena)
    };
    members_named(line, start, end, &["notes"], read, stack, arena)
}

/// Message text cut to what rows and searches read: the first [`TEXT_LIMIT`] characters (text
/// blocks are joined before the cut, so no block shows more), decoded only that far. Whether
/// the text holds anything but whitespace decides if an assistant turn is shown, so a cut that
/// leaves only whitespace keeps one character of the rest that is not; it sits past the cut
/// and never shows.
fn cut_text<'a>(line: &Line<'a, '_>, span: (usize, usize)) -> Scan<Cow<'a, str>> {
    let (kept, complete) = line.text_prefix(span, TEXT_LIMIT)?;
    if complete || !kept.trim().is_empty() {
        return Ok(kept);
    }
    let text = line.text(span)?;
    let mut kept = kept.into_owned();
    if let Some(c) = text.chars().skip(TEXT_LIMIT).find(|c| !c.is_whitespace()) {
        kept.push(c);
    }
    Ok(Cow::Owned(kept))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::row::gist::Gist;
    use crate::row::text::{FilterMode, ToolCalls, is_user_request, one_line, search_text, shows};

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
            search_text(entry, Some("lbl"), full_tools.call_of(entry)),
            search_text(&row, Some("lbl"), row_tools.call_of(&row))
        );
        prop_assert_eq!(is_user_request(entry), is_user_request(&row));
        for mode in FilterMode::CYCLE {
            for leaf in [false, true] {
                prop_assert_eq!(shows(mode, entry, leaf, false), shows(mode, &row, leaf, false));
            }
        }
        for key in ["type", "timestamp"] {
            prop_assert_eq!(entry.get(key).cloned(), Json::get(&row, key).map(Json::to_value));
        }
        prop_assert_eq!(rows_gist(&bytes), Some(full_gist(entry)));
        if let Some(direct) = direct_gist(&bytes) {
            prop_assert_eq!(direct, full_gist(entry));
        }
        prop_assert_eq!(row.clone().into_owned(), row.clone());
        // Built in an arena, the value owns nothing (an arena never drops what it holds).
        let arena = Bump::new();
        let mut scanner = Scanner::new();
        let (line, stack) = scanner.index(&bytes).expect("the line was indexed");
        let in_arena = row_value_in(&line, stack, Reads::RowsAndSearch, &arena);
        prop_assert!(in_arena.as_ref().is_some_and(RowValue::owns_nothing));
        prop_assert_eq!(in_arena, Some(row));
        Ok(())
    }

    /// The text of a string member, with whether it is borrowed.
    fn text_of<'r>(row: &'r RowValue<'_>, path: &[&str]) -> (&'r str, bool) {
        let mut value = row;
        for key in path {
            value = Json::get(value, key).expect("the member is kept");
        }
        match value {
            RowValue::String(text) => (text, matches!(text, Cow::Borrowed(_))),
            RowValue::Number(n) => (n, matches!(n, Cow::Borrowed(_))),
            other => panic!("not a string: {other:?}"),
        }
    }

    /// The arena is emptied for each line, and given back after a line that took more than a
    /// megabyte of it.
    #[test]
    fn a_big_arena_is_not_kept() {
        with_arena(|arena| arena.alloc_slice_fill_copy(2 << 20, 0u8).len());
        assert!(with_arena(Bump::allocated_bytes) < 1 << 20);
        with_arena(|arena| arena.alloc_slice_fill_copy(1000, 0u8).len());
        assert!(with_arena(Bump::allocated_bytes) > 0, "a small arena is kept");
    }

    #[test]
    fn text_without_escapes_is_borrowed_from_the_line() {
        let line = br#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"toolResult","toolCallId":"call_1","toolName":"odd\ttool","content":"plain text"}}"#;
        let arena = Bump::new();
        let mut scanner = Scanner::new();
        let (indexed, stack) = scanner.index(line).unwrap();
        let row = row_value_in(&indexed, stack, Reads::RowsAndSearch, &arena).expect("a row");
        let in_line = |text: &str| line.as_ptr_range().contains(&text.as_ptr());
        let (time, borrowed) = text_of(&row, &["timestamp"]);
        assert!(borrowed && in_line(time), "the timestamp is not copied");
        let (call, borrowed) = text_of(&row, &["message", "toolCallId"]);
        assert!(borrowed && in_line(call), "a plain string is not copied");
        assert_eq!(text_of(&row, &["message", "content"]), ("plain text", true));
        // Escapes are decoded into a copy in the arena: the value owns nothing.
        let (tool, borrowed) = text_of(&row, &["message", "toolName"]);
        assert_eq!((tool, borrowed), ("odd\ttool", true));
        assert!(!in_line(tool));
        assert!(row.owns_nothing());
        // A copy out of the line and the arena reads the same.
        let owned: RowValue<'static> = row.clone().into_owned();
        assert_eq!(owned, row);
        assert!(!in_line(text_of(&owned, &["message", "toolCallId"]).0));
        assert_eq!(row_value(&mut scanner, line), Some(owned));
    }

    /// The gist of a line from its row value read for rows only, as loading reads it (with
    /// the envelope), after checking that the row reads the same without the envelope.
    fn rows_gist(bytes: &[u8]) -> Option<Gist> {
        let mut scanner = Scanner::new();
        let (line, stack) = scanner.index(bytes).ok()?;
        let arena = Bump::new();
        let alone = row_value_in(&line, stack, Reads::Rows, &arena);
        let with_envelope =
            row_value_and_envelope(&line, stack, Reads::Rows, &arena).map(|(row, _)| row);
        if let Some(row) = &with_envelope {
            assert!(row.owns_nothing(), "a row built in an arena owns nothing");
        }
        assert_eq!(with_envelope, alone, "the envelope's strings give the same row");
        Some(Gist::of(&alone?, &ToolCalls::with_home("/home/al")))
    }

    #[test]
    fn a_type_or_timestamp_written_twice_reads_as_serde_json_keeps_it() {
        let lines = [
            r#"{"type":"label","type":"message","timestamp":"a","timestamp":"b","message":{"role":"user","content":"hi"}}"#,
            r#"{"type":7,"type":"custom","customType":"x","timestamp":1,"timestamp":"t"}"#,
            r#"{"type":"custom","type":7,"customType":"x","timestamp":"t","timestamp":[1]}"#,
            r#"{"timestamp":"t\u0041","type":"mode_change","mode":"plan","type":"mode_change"}"#,
        ];
        for line in lines {
            let entry: Value = serde_json::from_str(line).unwrap();
            let gist = rows_gist(line.as_bytes()).expect(line);
            assert_eq!(gist, full_gist(&entry), "{line}");
        }
        // An earlier value that cannot be decoded fails the row both ways, as serde_json
        // fails the line.
        for line in [
            r#"{"type":["\ud800"],"type":"message","message":{"role":"user","content":"hi"}}"#,
            r#"{"type":"custom","timestamp":["\ud800"],"timestamp":"t","customType":"x"}"#,
        ] {
            assert!(serde_json::from_str::<Value>(line).is_err());
            assert_eq!(rows_gist(line.as_bytes()), None, "{line}");
        }
    }

    /// The gist of a line read straight from it ([`message_gist`]), if it takes the line,
    /// after checking that the row value takes it too, to the same gist and envelope.
    fn direct_gist(bytes: &[u8]) -> Option<Gist> {
        let none = ToolCalls::with_home("/home/al");
        let mut scanner = Scanner::new();
        let (line, stack) = scanner.index(bytes).ok()?;
        let arena = Bump::new();
        let (gist, envelope) = message_gist(&line, stack, &none, &arena)?;
        let general = row_value_and_envelope(&line, stack, Reads::Rows, &arena);
        let (row, general_envelope) = general.expect("the row value takes the line");
        assert_eq!(envelope, general_envelope, "the same envelope");
        assert_eq!(gist, Gist::of(&row, &none), "the same gist");
        Some(gist)
    }

    /// Lines of the usual shape are read straight from the line, to the gist of the full
    /// value; any other shape is left to the row value.
    #[test]
    fn message_gists_are_read_straight_from_usual_lines() {
        let taken = [
            r#"{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"fix the\nbuild","timestamp":1}}"#,
            r#"{"type":"message","id":"a2","parentId":"a1","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":" here\t"},"loose"]}}"#,
            r#"{"type":"message","id":"a3","parentId":"a2","timestamp":"t","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm","thinkingSignature":"x"},{"type":"text","text":"On it."},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"/home/al/src/a.rs","offset":10,"limit":5}},{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"cargo test\n--release"}},{"type":"toolCall","id":"c3","name":"task","arguments":{"n":[1,2]}},{"type":"toolCall","id":"c4","name":"ls"},{"type":"toolCall","id":"c5","name":"write","arguments":{"path":"a\nb"}}],"api":"x","usage":{"input":1,"cost":{"total":0.5}},"stopReason":"toolUse","timestamp":1}}"#,
            r#"{"type":"message","id":"a4","message":{"role":"assistant","content":[],"stopReason":"error","errorMessage":"overloaded\nretry"}}"#,
            r#"{"type":"message","id":"a5","message":{"role":"assistant","content":[{"type":"text","text":"  \n "}],"stopReason":"aborted"}}"#,
            r#"{"type":"message","id":"a6","message":{"role":"assistant","content":[{"type":"toolCall","id":"c5","name":"grep","arguments":{"pattern":"fn","paths":["/home/al/a","b"]}}],"stopReason":"stop"}}"#,
            r#"{"type":"message","id":"a7","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"1\n2"}],"isError":false}}"#,
            r#"{"type":"message","id":"a8","message":{"role":"toolResult","toolCallId":"c9","toolName":"","content":"x"}}"#,
            r#"{"type":"message","id":"a9","message":{"role":"user","content":{"text":"an object"}}}"#,
            // Words written with escapes, and a block without a type (which nothing reads).
            r#"{"type":"message","message":{"role":"us\u0065r","content":[{"type":"t\u0065xt","text":"hi"},{"text":"unread"}]}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[],"stopReason":"\u0061borted"}}"#,
        ];
        // Many text blocks, of characters of two bytes, and of whitespace before the text.
        let blocks = |texts: &[&str]| {
            let blocks: Vec<Value> =
                texts.iter().map(|t| json!({"type": "text", "text": t})).collect();
            json!({"type": "message", "message": {"role": "assistant", "content": blocks}})
                .to_string()
        };
        let (wide, blank) = ("é".repeat(150), " ".repeat(250));
        let joined =
            [blocks(&[wide.as_str(); 8]), blocks(&[blank.as_str(), &blank, &blank, &blank, "x"])];
        for line in taken.iter().copied().chain(joined.iter().map(String::as_str)) {
            let entry: Value = serde_json::from_str(line).unwrap();
            assert_eq!(direct_gist(line.as_bytes()), Some(full_gist(&entry)), "{line}");
        }
        let left = [
            // Shapes the row value reads: another role or type, a retried attempt, fields of
            // other roles, the content before the role, a field that is not a string.
            r#"{"type":"message","message":{"role":"developer","content":"x"}}"#,
            r#"{"type":"custom_message","customType":"x","content":"x"}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[],"retryRecovery":{"status":"recovered","note":"n"}}}"#,
            r#"{"type":"message","message":{"role":"user","content":"x","customType":"skill-prompt"}}"#,
            r#"{"type":"message","message":{"content":"x","role":"user"}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[],"stopReason":["error"]}}"#,
            r#"{"type":"message","message":{"role":"user","content":[{"type":"toolCall","id":"c1","name":"ls"}]}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":7}]}}"#,
            r#"{"type":"message","timestamp":5,"message":{"role":"user","content":"x"}}"#,
            r#"{"type":"message","message":{"role":"user"},"message":{"role":"user","content":"x"}}"#,
            // Keys written twice or with escapes. An earlier `type` or `timestamp` is read
            // too, and fails the line where it cannot be (a lone surrogate).
            r#"{"type":"message","timestamp":["\ud800"],"timestamp":"t","message":{"role":"user","content":"x"}}"#,
            r#"{"type":["\ud800"],"type":"message","message":{"role":"user","content":"x"}}"#,
            r#"{"type":"message","type":"message","message":{"role":"user","content":"x"}}"#,
            r#"{"type":"message","message":{"role":"user","role":"assistant","content":"x"}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"a","text":"b"}]}}"#,
            r#"{"type":"message","message":{"r\u006fle":"user","content":"x"}}"#,
            // Not valid, or more than one value.
            r#"{"type":"message","message":{"role":"user","content":"x"}} 1"#,
            r#"{"type":"message","message":{"role":"user","content":[1,]}}"#,
        ];
        for line in left {
            assert_eq!(direct_gist(line.as_bytes()), None, "{line}");
            if let Ok(entry) = serde_json::from_str::<Value>(line) {
                assert_eq!(rows_gist(line.as_bytes()), Some(full_gist(&entry)), "{line}");
            }
        }
    }

    /// The gist of an entry parsed in full.
    fn full_gist(entry: &Value) -> Gist {
        Gist::of(&RowValue::from(entry.clone()), &ToolCalls::with_home("/home/al"))
    }

    #[test]
    fn rows_alone_skip_a_tool_results_content_unless_a_later_role_reads_it() {
        let lines = [
            // The usual order: the role first, so the content is skipped.
            r#"{"type":"message","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"out"}]}}"#,
            // A later role wins, and a user's content is its row.
            r#"{"type":"message","message":{"role":"toolResult","content":"hello","role":"user"}}"#,
            r#"{"type":"message","message":{"role":"toolResult","content":"a","content":"b","role":"user"}}"#,
            r#"{"type":"message","message":{"role":"user","content":"a","role":"toolResult","content":"b"}}"#,
        ];
        let mut texts = Vec::new();
        for line in lines {
            let entry: Value = serde_json::from_str(line).unwrap();
            let gist = rows_gist(line.as_bytes()).unwrap();
            assert_eq!(gist, full_gist(&entry), "{line}");
            texts.push(gist.text().to_owned());
        }
        assert_eq!(texts, ["[read]", "user: hello", "user: b", "[tool]"]);
        let mut scanner = Scanner::new();
        let (line, stack) = scanner.index(lines[0].as_bytes()).unwrap();
        let arena = Bump::new();
        let row = row_value_in(&line, stack, Reads::Rows, &arena).unwrap();
        let content = row.get("message").and_then(|m| m.get("content"));
        assert_eq!(content, Some(&RowValue::Null), "the content is not read");
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
            // Fields whose members or elements rows read, next to a container rows do not.
            json!({"type": "message", "message": {"role": "assistant", "content": [
                {"type": "toolCall", "id": "c1", "name": "grep",
                    "arguments": {"pattern": "p", "paths": ["/home/al/a", "b"], "x": [[1]]}},
                {"type": "toolCall", "id": "c2", "name": "glob", "arguments": {"path": ["a", "c"]}},
                {"type": "toolCall", "id": "c3", "name": "read",
                    "arguments": {"path": "a", "offset": [1], "limit": {"n": 2}}}]}}),
            json!({"type": "message", "message": {"role": "assistant", "content": [],
                "stopReason": ["error"], "errorMessage": {"e": 1},
                "retryRecovery": {"status": "recovered", "note": " once  more ", "x": [1, 2]}}}),
            json!({"type": "custom_message", "customType": ["x"], "attribution": {"a": "user"},
                "content": [{"type": "text", "text": "hi", "x": [1]}, {"type": "image"}],
                "details": {"notes": [{"note": "n", "advisor": "a", "x": {"y": [1]}}]}}),
            json!({"type": "model_change", "model": ["m"], "modelId": "id"}),
            // Arguments of an unknown tool past what its row's prefix reads.
            unknown_call(json!((0..100).collect::<Vec<_>>())),
            unknown_call(json!([[[], [1]], {"a": [[2, 3]]}, "x", (0..60).collect::<Vec<_>>()])),
            unknown_call(json!({"é\u{1d11e}\n": "s".repeat(100), "k": [1, 2], "z": {}})),
            unknown_call(Value::Object((0..100).map(|i| (format!("k{i}"), json!(i))).collect())),
            unknown_call(json!("\u{1d11e}é\t\"".repeat(30))),
            unknown_call((0..60).fold(json!(1), |inner, _| json!([inner, 2]))),
            unknown_call((0..60).fold(json!("x"), |inner, i| json!({format!("{i}"): inner}))),
            json!({"type": ["message"], "timestamp": {"t": [1, 2]}, "id": "x"}),
            json!({"type": 5, "id": "x"}),
            json!({"id": "x"}),
        ] {
            check(&entry).unwrap();
        }
    }

    /// A key an unknown tool's arguments write again, after more keys than their row's prefix
    /// reads, keeps its first place with its last value, as serde_json keeps it.
    #[test]
    fn an_argument_written_again_late_gives_its_last_value() {
        let keys: String = (0..60).map(|i| format!(r#""k{i}":{i},"#)).collect();
        let line = format!(
            r#"{{"type":"message","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c1","name":"mcp","arguments":{{{keys}"k0":"last","k1":[{{"k":1,"k":2}}]}}}}]}}}}"#
        );
        let full: Value = serde_json::from_str(&line).unwrap();
        let row = row_value(&mut Scanner::new(), line.as_bytes()).unwrap();
        let (mut a, mut b) = (ToolCalls::with_home("/home/al"), ToolCalls::with_home("/home/al"));
        a.add(&full);
        b.add(&row);
        assert_eq!(a.get("c1"), b.get("c1"));
        assert_eq!(
            b.get("c1").map(|c| &*c.shown),
            Some(r#"[mcp: {"k0":"last","k1":[{"k":2}],"k2":2,"k3":...]"#)
        );
    }

    /// An object serde_json reads as a number or as JSON text, whose member is neither, fails
    /// the row as it fails serde_json, wherever it sits in a field rows read.
    #[test]
    fn a_marked_object_serde_json_rejects_fails_the_row() {
        for line in [
            r#"{"type":"message","message":{"role":"user","stopReason":{"$serde_json::private::Number":"x"}}}"#,
            r#"{"type":"message","message":{"role":"user","stopReason":[{"$serde_json::private::RawValue":"[1"}]}}"#,
            r#"{"type":"custom","customType":{"a":{"$serde_json::private::Number":"1","b":2}}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"mcp","arguments":{"a":[{"$serde_json::private::Number":"--"}]}}]}}"#,
        ] {
            assert!(serde_json::from_str::<Value>(line).is_err(), "{line}");
            assert_eq!(row_value(&mut Scanner::new(), line.as_bytes()), None, "{line}");
        }
    }

    /// The fields rows read element by element or member by member keep only what rows read:
    /// megabytes of other values there cost nothing.
    #[test]
    fn fields_read_inside_keep_only_what_rows_read() {
        let zeros = format!("[{}0]", "0,".repeat(100_000));
        for line in [
            format!(r#"{{"type":"ttsr_injection","injectedRules":{zeros}}}"#),
            format!(
                r#"{{"type":"custom_message","content":{zeros},"details":{{"notes":{zeros}}}}}"#
            ),
            format!(
                r#"{{"type":"message","message":{{"role":"assistant","retryRecovery":{{"x":{zeros},"status":"recovered"}}}}}}"#
            ),
            format!(
                r#"{{"type":"message","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c1","name":"grep","arguments":{{"paths":{zeros}}}}}]}}}}"#
            ),
        ] {
            let mut scanner = Scanner::new();
            let (indexed, stack) = scanner.index(line.as_bytes()).unwrap();
            let arena = Bump::new();
            assert!(row_value_in(&indexed, stack, Reads::RowsAndSearch, &arena).is_some());
            assert!(arena.allocated_bytes() < 64 << 10, "{} bytes", arena.allocated_bytes());
            check(&serde_json::from_str(&line).unwrap()).unwrap();
        }
        // Nor do the other members of an object read member by member: a retry, a known
        // tool's arguments, a custom message's details.
        let members: String = (0..100_000).map(|i| format!(r#""m{i}":{i},"#)).collect();
        for line in [
            format!(
                r#"{{"type":"message","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c1","name":"read","arguments":{{{members}"path":"a"}}}}]}}}}"#
            ),
            format!(r#"{{"type":"custom_message","details":{{{members}"notes":[]}}}}"#),
        ] {
            let mut scanner = Scanner::new();
            let (indexed, stack) = scanner.index(line.as_bytes()).unwrap();
            let arena = Bump::new();
            assert!(row_value_in(&indexed, stack, Reads::Rows, &arena).is_some());
            assert!(arena.allocated_bytes() < 64 << 10, "{} bytes", arena.allocated_bytes());
        }
        let keys: String = (0..100_000).map(|i| format!(r#""k{i}":{i},"#)).collect();
        let line = format!(
            r#"{{"type":"message","message":{{"role":"assistant","retryRecovery":{{{keys}"status":"recovered"}}}}}}"#
        );
        let mut scanner = Scanner::new();
        let (indexed, stack) = scanner.index(line.as_bytes()).unwrap();
        let arena = Bump::new();
        assert!(row_value_in(&indexed, stack, Reads::Rows, &arena).is_some());
        assert!(arena.allocated_bytes() < 64 << 10, "{} bytes", arena.allocated_bytes());
    }

    /// An assistant message calling a tool no row knows with `arguments`.
    fn unknown_call(arguments: Value) -> Value {
        json!({"type": "message", "message": {"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": "mcp", "arguments": arguments}]}})
    }

    /// Lines as written, not as `json!` makes them: keys written twice, numbers serde_json keeps
    /// as written, escapes.
    #[test]
    fn rows_of_odd_lines_read_as_the_full_value() {
        for line in [
            r#"{"type":"message","type":"label","label":"a","label":"b","timestamp":"t"}"#,
            r#"{"type":"compaction","tokensBefore":1.5e3}"#,
            r#"{"type":"compaction","tokensBefore":1e400}"#,
            r#"{"type":"compaction","tokensBefore":-0}"#,
            r#"{"type":"archive","targetId":12345678901234567890123,"archived":true}"#,
            r#"{"type":"archive","targetId":{"a":[1,null]},"archived":false}"#,
            r#"{"type":"service_tier_change","serviceTier":{"b":"x","a":null,"b":"y","c":2}}"#,
            r#"{"type":"mess\u0061ge","message":{"role":"user","role":"assistant","content":[{"type":"text","text":"a\nb","type":"text"}]}}"#,
            r#"{"type":"message","message":{"role":"toolResult","toolCallId":"c1","content":"x"}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"/home/al/a","offset":10,"limit":5,"path":"b"}}]}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"mcp","arguments":{"z":1,"a":"\u00e9","n":1.0e2}}]}}"#,
            // A key written again after many others keeps its first place, with its last value.
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"mcp","arguments":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"a":"last"}}]}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"mcp","arguments":[1e400,-0.0,{"\u0061":1,"a":[2]}]}]}}"#,
            // Objects serde_json reads as a number or as the JSON text they hold.
            r#"{"type":"compaction","tokensBefore":{"$serde_json::private::Number":"12345"}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[],"stopReason":{"$serde_json::private::RawValue":"\"error\""},"errorMessage":"boom"}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[],"stopReason":"error","retryRecovery":{"$serde_json::private::RawValue":"{\"status\":\"recovered\",\"note\":\"again\"}"}}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"mcp","arguments":{"$serde_json::private::Number":"5"}}]}}"#,
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"mcp","arguments":{"a":{"\u0024serde_json::private::Number":"7"},"b":[{"$serde_json::private::RawValue":"[1]"}]}}]}}"#,
            r#"{"type":"ttsr_injection","injectedRules":{"$serde_json::private::RawValue":"[\"r\"]"}}"#,
            r#"{"type":"archive","targetId":{"$serde_json::private::Number":"7"},"archived":true}"#,
        ] {
            let full: Value = serde_json::from_str(line).unwrap();
            let row = row_value(&mut Scanner::new(), line.as_bytes()).unwrap();
            check(&full).unwrap();
            // `check` writes the line again; the odd spellings above must read the same too.
            let tools = ToolCalls::with_home("/home/al");
            assert_eq!(one_line(&full, &tools), one_line(&row, &tools), "{line}");
            for key in ["type", "timestamp", "tokensBefore", "targetId", "serviceTier", "label"] {
                assert_eq!(full.get(key).cloned(), Json::get(&row, key).map(Json::to_value));
            }
            assert_eq!(
                Json::as_f64(full.get("tokensBefore").unwrap_or(&Value::Null)),
                Json::get(&row, "tokensBefore").and_then(Json::as_f64),
                "{line}"
            );
            let (mut a, mut b) =
                (ToolCalls::with_home("/home/al"), ToolCalls::with_home("/home/al"));
            a.add(&full);
            b.add(&row);
            for id in ["c1", "c2"] {
                assert_eq!(a.get(id), b.get(id), "{line}");
            }
        }
    }

    /// A container in a field rows read only as a string or print as JSON is kept as its text:
    /// a row value for each of its elements cost some 70 times the line's bytes.
    #[test]
    fn containers_rows_read_as_a_whole_are_kept_as_their_text() {
        let zeros = format!("[{}0]", "0,".repeat(100_000));
        let line = format!(
            r#"{{"type":"message","timestamp":{zeros},"message":{{"role":"assistant","content":[],"stopReason":{zeros},"errorMessage":{{"a":{zeros}}}}}}}"#
        );
        let mut scanner = Scanner::new();
        let (indexed, stack) = scanner.index(line.as_bytes()).unwrap();
        let arena = Bump::new();
        let row = row_value_in(&indexed, stack, Reads::Rows, &arena).unwrap();
        let message = row.get("message").unwrap();
        for field in [row.get("timestamp"), message.get("stopReason"), message.get("errorMessage")]
        {
            assert!(matches!(field, Some(RowValue::Raw(_))), "{field:?}");
        }
        assert!(arena.allocated_bytes() < 64 << 10, "{} bytes", arena.allocated_bytes());
        // An unknown tool's arguments are read as far as its row's prefix reads them.
        let call =
            serde_json::to_string(&unknown_call(json!({"rows": vec![[0, 1]; 100_000]}))).unwrap();
        let (indexed, stack) = scanner.index(call.as_bytes()).unwrap();
        let arena = Bump::new();
        assert!(row_value_in(&indexed, stack, Reads::Rows, &arena).is_some());
        assert!(arena.allocated_bytes() < 64 << 10, "{} bytes", arena.allocated_bytes());
        // Printed, it is the value serde_json reads.
        let full: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(row.get("timestamp").map(Json::to_value).as_ref(), full.get("timestamp"));
        assert_eq!(
            serde_json::to_string(&row.get("timestamp")).unwrap(),
            serde_json::to_string(&full.get("timestamp")).unwrap()
        );
        // Text serde_json would not parse fails the row, as it did.
        let surrogate = r#"{"type":"message","message":{"role":"user","stopReason":["\ud800"]}}"#;
        assert_eq!(row_value(&mut Scanner::new(), surrogate.as_bytes()), None);
        assert!(serde_json::from_str::<Value>(surrogate).is_err());
    }

    #[test]
    fn a_row_value_reads_a_value_the_same_after_conversion() {
        let value: Value = serde_json::from_str(
            r#"{"a":[1,2.50,"x",null,true,{"b":-1e-7}],"c":{"d":"e"},"n":123456789012345678901234}"#,
        )
        .unwrap();
        let row = RowValue::from(value.clone());
        assert_eq!(row.to_value(), value);
        assert_eq!(serde_json::to_string(&row).unwrap(), serde_json::to_string(&value).unwrap());
        assert_eq!(
            Json::get(&row, "c").and_then(|c| Json::get(c, "d")).and_then(Json::as_str),
            Some("e")
        );
        assert_eq!(Json::get(&row, "a").and_then(Json::as_array).map(<[_]>::len), Some(6));
        assert!(Json::get(&row, "x").is_none());
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
        let paths = proptest::collection::vec("[a-z/]{0,6}", 0..3)
            .prop_map(|p| Value::Array(p.into_iter().map(Value::String).collect()));
        let value = prop_oneof![3 => value, 1 => paths];
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

    /// A user, assistant or tool-result message in the shapes the agents write, and near them:
    /// what [`message_gist`] reads straight from the line, or leaves to the row value.
    fn arb_message() -> impl Strategy<Value = Value> {
        let role = prop_oneof![
            3 => Just("user"),
            3 => Just("assistant"),
            3 => Just("toolResult"),
            1 => Just("developer"),
        ];
        let content = prop_oneof![
            arb_text().prop_map(Value::String),
            proptest::collection::vec(arb_block(), 0..4).prop_map(Value::Array),
            Just(json!({"text": "obj"})),
        ];
        let string = |words: &'static [&'static str]| {
            prop_oneof![
                4 => proptest::sample::select(words).prop_map(Value::from),
                1 => arb_text().prop_map(Value::String),
                1 => arb_any(),
            ]
        };
        let field = prop_oneof![
            string(&["stop", "toolUse", "error", "aborted", "length"])
                .prop_map(|v| ("stopReason", v)),
            string(&["", "overloaded"]).prop_map(|v| ("errorMessage", v)),
            string(&["c1", "c2"]).prop_map(|v| ("toolCallId", v)),
            string(&["read", "", "bash"]).prop_map(|v| ("toolName", v)),
            arb_any().prop_map(|v| ("usage", v)),
            Just(("isError", json!(false))),
        ];
        let time = prop_oneof![
            3 => Just(Some(json!("2026-01-01T00:00:00.000Z"))),
            1 => Just(None),
            1 => arb_any().prop_map(Some),
        ];
        let fields = proptest::collection::vec(field, 0..4);
        (role, content, fields, any::<bool>(), time).prop_map(
            |(role, content, fields, role_first, time)| {
                let mut message = Map::new();
                if role_first {
                    message.insert("role".into(), role.into());
                }
                message.insert("content".into(), content);
                message.extend(fields.into_iter().map(|(k, v)| (k.to_owned(), v)));
                message.insert("role".into(), role.into());
                let mut entry = Map::new();
                entry.insert("type".into(), "message".into());
                entry.insert("id".into(), "e1".into());
                entry.insert("parentId".into(), Value::Null);
                if let Some(time) = time {
                    entry.insert("timestamp".into(), time);
                }
                entry.insert("message".into(), Value::Object(message));
                Value::Object(entry)
            },
        )
    }

    /// A message of exactly the usual shape, which [`message_gist`] must take: the role first
    /// and one of the three, string fields, a string timestamp, blocks of every kind (a user's
    /// without tool calls).
    fn arb_usual_message() -> impl Strategy<Value = Value> {
        let role = prop_oneof![Just("user"), Just("assistant"), Just("toolResult")];
        let blocks = proptest::collection::vec(arb_block(), 0..4).prop_map(Value::Array);
        let content = prop_oneof![arb_text().prop_map(Value::String), blocks];
        let stop = proptest::sample::select(&["stop", "toolUse", "error", "aborted", "length"][..]);
        let error = proptest::sample::select(&["", "overloaded", "a\nb"][..]);
        (role, content, stop, error, arb_text()).prop_map(
            |(role, mut content, stop, error, name)| {
                if let (Value::Array(blocks), "user") = (&mut content, role) {
                    blocks.retain(|b| b.get("type") != Some(&json!("toolCall")));
                }
                json!({"type": "message", "id": "e1", "parentId": "e0",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "message": {"role": role, "content": content, "stopReason": stop,
                    "errorMessage": error, "toolCallId": "c1", "toolName": name,
                    "usage": {"input": 1, "cost": {"total": 0.5}}}})
            },
        )
    }

    /// A line written as text, in the shapes [`message_gist`] reads and around them: keys
    /// written twice or with an escape, words with escapes, whitespace between tokens, any
    /// value where a string is read, lone surrogates, invalid UTF-8 (`¤` stands for a byte
    /// 0xff) and trailing data, none of which `serde_json` writes.
    fn arb_line() -> impl Strategy<Value = Vec<u8>> {
        fn obj(members: Vec<(String, String)>, ws: &str) -> String {
            let members: Vec<String> =
                members.into_iter().map(|(k, v)| format!("{ws}{k}{ws}:{ws}{v}")).collect();
            format!("{{{}}}", members.join(","))
        }
        fn key(name: &'static str) -> impl Strategy<Value = String> {
            prop_oneof![
                16 => Just(format!("\"{name}\"")),
                1 => Just(format!("\"\\u{:04x}{}\"", u32::from(name.as_bytes()[0]), &name[1..])),
                1 => Just(format!("\"{name} \"")),
            ]
        }
        fn string(words: &'static [&'static str]) -> impl Strategy<Value = String> {
            let odd = proptest::sample::select(
                &[
                    "null",
                    "1",
                    "[]",
                    "{}",
                    "[1,\"\\ud800\"]",
                    "{\"a\":1}",
                    "\"\\ud800\"",
                    "\"a¤b\"",
                    "\"\\u00e9\\n\"",
                ][..],
            );
            prop_oneof![
                10 => proptest::sample::select(words).prop_map(|w| format!("\"{w}\"")),
                1 => odd.prop_map(str::to_owned),
            ]
        }
        fn member(
            name: &'static str,
            value: impl Strategy<Value = String>,
        ) -> impl Strategy<Value = (String, String)> {
            (key(name), value)
        }
        let args = proptest::sample::select(
            &[
                "{\"path\":\"/home/al/a\",\"offset\":3}",
                "{\"command\":\"ls\\nx\"}",
                "{\"paths\":[\"a\",1],\"pattern\":\"p\"}",
                "{\"n\":[1,{\"k\":\"v\"}]}",
                "7",
            ][..],
        )
        .prop_map(str::to_owned);
        let kinds = &["text", "toolCall", "thinking", "image", "t\\u0065xt"][..];
        let block_member = prop_oneof![
            3 => member("type", string(kinds)),
            2 => member("text", string(&["hi", "a\\nb", "  ", ""])),
            1 => member("id", string(&["c1", "c2"])),
            1 => member("name", string(&["read", "bash", "task", ""])),
            1 => member("arguments", args),
            1 => member("thinking", string(&["hm"])),
        ];
        let block = prop_oneof![
            6 => proptest::collection::vec(block_member, 1..5).prop_map(|m| obj(m, "")),
            1 => string(&["loose"]),
        ];
        let content = prop_oneof![
            2 => proptest::collection::vec(block, 0..4).prop_map(|b| format!("[{}]", b.join(","))),
            1 => string(&["hello", "  ", "a\\tb"]),
        ];
        let roles = &["user", "assistant", "toolResult", "developer", "us\\u0065r"][..];
        let message_member = prop_oneof![
            4 => member("content", content),
            2 => member("stopReason", string(&["stop", "toolUse", "error", "aborted"])),
            1 => member("errorMessage", string(&["", "boom"])),
            1 => member("toolCallId", string(&["c1", "c2"])),
            1 => member("toolName", string(&["read", ""])),
            1 => member("usage", Just("{\"input\":1}".to_owned())),
            1 => member("role", string(roles)),
        ];
        let message = (string(roles), proptest::collection::vec(message_member, 0..5))
            .prop_map(|(role, mut members)| {
                members.insert(0, ("\"role\"".to_owned(), role));
                obj(members, "")
            })
            .boxed();
        let top_member = prop_oneof![
            1 => member("id", string(&["a"])),
            1 => member("parentId", string(&["b"])),
            1 => member("timestamp", string(&["2026-01-01T00:00:00.000Z", "t"])),
            1 => member("type", string(&["message", "label", "m\\u0065ssage"])),
            1 => member("message", message.clone()),
        ];
        let ws = proptest::sample::select(&["", "", " ", "\n\t"][..]);
        let tail = proptest::sample::select(&["", "", "", "", "", "", " ", "1", ","][..]);
        (message, proptest::collection::vec(top_member, 0..2), ws, tail).prop_map(
            |(message, extra, ws, tail)| {
                let mut members = vec![
                    ("\"type\"".to_owned(), "\"message\"".to_owned()),
                    ("\"id\"".to_owned(), "\"e1\"".to_owned()),
                    ("\"timestamp\"".to_owned(), "\"2026-01-01T00:00:00.000Z\"".to_owned()),
                    ("\"message\"".to_owned(), message),
                ];
                members.extend(extra);
                let line = format!("{}{tail}", obj(members, ws));
                // `¤` (0xc2 0xa4) stands for a byte that is not UTF-8.
                let mut bytes = Vec::with_capacity(line.len());
                for piece in line.split('¤') {
                    bytes.extend_from_slice(piece.as_bytes());
                    bytes.push(0xff);
                }
                bytes.pop();
                bytes
            },
        )
    }

    /// Any value, arrays and objects too, with the keys rows read inside the fields they keep:
    /// what an odd or hostile line may hold where a row expects a string.
    fn arb_any() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i32>().prop_map(Value::from),
            "[a-z ]{0,8}".prop_map(Value::String),
            prop_oneof![Just("text"), Just("recovered"), Just("user"), Just("a/b")]
                .prop_map(Value::from),
        ];
        let key = prop_oneof![
            Just("status"),
            Just("note"),
            Just("type"),
            Just("text"),
            Just("notes"),
            Just("advisor"),
            Just("severity"),
            Just("x"),
        ];
        leaf.prop_recursive(3, 24, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((key.clone(), inner), 0..4).prop_map(|kv| {
                    Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
            ]
        })
    }

    /// An entry of any type rows know, its fields holding any value, or one of the shapes rows
    /// read inside.
    fn arb_odd_entry() -> impl Strategy<Value = Value> {
        let kind = prop_oneof![
            Just("message"),
            Just("custom_message"),
            Just("compaction"),
            Just("branch_summary"),
            Just("model_change"),
            Just("model_usage"),
            Just("thinking_level_change"),
            Just("custom"),
            Just("label"),
            Just("service_tier_change"),
            Just("title_change"),
            Just("mode_change"),
            Just("credential_pin"),
            Just("archive"),
            Just("ttsr_injection"),
        ];
        let text = || "[a-z ]{0,6}".prop_map(Value::String);
        let blocks = proptest::collection::vec(
            (text(), arb_any()).prop_map(|(t, x)| json!({"type": "text", "text": t, "x": x})),
            0..3,
        )
        .prop_map(Value::Array);
        let notes = proptest::collection::vec(
            (text(), text(), text())
                .prop_map(|(n, a, s)| json!({"note": n, "advisor": a, "severity": s})),
            0..3,
        )
        .prop_map(|notes| json!({"notes": notes}));
        let field = prop_oneof![
            arb_any().prop_map(|v| ("timestamp", v)),
            arb_any().prop_map(|v| ("customType", v)),
            prop_oneof![blocks, arb_any()].prop_map(|v| ("content", v)),
            prop_oneof![notes, arb_any()].prop_map(|v| ("details", v)),
            arb_any().prop_map(|v| ("attribution", v)),
            arb_any().prop_map(|v| ("tokensBefore", v)),
            arb_any().prop_map(|v| ("summary", v)),
            arb_any().prop_map(|v| ("model", v)),
            arb_any().prop_map(|v| ("modelId", v)),
            arb_any().prop_map(|v| ("role", v)),
            arb_any().prop_map(|v| ("purpose", v)),
            arb_any().prop_map(|v| ("provider", v)),
            arb_any().prop_map(|v| ("thinkingLevel", v)),
            arb_any().prop_map(|v| ("label", v)),
            arb_any().prop_map(|v| ("serviceTier", v)),
            arb_any().prop_map(|v| ("title", v)),
            arb_any().prop_map(|v| ("mode", v)),
            arb_any().prop_map(|v| ("targetId", v)),
            arb_any().prop_map(|v| ("archived", v)),
            prop_oneof![proptest::collection::vec(text(), 0..3).prop_map(Value::Array), arb_any()]
                .prop_map(|v| ("injectedRules", v)),
        ];
        let status = prop_oneof![Just(json!("recovered")), Just(json!("superseded")), arb_any()];
        let recovery = (status, text()).prop_map(|(s, n)| json!({"status": s, "note": n}));
        let message_field = prop_oneof![
            arb_any().prop_map(|v| ("content", v)),
            arb_any().prop_map(|v| ("toolCallId", v)),
            arb_any().prop_map(|v| ("toolName", v)),
            arb_any().prop_map(|v| ("command", v)),
            prop_oneof![Just(json!("error")), arb_any()].prop_map(|v| ("stopReason", v)),
            arb_any().prop_map(|v| ("errorMessage", v)),
            prop_oneof![recovery, arb_any()].prop_map(|v| ("retryRecovery", v)),
            arb_any().prop_map(|v| ("customType", v)),
            arb_any().prop_map(|v| ("attribution", v)),
        ];
        let role = prop_oneof![
            Just("user"),
            Just("assistant"),
            Just("toolResult"),
            Just("bashExecution"),
            Just("custom")
        ];
        (
            kind,
            proptest::collection::vec(field, 0..5),
            role,
            proptest::collection::vec(message_field, 0..6),
        )
            .prop_map(|(kind, fields, role, message_fields)| {
                let mut entry = Map::new();
                entry.insert("type".into(), kind.into());
                let mut message = Map::new();
                message.insert("role".into(), role.into());
                message.extend(message_fields.into_iter().map(|(k, v)| (k.to_owned(), v)));
                entry.insert("message".into(), Value::Object(message));
                entry.extend(fields.into_iter().map(|(k, v)| (k.to_owned(), v)));
                Value::Object(entry)
            })
    }

    proptest! {
        #[test]
        fn rows_are_the_same_as_from_the_full_value(entry in arb_entry()) {
            check(&entry)?;
        }

        #[test]
        fn rows_of_any_values_in_the_fields_rows_read_are_the_same(entry in arb_odd_entry()) {
            check(&entry)?;
        }

        #[test]
        fn message_gists_read_straight_from_the_line_are_those_of_the_full_value(
            entry in arb_message()
        ) {
            check(&entry)?;
        }

        #[test]
        fn messages_of_the_usual_shape_are_read_straight_from_the_line(
            entry in arb_usual_message()
        ) {
            let bytes = serde_json::to_vec(&entry).unwrap_or_default();
            prop_assert_eq!(direct_gist(&bytes), Some(full_gist(&entry)));
        }

        #[test]
        fn any_line_the_direct_path_takes_the_row_value_takes_alike(bytes in arb_line()) {
            // `direct_gist` holds a gist it gives to the row value's; and to the full value's
            // where serde_json reads the line.
            let direct = direct_gist(&bytes);
            if let (Some(direct), Ok(entry)) = (direct, serde_json::from_slice::<Value>(&bytes)) {
                prop_assert_eq!(direct, full_gist(&entry));
            }
        }
    }
}
