//! Loading a session file in one pass into an index.
//!
//! The loader reads the file once, line by line, and keeps for each record only its envelope
//! (type, id, parent, timestamp) and its byte range; label, archive and naming records are
//! resolved on the way. Payloads stay on disk and are read back by byte range (`pread`) for the
//! entries a command shows, so memory grows with the number of entries, not with their size.
//!
//! Damage is never fatal here: the loader reports it as [`Diagnostic`]s and treats it as the
//! agents do (FORMAT §4): unparseable lines are skipped, a later duplicate id shadows the earlier
//! one, an orphan is a root. A parent cycle is broken at the entry that closes it (the cycle's
//! member that comes last in the file), which then counts as a root; path walks therefore always
//! end. Commands decide what they refuse (`--strict`, a missing header, a version too new).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::format::envelope::scan_envelope_depth;
use crate::format::title::{TitleSlot, parse_slot};
use crate::format::{
    Dialect, Envelope, Kind, MAX_VERSION, Marks, is_lane_header, scan_envelope, v1,
};
use crate::id::EntryId;
use crate::json::MAX_NESTING;
use crate::json::pick::{Pick, pick};
use crate::json::scan::{Line, Scanner};
use crate::naming::TitleSource;

/// Maps keyed by id. foldhash: SipHash was a tenth of the loading time, and an id map needs no
/// protection from crafted keys beyond what foldhash's per-process seed gives.
type IdMap<V> = HashMap<EntryId, V, foldhash::fast::RandomState>;

/// Marks "no record" in the index arrays.
pub(crate) const NONE: u32 = u32::MAX;

/// Bytes asked for per `read` while loading.
const READ_SIZE: usize = 128 << 10;

/// Files from this size on are loaded on every core ([`parallel`]); below it, starting the
/// threads costs more than they save.
const PARALLEL_MIN: u64 = 8 << 20;

mod id_index;
mod parallel;

/// What kind of damage a [`Diagnostic`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Problem {
    /// The first record is not a `session` header with a string id.
    BadHeader,
    /// A line that is not JSON.
    Unparseable,
    /// The last line ends mid-JSON (a torn write).
    Truncated,
    /// A JSON line that is not an object.
    NotAnObject,
    /// An entry without an `id`.
    NoId,
    /// A later entry reuses an id; it shadows the earlier one.
    DuplicateId,
    /// An entry whose `parentId` names no entry; it counts as a root.
    MissingParent,
    /// An entry whose parent chain loops; it is the entry that closes the loop.
    Cycle,
    /// The header declares a version newer than sesstree knows.
    VersionTooNew,
}

impl Problem {
    /// A stable kebab-case name, used in `--json` output.
    pub fn as_str(self) -> &'static str {
        match self {
            Problem::BadHeader => "bad-header",
            Problem::Unparseable => "unparseable",
            Problem::Truncated => "truncated",
            Problem::NotAnObject => "not-an-object",
            Problem::NoId => "no-id",
            Problem::DuplicateId => "duplicate-id",
            Problem::MissingParent => "missing-parent",
            Problem::Cycle => "cycle",
            Problem::VersionTooNew => "version-too-new",
        }
    }
}

/// One problem found while loading, tied to its physical line.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// The physical line (1-based).
    pub line: u64,
    /// What is wrong.
    pub problem: Problem,
    /// The entry concerned, when it has an id.
    pub id: Option<EntryId>,
    /// A human-readable description: most are the same text on every line they concern, and
    /// are not copied (a file of a million damaged lines keeps a million diagnostics).
    pub message: Cow<'static, str>,
}

/// One record after the header: an entry, or an odd record kept as the agents keep it.
#[derive(Debug, Clone)]
pub struct Record {
    /// Physical line number (1-based).
    pub line: u64,
    /// Byte offset of the line in the source.
    pub offset: u64,
    /// Length of the line in bytes, without its newline.
    pub len: u64,
    /// The entry's `type`.
    pub kind: Kind,
    /// The entry's id (`None` for records without one).
    pub id: Option<EntryId>,
    /// The `parentId` as written (`None` for null or absent).
    pub parent_id: Option<EntryId>,
    /// The timestamp in epoch milliseconds, when it parses.
    pub time: Option<i64>,
}

/// The header line, parsed in full (headers are small).
#[derive(Debug, Clone)]
pub struct Header {
    /// Physical line number (1-based).
    pub line: u64,
    /// Byte offset of the line.
    pub offset: u64,
    /// Length without newline.
    pub len: u64,
    /// The header object as written.
    pub value: serde_json::Map<String, Value>,
    /// The session id.
    pub id: String,
    /// The declared version (absent means 1; a numeric string counts as its number).
    pub version: u64,
}

/// What a load works out of each record besides the index, in the same pass, on every core and
/// with the line still in cache: the rows of `log` and `tree` are ([`crate::row::Rows`]). The
/// loader knows nothing of what it is: it hands each record's line over and keeps what comes
/// back, one for each record, in file order ([`Session::load_with`]).
pub trait Digest: Sync {
    /// What is kept of a record.
    type Of: Send;
    /// How much deeper than the values it skips the walk of [`Digest::with_envelope`] nests:
    /// the loader measures the depth of a line apart when [`Line::deepest`] and this could
    /// pass [`MAX_NESTING`].
    const WALK_DEPTH: usize;
    /// A record's digest and its envelope, read in one walk of an object line the scanner
    /// indexed; `None` to read them apart.
    fn with_envelope<'a>(
        &self,
        line: &Line<'a, '_>,
        stack: &mut Vec<bool>,
    ) -> Option<(Envelope<'a>, Self::Of)>;
    /// A record's digest from its line alone; `v1` says the file is of version 1 (whose ids
    /// are derived, so that its rows read a full parse).
    fn of_line(&self, scanner: &mut Scanner, bytes: &[u8], v1: bool) -> Self::Of;
}

/// The digest of a load that keeps nothing but the index: never asked for.
struct IndexOnly;

impl Digest for IndexOnly {
    type Of = ();
    const WALK_DEPTH: usize = 0;
    fn with_envelope<'a>(&self, _: &Line<'a, '_>, _: &mut Vec<bool>) -> Option<(Envelope<'a>, ())> {
        None
    }
    fn of_line(&self, _: &mut Scanner, _: &[u8], _: bool) {}
}

/// Where the file's bytes are, for reading payloads back.
#[derive(Debug)]
enum Source {
    File(File),
    Bytes(Vec<u8>),
}

/// A loaded session: header, records and the index over them.
#[derive(Debug)]
pub struct Session {
    /// The path the session was read from (`-` for standard input).
    pub path: PathBuf,
    source: Source,
    /// The title slot, when the file starts with one.
    pub slot: Option<TitleSlot>,
    /// The header; `None` when the file has none (see `header_problem`).
    pub header: Option<Header>,
    /// Why the file has no valid header, when it has records but no header.
    pub header_problem: Option<(u64, String)>,
    /// The line of the header of pi's lane-based v4 format (CHANGES P7), when the file is in
    /// it: another format, whose lines after the header are not read.
    pub lane_format: Option<u64>,
    /// Every record after the header, in file order.
    pub records: Vec<Record>,
    /// Damage found while loading, in line order.
    pub diagnostics: Vec<Diagnostic>,
    /// Size of the file in bytes.
    pub file_len: u64,
    /// Whether the file ends with a newline (or is empty).
    pub ends_with_newline: bool,
    /// Number of physical lines (blank ones included).
    pub line_count: u64,
    by_id: id_index::IdIndex,
    parent: Vec<u32>,
    /// The parent links cut to break cycles, so path walks can still go round a cycle once.
    cycle_links: HashMap<u32, u32>,
    child_start: Vec<u32>,
    child_list: Vec<u32>,
    roots: Vec<u32>,
    labels: Vec<(EntryId, Box<str>)>,
    label_records: Vec<LabelRecord>,
    archived: IdMap<bool>,
    last_title_change: Option<(String, Option<TitleSource>)>,
    last_session_info: Option<String>,
    omp_signals: bool,
    /// Entry types only oh-my-pi writes, beyond `title_change` ([`Session::certain_dialect`]).
    omp_only_kinds: bool,
    pi_signals: bool,
}

