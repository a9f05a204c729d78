//! `sesstree humanize-title TITLE...`: the session name plan approval would give (FORMAT §10.3).

use std::io::{BufRead, Write};

use sesstree::naming::humanize_plan_title;

use crate::cli::{Ctx, stdout, ui, write_json_line};

/// Turn plan titles into session names, as plan approval does
///
/// Runs of `-` and `_` become one space, the result is trimmed, and only its first character
/// is upper-cased. Without TITLE, each line of standard input is one title. An empty result
/// prints as an empty line.
///
/// Examples:
///   sesstree humanize-title migrate-mcp-loader      # Migrate mcp loader
///   ls plans/ | sesstree humanize-title
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct HumanizeTitleArgs {
    /// The plan titles.
    #[arg(value_name = "TITLE", allow_hyphen_values = true)]
    pub titles: Vec<String>,
}

/// Runs `humanize-title`.
pub fn run(ctx: &Ctx, args: &HumanizeTitleArgs) -> anyhow::Result<()> {
    let mut out = stdout();
    let mut emit = |title: &str| -> anyhow::Result<()> {
        let name = humanize_plan_title(title);
        if ctx.json {
            write_json_line(&mut out, &serde_json::json!({"title": title, "name": name}))
        } else {
            // The name goes to a terminal: clean control characters like `name` does.
            writeln!(out, "{}", ui::show(&name))?;
            Ok(())
        }
    };
    if args.titles.is_empty() {
        for line in std::io::stdin().lock().lines() {
            emit(&line?)?;
        }
    } else {
        for t in &args.titles {
            emit(t)?;
        }
    }
    out.flush()?;
    Ok(())
}
