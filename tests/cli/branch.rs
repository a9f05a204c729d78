//! Tests for `branch`: a new session file forked from the history before a user message.
//!
//! Fixtures: branch-omp.jsonl (title slot; a label between two messages, a second label and a
//! stale archive record on the path, labels cleared and set again on a side branch),
//! branch-omp-noslot.jsonl (an older oh-my-pi file with its name in the header),
//! branch-pi.jsonl (pi-mono: `session_info`, `model_change {provider, modelId}`).

use std::path::PathBuf;

use serde_json::Value;

use crate::checkout::script;
use crate::common::TestEnv;

/// The file the pinned clock and seed name: `<SESSTREE_NOW as a stamp>_<UUIDv7>.jsonl`.
fn new_files(env: &TestEnv) -> Vec<PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(env.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name().unwrap().to_str().unwrap().starts_with("2026-03-01T12-00-00-000Z_")
        })
        .collect();
    found.sort();
    found
}

fn the_new_file(env: &TestEnv) -> PathBuf {
    let found = new_files(env);
    assert_eq!(found.len(), 1, "{found:?}");
    found.into_iter().next().unwrap()
}

fn text_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8(bytes.to_vec()).unwrap().lines().map(String::from).collect()
}

fn json_ids(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn branch_before_a_user_message() {
    let env = TestEnv::new();
    let src = env.fixture("branch-omp.jsonl");
    let before = std::fs::read(&src).unwrap();
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]), @"
    third prompt
    with two lines
    ------- stderr -------
    Branched to $TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl
    ");
    assert_eq!(std::fs::read(&src).unwrap(), before, "the source is never touched");

    let new = the_new_file(&env);
    let name = new.file_name().unwrap().to_str().unwrap();
    let (stamp, rest) = name.split_once('_').unwrap();
    assert_eq!(stamp, "2026-03-01T12-00-00-000Z");
    let id = rest.strip_suffix(".jsonl").unwrap();
    assert_eq!(&id[14..15], "7", "a UUIDv7 session id: {id}");

    let bytes = std::fs::read(&new).unwrap();
    let text = String::from_utf8(bytes.clone())
        .unwrap()
        .replace(id, "<ID>")
        .replace(&env.path().display().to_string(), "$TMP");
    insta::assert_snapshot!(text, @r#"
    {"type":"title","v":1,"title":"Fix naming","source":"user","updatedAt":"2026-03-01T12:00:00.000Z","pad":"                                                                                                                                                    "}
    {"type":"session","version":3,"id":"<ID>","timestamp":"2026-03-01T12:00:00.000Z","cwd":"/home/u/pi","title":"Fix naming","titleSource":"user","parentSession":"$TMP/branch-omp.jsonl","additionalDirectories":["/home/u/lib"]}
    {"type":"message","id":"aaaa0001","parentId":null,"timestamp":"2026-02-16T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"first prompt"}],"timestamp":1771236001000}}
    {"type":"message","id":"bbbb0001","parentId":"aaaa0001","timestamp":"2026-02-16T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"first answer"}],"provider":"anthropic","model":"claude","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0,"total":0.000105}},"stopReason":"stop","timestamp":1771236002000}}
    {"type":"message","id":"aaaa0002","parentId":"bbbb0001","timestamp":"2026-02-16T10:00:04.000Z","message":{"role":"user","content":"second prompt","timestamp":1771236004000},"zeta":{"b":1,"a":[2,1]},"alpha":true}
    {"type":"message","id":"bbbb0002","parentId":"aaaa0002","timestamp":"2026-02-16T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"second answer"}],"provider":"anthropic","model":"claude","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0,"total":0.000105}},"stopReason":"stop","timestamp":1771236005000}}
    {"type":"archive","id":"eeee0002","parentId":"bbbb0002","timestamp":"2026-02-16T10:00:08.000Z","targetId":"bbbb0001","archived":false}
    {"type":"label","id":"ae175332","parentId":"eeee0002","timestamp":"2026-03-01T12:00:00.001Z","targetId":"bbbb0002","label":"answer"}
    {"type":"label","id":"ecb8ad47","parentId":"ae175332","timestamp":"2026-03-01T12:00:00.002Z","targetId":"aaaa0001","label":"again"}
    "#);

    // Every kept line that was not re-linked is the source's line, byte for byte.
    let src_lines = text_lines(&before);
    let new_lines = text_lines(&bytes);
    for kept in [2, 3, 6] {
        assert!(new_lines.contains(&src_lines[kept]), "line {} copied", kept + 1);
    }
    assert_eq!(new_lines[0].len(), 255, "the title slot keeps its 256 bytes");
    let reloaded = sesstree::Session::load(&new).unwrap();
    assert!(reloaded.slot.is_some() && !reloaded.names_like_pi());
}

