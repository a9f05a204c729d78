//! `sesstree grep`: what is searched and what is not, each option, the REVs it prints, damaged
//! and hostile input.

use insta::assert_snapshot;

use crate::common::TestEnv;

/// A session that holds each kind of text once: a user prompt with quotes and a line break, an
/// assistant's thinking and text, a tool call (whose argument `timeout` is a key only), its
/// result, a compaction, an abandoned branch, a label, a branch summary.
const SESSION: &str = r###"{"type":"session","version":3,"id":"0195a1b2-grep-test","timestamp":"2026-02-01T10:00:00.000Z","cwd":"/work/proj"}
{"type":"message","id":"a1000001","parentId":null,"timestamp":"2026-02-01T10:00:01.000Z","message":{"role":"user","content":"How do I parse \"quoted\" JSON?\nSecond line: use serde"}}
{"type":"message","id":"a1000002","parentId":"a1000001","timestamp":"2026-02-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"They want serde_json, probably."},{"type":"text","text":"Use serde_json::from_str."}]}}
{"type":"message","id":"a1000003","parentId":"a1000002","timestamp":"2026-02-01T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_1","name":"bash","arguments":{"command":"cargo test --lib","timeout":30}}]}}
{"type":"message","id":"a1000004","parentId":"a1000003","timestamp":"2026-02-01T10:00:04.000Z","message":{"role":"toolResult","toolCallId":"call_1","toolName":"bash","content":[{"type":"text","text":"test result: ok. 3 passed; 0 failed"}]}}
{"type":"message","id":"b2000001","parentId":"a1000002","timestamp":"2026-02-01T10:00:05.000Z","message":{"role":"user","content":"Try the abandoned approach with nom instead."}}
{"type":"branch_summary","id":"a1000005","parentId":"a1000004","timestamp":"2026-02-01T10:00:06.000Z","fromId":"b2000001","summary":"Tried nom; went back to serde."}
{"type":"compaction","id":"a1000006","parentId":"a1000005","timestamp":"2026-02-02T09:00:00.000Z","summary":"## Goal\nParse with Serde, without new crates.","firstKeptEntryId":"a1000004","tokensBefore":1000}
{"type":"label","id":"a1000007","parentId":"a1000006","timestamp":"2026-02-02T09:00:01.000Z","targetId":"a1000002","label":"answer"}
{"type":"message","id":"a1000008","parentId":"a1000007","timestamp":"2026-02-02T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done: the parser uses serde."}]}}
"###;

fn env() -> TestEnv {
    let env = TestEnv::new();
    env.write("s.jsonl", SESSION);
    env
}

#[test]
fn hits_name_entry_label_role_and_branch() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "serde", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000001 user: Second line: use serde
    a1000002 [answer] assistant: They want serde_json, probably.
    a1000005 branch_summary: Tried nom; went back to serde.
    a1000008 assistant: Done: the parser uses serde.
    ");
}

