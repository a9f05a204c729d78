//! Tests for `checkout`: every step of SPEC `checkout`, the summary sources, the marker that
//! persists a bare move, `--label`, `--dry-run` and the summarizer.

use std::path::PathBuf;

use crate::common::TestEnv;

/// u1 ─ a1 ─ t1 ─┬─ u3 ─ a3                       (the other branch)
///               └─ u2 ─ a2 (edit, write) ← leaf
pub const FORKED: &str = r#"{"type":"session","version":3,"id":"sess-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"Add a --json flag"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Reading main.rs"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"src/main.rs"}}]}}
{"type":"message","id":"t1","parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"fn main() {}"}],"isError":false}}
{"type":"message","id":"u3","parentId":"t1","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"user","content":[{"type":"text","text":"Write the printer "},{"type":"text","text":"by hand"}]}}
{"type":"message","id":"a3","parentId":"u3","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done by hand."}]}}
{"type":"message","id":"u2","parentId":"t1","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"user","content":"Use serde"}}
{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"edit","arguments":{"path":"src/main.rs"}},{"type":"toolCall","id":"c3","name":"write","arguments":{"path":"Cargo.toml"}}]}}
"#;

/// A session at `s.jsonl` in a fresh environment.
pub fn forked() -> TestEnv {
    let env = TestEnv::new();
    env.write("s.jsonl", FORKED);
    env
}

/// Writes an executable shell script (creating its directory).
pub fn script(env: &TestEnv, name: &str, body: &str) -> PathBuf {
    let path = env.path().join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    crate::common::set_mode(&path, 0o755);
    path
}

/// The lines appended to `s.jsonl` since the fixture.
pub fn appended(env: &TestEnv) -> String {
    let now = String::from_utf8(env.read("s.jsonl")).unwrap();
    now.strip_prefix(FORKED).expect("the fixture's bytes are kept").to_string()
}

#[test]
fn an_assistant_target_becomes_the_leaf_and_a_marker_persists_the_move() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"","details":{"kind":"checkout","from":"a2"}}"#);
    // Reopening: the leaf is the marker, and `@` is the target it marks (README, REV): `log`
    // starts there and `@^` is the target's parent.
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "--filter", "all"]), @"
    a3 message 2026-01-01 00:00:05 +0000 assistant: Done by hand.
    u3 message 2026-01-01 00:00:04 +0000 user: Write the printer by hand
    t1 message 2026-01-01 00:00:03 +0000 [read: src/main.rs]
    a1 message 2026-01-01 00:00:02 +0000 assistant: Reading main.rs
    u1 message 2026-01-01 00:00:01 +0000 user: Add a --json flag
    ");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "show", "@^", "--raw"]), @r#"{"type":"message","id":"u3","parentId":"t1","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"user","content":[{"type":"text","text":"Write the printer "},{"type":"text","text":"by hand"}]}}"#);
}

#[test]
fn a_user_target_rewinds_to_its_parent_and_prints_the_prefill() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "u3"]), @"
    Write the printer by hand
    ------- stderr -------
    Moved from a2 to t1; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"t1","summary":"","details":{"kind":"checkout","from":"a2"}}"#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "2"]), @"
    t1 message 2026-01-01 00:00:03 +0000 [read: src/main.rs]
    a1 message 2026-01-01 00:00:02 +0000 assistant: Reading main.rs
    ");
}

#[test]
fn json_output() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "checkout", "u3"]), @r#"{"oldLeafId":"a2","newLeafId":"t1","editorText":"Write the printer by hand","commonAncestorId":"t1","entriesToSummarize":["u2","a2"],"summaryEntry":null,"appended":["15780b2e"],"appendedEntries":[{"type":"branch_summary","id":"15780b2e","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"t1","summary":"","details":{"kind":"checkout","from":"a2"}}],"noop":false,"dryRun":false}"#);
}

