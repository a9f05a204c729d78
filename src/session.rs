//! The index of a session file ([`Session`]), built by loading the file in one pass (the
//! submodule `load`; large files on every core).
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
use crate::format::entry::Payload;
use crate::format::kind::Class;
use crate::format::title::TitleSlot;
use crate::format::{Dialect, Envelope, Foreign, HeaderRef, Kind, MAX_VERSION};
use crate::id::EntryId;
use crate::json::scan::{Line, Scanner};
use crate::naming::TitleSource;

/// Maps keyed by id. foldhash: SipHash was a tenth of the loading time, and an id map needs no
/// protection from crafted keys beyond what foldhash's per-process seed gives.
type IdMap<V> = HashMap<EntryId, V, foldhash::fast::RandomState>;

/// Marks "no record" in the index arrays.
pub(crate) const NONE: u32 = u32::MAX;

mod id_index;
mod load;

pub(crate) use load::{break_cycles, parse_lossy};

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

impl Header {
    /// What the header says, read by name.
    pub fn fields(&self) -> HeaderRef<'_> {
        HeaderRef::new(&self.value)
    }
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
    /// pass [`MAX_NESTING`](crate::json::MAX_NESTING).
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
    /// The file, open until a rewrite replaces it ([`Session::close_file`]).
    File(std::sync::RwLock<Option<File>>),
    Bytes(Vec<u8>),
}

impl Source {
    fn file(file: File) -> Source {
        Source::File(std::sync::RwLock::new(Some(file)))
    }
}

impl Default for Source {
    fn default() -> Self {
        Source::Bytes(Vec::new())
    }
}

