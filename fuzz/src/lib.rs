//! What the fuzz targets share: a walk over everything a loaded session offers, with the
//! invariants each step must keep, and a generator of tree-shaped session files from fuzz bytes.
//!
//! The checks are assertions on purpose: libFuzzer reports a panic as a finding, so a broken
//! invariant is found the same way as a crash.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;
use sesstree::format::Dialect;
use sesstree::render::{JsonRow, Placement};
use sesstree::row::gist::{Gist, Resolver};
use sesstree::row::listing::Listing;
use sesstree::row::text::FilterMode;
use sesstree::row::view::Viewer;
use sesstree::row::{Rows, read_text};
use sesstree::terminal::sanitize_for_terminal;
use sesstree::tree::{ASCII, TreeOptions, UNICODE, layout};
use sesstree::{Session, context, rev, stats};

pub mod ops;

/// Above this many records the quadratic checks (a path per record) are skipped, so one input
/// stays fast; the linear ones always run.
const QUADRATIC_LIMIT: usize = 512;

/// Loads bytes as a session (never fails for in-memory input).
pub fn load(bytes: Vec<u8>) -> Session {
    Session::from_bytes(Path::new("fuzz.jsonl"), bytes).expect("in-memory loads cannot fail")
}

/// The line scanner takes exactly the lines serde_json takes, for lines of valid UTF-8 that
/// nest no deeper than serde_json's limit (its documented exceptions).
pub fn check_scanner(bytes: &[u8]) {
    let mut scanner = sesstree::json::scan::Scanner::new();
    for line in bytes.split(|&b| b == b'\n') {
        let ours = scanner.validate(line).is_ok();
        if std::str::from_utf8(line).is_err()
            || (ours && scanner.deepest() > sesstree::json::MAX_NESTING)
        {
            continue;
        }
        let theirs = serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok();
        assert_eq!(
            ours,
            theirs,
            "the scanner and serde_json on {:?}",
            String::from_utf8_lossy(line)
        );
        // What `show` writes of the line without building its value is what serde_json
        // writes of the value, where it writes anything.
        if let Some(text) = sesstree::json::transcode::to_json(line) {
            let value: serde_json::Value = serde_json::from_slice(line)
                .unwrap_or_else(|e| panic!("written, but serde_json refuses it: {e}"));
            let theirs = serde_json::to_vec(&value).unwrap();
            assert_eq!(text, theirs, "written as serde_json writes it");
        }
    }
}

/// Loading with gists gives the same index, and the gists read in file order give the rows,
/// filters and `--json` rows the Viewer gives (what `log` and `tree` print from them).
pub fn check_gists(bytes: &[u8], plain: &Session) -> (Session, Vec<Gist>) {
    let rows = Rows::new(Some("/home/fuzz"));
    let (s, gists) = Session::from_bytes_with(Path::new("fuzz.jsonl"), bytes.to_vec(), &rows)
        .expect("in-memory loads cannot fail");
    assert_eq!(format!("{:?}", s.records), format!("{:?}", plain.records), "records with gists");
    assert_eq!(
        format!("{:?}", s.diagnostics),
        format!("{:?}", plain.diagnostics),
        "diagnostics with gists"
    );
    assert_eq!(gists.len(), s.records.len(), "a gist for every record");
    let labels = sesstree::row::view::labels(&s);
    let mut viewer = Viewer::new(&s, Some("/home/fuzz"));
    let mut resolver = Resolver::default();
    for (idx, gist) in gists.iter().enumerate() {
        let idx = idx as u32;
        let text = resolver.resolve(gist).text();
        let Ok(view) = viewer.view(idx) else {
            // A row fails where a field it reads cannot be decoded. A tool result's content
            // is no such field for a gist, which skips it (the Viewer reads it for searches).
            assert!(
                gist.is_unreadable() || skips_result_content(&s, idx) == Some(true),
                "a row the Viewer cannot read"
            );
            continue;
        };
        assert!(!gist.is_unreadable(), "a gist unreadable where the Viewer reads the row");
        let text = match text {
            Some(text) => std::borrow::Cow::Borrowed(text),
            None => std::borrow::Cow::Owned(read_text(&s, idx, Some("/home/fuzz")).unwrap()),
        };
        assert_eq!(text, view.text, "the row text from the gist");
        let label = labels.get(&idx);
        for mode in FilterMode::CYCLE {
            for leaf in [false, true] {
                assert_eq!(
                    gist.facts().shows(mode, leaf, label.is_some()),
                    view.facts.shows(mode, leaf, view.label.is_some()),
                    "the filter from the gist"
                );
            }
        }
        let at = Placement { depth: 1, on_active_path: true, is_leaf: false };
        let (mut json, mut theirs) = (Vec::new(), Vec::new());
        JsonRow::of_gist(&s, idx, gist, label.map(|l| &l.1), &text, at).write(&mut json);
        let _: Value = serde_json::from_slice(&json).expect("the --json row is JSON");
        // The row of the gist of the whole parsed entry, where it parses.
        if let Ok(full) = s.value(idx) {
            let whole = Gist::of(&sesstree::row::Entry::from_value(&full, Some("/home/fuzz")));
            JsonRow::of_gist(&s, idx, &whole, label.map(|l| &l.1), &text, at).write(&mut theirs);
            assert_eq!(json, theirs, "the --json row");
        }
    }
    check_windows(&s, &gists);
    (s, gists)
}

