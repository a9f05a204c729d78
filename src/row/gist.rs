//! The gist of an entry: what its `log` or `tree` row shows, worked out while the file is
//! loaded ([`super::Rows`]), on every core and with the line still in cache, so
//! that listing a whole file reads it once.
//!
//! A row depends on one thing besides its own line: a tool result's row shows the call it
//! answers (`[read: src/main.rs]`), and which call that is depends on the order the rows are
//! read in (the path for `log`, the file for `tree`). So a gist keeps the row as if no call
//! were known, the id of the call it answers, and the rows of the calls it makes; a
//! [`Resolver`] reads gists in order and gives each its row, as [`crate::row::view::Viewer`] does
//! from the lines. Rows are cut to what they show (200 characters of message text), so on the
//! agents' files a gist is a couple of hundred bytes. A row that is not cut (a branch summary,
//! a custom message) and is longer than [`LONG`] is not kept: its gist says so, and the row is
//! read again from the line when it is shown ([`super::read_text`]).

use std::collections::HashMap;

use crate::format::Kind;
use crate::format::entry::Role;
use crate::row::cut::one_row;
use crate::row::entry::Entry;
use crate::row::text::{Facts, ToolCalls, is_one_row, one_line};

/// What the row of one entry shows, apart from its label and the calls of earlier entries.
///
/// The strings are packed into one allocation: the text, the `type` and the `timestamp` when
/// they are strings, the id of the call a result answers, a tool result's `toolName`, then each
/// call's id and row. A message's role is kept as a code (`ROLES`); what few entries have
/// is kept apart (`Rare`). A gist is kept for every entry of a file: on the agents' files, it
/// is 48 bytes and its packed strings.
#[derive(Debug, Clone, PartialEq)]
pub struct Gist {
    facts: Facts,
    /// Which optional pieces `packed` holds ([`TYPE`], [`TIME`], [`ANSWERS`], [`TOOL`]), and
    /// whether the text was cut ([`CUT`]).
    present: u8,
    /// The role of a message: 0 for none, one past its place in [`ROLES`], or [`OTHER_ROLE`].
    role: u8,
    /// Where the text, `type`, `timestamp`, answered call and tool name end in `packed` (a
    /// missing piece ends where the one before it does).
    ends: [u32; PIECES],
    /// The five pieces one after the other, then each call's id and row as its length in
    /// bytes (decimal digits), a `:`, and the text.
    packed: Box<str>,
    /// What few entries have.
    rare: Option<Box<Rare>>,
}

/// What a gist keeps of the few entries that have it.
#[derive(Debug, Clone, PartialEq)]
struct Rare {
    /// `type` and `timestamp` when either is there but is not a string ([`Entry::odd`]).
    odd: Option<Box<[Box<str>; 2]>>,
    /// A role not in [`ROLES`].
    role: Option<Box<str>>,
}