/// A loaded session: header, records and the index over them.
#[derive(Debug, Default)]
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
    /// Another agent's transcript, read through its transcoding into a session
    /// ([`Foreign::transcode`]): record lines are the transcript's, and nothing writes it.
    pub foreign: Option<Foreign>,
    /// The leaf the transcoding of another agent's transcript named.
    foreign_leaf: Option<u32>,
    /// Where each record's line lies in another agent's transcript (offset, length without the
    /// newline), by record index: [`Session::written_line`] reads it back.
    foreign_lines: Vec<(u64, u64)>,
    /// The files read after another agent's transcript, as if it went on with them (Claude
    /// Code's subagents, [`Foreign::read`]): where each starts in what was read.
    foreign_joined: Vec<(u64, PathBuf)>,
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
            Ok(load::bytes(path, bytes, digest))
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
        load::file(path, digest, file, metadata.len())
    }

    /// Loads a session held in memory (standard input, tests).
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Session> {
        Ok(load::bytes(path, bytes, None::<&IndexOnly>).0)
    }

    /// [`Session::from_bytes`] with a [`Digest`], as [`Session::load_with`].
    pub fn from_bytes_with<D: Digest>(
        path: &Path,
        bytes: Vec<u8>,
        digest: &D,
    ) -> Result<(Session, Vec<D::Of>)> {
        Ok(load::bytes(path, bytes, Some(digest)))
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

    /// The header of a file sesstree may rewrite: the file is not empty, and its header is
    /// valid and of a version sesstree knows.
    pub fn require_known_header(&self) -> Result<&Header> {
        self.refuse_foreign()?;
        if self.is_empty() {
            return Err(Error::Empty { path: self.path.clone() });
        }
        let header = self.require_header()?;
        if header.version > MAX_VERSION {
            return Err(Error::TooNew { path: self.path.clone(), version: header.version });
        }
        Ok(header)
    }

    /// The other agent whose transcript a file is, told by the first line of `head` (the start
    /// of the file): a load reads such a file as a session ([`Foreign`]).
    pub fn foreign_format(head: &[u8]) -> Option<Foreign> {
        load::foreign_format(head)
    }

    /// The other agent whose transcript `file` is, told by its first non-blank line read
    /// whole (a transcript's first record may be a long prompt), as loading tells it.
    pub fn foreign_format_of(file: &std::fs::File) -> std::io::Result<Option<Foreign>> {
        Ok(load::foreign_format(&load::first_line(file)?))
    }

    /// Refuses another agent's transcript, which no command writes.
    pub fn refuse_foreign(&self) -> Result<()> {
        match self.foreign {
            Some(foreign) => Err(Error::ReadOnly { path: self.path.clone(), what: foreign.what() }),
            None => Ok(()),
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

    /// The current leaf: the last record, when it has an id (FORMAT §4.3); in another agent's
    /// transcript, the one its transcoding names.
    pub fn leaf(&self) -> Option<u32> {
        if self.foreign.is_some() {
            return self.foreign_leaf;
        }
        let last = self.records.len().checked_sub(1)?;
        self.records[last].id.as_ref().map(|_| last as u32)
    }

    /// Where the conversation is: the leaf, looking through what only bookkeeps a position.
    ///
    /// Bookkeeping ([`Class::Bookkeeping`]) at the end of the leaf path is stepped over: `label` entries (the agent
    /// hangs one at the leaf and moves the leaf onto it, FORMAT §5, as HEAD stays put after
    /// `git tag`) and the `title_change` or `session_info` naming the session appends, in any
    /// order; then, when the entry reached is an empty-summary `branch_summary` (the marker
    /// that persists a bare move, FORMAT §4.3), the position is the entry it marks (its
    /// parent), whatever that is. None of them reaches the model as a turn, so the
    /// conversation goes on from the entry below them; `None` when nothing else is left. This
    /// is what `@` names, so that after `checkout X` (with or without `--label`, and even when
    /// X is itself bookkeeping) `@` is X, after `name` `@` is the entry shown on top, and
    /// `label @ L` twice labels the same entry.
    pub fn position(&self) -> Result<Option<u32>> {
        let Some(mut at) = self.leaf() else { return Ok(None) };
        // Bounded by the record count: parent links are acyclic once the loader broke cycles.
        while self.records[at as usize].kind.class() == Class::Bookkeeping {
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
        // Only the summary's shape is read, off the line: a summary can be long, or hostile.
        let marker = |payload: Payload<'_>| match payload {
            Payload::BranchSummary(s) => crate::format::is_move_marker(s.summary),
            _ => false,
        };
        if !self.is_v1()
            && let Some(payload) = Payload::scan(&self.raw_line(idx)?, &mut Scanner::new())
        {
            return Ok(marker(payload));
        }
        Ok(marker(Payload::from_value(&self.value(idx)?)))
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

    /// Fills `kids` with the children of `of` (the roots for `None`) with move markers folded, in
    /// file order, and `markers` with the markers folded. A move marker (the empty
    /// `branch_summary` a bare `checkout` appends) stands for the position it marks, not for a
    /// turn: it is replaced by its own children, so a checkout and `checkout -` neither open a
    /// branch nor add a level to the tree.
    pub fn folded_children(&self, of: Option<u32>, kids: &mut Vec<u32>, markers: &mut Vec<u32>) {
        kids.clear();
        markers.clear();
        let direct = of.map_or(self.roots(), |idx| self.children(idx));
        // Nearly always no child is a branch summary: then no list is made (a layout calls
        // this for every entry).
        if direct.iter().all(|&c| self.record(c).kind != Kind::BranchSummary) {
            kids.extend_from_slice(direct);
            return;
        }
        // A line that cannot be read is no marker: its row says why.
        let is_marker = |c: u32| {
            self.record(c).kind == Kind::BranchSummary && self.is_marker(c).unwrap_or(false)
        };
        let mut todo: Vec<u32> = direct.iter().rev().copied().collect();
        while let Some(c) = todo.pop() {
            if is_marker(c) {
                markers.push(c);
                todo.extend(self.children(c).iter().rev());
            } else {
                kids.push(c);
            }
        }
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

    /// The session name and its source, as the agents read it
    /// ([`crate::naming::name_in_effect`]): the slot's, else pi's last `session_info`, else the
    /// header's title. pi records no source.
    pub fn name(&self) -> Option<(String, Option<TitleSource>)> {
        // An empty slot title deletes the header title (FORMAT §1.2): no name.
        let slot =
            self.slot.as_ref().map(|s| (!s.title.is_empty()).then(|| (s.title.clone(), s.source)));
        let header = self.header.as_ref().and_then(|h| {
            let fields = h.fields();
            Some((fields.title()?.to_owned(), fields.title_source()))
        });
        let info = self.last_session_info.clone().map(|n| (n, None));
        crate::naming::name_in_effect(slot, info, header)
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

    /// The bytes of a record's line as the file holds it, without its newline: the record's own
    /// line, or for another agent's transcript the transcript's line it was converted from, read
    /// again from the file (from standard input, which cannot be read again, the converted one).
    pub fn written_line(&self, idx: u32) -> Result<Vec<u8>> {
        match self.foreign_lines.get(idx as usize) {
            Some(&(_, len)) if self.path.as_os_str() != "-" => {
                let (path, offset) = self.written_at(idx).unwrap_or((&self.path, 0));
                let file = File::open(path).map_err(|e| Error::io(path, e))?;
                let mut buf = vec![0; len as usize];
                crate::platform::read_exact_at(&file, &mut buf, offset)
                    .map_err(|e| Error::io(path, e))?;
                Ok(buf)
            }
            _ => self.raw_line(idx),
        }
    }

    /// The file a record of another agent's transcript is written in, and where its line
    /// starts there: the transcript's, or one of the files read with it ([`Session::joined`]).
    /// `None` for a session's own record.
    pub fn written_at(&self, idx: u32) -> Option<(&Path, u64)> {
        let &(offset, _) = self.foreign_lines.get(idx as usize)?;
        let joined = self.foreign_joined.iter().rev().find(|(start, _)| *start <= offset);
        Some(match joined {
            Some((start, path)) => (path, offset - start),
            None => (&self.path, offset),
        })
    }

    /// The files read after another agent's transcript, as if it went on with them (Claude
    /// Code's subagents', [`Foreign::read`]), each with the index of its first
    /// record: the records from there to the next file's are written in it.
    pub fn joined(&self) -> Vec<(&Path, u32)> {
        let first = |start: u64| self.foreign_lines.partition_point(|(o, _)| *o < start) as u32;
        self.foreign_joined.iter().map(|(start, path)| (path.as_path(), first(*start))).collect()
    }

    /// Reads `len` bytes at `offset` of the source into `buf` (replacing its contents).
    pub(crate) fn read_into(&self, offset: u64, len: u64, buf: &mut Vec<u8>) -> Result<()> {
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
                let f = f.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                // Closed by a rewrite, whose new file these offsets do not describe.
                let f = f.as_ref().ok_or_else(|| {
                    let closed =
                        std::io::Error::other("the session was rewritten since it was read");
                    Error::io(&self.path, closed)
                })?;
                // The read overwrites what is there: a buffer used again (a `LineReader`'s
                // window) is zeroed only where it grows, not the whole file over again.
                buf.truncate(len as usize);
                buf.resize(len as usize, 0);
                crate::platform::read_exact_at(f, buf, offset)
                    .map_err(|e| Error::io(&self.path, e))?;
            }
        }
        Ok(())
    }

    /// Closes the file the session was read from, before a rewrite renames a new one over
    /// it: Windows renames nothing over a file that is open. Reading the session afterwards is
    /// an error, since its offsets describe the old file.
    pub(crate) fn close_file(&self) {
        if let Source::File(f) = &self.source {
            f.write().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        }
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

    /// The JSON text of [`Session::value`] as serde_json writes it, compact: what `show`
    /// prints. Written as the line is walked, without building the value, where the
    /// line allows it ([`crate::json::transcode`]): the value of a line of megabytes of
    /// small values costs 50 to 150 times its bytes.
    pub fn value_json(&self, idx: u32) -> Result<Vec<u8>> {
        if !self.is_v1()
            && let Some(text) = crate::json::transcode::to_json(&self.raw_line(idx)?)
        {
            return Ok(text);
        }
        serde_json::to_vec(&self.value(idx)?).map_err(|e| Error::io(&self.path, e.into()))
    }

    /// The id of the record a version-1 `firstKeptEntryIndex` names. The index counts the
    /// header as record 0; an index naming the header, a record without an id, or nothing
    /// names none.
    pub(crate) fn first_kept_target(&self, index: &Value) -> Option<&EntryId> {
        self.records.get(index.as_u64().filter(|&i| i >= 1)? as usize - 1)?.id.as_ref()
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
                let (key, value) = match self.first_kept_target(&index) {
                    Some(id) => ("firstKeptEntryId", id.to_value()),
                    None => ("firstKeptEntryIndex", index),
                };
                map.insert(key.into(), value);
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
    match label_value(raw) {
        Value::String(s) => s,
        _ => raw.to_string(),
    }
}

/// A raw label value as the JSON value it was written as (a string when it is not JSON).
pub fn label_value(raw: &str) -> Value {
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::load::READ_SIZE;
    use super::*;
    use crate::format::kind::Writers;
    use crate::json::MAX_NESTING;

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

    /// `@` steps over an entry of every bookkeeping kind at the leaf, and over no other.
    #[test]
    fn position_steps_over_every_bookkeeping_kind() {
        let user = r#"{"type":"message","id":"u","parentId":null,"message":{"role":"user","content":"hi"}}"#;
        for kind in Kind::ALL {
            let mut entry = crate::format::kind::tests::example(kind);
            entry["id"] = "k".into();
            entry["parentId"] = "u".into();
            let s = load(&format!("{HEADER}\n{user}\n{entry}"));
            let at = if kind.class() == Class::Bookkeeping { 0 } else { 1 };
            assert_eq!(s.position().unwrap(), Some(at), "{kind:?}");
        }
    }

    /// A bare entry of a kind only one agent writes tells which wrote the file, and one of any
    /// other kind does not.
    #[test]
    fn every_kind_only_one_agent_writes_tells_the_dialect() {
        for kind in Kind::ALL {
            let line = format!(r#"{{"type":"{}","id":"e","parentId":null}}"#, kind.as_str());
            let want = match kind.writers() {
                Writers::Pi => Some(Dialect::Pi),
                Writers::Omp => Some(Dialect::Omp),
                Writers::Both | Writers::Legacy | Writers::Unknown => None,
            };
            assert_eq!(load(&format!("{HEADER}\n{line}")).certain_dialect(), want, "{kind:?}");
        }
    }

    /// `text` written to a file in a new directory, which lasts as long as the directory.
    pub(crate) fn written(text: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    /// The text of a file of [`HEADER`] and these lines.
    fn after_header(lines: &[String]) -> String {
        format!("{HEADER}\n{}", lines.join("\n"))
    }

    fn entry(id: &str, parent: Option<&str>) -> String {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"x"}}}}"#
        )
    }

    #[test]
    fn indexes_a_tree() {
        let text = after_header(&[
            entry("a", None),
            entry("b", Some("a")),
            entry("c", Some("a")),
            entry("d", Some("b")),
        ]);
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
        let s =
            load(&after_header(&[entry("a", None), entry("b", Some("a")), entry("c", Some("b"))]));
        assert_eq!(s.path_to_root(2), vec![0, 1, 2]);
        let text = after_header(&[entry("a", None), entry("b", Some("a")), entry("a", None)]);
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
        let text = after_header(&[
            entry("a", None),
            "{broken".to_string(),
            entry("a", None),
            entry("o", Some("gone")),
            r#"{"type":"message","id":"t","par"#.to_string(),
        ]);
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
        let text = after_header(&[
            entry("a", Some("c")),
            entry("b", Some("a")),
            entry("c", Some("b")),
            entry("s", Some("s")),
        ]);
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
        let text = after_header(&[entry("a", None), entry("b", Some("a")), entry("a", Some("b"))]);
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
        let s = load(&after_header(&[entry("a", None), entry("b", Some("a")), marker.into()]));
        assert_eq!(s.leaf(), Some(2));
        assert_eq!(s.position().unwrap(), Some(0));
        let summary = r#"{"type":"branch_summary","id":"m","parentId":"a","fromId":"a","summary":"went back"}"#;
        let s = load(&after_header(&[entry("a", None), summary.into()]));
        assert_eq!(s.position().unwrap(), Some(1));
        let root_marker =
            r#"{"type":"branch_summary","id":"m","parentId":null,"fromId":"root","summary":""}"#;
        let s = load(&after_header(&[entry("a", None), root_marker.into()]));
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
        let s = load(&after_header(&[
            entry("a", None),
            entry("b", Some("a")),
            label("l1", "b", "b"),
            label("l2", "l1", "b"),
        ]));
        assert_eq!(s.leaf(), Some(3));
        assert_eq!(s.position().unwrap(), Some(1));
        // `checkout a --label L`: the marker under a, the label entry under the marker.
        let marker = r#"{"type":"branch_summary","id":"m","parentId":"a","fromId":"a","summary":"","details":{"kind":"checkout"}}"#;
        let s = load(&after_header(&[
            entry("a", None),
            entry("b", Some("a")),
            marker.into(),
            label("l1", "m", "a"),
        ]));
        assert_eq!(s.position().unwrap(), Some(0));
        // A label entry elsewhere than at the end of the leaf path is an entry like any other.
        let s =
            load(&after_header(&[entry("a", None), label("l1", "a", "a"), entry("b", Some("l1"))]));
        assert_eq!(s.position().unwrap(), Some(2));
        // A label entry that is a root: before the first prompt.
        let root = r#"{"type":"label","id":"l1","parentId":null,"targetId":"a","label":"L"}"#;
        let s = load(&after_header(&[entry("a", None), root.into()]));
        assert_eq!(s.position().unwrap(), None);
    }

    /// See: issue 44. Naming the session appends a `title_change` (oh-my-pi) or a
    /// `session_info` (pi 1.6.0), and a label may follow it or a marker: all are stepped over.
    #[test]
    fn the_position_steps_over_every_kind_of_bookkeeping() {
        let line = |kind: &str, id: &str, parent: &str, rest: &str| {
            format!(r#"{{"type":"{kind}","id":"{id}","parentId":"{parent}"{rest}}}"#)
        };
        let s = load(&after_header(&[
            entry("a", None),
            entry("b", Some("a")),
            line("branch_summary", "m", "b", r#","fromId":"b","summary":"""#),
            line("session_info", "i", "m", r#","name":"N""#),
            line("label", "l", "i", r#","targetId":"a","label":"L""#),
            line("title_change", "t", "l", r#","title":"T""#),
        ]));
        assert_eq!(s.position().unwrap(), Some(1));
        // A summary with text is a turn of the conversation: the walk stops there.
        let s = load(&after_header(&[
            entry("a", None),
            line("branch_summary", "m", "a", r#","fromId":"a","summary":"S""#),
            line("session_info", "i", "m", r#","name":"N""#),
        ]));
        assert_eq!(s.position().unwrap(), Some(1));
    }

    #[test]
    fn labels_replay_globally_in_map_order() {
        let label = |id: &str, target: &str, label: &str| {
            format!(
                r#"{{"type":"label","id":"{id}","parentId":null,"targetId":"{target}","label":{label}}}"#
            )
        };
        let text = after_header(&[
            entry("a", None),
            entry("b", Some("a")),
            label("l1", "a", "\"one\""),
            label("l2", "b", "\"two\""),
            label("l3", "a", "\"uno\""),
            label("l4", "b", "\"\""),
            label("l5", "b", "\"again\""),
            label("l6", "a", "0"),
            label("l7", "a", "{\"x\":1}"),
        ]);
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
        // No title in slot or header: no name. title_change entries are the history of
        // renames; oh-my-pi does not work a name out of them (FORMAT §10.2).
        let (a, b) = (change("First", "user"), change("Second", "auto"));
        assert_eq!(name(&[HEADER, &a, &b]), None);
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
        let text = after_header(&[nested(MAX_NESTING), nested(MAX_NESTING + 1)]);
        let s = load(&text);
        assert_eq!(s.records.len(), 1);
        assert!(s.value(0).is_ok(), "the deepest line a parse accepts is an entry");
        let problems: Vec<_> = s.diagnostics.iter().map(|d| (d.line, d.problem)).collect();
        assert_eq!(problems, vec![(3, Problem::Unparseable)]);
        assert!(s.diagnostics[0].message.contains("nested deeper than 127 levels"));
        let s = load(&after_header(&[nested(100_000)]));
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
        use super::load::nested_too_deep;
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
        let (_dir, path) = written(text.as_bytes());
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
        let (_dir, path) = written(text.as_bytes());
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

    /// CHANGES R8: what only pi writes (pi 1.6.0's `session-manager.js`), what only oh-my-pi
    /// writes (18.2.3's `session-manager.ts`), and what both write.
    #[test]
    fn dialect_signals_are_what_only_one_agent_writes() {
        let pi = [
            r#"{"type":"session_info","id":"e","parentId":null,"name":"x"}"#,
            r#"{"type":"usage","id":"e","parentId":null}"#,
            r#"{"type":"context_edit","id":"e","parentId":null}"#,
            r#"{"type":"message","id":"e","parentId":null,"message":{"role":"system","content":"You are pi"}}"#,
            r#"{"type":"message","id":"e","parentId":null,"message":{"content":null,"role":"system"}}"#,
            r#"{"type":"model_change","id":"e","parentId":null,"provider":"openai","modelId":"gpt-5"}"#,
            r#"{"type":"compaction","id":"e","parentId":null,"summary":"s","fromHook":false}"#,
        ];
        let omp = [
            r#"{"type":"title_change","id":"e","parentId":null,"title":"x"}"#,
            r#"{"type":"model_change","id":"e","parentId":null,"model":"openai/gpt-5"}"#,
            r#"{"type":"session_init","id":"e","parentId":null}"#,
            r#"{"type":"mode_change","id":"e","parentId":null,"mode":"plan"}"#,
            r#"{"type":"ttsr_injection","id":"e","parentId":null}"#,
            r#"{"type":"service_tier_change","id":"e","parentId":null}"#,
            r#"{"type":"credential_pin","id":"e","parentId":null}"#,
            r#"{"type":"reset_boundary","id":"e","parentId":null}"#,
            r#"{"type":"model_usage","id":"e","parentId":null}"#,
        ];
        let neither = [
            r#"{"type":"message","id":"e","parentId":null,"message":{"role":"user","content":"system"}}"#,
            r#"{"type":"message","id":"e","parentId":null,"message":"system"}"#,
            // oh-my-pi before auto mode wrote no `configured`, as pi does.
            r#"{"type":"thinking_level_change","id":"e","parentId":null,"thinkingLevel":"high"}"#,
            // `modelId` without `provider` is neither agent's `model_change`.
            r#"{"type":"model_change","id":"e","parentId":null,"modelId":"gpt-5"}"#,
        ];
        let cases = pi
            .map(|l| (l, Some(Dialect::Pi)))
            .into_iter()
            .chain(omp.map(|l| (l, Some(Dialect::Omp))))
            .chain(neither.map(|l| (l, None)));
        for (line, want) in cases {
            assert_eq!(load(&format!("{HEADER}\n{line}")).certain_dialect(), want, "{line}");
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
