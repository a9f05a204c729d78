//! `ls`: one summary line per session file (id, name, cwd, entry count, last activity, first
//! user prompt), and where the agents keep a project's sessions (FORMAT §1.4).
//!
//! Listing has to stay quick over thousands of files, so [`summarize`] does not build the
//! index [`crate::Session::load`] builds. It reads each file once, front to back, parsing only
//! the few lines it needs: the title slot and the header, the first user message, the records
//! that can carry a name (`session_info`, found by a substring test before
//! anything is parsed) and the last entry. Every other line is only counted.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use memchr::memmem::Finder;
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::format::entry::Payload;
use crate::format::title::parse_slot;
use crate::format::{is_lane_header, scan_envelope};
use crate::row::entry::Entry;
use crate::row::text::is_user_request;
use crate::session::parse_lossy;
use crate::terminal::ellipsize;

/// How much of the first user prompt a summary keeps, in characters.
const PROMPT_LIMIT: usize = 200;

/// The substring tests, built once: a searcher is costly to set up and runs on every line.
static USER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"user\""));
static SESSION_INFO: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"session_info\""));

/// What `ls` shows of one session file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The file.
    pub path: PathBuf,
    /// The header's session id (`None` without a valid header).
    pub session_id: Option<String>,
    /// The session name, as `Session::name` finds it: title slot, header title, last
    /// `session_info`.
    pub name: Option<String>,
    /// The header's working directory.
    pub cwd: Option<String>,
    /// The header's `parentSession`: the file (pi, oh-my-pi's branch into a new file and its
    /// subagents) or the session id (oh-my-pi's `/fork`) the session came from.
    pub parent_session: Option<String>,
    /// Non-blank lines after the header (damaged ones included: `fsck` tells them apart); for
    /// another agent's transcript, the entries `log` reads, those of the files read with it
    /// (Claude Code's subagents') included.
    pub entries: u64,
    /// The last entry's timestamp (of another agent's transcript, the latest of its files'
    /// last entries), else the file's modification time (epoch milliseconds).
    pub last_activity: Option<i64>,
    /// The text of the first user message in the file, on one line, cut at 200 characters.
    pub first_prompt: Option<String>,
    /// Whether the file is in pi's lane-based v4 format (CHANGES P7), which only `ls` reads:
    /// its id and cwd come from its header, and nothing of its entries is read.
    pub lane_format: bool,
    /// The other agent whose transcript the file is, summarized as the session it is read as.
    pub foreign: Option<crate::format::Foreign>,
}

impl Summary {
    /// The `--json` object: `{"path", "sessionId", "name", "cwd", "entries", "lastActivity",
    /// "firstPrompt", "laneFormat"}`, with the time as an ISO-8601 string.
    pub fn to_json(&self) -> Value {
        json!({
            "path": self.path.display().to_string(),
            "sessionId": self.session_id,
            "name": self.name,
            "cwd": self.cwd,
            "entries": self.entries,
            "lastActivity": self.last_activity.map(crate::clock::format_iso_millis),
            "firstPrompt": self.first_prompt,
            "laneFormat": self.lane_format,
        })
    }
}

/// Summarizes one file (see the module docs for what is read).
pub fn summarize(path: &Path) -> Result<Summary> {
    let io = |e| Error::io(path, e);
    let file = File::open(path).map_err(io)?;
    let mtime = file
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as i64);
    // Another agent's transcript is summarized as the session it is read as.
    let foreign = crate::Session::foreign_format_of(&file).map_err(io)?;
    (&file).rewind().map_err(io)?;
    let reader = BufReader::with_capacity(1 << 16, file);
    let time = |line: &[u8]| {
        let env = scan_envelope(line).ok()?;
        crate::clock::parse_timestamp(env.timestamp.as_deref()?)
    };
    let (scan, last_time) = match foreign {
        Some(foreign) => {
            // With the files read with it (Claude Code's subagents'), as `log` reads it.
            let len = reader.get_ref().metadata().map_or(0, |m| m.len());
            let read = foreign.read(path, reader, len).map_err(io)?;
            let (scan, ..) = scan_lines(read.transcoded.bytes.as_slice()).map_err(io)?;
            (scan, last_time(&read, time))
        }
        None => {
            let (scan, last, before_last) = scan_lines(reader).map_err(io)?;
            (scan, [&last, &before_last].into_iter().find_map(|line| time(line)))
        }
    };
    let name = crate::naming::name_in_effect(scan.slot_title, scan.session_info, scan.header_title);
    Ok(Summary {
        path: path.to_path_buf(),
        session_id: scan.session_id,
        name,
        cwd: scan.cwd,
        parent_session: scan.parent_session,
        entries: scan.entries,
        last_activity: last_time.or(mtime),
        first_prompt: scan.first_prompt,
        lane_format: scan.lane_format,
        foreign,
    })
}

