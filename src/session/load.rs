//! The loader: reads a file once, line by line ([`Loader`]), on every core for large files
//! ([`parallel`]), and builds the [`Session`] index. Each line is scanned on its own
//! ([`scan_line`]); what needs the state of the file (ids seen, the header, labels, names) is
//! taken in file order ([`Loader::physical_line`]).

use std::borrow::Cow;
use std::fs::File;
use std::io::{Read, Seek};
use std::path::Path;

use serde_json::Value;

use super::{
    Diagnostic, Digest, Header, IdMap, LabelRecord, NONE, Problem, Record, Session, Source,
};
use crate::error::{Error, Result};
use crate::format::envelope::scan_envelope_depth;
use crate::format::kind::Writers;
use crate::format::title::parse_slot;
use crate::format::{
    Envelope, HeaderRef, Kind, MAX_VERSION, Marks, is_lane_header, scan_envelope, v1,
};
use crate::id::EntryId;
use crate::json::MAX_NESTING;
use crate::json::scan::Scanner;

mod parallel;

/// Bytes asked for per `read` while loading.
pub(super) const READ_SIZE: usize = 128 << 10;

/// Files from this size on are loaded on every core ([`parallel`]); below it, starting the
/// threads costs more than they save.
const PARALLEL_MIN: u64 = 8 << 20;

/// Loads the regular file `file` of `len` bytes, on every core when it is large.
pub(super) fn file<D: Digest>(
    path: &Path,
    digest: Option<&D>,
    file: File,
    len: u64,
) -> Result<(Session, Vec<D::Of>)> {
    let first = first_line(&file).map_err(|e| Error::io(path, e))?;
    // Reading at an offset moves the cursor on Windows: the reads below start from the start.
    (&file).seek(std::io::SeekFrom::Start(0)).map_err(|e| Error::io(path, e))?;
    if let Some(foreign) = foreign_format(&first) {
        let read = foreign.read(path, &file, len).map_err(|e| Error::io(path, e))?;
        return Ok(transcoded(path, foreign, read, digest));
    }
    // A version-1 file gives `None`: it is loaded again below, on one thread.
    let pieces = || parallel::load(Loader::new(path, digest), &file, len, parallel::PIECE).0;
    if len >= PARALLEL_MIN
        && rayon::current_num_threads() > 1
        && let Some(loader) = pieces().map_err(|e| Error::io(path, e))?
    {
        return Ok(loader.finish(Source::file(file)));
    }
    let mut loader = Loader::new(path, digest);
    loader.read(&file).map_err(|e| Error::io(path, e))?;
    Ok(loader.finish(Source::file(file)))
}

impl Session {
    /// Loads `path`, with a [`Digest`] or none, through the parallel loader in pieces of
    /// `piece` bytes (at least one), whatever the file's size and the number of cores: for the
    /// fuzzer, which holds it to the one-pass load. `None` for a version-1 file, which the
    /// parallel loader hands back.
    #[doc(hidden)]
    pub fn load_in_pieces<D: Digest>(
        path: &Path,
        digest: Option<&D>,
        piece: u64,
    ) -> Result<Option<(Session, Vec<D::Of>)>> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        let (loaded, _) = parallel::load(Loader::new(path, digest), &file, len, piece.max(1));
        let loaded = loaded.map_err(|e| Error::io(path, e))?;
        Ok(loaded.map(|loader| loader.finish(Source::file(file))))
    }
}

/// Loads a session held in memory.
pub(super) fn bytes<D: Digest>(
    path: &Path,
    bytes: Vec<u8>,
    digest: Option<&D>,
) -> (Session, Vec<D::Of>) {
    if let Some(foreign) = foreign_format(&bytes)
        // Reading memory cannot fail.
        && let Ok(read) = foreign.read(path, bytes.as_slice(), bytes.len() as u64)
    {
        drop(bytes);
        return transcoded(path, foreign, read, digest);
    }
    in_memory(path, bytes, digest)
}

