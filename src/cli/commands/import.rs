//! `sesstree import FILE`: a Claude Code transcript or a Codex rollout as an oh-my-pi or pi
//! session.

use std::path::PathBuf;

use sesstree::ops::import::{self, Source};
use sesstree::{Error, Session, store};

use crate::cli::args::DialectArg;
use crate::cli::{Ctx, stdout, ui, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Import a Claude Code transcript into oh-my-pi's sessions for its working directory:
    sesstree import claude.jsonl
  Import it as a pi session into a file of your choice; the new file's path, for a script:
    sesstree --json import claude.jsonl --to pi -o imported.jsonl | jq -r .path"#;

/// Make an oh-my-pi or pi session of a Claude Code or Codex transcript
///
/// With --to omp (the default), writes what oh-my-pi's own importer (`omp --from-claude`,
/// `--from-codex`, `/resume @claude`, oh-my-pi 18.2.3) makes of the transcript.
///
/// A Claude Code transcript: the same entries with the same ids
/// (`claude-<uuid>-<part>-<n>`), their tree (a rewound or edited prompt stays a branch), a
/// `model_change` where the model changes, the title (`custom-title`, else `ai-title`) in the
/// title slot, the header and a `title_change`, and last a `custom` entry
/// `foreign_session_import` naming the source. The leaf is the last message of the last
/// main-chain record, where oh-my-pi resumes. As oh-my-pi's importer, it leaves out sidechains
/// (subagents), `isMeta` records and system records, and a compaction's summary starts a new
/// root: `sesstree tree` on the transcript itself shows more (compactions joined to their
/// logical parents, sidechains where they hang). As that importer, it reads the transcript
/// alone, not the subagents' files beside it (`<session>/subagents/`).
///
/// A Codex rollout: the items left after its rollbacks (`thread_rolled_back` takes turns back)
/// in one chain, named `codex-<n>`, the events that repeat a response item left out, a
/// `model_change` where `turn_context` names another model, compactions that keep nothing
/// before them, the thread's name (`thread_name_updated`) as an automatic title. `sesstree
/// tree` on the rollout itself draws the rolled-back turns as an abandoned branch.
///
/// With --to pi, the same entries in pi's shapes (pi 1.6.0 cannot import): no title slot, a
/// `model_change` with `provider` and `modelId`, and a `session_info` naming the session. A
/// transcript without a message outside sidechains (a subagent's file) is refused: pi writes
/// no session without one.
///
/// `FILE:REV` (REV as sesstree names the transcript's entries: a Claude record's uuid, a Codex
/// `L<line>`) imports the transcript as it stood when REV's record was written: its lines up to
/// that record's, so that REV's branch is the one continued.
///
/// The new file gets a new session id and goes into the agent's sessions directory for the
/// transcript's working directory, as `<timestamp>_<session-id>.jsonl`, or to `-o PATH`. The
/// transcript is never changed.
///
/// Output: `Imported to PATH` on stderr; with --json one object `{"path", "sessionId"}`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct ImportArgs {
    /// The transcript: Claude Code's (`~/.claude/projects/<dir>/<session-id>.jsonl`) or
    /// Codex's (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`); `FILE:REV`
    /// imports it as it stood when REV's record was written (its lines up to that one).
    #[arg(value_name = "FILE[:REV]")]
    pub file: PathBuf,
    /// The agent whose session to write.
    #[arg(long, value_enum, value_name = "AGENT", default_value = "omp")]
    pub to: DialectArg,
    /// Write the new file to PATH instead of the agent's sessions directory.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Overwrite an existing file at PATH.
    #[arg(long)]
    pub force: bool,
}

/// Runs `import`.
pub fn run(ctx: &Ctx, args: &ImportArgs) -> anyhow::Result<()> {
    let named = args.file.to_str().filter(|_| !args.file.is_file());
    let (file, rev) = match named.and_then(crate::cli::file_rev) {
        Some((file, rev)) => (file, Some(rev)),
        None => (args.file.clone(), None),
    };
    let file = &file;
    let mut input = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let Some(foreign) = Session::foreign_format(&input) else {
        anyhow::bail!(Error::Usage(format!(
            "{}: not a Claude Code or Codex transcript; import reads those",
            file.display()
        )));
    };
    if let Some(rev) = rev {
        // The transcript as it stood when REV's record was written: its lines up to that one.
        let session = Session::from_bytes(file, input.clone())?;
        let record = sesstree::rev::resolve(&session, &rev)?;
        if let Some((other, _)) = session.written_at(record).filter(|(p, _)| *p != file) {
            anyhow::bail!(Error::Usage(format!(
                "{rev} is in {}, a subagent's file, which import leaves out as oh-my-pi's \
                 importer does",
                other.display()
            )));
        }
        let line = session.record(record).line;
        let end = memchr::memchr_iter(b'\n', &input).nth(line as usize - 1);
        input.truncate(end.map_or(input.len(), |at| at + 1));
    }
    let path = sesstree::platform::canonicalize(file).map_err(|e| Error::io(file, e))?;
    let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
    let modified_ms = modified
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as i64);
    let imported = foreign.import(&input, modified_ms, args.to.dialect());
    let stem = || path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let source = Source {
        agent: foreign.source(),
        id: imported.session_id.clone().unwrap_or_else(stem),
        path: path.to_string_lossy().into_owned(),
    };
    let plan = import::plan(imported, &source, args.to.dialect(), &ctx.clock()?, &mut ctx.ids())?;
    let target = match &args.output {
        Some(o) => std::path::absolute(o).map_err(|e| Error::io(o, e))?,
        None => {
            let places = crate::cli::places();
            let root = places.roots().into_iter().find(|r| r.agent == args.to.dialect());
            let dir = root.and_then(|r| places.cwd_dirs(&r, plan.cwd.as_ref()).into_iter().next());
            let dir = dir.ok_or_else(|| Error::Usage("no sessions directory for it".into()))?;
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            dir.join(sesstree::ops::branch::file_name(plan.created_ms, &plan.session_id))
        }
    };
    store::write_new(&target, &plan.bytes, None, args.force)?;
    if ctx.json {
        let value = serde_json::json!({
            "path": target.to_string_lossy(),
            "sessionId": plan.session_id,
        });
        write_json_line(&mut stdout(), &value)?;
    } else {
        eprintln!("Imported to {}", ui::show(&target.to_string_lossy()));
    }
    Ok(())
}