/// `log -n N`'s rows, worked out for a stretch of the leaf path only (`Listing::window`), are
/// the first N rows of the whole path, in every filter mode and both directions.
fn check_windows(s: &Session, all: &[Gist]) {
    let Some(leaf) = s.leaf() else { return };
    let path = s.path_to_root(leaf);
    let labels = sesstree::row::view::labels(s);
    let whole: Vec<&Gist> = path.iter().map(|&idx| &all[idx as usize]).collect();
    for mode in FilterMode::CYCLE {
        let listing = Listing { path: &path, target: leaf, labels: &labels, mode };
        // A path with a row that cannot be read fails `log`; `log -n` may show its end.
        let Ok(rows) = listing.rows(0, &whole) else { continue };
        for n in [0, 1, 2, 5] {
            let (start, read) = listing.window(s, n, Some("/home/fuzz")).unwrap();
            let read: Vec<&Gist> = read.iter().collect();
            let got = listing.rows(start, &read).expect("the whole path reads");
            let expected: Vec<_> = rows.iter().rev().take(n).collect();
            assert_eq!(
                got.iter().rev().take(n).collect::<Vec<_>>(),
                expected,
                "log -n {n}, {mode:?}"
            );
        }
    }
}

/// The parallel loader, in pieces of 1 to 64 bytes (so that lines, blank runs and escapes
/// straddle them; the sum of the bytes chooses, as nearly every input starts alike), gives
/// the index and gists of the one-pass load. The bytes go through a file, which the parallel
/// loader reads with `pread`.
pub fn check_pieces(bytes: &[u8], (gisted, gists): &(Session, Vec<Gist>)) {
    let path = std::env::temp_dir().join(format!("sesstree-fuzz-{}.jsonl", std::process::id()));
    std::fs::write(&path, bytes).expect("the fuzz file is written");
    let piece = 1 + bytes.iter().map(|&b| u64::from(b)).sum::<u64>() % 64;
    let rows = Rows::new(Some("/home/fuzz"));
    let loaded = Session::load_in_pieces(&path, Some(&rows), piece).expect("the fuzz file is read");
    let _ = std::fs::remove_file(&path);
    // A version-1 file is handed back to the one-pass load.
    let Some((s, pieces_gists)) = loaded else { return };
    assert_eq!(format!("{:?}", s.records), format!("{:?}", gisted.records), "records, {piece}");
    assert_eq!(
        format!("{:?}", s.diagnostics),
        format!("{:?}", gisted.diagnostics),
        "diagnostics, pieces of {piece}"
    );
    assert_eq!(&pieces_gists, gists, "gists, pieces of {piece}");
    assert_eq!(s.line_count, gisted.line_count, "lines, pieces of {piece}");
    assert_eq!(s.ends_with_newline, gisted.ends_with_newline, "last newline, pieces of {piece}");
    assert_eq!(s.leaf(), gisted.leaf(), "leaf, pieces of {piece}");
    for idx in 0..s.records.len() as u32 {
        assert_eq!(s.parent(idx), gisted.parent(idx), "parent of {idx}, pieces of {piece}");
    }
}

/// Whether a record may read for rows alone but not for searches too: the one difference
/// between the two is a tool result's content, which rows skip.
fn skips_result_content(s: &Session, idx: u32) -> Option<bool> {
    let bytes = s.raw_line(idx).ok()?;
    Some(bytes.windows(10).any(|w| w == b"toolResult"))
}