/// Loads the session `bytes` holds, on every core when it is large, as [`file`] loads one.
fn in_memory<D: Digest>(path: &Path, bytes: Vec<u8>, digest: Option<&D>) -> (Session, Vec<D::Of>) {
    let len = bytes.len() as u64;
    // Reading a slice cannot fail; a version-1 session gives `None`, and is loaded on one thread.
    let pieces =
        || parallel::load(Loader::new(path, digest), bytes.as_slice(), len, parallel::PIECE);
    if len >= PARALLEL_MIN
        && rayon::current_num_threads() > 1
        && let (Ok(Some(loader)), _) = pieces()
    {
        return loader.finish(Source::Bytes(bytes));
    }
    let mut loader = Loader::new(path, digest);
    let _ = loader.read(bytes.as_slice());
    loader.finish(Source::Bytes(bytes))
}

/// The longest first line read to tell another agent's transcript from a session.
const FIRST_LINE_MAX: usize = 16 << 20;

/// The start of `file` up to the end of its first non-blank line (or [`FIRST_LINE_MAX`]
/// bytes), read without moving its position.
pub(super) fn first_line(file: &File) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = crate::platform::read_at(file, &mut buf, head.len() as u64)?;
        head.extend_from_slice(&buf[..n]);
        let blank = |line: &[u8]| line.iter().all(u8::is_ascii_whitespace);
        let ended = head.split(|&b| b == b'\n').rev().skip(1).any(|line| !blank(line));
        if n == 0 || ended || head.len() >= FIRST_LINE_MAX {
            return Ok(head);
        }
    }
}

/// The other agent whose transcript `input` is, told by its first non-blank line.
pub(super) fn foreign_format(input: &[u8]) -> Option<crate::format::Foreign> {
    let line = input.split(|&b| b == b'\n').find(|l| !l.iter().all(u8::is_ascii_whitespace))?;
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    match parse_lossy(line)? {
        Value::Object(record) => crate::format::Foreign::of(&record),
        _ => None,
    }
}

/// Loads another agent's transcript through its transcoding into a session: the records keep
/// the lines of the transcript, and the leaf is the one the transcoding names.
fn transcoded<D: Digest>(
    path: &Path,
    foreign: crate::format::Foreign,
    read: crate::format::foreign::Reading,
    digest: Option<&D>,
) -> (Session, Vec<D::Of>) {
    let crate::format::foreign::Reading { transcoded, starts, joined } = read;
    let crate::format::transcript::Transcoded { bytes, lines, leaf } = transcoded;
    let (mut s, digests) = in_memory(path, bytes, digest);
    let line = |l: u64| lines.get(l as usize - 1).copied().unwrap_or(l);
    s.records.iter_mut().for_each(|r| r.line = line(r.line));
    // Where each record's line lies in the transcript: `--raw` reads it back from the file.
    s.foreign_lines = s
        .records
        .iter()
        .map(|r| {
            let at = |l: u64| starts.get(l as usize).copied().unwrap_or_default();
            let start = at(r.line - 1);
            (start, at(r.line).saturating_sub(start + 1))
        })
        .collect();
    s.diagnostics.iter_mut().for_each(|d| d.line = line(d.line));
    if let Some(header) = &mut s.header {
        header.line = line(header.line);
    }
    s.foreign_leaf = leaf.and_then(|id| s.lookup(&EntryId::new(id)));
    s.foreign_joined = joined;
    s.foreign = Some(foreign);
    (s, digests)
}

/// Parses a line, replacing invalid UTF-8 with U+FFFD so the record still loads.
pub(crate) fn parse_lossy(bytes: &[u8]) -> Option<Value> {
    match serde_json::from_slice(bytes) {
        Ok(v) => Some(v),
        Err(_) if std::str::from_utf8(bytes).is_err() => {
            serde_json::from_str(&String::from_utf8_lossy(bytes)).ok()
        }
        Err(_) => None,
    }
}

/// Whether a JSON text nests arrays and objects deeper than [`MAX_NESTING`]: walked by the
/// scanner, for the rare lines it did not read on its way to the envelope (not objects, or
/// invalid UTF-8 where the envelope reads).
pub(super) fn nested_too_deep(scanner: &mut Scanner, line: &[u8]) -> bool {
    scanner.validate(line).is_ok() && scanner.deepest() > MAX_NESTING
}

