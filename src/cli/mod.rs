//! The command line: global options, the subcommand list, and dispatch. Each subcommand lives
//! in its own file under `commands/` with its arguments (whose doc comments are the help text)
//! and one `run` function.

pub mod args;
pub mod complete;
pub mod exit;
pub mod fault;
pub mod pager;
pub mod selector;
pub mod signals;
pub mod time;
pub mod ui;
pub mod write;

mod commands;
mod man;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::{CommandFactory as _, FromArgMatches as _, Parser};
use sesstree::clock::Clock;
use sesstree::id_gen::IdGen;
use sesstree::session::Digest;
use sesstree::{Error, Session};

/// How long a writing command waits for another sesstree holding the file's lock.
pub const LOCK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

use self::ui::{ColorChoice, Style};

/// git-style navigation of oh-my-pi and pi coding-agent session files.
///
/// A session file is an append-only JSONL log whose entries form a tree through id/parentId;
/// the leaf is where the conversation continues. sesstree shows, navigates, branches, repairs
/// and migrates these files from the shell.
#[derive(Debug, Parser)]
#[command(name = "sesstree", bin_name = "sesstree", version, after_long_help = after_long_help())]
pub struct Cli {
    /// The session file to work on (`-` reads standard input for commands that do not write).
    /// Without it, the current session: the newest (by modification time) of the current
    /// directory's sessions in the agents' session directories (`~/.omp/agent/sessions`,
    /// `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and
    /// `pi -c` resume it; when the directory has none, the nearest parent directory's, as git
    /// looks upward. `ls` marks it.
    #[arg(short = 'f', long = "file", env = "SESSTREE_FILE", global = true, value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// The session to work on, by its id (a prefix of at least 4 characters) or its name,
    /// looked for in every session directory of both agents (instead of -f).
    #[arg(long, global = true, value_name = "ID|NAME")]
    pub session: Option<String>,

    /// Print machine-readable JSON (JSON Lines for streams of entries).
    #[arg(long, global = true)]
    pub json: bool,

    /// Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error
    /// (exit 3) instead of a warning.
    #[arg(long, global = true)]
    pub strict: bool,

    /// Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal
    /// (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`).
    #[arg(long, global = true)]
    pub no_pager: bool,

