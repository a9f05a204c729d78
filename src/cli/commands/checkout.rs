//! `sesstree checkout REV`: moves the leaf in the same file, as the agent's `/tree` navigation
//! does, optionally leaving a summary of the abandoned branch at the destination. Appends a
//! `branch_summary` (a summary, or the empty marker that persists a bare move) and, with
//! `--label`, a `label` entry.

use std::path::PathBuf;

use sesstree::Error;
use sesstree::hooks::Hooks;
use sesstree::ops::checkout::{self, SummarySource};
use sesstree::process::CancelToken;
use sesstree::summarize;

use crate::cli::args::{DialectArg, HookArgs};
use crate::cli::write::{self, CheckoutRequest};
use crate::cli::{Ctx, complete};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Go back to the entry labelled checkpoint-1, leaving a summary of the abandoned branch there:
    sesstree -f session.jsonl checkout checkpoint-1 --summary "Tried serde; the machine is offline."
  Edit the user request 5c07a3d4 again: its text is printed and the leaf moves to its parent:
    sesstree checkout 5c07a3d4
  Have a summarizer command write the summary of the abandoned entries:
    SESSTREE_SUMMARIZER='llm -m gpt-5' sesstree checkout @~4 --summarize
  Show what would be appended, as JSON, and write nothing:
    sesstree checkout 13c9 --dry-run --json"#;

/// Move the leaf to REV, as the agent's /tree navigation does
///
/// oh-my-pi's /branch and /rewind (since 18.1.3) rewind in place the same way.
///
/// A user message (or a custom message) as REV moves the leaf to its parent and prints the
/// message's text, ready to edit and send again; any other entry becomes the leaf. The move is
/// appended to the file: a branch_summary under the new leaf, holding the summary of the
/// abandoned branch when one is given, or an empty marker otherwise, so the agent resumes at
/// the new leaf. REV equal to the current leaf changes nothing ("Already at this point"), and
/// so does a user message whose parent is already the leaf (checking it out again): its text
/// is printed again, nothing is written.
///
/// Hooks: the executables session_before_tree (may cancel or supply the summary) and
/// session_tree (told after the move) in the hooks directory get the event as JSON on stdin.
/// A session_before_tree hook that fails, prints something that is not JSON, or runs past
/// --hook-timeout cancels the checkout (exit 7); nothing is written. session_tree runs after
/// the write: when it fails, the move stays and sesstree exits 1.
///
/// Locking: the file stays locked from loading it until the move is written, that is while
/// session_before_tree and the summarizer (which has no time limit) run. Other sesstree
/// writers wait for the lock up to 10 s and then exit 5, and a hook must not write the file
/// itself. The agents do not lock: if one appends meanwhile, nothing is written (exit 5) and
/// the summary made so far is lost. session_tree runs once the lock is released, so it may
/// run sesstree on the file.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct CheckoutArgs {
    /// The entry to move to.
    #[arg(add = complete::rev())]
    pub rev: String,
    /// Summary of the abandoned branch, stored at the destination as given.
    #[arg(long, value_name = "TEXT", group = "summary_source")]
    pub summary: Option<String>,
    /// Read the summary from a file (`-` for standard input).
    #[arg(long, value_name = "FILE", group = "summary_source")]
    pub summary_file: Option<PathBuf>,
    /// Have the summarizer (or the session_before_tree hook) write the summary.
    #[arg(long, group = "summary_source")]
    pub summarize: bool,
    /// The command that summarizes: it reads the abandoned branch as a transcript plus
    /// instructions on stdin and prints the summary (run with `sh -c`, on Windows `cmd /C`).
    #[arg(long, value_name = "CMD", env = "SESSTREE_SUMMARIZER")]
    pub summarizer: Option<String>,
    /// Extra instructions for the summarizer, appended to the default ones.
    #[arg(long, value_name = "TEXT", requires = "summarize")]
    pub instructions: Option<String>,
    /// Use --instructions instead of the default instructions.
    #[arg(long, requires = "instructions")]
    pub replace_instructions: bool,
    /// Label the summary entry, or REV when there is no summary (trimmed as `label` trims it;
    /// a blank TEXT labels nothing).
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
    /// Print the entries that would be appended; write nothing and run no hooks.
    #[arg(long)]
    pub dry_run: bool,
    /// Whose session the file is (omp or pi), when neither its contents nor its directory
    /// say; refused when they say otherwise. It picks how the summarizer's summary lists the files
    /// (oh-my-pi's `<files>` block, pi's `<read-files>`/`<modified-files>`) and what the
    /// branch_summary's fromId names (pi: the leaf being left; oh-my-pi: the new leaf).
    #[arg(long, value_enum, value_name = "AGENT")]
    pub dialect: Option<DialectArg>,
    /// Hooks.
    #[command(flatten)]
    pub hooks: HookArgs,
}

/// Runs `checkout`.
pub fn run(ctx: &Ctx, args: &CheckoutArgs) -> anyhow::Result<()> {
    let cancel = CancelToken::default();
    let hooks = match args.dry_run {
        true => Hooks::disabled(),
        false => args.hooks.hooks(&cancel, checkout::HOOK_EVENTS),
    };
    let summary = match given_summary(args)? {
        Some(text) => SummarySource::Given(text),
        None if args.summarize => SummarySource::Summarize {
            summarizer: args.summarizer.clone(),
            instructions: summarize::instructions(
                args.instructions.as_deref(),
                args.replace_instructions,
            ),
        },
        None => SummarySource::None,
    };
    write::checkout(
        ctx,
        CheckoutRequest {
            rev: &args.rev,
            summary,
            label: args.label.as_deref(),
            dialect: args.dialect,
            dry_run: args.dry_run,
            hooks: &hooks,
            cancel: &cancel,
        },
    )
}

/// `--summary` or the contents of `--summary-file`.
fn given_summary(args: &CheckoutArgs) -> anyhow::Result<Option<String>> {
    if let Some(text) = &args.summary {
        return Ok(Some(text.clone()));
    }
    let Some(path) = &args.summary_file else { return Ok(None) };
    let text = match path.as_os_str() == "-" {
        true => std::io::read_to_string(std::io::stdin()),
        false => std::fs::read_to_string(path),
    };
    let text = text.map_err(|e| Error::io(path, e))?;
    // An editor ends the file with a newline; it is not part of the summary.
    Ok(Some(text.trim_end().to_string()))
}
