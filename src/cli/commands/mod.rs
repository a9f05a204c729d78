//! The subcommands, one file each, and the flat dispatch over them.

mod branch;
pub(crate) mod checkout;
mod context;
mod export;
mod fsck;
pub mod generate;
mod grep;
mod humanize_title;
mod import;
pub(crate) mod label;
mod log;
mod ls;
mod migrate;
mod name;
mod reflog;
pub(crate) mod show;
mod stats;
mod tree;

use std::path::PathBuf;
use std::time::Duration;

use clap::Subcommand;
use sesstree::hooks::Hooks;
use sesstree::process::CancelToken;
use sesstree::row::text::FilterMode;

use sesstree::Session;
use sesstree::format::Dialect;

use super::Ctx;

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
    Export(export::ExportArgs),
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
        Command::Export(args) => export::run(ctx, &args),
        Command::Import(args) => import::run(ctx, &args),
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

/// Leaves `value` (a loaded session, its gists, a drawn tree) to the process's exit, which
/// frees it all at once: dropping an index of a million entries frees them one by one, and only
/// delays the exit. Only for a command that ends the process; the tree selector goes on after
/// its actions and drops what they load.
fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// The session files of the commands that take many (`fsck`, `stats`, `migrate`): each path a
/// file, or a directory searched for `*.jsonl`; without paths, the session of `-f` (or the
/// current directory's). A path that cannot be read stays in the list, in its place, so that
/// the command reports it with the others.
fn session_paths(ctx: &Ctx, paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    if paths.is_empty() {
        return Ok(vec![ctx.file()?.to_path_buf()]);
    }
    let files = paths.iter().flat_map(|p| {
        sesstree::discover::session_files(std::slice::from_ref(p), false)
            .unwrap_or_else(|_| vec![p.clone()])
    });
    Ok(files.collect())
}

/// The user's home directory, for shortening paths in tool rows.
fn home() -> Option<String> {
    std::env::var("HOME").ok().filter(|h| !h.is_empty())
}

/// The time zone times are shown in: the local one (`TZ`, else the system's), or UTC with
/// `--utc`. Set once by [`set_utc`] before a command runs.
static ZONE: std::sync::OnceLock<Zone> = std::sync::OnceLock::new();

/// A time zone as rows show times in it.
#[derive(Debug)]
struct Zone {
    tz: jiff::tz::TimeZone,
    /// The offset when it never changes (UTC, a fixed `TZ`): no lookup for each time.
    fixed: Option<i32>,
}

impl Zone {
    fn new(utc: bool) -> Zone {
        let tz = if utc { jiff::tz::TimeZone::UTC } else { jiff::tz::TimeZone::system() };
        let fixed = tz.to_fixed_offset().ok().map(|o| o.seconds());
        Zone { tz, fixed }
    }
}

/// Shows times in UTC (`--utc`) or in the local time zone, for the rest of the process.
pub fn set_utc(utc: bool) {
    let _ = ZONE.set(Zone::new(utc));
}

fn zone() -> &'static Zone {
    ZONE.get_or_init(|| Zone::new(false))
}

/// A timestamp as `YYYY-MM-DD HH:MM:SS +HHMM` in the zone times are shown in ([`set_utc`]),
/// when it is one JavaScript reads; else as written.
fn short_time(ts: Option<&str>) -> String {
    let mut out = String::with_capacity(25);
    push_short_time(&mut out, ts);
    out
}

