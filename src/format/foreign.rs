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

    /// What oh-my-pi 18.2.3's importer makes of `input`, in the shapes of `to`. `fallback_ms`
    /// is the time of a record without one (the file's modification time).
    pub fn import(self, input: &[u8], fallback_ms: i64, to: Dialect) -> Imported {
        match self {
            Foreign::Claude => super::claude::import(input, fallback_ms, to),
            Foreign::Codex => super::codex::import(input, to),
        }
    }
}