/// Reads with `read` through `buf` and hands each line to `line` (without its newline, and
/// whether it had one) until `line` says to stop or the input ends. A line is handed over where
/// it lies in the buffer; only a line that straddles two reads is copied.
pub(super) fn each_line(
    mut read: impl FnMut(&mut [u8]) -> std::io::Result<usize>,
    buf: &mut [u8],
    mut line: impl FnMut(&[u8], bool) -> bool,
) -> std::io::Result<()> {
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = read(buf)?;
        if n == 0 {
            break;
        }
        let data = &buf[..n];
        let mut start = 0;
        while let Some(p) = memchr::memchr(b'\n', &data[start..]) {
            let end = start + p;
            let go_on = if carry.is_empty() {
                line(&data[start..end], true)
            } else {
                carry.extend_from_slice(&data[start..end]);
                let go_on = line(&carry, true);
                carry.clear();
                go_on
            };
            if !go_on {
                return Ok(());
            }
            start = end + 1;
        }
        carry.extend_from_slice(&data[start..]);
    }
    // The end of the input: a last line without a newline (a torn write, say).
    if !carry.is_empty() {
        line(&carry, false);
    }
    Ok(())
}

/// What loading makes of one line on its own, without the state of the file (ids seen,
/// line numbers, the header): the part the parallel loader runs on every core.
#[derive(Debug)]
// Nearly every line is a record: boxing the envelope would cost an allocation a line.
#[allow(clippy::large_enum_variant)]
enum LineScan<'a, O> {
    /// Nothing but whitespace.
    Blank,
    /// A record, by its envelope, its timestamp as read (the envelope's `timestamp` is not
    /// kept once the record is owned) and its digest when the load works one out.
    Record(Envelope<'a>, Option<i64>, Option<O>),
    /// Valid JSON nested deeper than [`MAX_NESTING`].
    TooDeep,
    /// Not JSON (or cut short).
    Bad(crate::format::envelope::ScanError),
}

impl<O> LineScan<'_, O> {
    fn into_owned(self) -> LineScan<'static, O> {
        match self {
            LineScan::Blank => LineScan::Blank,
            LineScan::Record(env, time, gist) => {
                LineScan::Record(Envelope { timestamp: None, ..env }.into_owned(), time, gist)
            }
            LineScan::TooDeep => LineScan::TooDeep,
            LineScan::Bad(e) => LineScan::Bad(e),
        }
    }
}

/// Scans one line (without its newline) into its [`LineScan`], with the record's digest when
/// the load works one out. `v1` says the file is of version 1.
fn scan_line<'a, D: Digest>(
    scanner: &mut Scanner,
    bytes: &'a [u8],
    digest: Option<&D>,
    v1: bool,
) -> LineScan<'a, D::Of> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return LineScan::Blank;
    }
    // The digest is read on the same index as the envelope, in the same walk where it can be.
    // That walk does not count the depth exactly, but it bounds it: a line that might be too
    // deep is read the usual way.
    if let Some(digest) = digest
        && !v1
        && let Ok((line, stack)) = scanner.index(bytes)
        && let Some((env, of)) = digest.with_envelope(&line, stack)
        && line.deepest() + D::WALK_DEPTH <= MAX_NESTING
    {
        let time = env.timestamp.as_deref().and_then(crate::clock::parse_timestamp);
        return LineScan::Record(env, time, Some(of));
    }
    let scanned = match scan_envelope_depth(scanner, bytes) {
        Ok(scanned) => Ok(scanned),
        Err(e) if std::str::from_utf8(bytes).is_err() => {
            // Invalid UTF-8: read it as U+FFFD so the record loads; its bytes stay as they are.
            let lossy = String::from_utf8_lossy(bytes);
            scan_envelope(lossy.as_bytes()).map(|env| (env.into_owned(), None)).map_err(|_| e)
        }
        Err(e) => Err(e),
    };
    match scanned {
        // The scanner measured the depth of what it walked; other lines are measured here.
        Ok((_, Some(depth))) if depth > MAX_NESTING => LineScan::TooDeep,
        Ok((_, None)) if nested_too_deep(scanner, bytes) => LineScan::TooDeep,
        Ok((env, _)) => {
            let time = env.timestamp.as_deref().and_then(crate::clock::parse_timestamp);
            let of = digest.map(|digest| digest.of_line(scanner, bytes, v1));
            LineScan::Record(env, time, of)
        }
        Err(e) => LineScan::Bad(e),
    }
}