/// A `label` record as written, for checks on its target.
#[derive(Debug, Clone)]
pub struct LabelRecord {
    /// Index of the label record.
    pub record: u32,
    /// Its `targetId`.
    pub target: Option<EntryId>,
}

impl Session {
    /// Loads a file; `-` reads standard input.
    pub fn load(path: &Path) -> Result<Session> {
        Session::load_each(path, None::<&IndexOnly>).map(|(session, _)| session)
    }

    /// Loads a file, and works out `digest` of each of its records in the same pass: one for
    /// each record, by record index.
    pub fn load_with<D: Digest>(path: &Path, digest: &D) -> Result<(Session, Vec<D::Of>)> {
        Session::load_each(path, Some(digest))
    }

    fn load_each<D: Digest>(path: &Path, digest: Option<&D>) -> Result<(Session, Vec<D::Of>)> {
        let read_whole = |input: &mut dyn Read| {
            let mut bytes = Vec::new();
            input.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
            Ok(Session::from_bytes_each(path, bytes, digest))
        };
        if path.as_os_str() == "-" {
            return read_whole(&mut std::io::stdin().lock());
        }
        let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
        let metadata = file.metadata().map_err(|e| Error::io(path, e))?;
        if !metadata.is_file() {
            // A pipe (`-f <(…)`, `/dev/stdin`) is read once, as `-` is: the lines that a
            // command reads again later (`show`, `log -n`, `--raw`) are kept in memory.
            return read_whole(&mut file);
        }
        let len = metadata.len();
        // A version-1 file gives `None`: it is loaded again below, on one thread.
        if len >= PARALLEL_MIN
            && rayon::current_num_threads() > 1
            && let Some(loader) = load_pieces(path, digest, &file, len, parallel::PIECE)?
        {
            return Ok(loader.finish(Source::File(file)));
        }
        let mut loader = Loader::new(path, digest);
        loader.read(&file).map_err(|e| Error::io(path, e))?;
        Ok(loader.finish(Source::File(file)))
    }

