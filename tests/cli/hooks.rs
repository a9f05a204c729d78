//! Tests for the hooks of `checkout` (SPEC §4): the event on stdin, cancelling, failing,
//! hanging, supplying the summary, and the file changing under a hook.

use crate::checkout::{appended, forked, script};

const BEFORE: &str = "config/sesstree/hooks/session_before_tree";
const AFTER: &str = "config/sesstree/hooks/session_tree";

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn hooks_get_the_event_on_stdin() {
    let env = forked();
    script(&env, BEFORE, r#"cat > "$(dirname "$0")/../before.json""#);
    script(&env, AFTER, r#"cat > "$(dirname "$0")/../after.json"; echo "args: $#" >&2"#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "u3", "--summary", "S"]), @"
    Write the printer by hand
    ------- stderr -------
    Moved from a2 to t1; appended branch_summary 15780b2e (`checkout -` goes back)
    args: 0
    ");
    let before = String::from_utf8(env.read("config/sesstree/before.json")).unwrap();
    insta::assert_snapshot!(before, @r#"{"type":"session_before_tree","preparation":{"targetId":"u3","oldLeafId":"a2","commonAncestorId":"t1","entriesToSummarize":[{"type":"message","id":"u2","parentId":"t1","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"user","content":"Use serde"}},{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"edit","arguments":{"path":"src/main.rs"}},{"type":"toolCall","id":"c3","name":"write","arguments":{"path":"Cargo.toml"}}]}}],"userWantsSummary":true}}"#);
    let after = String::from_utf8(env.read("config/sesstree/after.json")).unwrap();
    insta::assert_snapshot!(after, @r#"{"type":"session_tree","newLeafId":"t1","oldLeafId":"a2","summaryEntry":{"type":"branch_summary","id":"15780b2e","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"t1","summary":"S","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}},"fromExtension":false}"#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_that_cancels() {
    let env = forked();
    script(&env, BEFORE, r#"cat >/dev/null; echo '{"cancel": true}'"#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    error: session_before_tree hook $TMP/config/sesstree/hooks/session_before_tree cancelled the operation; nothing was written
    [exit status: 7]
    ");
    assert_eq!(appended(&env), "");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_that_prints_garbage() {
    let env = forked();
    script(&env, BEFORE, "echo 'all good!'");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    error: session_before_tree hook $TMP/config/sesstree/hooks/session_before_tree: printed something that is not JSON (expected value at line 1 column 1): all good!
    [exit status: 7]
    ");
    assert_eq!(appended(&env), "");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_that_fails() {
    let env = forked();
    script(&env, BEFORE, "echo 'no way' >&2; exit 4");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    no way
    error: session_before_tree hook $TMP/config/sesstree/hooks/session_before_tree: exited with status 4
    [exit status: 7]
    ");
    assert_eq!(appended(&env), "");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_that_hangs_is_stopped() {
    let env = forked();
    script(&env, BEFORE, "sleep 30");
    let t0 = std::time::Instant::now();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--hook-timeout", "0.3"]), @"
    ------- stderr -------
    error: session_before_tree hook $TMP/config/sesstree/hooks/session_before_tree: ran past its 0.3 s time limit and was stopped
    [exit status: 7]
    ");
    assert!(t0.elapsed().as_secs() < 10);
    assert_eq!(appended(&env), "");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_supplies_the_summary() {
    let env = forked();
    script(
        &env,
        BEFORE,
        r#"cat >/dev/null; echo '{"summary": {"summary": "From the hook.", "details": {"n": 1}}}'"#,
    );
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize"]), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"From the hook.","details":{"n":1},"fromExtension":true}"#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn session_tree_is_told_the_summary_came_from_the_hook() {
    let env = forked();
    script(&env, BEFORE, r#"cat >/dev/null; echo '{"summary": {"summary": "From the hook."}}'"#);
    script(&env, AFTER, r#"cat > "$(dirname "$0")/../after.json""#);
    env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize"]);
    let after = String::from_utf8(env.read("config/sesstree/after.json")).unwrap();
    insta::assert_snapshot!(after, @r#"{"type":"session_tree","newLeafId":"a3","oldLeafId":"a2","summaryEntry":{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"From the hook.","fromExtension":true},"fromExtension":true}"#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_summary_is_used_only_when_asked_for() {
    let env = forked();
    script(&env, BEFORE, r#"echo '{"summary": {"summary": "From the hook."}}'"#);
    env.run(&["-f", "s.jsonl", "checkout", "a3"]);
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"","details":{"kind":"checkout","from":"a2"}}"#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_hook_without_a_summary_and_no_summarizer() {
    let env = forked();
    script(&env, BEFORE, r#"cat >/dev/null; touch "$(dirname "$0")/../ran""#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize"]), @"
    ------- stderr -------
    error: summarization needs an active model: the session_before_tree hook gave no summary; give --summarizer CMD or set SESSTREE_SUMMARIZER
    [exit status: 2]
    ");
    assert!(env.path().join("config/sesstree/ran").exists(), "the hook ran first");
    assert_eq!(appended(&env), "");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn no_hooks_and_hooks_dir() {
    let env = forked();
    script(&env, BEFORE, r#"echo '{"cancel": true}'"#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--no-hooks"]), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    let env = forked();
    script(&env, "elsewhere/session_before_tree", r#"echo '{"cancel": true}'"#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--hooks-dir", "elsewhere"]), @"
    ------- stderr -------
    error: session_before_tree hook $TMP/elsewhere/session_before_tree cancelled the operation; nothing was written
    [exit status: 7]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_hook_that_is_not_executable_is_ignored_with_a_hint() {
    let env = forked();
    std::fs::create_dir_all(env.path().join("config/sesstree/hooks")).unwrap();
    env.write(BEFORE, "#!/bin/sh\necho '{\"cancel\": true}'\n");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    hint: $TMP/config/sesstree/hooks/session_before_tree is not executable and was ignored (chmod +x it)
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn the_file_changing_under_a_hook_is_a_conflict() {
    let env = forked();
    let file = env.path().join("s.jsonl");
    // The agent appends while the hook runs.
    script(
        &env,
        BEFORE,
        &format!(
            r#"echo '{{"type":"message","id":"z9","parentId":"a2","timestamp":"2026-01-01T00:00:09.000Z","message":{{"role":"user","content":"more"}}}}' >> '{}'"#,
            file.display()
        ),
    );
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    error: s.jsonl: the file changed while sesstree was working; nothing was written (run the command again)
    [exit status: 5]
    ");
    assert!(!appended(&env).contains("branch_summary"));
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn a_failing_session_tree_hook_comes_after_the_write() {
    let env = forked();
    script(&env, AFTER, "exit 1");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    error: the checkout was written, but session_tree hook $TMP/config/sesstree/hooks/session_tree: exited with status 1
    [exit status: 1]
    ");
    assert!(appended(&env).contains("branch_summary"));
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn the_summarizer_runs_when_the_hook_gives_no_summary() {
    let env = forked();
    script(&env, BEFORE, "cat >/dev/null");
    env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize", "--summarizer", "echo Model."]);
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\nModel.\n\n<files>\nCargo.toml (Write)\nsrc/main.rs (Write)\n</files>","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}}"#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn without_xdg_config_home_the_hooks_are_under_home() {
    let env = forked();
    script(&env, "home/.config/sesstree/hooks/session_before_tree", r#"echo '{"cancel": true}'"#);
    let out = env
        .cmd()
        .env_remove("XDG_CONFIG_HOME")
        .args(["-f", "s.jsonl", "checkout", "a3"])
        .output()
        .unwrap();
    insta::assert_snapshot!(env.render(&out), @"
    ------- stderr -------
    error: session_before_tree hook $TMP/home/.config/sesstree/hooks/session_before_tree cancelled the operation; nothing was written
    [exit status: 7]
    ");
    // A relative XDG_CONFIG_HOME is not valid (XDG spec) and is ignored the same way.
    let out = env
        .cmd()
        .env("XDG_CONFIG_HOME", "config")
        .args(["-f", "s.jsonl", "checkout", "a3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
}

#[test]
fn hook_timeout_must_be_positive() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--hook-timeout", "0"]), @"
    ------- stderr -------
    error: invalid value '0' for '--hook-timeout <SECS>': '0' is not a positive number of seconds

    For more information, try '--help'.
    [exit status: 2]
    ");
}

#[test]
fn help_says_what_the_lock_and_the_hooks_mean_for_exit_statuses() {
    let env = forked();
    let out = env.cmd().args(["checkout", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    let start = help.find("Hooks:").expect("a Hooks paragraph");
    let end = help.find("Usage:").expect("usage");
    insta::assert_snapshot!(&help[start..end], @"
    Hooks: the executables session_before_tree (may cancel or supply the summary) and session_tree (told
    after the move) in the hooks directory get the event as JSON on stdin. A session_before_tree hook
    that fails, prints something that is not JSON, or runs past --hook-timeout cancels the checkout
    (exit 7); nothing is written. session_tree runs after the write: when it fails, the move stays and
    sesstree exits 1.

    Locking: the file stays locked from loading it until the move is written, that is while
    session_before_tree and the summarizer (which has no time limit) run. Other sesstree writers wait
    for the lock up to 10 s and then exit 5, and a hook must not write the file itself. The agents do
    not lock: if one appends meanwhile, nothing is written (exit 5) and the summary made so far is lost.
    session_tree runs once the lock is released, so it may run sesstree on the file.
    ");
}
