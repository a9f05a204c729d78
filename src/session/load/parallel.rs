//! Loading a large file on every core.
//!
//! Most of loading is per line and needs nothing of the rest of the file: finding the line,
//! validating its JSON and reading its envelope ([`scan_line`]). So the file is cut into pieces
//! of [`PIECE`] bytes; a piece owns the lines that *start* in it (the first line of a piece
//! other than the first begins after the first newline at or after its start, and its last
//! line may run past its end). The pieces are scanned in parallel, in file order and a
//! bounded number ahead of the index so that memory stays bounded, and their scanned lines are
//! taken into the index in file order by the same code as a sequential load
//! ([`Loader::apply`]), by whichever thread finishes the piece the index waits for, while the
//! others go on scanning: the result is the same index. The scheduling is
//! [`crate::in_order`]'s; this module says what a piece is and how it is taken.
//!
//! Each piece is read with reads of [`READ_SIZE`] (see [`Loader::read`]) into a buffer each
//! scanning thread keeps; where its first line starts is found with small reads before it.
//! Nothing is mapped, and the file is read once. The size is taken when loading starts: what a
//! writer appends meanwhile is not read, as if loading had finished first. Version-1 files
//! derive their ids from the line bytes in order; for those the caller loads again on one
//! thread.

use std::cell::Cell;
use std::fs::File;
use std::io::ErrorKind;

use rayon::prelude::*;

use super::{Digest, LineScan, Loader, READ_SIZE, each_line, scan_line};
use crate::format::Envelope;
use crate::id::EntryId;
use crate::in_order::{Ahead, scan_in_order};
use crate::json::scan::Scanner;

/// What a load reads its pieces from: a file, or a session held in memory (another agent's
/// transcript written as one).
pub(in crate::session) trait Input: Sync {
    /// Reads into `buf` from `offset`: how many bytes were read, 0 at the end.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize>;
    /// Fills `buf` from `offset`.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()>;
    /// All the bytes, when they are in memory: lines are then scanned where they lie.
    fn bytes(&self) -> Option<&[u8]> {
        None
    }
}

impl Input for File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
        crate::platform::read_at(self, buf, offset)
    }
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        crate::platform::read_exact_at(self, buf, offset)
    }
}

impl Input for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
        let start = usize::try_from(offset).map_or(self.len(), |o| o.min(self.len()));
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        match self.read_at(buf, offset)? == buf.len() {
            true => Ok(()),
            false => Err(ErrorKind::UnexpectedEof.into()),
        }
    }
    fn bytes(&self) -> Option<&[u8]> {
        Some(self)
    }
}

/// The bytes of one piece.
pub(super) const PIECE: u64 = 1 << 20;

/// Pieces, per scanning thread, that may be scanned from the one the index takes next on: they
/// are scanned in file order, a piece a thread at a time, but finish out of order, and those
/// after the one the index waits for wait in memory. What waits is their scanned lines (the
/// envelopes and gists, not the bytes): a few thousand lines of the agents' files, whose lines
/// average a couple of kilobytes.
const AHEAD_PER_THREAD: u64 = 8;

/// Scanned lines that may wait for the index, about: past it, a piece is scanned only when no
/// other piece waits or is being scanned, so that a file of short lines does not keep millions
/// of them waiting (a couple of hundred bytes each). Runs of blank lines count as one. What
/// waits at most is these, the piece being taken, and a piece a scanning thread; for a file of
/// short lines, the piece being taken and the next one. A piece of short lines is cheaper to
/// scan than to index, so one piece scanned while the one before is indexed still keeps two
/// cores busy.
const AHEAD_LINES: u64 = 1 << 16;

/// The most pieces the first batch has (one a thread up to it). The id index is sized from the
/// ids of that batch: from one piece alone, the 1M-entry benchmark file got a table twice the
/// size (its first megabyte is denser than the rest, and the estimate crossed a power of two),
/// 17 MB more peak memory.
const FIRST_BATCH: u64 = 4;

