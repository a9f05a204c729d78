//! `grep`: the entries of session files whose text matches a pattern, with where each sits in
//! its file's tree.
//!
//! What is searched is an entry's grep text (`text::Grepped`): the strings of it that a person reads,
//! decoded, each matched on its own, so a match never spans two of them, and never touches a
//! JSON key, an escape, or a word sesstree made up (a row's role or kind). Message text,
//! thinking and error text; the string values of a tool call's arguments; a tool result's
//! text; a shell execution's command and output; an extension message's text; a compaction's
//! and a branch summary's summary. Settings, labels, extension data and unknown types have
//! none.
//!
//! A file is read in pieces on every core; in each, the [`Prefilter`] skips the lines that
//! cannot match before any is parsed, and of the lines that may, only the texts whose raw bytes
//! hold a needle are decoded. Where an entry sits in the tree (its id in a version-1 file,
//! whether it is on the active path, its label, its line) is worked out by loading the file,
//! only when it has a hit and only when asked ([`Search::locate`]).

mod prefilter;
mod text;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use regex::Regex;
use text::Grepped;

pub use prefilter::Prefilter;

use crate::error::{Error, Result};
use crate::format::{Foreign, HeaderRef};
use crate::json::scan::{Invalid, Scan, Scanner};
use crate::platform::read_exact_at;
use crate::session::{Session, parse_lossy};

/// How a pattern is matched: the options of grep and rg.
#[derive(Debug, Clone, Default)]
pub struct MatchOptions {
    /// The patterns are fixed strings, not regular expressions (`-F`).
    pub fixed: bool,
    /// How letter case counts.
    pub case: Case,
    /// A match must be a whole word (`-w`).
    pub word: bool,
}

/// How letter case counts in a match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Case {
    /// As written.
    #[default]
    Sensitive,
    /// Ignored (`-i`).
    Insensitive,
    /// Ignored unless a pattern holds an upper-case letter (`-S`).
    Smart,
}

/// One or more patterns, compiled: the regex matched on the grep text, and the prefilter of
/// the raw lines.
#[derive(Debug, Clone)]
pub struct Matcher {
    regex: Regex,
    prefilter: Prefilter,
}

impl Matcher {
    /// Compiles `patterns` (any of them matches); a pattern that does not compile is a usage
    /// error.
    pub fn new(patterns: &[String], options: &MatchOptions) -> Result<Matcher> {
        let ignore_case = match options.case {
            Case::Sensitive => false,
            Case::Insensitive => true,
            Case::Smart => !patterns.iter().any(|p| has_upper_case(p, options.fixed)),
        };
        let each = |p: &String| if options.fixed { regex::escape(p) } else { p.clone() };
        let mut source =
            patterns.iter().map(|p| format!("(?:{})", each(p))).collect::<Vec<_>>().join("|");
        if options.word {
            source = format!(r"\b{{start-half}}(?:{source})\b{{end-half}}");
        }
        let bad = |e: &dyn std::fmt::Display| {
            // The regex crate's message draws the pattern over lines; its last line says why.
            let text = e.to_string();
            let why = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default();
            let why = why.trim().trim_start_matches("error: ");
            Error::Usage(format!("bad pattern '{}': {why}", patterns.join("', '")))
        };
        let regex = regex::RegexBuilder::new(&source)
            .case_insensitive(ignore_case)
            .multi_line(true)
            .size_limit(64 << 20)
            .build()
            .map_err(|e| bad(&e))?;
        // Parsed as written, case and all: the prefilter searches its literals ignoring case.
        let hir = regex_syntax::ParserBuilder::new()
            .multi_line(true)
            .build()
            .parse(&source)
            .map_err(|e| bad(&e))?;
        Ok(Matcher { regex, prefilter: Prefilter::new(&hir, ignore_case) })
    }

    /// The first match in `text`, as a byte range.
    pub fn find(&self, text: &str) -> Option<(usize, usize)> {
        self.regex.find(text).map(|m| (m.start(), m.end()))
    }
}

