//! `sesstree ls [DIR...]`: the session files under the agents' session directories (or the
//! given ones), newest first, one row each.

use std::io::Write;
use std::path::PathBuf;

use comfy_table::{Attribute, Cell, Color, ColumnConstraint, ContentArrangement, Row, Table};
use sesstree::discover;
use sesstree::sessions::{self, Summary};
use sesstree::terminal::sanitize_for_terminal;

use crate::cli::time::short_time;
use crate::cli::ui::home;
use crate::cli::{Ctx, stdout, ui, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Every session of both agents, newest first:
    sesstree ls
  The sessions of the project in the current directory:
    sesstree ls --cwd .
  The paths of the long sessions, for a script:
    sesstree ls --json ~/.omp/agent/sessions | jq -r 'select(.entries > 100) | .path'"#;

/// List session files, newest first.
///
/// Per file: last activity (the last entry's time, else the file's), entry count, session id,
/// name, working directory, the first user prompt, and the path. On a terminal the table fits
/// its width (`COLUMNS` sets another), one line per file: the name, directory and prompt are
/// cut, or left out when there is no room for them; then the session id is left out, and last
/// the path is cut with a `…`. A pipe gets whole rows. --json prints
/// one object per file, and -0 only the paths, each ended by a NUL byte (for `xargs -0`). Without DIR, lists the agents'
/// session directories: ~/.omp/agent/sessions and ~/.pi/agent/sessions, or where PI_CONFIG_DIR,
/// OMP_PROFILE, PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR and XDG_DATA_HOME put them
/// (as a command without -f looks for the current directory's session), and the transcripts of
/// Claude Code (~/.claude/projects, or under CLAUDE_CONFIG_DIR) and Codex (~/.codex/sessions,
/// or under CODEX_HOME), listed as the sessions sesstree reads them as: a Claude Code
/// transcript's row counts the subagents' files read with it (`<session>/subagents/`), which
/// are not listed on their own beside it. --agent keeps one agent's. Directories are searched for *.jsonl, leaving out the artifact directory next to
/// each session file.
///
/// The current session, the one a command without -f works on, is marked: `*` before its row,
/// `"current": true` in --json (see -f for how it is found). On an empty listing, a note on
/// stderr names the directories searched (the exit status stays 0).
///
/// --cwd DIR lists one project's sessions: without DIR arguments, the agents' directories for
/// that project (each agent's encoding of the path); in every case only the sessions whose
/// header records that working directory.
///
/// Each file is read once, and only the header, the first user prompt, naming entries and the
/// last entry are parsed, so listing thousands of sessions takes seconds.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct LsArgs {
    /// Directories (or files) to list (default: the agents' session directories).
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Only the sessions of the project in this directory.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Print only the paths, each ended by a NUL byte (for `xargs -0`).
    #[arg(short = '0', long = "null", conflicts_with = "json")]
    pub null: bool,
    /// Draw the sessions as a tree: each under the session it came from.
    ///
    /// A session's parent is the one its header's `parentSession` names, by path (pi's forks,
    /// oh-my-pi's branches into a new file and its subagents) or by session id (oh-my-pi's
    /// `/fork`); else, for an oh-my-pi subagent's transcript (`<session>/<agent>.jsonl`, in the
    /// session's artifact directory, which a plain listing leaves out), that session. A parent
    /// not listed leaves the session at the top. One line per file: its path, entries, last
    /// activity and name, newest first among siblings. --json adds `parent` (the parent's path,
    /// or null) to each object, in the order of the tree.
    #[arg(long, conflicts_with = "null")]
    pub tree: bool,
    /// Only the sessions of this agent: a Claude Code or Codex transcript, or a file in
    /// oh-my-pi's or pi's sessions directory.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub agent: Option<AgentArg>,
}

/// `--agent`: whose sessions `ls` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentArg {
    /// Claude Code's transcripts.
    Claude,
    /// Codex's rollouts.
    Codex,
    /// oh-my-pi's sessions.
    Omp,
    /// pi's sessions.
    Pi,
}

