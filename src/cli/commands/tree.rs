//! `sesstree tree`: the whole tree as the agent's tree selector draws it (FORMAT §9).

use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::path::Path;

use sesstree::render::tree::{Mark, TreeLook, TreeRow};
use sesstree::render::{JsonRow, Placement, write_rows};
use sesstree::row::gist::{Gist, resolve_each};
use sesstree::row::text::FilterMode;
use sesstree::row::view::labels;
use sesstree::row::{Rows, Search, read_text};
use sesstree::terminal::sanitize_for_terminal;
use sesstree::tree::{TreeOptions, layout};
use sesstree::{EntryId, Error, rev};

use crate::cli::args::{FilterArg, HookArgs};
use crate::cli::complete;
use crate::cli::selector::draw::Look;
use crate::cli::selector::{self as selector, Options};
use crate::cli::signals::leave_to_exit;
use crate::cli::ui::{self, home, short_id};
use crate::cli::{Ctx, stdout};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The whole tree, the branch holding the current leaf first:
    sesstree -f session.jsonl tree
  Only the user requests that mention both "json" and "flag":
    sesstree tree --filter user-only --search "json flag"
  The tree as if the entry labelled checkpoint-1 were the leaf, drawn in ASCII:
    sesstree tree --leaf checkpoint-1 --ascii
  Browse the tree in the full-screen selector, to label entries and check them out:
    sesstree tree -i -f session.jsonl"#;

