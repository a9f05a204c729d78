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
/// or under CODEX_HOME), listed as the sessions sesstree reads them as. --agent keeps one
/// agent's. Directories are searched for *.jsonl, leaving out the artifact directory next to
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
    let files = sesstree::discover::session_files(&roots, true)?;
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
    if args.null {
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
    let shorten = |p: &str| -> String {
        let home = home.filter(|h| !h.is_empty() && *h != "/");
        let text = match home.and_then(|h| p.strip_prefix(h)) {
            Some(rest) if rest.starts_with('/') => format!("~{rest}"),
            _ => p.to_string(),
        };
        sanitize_for_terminal(&text).into_owned()
    };
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