/// One line of a piece, scanned, or a run of blank lines.
struct Scanned<O> {
    offset: u64,
    /// The bytes from `offset` to the end of the last line, without its newline.
    len: u64,
    /// Whether the (last) line ends with a newline.
    has_newline: bool,
    /// `None` for the file's first line, which the index reads again (a title slot, a BOM).
    scan: Option<LineScan<'static, O>>,
    /// How many lines: more than one only for a run of blank lines (which the index only
    /// counts), so that a file of newlines does not give a scanned line per byte.
    lines: u64,
}

impl<O> Scanned<O> {
    /// The id of a record, which the id index takes.
    fn id(&self) -> Option<&EntryId> {
        match &self.scan {
            Some(LineScan::Record(Envelope { id, .. }, ..)) => id.as_ref(),
            _ => None,
        }
    }
}

/// Loads the index of `file` (of `len` bytes) in pieces of `piece` bytes on every core, or
/// `None` for a version-1 file; and the most scanned lines that waited for the index at once
/// (for the tests). The first pieces (one a thread, up to [`FIRST_BATCH`]) are scanned first,
/// to size the index from; then the others as the module says, a bounded number ahead of the
/// index ([`AHEAD_PER_THREAD`], [`AHEAD_LINES`]). No thread waits for another's piece, as they
/// did when pieces were scanned in batches (9% of the load's wall time on the 100k-entry
/// benchmark file).
pub(super) fn load<'d, D: Digest, I: Input + ?Sized>(
    mut loader: Loader<'d, D>,
    file: &I,
    len: u64,
    piece: u64,
) -> (std::io::Result<Option<Loader<'d, D>>>, u64) {
    let pieces = len.div_ceil(piece);
    let threads = (rayon::current_num_threads() as u64).max(1);
    let first = threads.min(FIRST_BATCH).min(pieces);
    let digest = loader.digest;
    let scan = |k: u64| scan_piece(file, len, k * piece, ((k + 1) * piece).min(len), digest);
    let scanned: Vec<_> = (0..first).into_par_iter().map(scan).collect();
    // Room for as many records as the first batch suggests. Only records with an id count:
    // blank and damaged lines are not indexed.
    let ids = scanned
        .iter()
        .flat_map(|r| r.as_deref().unwrap_or_default())
        .filter(|line| line.id().is_some())
        .count();
    let covered = (first * piece).min(len).max(1);
    let estimate = usize::try_from(ids as u128 * u128::from(len) / u128::from(covered));
    make_room(&mut loader, estimate.unwrap_or(0).min(u32::MAX as usize));
    let ahead = Ahead { per_thread: AHEAD_PER_THREAD, weight: AHEAD_LINES };
    let take = |scanned: std::io::Result<Vec<Scanned<D::Of>>>| {
        take_piece(&mut loader, file, scanned.map_err(Stop::Failed)?)
    };
    // What waits of a piece: its scanned lines (runs of blank lines as one).
    let lines_in = |scanned: &std::io::Result<Vec<_>>| scanned.as_ref().map_or(0, Vec::len) as u64;
    let done = scan_in_order(scanned, pieces, ahead, scan, lines_in, take);
    let loaded = match done.stop {
        Some(Stop::Failed(e)) => Err(e),
        Some(Stop::Version1) => Ok(None),
        // Every piece is taken unless the taking stopped (a piece left would be a bug here,
        // and an index without its lines).
        None if done.taken < pieces => {
            Err(std::io::Error::other("the parallel load left pieces of the file unread"))
        }
        None => Ok(Some(loader)),
    };
    (loaded, done.most_held)
}

/// Why a load ended before its last piece.
enum Stop {
    Failed(std::io::Error),
    /// The file is of version 1: the caller loads it again on one thread.
    Version1,
}

/// The id index is sized ahead for this many ids at most: a table of 64 MiB, allocated zeroed
/// (its pages cost memory only once a record lands in them). Past it, it grows as ids come.
const PRESIZED_IDS: usize = 1 << 22;