#[test]
fn the_root_user_message_gives_a_new_root() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "checkout", "u1"]), @r#"{"oldLeafId":"a2","newLeafId":null,"editorText":"Add a --json flag","commonAncestorId":"u1","entriesToSummarize":["a1","t1","u2","a2"],"summaryEntry":null,"appended":["15780b2e"],"appendedEntries":[{"type":"branch_summary","id":"15780b2e","parentId":null,"timestamp":"2026-03-01T12:00:00.000Z","fromId":"root","summary":"","details":{"kind":"checkout","from":"a2"}}],"noop":false,"dryRun":false}"#);
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":null,"timestamp":"2026-03-01T12:00:00.000Z","fromId":"root","summary":"","details":{"kind":"checkout","from":"a2"}}"#);
    // The new leaf is a root: the path from it is the marker alone.
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "--filter", "all"]), @"");
}

#[test]
fn custom_message_targets() {
    let env = TestEnv::new();
    env.write(
        "c.jsonl",
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
{"type":"custom_message","customType":"note","content":[{"type":"text","text":"Injected "},{"type":"text","text":"context"}],"display":true,"id":"n1","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z"}
{"type":"custom_message","customType":"skill-prompt","content":"SKILL BODY","display":true,"details":{"name":"review","prompt":"/skill:review src"},"attribution":"user","id":"k1","parentId":"n1","timestamp":"2026-01-01T00:00:03.000Z"}
{"type":"custom_message","customType":"skill-prompt","content":"AGENT SKILL","display":true,"attribution":"agent","id":"k2","parentId":"k1","timestamp":"2026-01-01T00:00:04.000Z"}
{"type":"message","id":"a1","parentId":"k2","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}
"#,
    );
    // Any custom message: the leaf goes to its parent and its text is the prefill.
    insta::assert_snapshot!(env.run(&["-f", "c.jsonl", "--json", "checkout", "n1", "--dry-run"]), @r#"{"oldLeafId":"a1","newLeafId":"u1","editorText":"Injected context","commonAncestorId":"n1","entriesToSummarize":["k1","k2","a1"],"summaryEntry":null,"appended":["15780b2e"],"appendedEntries":[{"type":"branch_summary","id":"15780b2e","parentId":"u1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"u1","summary":"","details":{"kind":"checkout","from":"a1"}}],"noop":false,"dryRun":true}"#);
    // A skill the user invoked: what they typed.
    insta::assert_snapshot!(env.run(&["-f", "c.jsonl", "--json", "checkout", "k1", "--dry-run"]), @r#"{"oldLeafId":"a1","newLeafId":"n1","editorText":"/skill:review src","commonAncestorId":"k1","entriesToSummarize":["k2","a1"],"summaryEntry":null,"appended":["15780b2e"],"appendedEntries":[{"type":"branch_summary","id":"15780b2e","parentId":"n1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"n1","summary":"","details":{"kind":"checkout","from":"a1"}}],"noop":false,"dryRun":true}"#);
    // A skill prompt the agent injected is an ordinary target.
    insta::assert_snapshot!(env.run(&["-f", "c.jsonl", "--json", "checkout", "k2", "--dry-run"]), @r#"{"oldLeafId":"a1","newLeafId":"k2","editorText":null,"commonAncestorId":"k2","entriesToSummarize":["a1"],"summaryEntry":null,"appended":["15780b2e"],"appendedEntries":[{"type":"branch_summary","id":"15780b2e","parentId":"k2","timestamp":"2026-03-01T12:00:00.000Z","fromId":"k2","summary":"","details":{"kind":"checkout","from":"a1"}}],"noop":false,"dryRun":true}"#);
}

#[test]
fn the_current_leaf_is_a_noop() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "@"]), @"
    ------- stderr -------
    Already at this point
    ");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "checkout", "a2", "--label", "x"]), @r#"{"oldLeafId":"a2","newLeafId":"a2","editorText":null,"commonAncestorId":"a2","entriesToSummarize":[],"summaryEntry":null,"appended":[],"appendedEntries":[],"noop":true,"dryRun":false}"#);
    assert_eq!(appended(&env), "");
}

#[test]
fn a_user_message_leaf_still_rewinds() {
    let env = TestEnv::new();
    let text = FORKED.to_string()
        + r#"{"type":"message","id":"u4","parentId":"a2","timestamp":"2026-01-01T00:00:08.000Z","message":{"role":"user","content":"And tests"}}
"#;
    env.write("s.jsonl", &text);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "checkout", "@"]), @r#"{"oldLeafId":"u4","newLeafId":"a2","editorText":"And tests","commonAncestorId":"u4","entriesToSummarize":[],"summaryEntry":null,"appended":["15780b2e"],"appendedEntries":[{"type":"branch_summary","id":"15780b2e","parentId":"a2","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a2","summary":"","details":{"kind":"checkout","from":"u4"}}],"noop":false,"dryRun":false}"#);
}

