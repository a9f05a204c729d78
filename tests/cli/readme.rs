//! The command tour in the documentation shows real output: every ```console block whose first
//! command starts with `sesstree` is run, and its output must be what the block shows.
//!
//! In such a block, a line `$ COMMAND` is a command and the lines up to the next `$ ` line are
//! its output: standard error and standard output together, as a terminal shows them (the
//! command runs as `{ COMMAND ; } 2>&1` through `sh`, so pipes and `; echo $?` work). `[..]` in
//! an expected line matches any text. Each block starts in a fresh directory holding
//! `demo.jsonl`, a copy of examples/demo.jsonl, `old.jsonl` (tests/fixtures/v1.jsonl) and
//! `broken.jsonl` (tests/fixtures/torn-last-line.jsonl), with the test environment's pinned clock and id
//! seed, so writing commands print the same ids every time; commands within a block share the
//! directory, so a block can change the file and then show the change.
//!
//! A command that exits non-zero gets a last output line `[exit status: N]`; write `; echo $?`
//! after it to show the status as a shell would.
//!
//! `SESSTREE_BLESS=1` writes the actual output into the document instead of failing (lines
//! with `[..]` that still match are kept); read the diff before committing it.

use std::path::Path;

use crate::common::{TestEnv, demo, fixtures};

/// The documents whose console blocks, exit status table ("## Exit status") and `--json` key
/// table ("## Output for machines") are checked. Once the tour is merged into README.md, name
/// README.md here instead; its blocks that start with another command (`$ cargo …`) are skipped.
const DOCUMENTS: &[&str] = &["README.md"];

/// One `$ COMMAND` of a console block and the output the document shows for it.
struct Example {
    command: String,
    /// Index of the first output line in the document's lines.
    first: usize,
    expected: Vec<String>,
}

/// The console blocks to run: for each, its commands in order.
fn blocks(lines: &[&str]) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != "```console" {
            i += 1;
            continue;
        }
        let mut block: Vec<Example> = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim_end() != "```" {
            match lines[i].strip_prefix("$ ") {
                Some(command) => block.push(Example {
                    command: command.to_string(),
                    first: i + 1,
                    expected: Vec::new(),
                }),
                None => {
                    if let Some(last) = block.last_mut() {
                        last.expected.push(lines[i].to_string());
                    }
                }
            }
            i += 1;
        }
        let runs_sesstree = block.first().is_some_and(|e| e.command.starts_with("sesstree "));
        if runs_sesstree {
            blocks.push(block);
        }
        i += 1;
    }
    blocks
}

/// Whether an output line matches an expected line, where `[..]` matches any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = expected.split("[..]").collect();
    if pieces.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Runs a command line in the block's directory; returns its output lines.
fn run(env: &TestEnv, command: &str) -> Vec<String> {
    let bin = assert_cmd::cargo::cargo_bin("sesstree");
    let dir = bin.parent().expect("bin dir").display().to_string();
    let mut sh = std::process::Command::new("sh");
    let base = env.cmd();
    for (k, v) in base.get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    let output = sh
        .args(["-c", &format!("{{ {command} ; }} 2>&1")])
        .current_dir(env.path())
        .env("PATH", format!("{dir}:{}", std::env::var("PATH").unwrap_or_default()))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh");
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines: Vec<String> = text
        .replace(&env.path().display().to_string(), "$TMP")
        .lines()
        .map(str::to_string)
        .collect();
    // A failure must be visible in the document: `; echo $?` shows it the way a shell would.
    if let Some(code) = output.status.code().filter(|&c| c != 0) {
        lines.push(format!("[exit status: {code}]"));
    }
    lines
}

fn check(document: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(document);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{document}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    let blocks = blocks(&lines);
    assert!(!blocks.is_empty(), "{document} has no console block that runs sesstree");
    // (first line, number of lines replaced, new lines), for blessing.
    let mut changes: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut failures = Vec::new();
    for block in &blocks {
        let env = TestEnv::new();
        env.write("demo.jsonl", std::fs::read(demo()).expect("demo"));
        env.write("old.jsonl", std::fs::read(fixtures().join("v1.jsonl")).expect("v1"));
        env.write(
            "broken.jsonl",
            std::fs::read(fixtures().join("torn-last-line.jsonl")).expect("torn"),
        );
        for example in block {
            let actual = run(&env, &example.command);
            let ok = actual.len() == example.expected.len()
                && example.expected.iter().zip(&actual).all(|(e, a)| line_matches(e, a));
            if !ok {
                failures.push(format!(
                    "{document}:{}: $ {}\n--- expected\n{}\n--- actual\n{}",
                    example.first,
                    example.command,
                    example.expected.join("\n"),
                    actual.join("\n")
                ));
                changes.push((example.first, example.expected.len(), actual));
            }
        }
    }
    if failures.is_empty() {
        return;
    }
    if std::env::var_os("SESSTREE_BLESS").is_some_and(|v| v == "1") {
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for (first, len, new) in changes.into_iter().rev() {
            out.splice(first..first + len, new);
        }
        let mut text = out.join("\n");
        text.push('\n');
        std::fs::write(&path, text).expect("write");
        return;
    }
    panic!(
        "{} example(s) in {document} no longer show what sesstree prints:\n\n{}\n\n\
         Fix the document, or rewrite the outputs with \
         SESSTREE_BLESS=1 cargo test --test cli readme:: and read the diff.",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn command_tour_shows_real_output() {
    for document in DOCUMENTS {
        check(document);
    }
}

/// The exit status table of the documents is the one `sesstree --help` prints.
#[test]
fn exit_status_table_matches_the_binary() {
    let env = TestEnv::new();
    let help = env.cmd().arg("--help").output().expect("run");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let (_, table) = help.split_once("Exit status:\n").expect("an Exit status section");
    let binary: Vec<String> = table
        .lines()
        .filter_map(|l| l.trim().split_once("  "))
        .map(|(code, meaning)| format!("{code} {}", meaning.trim().replace('`', "")))
        .collect();
    for document in DOCUMENTS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(document);
        let text = std::fs::read_to_string(&path).expect("read");
        let (_, section) = text.split_once("## Exit status\n").expect("an Exit status section");
        let rows: Vec<String> = section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2) // header and separator
            .map(|row| {
                let row = row.replace("\\|", "¦").replace('`', "");
                let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
                format!("{} {}", cells[0], cells[1]).replace('¦', "|")
            })
            .collect();
        assert_eq!(rows, binary, "the exit status table of {document} differs from --help");
    }
}

