//! `sesstree export`: the whole tree as one self-contained HTML page, or as Markdown.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use sesstree::export::{self, Options, Plan, Redactor};
use sesstree::row::Rows;
use sesstree::{Error, rev, store};

use crate::cli::complete;
use crate::cli::signals::leave_to_exit;
use crate::cli::ui::home;
use crate::cli::{Ctx, places, stdout};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The session as a page to open in a browser (writes session.html):
    sesstree -f session.jsonl export -o session.html
  The active path only, as Markdown, with keys and the home directory taken out:
    sesstree -f session.jsonl export --format markdown --active-only --redact -o -
  The tree as if the entry labelled checkpoint-1 were the leaf:
    sesstree -f session.jsonl export checkpoint-1 -o checkpoint.html"#;

/// Export the whole tree as one self-contained HTML page, or as Markdown.
///
/// The active path (from the root to REV, default `@`) is shown open; every other branch is
/// there too, folded at the entry it branched from, with how many entries it holds. Labels,
/// branch summaries and compactions are marked; tool calls with their arguments and results,
/// and thinking, are folded. Every entry has an anchor (`#<id>`) and shows its id, for
/// `checkout`.
///
/// The HTML page works offline and makes no request of any kind: styles and script are
/// inline, images are inline (from the message, or from oh-my-pi's blob store) or a
/// placeholder with their type and size, and a Content-Security-Policy lets nothing but the
/// page's own style and script run. A sidebar draws the tree as the agents' selector does, with
/// a search box, and a Compare button: two entries then picked in the tree show what
/// `diff --stat` shows of their two branches. Light and dark themes follow the system.
///
/// Markdown gives the same content as nested sections, readable on GitHub: each branch is a
/// sub-section after its branch point, and no text of the transcript reads as a heading of the
/// document.
///
/// Without -o, the export goes to standard output when that is not a terminal; on a terminal
/// it is written to `<session>.html` (or `.md`) in the current directory. The path of a file
/// written is printed. An existing file is never overwritten without --force.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct ExportArgs {
    /// The leaf of the active path.
    #[arg(default_value = "@", value_name = "REV", add = complete::rev())]
    pub rev: String,
    /// Where to write (its path is printed); `-` for standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// What to write. Without it: Markdown for an -o FILE ending in .md or .markdown, else
    /// HTML.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Only the path from the root to REV, without the other branches.
    #[arg(long)]
    pub active_only: bool,
    /// Overwrite an existing file.
    #[arg(long)]
    pub force: bool,
    /// Replace API-key-shaped strings (sk-…, ghp_…, AKIA…, JWTs, Bearer tokens…) with
    /// `[REDACTED]` and the home directory with ~.
    #[arg(long)]
    pub redact: bool,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One self-contained page.
    Html,
    /// Nested sections, for GitHub and editors.
    Markdown,
}

/// Runs `export`.
pub fn run(ctx: &Ctx, args: &ExportArgs) -> anyhow::Result<()> {
    if ctx.json {
        anyhow::bail!(Error::Usage("export writes HTML or Markdown; it has no --json".into()));
    }
    let format = args.format.unwrap_or_else(|| match &args.output {
        Some(o) if o.extension().is_some_and(|e| e == "md" || e == "markdown") => Format::Markdown,
        _ => Format::Html,
    });
    let home = home();
    let (session, gists) = ctx.load_with(&Rows::new(home.as_deref()))?;
    let leaf = if session.is_empty() {
        None
    } else if args.rev == "@" {
        session.position()?
    } else {
        Some(rev::resolve(&session, &args.rev)?)
    };
    // Where to write, decided before the work: a refused target costs nothing.
    let target = match &args.output {
        Some(o) if o == Path::new("-") => None,
        Some(o) => Some(o.clone()),
        None if !std::io::stdout().is_terminal() => None,
        None => Some(PathBuf::from(format!(
            "{}.{}",
            stem(&session.path, session.header.as_ref().map(|h| h.id.as_str())),
            if format == Format::Html { "html" } else { "md" }
        ))),
    };
    if let Some(t) = &target {
        if store::same_file(&session.path, t) {
            anyhow::bail!(Error::Usage(format!(
                "{}: -o names the session file itself; give another file",
                t.display()
            )));
        }
        if !args.force && std::fs::symlink_metadata(t).is_ok() {
            anyhow::bail!(Error::Conflict(format!(
                "{}: already exists; pass --force to overwrite it, or -o another file",
                t.display()
            )));
        }
    }
    let title = session
        .name()
        .map(|(name, _)| name)
        .or_else(|| session.header.as_ref().map(|h| format!("Session {}", h.id)))
        .unwrap_or_else(|| "Session".into());
    let opts = Options {
        leaf,
        active_only: args.active_only,
        redact: args.redact.then(|| Redactor::new(home.as_deref())),
        home,
        // oh-my-pi keeps blobs beside its sessions root (CHANGES O3).
        blobs: Some(places().omp_blobs()),
        title,
    };
    let plan = Plan::new(&session, &gists, &opts)?;
    drop(gists);
    let fill = |out: &mut dyn Write| match format {
        Format::Html => export::html::write(&session, &plan, &opts, out),
        Format::Markdown => export::markdown::write(&session, &plan, &opts, out),
    };
    match &target {
        None => {
            let mut out = stdout();
            fill(&mut out)?;
            out.flush()?;
        }
        Some(t) => {
            // Ctrl-C or SIGTERM removes the temporary file being written before exiting.
            crate::cli::signals::install_signal_handler();
            // As private as the session it shows (cp's mode: the session's, less the umask).
            let like = session.path.is_file().then_some(session.path.as_path());
            store::write_new_with(t, like, args.force, |out| {
                let mut buf = std::io::BufWriter::with_capacity(1 << 16, out);
                fill(&mut buf)?;
                buf.flush().map_err(|e| Error::io(t, e))
            })?;
            // The path, for `xdg-open "$(sesstree export -o x.html)"` and for the default name.
            println!("{}", sesstree::terminal::sanitize_for_terminal(&t.display().to_string()));
        }
    }
    leave_to_exit((plan, session));
    Ok(())
}

/// The name to give the export of a session: its file's stem, or its id when it came from
/// standard input.
fn stem(path: &Path, id: Option<&str>) -> String {
    let from_file = path
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| *s != "-" && !s.is_empty() && !s.starts_with('.'));
    let name = from_file.or(id).unwrap_or("session");
    // A name fit for a file in the current directory.
    name.chars().map(|c| if c == '/' || c.is_control() { '_' } else { c }).collect()
}