impl AgentArg {
    /// Whether the session summarized in `s` is this agent's.
    fn owns(self, s: &Summary, places: &discover::Places) -> bool {
        use sesstree::format::Foreign;
        match (self, s.foreign) {
            (AgentArg::Claude, foreign) => foreign == Some(Foreign::Claude),
            (AgentArg::Codex, foreign) => foreign == Some(Foreign::Codex),
            (AgentArg::Omp | AgentArg::Pi, Some(_)) => false,
            (AgentArg::Omp, None) => {
                places.agent_of(&s.path) == Some(sesstree::format::Dialect::Omp)
            }
            (AgentArg::Pi, None) => places.agent_of(&s.path) == Some(sesstree::format::Dialect::Pi),
        }
    }
}

/// Runs `ls`.
pub fn run(ctx: &Ctx, args: &LsArgs) -> anyhow::Result<()> {
    let home = home();
    let wanted = args.cwd.as_deref().map(discover::cwd_forms).transpose()?;
    let roots = if !args.dirs.is_empty() {
        args.dirs.clone()
    } else {
        crate::cli::places().session_dirs(home.as_deref(), &std::env::temp_dir(), wanted.as_deref())
    };
    let mut files = sesstree::discover::session_files(&roots, true)?;
    if args.tree {
        files.extend(sesstree::discover::artifact_sessions(&files));
    }
    // A Claude Code subagent's file is counted in its transcript's row.
    let joined = discover::read_with_another(&files);
    let mut joined = joined.into_iter();
    files.retain(|_| !joined.next().unwrap_or(false));
    let mut summaries = Vec::new();
    let mut first_error = None;
    for result in sessions::summarize_all(&files) {
        match result {
            Ok(s) => summaries.push(s),
            Err(e) => {
                // One unreadable file does not hide the others; it sets the exit status.
                eprintln!("error: {}", sanitize_for_terminal(&e.to_string()));
                first_error.get_or_insert(e);
            }
        }
    }
    if let Some(wanted) = &wanted {
        // The directory encodings are lossy (`a/b` and `a-b` meet), so the header decides;
        // a file in the project's own directory whose header has no cwd stays.
        let in_own_dir = args.dirs.is_empty();
        summaries.retain(|s| match &s.cwd {
            Some(cwd) => wanted.iter().any(|w| discover::same_cwd(cwd, w)),
            None => in_own_dir,
        });
    }
    if let Some(agent) = args.agent {
        let places = crate::cli::places();
        summaries.retain(|s| agent.owns(s, &places));
    }
    sessions::newest_first(&mut summaries);
    if summaries.is_empty() && first_error.is_none() {
        // Not silently: an empty listing and a wrong directory look alike.
        let searched = if roots.is_empty() {
            crate::cli::places().roots().into_iter().map(|root| root.dir).collect()
        } else {
            roots
        };
        let shown: Vec<String> = searched.iter().map(|d| d.display().to_string()).collect();
        let of = args.cwd.as_ref().map_or(String::new(), |cwd| format!("of {} ", cwd.display()));
        let note = format!("no sessions {of}in {}", shown.join(", "));
        eprintln!("note: {}", sanitize_for_terminal(&note));
    }
    // The session a command without FILE works on.
    let current = ctx.file().ok().and_then(|f| std::fs::canonicalize(f).ok());
    let is_current =
        |s: &Summary| current.is_some() && std::fs::canonicalize(&s.path).ok() == current;

    let mut out = stdout();
    if args.tree {
        write_tree(ctx, &mut out, &summaries, is_current, home.as_deref())?;
    } else if args.null {
        for s in &summaries {
            out.write_all(s.path.as_os_str().as_encoded_bytes())?;
            out.write_all(b"\0")?;
        }
    } else if ctx.json {
        for s in &summaries {
            let mut object = s.to_json();
            object["current"] = is_current(s).into();
            write_json_line(&mut out, &object)?;
        }
    } else if !summaries.is_empty() {
        let current: Vec<bool> = summaries.iter().map(is_current).collect();
        writeln!(out, "{}", table(ctx, &summaries, &current, home.as_deref()).trim_fmt())?;
    }
    out.flush()?;
    first_error.map_or(Ok(()), |e| Err(e.into()))
}