/// The latest of the times of the last entries of each file of another agent's transcript,
/// as its conversion writes them: the transcript's, then each file read with it (a subagent's
/// file ends before its transcript does, most often, but not always). A file's last entry
/// without a time gives way to the one before it, as a session's torn last line does.
fn last_time(
    read: &crate::format::foreign::Reading,
    time: impl Fn(&[u8]) -> Option<i64>,
) -> Option<i64> {
    let transcoded = &read.transcoded;
    let lines: Vec<&[u8]> = transcoded.bytes.split(|&b| b == b'\n').collect();
    // Where each file's output lines end: before the output line of the first transcript line
    // of the next file (the line it starts at, 1-based), and last at the end.
    let mut ends: Vec<usize> = read
        .joined
        .iter()
        .map(|(start, _)| read.starts.partition_point(|&s| s < *start) as u64 + 1)
        .map(|first| transcoded.lines.partition_point(|&l| l < first))
        .collect();
    ends.push(transcoded.lines.len());
    // The header (output line 0) is no entry.
    let mut from = 1;
    let mut latest = None;
    for end in ends {
        let file = lines.get(from..end.max(from)).unwrap_or_default();
        latest = latest.max(file.iter().rev().find_map(|line| time(line)));
        from = end.max(from);
    }
    latest
}

/// Reads every line of `reader` into a [`Scan`], with the last two entry lines (the last may
/// be torn).
fn scan_lines(mut reader: impl BufRead) -> std::io::Result<(Scan, Vec<u8>, Vec<u8>)> {
    let mut scan = Scan::default();
    let (mut buf, mut last, mut before_last) = (Vec::new(), Vec::new(), Vec::new());
    let mut line_no = 0u64;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        line_no += 1;
        let mut line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        if line_no == 1 {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if scan.line(line_no, line) {
            std::mem::swap(&mut last, &mut before_last);
            last.clear();
            last.extend_from_slice(line);
        }
    }
    Ok((scan, last, before_last))
}

/// What the one pass over a file collects.
#[derive(Default)]
struct Scan {
    /// `Some(None)` for a slot with an empty title.
    slot_title: Option<Option<String>>,
    saw_record: bool,
    session_id: Option<String>,
    cwd: Option<String>,
    parent_session: Option<String>,
    header_title: Option<String>,
    entries: u64,
    first_prompt: Option<String>,
    session_info: Option<String>,
    lane_format: bool,
}

impl Scan {
    /// Takes one non-blank line; returns whether it is an entry.
    fn line(&mut self, line_no: u64, line: &[u8]) -> bool {
        if line_no == 1
            && let Some(slot) = parse_slot(line)
        {
            self.slot_title = Some(Some(slot.title).filter(|t| !t.is_empty()));
            return false;
        }
        if !self.saw_record {
            self.saw_record = true;
            if let Some(Value::Object(header)) = parse_lossy(line) {
                let text = |key: &str| header.get(key).and_then(Value::as_str).map(String::from);
                self.lane_format = is_lane_header(&header);
                if text("type").as_deref() == Some("session") || self.lane_format {
                    self.session_id = text("id");
                    self.cwd = text("cwd");
                    self.parent_session = text("parentSession");
                    self.header_title = text("title").filter(|t| !t.is_empty());
                    return false;
                }
            }
        }
        self.entries += 1;
        if self.lane_format {
            // Lines of another format.
            return true;
        }
        // Cheap substring tests first: only a line that may matter is parsed.
        if self.first_prompt.is_none() && USER.find(line).is_some() {
            self.first_prompt = first_prompt(line);
        }
        if SESSION_INFO.find(line).is_some()
            && let Ok(env) = scan_envelope(line)
            && env.kind.as_deref() == Some("session_info")
            && let Some(name) = env.marks().name.as_deref().map(str::trim).filter(|n| !n.is_empty())
        {
            self.session_info = Some(name.to_string());
        }
        true
    }
}