/// Exercises the whole read side of a session and checks its invariants.
pub fn exercise(s: &Session) {
    let n = s.records.len();
    check_index(s);
    check_layout(s);
    let _ = (s.labels(), s.label_map(), s.label_records(), s.name(), s.dialect());
    let _ = (s.names_like_pi(), s.is_v1(), s.version(), s.strict(), s.require_header());
    for (target, _) in s.labels() {
        let _ = s.label_of(target);
        let _ = s.is_archived(target);
    }
    for rev in derived_revs(s).iter().take(64) {
        if let Ok(idx) = rev::resolve(s, rev) {
            assert!((idx as usize) < n, "rev {rev:?} resolved outside the records");
        }
    }
    check_views(s);
    check_context(s);
    let _ = stats::compute(s).map(|st| st.to_json("fuzz.jsonl"));
    let _ = sesstree::fsck::check(s).map(|f| sesstree::fsck::report_json("fuzz.jsonl", &f));
}

/// Parents, children, roots and paths agree with each other.
fn check_index(s: &Session) {
    let n = s.records.len();
    let mut child_count = 0;
    for i in 0..n as u32 {
        for &c in s.children(i) {
            assert_eq!(s.parent(c), Some(i), "child {c} of {i} does not point back");
        }
        child_count += s.children(i).len();
        if let Some(p) = s.parent(i) {
            assert!((p as usize) < n);
            assert!(s.children(p).contains(&i));
        }
    }
    assert_eq!(child_count + s.roots().len(), n, "every record is a root or a child once");
    for &r in s.roots() {
        assert_eq!(s.parent(r), None);
    }
    if let Some(leaf) = s.leaf() {
        assert_eq!(leaf as usize, n - 1);
        assert!(s.records[leaf as usize].id.is_some());
    }
    let sample: Vec<u32> = if n <= QUADRATIC_LIMIT {
        (0..n as u32).collect()
    } else {
        [0, n / 2, n - 1].iter().map(|&i| i as u32).collect()
    };
    for i in sample {
        let path = s.path_to_root(i);
        assert_eq!(path.last(), Some(&i));
        // A path starts at a root, or, when the walk met a cycle, goes round it once and starts
        // at the entry whose parent is already on it (FORMAT §4.4).
        assert!(s.parent(path[0]).is_none_or(|p| path.contains(&p)), "a path starts at a root");
        for w in path.windows(2) {
            // Each step is a parent link, or the link cut to break a cycle.
            assert!(s.parent(w[1]).is_none_or(|p| p == w[0]), "a path follows parents");
        }
        let distinct: HashSet<_> = path.iter().collect();
        assert_eq!(distinct.len(), path.len(), "a path repeats an entry");
        let _ = s.raw_line(i).expect("raw line");
        let _ = s.value(i);
    }
}

/// With archived subtrees included, the layout shows every record exactly once.
fn check_layout(s: &Session) {
    let n = s.records.len();
    for (include_archived, active_first) in [(true, true), (false, true), (true, false)] {
        let opts = TreeOptions { leaf: s.leaf(), include_archived, active_first };
        let l = layout(s, &opts);
        let mut seen = vec![false; n];
        for row in &l.rows {
            assert!(!seen[row.idx as usize], "row {} drawn twice", row.idx);
            seen[row.idx as usize] = true;
            if n <= QUADRATIC_LIMIT {
                let _ = l.prefix(row, &UNICODE, None);
                let p = l.prefix(row, &ASCII, Some(3));
                assert!(p.len() <= 3 * 3, "prefix wider than its levels: {p:?}");
            }
        }
        if include_archived {
            assert_eq!(l.rows.len(), n, "the full layout misses records");
        }
    }
    if n > 0 {
        let other = TreeOptions { leaf: Some(0), include_archived: false, active_first: true };
        let _ = layout(s, &other);
    }
}

/// REVs a user could type for this session: ids, prefixes, labels, ancestry suffixes.
fn derived_revs(s: &Session) -> Vec<String> {
    let mut revs = vec!["@".to_string(), "@^".into(), "@~2".into(), "@~".into(), "^".into()];
    for r in s.records.iter().take(16) {
        if let Some(id) = &r.id {
            let text = id.as_str();
            revs.push(text.to_string());
            revs.push(format!("{text}^"));
            revs.push(format!("{text}~18446744073709551615"));
            revs.push(text.chars().take(4).collect());
            revs.push(text.chars().take(5).collect());
        }
    }
    for (_, raw) in s.labels().iter().take(8) {
        revs.push(sesstree::session::label_text(raw));
    }
    revs
}

