//! `sesstree humanize-title TITLE...`: the session name plan approval would give (FORMAT §10.3).

use std::io::{BufRead, Write};

use sesstree::naming::humanize_plan_title;

use crate::cli::{Ctx, stdout, ui, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The name plan approval gives the plan "migrate-mcp-loader" (Migrate mcp loader):
    sesstree humanize-title migrate-mcp-loader
  One name per plan file:
    ls plans/ | sesstree humanize-title"#;

/// Turn plan titles into session names, as plan approval does.
///
/// Runs of `-` and `_` become one space, the result is trimmed, and only its first character
/// is upper-cased. Without TITLE, each line of standard input is one title. An empty result
/// prints as an empty line.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
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
