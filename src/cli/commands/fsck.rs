//! `sesstree fsck FILE|DIR...`: reports every problem of session files, checked in parallel;
//! `--repair -o PATH` writes a repaired copy of one file (never the file itself).

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;
use sesstree::fsck::{self, Change, Finding, NoteKind as _, RepairOptions};
use sesstree::terminal::sanitize_for_terminal;
use sesstree::{Error, Session, store};

use crate::cli::args::{DialectArg, certain_dialect};
use crate::cli::exit::{Exit, Silent};
use crate::cli::{Ctx, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Check every session under the agent's directory:
    sesstree fsck ~/.omp/agent/sessions
  The kinds of problem in one file, as JSON (exit 1 when there are any):
    sesstree fsck --json broken.jsonl | jq '.problems[].kind'
  Write a repaired copy next to the damaged file, which stays as it is:
    sesstree fsck --repair -o fixed.jsonl broken.jsonl"#;

/// Check session files for damage, or write a repaired copy of one.
///
/// Reports every problem with its line and entry: no or bad header, unparseable or truncated
/// lines, records that are not objects or have no id, duplicate ids, missing parents, entries
/// that are their own parent (pi loops on them), parent cycles, labels on missing entries, compactions whose firstKeptEntryId is neither on their
/// path nor their own id (pi's compaction that keeps nothing),
/// branch summaries without a fromId or with one that is not an id (one naming an entry not in
/// the file, after a prune, is fine: the agents only print it), pi context edits off their path, a title slot
/// without its pad (oh-my-pi cannot resume the file), a missing final newline, a version too
/// new. Text output is `FILE:LINE: KIND: MESSAGE` per problem and
/// `FILE: ok` for a sound file (not with --quiet).
/// Directories are searched for *.jsonl; one that holds none is named in a note on stderr.
/// Exit status 1 when any file has a problem.
///
/// With --repair, a repaired copy of one file goes to -o PATH, keeping every entry that can be
/// kept: lines that hold no entry are dropped, a lost header is restored (--cwd gives its
/// working directory), later duplicate ids are renamed and references re-pointed to the entry
/// they meant when written, entries with a missing parent or their own become roots, cycles
/// are broken where
/// readers break them, labels on missing entries are dropped, an off-path firstKeptEntryId
/// becomes the compaction's own id (it keeps nothing, as readers already took it), a missing
/// or non-id fromId points at the summary's parent, a title slot gets its pad, the final newline is
/// added. The
/// report lists every change. The input is never modified.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct FsckArgs {
    /// Session files or directories (default: the file given by -f).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write a repaired copy of the file to -o PATH.
    #[arg(long, requires = "output")]
    pub repair: bool,
    /// Where --repair writes the copy (`-` for standard output).
    #[arg(short = 'o', long = "output", value_name = "PATH", requires = "repair")]
    pub output: Option<PathBuf>,
    /// The working directory recorded in a header that --repair restores.
    #[arg(long, value_name = "DIR", requires = "repair")]
    pub cwd: Option<PathBuf>,
    /// Let --repair overwrite an existing -o PATH.
    #[arg(long, requires = "repair")]
    pub force: bool,
    /// Whose session the file is (omp or pi), when neither its contents nor its directory
    /// say; refused when they say otherwise. Nothing a repair writes differs between them.
    #[arg(long, value_enum, value_name = "AGENT", requires = "repair")]
    pub dialect: Option<DialectArg>,
    /// Print the problems only: no `FILE: ok` for a sound file (with --json, no object for
    /// it).
    #[arg(short, long, conflicts_with = "repair")]
    pub quiet: bool,
}

/// Runs `fsck`.
pub fn run(ctx: &Ctx, args: &FsckArgs) -> anyhow::Result<()> {
    if args.repair {
        let mut paths = args.paths.clone();
        if paths.is_empty() {
            paths.push(ctx.file()?.to_path_buf());
        }
        return repair(ctx, args, &paths);
    }
    // An unreadable path is reported in order, without hiding the others.
    let files = crate::cli::args::session_paths(ctx, &args.paths)?;
    for dir in args.paths.iter().filter(|p| p.is_dir()) {
        if !files.iter().any(|f| f.starts_with(dir)) {
            // Not silently: an empty check and a wrong directory look alike.
            eprintln!("note: no sessions in {}", sanitize_for_terminal(&dir.display().to_string()));
        }
    }
    let reports: Vec<Vec<Finding>> = files.par_iter().map(|f| fsck::check_file(f)).collect();
    let mut out = stdout();
    let mut failed = false;
    for (file, findings) in files.iter().zip(&reports) {
        failed |= !findings.is_empty();
        if args.quiet && findings.is_empty() {
            continue;
        }
        let name = file.display().to_string();
        if ctx.json {
            write_json_line(&mut out, &fsck::report_json(&name, findings))?;
        } else {
            write_findings(&mut out, &name, findings)?;
        }
    }
    out.flush()?;
    if failed {
        anyhow::bail!(Silent(Exit::Failed));
    }
    Ok(())
}