#[test]
fn the_same_user_message_again_gives_the_prefill_and_writes_nothing() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "u3"]);
    let once = env.read("s.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "u3"]), @"
    Write the printer by hand
    ------- stderr -------
    Already at this point
    ");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "checkout", "u3"]), @r#"{"oldLeafId":"t1","newLeafId":"t1","editorText":"Write the printer by hand","commonAncestorId":"t1","entriesToSummarize":[],"summaryEntry":null,"appended":[],"appendedEntries":[],"noop":true,"dryRun":false}"#);
    assert_eq!(env.read("s.jsonl"), once);
}

#[test]
fn a_marker_leaf_starts_from_the_position_it_marks() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "a3"]);
    // The marker's parent is where the leaf is: a3 again is a no-op, and so is the marker.
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3"]), @"
    ------- stderr -------
    Already at this point
    ");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "@"]), @"
    ------- stderr -------
    Already at this point
    ");
    // Moving on starts at a3: the marker is not among the abandoned entries.
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "checkout", "a2", "--dry-run"]), @r#"{"oldLeafId":"a3","newLeafId":"a2","editorText":null,"commonAncestorId":"t1","entriesToSummarize":["u3","a3"],"summaryEntry":null,"appended":["6104d986"],"appendedEntries":[{"type":"branch_summary","id":"6104d986","parentId":"a2","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a2","summary":"","details":{"kind":"checkout","from":"a3"}}],"noop":false,"dryRun":true}"#);
}

#[test]
fn a_summary_hangs_at_the_destination() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summary", "Tried serde; too heavy."]), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"Tried serde; too heavy.","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}}"#);
}

#[test]
fn summary_file() {
    let env = forked();
    env.write("summary.md", "From a file.\n");
    env.run(&["-f", "s.jsonl", "checkout", "a3", "--summary-file", "summary.md"]);
    assert!(appended(&env).contains(r#""summary":"From a file.","#), "{}", appended(&env));
}

#[test]
fn summary_file_from_standard_input() {
    let env = forked();
    insta::assert_snapshot!(env.run_stdin(&["-f", "s.jsonl", "checkout", "a3", "--summary-file", "-"], "Typed in.\nTwo lines.\n"), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"Typed in.\nTwo lines.","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}}"#);
}

#[test]
fn an_unknown_rev_writes_nothing() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "nosuch", "--summary", "S"]), @"
    ------- stderr -------
    error: no entry matches 'nosuch'
    [exit status: 4]
    ");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a2~9"]), @"
    ------- stderr -------
    error: no entry matches 'a2~9': the path above a2 holds 4 entries
    [exit status: 4]
    ");
    assert_eq!(appended(&env), "");
}

#[test]
fn nothing_to_summarize_says_why_and_a_given_summary_is_kept() {
    let env = forked();
    // t1 is an ancestor of the leaf; from there, a3 is a descendant: nothing is abandoned.
    env.run(&["-f", "s.jsonl", "checkout", "t1"]);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize", "--summarizer", "false"]), @"
    ------- stderr -------
    note: nothing to summarize (the move leaves nothing behind: the target is below the current position); moving without a summary
    Moved from t1 to a3; appended branch_summary 6104d986 (`checkout -` goes back)
    ");
    // A summary given as text is written as asked, even when nothing is left behind.
    env.run(&["-f", "s.jsonl", "checkout", "t1"]);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summary", "kept"]), @"
    ------- stderr -------
    Moved from t1 to a3; appended branch_summary ecb8ad47 (`checkout -` goes back)
    ");
    assert!(appended(&env).contains(r#""summary":"kept""#));
}

#[test]
fn label_on_the_summary_entry() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "a3", "--summary", "S", "--label", "back"]);
    insta::assert_snapshot!(appended(&env), @r#"
    {"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"S","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}}
    {"type":"label","id":"6104d986","parentId":"15780b2e","timestamp":"2026-03-01T12:00:00.000Z","targetId":"15780b2e","label":"back"}
    "#);
}

