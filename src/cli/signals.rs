//! How the process stops: Ctrl-C, SIGTERM and SIGHUP cancel a running hook or summarizer, or
//! end sesstree with nothing half-written; a write past the file-size limit fails instead of
//! killing it; and what a command loaded is left to the exit to free.

use sesstree::process::CancelToken;

/// Blocks SIGXFSZ for the process. A write past the file-size limit (`ulimit -f`) then fails
/// with EFBIG, and the store's rollback runs, instead of the signal killing sesstree half-way
/// through a write and leaving a torn line (SPEC §7: a failed command leaves the file as it was).
/// Children start with a clean mask: `std::process::Command` resets it. Windows has no such
/// signal.
#[cfg(unix)]
pub fn block_file_size_signal() {
    use nix::sys::signal::{SigSet, Signal};
    let mut set = SigSet::empty();
    set.add(Signal::SIGXFSZ);
    // Without the mask the default (death by signal) stays: no worse than before.
    let _ = set.thread_block();
}

/// From here on Ctrl-C (and SIGTERM, SIGHUP) sets `cancel` instead of killing sesstree: a
/// running hook or summarizer is stopped (hooks and the summarizer run in their own process
/// group, so the terminal's SIGINT does not reach them) and nothing is written.
///
/// A process has one handler, which cancels the latest token: `tree -i` may check out again
/// after a cancelled checkout, and the second one must be the one Ctrl-C stops.
pub fn cancel_on_interrupt(cancel: &CancelToken) {
    if let Ok(mut current) = CURRENT.lock() {
        *current = Some(cancel.clone());
    }
    install_signal_handler();
}

/// The token the signal handler cancels.
static CURRENT: std::sync::Mutex<Option<CancelToken>> = std::sync::Mutex::new(None);

/// What the handler does first on each signal ([`leave_first_on_signal`]).
static FIRST: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Has the handler call `leave` first on each signal, and installs it: while `tree -i` owns the
/// terminal, `leave` gives the terminal back and exits with status 7 (cancelled).
pub fn leave_first_on_signal(leave: fn()) {
    let _ = FIRST.set(leave);
    install_signal_handler();
}

/// Installs the process's one handler for SIGINT, SIGTERM and SIGHUP, once. It calls what
/// [`leave_first_on_signal`] gave it first; while a hook or the summarizer may run it cancels
/// the current token, and the operation stops by itself. At other times it removes the
/// temporary files being written (`export`, `migrate`: nothing half-written is left behind) and
/// exits with status 7.
pub fn install_signal_handler() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        // ctrlc runs the handler on its own thread, not in the signal handler: a lock is fine.
        // Fails only if some other handler is installed; then the signals keep their default
        // meaning.
        let _ = ctrlc::set_handler(|| {
            if let Some(leave) = FIRST.get() {
                leave();
            }
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

/// Leaves `value` (a loaded session, its gists, a drawn tree) to the process's exit, which
/// frees it all at once: dropping an index of a million entries frees them one by one, and only
/// delays the exit. Only for a command that ends the process; the tree selector goes on after
/// its actions and drops what they load.
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}
