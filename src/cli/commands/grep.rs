//! `sesstree grep PATTERN [PATH...]`: the entries of every session whose text matches.

use std::io::Write;
use std::path::PathBuf;

use serde_json::{Value, json};
use sesstree::grep::{Case, FileHits, Hit, MatchOptions, Matcher, Scope, Search};
use sesstree::{ErrorKind, discover};

use crate::cli::exit::{Exit, Silent, classify};
use crate::cli::ui::{Role, home, short_id, show};
use crate::cli::{Ctx, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Where serde came up, in every session of both agents:
    sesstree grep serde
  The sessions of this project that ran cargo test, by file:
    sesstree grep --here -l 'cargo test'
  What the user asked about JSON in the last 30 days, ignoring case:
    sesstree grep --ignore-case --role user --since 30d json
  Go back to the first entry that mentions clippy, in its own file:
    sesstree grep -m 1 --json clippy | jq -r .rev | xargs sesstree checkout"#;

/// Search the text of sessions, knowing where each hit sits in its tree.
///
/// Matches PATTERN, a regular expression (the syntax of Rust's regex crate; -F for a fixed
/// string), against the text of each entry as a person reads it, decoded: message text,
/// thinking and error text, the string values of tool-call arguments, tool results, shell
/// commands and their output, extension messages, and compaction and branch summaries. JSON
/// keys, escapes and entries without text (settings, labels, extension data) are never
/// matched, and a match never spans two texts. Each text is matched as lines: `^` and `$` match
/// at line breaks.
///
/// Without PATH, searches the session named by -f, SESSTREE_FILE or --session, else every
/// session of both agents and every Claude Code and Codex transcript (the directories `ls`
/// lists); --here searches the current project's sessions instead. PATH is a session file, a directory (searched for *.jsonl) or `-` for
/// standard input. A Claude Code transcript is searched with its subagents' files, as `log`
/// reads it, and a hit in one of them is named by that file (once, also when a directory holds
/// both).
///
/// Prints a heading per file (its path and session id), then a line per matching entry: its
/// short id, its label, its role or type, and the line of text around the first match, with
/// `(off path)` after a hit that is not on the path to the leaf. --json prints one object per
/// hit, whose `rev` (`FILE:ID`) every command taking a REV accepts.
///
/// A file named as PATH or by -f that every other command refuses (no valid session header:
/// exit 3; pi's lane format: exit 6; with -f, a file that does not exist: exit 1) is refused the
/// same way, with the same message and exit status; the other files are still searched. A file
/// found in a directory (PATH or the agents') that cannot be read or is refused so is an error:
/// it is named on stderr, the search goes on, and the exit status is 2, as rg does with a file
/// it cannot read.
///
/// Exits 0 when an entry matched, 1 when none did, 2 on an error (a bad pattern, a file that
/// cannot be read), as grep does; with several errors, the first one's status.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct GrepArgs {
    /// The pattern (with -e, the first PATH).
    #[arg(value_name = "PATTERN", required_unless_present = "regexp")]
    pub pattern: Option<String>,
    /// Session files or directories to search (default: the session of -f, SESSTREE_FILE or
    /// --session, else every session of both agents).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// A pattern to match; give it more than once for any of several.
    #[arg(short = 'e', long = "regexp", value_name = "PATTERN")]
    pub regexp: Vec<String>,
    /// Match the patterns as fixed strings.
    #[arg(short = 'F', long)]
    pub fixed_strings: bool,
    /// Ignore letter case.
    #[arg(short = 'i', long, overrides_with = "smart_case")]
    pub ignore_case: bool,
    /// Ignore letter case unless a pattern holds an upper-case letter.
    #[arg(short = 'S', long, overrides_with = "ignore_case")]
    pub smart_case: bool,
    /// Match whole words only.
    #[arg(short = 'w', long)]
    pub word_regexp: bool,
    /// Print only the paths of files with a match.
    #[arg(short = 'l', long, conflicts_with = "count")]
    pub files_with_matches: bool,
    /// Print the number of matching entries of each file with a match.
    #[arg(short = 'c', long)]
    pub count: bool,
    /// Stop after NUM matching entries in each file.
    #[arg(short = 'm', long, value_name = "NUM")]
    pub max_count: Option<usize>,
    /// Only entries of this role (again for several).
    #[arg(long, value_enum, value_name = "ROLE")]
    pub role: Vec<RoleArg>,
    /// Only calls to this tool and their results (again for several; `bash` also matches the
    /// shell executions run from the prompt).
    #[arg(long, value_name = "NAME")]
    pub tool: Vec<String>,
    /// Only entries of this type (again for several).
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    pub kind: Vec<TypeArg>,
    /// Only entries stamped at or after WHEN: a date (2026-11-30, local midnight), a time
    /// (2026-11-30T14:00, 2026-11-30T14:00:00Z) or a span back from now (7d, 12h, 2w).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only entries stamped before WHEN (as --since).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Only the sessions of the project in this directory.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Only the current project's sessions: those of the current directory, else of the nearest
    /// parent directory that has any (where a command without -f finds its session).
    #[arg(long, conflicts_with_all = ["cwd", "paths"])]
    pub here: bool,
    /// Only entries on the path from the root to the leaf.
    #[arg(long)]
    pub active_only: bool,
}