    /// Show times in UTC instead of the local time zone (`TZ`, else the system's).
    #[arg(long, global = true)]
    pub utc: bool,

    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Write into a session even while an oh-my-pi process has it open. Without it, a command
    /// that would write into such a session writes nothing and exits 5, naming the process:
    /// oh-my-pi (18.4.9 and later) holds the session's ownership lease while it runs, and
    /// entries written meanwhile are missing from what it shows and would be mixed with its
    /// own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see:
    /// there no session counts as open, and this flag changes nothing.
    #[arg(long, global = true)]
    pub even_if_open: bool,

    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

pub use commands::Command;

/// The examples of `sesstree --help` and `man sesstree`.
const EXAMPLES: &str = r#"Examples:
  Draw the tree of a session, then show the path to the current leaf:
    sesstree -f session.jsonl tree
    sesstree -f session.jsonl log
  Name the file once for the commands that follow:
    export SESSTREE_FILE=session.jsonl
  Complete commands, options, entry ids and labels in bash (see the README for other shells):
    source <(COMPLETE=bash sesstree)"#;

/// What the long help of every REV argument ends with (SPEC §2), added by [`command`].
const REV_GRAMMAR: &str = "A REV: an id, a prefix of 4 or more characters, a label, `@` (the \
    current leaf), `-` (where the latest move came from), and `REV~N` / `REV^` for ancestors; \
    `FILE:REV` names one in another file (as `grep` prints them).";

/// The command line as clap parses, documents and completes it: [`Cli`], with the REV grammar
/// at the end of the long help of every argument whose value is a `REV`.
pub fn command() -> clap::Command {
    let root = Cli::command();
    // The global options a command has no use for are accepted but not listed in its help, man
    // page and completions: a hidden copy in the subcommand stands in for the global one.
    let globals: Vec<clap::Arg> =
        root.get_arguments().filter(|a| a.is_global_set()).cloned().collect();
    root.mut_subcommands(|sub| {
        let hidden: &[&str] = match sub.get_name() {
            "humanize-title" => &["file", "session", "strict", "no_pager", "utc", "color"],
            "ls" => &["file", "session", "strict", "no_pager"],
            _ => &[],
        };
        // Only these write into the session they work on (the lease of an open one).
        let writes = matches!(sub.get_name(), "checkout" | "label" | "name" | "migrate" | "prune");
        let sub = globals
            .iter()
            .filter(|a| {
                let id = a.get_id().as_str();
                hidden.contains(&id) || (id == "even_if_open" && !writes)
            })
            .fold(sub, |sub, a| sub.arg(a.clone().hide(true)));
        sub.mut_args(|arg| {
            let names = arg.get_value_names().unwrap_or_default();
            if !names.iter().any(|n| n.as_str() == "REV") {
                return arg;
            }
            // clap drops the period of a one-sentence help (the `-h` form); the long form's
            // first paragraph keeps it, as in the help of every other argument.
            let help = match (arg.get_long_help(), arg.get_help()) {
                (Some(long), _) => long.to_string(),
                (None, Some(short)) => format!("{short}."),
                (None, None) => String::new(),
            };
            arg.long_help(format!("{help}\n\n{REV_GRAMMAR}"))
        })
    })
}

/// The text after the options in `sesstree --help`: examples, then the exit statuses.
fn after_long_help() -> String {
    format!("{EXAMPLES}\n\n{}", exit::EXIT_STATUS)
}

/// Everything a subcommand needs from the invocation.
pub struct Ctx {
    /// `-f` / `SESSTREE_FILE`.
    pub file: Option<PathBuf>,
    /// `--session`.
    pub session: Option<String>,
    /// The session of `--session`, or the current session, looked for once.
    found: std::sync::OnceLock<sesstree::Result<PathBuf>>,
    /// `--json`.
    pub json: bool,
    /// `--strict`.
    pub strict: bool,
    /// `--even-if-open`.
    pub even_if_open: bool,
    /// Colour, decided once.
    pub style: Style,
    /// What a writer says after writing, when a `FILE:REV` sent it to another file than the
    /// one `-f` or the current session names ([`Ctx::note_other_file`]).
    other_file: Option<String>,
}

impl Ctx {
    /// The same invocation on another file (a `FILE:REV`'s).
    pub fn with_file(&self, file: PathBuf) -> Ctx {
        Ctx {
            file: Some(file),
            session: None,
            found: std::sync::OnceLock::new(),
            other_file: None,
            json: self.json,
            strict: self.strict,
            even_if_open: self.even_if_open,
            style: self.style,
        }
    }

    /// The same invocation on the file of a `FILE:REV`; a writer run on it says which file it
    /// wrote when that is not the one this invocation names.
    pub fn with_rev_file(&self, file: PathBuf) -> Ctx {
        let shown = |p: &Path| ui::show(&p.to_string_lossy()).into_owned();
        // Without a file of its own (no -f, no session here), FILE:REV is the only file there is.
        let instead = match (&self.file, &self.session, self.file()) {
            (_, _, Ok(own)) if sesstree::store::same_file(own, &file) => None,
            (Some(own), None, _) => Some(format!("{} (-f)", shown(own))),
            (_, _, Ok(own)) => Some(format!("the current session {}", shown(own))),
            (_, _, Err(_)) => None,
        };
        let note = instead.map(|i| format!("note: wrote to {}, not to {i}", shown(&file)));
        Ctx { other_file: note, ..self.with_file(file) }
    }

    /// After a write: says which file was written, when a `FILE:REV` chose it
    /// ([`Ctx::with_rev_file`]), as git says which branch a checkout switched to.
    pub fn note_other_file(&self) {
        if let Some(note) = &self.other_file {
            eprintln!("{note}");
        }
    }

    /// The session file named by `-f` or `SESSTREE_FILE`, or by `--session`, else the current
    /// session ([`current_sessions`]).
    pub fn file(&self) -> anyhow::Result<&Path> {
        if let (None, Some(file)) = (&self.session, &self.file) {
            return Ok(file);
        }
        let found = match &self.session {
            Some(key) => self.found.get_or_init(|| session_named(key)),
            None => self.found.get_or_init(newest_session),
        };
        found.as_deref().map_err(|e| e.clone().into())
    }