#[test]
fn the_branch_reloads_cleanly_to_the_source_path() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]);
    let new = the_new_file(&env);
    let new = new.to_str().unwrap();
    // --strict fails on any load diagnostic.
    let out = env.run(&["-f", new, "--strict", "--json", "log"]);
    assert!(!out.contains("exit status"), "{out}");
    let source = env.run(&["-f", "branch-omp.jsonl", "--json", "log", "aaaa0003^"]);
    assert_eq!(json_ids(&out), json_ids(&source));
    assert_eq!(json_ids(&out), ["bbbb0002", "aaaa0002", "bbbb0001", "aaaa0001"]);
    // The labels in effect on kept entries, re-created in the source's map order.
    insta::assert_snapshot!(env.run(&["-f", new, "log", "--filter", "all", "--reverse"]), @"
    aaaa0001 message 2026-02-16 10:00:01 +0000 [again] user: first prompt
    bbbb0001 message 2026-02-16 10:00:02 +0000 assistant: first answer
    aaaa0002 message 2026-02-16 10:00:04 +0000 user: second prompt
    bbbb0002 message 2026-02-16 10:00:05 +0000 [answer] assistant: second answer
    eeee0002 archive 2026-02-16 10:00:08 +0000 [restored: bbbb0001]
    ");
    insta::assert_snapshot!(env.run(&["-f", new, "tree", "--filter", "all"]), @"
    • aaaa0001 [again] user: first prompt
    • bbbb0001 assistant: first answer
    • aaaa0002 user: second prompt
    • bbbb0002 [answer] assistant: second answer
    • eeee0002 [restored: bbbb0001] ← active
    ae175332 [label: answer]
    ecb8ad47 [label: again]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn json_output() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    let out = env.run(&["-f", "branch-omp.jsonl", "--json", "branch", "aaaa0003"]);
    insta::assert_snapshot!(out, @r#"{"path":"$TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl","sessionId":"019ca945-0a00-7716-a104-d9866d113a7e","parentSession":"$TMP/branch-omp.jsonl","editorText":"third prompt\nwith two lines"}"#);
    let v: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let path =
        PathBuf::from(v["path"].as_str().unwrap().replace("$TMP", env.path().to_str().unwrap()));
    assert_eq!(path, the_new_file(&env));
    assert!(path.file_name().unwrap().to_str().unwrap().contains(v["sessionId"].as_str().unwrap()));
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_root_prompt_gives_what_oh_my_pi_writes_for_a_new_session() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0001"]), @"
    first prompt
    ------- stderr -------
    Branched to $TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl
    ");
    let new = the_new_file(&env);
    let text = std::fs::read_to_string(&new).unwrap();
    let id = new.file_stem().unwrap().to_str().unwrap().split_once('_').unwrap().1.to_string();
    // What oh-my-pi's newSession and setSessionName leave: slot, header, title_change.
    insta::assert_snapshot!(text.replace(&id, "<ID>").replace(&env.path().display().to_string(), "$TMP"), @r#"
    {"type":"title","v":1,"title":"Fix naming","source":"user","updatedAt":"2026-03-01T12:00:00.000Z","pad":"                                                                                                                                                    "}
    {"type":"session","version":3,"id":"<ID>","timestamp":"2026-03-01T12:00:00.000Z","cwd":"/home/u/pi","parentSession":"$TMP/branch-omp.jsonl","additionalDirectories":["/home/u/lib"],"title":"Fix naming","titleSource":"user"}
    {"type":"title_change","id":"ae175332","parentId":null,"timestamp":"2026-03-01T12:00:00.000Z","title":"Fix naming","source":"user"}
    "#);
}

#[test]
fn the_source_must_be_a_user_message() {
    let env = TestEnv::new();
    let src = env.fixture("branch-omp.jsonl");
    let before = std::fs::read(&src).unwrap();
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "bbbb0002"]), @"
    ------- stderr -------
    error: branch source must be a user message; bbbb0002 is a message with role assistant
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "answer"]), @"
    ------- stderr -------
    error: branch source must be a user message; bbbb0002 is a message with role assistant
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "nope"]), @"
    ------- stderr -------
    error: no entry matches 'nope'
    [exit status: 4]
    ");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch"]), @"
    ------- stderr -------
    error: the following required arguments were not provided:
      <REV|--at <REV>>

    Usage: sesstree fork <REV|--at <REV>>

    For more information, try '--help'.
    [exit status: 2]
    ");
    assert!(new_files(&env).is_empty());
    assert_eq!(std::fs::read(&src).unwrap(), before);
}

