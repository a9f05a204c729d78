//! Other agents' transcripts ([`Foreign`]): Claude Code's ([`super::claude`]) and Codex's
//! ([`super::codex`]). Each is read as a session by writing it again, in memory, as the
//! entries sesstree reads ([`Transcoded`]), and imported into oh-my-pi or pi as oh-my-pi's own
//! importer converts it ([`Imported`]).

use serde_json::{Map, Value};

use super::Dialect;
use super::transcript::{Imported, Transcoded};

/// Another agent's transcript: read as a session ([`Foreign::transcode`]), never written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Foreign {
    /// Claude Code ([`super::claude`]).
    Claude,
    /// Codex ([`super::codex`]).
    Codex,
}

impl Foreign {
    /// The format of a file whose first record is `record`, when it is another agent's.
    pub fn of(record: &Map<String, Value>) -> Option<Foreign> {
        if super::claude::is_transcript(record) {
            Some(Foreign::Claude)
        } else if super::codex::is_rollout(record) {
            Some(Foreign::Codex)
        } else {
            None
        }
    }

    /// What such a file is, for messages: "a Claude Code session".
    pub fn what(self) -> &'static str {
        match self {
            Foreign::Claude => "a Claude Code session",
            Foreign::Codex => "a Codex session",
        }
    }

    /// The agent's name in oh-my-pi's `foreign_session_import` record: `claude`, `codex`.
    pub fn source(self) -> &'static str {
        match self {
            Foreign::Claude => "claude",
            Foreign::Codex => "codex",
        }
    }

    /// The transcript `input` written as a session sesstree reads.
    pub fn transcode(self, input: &[u8]) -> Transcoded {
        match self {
            Foreign::Claude => super::claude::transcode(input),
            Foreign::Codex => super::codex::transcode(input),
        }
    }

    /// The transcript `input` of `path` with the files its agent writes beside it that belong
    /// to it read after it, as if it went on with them, and where each starts in what is
    /// returned: Claude Code's subagents' files ([`super::claude::subagent_files`]).
    pub fn with_joined_files(
        self,
        path: &std::path::Path,
        mut input: Vec<u8>,
    ) -> (Vec<u8>, Vec<(u64, std::path::PathBuf)>) {
        let files = match self {
            Foreign::Claude => super::claude::subagent_files(path),
            Foreign::Codex => Vec::new(),
        };
        let mut joined = Vec::new();
        for file in files {
            // A file that cannot be read is left out, as the agent leaves out what it cannot.
            let Ok(bytes) = std::fs::read(&file) else { continue };
            if input.last().is_some_and(|&b| b != b'\n') {
                input.push(b'\n');
            }
            joined.push((input.len() as u64, file));
            input.extend_from_slice(&bytes);
        }
        (input, joined)
    }

    /// What oh-my-pi 18.2.3's importer makes of `input`, in the shapes of `to`. `fallback_ms`
    /// is the time of a record without one (the file's modification time).
    pub fn import(self, input: &[u8], fallback_ms: i64, to: Dialect) -> Imported {
        match self {
            Foreign::Claude => super::claude::import(input, fallback_ms, to),
            Foreign::Codex => super::codex::import(input, to),
        }
    }
}
