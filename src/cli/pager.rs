//! The pager: on a terminal, the output of the reading commands that print a lot (`log`,
//! `tree`, `show`, `context`, `reflog`) goes through `$SESSTREE_PAGER`, else `$PAGER`, else
//! `less -FRX`, as git's does; `--no-pager`, an empty pager or `cat` turn it off.

use std::io::{IsTerminal, Write};
use std::process::{Child, Command, Stdio};

/// A running pager, which standard output writes to; dropping it waits for the reader.
pub struct Pager(Option<Child>);

impl Pager {
    /// Starts the pager when standard output is a terminal and `wanted`; standard output is
    /// then the pager's input. Without a pager (or when it cannot be started), nothing changes.
    pub fn start(wanted: bool) -> Pager {
        if !wanted || !std::io::stdout().is_terminal() {
            return Pager(None);
        }
        let var = |name| std::env::var(name).ok();
        let command = var("SESSTREE_PAGER").or_else(|| var("PAGER"));
        let command = command.unwrap_or_else(|| "less -FRX".to_owned());
        if matches!(command.trim(), "" | "cat") {
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

impl Drop for Pager {
    fn drop(&mut self) {
        let Some(child) = &mut self.0 else { return };
        let _ = std::io::stdout().flush();
        // Closing standard output ends the pager's input; then the terminal is the pager's
        // until the reader quits.
        if let Ok(null) = std::fs::File::open("/dev/null") {
            let _ = nix::unistd::dup2_stdout(&null);
        }
        let _ = child.wait();
    }
}