/// pi 1.6 `fork(entryId, {position: "at"})`: the new file keeps REV and its history.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn at_forks_up_to_and_including_rev() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "--json", "branch", "--at", "answer", "-o", "t.jsonl"]), @r#"{"path":"$TMP/t.jsonl","sessionId":"019ca945-0a00-7716-a104-d9866d113a7e","parentSession":"$TMP/branch-omp.jsonl","editorText":null}"#);
    insta::assert_snapshot!(env.run(&["-f", "t.jsonl", "--strict", "log", "--filter", "all", "--reverse"]), @"
    aaaa0001 message 2026-02-16 10:00:01 +0000 [again] user: first prompt
    bbbb0001 message 2026-02-16 10:00:02 +0000 assistant: first answer
    aaaa0002 message 2026-02-16 10:00:04 +0000 user: second prompt
    bbbb0002 message 2026-02-16 10:00:05 +0000 [answer] assistant: second answer
    ");
    // A user message with --at is kept, and nothing goes to the editor.
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "--at", "aaaa0003", "-o", "u.jsonl"]), @"
    ------- stderr -------
    Branched to $TMP/u.jsonl
    ");
    insta::assert_snapshot!(env.run(&["-f", "u.jsonl", "log", "-n", "1"]), @"aaaa0003 message 2026-02-16 10:00:09 +0000 user: third prompt with two lines");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "--at", "aaaa0003"]), @"
    ------- stderr -------
    error: the argument '[REV]' cannot be used with '--at <REV>'

    Usage: sesstree fork <REV|--at <REV>>

    For more information, try '--help'.
    [exit status: 2]
    ");
    // --through, its name before pi named the position, still works (hidden).
    env.run(&["-f", "branch-omp.jsonl", "branch", "--through", "aaaa0003", "-o", "v.jsonl"]);
    assert_eq!(text_lines(&env.read("v.jsonl"))[2..], text_lines(&env.read("u.jsonl"))[2..]);
    assert!(!env.run(&["branch", "--help"]).contains("--through"));
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn an_existing_target_needs_force() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    env.write("out.jsonl", "keep me\n");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "-o", "out.jsonl"]), @"
    ------- stderr -------
    error: $TMP/out.jsonl: already exists (use --force to overwrite)
    [exit status: 5]
    ");
    assert_eq!(env.read("out.jsonl"), b"keep me\n");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "-o", "out.jsonl", "--force"]), @"
    third prompt
    with two lines
    ------- stderr -------
    Branched to $TMP/out.jsonl
    ");
    assert!(env.read("out.jsonl").starts_with(br#"{"type":"title""#));
    // The default name is pinned in tests, so a second run meets the first one's file.
    env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]);
    let out = env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]);
    assert!(
        out.ends_with("already exists (use --force to overwrite)\n[exit status: 5]\n"),
        "{out}"
    );
    // No temporary file is left behind.
    let names: Vec<_> =
        std::fs::read_dir(env.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(names.iter().all(|n| !n.to_str().unwrap().ends_with(".tmp")), "{names:?}");
}