/// Whether a pattern holds an upper-case letter, for smart case: in a regex, not one that
/// follows a backslash (`\S`, `\W`, `\p{Lu}`'s braces aside).
fn has_upper_case(pattern: &str, fixed: bool) -> bool {
    let mut escaped = false;
    for c in pattern.chars() {
        if !fixed && !escaped && c == '\\' {
            escaped = true;
            continue;
        }
        if !escaped && c.is_uppercase() {
            return true;
        }
        escaped = false;
    }
    false
}

/// Which entries are searched, besides their text.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Only entries of these roles ([`Hit::role`]: `user`, `assistant`, `tool`, `bash`).
    pub roles: Vec<String>,
    /// Only calls to these tools and their results.
    pub tools: Vec<String>,
    /// Only entries of these types.
    pub types: Vec<String>,
    /// Only entries stamped at or after this time (epoch milliseconds).
    pub since: Option<i64>,
    /// Only entries stamped before this time (epoch milliseconds).
    pub until: Option<i64>,
    /// Only sessions whose header records one of these working directories (the forms of
    /// one directory: as given, with symlinks resolved).
    pub cwds: Vec<String>,
}

/// A search over session files.
#[derive(Debug, Clone)]
pub struct Search {
    /// The pattern.
    pub matcher: Matcher,
    /// The entries searched.
    pub scope: Scope,
    /// At most this many hits a file; `None` for all of them.
    pub max_hits: Option<usize>,
    /// Whether each hit is placed in its file's tree ([`Located`]), which loads the file; the
    /// hits of an unplaced search carry the id the line has, if any.
    pub locate: bool,
    /// Only hits on the active path (implies `locate`).
    pub active_only: bool,
    /// Whether hits carry the text around their match (a listing of files or counts needs
    /// none).
    pub snippets: bool,
}

/// The hits of one file.
#[derive(Debug)]
pub struct FileHits {
    /// The file.
    pub path: PathBuf,
    /// The session id of its header.
    pub session_id: Option<String>,
    /// The hits, in file order.
    pub hits: Vec<Hit>,
    /// The line numbers of lines that might have matched but do not parse.
    pub damaged: Vec<u64>,
}

/// An entry whose grep text matches.
#[derive(Debug, Clone)]
pub struct Hit {
    /// Byte offset of its line.
    pub offset: u64,
    /// Its id as the line has it (none in a version-1 file).
    pub id: Option<String>,
    /// Its role (`user`, `assistant`, `tool`, `bash`…) or, for an entry that is not a
    /// message, its type.
    pub role: String,
    /// Its `timestamp`, as written.
    pub timestamp: Option<String>,
    /// The line of the first matching text around the match.
    pub snippet: Snippet,
    /// Where it sits in the tree, when the search locates.
    pub located: Option<Located>,
}

/// Where a hit sits in its file's tree.
#[derive(Debug, Clone)]
pub struct Located {
    /// Its record index.
    pub record: u32,
    /// Its line number.
    pub line: u64,
    /// Its id (derived, in a version-1 file).
    pub id: Option<String>,
    /// Whether it is on the path from the root to the leaf.
    pub on_active_path: bool,
    /// Its label.
    pub label: Option<String>,
}

/// The text around a match: one line of the matching text, cut to about
/// [`SNIPPET_CHARS`] characters around the first match, with every match in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The text; `…` marks where it was cut.
    pub text: String,
    /// The byte ranges of the matches in `text`.
    pub matches: Vec<(usize, usize)>,
}

/// How many characters of a matching line a snippet shows.
pub const SNIPPET_CHARS: usize = 160;
/// How many of them may come before the first match.
const BEFORE_CHARS: usize = 40;

/// How much of a file one task reads.
const PIECE: u64 = 8 << 20;
/// How much of it is read at a time when only the first hit is asked.
const FIRST_PIECE: u64 = 256 << 10;