/// The `--json` table of the documents lists exactly the keys each command prints.
#[test]
fn json_keys_table_matches_the_binary() {
    // The table's first cell, and a command printing that JSON (run against the demo).
    let runs: &[(&str, &[&str])] = &[
        // The filter hides the leaf, so the row has `leafHidden` too.
        (
            "`log`, `tree`",
            &["-f", "demo.jsonl", "--json", "log", "-n", "1", "--filter", "user-only"],
        ),
        ("`context`", &["-f", "demo.jsonl", "--json", "context"]),
        ("`checkout`", &["-f", "demo.jsonl", "--json", "checkout", "13c9", "--dry-run"]),
        ("`label`", &["-f", "demo.jsonl", "--json", "label", "@", "x"]),
        ("`label --list`", &["-f", "demo.jsonl", "--json", "label", "--list"]),
        ("`name`", &["-f", "demo.jsonl", "--json", "name"]),
        ("`stats`", &["--json", "stats", "demo.jsonl"]),
        ("`branch`", &["-f", "demo.jsonl", "--json", "branch", "5c07", "-o", "b.jsonl"]),
        ("`migrate`", &["-f", "demo.jsonl", "--json", "migrate", "--check"]),
        ("`fsck`", &["--json", "fsck", "demo.jsonl"]),
        ("`ls`", &["--json", "ls", "."]),
        ("`humanize-title`", &["--json", "humanize-title", "a-b"]),
    ];
    for document in DOCUMENTS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(document);
        let text = std::fs::read_to_string(&path).expect("read");
        let (_, section) = text.split_once("## Output for machines").expect("a --json section");
        let rows: Vec<&str> = section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2)
            .collect();
        for (first, args) in runs {
            let row = rows
                .iter()
                .find(|r| r.starts_with(&format!("| {first} |")))
                .unwrap_or_else(|| panic!("{document}: no --json row for {first}"));
            let documented = documented_keys(row.rsplit('|').nth(1).unwrap_or_default());
            let env = TestEnv::new();
            env.write("demo.jsonl", std::fs::read(demo()).expect("demo"));
            let output = env.cmd().args(*args).output().expect("run");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let line = stdout.lines().next().unwrap_or_default();
            let value: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", env.render(&output)));
            let mut actual: Vec<String> =
                value.as_object().expect("an object").keys().cloned().collect();
            actual.sort();
            assert_eq!(documented, actual, "{document}: the --json keys of {first}");
        }
    }
}

/// The keys named in a table cell: the `backticked` words outside parentheses.
fn documented_keys(cell: &str) -> Vec<String> {
    let mut outside = String::new();
    let mut depth = 0;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    let mut keys: Vec<String> = outside
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(str::to_string)
        .collect();
    keys.sort();
    keys
}

#[test]
fn blocks_and_wildcards() {
    let doc =
        "```console\n$ sesstree a\nx\ny\n$ sesstree b\n```\n```console\n$ cargo run\nz\n```\n";
    let lines: Vec<&str> = doc.lines().collect();
    let found = blocks(&lines);
    assert_eq!(found.len(), 1, "the block that starts with cargo is not run");
    let block = &found[0];
    assert_eq!(block.len(), 2);
    assert_eq!((block[0].command.as_str(), block[0].first), ("sesstree a", 2));
    assert_eq!(block[0].expected, ["x", "y"]);
    assert!(block[1].expected.is_empty());

    assert!(line_matches("Moved to [..]; appended [..]", "Moved to 7c3e05ab; appended x"));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("a[..]a", "aa"));
    assert!(!line_matches("a[..]a", "a"));
    assert!(!line_matches("id [..] done", "id 1 dove"));
    assert!(!line_matches("exact", "exactly"));

    assert_eq!(
        documented_keys(" `a`, `bC` (not `c`), `d` (`[{e}]`) "),
        ["a", "bC", "d"].map(String::from)
    );
}