    /// Loads the session for a reading command: prints its warnings, applies `--strict`, and
    /// refuses a file without a header. An empty file loads as an empty session.
    pub fn load(&self) -> anyhow::Result<Session> {
        let session = Session::load(self.file()?)?;
        self.check(&session)?;
        Ok(session)
    }

    /// [`Ctx::load`], working out `digest` of each record in the same pass.
    pub fn load_with<D: Digest>(&self, digest: &D) -> anyhow::Result<(Session, Vec<D::Of>)> {
        let (session, digests) = Session::load_with(self.file()?, digest)?;
        self.check(&session)?;
        Ok((session, digests))
    }

    /// What every reading command does with a session it loaded: refuses a file without a
    /// header, prints the warnings and applies `--strict`.
    fn check(&self, session: &Session) -> anyhow::Result<()> {
        // A file without a header is refused outright; its other warnings would be noise.
        session.require_readable()?;
        self.report(session)
    }

    /// The clock new entries are stamped with: pinned by `SESSTREE_NOW` (an ISO-8601 time) for
    /// reproducible tests, else the system clock.
    pub fn clock(&self) -> anyhow::Result<Clock> {
        match std::env::var("SESSTREE_NOW") {
            Ok(v) if !v.is_empty() => Clock::pinned_at(&v).ok_or_else(|| {
                sesstree::Error::Usage(format!("SESSTREE_NOW: '{v}' is not an ISO-8601 time"))
                    .into()
            }),
            _ => Ok(Clock::system()),
        }
    }

    /// The generator of new ids: seeded by `SESSTREE_SEED` for reproducible tests, else from
    /// the process's randomness. Ids are checked against the file either way.
    pub fn ids(&self) -> IdGen {
        match std::env::var("SESSTREE_SEED") {
            Ok(v) if !v.is_empty() => IdGen::from_seed(v.parse().unwrap_or_else(|_| {
                // A non-numeric seed still pins the ids: hash its text.
                v.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                })
            })),
            _ => IdGen::from_entropy(),
        }
    }

    /// Locks the session file for writing (waiting up to `LOCK_TIMEOUT` for another sesstree).
    pub fn lock(&self) -> anyhow::Result<sesstree::store::Locked> {
        self.lock_file(self.file()?)
    }

    /// Locks `path` for writing, as [`Ctx::lock`] the session file: its writes refuse a
    /// session that oh-my-pi has open, unless `--even-if-open`.
    pub fn lock_file(&self, path: &Path) -> anyhow::Result<sesstree::store::Locked> {
        let locked = sesstree::store::lock(path, LOCK_TIMEOUT)?;
        Ok(if self.even_if_open { locked } else { locked.refusing_open(lease_dirs()) })
    }

    /// Prints a session's load warnings, or fails on the first with `--strict`.
    pub fn report(&self, session: &Session) -> anyhow::Result<()> {
        if self.strict {
            session.strict()?;
        }
        ui::warn_lines(&session.path, session.diagnostics.iter().map(|d| (d.line, &*d.message)));
        Ok(())
    }
}

/// Writes to stdout through one buffered lock; a closed pipe surfaces as an error that the
/// exit mapping turns into success.
pub fn stdout() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::new(std::io::stdout().lock())
}

/// What the command line asks for.
pub enum Invocation {
    /// A documented subcommand.
    Run(Box<Cli>),
    /// The hidden `generate`, which writes the documentation of the others.
    Generate(commands::generate::GenerateArgs),
}

/// Parses the process's command line (help and version requests come back as errors, as
/// `clap::Parser::try_parse` returns them).
pub fn parse() -> Result<Invocation, clap::Error> {
    let matches =
        commands::generate::with_generate(ignore_empty_env(command())).try_get_matches()?;
    if let Some((commands::generate::NAME, sub)) = matches.subcommand() {
        return Ok(Invocation::Generate(commands::generate::GenerateArgs::from_arg_matches(sub)?));
    }
    Ok(Invocation::Run(Box::new(Cli::from_arg_matches(&matches)?)))
}