/// [`short_time`] onto the end of `out` (a row of every entry shows one).
fn push_short_time(out: &mut String, ts: Option<&str>) {
    let Some(ts) = ts else {
        out.push('-');
        return;
    };
    let zone = zone();
    // Nearly always: `toISOString`'s UTC shown in UTC, the pieces as they stand.
    let b = ts.as_bytes();
    if zone.fixed == Some(0)
        && b.len() >= 20
        && b[10] == b'T'
        && b[..19].is_ascii()
        && (b[19] == b'Z' || (b[19] == b'.' && b.last() == Some(&b'Z')))
        && sesstree::clock::parse_timestamp(ts).is_some()
    {
        out.push_str(&ts[..10]);
        out.push(' ');
        out.push_str(&ts[11..19]);
        out.push_str(" +0000");
        return;
    }
    let Some(ms) = sesstree::clock::parse_timestamp(ts) else {
        out.push_str(ts);
        return;
    };
    let offset = match zone.fixed {
        Some(fixed) => fixed,
        None => jiff::Timestamp::from_millisecond(ms).map_or(0, |t| zone.tz.to_offset(t).seconds()),
    };
    let local = ms.div_euclid(1000) + i64::from(offset);
    let iso = sesstree::clock::format_iso_millis(local * 1000);
    // `YYYY-MM-DDTHH:MM:SS.mmmZ`, or a year of six digits and a sign.
    let Some(t) = iso.find('T') else {
        out.push_str(ts);
        return;
    };
    use std::fmt::Write as _;
    let (sign, abs) = if offset < 0 { ('-', -offset) } else { ('+', offset) };
    let _ = write!(
        out,
        "{} {} {sign}{:02}{:02}",
        &iso[..t],
        &iso[t + 1..t + 9],
        abs / 3600,
        abs / 60 % 60
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_ids_are_eight_characters() {
        // Characters, not bytes (`text::cut_chars` is tested on every path of its cut).
        assert_eq!(short_id("0123456789"), "01234567");
        assert_eq!(short_id("éééééééééé"), "éééééééé");
        assert_eq!(short_id("ab"), "ab");
    }

    #[test]
    fn short_time_never_slices_inside_a_character() {
        set_utc(true);
        assert_eq!(short_time(Some("2026-03-01T12:00:05.000Z")), "2026-03-01 12:00:05 +0000");
        assert_eq!(short_time(Some("2026-03-01T12:00:05+02:00")), "2026-03-01 10:00:05 +0000");
        assert_eq!(short_time(Some("2026-03-01T12:00:0é")), "2026-03-01T12:00:0é");
        assert_eq!(short_time(Some("2026-03-01Té")), "2026-03-01Té");
        assert_eq!(short_time(None), "-");
    }
}

/// An id cut to 8 characters, as the agents' own ids are (an ASCII one by bytes, without
/// walking its characters: a row of every entry shows one).
fn short_id(id: &str) -> &str {
    sesstree::row::text::cut_chars(id, 8)
}

/// From here on Ctrl-C (and SIGTERM, SIGHUP) sets `cancel` instead of killing sesstree: a
/// running hook or summarizer is stopped (hooks and the summarizer run in their own process
/// group, so the terminal's SIGINT does not reach them) and nothing is written.
///
/// A process has one handler, which cancels the latest token: `tree -i` may check out again
/// after a cancelled checkout, and the second one must be the one Ctrl-C stops.
fn cancel_on_interrupt(cancel: &CancelToken) {
    if let Ok(mut current) = CURRENT.lock() {
        *current = Some(cancel.clone());
    }
    install_signal_handler();
}

/// The token the signal handler cancels.
static CURRENT: std::sync::Mutex<Option<CancelToken>> = std::sync::Mutex::new(None);

/// Installs the process's one handler for SIGINT, SIGTERM and SIGHUP, once. While `tree -i`
/// owns the terminal it gives the terminal back and exits with status 7 (cancelled); while a
/// hook or the summarizer may run it cancels the current token, and the operation stops by
/// itself. At other times it removes the temporary files being written (`export`, `migrate`:
/// nothing half-written is left behind) and exits with status 7.
pub(crate) fn install_signal_handler() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        // ctrlc runs the handler on its own thread, not in the signal handler: a lock is fine.
        // Fails only if some other handler is installed; then the signals keep their default
        // meaning.
        let _ = ctrlc::set_handler(|| {
            crate::cli::selector::leave_on_signal();
            if let Ok(current) = CURRENT.lock()
                && let Some(token) = current.as_ref()
            {
                token.cancel();
                return;
            }
            let wrote = sesstree::store::abandon_writes();
            eprintln!("error: interrupted{}", if wrote { "" } else { "; nothing was written" });
            std::process::exit(crate::cli::exit::Exit::Cancelled as i32);
        });
    });
}

/// The hook options shared by the commands that fire hooks (`checkout`, `branch`):
/// `#[command(flatten)] hooks: HookArgs`, then `args.hooks.hooks(&cancel, events)`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HookArgs {
    /// The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or
    /// ~/.config/sesstree/hooks].
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

/// The hooks directory when `--hooks-dir` is not given: `$XDG_CONFIG_HOME/sesstree/hooks`
/// (an absolute XDG_CONFIG_HOME only, as the XDG spec says), else `~/.config/sesstree/hooks`.
fn default_hooks_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from).filter(|p| p.is_absolute());
    let config = xdg.or_else(|| {
        let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
        Some(PathBuf::from(home).join(".config"))
    })?;
    Some(config.join("sesstree").join("hooks"))
}
