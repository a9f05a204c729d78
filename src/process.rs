//! Running the user's own programs (hooks, the summarizer): one JSON or text document on
//! standard input, standard output collected, a time limit, and a way to stop them.
//!
//! The program runs in a process group of its own. The terminal's Ctrl-C then reaches only
//! sesstree, which decides what an interrupt means (the operation is cancelled, nothing is
//! written) and kills the whole group, so a `sh -c` wrapper cannot leave its children running.
//! The library never installs a signal handler: the binary does, and hands the flag it sets in
//! here as a [`CancelToken`].

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a waiting run looks at the child, the clock and the cancel flag.
const POLL: Duration = Duration::from_millis(10);

/// A flag that asks running programs to stop, set from a signal handler (or a test); the
/// default is not set.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// Sets the flag. Safe to call from a signal handler's thread.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// How a run ended when it did not end on its own.
#[derive(Debug)]
pub enum RunError {
    /// The program could not be started.
    Spawn(std::io::Error),
    /// It ran past its time limit and was killed.
    TimedOut(Duration),
    /// The cancel flag was set while it ran; it was killed.
    Cancelled,
}

/// A program that ran to its end: its exit status and everything it wrote to standard output.
#[derive(Debug)]
pub struct Finished {
    /// How it exited.
    pub status: ExitStatus,
    /// Its standard output.
    pub stdout: Vec<u8>,
}

/// Runs `command` with `input` on its standard input and returns its standard output.
///
/// Standard error is left to the terminal, so a program's own messages reach the user. The
/// run ends when the program has exited *and* its output is closed; a time limit covers both,
/// so a program that forks a background child holding the pipe still cannot hang sesstree.
pub fn run(
    mut command: Command,
    input: &[u8],
    timeout: Option<Duration>,
    cancel: &CancelToken,
) -> Result<Finished, RunError> {
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    command.process_group(0);
    let mut child = command.spawn().map_err(RunError::Spawn)?;

    // Both pipes are served from threads: a program that writes a lot before it reads its
    // input (or never reads it) must not deadlock against us.
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_vec();
        std::thread::spawn(move || {
            // A program that exits without reading its input closes the pipe: not our error.
            let _ = stdin.write_all(&input);
        });
    }
    let reader = child.stdout.take().map(|mut stdout| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stdout.read_to_end(&mut buf);
            buf
        })
    });

    let deadline = timeout.map(|t| Instant::now() + t);
    let mut status = None;
    loop {
        if cancel.is_cancelled() {
            kill(&mut child);
            return Err(RunError::Cancelled);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            kill(&mut child);
            return Err(RunError::TimedOut(timeout.unwrap_or_default()));
        }
        if status.is_none() {
            match child.try_wait() {
                Ok(s) => status = s,
                Err(e) => {
                    kill(&mut child);
                    return Err(RunError::Spawn(e));
                }
            }
        }
        if let Some(status) = status
            && reader.as_ref().is_none_or(|r| r.is_finished())
        {
            // A reader that panicked read nothing.
            let stdout = reader.and_then(|r| r.join().ok()).unwrap_or_default();
            return Ok(Finished { status, stdout });
        }
        std::thread::sleep(POLL);
    }
}

/// Kills the program's whole process group, then reaps the program.
fn kill(child: &mut Child) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(child.id()) {
        // The group may be gone already (the program exited); that is fine.
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// How an exit status reads in an error message: `status 3`, or the signal that ended it.
pub(crate) fn describe_status(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("status {code}"),
        (None, Some(sig)) => format!("signal {sig}"),
        (None, None) => "an unknown status".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    #[test]
    fn input_in_output_out() {
        let done = run(sh("tr a-z A-Z"), b"hello", None, &CancelToken::default()).unwrap();
        assert!(done.status.success());
        assert_eq!(done.stdout, b"HELLO");
    }

    #[test]
    fn timeout_kills_the_whole_group_even_when_a_background_child_holds_stdout() {
        for (script, ms) in [("sleep 30; echo late", 200), ("sleep 30 & exit 0", 300)] {
            let start = Instant::now();
            let limit = Some(Duration::from_millis(ms));
            let err = run(sh(script), b"", limit, &CancelToken::default()).unwrap_err();
            assert!(matches!(err, RunError::TimedOut(_)), "{script}");
            assert!(start.elapsed() < Duration::from_secs(5), "{script}");
        }
    }

    #[test]
    fn cancel_stops_it() {
        let cancel = CancelToken::default();
        let c2 = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            c2.cancel();
        });
        let err = run(sh("sleep 30"), b"", None, &cancel).unwrap_err();
        assert!(matches!(err, RunError::Cancelled));
    }

    #[test]
    fn missing_program() {
        let err =
            run(Command::new("/nonexistent/x"), b"", None, &CancelToken::default()).unwrap_err();
        assert!(matches!(err, RunError::Spawn(_)));
    }
}
