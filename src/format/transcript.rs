//! What the readers of other agents' transcripts ([`super::foreign`]) make: a transcript as a
//! session sesstree reads ([`Transcoded`]), as an import ([`Imported`]), and the records of a
//! JSONL transcript.

use serde_json::{Map, Value};

/// A transcript written as a session sesstree reads.
#[derive(Debug, Default)]
pub struct Transcoded {
    /// The session's lines: a header, then the entries.
    pub bytes: Vec<u8>,
    /// For each line of `bytes`, the line of the transcript it comes from (1-based).
    pub lines: Vec<u64>,
    /// The id of the leaf, when there is an entry.
    pub leaf: Option<String>,
}

impl Transcoded {
    /// Appends a line made of `value`, from line `line` of the transcript.
    pub(super) fn push(&mut self, value: &Value, line: u64) {
        self.bytes.extend_from_slice(value.to_string().as_bytes());
        self.bytes.push(b'\n');
        self.lines.push(line);
    }
}

/// What oh-my-pi's importer makes of a transcript: the entries, with its ids, and what names
/// the session.
#[derive(Debug, Default)]
pub struct Imported {
    /// The entries in order, the last one the leaf.
    pub entries: Vec<Value>,
    /// The id of the last entry.
    pub leaf: Option<String>,
    /// Every entry's id.
    pub ids: std::collections::HashSet<String>,
    /// The title and where it comes from (`user`: the user's own, `auto`: generated).
    pub title: Option<(String, crate::naming::TitleSource)>,
    /// The `trigger` oh-my-pi records on the `title_change` that sets it, if any.
    pub title_trigger: Option<&'static str>,
    /// The working directory the transcript names.
    pub cwd: Option<String>,
    /// The transcript's session id, when it names one (oh-my-pi takes the file name else).
    pub session_id: Option<String>,
}

/// A line as JSON, invalid UTF-8 read as U+FFFD; `None` when it is not JSON.
pub(super) fn parse(line: &[u8]) -> Option<Value> {
    serde_json::from_slice(line)
        .ok()
        .or_else(|| serde_json::from_str(&String::from_utf8_lossy(line)).ok())
}

/// The objects among the lines of `input`, with their line numbers (1-based).
pub(super) fn records(input: &[u8]) -> Vec<(u64, Map<String, Value>)> {
    input
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(i, line)| match parse(line)? {
            Value::Object(record) => Some((i as u64 + 1, record)),
            _ => None,
        })
        .collect()
}
