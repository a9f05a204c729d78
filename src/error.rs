//! The library's error type. Every variant names what the user needs to find the problem (the
//! file, the line, the entry), and `ErrorKind` tells the CLI which exit status it maps to.

use std::path::PathBuf;

/// Broad classes of failure; the CLI maps each to one exit status (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A check found problems, or an I/O error (exit 1).
    Failed,
    /// The request itself is wrong (exit 2).
    Usage,
    /// The file is damaged beyond what the command may ignore (exit 3).
    Damaged,
    /// A REV names no entry, or more than one (exit 4).
    NotFound,
    /// The file changed under us, a lock is held (oh-my-pi's lease of an open session too), or
    /// the target exists (exit 5).
    Conflict,
    /// The file's version is newer than this sesstree understands (exit 6).
    TooNew,
    /// A hook or the user cancelled the operation (exit 7).
    Cancelled,
}

/// Everything the library can fail with.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    // Not a `#[source]`: the message already says it, and `{:#}` would say it twice.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file involved.
        path: PathBuf,
        /// What the operating system said (shared, so that an error can be kept and given again).
        error: std::sync::Arc<std::io::Error>,
    },
    /// The file has no valid session header.
    #[error("{}:{line}: no valid session header ({reason}); `sesstree fsck --repair` restores one", path.display())]
    NoHeader {
        /// The file involved.
        path: PathBuf,
        /// The line where the header was expected.
        line: u64,
        /// Why the first record is not a header.
        reason: String,
    },
    /// A damaged line that `--strict` (or a writing command) refuses to step over.
    #[error("{}:{line}: {message}", path.display())]
    Damaged {
        /// The file involved.
        path: PathBuf,
        /// The physical line (1-based).
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// The file holds no session at all (0 bytes or blank lines only) and the command writes.
    #[error("{}: the file holds no session", path.display())]
    Empty {
        /// The file involved.
        path: PathBuf,
    },
    /// A version-1 file (no ids) cannot be written to before it is migrated.
    #[error("{}: the file is version 1 (entries without ids); run `sesstree migrate` first", path.display())]
    NeedsMigration {
        /// The file involved.
        path: PathBuf,
    },
    /// The file's version is newer than this sesstree.
    #[error("{}: session version {version} is newer than this sesstree understands (4)", path.display())]
    TooNew {
        /// The file involved.
        path: PathBuf,
        /// The version the header declares.
        version: u64,
    },
    /// The file is in pi's lane-based v4 format (CHANGES P7), which sesstree does not read.
    #[error(
        "{}: a pi v4 session (lane format), not supported yet: sesstree reads the v3 files \
         pi's CLI writes; this one was written by pi-agent-core's lane-based session store",
        path.display()
    )]
    LaneFormat {
        /// The file involved.
        path: PathBuf,
    },
    /// Another agent's transcript, which sesstree reads but does not write.
    #[error(
        "{}: read-only: {what}; `sesstree import` makes an oh-my-pi or pi session of it",
        path.display()
    )]
    ReadOnly {
        /// The file involved.
        path: PathBuf,
        /// What the file is ([`crate::format::Foreign::what`]).
        what: &'static str,
    },
    /// A REV names no entry.
    #[error("no entry matches '{rev}'")]
    RevNotFound {
        /// The REV as given.
        rev: String,
    },
    /// A REV prefix matches several entries.
    #[error("'{rev}' is ambiguous; it matches {}", candidates.join(", "))]
    RevAmbiguous {
        /// The REV as given.
        rev: String,
        /// The ids it matches.
        candidates: Vec<String>,
    },
    /// A malformed REV, or a REV that walks past a root.
    #[error("{0}")]
    Usage(String),
    /// Something the command looked for is not there (exit 4), said as the message says.
    #[error("{0}")]
    NotFound(String),
    /// The file changed under us, the lock is held, or a target exists.
    #[error("{0}")]
    Conflict(String),
    /// A hook or the user cancelled.
    #[error("{0}")]
    Cancelled(String),
    /// A check found problems.
    #[error("{0}")]
    Failed(String),
}

impl Error {
    /// The class of this error, from which the CLI picks the exit status.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Io { .. } | Error::Failed(_) => ErrorKind::Failed,
            Error::Usage(_) | Error::ReadOnly { .. } => ErrorKind::Usage,
            Error::NoHeader { .. }
            | Error::Damaged { .. }
            | Error::Empty { .. }
            | Error::NeedsMigration { .. } => ErrorKind::Damaged,
            Error::RevNotFound { .. } | Error::RevAmbiguous { .. } | Error::NotFound(_) => {
                ErrorKind::NotFound
            }
            Error::Conflict(_) => ErrorKind::Conflict,
            Error::TooNew { .. } | Error::LaneFormat { .. } => ErrorKind::TooNew,
            Error::Cancelled(_) => ErrorKind::Cancelled,
        }
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), error: source.into() }
    }
}

/// Shorthand used across the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;
