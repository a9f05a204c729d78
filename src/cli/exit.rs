//! The exit statuses of SPEC §6, mapped from errors in exactly one place.

use sesstree::ErrorKind;

/// The documented exit statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Done (also on a closed pipe).
    Ok = 0,
    /// A check found problems, or an I/O error.
    Failed = 1,
    /// Usage error.
    Usage = 2,
    /// The file is damaged beyond what the command may ignore.
    Damaged = 3,
    /// REV not found or ambiguous.
    NotFound = 4,
    /// Conflict: the file changed, the lock is held, the target exists, oh-my-pi has the session
    /// open.
    Conflict = 5,
    /// File version newer than this sesstree, or a format it does not read (pi's v4 lanes).
    TooNew = 6,
    /// Cancelled by a hook or by the user.
    Cancelled = 7,
}

/// An error that only carries an exit status: the command already said what there was to say
/// (e.g. `fsck` printed the problems it found).
#[derive(Debug, thiserror::Error)]
#[error("exit status {}", *.0 as u8)]
pub struct Silent(pub Exit);

/// The exit status for an error, and whether its message should be printed.
pub fn classify(err: &anyhow::Error) -> (Exit, bool) {
    for cause in err.chain() {
        if let Some(silent) = cause.downcast_ref::<Silent>() {
            return (silent.0, false);
        }
        let ours = cause.downcast_ref::<sesstree::Error>();
        let io = match (cause.downcast_ref::<std::io::Error>(), ours) {
            (Some(error), _) => Some(error.kind()),
            (_, Some(sesstree::Error::Io { error, .. })) => Some(error.kind()),
            _ => cause.downcast_ref::<serde_json::Error>().and_then(|e| e.io_error_kind()),
        };
        if io == Some(std::io::ErrorKind::BrokenPipe) {
            // `sesstree log | head`: the reader is gone; that is not a failure.
            return (Exit::Ok, false);
        }
        if let Some(e) = ours {
            let exit = match e.kind() {
                ErrorKind::Failed => Exit::Failed,
                ErrorKind::Usage => Exit::Usage,
                ErrorKind::Damaged => Exit::Damaged,
                ErrorKind::NotFound => Exit::NotFound,
                ErrorKind::Conflict => Exit::Conflict,
                ErrorKind::TooNew => Exit::TooNew,
                ErrorKind::Cancelled => Exit::Cancelled,
            };
            return (exit, true);
        }
        if let Some(e) = cause.downcast_ref::<clap::Error>() {
            return (if e.use_stderr() { Exit::Usage } else { Exit::Ok }, true);
        }
    }
    (Exit::Failed, true)
}

/// The EXIT STATUS section shared by `--help` and the man pages.
pub const EXIT_STATUS: &str = "\
Exit status:
  0  done (also on a closed pipe, as in `sesstree log | head`)
  1  a check found problems (fsck, migrate --check), grep matched nothing, or an I/O error
  2  usage error (including a branch source that is not a user message), or any error of grep
  3  the file is damaged beyond what the command may ignore (--strict, no header)
  4  REV not found or ambiguous
  5  conflict: the file changed, the lock is held, the target exists, oh-my-pi has the session open
  6  file version newer than this sesstree, or pi's lane-based v4 format (not read yet)
  7  cancelled by a hook or by the user";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_pinned() {
        let all = [
            (Exit::Ok, 0),
            (Exit::Failed, 1),
            (Exit::Usage, 2),
            (Exit::Damaged, 3),
            (Exit::NotFound, 4),
            (Exit::Conflict, 5),
            (Exit::TooNew, 6),
            (Exit::Cancelled, 7),
        ];
        for (exit, n) in all {
            assert_eq!(exit as u8, n);
            assert!(EXIT_STATUS.contains(&format!("  {n}  ")));
        }
    }

    #[test]
    fn broken_pipe_is_success() {
        let err = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert_eq!(classify(&err), (Exit::Ok, false));
        let err = anyhow::Error::new(sesstree::Error::RevNotFound { rev: "x".into() });
        assert_eq!(classify(&err), (Exit::NotFound, true));
    }
}