/// One-line texts and search texts exist for every record, and sanitized text holds no control
/// character.
fn check_views(s: &Session) {
    let mut viewer = Viewer::new(s, Some("/home/fuzz"));
    for i in 0..s.records.len().min(64) as u32 {
        let Ok(view) = viewer.view(i) else { continue };
        for mode in FilterMode::CYCLE {
            let _ = view.shows(mode, s.leaf());
        }
        let search = &view.search;
        let _ = sesstree::row::text::fuzzy_match("a b", &search);
        let _ = sesstree::row::text::substring_match("é x", &search);
        assert_clean(&sanitize_for_terminal(&view.text), false);
        if let Some(label) = &view.label {
            assert_clean(&sanitize_for_terminal(label), false);
        }
        // The row read through the scan reads as the whole entry does (but for the call a
        // tool result shows, which the viewer knows).
        if let Ok(full) = s.value(i) {
            let entry = sesstree::row::Entry::from_value(&full, Some("/home/fuzz"));
            assert_eq!(view.facts, sesstree::row::text::Facts::of(&entry), "the filter facts");
            if view.role.as_deref() != Some("toolResult") {
                let (text, _) = sesstree::row::text::one_line(&entry, None);
                assert_eq!(view.text, text, "the row text");
                let search = sesstree::row::text::search_text(&entry, view.label.as_deref(), None);
                assert_eq!(view.search, search, "the search text");
            }
        }
    }
}

/// The context along the leaf path, both flavours, every rendering.
fn check_context(s: &Session) {
    let target = s.leaf().or_else(|| s.records.len().checked_sub(1).map(|i| i as u32));
    let Some(target) = target else { return };
    let path: Vec<Value> =
        s.path_to_root(target).into_iter().filter_map(|i| s.value(i).ok()).take(256).collect();
    let leaf_id = s.record(target).id.as_ref().map(|i| i.to_value());
    // The path as `context` reads it (in full only what a context can show) builds the same.
    let ids = s.path_to_root(target);
    let full: Option<Vec<Value>> = ids.iter().map(|&i| s.value(i).ok()).collect();
    if let (true, Some(full), Ok(reduced)) =
        (ids.len() <= 256, full, sesstree::context::path_values(s, target))
    {
        for flavor in [Dialect::Omp, Dialect::Pi] {
            assert_eq!(
                context::into_json(context::build(reduced.clone(), leaf_id.as_ref(), flavor), true),
                context::into_json(context::build(full.clone(), leaf_id.as_ref(), flavor), true),
                "the reduced context path"
            );
        }
    }
    for flavor in [Dialect::Omp, Dialect::Pi] {
        let ctx = context::build(path.clone(), leaf_id.as_ref(), flavor);
        for agent in [false, true] {
            let _ = serde_json::to_string(&context::into_json(ctx.clone(), agent))
                .expect("context JSON");
            assert_clean(&context::render(ctx.clone(), agent, None, false), true);
            assert_clean(&context::render(ctx.clone(), agent, None, true), true);
        }
    }
}

/// Text meant for a terminal: no control character (newline and tab allowed when `lines`).
pub fn assert_clean(text: &str, lines: bool) {
    if let Some(c) = text.chars().find(|&c| c.is_control() && !(lines && matches!(c, '\n' | '\t')))
    {
        panic!("control character {:?} reaches the terminal in {text:?}", c);
    }
}

/// Reads fuzz bytes as choices.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// Choices from `data`; once it runs out every choice is 0.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    /// One byte.
    pub fn byte(&mut self) -> u8 {
        let (&b, rest) = self.data.split_first().unwrap_or((&0, &[]));
        self.data = rest;
        b
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// Up to `max` raw bytes.
    pub fn chunk(&mut self, max: usize) -> &'a [u8] {
        let len = self.below(max + 1).min(self.data.len());
        let (head, rest) = self.data.split_at(len);
        self.data = rest;
        head
    }
}

