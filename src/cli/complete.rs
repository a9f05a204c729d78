//! Dynamic shell completion of REV arguments: entry ids, labels and `@`, read from the session
//! file named on the command line being completed.
//!
//! The shell glue comes from `CompleteEnv` in main.rs (`source <(COMPLETE=bash sesstree)`); it
//! runs `sesstree -- <the words typed so far>` and this module offers the candidates for a REV.
//! A completer cannot see the other arguments clap is parsing (clap#5784), so it scans the raw
//! command line for `-f`/`--file` itself, as jj does, and falls back to `SESSTREE_FILE`.
//! Completion never fails loudly: no file, an unreadable file or a damaged one simply yields
//! fewer candidates.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};
use sesstree::Session;
use sesstree::row::view::Viewer;
use sesstree::session::label_text;
use sesstree::terminal::sanitize_for_terminal;

/// The longest description shown next to an entry id, in characters.
const DESCRIPTION_CHARS: usize = 60;

/// The completer to attach to every REV argument: `#[arg(add = complete::rev())]`.
pub fn rev() -> ArgValueCompleter {
    ArgValueCompleter::new(complete_rev)
}

/// Candidates for the REV being typed, from the session file of the command line.
fn complete_rev(current: &OsStr) -> Vec<CompletionCandidate> {
    let args: Vec<OsString> = std::env::args_os().collect();
    complete_from(&args, std::env::var_os("SESSTREE_FILE"), current)
}

/// [`complete_rev`] with the command line and `SESSTREE_FILE` passed in.
fn complete_from(
    args: &[OsString],
    env: Option<OsString>,
    current: &OsStr,
) -> Vec<CompletionCandidate> {
    let Some(path) = session_file(args, env) else { return Vec::new() };
    // The load's warnings stay unprinted: anything on stderr would garble the prompt.
    let Ok(session) = Session::load(&path) else { return Vec::new() };
    candidates(&session, &current.to_string_lossy())
}

/// The session file of a command line: the last `-f FILE`, `-fFILE`, `--file FILE` or
/// `--file=FILE`, else `env` (`SESSTREE_FILE`). `-` (standard input) gives none: a completer
/// must not read the terminal.
///
/// `args` is the process's own command line. In completion mode it is `sesstree -- sesstree
/// <words>`, so everything up to the first `--` is skipped; a later `--` ends the options.
pub fn session_file(args: &[OsString], env: Option<OsString>) -> Option<PathBuf> {
    let words = match args.iter().position(|a| a == "--") {
        Some(i) => &args[i + 1..],
        None => args.get(1..).unwrap_or_default(),
    };
    let mut found: Option<OsString> = None;
    let mut iter = words.iter();
    while let Some(word) = iter.next() {
        let Some(text) = word.to_str() else { continue };
        if text == "--" {
            break;
        } else if text == "-f" || text == "--file" {
            found = iter.next().cloned();
        } else if let Some(v) = text.strip_prefix("--file=") {
            found = Some(v.into());
        } else if let Some(v) = text.strip_prefix("-f")
            && !v.is_empty()
            && !text.starts_with("--")
        {
            found = Some(v.trim_start_matches('=').into());
        }
    }
    let file = found.or(env).filter(|f| !f.is_empty() && f != "-")?;
    Some(expand_tilde(file))
}

/// `~/x` as the shell would have expanded it: completion sees the words as typed.
fn expand_tilde(file: OsString) -> PathBuf {
    if let Some(rest) = file.to_str().and_then(|f| f.strip_prefix("~/"))
        && let Some(home) = sesstree::discover::home_dir()
    {
        return home.join(rest);
    }
    PathBuf::from(file)
}

