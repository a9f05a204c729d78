//! `sesstree log`: the path to a REV, filters, limits, raw lines, JSON.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn newest_first_with_labels() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    assert_snapshot!(env.run(&["-f", "labeled.jsonl", "log"]), @"
    3d4e5f60 message 2026-03-02 11:00:30 +0000 user: Add an entry for the new --json flag.
    2c3d4e5f message 2026-03-02 11:00:07 +0000 [reviewed] assistant: Created `CHANGELOG.md` with an `## [0.4.0] - Unreleased` section.
    1b2c3d4e message 2026-03-02 11:00:01 +0000 [begin] user: Start a CHANGELOG.md for v0.4.
    ");
}

#[test]
fn reverse_and_max_count() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "log", "--reverse", "-n", "2"]), @"
    0a4b7e2d message 2026-03-02 09:01:05 +0000 [read: src/main.rs]
    17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.
    ");
}

#[test]
fn a_rev_on_another_branch() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "log", "f1e2d3c4", "--filter", "all"]), @"
    f1e2d3c4 message 2026-03-02 10:04:00 +0000 user: Without adding a dependency, please.
    c8e9f0a1 message 2026-03-02 10:02:08 +0000 assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    c7d0e1f2 message 2026-03-02 10:02:00 +0000 user: Make it handle grapheme clusters.
    b1a2c3d4 message 2026-03-02 10:00:05 +0000 assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    a0c1e2f3 message 2026-03-02 10:00:00 +0000 user: Write a Rust function that reverses a string.
    ");
}

#[test]
fn filter_user_only() {
    let env = TestEnv::new();
    env.fixture("roles.jsonl");
    assert_snapshot!(env.run(&["-f", "roles.jsonl", "log", "--filter", "user-only"]), @"
    39da4b5c message 2026-03-08 09:02:00 +0000 [custom]
    6c0d1e2f message 2026-03-08 09:00:02 +0000 user: Here is a screenshot of the layout bug: the sidebar overflows.
    ------- stderr -------
    note: 5bfc6d7e (message) is hidden by the filter [user-only]; --filter all shows it
    ");
}

#[test]
fn raw_lines_are_byte_exact() {
    let env = TestEnv::new();
    let path = env.fixture("linear.jsonl");
    let out = env
        .cmd()
        .args(["-f", "linear.jsonl", "log", "--raw", "--reverse", "--filter", "all"])
        .output()
        .unwrap();
    let original = std::fs::read(path).unwrap();
    let file_lines: Vec<&[u8]> = original.split(|&b| b == b'\n').collect();
    let shown: Vec<&[u8]> = out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    assert!(shown.len() >= 3, "{} lines shown", shown.len());
    // Every line printed is a line of the file, byte for byte, in file order.
    let mut pos = 0;
    for line in shown {
        let found = file_lines[pos..].iter().position(|l| *l == line);
        assert!(found.is_some(), "not a line of the file: {}", String::from_utf8_lossy(line));
        pos += found.unwrap_or(0) + 1;
    }
}

#[test]
fn json_lines() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    assert_snapshot!(env.run(&["-f", "labeled.jsonl", "--json", "log", "-n", "2"]), @r#"
    {"id":"3d4e5f60","parentId":"2c3d4e5f","type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T11:00:30.118Z","label":null,"text":"user: Add an entry for the new --json flag.","textTruncated":false,"depth":0,"onActivePath":true,"isLeaf":true}
    {"id":"2c3d4e5f","parentId":"1b2c3d4e","type":"message","role":"assistant","toolName":null,"timestamp":"2026-03-02T11:00:07.903Z","label":"reviewed","text":"assistant: Created `CHANGELOG.md` with an `## [0.4.0] - Unreleased` section.","textTruncated":false,"depth":0,"onActivePath":true,"isLeaf":false}
    "#);
}

#[test]
fn stdin_is_read_with_a_dash() {
    let env = TestEnv::new();
    let bytes = std::fs::read(crate::common::fixtures().join("linear.jsonl")).unwrap();
    assert_snapshot!(env.run_stdin(&["-f", "-", "log", "-n", "1"], bytes), @"17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.");
}

#[test]
fn env_var_names_the_file() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    let out =
        env.cmd().env("SESSTREE_FILE", "linear.jsonl").args(["log", "-n", "1"]).output().unwrap();
    assert_snapshot!(env.render(&out), @"17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.");
}

