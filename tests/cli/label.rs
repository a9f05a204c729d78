//! Tests for `label`: setting, removing and listing labels, and what is appended.

use crate::common::TestEnv;

/// The bytes a command appended to `name`, given the bytes before.
fn appended(env: &TestEnv, name: &str, before: &[u8]) -> String {
    let after = env.read(name);
    assert!(after.starts_with(before), "the old bytes must stay as they were");
    String::from_utf8(after[before.len()..].to_vec()).unwrap()
}

#[test]
fn sets_a_label_on_rev_with_the_entry_at_the_leaf() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "b2c3", "checkpoint"]), @r#"Labelled b2c3d4e5 "checkpoint""#);
    insta::assert_snapshot!(appended(&env, "writers-omp.jsonl", &before), @r#"{"type":"label","id":"15780b2e","parentId":"e5f6a7b8","timestamp":"2026-03-01T12:00:00.000Z","targetId":"b2c3d4e5","label":"checkpoint"}"#);
    // The label is a REV now, and the new entry hangs at the leaf (the last entry in the
    // file is the agent's leaf)...
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "log", "--filter", "all", "-n", "2", "15780b2e"]), @"
    15780b2e label 2026-03-01 12:00:00 +0000 [label: checkpoint]
    e5f6a7b8 message 2026-02-16 10:23:00 +0000 assistant: Done
    ");
    // ...but `@` steps over it: labelling does not move `@`, as `git tag` does not move HEAD,
    // so `label @ L` again labels the same entry, not the label entry.
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "log", "--filter", "all", "-n", "1"]), @"e5f6a7b8 message 2026-02-16 10:23:00 +0000 assistant: Done");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "@", "again"]), @r#"Labelled e5f6a7b8 "again""#);
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "@", "and-again"]), @r#"Labelled e5f6a7b8 "and-again" (was "again")"#);
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "log", "checkpoint"]), @"
    b2c3d4e5 message 2026-02-16 10:21:05 +0000 [checkpoint] assistant: Reading main.rs
    a1b2c3d4 message 2026-02-16 10:21:00 +0000 [start] user: Add a --json flag
    ");
}

#[test]
fn relabelling_says_what_the_label_was() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "start", "begin"]), @r#"Labelled a1b2c3d4 "begin" (was "start")"#);
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "--list"]), @"begin	a1b2c3d4 user: Add a --json flag");
}

#[test]
fn clear_and_empty_text_remove_the_label() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "start", "--clear"]), @r#"Removed the label of a1b2c3d4 (was "start")"#);
    insta::assert_snapshot!(appended(&env, "writers-omp.jsonl", &before), @r#"{"type":"label","id":"15780b2e","parentId":"e5f6a7b8","timestamp":"2026-03-01T12:00:00.000Z","targetId":"a1b2c3d4"}"#);
    let before = env.read("writers-omp.jsonl");
    // An empty (or blank) TEXT removes too; the reference still appends the entry.
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "a1b2", "  "]), @"Removed the label of a1b2c3d4 (it had none)");
    insta::assert_snapshot!(appended(&env, "writers-omp.jsonl", &before), @r#"{"type":"label","id":"6104d986","parentId":"15780b2e","timestamp":"2026-03-01T12:00:00.000Z","targetId":"a1b2c3d4"}"#);
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "--list"]), @"");
}

#[test]
fn text_is_trimmed_but_kept_otherwise() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "@", "\t two  words \n"]), @r#"Labelled e5f6a7b8 "two  words""#);
    assert!(appended(&env, "writers-omp.jsonl", &before).contains(r#""label":"two  words"}"#));
}

#[test]
fn json_output_and_dry_run() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "--json", "label", "c3d4", "x"]), @r#"{"id":"15780b2e","targetId":"c3d4e5f6","label":"x"}"#);
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "--json", "label", "c3d4", "--clear"]), @r#"{"id":"6104d986","targetId":"c3d4e5f6","label":null}"#);
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "--dry-run", "@^", "y"]), @r#"{"type":"label","id":"ae175332","parentId":"6104d986","timestamp":"2026-03-01T12:00:00.000Z","targetId":"d4e5f6a7","label":"y"}"#);
    assert_eq!(env.read("writers-omp.jsonl"), before, "--dry-run writes nothing");
}

