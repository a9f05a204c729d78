//! Tests for `sesstree fsck` and `fsck --repair`: one test per problem kind, each also
//! repairing the file into a copy that passes fsck and keeps every other entry.

use crate::common::TestEnv;

const H: &str =
    r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#;

/// A user message with this id and parent.
fn m(id: &str, parent: Option<&str>) -> String {
    let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
    format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"{id}"}}}}"#
    )
}

fn lines(lines: &[&str]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Repairs `name` into `fixed.jsonl`, checks that the copy passes fsck, and returns the
/// report followed by the copy.
fn repair(env: &TestEnv, name: &str, extra: &[&str]) -> String {
    let mut args = vec!["fsck", "--repair", "-o", "fixed.jsonl", name];
    args.extend_from_slice(extra);
    let report = env.run(&args);
    assert_eq!(env.run(&["fsck", "fixed.jsonl"]), "fixed.jsonl: ok\n");
    format!(
        "{report}------- fixed.jsonl -------\n{}",
        String::from_utf8(env.read("fixed.jsonl")).unwrap()
    )
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn sound_files_and_directories() {
    let env = TestEnv::new();
    let good = lines(&[H, &m("a", None), &m("b", Some("a"))]);
    env.write("one.jsonl", &good);
    std::fs::create_dir_all(env.path().join("dir/sub")).unwrap();
    env.write("dir/two.jsonl", &good);
    env.write("dir/sub/three.jsonl", &good);
    env.write("dir/notes.txt", "not a session");
    insta::assert_snapshot!(env.run(&["fsck", "one.jsonl", "dir"]), @"
    one.jsonl: ok
    dir/sub/three.jsonl: ok
    dir/two.jsonl: ok
    ");
    insta::assert_snapshot!(env.run(&["fsck", "--json", "one.jsonl"]), @r#"{"file":"one.jsonl","ok":true,"problems":[]}"#);
    insta::assert_snapshot!(env.run(&["-f", "one.jsonl", "fsck"]), @"one.jsonl: ok");
}

/// Issue 44: a directory without sessions is named on stderr, not passed over in silence; the
/// exit status stays 0 (nothing has a problem).
#[test]
fn a_directory_without_sessions_is_named() {
    let env = TestEnv::new();
    env.write("one.jsonl", lines(&[H, &m("a", None)]));
    std::fs::create_dir_all(env.path().join("empty/sub")).unwrap();
    env.write("empty/notes.txt", "not a session");
    insta::assert_snapshot!(env.run(&["fsck", "empty", "one.jsonl"]), @"
    one.jsonl: ok
    ------- stderr -------
    note: no sessions in empty
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots Unix error texts")]
fn several_files_in_input_order() {
    let env = TestEnv::new();
    env.write("good.jsonl", lines(&[H, &m("a", None)]));
    env.write("bad.jsonl", lines(&[H, &m("a", Some("gone")), "{oops"]));
    insta::assert_snapshot!(env.run(&["fsck", "good.jsonl", "bad.jsonl", "missing.jsonl", "good.jsonl"]), @"
    good.jsonl: ok
    bad.jsonl:2: missing-parent: parent gone of entry a not found; the entry counts as a root
    bad.jsonl:3: unparseable: unparseable line: key must be a string at line 1 column 2
    missing.jsonl: unreadable: No such file or directory (os error 2)
    good.jsonl: ok
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.run(&["fsck", "--json", "bad.jsonl", "missing.jsonl"]), @r#"
    {"file":"bad.jsonl","ok":false,"problems":[{"kind":"missing-parent","line":2,"id":"a","message":"parent gone of entry a not found; the entry counts as a root"},{"kind":"unparseable","line":3,"id":null,"message":"unparseable line: key must be a string at line 1 column 2"}]}
    {"file":"missing.jsonl","ok":false,"problems":[{"kind":"unreadable","line":null,"id":null,"message":"No such file or directory (os error 2)"}]}
    [exit status: 1]
    "#);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots Unix absolute paths, which Windows puts on a drive")]
fn empty() {
    let env = TestEnv::new();
    env.write("f.jsonl", "");
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl: empty: the file is empty: it holds no session header
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &["--cwd", "/proj"]), @r#"
    f.jsonl: empty: the file is empty: it holds no session header
    repaired copy written to fixed.jsonl:
      file: restored-header: restored the missing session header (id 019ca945-0a00-7716-a104-d9866d113a7e, cwd /proj)
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"019ca945-0a00-7716-a104-d9866d113a7e","timestamp":"2026-03-01T12:00:00.000Z","cwd":"/proj"}
    "#);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots Unix absolute paths, which Windows puts on a drive")]
fn bad_header() {
    let env = TestEnv::new();
    env.write("f.jsonl", lines(&[&m("a", None), &m("b", Some("a"))]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:1: bad-header: no valid session header: the first record is of type 'message', not 'session'
    [exit status: 1]
    ");
    // Restoring a header needs its working directory.
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "fixed.jsonl", "f.jsonl"]), @"
    ------- stderr -------
    error: f.jsonl: the session header is missing; give --cwd DIR for the header to restore
    [exit status: 2]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &["--cwd", "/proj"]), @r#"
    f.jsonl:1: bad-header: no valid session header: the first record is of type 'message', not 'session'
    repaired copy written to fixed.jsonl:
      line 1: restored-header: restored the missing session header (id 019b76da-abe8-7716-a104-d9866d113a7e, cwd /proj)
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"019b76da-abe8-7716-a104-d9866d113a7e","timestamp":"2026-01-01T00:00:01.000Z","cwd":"/proj"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    "#);
    // A header that only lacks its id keeps everything else.
    env.write("g.jsonl", lines(&[r#"{"type":"session","version":3,"cwd":"/x"}"#, &m("a", None)]));
    insta::assert_snapshot!(env.run(&["fsck", "g.jsonl"]), @"
    g.jsonl:1: bad-header: no valid session header: the header has no string id
    g.jsonl:1: no-id: entry has no id
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "g.jsonl", &["--force"]), @r#"
    g.jsonl:1: bad-header: no valid session header: the header has no string id
    g.jsonl:1: no-id: entry has no id
    repaired copy written to fixed.jsonl:
      line 1: fixed-header: the session header had no string id; gave it the id 019b76da-abe8-7716-a104-d9866d113a7e
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"019b76da-abe8-7716-a104-d9866d113a7e","cwd":"/x"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    "#);
}

#[test]
fn version_too_new() {
    let env = TestEnv::new();
    env.write("f.jsonl", lines(&[r#"{"type":"session","version":9,"id":"s"}"#, &m("a", None)]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:1: version-too-new: session version 9 is newer than this sesstree understands
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "fixed.jsonl", "f.jsonl"]), @"
    ------- stderr -------
    error: f.jsonl: session version 9 is newer than this sesstree understands (4)
    [exit status: 6]
    ");
    assert!(!env.path().join("fixed.jsonl").exists());
}

#[test]
fn unparseable() {
    let env = TestEnv::new();
    env.write("f.jsonl", lines(&[H, &m("a", None), "{not json", &m("b", Some("a"))]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: unparseable: unparseable line: key must be a string at line 1 column 2
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: unparseable: unparseable line: key must be a string at line 1 column 2
    repaired copy written to fixed.jsonl:
      line 3: dropped-line: dropped an unparseable line: {not json
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    "#);
}

#[test]
fn truncated() {
    let env = TestEnv::new();
    env.write("f.jsonl", format!("{H}\n{}\n{{\"type\":\"message\",\"id\":\"b", m("a", None)));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: truncated: truncated last line: EOF while parsing a string at line 1 column 25
    f.jsonl:3: no-final-newline: the file does not end with a newline
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: truncated: truncated last line: EOF while parsing a string at line 1 column 25
    f.jsonl:3: no-final-newline: the file does not end with a newline
    repaired copy written to fixed.jsonl:
      line 3: dropped-line: dropped the truncated last line: {"type":"message","id":"b
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    "#);
}

#[test]
fn not_an_object() {
    let env = TestEnv::new();
    env.write("f.jsonl", lines(&[H, &m("a", None), "[1,2,3]", &m("b", Some("a"))]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: not-an-object: record is not a JSON object
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: not-an-object: record is not a JSON object
    repaired copy written to fixed.jsonl:
      line 3: dropped-line: dropped a record that is not a JSON object: [1,2,3]
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    "#);
}

#[test]
fn no_id() {
    let env = TestEnv::new();
    let custom = r#"{"type":"custom","customType":"x","data":{},"parentId":"a","timestamp":"2026-01-01T00:00:02.000Z"}"#;
    env.write("f.jsonl", lines(&[H, &m("a", None), custom]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: no-id: entry has no id
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: no-id: entry has no id
    repaired copy written to fixed.jsonl:
      line 3: added-id: the entry had no id: gave it 15780b2e
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"custom","id":"15780b2e","customType":"x","data":{},"parentId":"a","timestamp":"2026-01-01T00:00:02.000Z"}
    "#);
}

#[test]
fn duplicate_id() {
    let env = TestEnv::new();
    // The second `a` was appended after `b`; `c` and the label came after both.
    let label = r#"{"type":"label","id":"l","parentId":"c","timestamp":"2026-01-01T00:00:02.000Z","targetId":"a","label":"here"}"#;
    env.write(
        "f.jsonl",
        lines(&[
            H,
            &m("a", None),
            &m("b", Some("a")),
            &m("a", Some("b")),
            &m("c", Some("a")),
            label,
        ]),
    );
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:4: duplicate-id: duplicate id a (first on line 2); the later entry wins
    f.jsonl:4: cycle: parent cycle through entry a; broken here, the entry counts as a root
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:4: duplicate-id: duplicate id a (first on line 2); the later entry wins
    f.jsonl:4: cycle: parent cycle through entry a; broken here, the entry counts as a root
    repaired copy written to fixed.jsonl:
      line 4: renamed-duplicate: duplicate id a (first on line 2): renamed to 15780b2e
      line 5: repointed: parentId a now names 15780b2e (line 4), the entry it meant when written
      line 6: repointed: targetId a now names 15780b2e (line 4)
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    {"type":"message","id":"15780b2e","parentId":"b","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"c","parentId":"15780b2e","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"c"}}
    {"type":"label","id":"l","parentId":"c","timestamp":"2026-01-01T00:00:02.000Z","targetId":"15780b2e","label":"here"}
    "#);
    insta::assert_snapshot!(env.run(&["-f", "fixed.jsonl", "tree", "--filter", "all"]), @"
    • a user: a
    • b user: b
    • 15780b2e [here] user: a
    • c user: c ← active
    l [label: here]
    ");
}

#[test]
fn missing_parent() {
    let env = TestEnv::new();
    env.write("f.jsonl", lines(&[H, &m("a", None), &m("b", Some("lost")), &m("c", Some("b"))]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: missing-parent: parent lost of entry b not found; the entry counts as a root
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: missing-parent: parent lost of entry b not found; the entry counts as a root
    repaired copy written to fixed.jsonl:
      line 3: re-rooted: parent lost is not in the file; the entry is now a root
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    {"type":"message","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"c"}}
    "#);
}

/// pi 1.6 `getTree` draws a self-parented entry as a root, but `getBranch` and the context it
/// resumes from follow `parentId` for ever through it (out of memory): a problem, whose repair
/// makes the entry a root.
#[test]
fn self_parent() {
    let env = TestEnv::new();
    env.write("f.jsonl", lines(&[H, &m("a", None), &m("b", Some("b")), &m("c", Some("b"))]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: self-parent: entry b is its own parent; the entry counts as a root, but pi loops for ever on a path through it
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: self-parent: entry b is its own parent; the entry counts as a root, but pi loops for ever on a path through it
    repaired copy written to fixed.jsonl:
      line 3: re-rooted: parentId b was the entry's own id; set to null
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    {"type":"message","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"c"}}
    "#);
}

#[test]
fn cycle() {
    let env = TestEnv::new();
    env.write(
        "f.jsonl",
        lines(&[H, &m("a", Some("c")), &m("b", Some("a")), &m("c", Some("b")), &m("d", Some("c"))]),
    );
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:4: cycle: parent cycle through entry c; broken here, the entry counts as a root
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:4: cycle: parent cycle through entry c; broken here, the entry counts as a root
    repaired copy written to fixed.jsonl:
      line 4: broke-cycle: parent cycle through c: broken here, the entry is now a root
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":"c","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    {"type":"message","id":"c","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"c"}}
    {"type":"message","id":"d","parentId":"c","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"d"}}
    "#);
}

#[test]
fn label_target_missing() {
    let env = TestEnv::new();
    let label = r#"{"type":"label","id":"l","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","targetId":"gone","label":"x"}"#;
    env.write("f.jsonl", lines(&[H, &m("a", None), label, &m("b", Some("l"))]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: label-target-missing: label l is on entry gone, which is not in the file
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: label-target-missing: label l is on entry gone, which is not in the file
    repaired copy written to fixed.jsonl:
      line 3: dropped-label: dropped the label on gone, which is not in the file
      line 4: relinked: its parent, the label l, was dropped; it now hangs under a
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    "#);
}

#[test]
fn compaction_off_path() {
    let env = TestEnv::new();
    let compaction = r#"{"type":"compaction","id":"k","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z","summary":"s","firstKeptEntryId":"x","tokensBefore":10}"#;
    env.write(
        "f.jsonl",
        lines(&[H, &m("a", None), &m("x", Some("a")), &m("b", Some("a")), compaction]),
    );
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:5: compaction-off-path: compaction k keeps entries from x, which is not on its path
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:5: compaction-off-path: compaction k keeps entries from x, which is not on its path
    repaired copy written to fixed.jsonl:
      line 5: set-first-kept: firstKeptEntryId x is not on the compaction's path; set to the compaction's own id (nothing before it is kept, as the agents already read it)
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"x","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"x"}}
    {"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    {"type":"compaction","id":"k","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z","summary":"s","firstKeptEntryId":"k","tokensBefore":10}
    "#);
}

/// A `fromId` that is no entry id (here a number) is damage; one naming an entry that is not in
/// the file is not: `prune` removes the branch a summary came from, and the agents only print
/// `fromId` (pi 1.6.0, oh-my-pi 18.2.3).
#[test]
fn unknown_from_id() {
    let env = TestEnv::new();
    let summary = |from: &str| {
        format!(
            r#"{{"type":"branch_summary","id":"bs","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","fromId":{from},"summary":"tried something"}}"#
        )
    };
    env.write("pruned.jsonl", lines(&[H, &m("a", None), &summary(r#""gone""#)]));
    insta::assert_snapshot!(env.run(&["fsck", "pruned.jsonl"]), @"pruned.jsonl: ok");
    env.write("f.jsonl", lines(&[H, &m("a", None), &summary("7")]));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:3: unknown-from-id: branch summary bs comes from 7, which is not an entry id
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:3: unknown-from-id: branch summary bs comes from 7, which is not an entry id
    repaired copy written to fixed.jsonl:
      line 3: set-from-id: fromId 7 is not an entry id; set to its parent a
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"branch_summary","id":"bs","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","fromId":"a","summary":"tried something"}
    "#);
}

#[test]
fn no_final_newline() {
    let env = TestEnv::new();
    env.write("f.jsonl", format!("{H}\n{}", m("a", None)));
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"
    f.jsonl:2: no-final-newline: the file does not end with a newline
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "f.jsonl", &[]), @r#"
    f.jsonl:2: no-final-newline: the file does not end with a newline
    repaired copy written to fixed.jsonl:
      line 2: added-newline: added the missing final newline
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    "#);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots Unix error texts")]
fn unreadable() {
    let env = TestEnv::new();
    insta::assert_snapshot!(env.run(&["fsck", "nowhere.jsonl"]), @"
    nowhere.jsonl: unreadable: No such file or directory (os error 2)
    [exit status: 1]
    ");
}

#[test]
fn a_v1_file_is_sound_and_repairs_by_migrating() {
    let env = TestEnv::new();
    env.fixture("maint-pi-v1.jsonl");
    env.write(
        "v1.jsonl",
        lines(&[
            r#"{"type":"session","id":"s","cwd":"/w"}"#,
            r#"{"type":"message","message":{"role":"user","content":"hi"}}"#,
            "{torn",
        ]),
    );
    insta::assert_snapshot!(env.run(&["fsck", "maint-pi-v1.jsonl", "v1.jsonl"]), @"
    maint-pi-v1.jsonl: ok
    v1.jsonl:3: unparseable: unparseable line: key must be a string at line 1 column 2
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "v1.jsonl", &[]), @r#"
    v1.jsonl:3: unparseable: unparseable line: key must be a string at line 1 column 2
    repaired copy written to fixed.jsonl:
      line 1: migrated: migrated from version 1 to 3
      line 3: dropped-line: dropped an unparseable line: {torn
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"session","version":3,"id":"s","cwd":"/w"}
    {"type":"message","id":"a4137a9d","parentId":null,"message":{"role":"user","content":"hi"}}
    "#);
}

#[test]
fn repair_json_and_stdout() {
    let env = TestEnv::new();
    env.write("f.jsonl", format!("{H}\n{}\n{{oops\n{}", m("a", None), m("b", Some("zz"))));
    insta::assert_snapshot!(env.run(&["fsck", "--json", "--repair", "-o", "fixed.jsonl", "f.jsonl"]), @r#"
    {"file":"f.jsonl","ok":false,"problems":[{"kind":"unparseable","line":3,"id":null,"message":"unparseable line: key must be a string at line 1 column 2"},{"kind":"missing-parent","line":4,"id":"b","message":"parent zz of entry b not found; the entry counts as a root"},{"kind":"no-final-newline","line":4,"id":null,"message":"the file does not end with a newline"}],"output":"fixed.jsonl","changes":[{"action":"dropped-line","line":3,"id":null,"message":"dropped an unparseable line: {oops"},{"action":"re-rooted","line":4,"id":"b","message":"parent zz is not in the file; the entry is now a root"},{"action":"added-newline","line":4,"id":null,"message":"added the missing final newline"}]}
    [exit status: 1]
    "#);
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "-", "f.jsonl"]), @r#"
    {"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
    {"type":"message","id":"b","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"b"}}
    ------- stderr -------
    f.jsonl:3: unparseable: unparseable line: key must be a string at line 1 column 2
    f.jsonl:4: missing-parent: parent zz of entry b not found; the entry counts as a root
    f.jsonl:4: no-final-newline: the file does not end with a newline
    repaired copy written to standard output:
      line 3: dropped-line: dropped an unparseable line: {oops
      line 4: re-rooted: parent zz is not in the file; the entry is now a root
      line 4: added-newline: added the missing final newline
    [exit status: 1]
    "#);
    // A sound file is copied as it is, and fsck says so.
    let good = lines(&[H, &m("a", None)]);
    env.write("good.jsonl", &good);
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "copy.jsonl", "good.jsonl"]), @"
    good.jsonl: ok
    nothing to repair; copied to copy.jsonl
    ");
    assert_eq!(env.read("copy.jsonl"), good.as_bytes());
}

#[test]
fn repair_refusals() {
    let env = TestEnv::new();
    let bad = format!("{H}\n{}", m("a", None));
    env.write("f.jsonl", &bad);
    env.write("taken.jsonl", "keep me\n");
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "f.jsonl", "f.jsonl"]), @"
    ------- stderr -------
    error: f.jsonl: -o names the file itself; --repair never writes in place
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "./f.jsonl", "f.jsonl"]), @"
    ------- stderr -------
    error: ./f.jsonl: -o names the file itself; --repair never writes in place
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "taken.jsonl", "f.jsonl"]), @"
    ------- stderr -------
    error: taken.jsonl: already exists (use --force to overwrite)
    [exit status: 5]
    ");
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "x.jsonl", "f.jsonl", "taken.jsonl"]), @"
    ------- stderr -------
    error: --repair takes exactly one file
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "f.jsonl"]), @"
    ------- stderr -------
    error: the following required arguments were not provided:
      --output <PATH>

    Usage: sesstree fsck --repair --output <PATH> <PATH>...

    For more information, try '--help'.
    [exit status: 2]
    ");
    assert_eq!(env.read("f.jsonl"), bad.as_bytes());
    assert_eq!(env.read("taken.jsonl"), b"keep me\n");
    env.run(&["fsck", "--repair", "-o", "taken.jsonl", "--force", "f.jsonl"]);
    assert_eq!(env.read("taken.jsonl"), format!("{bad}\n").as_bytes());
}

#[test]
fn every_fixture_repairs_to_a_sound_copy() {
    let env = TestEnv::new();
    let dir = crate::common::fixtures();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    names.sort();
    let mut outcome = String::new();
    for name in &names {
        env.fixture(name);
        let out = format!("fixed-{name}");
        let output =
            env.cmd().args(["fsck", "--repair", "--cwd", "/w", "-o", &out, name]).output().unwrap();
        let status = output.status.code().unwrap_or(-1);
        let result = match status {
            0 => "sound".to_string(),
            1 => {
                assert_eq!(env.run(&["fsck", &out]), format!("{out}: ok\n"), "{name}");
                // Nothing but the dropped lines is lost: every other line is still there.
                let lines = |n: &str| String::from_utf8_lossy(&env.read(n)).lines().count();
                let report = String::from_utf8_lossy(&output.stdout).into_owned();
                let dropped = report.matches(": dropped-").count();
                let added = report.matches(": restored-header:").count();
                assert!(lines(&out) + dropped >= lines(name) + added, "{name}: {report}");
                format!("repaired ({} changes)", report.matches("\n  ").count())
            }
            n => format!("refused, exit {n}"),
        };
        outcome.push_str(&format!("{name}: {result}\n"));
    }
    insta::assert_snapshot!(outcome, @"
    all-types.jsonl: sound
    archive.jsonl: sound
    bad-header.jsonl: repaired (1 changes)
    blank-lines.jsonl: sound
    blank-only.jsonl: repaired (1 changes)
    bom.jsonl: sound
    branch-omp-noslot.jsonl: sound
    branch-omp.jsonl: sound
    branch-pi.jsonl: sound
    branched.jsonl: sound
    compactions.jsonl: repaired (1 changes)
    cycle.jsonl: repaired (2 changes)
    dangling-parent.jsonl: repaired (1 changes)
    diff-pi-fork.jsonl: sound
    diff.jsonl: sound
    duplicate-ids.jsonl: repaired (2 changes)
    empty.jsonl: repaired (1 changes)
    escapes.jsonl: sound
    future-version.jsonl: refused, exit 6
    images-omp.jsonl: sound
    invalid-utf8.jsonl: sound
    labeled.jsonl: repaired (1 changes)
    large-session.jsonl: sound
    linear.jsonl: sound
    maint-pi-v1.jsonl: sound
    markers.jsonl: sound
    missing-header.jsonl: repaired (1 changes)
    no-final-newline.jsonl: repaired (1 changes)
    non-object.jsonl: repaired (4 changes)
    odd-fields.jsonl: sound
    omp-title.jsonl: sound
    pi-retain-none.jsonl: sound
    pi-system.jsonl: sound
    pi-usage.jsonl: sound
    pi-v7-plain.jsonl: sound
    pi.jsonl: sound
    prune-labels.jsonl: sound
    prune.jsonl: sound
    roles.jsonl: sound
    selector.jsonl: sound
    title-nopad.jsonl: repaired (1 changes)
    torn-last-line.jsonl: repaired (1 changes)
    unparseable.jsonl: repaired (1 changes)
    v1.jsonl: sound
    v2-hook.jsonl: sound
    v4.jsonl: sound
    version-string.jsonl: sound
    writers-omp.jsonl: sound
    writers-pi.jsonl: sound
    writers-slot.jsonl: sound
    ");
}

/// `--quiet` prints the problems only, for a directory of mostly sound sessions.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn quiet_prints_the_problems_only() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join("d")).unwrap();
    for name in ["linear.jsonl", "torn-last-line.jsonl", "pi.jsonl"] {
        std::fs::copy(crate::common::fixtures().join(name), env.path().join("d").join(name))
            .unwrap();
    }
    insta::assert_snapshot!(env.run(&["fsck", "--quiet", "d"]), @"
    d/torn-last-line.jsonl:5: truncated: truncated last line: EOF while parsing a string at line 1 column 173
    d/torn-last-line.jsonl:5: no-final-newline: the file does not end with a newline
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.run(&["fsck", "-q", "d/linear.jsonl"]), @"");
}

/// pi 1.6 `appendCompaction(summary, null, …)` writes a compaction that keeps nothing with its
/// own id as `firstKeptEntryId` (CHANGES R2): sound, and a repair leaves it as it is.
#[test]
fn a_pi_compaction_that_keeps_nothing_is_sound() {
    let env = TestEnv::new();
    env.fixture("pi-retain-none.jsonl");
    insta::assert_snapshot!(env.run(&["fsck", "pi-retain-none.jsonl"]), @"pi-retain-none.jsonl: ok");
    insta::assert_snapshot!(env.run(&["fsck", "--repair", "-o", "fixed.jsonl", "pi-retain-none.jsonl"]), @"
    pi-retain-none.jsonl: ok
    nothing to repair; copied to fixed.jsonl
    ");
    assert_eq!(env.read("fixed.jsonl"), env.read("pi-retain-none.jsonl"));
}

/// A first line of type `title` without `pad` is the title slot (CHANGES R7): read as one, and
/// repaired into the 256-byte slot oh-my-pi 18.2.3 resumes (its loader refuses the file
/// before), not given a second header.
#[test]
fn a_title_slot_without_pad_is_the_slot() {
    let env = TestEnv::new();
    env.fixture("title-nopad.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "title-nopad.jsonl", "name"]), @"Hand made");
    insta::assert_snapshot!(env.run(&["fsck", "title-nopad.jsonl"]), @"
    title-nopad.jsonl:1: unpadded-title-slot: the title slot has no pad: oh-my-pi lists the session but cannot resume it
    [exit status: 1]
    ");
    insta::assert_snapshot!(repair(&env, "title-nopad.jsonl", &[]).replace(&" ".repeat(149), "PAD"), @r#"
    title-nopad.jsonl:1: unpadded-title-slot: the title slot has no pad: oh-my-pi lists the session but cannot resume it
    repaired copy written to fixed.jsonl:
      line 1: padded-title-slot: wrote the title slot again with its pad (256 bytes)
    [exit status: 1]
    ------- fixed.jsonl -------
    {"type":"title","v":1,"title":"Hand made","source":"user","updatedAt":"2026-01-01T00:00:00.000Z","pad":"PAD"}
    {"type":"session","version":3,"id":"019b0000-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
    "#);
    let fixed = env.read("fixed.jsonl");
    assert_eq!(fixed.iter().position(|&b| b == b'\n'), Some(255), "a 256-byte slot line");
    let source = env.read("title-nopad.jsonl");
    let rest = |b: &[u8]| b[b.iter().position(|&c| c == b'\n').unwrap()..].to_vec();
    assert_eq!(rest(&fixed), rest(&source), "the header and entries byte for byte");
}