/// Show the whole tree as the agent's tree selector draws it.
///
/// The branch holding the current leaf comes first; depth grows only at real branch points;
/// each row starts with the entry's short id (for `show`, `checkout`, `label`, `branch`);
/// `• ` marks the path from the root to the leaf, `← active` the leaf itself, and `[label]` the
/// labels in effect. Filters and searches narrow the rows; the structure stays. When they hide
/// the leaf, its nearest shown ancestor says `← active (leaf ID hidden)`, and with --json
/// carries `"leafHidden": "ID"` (the leaf's whole id; no other row has the member). On a terminal
/// (through the pager too) each row is cut to its width with `…`, never wrapped, `← active`
/// kept in sight; `COLUMNS` sets another width, and a pipe gets whole rows
/// (message text stops at 200 characters, then `…`, as in `log`). When a row is
/// nested deeper than the width allows (100 levels when there is none), its oldest levels
/// scroll off behind `…`; `--json` always gives the real depth.
///
/// With -i the tree opens as the agent's full-screen tree selector: arrows move, typing
/// searches (every printable key, capitals included), Ctrl+O and Alt+D/T/U/L/A change the
/// filter, Ctrl+L edits the selected entry's label, Enter checks the selected entry out (printing a user message's text for the editor),
/// Shift+Enter (or Alt+Enter) asks for a summary first, Tab shows the selected entry whole,
/// Esc quits, Ctrl-C quits with exit 7.
/// The footer lists every key. Labels and checkouts go through `label` and `checkout`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct TreeArgs {
    /// Open the tree as a full-screen selector to move, search, label and check out.
    #[arg(short, long, conflicts_with = "leaf")]
    pub interactive: bool,
    /// Which entries to show.
    #[arg(long, value_enum, default_value_t = FilterArg::Default)]
    pub filter: FilterArg,
    /// Show only entries matching every word (case-insensitive). With -i: the initial search.
    #[arg(long, value_name = "WORDS")]
    pub search: Option<String>,
    /// Match search words as subsequences, as the agent's selector does (always so with -i).
    #[arg(long, requires = "search")]
    pub fuzzy: bool,
    /// Draw with ASCII instead of box-drawing characters.
    #[arg(long)]
    pub ascii: bool,
    /// Draw the tree as if REV were the current leaf.
    #[arg(long, value_name = "REV", add = complete::rev())]
    pub leaf: Option<String>,
    /// Order of branches: `active` puts the branch holding the leaf first; `file` keeps the
    /// reference's order (roots in file order, children by timestamp).
    #[arg(long, value_enum, default_value_t = Order::Active)]
    pub order: Order,
    /// Show archived subtrees too.
    #[arg(long)]
    pub include_archived: bool,
    /// With -i: the command that writes the summary asked for with Shift+Enter, as for
    /// `checkout --summarize`.
    #[arg(long, value_name = "CMD", env = "SESSTREE_SUMMARIZER")]
    pub summarizer: Option<String>,
    /// With -i: the hooks that checking out runs.
    #[command(flatten)]
    pub hooks: HookArgs,
}

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
    if args.interactive {
        return interactive(ctx, args);
    }
    let home = home();
    // Every row is worked out while the file loads (its gist); a search reads the entries it
    // matches against again.
    let (session, gists) = ctx.load_with(&Rows::new(home.as_deref()))?;
    if session.is_empty() {
        return Ok(());
    }
    let leaf = match &args.leaf {
        Some(r) => Some(rev::resolve(&session, r)?),
        None => session.position()?,
    };
    let opts = TreeOptions {
        leaf,
        include_archived: args.include_archived,
        active_first: args.order == Order::Active,
    };
    let tree = layout(&session, &opts);
    let mode = FilterMode::from(args.filter);
    let look = TreeLook {
        ascii: args.ascii,
        style: ctx.style,
        width: if ctx.json { None } else { ui::width() },
    };
    // Tool calls must be known before their results are drawn, so rows are read in file
    // order.
    let order = tree.file_order(session.records.len());
    let mut out = stdout();
    let labels = labels(&session);
    let row_of = |i: u32| &tree.rows[i as usize];
    let read: Vec<&Gist> = order.iter().map(|&i| &gists[row_of(i).idx as usize]).collect();
    if let Some(pos) = read.iter().position(|gist| gist.is_unreadable()) {
        anyhow::bail!(session.unreadable(row_of(order[pos]).idx));
    }
    let mut kept = resolve_each(&read, |pos, text| {
        let (i, gist) = (order[pos], read[pos]);
        let idx = row_of(i).idx;
        gist.facts().shows(mode, leaf == Some(idx), labels.contains_key(&idx)).then_some((i, text))
    });
    drop((order, read));
    if let Some(query) = &args.search {
        let search = Search { query, fuzzy: args.fuzzy };
        kept = search.matching(&session, &labels, kept, |&(i, text)| (row_of(i).idx, text))?;
    }
    // For each layout row, where its text is in `kept` (`u32::MAX` for a row not shown),
    // filled in one pass; then the shown rows, in layout order.
    let mut place = vec![u32::MAX; tree.rows.len()];
    for (k, &(i, _)) in kept.iter().enumerate() {
        place[i as usize] = k as u32;
    }
    let rows: Vec<u32> =
        (0..place.len() as u32).filter(|&i| place[i as usize] != u32::MAX).collect();
    let shown = rows.len();
    // When the filter or the search hides the leaf, the nearest shown entry on its path.
    let leaf_row = tree.rows.iter().position(|r| r.is_leaf);
    let hidden_leaf = leaf_row.filter(|&i| place[i] == u32::MAX).map(|i| tree.rows[i].idx);
    let stand_in = hidden_leaf.and_then(|leaf| {
        let at: std::collections::HashMap<u32, usize> =
            tree.rows.iter().enumerate().map(|(i, r)| (r.idx, i)).collect();
        let mut up = session.parent(leaf);
        while let Some(p) = up {
            match at.get(&p) {
                Some(&i) if place[i] != u32::MAX => return Some(i as u32),
                _ => up = session.parent(p),
            }
        }
        None
    });
    let hidden_leaf_id = hidden_leaf.and_then(|leaf| session.record(leaf).id.as_ref());
    let hidden_id = hidden_leaf.map(|_| hidden_leaf_id.map_or("-", EntryId::as_str));
    let gist = |&i: &u32| &gists[row_of(i).idx as usize];
    write_rows(&mut out, &rows, gist, |&i, buf| {
        let (row, text) = (row_of(i), kept[place[i as usize] as usize].1);
        let (gist, label) = (&gists[row.idx as usize], labels.get(&row.idx));
        // A text too long to keep in the gist is read again, for the rows shown.
        let text = match text.text() {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(read_text(&session, row.idx, home.as_deref())?),
        };
        if ctx.json {
            let at = Placement {
                depth: row.depth,
                on_active_path: row.on_active_path,
                is_leaf: row.is_leaf,
            };
            let mut json =
                JsonRow::of_gist(&session, row.idx, gist, label.map(|l| &l.1), &text, at);
            json.leaf_hidden = hidden_leaf_id.filter(|_| stand_in == Some(i));
            json.write(buf);
            buf.push(b'\n');
        } else {
            let mark = match row.is_leaf {
                true => Some(Mark::Leaf),
                // The leaf is hidden: the nearest entry shown on its path stands in.
                false => hidden_id.filter(|_| stand_in == Some(i)).map(Mark::StandsIn),
            };
            let drawn = TreeRow {
                row,
                id: session.record(row.idx).id.as_ref().map_or("-", EntryId::as_str),
                label: label.map(|l| l.0.as_str()),
                text: &text,
                cut: gist.is_cut(),
                mark,
            };
            drawn.write(buf, &tree, &look);
            buf.push(b'\n');
        }
        anyhow::Ok(())
    })?;
    out.flush()?;
    if let (Some(id), None, false) = (hidden_id, stand_in, ctx.json)
        && shown > 0
    {
        let by = if args.search.is_some() { "search" } else { "filter" };
        eprintln!("note: the leaf {} is hidden by the {by}", sanitize_for_terminal(short_id(id)));
    }
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
    leave_to_exit((tree, session, gists));
    Ok(())
}

/// Runs `tree -i`: the selector, then what it chose, printed once the screen is back.
fn interactive(ctx: &Ctx, args: &TreeArgs) -> anyhow::Result<()> {
    if ctx.json {
        anyhow::bail!(Error::Usage("tree -i draws on the terminal; it has no --json".into()));
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        anyhow::bail!(Error::Usage(
            "tree -i needs a terminal: standard input and output must both be one".into(),
        ));
    }
    if ctx.file()? == Path::new("-") {
        anyhow::bail!(Error::Usage("tree -i cannot read the session from standard input".into()));
    }
    // Warnings are printed now, before the screen switches, and are there again after it.
    let session = ctx.load()?;
    if session.records.is_empty() {
        eprintln!("No entries in session");
        return Ok(());
    }
    let opts = Options {
        filter: FilterMode::from(args.filter),
        query: args.search.clone().unwrap_or_default(),
        show_archived: args.include_archived,
        active_first: args.order == Order::Active,
        look: Look { color: ctx.style.color, ascii: args.ascii },
        home: home(),
        hooks: args.hooks.clone(),
        summarizer: args.summarizer.clone(),
    };
    selector::run(ctx, session, opts)
}
