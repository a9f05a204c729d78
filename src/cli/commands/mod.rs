//! The subcommands, one file each, and the flat dispatch over them.

mod context;
mod humanize_title;
mod log;
mod show;
mod stats;
mod tree;

use clap::Subcommand;
use sesstree::text::FilterMode;

use super::Ctx;

/// Every subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show the path from the root to an entry, newest first.
    Log(log::LogArgs),
    /// Show the whole tree as the agent's tree selector draws it.
    Tree(tree::TreeArgs),
    /// Show the context the model would get from an entry.
    Context(context::ContextArgs),
    /// Show one entry in full.
    Show(show::ShowArgs),
    /// Count entries, branches, labels and token usage of one or many files.
    Stats(stats::StatsArgs),
    /// Turn plan titles into session names, as plan approval does.
    HumanizeTitle(humanize_title::HumanizeTitleArgs),
}

/// Runs a subcommand.
pub fn run(ctx: &Ctx, command: Command) -> anyhow::Result<()> {
    match command {
        Command::Log(args) => log::run(ctx, &args),
        Command::Tree(args) => tree::run(ctx, &args),
        Command::Show(args) => show::run(ctx, &args),
        Command::Context(args) => context::run(ctx, &args),
        Command::Stats(args) => stats::run(ctx, &args),
        Command::HumanizeTitle(args) => humanize_title::run(ctx, &args),
    }
}

/// `--filter` (FORMAT §9.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FilterArg {
    /// Everything except bookkeeping entries (labels, model and thinking changes, custom…).
    Default,
    /// `default` without tool results.
    NoTools,
    /// User requests only.
    UserOnly,
    /// Labelled entries only.
    LabeledOnly,
    /// Everything.
    All,
}

impl From<FilterArg> for FilterMode {
    fn from(arg: FilterArg) -> FilterMode {
        match arg {
            FilterArg::Default => FilterMode::Default,
            FilterArg::NoTools => FilterMode::NoTools,
            FilterArg::UserOnly => FilterMode::UserOnly,
            FilterArg::LabeledOnly => FilterMode::LabeledOnly,
            FilterArg::All => FilterMode::All,
        }
    }
}

/// The user's home directory, for shortening paths in tool rows.
fn home() -> Option<String> {
    std::env::var("HOME").ok().filter(|h| !h.is_empty())
}

/// A timestamp as `YYYY-MM-DD HH:MM:SS` when it is ISO-8601, else as written.
fn short_time(ts: Option<&str>) -> String {
    match ts {
        // `get` rather than slicing: byte 19 may fall inside a multi-byte character.
        Some(t) if t.as_bytes().get(10) == Some(&b'T') && t.get(11..19).is_some() => {
            format!("{} {}", &t[..10], &t[11..19])
        }
        Some(t) => t.to_string(),
        None => "-".to_string(),
    }
}

/// An id cut to 8 characters, as the agents' own ids are.
fn short_id(id: &str) -> &str {
    match id.char_indices().nth(8) {
        Some((i, _)) => &id[..i],
        None => id,
    }
}
