//! `sesstree show REV`: one entry in full.

use std::io::Write;

use sesstree::rev;

use super::leave_to_exit;
use crate::cli::complete;
use crate::cli::{Ctx, stdout};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The current leaf as pretty JSON:
    sesstree -f session.jsonl show
  The original line of the entry whose id starts with 5c07, byte for byte:
    sesstree show 5c07 --raw
  The message of the parent of the entry labelled tests-green, through jq:
    sesstree show --json tests-green^ | jq .message"#;

/// Show one entry in full, as pretty JSON.
///
/// REV defaults to `@`, the current leaf. The entry is shown as the file has it, unknown fields
/// included; in a version 1 file, which has no ids, it carries the ids `migrate` would give it.
/// Control characters in the text are shown escaped. --json prints the same object on one
/// line, and --raw the original line of the file, byte for byte.
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
        return Err(sesstree::Error::RevNotFound { rev: args.rev.clone() }.into());
    }
    let idx = rev::resolve(&session, &args.rev)?;
    let mut out = stdout();
    if args.raw {
        out.write_all(&session.raw_line(idx)?)?;
        out.write_all(b"\n")?;
    } else if ctx.json {
        out.write_all(&session.value_json(idx, false)?)?;
        out.write_all(b"\n")?;
    } else {
        // serde_json escapes C0 controls but not DEL or C1 (a lone 0x9b starts a CSI on some
        // terminals), so the text still goes through the sanitizer.
        let pretty = String::from_utf8(session.value_json(idx, true)?)?;
        writeln!(out, "{}", sesstree::terminal::sanitize_keep_lines(&pretty))?;
    }
    out.flush()?;
    leave_to_exit(session);
    Ok(())
}