/// The roles nearly every message has, which a gist keeps as a code: one past the place.
const ROLES: [Role<'static>; 3] = [Role::User, Role::Assistant, Role::ToolResult];
/// The code of a role not in [`ROLES`], kept in [`Rare`].
const OTHER_ROLE: u8 = u8::MAX;

// The optional pieces, in the order they are packed after the text: bit `1 << k` is piece
// `1 + k`.
const TYPE: u8 = 1;
const TIME: u8 = 2;
const ANSWERS: u8 = 4;
const TOOL: u8 = 8;
/// The row text was longer than [`LONG`] and is not kept.
const LONG_TEXT: u8 = 16;
/// The line's row could not be read (see [`Gist::unreadable`]).
const UNREADABLE: u8 = 32;
/// The row text cut the entry's own text short ([`one_line`]).
const CUT: u8 = 64;
/// How many pieces a gist packs before its calls: the text and the optional ones.
const PIECES: usize = 5;

/// The longest row text a gist keeps, in bytes.
pub const LONG: usize = 4096;

/// A member of the entry as its `--json` row prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field<'g> {
    /// A string.
    Str(&'g str),
    /// Any other value, as its JSON text (`null` when missing).
    Json(&'g str),
}

impl<'g> Field<'g> {
    /// The string, when it is one.
    pub fn as_str(self) -> Option<&'g str> {
        if let Field::Str(s) = self { Some(s) } else { None }
    }
}

impl Gist {
    /// The gist of an entry: its row is the row with no call known.
    pub fn of(entry: &Entry<'_>) -> Gist {
        let (text, cut) = one_line(entry, None);
        let long = text.len() > LONG;
        let optional = [
            // The `type`, when it is a string.
            (entry.kind != Kind::Missing).then(|| entry.kind.as_str()),
            entry.timestamp.as_deref(),
            entry.answers(),
            entry.tool_name(),
        ];
        let place = |role| ROLES.iter().zip(1..).find(|(known, _)| **known == role);
        let role = match entry.role() {
            None => 0,
            Some(role) => place(role).map_or(OTHER_ROLE, |(_, code)| code),
        };
        let other_role = entry.role().filter(|_| role == OTHER_ROLE).map(|r| r.as_str().into());
        let rare = (entry.odd.is_some() || other_role.is_some())
            .then(|| Box::new(Rare { odd: entry.odd.clone(), role: other_role }));
        let present = (0..).zip(optional).fold(0, |bits, (k, p)| bits | u8::from(p.is_some()) << k);
        let kept = if long { "" } else { text.as_str() };
        let fixed = std::iter::once(kept).chain(optional.iter().map(|p| p.unwrap_or("")));
        // Sized once, as a gist is kept for every entry of the file: exactly, unless a call's
        // row is folded shorter.
        let size = fixed.clone().map(str::len).sum::<usize>()
            + ToolCalls::of(entry)
                .flat_map(|(id, shown)| [id, shown])
                .map(|p| p.len() + 1 + digits(p.len()))
                .sum::<usize>();
        let mut packed = String::with_capacity(size);
        let mut ends = [0; PIECES];
        for (end, piece) in ends.iter_mut().zip(fixed) {
            packed.push_str(piece);
            // Past 4 GiB, the pieces read as empty (see `fixed`).
            *end = u32::try_from(packed.len()).unwrap_or(u32::MAX);
        }
        for (id, shown) in ToolCalls::of(entry) {
            push_call_piece(&mut packed, id);
            // Nearly every call's row is one line already, and is packed as it stands.
            match is_one_row(shown) {
                true => push_call_piece(&mut packed, shown),
                false => push_call_piece(&mut packed, &one_row(shown)),
            }
        }
        Gist {
            facts: Facts::of(entry),
            present: present | if long { LONG_TEXT } else { 0 } | if cut { CUT } else { 0 },
            role,
            ends,
            packed: packed.into_boxed_str(),
            rare,
        }
    }

    /// The gist of a record whose row cannot be read: a field the row reads holds what JSON
    /// cannot decode (a lone surrogate escape), so neither the row scanner nor a full parse
    /// takes the line, although its envelope loaded. Showing it fails, as it does through the
    /// [`crate::row::view::Viewer`].
    pub fn unreadable() -> Gist {
        Gist {
            facts: Facts::default(),
            present: UNREADABLE,
            role: 0,
            ends: [0; PIECES],
            packed: Box::default(),
            rare: None,
        }
    }

    /// Whether the record's row cannot be read ([`Gist::unreadable`]).
    pub fn is_unreadable(&self) -> bool {
        self.present & UNREADABLE != 0
    }

    /// Whether the row text was too long to keep ([`LONG`]): [`Gist::text`] is then empty, and
    /// the text is read again from the line.
    pub fn is_long(&self) -> bool {
        self.present & LONG_TEXT != 0
    }

    /// The fixed piece `k` (0 to 4).
    fn fixed(&self, k: usize) -> &str {
        let start = k.checked_sub(1).map_or(0, |before| self.ends[before]);
        self.packed.get(start as usize..self.ends[k] as usize).unwrap_or_default()
    }

    /// The optional piece `bit`, if there.
    fn piece(&self, bit: u8) -> Option<&str> {
        (self.present & bit != 0).then(|| self.fixed(1 + bit.trailing_zeros() as usize))
    }

    /// The row text with no call known: for a tool result, the tool's name. Empty when the
    /// text was too long to keep ([`Gist::is_long`]).
    pub fn text(&self) -> &str {
        self.fixed(0)
    }

    /// Asks the processor to start fetching the gist's strings (up to four cache lines, and the
    /// last), for a loop that reads gists one after the other: each lives in an allocation of
    /// its own, made while the file loaded, and a gist read when the rows are resolved or
    /// written is rarely in the cache (on x86-64 only; elsewhere it does nothing).
    #[inline]
    pub(crate) fn prefetch(&self) {
        #[cfg(target_arch = "x86_64")]
        {
            let bytes = self.packed.as_bytes();
            for b in bytes.iter().step_by(64).take(4).chain(bytes.last()) {
                safe_arch::prefetch_t0(b);
            }
        }
    }

    /// What the filter modes read of the entry.
    pub fn facts(&self) -> Facts {
        self.facts
    }

    /// The `type` member, as the `--json` row prints it.
    pub fn kind(&self) -> Field<'_> {
        self.field(TYPE, 0)
    }

    /// The `timestamp` member, as the `--json` row prints it.
    pub fn timestamp(&self) -> Field<'_> {
        self.field(TIME, 1)
    }

    /// The optional piece `bit` as the `--json` row prints it: the string when it is one, else
    /// the value's JSON text (`odd[k]`, [`Entry::odd`]), `null` when missing.
    fn field(&self, bit: u8, k: usize) -> Field<'_> {
        match (self.piece(bit), self.rare.as_ref().and_then(|rare| rare.odd.as_ref())) {
            (Some(text), _) => Field::Str(text),
            (None, Some(odd)) => Field::Json(&odd[k]),
            (None, None) => Field::Json("null"),
        }
    }

    /// The `toolCallId` of a tool result: the call whose row its row shows.
    pub fn answers(&self) -> Option<&str> {
        self.piece(ANSWERS)
    }

    /// The role of a `message`.
    pub fn role(&self) -> Option<&str> {
        match self.role {
            0 => None,
            OTHER_ROLE => self.rare.as_ref()?.role.as_deref(),
            code => ROLES.get(usize::from(code) - 1).map(Role::as_str),
        }
    }

    /// The `toolName` of a tool result.
    pub fn tool_name(&self) -> Option<&str> {
        self.piece(TOOL)
    }

    /// Whether the row text cut the entry's own text short ([`one_line`]).
    pub fn is_cut(&self) -> bool {
        self.present & CUT != 0
    }

    /// The tool calls the entry makes, in order: each call's id and its result's row.
    pub fn calls(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut rest = self.packed.get(self.ends[PIECES - 1] as usize..).unwrap_or_default();
        let mut piece = move || {
            // The length, digit by digit up to its `:` (as `Gist::of` writes it: no sign, no
            // other byte). This runs for every call of the entries searched for each result.
            let mut len = 0usize;
            let mut bytes = rest.bytes().enumerate();
            let colon = loop {
                match bytes.next()? {
                    (i, b':') if i > 0 => break i,
                    (_, digit @ b'0'..=b'9') => {
                        len = len.checked_mul(10)?.checked_add(usize::from(digit - b'0'))?;
                    }
                    _ => return None,
                }
            };
            let (piece, tail) = rest.get(colon + 1..)?.split_at_checked(len)?;
            rest = tail;
            Some(piece)
        };
        std::iter::from_fn(move || Some((piece()?, piece()?)))
    }
}