impl Search {
    /// Searches each file (`-` reads standard input), on every core; an error is that file's
    /// (unreadable, say, or refused as every reading command refuses it: no valid header, or
    /// pi's lane format). Each file's hits come first, then those of the files read with it
    /// (a Claude Code transcript's subagents' files, as `log` reads them), each under its own
    /// name: a hit is named by the file its line is written in.
    pub fn files(&self, paths: &[PathBuf]) -> Vec<Result<Vec<FileHits>>> {
        use rayon::prelude::*;
        paths.par_iter().map(|path| self.file(path, PIECE)).collect()
    }

    /// Searches one file, a task for each `piece` bytes of a regular file.
    fn file(&self, path: &Path, piece: u64) -> Result<Vec<FileHits>> {
        if path.as_os_str() == "-" {
            return self.whole(path, std::io::stdin().lock());
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let meta = file.metadata().map_err(|e| Error::io(path, e))?;
        if !meta.is_file() {
            return self.whole(path, file);
        }
        let len = meta.len();
        let header = head(&file, len).map_err(|e| Error::io(path, e))?;
        if let Some(foreign) = Session::foreign_format(&header) {
            if self.file_rules_out(foreign, path, &file, len) {
                return Ok(vec![FileHits::none(path)]);
            }
            return self.transcoded(Session::load(path)?);
        }
        readable(path, &header, || Session::load(path))?;
        let Some(session_id) = self.header_in_scope(&header) else {
            return Ok(vec![FileHits::none(path)]);
        };
        // For the first hit alone, a small piece at a time in order, as `grep -l` stops
        // reading at it; else every piece at once.
        let one = self.max_hits == Some(1) && !self.active_only;
        let step = if one { piece.min(FIRST_PIECE) } else { piece };
        let starts: Vec<u64> = (0..len.div_ceil(step).max(1)).map(|i| i * step).collect();
        let read = |start: u64| -> std::io::Result<Found> {
            let end = (start + step).min(len);
            let piece = read_piece(&file, start, end, len, BUFFER.take())?;
            let found = self.scan(&piece.buf, piece.from, piece.first..piece.limit);
            // A buffer grown for a line of hundreds of megabytes is not kept.
            if piece.buf.capacity() <= 4 * PIECE as usize {
                BUFFER.set(piece.buf);
            }
            Ok(found)
        };
        let mut found = if one {
            let mut all = Vec::new();
            for &start in &starts {
                let found = read(start).map_err(|e| Error::io(path, e))?;
                let hit = !found.hits.is_empty();
                all.push(found);
                if hit {
                    break;
                }
            }
            all
        } else {
            use rayon::prelude::*;
            let all = starts.par_iter().map(|&start| read(start));
            all.collect::<std::io::Result<Vec<_>>>().map_err(|e| Error::io(path, e))?
        };
        let found = Found {
            hits: found.iter_mut().flat_map(|f| std::mem::take(&mut f.hits)).collect(),
            damaged: found.iter().flat_map(|f| f.damaged.iter().copied()).collect(),
        };
        self.finish(path, Some(session_id), found, || Session::load(path)).map(|f| vec![f])
    }

    /// Searches a file read whole from `from` (standard input, a pipe).
    fn whole(&self, path: &Path, mut from: impl Read) -> Result<Vec<FileHits>> {
        let mut bytes = Vec::new();
        from.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
        let head = &bytes[..bytes.len().min(1 << 20)];
        if let Some(foreign) = Session::foreign_format(head) {
            if self.rules_out(foreign, path, &bytes) {
                return Ok(vec![FileHits::none(path)]);
            }
            return self.transcoded(Session::from_bytes(path, bytes)?);
        }
        readable(path, head, || Session::from_bytes(path, bytes.clone()))?;
        let Some(session_id) = self.header_in_scope(head) else {
            return Ok(vec![FileHits::none(path)]);
        };
        let found = self.scan(&bytes, 0, 0..bytes.len());
        let hits = self.finish(path, Some(session_id), found, || Session::from_bytes(path, bytes));
        hits.map(|f| vec![f])
    }

    /// Whether another agent's transcript, the regular file `file` of `len` bytes at `path`,
    /// holds no hit, told from its raw bytes read in pieces on every core ([`Search::rules_out`]).
    fn file_rules_out(&self, foreign: Foreign, path: &Path, file: &File, len: u64) -> bool {
        use rayon::prelude::*;
        if !self.may_rule_out(foreign) {
            return false;
        }
        let starts: Vec<u64> = (0..len.div_ceil(PIECE).max(1)).map(|i| i * PIECE).collect();
        // A piece that cannot be read is one that may hold a hit: the load says why.
        let clear = starts.par_iter().all(|&start| {
            let end = (start + PIECE).min(len);
            let Ok(piece) = read_piece(file, start, end, len, BUFFER.take()) else { return false };
            let clear = self.lines_rule_out(foreign, &piece.buf[piece.first..]);
            if piece.buf.capacity() <= 4 * PIECE as usize {
                BUFFER.set(piece.buf);
            }
            clear
        });
        clear && self.joined_rule_out(foreign, path)
    }

    /// Whether another agent's transcript `bytes` of `path`, with the files read with it,
    /// holds no hit, told from their raw bytes: where none of them can hold a hit, converting
    /// them is skipped.
    ///
    /// This is sound because each string grep searches in the converted entries (`text`)
    /// is a string of the raw bytes, written again as JSON: Claude Code's message texts,
    /// thinking, tool inputs' string leaves, tool results, `error` and `isMeta` content;
    /// Codex's texts, reasoning, outputs, errors and compaction messages (trimmed), and the
    /// string leaves of tool arguments, which Codex writes as JSON in a string (its inner
    /// strings are then escaped twice: a needle holds no `\` or `"`, and an inner `\uXXXX` is
    /// still `\u` in the raw bytes). A match in such a string holds a needle, which the raw
    /// bytes hold as written or hide behind a `\u` ([`Prefilter`]). Names, ids, roles and
    /// times the conversion makes are no grep text; what it makes that is, is checked here:
    ///
    /// - Claude Code's compaction summary joins the text blocks of an `isCompactSummary`
    ///   record, and Codex writes a fixed summary for a `compacted` line without a message: a
    ///   line that names either (`isCompactSummary`, `compacted`: a key or type is written as
    ///   is or with a `\u`) is converted alone and searched, out of any scope, which finds
    ///   what it finds in the whole session and more (a summary hangs on no other line).
    /// - Codex writes a tool output that is neither a string nor text parts (an object, a
    ///   number) as serde_json's JSON text of it, whose strings are the raw strings but whose
    ///   punctuation, numbers and spacing are its own: a rollout is converted whenever a needle
    ///   may lie there ([`Prefilter::may_match_outside_strings`]).
    ///
    /// A converted line parses (the conversion writes what it read whole), so the search would
    /// report no damaged line either. The files read with a transcript are those the load
    /// reads: one it cannot read is left out by both.
    fn rules_out(&self, foreign: Foreign, path: &Path, bytes: &[u8]) -> bool {
        self.may_rule_out(foreign)
            && self.lines_rule_out(foreign, bytes)
            && self.joined_rule_out(foreign, path)
    }

    /// Whether the pattern lets the raw bytes of a transcript of `foreign` rule out a hit
    /// ([`Search::rules_out`]).
    fn may_rule_out(&self, foreign: Foreign) -> bool {
        let prefilter = &self.matcher.prefilter;
        match foreign {
            Foreign::Claude => !prefilter.is_any(),
            Foreign::Codex => !prefilter.may_match_outside_strings(),
        }
    }

    /// Whether the files read with the transcript at `path` hold no hit
    /// ([`Search::rules_out`]).
    fn joined_rule_out(&self, foreign: Foreign, path: &Path) -> bool {
        foreign.joined_files(path).iter().all(|file| match std::fs::read(file) {
            Ok(bytes) => self.lines_rule_out(foreign, &bytes),
            Err(_) => true,
        })
    }

    /// Whether the whole lines `lines` of a transcript of `foreign` hold no hit: the prefilter
    /// finds nothing in them, and the lines whose conversion writes text of its own hold none
    /// once converted ([`Search::rules_out`]).
    fn lines_rule_out(&self, foreign: Foreign, lines: &[u8]) -> bool {
        if self.matcher.prefilter.find(lines).is_some() {
            return false;
        }
        let marker: &[u8] = match foreign {
            Foreign::Claude => b"isCompactSummary",
            Foreign::Codex => b"compacted",
        };
        // Out of any scope: a line's entries alone may lack what its neighbours give them (a
        // time, a tool's name).
        let alone = Search {
            matcher: self.matcher.clone(),
            scope: Scope::default(),
            max_hits: Some(1),
            locate: false,
            active_only: false,
            snippets: false,
        };
        let mut at = 0;
        while let Some(i) = memchr::memmem::find(&lines[at..], marker) {
            let start = memchr::memrchr(b'\n', &lines[..at + i]).map_or(0, |i| i + 1);
            let end = memchr::memchr(b'\n', &lines[at + i..]).map_or(lines.len(), |e| at + i + e);
            let converted = foreign.transcode(&lines[start..end]).bytes;
            let found = alone.scan(&converted, 0, 0..converted.len());
            if !found.hits.is_empty() || !found.damaged.is_empty() {
                return false;
            }
            at = end;
        }
        true
    }

    /// Searches another agent's transcript in the session it is read as: the transcript's
    /// records, then those of each file read with it, each file's hits under its own name and
    /// with its own line numbers, placed in the tree of the whole session.
    fn transcoded(&self, session: Session) -> Result<Vec<FileHits>> {
        session.require_readable()?;
        let bytes = session.read_range(0, session.file_len)?;
        let Some(session_id) = self.header_in_scope(&bytes) else {
            return Ok(vec![FileHits::none(&session.path)]);
        };
        // Each file's records lie together in the session, in the order the files were read.
        let joined = session.joined();
        let start = |record: u32| {
            session.records.get(record as usize).map_or(bytes.len(), |r| r.offset as usize)
        };
        let mut files = vec![(session.path.as_path(), 0)];
        files.extend(joined.iter().map(|&(path, first)| (path, start(first))));
        let mut out = Vec::new();
        for (i, &(path, from)) in files.iter().enumerate() {
            let to = files.get(i + 1).map_or(bytes.len(), |&(_, to)| to);
            let found = self.scan(&bytes, 0, from..to);
            if i > 0 && found.hits.is_empty() {
                continue;
            }
            let mut hits = FileHits {
                path: path.to_owned(),
                session_id: Some(session_id.clone()),
                hits: found.hits,
                damaged: found.damaged.iter().map(|&at| line_number(&session, at)).collect(),
            };
            if self.locate || self.active_only {
                // A joined file's lines are counted in it, read again only when it has a hit.
                let own = (i > 0 && !hits.hits.is_empty())
                    .then(|| std::fs::read(path).map_err(|e| Error::io(path, e)))
                    .transpose()?;
                let line = |record: u32| match (&own, session.written_at(record)) {
                    (Some(own), Some((_, at))) => {
                        let before = &own[..(at as usize).min(own.len())];
                        memchr::memchr_iter(b'\n', before).count() as u64 + 1
                    }
                    _ => session.record(record).line,
                };
                self.place(&mut hits, &session, line);
            }
            if let Some(max) = self.max_hits {
                hits.hits.truncate(max);
            }
            out.push(hits);
        }
        Ok(out)
    }

    /// The session id of the header among the first lines `head` (after a title slot; empty
    /// when it has none), or `None` when the session is out of scope (another working
    /// directory).
    fn header_in_scope(&self, head: &[u8]) -> Option<String> {
        let mut records = head.split(|&b| b == b'\n').take(2).filter_map(parse_lossy);
        let record = records.find(|record| HeaderRef::of(record).is_some());
        let header = record.as_ref().and_then(HeaderRef::of);
        if !self.scope.cwds.is_empty() {
            let cwd = header?.cwd()?;
            if !self.scope.cwds.iter().any(|wanted| crate::discover::same_cwd(cwd, wanted)) {
                return None;
            }
        }
        Some(header.and_then(|h| h.id()).unwrap_or_default().to_owned())
    }

    /// The hits and damaged lines among the lines of `buf` that start in `starts`; `base` is
    /// the file offset of `buf[0]`.
    fn scan(&self, buf: &[u8], base: u64, starts: std::ops::Range<usize>) -> Found {
        let mut found = Found::default();
        let mut scanner = Scanner::new();
        let mut candidates = self.matcher.prefilter.cursor(buf);
        let mut at = starts.start;
        while at < starts.end {
            let Some(hit) = candidates.next(at) else { break };
            let start = memchr::memrchr(b'\n', &buf[at..hit]).map_or(at, |i| at + i + 1);
            if start >= starts.end {
                break;
            }
            let end = memchr::memchr(b'\n', &buf[start..]).map_or(buf.len(), |i| start + i);
            let line = &buf[start..end];
            at = end + 1;
            let offset = base + start as u64;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match self.entry_hit(&mut scanner, line, offset) {
                Ok(None) => {}
                Ok(Some(hit)) => {
                    found.hits.push(hit);
                    if self.max_hits.is_some_and(|m| found.hits.len() >= m) && !self.active_only {
                        break;
                    }
                }
                Err(()) => found.damaged.push(offset),
            }
        }
        found
    }

    /// The hit of one entry's line, `None` when it does not match; `Err` when it does not
    /// parse.
    fn entry_hit(
        &self,
        scanner: &mut Scanner,
        line: &[u8],
        offset: u64,
    ) -> std::result::Result<Option<Hit>, ()> {
        match self.hit_in(scanner, line, offset) {
            Ok(hit) => Ok(hit),
            // The scan does not take the line (invalid UTF-8, say): read it in full, as the
            // loader does, and search what serde_json writes of it.
            Err(Invalid) => {
                let value = parse_lossy(line).ok_or(())?;
                let clean = serde_json::to_vec(&value).map_err(|_| ())?;
                self.hit_in(scanner, &clean, offset).map_err(|_| ())
            }
        }
    }

    /// [`Search::entry_hit`] through the scan of `bytes`. A text is decoded and matched only
    /// where the prefilter finds something in its raw bytes: most of a line is never decoded.
    fn hit_in(&self, scanner: &mut Scanner, bytes: &[u8], offset: u64) -> Scan<Option<Hit>> {
        let (line, stack) = scanner.index(bytes)?;
        let Some(entry) = Grepped::of(&line, stack, &self.scope)? else { return Ok(None) };
        let prefilter = &self.matcher.prefilter;
        for &(start, end) in &entry.parts {
            let raw = line.bytes.get(start..end).ok_or(Invalid)?;
            if !prefilter.is_any() && prefilter.find(raw).is_none() {
                continue;
            }
            let text = line.text((start, end))?;
            if let Some(m) = self.matcher.find(&text) {
                let snippet = match self.snippets {
                    true => snippet(&text, m, &self.matcher),
                    false => Snippet { text: String::new(), matches: Vec::new() },
                };
                return Ok(Some(Hit {
                    offset,
                    id: entry.id.map(Cow::into_owned),
                    role: entry.role.into_owned(),
                    timestamp: entry.timestamp.map(Cow::into_owned),
                    snippet,
                    located: None,
                }));
            }
        }
        Ok(None)
    }

    /// The file's hits, placed in its tree when asked ([`Search::locate`]) by the session
    /// `load` gives.
    fn finish(
        &self,
        path: &Path,
        session_id: Option<String>,
        found: Found,
        load: impl FnOnce() -> Result<Session>,
    ) -> Result<FileHits> {
        let mut out =
            FileHits { path: path.to_owned(), session_id, hits: found.hits, damaged: vec![] };
        let place = self.locate || self.active_only;
        if place && !out.hits.is_empty() || !found.damaged.is_empty() {
            let session = load()?;
            out.damaged =
                found.damaged.iter().map(|&offset| line_number(&session, offset)).collect();
            if place {
                self.place(&mut out, &session, |record| session.record(record).line);
            }
        }
        if let Some(max) = self.max_hits {
            out.hits.truncate(max);
        }
        Ok(out)
    }

    /// Places each of a file's hits in the tree of `session` ([`Located`]), its line in the
    /// file given by `line`; with `active_only`, keeps only those on the active path.
    fn place(&self, out: &mut FileHits, session: &Session, line: impl Fn(u32) -> u64) {
        let active: HashSet<u32> = session
            .leaf()
            .map(|leaf| session.path_to_root(leaf))
            .unwrap_or_default()
            .into_iter()
            .collect();
        let labels: HashMap<u32, String> = session.label_map();
        out.hits.retain_mut(|hit| {
            let Ok(record) = record_at(session, hit.offset) else { return false };
            let r = session.record(record);
            hit.located = Some(Located {
                record,
                line: line(record),
                id: r.id.as_ref().map(|id| id.to_string()),
                on_active_path: active.contains(&record),
                label: labels.get(&record).cloned(),
            });
            !self.active_only || active.contains(&record)
        });
    }
}

impl FileHits {
    fn none(path: &Path) -> FileHits {
        FileHits { path: path.to_owned(), session_id: None, hits: vec![], damaged: vec![] }
    }
}

/// Refuses a file that every reading command refuses ([`Session::require_readable`]): one
/// without a valid header, or of pi's lane format. The header is the first record, so the whole
/// lines of `head` (the start of the file) decide, without reading the rest; only when they
/// hold no record at all (blank or unparseable lines) does the whole file, as `load` gives it.
fn readable(path: &Path, head: &[u8], load: impl FnOnce() -> Result<Session>) -> Result<()> {
    let lines = &head[..memchr::memrchr(b'\n', head).map_or(0, |i| i + 1)];
    let first = Session::from_bytes(path, lines.to_vec())?;
    if first.header.is_some() || first.header_problem.is_some() || first.lane_format.is_some() {
        return first.require_readable();
    }
    load()?.require_readable()
}

/// The line number of the line at `offset`: a record's, else counted (a damaged line is no
/// record).
fn line_number(session: &Session, offset: u64) -> u64 {
    let i = match record_at(session, offset) {
        Ok(record) => return session.record(record).line,
        Err(i) => i,
    };
    // Between the records around it: count the lines from the one before.
    let (line, from) = match i.checked_sub(1).map(|p| &session.records[p]) {
        Some(r) => (r.line, r.offset),
        None => (1, 0),
    };
    let Ok(bytes) = session.read_range(from, offset - from) else { return line };
    line + memchr::memchr_iter(b'\n', &bytes).count() as u64
}

/// The record whose line starts at `offset`, or where one would stand among the records.
fn record_at(session: &Session, offset: u64) -> std::result::Result<u32, usize> {
    let i = session.records.partition_point(|r| r.offset < offset);
    match session.records.get(i) {
        Some(r) if r.offset == offset => Ok(i as u32),
        _ => Err(i),
    }
}

/// What the pieces of a file found.
#[derive(Debug, Default)]
struct Found {
    hits: Vec<Hit>,
    /// Byte offsets of lines that might have matched but do not parse.
    damaged: Vec<u64>,
}

/// The start of a file, where its header is: its first two lines, within the first MiB.
fn head(file: &File, len: u64) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0; len.min(16 << 10) as usize];
    read_exact_at(file, &mut buf, 0)?;
    if memchr::memchr_iter(b'\n', &buf).nth(1).is_none() && len > buf.len() as u64 {
        buf = vec![0; len.min(1 << 20) as usize];
        read_exact_at(file, &mut buf, 0)?;
    }
    Ok(buf)
}

