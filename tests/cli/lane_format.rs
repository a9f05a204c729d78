//! pi's lane-based v4 files (CHANGES P7): every command names the format and exits 6, never
//! "bad header"; nothing is written into them; `fsck` and `ls` list them as what they are.

use crate::common::TestEnv;

/// A lane-format file as pi-agent-core's session store writes it: a header without `type`,
/// then log items tagged by `kind`.
const LANE: &str = concat!(
    r#"{"kind":"header","version":4,"id":"019a0000-0000-7000-8000-000000000000","createdAt":1760000000000,"cwd":"/proj"}"#,
    "\n",
    r#"{"kind":"entry","entry":{"type":"message","id":"a1","parentId":null,"seq":1,"lane":"main","timestamp":1760000000001,"message":{"role":"user","content":"hi"}}}"#,
    "\n",
    r#"{"kind":"lane","lane":"main","leafId":"a1"}"#,
    "\n",
);

const REFUSED: &str = "\
------- stderr -------
error: v4.jsonl: a pi v4 session (lane format), not supported yet: sesstree reads the v3 files pi's CLI writes; this one was written by pi-agent-core's lane-based session store
[exit status: 6]
";

#[test]
fn readers_and_writers_name_the_format_and_exit_6() {
    let env = TestEnv::new();
    env.write("v4.jsonl", LANE);
    for args in [
        &["-f", "v4.jsonl", "log"][..],
        &["-f", "v4.jsonl", "tree", "--json"],
        &["-f", "v4.jsonl", "show", "@"],
        &["-f", "v4.jsonl", "context", "--json"],
        &["stats", "v4.jsonl"],
        &["-f", "v4.jsonl", "name", "x"],
        &["-f", "v4.jsonl", "name", "--dialect", "pi", "x"],
        &["-f", "v4.jsonl", "label", "a1", "x"],
        &["-f", "v4.jsonl", "checkout", "a1"],
        &["-f", "v4.jsonl", "branch", "a1", "-o", "out.jsonl"],
        &["-f", "v4.jsonl", "migrate"],
        &["fsck", "--repair", "-o", "fixed.jsonl", "v4.jsonl"],
        &["-f", "v4.jsonl", "reflog"],
        &["-f", "v4.jsonl", "label", "--list"],
        &["-f", "v4.jsonl", "fork", "a1", "-o", "out.jsonl"],
        &["-f", "v4.jsonl", "checkout", "--dialect", "pi", "a1"],
        &["-f", "v4.jsonl", "migrate", "--check"],
        &["-f", "v4.jsonl", "migrate", "-o", "out.jsonl"],
    ] {
        assert_eq!(env.run(args), REFUSED, "sesstree {}", args.join(" "));
    }
    assert_eq!(env.read("v4.jsonl"), LANE.as_bytes());
    assert!(!env.path().join("out.jsonl").exists());
    assert!(!env.path().join("fixed.jsonl").exists());
}

#[test]
fn fsck_reports_the_format_not_damage() {
    let env = TestEnv::new();
    env.write("v4.jsonl", LANE);
    insta::assert_snapshot!(env.run(&["fsck", "v4.jsonl"]), @"
    v4.jsonl:1: version-too-new: a pi v4 session (lane format), not supported yet: its lines are not checked
    [exit status: 1]
    ");
}

#[test]
fn ls_lists_it_with_its_header() {
    let env = TestEnv::new();
    env.write("v4.jsonl", LANE);
    let json = env.run(&["--json", "ls", "v4.jsonl"]);
    let row: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(row["sessionId"], "019a0000-0000-7000-8000-000000000000");
    assert_eq!(row["cwd"], "/proj");
    assert_eq!(row["entries"], 2);
    assert_eq!(row["firstPrompt"], serde_json::Value::Null);
    assert_eq!(row["laneFormat"], true);
    let text = env.run(&["ls", "v4.jsonl"]);
    assert!(text.contains("[a pi v4 session (lane format), not supported yet]"), "{text}");
}

#[test]
fn a_v3_file_whose_first_record_has_no_type_is_still_a_bad_header() {
    let env = TestEnv::new();
    env.write("bad.jsonl", "{\"kind\":\"entry\",\"id\":\"a\"}\n");
    insta::assert_snapshot!(env.run(&["-f", "bad.jsonl", "log"]), @"
    ------- stderr -------
    error: bad.jsonl:1: no valid session header (the first record has no type); `sesstree fsck --repair` restores one
    [exit status: 3]
    ");
}