/// One of a call's pieces onto the end of `packed`: its length in bytes, a `:`, and the piece.
fn push_call_piece(packed: &mut String, piece: &str) {
    packed.push_str(itoa::Buffer::new().format(piece.len()));
    packed.push(':');
    packed.push_str(piece);
}

/// How many decimal digits `n` takes.
fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Gives gists read in order their rows: the calls of the entries read so far are known to
/// the results read after them, a later call with the same id replacing an earlier one, as
/// [`crate::row::view::Viewer`] does.
///
/// A result nearly always follows its call within a few entries (an assistant turn, then its
/// results one after another), so the call is looked for among the last [`NEAR`] entries read
/// first. Only a call further back is looked up in a map of calls, which is filled with the
/// calls of the entries read since it was last filled, when it is needed (a call further back,
/// or a result whose call was never read): on the agents' files it is rarely filled, and little
/// is hashed.
#[derive(Debug, Default)]
pub struct Resolver<'g> {
    /// The gists read since the map was last filled, in order.
    unmapped: Vec<&'g Gist>,
    /// The calls of the gists read before those.
    calls: HashMap<&'g str, &'g str, foldhash::fast::RandomState>,
    /// Whether a result's call was not found among the entries read.
    missed: bool,
}

/// How many of the entries read last are searched for a result's call before the map.
pub const NEAR: usize = 64;

