//! Claude Code transcripts (tests/fixtures/claude/): every read command reads their tree, with
//! the leaf where oh-my-pi 18.2.3's importer (`claude-session-store.ts`) continues; writers
//! refuse them.

use crate::common::TestEnv;

/// A copy of the Claude Code fixture `name` in a fresh directory.
fn env_with(name: &str) -> TestEnv {
    let env = TestEnv::new();
    env.write(name, std::fs::read(crate::common::fixtures().join("claude").join(name)).unwrap());
    env
}

#[test]
fn a_rewind_is_a_branch_and_the_leaf_is_the_last_main_chain_message() {
    // The leaf is not the trailing system record, nor the `last-prompt` record's leafUuid
    // (00001007, the abandoned branch): oh-my-pi 18.2.3's importer continues from the last
    // message record it converts.
    let env = env_with("rewind.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "rewind.jsonl", "tree"]), @r#"
    • 00001001 user: Add a --json flag to tally stats.
    • 00001004 [Read: {"file_path":"src/stats.rs"}]
    • 00001005 assistant: I can derive Serialize with serde.
    ├─ • 00001008 user: No new dependencies: write the JSON by hand.
    │  • 00001009 assistant: Wrote src/json.rs by hand; tests pass. ← active
    └─ 00001006 user: Use serde_json for it.
       00001007 assistant: Added serde_json; the build fails offline.
    "#);
    insta::assert_snapshot!(env.run(&["-f", "rewind.jsonl", "log", "-n", "2"]), @r"
    00001009 message 2026-03-01 10:00:09 +0000 assistant: Wrote src/json.rs by hand; tests pass.
    00001008 message 2026-03-01 10:00:08 +0000 user: No new dependencies: write the JSON by hand.
    ");
}

#[test]
fn the_title_is_the_custom_title_else_the_ai_title_and_usage_is_counted() {
    // oh-my-pi 18.2.3's importer: `custom-title`, else `ai-title`.
    let env = env_with("rewind.jsonl");
    env.write(
        "edit.jsonl",
        std::fs::read(crate::common::fixtures().join("claude/edit.jsonl")).unwrap(),
    );
    insta::assert_snapshot!(env.run(&["stats", "rewind.jsonl", "edit.jsonl"]), @r"
    rewind.jsonl
      name:          tally --json
      entries:       10 (custom 1, message 9)
      shape:         1 root, 2 leaves, 1 branch point, depth 8
      labels:        0
      usage (file):  500 in, 200 out, 1500 cache read, 100 cache write, 2300 total tokens, cost $0.0000
      usage (path):  400 in, 160 out, 1200 cache read, 80 cache write, 1840 total tokens, cost $0.0000
    edit.jsonl
      name:          Hello world in Rust
      entries:       11 (custom_message 1, message 10)
      shape:         1 root, 2 leaves, 1 branch point, depth 9
      labels:        0
      usage (file):  400 in, 160 out, 1200 cache read, 80 cache write, 1840 total tokens, cost $0.0000
        anthropic/claude-sonnet-4-5: $0.0000 (920 tokens)
        anthropic/<synthetic>: $0.0000 (460 tokens)
        anthropic/claude-opus-4-1: $0.0000 (460 tokens)
      usage (path):  300 in, 120 out, 900 cache read, 60 cache write, 1380 total tokens, cost $0.0000
    total (2 files)
      entries:       21
      usage (files): 900 in, 360 out, 2700 cache read, 180 cache write, 4140 total tokens, cost $0.0000
      usage (paths): 700 in, 280 out, 2100 cache read, 140 cache write, 3220 total tokens, cost $0.0000
    ");
}

#[test]
fn a_compaction_hangs_from_its_logical_parent_and_starts_the_context() {
    let env = env_with("compact.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "compact.jsonl", "tree"]), @r#"
    • 00001001 user: Add a --json flag to tally stats.
    • 00001002 assistant: Which output shape?
    ├─ • 00001005 user: One object per file, no dependencies.
    │  • 00001006 assistant: Done by hand.
    │  • 00001008 [compaction: 51k tokens]
    │  • 00001009 user: Now add a --csv flag.
    │  • 0000100a assistant: Added --csv. ← active
    └─ 00001003 user: One object per file.
       00001004 assistant: Done with serde.
    "#);
    let json = env.run(&["-f", "compact.jsonl", "--json", "context"]);
    let context: serde_json::Value = serde_json::from_str(&json).unwrap();
    let messages = context["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{json}");
    let first = messages[0]["content"][0]["text"].as_str().unwrap();
    assert!(first.contains("Summary: tally stats gained --json"), "{first}");
    assert_eq!(messages[1]["content"], "Now add a --csv flag.");
}

#[test]
fn edit_and_resend_meta_records_and_several_tool_results_in_one_record() {
    // An edited prompt is a sibling of the one it replaces; an isMeta record is a hidden
    // custom_message; a record with two tool results and a text makes three entries, the later
    // ones `<uuid>.2`, `<uuid>.3`.
    let env = env_with("edit.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "edit.jsonl", "tree", "--filter", "all"]), @r#"
    • 00001001 [claude-meta]: <command-name>/init</command-name>
    • 00001002 user: List the files and count the lines.
    • 00001004 [Bash: {"command":"ls"}]
    • 00001004 [Bash: {"command":"wc -l src/*.rs"}]
    • 00001004 user: Also check tests/.
    • 00001005 assistant: There is no src/*.rs yet.
    ├─ • 00001008 user: Write a main.rs that prints hello world.
    │  • 00001009 assistant: Wrote src/main.rs. ← active
    └─ 00001006 user: Write a main.rs that prints hello.
       00001007 assistant: API Error: overloaded
    "#);
    insta::assert_snapshot!(env.run(&["-f", "edit.jsonl", "show", "00001004-0000-4000-8000-000000000004.2"]), @r#"
    entry 00001004-0000-4000-8000-000000000004.2 (message, toolResult)
    Parent: 00001004-0000-4000-8000-000000000004
    Date:   2026-03-01 10:00:04 +0000

    Result of Bash (toolu_b), called with:
        {
          "command": "wc -l src/*.rs"
        }

    Error:
        wc: src/*.rs: No such file
    "#);
}

#[test]
fn sidechains_hang_where_they_are_and_never_hold_the_leaf() {
    // The last record is a sidechain's: the leaf stays on the main chain.
    let env = env_with("sidechain.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "sidechain.jsonl", "tree"]), @r#"
    • 00001001 user: Find where the stats are printed.
    │  • 00001005 [Task: {"description":"find printing","prompt":...]
    │  • 00001006 assistant: They are printed by print_table in src/main.rs. ← active
    00001003 user: Find where stats are printed.
       00001004 assistant: In src/main.rs, fn print_table.
       00001007 user: Also list its callers.
    "#);
}

#[test]
fn a_subagent_file_of_sidechains_alone_ends_at_its_last_message() {
    let env = TestEnv::new();
    let fixture = crate::common::fixtures().join("claude/sidechain/subagents/agent-d4e5f6.jsonl");
    env.write("agent.jsonl", std::fs::read(fixture).unwrap());
    insta::assert_snapshot!(env.run(&["-f", "agent.jsonl", "log"]), @r#"
    0000100e message 2026-03-01 10:00:14 +0000 assistant: One caller: src/main.rs:12.
    0000100d message 2026-03-01 10:00:13 +0000 [Grep: {"pattern":"print_table"}]
    0000100b message 2026-03-01 10:00:11 +0000 user: Count the callers of print_table.
    "#);
}

#[test]
fn a_subagents_file_beside_the_transcript_is_read_with_it() {
    // Claude Code 2.1.2 on writes a subagent's sidechain to <session>/subagents/agent-<id>.jsonl:
    // its records join the tree as the sidechains in the file do (a root of their own here),
    // and `--raw` reads their lines from that file.
    let env = env_with("sidechain.jsonl");
    std::fs::create_dir_all(env.path().join("sidechain/subagents")).unwrap();
    let agent = "sidechain/subagents/agent-d4e5f6.jsonl";
    let fixture = std::fs::read(crate::common::fixtures().join("claude").join(agent)).unwrap();
    env.write(agent, &fixture);
    insta::assert_snapshot!(env.run(&["-f", "sidechain.jsonl", "tree"]), @r#"
    • 00001001 user: Find where the stats are printed.
    │  • 00001005 [Task: {"description":"find printing","prompt":...]
    │  • 00001006 assistant: They are printed by print_table in src/main.rs. ← active
    00001003 user: Find where stats are printed.
    │  00001004 assistant: In src/main.rs, fn print_table.
    │  00001007 user: Also list its callers.
    0000100b user: Count the callers of print_table.
       0000100d [Grep: {"pattern":"print_table"}]
       0000100e assistant: One caller: src/main.rs:12.
    "#);
    let raw = env.run(&["-f", "sidechain.jsonl", "show", "--raw", "0000100e"]);
    let last = fixture.split(|&b| b == b'\n').rfind(|l| !l.is_empty()).unwrap();
    assert_eq!(raw.trim_end(), String::from_utf8_lossy(last));
}

#[test]
fn grep_finds_entries_with_the_lines_of_the_transcript() {
    let env = env_with("rewind.jsonl");
    let json = env.run(&["--json", "grep", "serde", "rewind.jsonl"]);
    let hits: Vec<serde_json::Value> =
        json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let found: Vec<_> = hits
        .iter()
        .map(|h| {
            (
                h["entryId"].as_str().unwrap(),
                h["line"].as_u64().unwrap(),
                h["onActivePath"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("00001005-0000-4000-8000-000000000005", 6, true),
            ("00001006-0000-4000-8000-000000000006", 7, false),
            ("00001007-0000-4000-8000-000000000007", 8, false),
        ]
    );
}

#[test]
fn writers_refuse_and_leave_the_file_as_it_was() {
    let env = env_with("rewind.jsonl");
    let before = env.read("rewind.jsonl");
    for args in [
        &["-f", "rewind.jsonl", "label", "00001005", "x"][..],
        &["-f", "rewind.jsonl", "checkout", "00001005"],
        &["-f", "rewind.jsonl", "name", "x"],
        &["-f", "rewind.jsonl", "fork", "00001008", "-o", "out.jsonl"],
        &["-f", "rewind.jsonl", "migrate"],
        &["fsck", "--repair", "-o", "out.jsonl", "rewind.jsonl"],
        &["-f", "rewind.jsonl", "prune", "00001006"],
    ] {
        insta::allow_duplicates! { insta::assert_snapshot!(env.run(args), @r"
        ------- stderr -------
        error: rewind.jsonl: read-only: a Claude Code session; `sesstree import` makes an oh-my-pi or pi session of it
        [exit status: 2]
        ") };
    }
    assert_eq!(env.read("rewind.jsonl"), before);
    assert!(!env.path().join("out.jsonl").exists());
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn import_writes_what_oh_my_pi_s_importer_writes() {
    // oh-my-pi 18.2.3's ClaudeSessionStore + persistForeignSession: ids `claude-<uuid>-…`, a
    // model_change before the first reply, the rewind kept as a branch, the title in the slot,
    // the header and a title_change, then the foreign_session_import record as the leaf (the
    // oracle compares the entries with the importer's own, tests/oracle).
    let env = env_with("rewind.jsonl");
    insta::assert_snapshot!(env.run(&["import", "rewind.jsonl", "-o", "out.jsonl"]), @r"
    ------- stderr -------
    Imported to $TMP/out.jsonl
    ");
    insta::assert_snapshot!(env.run(&["-f", "out.jsonl", "tree", "--filter", "all"]), @r#"
    • claude-0 user: Add a --json flag to tally stats.
    • claude-0 [model: anthropic/claude-sonnet-4-5]
    • claude-0 [Read: {"file_path":"src/stats.rs"}]
    • claude-0 assistant: I can derive Serialize with serde.
    ├─ • claude-0 user: No new dependencies: write the JSON by hand.
    │  • claude-0 assistant: Wrote src/json.rs by hand; tests pass.
    │  • ae175332 [title: tally --json]
    │  • ecb8ad47 [custom: foreign_session_import] ← active
    └─ claude-0 user: Use serde_json for it.
       claude-0 assistant: Added serde_json; the build fails offline.
    "#);
    let text = String::from_utf8(env.read("out.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(text.lines().next().unwrap().len(), 255, "the 256-byte title slot");
    assert_eq!(lines[0]["title"], "tally --json");
    assert_eq!(lines[1]["cwd"], "/home/u/tally");
    assert_eq!(lines[2]["id"], "claude-00001001-0000-4000-8000-000000000001-message-1");
    let last = lines.last().unwrap();
    assert_eq!(last["data"]["sourceId"], "rewind");
    assert_eq!(last["data"]["sourceCwd"], "/home/u/tally");
    assert_eq!(
        env.read("rewind.jsonl"),
        std::fs::read(crate::common::fixtures().join("claude/rewind.jsonl")).unwrap()
    );
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn import_goes_to_oh_my_pi_s_directory_for_the_transcript_s_cwd() {
    let env = env_with("compact.jsonl");
    insta::assert_snapshot!(env.run(&["--json", "import", "compact.jsonl"]), @r#"{"path":"$TMP/home/.omp/agent/sessions/--home-u-tally--/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl","sessionId":"019ca945-0a00-7716-a104-d9866d113a7e"}"#);
    let dir = env.path().join("home/.omp/agent/sessions/--home-u-tally--");
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 1);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn import_refuses_a_file_that_is_not_a_transcript_and_an_existing_target() {
    let env = env_with("edit.jsonl");
    env.write("out.jsonl", "x");
    insta::assert_snapshot!(env.run(&["import", "out.jsonl", "-o", "new.jsonl"]), @r"
    ------- stderr -------
    error: out.jsonl: not a Claude Code or Codex transcript; import reads those
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["import", "edit.jsonl", "-o", "out.jsonl"]), @r"
    ------- stderr -------
    error: $TMP/out.jsonl: already exists (use --force to overwrite)
    [exit status: 5]
    ");
    assert_eq!(env.read("out.jsonl"), b"x");
}

#[test]
fn import_to_pi_writes_pi_s_shapes() {
    // pi 1.6.0: no title slot (pi refuses a file whose first line is not its header), a
    // model_change {provider, modelId}, the name in a session_info; opened and continued by
    // pi 1.6.0 and 0.73.1 in the oracle.
    let env = env_with("rewind.jsonl");
    env.run(&["import", "rewind.jsonl", "--to", "pi", "-o", "pi.jsonl"]);
    let text = String::from_utf8(env.read("pi.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["type"], "session");
    assert_eq!(lines[0].get("title"), None);
    assert_eq!(lines[2]["type"], "model_change");
    assert_eq!(
        (&lines[2]["provider"], &lines[2]["modelId"]),
        (&"anthropic".into(), &"claude-sonnet-4-5".into())
    );
    let info = &lines[lines.len() - 2];
    assert_eq!((&info["type"], &info["name"]), (&"session_info".into(), &"tally --json".into()));
    insta::assert_snapshot!(env.run(&["-f", "pi.jsonl", "name"]), @"tally --json");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn import_to_pi_refuses_a_subagent_file_without_messages_outside_sidechains() {
    let env = TestEnv::new();
    let fixture = crate::common::fixtures().join("claude/sidechain/subagents/agent-d4e5f6.jsonl");
    env.write("agent.jsonl", std::fs::read(fixture).unwrap());
    insta::assert_snapshot!(env.run(&["import", "agent.jsonl", "--to", "pi", "-o", "pi.jsonl"]), @r"
    ------- stderr -------
    error: $TMP/agent.jsonl: nothing to import: no message outside sidechains (a subagent's file holds sidechains alone), and pi writes no session without one
    [exit status: 2]
    ");
    assert!(!env.path().join("pi.jsonl").exists());
}

#[test]
fn raw_prints_the_transcript_s_own_line() {
    // The entries are read through their conversion, but --raw is the file's line, byte for
    // byte: the second tool result of line 4 (entry `.2`) prints that line too.
    let env = env_with("edit.jsonl");
    let transcript = String::from_utf8(env.read("edit.jsonl")).unwrap();
    let line = |n: usize| format!("{}\n", transcript.lines().nth(n - 1).unwrap());
    let shown =
        env.run(&["-f", "edit.jsonl", "show", "--raw", "00001004-0000-4000-8000-000000000004.2"]);
    assert_eq!(shown, line(4));
    let log = env.run(&["-f", "edit.jsonl", "log", "--raw", "-n", "2"]);
    assert_eq!(log, line(9) + &line(8));
}

#[test]
fn import_file_rev_continues_the_branch_of_rev() {
    // FILE:REV imports the transcript as it stood when REV's record was written: here the
    // branch the rewind abandoned, whose last message is the leaf oh-my-pi resumes.
    let env = env_with("rewind.jsonl");
    env.run(&["import", "rewind.jsonl:00001007", "-o", "out.jsonl"]);
    insta::assert_snapshot!(env.run(&["-f", "out.jsonl", "tree"]), @r#"
    • claude-0 user: Add a --json flag to tally stats.
    • claude-0 [Read: {"file_path":"src/stats.rs"}]
    • claude-0 assistant: I can derive Serialize with serde.
    • claude-0 user: Use serde_json for it.
    • claude-0 assistant: Added serde_json; the build fails offline. ← active (leaf ae175332 hidden)
    "#);
    insta::assert_snapshot!(env.run(&["import", "rewind.jsonl:nope", "-o", "no.jsonl"]), @r"
    ------- stderr -------
    error: no entry matches 'nope'
    [exit status: 4]
    ");
}

/// A copy of `task.jsonl` and its subagent's file, where Claude Code 2.1.2 on puts it.
fn env_with_task() -> TestEnv {
    let env = env_with("task.jsonl");
    let agent = "task/subagents/agent-0a1b2c.jsonl";
    std::fs::create_dir_all(env.path().join("task/subagents")).unwrap();
    env.write(agent, std::fs::read(crate::common::fixtures().join("claude").join(agent)).unwrap());
    env
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn ls_counts_the_subagents_files_in_the_transcript_s_row_and_lists_them_with_it() {
    // 4 records in the transcript, 4 in its subagent's file: 8 entries, as `log` reads them.
    // The subagent ran during the Task call, so the transcript's last entry (10:00:09), not the
    // subagent's (10:00:05, the last line read), is the last activity.
    let env = env_with_task();
    let agent = "task/subagents/agent-0a1b2c.jsonl";
    insta::assert_snapshot!(env.run(&["--json", "ls", "task.jsonl", agent]), @r#"{"path":"task.jsonl","sessionId":"5f1c8e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b","name":null,"cwd":"/home/u/tally","entries":8,"lastActivity":"2026-03-01T10:00:09.000Z","firstPrompt":"Rename print_table to render_table.","laneFormat":false,"current":false}"#);
    // `--tree` looks into the transcript's directory, and finds the file it reads already.
    insta::assert_snapshot!(env.run(&["ls", "--tree", "."]), @"./task.jsonl  8 entries  2026-03-01 10:00:09 +0000");
    // Without its transcript, the subagent's file is a session of its own.
    insta::assert_snapshot!(env.run(&["ls", "--tree", agent]), @"task/subagents/agent-0a1b2c.jsonl  4 entries  2026-03-01 10:00:05 +0000");
}

/// `task.jsonl` with its first prompt made longer than what a first read of a file takes in
/// (64 KiB), and a last record that has no time: a system record, which makes an entry.
fn env_with_long_first_prompt() -> TestEnv {
    let env = env_with_task();
    let text = String::from_utf8(env.read("task.jsonl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let prompt = "Rename print_table to render_table.";
    lines[0] = lines[0].replace(prompt, &format!("{prompt}{}", " Keep its output.".repeat(5000)));
    lines.push(
        r#"{"parentUuid":"00001013-0000-4000-8000-000000000013","isSidechain":false,"type":"system","subtype":"turn_duration","uuid":"00001099-0000-4000-8000-000000000099","durationMs":8000}"#
            .to_owned(),
    );
    env.write("task.jsonl", lines.join("\n") + "\n");
    env
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn ls_reads_a_transcript_whose_first_prompt_is_long_and_whose_last_record_has_no_time() {
    // The first line is read whole to tell the transcript (before, `ls` read it as a session
    // without a header: no id, no cwd, its subagent's file neither counted nor listed); the
    // last activity is the last entry's that has a time (10:00:09), not the file's mtime.
    let env = env_with_long_first_prompt();
    let json = env.run(&["--json", "ls", "task.jsonl"]);
    let row: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(row["sessionId"], "5f1c8e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b");
    assert_eq!(row["cwd"], "/home/u/tally");
    assert_eq!(row["entries"], 9);
    assert_eq!(row["lastActivity"], "2026-03-01T10:00:09.000Z");
    insta::assert_snapshot!(env.run(&["ls", "--tree", "."]), @"./task.jsonl  9 entries  2026-03-01 10:00:09 +0000");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn grep_names_a_hit_by_the_file_it_is_written_in_once() {
    // The directory holds the transcript and its subagent's file: each hit once, under the
    // file its record is in, with its line there (the subagent's Grep result, line 3, does not
    // match), placed in the tree of the whole session (a sidechain is off the path).
    let env = env_with_task();
    insta::assert_snapshot!(env.run(&["grep", "print_table", "."]), @r"
    ./task.jsonl  5f1c8e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b
    00001010 user: Rename print_table to render_table.
    00001011 assistant: Find every caller of print_table.
    00001012 tool: print_table is called once, in src/main.rs:12.
    00001013 assistant: Renamed print_table to render_table in src/main.rs.

    ./task/subagents/agent-0a1b2c.jsonl  5f1c8e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b
    00001014 user: Find every caller of print_table. (off path)
    00001015 assistant: print_table (off path)
    00001017 assistant: print_table is called once, in src/main.rs:12. (off path)
    ");
    let json = env.run(&["--json", "grep", "called once", "."]);
    let hits: Vec<(String, u64)> = json
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|h| (h["file"].as_str().unwrap().to_owned(), h["line"].as_u64().unwrap()))
        .collect();
    let agent = "./task/subagents/agent-0a1b2c.jsonl";
    assert_eq!(hits, [("./task.jsonl".to_owned(), 3), (agent.to_owned(), 4)]);
    // -l and -c count each file's own hits: the subagent's file has its own first hit.
    insta::assert_snapshot!(env.run(&["grep", "-c", "print_table", "."]), @r"
    ./task.jsonl:4
    ./task/subagents/agent-0a1b2c.jsonl:3
    ");
    insta::assert_snapshot!(env.run(&["grep", "-l", "print_table", "."]), @r"
    ./task.jsonl
    ./task/subagents/agent-0a1b2c.jsonl
    ");
    // Named alone, the subagent's file is searched as the session it is read as on its own.
    insta::assert_snapshot!(env.run(&["grep", "print_table", "task/subagents/agent-0a1b2c.jsonl"]), @r"
    task/subagents/agent-0a1b2c.jsonl  5f1c8e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b
    00001014 user: Find every caller of print_table.
    00001015 assistant: print_table
    00001017 assistant: print_table is called once, in src/main.rs:12.
    ");
}

#[test]
fn import_reads_the_transcript_without_its_subagents_files() {
    // oh-my-pi 18.2.3's ClaudeSessionStore.load reads the one path it is given (and skips
    // sidechain records): the subagent's file beside the transcript changes nothing.
    let env = env_with_task();
    env.run(&["import", "task.jsonl", "-o", "with.jsonl"]);
    std::fs::remove_dir_all(env.path().join("task")).unwrap();
    env.run(&["import", "task.jsonl", "-o", "without.jsonl"]);
    assert_eq!(env.read("with.jsonl"), env.read("without.jsonl"));
    let entries = String::from_utf8(env.read("with.jsonl")).unwrap().lines().count();
    assert_eq!(entries, 8, "slot, header, 4 messages, model_change, foreign_session_import");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn import_refuses_a_rev_in_a_subagent_s_file() {
    let env = env_with_task();
    insta::assert_snapshot!(env.run(&["import", "task.jsonl:00001015", "-o", "out.jsonl"]), @r"
    ------- stderr -------
    error: 00001015 is in task/subagents/agent-0a1b2c.jsonl, a subagent's file, which import leaves out as oh-my-pi's importer does
    [exit status: 2]
    ");
    assert!(!env.path().join("out.jsonl").exists());
}
