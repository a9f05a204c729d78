//! Entry types today's pi writes (CHANGES.md): `usage` (P2).

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
    assert_snapshot!(run(&["--json", "stats"]), @r#"{"file":"p.jsonl","name":null,"entries":4,"byType":{"compaction":1,"message":2,"usage":1},"roots":1,"leaves":1,"branchPoints":0,"depth":4,"labels":0,"problems":0,"usage":{"input":110,"output":25,"cacheRead":0,"cacheWrite":4000,"totalTokens":4135,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":3.8,"subagentCost":0.0},"pathUsage":{"input":110,"output":25,"cacheRead":0,"cacheWrite":4000,"totalTokens":4135,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":3.8,"subagentCost":0.0}}"#);
    // The model never sees it.
    let context = run(&["--json", "context"]);
    assert!(!context.contains("cache_warm"), "{context}");
    assert!(context.contains("The user asked for a warm cache."), "{context}");
}