#[test]
fn escaped_text_is_matched_decoded() {
    let env = env();
    // The line holds `\"quoted\"` and `JSON?\nSecond`: the text holds quotes and a line break.
    assert_snapshot!(env.run(&["grep", "-F", r#""quoted" JSON?"#, "s.jsonl"]), @r#"
    s.jsonl  0195a1b2-grep-test
    a1000001 user: How do I parse "quoted" JSON?
    "#);
    assert_snapshot!(env.run(&["grep", "^Second line", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000001 user: Second line: use serde
    ");
    // The escape itself is not text: no `\n` noise.
    assert_snapshot!(env.run(&["grep", "-F", "nSecond", "s.jsonl"]), @"[exit status: 1]");
}

#[test]
fn json_keys_and_ids_are_not_text() {
    let env = env();
    for pattern in ["timeout", "parentId", "toolCall", "a1000003", "firstKeptEntryId", "answer"] {
        assert_eq!(env.run(&["grep", pattern, "s.jsonl"]), "[exit status: 1]\n", "{pattern}");
    }
}

#[test]
fn an_abandoned_branch_is_searched_and_marked() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "nom", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    b2000001 user: Try the abandoned approach with nom instead. (off path)
    a1000005 branch_summary: Tried nom; went back to serde.
    ");
    assert_snapshot!(env.run(&["grep", "--active-only", "nom", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000005 branch_summary: Tried nom; went back to serde.
    ");
}

#[test]
fn summaries_are_searched() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "--type", "compaction", "-i", "serde", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000006 compaction: Parse with Serde, without new crates.
    ");
    assert_snapshot!(env.run(&["grep", "--type", "branch-summary", "serde", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000005 branch_summary: Tried nom; went back to serde.
    ");
}

#[test]
fn case_and_words() {
    let env = env();
    // Case-sensitive by default; -i ignores case; -S ignores it for a lower-case pattern only.
    assert_snapshot!(env.run(&["grep", "-c", "Serde", "s.jsonl"]), @"s.jsonl:1");
    assert_snapshot!(env.run(&["grep", "-c", "-i", "Serde", "s.jsonl"]), @"s.jsonl:5");
    assert_snapshot!(env.run(&["grep", "-c", "-S", "serde", "s.jsonl"]), @"s.jsonl:5");
    assert_snapshot!(env.run(&["grep", "-c", "-S", "Serde", "s.jsonl"]), @"s.jsonl:1");
    // -w: serde_json is not the word serde.
    assert_snapshot!(env.run(&["grep", "-w", "serde", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000001 user: Second line: use serde
    a1000005 branch_summary: Tried nom; went back to serde.
    a1000008 assistant: Done: the parser uses serde.
    ");
}

#[test]
fn several_patterns_and_fixed_strings() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "-e", "nom", "-e", "cargo", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000003 assistant: cargo test --lib
    b2000001 user: Try the abandoned approach with nom instead. (off path)
    a1000005 branch_summary: Tried nom; went back to serde.
    ");
    // `.` is any character in a regex, itself with -F.
    assert_snapshot!(env.run(&["grep", "-c", "ok. 3", "s.jsonl"]), @"s.jsonl:1");
    assert_snapshot!(env.run(&["grep", "-c", "-F", "k. 3 p", "s.jsonl"]), @"s.jsonl:1");
    assert_snapshot!(env.run(&["grep", "-c", "-F", "ok.3", "s.jsonl"]), @"[exit status: 1]");
}

#[test]
fn roles_tools_and_types_narrow_the_search() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "--role", "user", "serde", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000001 user: Second line: use serde
    ");
    assert_snapshot!(env.run(&["grep", "--role", "tool", ".", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000004 tool: test result: ok. 3 passed; 0 failed
    ");
    // A tool's calls (their argument values) and results, nothing else.
    assert_snapshot!(env.run(&["grep", "--tool", "bash", "t", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000003 assistant: cargo test --lib
    a1000004 tool: test result: ok. 3 passed; 0 failed
    ");
    assert_snapshot!(env.run(&["grep", "--tool", "read", "t", "s.jsonl"]), @"[exit status: 1]");
}

#[test]
fn since_and_until() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "--since", "2026-02-02", "serde", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000008 assistant: Done: the parser uses serde.
    ");
    assert_snapshot!(env.run(&["grep", "--until", "2026-02-01T10:00:02", "serde", "s.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000001 user: Second line: use serde
    ");
    // Spans count back from now (SESSTREE_NOW is 2026-03-01T12:00Z).
    assert_snapshot!(env.run(&["grep", "-c", "--since", "28d", "serde", "s.jsonl"]), @"s.jsonl:1");
    assert_snapshot!(env.run(&["grep", "-c", "--since", "30d", "serde", "s.jsonl"]), @"s.jsonl:4");
    assert_snapshot!(env.run(&["grep", "--since", "last tuesday", "serde", "s.jsonl"]), @"
    ------- stderr -------
    error: --since 'last tuesday': not a date (2026-11-30), a time (2026-11-30T14:00) or a span (7d, 12h)
    [exit status: 2]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn counts_lists_and_limits() {
    let env = env();
    env.write("t.jsonl", SESSION.replace("0195a1b2-grep-test", "0195a1b2-other"));
    assert_snapshot!(env.run(&["grep", "-l", "nom", "."]), @"
    ./s.jsonl
    ./t.jsonl
    ");
    assert_snapshot!(env.run(&["grep", "-c", "serde", "s.jsonl", "t.jsonl"]), @"
    s.jsonl:4
    t.jsonl:4
    ");
    assert_snapshot!(env.run(&["grep", "-m", "1", "serde", "s.jsonl", "t.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    a1000001 user: Second line: use serde

    t.jsonl  0195a1b2-other
    a1000001 user: Second line: use serde
    ");
    assert_snapshot!(env.run(&["grep", "--json", "-c", "serde", "s.jsonl"]), @r#"{"file":"s.jsonl","sessionId":"0195a1b2-grep-test","count":4}"#);
    assert_snapshot!(env.run(&["grep", "--json", "-l", "serde", "s.jsonl"]), @r#"{"file":"s.jsonl","sessionId":"0195a1b2-grep-test"}"#);
}

#[test]
fn json_hits_carry_a_rev_other_commands_take() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "--json", "nom", "s.jsonl"]), @r#"
    {"file":"s.jsonl","sessionId":"0195a1b2-grep-test","entryId":"b2000001","rev":"s.jsonl:b2000001","onActivePath":false,"label":null,"role":"user","timestamp":"2026-02-01T10:00:05.000Z","snippet":"Try the abandoned approach with nom instead.","line":6}
    {"file":"s.jsonl","sessionId":"0195a1b2-grep-test","entryId":"a1000005","rev":"s.jsonl:a1000005","onActivePath":true,"label":null,"role":"branch_summary","timestamp":"2026-02-01T10:00:06.000Z","snippet":"Tried nom; went back to serde.","line":7}
    "#);
    // The rev is FILE:ID: show and log read that file, checkout moves its leaf.
    assert_snapshot!(env.run(&["show", "--json", "s.jsonl:b2000001"]), @r#"{"type":"message","id":"b2000001","parentId":"a1000002","timestamp":"2026-02-01T10:00:05.000Z","message":{"role":"user","content":"Try the abandoned approach with nom instead."}}"#);
    assert_snapshot!(env.run(&["log", "s.jsonl:b2000001"]), @r#"
    b2000001 message 2026-02-01 10:00:05 +0000 user: Try the abandoned approach with nom instead.
    a1000002 message 2026-02-01 10:00:02 +0000 [answer] assistant: Use serde_json::from_str.
    a1000001 message 2026-02-01 10:00:01 +0000 user: How do I parse "quoted" JSON? Second line: use serde
    "#);
    assert_snapshot!(env.run(&["checkout", "s.jsonl:b2000001"]), @"
    Try the abandoned approach with nom instead.
    ------- stderr -------
    Moved from a1000008 to a1000002; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "1"]), @"a1000002 message 2026-02-01 10:00:02 +0000 [answer] assistant: Use serde_json::from_str.");
}

#[test]
fn standard_input_and_version_1() {
    let env = env();
    assert_snapshot!(env.run_stdin(&["grep", "nom", "-"], SESSION), @"
    -  0195a1b2-grep-test
    b2000001 user: Try the abandoned approach with nom instead. (off path)
    a1000005 branch_summary: Tried nom; went back to serde.
    ");
    // A version-1 file has no ids: hits carry the ids the file is read with.
    env.fixture("v1.jsonl");
    assert_snapshot!(env.run(&["grep", "--json", "-m", "1", ".", "v1.jsonl"]), @r#"{"file":"v1.jsonl","sessionId":"c1b0a7e2-58d4-4f39-8e21-7a6b3c9d0f15","entryId":"78ade05a","rev":"v1.jsonl:78ade05a","onActivePath":true,"label":null,"role":"user","timestamp":"2025-12-01T15:00:10.100Z","snippet":"What does the Editor component do on Ctrl+K?","line":2}"#);
}

#[test]
fn damaged_lines_warn_and_the_rest_is_searched() {
    let env = env();
    env.fixture("torn-last-line.jsonl");
    env.fixture("invalid-utf8.jsonl");
    // The torn last line could match: it is named, and the other hits are printed.
    assert_snapshot!(env.run(&["grep", "v0.4", "torn-last-line.jsonl"]), @"
    torn-last-line.jsonl  019cbef1-2280-7a1e-8c3d-2f4a6b8c0d1e
    8b2c3d4e assistant: v0.4: a --json flag for stats, a fix for line counts at EOF, and faster CSV export.
    ------- stderr -------
    torn-last-line.jsonl:5: warning: not valid JSON; the line is not searched
    ");
    // Invalid UTF-8 is read as U+FFFD, the rest of the text as written.
    assert_snapshot!(env.run(&["grep", "caf", "invalid-utf8.jsonl"]), @"
    invalid-utf8.jsonl  019cbf43-8840-7d4f-b061-5c7d9e1f3a4b
    4c5d6e7f user: …), bytes ��, a cut sequence � and valid café.
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots Unix error texts")]
fn errors_exit_2() {
    let env = env();
    assert_snapshot!(env.run(&["grep", "(", "s.jsonl"]), @"
    ------- stderr -------
    error: bad pattern '(': unclosed group
    [exit status: 2]
    ");
    assert_snapshot!(env.run(&["grep", "nom", "s.jsonl", "missing.jsonl"]), @"
    s.jsonl  0195a1b2-grep-test
    b2000001 user: Try the abandoned approach with nom instead. (off path)
    a1000005 branch_summary: Tried nom; went back to serde.
    ------- stderr -------
    error: missing.jsonl: No such file or directory (os error 2)
    [exit status: 2]
    ");
    assert_snapshot!(env.run(&["grep"]), @"
    ------- stderr -------
    error: the following required arguments were not provided:
      <PATTERN>

    Usage: sesstree grep <PATTERN> [PATH]...

    For more information, try '--help'.
    [exit status: 2]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "makes a file name Windows forbids")]
fn hostile_file_names_are_shown_escaped() {
    let env = env();
    std::fs::create_dir(env.path().join("dir")).unwrap();
    for name in ["a\x1b[31mred.jsonl", "b\nnewline.jsonl", "-c.jsonl", "c d.jsonl"] {
        std::fs::write(env.path().join("dir").join(name), SESSION).unwrap();
    }
    assert_snapshot!(env.run(&["grep", "-l", "nom", "dir"]), @r"
    dir/-c.jsonl
    dir/a\x1b[31mred.jsonl
    dir/b\x0anewline.jsonl
    dir/c d.jsonl
    ");
    assert_snapshot!(env.run(&["grep", "--active-only", "Done", "dir"]), @r"
    dir/-c.jsonl  0195a1b2-grep-test
    a1000008 assistant: Done: the parser uses serde.

    dir/a\x1b[31mred.jsonl  0195a1b2-grep-test
    a1000008 assistant: Done: the parser uses serde.

    dir/b\x0anewline.jsonl  0195a1b2-grep-test
    a1000008 assistant: Done: the parser uses serde.

    dir/c d.jsonl  0195a1b2-grep-test
    a1000008 assistant: Done: the parser uses serde.
    ");
}

/// A home with sessions of both agents, for the project `~/proj` and another one.
fn home(env: &TestEnv) {
    let proj = env.path().join("home/proj");
    std::fs::create_dir_all(&proj).unwrap();
    let proj = proj.display().to_string();
    let put = |path: &str, cwd: &str, text: &str| {
        let full = env.path().join("home").join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        let session = SESSION.replace("/work/proj", cwd).replace("nom", text);
        std::fs::write(full, session).unwrap();
    };
    put(".omp/agent/sessions/-proj/2026-02-01_omp.jsonl", &proj, "nom from omp");
    let pi_dir = sesstree::discover::pi_dir_name(&proj);
    put(&format!(".pi/agent/sessions/{pi_dir}/2026-02-01_pi.jsonl"), &proj, "nom from pi");
    put(".pi/agent/sessions/--elsewhere--/2026-02-01_pi.jsonl", "/elsewhere", "nom elsewhere");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn without_paths_every_session_of_both_agents() {
    let env = env();
    home(&env);
    let pi_dir =
        sesstree::discover::pi_dir_name(&env.path().join("home/proj").display().to_string());
    let run = |args: &[&str]| env.run(args).replace(&pi_dir, "$PI_DIR");
    assert_snapshot!(run(&["grep", "-l", "nom"]), @"
    $TMP/home/.omp/agent/sessions/-proj/2026-02-01_omp.jsonl
    $TMP/home/.pi/agent/sessions/--elsewhere--/2026-02-01_pi.jsonl
    $TMP/home/.pi/agent/sessions/$PI_DIR/2026-02-01_pi.jsonl
    ");
    assert_snapshot!(run(&["grep", "-l", "--cwd", "home/proj", "nom"]), @"
    $TMP/home/.omp/agent/sessions/-proj/2026-02-01_omp.jsonl
    $TMP/home/.pi/agent/sessions/$PI_DIR/2026-02-01_pi.jsonl
    ");
    let output = env
        .cmd()
        .current_dir(env.path().join("home/proj"))
        .args(["grep", "-l", "--here", "nom"])
        .output()
        .unwrap();
    assert_snapshot!(env.render(&output).replace(&pi_dir, "$PI_DIR"), @"
    $TMP/home/.omp/agent/sessions/-proj/2026-02-01_omp.jsonl
    $TMP/home/.pi/agent/sessions/$PI_DIR/2026-02-01_pi.jsonl
    ");
}

#[test]
fn matches_are_highlighted_in_colour() {
    let env = env();
    assert_snapshot!(env.run(&["--color", "always", "grep", "abandon", "s.jsonl"]), @"
    [36ms.jsonl[39m  [2m0195a1b2-grep-test[0m
    [33mb2000001[39m user: Try the [1;31mabandon[0med approach with nom instead. [2m(off path)[0m
    ");
}

/// The calls a tool made itself (pi 1.6.0's `nestedCalls` on a tool result) are searched as the
/// model's calls are: the strings of their arguments, their error text, `--tool` by their name.
#[test]
fn the_calls_a_tool_made_are_searched_as_calls() {
    let env = TestEnv::new();
    env.fixture("pi-usage.jsonl");
    let grep = |args: &[&str]| env.run(&[&["grep"], args, &["pi-usage.jsonl"]].concat());
    assert_snapshot!(grep(&["FIXME"]), @"
    pi-usage.jsonl  019a3b2c-7d4e-7f60-8a1b-000000000005
    c3000004 tool: FIXME (off path)
    ");
    // The model called `codemode`; the script called `bash`, which failed.
    assert_snapshot!(grep(&["--tool", "bash", "exit status"]), @"
    pi-usage.jsonl  019a3b2c-7d4e-7f60-8a1b-000000000005
    c3000004 tool: exit status 1 (off path)
    ");
    // Another tool's calls are not searched under --tool; a status is not text.
    assert_snapshot!(grep(&["--tool", "read", "FIXME"]), @"[exit status: 1]");
    assert_snapshot!(grep(&["unfinished"]), @"[exit status: 1]");
}

/// A file named on the command line that `log -f FILE` refuses (no valid header: exit 3; pi's
/// lane format: exit 6) is refused by grep the same way, with the same message, and the other
/// files are still searched.
#[test]
fn a_named_file_every_command_refuses_is_refused_alike() {
    let env = env();
    env.fixture("bad-header.jsonl");
    env.fixture("missing-header.jsonl");
    env.write("v4.jsonl", "{\"kind\":\"header\",\"version\":4,\"id\":\"x\",\"cwd\":\"/p\"}\n{\"kind\":\"entry\",\"entry\":{\"type\":\"message\",\"id\":\"a1\",\"message\":{\"role\":\"user\",\"content\":\"nom\"}}}\n");
    for (file, status) in [("bad-header.jsonl", 3), ("missing-header.jsonl", 3), ("v4.jsonl", 6)] {
        let log = env.run(&["-f", file, "log"]);
        assert!(log.ends_with(&format!("[exit status: {status}]\n")), "{log}");
        assert_eq!(env.run(&["grep", "e", file]), log, "grep e {file}");
    }
    assert_snapshot!(env.run(&["grep", "-c", "nom", "s.jsonl", "bad-header.jsonl", "v4.jsonl"]), @"
    s.jsonl:2
    ------- stderr -------
    error: bad-header.jsonl:1: no valid session header (the header has no string id); `sesstree fsck --repair` restores one
    error: v4.jsonl: a pi v4 session (lane format), not supported yet: sesstree reads the v3 files pi's CLI writes; this one was written by pi-agent-core's lane-based session store
    [exit status: 3]
    ");
    assert_snapshot!(env.run_stdin(&["grep", "-c", "e", "-"], env.read("bad-header.jsonl")), @"
    ------- stderr -------
    error: -:1: no valid session header (the header has no string id); `sesstree fsck --repair` restores one
    [exit status: 3]
    ");
}

/// A refused file found in a directory, given or the agents', is an error as an unreadable one
/// is: named, skipped, exit 2 at the end (rg's habit), the other files searched.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_refused_file_in_a_directory_is_an_error() {
    let env = env();
    home(&env);
    let dir = env.path().join("home/.omp/agent/sessions/-proj");
    std::fs::copy(env.path().join("s.jsonl"), dir.join("2026-02-02_ok.jsonl")).unwrap();
    let bad = std::fs::read(crate::common::fixtures().join("missing-header.jsonl")).unwrap();
    std::fs::write(dir.join("2026-02-03_bad.jsonl"), bad).unwrap();
    assert_snapshot!(env.run(&["grep", "-l", "nom from omp"]), @"
    $TMP/home/.omp/agent/sessions/-proj/2026-02-01_omp.jsonl
    ------- stderr -------
    error: $TMP/home/.omp/agent/sessions/-proj/2026-02-03_bad.jsonl:1: no valid session header (the first record is of type 'message', not 'session'); `sesstree fsck --repair` restores one
    [exit status: 2]
    ");
    assert_snapshot!(env.run(&["grep", "-c", "nom", "home/.omp/agent/sessions/-proj"]), @"
    home/.omp/agent/sessions/-proj/2026-02-01_omp.jsonl:2
    home/.omp/agent/sessions/-proj/2026-02-02_ok.jsonl:2
    ------- stderr -------
    error: home/.omp/agent/sessions/-proj/2026-02-03_bad.jsonl:1: no valid session header (the first record is of type 'message', not 'session'); `sesstree fsck --repair` restores one
    [exit status: 2]
    ");
}

/// Issue 44: without PATH, `grep` searches the session every other command would work on: the
/// file of -f or SESSTREE_FILE, or the one --session names; only that one. A -f file that does
/// not exist fails as `log -f` does.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn without_paths_the_session_of_file_or_session_options() {
    let env = env();
    home(&env);
    let other = SESSION.replace("0195a1b2-grep-test", "0195ffff-other").replace("nom", "zebracorn");
    env.write("other.jsonl", &other);
    let put = env.path().join("home/.omp/agent/sessions/-else/other.jsonl");
    std::fs::create_dir_all(put.parent().unwrap()).unwrap();
    std::fs::write(&put, &other).unwrap();
    assert_snapshot!(env.run(&["-f", "other.jsonl", "grep", "-c", "zebracorn"]), @"other.jsonl:2");
    assert_snapshot!(env.run(&["-f", "other.jsonl", "grep", "-l", "nom"]), @"[exit status: 1]");
    let output =
        env.cmd().env("SESSTREE_FILE", "s.jsonl").args(["grep", "-l", "nom"]).output().unwrap();
    assert_snapshot!(env.render(&output), @"s.jsonl");
    assert_snapshot!(env.run(&["--session", "0195ffff", "grep", "-l", "zebra"]), @"$TMP/home/.omp/agent/sessions/-else/other.jsonl");
    // A PATH still wins.
    assert_snapshot!(env.run(&["-f", "other.jsonl", "grep", "-l", "nom", "s.jsonl"]), @"s.jsonl");
    let log = env.run(&["-f", "does-not-exist.jsonl", "log"]);
    assert_snapshot!(log, @"
    ------- stderr -------
    error: does-not-exist.jsonl: No such file or directory (os error 2)
    [exit status: 1]
    ");
    assert_eq!(env.run(&["-f", "does-not-exist.jsonl", "grep", "nom"]), log);
}

/// Issue 44: --here searches the current project's sessions, found as a command without -f
/// finds its session: from a subdirectory of the project, the nearest parent's (as git looks
/// upward).
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn here_looks_upward_for_the_project() {
    let env = env();
    home(&env);
    let sub = env.path().join("home/proj/src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let pi_dir =
        sesstree::discover::pi_dir_name(&env.path().join("home/proj").display().to_string());
    let output =
        env.cmd().current_dir(&sub).args(["grep", "-l", "--here", "nom"]).output().unwrap();
    assert_snapshot!(env.render(&output).replace(&pi_dir, "$PI_DIR"), @"
    $TMP/home/.omp/agent/sessions/-proj/2026-02-01_omp.jsonl
    $TMP/home/.pi/agent/sessions/$PI_DIR/2026-02-01_pi.jsonl
    ");
    // Not with a PATH, which names what to search.
    let output = env.cmd().args(["grep", "--here", "nom", "s.jsonl"]).output().unwrap();
    assert!(env.render(&output).contains("cannot be used with"), "{}", env.render(&output));
}

/// Issue 48: in a directory of other agents' transcripts, one whose raw bytes hold nothing a
/// match needs is not converted, and shows as a transcript without a hit does; one with a hit
/// shows it, even where the text is one the conversion writes of its own (a Claude Code
/// compaction's summary joined from two blocks, a Codex tool output that is an object,
/// Codex's summary of a compaction without one) or where only a subagent's file read with
/// the transcript holds it.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_transcript_without_a_hit_in_a_directory_shows_nothing() {
    let env = env();
    for name in ["claude-joins.jsonl", "codex-joins.jsonl"] {
        let fixture = crate::common::fixtures().join("grep-foreign").join(name);
        env.write(name, std::fs::read(fixture).unwrap());
    }
    let record = |uuid: &str, sidechain: bool, text: &str| {
        format!(
            r#"{{"type":"user","uuid":"{uuid}","parentUuid":null,"isSidechain":{sidechain},"sessionId":"m","cwd":"/w","timestamp":"2026-03-05T10:00:00.000Z","message":{{"role":"user","content":"{text}"}}}}"#
        )
    };
    env.write("m.jsonl", record("m1", false, "Ask a helper.") + "\n");
    std::fs::create_dir_all(env.path().join("m/subagents")).unwrap();
    env.write("m/subagents/agent-x.jsonl", record("x1", true, "Search zanzibar.") + "\n");
    // No file holds a hit: none is shown.
    assert_snapshot!(env.run(&["grep", "-c", "parserWriter", "."]), @"[exit status: 1]");
    assert_snapshot!(env.run(&["grep", "-l", "--json", "parserWriter", "."]), @"[exit status: 1]");
    // Only the pi session holds one.
    assert_snapshot!(env.run(&["--json", "grep", "-c", "serde", "."]), @r#"{"file":"./s.jsonl","sessionId":"0195a1b2-grep-test","count":4}"#);
    // `written` is in no raw string (the summary's blocks end `wri` and start `tten`).
    assert_snapshot!(env.run(&["grep", "-F", "written", "."]), @"
    ./claude-joins.jsonl  7a1b2c3d-0000-4000-8000-00000000abcd
    s1 compaction: Summary: the lexer is written; the parser is next.
    ");
    // The line has `"ok" : true`; the tool output's text, `"ok":true`.
    assert_snapshot!(env.run(&["grep", "-F", ":true", "."]), @r#"
    ./codex-joins.jsonl  0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001
    L5 tool: …s","exit_code":0,"duration":1.50e+0,"ok":true}
    "#);
    assert_snapshot!(env.run(&["grep", "-c", "Context compacted|the parser", "."]), @"
    ./claude-joins.jsonl:3
    ./codex-joins.jsonl:1
    ./s.jsonl:1
    ");
    // The subagent's file is read with its transcript.
    assert_snapshot!(env.run(&["grep", "-c", "zanzibar", "."]), @"./m/subagents/agent-x.jsonl:1");
}
