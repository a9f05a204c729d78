//! The selector's state machine: which rows are visible (filter, search, folds), which one is
//! selected, which prompt is open, and what a key does (FORMAT §9.2–§9.5). It never touches
//! the terminal or the file: a key that needs the outside world returns an [`Effect`] for the
//! event loop to carry out.

use std::collections::HashSet;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use sesstree::EntryId;
use sesstree::row::text::FilterMode;

use super::SummaryRequest;
use super::model::Model;

/// Which line editor is open, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Moving through the tree.
    Browse,
    /// A line editor on the entry of `row`: `Label (empty to remove):` (FORMAT §9.5), or the
    /// summary to write before checking it out (Shift+Enter; empty asks the summarizer).
    Prompt {
        /// The row being labelled or checked out.
        row: usize,
        /// The text typed so far (the label prompt starts with the current label).
        input: String,
        /// Whether this is the label prompt rather than the summary prompt.
        label: bool,
    },
}

/// What the event loop must do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond redrawing.
    None,
    /// Close the selector (Esc on an empty query).
    Quit,
    /// Close the selector because the user interrupted it (Ctrl-C).
    Interrupt,
    /// Lay the session out again (archived rows shown or hidden).
    Rebuild,
    /// Set or remove a label, then reload.
    SetLabel {
        /// The entry labelled.
        id: EntryId,
        /// The new label; `None` removes it.
        label: Option<String>,
    },
    /// Check an entry out (and close the selector when that succeeds).
    Checkout {
        /// The entry selected.
        id: EntryId,
        /// The summary asked for with Shift+Enter.
        summary: Option<SummaryRequest>,
    },
}

/// The selector's state.
#[derive(Debug)]
pub struct Selector {
    /// The rows of the session.
    pub model: Model,
    /// The filter mode (Ctrl+O, Alt+D/T/U/L/A).
    pub filter: FilterMode,
    /// The search typed so far.
    pub query: String,
    /// Whether archived subtrees are laid out (Alt+R).
    pub show_archived: bool,
    /// The open prompt, if any.
    pub mode: Mode,
    /// A one-shot message for the status area (cleared by the next key).
    pub message: Option<String>,
    /// How many rows one page holds (set from the terminal height before each key).
    pub page: usize,
    /// Whether the selected entry's full text is shown below the rows (Tab).
    pub preview: bool,
    /// That text, read for the selected entry before each draw while `preview` is on.
    pub preview_text: Option<String>,
    /// Record indices of the folded segment heads.
    folded: HashSet<u32>,
    /// Positions (into `model.rows`) of the rows shown, in order.
    visible: Vec<usize>,
    /// The selected row (a position into `model.rows`), always one of `visible`.
    selected: Option<usize>,
    /// How many rows pass the filter and the search, folded ones included.
    passing: usize,
}

impl Selector {
    /// A selector over a model, with the initial selection of FORMAT §9.1: the current leaf,
    /// or its nearest visible ancestor, or the last row.
    pub fn new(model: Model, filter: FilterMode, query: String, show_archived: bool) -> Selector {
        let mut s = Selector {
            filter,
            query,
            show_archived,
            mode: Mode::Browse,
            message: None,
            page: 12,
            preview: false,
            preview_text: None,
            folded: HashSet::new(),
            visible: Vec::new(),
            passing: 0,
            selected: model.leaf_row,
            model,
        };
        s.refresh();
        s
    }

    /// Replaces the rows after the file changed (or archived rows were toggled), keeping the
    /// selection and the folds on the same entries.
    pub fn replace_model(&mut self, model: Model) {
        let id_of = |row: usize| self.model.rows.get(row).and_then(|r| r.id.clone());
        let selected = self.selected.and_then(id_of);
        let folded: Vec<EntryId> = self
            .model
            .rows
            .iter()
            .filter(|r| self.folded.contains(&r.idx))
            .filter_map(|r| r.id.clone())
            .collect();
        self.model = model;
        self.folded = folded
            .iter()
            .filter_map(|id| self.model.find(id))
            .map(|row| self.model.rows[row].idx)
            .collect();
        self.selected = selected.and_then(|id| self.model.find(&id)).or(self.model.leaf_row);
        self.refresh();
    }