#[test]
fn label_on_the_target_without_a_summary() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "u3", "--label", "retry"]);
    insta::assert_snapshot!(appended(&env), @r#"
    {"type":"branch_summary","id":"15780b2e","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"t1","summary":"","details":{"kind":"checkout","from":"a2"}}
    {"type":"label","id":"6104d986","parentId":"15780b2e","timestamp":"2026-03-01T12:00:00.000Z","targetId":"u3","label":"retry"}
    "#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "show", "retry", "--raw"]), @r#"{"type":"message","id":"u3","parentId":"t1","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"user","content":[{"type":"text","text":"Write the printer "},{"type":"text","text":"by hand"}]}}"#);
}

/// `checkout X --label L` ends the file with the label entry (hung at the marker, as pi's
/// `navigateTree` label option hangs it at the leaf), but `@` is X, as HEAD is after
/// `git checkout`: the next checkout starts at X and `checkout X` again is a no-op.
#[test]
fn at_is_the_target_after_a_checkout_with_a_label() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "a3", "--label", "retry"]);
    insta::assert_snapshot!(appended(&env), @r#"
    {"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"","details":{"kind":"checkout","from":"a2"}}
    {"type":"label","id":"6104d986","parentId":"15780b2e","timestamp":"2026-03-01T12:00:00.000Z","targetId":"a3","label":"retry"}
    "#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "2"]), @"
    a3 message 2026-01-01 00:00:05 +0000 [retry] assistant: Done by hand.
    u3 message 2026-01-01 00:00:04 +0000 user: Write the printer by hand
    ");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "retry"]), @"
    ------- stderr -------
    Already at this point
    ");
    // With a summary, `@` is the summary entry, not the label entry on it.
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "a3", "--summary", "S", "--label", "back"]);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "show", "@", "--raw"]), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"S","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}}"#);
}

#[test]
fn the_label_is_trimmed_as_label_trims_it() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "u3", "--label", "  retry \t"]);
    insta::assert_snapshot!(appended(&env), @r#"
    {"type":"branch_summary","id":"15780b2e","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"t1","summary":"","details":{"kind":"checkout","from":"a2"}}
    {"type":"label","id":"6104d986","parentId":"15780b2e","timestamp":"2026-03-01T12:00:00.000Z","targetId":"u3","label":"retry"}
    "#);
    // Nothing left: no label entry at all.
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "u3", "--label", " "]);
    insta::assert_snapshot!(appended(&env), @r#"{"type":"branch_summary","id":"15780b2e","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"t1","summary":"","details":{"kind":"checkout","from":"a2"}}"#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn dry_run_writes_nothing_and_runs_no_hooks() {
    let env = forked();
    script(&env, "config/sesstree/hooks/session_before_tree", r#"echo '{"cancel":true}'"#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "u3", "--summary", "S", "--dry-run"]), @r#"
    {"type":"branch_summary","id":"15780b2e","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"t1","summary":"S","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}}
    ------- stderr -------
    dry run: would move the leaf to t1; nothing was written
    "#);
    assert_eq!(appended(&env), "");
}

