//! Damaged input: every kind of damage is a `FILE:LINE: warning:` and handled as the agents
//! handle it; `--strict` turns it into exit 3; a file without a header is exit 3.

use insta::assert_snapshot;

use crate::common::TestEnv;

fn log_all(name: &str) -> String {
    let env = TestEnv::new();
    env.fixture(name);
    env.run(&["-f", name, "log", "--filter", "all"])
}

#[test]
fn torn_last_line() {
    assert_snapshot!(log_all("torn-last-line.jsonl"), @"
    9c3d4e5f message 2026-03-05 17:00:30 +0000 user: Shorter, please.
    8b2c3d4e message 2026-03-05 17:00:12 +0000 assistant: v0.4: a --json flag for stats, a fix for line counts at EOF, and faster CSV export.
    7a1b2c3d message 2026-03-05 17:00:05 +0000 user: Summarize the last release notes.
    ------- stderr -------
    torn-last-line.jsonl:5: warning: truncated last line: EOF while parsing a string at line 1 column 173
    ");
}

#[test]
fn unparseable_line() {
    assert_snapshot!(log_all("unparseable.jsonl"), @"
    0f1a2b3c message 2026-03-05 12:01:19 +0000 assistant: Added `cargo:rerun-if-changed=wrapper.h` and `=build.rs`; a no-op rebuild now takes 0.4 s.
    9e0f1a2b message 2026-03-05 12:01:10 +0000 user: Add the rerun-if-changed lines.
    7c8d9e0f message 2026-03-05 12:00:09 +0000 assistant: `build.rs` regenerates the bindings on every build; it lacks `cargo:rerun-if-changed`.
    6b7c8d9e message 2026-03-05 12:00:03 +0000 user: Why is the build slow?
    ------- stderr -------
    unparseable.jsonl:4: warning: unparseable line: EOF while parsing a string at line 1 column 151
    ");
}

#[test]
fn blank_lines_are_skipped_silently() {
    assert_snapshot!(log_all("blank-lines.jsonl"), @"
    91a2b3c4 message 2026-03-05 19:00:24 +0000 assistant: Skipped too.
    8091a2b3 message 2026-03-05 19:00:20 +0000 user: And the trailing blank line?
    7f8091a2 message 2026-03-05 19:00:05 +0000 assistant: So are lines of spaces, tabs or a lone CR.
    6e7f8091 message 2026-03-05 19:00:02 +0000 user: Blank lines around me are skipped.
    ");
}

#[test]
fn duplicate_ids_later_wins() {
    assert_snapshot!(log_all("duplicate-ids.jsonl"), @"
    1b2c3d4e message 2026-03-05 14:01:31 +0000 assistant: Renamed `ConfigLoader` to `Settings` in 6 files.
    0a1b2c3d message 2026-03-05 14:01:20 +0000 user: Good, use Settings.
    cc33dd44 message 2026-03-05 14:01:00 +0000 assistant: `Settings`.
    aa11bb22 message 2026-03-05 14:00:02 +0000 user: Suggest a name for the config loader.
    ------- stderr -------
    duplicate-ids.jsonl:5: warning: duplicate id cc33dd44 (first on line 3); the later entry wins
    ");
}

#[test]
fn dangling_parent_is_a_root() {
    let env = TestEnv::new();
    env.fixture("dangling-parent.jsonl");
    assert_snapshot!(env.run(&["-f", "dangling-parent.jsonl", "tree", "--filter", "all"]), @"
    • 4c5d6e7f user: My parent 9999aaaa is not in this file.
    │  • 5d6e7f80 assistant: So you are an orphan, and a root of the tree. ← active
    2a3b4c5d user: Start of the session.
       3b4c5d6e assistant: Ready.
    ------- stderr -------
    dangling-parent.jsonl:4: warning: parent 9999aaaa of entry 4c5d6e7f not found; the entry counts as a root
    ");
}

#[test]
fn cycles_do_not_hang() {
    let env = TestEnv::new();
    env.fixture("cycle.jsonl");
    assert_snapshot!(env.run(&["-f", "cycle.jsonl", "tree", "--filter", "all"]), @"
    • c1c1e002 assistant: And the walk from here must stop at the first repeated id. ← active
    │  • c1c1e001 user: My parent is the next line, whose parent is me.
    a1000001 user: A normal start.
    │  a1000002 assistant: Normal reply.
    5e1f5e1f user: I am my own parent.
    ------- stderr -------
    cycle.jsonl:6: warning: parent cycle through entry c1c1e002; broken here, the entry counts as a root
    ");
    assert_snapshot!(env.run(&["-f", "cycle.jsonl", "log", "--filter", "all"]), @"
    c1c1e002 message 2026-03-05 15:00:22 +0000 assistant: And the walk from here must stop at the first repeated id.
    c1c1e001 message 2026-03-05 15:00:20 +0000 user: My parent is the next line, whose parent is me.
    ------- stderr -------
    cycle.jsonl:6: warning: parent cycle through entry c1c1e002; broken here, the entry counts as a root
    ");
}

#[test]
fn odd_records() {
    assert_snapshot!(log_all("non-object.jsonl"), @"
    ------- stderr -------
    non-object.jsonl:3: warning: record is not a JSON object
    non-object.jsonl:5: warning: record is not a JSON object
    non-object.jsonl:6: warning: entry has no id
    non-object.jsonl:8: warning: entry has no id
    ");
    let env = TestEnv::new();
    env.fixture("non-object.jsonl");
    assert_snapshot!(env.run(&["-f", "non-object.jsonl", "tree", "--filter", "all"]), @"
    0b1c2d3e user: List three colours.
    │  1c2d3e4f assistant: Red, green, blue.
    │  ├─ - [custom: scratchpad]
    │  └─ 2d3e4f50 user: Two more.
    │     - assistant: Cyan, magenta.
    - [record]
    - [record]
    ------- stderr -------
    non-object.jsonl:3: warning: record is not a JSON object
    non-object.jsonl:5: warning: record is not a JSON object
    non-object.jsonl:6: warning: entry has no id
    non-object.jsonl:8: warning: entry has no id
    ");
}

#[test]
fn strict_makes_damage_an_error() {
    let env = TestEnv::new();
    env.fixture("unparseable.jsonl");
    assert_snapshot!(env.run(&["-f", "unparseable.jsonl", "--strict", "log"]), @"
    ------- stderr -------
    error: unparseable.jsonl:4: unparseable line: EOF while parsing a string at line 1 column 151
    [exit status: 3]
    ");
}

#[test]
fn no_header_is_exit_3() {
    let env = TestEnv::new();
    env.fixture("missing-header.jsonl");
    env.fixture("bad-header.jsonl");
    assert_snapshot!(env.run(&["-f", "missing-header.jsonl", "log"]), @"
    ------- stderr -------
    error: missing-header.jsonl:1: no valid session header (the first record is of type 'message', not 'session'); `sesstree fsck --repair` restores one
    [exit status: 3]
    ");
    assert_snapshot!(env.run(&["-f", "bad-header.jsonl", "tree"]), @"
    ------- stderr -------
    error: bad-header.jsonl:1: no valid session header (the header has no string id); `sesstree fsck --repair` restores one
    [exit status: 3]
    ");
}

#[test]
fn empty_files_print_nothing() {
    let env = TestEnv::new();
    env.fixture("empty.jsonl");
    env.fixture("blank-only.jsonl");
    assert_snapshot!(env.run(&["-f", "empty.jsonl", "log"]), @"");
    assert_snapshot!(env.run(&["-f", "blank-only.jsonl", "tree"]), @"");
}

#[test]
fn versions() {
    let env = TestEnv::new();
    for f in ["future-version.jsonl", "v4.jsonl", "version-string.jsonl", "v2-hook.jsonl"] {
        env.fixture(f);
    }
    assert_snapshot!(env.run(&["-f", "future-version.jsonl", "log", "-n", "1"]), @"
    cc22dd33 message 2027-06-01 09:00:04 +0000 assistant: Hi!
    ------- stderr -------
    future-version.jsonl:1: warning: session version 9 is newer than this sesstree understands
    ");
    assert_snapshot!(env.run(&["-f", "v4.jsonl", "log", "-n", "1"]), @"5e6f7081 message 2026-03-09 08:00:09 +0000 assistant: 1,843 lines across the `.rs` files in `src/`.");
    assert_snapshot!(env.run(&["-f", "version-string.jsonl", "log", "-n", "1"]), @r#"1d2e3f40 message 2026-03-09 10:00:03 +0000 assistant: Yes: `"3"`. Readers take it as the number 3."#);
    assert_snapshot!(env.run(&["-f", "v2-hook.jsonl", "log", "--filter", "all"]), @"
    gT5yH8dQ message 2026-01-10 18:01:08 +0000 assistant: Committed as `a91c2e0 content: March posts`.
    Pz9eR1vU message 2026-01-10 18:01:00 +0000 user: Commit them.
    mJ7-c2Ls message 2026-01-10 18:00:21 +0000 assistant: `hugo --minify` built 48 pages; `lychee public/` found no broken links. Note the 3 uncommitted files.
    Xw_4nTb9 message 2026-01-10 18:00:05 +0000 [hookMessage]
    kR2p8QzA message 2026-01-10 18:00:05 +0000 user: Build the site and tell me if there are broken links.
    ");
}

#[test]
fn bom_no_final_newline_and_invalid_utf8() {
    assert_snapshot!(log_all("bom.jsonl"), @"
    3b4c5d6e message 2026-03-05 18:00:05 +0000 assistant: Readers ignore it; the header is still line 1.
    2a3b4c5d message 2026-03-05 18:00:02 +0000 user: This file starts with a UTF-8 byte order mark.
    ");
    assert_snapshot!(log_all("no-final-newline.jsonl"), @"
    1f2a3b4c message 2026-03-05 17:30:05 +0000 assistant: Yes, but its last line has no newline.
    0e1f2a3b message 2026-03-05 17:30:02 +0000 user: Is this file complete?
    ");
    assert_snapshot!(log_all("invalid-utf8.jsonl"), @"
    5d6e7f80 message 2026-03-05 18:30:06 +0000 assistant: The file name is not valid UTF-8.
    4c5d6e7f message 2026-03-05 18:30:02 +0000 user: Open r�sum�.txt (Latin-1), bytes ��, a cut sequence � and valid café.
    ");
}

#[test]
fn escape_sequences_never_reach_the_terminal() {
    let env = TestEnv::new();
    env.fixture("escapes.jsonl");
    for args in [
        &["-f", "escapes.jsonl", "log", "--filter", "all"][..],
        &["-f", "escapes.jsonl", "tree", "--filter", "all"],
        &["-f", "escapes.jsonl", "context"],
        &["-f", "escapes.jsonl", "show", "3e5ca9e2"],
    ] {
        let out = env.cmd().args(args).output().unwrap();
        for stream in [&out.stdout, &out.stderr] {
            let text = String::from_utf8_lossy(stream);
            assert!(
                !text.chars().any(|c| c.is_control() && c != '\n' && c != '\t'),
                "{args:?} printed a control character: {text:?}"
            );
        }
    }
    // JSON output stays exact: the escape is there, encoded.
    let out =
        env.cmd().args(["-f", "escapes.jsonl", "--json", "show", "3e5ca9e2"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("\\u001b["));
}

/// A file with no JSON record at all (plain text, a binary) has no valid header: exit 3 for
/// every command, as `fsck` calls it `bad-header`; a file of blank lines is an empty session.
#[test]
fn a_file_of_no_json_records_has_no_header() {
    let env = TestEnv::new();
    env.write("plain.txt", "hello world\nplain text\n");
    for command in [&["log"][..], &["tree"], &["stats"], &["show", "@"], &["context"]] {
        let out = env.run(&[&["-f", "plain.txt"], command].concat());
        assert!(out.ends_with("error: plain.txt:1: no valid session header (no line of the file is a JSON record); `sesstree fsck --repair` restores one\n[exit status: 3]\n"), "{command:?}: {out}");
    }
    env.write("blank.jsonl", "\n\n");
    assert_snapshot!(env.run(&["-f", "blank.jsonl", "log"]), @"");
}