/// `--role`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RoleArg {
    /// The user's messages.
    User,
    /// The assistant's messages (text, thinking, tool calls).
    Assistant,
    /// Tool results.
    Tool,
    /// Shell commands run from the prompt (`!cmd`) and their output.
    Bash,
}

/// `--type`: the entry types that have text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TypeArg {
    /// Messages.
    Message,
    /// Compactions (their summaries).
    Compaction,
    /// Branch summaries.
    BranchSummary,
    /// Extension messages.
    CustomMessage,
}

/// Runs `grep`.
pub fn run(ctx: &Ctx, args: &GrepArgs) -> anyhow::Result<()> {
    let (patterns, mut paths) = match &args.pattern {
        Some(p) if args.regexp.is_empty() => (vec![p.clone()], args.paths.clone()),
        first => (
            args.regexp.clone(),
            first.iter().map(PathBuf::from).chain(args.paths.clone()).collect(),
        ),
    };
    let case = match (args.ignore_case, args.smart_case) {
        (true, _) => Case::Insensitive,
        (_, true) => Case::Smart,
        _ => Case::Sensitive,
    };
    let options = MatchOptions { fixed: args.fixed_strings, case, word: args.word_regexp };
    let matcher = Matcher::new(&patterns, &options)?;
    let now = ctx.clock()?.now_millis();
    let cwds = args.cwd.as_deref().map(discover::cwd_forms).transpose()?.unwrap_or_default();
    let scope = Scope {
        roles: names(&args.role),
        tools: args.tool.clone(),
        types: names(&args.kind),
        since: args
            .since
            .as_deref()
            .map(|w| crate::cli::time::when("--since", w, now))
            .transpose()?,
        until: args
            .until
            .as_deref()
            .map(|w| crate::cli::time::when("--until", w, now))
            .transpose()?,
        cwds,
    };
    let listing = args.files_with_matches || args.count;
    let search = Search {
        matcher,
        scope,
        max_hits: if args.files_with_matches { Some(1) } else { args.max_count },
        locate: !listing,
        active_only: args.active_only,
        snippets: !listing,
    };
    let mut matched = false;
    // The exit status of the first error: one bad file does not hide the others.
    let mut failed: Option<Exit> = None;
    let mut fail = |e: &sesstree::Error, status: Exit| {
        eprintln!("error: {}", show(&e.to_string()));
        failed.get_or_insert(status);
    };
    // Whether each file was named on the command line, not found in a directory.
    let mut named = Vec::new();
    if paths.is_empty() && args.here {
        paths = crate::cli::current_sessions()?;
        // In path order, as a directory is searched: not in the order the files last changed.
        paths.sort();
        named.resize(paths.len(), false);
    } else if paths.is_empty() && (ctx.file.is_some() || ctx.session.is_some()) {
        // The file every other command would work on, refused as they refuse it when missing.
        let file = ctx.file()?;
        if file.as_os_str() != "-" {
            std::fs::metadata(file).map_err(|e| sesstree::Error::io(file, e))?;
        }
        paths.push(file.to_path_buf());
        named.push(true);
    } else if paths.is_empty() {
        let cwds = (!search.scope.cwds.is_empty()).then_some(search.scope.cwds.as_slice());
        let dirs =
            crate::cli::places().session_dirs(home().as_deref(), &std::env::temp_dir(), cwds);
        paths = sesstree::discover::session_files(&dirs, true)?;
        named.resize(paths.len(), false);
    } else {
        paths = paths
            .iter()
            .flat_map(|path| {
                let found = match path.as_os_str() == "-" {
                    true => vec![path.clone()],
                    false => sesstree::discover::session_files(std::slice::from_ref(path), false)
                        .unwrap_or_else(|e| {
                            fail(&e, Exit::Usage);
                            Vec::new()
                        }),
                };
                named.extend(found.iter().map(|f| f == path));
                found
            })
            .collect();
    }

    // A Claude Code subagent's file found with its transcript is searched through it.
    let joined = discover::read_with_another(&paths);
    let (paths, named): (Vec<PathBuf>, Vec<bool>) =
        paths.into_iter().zip(named).zip(joined).filter(|(_, j)| !j).map(|(p, _)| p).unzip();

    let mut out = stdout();
    for (result, named) in search.files(&paths).into_iter().zip(named) {
        let files = match result {
            Ok(files) => files,
            Err(e) => {
                // A file named on the command line that every reading command refuses is
                // refused as they refuse it; one found in a directory is an error as an
                // unreadable one is (rg's habit: say so, go on, exit 2 at the end).
                let refused = matches!(e.kind(), ErrorKind::Damaged | ErrorKind::TooNew);
                let status = if named && refused {
                    classify(&anyhow::Error::from(e.clone())).0
                } else {
                    Exit::Usage
                };
                fail(&e, status);
                continue;
            }
        };
        for file in files {
            crate::cli::ui::warn_lines(
                &file.path,
                file.damaged.iter().map(|&line| (line, "not valid JSON; the line is not searched")),
            );
            if file.hits.is_empty() {
                continue;
            }
            let path = file.path.display().to_string();
            if ctx.json {
                write_json(&mut out, &file, &path, args)?;
            } else if args.files_with_matches {
                writeln!(out, "{}", show(&path))?;
            } else if args.count {
                writeln!(out, "{}:{}", show(&path), file.hits.len())?;
            } else {
                if matched {
                    writeln!(out)?;
                }
                write_text(ctx, &mut out, &file, &path)?;
            }
            matched = true;
        }
    }
    out.flush()?;
    match (failed, matched) {
        (Some(status), _) => Err(Silent(status).into()),
        (None, true) => Ok(()),
        (None, false) => Err(Silent(Exit::Failed).into()),
    }
}

