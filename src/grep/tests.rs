//! The prefilter never hides a match, whatever escapes the writer chose; a file read in pieces
//! finds what it finds read whole; the grep text is the text a person reads.

use std::io::Write as _;

use proptest::prelude::*;
use serde_json::json;

use super::*;

fn search(patterns: &[&str], options: MatchOptions) -> Search {
    let patterns: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
    Search {
        matcher: Matcher::new(&patterns, &options).unwrap(),
        scope: Scope::default(),
        max_hits: None,
        locate: true,
        active_only: false,
        snippets: true,
    }
}

/// `text` as a JSON string, every character written as `\uXXXX` (a writer may).
fn all_escaped(text: &str) -> String {
    let units: String = text.encode_utf16().map(|unit| format!("\\u{unit:04x}")).collect();
    format!("\"{units}\"")
}

/// `text` as a JSON string the way serde_json writes it, then with `/` as `\/`.
fn slashes_escaped(text: &str) -> String {
    serde_json::to_string(text).unwrap().replace('/', "\\/")
}

fn line_with(text_json: &str) -> String {
    format!(
        r#"{{"type":"message","id":"e1","parentId":null,"message":{{"role":"user","content":{text_json}}}}}"#
    )
}

/// Text from an alphabet of what escapes and folds oddly.
fn text() -> impl Strategy<Value = String> {
    let chars = prop::sample::select(vec![
        'a', 'b', 'k', 'K', 's', 'S', 'x', ' ', '"', '\\', '/', '\n', '\t', '\u{1}', '\u{7f}', 'é',
        'É', '\u{212a}', '\u{17f}', '😀', '.',
    ]);
    prop::collection::vec(chars, 0..24).prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Where the pattern matches the text, the prefilter lets the line through, however the
    /// text is escaped; so a line the prefilter skips cannot match.
    #[test]
    fn the_prefilter_never_hides_a_match(
        text in text(),
        start in 0usize..24,
        len in 1usize..8,
        fixed in any::<bool>(),
        case in prop::sample::select(vec![Case::Sensitive, Case::Insensitive, Case::Smart]),
        word in any::<bool>(),
    ) {
        let chars: Vec<char> = text.chars().collect();
        let start = start.min(chars.len());
        let end = (start + len).min(chars.len());
        let mut needle: String = chars[start..end].iter().collect();
        if needle.is_empty() {
            needle.push('a');
        }
        let pattern = if fixed { needle.clone() } else { regex::escape(&needle) };
        let options = MatchOptions { fixed, case, word };
        let Ok(matcher) = Matcher::new(&[pattern], &options) else { return Ok(()) };
        for written in [serde_json::to_string(&text).unwrap(), all_escaped(&text), slashes_escaped(&text)] {
            let line = line_with(&written);
            if matcher.find(&text).is_some() {
                prop_assert!(matcher.prefilter.find(line.as_bytes()).is_some(), "{line}");
            }
        }
    }
}

/// Under case-insensitive matching the prefilter searches ASCII letters ignoring case, and
/// lets through the text where `k` is written as the Kelvin sign.
#[test]
fn case_insensitive_prefilter_finds_folded_text() {
    let matcher = Matcher::new(
        &["make".into()],
        &MatchOptions { case: Case::Insensitive, ..Default::default() },
    )
    .unwrap();
    for text in ["MAKE", "ma\u{212a}e", "MaKe"] {
        let line = line_with(&serde_json::to_string(text).unwrap());
        assert!(matcher.find(text).is_some(), "{text}");
        assert!(matcher.prefilter.find(line.as_bytes()).is_some(), "{text}");
    }
    // `make` is cut at its `k`: a line without `ma` cannot match.
    assert!(matcher.prefilter.find(line_with("\"fine\"").as_bytes()).is_none());
}

