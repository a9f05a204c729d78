//! The pager: on a terminal, the output of the reading commands that print a lot (`log`,
//! `tree`, `show`, `context`, `reflog`) goes through `$SESSTREE_PAGER`, else `$PAGER`, else
//! `less -FRX`, as git's does; `--no-pager`, an empty pager or `cat` turn it off. A pager
//! that cannot be run is skipped with a warning, as jj does, and the output goes to the
//! terminal: through `sh -c` it would start, fail, and take the output with it (exit 0).

#[cfg(unix)]
use std::io::IsTerminal;
use std::io::Write;
use std::process::Child;
#[cfg(unix)]
use std::process::{Command, Stdio};

/// A running pager, which standard output writes to; dropping it waits for the reader.
pub struct Pager(Option<Child>);

impl Pager {
    /// Starts the pager when standard output is a terminal and `wanted`; standard output is
    /// then the pager's input. Without a pager (or when it cannot be started), nothing changes.
    /// Windows has none: safe Rust cannot hand the process's standard output to a child.
    #[cfg(not(unix))]
    pub fn start(_wanted: bool) -> Pager {
        Pager(None)
    }

    /// Starts the pager when standard output is a terminal and `wanted`; standard output is
    /// then the pager's input. Without a pager (or when it cannot be started), nothing changes.
    #[cfg(unix)]
    pub fn start(wanted: bool) -> Pager {
        if !wanted || !std::io::stdout().is_terminal() {
            return Pager(None);
        }
        let var = |name: &'static str| std::env::var(name).ok().map(|v| (name, v));
        let chosen = var("SESSTREE_PAGER").or_else(|| var("PAGER"));
        let command = chosen.as_ref().map_or("less -FRX", |(_, c)| c.as_str());
        if matches!(command.trim(), "" | "cat") {
            return Pager(None);
        }
        if let Some(program) = missing_program(command.trim()) {
            // Without less (and no pager asked for), the output simply is not paged.
            let Some((from, _)) = chosen else { return Pager(None) };
            eprintln!(
                "warning: cannot run the pager {} (from {from}): not found; printing without it",
                crate::cli::ui::show(program)
            );
            eprintln!("hint: set SESSTREE_PAGER to a pager that exists, or pass --no-pager");
            return Pager(None);
        }
        let mut pager = Command::new("sh");
        pager.arg("-c").arg(command.trim()).stdin(Stdio::piped());
        // As git does: less quits on one screen, keeps colours and leaves the screen as is.
        if std::env::var_os("LESS").is_none() {
            pager.env("LESS", "FRX");
        }
        let Ok(mut child) = pager.spawn() else { return Pager(None) };
        let Some(input) = child.stdin.take() else { return Pager(None) };
        if nix::unistd::dup2_stdout(&input).is_err() {
            return Pager(None);
        }
        // Standard output is the only writer left: the pager sees the end when it closes.
        drop(input);
        Pager(Some(child))
    }
}

/// The pager command's program when the shell would not find it. Only a plain first word
/// (no quoting, expansion or assignment) is checked, by the shell's own `command -v`, so
/// builtins and paths count as found; anything else is the shell's to judge.
#[cfg(unix)]
fn missing_program(command: &str) -> Option<&str> {
    let program = command.split_whitespace().next()?;
    let plain = program.chars().all(|c| c.is_alphanumeric() || "/._+-,:@".contains(c));
    if !plain {
        return None;
    }
    let found = Command::new("sh")
        .args(["-c", r#"command -v -- "$1" >/dev/null 2>&1"#, "sh", program])
        .stdin(Stdio::null())
        .status();
    // A shell that cannot be asked leaves the decision to the spawn below.
    match found {
        Ok(status) if !status.success() => Some(program),
        _ => None,
    }
}

impl Drop for Pager {
    fn drop(&mut self) {
        let Some(child) = &mut self.0 else { return };
        let _ = std::io::stdout().flush();
        // Closing standard output ends the pager's input; then the terminal is the pager's
        // until the reader quits.
        #[cfg(unix)]
        if let Ok(null) = std::fs::File::open("/dev/null") {
            let _ = nix::unistd::dup2_stdout(&null);
        }
        let _ = child.wait();
    }
}