/// The sessions as a tree of files, each under the one it came from ([`sessions::parents`]),
/// in the order of `summaries` among siblings: one line each, or with --json one object each
/// with its `parent`.
fn write_tree(
    ctx: &Ctx,
    out: &mut impl Write,
    summaries: &[Summary],
    is_current: impl Fn(&Summary) -> bool,
    home: Option<&str>,
) -> anyhow::Result<()> {
    let parents = sessions::parents(summaries);
    let mut children = vec![Vec::new(); summaries.len()];
    let mut roots = Vec::new();
    for (i, parent) in parents.iter().enumerate() {
        match parent {
            Some(p) => children[*p].push(i),
            None => roots.push(i),
        }
    }
    // Depth first, each node with the connectors of its ancestors (`│  ` where an ancestor has
    // siblings below it, else blanks) and its own.
    let mut stack: Vec<(usize, String, &str)> =
        roots.iter().rev().map(|&i| (i, String::new(), "")).collect();
    let width = if ctx.json { None } else { ui::width() };
    let marked = summaries.iter().any(&is_current);
    while let Some((i, prefix, connector)) = stack.pop() {
        let s = &summaries[i];
        if ctx.json {
            let mut object = s.to_json();
            object["current"] = is_current(s).into();
            object["parent"] = parents[i].map(|p| summaries[p].path.display().to_string()).into();
            write_json_line(out, &object)?;
        } else {
            let mark = match (marked, is_current(s)) {
                (false, _) => "",
                (true, true) => "* ",
                (true, false) => "  ",
            };
            let time = s.last_activity.map(sesstree::clock::format_iso_millis);
            let path = ui::show(&shorten(&s.path.display().to_string(), home)).into_owned();
            let name = s.name.as_deref().map_or(String::new(), |n| format!("  {}", ui::show(n)));
            let entries = ui::count(s.entries as usize, "entry", "entries");
            let line = format!(
                "{mark}{prefix}{connector}{path}  {entries}  {}{name}",
                short_time(time.as_deref())
            );
            let line = match width {
                Some(width) => ui::fit(&line, width),
                None => line.as_str().into(),
            };
            writeln!(out, "{line}")?;
        }
        let kids = &children[i];
        let below = format!(
            "{prefix}{}",
            match connector {
                "├─ " => "│  ",
                "└─ " => "   ",
                _ => "",
            }
        );
        for (k, &kid) in kids.iter().enumerate().rev() {
            let connector = if k + 1 == kids.len() { "└─ " } else { "├─ " };
            stack.push((kid, below.clone(), connector));
        }
    }
    Ok(())
}

/// `path` with the home directory shown as `~`.
fn shorten(path: &str, home: Option<&str>) -> String {
    let home = home.filter(|h| !h.is_empty() && *h != "/");
    match home.and_then(|h| path.strip_prefix(h)) {
        Some(rest) if rest.starts_with('/') => format!("~{rest}"),
        _ => path.to_string(),
    }
}

/// When even the columns that never shrink are wider than the terminal (rows would wrap, every
/// one on two lines or more): the session id goes first (both agents name a session's file
/// after it), then the path is cut at the end, with a `…`: one row per session, as `log`
/// cuts its rows. `ls | cat` and `--json` give whole paths.
fn fit_fixed_columns(table: &mut Table, widest: &[usize; 7], width: usize) {
    let total = |columns: &[usize]| columns.iter().map(|&c| widest[c] + 2).sum::<usize>();
    if total(&[0, 1, 2, 6]) <= width {
        return;
    }
    if let Some(c) = table.column_mut(2) {
        c.set_constraint(ColumnConstraint::Hidden);
    }
    let room = width.saturating_sub(total(&[0, 1]) + 2);
    if widest[6] > room
        && let Some(c) = table.column_mut(6)
    {
        // At least a few columns of the path, even on a terminal too narrow for the rest.
        let room = u16::try_from(room.max(12)).unwrap_or(u16::MAX);
        c.set_constraint(ColumnConstraint::UpperBoundary(comfy_table::Width::Fixed(room)));
    }
}

