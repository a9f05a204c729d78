//! What `log` shows of a path: the entries a filter shows, from their gists, and the stretch
//! of the path whose gists must be read for the last rows of a session loaded without them.

use std::collections::HashSet;

use crate::Session;
use crate::row::gist::{Gist, NEAR, resolve_each};
use crate::row::read::read_gists;
use crate::row::text::FilterMode;
use crate::row::view::Labels;

/// The entries of a path that a listing shows (FORMAT §9.2), from their gists: what `log`
/// prints.
#[derive(Debug, Clone, Copy)]
pub struct Listing<'s> {
    /// The path, root first.
    pub path: &'s [u32],
    /// The entry the path leads to, which the filters count as the leaf.
    pub target: u32,
    /// The labels in effect.
    pub labels: &'s Labels,
    /// Which entries are shown.
    pub mode: FilterMode,
}

/// One row a [`Listing`] shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row<'g> {
    /// The record index.
    pub idx: u32,
    /// Its gist.
    pub gist: &'g Gist,
    /// Its row text; `None` when the gist did not keep it ([`Resolved::text`](crate::row::gist::Resolved::text)).
    pub text: Option<&'g str>,
}

impl Listing<'_> {
    /// Whether the entry `idx`, of gist `gist`, is shown: in `all`, every entry, so that row
    /// N+1 is `REV~N` (the selector's `all` still hides an assistant turn that only called
    /// tools, [`crate::row::text::Facts::shows`], and a path with one lost count there);
    /// otherwise as the filter modes show it.
    pub fn shows(&self, idx: u32, gist: &Gist) -> bool {
        self.mode == FilterMode::All
            || gist.facts().shows(self.mode, idx == self.target, self.labels.contains_key(&idx))
    }

    /// The rows shown of the entries from `path[start]` on, of gists `gists`, in path order,
    /// their calls resolved in that order. `Err` with the index of the first entry whose row
    /// cannot be read ([`Gist::is_unreadable`]).
    pub fn rows<'g>(&self, start: usize, gists: &[&'g Gist]) -> Result<Vec<Row<'g>>, u32> {
        let stretch = self.path.get(start..).unwrap_or_default();
        let gists = &gists[..gists.len().min(stretch.len())];
        if let Some(pos) = gists.iter().position(|gist| gist.is_unreadable()) {
            return Err(stretch[pos]);
        }
        Ok(resolve_each(gists, |pos, text| {
            let (idx, gist) = (stretch[pos], gists[pos]);
            self.shows(idx, gist).then_some(Row { idx, gist, text: text.text() })
        }))
    }

    /// For the `n` rows at the end of the path, in a session
    /// loaded without gists: the stretch of the path whose rows give those `n` rows as the
    /// whole path gives them, as its start and its gists, read from the lines
    /// ([`read_gists`], with `home`). That is the end of the path holding `n` shown
    /// rows, and before them the entries whose calls their tool results show (a call is
    /// nearly always a few entries before its result). The stretch starts at `n` + [`NEAR`]
    /// entries and doubles until it holds `n` shown rows; a result shown whose call is not in
    /// it (one far back, or one never made) takes the whole path. An unreadable row in it ends
    /// the search, for [`Listing::rows`] to report.
    pub fn window(
        &self,
        session: &Session,
        n: usize,
        home: Option<&str>,
    ) -> crate::Result<(usize, Vec<Gist>)> {
        let len = self.path.len();
        if n == 0 {
            return Ok((len, Vec::new()));
        }
        let mut size = n.saturating_add(NEAR).min(len);
        // The gists of `path[start..end]`.
        let mut start = len;
        let mut gists = Vec::new();
        loop {
            let mut older = read_gists(session, &self.path[len - size..start], home)?;
            older.append(&mut gists);
            gists = older;
            start = len - size;
            if size == len {
                return Ok((start, gists));
            }
            size = match self.covers(start, &gists, n) {
                Covers::All => return Ok((start, gists)),
                Covers::TooFewRows => size.saturating_mul(2).min(len),
                Covers::NotTheCalls => len,
            };
        }
    }

    /// Whether the gists of the path from `start` on give the `n` rows shown at its end: see
    /// [`Listing::window`].
    fn covers(&self, start: usize, gists: &[Gist], n: usize) -> Covers {
        if gists.iter().any(Gist::is_unreadable) {
            return Covers::All;
        }
        let stretch = &self.path[start..];
        let shows = |pos: usize| self.shows(stretch[pos], &gists[pos]);
        // The oldest of the newest `n` rows shown (`n` is not 0).
        let Some(first) = (0..gists.len()).rev().filter(|&pos| shows(pos)).nth(n - 1) else {
            return Covers::TooFewRows;
        };
        // Every tool result shown finds its call before it in the stretch.
        let mut calls = HashSet::with_hasher(foldhash::fast::RandomState::default());
        for (pos, gist) in gists.iter().enumerate() {
            if pos >= first
                && let Some(id) = gist.answers()
                && !calls.contains(id)
                && shows(pos)
            {
                return Covers::NotTheCalls;
            }
            calls.extend(gist.calls().map(|(id, _)| id));
        }
        Covers::All
    }
}

/// What a stretch of a path gives of the rows a [`Listing::window`] asks for.
enum Covers {
    /// All of them.
    All,
    /// Fewer rows than asked for.
    TooFewRows,
    /// The rows, but a tool result among them does not find its call.
    NotTheCalls,
}
