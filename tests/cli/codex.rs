//! Codex rollouts (tests/fixtures/codex/): every read command reads them, a rollback drawn as an
//! abandoned branch and the leaf at the end of the rollout after its rollbacks; writers refuse
//! them; `import` writes what oh-my-pi 18.2.3's importer (`codex-session-store.ts`) writes.

use crate::common::TestEnv;

/// A copy of the Codex fixture `name` in a fresh directory.
fn env_with(name: &str) -> TestEnv {
    let env = TestEnv::new();
    env.write(name, std::fs::read(crate::common::fixtures().join("codex").join(name)).unwrap());
    env
}

#[test]
fn a_rollback_is_an_abandoned_branch_and_events_repeating_items_are_left_out() {
    // The `user_message` and `agent_message` events repeat the response items: one entry each.
    let env = env_with("rollback.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "rollback.jsonl", "tree"]), @r#"
    • L2 user: <environment_context>   <cwd>/home/u/tally</cwd> </environment_context>
    • L4 user: Add a --json flag to tally stats.
    • L8 [shell: {"command":["cat","src/stats.rs"]}]
    • L9 assistant: I will derive Serialize with serde.
    ├─ • L17 user: No dependencies: write the JSON by hand.
    │  • L20 assistant: Wrote src/json.rs by hand.
    │  • L23.2 [docs/lookup: {"q":"serde"}] ← active
    └─ L12 user: Use serde_json.
       L14 assistant: Added serde_json; the build fails offline.
    "#);
    insta::assert_snapshot!(env.run(&["stats", "rollback.jsonl"]), @r"
    rollback.jsonl
      name:          tally --json by hand
      entries:       14 (message 12, model_change 2)
      shape:         1 root, 2 leaves, 1 branch point, depth 12
      labels:        0
      usage (file):  0 in, 0 out, 0 cache read, 0 cache write, 0 total tokens, cost $0.0000
      usage (path):  0 in, 0 out, 0 cache read, 0 cache write, 0 total tokens, cost $0.0000
    ");
}

#[test]
fn a_rollback_at_the_end_leaves_the_leaf_before_the_turn_it_takes_back() {
    // The last turn (L12, "And --xml.") is rolled back: the leaf is L10, not the last entry.
    let env = env_with("compact.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "compact.jsonl", "tree"]), @r"
    • L3 user: Add a --csv flag.
    • L5 assistant: Added --csv.
    • L7 [compaction: 0k tokens]
    • L8 user: Now add --tsv.
    • L10 assistant: Added --tsv. ← active
    L12 user: And --xml.
    ");
    // The compaction keeps nothing before it: the context is its summary and what follows.
    let json = env.run(&["-f", "compact.jsonl", "--json", "context"]);
    let context: serde_json::Value = serde_json::from_str(&json).unwrap();
    let messages = context["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{json}");
    let summary = messages[0]["content"][0]["text"].as_str().unwrap();
    assert!(summary.contains("The user added --json and --csv"), "{summary}");
}

#[test]
fn grep_finds_entries_with_the_lines_of_the_rollout() {
    let env = env_with("rollback.jsonl");
    let json = env.run(&["--json", "grep", "serde", "rollback.jsonl"]);
    let hits: Vec<(String, u64, bool)> = json
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|h| {
            let id = h["entryId"].as_str().unwrap().to_string();
            (id, h["line"].as_u64().unwrap(), h["onActivePath"].as_bool().unwrap())
        })
        .collect();
    // The MCP call and its result (L23, L23.2) come from one line of the rollout.
    let expected = [
        ("L9", 9, true),
        ("L12", 12, false),
        ("L14", 14, false),
        ("L23", 23, true),
        ("L23.2", 23, true),
    ];
    let expected: Vec<_> = expected.iter().map(|(i, l, a)| (i.to_string(), *l, *a)).collect();
    assert_eq!(hits, expected);
}

#[test]
fn writers_refuse_a_codex_session() {
    let env = env_with("compact.jsonl");
    let before = env.read("compact.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "compact.jsonl", "label", "L8", "x"]), @r"
    ------- stderr -------
    error: compact.jsonl: read-only: a Codex session; `sesstree import` makes an oh-my-pi or pi session of it
    [exit status: 2]
    ");
    assert_eq!(env.read("compact.jsonl"), before);
}

#[test]
fn import_keeps_what_the_rollbacks_leave_in_one_chain() {
    // oh-my-pi's ids `codex-<n>` count every item, the thread name's too (codex-b is skipped
    // in rollback.jsonl); the compaction keeps nothing before it.
    let env = env_with("compact.jsonl");
    env.run(&["import", "compact.jsonl", "-o", "out.jsonl"]);
    insta::assert_snapshot!(env.run(&["-f", "out.jsonl", "tree", "--filter", "all"]), @r"
    • codex-1 [model: openai-codex/gpt-5-codex]
    • codex-2 user: Add a --csv flag.
    • codex-3 assistant: Added --csv.
    • codex-4 [compaction: 0k tokens]
    • codex-5 user: Now add --tsv.
    • codex-6 assistant: Added --tsv.
    • ae175332 [custom: foreign_session_import] ← active
    ");
    let env = env_with("rollback.jsonl");
    env.run(&["import", "rollback.jsonl", "--to", "pi", "-o", "pi.jsonl"]);
    let text = String::from_utf8(env.read("pi.jsonl")).unwrap();
    let ids: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter_map(|v| v["id"].as_str().filter(|id| id.starts_with("codex-")).map(str::to_owned))
        .collect();
    let want = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "c", "d"];
    assert_eq!(ids, want.map(|n| format!("codex-{n}")));
    assert!(text.contains(r#""provider":"openai-codex","modelId":"gpt-5.1-codex""#), "{text}");
    assert!(text.contains(r#""type":"session_info""#), "{text}");
}

#[test]
fn raw_prints_the_rollout_s_own_line() {
    let env = env_with("rollback.jsonl");
    let rollout = String::from_utf8(env.read("rollback.jsonl")).unwrap();
    let line = |n: usize| format!("{}\n", rollout.lines().nth(n - 1).unwrap());
    assert_eq!(env.run(&["-f", "rollback.jsonl", "show", "--raw", "L23.2"]), line(23));
    assert_eq!(env.run(&["-f", "rollback.jsonl", "show", "--raw", "L9"]), line(9));
}

/// A Codex fork is a rollout of its own whose `session_meta` names the thread it came from
/// (`forked_from_id`): `ls --tree` hangs it under that session, as it hangs pi's forks.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_fork_hangs_under_the_rollout_it_came_from() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join("s")).unwrap();
    for name in ["rollback.jsonl", "fork.jsonl"] {
        let fixture = std::fs::read(crate::common::fixtures().join("codex").join(name)).unwrap();
        env.write(&format!("s/{name}"), fixture);
    }
    insta::assert_snapshot!(env.run(&["ls", "--tree", "s"]), @"
    s/rollback.jsonl  14 entries  2026-03-02 09:00:23 +0000  tally --json by hand
    └─ s/fork.jsonl  5 entries  2026-03-02 10:00:03 +0000
    ");
    let json = env.run(&["ls", "--tree", "--json", "s"]);
    let parents: Vec<(String, serde_json::Value)> = json
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|s| (s["path"].as_str().unwrap().to_owned(), s["parent"].clone()))
        .collect();
    assert_eq!(
        parents,
        [
            ("s/rollback.jsonl".to_owned(), serde_json::Value::Null),
            ("s/fork.jsonl".to_owned(), "s/rollback.jsonl".into())
        ]
    );
}