/// How many gists ahead of the one read a loop asks for ([`Gist::prefetch`]): a row takes
/// about as long to resolve or write as a fetch from memory, a few of them.
pub(crate) const PREFETCH: usize = 8;

impl<'g> Resolver<'g> {
    /// The row text of the next entry, whose calls are then known to later ones, telling
    /// whether it is the row of the call the entry answers.
    pub fn resolve(&mut self, gist: &'g Gist) -> Resolved<'g> {
        let call = gist.answers().and_then(|id| {
            let call = self.call(id);
            self.missed |= call.is_none();
            call
        });
        self.unmapped.push(gist);
        match call {
            Some(call) => Resolved::Call(call),
            None if gist.is_long() => Resolved::Long,
            None => Resolved::Own(gist.text()),
        }
    }

    /// The row of the latest call with id `id` among the entries read so far.
    fn call(&mut self, id: &str) -> Option<&'g str> {
        for gist in self.unmapped.iter().rev().take(NEAR) {
            // The last of an entry's calls with the id is the one that counts.
            if let Some(row) = gist.calls().filter(|(call, _)| *call == id).last() {
                return Some(row.1);
            }
        }
        if self.unmapped.len() > NEAR {
            // Further back than the search went: map every entry not mapped yet, in order.
            for gist in self.unmapped.drain(..) {
                self.calls.extend(gist.calls());
            }
        }
        self.calls.get(id).copied()
    }
}

/// The row text of an entry read in order ([`Resolver::resolve`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved<'g> {
    /// A tool result's: the row of the call it answers.
    Call(&'g str),
    /// The entry's own row text, as its gist keeps it.
    Own(&'g str),
    /// A text too long for the gist to keep ([`Gist::is_long`]), to be read again.
    Long,
}

impl<'g> Resolved<'g> {
    /// The row text; `None` for one to read again ([`super::read_text`]).
    pub fn text(self) -> Option<&'g str> {
        match self {
            Resolved::Call(text) | Resolved::Own(text) => Some(text),
            Resolved::Long => None,
        }
    }

    /// The row of the call a tool result answers, when it was read before the result.
    pub fn call(self) -> Option<&'g str> {
        if let Resolved::Call(call) = self { Some(call) } else { None }
    }
}

/// Entries a [`resolve_each`] stretch reads at least: below it, one resolver reads them all.
const STRETCH: usize = 1 << 14;