/// A session of `n` entries, lines of every length, some with the pattern.
fn session(n: usize) -> String {
    let mut out = String::from(
        "{\"type\":\"session\",\"version\":3,\"id\":\"s\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"cwd\":\"/w\"}\n",
    );
    for i in 0..n {
        let parent = if i == 0 { json!(null) } else { json!(format!("e{}", i - 1)) };
        let text =
            format!("{} {}", "pad ".repeat(i % 97), if i % 7 == 0 { "needle" } else { "hay" });
        let line = json!({"type":"message","id":format!("e{i}"),"parentId":parent,
            "message":{"role":"user","content":text}});
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

#[test]
fn pieces_find_what_the_whole_file_finds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    std::fs::File::create(&path).unwrap().write_all(session(500).as_bytes()).unwrap();
    let search = search(&["needle"], MatchOptions::default());
    let whole = search.file(&path, u64::MAX / 2).unwrap().remove(0);
    let offsets = |hits: &FileHits| -> Vec<(u64, u64)> {
        hits.hits.iter().map(|h| (h.offset, h.located.as_ref().unwrap().line)).collect()
    };
    assert_eq!(whole.hits.len(), 500usize.div_ceil(7));
    for piece in [1, 2, 3, 64, 100, 199, 4096, 65_536] {
        let pieces = search.file(&path, piece).unwrap().remove(0);
        assert_eq!(offsets(&pieces), offsets(&whole), "piece {piece}");
    }
    // The same from memory.
    let bytes = search.whole(&path, &std::fs::read(&path).unwrap()[..]).unwrap().remove(0);
    assert_eq!(offsets(&bytes), offsets(&whole));
}

fn parts(entry: &serde_json::Value) -> Vec<String> {
    let bytes = entry.to_string();
    let mut scanner = Scanner::new();
    let (line, stack) = scanner.index(bytes.as_bytes()).unwrap();
    let grepped = Grepped::of(&line, stack, &Scope::default()).unwrap();
    grepped
        .map(|g| g.parts.iter().map(|&p| line.text(p).unwrap().into_owned()).collect())
        .unwrap_or_default()
}

#[test]
fn the_grep_text_is_what_a_person_reads() {
    let call = json!({"type":"message","message":{"role":"assistant","content":[
        {"type":"thinking","thinking":"hmm"},
        {"type":"toolCall","name":"edit","arguments":{"path":"a.rs","edits":[{"old":"x","new":"y"}],"n":3}},
        {"type":"image","data":"AAAA","mimeType":"image/png"},
        {"type":"text","text":"done"}],"errorMessage":"overloaded","usage":{"input":5}}});
    assert_eq!(parts(&call), ["hmm", "a.rs", "x", "y", "done", "overloaded"]);
    let result = json!({"type":"message","message":{"role":"toolResult","toolName":"read",
        "content":[{"type":"text","text":"fn main"},{"type":"image","data":"QUJD"}]}});
    assert_eq!(parts(&result), ["fn main"]);
    let bash =
        json!({"type":"message","message":{"role":"bashExecution","command":"ls","output":"a b"}});
    assert_eq!(parts(&bash), ["ls", "a b"]);
    let custom =
        json!({"type":"custom_message","customType":"x","content":[{"type":"text","text":"note"}]});
    assert_eq!(parts(&custom), ["note"]);
    for kind in ["label", "custom", "model_change", "session_info", "future_kind"] {
        let entry = json!({"type":kind,"label":"l","data":{"a":"b"},"name":"n"});
        assert!(parts(&entry).is_empty(), "{kind}");
    }
}

#[test]
fn snippets_cut_long_lines_around_the_match() {
    let matcher = Matcher::new(&["needle".into()], &MatchOptions::default()).unwrap();
    let text = format!("first line\n    {}needle{}\nlast", "a".repeat(100), "b".repeat(300));
    let m = matcher.find(&text).unwrap();
    let snippet = snippet(&text, m, &matcher);
    let chars = snippet.text.chars().count();
    assert!(snippet.text.starts_with('…') && snippet.text.ends_with('…'), "{}", snippet.text);
    assert_eq!(chars, SNIPPET_CHARS + 2);
    let (s, e) = snippet.matches[0];
    assert_eq!(&snippet.text[s..e], "needle");
    assert_eq!(snippet.text[..s].chars().count(), BEFORE_CHARS + 1);
    // A short line keeps its text, without its indentation.
    let text = "\t  short needle line";
    let snippet = self::snippet(text, matcher.find(text).unwrap(), &matcher);
    assert_eq!(snippet.text, "short needle line");
    assert_eq!(snippet.matches, [(6, 12)]);
}

/// The other agents' transcripts of the fixtures: hand-made ones, ones with texts the
/// conversion makes of its own (`grep-foreign`), and generated ones (`bench/gen-claude.py`,
/// `bench/gen-codex.py`).
fn transcripts() -> Vec<PathBuf> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut paths = Vec::new();
    for dir in ["claude", "codex", "grep-foreign"] {
        for entry in std::fs::read_dir(fixtures.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
}

/// The grep texts of the entries a transcript converts to, in order.
fn converted_texts(path: &Path) -> Vec<String> {
    let session = Session::load(path).unwrap();
    let bytes = session.read_range(0, session.file_len).unwrap();
    let mut scanner = Scanner::new();
    let mut texts = Vec::new();
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let (line, stack) = scanner.index(line).unwrap();
        if let Some(entry) = Grepped::of(&line, stack, &Scope::default()).unwrap() {
            texts.extend(entry.parts.iter().map(|&p| line.text(p).unwrap().into_owned()));
        }
    }
    texts
}

/// What a search shows of a file: the hits and damaged lines of each file it names.
type Shown = Vec<(PathBuf, Vec<(u64, Option<String>, String, String)>, Vec<u64>)>;

fn shown(files: Result<Vec<FileHits>>) -> Shown {
    let files = files.unwrap().into_iter().filter(|f| !f.hits.is_empty() || !f.damaged.is_empty());
    let hit = |h: Hit| (h.offset, h.id, h.role, h.snippet.text);
    files.map(|f| (f.path, f.hits.into_iter().map(hit).collect(), f.damaged)).collect()
}

/// A pattern drawn from a transcript's grep texts: a piece of a text, or of two texts
/// joined (the end of one and the start of the next), with regex metacharacters escaped,
/// searched as written, in another case, or inside a regex.
fn drawn_pattern(texts: &[String], pick: usize, start: usize, len: usize, mode: u8) -> String {
    let joined;
    let text = match pick % 3 {
        // Across two texts: a match there is found in no text.
        0 if texts.len() > 1 => {
            let i = pick / 3 % (texts.len() - 1);
            let tail: String =
                texts[i].chars().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
            joined = format!("{tail}{}", texts[i + 1]);
            &joined
        }
        _ => &texts[pick % texts.len()],
    };
    let chars: Vec<char> = text.chars().collect();
    let start = start % chars.len().max(1);
    let piece: String = chars[start..(start + len).min(chars.len())].iter().collect();
    let word = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).nth(start % 7);
    match mode {
        0 => regex::escape(&piece),
        1 => regex::escape(&piece.to_uppercase()),
        2 => format!(r"\b{}\w*", regex::escape(word.unwrap_or("a"))),
        _ => format!("{}.*{}", regex::escape(&piece), regex::escape(word.unwrap_or("e"))),
    }
}

