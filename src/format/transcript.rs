//! What the readers of other agents' transcripts ([`super::foreign`]) make: a transcript as a
//! session sesstree reads ([`Transcoded`]), as an import ([`Imported`]), and the records of a
//! JSONL transcript (`each_line`), read a stretch of lines at a time (`Stretches`).

use std::io::Read;

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
/// (1-based, `first` for the first line): lines are read a batch at a time on every core (each
/// with a scanner of its own), the next batch while `f` takes the one before, and each record
/// is dropped once `f` has it, so memory holds two batches, not the transcript.
pub(super) fn each_line<'a, T: Send>(
    input: &'a [u8],
    first: u64,
    read: fn(&mut Scanner, &'a [u8]) -> Option<T>,
    mut f: impl FnMut(u64, T) + Send,
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
    let read_all = |batch: &[(usize, &'a [u8])]| -> Vec<Option<T>> {
        batch.par_iter().map_init(Scanner::new, |scanner, (_, line)| read(scanner, line)).collect()
    };
    let mut batch: Vec<(usize, &'a [u8])> = lines.by_ref().take(BATCH).collect();
    let mut records = read_all(&batch);
    while !batch.is_empty() {
        let next: Vec<(usize, &'a [u8])> = lines.by_ref().take(BATCH).collect();
        // What depends on the records before (`f`) runs on one core: the other cores read the
        // next batch meanwhile.
        let take = || {
            for ((i, _), record) in batch.iter().zip(records) {
                if let Some(record) = record {
                    f(*i as u64 + first, record);
                }
            }
        };
        let ((), read) = rayon::join(take, || read_all(&next));
        (batch, records) = (next, read);
    }
}

/// Bytes read at once from a transcript (and more while a line goes on): a stretch of lines
/// handed over whole.
pub(super) const STRETCH: usize = 8 << 20;

/// A transcript read a stretch of lines at a time, from one or more files read as if joined
/// (a file that does not end with a newline gets one before the next): where each line starts.
#[derive(Debug)]
pub(super) struct Stretches {
    /// The bytes read at once ([`STRETCH`]).
    size: usize,
    /// Where each line read starts.
    starts: Vec<u64>,
    /// The bytes read, with a newline added between files.
    len: u64,
    /// The lines handed over.
    lines: u64,
    /// The start of a line not yet ended, read at the end of what was read.
    carry: Vec<u8>,
}

impl Stretches {
    /// Reads `size` bytes at once.
    pub(super) fn new(size: usize) -> Stretches {
        Stretches { size: size.max(1), starts: Vec::new(), len: 0, lines: 0, carry: Vec::new() }
    }

    /// Reads `input` to its end, handing each stretch of whole lines to `f` with the number of
    /// its first line (1-based) and whether a newline ends it. What follows the last newline
    /// waits for what comes next ([`Stretches::next_file`], [`Stretches::finish`]).
    pub(super) fn read(
        &mut self,
        mut input: impl Read,
        f: &mut impl FnMut(&[u8], u64, bool),
    ) -> std::io::Result<()> {
        let mut buf = std::mem::take(&mut self.carry);
        loop {
            let start = buf.len();
            buf.reserve(self.size);
            if (&mut input).take(self.size as u64).read_to_end(&mut buf)? == 0 {
                break;
            }
            let Some(end) = memchr::memrchr(b'\n', &buf[start..]) else { continue };
            self.stretch(&buf[..start + end], true, f);
            buf.drain(..=start + end);
        }
        self.carry = buf;
        Ok(())
    }

    /// Ends the file read (with a newline, when its last line has none): where the next starts.
    pub(super) fn next_file(&mut self, f: &mut impl FnMut(&[u8], u64, bool)) -> u64 {
        if !self.carry.is_empty() {
            let carry = std::mem::take(&mut self.carry);
            self.stretch(&carry, true, f);
        }
        self.len
    }

    /// Hands over the last line, when it has no newline, and gives where each line starts and,
    /// last, where the last ends (one past it when it has no newline): how the session reads a
    /// record's own line back.
    pub(super) fn finish(mut self, f: &mut impl FnMut(&[u8], u64, bool)) -> Vec<u64> {
        let carry = std::mem::take(&mut self.carry);
        let end = match carry.is_empty() {
            true => self.len,
            false => {
                self.stretch(&carry, false, f);
                self.len + 1
            }
        };
        self.starts.push(end);
        self.starts
    }

    fn stretch(&mut self, lines: &[u8], newline: bool, f: &mut impl FnMut(&[u8], u64, bool)) {
        let first = self.lines + 1;
        let len = self.len;
        self.starts.push(len);
        self.starts.extend(memchr::memchr_iter(b'\n', lines).map(|i| len + i as u64 + 1));
        self.lines = self.starts.len() as u64;
        self.len += lines.len() as u64 + u64::from(newline);
        f(lines, first, newline);
    }
}