/// The table of `ls`; when one of the sessions is `current`, each row starts with a mark, `*`
/// on that one, as `git branch` marks the branch checked out.
fn table(ctx: &Ctx, summaries: &[Summary], current: &[bool], home: Option<&str>) -> Table {
    let mut table = Table::new();
    table.load_style(comfy_table::presets::NOTHING);
    table.set_content_arrangement(ContentArrangement::Dynamic);
    // The terminal's (or COLUMNS); a pipe gets whole rows.
    let width = ui::width();
    if ctx.style.color {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
    if let Some(w) = width {
        table.set_width(u16::try_from(w).unwrap_or(u16::MAX));
    }
    let marked = current.contains(&true);
    let mark = |on: bool| match (marked, on) {
        (false, _) => "",
        (true, true) => "* ",
        (true, false) => "  ",
    };
    let mut first = String::from(mark(false));
    first.push_str("LAST ACTIVITY");
    let header_cells =
        [first.as_str(), "ENTRIES", "SESSION", "NAME", "CWD", "FIRST PROMPT", "FILE"];
    let mut header = Row::from(header_cells);
    header.max_height(1);
    table.set_header(header);
    let shorten = |p: &str| sanitize_for_terminal(&shorten(p, home)).into_owned();
    // The widest cell of each column, header included, to choose which columns fit.
    let mut widest = header_cells.map(ui::columns);
    for (s, &on) in summaries.iter().zip(current) {
        let time = s.last_activity.map(sesstree::clock::format_iso_millis);
        let clean = |t: &Option<String>| {
            t.as_deref().map_or(String::new(), |t| sanitize_for_terminal(t).into_owned())
        };
        let mut cells = vec![
            Cell::new(format!("{}{}", mark(on), short_time(time.as_deref()))),
            Cell::new(s.entries),
            Cell::new(clean(&s.session_id)),
            Cell::new(clean(&s.name)),
            Cell::new(s.cwd.as_deref().map_or(String::new(), &shorten)),
            Cell::new(if s.lane_format {
                format!("[{}, not supported yet]", sesstree::format::LANE_FORMAT)
            } else {
                clean(&s.first_prompt)
            }),
            Cell::new(shorten(&s.path.display().to_string())),
        ];
        for (w, cell) in widest.iter_mut().zip(&cells) {
            *w = (*w).max(ui::columns(&cell.content()));
        }
        if ctx.style.color {
            cells[0] = cells[0].clone().add_attribute(Attribute::Dim);
            cells[2] = cells[2].clone().fg(Color::Yellow);
            cells[3] = cells[3].clone().fg(Color::Green);
        }
        let mut row = Row::from(cells);
        // One line per session: long cells are cut, not wrapped.
        row.max_height(1);
        table.add_row(row);
    }
    for column in table.column_iter_mut() {
        column.set_padding((0, 2));
    }
    // The short columns and the path shrink only as a last resort (a path cut short names no
    // file: `fit_fixed_columns`); name, cwd and prompt share what is left. (Set once the rows exist: constraints apply to existing
    // columns.)
    table.set_constraints([ColumnConstraint::ContentWidth; 3]);
    if let Some(file) = table.column_mut(6) {
        file.set_constraint(ColumnConstraint::ContentWidth);
    }
    // What the fixed columns leave (each with its padding of 2) goes to the others, the name
    // first, then the directory, then the prompt; a column that would get fewer than
    // `NARROWEST` columns is left out rather than squeezed.
    const NARROWEST: usize = 8;
    if let Some(width) = width {
        let fixed = [0, 1, 2, 6].iter().map(|&c| widest[c] + 2).sum::<usize>();
        let mut left = width.saturating_sub(fixed);
        for column in [3, 4, 5] {
            let wanted = widest[column] + 2;
            if left >= NARROWEST + 2 {
                left = left.saturating_sub(wanted);
            } else if let Some(c) = table.column_mut(column) {
                c.set_constraint(ColumnConstraint::Hidden);
            }
        }
        fit_fixed_columns(&mut table, &widest, width);
    }
    table
}