    /// The visible rows, as positions into `model.rows`.
    pub fn visible(&self) -> &[usize] {
        &self.visible
    }

    /// The selected row, as a position into `model.rows`.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// The selected row's place among the visible rows.
    pub fn cursor(&self) -> Option<usize> {
        let sel = self.selected?;
        self.visible.binary_search(&sel).ok()
    }

    /// Whether a row is folded (its subtree hidden).
    pub fn is_folded(&self, row: usize) -> bool {
        self.folded.contains(&self.model.rows[row].idx)
    }

    /// Whether a row passes the filter and the search.
    fn passes(&self, row: usize, search: &Search) -> bool {
        let mode = FilterMode::CYCLE.iter().position(|&m| m == self.filter).unwrap_or(0);
        let r = &self.model.rows[row];
        r.shows[mode] && search.matches(&r.search)
    }

    /// How many rows pass the filter and search but are hidden inside folds.
    pub fn hidden_by_folds(&self) -> usize {
        self.passing - self.visible.len()
    }

    /// Recomputes the visible rows and moves the selection to the nearest visible row.
    fn refresh(&mut self) {
        let search = Search::new(&self.query);
        let mut visible = Vec::new();
        let mut passing = 0;
        let mut fold_end = 0;
        for i in 0..self.model.rows.len() {
            if !self.passes(i, &search) {
                continue;
            }
            passing += 1;
            if i < fold_end {
                continue;
            }
            visible.push(i);
            // A fold only hides what is under a row that can be seen: a fold whose head is
            // filtered out would hide rows with nothing on screen to say so.
            if self.folded.contains(&self.model.rows[i].idx) {
                fold_end = self.model.rows[i].end;
            }
        }
        self.visible = visible;
        self.passing = passing;
        self.selected = self.nearest_visible(self.selected);
    }

    /// `want` if visible, else its nearest visible ancestor, else the first visible row after
    /// it, else the last visible row.
    fn nearest_visible(&self, want: Option<usize>) -> Option<usize> {
        let last = self.visible.last().copied();
        let Some(want) = want else { return last };
        let mut cur = Some(want);
        while let Some(row) = cur {
            if self.visible.binary_search(&row).is_ok() {
                return Some(row);
            }
            cur = self.model.rows[row].parent;
        }
        let after = self.visible.partition_point(|&v| v < want);
        self.visible.get(after).copied().or(last)
    }

