//! `sesstree generate man|completions DIR` (hidden): writes the man pages or the static shell
//! completion scripts that are committed under `man/` and `completions/`.
//!
//! A hidden subcommand rather than an xtask or build.rs (ripgrep's `rg --generate` is the
//! precedent): packagers can run it from the built binary, and tests/cli/generated.rs runs it
//! to check that the committed files still match the binary. Output is deterministic.
//!
//! It is not a variant of `Command`: it documents that command line, and the static completion
//! scripts would offer even a hidden subcommand. `cli::parse` adds it for parsing only.

use std::path::PathBuf;

use anyhow::Context as _;
use clap_complete::Shell;

/// Write the man pages or the shell completion scripts into DIR.
///
/// `man` writes sesstree.1 and one sesstree-COMMAND.1 per subcommand; `completions` writes
/// sesstree.bash, _sesstree (zsh), sesstree.fish, sesstree.elv and _sesstree.ps1. These static
/// scripts complete commands and options; `source <(COMPLETE=bash sesstree)` and its
/// equivalents also complete entry ids and labels. Regenerate the committed copies with
/// scripts/regen-docs.sh.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct GenerateArgs {
    /// What to generate.
    #[arg(value_enum)]
    pub what: What,
    /// The directory to write into (created if missing).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// The examples of `--help`.
const EXAMPLES: &str = r#"Examples:
  Regenerate the committed man pages and completion scripts:
    sesstree generate man man && sesstree generate completions completions"#;

/// `generate WHAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum What {
    /// Man pages, one per subcommand.
    Man,
    /// Completion scripts for bash, zsh, fish, elvish and powershell.
    Completions,
}

/// The shells whose static scripts are committed.
const SHELLS: [Shell; 5] = [Shell::Bash, Shell::Zsh, Shell::Fish, Shell::Elvish, Shell::PowerShell];

/// The name `generate` is parsed under.
pub const NAME: &str = "generate";

/// The root command with the hidden `generate` added, for parsing.
pub fn with_generate(root: clap::Command) -> clap::Command {
    use clap::Args as _;
    root.subcommand(GenerateArgs::augment_args(clap::Command::new(NAME)).hide(true))
}

/// Runs `generate`.
pub fn run(args: &GenerateArgs) -> anyhow::Result<()> {
    let dir = &args.dir;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut cmd = crate::cli::command();
    match args.what {
        What::Man => crate::cli::man::write_pages(cmd, dir)
            .with_context(|| format!("writing man pages into {}", dir.display()))?,
        What::Completions => {
            for shell in SHELLS {
                clap_complete::generate_to(shell, &mut cmd, "sesstree", dir).with_context(
                    || format!("writing {shell} completions into {}", dir.display()),
                )?;
            }
        }
    }
    Ok(())
}