#[test]
#[cfg_attr(windows, ignore = "makes a symbolic link")]
fn refused_targets() {
    let env = TestEnv::new();
    let src = env.fixture("branch-omp.jsonl");
    let before = std::fs::read(&src).unwrap();
    std::fs::create_dir(env.path().join("dir")).unwrap();
    crate::common::symlink(env.path().join("elsewhere.jsonl"), env.path().join("link.jsonl"));
    std::fs::hard_link(&src, env.path().join("hard.jsonl")).unwrap();
    let run =
        |o: &str| env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "-o", o, "--force"]);
    insta::assert_snapshot!(run("dir"), @"
    ------- stderr -------
    error: $TMP/dir: is a directory
    [exit status: 2]
    ");
    insta::assert_snapshot!(run("link.jsonl"), @"
    ------- stderr -------
    error: $TMP/link.jsonl: is a symbolic link; give the real path
    [exit status: 2]
    ");
    insta::assert_snapshot!(run("branch-omp.jsonl"), @"
    ------- stderr -------
    error: $TMP/branch-omp.jsonl: is the source session file; branch never overwrites it
    [exit status: 2]
    ");
    insta::assert_snapshot!(run("hard.jsonl"), @"
    ------- stderr -------
    error: $TMP/hard.jsonl: is the source session file; branch never overwrites it
    [exit status: 2]
    ");
    assert!(!env.path().join("elsewhere.jsonl").exists());
    assert_eq!(std::fs::read(&src).unwrap(), before);
}

#[test]
fn output_to_stdout() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    let out = env
        .cmd()
        .args(["-f", "branch-omp.jsonl", "branch", "aaaa0003", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "-o", "file.jsonl"]);
    assert_eq!(out.stdout, env.read("file.jsonl"), "the same bytes as the file");
    assert!(new_files(&env).is_empty());
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "--json", "branch", "aaaa0003", "-o", "-"]), @"
    ------- stderr -------
    error: --json and -o - both write to standard output; give -o a path
    [exit status: 2]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "Windows has no mode bits")]
