//! What the readers of other agents' transcripts ([`super::foreign`]) make: a transcript as a
//! session sesstree reads ([`Transcoded`]), as an import ([`Imported`]), and the records of a
//! JSONL transcript (`each_line`).

use serde_json::Value;

use crate::json::scan::Scanner;

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
        // Straight into the bytes: `to_string` writes through a formatter, piece by piece, and
        // then copies.
        let _ = serde_json::to_writer(&mut self.bytes, value);
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

/// How many lines are read at once, on every core, while reading records in order.
const BATCH: usize = 4096;

/// Hands what `read` makes of each line of `input` to `f`, in order, with its line number
/// (1-based): lines are read a batch at a time on every core (each with a scanner of its own),
/// and each record is dropped once `f` has it, so memory holds a batch, not the transcript.
pub(super) fn each_line<T: Send>(
    input: &[u8],
    read: fn(&mut Scanner, &[u8]) -> Option<T>,
    mut f: impl FnMut(u64, T),
) {
    use rayon::prelude::*;
    // The lines, found by memchr: a split tests each byte.
    let mut start = 0;
    let mut ends = memchr::memchr_iter(b'\n', input).chain(std::iter::once(input.len()));
    let mut lines = std::iter::from_fn(|| {
        let end = ends.next().filter(|_| start <= input.len())?;
        let line = &input[start..end];
        start = end + 1;
        Some(line)
    })
    .enumerate();
    let mut batch: Vec<(usize, &[u8])> = Vec::with_capacity(BATCH);
    loop {
        batch.clear();
        batch.extend(lines.by_ref().take(BATCH));
        if batch.is_empty() {
            return;
        }
        let records: Vec<Option<T>> = batch
            .par_iter()
            .map_init(Scanner::new, |scanner, (_, line)| read(scanner, line))
            .collect();
        for ((i, _), record) in batch.iter().zip(records) {
            if let Some(record) = record {
                f(*i as u64 + 1, record);
            }
        }
    }
}