#[test]
fn v1_files_read_with_derived_ids() {
    let env = TestEnv::new();
    env.fixture("v1.jsonl");
    assert_snapshot!(env.run(&["-f", "v1.jsonl", "log"]), @r#"
    d9275e03 message 2025-12-01 15:20:31 +0000 assistant: Added `editor.test.ts` case "Ctrl+U deletes to line start".
    8803fced message 2025-12-01 15:20:15 +0000 user: Add a test for Ctrl+U.
    8dee5d09 compaction 2025-12-01 15:20:00 +0000 [compaction: 62k tokens]
    25df2cb7 message 2025-12-01 15:01:12 +0000 assistant: Ctrl+U now calls `deleteToLineStart()`.
    f2fbda70 message 2025-12-01 15:01:08 +0000 [edit: src/components/editor.ts]
    4a7fbb77 message 2025-12-01 15:01:02 +0000 user: Make Ctrl+U delete to the start of the line.
    d7ba941c message 2025-12-01 15:00:14 +0000 assistant: It deletes from the cursor to the end of the line (kill-line).
    78ade05a message 2025-12-01 15:00:10 +0000 user: What does the Editor component do on Ctrl+K?
    "#);
}

#[test]
fn large_real_v1_file() {
    let env = TestEnv::new();
    // A copy of shared/fixtures/large-session.jsonl: a real pi v1 session (see
    // tests/fixtures/README.md for its source and licence).
    std::fs::copy(
        crate::common::fixtures().join("large-session.jsonl"),
        env.path().join("large.jsonl"),
    )
    .unwrap();
    assert_snapshot!(env.run(&["-f", "large.jsonl", "log", "-n", "3"]), @"
    dddb1b00 message 2025-11-21 02:14:02 +0000 assistant: Oh wait, these errors look like we have API mismatches! The TUI package must have a different API than what coding-agent is expecting. Let me check - it looks like the TUI changes were never committed…
    3b233699 message 2025-11-21 02:13:57 +0000 [bash: cd /Users/badlogic/workspaces/pi-mono && npm run b...]
    87e021d9 message 2025-11-21 02:13:50 +0000 [bash: cd packages/coding-agent && npm install]
    ");
    let out =
        env.cmd().args(["-f", "large.jsonl", "--json", "log", "--filter", "all"]).output().unwrap();
    assert!(out.status.success());
    // 1018 entries, all shown: `log --filter all` keeps the 194 assistant turns with no text
    // that stop on `stop` or `toolUse` that FORMAT §9.2 hides in the selector (issue 44).
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1018);
}

/// A record whose envelope loads but a field its row reads cannot be decoded (a lone surrogate
/// in `customType`): `log` and `tree` fail on it with the line, as `show` does, instead of
/// inventing a row; off the path, `log` does not read it.
#[test]
fn a_row_that_cannot_be_decoded_fails_with_its_line() {
    let env = TestEnv::new();
    let lines = [
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#,
        r#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi"}}"#,
        r#"{"type":"custom","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02Z","customType":"\ud800"}"#,
        r#"{"type":"message","id":"c","parentId":"a","timestamp":"2026-01-01T00:00:03Z","message":{"role":"user","content":"again"}}"#,
    ];
    env.write("s.jsonl", lines.join("\n") + "\n");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "--filter", "all", "b"]), @"
    ------- stderr -------
    error: s.jsonl:3: the line cannot be read in full: unexpected end of hex escape at line 1 column 97
    [exit status: 3]
    ");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "tree", "--filter", "all"]), @"
    ------- stderr -------
    error: s.jsonl:3: the line cannot be read in full: unexpected end of hex escape at line 1 column 97
    [exit status: 3]
    ");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log"]), @"
    c message 2026-01-01 00:00:03 +0000 user: again
    a message 2026-01-01 00:00:01 +0000 user: hi
    ");
}

