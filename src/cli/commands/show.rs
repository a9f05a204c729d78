//! `sesstree show REV`: one entry in full.

use std::io::Write;

use sesstree::rev;

use crate::cli::complete;
use crate::cli::signals::leave_to_exit;
use crate::cli::{Ctx, readable, stdout};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The current leaf, for reading:
    sesstree -f session.jsonl show
  The original line of the entry whose id starts with 5c07, byte for byte:
    sesstree show 5c07 --raw
  The message of the parent of the entry labelled tests-green, through jq:
    sesstree show --json tests-green^ | jq .message"#;

/// Show one entry in full, as `git show` shows a commit.
///
/// REV defaults to `@`, the current leaf. First a header: the entry's id and type, the role of a
/// message, its parent, its time (in the local time zone; --utc for UTC) and its label. Then
/// its text whole, a message's tool calls with their arguments and the results that answer
/// them, or, for a tool result, the call it answers (and the calls the tool made itself, which
/// pi 1.6 records); for a pi system message, the prompt in effect there (the system messages
/// before it folded in) and what it changes. Entries of other kinds show their fields.
/// The same is printed to a pipe; --json prints the entry as the file has it, unknown fields
/// included, as one line of JSON (in a version 1 file, which has no ids, with the ids `migrate`
/// would give it), and --raw the original line of the file, byte for byte. Control characters
/// in the text are shown escaped.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct ShowArgs {
    /// The entry to show.
    #[arg(default_value = "@", add = complete::rev())]
    pub rev: String,
    /// Print the original JSONL line, byte for byte.
    #[arg(long)]
    pub raw: bool,
}

/// Runs `show`.
pub fn run(ctx: &Ctx, args: &ShowArgs) -> anyhow::Result<()> {
    let session = ctx.load()?;
    if session.is_empty() {
        anyhow::bail!(sesstree::Error::RevNotFound { rev: args.rev.clone() });
    }
    let idx = rev::resolve(&session, &args.rev)?;
    let mut out = stdout();
    if args.raw {
        out.write_all(&session.written_line(idx)?)?;
        out.write_all(b"\n")?;
    } else if ctx.json {
        out.write_all(&session.value_json(idx)?)?;
        out.write_all(b"\n")?;
    } else {
        let text = readable(ctx.style, &session, idx)?;
        // Everything from the file goes through the sanitizer, lines kept.
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    leave_to_exit(session);
    Ok(())
}