#[test]
fn list_in_label_map_order_with_raw_values() {
    let env = TestEnv::new();
    let mut text =
        std::fs::read_to_string(crate::common::fixtures().join("writers-omp.jsonl")).unwrap();
    for line in [
        r#"{"type":"label","id":"l1","parentId":"e5f6a7b8","timestamp":"t","targetId":"b2c3d4e5","label":{"n":1}}"#,
        r#"{"type":"label","id":"l2","parentId":"l1","timestamp":"t","targetId":"0000gone","label":"lost"}"#,
        r#"{"type":"label","id":"l3","parentId":"l2","timestamp":"t","targetId":"e5f6a7b8","label":"tab\there"}"#,
        r#"{"type":"label","id":"l4","parentId":"l3","timestamp":"t","targetId":"a1b2c3d4","label":"again"}"#,
    ] {
        text.push_str(line);
        text.push('\n');
    }
    env.write("l.jsonl", &text);
    // a1b2c3d4 keeps the place it first got a label; the label on a missing entry is left out.
    insta::assert_snapshot!(env.run(&["-f", "l.jsonl", "label", "--list"]), @r#"
    again	a1b2c3d4 user: Add a --json flag
    {"n":1}	b2c3d4e5 assistant: Reading main.rs
    tab\x09here	e5f6a7b8 assistant: Done
    "#);
    insta::assert_snapshot!(env.run(&["-f", "l.jsonl", "--json", "label", "--list"]), @r#"
    {"targetId":"a1b2c3d4","label":"again"}
    {"targetId":"b2c3d4e5","label":{"n":1}}
    {"targetId":"e5f6a7b8","label":"tab\there"}
    "#);
    // --list only reads, so it takes standard input too.
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "--json", "label", "--list"], text), @r#"
    {"targetId":"a1b2c3d4","label":"again"}
    {"targetId":"b2c3d4e5","label":{"n":1}}
    {"targetId":"e5f6a7b8","label":"tab\there"}
    "#);
}

#[test]
fn a_label_already_in_use_is_refused_unless_forced_which_moves_it() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "c3d4", "start"]), @r#"
    ------- stderr -------
    error: the label "start" is already on a1b2c3d4; --force moves it here
    [exit status: 2]
    "#);
    assert_eq!(env.read("writers-omp.jsonl"), before, "nothing written");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "c3d4", "start", "--force"]), @r#"Labelled c3d4e5f6 "start" (moved from a1b2c3d4)"#);
    // Without arguments, `label` lists the labels, as `git tag` does: `start` moved.
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label"]), @"start	c3d4e5f6 user: Try again, differently");
}

/// A label that could never name its entry as a REV is refused, with the reason.
#[test]
fn a_label_that_is_no_rev_is_refused() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    for text in ["@", "-", "c3d4e5f6", "a\u{7}b"] {
        let out = env.run(&["-f", "writers-omp.jsonl", "label", "@", text]);
        assert!(
            out.contains("could never be used as a REV") && out.ends_with("[exit status: 2]\n"),
            "{out}"
        );
    }
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "@", "c3d4e5f6"]), @r#"
    ------- stderr -------
    error: the label "c3d4e5f6" could never be used as a REV: c3d4e5f6 is an entry's id, which a REV names first
    [exit status: 2]
    "#);
    assert_eq!(env.read("writers-omp.jsonl"), before, "nothing written");
}