fn the_new_file_copies_the_source_permissions() {
    let env = TestEnv::new();
    let src = env.fixture("branch-omp.jsonl");
    crate::common::set_mode(&src, 0o600);
    env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]);
    assert_eq!(crate::common::mode(&the_new_file(&env)), 0o600);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_pi_file_stays_a_pi_file() {
    let env = TestEnv::new();
    env.fixture("branch-pi.jsonl");
    // The session_info naming the file is on another branch, and pi 1.6 carries no name.
    insta::assert_snapshot!(env.run(&["-f", "branch-pi.jsonl", "branch", "aaaa0003", "-o", "b.jsonl"]), @"
    pi other branch
    ------- stderr -------
    Branched to $TMP/b.jsonl
    ");
    insta::assert_snapshot!(String::from_utf8(env.read("b.jsonl")).unwrap().replace(&env.path().display().to_string(), "$TMP"), @r#"
    {"type":"session","version":3,"id":"019ca945-0a00-7716-a104-d9866d113a7e","timestamp":"2026-03-01T12:00:00.000Z","cwd":"/home/u/pi-mono","parentSession":"$TMP/branch-pi.jsonl"}
    {"type":"model_change","id":"cccc0001","parentId":null,"timestamp":"2026-02-16T10:00:01.000Z","provider":"anthropic","modelId":"claude"}
    {"type":"message","id":"aaaa0001","parentId":"cccc0001","timestamp":"2026-02-16T10:00:02.000Z","message":{"role":"user","content":[{"type":"text","text":"pi prompt"}],"timestamp":1771236002000}}
    {"type":"message","id":"bbbb0001","parentId":"aaaa0001","timestamp":"2026-02-16T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"pi answer"}],"provider":"anthropic","model":"claude","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0,"total":0.000105}},"stopReason":"stop","timestamp":1771236003000}}
    "#);
    assert!(is_pi(&env, "b.jsonl"));
    // On the path: copied as any entry.
    env.run(&["-f", "branch-pi.jsonl", "branch", "--at", "cccc0002", "-o", "c.jsonl"]);
    let src = text_lines(&env.read("branch-pi.jsonl"));
    let c = text_lines(&env.read("c.jsonl"));
    assert_eq!(c[1..], src[1..7]);
    assert!(!c[0].contains("title"));
    assert!(is_pi(&env, "c.jsonl"));
    // A root prompt: the new session starts empty, and pi writes nothing until it holds a
    // message: nothing is written.
    env.write(
        "root.jsonl",
        [&src[0], &src[2]]
            .map(|l| format!("{l}\n"))
            .concat()
            .replace(r#""parentId":"cccc0001""#, r#""parentId":null"#),
    );
    insta::assert_snapshot!(env.run(&["-f", "root.jsonl", "branch", "aaaa0001", "-o", "r.jsonl"]), @"
    pi prompt
    ------- stderr -------
    note: the new session starts empty, and pi writes a session file only once it holds a message: no file is written; start the new session in the agent with the text above
    ");
    assert!(!env.path().join("r.jsonl").exists());
}

/// Whether sesstree reads a file in the temporary directory as pi's (SPEC `name`).
fn is_pi(env: &TestEnv, name: &str) -> bool {
    sesstree::Session::load(&env.path().join(name)).unwrap().names_like_pi()
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn an_omp_file_without_a_slot_gets_none() {
    let env = TestEnv::new();
    env.fixture("branch-omp-noslot.jsonl");
    env.run(&["-f", "branch-omp-noslot.jsonl", "branch", "aaaa0002", "-o", "b.jsonl"]);
    let lines = text_lines(&env.read("b.jsonl"));
    let src = text_lines(&env.read("branch-omp-noslot.jsonl"));
    assert!(lines[0].starts_with(r#"{"type":"session","version":3,"#), "{}", lines[0]);
    assert!(lines[0].contains(
        r#""cwd":"/home/u/old","title":"Old name","titleSource":"auto","parentSession":"#
    ));
    assert_eq!(lines[1..], src[1..4]);
    assert!(!is_pi(&env, "b.jsonl"));
    // Without a slot, a root prompt writes nothing: oh-my-pi before the slot, as pi, writes
    // a session at its first reply, and continues a header-only file wrongly.
    env.run(&["-f", "branch-omp-noslot.jsonl", "branch", "aaaa0001", "-o", "r.jsonl"]);
    assert!(!env.path().join("r.jsonl").exists());
    insta::assert_snapshot!(env.run(&["-f", "branch-omp-noslot.jsonl", "--json", "branch", "aaaa0001"]), @r#"{"path":null,"sessionId":null,"parentSession":"$TMP/branch-omp-noslot.jsonl","editorText":"hello"}"#);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_history_without_a_message_is_not_forked_into_a_file_without_a_slot() {
    let env = TestEnv::new();
    env.fixture("branch-pi.jsonl");
    // The history before aaaa0001 is the model_change alone.
    insta::assert_snapshot!(env.run(&["-f", "branch-pi.jsonl", "branch", "aaaa0001", "-o", "b.jsonl"]), @"
    ------- stderr -------
    error: nothing was written: the history to fork holds no user or assistant message, and pi writes a session file only once it holds one
    [exit status: 2]
    ");
    assert!(!env.path().join("b.jsonl").exists());
    // A user message without a reply is a file: pi 1.6 `_hasConversation` (0.73 waited for
    // an assistant message).
    insta::assert_snapshot!(env.run(&["-f", "branch-pi.jsonl", "branch", "--at", "aaaa0001", "-o", "c.jsonl"]), @"
    ------- stderr -------
    Branched to $TMP/c.jsonl
    ");
    let src = text_lines(&env.read("branch-pi.jsonl"));
    assert_eq!(text_lines(&env.read("c.jsonl"))[1..], src[1..3]);
}

#[test]
fn sources_a_branch_cannot_be_made_from() {
    let env = TestEnv::new();
    env.write("v1.jsonl", "{\"type\":\"session\",\"id\":\"s\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/\"}\n{\"type\":\"message\",\"timestamp\":\"2026-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n");
    env.write("empty.jsonl", "");
    env.fixture("branch-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "branch", "--through", "@"]), @"
    ------- stderr -------
    error: v1.jsonl: the file is version 1 (entries without ids); run `sesstree migrate` first
    [exit status: 3]
    ");
    env.fixture("future-version.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "future-version.jsonl", "branch", "--through", "@"]), @"
    ------- stderr -------
    error: future-version.jsonl: session version 9 is newer than this sesstree understands (4)
    [exit status: 6]
    ");
    insta::assert_snapshot!(env.run(&["-f", "empty.jsonl", "branch", "@"]), @"
    ------- stderr -------
    error: empty.jsonl: the file holds no session
    [exit status: 3]
    ");
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "branch", "aaaa0003"], env.read("branch-omp.jsonl")), @"
    ------- stderr -------
    error: branch needs the session file's path; it cannot read standard input
    [exit status: 2]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn damage_is_warned_about_and_strict_refuses() {
    let env = TestEnv::new();
    let mut text = String::from_utf8(
        std::fs::read(crate::common::fixtures().join("branch-omp.jsonl")).unwrap(),
    )
    .unwrap();
    text.push_str("{not json\n");
    env.write("d.jsonl", &text);
    insta::assert_snapshot!(env.run(&["-f", "d.jsonl", "--strict", "branch", "aaaa0003"]), @"
    ------- stderr -------
    error: d.jsonl:17: unparseable line: key must be a string at line 1 column 2
    [exit status: 3]
    ");
    assert!(new_files(&env).is_empty());
    insta::assert_snapshot!(env.run(&["-f", "d.jsonl", "branch", "aaaa0003", "-o", "b.jsonl"]), @"
    third prompt
    with two lines
    ------- stderr -------
    d.jsonl:17: warning: unparseable line: key must be a string at line 1 column 2
    Branched to $TMP/b.jsonl
    ");
}

#[test]
#[cfg_attr(windows, ignore = "makes a symbolic link")]
fn the_default_location_is_next_to_the_source() {
    let env = TestEnv::new();
    let sub = env.path().join("sessions/--home-u-pi--");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(crate::common::fixtures().join("branch-omp.jsonl"), sub.join("s.jsonl")).unwrap();
    // Reached through a symlinked directory: the file goes next to the real one, and
    // parentSession names the real path.
    crate::common::symlink(env.path().join("sessions"), env.path().join("via"));
    let out = env.run(&["-f", "via/--home-u-pi--/s.jsonl", "--json", "branch", "aaaa0002"]);
    insta::assert_snapshot!(out, @r#"{"path":"$TMP/sessions/--home-u-pi--/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl","sessionId":"019ca945-0a00-7716-a104-d9866d113a7e","parentSession":"$TMP/sessions/--home-u-pi--/s.jsonl","editorText":"second prompt"}"#);
    let names: Vec<_> = std::fs::read_dir(&sub).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

const BEFORE: &str = "config/sesstree/hooks/session_before_branch";
const AFTER: &str = "config/sesstree/hooks/session_branch";

fn no_temporary_files(env: &TestEnv) {
    let names: Vec<_> =
        std::fs::read_dir(env.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(names.iter().all(|n| !n.to_str().unwrap().ends_with(".tmp")), "{names:?}");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn hooks_get_the_event_on_stdin() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    script(&env, BEFORE, r#"cat > "$(dirname "$0")/../before.json""#);
    // The new file exists when session_branch runs.
    script(
        &env,
        AFTER,
        r#"cat > "$(dirname "$0")/../after.json"; ls "$(dirname "$0")/../../.." | grep -c _ >&2"#,
    );
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]), @"
    third prompt
    with two lines
    ------- stderr -------
    Branched to $TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl
    1
    ");
    let before = String::from_utf8(env.read("config/sesstree/before.json")).unwrap();
    insta::assert_snapshot!(before, @r#"{"type":"session_before_branch","entryId":"aaaa0003"}"#);
    let after = String::from_utf8(env.read("config/sesstree/after.json")).unwrap();
    insta::assert_snapshot!(after.replace(&env.path().display().to_string(), "$TMP"), @r#"{"type":"session_branch","previousSessionFile":"$TMP/branch-omp.jsonl","path":"$TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl"}"#);
    // --through REV names REV; with -o - the path is null.
    env.run(&["-f", "branch-omp.jsonl", "branch", "--through", "bbbb0002", "-o", "-"]);
    let before = String::from_utf8(env.read("config/sesstree/before.json")).unwrap();
    insta::assert_snapshot!(before, @r#"{"type":"session_before_branch","entryId":"bbbb0002"}"#);
    let after = String::from_utf8(env.read("config/sesstree/after.json")).unwrap();
    insta::assert_snapshot!(after.replace(&env.path().display().to_string(), "$TMP"), @r#"{"type":"session_branch","previousSessionFile":"$TMP/branch-omp.jsonl","path":null}"#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_that_cancels_writes_nothing() {
    let env = TestEnv::new();
    let src = env.fixture("branch-omp.jsonl");
    let before = std::fs::read(&src).unwrap();
    script(&env, BEFORE, r#"cat >/dev/null; echo '{"cancel": true}'"#);
    script(&env, AFTER, "touch \"$(dirname \"$0\")/../after-ran\"");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]), @"
    ------- stderr -------
    error: session_before_branch hook $TMP/config/sesstree/hooks/session_before_branch cancelled the operation; nothing was written
    [exit status: 7]
    ");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "-o", "-"]), @"
    ------- stderr -------
    error: session_before_branch hook $TMP/config/sesstree/hooks/session_before_branch cancelled the operation; nothing was written
    [exit status: 7]
    ");
    assert!(new_files(&env).is_empty());
    assert!(!env.path().join("config/sesstree/after-ran").exists());
    no_temporary_files(&env);
    assert_eq!(std::fs::read(&src).unwrap(), before);
    // --no-hooks skips them.
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "--no-hooks"]), @"
    third prompt
    with two lines
    ------- stderr -------
    Branched to $TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl
    ");
    assert_eq!(new_files(&env).len(), 1);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn failing_hooks() {
    let env = TestEnv::new();
    env.fixture("branch-omp.jsonl");
    script(&env, BEFORE, "echo 'no way' >&2; exit 4");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]), @"
    ------- stderr -------
    no way
    error: session_before_branch hook $TMP/config/sesstree/hooks/session_before_branch: exited with status 4
    [exit status: 7]
    ");
    script(&env, BEFORE, "echo 'all good!'");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]), @"
    ------- stderr -------
    error: session_before_branch hook $TMP/config/sesstree/hooks/session_before_branch: printed something that is not JSON (expected value at line 1 column 1): all good!
    [exit status: 7]
    ");
    script(&env, BEFORE, "sleep 5");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003", "--hook-timeout", "0.2"]), @"
    ------- stderr -------
    error: session_before_branch hook $TMP/config/sesstree/hooks/session_before_branch: ran past its 0.2 s time limit and was stopped
    [exit status: 7]
    ");
    assert!(new_files(&env).is_empty());
    no_temporary_files(&env);
    // After the file is written, a failing hook cannot undo it: exit 1, the file stays.
    std::fs::remove_file(env.path().join(BEFORE)).unwrap();
    script(&env, AFTER, "exit 3");
    insta::assert_snapshot!(env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0003"]), @"
    third prompt
    with two lines
    ------- stderr -------
    Branched to $TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl
    error: the branch was written, but session_branch hook $TMP/config/sesstree/hooks/session_branch: exited with status 3
    [exit status: 1]
    ");
    assert_eq!(new_files(&env).len(), 1);
}

#[test]
fn dialect_says_whose_way_the_name_is_carried() {
    let env = TestEnv::new();
    env.fixture("branch-omp-noslot.jsonl");
    let args = ["-f", "branch-omp-noslot.jsonl", "branch", "aaaa0002", "--dialect", "pi"];
    env.run(&[&args[..], &["-o", "p.jsonl"]].concat());
    let lines = text_lines(&env.read("p.jsonl"));
    assert!(!lines[0].contains("title"), "pi headers have no title: {}", lines[0]);
    // Nor does pi 1.6 carry the name otherwise: the path, copied.
    let src = text_lines(&env.read("branch-omp-noslot.jsonl"));
    assert_eq!(lines[1..], src[1..src.len() - 1]);
    // A source with a title slot keeps it in the new file, which pi cannot open.
    env.fixture("branch-omp.jsonl");
    insta::assert_snapshot!(
        env.run(&["-f", "branch-omp.jsonl", "branch", "aaaa0002", "--dialect", "pi", "-o", "q.jsonl"]),
        @"
    ------- stderr -------
    error: branch-omp.jsonl: starts with oh-my-pi's title slot, which the new file keeps and pi cannot open: --dialect pi does not fit it
    [exit status: 2]
    "
    );
    assert!(!env.path().join("q.jsonl").exists());
}

/// A version-2 file branched under a version-3 header gets the version-3 role of its hook
/// messages (`custom`), as `migrate` gives it: pi migrates only files below 3 and sends no
/// message of a role it does not know. Every other line is copied byte for byte.
#[test]
fn a_version_2_hook_message_is_written_as_version_3_has_it() {
    let env = TestEnv::new();
    let source = std::fs::read_to_string(env.fixture("v2-hook.jsonl")).unwrap();
    let out = env.run(&["-f", "v2-hook.jsonl", "branch", "Pz9eR1vU", "-o", "b.jsonl"]);
    assert!(!out.contains("[exit status"), "{out}");
    let branched = String::from_utf8(env.read("b.jsonl")).unwrap();
    let hook = source.lines().find(|l| l.contains("hookMessage")).unwrap();
    assert!(branched.contains(&hook.replace(r#""role":"hookMessage""#, r#""role":"custom""#)));
    assert!(!branched.contains("hookMessage"));
    for line in source.lines().skip(1).filter(|l| !l.contains("hookMessage")).take(1) {
        assert!(branched.contains(line), "copied byte for byte: {line}");
    }
    insta::assert_snapshot!(env.run(&["-f", "b.jsonl", "log", "--filter", "all"]), @"
    mJ7-c2Ls message 2026-01-10 18:00:21 +0000 assistant: `hugo --minify` built 48 pages; `lychee public/` found no broken links. Note the 3 uncommitted files.
    Xw_4nTb9 message 2026-01-10 18:00:05 +0000 [custom]
    kR2p8QzA message 2026-01-10 18:00:05 +0000 user: Build the site and tell me if there are broken links.
    ");
}

/// pi 1.6.0 `createBranchedSession(f55a6811)` on this file (written by pi 1.6.0) writes these
/// lines, the header's id and time and the label's id aside: the label before the compaction
/// dropped, the compaction re-linked and still keeping nothing (its own id), the label
/// re-created at the end with the time it was set, and no name (CHANGES R2, R5).
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_pi_fork_is_what_pi_writes() {
    let env = TestEnv::new();
    env.fixture("pi-retain-none.jsonl");
    let args = ["-f", "pi-retain-none.jsonl", "fork", "--at", "f55a6811", "--dialect", "pi"];
    env.run(&[&args[..], &["-o", "f.jsonl"]].concat());
    insta::assert_snapshot!(String::from_utf8(env.read("f.jsonl")).unwrap().replace(&env.path().display().to_string(), "$TMP"), @r#"
    {"type":"session","version":3,"id":"019ca945-0a00-7716-a104-d9866d113a7e","timestamp":"2026-03-01T12:00:00.000Z","cwd":"/w","parentSession":"$TMP/pi-retain-none.jsonl"}
    {"type":"message","id":"8f65fd97","parentId":null,"timestamp":"2026-12-06T20:20:32.036Z","message":{"role":"user","content":"first","timestamp":1}}
    {"type":"message","id":"cc118e83","parentId":"8f65fd97","timestamp":"2026-12-06T20:20:32.037Z","message":{"role":"assistant","content":[{"type":"text","text":"one"}],"api":"x","provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}}
    {"type":"compaction","id":"8888e108","parentId":"cc118e83","timestamp":"2026-12-06T20:20:32.037Z","summary":"summary of all","firstKeptEntryId":"8888e108","tokensBefore":100}
    {"type":"message","id":"5918a19e","parentId":"8888e108","timestamp":"2026-12-06T20:20:32.038Z","message":{"role":"user","content":"second","timestamp":1}}
    {"type":"message","id":"f55a6811","parentId":"5918a19e","timestamp":"2026-12-06T20:20:32.038Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}],"api":"x","provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}}
    {"type":"label","id":"ae175332","parentId":"f55a6811","timestamp":"2026-12-06T20:20:32.037Z","targetId":"cc118e83","label":"mark"}
    "#);
    insta::assert_snapshot!(env.run(&["fsck", "f.jsonl"]), @"f.jsonl: ok");
}

/// After a fork into the directory's sessions, commands without -f take the new file (the
/// newest session of the directory, as `omp --continue` picks it): branch says so, and how
/// to name the old one. A fork written elsewhere says nothing more.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_fork_that_becomes_the_current_session_says_so() {
    let env = TestEnv::new();
    let home = std::fs::canonicalize(env.path()).unwrap().join("home");
    // `env.render` writes the test's directory as $TMP.
    let cwd = home.join("proj");
    let sessions = home.join(".omp/agent/sessions/-proj");
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::copy(crate::common::fixtures().join("branch-omp.jsonl"), sessions.join("s.jsonl"))
        .unwrap();
    let run = |args: &[&str]| {
        let output = env.cmd().current_dir(&cwd).args(args).output().unwrap();
        env.render(&output)
    };
    insta::assert_snapshot!(run(&["fork", "--at", "aaaa0002"]), @"
    ------- stderr -------
    Branched to $TMP/home/.omp/agent/sessions/-proj/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl
    note: it is now this directory's newest session, which commands without -f use; -f $TMP/home/.omp/agent/sessions/-proj/s.jsonl names the one branched from
    ");
    // Without -f: the fork's leaf, not the source's.
    insta::assert_snapshot!(run(&["log", "-n", "1"]), @"aaaa0002 message 2026-02-16 10:00:04 +0000 user: second prompt");
    insta::assert_snapshot!(run(&["fork", "--at", "aaaa0002", "-o", "../elsewhere.jsonl"]), @"
    ------- stderr -------
    Branched to $TMP/home/proj/../elsewhere.jsonl
    ");
}
