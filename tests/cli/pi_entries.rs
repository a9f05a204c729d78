//! Entry types today's pi writes (CHANGES.md): `usage` (P2), `context_edit` (P3).

use insta::assert_snapshot;

use crate::common::TestEnv;

/// A pi session whose leaf is a `usage` entry (a cache warm-up billed outside a response),
/// after a compaction that carries the cost of its summary.
const SESSION: &str = r#"{"type":"session","version":3,"id":"019cb400-0000-7000-8000-000000000001","timestamp":"2026-09-30T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-09-30T10:00:01.000Z","message":{"role":"user","content":"Warm the cache, then summarize."}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-09-30T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}},"stopReason":"stop"}}
{"type":"compaction","id":"c1","parentId":"a1","timestamp":"2026-09-30T10:00:03.000Z","summary":"The user asked for a warm cache.","firstKeptEntryId":"a1","tokensBefore":1200,"usage":{"input":100,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":120,"cost":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"total":3}}}
{"type":"usage","id":"w1","parentId":"c1","timestamp":"2026-09-30T10:00:04.000Z","kind":"cache_warm","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":4000,"totalTokens":4000,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0.5,"total":0.5}}}
"#;

#[test]
fn a_usage_entry_is_a_settings_row_counted_in_stats_and_not_in_the_context() {
    let env = TestEnv::new();
    env.write("p.jsonl", SESSION);
    let run = |args: &[&str]| env.run(&[&["-f", "p.jsonl"], args].concat());
    // Hidden by the default filter as a settings row (the leaf's stand-in says so), shown
    // with `all`.
    assert_snapshot!(run(&["tree"]), @"
    • u1 user: Warm the cache, then summarize.
    • a1 assistant: Done.
    • c1 [compaction: 1k tokens] ← active (leaf w1 hidden)
    ");
    assert_snapshot!(run(&["tree", "--filter", "all"]), @"
    • u1 user: Warm the cache, then summarize.
    • a1 assistant: Done.
    • c1 [compaction: 1k tokens]
    • w1 [usage: cache_warm anthropic/claude-sonnet-4-5] ← active
    ");
    assert_snapshot!(run(&["tree", "--filter", "all", "--search", "cache_warm"]), @"• w1 [usage: cache_warm anthropic/claude-sonnet-4-5] ← active");
    // The entry's usage and the compaction's count in the totals.
    assert_snapshot!(run(&["--json", "stats"]), @r#"{"file":"p.jsonl","name":null,"entries":4,"byType":{"compaction":1,"message":2,"usage":1},"roots":1,"leaves":1,"branchPoints":0,"depth":4,"labels":0,"problems":0,"usage":{"input":110,"output":25,"cacheRead":0,"cacheWrite":4000,"totalTokens":4135,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":3.8,"subagentCost":0.0},"pathUsage":{"input":110,"output":25,"cacheRead":0,"cacheWrite":4000,"totalTokens":4135,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":3.8,"subagentCost":0.0},"costBreakdown":[{"key":"Tools/summaries","cost":3.0,"tokens":120},{"key":"anthropic/claude-sonnet-4-5","cost":0.8,"tokens":4015}]}"#);
    // The model never sees it.
    let context = run(&["--json", "context"]);
    assert!(!context.contains("cache_warm"), "{context}");
    assert!(context.contains("The user asked for a warm cache."), "{context}");
}

/// A `context_edit` on the path drops or replaces an earlier entry's part of the context, as
/// pi's does; off the path it does nothing. It is a settings row.
#[test]
fn a_context_edit_drops_or_replaces_its_target_in_the_context() {
    let env = TestEnv::new();
    let header = r#"{"type":"session","version":3,"id":"019cb400-0000-7000-8000-000000000002","timestamp":"2026-09-30T10:00:00.000Z","cwd":"/w"}"#;
    let lines = [
        header,
        r#"{"type":"message","id":"u1","parentId":null,"timestamp":"2026-09-30T10:00:01.000Z","message":{"role":"user","content":"Here is my API key: sk-secret."}}"#,
        r#"{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-09-30T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Noted the key."}],"stopReason":"stop"}}"#,
        r#"{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-09-30T10:00:03.000Z","message":{"role":"user","content":"Now list the files."}}"#,
        r#"{"type":"context_edit","id":"e1","parentId":"u2","timestamp":"2026-09-30T10:00:04.000Z","targetId":"u1","replacement":{"content":"Here is my API key: [redacted]."}}"#,
        r#"{"type":"context_edit","id":"e2","parentId":"e1","timestamp":"2026-09-30T10:00:05.000Z","targetId":"a1","replacement":null}"#,
        // On another branch: not applied.
        r#"{"type":"context_edit","id":"e3","parentId":"u1","timestamp":"2026-09-30T10:00:06.000Z","targetId":"u1","replacement":null}"#,
        r#"{"type":"message","id":"a2","parentId":"e2","timestamp":"2026-09-30T10:00:07.000Z","message":{"role":"assistant","content":[{"type":"text","text":"src/ has two files."}],"stopReason":"stop"}}"#,
    ];
    env.write("p.jsonl", lines.join("\n") + "\n");
    let run = |args: &[&str]| env.run(&[&["-f", "p.jsonl"], args].concat());
    assert_snapshot!(run(&["context", "--flavor", "pi"]), @"
    leaf: a2
    flavor: pi
    thinking level: off
    model: ?/?

    === 1. user ===
    Here is my API key: [redacted].

    === 2. user ===
    Now list the files.

    === 3. assistant (stop) ===
    src/ has two files.
    ");
    assert_snapshot!(run(&["tree", "--filter", "all"]), @"
    • u1 user: Here is my API key: sk-secret.
    ├─ • a1 assistant: Noted the key.
    │  • u2 user: Now list the files.
    │  • e1 [context edit → u1: replaced]
    │  • e2 [context edit → a1: omitted]
    │  • a2 assistant: src/ has two files. ← active
    └─ e3 [context edit → u1: omitted]
    ");
    // The entries themselves are as written.
    assert_snapshot!(run(&["log", "-n", "1", "u1"]), @"u1 message 2026-09-30 10:00:01 +0000 user: Here is my API key: sk-secret.");
}

/// `fsck` flags an edit whose target is missing or not earlier on its own path: pi's loader
/// refuses such a file.
#[test]
fn fsck_flags_a_context_edit_off_its_path() {
    let env = TestEnv::new();
    let lines = [
        r#"{"type":"session","version":3,"id":"019cb400-0000-7000-8000-000000000003","timestamp":"2026-09-30T10:00:00.000Z","cwd":"/w"}"#,
        r#"{"type":"message","id":"u1","parentId":null,"timestamp":"2026-09-30T10:00:01.000Z","message":{"role":"user","content":"One."}}"#,
        r#"{"type":"message","id":"u2","parentId":"u1","timestamp":"2026-09-30T10:00:02.000Z","message":{"role":"user","content":"Two."}}"#,
        r#"{"type":"context_edit","id":"e1","parentId":"u1","timestamp":"2026-09-30T10:00:03.000Z","targetId":"u2","replacement":null}"#,
        r#"{"type":"context_edit","id":"e2","parentId":"e1","timestamp":"2026-09-30T10:00:04.000Z","targetId":"gone","replacement":null}"#,
        r#"{"type":"context_edit","id":"e3","parentId":"e2","timestamp":"2026-09-30T10:00:05.000Z","targetId":"u1","replacement":null}"#,
    ];
    env.write("p.jsonl", lines.join("\n") + "\n");
    assert_snapshot!(env.run(&["fsck", "p.jsonl"]), @"
    p.jsonl:4: context-edit-off-path: context edit e1 edits u2, which is not earlier on its path
    p.jsonl:5: context-edit-off-path: context edit e2 edits gone, which is not in the file
    [exit status: 1]
    ");
}

/// pi persists its system prompt as a `system`-role message (CHANGES P4): one collapsed row,
/// never the session's first prompt in `ls`.
#[test]
fn a_system_message_is_one_collapsed_row() {
    let env = TestEnv::new();
    let lines = [
        r#"{"type":"session","version":3,"id":"019cb400-0000-7000-8000-000000000004","timestamp":"2026-09-30T10:00:00.000Z","cwd":"/w"}"#,
        r#"{"type":"message","id":"s1","parentId":null,"timestamp":"2026-09-30T10:00:00.500Z","message":{"role":"system","content":"You are pi.\n# Tools\nread, bash"}}"#,
        r#"{"type":"message","id":"u1","parentId":"s1","timestamp":"2026-09-30T10:00:01.000Z","message":{"role":"user","content":"Hello."}}"#,
    ];
    env.write("p.jsonl", lines.join("\n") + "\n");
    assert_snapshot!(env.run(&["-f", "p.jsonl", "tree"]), @"
    • s1 [system prompt]
    • u1 user: Hello. ← active
    ");
    let ls = env.run(&["--json", "ls", "p.jsonl"]);
    assert!(ls.contains(r#""firstPrompt":"Hello.""#), "{ls}");
}

/// pi 1.6.0 keeps system messages in place in the context (CHANGES R1, correcting P4): the
/// compaction's `systemMessage` comes first, then its summary, the kept entries and the later
/// system message where it stands.
#[test]
fn system_messages_stay_in_place_in_the_context() {
    let env = TestEnv::new();
    env.fixture("pi-system.jsonl");
    let roles = |rev: &str| {
        let out = env.run(&["-f", "pi-system.jsonl", "--json", "context", "--flavor", "pi", rev]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let messages = v["messages"].as_array().unwrap().clone();
        let first = messages[0]["content"].as_str().unwrap_or_default().to_string();
        let roles: Vec<String> =
            messages.iter().map(|m| m["role"].as_str().unwrap().to_string()).collect();
        (first, roles.join(" "))
    };
    assert_eq!(
        roles("b2000007"),
        ("You are pi (at the compaction).".into(), "system user assistant user system user".into())
    );
    assert_eq!(
        roles("b2000005"),
        ("You are pi (at the compaction).".into(), "system user assistant user".into())
    );
    assert_eq!(roles("b2000002"), ("You are pi (first prompt).".into(), "system user".into()));
}

/// `show` of a pi system message gives the prompt in effect there first, folded as pi 1.6.0's
/// `getCurrentSystemMessage` folds the context, then what a patch changes, as pi 1.6.0's HTML
/// export words it (CHANGES R1).
#[test]
fn show_gives_the_folded_prompt_then_the_patch() {
    let env = TestEnv::new();
    let file = crate::common::fixtures().join("pi-1.6.0/pi-system-patches.jsonl");
    let show = |id: &str| env.run(&["-f", file.to_str().unwrap(), "show", "--utc", id]);
    assert_snapshot!(show("c1000004"), @r#"
    entry c1000004 (message, system)
    Parent: c1000003
    Date:   2026-10-02 09:00:04 +0000

    Prompt in effect:
        You are pi.

        Also be kind.

        Be brief.

        none
    Tools: read, edit

    This entry changes: instructions, -env, skills, tools +edit -bash
        Also be kind.

        Removed system prompt section "env".

        Updated system prompt section "skills":

        none
    "#);
    // The first one declares the prompt: nothing to compare it with.
    assert!(!show("c1000001").contains("This entry changes"));
    // After the compaction, its systemMessage is what a patch patches.
    assert!(
        show("c1000009").contains("Tools: edit\n\nThis entry changes: instructions, tools -read\n")
    );
}

/// pi writes `developer` messages whose `content` may be `null` (CHANGES P4): they read as a
/// message of that role with no text, never as damage.
#[test]
fn a_developer_message_without_content_reads_as_an_empty_message() {
    let env = TestEnv::new();
    env.write(
        "d.jsonl",
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"message","id":"d1","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"developer","content":null,"timestamp":2}}
"#,
    );
    let run = |args: &[&str]| env.run(&[&["-f", "d.jsonl"], args].concat());
    assert_snapshot!(run(&["log"]), @"
    d1 message 2026-01-01 00:00:02 +0000 developer:
    a1 message 2026-01-01 00:00:01 +0000 user: hi
    ");
    assert_snapshot!(run(&["fsck"]), @"d.jsonl: ok");
}
