//! `sesstree show REV`: one entry in full.

use std::io::Write;

use sesstree::rev;

use crate::cli::{Ctx, stdout, write_json_line};

/// Show one entry in full, as pretty JSON
///
/// Examples:
///   sesstree show @
///   sesstree show a1b2 --raw
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct ShowArgs {
    /// The entry to show.
    #[arg(default_value = "@")]
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
        write_json_line(&mut out, &session.value(idx)?)?;
    } else {
        // serde_json escapes C0 controls but not DEL or C1 (a lone 0x9b starts a CSI on some
        // terminals), so the text still goes through the sanitizer.
        let pretty = serde_json::to_string_pretty(&session.value(idx)?)?;
        writeln!(out, "{}", sesstree::text::sanitize_keep_lines(&pretty))?;
    }
    out.flush()?;
    Ok(())
}