/// The bytes of the lines that start in `start..end`: read from the byte before `start` (to
/// know whether a line starts there) to the end of the line that holds `end - 1`. Returns them,
/// where the first of those lines starts in them, and where the lines that start at or after
/// `end` would (the next piece's).
fn read_piece(
    file: &File,
    start: u64,
    end: u64,
    len: u64,
    mut buf: Vec<u8>,
) -> std::io::Result<Piece> {
    let from = start.saturating_sub(1);
    // The buffer is reused from piece to piece: a fresh one would be zeroed and faulted in
    // anew each time.
    buf.resize((end - from) as usize, 0);
    read_exact_at(file, &mut buf, from)?;
    let limit = buf.len();
    let first = if start == 0 {
        0
    } else {
        // The byte before `start` is in the buffer: a line starts after the first newline.
        memchr::memchr(b'\n', &buf).map_or(limit, |i| i + 1)
    };
    // Finish the last line.
    let mut at = end;
    while buf.last() != Some(&b'\n') && at < len {
        let more = (64 << 10).min(len - at) as usize;
        let old = buf.len();
        buf.resize(old + more, 0);
        read_exact_at(file, &mut buf[old..], at)?;
        at += more as u64;
        if let Some(i) = memchr::memchr(b'\n', &buf[old..]) {
            buf.truncate(old + i + 1);
            break;
        }
    }
    Ok(Piece { buf, from, first, limit })
}