#[test]
fn summarize_without_a_model_fails_before_anything_else() {
    let env = forked();
    // Even before the REV is resolved.
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "nope", "--summarize"]), @"
    ------- stderr -------
    error: summarization needs an active model: give --summarizer CMD, set SESSTREE_SUMMARIZER, or install a session_before_tree hook
    [exit status: 2]
    ");
    assert_eq!(appended(&env), "");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn the_summarizer_reads_the_transcript_and_its_output_is_the_summary() {
    let env = forked();
    script(&env, "summ.sh", r#"cat > "$(dirname "$0")/stdin.txt"; echo "Tried serde."; echo"#);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "checkout", "a3", "--summarize", "--summarizer", "./summ.sh"]), @r#"{"oldLeafId":"a2","newLeafId":"a3","editorText":null,"commonAncestorId":"t1","entriesToSummarize":["u2","a2"],"summaryEntry":{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\nTried serde.\n\n<files>\nCargo.toml (Write)\nsrc/main.rs (Write)\n</files>","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}},"appended":["15780b2e"],"appendedEntries":[{"type":"branch_summary","id":"15780b2e","parentId":"a3","timestamp":"2026-03-01T12:00:00.000Z","fromId":"a3","summary":"The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\nTried serde.\n\n<files>\nCargo.toml (Write)\nsrc/main.rs (Write)\n</files>","details":{"readFiles":[],"modifiedFiles":["Cargo.toml","src/main.rs"],"from":"a2"}}],"noop":false,"dryRun":false}"#);
    insta::assert_snapshot!(String::from_utf8(env.read("stdin.txt")).unwrap(), @r#"
    <conversation>
    [User]: Use serde

    [Tool call]: edit(path="src/main.rs")

    [Tool call]: write(path="Cargo.toml")
    </conversation>

    The conversation above is a branch that the user is leaving to continue from an earlier point.
    Write a summary of it that lets the work go on without the branch itself.

    Use this structure:

    ## Goal
    What the user was trying to achieve on this branch.

    ## What was tried
    - The approaches taken, commands run and changes made, in order.

    ## Outcome
    - What worked, what failed (quote exact error messages), and what was left unfinished.

    ## Files
    - The files that were read or changed, and why they matter.

    Be brief. Keep exact file paths, function names, commands and error messages.
    Answer with the summary only.
    "#);
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn the_summarizer_from_the_environment_and_instructions() {
    let env = forked();
    script(&env, "summ.sh", r#"cat > "$(dirname "$0")/stdin.txt"; echo ok"#);
    let out = env
        .cmd()
        .env("SESSTREE_SUMMARIZER", "./summ.sh")
        .args([
            "-f",
            "s.jsonl",
            "checkout",
            "a3",
            "--summarize",
            "--instructions",
            "Mention serde.",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdin = String::from_utf8(env.read("stdin.txt")).unwrap();
    assert!(
        stdin.contains("## Goal")
            && stdin.ends_with("Answer with the summary only.\n\nMention serde.\n"),
        "{stdin}"
    );

    let env = forked();
    script(&env, "summ.sh", r#"cat > "$(dirname "$0")/stdin.txt"; echo ok"#);
    let args = ["-f", "s.jsonl", "checkout", "a3", "--summarize", "--summarizer", "./summ.sh"];
    env.run(&[&args[..], &["--instructions", "Only this.", "--replace-instructions"]].concat());
    let stdin = String::from_utf8(env.read("stdin.txt")).unwrap();
    assert!(
        !stdin.contains("## Goal") && stdin.ends_with("</conversation>\n\nOnly this.\n"),
        "{stdin}"
    );
}

#[test]
#[cfg_attr(windows, ignore = "gives the summarizer POSIX shell syntax")]
fn a_failing_summarizer_leaves_the_file_unchanged() {
    let env = forked();
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize", "--summarizer", "echo partial; exit 3"]), @"
    ------- stderr -------
    error: summarizer `echo partial; exit 3` exited with status 3; nothing was written
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize", "--summarizer", "cat >/dev/null"]), @"
    ------- stderr -------
    error: summarizer `cat >/dev/null` printed no summary (No summary generated); nothing was written
    [exit status: 1]
    ");
    assert_eq!(appended(&env), "");
}

#[test]
fn the_summarizer_does_not_run_when_nothing_is_abandoned() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "checkout", "t1"]);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "a3", "--summarize", "--summarizer", "exit 9"]), @"
    ------- stderr -------
    note: nothing to summarize (the move leaves nothing behind: the target is below the current position); moving without a summary
    Moved from t1 to a3; appended branch_summary 6104d986 (`checkout -` goes back)
    ");
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks or summarizers")]
fn ctrl_c_during_summarizing_cancels() {
    let env = forked();
    let started = env.path().join("started");
    script(&env, "summ.sh", &format!("touch '{}'; sleep 30", started.display()));
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sesstree"))
        .current_dir(env.path())
        .env("SESSTREE_NOW", "2026-03-01T12:00:00.000Z")
        .args(["-f", "s.jsonl", "checkout", "a3", "--summarize", "--summarizer", "./summ.sh"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while !started.exists() {
        assert!(t0.elapsed().as_secs() < 20, "the summarizer never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(7), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(t0.elapsed().as_secs() < 20);
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stderr), @"error: branch summarization cancelled; nothing was written");
    assert_eq!(appended(&env), "");
}

/// pi ≥ 0.84.3 `branchWithSummary` stores the leaf being left as `fromId` (pi 1.6.0 does on
/// this file); oh-my-pi 18.2.3 stores the target (CHANGES R5b).
#[test]
fn a_summary_comes_from_what_each_agent_names() {
    let env = TestEnv::new();
    env.fixture("branch-pi.jsonl");
    env.fixture("branch-omp-noslot.jsonl");
    let last = |name: &str| -> serde_json::Value {
        let text = String::from_utf8(env.read(name)).unwrap();
        serde_json::from_str(text.lines().last().unwrap()).unwrap()
    };
    env.run(&["-f", "branch-pi.jsonl", "checkout", "bbbb0001", "--summary", "went back"]);
    let entry = last("branch-pi.jsonl");
    assert_eq!((&entry["parentId"], &entry["fromId"]), (&"bbbb0001".into(), &"aaaa0003".into()));
    env.run(&["-f", "branch-omp-noslot.jsonl", "checkout", "bbbb0001", "--summary", "went back"]);
    let entry = last("branch-omp-noslot.jsonl");
    assert_eq!((&entry["parentId"], &entry["fromId"]), (&"bbbb0001".into(), &"bbbb0001".into()));
}

/// `checkout FILE:REV` moves FILE's leaf, not the leaf of -f's file: it says which file it
/// wrote, as git says which branch a checkout switched to; naming -f's own file says nothing.
#[test]
fn checkout_file_rev_says_which_file_it_wrote() {
    let env = forked();
    env.write("other.jsonl", FORKED);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "other.jsonl:a3"]), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary 15780b2e (`checkout -` goes back)
    note: wrote to other.jsonl, not to s.jsonl (-f)
    ");
    assert_eq!(appended(&env), "", "-f's file is untouched");
    insta::assert_snapshot!(env.run(&["-f", "other.jsonl", "checkout", "other.jsonl:a2"]), @"
    ------- stderr -------
    Moved from a3 to a2; appended branch_summary 6104d986 (`checkout -` goes back)
    ");
    // No -f and no session of this directory: FILE is the only file there is.
    insta::assert_snapshot!(env.run(&["checkout", "other.jsonl:a3"]), @"
    ------- stderr -------
    Moved from a2 to a3; appended branch_summary ae175332 (`checkout -` goes back)
    ");
}

/// See: issue 44 (a day with sesstree, second pass). `name` appends a `session_info` (pi
/// 1.6.0's `appendSessionInfo` moves the leaf onto it), which no listing shows: `@` stepped
/// onto it, so `checkout @^` went to a2, the row shown on top, and branched the file. `@`
/// steps over bookkeeping at the end of the path, so `@^` is a2's parent.
#[test]
fn at_steps_over_the_entry_name_appends() {
    let env = forked();
    env.run(&["-f", "s.jsonl", "name", "--dialect", "pi", "Serde work"]);
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "log", "-n", "1", "@"]), @"a2 message 2026-01-01 00:00:07 +0000 assistant: (no content)");
    insta::assert_snapshot!(env.run(&["-f", "s.jsonl", "checkout", "@^"]), @"
    Use serde
    ------- stderr -------
    Moved from a2 to t1; appended branch_summary 6104d986 (`checkout -` goes back)
    ");
    // pi 1.6.0 stores the leaf it leaves as `fromId` (CHANGES R5b): the session_info.
    insta::assert_snapshot!(appended(&env), @r#"
    {"type":"session_info","id":"15780b2e","parentId":"a2","timestamp":"2026-03-01T12:00:00.000Z","name":"Serde work"}
    {"type":"branch_summary","id":"6104d986","parentId":"t1","timestamp":"2026-03-01T12:00:00.000Z","fromId":"15780b2e","summary":"","details":{"kind":"checkout","from":"a2"}}
    "#);
}