/// The one-pass reader: turns lines into records and collects what the index needs.
struct Loader<'d, D: Digest> {
    /// The session as far as it is read: all but its parent links and the file to read from.
    s: Session,
    /// How each record links to its parent, worked out as it is read (see [`Link`]).
    links: Vec<Link>,
    labels: Vec<Option<(EntryId, Box<str>)>>,
    label_pos: IdMap<usize>,
    v1: bool,
    last_v1_id: Option<EntryId>,
    scanner: Scanner,
    /// What to work out of each record besides the index, if anything.
    digest: Option<&'d D>,
    digests: Vec<D::Of>,
}

impl<'d, D: Digest> Loader<'d, D> {
    fn new(path: &Path, digest: Option<&'d D>) -> Self {
        Loader {
            s: Session { path: path.to_path_buf(), ends_with_newline: true, ..Session::default() },
            links: Vec::new(),
            labels: Vec::new(),
            label_pos: IdMap::default(),
            v1: false,
            last_v1_id: None,
            scanner: Scanner::new(),
            digest,
            digests: Vec::new(),
        }
    }

    /// Reads lines from `reader` with large reads, scanning each complete line where it lies in
    /// the buffer; only a line that straddles two reads is copied. Reads of 128 KiB keep the
    /// buffer in the CPU cache: larger ones measured 3× slower in the kernel's copy.
    fn read(&mut self, mut reader: impl Read) -> std::io::Result<()> {
        let read = |buf: &mut [u8]| loop {
            match reader.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                read => return read,
            }
        };
        each_line(read, &mut vec![0u8; READ_SIZE], |line, has_newline| {
            self.physical_line(line, has_newline);
            true
        })
    }

    /// One physical line, without its newline.
    fn physical_line(&mut self, raw: &[u8], has_newline: bool) {
        self.s.line_count += 1;
        let mut start = 0;
        if self.s.line_count == 1 && raw.starts_with(b"\xEF\xBB\xBF") {
            start = 3; // A leading BOM is ignored (SPEC §1).
        }
        self.s.ends_with_newline = has_newline;
        self.line(&raw[start..], self.s.file_len + start as u64, has_newline);
        self.s.file_len += raw.len() as u64 + u64::from(has_newline);
    }

    fn warn(
        &mut self,
        problem: Problem,
        id: Option<EntryId>,
        message: impl Into<Cow<'static, str>>,
    ) {
        let message = message.into();
        self.s.diagnostics.push(Diagnostic { line: self.s.line_count, problem, id, message });
    }

    fn line(&mut self, bytes: &[u8], offset: u64, has_newline: bool) {
        if self.s.line_count == 1
            && !bytes.iter().all(u8::is_ascii_whitespace)
            && let Some(slot) = parse_slot(bytes)
        {
            self.s.slot = Some(slot);
            return;
        }
        let scan = scan_line(&mut self.scanner, bytes, self.digest, self.v1);
        self.apply(scan, bytes, bytes.len() as u64, offset, has_newline);
    }

    /// Takes one scanned line into the index. `bytes` is the line; the parallel loader passes
    /// it only for the first record (the header, parsed in full), since the others are read
    /// from their envelope alone (version 1 aside, which it leaves to the sequential loader).
    fn apply(
        &mut self,
        scan: LineScan<'_, D::Of>,
        bytes: &[u8],
        len: u64,
        offset: u64,
        has_newline: bool,
    ) {
        if self.s.lane_format.is_some() {
            // Lines of another format: nothing here knows what they mean.
            return;
        }
        let (env, time, digest) = match scan {
            LineScan::Blank => return,
            LineScan::TooDeep => {
                // The envelope scan skips payloads without a depth limit, but a full parse has
                // one (and a deeper value could not be dropped without recursing that deep), so
                // such a line is unparseable here rather than an entry no command can show.
                self.warn(
                    Problem::Unparseable,
                    None,
                    format!("unparseable line: nested deeper than {MAX_NESTING} levels"),
                );
                return;
            }
            LineScan::Bad(e) => {
                let (problem, what) = if e.eof && !has_newline {
                    (Problem::Truncated, "truncated last line")
                } else {
                    (Problem::Unparseable, "unparseable line")
                };
                self.warn(problem, None, format!("{what}: {e}"));
                return;
            }
            LineScan::Record(env, time, digest) => (env, time, digest),
        };
        // The first record makes the session a header, a header's problem or another format.
        if self.s.is_empty() {
            self.first_record(bytes, offset, env, time, digest);
            return;
        }
        self.entry(bytes, len, offset, env, time, digest);
    }

    /// The first record must be the header (FORMAT §4.1 step 4).
    fn first_record(
        &mut self,
        bytes: &[u8],
        offset: u64,
        env: Envelope<'_>,
        time: Option<i64>,
        digest: Option<D::Of>,
    ) {
        let is_header = env.kind.as_deref() == Some("session");
        let value = if is_header { parse_lossy(bytes) } else { None };
        if let Some(Value::Object(map)) = value
            && let Some(id) = HeaderRef::new(&map).id().map(str::to_owned)
        {
            let version = HeaderRef::new(&map).version();
            if version > MAX_VERSION {
                self.warn(
                    Problem::VersionTooNew,
                    None,
                    format!("session version {version} is newer than this sesstree understands"),
                );
            }
            self.v1 = version < 2;
            let (line, len) = (self.s.line_count, bytes.len() as u64);
            self.s.header = Some(Header { line, offset, len, value: map, id, version });
            return;
        }
        if env.kind.is_none()
            && let Some(Value::Object(record)) = parse_lossy(bytes)
            && is_lane_header(&record)
        {
            self.s.lane_format = Some(self.s.line_count);
            return;
        }
        let reason = match env.kind.as_deref() {
            Some("session") => "the header has no string id".to_string(),
            Some(k) => format!("the first record is of type '{k}', not 'session'"),
            None => "the first record has no type".to_string(),
        };
        self.warn(Problem::BadHeader, None, format!("no valid session header: {reason}"));
        self.s.header_problem = Some((self.s.line_count, reason));
        // Keep the record: fsck --repair restores a header in front of the entries.
        self.entry(bytes, bytes.len() as u64, offset, env, time, digest);
    }

    /// One record after the header, with its timestamp as read and its digest. `bytes` is read
    /// only for version-1 records (their ids are derived from it); `len` is the line's length.
    fn entry(
        &mut self,
        bytes: &[u8],
        len: u64,
        offset: u64,
        mut env: Envelope<'_>,
        time: Option<i64>,
        digest: Option<D::Of>,
    ) {
        let idx = self.s.records.len() as u32;
        let kind = env.kind.as_deref().map_or(Kind::Missing, Kind::from_name);
        let (mut id, mut parent_id) = (env.id.take(), env.parent_id.take());
        if !env.is_object {
            self.warn(Problem::NotAnObject, None, "record is not a JSON object");
        } else if self.v1 {
            // Version 1 has no ids: give each record the id `migrate` would, chained in file
            // order (FORMAT §11). The header is record 0.
            let (by_id, records) = (&self.s.by_id, &self.s.records);
            let fresh = v1::unique_id(idx as usize + 1, bytes, |c| {
                by_id.get(records, &EntryId::new(c)).is_some()
            });
            id = Some(EntryId::new(fresh));
            parent_id = self.last_v1_id.clone();
            self.last_v1_id = id.clone();
        } else if id.is_none() {
            self.warn(Problem::NoId, None, "entry has no id");
        }
        self.note_signals(&kind, &env);
        let marks = env.marks();
        match kind {
            Kind::Label => self.replay_label(idx, marks),
            Kind::Archive => {
                if let Some(t) = &marks.target_id {
                    self.s.archived.insert(t.clone(), marks.archived.unwrap_or(false));
                }
            }
            Kind::SessionInfo => {
                if let Some(n) = marks.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
                    self.s.last_session_info = Some(n.to_string());
                }
            }
            _ => {}
        }
        // While the record before is still in cache: most entries continue it.
        let link = match &parent_id {
            None => Link::Root,
            // A self-parent is a root (FORMAT §4.4).
            Some(pid) if id.as_ref() == Some(pid) => Link::Root,
            Some(pid) if self.s.records.last().and_then(|r| r.id.as_ref()) == Some(pid) => {
                Link::Previous
            }
            Some(_) => Link::Lookup,
        };
        self.links.push(link);
        let line = self.s.line_count;
        self.s.records.push(Record { line, offset, len, kind, id, parent_id, time });
        self.digests.extend(digest);
        if let Some(prev) = self.s.by_id.insert(&self.s.records, idx) {
            let prev_line = self.s.records[prev as usize].line;
            let id = self.s.records[idx as usize].id.clone();
            let shown = shown(&id);
            let message =
                format!("duplicate id {shown} (first on line {prev_line}); the later entry wins");
            self.warn(Problem::DuplicateId, id, message);
        }
    }

    /// What a record says of the agent that wrote the file: the entry types only one agent
    /// writes ([`Kind::writers`]), and the `model_change` fields of each.
    fn note_signals(&mut self, kind: &Kind, env: &Envelope<'_>) {
        match kind {
            // Names are kept as oh-my-pi keeps them: readers take the file for oh-my-pi's.
            Kind::TitleChange => self.s.omp_signals = true,
            // CHANGES R8: pi's `appendModelChange(provider, modelId)`, oh-my-pi's
            // `model: "provider/id"`; pi's system messages (R1).
            Kind::ModelChange if env.has_provider && env.has_model_id => self.s.pi_signals = true,
            Kind::ModelChange if env.has_model => self.s.omp_signals = true,
            Kind::Message if env.system_message => self.s.pi_signals = true,
            _ => match kind.writers() {
                Writers::Pi => self.s.pi_signals = true,
                // Read only for certainty: the readers' guess (`dialect`, `names_like_pi`) is
                // left as it was.
                Writers::Omp => self.s.omp_only_kinds = true,
                Writers::Both | Writers::Legacy | Writers::Unknown => {}
            },
        }
        if env.has_from_hook {
            self.s.pi_signals = true;
        }
    }

    /// Labels resolve by one global replay in file order; a JS `Map` keeps a key's first
    /// position, and a cleared key that is set again moves to the end (FORMAT §5).
    fn replay_label(&mut self, idx: u32, marks: &Marks<'_>) {
        self.s.label_records.push(LabelRecord { record: idx, target: marks.target_id.clone() });
        let Some(target) = marks.target_id.clone() else { return };
        // What JavaScript makes of the value decides whether it sets a label.
        let sets = |raw: &&str| crate::js::truthy(serde_json::from_str(raw).ok().as_ref());
        match marks.label.as_deref().filter(sets) {
            Some(raw) => match self.label_pos.get(&target) {
                Some(&pos) => self.labels[pos] = Some((target, raw.into())),
                None => {
                    self.label_pos.insert(target.clone(), self.labels.len());
                    self.labels.push(Some((target, raw.into())));
                }
            },
            None => {
                if let Some(pos) = self.label_pos.remove(&target) {
                    self.labels[pos] = None;
                }
            }
        }
    }

    /// The session, and the digest of each record when the load worked them out.
    fn finish(mut self, source: Source) -> (Session, Vec<D::Of>) {
        // The index lives as long as the command: give back what growing it left spare, unless
        // that is little (the copy would cost more than the room).
        if self.s.records.capacity() - self.s.records.len() > self.s.records.len() / 8 {
            self.s.records.shrink_to_fit();
        }
        if self.digests.capacity() - self.digests.len() > self.digests.len() / 8 {
            self.digests.shrink_to_fit();
        }
        debug_assert!(
            self.digest.is_none() || self.digests.len() == self.s.records.len(),
            "a digest for every record"
        );
        let n = self.s.records.len();
        let mut parent = vec![NONE; n];
        // Without a duplicate id, a parent that is the record just before is the one its id
        // names: most entries continue the one before them, and that needs no lookup in the
        // index (a lookup is a few cache misses on a large file), nor a read of the records.
        let unique = !self.s.diagnostics.iter().any(|d| d.problem == Problem::DuplicateId);
        // Whether a parent comes after its child in the file: only then can there be a cycle.
        let mut forward = false;
        for (i, &link) in self.links.iter().enumerate() {
            match link {
                Link::Root => continue,
                Link::Previous if unique => parent[i] = i as u32 - 1,
                Link::Previous | Link::Lookup => {
                    let Some(pid) = &self.s.records[i].parent_id else { continue };
                    match self.s.by_id.get(&self.s.records, pid) {
                        Some(p) => {
                            parent[i] = p;
                            forward |= p as usize > i;
                        }
                        None => {
                            let r = &self.s.records[i];
                            let message = format!(
                                "parent {} of entry {} not found; the entry counts as a root",
                                shown(&r.parent_id),
                                shown(&r.id)
                            );
                            self.s.diagnostics.push(r.damage(Problem::MissingParent, message));
                        }
                    }
                }
            }
        }
        // Following parents around a cycle comes back to where it started, so some link on it
        // leads forward in the file.
        let cycles = if forward { break_cycles(&mut parent) } else { Vec::new() };
        for &(closing, _) in &cycles {
            let r = &self.s.records[closing as usize];
            let message = format!(
                "parent cycle through entry {}; broken here, the entry counts as a root",
                shown(&r.id)
            );
            self.s.diagnostics.push(r.damage(Problem::Cycle, message));
        }
        self.s.diagnostics.sort_by_key(|d| d.line);

        // Children in file order, as one flat array (CSR): no allocation per entry.
        let mut child_start = vec![0u32; n + 1];
        let mut roots = Vec::new();
        for (i, &p) in parent.iter().enumerate() {
            if p == NONE {
                roots.push(i as u32);
            } else {
                child_start[p as usize + 1] += 1;
            }
        }
        for i in 0..n {
            child_start[i + 1] += child_start[i];
        }
        let mut fill = child_start.clone();
        let mut child_list = vec![0u32; n - roots.len()];
        for (i, &p) in parent.iter().enumerate() {
            if p != NONE {
                child_list[fill[p as usize] as usize] = i as u32;
                fill[p as usize] += 1;
            }
        }

        let session = Session {
            source,
            parent,
            child_start,
            child_list,
            roots,
            cycle_links: cycles.into_iter().collect(),
            labels: self.labels.into_iter().flatten().collect(),
            ..self.s
        };
        (session, self.digests)
    }
}

