//! `sesstree tree`: the whole tree as the agent's tree selector draws it (FORMAT §9).

use std::io::Write;

use sesstree::rev;
use sesstree::text::{FilterMode, fuzzy_match, sanitize_for_terminal, substring_match};
use sesstree::tree::{ASCII, TreeOptions, UNICODE, layout};
use sesstree::view::Viewer;

use super::{FilterArg, home};
use crate::cli::ui::{Role, width};
use crate::cli::{Ctx, stdout};

/// Show the whole tree as the agent's tree selector draws it.
///
/// The branch holding the current leaf comes first; depth grows only at real branch points;
/// `• ` marks the path from the root to the leaf, `← active` the leaf itself, and `[label]` the
/// labels in effect. Filters and searches narrow the rows; the structure stays. When a row is
/// nested deeper than the width allows (`COLUMNS`; 100 levels when the width is unknown), its
/// oldest levels scroll off behind `…`; `--json` always gives the real depth.
///
/// Examples:
///   sesstree tree -f session.jsonl
///   sesstree tree --filter user-only --search "json flag"
///   sesstree tree --leaf checkpoint-1 --ascii
#[derive(Debug, clap::Args)]
pub struct TreeArgs {
    /// Which entries to show.
    #[arg(long, value_enum, default_value_t = FilterArg::Default)]
    pub filter: FilterArg,
    /// Show only entries matching every word (case-insensitive).
    #[arg(long, value_name = "WORDS")]
    pub search: Option<String>,
    /// Match search words as subsequences, as the agent's selector does.
    #[arg(long, requires = "search")]
    pub fuzzy: bool,
    /// Draw with ASCII instead of box-drawing characters.
    #[arg(long)]
    pub ascii: bool,
    /// Draw the tree as if REV were the current leaf.
    #[arg(long, value_name = "REV")]
    pub leaf: Option<String>,
    /// Order of branches: `active` puts the branch holding the leaf first; `file` keeps the
    /// reference's order (roots in file order, children by timestamp).
    #[arg(long, value_enum, default_value_t = Order::Active)]
    pub order: Order,
    /// Show archived subtrees too.
    #[arg(long)]
    pub include_archived: bool,
}

/// How many levels of gutter a row shows when the terminal width is unknown; deeper levels
/// scroll off behind `…` as they do on a narrow screen (FORMAT §9.1).
const MAX_LEVELS_UNKNOWN_WIDTH: usize = 100;

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// The branch holding the leaf first.
    Active,
    /// Roots in file order, children by timestamp.
    File,
}

/// Runs `tree`.
pub fn run(ctx: &Ctx, args: &TreeArgs) -> anyhow::Result<()> {
    let session = ctx.load()?;
    if session.is_empty() {
        return Ok(());
    }
    let leaf = match &args.leaf {
        Some(r) => Some(rev::resolve(&session, r)?),
        None => session.leaf(),
    };
    let opts = TreeOptions {
        leaf,
        include_archived: args.include_archived,
        active_first: args.order == Order::Active,
    };
    let tree = layout(&session, &opts);
    let mode = FilterMode::from(args.filter);
    let home = home();
    let mut viewer = Viewer::new(&session, home.as_deref());
    let glyphs = if args.ascii { &ASCII } else { &UNICODE };
    // Without a known width (a pipe, a file) the gutter is still capped: a tree whose branch
    // points nest thousands deep would otherwise print rows as wide as the tree is deep, and
    // output quadratic in the number of entries.
    let max_levels =
        Some(width().map_or(MAX_LEVELS_UNKNOWN_WIDTH, |w| w.saturating_sub(24.max(w / 2)) / 3));
    let style = ctx.style;
    // Tool calls must be known before their results are drawn, so payloads are read once in
    // file order; each kept row is rendered right away and only its text is kept.
    let mut lines: Vec<Option<String>> = vec![None; tree.rows.len()];
    let mut order: Vec<usize> = (0..tree.rows.len()).collect();
    order.sort_by_key(|&i| tree.rows[i].idx);
    for i in order {
        let row = &tree.rows[i];
        let view = viewer.view(row.idx)?;
        let keep = viewer.shows(&view, mode, leaf)
            && args.search.as_deref().is_none_or(|q| {
                let text = viewer.search_text(&view);
                if args.fuzzy { fuzzy_match(q, &text) } else { substring_match(q, &text) }
            });
        if !keep {
            continue;
        }
        if ctx.json {
            let json = view.to_json(&session, row.depth, row.on_active_path, row.is_leaf);
            lines[i] = Some(serde_json::to_string(&json)?);
            continue;
        }
        let mut line = style.paint(&tree.prefix(row, glyphs, max_levels), Role::Dim);
        if row.on_active_path {
            line.push_str(&style.paint(glyphs.bullet, Role::Active));
        }
        if let Some(label) = &view.label {
            line.push_str(
                &style.paint(&format!("[{}]", sanitize_for_terminal(label)), Role::Label),
            );
            line.push(' ');
        }
        line.push_str(&sanitize_for_terminal(&view.text));
        if row.is_leaf {
            line.push(' ');
            line.push_str(
                &style.paint(if args.ascii { "<- active" } else { "← active" }, Role::Active),
            );
        }
        lines[i] = Some(line);
    }
    let mut out = stdout();
    let mut shown = 0;
    for line in lines.iter().flatten() {
        shown += 1;
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    if shown == 0 && !tree.rows.is_empty() && !ctx.json {
        match &args.search {
            Some(q) => eprintln!("note: no entries match search \"{}\"", sanitize_for_terminal(q)),
            None => eprintln!(
                "note: {} entries hidden by the current filter [{}]",
                tree.rows.len(),
                mode.as_str()
            ),
        }
    }
    Ok(())
}
