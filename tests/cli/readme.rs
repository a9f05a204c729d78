//! The command tour in the documentation shows real output: every ```console block whose first
//! command starts with `sesstree` is run, and its output must be what the block shows.
//!
//! In such a block, a line `$ COMMAND` is a command and the lines up to the next `$ ` line are
//! its output: standard error and standard output together, as a terminal shows them. A block
//! runs as a reader types it into one shell (`sh`): first the tour's setup, the ```sh block
//! after `<!-- tour setup -->` in README.md, from the repository's root; then each command as
//! `{ COMMAND ; } 2>&1`, so pipes, `; echo $?`, variables and `export` work. `[..]` in an
//! expected line matches any text. Each block starts from the setup anew, with the test
//! environment's pinned clock and id seed, so writing commands print the same ids every time;
//! commands within a block share the shell, so a block can change a file and then show the
//! change. The shell starts with a `HOME` of its own, standing for the reader's: the setup must
//! move `HOME` elsewhere, since nothing a block does may touch it.
//!
//! A command that exits non-zero gets a last output line `[exit status: N]`; write `; echo $?`
//! after it to show the status as a shell would.
//!
//! `SESSTREE_BLESS=1` writes the actual output into the document instead of failing (lines
//! with `[..]` that still match are kept); read the diff before committing it.

use std::path::Path;

use crate::common::{TestEnv, demo};

/// The documents whose console blocks run: the README's tour and the guide.
const DOCUMENTS: &[&str] = &["README.md", "GUIDE.md"];

/// The document with the exit status table ("## Exit status") and the `--json` key table
/// ("## Output for machines"), both checked against the binary.
const REFERENCE: &str = "GUIDE.md";

/// The document and the marker line of the tour's setup, the ```sh block after the marker.
const SETUP: (&str, &str) = ("README.md", "<!-- tour setup -->");

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

/// The text of a document in the repository.
fn read(document: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(document);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{document}: {e}"))
}

/// The tour's setup script: the lines of the ```sh block after the [`SETUP`] marker.
fn setup_script() -> String {
    let (document, marker) = SETUP;
    let text = read(document);
    let (_, after) = text.split_once(marker).unwrap_or_else(|| panic!("{document}: no {marker}"));
    let (_, block) = after.split_once("```sh\n").expect("a ```sh block after the marker");
    let (script, _) = block.split_once("\n```").expect("the end of the setup block");
    script.to_string()
}

/// Ends the setup's output, and each command's output with its exit status.
const MARK: char = '\u{1e}';

/// Runs the setup, then a block's commands, in one shell; returns each command's output lines.
fn run(env: &TestEnv, setup: &str, commands: &[&str]) -> Vec<Vec<String>> {
    let bin = assert_cmd::cargo::cargo_bin("sesstree");
    let dir = bin.parent().expect("bin dir").display().to_string();
    let mut script = format!("set -e\n{setup}\nset +e\nprintf '{MARK}\\n'\n");
    for command in commands {
        script.push_str(&format!("{{ {command}\n}} 2>&1; printf '\\n{MARK}%s\\n' \"$?\"\n"));
    }
    let mut sh = std::process::Command::new("sh");
    let base = env.cmd();
    for (k, v) in base.get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    let output = sh
        .args(["-c", &script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // mktemp makes its directories in the test's, which goes away with it.
        .env("TMPDIR", env.path())
        .env("PATH", format!("{dir}:{}", std::env::var("PATH").unwrap_or_default()))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh");
    let text =
        String::from_utf8_lossy(&output.stdout).replace(&env.path().display().to_string(), "$TMP");
    let (set_up, mut rest) = text
        .split_once(&format!("{MARK}\n"))
        .unwrap_or_else(|| panic!("the tour's setup failed:\n{text}{}", env.render(&output)));
    assert_eq!(set_up, "", "the tour's setup prints nothing");
    let mut outputs = Vec::new();
    for command in commands {
        let (printed, after) = rest
            .split_once(&format!("\n{MARK}"))
            .unwrap_or_else(|| panic!("$ {command}: the shell stopped:\n{rest}"));
        let (status, after) = after.split_once('\n').expect("a status line");
        rest = after;
        let mut lines: Vec<String> = printed.lines().map(str::to_string).collect();
        // A failure must be visible in the document: `; echo $?` shows it the way a shell would.
        if status != "0" {
            lines.push(format!("[exit status: {status}]"));
        }
        outputs.push(lines);
    }
    outputs
}

fn check(document: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(document);
    let text = read(document);
    let lines: Vec<&str> = text.lines().collect();
    let blocks = blocks(&lines);
    assert!(!blocks.is_empty(), "{document} has no console block that runs sesstree");
    let setup = setup_script();
    // (first line, number of lines replaced, new lines), for blessing.
    let mut changes: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut failures = Vec::new();
    for block in &blocks {
        let env = TestEnv::new();
        let readers_home = env.path().join("home");
        std::fs::create_dir(&readers_home).expect("mkdir");
        let commands: Vec<&str> = block.iter().map(|e| e.command.as_str()).collect();
        let outputs = run(&env, &setup, &commands);
        let touched: Vec<_> = std::fs::read_dir(&readers_home).expect("home").collect();
        assert!(
            touched.is_empty(),
            "{document}:{}: the block wrote into the reader's HOME",
            block[0].first - 1
        );
        for (example, actual) in block.iter().zip(outputs) {
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

/// The exit status table of the reference is the one `sesstree --help` prints.
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
    let text = read(REFERENCE);
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
    assert_eq!(rows, binary, "the exit status table of {REFERENCE} differs from --help");
}

/// The `--json` table of the reference lists exactly the keys each command prints.
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
    let text = read(REFERENCE);
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
            .unwrap_or_else(|| panic!("{REFERENCE}: no --json row for {first}"));
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
        assert_eq!(documented, actual, "{REFERENCE}: the --json keys of {first}");
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

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn a_block_runs_in_one_shell_after_the_setup() {
    let env = TestEnv::new();
    let setup = "greeting=hello\ncd \"$(mktemp -d)\"";
    let commands = ["x=1", "echo \"$greeting $x\"; false", "printf 'no newline'", "pwd >&2"];
    let outputs = run(&env, setup, &commands);
    assert_eq!(outputs[0], Vec::<String>::new());
    assert_eq!(outputs[1], ["hello 1", "[exit status: 1]"]);
    assert_eq!(outputs[2], ["no newline"]);
    let [dir] = outputs[3].as_slice() else { panic!("{:?}", outputs[3]) };
    assert!(dir.starts_with("$TMP/"), "the setup's cd carries: {dir}");
}