/// The command with every option whose environment variable is set but empty read as if it
/// were unset, as git reads an empty `GIT_PAGER=`-style variable: `SESSTREE_FILE=` must not fail
/// as a `--file` without a value, nor `SESSTREE_SUMMARIZER=` run an empty command.
fn ignore_empty_env(cmd: clap::Command) -> clap::Command {
    let cmd = cmd.mut_args(|arg| match arg.get_env() {
        Some(var) if std::env::var_os(var).is_some_and(|v| v.is_empty()) => arg.env(None::<&str>),
        _ => arg,
    });
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_owned()).collect();
    names.iter().fold(cmd, |cmd, name| cmd.mut_subcommand(name, ignore_empty_env))
}

/// Runs what the command line asks for.
pub fn run(invocation: Invocation) -> anyhow::Result<()> {
    let cli = match invocation {
        Invocation::Run(cli) => *cli,
        Invocation::Generate(args) => return commands::generate::run(&args),
    };
    let ctx = Ctx {
        file: cli.file,
        session: cli.session,
        found: std::sync::OnceLock::new(),
        json: cli.json,
        strict: cli.strict,
        even_if_open: cli.even_if_open,
        style: ui::resolve_style(if cli.json { ColorChoice::Never } else { cli.color }),
        other_file: None,
    };
    time::set_utc(cli.utc);
    ui::note_terminal_width();
    // Started once the colours are decided (for the terminal), and waited for at the end.
    let _pager = pager::Pager::start(!cli.no_pager && cli.command.pages());
    commands::run(&ctx, cli.command)
}

/// Where the agents keep sessions, from this process's environment.
pub fn places() -> sesstree::discover::Places {
    let real = |p: PathBuf| sesstree::platform::canonicalize(&p).unwrap_or(p);
    let home = sesstree::discover::home_dir();
    sesstree::discover::Places {
        home: real(home.unwrap_or_default()),
        tmp: real(std::env::temp_dir()),
        vars: sesstree::discover::PLACE_VARS
            .iter()
            .filter_map(|name| Some((name.to_string(), std::env::var(name).ok()?)))
            .collect(),
    }
}

/// An entry in full as a person reads it, for `show` and the selector's preview: the output
/// layer's entry printer ([`sesstree::render::show::entry`]) with what this process decides
/// from its environment, oh-my-pi's blob store and the zone times are shown in.
pub fn readable(style: Style, session: &Session, idx: u32) -> anyhow::Result<String> {
    let blobs = places().omp_blobs();
    let time = |ts: &str| time::short_time(Some(ts));
    let around = sesstree::render::show::Around { session, blobs: Some(&blobs), time: &time };
    Ok(sesstree::render::show::entry(style, &around, idx)?)
}

/// Where oh-my-pi keeps its session ownership leases, from this process's environment
/// (oh-my-pi's `os.homedir()` is `$HOME` as it is, not resolved).
fn lease_dirs() -> sesstree::lease::LeaseDirs {
    let var = |name| std::env::var(name).ok();
    let home = sesstree::discover::home_dir().unwrap_or_default();
    sesstree::lease::LeaseDirs::new(
        &home,
        var("PI_CONFIG_DIR").as_deref(),
        var("XDG_STATE_HOME").as_deref(),
    )
}