/// A row that is not cut (a branch summary) and is too long for its gist to keep is read again
/// from its line, whole.
#[test]
fn a_long_summary_row_is_shown_whole() {
    let env = TestEnv::new();
    let summary = "word ".repeat(2000);
    let lines = [
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#.to_string(),
        r#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi"}}"#.to_string(),
        format!(r#"{{"type":"branch_summary","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02Z","fromId":"a","summary":"{summary}"}}"#),
    ];
    env.write("s.jsonl", lines.join("\n") + "\n");
    let expected = format!("[branch summary]: {}", summary.trim_end());
    let log = env.cmd().args(["-f", "s.jsonl", "log", "-n", "1"]).output().unwrap();
    let log = String::from_utf8(log.stdout).unwrap();
    assert_eq!(
        log.trim_end().split_once(" 00:00:02 +0000 ").map(|(_, text)| text),
        Some(&*expected)
    );
    let tree = env.cmd().args(["-f", "s.jsonl", "--json", "tree"]).output().unwrap();
    let rows: Vec<serde_json::Value> = String::from_utf8(tree.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[1]["text"], expected.as_str());
}

/// Rows are formatted a batch at a time on every core: across many batches, they still come
/// out in order, each once.
#[test]
fn many_rows_come_out_in_order() {
    let env = TestEnv::new();
    let n = 20_000;
    let mut lines = vec![
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#
            .to_string(),
    ];
    for i in 0..n {
        let parent = if i == 0 { "null".to_string() } else { format!("\"e{}\"", i - 1) };
        lines.push(format!(
            r#"{{"type":"message","id":"e{i}","parentId":{parent},"timestamp":"2026-01-01T00:00:01Z","message":{{"role":"user","content":"row {i}"}}}}"#
        ));
    }
    env.write("s.jsonl", lines.join("\n") + "\n");
    let expected: Vec<String> = (0..n).map(|i| format!("user: row {i}")).collect();
    let log = env.cmd().args(["-f", "s.jsonl", "log", "--reverse"]).output().unwrap();
    let texts: Vec<String> = String::from_utf8(log.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_once(" 00:00:01 +0000 ").unwrap().1.to_string())
        .collect();
    assert_eq!(texts, expected);
    let tree = env.cmd().args(["-f", "s.jsonl", "--json", "tree"]).output().unwrap();
    let texts: Vec<String> = String::from_utf8(tree.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["text"].to_string())
        .map(|t| t.trim_matches('"').to_string())
        .collect();
    assert_eq!(texts, expected);
}

/// In a version-1 file, rows are read from a full parse (the ids are derived), so a string
/// JSON cannot decode anywhere in the line fails the row, as `show` fails on it.
#[test]
fn a_version_1_row_that_cannot_be_parsed_fails_with_its_line() {
    let env = TestEnv::new();
    let lines = [
        r#"{"type":"session","version":1,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#,
        r#"{"type":"message","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi"},"note":"\ud800"}"#,
    ];
    env.write("s.jsonl", lines.join("\n") + "\n");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log"]), @"
    ------- stderr -------
    error: s.jsonl:2: the line cannot be read in full: unexpected end of hex escape at line 1 column 109
    [exit status: 3]
    ");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "show", "@"]), @"
    ------- stderr -------
    error: s.jsonl:2: the line cannot be read in full: unexpected end of hex escape at line 1 column 109
    [exit status: 3]
    ");
}

/// A session for `log -n`: a tool call far back from its result (more than the 64 entries
/// before the rows shown that `-n` reads first), a result whose call was never made, a call
/// made twice, labels, and settings the default filter hides.
fn far_calls_session() -> String {
    let mut lines = vec![
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#
            .to_string(),
    ];
    let mut parent = "null".to_string();
    let mut push = |lines: &mut Vec<String>, id: String, body: String| {
        lines.push(format!(
            r#"{{"id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01Z",{body}}}"#
        ));
        parent = format!("\"{id}\"");
    };
    let call = |id: &str, path: &str| {
        format!(
            r#""type":"message","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"{id}","name":"read","arguments":{{"path":"{path}"}}}}]}}"#
        )
    };
    let result = |id: &str| {
        format!(
            r#""type":"message","message":{{"role":"toolResult","toolCallId":"{id}","toolName":"read","content":"ok"}}"#
        )
    };
    let user =
        |i: usize| format!(r#""type":"message","message":{{"role":"user","content":"u{i}"}}"#);
    push(&mut lines, "c0".into(), call("far", "src/old.rs"));
    push(&mut lines, "c1".into(), call("far", "src/far.rs"));
    for i in 0..150 {
        push(&mut lines, format!("u{i}"), user(i));
        if i % 40 == 7 {
            push(&mut lines, format!("m{i}"), r#""type":"model_change","model":"x/y""#.into());
        }
    }
    push(&mut lines, "r0".into(), result("far"));
    push(&mut lines, "c2".into(), call("near", "src/near.rs"));
    push(&mut lines, "r1".into(), result("near"));
    push(&mut lines, "r2".into(), result("never"));
    push(&mut lines, "u150".into(), user(150));
    lines.push(
        r#"{"type":"label","id":"l0","parentId":"u150","timestamp":"2026-01-01T00:00:02Z","targetId":"r0","label":"far"}"#
            .into(),
    );
    lines.push(
        r#"{"type":"label","id":"l1","parentId":"l0","timestamp":"2026-01-01T00:00:02Z","targetId":"u3","label":"early"}"#
            .into(),
    );
    lines.join("\n") + "\n"
}

/// `log -n N` works rows out only for the end of the path it shows, and shows exactly the
/// newest N rows `log` shows: with every filter, oldest first too (the newest N, as
/// `git log -n N --reverse`), as JSON and raw lines, when the call a result shows is far back,
/// was made twice, or was never made.
#[test]
#[cfg_attr(windows, ignore = "hundreds of runs of the binary: flaky under Wine")]
fn max_count_shows_the_first_rows_of_the_whole_log() {
    let env = TestEnv::new();
    env.write("s.jsonl", far_calls_session());
    let lines = |args: &[&str]| -> Vec<String> {
        let out = env.cmd().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
    };
    let mut compared = 0;
    for filter in ["default", "no-tools", "user-only", "labeled-only", "all"] {
        for extra in [&[][..], &["--reverse"], &["--raw"], &["--reverse", "--raw"]] {
            for json in [false, true] {
                let mut args = vec!["-f", "s.jsonl"];
                if json {
                    args.push("--json");
                }
                args.extend(["log", "--filter", filter]);
                args.extend(extra);
                let whole = lines(&args);
                for n in [0, 1, 2, 3, 4, 5, 10, 64, 65, 100, 200, 1000] {
                    let count = n.to_string();
                    let limited = lines(&[&args[..], &["-n", &count]].concat());
                    let expected = match extra.contains(&"--reverse") {
                        true => &whole[whole.len().saturating_sub(n)..],
                        false => &whole[..n.min(whole.len())],
                    };
                    assert_eq!(limited, expected, "{args:?} -n {n}");
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 5 * 4 * 2 * 12);
    // The far call is found, and the second of two calls with one id wins.
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "5"]), @"
    u150 message 2026-01-01 00:00:01 +0000 user: u150
    r2 message 2026-01-01 00:00:01 +0000 [read]
    r1 message 2026-01-01 00:00:01 +0000 [read: src/near.rs]
    r0 message 2026-01-01 00:00:01 +0000 [far] [read: src/far.rs]
    u149 message 2026-01-01 00:00:01 +0000 user: u149
    ");
}

/// `log -n N` reads the end of the path it shows, and the few entries before: a row that
/// cannot be read further back fails `log`, not `log -n N`, as `git log -n` shows the latest
/// commits of a history whose oldest objects are damaged.
#[test]
fn max_count_does_not_read_an_unreadable_row_far_back() {
    let env = TestEnv::new();
    let mut lines = vec![
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#
            .to_string(),
        r#"{"type":"custom","id":"b","parentId":null,"timestamp":"2026-01-01T00:00:01Z","customType":"\ud800"}"#
            .to_string(),
    ];
    for i in 0..100 {
        let parent = if i == 0 { "b".to_string() } else { format!("e{}", i - 1) };
        lines.push(format!(
            r#"{{"type":"message","id":"e{i}","parentId":"{parent}","timestamp":"2026-01-01T00:00:02Z","message":{{"role":"user","content":"row {i}"}}}}"#
        ));
    }
    env.write("s.jsonl", lines.join("\n") + "\n");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "2"]), @"
    e99 message 2026-01-01 00:00:02 +0000 user: row 99
    e98 message 2026-01-01 00:00:02 +0000 user: row 98
    ");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log"]), @"
    ------- stderr -------
    error: s.jsonl:2: the line cannot be read in full: unexpected end of hex escape at line 1 column 98
    [exit status: 3]
    ");
    // Near the rows shown, it fails `log -n N` as it fails `log`; `--reverse` shows the same
    // newest rows, oldest first.
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "100", "--filter", "all"]), @"
    ------- stderr -------
    error: s.jsonl:2: the line cannot be read in full: unexpected end of hex escape at line 1 column 98
    [exit status: 3]
    ");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "2", "--reverse"]), @"
    e98 message 2026-01-01 00:00:02 +0000 user: row 98
    e99 message 2026-01-01 00:00:02 +0000 user: row 99
    ");
}

