//! The subcommands, one file each, and the flat dispatch over them.

mod branch;
mod checkout;
mod context;
mod diff;
mod export;
mod fsck;
pub mod generate;
mod grep;
mod humanize_title;
mod import;
mod label;
mod log;
mod ls;
mod migrate;
mod name;
mod prune;
mod reflog;
pub(crate) mod show;
mod stats;
mod tree;

use clap::Subcommand;

use super::Ctx;

/// Every subcommand.
///
/// The variants carry no doc comment on purpose: the doc comment of each `…Args` struct is the
/// command's help and man page, and a variant's doc comment would replace it (clap derive takes
/// the variant's text and drops the struct's long help).
#[derive(Debug, Subcommand)]
#[allow(missing_docs)] // see above
pub enum Command {
    Log(log::LogArgs),
    Tree(tree::TreeArgs),
    Context(context::ContextArgs),
    Show(show::ShowArgs),
    Checkout(checkout::CheckoutArgs),
    Reflog(reflog::ReflogArgs),
    // The agents' name for a new file from a path (oh-my-pi's and pi's `/fork`); `branch`,
    // its first name, still works.
    #[command(name = "fork", visible_alias = "branch")]
    Branch(branch::BranchArgs),
    Stats(stats::StatsArgs),
    Label(label::LabelArgs),
    Name(name::NameArgs),
    HumanizeTitle(humanize_title::HumanizeTitleArgs),
    Migrate(migrate::MigrateArgs),
    Fsck(fsck::FsckArgs),
    Ls(ls::LsArgs),
    Grep(grep::GrepArgs),
    Diff(diff::DiffArgs),
    Export(export::ExportArgs),
    Prune(prune::PruneArgs),
    Import(import::ImportArgs),
}

impl Command {
    /// Whether its output goes through the pager on a terminal: the reading commands that
    /// print a lot, not the selector, not the writers.
    pub fn pages(&self) -> bool {
        match self {
            Command::Log(_)
            | Command::Show(_)
            | Command::Context(_)
            | Command::Reflog(_)
            | Command::Grep(_) => true,
            Command::Tree(args) => !args.interactive,
            _ => false,
        }
    }

    /// The REV argument of a command that takes one, where a `FILE:REV` may name an entry of
    /// another file than the session's (as `grep` prints them).
    fn rev_mut(&mut self) -> Option<&mut String> {
        match self {
            Command::Log(args) => Some(&mut args.rev),
            Command::Show(args) => Some(&mut args.rev),
            Command::Context(args) => Some(&mut args.rev),
            Command::Checkout(args) => Some(&mut args.rev),
            Command::Branch(args) => args.rev.as_mut(),
            Command::Label(args) => args.rev.as_mut(),
            Command::Export(args) => Some(&mut args.rev),
            _ => None,
        }
    }
}

/// Runs a subcommand: on the file a `FILE:REV` names, when its REV is one.
pub fn run(ctx: &Ctx, mut command: Command) -> anyhow::Result<()> {
    if let Some(rev) = command.rev_mut()
        && let Some((file, rest)) = crate::cli::file_rev(rev)
    {
        *rev = rest;
        // Only a writer says which file it wrote: looking for the current session costs a
        // directory scan that readers need not pay.
        let writes = matches!(command, Command::Checkout(_) | Command::Label(_));
        let ctx = if writes { ctx.with_rev_file(file) } else { ctx.with_file(file) };
        return dispatch(&ctx, command);
    }
    dispatch(ctx, command)
}

fn dispatch(ctx: &Ctx, command: Command) -> anyhow::Result<()> {
    match command {
        Command::Log(args) => log::run(ctx, &args),
        Command::Tree(args) => tree::run(ctx, &args),
        Command::Show(args) => show::run(ctx, &args),
        Command::Context(args) => context::run(ctx, &args),
        Command::Checkout(args) => checkout::run(ctx, &args),
        Command::Branch(args) => branch::run(ctx, &args),
        Command::Stats(args) => stats::run(ctx, &args),
        Command::Reflog(args) => reflog::run(ctx, &args),
        Command::Label(args) => label::run(ctx, &args),
        Command::Name(args) => name::run(ctx, &args),
        Command::HumanizeTitle(args) => humanize_title::run(ctx, &args),
        Command::Migrate(args) => migrate::run(ctx, &args),
        Command::Fsck(args) => fsck::run(ctx, &args),
        Command::Ls(args) => ls::run(ctx, &args),
        Command::Grep(args) => grep::run(ctx, &args),
        Command::Diff(args) => diff::run(ctx, &args),
        Command::Export(args) => export::run(ctx, &args),
        Command::Prune(args) => prune::run(ctx, &args),
        Command::Import(args) => import::run(ctx, &args),
    }
}
