//! The arguments several commands share: `--dialect`, `--filter`, the hook options, and the
//! session files of the commands that take many.

use std::path::PathBuf;
use std::time::Duration;

use sesstree::Session;
use sesstree::format::Dialect;
use sesstree::hooks::Hooks;
use sesstree::process::CancelToken;
use sesstree::row::text::FilterMode;

use crate::cli::Ctx;

/// `--dialect`, which every writer takes: whose session the file is, for a file that does not
/// say so for certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DialectArg {
    /// oh-my-pi: title slot and `title_change`.
    Omp,
    /// pi: `session_info`, no title slot.
    Pi,
}

impl DialectArg {
    /// The agent it names.
    pub fn dialect(self) -> Dialect {
        match self {
            DialectArg::Omp => Dialect::Omp,
            DialectArg::Pi => Dialect::Pi,
        }
    }
}

/// The agent whose session `session` certainly is: what only one agent writes in it (a title
/// slot, entry types and fields, [`Session::certain_dialect`]), else the agent whose sessions
/// directory holds it ([`sesstree::discover::Places::agent_of`]), else `--dialect`. `None`
/// when nothing says: a writer that would add what only one agent understands must then ask
/// for `--dialect`. A `--dialect` that the file's own contents or its directory contradict is
/// refused (exit 2): the flag is for a file that does not say.
pub fn certain_dialect(
    session: &Session,
    flag: Option<DialectArg>,
) -> sesstree::Result<Option<Dialect>> {
    let flag = flag.map(DialectArg::dialect);
    let (known, why) = match session.certain_dialect() {
        Some(d) => (Some(d), "its entries or its title slot say"),
        None => (
            crate::cli::places().agent_of(&session.path),
            "it lies in that agent's sessions directory",
        ),
    };
    match (known, flag) {
        (Some(known), Some(flag)) if known != flag => Err(sesstree::Error::Usage(format!(
            "{}: this is {}'s session ({why}); --dialect {} does not fit it",
            session.path.display(),
            if known == Dialect::Omp { "oh-my-pi" } else { "pi" },
            flag.as_str()
        ))),
        (known, flag) => Ok(known.or(flag)),
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

/// The session files of the commands that take many (`fsck`, `stats`, `migrate`): each path a
/// file, or a directory searched for `*.jsonl`; without paths, the session of `-f` (or the
/// current directory's). A path that cannot be read stays in the list, in its place, so that
/// the command reports it with the others.
pub fn session_paths(ctx: &Ctx, paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    if paths.is_empty() {
        return Ok(vec![ctx.file()?.to_path_buf()]);
    }
    let files = paths.iter().flat_map(|p| {
        sesstree::discover::session_files(std::slice::from_ref(p), false)
            .unwrap_or_else(|_| vec![p.clone()])
    });
    Ok(files.collect())
}

/// The hook options shared by the commands that fire hooks (`checkout`, `branch`):
/// `#[command(flatten)] hooks: HookArgs`, then `args.hooks.hooks(&cancel, events)`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HookArgs {
    /// The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or
    /// ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a
    /// hook's name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat).
    #[arg(long, value_name = "DIR")]
    pub hooks_dir: Option<PathBuf>,
    /// Run no hooks.
    #[arg(long)]
    pub no_hooks: bool,
    /// Stop a hook that runs longer than SECS seconds, and cancel.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = parse_secs)]
    pub hook_timeout: Duration,
}

impl HookArgs {
    /// The hooks these options select, interrupted by `cancel`; says which hooks of `events`
    /// are there but ignored, not being executable.
    pub fn hooks(&self, cancel: &CancelToken, events: [&str; 2]) -> Hooks {
        if self.no_hooks {
            return Hooks::disabled();
        }
        // Absolute, so that a hook path never reads as a command name to look up in PATH.
        let dir = self.hooks_dir.clone().or_else(default_hooks_dir);
        let dir = dir.map(|d| std::path::absolute(&d).unwrap_or(d));
        let hooks = Hooks::new(dir, self.hook_timeout, cancel.clone());
        for path in events.into_iter().filter_map(|event| hooks.ignored(event)) {
            eprintln!("hint: {} is not executable and was ignored (chmod +x it)", path.display());
        }
        hooks
    }
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs.is_finite() => Ok(Duration::from_secs_f64(secs)),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// The hooks directory when `--hooks-dir` is not given ([`hooks_dir_in`]).
fn default_hooks_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    let appdata = if cfg!(windows) { var("APPDATA") } else { None };
    hooks_dir_in(var("XDG_CONFIG_HOME"), appdata, sesstree::discover::home_dir)
}

/// `$XDG_CONFIG_HOME/sesstree/hooks` (an absolute XDG_CONFIG_HOME only, as the XDG spec says),
/// else on Windows `%APPDATA%\sesstree\hooks` (where programs keep their settings there),
/// else `~/.config/sesstree/hooks`.
fn hooks_dir_in(
    xdg: Option<PathBuf>,
    appdata: Option<PathBuf>,
    home: impl FnOnce() -> Option<PathBuf>,
) -> Option<PathBuf> {
    let config = xdg
        .filter(|p| p.is_absolute())
        .or_else(|| appdata.filter(|p| p.is_absolute()))
        .or_else(|| Some(home()?.join(".config")))?;
    Some(config.join("sesstree").join("hooks"))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::hooks_dir_in;

    #[test]
    fn the_hooks_directory_is_xdg_s_then_appdata_s_then_under_home() {
        let abs = |p: &str| Some(std::path::absolute(p).unwrap());
        let home = || Some(PathBuf::from("/home/u"));
        let hooks = |base: Option<PathBuf>| base.map(|b| b.join("sesstree").join("hooks"));
        assert_eq!(hooks_dir_in(abs("/x"), abs("/a"), home), hooks(abs("/x")));
        // Relative ones are ignored, as the XDG spec says of its variables.
        assert_eq!(hooks_dir_in(Some("x".into()), abs("/a"), home), hooks(abs("/a")));
        assert_eq!(
            hooks_dir_in(None, Some("a".into()), home),
            hooks(Some(PathBuf::from("/home/u/.config")))
        );
        assert_eq!(hooks_dir_in(None, None, || None), None);
    }
}
