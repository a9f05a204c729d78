//! `sesstree branch REV`: fork a new session file, as the agent's `/branch` does.

use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use sesstree::ops::branch::{self, Fork};
use sesstree::text::{sanitize_for_terminal, sanitize_keep_lines};
use sesstree::{Error, Session, rev, store};

use crate::cli::{Ctx, stdout, write_json_line};

/// Fork a new session file from the history before a user message.
///
/// As the agent's /branch: REV must be a user message. The new file holds the path from the
/// root to REV's parent; label entries are left out and the labels in effect on the kept
/// entries are re-created as a fresh chain at the end; archive records for entries not on the
/// path are dropped; an entry whose parent was dropped is re-linked to its nearest kept
/// ancestor. Kept lines are copied byte for byte. The header gets a new session id,
/// `parentSession` (the source's absolute path, symlinks resolved) and the session name; a
/// title slot is written when the source has one, and a pi file stays a pi file (its name
/// carried as a `session_info` entry). A root user message gives a file with only the header.
/// The source file is never changed.
///
/// The new file goes next to the source as `<timestamp>_<session-id>.jsonl`, or to `-o PATH`.
///
/// Output: the user message's text (the editor prefill) on stdout, and `Branched to PATH` on
/// stderr; with --json one object `{"path", "sessionId", "parentSession", "editorText"}`
/// (`editorText` is null with --through). With `-o -` stdout carries the new file and nothing
/// else.
///
/// Examples:
///   sesstree branch -f session.jsonl 3f2a9c1e
///   sesstree branch @~4 -o retry.jsonl
///   sesstree branch --through checkpoint-1
///   sesstree --json branch 3f2a | jq -r .path
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["rev", "through"])))]
pub struct BranchArgs {
    /// The user message to branch at; the new file holds the history before it.
    pub rev: Option<String>,
    /// Fork the path from the root to REV inclusive, whatever REV's type.
    #[arg(long, value_name = "REV")]
    pub through: Option<String>,
    /// Write the new file to PATH (`-` for standard output) instead of next to the source.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Overwrite an existing file at PATH.
    #[arg(long)]
    pub force: bool,
}

/// Runs `branch`.
pub fn run(ctx: &Ctx, args: &BranchArgs) -> anyhow::Result<()> {
    let file = ctx.file()?;
    if file.as_os_str() == "-" {
        return Err(Error::Usage(
            "branch needs the session file's path; it cannot read standard input".into(),
        )
        .into());
    }
    let to_stdout = args.output.as_deref().is_some_and(|o| o.as_os_str() == "-");
    if to_stdout && ctx.json {
        return Err(Error::Usage(
            "--json and -o - both write to standard output; give -o a path".into(),
        )
        .into());
    }
    let session = Session::load(file)?;
    ctx.report(&session)?;
    store::check_writable(&session)?;

    let (fork, editor_text) = match (&args.rev, &args.through) {
        (_, Some(through)) => (Fork::Through(rev::resolve(&session, through)?), None),
        (Some(r), None) => {
            let idx = rev::resolve(&session, r)?;
            (Fork::Before(idx), Some(branch::source_text(&session, idx)?))
        }
        (None, None) => unreachable!("clap requires REV or --through"),
    };

    let source = std::fs::canonicalize(file).map_err(|e| Error::io(file, e))?;
    let parent_session = source.to_string_lossy();
    let plan = branch::plan(&session, fork, &parent_session, &ctx.clock()?, &mut ctx.ids())?;

    if to_stdout {
        let mut out = stdout();
        plan.write_to(&session, &mut out, Path::new("-"))?;
        out.flush()?;
        return Ok(());
    }
    let target = match &args.output {
        Some(o) => std::path::absolute(o).map_err(|e| Error::io(o, e))?,
        None => {
            let dir = source.parent().unwrap_or(Path::new("/"));
            dir.join(branch::file_name(plan.created_ms, &plan.session_id))
        }
    };
    refuse_source(&target, &source)?;
    store::write_new_with(&target, Some(&source), args.force, |out| {
        plan.write_to(&session, out, &target)
    })?;

    let mut out = stdout();
    if ctx.json {
        let value = serde_json::json!({
            "path": target.to_string_lossy(),
            "sessionId": plan.session_id,
            "parentSession": parent_session,
            "editorText": editor_text,
        });
        write_json_line(&mut out, &value)?;
    } else {
        if let Some(text) = editor_text.as_deref().filter(|t| !t.is_empty()) {
            let text = sanitize_keep_lines(text);
            out.write_all(text.as_bytes())?;
            if !text.ends_with('\n') {
                out.write_all(b"\n")?;
            }
        }
        eprintln!("Branched to {}", sanitize_for_terminal(&target.to_string_lossy()));
    }
    out.flush()?;
    Ok(())
}

/// `-o` naming the source itself (or a hard link to it) is refused even with `--force`: the
/// source file is never touched.
fn refuse_source(target: &Path, source: &Path) -> anyhow::Result<()> {
    let (Ok(t), Ok(s)) = (std::fs::metadata(target), std::fs::metadata(source)) else {
        return Ok(());
    };
    if t.dev() == s.dev() && t.ino() == s.ino() {
        return Err(Error::Usage(format!(
            "{}: is the source session file; branch never overwrites it",
            target.display()
        ))
        .into());
    }
    Ok(())
}