/// The session whose id starts with `key` (4 characters at least) or whose name is `key`, in
/// every session directory of both agents; the error says why none or which several (exit 4,
/// as a REV that names none).
fn session_named(key: &str) -> sesstree::Result<PathBuf> {
    let dirs: Vec<PathBuf> =
        places().roots().into_iter().map(|root| root.dir).filter(|d| d.is_dir()).collect();
    let files =
        sesstree::discover::session_files(&dirs, true).map_err(|e| Error::Usage(e.to_string()))?;
    let summaries = sesstree::sessions::summarize_all(&files);
    let by_id = |s: &sesstree::sessions::Summary| {
        key.chars().count() >= 4 && s.session_id.as_deref().is_some_and(|id| id.starts_with(key))
    };
    let mut found: Vec<_> = summaries
        .into_iter()
        .filter_map(Result::ok)
        .filter(|s| by_id(s) || s.name.as_deref().map(str::trim) == Some(key))
        .collect();
    sesstree::sessions::newest_first(&mut found);
    match found.as_slice() {
        [one] => Ok(one.path.clone()),
        [] => Err(Error::NotFound(format!(
            "no session has the id or name '{}' in {}",
            ui::show(key),
            dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
        ))),
        several => Err(Error::NotFound(format!(
            "'{}' names {} sessions: {}; give more of the id, or -f FILE",
            ui::show(key),
            several.len(),
            several.iter().map(|s| s.path.display().to_string()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// The current session: the newest of [`current_sessions`].
fn newest_session() -> sesstree::Result<PathBuf> {
    Ok(current_sessions()?.swap_remove(0))
}

/// The current project's sessions, newest first: the current directory's in the agents'
/// session directories, else the nearest parent directory's
/// ([`sesstree::discover::Places::current_sessions`]); or the usage error that names where none
/// was found.
pub fn current_sessions() -> sesstree::Result<Vec<PathBuf>> {
    const HINT: &str = "give -f FILE or set SESSTREE_FILE";
    let Ok(cwd) = std::env::current_dir() else {
        return Err(Error::Usage(format!("no session file: {HINT}")));
    };
    let places = places();
    let (found, searched) = places.current_sessions(&cwd);
    if !found.is_empty() {
        return Ok(found);
    }
    let home = places.home.to_string_lossy().into_owned();
    let shown: Vec<String> = searched
        .iter()
        .map(|dir| {
            let dir = dir.display().to_string();
            match dir.strip_prefix(&home) {
                Some(rest) if !home.is_empty() && rest.starts_with('/') => format!("~{rest}"),
                _ => dir,
            }
        })
        .collect();
    Err(Error::Usage(format!(
        "no session file: no session of this directory or a parent in {}; {HINT}",
        shown.join(", ")
    )))
}

/// A `FILE:REV` split into the file and the REV, at the last `:` before which an existing file
/// is named (`grep` prints its hits' REVs so); `None` for any other REV.
pub fn file_rev(rev: &str) -> Option<(PathBuf, String)> {
    rev.rmatch_indices(':').find_map(|(at, _)| {
        let (file, rest) = (&rev[..at], &rev[at + 1..]);
        let named = !file.is_empty() && !rest.is_empty() && Path::new(file).is_file();
        named.then(|| (PathBuf::from(file), rest.to_owned()))
    })
}

/// The hint for an error a git user's habit leads to: a REV that names no entry but an
/// existing file (`sesstree log demo.jsonl`) was meant as the session file, which `-f` gives.
pub fn hint(err: &anyhow::Error) -> Option<String> {
    err.chain().find_map(|cause| match cause.downcast_ref::<Error>()? {
        Error::RevNotFound { rev } if Path::new(rev).is_file() => {
            let rev = ui::show(rev);
            Some(format!("'{rev}' is a file; to work on it, give -f {rev}"))
        }
        _ => None,
    })
}

/// Writes one JSON value as a line.
pub fn write_json_line(out: &mut impl Write, value: &serde_json::Value) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value).context("writing JSON")?;
    out.write_all(b"\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap_complete::engine::ArgValueCompleter;

    use super::*;

    #[test]
    fn command_line_is_consistent() {
        commands::generate::with_generate(command()).debug_assert();
    }

    /// Every argument that takes a REV completes entry ids and labels and spells out the REV
    /// grammar in its long help, in every subcommand
    /// (new ones included: name the value `REV` and add `complete::rev()`).
    #[test]
    fn every_rev_argument_completes_entries() {
        let mut root = command();
        root.build();
        let mut revs = 0;
        for cmd in root.get_subcommands() {
            for arg in cmd.get_arguments() {
                let names = arg.get_value_names().unwrap_or_default();
                let is_rev = names.iter().any(|n| n.as_str() == "REV");
                if is_rev {
                    revs += 1;
                    assert!(
                        arg.get::<ArgValueCompleter>().is_some(),
                        "sesstree {} {}: REV without complete::rev()",
                        cmd.get_name(),
                        arg.get_id()
                    );
                    let help = arg.get_long_help().map(ToString::to_string).unwrap_or_default();
                    assert!(help.ends_with(REV_GRAMMAR), "{}: {help}", cmd.get_name());
                }
            }
        }
        assert!(revs >= 4, "log, show, context and tree --leaf take a REV");
    }
}
