//! Running the user's own programs (hooks, the summarizer): one JSON or text document on
//! standard input, standard output collected, a time limit, and a way to stop them.
//!
//! On Unix the program runs in a process group of its own. The terminal's Ctrl-C then reaches
//! only sesstree, which decides what an interrupt means (the operation is cancelled, nothing is
//! written) and kills the whole group, so a `sh -c` wrapper cannot leave its children running.
//! On Windows, where a console's Ctrl-C reaches every process in it, a stopped program's whole
//! process tree is ended with `taskkill /T /F`.
//! The library never installs a signal handler: the binary does, and hands the flag it sets in
//! here as a [`CancelToken`].

use std::io::{Read, Write};
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
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
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

/// Kills the program's whole process group (Unix) or process tree (Windows), then reaps the
/// program.
fn kill(child: &mut Child) {
    // The group or tree may be gone already (the program exited); that is fine.
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        use nix::sys::signal::{Signal, killpg};
        let _ = killpg(nix::unistd::Pid::from_raw(pid), Signal::SIGKILL);
    }
    #[cfg(windows)]
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &child.id().to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

/// A command line run by the system's shell: `sh -c` on Unix, `cmd /C` on Windows (the line
/// handed over as it is, for cmd's own quoting rules).
pub fn shell(line: &str) -> Command {
    #[cfg(unix)]
    {
        let mut sh = Command::new("sh");
        sh.arg("-c").arg(line);
        sh
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        let mut cmd = Command::new("cmd");
        cmd.arg("/C").raw_arg(line);
        cmd
    }
}

/// How an exit status reads in an error message: `status 3`, or the signal that ended it.
pub(crate) fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    let signal: Option<i32> = None;
    match (status.code(), signal) {
        (Some(code), _) => format!("status {code}"),
        (None, Some(sig)) => format!("signal {sig}"),
        (None, None) => "an unknown status".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shell line of each system: the Unix one, or the Windows one.
    fn line(unix: &'static str, windows: &'static str) -> &'static str {
        if cfg!(windows) { windows } else { unix }
    }

    #[test]
    fn input_in_output_out() {
        let script = line("tr a-z A-Z", "more");
        let done = run(shell(script), b"hello\r\n", None, &CancelToken::default()).unwrap();
        assert!(done.status.success());
        assert_eq!(String::from_utf8_lossy(&done.stdout).trim(), line("HELLO", "hello"));
    }

    #[test]
    fn exit_statuses_read_as_numbers() {
        let done = run(shell("exit 3"), b"", None, &CancelToken::default()).unwrap();
        assert_eq!(describe_status(done.status), "status 3");
    }

    #[test]
    fn timeout_kills_the_whole_group_even_when_a_background_child_holds_stdout() {
        let cases = if cfg!(windows) {
            // `start /B` leaves a child holding the output pipe, as `&` does.
            [("ping -n 30 127.0.0.1", 200), ("start /B ping -n 30 127.0.0.1 & exit 0", 300)]
        } else {
            [("sleep 30; echo late", 200), ("sleep 30 & exit 0", 300)]
        };
        for (script, ms) in cases {
            let start = Instant::now();
            let limit = Some(Duration::from_millis(ms));
            let err = run(shell(script), b"", limit, &CancelToken::default()).unwrap_err();
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
        let err = run(shell(line("sleep 30", "ping -n 30 127.0.0.1")), b"", None, &cancel);
        let err = err.unwrap_err();
        assert!(matches!(err, RunError::Cancelled));
    }

    #[test]
    fn missing_program() {
        let err =
            run(Command::new("/nonexistent/x"), b"", None, &CancelToken::default()).unwrap_err();
        assert!(matches!(err, RunError::Spawn(_)));
    }
}