/// Room for about `estimate` records, so that the id index does not grow (and rehash) a dozen
/// times on the way to a million entries. The estimate is a guess that a file can inflate (a
/// dense first megabyte, then anything, up to a sparse file of gigabytes): the lists ask for
/// their room without insisting (what the allocator refuses, they grow into as records come),
/// and the id index is sized ahead for [`PRESIZED_IDS`] at most.
fn make_room<D: Digest>(loader: &mut Loader<'_, D>, estimate: usize) {
    let _ = loader.s.records.try_reserve(estimate);
    let _ = loader.links.try_reserve(estimate);
    if loader.digest.is_some() {
        let _ = loader.digests.try_reserve(estimate);
    }
    loader.s.by_id.reserve(&loader.s.records, estimate.min(PRESIZED_IDS));
}

/// Takes the scanned lines of a piece into the index, in order; stops when the file turns out
/// to be of version 1 (the caller loads it again on one thread).
fn take_piece<D: Digest, I: Input + ?Sized>(
    loader: &mut Loader<'_, D>,
    file: &I,
    lines: Vec<Scanned<D::Of>>,
) -> Result<(), Stop> {
    // The index slots of a piece's records are far apart in a large table: read them all
    // first, so that their cache misses overlap.
    for id in lines.iter().filter_map(Scanned::id) {
        loader.s.by_id.touch(id);
    }
    for line in lines {
        take(loader, file, line).map_err(Stop::Failed)?;
        if loader.v1 {
            return Err(Stop::Version1);
        }
    }
    Ok(())
}

/// Takes one scanned line into the index, as [`Loader::physical_line`] would.
fn take<D: Digest, I: Input + ?Sized>(
    loader: &mut Loader<'_, D>,
    file: &I,
    line: Scanned<D::Of>,
) -> std::io::Result<()> {
    let Scanned { offset, len, has_newline, scan, lines } = line;
    let Some(scan) = scan else {
        let bytes = read_line(file, offset, len)?;
        loader.physical_line(&bytes, has_newline);
        return Ok(());
    };
    loader.s.line_count += lines;
    loader.s.ends_with_newline = has_newline;
    if loader.s.is_empty() && matches!(scan, LineScan::Record(..)) {
        // The header is parsed in full.
        let bytes = read_line(file, offset, len)?;
        loader.apply(scan, &bytes, len, offset, has_newline);
    } else {
        loader.apply(scan, &[], len, offset, has_newline);
    }
    loader.s.file_len = offset + len + u64::from(has_newline);
    Ok(())
}

/// The bytes of one line, read again.
fn read_line<I: Input + ?Sized>(file: &I, offset: u64, len: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = vec![0u8; usize::try_from(len).map_err(|_| ErrorKind::OutOfMemory)?];
    file.read_exact_at(&mut bytes, offset)?;
    Ok(bytes)
}

/// How much [`first_line_start`] reads at a time: a line or two, where a piece's whole read
/// size would copy an eighth of the piece for nothing.
const PEEK: usize = 8 << 10;

/// Where the first line that starts in `start..end` starts, if one does.
fn first_line_start<I: Input + ?Sized>(
    file: &I,
    start: u64,
    end: u64,
) -> std::io::Result<Option<u64>> {
    if start == 0 {
        return Ok(Some(0));
    }
    // A line starts at `start` when the byte before it ends a line.
    let mut buf = [0u8; PEEK];
    let mut pos = start - 1;
    while pos < end {
        let want = (end - pos).min(PEEK as u64) as usize;
        let n = file.read_at(&mut buf[..want], pos)?;
        if n == 0 {
            break;
        }
        if let Some(p) = memchr::memchr(b'\n', &buf[..n]) {
            let line = pos + p as u64 + 1;
            return Ok((line < end).then_some(line));
        }
        pos += n as u64;
    }
    Ok(None)
}