/// The prompt text of a user request, on one line and cut, or `None` for any other line.
fn first_prompt(line: &[u8]) -> Option<String> {
    let entry = parse_lossy(line)?;
    if !is_user_request(&Entry::from_value(&entry, None)) {
        return None;
    }
    let (members, content) = match Payload::from_value(&entry) {
        Payload::Message(m) => (m.members, m.content),
        Payload::CustomMessage(m) => (m.members, m.content),
        _ => return None,
    };
    members.member("content")?;
    let text = content.text();
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    Some(ellipsize(&one_line, PROMPT_LIMIT))
}

/// Summarizes many files in parallel; the results keep the order of `files`.
pub fn summarize_all(files: &[PathBuf]) -> Vec<Result<Summary>> {
    files.par_iter().map(|f| summarize(f)).collect()
}

/// The session each of `summaries` came from, as an index into `summaries`: the one its
/// header's `parentSession` names, by path (pi, oh-my-pi's branch into a new file, its
/// subagents) or by session id (oh-my-pi 18.2.3's `fork()` and `forkFrom` record the id); else,
/// for a file in a session's artifact directory (`<parent>/<agent>.jsonl`, where oh-my-pi
/// 18.2.3's task tool writes a subagent's transcript), that session. A link that would close a
/// cycle is dropped: every session is drawn once.
pub fn parents(summaries: &[Summary]) -> Vec<Option<usize>> {
    use std::collections::HashMap;
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let paths: Vec<PathBuf> = summaries.iter().map(|s| real(&s.path)).collect();
    let by_path: HashMap<&Path, usize> =
        paths.iter().enumerate().map(|(i, p)| (p.as_path(), i)).collect();
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (i, s) in summaries.iter().enumerate() {
        if let Some(id) = &s.session_id {
            by_id.entry(id.as_str()).or_insert(i);
        }
    }
    let mut parents: Vec<Option<usize>> = summaries
        .iter()
        .zip(&paths)
        .map(|(s, path)| {
            let named = s.parent_session.as_deref().and_then(|parent| {
                by_path.get(real(Path::new(parent)).as_path()).or_else(|| by_id.get(parent))
            });
            let holder = || {
                let mut file = path.parent()?.as_os_str().to_owned();
                file.push(".jsonl");
                by_path.get(Path::new(&file))
            };
            named.or_else(holder).copied()
        })
        .collect();
    for i in 0..parents.len() {
        // Up from i: back at i is a cycle, cut at i.
        let mut at = parents[i];
        for _ in 0..parents.len() {
            match at {
                Some(p) if p == i => {
                    parents[i] = None;
                    break;
                }
                Some(p) => at = parents[p],
                None => break,
            }
        }
    }
    parents
}