    /// [`Session::load_with`] through the parallel loader in pieces of `piece` bytes (at least
    /// one), whatever the file's size and the number of cores: for the fuzzer, which holds it
    /// to the one-pass load. `None` for a version-1 file, which the parallel loader hands back.
    #[doc(hidden)]
    pub fn load_in_pieces<D: Digest>(
        path: &Path,
        digest: &D,
        piece: u64,
    ) -> Result<Option<(Session, Vec<D::Of>)>> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        let loaded = load_pieces(path, Some(digest), &file, len, piece.max(1))?;
        Ok(loaded.map(|loader| loader.finish(Source::File(file))))
    }

    /// Loads a session held in memory (standard input, tests).
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Session> {
        Ok(Session::from_bytes_each(path, bytes, None::<&IndexOnly>).0)
    }

    /// [`Session::from_bytes`] with a [`Digest`], as [`Session::load_with`].
    pub fn from_bytes_with<D: Digest>(
        path: &Path,
        bytes: Vec<u8>,
        digest: &D,
    ) -> Result<(Session, Vec<D::Of>)> {
        Ok(Session::from_bytes_each(path, bytes, Some(digest)))
    }

    fn from_bytes_each<D: Digest>(
        path: &Path,
        bytes: Vec<u8>,
        digest: Option<&D>,
    ) -> (Session, Vec<D::Of>) {
        let mut loader = Loader::new(path, digest);
        loader.read_slice(&bytes);
        loader.finish(Source::Bytes(bytes))
    }

    /// Whether the file holds no session at all (0 bytes or blank lines only).
    pub fn is_empty(&self) -> bool {
        self.header.is_none() && self.header_problem.is_none() && self.lane_format.is_none()
    }

    /// What every reading command refuses (exit 3): a file without a valid header. An empty
    /// file (nothing but blank lines) is an empty session; a file of lines that are not JSON
    /// (plain text, a binary) is not.
    pub fn require_readable(&self) -> Result<()> {
        if !self.is_empty() || !self.diagnostics.is_empty() {
            self.require_header()?;
        }
        Ok(())
    }

    /// The header, or the error every command gives for a file without a valid one.
    pub fn require_header(&self) -> Result<&Header> {
        if self.lane_format.is_some() {
            return Err(Error::LaneFormat { path: self.path.clone() });
        }
        match (&self.header, &self.header_problem) {
            (Some(h), _) => Ok(h),
            (None, Some((line, reason))) => Err(Error::NoHeader {
                path: self.path.clone(),
                line: *line,
                reason: reason.clone(),
            }),
            (None, None) => match self.diagnostics.first() {
                Some(d) => Err(Error::NoHeader {
                    path: self.path.clone(),
                    line: d.line,
                    reason: "no line of the file is a JSON record".into(),
                }),
                None => Err(Error::Empty { path: self.path.clone() }),
            },
        }
    }

    /// The declared version (1 for a file without a header).
    pub fn version(&self) -> u64 {
        self.header.as_ref().map_or(1, |h| h.version)
    }

    /// Whether the file is version 1 and so was given derived ids in memory.
    pub fn is_v1(&self) -> bool {
        self.header.is_some() && self.version() < 2
    }

    /// The first diagnostic as an error, for `--strict`.
    pub fn strict(&self) -> Result<()> {
        // A version too new is not damage: readers read it with a warning, writers refuse it
        // with its own exit status (6).
        match self.diagnostics.iter().find(|d| d.problem != Problem::VersionTooNew) {
            Some(d) => Err(Error::Damaged {
                path: self.path.clone(),
                line: d.line,
                message: d.message.to_string(),
            }),
            None => Ok(()),
        }
    }

    /// The index of the entry with this id (the later one when ids repeat).
    pub fn lookup(&self, id: &EntryId) -> Option<u32> {
        self.by_id.get(&self.records, id)
    }

    /// All ids in the index with their record index, in no particular order.
    pub fn ids(&self) -> impl Iterator<Item = (&EntryId, u32)> {
        self.by_id.iter().filter_map(|i| self.records[i as usize].id.as_ref().map(|id| (id, i)))
    }

    /// The record at an index.
    pub fn record(&self, idx: u32) -> &Record {
        &self.records[idx as usize]
    }

    /// The current leaf: the last record, when it has an id (FORMAT §4.3).
    pub fn leaf(&self) -> Option<u32> {
        let last = self.records.len().checked_sub(1)?;
        self.records[last].id.as_ref().map(|_| last as u32)
    }

    /// Where the conversation is: the leaf, looking through what only bookkeeps a position.
    ///
    /// `label` entries at the end of the leaf path are stepped over: the agent hangs a label
    /// entry at the leaf and moves the leaf onto it (FORMAT §5), but it never reaches the
    /// model, so the conversation goes on from the entry below it, as HEAD stays put after
    /// `git tag`. Then, when the entry reached is an empty-summary `branch_summary` (the marker
    /// that persists a bare move, FORMAT §4.3), the position is the entry it marks (its
    /// parent; `None` when the move went to before the first prompt). This is what `@` names,
    /// so that after `checkout X` or `checkout X --label L`, `@` is X, and `label @ L` twice
    /// labels the same entry.
    pub fn position(&self) -> Result<Option<u32>> {
        let Some(mut at) = self.leaf() else { return Ok(None) };
        // Bounded by the record count: parent links are acyclic once the loader broke cycles.
        while self.records[at as usize].kind == Kind::Label {
            match self.parent(at) {
                Some(p) => at = p,
                None => return Ok(None),
            }
        }
        if self.is_marker(at)? { Ok(self.parent(at)) } else { Ok(Some(at)) }
    }

    /// Whether an entry is a `branch_summary` whose summary is empty: a persisted bare move.
    pub(crate) fn is_marker(&self, idx: u32) -> Result<bool> {
        if self.records[idx as usize].kind != Kind::BranchSummary {
            return Ok(false);
        }
        // Only the summary's shape is read: a summary can be long, or hostile.
        const SUMMARY: &[Pick<'_>] = &[Pick::scalar("summary")];
        if !self.is_v1() {
            let mut lines = self.lines();
            if let Some(picked) = pick(&mut Scanner::new(), lines.line(idx)?, SUMMARY) {
                return Ok(crate::format::is_move_marker(picked.get("summary")));
            }
        }
        Ok(crate::format::is_move_marker(self.value(idx)?.get("summary")))
    }

    /// The parent's index, or `None` for a root (null parent, orphan, self-parent, cycle break).
    pub fn parent(&self, idx: u32) -> Option<u32> {
        let p = self.parent[idx as usize];
        (p != NONE).then_some(p)
    }

    /// Direct children in file order.
    pub fn children(&self, idx: u32) -> &[u32] {
        let i = idx as usize;
        &self.child_list[self.child_start[i] as usize..self.child_start[i + 1] as usize]
    }

    /// Roots in file order.
    pub fn roots(&self) -> &[u32] {
        &self.roots
    }

    /// The path from the root to `idx`, root first. A walk that meets a cycle goes round it
    /// once and stops at the first repeated entry, as the agents' walks do (FORMAT §4.4).
    pub fn path_to_root(&self, idx: u32) -> Vec<u32> {
        let mut path = vec![idx];
        let mut cur = idx;
        // Only set once the walk has followed a broken cycle link: the only way back to an
        // entry already on the path.
        let mut seen: Option<std::collections::HashSet<u32>> = None;
        loop {
            let next = match self.parent(cur) {
                Some(p) => p,
                None => match self.cycle_links.get(&cur) {
                    Some(&p) => {
                        seen.get_or_insert_with(|| path.iter().copied().collect());
                        p
                    }
                    None => break,
                },
            };
            if let Some(seen) = &mut seen
                && !seen.insert(next)
            {
                break;
            }
            if path.len() > self.records.len() {
                break; // Guards the invariant; unreachable on a well-formed index.
            }
            path.push(next);
            cur = next;
        }
        path.reverse();
        path
    }

    /// The labels in effect, in the order of the reference's label map: `(target, raw JSON)`.
    pub fn labels(&self) -> &[(EntryId, Box<str>)] {
        &self.labels
    }

    /// The label of an entry as display text (a string label as is, anything else as JSON).
    pub fn label_of(&self, id: &EntryId) -> Option<String> {
        let (_, raw) = self.labels.iter().find(|(t, _)| t == id)?;
        Some(label_text(raw))
    }

    /// A map from entry index to its label text, for commands that show many entries.
    pub fn label_map(&self) -> HashMap<u32, String> {
        self.labels.iter().filter_map(|(t, raw)| Some((self.lookup(t)?, label_text(raw)))).collect()
    }

    /// Every `label` record with its target, in file order.
    pub fn label_records(&self) -> &[LabelRecord] {
        &self.label_records
    }

    /// Whether the last `archive` record for this id archives it.
    pub fn is_archived(&self, id: &EntryId) -> bool {
        self.archived.get(id).copied().unwrap_or(false)
    }

    /// The session name and its source: slot > header > `title_change` > `session_info`,
    /// except in a file that names like pi ([`Session::names_like_pi`]), where the last
    /// `session_info` wins as it does for pi (FORMAT §10.2), so a name `sesstree name` just
    /// stored there is the one in effect. pi records no source.
    pub fn name(&self) -> Option<(String, Option<TitleSource>)> {
        if self.names_like_pi()
            && let Some(n) = &self.last_session_info
        {
            return Some((n.clone(), None));
        }
        if let Some(slot) = &self.slot {
            // An empty slot title deletes the header title (FORMAT §1.2), and the agent never
            // recomputes the name from `title_change` entries (§10.2): no name.
            return (!slot.title.is_empty()).then(|| (slot.title.clone(), slot.source));
        } else if let Some(h) = &self.header
            && let Some(Value::String(t)) = h.value.get("title")
            && !t.is_empty()
        {
            let source = h.value.get("titleSource").and_then(Value::as_str);
            return Some((t.clone(), source.and_then(TitleSource::parse)));
        }
        if let Some(t) = &self.last_title_change {
            return Some(t.clone());
        }
        self.last_session_info.clone().map(|n| (n, None))
    }

    /// Which agent wrote the file, as readers take it (SPEC `context`): pi when the file has
    /// pi's signals (`session_info`, pi-style `model_change`, `fromHook`) and none of oh-my-pi's
    /// (title slot, `title_change`, omp-style `model_change`); otherwise omp. The session id
    /// says nothing: both agents write UUIDv7 ids now, and pi takes ids of the caller's choice
    /// (CHANGES P1). Writers that add what only one agent understands ask
    /// [`Session::certain_dialect`] instead.
    pub fn dialect(&self) -> Dialect {
        if self.names_like_pi() && !self.omp_signals { Dialect::Pi } else { Dialect::Omp }
    }

    /// The agent that certainly wrote the file, from what only one agent writes: a title slot,
    /// or entry types and fields of one agent and none of the other's (FORMAT §13). `None` when
    /// the file says nothing certain, or both: a writer that would add what only one agent
    /// understands (a title slot) must then be told (CHANGES P1, P6: pi ids no longer tell
    /// the agents apart, and pi refuses a file whose first line is not its header).
    pub fn certain_dialect(&self) -> Option<Dialect> {
        if self.slot.is_some() {
            return Some(Dialect::Omp);
        }
        match (self.omp_signals || self.omp_only_kinds, self.pi_signals) {
            (true, false) => Some(Dialect::Omp),
            (false, true) => Some(Dialect::Pi),
            _ => None,
        }
    }

    /// Whether names are stored as pi stores them (SPEC `name`): no title slot, and
    /// `session_info` entries or pi-only fields, so the last `session_info` names the session.
    pub fn names_like_pi(&self) -> bool {
        self.slot.is_none() && self.pi_signals
    }

    /// The raw bytes of a record's line, without its newline.
    pub fn raw_line(&self, idx: u32) -> Result<Vec<u8>> {
        let r = &self.records[idx as usize];
        self.read_range(r.offset, r.len)
    }

    /// The raw bytes of the header line.
    pub fn raw_header(&self) -> Result<Vec<u8>> {
        let h = self.require_header()?;
        self.read_range(h.offset, h.len)
    }

    /// Reads `len` bytes at `offset` of the source into `buf` (replacing its contents).
    fn read_into(&self, offset: u64, len: u64, buf: &mut Vec<u8>) -> Result<()> {
        match &self.source {
            Source::Bytes(b) => {
                buf.clear();
                let end = offset.saturating_add(len);
                let range = usize::try_from(offset)
                    .ok()
                    .zip(usize::try_from(end).ok())
                    .and_then(|(start, end)| b.get(start..end));
                buf.extend_from_slice(range.ok_or_else(|| Error::Damaged {
                    path: self.path.clone(),
                    line: 0,
                    message: "read past the end of the input".into(),
                })?);
            }
            Source::File(f) => {
                use std::os::unix::fs::FileExt;
                // The read overwrites what is there: a buffer used again (a `LineReader`'s
                // window) is zeroed only where it grows, not the whole file over again.
                buf.truncate(len as usize);
                buf.resize(len as usize, 0);
                f.read_exact_at(buf, offset).map_err(|e| Error::io(&self.path, e))?;
            }
        }
        Ok(())
    }

    /// Reads `len` bytes at `offset` of the source.
    pub(crate) fn read_range(&self, offset: u64, len: u64) -> Result<Vec<u8>> {
        // Through `read_into`, whose in-memory reads are checked: a range past the end (a
        // caller patching a slot the input is too short for, say) is an error, not a panic.
        let mut buf = Vec::new();
        self.read_into(offset, len, &mut buf)?;
        Ok(buf)
    }

    /// A reader for many records in about file order, from one buffered window of the file
    /// instead of one system call per record.
    pub fn lines(&self) -> LineReader<'_> {
        LineReader { session: self, window: Vec::new(), window_offset: 0, served: 0, bytes_read: 0 }
    }

    /// The error for a record whose line loaded but does not read in full (a field holds what
    /// JSON cannot decode, a lone surrogate escape): what reading it in full gives.
    pub fn unreadable(&self, idx: u32) -> Error {
        match self.value(idx) {
            Err(e) => e,
            Ok(_) => Error::Damaged {
                path: self.path.clone(),
                line: self.records[idx as usize].line,
                message: "the line changed since it was read".into(),
            },
        }
    }

    /// The JSON text of [`Session::value`] as serde_json writes it, compact or `pretty`: what
    /// `show` prints. Written as the line is walked, without building the value, where the
    /// line allows it ([`crate::json::transcode`]): the value of a line of megabytes of
    /// small values costs 50 to 150 times its bytes.
    pub fn value_json(&self, idx: u32, pretty: bool) -> Result<Vec<u8>> {
        if !self.is_v1()
            && let Some(text) = crate::json::transcode::to_json(&self.raw_line(idx)?, pretty)
        {
            return Ok(text);
        }
        let value = self.value(idx)?;
        let text =
            if pretty { serde_json::to_vec_pretty(&value) } else { serde_json::to_vec(&value) };
        text.map_err(|e| Error::io(&self.path, e.into()))
    }

    /// The record parsed in full. Version-1 records get the ids and parents they were given in
    /// memory and their `firstKeptEntryIndex` turned into `firstKeptEntryId`, so every caller
    /// sees one shape (FORMAT §11).
    pub fn value(&self, idx: u32) -> Result<Value> {
        let bytes = self.raw_line(idx)?;
        let mut value = parse_lossy(&bytes).ok_or_else(|| Error::Damaged {
            path: self.path.clone(),
            line: self.records[idx as usize].line,
            // A line that loaded but does not parse holds what JSON cannot decode (a lone
            // surrogate escape, which only a full parse decodes), or it changed meanwhile.
            message: match serde_json::from_str::<Value>(&String::from_utf8_lossy(&bytes)) {
                Err(e) => format!("the line cannot be read in full: {e}"),
                Ok(_) => "the line changed since it was read".into(),
            },
        })?;
        if self.is_v1()
            && let Value::Object(map) = &mut value
        {
            let r = &self.records[idx as usize];
            if let Some(id) = &r.id {
                map.insert("id".into(), id.to_value());
                map.insert(
                    "parentId".into(),
                    r.parent_id.as_ref().map_or(Value::Null, EntryId::to_value),
                );
            }
            // Only compactions carry the index the migration converts (FORMAT §11).
            if r.kind == Kind::Compaction
                && let Some(index) = map.remove("firstKeptEntryIndex")
            {
                // The index counts the header as record 0; a header target is not converted.
                let target = index
                    .as_u64()
                    .filter(|&i| i >= 1)
                    .and_then(|i| self.records.get(i as usize - 1))
                    .and_then(|r| r.id.as_ref());
                match target {
                    Some(id) => {
                        map.insert("firstKeptEntryId".into(), id.to_value());
                    }
                    None => {
                        map.insert("firstKeptEntryIndex".into(), index);
                    }
                }
            }
        }
        Ok(value)
    }
}