/// Whether `search` gives for `path` what the conversion gives, and whether it skipped the
/// conversion ([`Search::rules_out`]), which is then a search without hits.
fn same_as_converted(search: &Search, path: &Path) -> std::result::Result<bool, String> {
    let converted = shown(Session::load(path).and_then(|s| search.transcoded(s)));
    let bytes = std::fs::read(path).unwrap();
    let foreign = Session::foreign_format(&bytes).unwrap();
    let skipped = search.rules_out(foreign, path, &bytes);
    let what = format!("{:?} in {}", search.matcher.regex.as_str(), path.display());
    if skipped && !converted.is_empty() {
        return Err(format!("{what}: skipped, but the conversion has {converted:?}"));
    }
    if shown(search.file(path, PIECE)) != converted {
        return Err(format!("{what}: not what the conversion gives, {converted:?}"));
    }
    Ok(skipped)
}

fn searching(pattern: String, case: Case) -> Option<Search> {
    let matcher = Matcher::new(&[pattern], &MatchOptions { case, ..Default::default() }).ok()?;
    Some(Search { matcher, ..search(&["x"], MatchOptions::default()) })
}

/// Skipping the conversion of a transcript whose raw bytes rule out a hit
/// ([`Search::rules_out`]) gives what the conversion gives, for patterns drawn from the
/// converted entries' texts: their pieces, pieces across two of them, other cases, regexes;
/// searched in the transcript they come from and in another. It is not vacuous: some
/// transcripts are skipped, some have hits.
#[test]
fn skipping_a_transcript_gives_what_converting_it_gives() {
    let paths = transcripts();
    let texts: Vec<Vec<String>> = paths.iter().map(|p| converted_texts(p)).collect();
    assert!(texts.iter().all(|t| !t.is_empty()), "{paths:?}");
    let (skipped, hits) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let cases = (0..paths.len(), any::<usize>(), 0usize..400, 1usize..14, 0u8..4, 0u8..3);
    runner
        .run(&cases, |(from, pick, start, len, mode, case)| {
            let pattern = drawn_pattern(&texts[from], pick, start, len, mode);
            let case = [Case::Sensitive, Case::Insensitive, Case::Smart][case as usize];
            let Some(search) = searching(pattern, case) else { return Ok(()) };
            for path in [&paths[from], &paths[(from + 1) % paths.len()]] {
                let skip = same_as_converted(&search, path).map_err(TestCaseError::fail)?;
                skipped.set(skipped.get() + usize::from(skip));
                hits.set(hits.get() + usize::from(!skip));
            }
            Ok(())
        })
        .unwrap();
    let (skipped, hits) = (skipped.get(), hits.get());
    assert!(skipped > 0 && hits > 0, "skipped {skipped}, converted {hits}");
}

/// Every piece of the texts of the transcripts that hold text the conversion makes of its
/// own (a Claude Code compaction's summary joined from two blocks, a Codex tool output that
/// is an object or a number, Codex's summary of a compaction without one): the skip gives
/// what the conversion gives.
#[test]
fn skipping_holds_for_every_piece_of_the_texts_a_conversion_makes() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/grep-foreign");
    for name in ["claude-joins.jsonl", "codex-joins.jsonl"] {
        let path = fixtures.join(name);
        let mut skipped = 0;
        for text in converted_texts(&path) {
            let chars: Vec<char> = text.chars().collect();
            for len in [4, 9] {
                for start in 0..chars.len().saturating_sub(len - 1) {
                    let piece: String = chars[start..start + len].iter().collect();
                    for case in [Case::Sensitive, Case::Insensitive] {
                        let search = searching(regex::escape(&piece), case).unwrap();
                        skipped += usize::from(same_as_converted(&search, &path).unwrap());
                    }
                }
            }
        }
        // Pieces of the texts, but for those a conversion makes, are in the raw bytes.
        assert_eq!(skipped, 0, "{name}");
    }
}