/// An id as a message shows it.
fn shown(id: &Option<EntryId>) -> &str {
    id.as_ref().map_or("?", EntryId::as_str)
}

impl Record {
    /// A diagnostic about this record.
    fn damage(&self, problem: Problem, message: String) -> Diagnostic {
        let (line, id) = (self.line, self.id.clone());
        Diagnostic { line, problem, id, message: message.into() }
    }
}

/// How a record links to its parent, as far as the records before it tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Link {
    /// It has no parent: no `parentId`, `null`, or its own id.
    Root,
    /// Its parent id is the id of the record just before it: that record is its parent unless
    /// a later record has the same id (then the later one wins).
    Previous,
    /// Its parent is found through the index.
    Lookup,
}

/// Breaks every parent cycle at its member that comes last in the file and returns those
/// members with the parent link that was cut. Each entry has one parent, so one walk per
/// unvisited entry finds all cycles in linear time.
pub(crate) fn break_cycles(parent: &mut [u32]) -> Vec<(u32, u32)> {
    const NEW: u8 = 0;
    const ON_WALK: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; parent.len()];
    let mut closing = Vec::new();
    let mut walk = Vec::new();
    for start in 0..parent.len() {
        if state[start] != NEW {
            continue;
        }
        walk.clear();
        let mut cur = start as u32;
        loop {
            match state[cur as usize] {
                NEW => {
                    state[cur as usize] = ON_WALK;
                    walk.push(cur);
                    let p = parent[cur as usize];
                    if p == NONE {
                        break;
                    }
                    cur = p;
                }
                ON_WALK => {
                    // `cur` is on this walk: the members are the walk from `cur` to its end.
                    let pos = walk.iter().position(|&w| w == cur).unwrap_or(0);
                    let last = walk[pos..].iter().copied().max().unwrap_or(cur);
                    closing.push((last, parent[last as usize]));
                    parent[last as usize] = NONE;
                    break;
                }
                _ => break,
            }
        }
        for &w in &walk {
            state[w as usize] = DONE;
        }
    }
    closing
}