thread_local! {
    /// Each thread's piece buffer ([`read_piece`]).
    static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A piece of a file ([`read_piece`]).
struct Piece {
    buf: Vec<u8>,
    /// The file offset of `buf[0]`.
    from: u64,
    /// Where the first line of the piece starts in `buf`.
    first: usize,
    /// Where the lines of the next piece start: the piece's lines start before.
    limit: usize,
}

/// The line of `text` that holds the match `m`, cut around it, with every match in the cut.
fn snippet(text: &str, m: (usize, usize), matcher: &Matcher) -> Snippet {
    let line_start = text[..m.0].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[m.0..].find('\n').map_or(text.len(), |i| m.0 + i);
    // Without the line's indentation, unless the match is in it.
    let indent = text[line_start..m.0].len() - text[line_start..m.0].trim_start().len();
    let line_start = line_start + indent;
    let line = &text[line_start..line_end];
    let at = m.0 - line_start;
    // Up to BEFORE_CHARS characters before the match, then up to SNIPPET_CHARS in all.
    let start = line[..at].char_indices().rev().nth(BEFORE_CHARS - 1).map_or(0, |(i, _)| i);
    let end =
        line[start..].char_indices().nth(SNIPPET_CHARS).map_or(line.len(), |(i, _)| start + i);
    let lead = if start > 0 { "…" } else { "" };
    let trail = if end < line.len() { "…" } else { "" };
    let (text, shift) = (format!("{lead}{}{trail}", &line[start..end]), lead.len());
    // The matches of the whole line, clipped to the cut: a match that starts before the cut
    // is found where it is, not again inside the cut.
    let matches = matcher
        .regex
        .find_iter(line)
        .map(|m| (m.start(), m.end()))
        .filter(|&(s, e)| e > start && s < end && e > s)
        .map(|(s, e)| (s.max(start) - start + shift, e.min(end) - start + shift))
        .collect();
    Snippet { text, matches }
}

#[cfg(test)]
mod tests;