/// `FILE:LINE: KIND: MESSAGE` per problem, or `FILE: ok`.
fn write_findings(out: &mut impl Write, file: &str, findings: &[Finding]) -> anyhow::Result<()> {
    let file = sanitize_for_terminal(file);
    if findings.is_empty() {
        writeln!(out, "{file}: ok")?;
    }
    for f in findings {
        let at = f.line.map_or(String::new(), |l| format!(":{l}"));
        let message = sanitize_for_terminal(&f.message);
        writeln!(out, "{file}{at}: {}: {message}", f.kind.as_str())?;
    }
    Ok(())
}

fn repair(ctx: &Ctx, args: &FsckArgs, paths: &[PathBuf]) -> anyhow::Result<()> {
    let [input] = paths else {
        anyhow::bail!(Error::Usage("--repair takes exactly one file".into()));
    };
    let output = args.output.as_deref().expect("clap requires -o with --repair");
    let to_stdout = output.as_os_str() == "-";
    if !to_stdout && (store::same_file(input, output) || input == output) {
        anyhow::bail!(Error::Usage(format!(
            "{}: -o names the file itself; --repair never writes in place",
            output.display()
        )));
    }
    if input.is_dir() {
        anyhow::bail!(Error::Usage(format!("{}: --repair takes a file", input.display())));
    }
    let session = Session::load(input)?;
    certain_dialect(&session, args.dialect)?;
    let findings = fsck::check(&session)?;
    let cwd = match &args.cwd {
        Some(c) if c.is_relative() => Some(std::env::current_dir()?.join(c)),
        other => other.clone(),
    };
    let now_ms = ctx.clock()?.now_millis();
    let opts = RepairOptions { cwd: cwd.map(|c| c.display().to_string()), now_ms };
    let repaired = fsck::repair(&session, &opts, &mut ctx.ids())?;
    if to_stdout {
        let mut out = stdout();
        out.write_all(&repaired.bytes)?;
        out.flush()?;
    } else {
        let like = (input.as_os_str() != "-").then_some(input.as_path());
        store::write_new(output, &repaired.bytes, like, args.force)?;
    }

    // The report goes to stderr when the copy itself went to stdout.
    let mut report: Box<dyn Write> =
        if to_stdout { Box::new(std::io::stderr().lock()) } else { Box::new(stdout()) };
    let name = input.display().to_string();
    if ctx.json {
        let mut value = fsck::report_json(&name, &findings);
        value["output"] = output.display().to_string().into();
        value["changes"] = Value::Array(repaired.changes.iter().map(Change::to_json).collect());
        write_json_line(&mut report, &value)?;
    } else {
        write_findings(&mut report, &name, &findings)?;
        write_changes(&mut report, output, &repaired.changes)?;
    }
    report.flush()?;
    if !findings.is_empty() {
        // The input has problems, even though its copy is sound now.
        anyhow::bail!(Silent(Exit::Failed));
    }
    Ok(())
}

fn write_changes(out: &mut dyn Write, output: &Path, changes: &[Change]) -> anyhow::Result<()> {
    let output = if output.as_os_str() == "-" {
        "standard output".to_string()
    } else {
        sanitize_for_terminal(&output.display().to_string()).into_owned()
    };
    if changes.is_empty() {
        writeln!(out, "nothing to repair; copied to {output}")?;
        return Ok(());
    }
    writeln!(out, "repaired copy written to {output}:")?;
    for c in changes {
        let at = c.line.map_or_else(|| "file".to_string(), |l| format!("line {l}"));
        writeln!(out, "  {at}: {}: {}", c.kind.as_str(), sanitize_for_terminal(&c.message))?;
    }
    Ok(())
}
