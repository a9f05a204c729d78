//! What a command shows of one entry: its envelope fields plus the one-line text and search
//! text of FORMAT §9.3–§9.4, worked out from the entry's row view (scanned from its line, or
//! from the parsed line where the scan declines it). Built for the entries a command shows and
//! dropped right after, so payloads never pile up in memory.

use serde_json::Value;

use crate::error::Result;
use crate::json::scan::Scanner;
use crate::row::entry::{self, Entry, Reads};
use crate::row::text::{Facts, FilterMode, ToolCalls, one_line, search_text};
use crate::session::{LineReader, Session};

/// One entry as commands print it.
#[derive(Debug, Clone)]
pub struct EntryView {
    /// The record index.
    pub idx: u32,
    /// The label in effect, as display text.
    pub label: Option<String>,
    /// The one-line text.
    pub text: String,
    /// The text `--search` matches against (FORMAT §9.4).
    pub search: String,
    /// What the filter modes read.
    pub facts: Facts,
    /// The role of a `message`.
    pub role: Option<Box<str>>,
}

/// Reads entries one after another, in an order where tool calls come before their results,
/// and keeps what is needed to render results (`ToolCalls`).
pub struct Viewer<'s> {
    session: &'s Session,
    lines: crate::session::LineReader<'s>,
    tools: ToolCalls,
    home: Option<String>,
    labels: Labels,
    scanner: Scanner,
}

/// The labels in effect by record index, as display text and as the JSON value written.
pub type Labels = std::collections::HashMap<u32, (String, Value), foldhash::fast::RandomState>;

/// The labels in effect in a session.
pub fn labels(session: &Session) -> Labels {
    session
        .labels()
        .iter()
        .filter_map(|(t, raw)| {
            let idx = session.lookup(t)?;
            let value: Value = serde_json::from_str(raw).ok()?;
            let text = crate::session::label_text(raw);
            Some((idx, (text, value)))
        })
        .collect()
}

impl<'s> Viewer<'s> {
    /// A viewer over a session.
    pub fn new(session: &'s Session, home: Option<&str>) -> Viewer<'s> {
        let labels = labels(session);
        let tools = ToolCalls::default();
        let home = home.map(str::to_owned);
        Viewer { session, lines: session.lines(), tools, home, labels, scanner: Scanner::new() }
    }

    /// Reads one entry and records its tool calls for later results.
    pub fn view(&mut self, idx: u32) -> Result<EntryView> {
        let label = self.labels.get(&idx).map(|(text, _)| text.clone());
        let (lines, scanner, home) = (&mut self.lines, &mut self.scanner, self.home.as_deref());
        with_row(self.session, idx, lines, scanner, home, |entry| {
            self.tools.add(entry);
            EntryView {
                idx,
                label: label.clone(),
                text: one_line(entry, self.tools.call_of(entry)).0,
                search: search_text(entry, label.as_deref(), self.tools.call_of(entry)),
                facts: Facts::of(entry),
                role: entry.role().map(|role| role.as_str().into()),
            }
        })
    }

    /// Reads one entry on its own, out of file order: its few nearest ancestors are read first
    /// so that a tool result finds the call it answers (the call is in an earlier assistant
    /// entry, normally a parent or two up).
    pub fn view_in_context(&mut self, idx: u32) -> Result<EntryView> {
        const LOOK_BACK: usize = 8;
        let session = self.session;
        let ancestors: Vec<u32> =
            std::iter::successors(session.parent(idx), |&p| session.parent(p))
                .take(LOOK_BACK)
                .collect();
        for &a in ancestors.iter().rev() {
            self.tools.add(&Entry::from_value(&session.value(a)?, self.home.as_deref()));
        }
        self.view(idx)
    }
}

impl EntryView {
    /// Whether the entry passes a filter mode, with `leaf` as the leaf (FORMAT §9.2).
    pub fn shows(&self, mode: FilterMode, leaf: Option<u32>) -> bool {
        self.facts.shows(mode, leaf == Some(self.idx), self.label.is_some())
    }
}

/// `f` of the view of a record's row ([`Entry`]): far cheaper than [`Session::value`] for
/// listings of many entries. Lines the scan does not take, and version-1 records, are parsed in
/// full.
pub(crate) fn with_row<R>(
    session: &Session,
    idx: u32,
    lines: &mut LineReader<'_>,
    scanner: &mut Scanner,
    home: Option<&str>,
    mut f: impl FnMut(&Entry<'_>) -> R,
) -> Result<R> {
    if !session.is_v1()
        && let Ok((line, stack)) = scanner.index(lines.line(idx)?)
        && let Some((_, read)) = entry::scan(&line, stack, Reads::RowsAndSearch, home, &mut f)
    {
        return Ok(read);
    }
    Ok(f(&Entry::from_value(&session.value(idx)?, home)))
}