/// Reads records through a window of the file (see [`Session::lines`]).
#[derive(Debug)]
pub struct LineReader<'s> {
    session: &'s Session,
    window: Vec<u8>,
    window_offset: u64,
    /// How many lines the window has given since it was filled.
    served: u32,
    /// How many bytes it has read in all.
    bytes_read: u64,
}

/// How much of the file a [`LineReader`] reads at once.
const WINDOW: u64 = 128 << 10;

impl LineReader<'_> {
    /// The bytes of a record's line, without its newline.
    pub fn line(&mut self, idx: u32) -> Result<&[u8]> {
        let r = &self.session.records[idx as usize];
        let (start, end) = (r.offset, r.offset + r.len);
        let window_end = self.window_offset + self.window.len() as u64;
        if start < self.window_offset || end > window_end {
            // Refill from the line on: the next lines usually follow it. But when the last
            // window gave only its first line, and this line does not follow it, the reads are
            // scattered (the few entries of a long path that `context` reads, say): then read
            // just the line, not a window of lines nobody reads.
            let scattered = self.served == 1 && start > window_end + 1;
            let len = if scattered {
                r.len
            } else {
                r.len.max(WINDOW).min(self.session.file_len.saturating_sub(start).max(r.len))
            };
            // The buffer is reused: a fresh one per refill would leave holes in the heap that
            // the rows allocated meanwhile keep from being given back.
            if self.session.read_into(start, len, &mut self.window).is_err() {
                // The file shrank since it was read: the line alone may still be there.
                self.session.read_into(start, r.len, &mut self.window)?;
            }
            self.window_offset = start;
            self.served = 0;
            self.bytes_read += self.window.len() as u64;
        }
        self.served = self.served.saturating_add(1);
        let at = (start - self.window_offset) as usize;
        Ok(&self.window[at..at + r.len as usize])
    }

    #[cfg(test)]
    /// How many bytes of the file it has read.
    pub(crate) fn bytes_read(&self) -> u64 {
        self.bytes_read
    }
}

/// The display text of a raw label value.
pub fn label_text(raw: &str) -> String {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::String(s)) => s,
        _ => raw.to_string(),
    }
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
fn nested_too_deep(scanner: &mut Scanner, line: &[u8]) -> bool {
    scanner.validate(line).is_ok() && scanner.deepest() > MAX_NESTING
}

/// The version a header declares: a number, or a numeric string; absent means 1.
fn header_version(header: &serde_json::Map<String, Value>) -> u64 {
    match header.get("version") {
        Some(Value::Number(n)) => n.as_f64().map_or(1, |f| f.max(0.0) as u64),
        Some(Value::String(s)) => s.trim().parse::<f64>().map_or(1, |f| f.max(0.0) as u64),
        _ => 1,
    }
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

/// The parallel load of `file` (of `len` bytes) in pieces of `piece` bytes; `None` for a
/// version-1 file, which it hands back to the one-pass load.
fn load_pieces<'d, D: Digest>(
    path: &Path,
    digest: Option<&'d D>,
    file: &File,
    len: u64,
    piece: u64,
) -> Result<Option<Loader<'d, D>>> {
    parallel::load(Loader::new(path, digest), file, len, piece).map_err(|e| Error::io(path, e))
}

