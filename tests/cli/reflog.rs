//! `sesstree reflog` and the `-` REV: the moves a file holds, and the way back.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn checkout_dash_goes_back_and_reflog_lists_the_moves() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    let run = |args: &[&str]| env.run(&[&["-f", "linear.jsonl"], args].concat());
    assert_snapshot!(run(&["checkout", "@~2"]), @"
    ------- stderr -------
    Moved from 17de5c8f to f6c3d098; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    assert_snapshot!(run(&["checkout", "-"]), @"
    ------- stderr -------
    Moved from f6c3d098 to 17de5c8f; appended branch_summary 6104d986 (`checkout -` goes back)
    ");
    assert_snapshot!(run(&["log", "-n", "1"]), @"17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.");
    // And back again: `-` toggles, as in git.
    assert_snapshot!(run(&["show", "-", "--json"]).lines().next().unwrap_or_default(), @r#"{"type":"message","id":"f6c3d098","parentId":"e2f81a6b","timestamp":"2026-03-02T09:01:05.842Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_Tn7bW2cLs4","name":"read","arguments":{"path":"src/main.rs"}}],"api":"openai-responses","provider":"openai","model":"gpt-5","usage":{"input":1951,"output":41,"cacheRead":1792,"cacheWrite":0,"totalTokens":3784,"cost":{"input":0.00243875,"output":0.00041,"cacheRead":0.000224,"cacheWrite":0,"total":0.00307275}},"stopReason":"toolUse","timestamp":1772442065840}}"#);
    assert_snapshot!(run(&["checkout", "5f3a9c01", "--summary", "Tried the listing."]), @"
    List the files in src/
    ------- stderr -------
    Moved from 17de5c8f to a new root; appended branch_summary ae175332 (`checkout -` goes back)
    ");
    assert_snapshot!(run(&["reflog"]), @"
    ae175332 2026-03-01 12:00:00 +0000 summary: moving from 17de5c8f to root: Tried the listing.
    6104d986 2026-03-01 12:00:00 +0000 checkout: moving from f6c3d098 to 17de5c8f
    15780b2e 2026-03-01 12:00:00 +0000 checkout: moving from 17de5c8f to f6c3d098
    ");
    assert_snapshot!(run(&["--json", "reflog", "-n", "1"]), @r#"{"id":"ae175332","timestamp":"2026-03-01T12:00:00.000Z","kind":"summary","from":"17de5c8f","to":null,"summary":"Tried the listing."}"#);
}

#[test]
fn dash_without_a_recorded_move_says_why() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "checkout", "-"]), @"
    ------- stderr -------
    error: '-': no move to go back from: the file holds no checkout (`sesstree reflog` lists the moves)
    [exit status: 4]
    ");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "reflog"]), @"");
    // The demo's summary was written by the agent, which records no way back.
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "log", "-"]), @"
    ------- stderr -------
    error: '-': the latest move (58e0b3c6) does not say where it came from (the agents do not record it; `sesstree reflog` lists the moves)
    [exit status: 4]
    ");
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "reflog"]), @"58e0b3c6 2026-02-16 10:23:41 +0000 summary: moving to 7c3e05ab: The user explored a different conversation branch before ret…");
}