thread_local! {
    /// Each scanning thread's read buffer, kept from piece to piece: a new one per piece cost
    /// the allocator a fresh mapping, its page faults and zeroing every time.
    static READ_BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Lines a piece is first given room for: the agents' lines average a couple of kilobytes,
/// and growing the list a line at a time copied it over and over.
fn lines_estimate(start: u64, end: u64) -> usize {
    usize::try_from((end - start) / 2048).unwrap_or(0).clamp(16, 4096)
}

/// Scans the lines that start in `start..end` of a file of `len` bytes.
fn scan_piece<D: Digest, I: Input + ?Sized>(
    file: &I,
    len: u64,
    start: u64,
    end: u64,
    digest: Option<&D>,
) -> std::io::Result<Vec<Scanned<D::Of>>> {
    let mut out = Vec::new();
    let Some(at) = first_line_start(file, start, end)? else { return Ok(out) };
    out.reserve(lines_estimate(start, end));
    let (mut at, mut pos, mut scanner) = (at, at, Scanner::new());
    let read = |buf: &mut [u8]| {
        let want = len.saturating_sub(pos).min(buf.len() as u64) as usize;
        let n = if want == 0 { 0 } else { file.read_at(&mut buf[..want], pos)? };
        pos += n as u64;
        Ok(n)
    };
    // Lines in memory are scanned where they lie; lines of a file through the thread's buffer.
    let in_memory = file.bytes().and_then(|all| all.get(at as usize..len as usize));
    let on_line = |bytes: &[u8], has_newline: bool| {
        // A version-1 file is handed back to the one-pass load, which reads its rows as such.
        let scan = (at != 0).then(|| scan_line(&mut scanner, bytes, digest, false).into_owned());
        let len = bytes.len() as u64;
        if let (Some(LineScan::Blank), Some(run)) = (&scan, out.last_mut())
            && matches!(run.scan, Some(LineScan::Blank))
        {
            // The line after a blank one: the run goes on.
            run.len = at + len - run.offset;
            run.has_newline = has_newline;
            run.lines += 1;
        } else {
            out.push(Scanned { offset: at, len, has_newline, scan, lines: 1 });
        }
        at += len + 1;
        at < end
    };
    if let Some(lines) = in_memory {
        each_line_in(lines, on_line);
        return Ok(out);
    }
    // Taken, not borrowed, and given back however the scan returns: a nested use (there is none)
    // would only get a new buffer.
    let mut buf = READ_BUFFER.take();
    buf.resize(READ_SIZE, 0);
    let scanned = each_line(read, &mut buf, on_line);
    READ_BUFFER.set(buf);
    scanned.map(|()| out)
}

/// Hands each line of `bytes` to `line`, as [`each_line`] hands those it reads.
fn each_line_in(bytes: &[u8], mut line: impl FnMut(&[u8], bool) -> bool) {
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        if !line(&bytes[start..end], true) {
            return;
        }
        start = end + 1;
    }
    if start < bytes.len() {
        line(&bytes[start..], false);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use std::path::Path;

    use crate::EntryId;
    use crate::session::Session;
    use crate::session::tests::{Echo, written};

    /// Everything the index holds, as text.
    fn index(s: &Session) -> String {
        format!(
            "{:?}\n{:?}\n{:?}\n{:?} {:?}\n{:?}\n{:?} {} {} {}\n{:?} {:?} {:?} {:?}\n{:?} {:?} {:?}",
            s.records,
            s.diagnostics,
            s.header,
            s.header_problem,
            s.lane_format,
            s.slot,
            s.labels,
            s.line_count,
            s.file_len,
            s.ends_with_newline,
            s.parent,
            s.roots,
            s.label_records,
            s.name(),
            s.omp_signals,
            s.pi_signals,
            s.archived.len(),
        )
    }

    /// The index of `text` loaded in pieces of `piece` bytes against the sequential one; `None`
    /// when the parallel loader hands the file back (version 1).
    fn compare(text: &[u8], piece: u64) -> Option<()> {
        let (_dir, path) = written(text);
        let sequential = Session::from_bytes(&path, text.to_vec()).unwrap();
        let (parallel, _) = Session::load_in_pieces(&path, None::<&Echo>, piece).unwrap()?;
        assert_eq!(index(&parallel), index(&sequential), "piece {piece}");
        // A digest changes nothing of the index, and each record's is the one-pass load's.
        let (digested, digests) = Session::load_in_pieces(&path, Some(&Echo), piece).unwrap()?;
        assert_eq!(index(&digested), index(&sequential), "piece {piece}, with a digest");
        let (_, one_pass) = Session::from_bytes_with(&path, text.to_vec(), &Echo).unwrap();
        assert_eq!(digests, one_pass);
        assert_eq!(digests.len(), digested.records.len());
        for (idx, (_, line)) in digests.iter().enumerate() {
            assert_eq!(*line, digested.raw_line(idx as u32).unwrap(), "record {idx}");
        }
        // Held in memory (standard input, another agent's transcript converted), in the same
        // pieces: the same index.
        let (loaded, _) = load(Loader::new(&path, None::<&Echo>), text, text.len() as u64, piece);
        let (in_memory, _) = loaded.unwrap()?.finish(crate::session::Source::Bytes(text.to_vec()));
        assert_eq!(index(&in_memory), index(&sequential), "piece {piece}, in memory");
        Some(())
    }

    const HEADER: &str = r#"{"type":"session","version":3,"id":"s1","cwd":"/w"}"#;

    #[test]
    #[cfg_attr(windows, ignore = "Windows opens no directory as a file")]
    fn a_read_that_fails_fails_the_load() {
        // A directory opens as a file, and every read of it fails (EISDIR), so the first
        // piece fails: the error comes back from the load, whether the first batch holds
        // every piece or the scans of later pieces must see the load stop, and nothing waits
        // for a piece that never comes.
        let dir = tempfile::tempdir().unwrap();
        let file = File::open(dir.path()).unwrap();
        for (len, piece) in [(10, 10), (20, 10), (100, 10), (1 << 20, 1 << 10)] {
            for threads in [1, 2, 8] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let loaded = pool
                    .install(|| load(Loader::new(dir.path(), None::<&Echo>), &file, len, piece).0);
                let error = loaded.err().expect("a read error fails the load");
                assert_eq!(error.kind(), ErrorKind::IsADirectory, "{len} {piece} {threads}");
            }
        }
    }

    #[test]
    fn pieces_give_the_same_index_as_one_pass() {
        let long = "y".repeat(3 * READ_SIZE + 11);
        let lines = [
            "\u{feff}{\"title\":\"slot\"}".to_owned(),
            HEADER.to_owned(),
            String::new(),
            "   ".to_owned(),
            r#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z"}"#
                .to_owned(),
            format!(r#"{{"type":"message","id":"b","parentId":"a","pad":"{long}"}}"#),
            r#"{"type":"label","id":"l","parentId":"b","targetId":"a","label":"x\u00e9"}"#
                .to_owned(),
            "not json".to_owned(),
            // An id the envelope's scan cannot decode (a lone surrogate) and a row that reads.
            r#"{"type":"message","id":"x\ud800y","message":{"role":"user","content":"hi"}}"#
                .to_owned(),
            "[1,2]".to_owned(),
            "{\"type\":\"message\",\"id\":\"c\",\"parentId\":\"b\",\"t\":\"\u{ff}\"}".to_owned(),
            r#"{"type":"message","id":"a","parentId":"c"}"#.to_owned(),
            format!(
                r#"{{"type":"x","id":"d","parentId":"zz","x":{}{}}}"#,
                "[".repeat(200),
                "]".repeat(200)
            ),
            r#"{"type":"title_change","id":"t","parentId":"a","title":"T","source":"user"}"#
                .to_owned(),
            // Nested right up to the limit (127 levels) and one past it, inside a call's
            // arguments and beside the message; and at 126 levels, which the walk that reads
            // the row and the envelope together still takes.
            deep_call("h", 121),
            deep_call("e", 122),
            deep_call("f", 123),
            format!(r#"{{"type":"x","id":"g","x":{}{}}}"#, "[".repeat(126), "]".repeat(126)),
            r#"{"type":"message","id":"torn""#.to_owned(),
        ];
        let mut text = lines.join("\n").into_bytes();
        // Invalid UTF-8 inside a string.
        let at = text.windows(2).position(|w| w == "\u{ff}".as_bytes()).unwrap();
        text[at] = 0xff;
        for piece in [1, 2, 3, 7, 64, 100, 1000, READ_SIZE as u64, 1 << 30] {
            compare(&text, piece).unwrap();
            let mut ended = text.clone();
            ended.push(b'\n');
            compare(&ended, piece).unwrap();
        }
    }

    #[test]
    fn a_lane_format_file_is_read_no_further_in_pieces_too() {
        let text = concat!(
            r#"{"kind":"header","version":4,"id":"l","createdAt":1,"cwd":"/w"}"#,
            "\n",
            r#"{"kind":"entry","entry":{"type":"message","id":"a","parentId":null}}"#,
            "\n",
            r#"{"type":"message","id":"b","parentId":null}"#,
            "\n",
            "not json\n",
        );
        for piece in [1, 7, 64, 1 << 30] {
            compare(text.as_bytes(), piece).unwrap();
        }
        let s = Session::from_bytes(Path::new("l"), text.as_bytes().to_vec()).unwrap();
        assert_eq!((s.lane_format, s.records.len(), s.diagnostics.len()), (Some(1), 0, 0));
    }

    /// An assistant message whose `read` call's path nests `levels` arrays deep: the line
    /// nests `5 + levels` levels.
    fn deep_call(id: &str, levels: usize) -> String {
        let path = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        format!(
            r#"{{"type":"message","id":"{id}","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c","name":"read","arguments":{{"path":{path}}}}}]}}}}"#
        )
    }

    #[test]
    fn the_depth_limit_holds_with_a_digest() {
        let lines =
            [HEADER.to_owned(), deep_call("h", 121), deep_call("e", 122), deep_call("f", 123)];
        let text = lines.join("\n").into_bytes();
        let (s, digests) = Session::from_bytes_with(Path::new("t"), text, &Echo).unwrap();
        let ids: Vec<_> = s.records.iter().filter_map(|r| r.id.as_ref()).collect();
        assert_eq!(ids, [&EntryId::new("h"), &EntryId::new("e")]);
        assert_eq!(s.diagnostics.len(), 1);
        assert!(s.diagnostics[0].message.contains("nested deeper than 127 levels"));
        assert_eq!(digests.len(), 2);
    }

    /// Loads `text` in pieces of `piece` bytes in a pool of each of `threads`, and checks that
    /// it indexes `records` records and that no more lines waited for the index than the bound,
    /// a piece being taken and a piece each thread scans (`per_piece` lines a piece at most).
    fn check_waiting(text: &[u8], piece: u64, per_piece: u64, threads: &[usize], records: usize) {
        let (_dir, path) = written(text);
        for &threads in threads {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let file = File::open(&path).unwrap();
            let (loaded, most) = pool.install(|| {
                let loader = Loader::new(&path, None::<&Echo>);
                load(loader, &file, text.len() as u64, piece)
            });
            assert_eq!(loaded.unwrap().unwrap().s.records.len(), records);
            let bound = AHEAD_LINES + (threads as u64 + 1) * per_piece;
            assert!(most <= bound, "{threads} threads: {most} lines waited, past {bound}");
        }
    }

    /// What waits for the index stays near [`AHEAD_LINES`], with any number of threads, even
    /// where pieces with few lines (inside a line longer than a piece) come before pieces of
    /// many: one piece a thread is scanned at a time, and past the bound no other waits.
    #[test]
    fn scanned_lines_waiting_stay_bounded() {
        let mut text = format!("{HEADER}\n").into_bytes();
        text.extend(format!(r#"{{"type":"x","pad":"{}"}}"#, "y".repeat(300_000)).bytes());
        text.push(b'\n');
        text.extend(b"{}\n".repeat(400_000));
        // A piece of 64 KiB holds 21,846 lines at most of `{}`.
        check_waiting(&text, 1 << 16, (1 << 16) / 3 + 1, &[1, 2, 8], 400_001);
    }

    /// Past the bound, a piece is scanned only while no other waits or is being scanned, even
    /// where indexing a piece (short lines with ids) is slower than scanning the next ones.
    #[test]
    fn dense_pieces_wait_one_at_a_time_past_the_bound() {
        let mut text = format!("{HEADER}\n").into_bytes();
        for n in 0..600_000 {
            text.extend(format!("{{\"id\":\"{n:06x}\"}}\n").bytes());
        }
        // Lines of 14 bytes: a piece of 256 KiB holds 18,725 at most.
        check_waiting(&text, 1 << 18, (1 << 18) / 14 + 1, &[2, 8], 600_000);
    }

    /// Many small pieces, in pools of 1, 2, 3 and 8 threads, and four loads at once from
    /// inside the pool (as `fsck`, `stats` and `ls` load files): a piece taken out of order,
    /// twice or never shows in the index.
    #[test]
    fn pieces_are_taken_in_order_whatever_the_threads() {
        let mut text = format!("{HEADER}\n").into_bytes();
        for n in 0..200 {
            let parent = if n == 0 { "null".to_owned() } else { format!("\"e{}\"", n - 1) };
            text.extend(format!(r#"{{"type":"message","id":"e{n}","parentId":{parent}}}"#).bytes());
            text.push(b'\n');
        }
        let (dir, path) = written(&text);
        let expected = index(&Session::from_bytes(&path, text.clone()).unwrap());
        let once = |piece: u64| {
            index(&Session::load_in_pieces(&path, None::<&Echo>, piece).unwrap().unwrap().0)
        };
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for round in 0..100u64 {
                let piece = 1 + round * 7 % 200;
                assert!(pool.install(|| once(piece)) == expected, "{threads} threads, {piece}");
                // Loads inside loads: a thread waiting in one's scope runs the others' work.
                let all: Vec<String> =
                    pool.install(|| (0..4).into_par_iter().map(|k| once(piece + k)).collect());
                for (k, got) in all.iter().enumerate() {
                    assert!(*got == expected, "{threads} threads, nested, {}", piece + k as u64);
                }
            }
        }
        // No pieces at all.
        let empty = dir.path().join("empty.jsonl");
        std::fs::write(&empty, b"").unwrap();
        let got = index(&Session::load_in_pieces(&empty, None::<&Echo>, PIECE).unwrap().unwrap().0);
        assert_eq!(got, index(&Session::from_bytes(&empty, Vec::new()).unwrap()));
    }

    /// A file of newlines: each run of blank lines in a piece is held as one scanned line, and
    /// the index (line numbers, the last line's newline) is the one a single pass gives.
    #[test]
    fn runs_of_blank_lines_are_held_as_one() {
        let record = r#"{"type":"message","id":"a","parentId":null}"#;
        let mut text = format!("{HEADER}\n").into_bytes();
        text.extend(std::iter::repeat_n(b'\n', 300_000));
        text.extend_from_slice(format!("{record}\n \n\t\n").as_bytes());
        text.extend(std::iter::repeat_n(b'\n', 1000));
        text.extend_from_slice(b"  ");
        let (_dir, path) = written(&text);
        let file = File::open(&path).unwrap();
        let len = text.len() as u64;
        let scanned = scan_piece(&file, len, 0, len, None::<&Echo>).unwrap();
        let lines: Vec<u64> = scanned.iter().map(|s| s.lines).collect();
        assert_eq!(lines, [1, 300_000, 1, 1003]);
        assert!(!scanned[3].has_newline);
        for piece in [1000, 4096, 1 << 20] {
            compare(&text, piece).unwrap();
        }
    }

    /// The id index is sized from the records with an id in the first batch, not its lines: a
    /// file that starts with lines that have no id does not get room for as many ids.
    #[test]
    fn the_id_index_is_sized_by_the_ids_read() {
        let mut text = format!("{HEADER}\n").into_bytes();
        for _ in 0..40_000 {
            text.extend_from_slice(b"{\"type\":\"x\"}\n");
        }
        for n in 0..10 {
            text.extend_from_slice(format!(r#"{{"type":"message","id":"e{n}"}}"#).as_bytes());
            text.push(b'\n');
        }
        let (_dir, path) = written(&text);
        let (s, _) = Session::load_in_pieces(&path, None::<&Echo>, 4096).unwrap().unwrap();
        assert_eq!(s.records.len(), 40_010);
        assert!(s.by_id.capacity() <= 64, "{} slots", s.by_id.capacity());
    }

    /// An estimate a file inflated (a dense first piece, then gigabytes) asks for no more than
    /// the allocator gives: a load goes on, where it used to abort.
    #[test]
    fn an_inflated_estimate_does_not_abort() {
        let mut loader = Loader::new(Path::new("s.jsonl"), Some(&Echo));
        make_room(&mut loader, u32::MAX as usize);
        assert!(loader.s.by_id.capacity() <= 2 * PRESIZED_IDS);
        // However much was reserved, nothing of it is used yet.
        assert!(
            loader.s.records.is_empty() && loader.links.is_empty() && loader.digests.is_empty()
        );
    }

    /// Blank lines (empty, spaces, tabs, a CR, a form feed) in every place a piece can cut them,
    /// before and after the header, with and without a BOM and a last newline.
    #[test]
    fn blank_lines_anywhere_give_the_same_index() {
        let record = r#"{"type":"message","id":"a"}"#;
        let cases = [
            "\n\n\n".to_owned(),
            "\n".to_owned(),
            "  ".to_owned(),
            "\u{feff}\n\n\n".to_owned(),
            "\u{feff}".to_owned(),
            format!("\n\n{HEADER}\n\n\n"),
            format!("\u{feff}{HEADER}\n\n \n\t\n\r\n{record}\n\n\n"),
            format!("{HEADER}\n\n\n{record}\n\n\n   "),
            format!("{HEADER}\n\n\n{record}\n\n\nbad"),
            format!("{HEADER}\n\x0c\n\x0b\n{record}\n"),
        ];
        for text in &cases {
            for piece in 1..=(text.len() as u64 + 2) {
                compare(text.as_bytes(), piece);
            }
        }
    }

    /// Regions of short lines (few pieces scanned ahead) and of long ones (many) in turn.
    #[test]
    fn pieces_ahead_that_shrink_and_grow_give_the_same_index() {
        let mut text = format!("{HEADER}\n").into_bytes();
        let mut n = 0;
        for block in 0..4 {
            text.extend(b"{}\n\n".repeat(3000));
            for _ in 0..20 {
                n += 1;
                let pad = "x".repeat(3000 + block);
                text.extend(format!(r#"{{"type":"message","id":"e{n}","pad":"{pad}"}}"#).bytes());
                text.push(b'\n');
            }
            text.extend(b"x\n \n".repeat(2000));
        }
        for piece in [512, 4096, 65536] {
            compare(&text, piece).unwrap();
        }
    }

    #[test]
    fn version_1_files_are_handed_back() {
        let text = "{\"type\":\"session\",\"id\":\"s\"}\n{\"type\":\"message\"}\n";
        assert!(compare(text.as_bytes(), 4).is_none());
    }

    proptest! {
        /// Any lines in any order (the header anywhere, a title slot, blank lines of every
        /// kind), with or without a BOM, cut anywhere.
        #[test]
        fn any_lines_cut_anywhere_give_the_same_index(
            bom in any::<bool>(),
            lines in proptest::collection::vec(
                prop_oneof![
                    Just(HEADER.to_owned()),
                    Just(r#"{"title":"t"}"#.to_owned()),
                    Just(r#"{"type":"message","id":"a","parentId":null}"#.to_owned()),
                    Just(r#"{"type":"message","id":"b","parentId":"a"}"#.to_owned()),
                    Just(String::new()),
                    Just(" ".to_owned()),
                    Just("\t".to_owned()),
                    Just("\r".to_owned()),
                    "[a-z{}\":,\\[\\] \t]{0,10}",
                ],
                0..16,
            ),
            piece in 1..64u64,
            newline in any::<bool>(),
        ) {
            let mut text = if bom { "\u{feff}".to_owned() } else { String::new() };
            text.push_str(&lines.join("\n"));
            if newline {
                text.push('\n');
            }
            compare(text.as_bytes(), piece);
        }

        #[test]
        fn any_cut_gives_the_same_index(
            lines in proptest::collection::vec(
                prop_oneof![
                    Just(r#"{"type":"message","id":"a","parentId":null}"#.to_owned()),
                    Just(r#"{"type":"message","id":"b","parentId":"a"}"#.to_owned()),
                    Just(r#"{"type":"label","id":"l","targetId":"a","label":"k"}"#.to_owned()),
                    Just(String::new()),
                    "[a-z{}\":,\\[\\] ]{0,30}",
                ],
                0..12,
            ),
            piece in 1..80u64,
            newline in any::<bool>(),
        ) {
            let mut text = format!("{HEADER}\n{}", lines.join("\n"));
            if newline {
                text.push('\n');
            }
            prop_assert!(compare(text.as_bytes(), piece).is_some());
        }
    }
}