/// The one-pass reader: turns lines into records and collects what the index needs.
struct Loader<'d, D: Digest> {
    path: PathBuf,
    slot: Option<TitleSlot>,
    header: Option<Header>,
    header_problem: Option<(u64, String)>,
    lane_format: Option<u64>,
    records: Vec<Record>,
    /// How each record links to its parent, worked out as it is read (see [`Link`]).
    links: Vec<Link>,
    diagnostics: Vec<Diagnostic>,
    by_id: id_index::IdIndex,
    labels: Vec<Option<(EntryId, Box<str>)>>,
    label_pos: IdMap<usize>,
    label_records: Vec<LabelRecord>,
    archived: IdMap<bool>,
    last_title_change: Option<(String, Option<TitleSource>)>,
    last_session_info: Option<String>,
    omp_signals: bool,
    omp_only_kinds: bool,
    pi_signals: bool,
    line_no: u64,
    offset: u64,
    ends_with_newline: bool,
    saw_record: bool,
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
            path: path.to_path_buf(),
            slot: None,
            header: None,
            header_problem: None,
            lane_format: None,
            records: Vec::new(),
            links: Vec::new(),
            diagnostics: Vec::new(),
            by_id: id_index::IdIndex::default(),
            labels: Vec::new(),
            label_pos: IdMap::default(),
            label_records: Vec::new(),
            archived: IdMap::default(),
            last_title_change: None,
            last_session_info: None,
            omp_signals: false,
            omp_only_kinds: false,
            pi_signals: false,
            line_no: 0,
            offset: 0,
            ends_with_newline: true,
            saw_record: false,
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
        let mut buf = vec![0u8; READ_SIZE];
        let mut carry: Vec<u8> = Vec::new();
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let data = &buf[..n];
            let mut start = 0;
            if !carry.is_empty() {
                let Some(end) = memchr::memchr(b'\n', data) else {
                    carry.extend_from_slice(data);
                    continue;
                };
                carry.extend_from_slice(&data[..end]);
                self.physical_line(&carry, true);
                carry.clear();
                start = end + 1;
            }
            start = self.lines(data, start);
            carry.extend_from_slice(&data[start..]);
        }
        if !carry.is_empty() {
            self.physical_line(&carry, false);
        }
        Ok(())
    }

    /// Reads every line of a buffer held in memory, the last one even without a newline.
    fn read_slice(&mut self, data: &[u8]) {
        let start = self.lines(data, 0);
        if start < data.len() {
            self.physical_line(&data[start..], false);
        }
    }

    /// Takes the complete lines of `data` from `start` on; returns where the incomplete rest
    /// begins.
    fn lines(&mut self, data: &[u8], mut start: usize) -> usize {
        while let Some(p) = memchr::memchr(b'\n', &data[start..]) {
            let end = start + p;
            self.physical_line(&data[start..end], true);
            start = end + 1;
        }
        start
    }

    /// One physical line, without its newline.
    fn physical_line(&mut self, raw: &[u8], has_newline: bool) {
        self.line_no += 1;
        let mut start = 0;
        if self.line_no == 1 && raw.starts_with(b"\xEF\xBB\xBF") {
            start = 3; // A leading BOM is ignored (SPEC §1).
        }
        self.ends_with_newline = has_newline;
        self.line(&raw[start..], self.offset + start as u64, has_newline);
        self.offset += raw.len() as u64 + u64::from(has_newline);
    }

    fn warn(
        &mut self,
        problem: Problem,
        id: Option<EntryId>,
        message: impl Into<Cow<'static, str>>,
    ) {
        let message = message.into();
        self.diagnostics.push(Diagnostic { line: self.line_no, problem, id, message });
    }

    fn line(&mut self, bytes: &[u8], offset: u64, has_newline: bool) {
        if self.line_no == 1
            && !bytes.iter().all(u8::is_ascii_whitespace)
            && let Some(slot) = parse_slot(bytes)
        {
            self.slot = Some(slot);
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
        if self.lane_format.is_some() {
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
        if !self.saw_record {
            self.saw_record = true;
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
            && let Some(Value::String(id)) = map.get("id")
        {
            let version = header_version(&map);
            let id = id.clone();
            if version > MAX_VERSION {
                self.warn(
                    Problem::VersionTooNew,
                    None,
                    format!("session version {version} is newer than this sesstree understands"),
                );
            }
            self.v1 = version < 2;
            self.header = Some(Header {
                line: self.line_no,
                offset,
                len: bytes.len() as u64,
                value: map,
                id,
                version,
            });
            return;
        }
        if env.kind.is_none()
            && let Some(Value::Object(record)) = parse_lossy(bytes)
            && is_lane_header(&record)
        {
            self.lane_format = Some(self.line_no);
            return;
        }
        let reason = if is_header {
            "the header has no string id".to_string()
        } else {
            match env.kind.as_deref() {
                Some(k) => format!("the first record is of type '{k}', not 'session'"),
                None => "the first record has no type".to_string(),
            }
        };
        self.warn(Problem::BadHeader, None, format!("no valid session header: {reason}"));
        self.header_problem = Some((self.line_no, reason));
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
        let idx = self.records.len() as u32;
        let kind = env.kind.as_deref().map_or(Kind::Missing, Kind::from_name);
        let (mut id, mut parent_id) = (env.id.take(), env.parent_id.take());
        if !env.is_object {
            self.warn(Problem::NotAnObject, None, "record is not a JSON object");
        } else if self.v1 {
            // Version 1 has no ids: give each record the id `migrate` would, chained in file
            // order (FORMAT §11). The header is record 0.
            let (by_id, records) = (&self.by_id, &self.records);
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
                    self.archived.insert(t.clone(), marks.archived.unwrap_or(false));
                }
            }
            Kind::TitleChange => {
                if let Some(t) = marks.title.as_deref().filter(|t| !t.is_empty()) {
                    let source = marks.source.as_deref().and_then(TitleSource::parse);
                    self.last_title_change = Some((t.to_string(), source));
                }
            }
            Kind::SessionInfo => {
                if let Some(n) = marks.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
                    self.last_session_info = Some(n.to_string());
                }
            }
            _ => {}
        }
        // While the record before is still in cache: most entries continue it.
        let link = match &parent_id {
            None => Link::Root,
            // A self-parent is a root (FORMAT §4.4).
            Some(pid) if id.as_ref() == Some(pid) => Link::Root,
            Some(pid) if self.records.last().and_then(|r| r.id.as_ref()) == Some(pid) => {
                Link::Previous
            }
            Some(_) => Link::Lookup,
        };
        self.links.push(link);
        self.records.push(Record { line: self.line_no, offset, len, kind, id, parent_id, time });
        self.digests.extend(digest);
        if let Some(prev) = self.by_id.insert(&self.records, idx) {
            let prev_line = self.records[prev as usize].line;
            let id = self.records[idx as usize].id.clone();
            let shown = id.as_ref().map_or("?", EntryId::as_str);
            let message =
                format!("duplicate id {shown} (first on line {prev_line}); the later entry wins");
            self.warn(Problem::DuplicateId, id, message);
        }
    }

    /// What a record says of the agent that wrote the file: the entry types only one agent
    /// writes (FORMAT §13), and the `model_change` fields of each.
    fn note_signals(&mut self, kind: &Kind, env: &Envelope<'_>) {
        match kind {
            Kind::TitleChange => self.omp_signals = true,
            // Read only for certainty: the readers' guess (`dialect`, `names_like_pi`) is
            // left as it was.
            Kind::ModelUsage
            | Kind::ServiceTierChange
            | Kind::Archive
            | Kind::TtsrInjection
            | Kind::SessionInit
            | Kind::ModeChange
            | Kind::CredentialPin
            | Kind::ResetBoundary => self.omp_only_kinds = true,
            Kind::SessionInfo | Kind::Usage | Kind::ContextEdit => self.pi_signals = true,
            Kind::ModelChange if env.has_model_id => self.pi_signals = true,
            Kind::ModelChange if env.has_model => self.omp_signals = true,
            Kind::Message
            | Kind::ThinkingLevelChange
            | Kind::ModelChange
            | Kind::Compaction
            | Kind::BranchSummary
            | Kind::Custom
            | Kind::CustomMessage
            | Kind::Label
            | Kind::McpToolSelection
            | Kind::Session
            | Kind::Other(_)
            | Kind::Missing => {}
        }
        if env.has_from_hook {
            self.pi_signals = true;
        }
    }

    /// Labels resolve by one global replay in file order; a JS `Map` keeps a key's first
    /// position, and a cleared key that is set again moves to the end (FORMAT §5).
    fn replay_label(&mut self, idx: u32, marks: &Marks<'_>) {
        self.label_records.push(LabelRecord { record: idx, target: marks.target_id.clone() });
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
        if self.records.capacity() - self.records.len() > self.records.len() / 8 {
            self.records.shrink_to_fit();
        }
        if self.digests.capacity() - self.digests.len() > self.digests.len() / 8 {
            self.digests.shrink_to_fit();
        }
        debug_assert!(
            self.digest.is_none() || self.digests.len() == self.records.len(),
            "a digest for every record"
        );
        let n = self.records.len();
        let mut parent = vec![NONE; n];
        let mut missing = Vec::new();
        // Without a duplicate id, a parent that is the record just before is the one its id
        // names: most entries continue the one before them, and that needs no lookup in the
        // index (a lookup is a few cache misses on a large file), nor a read of the records.
        let unique = !self.diagnostics.iter().any(|d| d.problem == Problem::DuplicateId);
        // Whether a parent comes after its child in the file: only then can there be a cycle.
        let mut forward = false;
        for (i, &link) in self.links.iter().enumerate() {
            match link {
                Link::Root => continue,
                Link::Previous if unique => parent[i] = i as u32 - 1,
                Link::Previous | Link::Lookup => {
                    let Some(pid) = &self.records[i].parent_id else { continue };
                    match self.by_id.get(&self.records, pid) {
                        Some(p) => {
                            parent[i] = p;
                            forward |= p as usize > i;
                        }
                        None => missing.push(i),
                    }
                }
            }
        }
        for i in missing {
            let r = &self.records[i];
            self.diagnostics.push(Diagnostic {
                line: r.line,
                problem: Problem::MissingParent,
                id: r.id.clone(),
                message: format!(
                    "parent {} of entry {} not found; the entry counts as a root",
                    r.parent_id.as_ref().map_or("?", EntryId::as_str),
                    r.id.as_ref().map_or("?", EntryId::as_str)
                )
                .into(),
            });
        }
        let mut cycle_links = HashMap::new();
        // Following parents around a cycle comes back to where it started, so some link on it
        // leads forward in the file.
        let cycles = if forward { break_cycles(&mut parent) } else { Vec::new() };
        for (closing, cut) in cycles {
            cycle_links.insert(closing, cut);
            let r = &self.records[closing as usize];
            self.diagnostics.push(Diagnostic {
                line: r.line,
                problem: Problem::Cycle,
                id: r.id.clone(),
                message: format!(
                    "parent cycle through entry {}; broken here, the entry counts as a root",
                    r.id.as_ref().map_or("?", EntryId::as_str)
                )
                .into(),
            });
        }
        self.diagnostics.sort_by_key(|d| d.line);

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
            path: self.path,
            source,
            slot: self.slot,
            header: self.header,
            header_problem: self.header_problem,
            lane_format: self.lane_format,
            records: self.records,
            diagnostics: self.diagnostics,
            file_len: self.offset,
            ends_with_newline: self.ends_with_newline,
            line_count: self.line_no,
            by_id: self.by_id,
            parent,
            cycle_links,
            child_start,
            child_list,
            roots,
            labels: self.labels.into_iter().flatten().collect(),
            label_records: self.label_records,
            archived: self.archived,
            last_title_change: self.last_title_change,
            last_session_info: self.last_session_info,
            omp_signals: self.omp_signals,
            omp_only_kinds: self.omp_only_kinds,
            pi_signals: self.pi_signals,
        };
        (session, self.digests)
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A digest for the loader's tests: each record's line as the digest was handed it, and
    /// whether that was in the walk that read its envelope.
    #[derive(Debug)]
    pub(crate) struct Echo;

    impl Digest for Echo {
        type Of = (bool, Vec<u8>);
        // As deep as the walk of the rows' digest.
        const WALK_DEPTH: usize = 5;

        fn with_envelope<'a>(
            &self,
            line: &Line<'a, '_>,
            stack: &mut Vec<bool>,
        ) -> Option<(Envelope<'a>, Self::Of)> {
            let env = crate::format::envelope::envelope_in(line, stack).ok()?;
            Some((env, (true, line.bytes.to_vec())))
        }

        fn of_line(&self, _: &mut Scanner, bytes: &[u8], _: bool) -> Self::Of {
            (false, bytes.to_vec())
        }
    }

    fn load(text: &str) -> Session {
        Session::from_bytes(Path::new("t.jsonl"), text.as_bytes().to_vec()).unwrap()
    }

    const HEADER: &str = r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#;

    fn entry(id: &str, parent: Option<&str>) -> String {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"x"}}}}"#
        )
    }

    #[test]
    fn indexes_a_tree() {
        let text = [
            HEADER.to_string(),
            entry("a", None),
            entry("b", Some("a")),
            entry("c", Some("a")),
            entry("d", Some("b")),
        ]
        .join("\n");
        let s = load(&text);
        assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
        assert_eq!(s.roots(), &[0]);
        assert_eq!(s.children(0), &[1, 2]);
        assert_eq!(s.leaf(), Some(3));
        assert_eq!(s.path_to_root(3), vec![0, 1, 3]);
        assert!(!s.ends_with_newline);
    }

    /// A parent written just before its child is found without the index only while every id
    /// is unique: with a later duplicate, the later one is the parent.
    #[test]
    fn a_parent_just_before_is_the_later_duplicate_when_there_is_one() {
        let s = load(
            &[HEADER.to_string(), entry("a", None), entry("b", Some("a")), entry("c", Some("b"))]
                .join("\n"),
        );
        assert_eq!(s.path_to_root(2), vec![0, 1, 2]);
        let text = [HEADER.to_string(), entry("a", None), entry("b", Some("a")), entry("a", None)]
            .join("\n");
        let s = load(&text);
        assert_eq!(s.parent(1), Some(2), "the later a wins");
        assert_eq!(s.children(2), &[1]);
    }

    /// A file can have a warning on every line: those that read the same on each line are not
    /// copied for each.
    #[test]
    fn warnings_of_the_same_text_are_not_copied() {
        let text = [HEADER, "{}", "[1]", "{}", "[2]"].join("\n");
        let s = load(&text);
        let messages: Vec<_> = s.diagnostics.iter().map(|d| (d.line, &*d.message)).collect();
        assert_eq!(
            messages,
            [
                (2, "entry has no id"),
                (3, "record is not a JSON object"),
                (4, "entry has no id"),
                (5, "record is not a JSON object"),
            ]
        );
        assert!(s.diagnostics.iter().all(|d| matches!(d.message, Cow::Borrowed(_))));
    }

    #[test]
    fn damage_is_reported_not_fatal() {
        let text = [
            HEADER.to_string(),
            entry("a", None),
            "{broken".to_string(),
            entry("a", None),
            entry("o", Some("gone")),
            r#"{"type":"message","id":"t","par"#.to_string(),
        ]
        .join("\n");
        let s = load(&text);
        let problems: Vec<_> = s.diagnostics.iter().map(|d| (d.line, d.problem)).collect();
        assert_eq!(
            problems,
            vec![
                (3, Problem::Unparseable),
                (4, Problem::DuplicateId),
                (5, Problem::MissingParent),
                (6, Problem::Truncated)
            ]
        );
        assert_eq!(s.lookup(&EntryId::new("a")), Some(1));
        assert_eq!(s.roots(), &[0, 1, 2]);
    }

    #[test]
    fn cycles_break_at_the_last_member() {
        let text = [
            HEADER.to_string(),
            entry("a", Some("c")),
            entry("b", Some("a")),
            entry("c", Some("b")),
            entry("s", Some("s")),
        ]
        .join("\n");
        let s = load(&text);
        assert_eq!(s.diagnostics.len(), 1);
        assert_eq!(s.diagnostics[0].problem, Problem::Cycle);
        assert_eq!(s.diagnostics[0].line, 4);
        assert_eq!(s.roots(), &[2, 3]);
        assert_eq!(s.path_to_root(1), vec![2, 0, 1]);
        // From the entry that closes the cycle the walk goes round once, as the agents' do.
        assert_eq!(s.path_to_root(2), vec![0, 1, 2]);
    }

    /// Each entry names the one before it, yet the later `a` wins the id, so `b`'s parent
    /// comes after it: a cycle that only the lookup of duplicates finds.
    #[test]
    fn a_cycle_through_a_duplicate_id_is_broken() {
        let text =
            [HEADER.to_string(), entry("a", None), entry("b", Some("a")), entry("a", Some("b"))]
                .join("\n");
        let s = load(&text);
        let problems: Vec<Problem> = s.diagnostics.iter().map(|d| d.problem).collect();
        assert_eq!(problems, [Problem::DuplicateId, Problem::Cycle]);
        assert_eq!(s.diagnostics[1].line, 4);
        assert_eq!(s.roots(), &[0, 2]);
        assert_eq!(s.parent(1), Some(2));
    }

    #[test]
    fn the_position_looks_through_a_move_marker() {
        let marker = r#"{"type":"branch_summary","id":"m","parentId":"a","fromId":"a","summary":"","details":{"kind":"checkout"}}"#;
        let s = load(
            &[HEADER.to_string(), entry("a", None), entry("b", Some("a")), marker.into()]
                .join("\n"),
        );
        assert_eq!(s.leaf(), Some(2));
        assert_eq!(s.position().unwrap(), Some(0));
        let summary = r#"{"type":"branch_summary","id":"m","parentId":"a","fromId":"a","summary":"went back"}"#;
        let s = load(&[HEADER.to_string(), entry("a", None), summary.into()].join("\n"));
        assert_eq!(s.position().unwrap(), Some(1));
        let root_marker =
            r#"{"type":"branch_summary","id":"m","parentId":null,"fromId":"root","summary":""}"#;
        let s = load(&[HEADER.to_string(), entry("a", None), root_marker.into()].join("\n"));
        assert_eq!(s.position().unwrap(), None);
    }

    #[test]
    fn the_position_looks_through_trailing_labels() {
        let label = |id: &str, parent: &str, target: &str| {
            format!(
                r#"{{"type":"label","id":"{id}","parentId":"{parent}","targetId":"{target}","label":"L"}}"#
            )
        };
        // `label @ L` twice: both label entries hang at the leaf path, `@` stays on b.
        let s = load(
            &[
                HEADER.to_string(),
                entry("a", None),
                entry("b", Some("a")),
                label("l1", "b", "b"),
                label("l2", "l1", "b"),
            ]
            .join("\n"),
        );
        assert_eq!(s.leaf(), Some(3));
        assert_eq!(s.position().unwrap(), Some(1));
        // `checkout a --label L`: the marker under a, the label entry under the marker.
        let marker = r#"{"type":"branch_summary","id":"m","parentId":"a","fromId":"a","summary":"","details":{"kind":"checkout"}}"#;
        let s = load(
            &[
                HEADER.to_string(),
                entry("a", None),
                entry("b", Some("a")),
                marker.into(),
                label("l1", "m", "a"),
            ]
            .join("\n"),
        );
        assert_eq!(s.position().unwrap(), Some(0));
        // A label entry elsewhere than at the end of the leaf path is an entry like any other.
        let s = load(
            &[HEADER.to_string(), entry("a", None), label("l1", "a", "a"), entry("b", Some("l1"))]
                .join("\n"),
        );
        assert_eq!(s.position().unwrap(), Some(2));
        // A label entry that is a root: before the first prompt.
        let root = r#"{"type":"label","id":"l1","parentId":null,"targetId":"a","label":"L"}"#;
        let s = load(&[HEADER.to_string(), entry("a", None), root.into()].join("\n"));
        assert_eq!(s.position().unwrap(), None);
    }

    #[test]
    fn labels_replay_globally_in_map_order() {
        let label = |id: &str, target: &str, label: &str| {
            format!(
                r#"{{"type":"label","id":"{id}","parentId":null,"targetId":"{target}","label":{label}}}"#
            )
        };
        let text = [
            HEADER.to_string(),
            entry("a", None),
            entry("b", Some("a")),
            label("l1", "a", "\"one\""),
            label("l2", "b", "\"two\""),
            label("l3", "a", "\"uno\""),
            label("l4", "b", "\"\""),
            label("l5", "b", "\"again\""),
            label("l6", "a", "0"),
            label("l7", "a", "{\"x\":1}"),
        ]
        .join("\n");
        let s = load(&text);
        let labels: Vec<_> = s.labels().iter().map(|(t, l)| (t.as_str(), &**l)).collect();
        assert_eq!(labels, vec![("b", "\"again\""), ("a", "{\"x\":1}")]);
        assert_eq!(s.label_of(&EntryId::new("b")).as_deref(), Some("again"));
    }

    #[test]
    fn names_come_from_the_slot_the_header_or_the_entries() {
        let slot = String::from_utf8(
            crate::format::title::encode_slot("Slot name", Some(TitleSource::User), "t").unwrap(),
        )
        .unwrap();
        let titled = r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/","title":"Header name","titleSource":"auto"}"#;
        let change = |title: &str, source: &str| {
            format!(
                r#"{{"type":"title_change","id":"{title}","parentId":null,"title":"{title}","source":"{source}"}}"#
            )
        };
        let info = |name: &str| {
            format!(r#"{{"type":"session_info","id":"{name}","parentId":null,"name":" {name} "}}"#)
        };
        let name = |lines: &[&str]| load(&lines.join("\n")).name();
        let user = Some(TitleSource::User);
        let auto = Some(TitleSource::Auto);

        assert_eq!(name(&[&slot, titled]), Some(("Slot name".into(), user)));
        assert_eq!(name(&[titled]), Some(("Header name".into(), auto)));
        // No title in slot or header: the last title_change, with its source.
        let (a, b) = (change("First", "user"), change("Second", "auto"));
        assert_eq!(name(&[HEADER, &a, &b]), Some(("Second".into(), auto)));
        let odd = change("Odd", "robot");
        assert_eq!(name(&[HEADER, &odd]), Some(("Odd".into(), None)));
        // pi: the last session_info, trimmed, even over a title the header carries.
        let (one, two) = (info("one"), info("two"));
        assert_eq!(name(&[HEADER, &one, &two]), Some(("two".into(), None)));
        assert_eq!(name(&[titled, &one]), Some(("one".into(), None)));
        // With a slot the file is oh-my-pi's, and session_info is only a fallback.
        assert_eq!(name(&[&slot, titled, &one]), Some(("Slot name".into(), user)));
        assert_eq!(name(&[HEADER]), None);
        // An empty slot title means no name: title_change entries are history, not the name.
        let empty_slot =
            String::from_utf8(crate::format::title::encode_slot("", None, "t").unwrap()).unwrap();
        assert_eq!(name(&[&empty_slot, titled, &a]), None);
    }

    #[test]
    fn empty_and_headerless_files() {
        let s = load("\n  \n");
        assert!(s.is_empty());
        assert!(matches!(s.require_header(), Err(Error::Empty { .. })));
        let s = load(&entry("a", None));
        assert!(matches!(s.require_header(), Err(Error::NoHeader { line: 1, .. })));
        assert_eq!(s.records.len(), 1);
    }

    #[test]
    fn v1_records_get_derived_chained_ids() {
        let text = [
            r#"{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}"#,
            r#"{"type":"message","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}"#,
            r#"{"type":"message","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[]}}"#,
            r#"{"type":"compaction","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}"#,
        ]
        .join("\n");
        let s = load(&text);
        assert!(s.is_v1());
        let ids: Vec<_> = s.records.iter().map(|r| r.id.clone().unwrap()).collect();
        assert_eq!(s.record(1).parent_id.as_ref(), Some(&ids[0]));
        assert_eq!(s.path_to_root(2), vec![0, 1, 2]);
        let v = s.value(2).unwrap();
        assert_eq!(v["firstKeptEntryId"], ids[1].to_value());
        assert_eq!(v["id"], ids[2].to_value());
        assert_eq!(load(&text).records[2].id, Some(ids[2].clone()), "ids are deterministic");
    }

    #[test]
    fn numeric_string_versions_and_bom() {
        let s = load(&format!(
            "\u{feff}{}\n",
            r#"{"type":"session","version":"3","id":"s","timestamp":"t","cwd":"/"}"#
        ));
        assert_eq!(s.version(), 3);
        assert!(s.diagnostics.is_empty());
    }

    /// Found in review: `read_range` sliced an in-memory source unchecked, so a range past its
    /// end (or one whose end overflows) panicked instead of failing.
    #[test]
    fn read_range_past_the_end_is_an_error() {
        let s = load(HEADER);
        assert_eq!(s.read_range(0, 4).unwrap(), b"{\"ty");
        assert!(s.read_range(0, 10_000).is_err());
        assert!(s.read_range(u64::MAX, 2).is_err());
        assert!(s.read_range(5, u64::MAX).is_err());
    }

    /// Found by the hostile-input tests: a line nested 100,000 deep passed the envelope scan
    /// (which skips payloads without a depth limit) and then failed every full parse, so
    /// `tree` and `stats` stopped with "the line changed since it was read".
    #[test]
    fn deep_nesting_is_unparseable_at_load() {
        let nested = |depth: usize| {
            format!(
                r#"{{"type":"message","id":"d{depth}","parentId":null,"x":{}{}}}"#,
                "[".repeat(depth - 1),
                "]".repeat(depth - 1)
            )
        };
        let text = [HEADER.to_string(), nested(MAX_NESTING), nested(MAX_NESTING + 1)].join("\n");
        let s = load(&text);
        assert_eq!(s.records.len(), 1);
        assert!(s.value(0).is_ok(), "the deepest line a parse accepts is an entry");
        let problems: Vec<_> = s.diagnostics.iter().map(|d| (d.line, d.problem)).collect();
        assert_eq!(problems, vec![(3, Problem::Unparseable)]);
        assert!(s.diagnostics[0].message.contains("nested deeper than 127 levels"));
        let s = load(&[HEADER.to_string(), nested(100_000)].join("\n"));
        assert!(s.records.is_empty());
    }

    /// The loader's depth (measured by the scanner as it walks) agrees with a full parse's
    /// limit for every shape of the innermost level.
    #[test]
    fn depth_is_measured_like_a_full_parse() {
        for depth in [MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1] {
            let inner = depth - 1;
            for x in [
                format!("{}{}", "[".repeat(inner), "]".repeat(inner)),
                format!("{}1{}", "[".repeat(inner), "]".repeat(inner)),
                format!("{}{{}}{}", r#"{"a":"#.repeat(inner - 1), "}".repeat(inner - 1)),
                format!("{}[{{}}, 2]{}", r#"{"a":"#.repeat(inner - 2), "}".repeat(inner - 2)),
            ] {
                let line = format!(r#"{{"type":"message","id":"d","parentId":null,"x":{x}}}"#);
                let parses = serde_json::from_str::<Value>(&line).is_ok();
                let s = load(&[HEADER, line.as_str()].join("\n"));
                assert_eq!(s.records.len() == 1, parses, "{x}");
                assert_eq!(parses, depth <= MAX_NESTING, "{x}");
            }
        }
    }

    #[test]
    fn brackets_inside_strings_do_not_nest() {
        let deep_text = format!("{}\\\"{}", "[".repeat(300), "{".repeat(300));
        let line = format!(r#"{{"type":"message","id":"a","parentId":null,"t":"{deep_text}"}}"#);
        let scanner = &mut Scanner::new();
        assert!(!nested_too_deep(scanner, line.as_bytes()));
        assert!(load(&format!("{HEADER}\n{line}")).diagnostics.is_empty());
        // A value that is not an object counts from its own brackets.
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(!nested_too_deep(scanner, deep(MAX_NESTING).as_bytes()));
        assert!(nested_too_deep(scanner, deep(MAX_NESTING + 1).as_bytes()));
        let quoted = format!(r#"["\"{}"]"#, "[".repeat(200));
        assert!(!nested_too_deep(scanner, quoted.as_bytes()));
    }

    #[test]
    fn reading_a_file_in_pieces_gives_the_same_index() {
        // Lines around and far beyond the read size, straddling reads, a BOM, blank lines and
        // no newline at the end.
        let mut text = format!("\u{feff}{HEADER}\n\n");
        let mut parent: Option<String> = None;
        for (i, size) in
            [10, READ_SIZE - 200, 3 * READ_SIZE, 5, READ_SIZE, 70_000].iter().enumerate()
        {
            let id = format!("e{i}");
            let mut line = entry(&id, parent.as_deref());
            line.insert_str(1, &format!(r#""pad":"{}","#, "x".repeat(*size)));
            text.push_str(&line);
            text.push('\n');
            parent = Some(id);
        }
        text.push_str(r#"{"type":"message","id":"torn""#);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, &text).unwrap();
        let from_file = Session::load(&path).unwrap();
        let in_memory = load(&text);
        let ranges = |s: &Session| -> Vec<_> {
            s.records.iter().map(|r| (r.line, r.offset, r.len, r.id.clone())).collect()
        };
        assert_eq!(ranges(&from_file), ranges(&in_memory));
        assert_eq!(from_file.records.len(), 6);
        assert_eq!(from_file.line_count, 9);
        assert_eq!(from_file.file_len, text.len() as u64);
        assert!(!from_file.ends_with_newline);
        assert_eq!(from_file.diagnostics.len(), 1);
        assert_eq!(from_file.diagnostics[0].problem, Problem::Truncated);
        let mut lines = from_file.lines();
        for idx in [5, 0, 2, 3, 1, 4] {
            let r = from_file.record(idx);
            let expect = &text.as_bytes()[r.offset as usize..(r.offset + r.len) as usize];
            assert_eq!(lines.line(idx).unwrap(), expect);
        }
    }

    /// Lines read in file order come through windows of many lines; lines read far apart come
    /// alone, not each with a window of lines nobody reads. Either way, the bytes are the line.
    #[test]
    fn a_line_reader_reads_windows_in_order_and_single_lines_when_scattered() {
        let mut text = format!("{HEADER}\n");
        let mut parent: Option<String> = None;
        for i in 0..20_000 {
            let id = format!("e{i}");
            text.push_str(&entry(&id, parent.as_deref()));
            text.push('\n');
            parent = Some(id);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, &text).unwrap();
        let s = Session::load(&path).unwrap();
        let check = |order: &mut dyn Iterator<Item = u32>| {
            let mut lines = s.lines();
            let mut wanted = 0;
            for idx in order {
                let r = s.record(idx);
                let expect = &text.as_bytes()[r.offset as usize..(r.offset + r.len) as usize];
                assert_eq!(lines.line(idx).unwrap(), expect, "line of {idx}");
                wanted += r.len;
            }
            (lines.bytes_read(), wanted)
        };
        // In order: about the file once, in a few dozen reads.
        let (read, _) = check(&mut (0..20_000));
        assert!(read < text.len() as u64 + 2 * WINDOW, "{read}");
        // Every 2500th line (300 KB apart): after the first window, each line alone.
        let (read, wanted) = check(&mut (0..20_000).step_by(2500));
        assert!(read < wanted + 2 * WINDOW, "read {read} for {wanted}");
        // Scattered, then in order again: windows again.
        let mut mixed = (0..10_000).step_by(2500).chain(10_000..20_000);
        let (read, _) = check(&mut mixed);
        assert!(read < text.len() as u64, "{read}");
    }

    #[test]
    fn the_session_id_says_nothing_about_the_agent() {
        // A v4 UUID (old pi's), a v7 (both agents' now) and a caller's id alike.
        for id in [
            "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
            "0198f3a2-7c41-7d2e-9a55-3b1f0c6e2a10",
            "my-run.1",
        ] {
            let header = format!(
                r#"{{"type":"session","version":3,"id":"{id}","timestamp":"t","cwd":"/"}}"#
            );
            let s = load(&header);
            assert!(!s.names_like_pi(), "{id}");
            assert_eq!(s.certain_dialect(), None, "{id}");
            let info = r#"{"type":"session_info","id":"a","parentId":null,"name":"x"}"#;
            let s = load(&format!("{header}\n{info}"));
            assert!(s.names_like_pi(), "{id}");
            assert_eq!(s.certain_dialect(), Some(Dialect::Pi), "{id}");
        }
    }

    #[test]
    fn invalid_utf8_still_loads() {
        let mut bytes = format!("{HEADER}\n").into_bytes();
        bytes.extend_from_slice(b"{\"type\":\"message\",\"id\":\"a\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"\xff\xfe\"}}\n");
        let s = Session::from_bytes(Path::new("t"), bytes).unwrap();
        assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
        assert_eq!(s.value(0).unwrap()["message"]["content"], "\u{fffd}\u{fffd}");
    }
}
