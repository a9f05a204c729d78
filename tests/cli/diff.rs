//! `sesstree diff`: two branches from their common ancestor, in one file or across a fork.

use insta::assert_snapshot;

use crate::common::TestEnv;

/// Two tries from one tool result, with different tool calls and files; the second goes
/// through a compaction. A pipe gets the summary, then one side's rows after the other's.
#[test]
fn two_branches_summary_then_rows() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    assert_snapshot!(env.run(&["-f", "diff.jsonl", "diff", "first-try"]), @"
    base a1000003
                     @ (c3000009)                              first-try (b2000005)
    entries          9                                         5
    user prompts     2                                         1
    assistant turns  3                                         2
    tool calls       bash 2, write 1                           bash 1, edit 1
    files read       -                                         -
    files changed    tests/verbose.rs                          tests/cli.rs
    commands         cargo insta test, git commit -am 'cli: add --verbose'  cargo test
    errors           0                                         1
    tokens           3612                                      3310
    cost             $0.0120                                   $0.0110
    time             32s                                       16s

    a @ (9 entries after the base)
    c3000001 message 2026-03-10 09:00:40 +0000 user: Add tests for --verbose, with insta snapshots.
    c3000003 message 2026-03-10 09:00:48 +0000 [write: tests/verbose.rs]
    c3000004 message 2026-03-10 09:00:52 +0000 [bash: cargo insta test]
    c3000005 compaction 2026-03-10 09:00:56 +0000 [compaction: 31k tokens]
    c3000006 message 2026-03-10 09:01:00 +0000 user: Commit it.
    c3000008 message 2026-03-10 09:01:08 +0000 [bash: git commit -am 'cli: add --verbose']
    c3000009 message 2026-03-10 09:01:12 +0000 assistant: Committed as `1a2b3c4`.

    b first-try (5 entries after the base)
    b2000001 message 2026-03-10 09:00:16 +0000 user: Add tests for --verbose.
    b2000002 message 2026-03-10 09:00:20 +0000 assistant: Adding a test.
    b2000003 message 2026-03-10 09:00:24 +0000 [edit: tests/cli.rs]
    b2000004 message 2026-03-10 09:00:28 +0000 [bash: cargo test]
    b2000005 message 2026-03-10 09:00:32 +0000 [first-try] assistant: `cargo test` fails: `verbose` is not defined yet.
    ");
}