/// The REV candidates of a session that start with `current`: `@` (the current leaf), then
/// the labels in effect, then the entry ids, newest first. Each carries the one-line text of
/// the entry it names as its description.
///
/// A name that a shell would split or that holds control characters is left out: completion
/// inserts candidates unquoted.
pub fn candidates(session: &Session, current: &str) -> Vec<CompletionCandidate> {
    // (name, the entry it names, what to say before the entry's text)
    let mut found: Vec<(String, Option<u32>, &str)> = Vec::new();
    // What `@` resolves to: the position (past trailing label entries and a move marker).
    if let Ok(Some(at)) = session.position()
        && "@".starts_with(current)
    {
        found.push(("@".to_string(), Some(at), "the current leaf: "));
    }
    for (target, raw) in session.labels() {
        let label = label_text(raw);
        if label.starts_with(current) && insertable(&label) {
            found.push((label, session.lookup(target), ""));
        }
    }
    for (idx, record) in session.records.iter().enumerate().rev() {
        let Some(id) = &record.id else { continue };
        // A later duplicate wins (FORMAT §4.1): offer each id once, for the record it names.
        if id.as_str().starts_with(current)
            && insertable(id.as_str())
            && session.lookup(id) == Some(idx as u32)
        {
            found.push((id.as_str().to_string(), Some(idx as u32), ""));
        }
    }
    let texts = describe(session, found.iter().filter_map(|(_, idx, _)| *idx).collect());
    found
        .into_iter()
        .map(|(name, idx, lead)| {
            let text = idx.and_then(|i| texts.get(&i)).map_or("", String::as_str);
            let help = shorten(&sanitize_for_terminal(&format!("{lead}{text}")));
            CompletionCandidate::new(name).help(Some(help.into()))
        })
        .collect()
}

/// The one-line texts of the entries `wanted`, with their labels.
///
/// Entries are read in file order up to the last one wanted, so that a tool result is shown
/// with its call (`[read: src/main.rs]`), as `log` shows it.
fn describe(session: &Session, wanted: HashSet<u32>) -> HashMap<u32, String> {
    let mut texts = HashMap::new();
    let Some(&last) = wanted.iter().max() else { return texts };
    let mut viewer = Viewer::new(session, None);
    for idx in 0..=last {
        let Ok(view) = viewer.view(idx) else { continue };
        if wanted.contains(&idx) {
            let text = match view.label {
                Some(label) => format!("[{label}] {}", view.text),
                None => view.text,
            };
            texts.insert(idx, text);
        }
    }
    texts
}

/// Text cut to `DESCRIPTION_CHARS`.
fn shorten(text: &str) -> String {
    match text.chars().nth(DESCRIPTION_CHARS) {
        Some(_) => sesstree::terminal::ellipsize(text, DESCRIPTION_CHARS - 1),
        None => text.to_string(),
    }
}