    /// Handles one key press.
    pub fn handle(&mut self, key: KeyEvent) -> Effect {
        self.message = None;
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Effect::Interrupt;
        }
        let Mode::Prompt { row, input, label } = self.mode.clone() else {
            return self.browse_key(key);
        };
        let text = match edit(input, key) {
            Edited::Typing(input) => {
                self.mode = Mode::Prompt { row, input, label };
                return Effect::None;
            }
            Edited::Cancel => None,
            Edited::Submit(text) => Some(text),
        };
        self.mode = Mode::Browse;
        let (Some(text), Some(id)) = (text, self.model.rows[row].id.clone()) else {
            return Effect::None;
        };
        if label {
            // Submitted even when unchanged, as the agent does (FORMAT §9.5).
            return Effect::SetLabel { id, label: Some(text).filter(|t| !t.is_empty()) };
        }
        let summary =
            if text.is_empty() { SummaryRequest::Summarize } else { SummaryRequest::Text(text) };
        Effect::Checkout { id, summary: Some(summary) }
    }

    fn browse_key(&mut self, key: KeyEvent) -> Effect {
        let m = key.modifiers;
        let ctrl = m.contains(KeyModifiers::CONTROL);
        let alt = m.contains(KeyModifiers::ALT);
        let shift = m.contains(KeyModifiers::SHIFT);
        match key.code {
            KeyCode::Esc => {
                if self.query.is_empty() {
                    return Effect::Quit;
                }
                self.set_query(String::new());
            }
            KeyCode::Up if alt => self.jump_chat(false),
            KeyCode::Down if alt => self.jump_chat(true),
            KeyCode::Up => self.step(-1, true),
            KeyCode::Down => self.step(1, true),
            KeyCode::Left if ctrl || alt => self.fold_or_up(),
            KeyCode::Right if ctrl || alt => self.unfold_or_down(),
            KeyCode::PageUp | KeyCode::Left => self.step(-(self.page.max(1) as isize), false),
            KeyCode::PageDown | KeyCode::Right => self.step(self.page.max(1) as isize, false),
            KeyCode::Home => self.selected = self.visible.first().copied(),
            KeyCode::End => self.selected = self.visible.last().copied(),
            KeyCode::Enter => return self.choose(shift || alt),
            KeyCode::Backspace => {
                let mut q = self.query.clone();
                q.pop();
                self.set_query(q);
            }
            KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
                // Shift+Ctrl+O only reaches us where the terminal reports it (kitty keyboard
                // protocol); Alt+O does the same everywhere.
                'o' => self.cycle_filter(!(shift || c == 'O')),
                'u' => self.set_query(String::new()),
                'l' => self.open_label(),
                _ => {}
            },
            KeyCode::Char(c) if alt => match c {
                'd' => self.set_filter(FilterMode::Default),
                't' => self.set_filter(FilterMode::NoTools),
                'u' => self.set_filter(FilterMode::UserOnly),
                'l' => self.set_filter(FilterMode::LabeledOnly),
                'a' => self.set_filter(FilterMode::All),
                'o' => self.cycle_filter(false),
                'r' => {
                    self.show_archived = !self.show_archived;
                    return Effect::Rebuild;
                }
                _ => {}
            },
            KeyCode::Tab => self.preview = !self.preview,
            // Every printable key types into the search: the agent's Shift+L labelled when the
            // search was empty, so typing "Let" wrote the label "et" (issue 44).
            KeyCode::Char(c) => {
                let mut q = self.query.clone();
                q.push(c);
                self.set_query(q);
            }
            _ => {}
        }
        Effect::None
    }

    fn set_query(&mut self, query: String) {
        self.query = query;
        self.refresh();
    }

    fn set_filter(&mut self, filter: FilterMode) {
        self.filter = filter;
        self.refresh();
    }

    fn cycle_filter(&mut self, forward: bool) {
        let n = FilterMode::CYCLE.len();
        let at = FilterMode::CYCLE.iter().position(|&m| m == self.filter).unwrap_or(0);
        let next = if forward { (at + 1) % n } else { (at + n - 1) % n };
        self.set_filter(FilterMode::CYCLE[next]);
    }

    /// Up/Down: one row, wrapping around at either end (`wrap`); PgUp/PgDn, Left/Right: one
    /// page, stopping at the ends.
    fn step(&mut self, delta: isize, wrap: bool) {
        let n = self.visible.len() as isize;
        if n == 0 {
            return;
        }
        let at = self.cursor().unwrap_or(0) as isize + delta;
        let next = if wrap { at.rem_euclid(n) } else { at.clamp(0, n - 1) };
        self.selected = Some(self.visible[next as usize]);
    }

    /// Alt+Up/Down: the previous/next user or assistant message.
    fn jump_chat(&mut self, forward: bool) {
        let Some(at) = self.cursor() else { return };
        let rows = &self.model.rows;
        let found = if forward {
            self.visible[at + 1..].iter().find(|&&r| rows[r].chat)
        } else {
            self.visible[..at].iter().rev().find(|&&r| rows[r].chat)
        };
        self.selected = found.copied().or(self.selected);
    }

    /// Ctrl+Left: fold the selected segment head; elsewhere, go up to the head of the segment
    /// (or of the enclosing one, from a head already folded or with nothing to fold).
    fn fold_or_up(&mut self) {
        let Some(sel) = self.selected else { return };
        let row = &self.model.rows[sel];
        if row.head && row.end > sel + 1 && !self.folded.contains(&row.idx) {
            self.folded.insert(row.idx);
            self.refresh();
            return;
        }
        // Up through the segment (from the row, or from above a head) to its head; when
        // the head is filtered out, the topmost visible row of the segment stands in for it.
        let mut from = if row.head { row.parent } else { Some(sel) };
        while let Some(start) = from {
            let mut cur = start;
            let mut best = None;
            loop {
                if cur != sel && self.visible.binary_search(&cur).is_ok() {
                    best = Some(cur);
                }
                match self.model.rows[cur].parent {
                    Some(p) if !self.model.rows[cur].head => cur = p,
                    _ => break,
                }
            }
            if best.is_some() {
                self.selected = best;
                return;
            }
            from = self.model.rows[cur].parent;
        }
    }

    /// Ctrl+Right: unfold the selected row; otherwise go down to the next segment head under it.
    fn unfold_or_down(&mut self) {
        let Some(sel) = self.selected else { return };
        let idx = self.model.rows[sel].idx;
        if self.folded.remove(&idx) {
            self.refresh();
            return;
        }
        let end = self.model.rows[sel].end;
        let rows = &self.model.rows;
        let next = self.visible.iter().find(|&&v| v > sel && v < end && rows[v].head);
        self.selected = next.copied().or(self.selected);
    }

    fn open_label(&mut self) {
        let Some(sel) = self.selected else { return };
        let row = &self.model.rows[sel];
        if row.id.is_none() {
            self.message = Some("This record has no id; it cannot be labelled".into());
            return;
        }
        if self.model.v1 {
            // Said before any text is typed: `label` would refuse the file.
            self.message = Some(
                "The file is version 1 (entries without ids); run `sesstree migrate` to label it"
                    .into(),
            );
            return;
        }
        let input = row.label.clone().unwrap_or_default();
        self.mode = Mode::Prompt { row: sel, input, label: true };
    }

    /// Enter (or Shift+Enter, `summarize`) on the selected row.
    fn choose(&mut self, summarize: bool) -> Effect {
        let Some(sel) = self.selected else { return Effect::None };
        let row = &self.model.rows[sel];
        let Some(id) = row.id.clone() else {
            self.message = Some("This record has no id; it cannot be checked out".into());
            return Effect::None;
        };
        // Even the leaf is checked out: `checkout` decides whether that is a no-op
        // ("Already at this point") on the file as it is now, with the exceptions of FORMAT
        // §6.4 step 3 (a user message rewinds) and of an empty marker leaf (SPEC `checkout`).
        if summarize {
            self.mode = Mode::Prompt { row: sel, input: String::new(), label: false };
            return Effect::None;
        }
        Effect::Checkout { id, summary: None }
    }
}

