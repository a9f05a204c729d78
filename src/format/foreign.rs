//! Other agents' transcripts ([`Foreign`]): Claude Code's ([`super::claude`]) and Codex's
//! ([`super::codex`]). Each is read as a session by writing it again, in memory, as the
//! entries sesstree reads ([`Transcoded`]), and imported into oh-my-pi or pi as oh-my-pi's own
//! importer converts it ([`Imported`]).

use serde_json::{Map, Value};

use super::Dialect;
use super::transcript::{Imported, STRETCH, Stretches, Transcoded};

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

    /// Reads the transcript `input` of `path` (of about `len` bytes) as a session, with the
    /// files its agent writes beside it that belong to it read after it, as if it went on with
    /// them: Claude Code's subagents' files ([`super::claude::subagent_files`]). Claude Code's
    /// transcript is read a stretch of lines at a time, so that memory holds the session, not
    /// the transcript too.
    pub fn read(
        self,
        path: &std::path::Path,
        input: impl std::io::Read,
        len: u64,
    ) -> std::io::Result<Reading> {
        self.read_in_stretches(path, input, len, STRETCH)
    }

    /// The files its agent writes beside the transcript at `path` that belong to it, in the
    /// order they are read after it: Claude Code's subagents' files
    /// ([`super::claude::subagent_files`]); none for Codex.
    pub fn joined_files(self, path: &std::path::Path) -> Vec<std::path::PathBuf> {
        match self {
            Foreign::Claude => super::claude::subagent_files(path),
            Foreign::Codex => Vec::new(),
        }
    }

    /// [`Foreign::read`], reading `stretch` bytes at once.
    fn read_in_stretches(
        self,
        path: &std::path::Path,
        input: impl std::io::Read,
        len: u64,
        stretch: usize,
    ) -> std::io::Result<Reading> {
        let len = usize::try_from(len).unwrap_or(0);
        let mut sink = match self {
            Foreign::Claude => Sink::Claude(Box::new(super::claude::Transcoder::new(len))),
            Foreign::Codex => Sink::Codex(Vec::with_capacity(len)),
        };
        let mut stretches = Stretches::new(stretch);
        let mut f = |lines: &[u8], first: u64, newline: bool| sink.lines(lines, first, newline);
        stretches.read(input, &mut f)?;
        let mut joined = Vec::new();
        for file in self.joined_files(path) {
            // A file that cannot be read is left out, as the agent leaves out what it cannot.
            let Ok(bytes) = std::fs::read(&file) else { continue };
            joined.push((stretches.next_file(&mut f), file));
            stretches.read(bytes.as_slice(), &mut f)?;
        }
        let starts = stretches.finish(&mut f);
        let transcoded = match sink {
            Sink::Claude(transcoder) => (*transcoder).finish(),
            Sink::Codex(input) => super::codex::transcode(&input),
        };
        Ok(Reading { transcoded, starts, joined })
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

/// Another agent's transcript read as a session ([`Foreign::read`]).
#[derive(Debug)]
pub struct Reading {
    /// The session.
    pub transcoded: Transcoded,
    /// Where each line of what was read starts and, last, where the last one ends (one past it
    /// when it has no newline).
    pub starts: Vec<u64>,
    /// The files read after the transcript, as if it went on with them, and where each starts.
    pub joined: Vec<(u64, std::path::PathBuf)>,
}

/// What the lines of a transcript go to while it is read.
enum Sink {
    /// Claude Code's records, written as they come.
    Claude(Box<super::claude::Transcoder>),
    /// Codex's rollout, written once it is read whole.
    Codex(Vec<u8>),
}

impl Sink {
    /// The lines `lines`, from line `first` on, and whether a newline ends them.
    fn lines(&mut self, lines: &[u8], first: u64, newline: bool) {
        match self {
            Sink::Claude(transcoder) => transcoder.lines(lines, first),
            Sink::Codex(input) => {
                input.extend_from_slice(lines);
                if newline {
                    input.push(b'\n');
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    /// What reading `path` whole gives: the transcript and the files read after it joined in
    /// one buffer, transcoded at once, and the starts of the lines of that buffer.
    fn whole(foreign: Foreign, path: &Path) -> (Transcoded, Vec<u64>, Vec<(u64, PathBuf)>) {
        let mut input = std::fs::read(path).unwrap();
        let mut joined = Vec::new();
        for file in foreign.joined_files(path) {
            let bytes = std::fs::read(&file).unwrap();
            if input.last().is_some_and(|&b| b != b'\n') {
                input.push(b'\n');
            }
            joined.push((input.len() as u64, file));
            input.extend_from_slice(&bytes);
        }
        let mut starts: Vec<u64> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', &input).map(|i| i as u64 + 1))
            .collect();
        if input.last().is_some_and(|&b| b != b'\n') {
            starts.push(input.len() as u64 + 1);
        }
        (foreign.transcode(&input), starts, joined)
    }

    /// Read a stretch at a time, whatever the stretch, a transcript gives the session and the
    /// lines that reading it whole gives: on the fixtures, and on files without a last
    /// newline, with blank lines, and with subagents' files that end without one or are empty.
    #[test]
    fn a_transcript_read_in_stretches_reads_as_read_whole() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut paths: Vec<(Foreign, PathBuf)> = Vec::new();
        for (foreign, dir) in [(Foreign::Claude, "claude"), (Foreign::Codex, "codex")] {
            for entry in std::fs::read_dir(fixtures.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "jsonl") {
                    paths.push((foreign, path));
                }
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let user = |uuid: &str, parent: &str| {
            format!(
                r#"{{"type":"user","uuid":"{uuid}","parentUuid":{parent},"message":{{"content":"{uuid}"}}}}"#
            )
        };
        let main = format!(
            "\n{}\n\n{}\r\n{}",
            user("u1", "null"),
            user("u2", r#""u1""#),
            user("u3", r#""u2""#)
        );
        std::fs::write(dir.path().join("s.jsonl"), &main).unwrap();
        let subagents = dir.path().join("s/subagents");
        std::fs::create_dir_all(&subagents).unwrap();
        std::fs::write(subagents.join("agent-a.jsonl"), user("a1", "null")).unwrap();
        std::fs::write(subagents.join("agent-b.jsonl"), "").unwrap();
        std::fs::write(subagents.join("agent-c.jsonl"), format!("{}\n", user("c1", "null")))
            .unwrap();
        std::fs::write(dir.path().join("t.jsonl"), format!("{main}\n")).unwrap();
        std::fs::write(dir.path().join("u.jsonl"), &main).unwrap();
        for name in ["s.jsonl", "t.jsonl", "u.jsonl"] {
            paths.push((Foreign::Claude, dir.path().join(name)));
        }
        for (foreign, path) in &paths {
            let (transcoded, starts, joined) = whole(*foreign, path);
            let bytes = std::fs::read(path).unwrap();
            for stretch in [1, 2, 7, 100, 4096, STRETCH] {
                let read = foreign
                    .read_in_stretches(path, bytes.as_slice(), bytes.len() as u64, stretch)
                    .unwrap();
                let what = format!("{}, stretches of {stretch}", path.display());
                assert_eq!(read.transcoded.bytes, transcoded.bytes, "{what}");
                assert_eq!(read.transcoded.lines, transcoded.lines, "{what}");
                assert_eq!(read.transcoded.leaf, transcoded.leaf, "{what}");
                assert_eq!(read.starts, starts, "{what}");
                assert_eq!(read.joined, joined, "{what}");
            }
        }
        assert!(paths.len() >= 10, "{paths:?}");
    }
}