/// Sorts newest first (by last activity), then by path; files without a time go last.
pub fn newest_first(summaries: &mut [Summary]) {
    summaries
        .sort_by(|a, b| b.last_activity.cmp(&a.last_activity).then_with(|| a.path.cmp(&b.path)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    const OMP: &str = concat!(
        r#"{"type":"session","version":3,"id":"019c0000-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/u/proj","title":"Old title"}"#,
        "\n",
        r#"{"type":"session_init","id":"a0","parentId":null,"timestamp":"2026-01-01T00:00:00.500Z","systemPrompt":["be \"user\" friendly"],"task":"t","tools":[]}"#,
        "\n",
        r#"{"type":"message","id":"a1","parentId":"a0","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"Fix\nthe   bug"}]}}"#,
        "\n\n",
        r#"{"type":"title_change","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","title":"Bug fix","source":"auto"}"#,
        "\n",
        r#"{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:05:00.000Z","message":{"role":"user","content":"second"}}"#,
        "\n",
        r#"{"type":"message","id":"a4","parentId":"a3","#,
    );

    #[test]
    fn summarizes_what_ls_shows() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "s.jsonl", OMP);
        let s = summarize(&path).unwrap();
        assert_eq!(s.session_id.as_deref(), Some("019c0000-0000-7000-8000-000000000001"));
        assert_eq!(s.cwd.as_deref(), Some("/home/u/proj"));
        // The header title is the name; title_change entries are history (there is no slot).
        assert_eq!(s.name.as_deref(), Some("Old title"));
        assert_eq!(s.entries, 5);
        assert_eq!(s.first_prompt.as_deref(), Some("Fix the bug"));
        // The torn last line is skipped for the time.
        assert_eq!(s.last_activity, crate::clock::parse_timestamp("2026-01-01T00:05:00.000Z"));
        let json = s.to_json();
        assert_eq!(json["lastActivity"], "2026-01-01T00:05:00.000Z");
        assert_eq!(json["entries"], 5);
    }

    /// `ls` names a session as `Session::name` does: a pi name over a header title the file
    /// also carries, and no name under an empty title slot.
    #[test]
    fn ls_and_the_session_agree_on_the_name() {
        let dir = tempfile::tempdir().unwrap();
        let header = r#"{"type":"session","version":3,"id":"p","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x","title":"Header"}"#;
        let info = r#"{"type":"session_info","id":"i1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","name":"Pi name"}"#;
        let empty_slot =
            String::from_utf8(crate::format::title::encode_slot("", None, "t").unwrap()).unwrap();
        for (file, text, name) in [
            ("pi.jsonl", format!("{header}\n{info}\n"), Some("Pi name")),
            ("slot.jsonl", format!("{empty_slot}{header}\n{info}\n"), None),
        ] {
            let path = write(dir.path(), file, &text);
            assert_eq!(summarize(&path).unwrap().name.as_deref(), name, "{file}");
            let session = crate::Session::load(&path).unwrap();
            assert_eq!(session.name().map(|(n, _)| n).as_deref(), name, "{file}");
        }
    }

    #[test]
    fn names_follow_the_session_rules() {
        let dir = tempfile::tempdir().unwrap();
        // The agents never work a name out of title_change entries (FORMAT §10.2).
        let no_title = OMP.replace(r#","title":"Old title""#, "");
        let s = summarize(&write(dir.path(), "a.jsonl", &no_title)).unwrap();
        assert_eq!(s.name, None);
        let pi = concat!(
            r#"{"type":"session","version":3,"id":"p","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}"#,
            "\n",
            r#"{"type":"session_info","id":"i1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","name":" First "}"#,
            "\n",
            r#"{"type":"session_info","id":"i2","parentId":"i1","timestamp":"2026-01-01T00:00:02.000Z","name":"  "}"#,
            "\n",
        );
        let s = summarize(&write(dir.path(), "p.jsonl", pi)).unwrap();
        assert_eq!(s.name.as_deref(), Some("First"));
        assert_eq!(s.first_prompt, None);
        assert_eq!(s.entries, 2);
    }

    #[test]
    fn empty_and_headerless_files() {
        let dir = tempfile::tempdir().unwrap();
        let s = summarize(&write(dir.path(), "e.jsonl", "")).unwrap();
        assert_eq!((s.session_id, s.entries), (None, 0));
        assert!(s.last_activity.is_some(), "the file time stands in");
        let s = summarize(&write(dir.path(), "h.jsonl", "{\"type\":\"message\"}\n")).unwrap();
        assert_eq!((s.session_id, s.entries), (None, 1));
    }

    #[test]
    fn newest_first_then_by_path() {
        let s = |p: &str, t: Option<i64>| Summary {
            path: p.into(),
            session_id: None,
            name: None,
            cwd: None,
            parent_session: None,
            entries: 0,
            last_activity: t,
            first_prompt: None,
            lane_format: false,
            foreign: None,
        };
        let mut list = vec![s("c", None), s("b", Some(1)), s("a", Some(1)), s("d", Some(2))];
        newest_first(&mut list);
        let order: Vec<_> = list.iter().map(|s| s.path.display().to_string()).collect();
        assert_eq!(order, ["d", "a", "b", "c"]);
    }
}