/// A search query prepared once per change: [`sesstree::row::text::fuzzy_match`] (every word a case-insensitive
/// subsequence), without lower-casing the query again for every row.
struct Search {
    words: Vec<Vec<char>>,
}

impl Search {
    fn new(query: &str) -> Search {
        Search {
            words: query.to_lowercase().split_whitespace().map(|w| w.chars().collect()).collect(),
        }
    }

    /// Whether every word is a subsequence of `text`, which is already lower-cased.
    fn matches(&self, text: &str) -> bool {
        self.words.iter().all(|word| {
            let mut haystack = text.chars();
            word.iter().all(|&wanted| haystack.any(|c| c == wanted))
        })
    }
}

/// The outcome of a key in a one-line prompt.
enum Edited {
    Typing(String),
    Cancel,
    Submit(String),
}

/// One key in a one-line prompt: typing, Backspace, Ctrl+U clears, Enter submits the trimmed
/// text, Esc cancels.
fn edit(mut input: String, key: KeyEvent) -> Edited {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => return Edited::Cancel,
        KeyCode::Enter => return Edited::Submit(input.trim().to_string()),
        KeyCode::Backspace => {
            input.pop();
        }
        KeyCode::Char('u') if ctrl => input.clear(),
        KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => input.push(c),
        _ => {}
    }
    Edited::Typing(input)
}

#[cfg(test)]
mod tests {
    use sesstree::row::text::fuzzy_match;

    use super::Search;

    #[test]
    fn search_matches_as_fuzzy_match_does() {
        let texts = ["user Add a --JSON flag", "assistant Straße ǅemal İstanbul", "", "a b c"];
        let queries =
            ["", "  ", "json", "JSON flg", "ad fl", "strasse", "STRAẞE", "ǆ", "i̇st", "x", "c b a"];
        for text in texts {
            for query in queries {
                assert_eq!(
                    Search::new(query).matches(&text.to_lowercase()),
                    fuzzy_match(query, text),
                    "{query:?} in {text:?}"
                );
            }
        }
    }
}