/// Whether a name can be inserted on a command line as it is.
fn insertable(name: &str) -> bool {
    !name.is_empty() && !name.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn finds_the_file_on_the_completed_line() {
        let file = |args: &[&str], env: Option<&str>| {
            session_file(&os(args), env.map(OsString::from)).map(|p| p.display().to_string())
        };
        let completing = |words: &[&str]| {
            let mut args = vec!["/bin/sesstree", "--", "sesstree"];
            args.extend_from_slice(words);
            file(&args, Some("env.jsonl"))
        };
        assert_eq!(completing(&["-f", "a.jsonl", "log", ""]).as_deref(), Some("a.jsonl"));
        assert_eq!(completing(&["log", "--file", "b.jsonl", "ab"]).as_deref(), Some("b.jsonl"));
        assert_eq!(completing(&["--file=c.jsonl", "show", ""]).as_deref(), Some("c.jsonl"));
        assert_eq!(completing(&["-fd.jsonl", "show", ""]).as_deref(), Some("d.jsonl"));
        assert_eq!(completing(&["-f", "a", "-f", "e.jsonl", "log"]).as_deref(), Some("e.jsonl"));
        // No -f: the environment; after `--` words are values, not options.
        assert_eq!(completing(&["log", ""]).as_deref(), Some("env.jsonl"));
        assert_eq!(completing(&["log", "--", "-f", "x"]).as_deref(), Some("env.jsonl"));
        // Standard input is never read to complete; `-f` as the last word has no value yet.
        assert_eq!(completing(&["-f", "-", "log", ""]), None);
        assert_eq!(file(&["sesstree", "log", "-f"], None), None);
        // Outside completion mode the whole command line counts.
        assert_eq!(file(&["sesstree", "-f", "z.jsonl", "log"], None).as_deref(), Some("z.jsonl"));
    }

    fn demo() -> Session {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo.jsonl");
        Session::load(&path).expect("demo loads")
    }

    fn render(cands: &[CompletionCandidate]) -> Vec<String> {
        cands
            .iter()
            .map(|c| {
                let help = c.get_help().map(|h| h.to_string()).unwrap_or_default();
                format!("{}\t{help}", c.get_value().to_string_lossy())
            })
            .collect()
    }

    #[test]
    fn offers_leaf_labels_and_ids() {
        let session = demo();
        let all = render(&candidates(&session, ""));
        assert_eq!(all.len(), 1 + session.labels().len() + session.ids().count());
        assert!(all[0].starts_with("@\tthe current leaf: assistant: Fixed the warning"), "{all:?}");
        assert!(all.iter().any(|c| c.starts_with("checkpoint-1\t[checkpoint-1] [read: src/stats")));
        // Ids newest first, descriptions cut short.
        let first_id = &all[1 + session.labels().len()];
        assert!(first_id.starts_with("fa60d15c\tassistant: Fixed the warning"), "{first_id}");
        assert!(all.iter().all(|c| c.chars().count() <= 9 + DESCRIPTION_CHARS), "{all:?}");
        assert!(all.iter().any(|c| c.ends_with('…')));
    }

    #[test]
    fn at_describes_what_it_resolves_to() {
        // A trailing label entry is the leaf, but `@` resolves past it (Session::position).
        let text = [
            r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
            r#"{"type":"message","id":"u1","parentId":null,"message":{"role":"user","content":"Hello there"}}"#,
            r#"{"type":"label","id":"l1","parentId":"u1","targetId":"u1","label":"hi"}"#,
        ]
        .join("\n");
        let session = Session::from_bytes(Path::new("t.jsonl"), text.into_bytes()).unwrap();
        let all = render(&candidates(&session, "@"));
        assert_eq!(all, ["@\tthe current leaf: [hi] user: Hello there"]);
    }

    #[test]
    fn filters_by_prefix() {
        let session = demo();
        assert_eq!(
            render(&candidates(&session, "che"))
                .iter()
                .map(|c| c.split('\t').next().unwrap_or_default())
                .collect::<Vec<_>>(),
            ["checkpoint-1"]
        );
        let fa = render(&candidates(&session, "fa6"));
        assert_eq!(fa.len(), 1, "{fa:?}");
        assert!(fa[0].starts_with("fa60d15c\t"));
        assert!(candidates(&session, "zzz").is_empty());
    }

    #[test]
    fn descriptions_are_safe_and_names_insertable() {
        let bytes = concat!(
            r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}"#,
            "\n",
            r#"{"type":"message","id":"aaaa0001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"bell\u0007 and\nnewline"}}"#,
            "\n",
            r#"{"type":"label","id":"aaaa0002","parentId":"aaaa0001","timestamp":"2026-01-01T00:00:02.000Z","targetId":"aaaa0001","label":"two words"}"#,
            "\n",
            r#"{"type":"label","id":"aaaa0003","parentId":"aaaa0002","timestamp":"2026-01-01T00:00:03.000Z","targetId":"aaaa0001","label":"ok"}"#,
            "\n",
        );
        let session =
            Session::from_bytes(Path::new("t.jsonl"), bytes.as_bytes().to_vec()).expect("loads");
        let all = render(&candidates(&session, ""));
        assert!(!all.iter().any(|c| c.starts_with("two words")), "{all:?}");
        let entry = all.iter().find(|c| c.starts_with("aaaa0001")).expect("entry offered");
        assert!(!entry.split_once('\t').unwrap_or_default().1.contains(['\u{7}', '\n']));
        assert!(entry.contains("\\x07"), "{entry}");
    }

    #[test]
    fn no_file_no_candidates() {
        let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo.jsonl");
        let demo = demo.to_str().expect("utf-8 path");
        let line = |file: &str| os(&["sesstree", "--", "sesstree", "-f", file, "log", "fa6"]);
        let complete = |args: &[OsString]| complete_from(args, None, OsStr::new("fa6")).len();
        assert_eq!(complete(&line(demo)), 1);
        assert_eq!(complete(&line("/nonexistent/sesstree-test.jsonl")), 0);
        assert_eq!(complete(&os(&["sesstree", "--", "sesstree", "log", "fa6"])), 0);
        // A file that is not a session at all: still no error, just nothing to offer.
        assert_eq!(complete(&line(env!("CARGO_MANIFEST_DIR"))), 0);
    }
}