/// What `keep` makes of each of `gists` (by position) and its row text, as one [`Resolver`]
/// reading them in order resolves it, keeping the `Some`s in order: the rows of a listing, on
/// every core.
///
/// The order is cut into stretches, each read by its own resolver after the [`NEAR`] entries
/// before it, which hold nearly every call its results answer. A stretch that also reads a
/// result whose call it did not find (a call further back, or one never made) may have missed
/// a call an earlier stretch holds: then the whole order is read again by one resolver.
pub fn resolve_each<'g, T: Send>(
    gists: &[&'g Gist],
    keep: impl Fn(usize, Resolved<'g>) -> Option<T> + Sync,
) -> Vec<T> {
    // The whole order as one stretch, which reads every call before each result.
    let in_order = || stretch(gists, 0..gists.len(), &keep).unwrap_or_default();
    let threads = rayon::current_num_threads();
    if threads < 2 || gists.len() < 2 * STRETCH {
        return in_order();
    }
    let size = gists.len().div_ceil(4 * threads).max(STRETCH);
    by_stretches(gists, size, &keep).unwrap_or_else(in_order)
}

/// [`resolve_each`] by stretches of `size` entries, on every core; `None` when a stretch read
/// a result whose call it did not find (an earlier stretch may hold it).
fn by_stretches<'g, T: Send>(
    gists: &[&'g Gist],
    size: usize,
    keep: &(impl Fn(usize, Resolved<'g>) -> Option<T> + Sync),
) -> Option<Vec<T>> {
    use rayon::prelude::*;
    let starts: Vec<usize> = (0..gists.len()).step_by(size.max(1)).collect();
    let stretches: Option<Vec<Vec<T>>> = starts
        .into_par_iter()
        .map(|start| stretch(gists, start..(start + size).min(gists.len()), keep))
        .collect();
    // One copy into room for all (collecting the flattened stretches grew it a doubling at a
    // time: 30 MB copied over and over, and its pages faulted in afresh, on a million rows).
    let stretches = stretches?;
    let mut all = Vec::with_capacity(stretches.iter().map(Vec::len).sum());
    for stretch in stretches {
        all.extend(stretch);
    }
    Some(all)
}

/// What `keep` makes of the gists at `range` of `gists`, read by a resolver of their own after
/// the [`NEAR`] entries before them; `None` when one is a result whose call it did not find
/// and the range does not start the order (an earlier entry may hold the call).
fn stretch<'g, T>(
    gists: &[&'g Gist],
    range: std::ops::Range<usize>,
    keep: &impl Fn(usize, Resolved<'g>) -> Option<T>,
) -> Option<Vec<T>> {
    let before = range.start.saturating_sub(NEAR);
    let mut unmapped = Vec::with_capacity(range.end - before);
    unmapped.extend(&gists[before..range.start]);
    let mut resolver = Resolver { unmapped, ..Resolver::default() };
    let mut kept = Vec::with_capacity(range.len());
    for pos in range {
        if let Some(ahead) = gists.get(pos + PREFETCH) {
            ahead.prefetch();
        }
        let text = resolver.resolve(gists[pos]);
        // A stretch read from the start of the order on read every call.
        if resolver.missed && before > 0 {
            return None;
        }
        kept.extend(keep(pos, text));
    }
    Some(kept)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;
    use crate::row::text::FilterMode;

    fn gist(entry: Value) -> Gist {
        Gist::of(&Entry::from_value(&entry, Some("/home/al")))
    }

    #[test]
    fn an_assistant_turn_keeps_its_calls_in_order() {
        let g = gist(json!({"type": "message", "id": "a", "timestamp": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", "stopReason": "toolUse", "content": [
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/home/al/x.rs"}},
                {"type": "text", "text": "Reading\ttwo files"},
                {"type": "toolCall", "id": "c2", "name": "bash", "arguments": {"command": "make\nall"}},
                {"type": "toolCall", "name": "ls", "arguments": {}}]}}));
        assert_eq!(g.text(), "assistant: Reading two files");
        assert_eq!(g.kind().as_str(), Some("message"));
        assert_eq!(g.timestamp().as_str(), Some("2026-01-01T00:00:00Z"));
        assert_eq!(g.answers(), None);
        let calls: Vec<_> = g.calls().collect();
        assert_eq!(calls, [("c1", "[read: ~/x.rs]"), ("c2", "[bash: make all]")]);
        assert!(g.facts().shows(FilterMode::Default, false, false));
    }

    /// A call's row that is not one line (a tool name with a tab and trailing spaces) is
    /// packed folded, as its result's row shows it; the rows around it as they stand.
    #[test]
    fn a_call_row_is_packed_on_one_line() {
        let g = gist(json!({"type": "message", "id": "a", "message": {"role": "assistant",
            "content": [
                {"type": "toolCall", "id": "c1", "name": "ls", "arguments": {"path": "/tmp"}},
                {"type": "toolCall", "id": "c2", "name": "my\ttool  ", "arguments": {}},
                {"type": "toolCall", "id": "c3", "name": "ls", "arguments": {}}]}}));
        let calls: Vec<_> = g.calls().collect();
        assert_eq!(calls, [("c1", "[ls: /tmp]"), ("c2", "[my tool  : {}]"), ("c3", "[ls: .]")]);
    }

    /// A role comes back as written, whether kept as a code or apart, and a gist stays 48
    /// bytes (and its strings) for the agents' entries.
    #[test]
    fn roles_come_back_as_written() {
        for role in ["user", "assistant", "toolResult", "hookMessage", "wizard", ""] {
            let g = gist(json!({"type": "message", "id": "a", "message": {"role": role}}));
            assert_eq!(g.role(), Some(role));
        }
        assert_eq!(gist(json!({"type": "message", "message": {"role": 5}})).role(), None);
        assert_eq!(gist(json!({"type": "label", "label": "x"})).role(), None);
        assert_eq!(std::mem::size_of::<Gist>(), 48);
    }

    #[test]
    fn calls_of_any_text_come_back_as_packed() {
        // Ids and rows holding the separator and digits, empty ones, lengths of several
        // digits, and text that is not ASCII.
        let long = "9:".repeat(600);
        let ids = ["12:3", "", ":", "ü:é", long.as_str(), "0"];
        let g = calls(&ids.iter().map(|&id| (id, id)).collect::<Vec<_>>());
        let read: Vec<(&str, &str)> = g.calls().collect();
        assert_eq!(read.len(), ids.len());
        for ((id, row), want) in read.into_iter().zip(ids) {
            assert_eq!(id, want);
            assert_eq!(row, format!("[read: {want}]"));
        }
    }

    #[test]
    fn damaged_packed_calls_end_the_calls() {
        // What `Gist::of` never writes: the calls stop at it, without a panic.
        let with_calls = |tail: &str| Gist { packed: tail.into(), ..Gist::unreadable() };
        for tail in [":x", "a:", "+1:x1:y", "5:ab", "99999999999999999999999:x", "1:x", "1:x2"] {
            assert_eq!(with_calls(tail).calls().count(), 0, "{tail:?}");
        }
        // A whole call before the damage is read.
        let damaged = with_calls("1:a2:bc3:de");
        assert_eq!(damaged.calls().collect::<Vec<_>>(), [("a", "bc")]);
    }

    #[test]
    fn a_result_shows_the_latest_call_read_before_it() {
        let call = |id: &str, path: &str| {
            gist(json!({"type": "message", "message": {"role": "assistant", "content": [
                {"type": "toolCall", "id": id, "name": "edit", "arguments": {"path": path}}]}}))
        };
        let result = gist(json!({"type": "message", "message": {"role": "toolResult",
            "toolCallId": "c1", "toolName": "edit", "content": "done"}}));
        assert_eq!(result.answers(), Some("c1"));
        assert_eq!(result.text(), "[edit]");
        assert!(!result.facts().shows(FilterMode::NoTools, false, false));
        let (first, second) = (call("c1", "a.rs"), call("c1", "b.rs"));
        let mut resolver = Resolver::default();
        assert_eq!(resolver.resolve(&result).text(), Some("[edit]"), "no call read yet");
        resolver.resolve(&first);
        assert_eq!(resolver.resolve(&result).text(), Some("[edit: a.rs]"));
        resolver.resolve(&second);
        assert_eq!(resolver.resolve(&result).text(), Some("[edit: b.rs]"));
    }

    #[test]
    fn a_text_too_long_to_keep_is_read_again() {
        let summary = "x".repeat(LONG);
        let g = gist(json!({"type": "branch_summary", "summary": summary, "timestamp": "t"}));
        assert!(g.is_long());
        assert_eq!((g.text(), g.timestamp().as_str()), ("", Some("t")));
        assert_eq!(Resolver::default().resolve(&g).text(), None, "the caller reads it again");
        let short = gist(json!({"type": "branch_summary", "summary": "x".repeat(LONG - 20)}));
        assert!(!short.is_long());
        assert_eq!(Resolver::default().resolve(&short).text(), Some(short.text()));
    }

    #[test]
    fn odd_type_and_timestamp_are_kept_as_values() {
        let g = gist(json!({"type": 7, "timestamp": ["t"], "id": "x"}));
        assert_eq!(g.text(), crate::row::text::RECORD_TEXT);
        assert_eq!((g.kind(), g.timestamp()), (Field::Json("7"), Field::Json(r#"["t"]"#)));
        let bare = gist(json!({"id": "x"}));
        assert_eq!((bare.kind(), bare.timestamp()), (Field::Json("null"), Field::Json("null")));
        let mixed = gist(json!({"type": "custom", "timestamp": 5, "customType": "x\u{0}y"}));
        assert_eq!(mixed.kind().as_str(), Some("custom"));
        assert_eq!(mixed.timestamp(), Field::Json("5"));
        assert_eq!(mixed.text(), "[custom: x\u{0}y]");
    }
    /// An assistant turn calling `read` on each `(id, path)`.
    fn calls(calls: &[(&str, &str)]) -> Gist {
        let blocks: Vec<Value> = calls
            .iter()
            .map(|(id, path)| {
                json!({"type": "toolCall", "id": id, "name": "read", "arguments": {"path": path}})
            })
            .collect();
        gist(json!({"type": "message", "message": {"role": "assistant", "content": blocks}}))
    }

    /// The result of call `id`.
    fn result(id: &str) -> Gist {
        gist(json!({"type": "message", "message": {"role": "toolResult", "toolCallId": id,
            "toolName": "read", "content": "x"}}))
    }

    /// The texts of `gists` read in order by a [`Resolver`], and as the resolver's contract
    /// says: every call read so far in one map, the later one with an id replacing the earlier.
    fn both_ways(gists: &[Gist]) -> (Vec<Option<&str>>, Vec<Option<&str>>) {
        let mut resolver = Resolver::default();
        let got = gists.iter().map(|g| resolver.resolve(g).text()).collect();
        let mut known = HashMap::new();
        let want = gists
            .iter()
            .map(|g| {
                let text = g.answers().and_then(|id| known.get(id).copied());
                known.extend(g.calls());
                text.or(Some(g.text()))
            })
            .collect();
        (got, want)
    }

    #[test]
    fn a_call_further_back_than_the_search_is_found_in_the_map() {
        let mut gists = vec![calls(&[("c1", "a.rs"), ("c2", "b.rs")])];
        gists.extend((0..NEAR).map(|_| result("nobody")));
        gists.push(result("c2"));
        gists.push(calls(&[("c2", "c.rs")]));
        gists.push(result("c2"));
        gists.extend((0..2 * NEAR).map(|_| result("other")));
        gists.push(result("c1"));
        gists.push(result("c2"));
        let (got, want) = both_ways(&gists);
        assert_eq!(got, want);
        let last: Vec<_> = got.iter().rev().take(2).rev().copied().collect();
        assert_eq!(last, [Some("[read: a.rs]"), Some("[read: c.rs]")]);
        assert_eq!(got[NEAR + 1], Some("[read: b.rs]"), "found in the map");
        assert_eq!(got[NEAR + 3], Some("[read: c.rs]"), "found nearby, not in the map");
    }

    #[test]
    fn lengths_are_written_in_decimal() {
        for n in [0, 7, 10, 99, 4096, 1_000_000_007, usize::MAX] {
            let written = itoa::Buffer::new().format(n).to_owned();
            assert_eq!(written, format!("{n}"));
            assert_eq!(digits(n), written.len());
        }
    }

    #[test]
    fn within_an_entry_the_last_call_with_an_id_counts() {
        let gists = [calls(&[("c1", "a.rs"), ("c1", "b.rs")]), result("c1")];
        assert_eq!(both_ways(&gists).0[1], Some("[read: b.rs]"));
    }

    /// A user's message: neither a call nor a result.
    fn prompt() -> Gist {
        gist(json!({"type": "message", "message": {"role": "user", "content": "go on"}}))
    }

    /// The texts of `gists` read by stretches of `size` (`None` when they are read again in
    /// order).
    fn stretched(gists: &[Gist], size: usize) -> Option<Vec<Option<&str>>> {
        let refs: Vec<&Gist> = gists.iter().collect();
        by_stretches(&refs, size, &|_, text: Resolved<'_>| Some(text.text()))
    }

    #[test]
    fn a_stretch_finds_the_calls_just_before_it() {
        // The call ends the first stretch of 100, its result starts the second.
        let mut gists: Vec<Gist> = (0..99).map(|_| prompt()).collect();
        gists.push(calls(&[("c1", "a.rs")]));
        gists.push(result("c1"));
        gists.extend((0..150).map(|_| prompt()));
        let texts = stretched(&gists, 100).expect("no stretch missed a call");
        assert_eq!(texts[100], Some("[read: a.rs]"));
        assert_eq!(texts, both_ways(&gists).1);
    }

    #[test]
    fn a_call_an_earlier_stretch_holds_reads_the_order_again() {
        let mut gists = vec![calls(&[("c1", "a.rs")])];
        gists.extend((0..300).map(|_| prompt()));
        gists.push(result("c1"));
        assert_eq!(stretched(&gists, 100), None, "the last stretch does not hold the call");
        let refs: Vec<&Gist> = gists.iter().collect();
        let texts = resolve_each(&refs, |_, text| Some(text.text()));
        assert_eq!(texts[301], Some("[read: a.rs]"));
        // A call never made is missed by the first stretch too, which read every call.
        let never = [result("c9"), prompt()];
        assert_eq!(stretched(&never, 1), Some(both_ways(&never).1));
    }

    #[test]
    fn long_orders_are_read_by_stretches_on_every_core() {
        // Calls and their results a few entries apart, over several stretches of STRETCH.
        let n = 3 * STRETCH;
        let gists: Vec<Gist> = (0..n)
            .map(|k| match k % 4 {
                0 => calls(&[(&format!("c{k}"), &format!("f{k}.rs"))]),
                3 => result(&format!("c{}", k - 3)),
                _ => prompt(),
            })
            .collect();
        let refs: Vec<&Gist> = gists.iter().collect();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        let shown =
            pool.install(|| resolve_each(&refs, |pos, text| (pos % 4 == 3).then_some(text.text())));
        let want: Vec<_> = both_ways(&gists).1.into_iter().skip(3).step_by(4).collect();
        assert_eq!(shown, want);
        assert_eq!(shown.last(), Some(&Some(&*format!("[read: f{}.rs]", n - 4))));
        let size = n.div_ceil(16).max(STRETCH);
        assert!(pool.install(|| stretched(&gists, size)).is_some(), "read by stretches");
    }

    proptest! {
        /// Any order of calls and results, near and far apart, reads as one map would.
        #[test]
        fn the_resolver_reads_as_one_map_of_every_call(
            steps in prop::collection::vec((0u8..4, 0u8..5, 0usize..150), 1..40),
        ) {
            let ids = ["c0", "c1", "c2", "c3", "c4"];
            let mut gists = Vec::new();
            for (n, &(kind, id, gap)) in steps.iter().enumerate() {
                let id = ids[usize::from(id)];
                let path = format!("f{n}.rs");
                match kind {
                    0 => gists.push(calls(&[(id, &path)])),
                    1 => gists.push(calls(&[(id, &path), (ids[(n + 1) % 5], "g.rs"), (id, "h.rs")])),
                    _ => gists.push(result(id)),
                }
                gists.extend((0..gap % (2 * NEAR)).map(|_| result("none")));
            }
            let (got, want) = both_ways(&gists);
            prop_assert_eq!(&got, &want);
            // By stretches of any size, the texts are the same, or read again in order.
            for size in [1, 7, 64, 200] {
                if let Some(texts) = stretched(&gists, size) {
                    prop_assert_eq!(&texts, &want, "stretches of {}", size);
                }
            }
        }
    }
}
