//! `sesstree stats FILE...`: counts per file, computed in parallel.

use std::io::Write;
use std::path::PathBuf;

use rayon::prelude::*;
use sesstree::Session;
use sesstree::session::Diagnostic;
use sesstree::stats::{Stats, Usage, compute};
use sesstree::terminal::sanitize_for_terminal;

use crate::cli::exit::{Silent, classify};
use crate::cli::ui::{Role, count};
use crate::cli::{Ctx, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Entries, shape, labels and token usage of one session:
    sesstree stats session.jsonl
  The cost of every session under the agent's directory, one JSON object per file:
    sesstree stats --json ~/.omp/agent/sessions | jq .usage.cost"#;

/// Count entries, branches, labels and token usage of one or many files.
///
/// Per file: entries by type, roots, leaves, branch points, depth, labels, name, and the usage
/// totals (tokens and cost) for the whole file and for the active path; over several files, a
/// text listing ends with their totals (with --json, one object a file). Directories are
/// searched for `*.jsonl`; files are read in parallel.
///
/// Usage is what the agents count: assistant messages, pi's `usage` entries and the usage pi
/// records on tool results, compactions and branch summaries, oh-my-pi's `model_usage` entries
/// and `task` results. The file's cost is also broken down as pi's /session does (by
/// `provider/model`, and `Tools/summaries` for tool results and summaries; in --json,
/// `costBreakdown`).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct StatsArgs {
    /// Session files or directories (default: the file given by -f).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Where the bytes are instead: by entry type, inline images, tool output, the active
    /// path and the rest (what `prune --abandoned` would remove at most).
    #[arg(long)]
    pub bytes: bool,
}

/// Runs `stats`.
pub fn run(ctx: &Ctx, args: &StatsArgs) -> anyhow::Result<()> {
    let files = crate::cli::args::session_paths(ctx, &args.paths)?;
    if args.bytes {
        return bytes(ctx, &files);
    }
    let results: Vec<_> = files
        .par_iter()
        // Keep only the counts and the warnings: a loaded session holds its file open, and a
        // directory of thousands of sessions would run out of file descriptors.
        .map(|f| -> anyhow::Result<(Vec<Diagnostic>, Stats)> {
            let s = Session::load(f)?;
            if ctx.strict {
                s.strict()?;
            }
            s.require_readable()?;
            let stats = compute(&s)?;
            Ok((s.diagnostics, stats))
        })
        .collect();
    let mut out = stdout();
    let mut first_error = None;
    // Over every file shown, for the closing total of a text listing of several.
    let (mut shown, mut entries) = (0usize, 0usize);
    let (mut usage, mut path_usage) = (Usage::default(), Usage::default());
    for (file, result) in files.iter().zip(results) {
        let (diagnostics, stats) = match result {
            Ok(r) => r,
            Err(e) => {
                // One bad file does not hide the others; the first error sets the exit status.
                eprintln!("error: {}", sanitize_for_terminal(&format!("{e:#}")));
                first_error.get_or_insert(e);
                continue;
            }
        };
        crate::cli::ui::warn_lines(file, diagnostics.iter().map(|d| (d.line, &*d.message)));
        if ctx.json {
            write_json_line(&mut out, &stats.to_json(&file.display().to_string()))?;
        } else {
            write_text(ctx, &mut out, &file.display().to_string(), &stats)?;
        }
        shown += 1;
        entries += stats.entries;
        usage.add_usage(&stats.usage);
        path_usage.add_usage(&stats.path_usage);
    }
    if shown > 1 && !ctx.json {
        writeln!(out, "{}", ctx.style.paint(&format!("total ({shown} files)"), Role::Id))?;
        writeln!(out, "  entries:       {entries}")?;
        writeln!(out, "  usage (files): {}", usage_line(&usage))?;
        writeln!(out, "  usage (paths): {}", usage_line(&path_usage))?;
    }
    out.flush()?;
    // Printed above already, with the other files' errors.
    first_error.map_or(Ok(()), |e| Err(Silent(classify(&e).0).into()))
}

/// `stats --bytes`: where each file's bytes are ([`sesstree::bytes`]), file by file.
fn bytes(ctx: &Ctx, files: &[PathBuf]) -> anyhow::Result<()> {
    let mut out = stdout();
    let mut first_error = None;
    for file in files {
        let report = Session::load(file).and_then(|s| {
            crate::cli::ui::warn_lines(file, s.diagnostics.iter().map(|d| (d.line, &*d.message)));
            s.require_readable()?;
            sesstree::bytes::report(&s)
        });
        let shown = file.display().to_string();
        match report {
            Ok(r) if ctx.json => write_json_line(&mut out, &r.to_json(&shown))?,
            Ok(r) => {
                writeln!(out, "{}", ctx.style.paint(&sanitize_for_terminal(&shown), Role::Id))?;
                for line in r.to_text() {
                    writeln!(out, "{}", sanitize_for_terminal(&line))?;
                }
            }
            Err(e) => {
                out.flush()?;
                eprintln!("error: {}", sanitize_for_terminal(&e.to_string()));
                first_error.get_or_insert(anyhow::Error::from(e));
            }
        }
    }
    out.flush()?;
    first_error.map_or(Ok(()), |e| Err(Silent(classify(&e).0).into()))
}

fn write_text(ctx: &Ctx, out: &mut impl Write, file: &str, s: &Stats) -> anyhow::Result<()> {
    let style = ctx.style;
    writeln!(out, "{}", style.paint(&sanitize_for_terminal(file), Role::Id))?;
    if let Some(name) = &s.name {
        writeln!(out, "  name:          {}", sanitize_for_terminal(name))?;
    }
    let types: Vec<String> = s
        .by_type
        .iter()
        .map(|(t, n)| {
            let t = if t.is_empty() { "(no type)" } else { t };
            format!("{} {n}", sanitize_for_terminal(t))
        })
        .collect();
    writeln!(out, "  entries:       {} ({})", s.entries, types.join(", "))?;
    writeln!(
        out,
        "  shape:         {}, {}, {}, depth {}",
        count(s.roots, "root", "roots"),
        count(s.leaves, "leaf", "leaves"),
        count(s.branch_points, "branch point", "branch points"),
        s.depth
    )?;
    writeln!(out, "  labels:        {}", s.labels)?;
    if s.problems > 0 {
        writeln!(out, "  problems:      {} (see the warnings)", s.problems)?;
    }
    writeln!(out, "  usage (file):  {}", usage_line(&s.usage))?;
    let breakdown = s.cost_breakdown();
    // A single key repeats the total.
    if breakdown.len() > 1 {
        for (key, cost, tokens) in breakdown {
            let key = sanitize_for_terminal(key);
            writeln!(out, "    {key}: ${cost:.4} ({tokens} tokens)")?;
        }
    }
    writeln!(out, "  usage (path):  {}", usage_line(&s.path_usage))?;
    Ok(())
}

fn usage_line(u: &Usage) -> String {
    let [input, output, cache_read, cache_write, total, .., premium, cost, subagent_cost] = u.0;
    let mut line = format!(
        "{input} in, {output} out, {cache_read} cache read, {cache_write} cache write, {total} \
         total tokens, cost ${cost:.4}"
    );
    if premium != 0.0 {
        line.push_str(&format!(", {premium} premium requests"));
    }
    if subagent_cost != 0.0 {
        line.push_str(&format!(" (subagents ${subagent_cost:.4})"));
    }
    line
}