/// A file that is a pipe (`-f <(…)`, `/dev/stdin`) is read once into memory, as `-` is, so the
/// lines that `log -n`, `--raw` and `show` read again after loading are there.
#[test]
#[cfg_attr(windows, ignore = "snapshots Unix error texts")]
fn a_pipe_is_read_once() {
    let env = TestEnv::new();
    let session = std::fs::read(env.fixture("linear.jsonl")).unwrap();
    assert_snapshot!(env.run_stdin(&["-f", "/dev/stdin", "log", "-n", "2", "--filter", "all"], session.clone()), @"
    17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.
    0a4b7e2d message 2026-03-02 09:01:05 +0000 [read: src/main.rs]
    ");
    let raw = env
        .cmd()
        .args(["-f", "/dev/stdin", "log", "--raw", "-n", "1"])
        .write_stdin(session.clone())
        .output()
        .unwrap();
    assert!(raw.status.success());
    let last = session.trim_ascii_end().rsplit(|&b| b == b'\n').next().unwrap();
    assert_eq!(raw.stdout, [last, b"\n"].concat());
    let show = env
        .cmd()
        .args(["-f", "/dev/stdin", "--json", "show", "@"])
        .write_stdin(session)
        .output()
        .unwrap();
    assert!(show.status.success(), "{}", String::from_utf8_lossy(&show.stderr));
}

/// `--json` rows carry the role of a message, the tool of a tool result (null elsewhere), and
/// whether the row's text cut the message's text short (past 200 characters).
#[test]
fn json_rows_carry_role_tool_and_whether_the_text_was_cut() {
    let env = TestEnv::new();
    let long = "word ".repeat(60);
    let lines = [
        r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/w"}"#.to_string(),
        format!(
            r#"{{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-02T09:00:01.000Z","message":{{"role":"user","content":"{long}"}}}}"#
        ),
        r#"{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-02T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"src/lib.rs"}}],"stopReason":"toolUse"}}"#.to_string(),
        r#"{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-03-02T09:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"fn main() {}"}]}}"#.to_string(),
        r#"{"type":"model_change","id":"m1","parentId":"r1","timestamp":"2026-03-02T09:00:04.000Z","provider":"anthropic","modelId":"claude"}"#.to_string(),
        r#"{"type":"message","id":"a2","parentId":"m1","timestamp":"2026-03-02T09:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}"#.to_string(),
    ];
    env.write("s.jsonl", lines.join("\n") + "\n");
    let picked = |args: &[&str]| -> Vec<String> {
        let out = env.cmd().args(["-f", "s.jsonl", "--json"]).args(args).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let mut rows: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|r| format!("{} {} {} {}", r["id"], r["role"], r["toolName"], r["textTruncated"]))
            .collect();
        rows.sort();
        rows
    };
    let log = picked(&["log", "--filter", "all"]);
    assert_snapshot!(log.join("\n"), @r#"
    "a1" "assistant" null false
    "a2" "assistant" null false
    "m1" null null false
    "r1" "toolResult" "read" false
    "u1" "user" null true
    "#);
    // `tree` writes the same rows, but for the turn that only called tools, which the
    // selector's `all` hides (pi 1.6.0 `tree-selector.js`) and `log --filter all` shows.
    let tree = picked(&["tree", "--filter", "all"]);
    assert_eq!(tree, log.iter().filter(|r| !r.starts_with(r#""a1""#)).cloned().collect::<Vec<_>>());
    assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "log", "-n", "1", "u1"]), @r#"{"id":"u1","parentId":null,"type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T09:00:01.000Z","label":null,"text":"user: word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word","textTruncated":true,"depth":0,"onActivePath":true,"isLeaf":true}"#);
}

/// Times are shown in the local time zone with its offset (`TZ`), and in UTC with `--utc`.
#[test]
fn times_in_the_local_zone_or_utc() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    let run = |tz: &str, args: &[&str]| {
        let out = env.cmd().env("TZ", tz).args(["-f", "labeled.jsonl"]).args(args).output();
        env.render(&out.unwrap())
    };
    // Central European time, as a POSIX rule (no time zone database needed).
    let cet = "CET-1CEST,M3.5.0,M10.5.0/3";
    assert_snapshot!(run(cet, &["log", "-n", "1"]), @"3d4e5f60 message 2026-03-02 12:00:30 +0100 user: Add an entry for the new --json flag.");
    assert_snapshot!(run("EST5EDT,M3.2.0,M11.1.0", &["log", "-n", "1"]), @"3d4e5f60 message 2026-03-02 06:00:30 -0500 user: Add an entry for the new --json flag.");
    assert_snapshot!(run(cet, &["--utc", "log", "-n", "1"]), @"3d4e5f60 message 2026-03-02 11:00:30 +0000 user: Add an entry for the new --json flag.");
    assert_snapshot!(run(cet, &["log", "-n", "1", "--utc"]), @"3d4e5f60 message 2026-03-02 11:00:30 +0000 user: Add an entry for the new --json flag.");
}

/// See: issue 44 (a day with sesstree, second pass). `log --json` of a REV the filter hides had
/// no row with `isLeaf` and said nothing of REV (the note is for people only): the newest row
/// shown, its nearest ancestor, carries `"leafHidden": "<REV's id>"`, with --reverse too.
#[test]
fn json_names_a_hidden_rev_on_the_row_that_stands_for_it() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let ids = |args: &[&str]| -> String {
        let mut all = vec!["-f", "demo.jsonl", "--json", "log", "--filter", "user-only"];
        all.extend_from_slice(args);
        let out = env.run(&all);
        let id = |l: &str| l.split('"').nth(3).unwrap_or_default().to_owned();
        let hidden = |l: &str| {
            l.split("\"leafHidden\":").nth(1).map(|h| format!(" {}", h.trim_end_matches('}')))
        };
        let rows = out.lines().map(|l| format!("{}{}", id(l), hidden(l).unwrap_or_default()));
        rows.collect::<Vec<_>>().join("\n")
    };
    insta::assert_snapshot!(ids(&["-n", "2", "26e8c5b1"]), @r#"
    13c9d5a8 "26e8c5b1"
    8a41d0e6
    "#);
    insta::assert_snapshot!(ids(&["-n", "2", "--reverse", "26e8c5b1"]), @r#"
    8a41d0e6
    13c9d5a8 "26e8c5b1"
    "#);
    // REV shown: it is the row with isLeaf, and no row has the member.
    insta::assert_snapshot!(ids(&["-n", "1", "13c9d5a8"]), @"13c9d5a8");
}

/// See: issue 44 (a day with sesstree, second pass). A pipe gets whole rows, but a row's
/// message text stops at 200 characters (as the agent's selector cuts it): that cut is marked
/// with `…` in `log` and `tree`, and exactly 200 characters are not cut.
#[test]
fn rows_cut_at_200_characters_end_with_an_ellipsis() {
    let env = TestEnv::new();
    let message = |id: &str, parent: &str, text: &str| {
        format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01Z","message":{{"role":"user","content":"{text}"}}}}"#
        )
    };
    let lines = [
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#
            .to_owned(),
        message("a", "null", &"x".repeat(200)),
        message("b", r#""a""#, &format!("{}yz", "w".repeat(199))),
    ];
    env.write("s.jsonl", lines.join("\n") + "\n");
    let log = env.run(&["-f", "s.jsonl", "log"]);
    let ends: Vec<String> = log.lines().map(|l| l.chars().rev().take(4).collect()).collect();
    assert_eq!(ends, ["…yww", "xxxx"], "{log} (the ends, reversed)");
    let tree = env.run(&["-f", "s.jsonl", "tree"]);
    assert!(tree.contains(&format!("b user: {}y… ← active\n", "w".repeat(199))), "{tree}");
    assert!(tree.contains(&format!("a user: {}\n", "x".repeat(200))), "{tree}");
}

/// See: issue 44 (a day with sesstree, second pass). An assistant turn that only called tools
/// was hidden in every filter, as in the agents' selector (pi 1.6.0 `tree-selector.js` hides
/// it before the modes), so `@~N` was not row N+1 even of `log --filter all`. `all` shows
/// every entry; the other filters hide what they hide and, when rows are fitted to a width
/// (a terminal, or `COLUMNS`), say so once at the end; a pipe gets the rows alone.
#[test]
fn filter_all_shows_every_entry_and_the_others_say_they_hid_some() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "log", "--filter", "all", "--reverse", "-n", "3"]), @"
    f6c3d098 message 2026-03-02 09:01:05 +0000 assistant: (no content)
    0a4b7e2d message 2026-03-02 09:01:05 +0000 [read: src/main.rs]
    17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.
    ");
    // Row 8 of `log --filter all` (the root) is `@~7`.
    let rows = env.run(&["-f", "linear.jsonl", "log", "--filter", "all"]);
    let row8 = rows.lines().nth(7).unwrap().split(' ').next().unwrap().to_owned();
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "log", "-n", "1", "@~7"]), @"5f3a9c01 message 2026-03-02 09:00:05 +0000 user: List the files in src/");
    assert!(env.run(&["-f", "linear.jsonl", "log", "-n", "1", "@~7"]).starts_with(&row8));
    let wide =
        |args: &[&str]| env.render(&env.cmd().env("COLUMNS", "80").args(args).output().unwrap());
    assert_snapshot!(wide(&["-f", "linear.jsonl", "log", "-n", "2", "--filter", "no-tools"]), @"
    17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the co…
    e2f81a6b message 2026-03-02 09:01:02 +0000 user: What does main.rs do?
    (2 entries hidden by the filter [no-tools]; --filter all shows every entry)
    ");
    assert_snapshot!(wide(&["-f", "linear.jsonl", "log", "--filter", "all", "-n", "2"]), @"
    17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the co…
    0a4b7e2d message 2026-03-02 09:01:05 +0000 [read: src/main.rs]
    ");
    // A pipe gets the rows alone.
    assert!(!env.run(&["-f", "linear.jsonl", "log"]).contains("hidden"));
}

/// pi 1.6.0 and 0.73.1 count `session_info` (a session's name) among the settings their tree
/// selector hides by default (tree-selector.js, `isSettingsEntry`); `--filter all` shows it.
#[test]
fn a_pi_session_name_is_a_setting_hidden_by_default() {
    let env = TestEnv::new();
    env.fixture("pi.jsonl");
    assert_snapshot!(env.run(&["-f", "pi.jsonl", "log", "-n", "4", "3d5a8b72"]), @"
    3d5a8b72 custom_message 2026-03-04 08:00:41 +0000 [git-status]: R  packages/agent -> packages/agent-core
    b07d3a58 message 2026-03-04 08:00:26 +0000 [bash: git mv packages/agent packages/agent-core]
    4a92c6e1 message 2026-03-04 08:00:26 +0000 assistant: I'll move the directory with git so history is kept.
    1e8d5f37 message 2026-03-04 08:00:20 +0000 user: Rename the `agent` package to `agent-core`.
    ");
    assert_snapshot!(env.run(&["-f", "pi.jsonl", "log", "--filter", "all", "-n", "3", "3d5a8b72"]), @"
    3d5a8b72 custom_message 2026-03-04 08:00:41 +0000 [git-status]: R  packages/agent -> packages/agent-core
    e6f1094c session_info 2026-03-04 08:00:40 +0000 [session info]
    b07d3a58 message 2026-03-04 08:00:26 +0000 [bash: git mv packages/agent packages/agent-core]
    ");
}