#[test]
fn failures_write_nothing() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    let run = |args: &[&str]| {
        let mut all = vec!["-f", "writers-omp.jsonl", "label"];
        all.extend_from_slice(args);
        let out = env.run(&all);
        assert_eq!(env.read("writers-omp.jsonl"), before, "{args:?} changed the file");
        out
    };
    insta::assert_snapshot!(run(&["zzzz", "x"]), @r"
    ------- stderr -------
    error: no entry matches 'zzzz'
    [exit status: 4]
    ");
    insta::assert_snapshot!(run(&["@~9", "x"]), @"
    ------- stderr -------
    error: no entry matches '@~9': the path above @ holds 3 entries
    [exit status: 4]
    ");
    insta::assert_snapshot!(run(&["a1b2"]), @r"
    ------- stderr -------
    error: give the label TEXT, or --clear to remove it (--list shows the labels)
    [exit status: 2]
    ");
    insta::assert_snapshot!(run(&["a1b2", "x", "--clear"]), @"
    ------- stderr -------
    error: the argument '[TEXT]' cannot be used with '--clear'

    Usage: sesstree label <REV> <TEXT>

    For more information, try '--help'.
    [exit status: 2]
    ");
    insta::assert_snapshot!(run(&["--list", "a1b2"]), @"
    ------- stderr -------
    error: the argument '--list' cannot be used with '[REV]'

    Usage: sesstree label --list [REV] [TEXT]

    For more information, try '--help'.
    [exit status: 2]
    ");
}

/// See: issue 44 (a day with sesstree, second pass). `label 8a41 fa60`, then `checkout fa60`
/// moved to 8a41d0e6 (the label) rather than fa60d15c (the id prefix), without a word. A label
/// that is, or looks like, the start of an id is refused without --force, and a REV naming
/// both a label and an id is ambiguous.
#[test]
fn a_label_that_could_be_taken_for_an_id_is_refused_without_force() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let before = env.read("demo.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "label", "8a41", "fa60"]), @r#"
    ------- stderr -------
    error: the label "fa60" would be taken for an id: it is the start of the id of entry fa60d15c; choose another name, or --force to set it anyway (a REV that names both is then refused as ambiguous)
    [exit status: 2]
    "#);
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "label", "8a41", "c0ffee"]), @r#"
    ------- stderr -------
    error: the label "c0ffee" would be taken for an id: it looks like the start of an entry id (hex digits only); choose another name, or --force to set it anyway (a REV that names both is then refused as ambiguous)
    [exit status: 2]
    "#);
    assert_eq!(env.read("demo.jsonl"), before, "a refused label writes nothing");
    // Not hex, or shorter than an id prefix may be: a name like any other.
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "label", "8a41", "fa6"]), @r#"Labelled 8a41d0e6 "fa6""#);
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "label", "--force", "8a41", "fa60"]), @r#"Labelled 8a41d0e6 "fa60" (was "fa6")"#);
    let before = env.read("demo.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "checkout", "fa60"]), @"
    ------- stderr -------
    error: 'fa60' is ambiguous; it matches 8a41d0e6 (labelled fa60), fa60d15c (an id starting with fa60)
    [exit status: 4]
    ");
    assert_eq!(env.read("demo.jsonl"), before, "an ambiguous REV moves nothing");
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "log", "-n", "1", "fa60d"]), @r#"fa60d15c message 2026-02-16 10:27:49 +0000 assistant: Fixed the warning (`println!("{line}")`); clippy is clean. Committed as `3f2a9c1 stats: add --json output`."#);
}

/// `label FILE:REV` labels FILE's entry, not -f's file: it says which file it wrote.
#[test]
fn label_file_rev_says_which_file_it_wrote() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    env.write("other.jsonl", &before);
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "other.jsonl:b2c3", "x"]), @r#"
    Labelled b2c3d4e5 "x"
    ------- stderr -------
    note: wrote to other.jsonl, not to writers-omp.jsonl (-f)
    "#);
    assert_eq!(env.read("writers-omp.jsonl"), before, "-f's file is untouched");
    insta::assert_snapshot!(env.run(&["-f", "other.jsonl", "label", "other.jsonl:b2c3", "y"]), @r#"Labelled b2c3d4e5 "y" (was "x")"#);
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "label", "other.jsonl:b2c3", "x", "--dry-run"]), @r#"{"type":"label","id":"ae175332","parentId":"6104d986","timestamp":"2026-03-01T12:00:00.000Z","targetId":"b2c3d4e5","label":"x"}"#);
}

/// Without -f, `label FILE:REV` names the current session it did not write to.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn label_file_rev_names_the_current_session_it_did_not_write() {
    let env = TestEnv::new();
    // `env.render` writes the test's directory as $TMP.
    let home = std::fs::canonicalize(env.path()).unwrap().join("home");
    let cwd = home.join("proj");
    let sessions = home.join(".omp/agent/sessions/-proj");
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::create_dir_all(&sessions).unwrap();
    let fixture = crate::common::fixtures().join("writers-omp.jsonl");
    std::fs::copy(&fixture, sessions.join("s.jsonl")).unwrap();
    std::fs::copy(&fixture, cwd.join("other.jsonl")).unwrap();
    let output =
        env.cmd().current_dir(&cwd).args(["label", "other.jsonl:b2c3", "x"]).output().unwrap();
    insta::assert_snapshot!(env.render(&output), @r#"
    Labelled b2c3d4e5 "x"
    ------- stderr -------
    note: wrote to other.jsonl, not to the current session $TMP/home/.omp/agent/sessions/-proj/s.jsonl
    "#);
}
