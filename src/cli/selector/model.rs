//! What the selector shows of a session: the laid-out tree (FORMAT §9.1) with, for every row,
//! everything the keys and the drawing need, computed once per load so that moving, filtering
//! and searching never read the file again.

use std::collections::HashMap;

use sesstree::row::text::FilterMode;
use sesstree::row::view::Viewer;
use sesstree::terminal::sanitize_for_terminal;
use sesstree::tree::{Layout, TreeOptions, layout};
use sesstree::{EntryId, Session};

/// One row of the tree with what the selector needs to know about its entry.
#[derive(Debug, Clone)]
pub struct Row {
    /// The record shown.
    pub idx: u32,
    /// Its id (records without one can be shown but not labelled or checked out).
    pub id: Option<EntryId>,
    /// The one-line text (FORMAT §9.3), already safe for the terminal.
    pub text: String,
    /// The label in effect, already safe for the terminal.
    pub label: Option<String>,
    /// The text a search matches against (FORMAT §9.4), lower-cased once here so that each
    /// key typed into the search does not lower-case every row again.
    pub search: String,
    /// Whether each filter mode shows the row, in [`FilterMode::CYCLE`] order.
    pub shows: [bool; 5],
    /// A user or assistant message: where Alt+Up/Down stop.
    pub chat: bool,
    /// The parent's row, `None` for a root.
    pub parent: Option<usize>,
    /// One past the last row of this row's subtree (rows are in pre-order).
    pub end: usize,
    /// Whether a branch segment starts here (a root, or a child of a branch point): the rows
    /// that fold and unfold.
    pub head: bool,
}

/// The session as the selector shows it.
#[derive(Debug)]
pub struct Model {
    /// The layout the rows come from (for gutters and connectors).
    pub layout: Layout,
    /// Rows in display order; `rows[i]` belongs to `layout.rows[i]`.
    pub rows: Vec<Row>,
    /// The row of the current leaf, when it is shown.
    pub leaf_row: Option<usize>,
    /// The session's name (or the file name), for the title.
    pub title: String,
    /// A version 1 file (entries without ids), which the writers refuse until migrated.
    pub v1: bool,
}

impl Model {
    /// Lays the session out, with archived subtrees (Alt+R) or not and the branch holding the
    /// leaf first (the selector's order) or in file order, and reads every entry once, in file
    /// order so that tool calls are known before their results are rendered.
    pub fn build(
        session: &Session,
        home: Option<&str>,
        include_archived: bool,
        active_first: bool,
    ) -> sesstree::Result<Model> {
        // Where the conversation is, as `tree` marks it: past trailing labels and a move marker.
        let leaf = session.position()?;
        let layout = layout(session, &TreeOptions { leaf, include_archived, active_first });
        let position: HashMap<u32, usize> =
            layout.rows.iter().enumerate().map(|(i, r)| (r.idx, i)).collect();
        let mut viewer = Viewer::new(session, home);
        let mut order: Vec<usize> = (0..layout.rows.len()).collect();
        order.sort_by_key(|&i| layout.rows[i].idx);
        let mut rows: Vec<Option<Row>> = vec![None; layout.rows.len()];
        for i in order {
            let lrow = &layout.rows[i];
            let view = viewer.view(lrow.idx)?;
            let shows = FilterMode::CYCLE.map(|mode| view.shows(mode, leaf));
            let role = view.role.as_deref();
            let parent = session.parent(lrow.idx).and_then(|p| position.get(&p).copied());
            rows[i] = Some(Row {
                idx: lrow.idx,
                id: session.record(lrow.idx).id.clone(),
                text: sanitize_for_terminal(&view.text).into_owned(),
                label: view.label.as_deref().map(|l| sanitize_for_terminal(l).into_owned()),
                search: view.search.to_lowercase(),
                shows,
                chat: matches!(role, Some("user" | "assistant")),
                parent,
                end: i + 1,
                head: parent.is_none() || lrow.connector.is_some(),
            });
        }
        let mut rows: Vec<Row> = rows.into_iter().flatten().collect();
        // Pre-order: a subtree ends where its last descendant's subtree ends. Children come
        // after their parent, so one backward pass sees every child before its parent.
        for i in (0..rows.len()).rev() {
            if let Some(p) = rows[i].parent {
                rows[p].end = rows[p].end.max(rows[i].end);
            }
        }
        let leaf_row = leaf.and_then(|l| position.get(&l).copied());
        let title = match session.name() {
            Some((name, _)) if !name.trim().is_empty() => name,
            _ => session
                .path
                .file_name()
                .map_or_else(|| session.path.display().to_string(), |f| f.to_string_lossy().into()),
        };
        let title = sanitize_for_terminal(&title).into_owned();
        Ok(Model { layout, rows, leaf_row, title, v1: session.is_v1() })
    }

    /// The row showing the entry with this id.
    pub fn find(&self, id: &EntryId) -> Option<usize> {
        self.rows.iter().position(|r| r.id.as_ref() == Some(id))
    }
}
