//! `sesstree context [REV]`: the context the model would get from REV (FORMAT §8).

use std::io::Write;

use sesstree::context::path_values;
use sesstree::context::{build, into_json, render};
use sesstree::format::Dialect;
use sesstree::rev;

use crate::cli::complete;
use crate::cli::signals::leave_to_exit;
use crate::cli::{Ctx, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  How many messages the model would get from the current leaf:
    sesstree -f session.jsonl context --json | jq '.messages | length'
  A Markdown transcript of the context at the entry labelled checkpoint-1:
    sesstree context checkpoint-1 --format markdown > transcript.md
  The messages before conversion to model roles, built as pi would:
    sesstree context --flavor pi --agent-messages --json"#;

/// Show the context the model would get from REV (default `@`).
///
/// Rebuilds what the agent sends to the model from that point: the state tracked along the
/// path (thinking level, models, service tier, mode, TTSR rules, MCP tool selection), the latest
/// compaction's summary first, then the kept entries, then the rest, with branch and compaction
/// summaries rendered from the agent's templates. pi's system messages patch its prompt: --json
/// keeps each in its place, as pi does (a compaction's systemMessage before its summary); the
/// text and Markdown formats show the one prompt they fold into, first. pi's context edits
/// replace or omit what an earlier entry contributes. Without --flavor the flavour is detected
/// from the file (title slot, title_change or omp-style model_change: omp; session_info or
/// pi-style model_change: pi; otherwise omp).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct ContextArgs {
    /// The entry to build the context from.
    #[arg(default_value = "@", add = complete::rev())]
    pub rev: String,
    /// Whose templates and message shapes apply.
    #[arg(long, value_enum)]
    pub flavor: Option<FlavorArg>,
    /// Show the messages before conversion to the model's roles (branchSummary,
    /// compactionSummary, custom, ...).
    #[arg(long)]
    pub agent_messages: bool,
    /// Text output format (ignored with --json).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `--flavor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FlavorArg {
    /// oh-my-pi: templates, developer-role custom messages, post-passes.
    Omp,
    /// pi-mono: prefix/suffix wrappers, user-role custom messages, a single model.
    Pi,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Readable, one block per message.
    Text,
    /// A Markdown transcript to share.
    Markdown,
}

/// Runs `context`.
pub fn run(ctx: &Ctx, args: &ContextArgs) -> anyhow::Result<()> {
    let session = ctx.load()?;
    let flavor = match args.flavor {
        Some(FlavorArg::Omp) => Dialect::Omp,
        Some(FlavorArg::Pi) => Dialect::Pi,
        None => session.dialect(),
    };
    // `@` of a file whose last record has no id falls back to the last record (FORMAT §8.1);
    // a move to before the first prompt leaves no position: the empty context.
    let target = if args.rev == "@" && session.leaf().is_none() {
        session.records.len().checked_sub(1).map(|i| i as u32)
    } else if args.rev == "@" {
        session.position()?
    } else if session.is_empty() {
        anyhow::bail!(sesstree::Error::RevNotFound { rev: args.rev.clone() });
    } else {
        Some(rev::resolve(&session, &args.rev)?)
    };
    // Only what the context can show is parsed in full (see `path_values`).
    let path = target.map(|t| path_values(&session, t)).transpose()?.unwrap_or_default();
    let leaf_id = target.and_then(|t| session.record(t).id.as_ref().map(|i| i.to_value()));
    let context = build(path, leaf_id.as_ref(), flavor);
    let mut out = stdout();
    if ctx.json {
        write_json_line(&mut out, &into_json(context, args.agent_messages))?;
    } else {
        let blobs = crate::cli::places().omp_blobs();
        let markdown = args.format == Format::Markdown;
        let text = render(context, args.agent_messages, Some(&blobs), markdown);
        out.write_all(text.as_bytes())?;
        if !text.ends_with('\n') {
            out.write_all(b"\n")?;
        }
    }
    out.flush()?;
    leave_to_exit(session);
    Ok(())
}