/// Record types the generator uses: real ones, with and without payloads that matter.
const KINDS: &[&str] = &[
    "message",
    "message",
    "message",
    "label",
    "branch_summary",
    "compaction",
    "custom_message",
    "model_change",
    "archive",
    "title_change",
    "session_info",
    "thinking_level_change",
    "weird_type",
];

/// A session file whose shape the fuzz bytes pick: entry types, parents (null, earlier, later,
/// self, missing), duplicate ids, a torn tail and stray raw lines. Returns the bytes and the
/// ids given, in file order.
pub fn generate(b: &mut Bytes<'_>) -> (Vec<u8>, Vec<String>) {
    let mut out = Vec::new();
    if b.below(8) == 0 {
        // A title slot first, as oh-my-pi writes it.
        let slot = sesstree::format::title::encode_slot("fuzz", None, "2026-01-01T00:00:00.000Z");
        out.extend_from_slice(&slot.expect("a short title fits"));
    }
    let version = [3, 3, 3, 2, 4, 1][b.below(6)];
    out.extend_from_slice(
        format!(
            r#"{{"type":"session","version":{version},"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}}"#
        )
        .as_bytes(),
    );
    out.push(b'\n');
    let count = b.below(48);
    let mut ids: Vec<String> = Vec::new();
    for i in 0..count {
        let kind = KINDS[b.below(KINDS.len())];
        let id = match b.below(16) {
            0 if !ids.is_empty() => ids[b.below(ids.len())].clone(),
            1 => format!("{:04x}", b.byte()),
            _ => format!("e{i:07x}"),
        };
        let parent = match b.below(10) {
            0 => "null".to_string(),
            1 => format!("\"{id}\""),
            2 => "\"missing\"".to_string(),
            3 => format!("\"e{:07x}\"", i + 1 + b.below(4)),
            _ if ids.is_empty() => "null".to_string(),
            _ => format!("\"{}\"", ids[ids.len() - 1 - b.below(ids.len().min(4))]),
        };
        let second = b.byte();
        let ts = if second < 250 {
            format!("\"2026-01-01T00:00:{:02}.000Z\"", second % 60)
        } else {
            "\"not a time\"".to_string()
        };
        let target = if ids.is_empty() { id.clone() } else { ids[b.below(ids.len())].clone() };
        let payload = match kind {
            "message" => {
                let role =
                    ["user", "assistant", "toolResult", "custom", "bashExecution"][b.below(5)];
                let text = String::from_utf8_lossy(b.chunk(24)).into_owned();
                format!(
                    r#""message":{{"role":{},"content":[{{"type":"text","text":{}}}],"toolCallId":"t{}","toolName":"read"}}"#,
                    Value::from(role),
                    Value::from(text),
                    b.below(4)
                )
            }
            "label" => {
                let label = match b.below(4) {
                    0 => "null".to_string(),
                    1 => "\"\"".to_string(),
                    2 => "{\"x\":1}".to_string(),
                    _ => Value::from(String::from_utf8_lossy(b.chunk(8))).to_string(),
                };
                format!(r#""targetId":"{target}","label":{label}"#)
            }
            "archive" => format!(r#""targetId":"{target}","archived":{}"#, b.below(2) == 0),
            "compaction" => {
                format!(r#""summary":"s","firstKeptEntryId":"{target}","tokensBefore":1e999999"#)
            }
            "branch_summary" => format!(r#""fromId":"{target}","summary":"b\u001b[31m""#),
            "title_change" => r#""title":"\u009b2J","source":"user""#.to_string(),
            "session_info" => r#""name":" pi name ""#.to_string(),
            "model_change" => {
                if b.below(2) == 0 {
                    r#""provider":"p","modelId":"m""#.to_string()
                } else {
                    r#""model":"p/m""#.to_string()
                }
            }
            _ => r#""data":[1,[2,[3]]]"#.to_string(),
        };
        let line = format!(
            r#"{{"type":"{kind}","id":"{id}","parentId":{parent},"timestamp":{ts},{payload}}}"#
        );
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
        ids.push(id);
        if b.below(12) == 0 {
            // A stray raw line: garbage, a non-object, a blank line.
            out.extend_from_slice(b.chunk(16));
            out.push(b'\n');
        }
    }
    if b.below(6) == 0 && out.len() > 2 {
        // A torn last line: cut inside the last record.
        let cut = 1 + b.below(20);
        out.truncate(out.len().saturating_sub(cut).max(1));
    }
    (out, ids)
}