/// The names of `--role` or `--type` values as the file spells them: as the command line
/// does, with `_` where it has `-` (`branch-summary` is `branch_summary`).
fn names(values: &[impl clap::ValueEnum]) -> Vec<String> {
    let values = values.iter().filter_map(clap::ValueEnum::to_possible_value);
    values.map(|v| v.get_name().replace('-', "_")).collect()
}

/// A file's hits as text: its heading, then a line per hit.
fn write_text(ctx: &Ctx, out: &mut impl Write, file: &FileHits, path: &str) -> anyhow::Result<()> {
    let style = ctx.style;
    let session_id = file.session_id.as_deref().unwrap_or("");
    writeln!(
        out,
        "{}  {}",
        style.paint(&show(path), Role::Kind),
        style.paint(&show(session_id), Role::Dim)
    )?;
    for hit in &file.hits {
        let mut line = String::new();
        let located = hit.located.as_ref();
        let id = located.and_then(|l| l.id.as_deref()).or(hit.id.as_deref()).unwrap_or("-");
        style.paint_into(&mut line, &show(short_id(id)), Role::Id);
        line.push(' ');
        if let Some(label) = located.and_then(|l| l.label.as_deref()) {
            style.paint_into(&mut line, &format!("[{}]", show(label)), Role::Label);
            line.push(' ');
        }
        line.push_str(&show(&hit.role));
        line.push_str(": ");
        highlighted(&mut line, hit, style.color);
        if located.is_some_and(|l| !l.on_active_path) {
            line.push(' ');
            style.paint_into(&mut line, "(off path)", Role::Dim);
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The snippet of a hit, its matches in bold red when colouring.
fn highlighted(out: &mut String, hit: &Hit, color: bool) {
    let text = &hit.snippet.text;
    if !color {
        out.push_str(&show(text));
        return;
    }
    let mut at = 0;
    for &(start, end) in &hit.snippet.matches {
        out.push_str(&show(&text[at..start]));
        out.push_str("\x1b[1;31m");
        out.push_str(&show(&text[start..end]));
        out.push_str("\x1b[0m");
        at = end;
    }
    out.push_str(&show(&text[at..]));
}

/// A file's hits as JSON lines: one object per hit, or per file with -l and -c.
fn write_json(
    out: &mut impl Write,
    file: &FileHits,
    path: &str,
    args: &GrepArgs,
) -> anyhow::Result<()> {
    let session_id = file.session_id.clone().map_or(Value::Null, Value::String);
    if args.files_with_matches || args.count {
        let mut object = json!({ "file": path, "sessionId": session_id });
        if args.count {
            object["count"] = json!(file.hits.len());
        }
        return write_json_line(out, &object);
    }
    for hit in &file.hits {
        let located = hit.located.as_ref();
        let id = located.and_then(|l| l.id.clone()).or(hit.id.clone());
        let object = json!({
            "file": path,
            "sessionId": session_id,
            "entryId": id,
            // Standard input cannot be read again.
            "rev": id.as_ref().filter(|_| path != "-").map(|id| format!("{path}:{id}")),
            "onActivePath": located.map(|l| l.on_active_path),
            "label": located.and_then(|l| l.label.clone()),
            "role": hit.role,
            "timestamp": hit.timestamp,
            "snippet": hit.snippet.text,
            "line": located.map(|l| l.line),
        });
        write_json_line(out, &object)?;
    }
    Ok(())
}