/// A terminal 120 columns wide or more gets the rows side by side, each cut to its half.
#[test]
fn side_by_side_on_a_wide_terminal() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let mut cmd = env.cmd();
    cmd.env("COLUMNS", "130").args(["-f", "diff.jsonl", "diff", "first-try", "@"]);
    assert_snapshot!(env.render(&cmd.output().unwrap()), @"
    base a1000003
                     first-try (b2000005)  @ (c3000009)
    entries          5                     9
    user prompts     1                     2
    assistant turns  2                     3
    tool calls       bash 1, edit 1        bash 2, write 1
    files read       -                     -
    files changed    tests/cli.rs          tests/verbose.rs
    commands         cargo test            cargo insta test, git commit -am 'cli: add --verbose'
    errors           1                     0
    tokens           3310                  3612
    cost             $0.0110               $0.0120
    time             16s                   32s

    a first-try (5 entries after the base)                          │ b @ (9 entries after the base)
    b2000001 message 2026-03-10 09:00:16 +0000 user: Add tests for… │ c3000001 message 2026-03-10 09:00:40 +0000 user: Add tests for…
    b2000002 message 2026-03-10 09:00:20 +0000 assistant: Adding a… │ c3000003 message 2026-03-10 09:00:48 +0000 [write: tests/verbo…
    b2000003 message 2026-03-10 09:00:24 +0000 [edit: tests/cli.rs] │ c3000004 message 2026-03-10 09:00:52 +0000 [bash: cargo insta …
    b2000004 message 2026-03-10 09:00:28 +0000 [bash: cargo test]   │ c3000005 compaction 2026-03-10 09:00:56 +0000 [compaction: 31k…
    b2000005 message 2026-03-10 09:00:32 +0000 [first-try] assista… │ c3000006 message 2026-03-10 09:01:00 +0000 user: Commit it.
                                                                    │ c3000008 message 2026-03-10 09:01:08 +0000 [bash: git commit -…
                                                                    │ c3000009 message 2026-03-10 09:01:12 +0000 assistant: Committe…
    ");
}

/// --stat shows the summary alone.
#[test]
fn stat_alone() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let args = ["-f", "diff.jsonl", "diff", "--stat", "first-try", "@"];
    assert_snapshot!(env.run(&args), @"
    base a1000003
                     first-try (b2000005)  @ (c3000009)
    entries          5                     9
    user prompts     1                     2
    assistant turns  2                     3
    tool calls       bash 1, edit 1        bash 2, write 1
    files read       -                     -
    files changed    tests/cli.rs          tests/verbose.rs
    commands         cargo test            cargo insta test, git commit -am 'cli: add --verbose'
    errors           1                     0
    tokens           3310                  3612
    cost             $0.0110               $0.0120
    time             16s                   32s
    ");
}

/// A side that is an ancestor of the other adds nothing: its side is empty.
#[test]
fn one_side_the_ancestor_of_the_other() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let args = ["-f", "diff.jsonl", "diff", "--stat", "c3000004", "@"];
    assert_snapshot!(env.run(&args), @"
    base c3000004
                     c3000004 (c3000004)  @ (c3000009)
    entries          0                    5
    user prompts     0                    1
    assistant turns  0                    2
    tool calls       -                    bash 1
    files read       -                    -
    files changed    -                    -
    commands         -                    git commit -am 'cli: add --verbose'
    errors           0                    0
    tokens           0                    1892
    cost             $0.0000              $0.0050
    time             -                    16s
    ");
}

/// --json: the base, and per side its summary and the ids after the base.
#[test]
fn json_object() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    assert_snapshot!(env.run(&["-f", "diff.jsonl", "--json", "diff", "first-try"]), @r#"{"base":"a1000003","same":false,"sides":[{"rev":"@","file":"diff.jsonl","tip":"c3000009","summary":{"entries":9,"prompts":2,"turns":3,"toolCalls":{"bash":2,"write":1},"filesRead":[],"filesChanged":["tests/verbose.rs"],"commands":["cargo insta test","git commit -am 'cli: add --verbose'"],"errors":0,"tokens":3612,"cost":0.012,"durationMs":32000},"entries":["c3000001","c3000002","c3000003","c3000004","c3000005","c3000006","c3000007","c3000008","c3000009"]},{"rev":"first-try","file":"diff.jsonl","tip":"b2000005","summary":{"entries":5,"prompts":1,"turns":2,"toolCalls":{"bash":1,"edit":1},"filesRead":[],"filesChanged":["tests/cli.rs"],"commands":["cargo test"],"errors":1,"tokens":3310,"cost":0.011,"durationMs":16000},"entries":["b2000001","b2000002","b2000003","b2000004","b2000005"]}]}"#);
}

/// --exit-code: 0 for the same entry, 1 for two that differ (as `git diff --exit-code`);
/// without it, 0 either way.
#[test]
fn exit_code() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let same = ["-f", "diff.jsonl", "diff", "--stat", "--exit-code", "@", "c3000009"];
    assert_snapshot!(env.run(&same), @"
    base c3000009
                     @ (c3000009)  c3000009 (c3000009)
    entries          0             0
    user prompts     0             0
    assistant turns  0             0
    tool calls       -             -
    files read       -             -
    files changed    -             -
    commands         -             -
    errors           0             0
    tokens           0             0
    cost             $0.0000       $0.0000
    time             -             -
    ");
    let differ = env.cmd().args(["-f", "diff.jsonl", "diff", "--exit-code", "first-try"]).output();
    assert_eq!(differ.unwrap().status.code(), Some(1));
    let plain = env.cmd().args(["-f", "diff.jsonl", "diff", "first-try"]).output();
    assert_eq!(plain.unwrap().status.code(), Some(0));
}

/// --context: a unified diff of what the model sees at each end: the edited prompt, and the
/// compaction's summary in place of what it replaced.
#[test]
fn context_of_an_edited_message_and_a_compaction() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let args = ["-f", "diff.jsonl", "diff", "--context", "first-try", "@"];
    assert_snapshot!(env.run(&args), @r#"
    --- a/first-try
    +++ b/@
    @@ -1,31 +1,28 @@
    -leaf: b2000005
    +leaf: c3000009
     flavor: omp
     thinking level: off
     models: default=anthropic/claude-sonnet-4-5
     mode: none
     
    -=== 1. user ===
    -Add a --verbose flag to the CLI.
    -
    -=== 2. assistant (anthropic/claude-sonnet-4-5, toolUse) ===
    -[tool call read call_r1] {"path":"src/main.rs"}
    +=== 1. user (2026-03-10T09:00:56.000Z) ===
    +Prior model work/tool state available.
    +MUST build on prior work; NEVER duplicate prior work.
     
    -=== 3. toolResult (read, call_r1) ===
    -fn main() {}
    +<summary>
    +The user asked for a --verbose flag with insta snapshot tests; tests/verbose.rs was written and passes.
    +</summary>
     
    -=== 4. user ===
    -Add tests for --verbose.
    +=== 2. toolResult (bash, call_b2) ===
    +test result: ok. 1 passed
     
    -=== 5. assistant (anthropic/claude-sonnet-4-5, toolUse) ===
    -Adding a test.
    -[tool call edit call_e1] {"path":"tests/cli.rs","oldText":"x","newText":"y"}
    -[tool call bash call_b1] {"command":"cargo test"}
    +=== 3. user ===
    +Commit it.
     
    -=== 6. toolResult (edit, call_e1) ===
    -Edited tests/cli.rs
    +=== 4. assistant (anthropic/claude-sonnet-4-5, toolUse) ===
    +[tool call bash call_b3] {"command":"git commit -am 'cli: add --verbose'"}
     
    -=== 7. toolResult (bash, call_b1, error) ===
    -error[E0425]: cannot find value `verbose`
    +=== 5. toolResult (bash, call_b3) ===
    +[main 1a2b3c4] cli: add --verbose
     
    -=== 8. assistant (anthropic/claude-sonnet-4-5, stop) ===
    -`cargo test` fails: `verbose` is not defined yet.
    +=== 6. assistant (anthropic/claude-sonnet-4-5, stop) ===
    +Committed as `1a2b3c4`.
    "#);
    let same = ["-f", "diff.jsonl", "diff", "--context", "--exit-code", "@", "c3000009"];
    assert_snapshot!(env.run(&same), @"");
}

/// A fork in another file keeps the ids it copies: `FILE:REV` compares it with the session it
/// came from, and the base is found across the two files.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_fork_against_its_source() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let fork = env.run(&["-f", "diff.jsonl", "fork", "--at", "first-try", "-o", "fork.jsonl"]);
    assert_snapshot!(fork, @"
    ------- stderr -------
    Branched to $TMP/fork.jsonl
    ");
    let args = ["-f", "fork.jsonl", "diff", "--stat", "@", "diff.jsonl:@"];
    assert_snapshot!(env.run(&args), @"
    base a1000003
                     @ (b2000005)    diff.jsonl:@ (c3000009)
    entries          5               9
    user prompts     1               2
    assistant turns  2               3
    tool calls       bash 1, edit 1  bash 2, write 1
    files read       -               -
    files changed    tests/cli.rs    tests/verbose.rs
    commands         cargo test      cargo insta test, git commit -am 'cli: add --verbose'
    errors           1               0
    tokens           3310            3612
    cost             $0.0110         $0.0120
    time             16s             32s
    ");
    // Both sides in other files than -f's, which is not read.
    let args = ["-f", "missing.jsonl", "diff", "--stat", "fork.jsonl:@", "diff.jsonl:first-try"];
    assert_snapshot!(env.run(&args), @"
    base b2000005
                     fork.jsonl:@ (b2000005)  diff.jsonl:first-try (b2000005)
    entries          0                        0
    user prompts     0                        0
    assistant turns  0                        0
    tool calls       -                        -
    files read       -                        -
    files changed    -                        -
    commands         -                        -
    errors           0                        0
    tokens           0                        0
    cost             $0.0000                  $0.0000
    time             -                        -
    ");
}

/// A REV that names nothing fails as elsewhere (exit 4).
#[test]
fn unknown_rev() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    assert_snapshot!(env.run(&["-f", "diff.jsonl", "diff", "nope"]), @"
    ------- stderr -------
    error: no entry matches 'nope'
    [exit status: 4]
    ");
}

/// A fork pi 1.6.0 wrote (`createBranchedSession`) keeps the ids of the path it copies: the
/// base is found across the files, as with sesstree's own fork.
#[test]
fn a_fork_written_by_pi_1_6_0() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    env.fixture("diff-pi-fork.jsonl");
    let args = ["-f", "diff-pi-fork.jsonl", "--json", "diff", "@", "diff.jsonl:@"];
    let out: serde_json::Value = serde_json::from_str(&env.run(&args)).unwrap();
    assert_eq!(out["base"], "a1000003");
    assert_eq!(out["sides"][0]["entries"][0], "b2000001");
    assert_eq!(out["sides"][1]["entries"][0], "c3000001");
}

/// Tool names, paths, commands, labels and prompts from the file reach the terminal escaped,
/// in the summary, the rows and the context diff alike; a member of an unexpected type (`isError`
/// of `a2`) reads as missing, and leaves the rest of its message counted.
#[test]
fn hostile_text_is_escaped() {
    let env = TestEnv::new();
    let esc = "\\u001b[31m";
    let call = |id: &str, name: &str, args: &str| {
        format!(r#"{{"type":"toolCall","id":"{id}","name":"{name}{esc}","arguments":{args}}}"#)
    };
    let lines = [
        r#"{"type":"session","version":3,"id":"s","cwd":"/w"}"#.to_owned(),
        format!(
            r#"{{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{{"role":"user","content":"go{esc}"}}}}"#
        ),
        format!(
            r#"{{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"assistant","content":[{},{}],"stopReason":"toolUse"}}}}"#,
            call("c1", "read", &format!(r#"{{"path":"x{esc}.rs"}}"#)),
            call("c2", "bash", &format!(r#"{{"command":"rm{esc}"}}"#)),
        ),
        format!(
            r#"{{"type":"message","id":"a2","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{{"role":"assistant","content":[{}],"isError":[1]}}}}"#,
            call("c3", "edit", &format!(r#"{{"path":"y{esc}.rs"}}"#)),
        ),
        format!(
            r#"{{"type":"label","id":"l1","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z","targetId":"a2","label":"l{esc}"}}"#
        ),
        format!(
            r#"{{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-01-01T00:00:04.000Z","message":{{"role":"user","content":"one{esc}"}}}}"#
        ),
        format!(
            r#"{{"type":"message","id":"u3","parentId":"l1","timestamp":"2026-01-01T00:00:05.000Z","message":{{"role":"user","content":"two{esc}"}}}}"#
        ),
    ];
    env.write("h.jsonl", lines.join("\n") + "\n");
    for args in [&["diff", "u2", "u3"][..], &["diff", "--context", "u2", "u3"]] {
        let mut cmd = env.cmd();
        cmd.env("COLUMNS", "200").args(["-f", "h.jsonl"]).args(args);
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", env.render(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("two\\x1b[31m"), "{text}");
        if !args.contains(&"--context") {
            assert!(text.contains("edit\\x1b[31m 1"), "{text}");
        }
        let raw = text.chars().find(|&c| c.is_control() && !matches!(c, '\n' | '\t'));
        assert_eq!(raw, None, "{text}");
    }
}

/// Coloured rows stand side by side as the plain ones do: a row's width is measured without
/// its colours.
#[test]
fn colours_keep_the_columns() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let run = |color: &str| {
        let mut cmd = env.cmd();
        cmd.env("COLUMNS", "130").args(["--color", color, "-f", "diff.jsonl", "diff", "first-try"]);
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    let colored = run("always");
    assert!(colored.contains('\x1b'));
    let mut stripped = String::new();
    let mut in_escape = false;
    for c in colored.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, c) => stripped.push(c),
        }
    }
    assert_eq!(stripped, run("never"));
}
