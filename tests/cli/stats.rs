//! `sesstree stats`: counts and usage, for one file and many.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn one_file() {
    let env = TestEnv::new();
    env.fixture("all-types.jsonl");
    assert_snapshot!(env.run(&["stats", "all-types.jsonl"]), @"
    all-types.jsonl
      name:          Audit auth module
      entries:       23 (archive 1, branch_summary 1, compaction 1, credential_pin 1, custom 1, custom_message 1, future_thing 1, label 1, mcp_tool_selection 1, message 5, mode_change 1, model_change 1, model_usage 1, reset_boundary 1, service_tier_change 1, session_init 1, thinking_level_change 1, title_change 1, ttsr_injection 1)
      shape:         1 root, 2 leaves, 1 branch point, depth 22
      labels:        1
      usage (file):  52100 in, 2300 out, 12000 cache read, 0 cache write, 66400 total tokens, cost $0.0222, 0.5 premium requests (subagents $0.0165)
        Tools/summaries: $0.0165 (62100 tokens)
        openai/gpt-5: $0.0054 (3340 tokens)
        openai/gpt-5-mini: $0.0003 (960 tokens)
      usage (path):  52100 in, 2300 out, 12000 cache read, 0 cache write, 66400 total tokens, cost $0.0222, 0.5 premium requests (subagents $0.0165)
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_directory_as_json() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join("d")).unwrap();
    for f in ["branched.jsonl", "pi.jsonl"] {
        std::fs::copy(crate::common::fixtures().join(f), env.path().join("d").join(f)).unwrap();
    }
    assert_snapshot!(env.run(&["--json", "stats", "d"]), @r#"
    {"file":"d/branched.jsonl","name":null,"entries":11,"byType":{"message":11},"roots":1,"leaves":4,"branchPoints":2,"depth":6,"labels":0,"problems":0,"usage":{"input":15,"output":194,"cacheRead":0,"cacheWrite":3272,"totalTokens":3481,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.015224999999999999,"subagentCost":0.0},"pathUsage":{"input":9,"output":113,"cacheRead":0,"cacheWrite":1991,"totalTokens":2113,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.009188249999999999,"subagentCost":0.0},"costBreakdown":[{"key":"anthropic/claude-sonnet-4-5","cost":0.015224999999999999,"tokens":3481}]}
    {"file":"d/pi.jsonl","name":"Rename agent → agent-core","entries":11,"byType":{"compaction":1,"custom_message":1,"message":5,"model_change":1,"session_info":2,"thinking_level_change":1},"roots":1,"leaves":1,"branchPoints":0,"depth":11,"labels":0,"problems":0,"usage":{"input":6,"output":126,"cacheRead":9120,"cacheWrite":10600,"totalTokens":19852,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.044394,"subagentCost":0.0},"pathUsage":{"input":6,"output":126,"cacheRead":9120,"cacheWrite":10600,"totalTokens":19852,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.044394,"subagentCost":0.0},"costBreakdown":[{"key":"anthropic/claude-sonnet-4-5","cost":0.044394,"tokens":19852}]}
    "#);
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn thousands_of_files_do_not_run_out_of_descriptors() {
    let env = TestEnv::new();
    let dir = env.path().join("many");
    std::fs::create_dir(&dir).unwrap();
    let bytes = std::fs::read(crate::common::fixtures().join("linear.jsonl")).unwrap();
    for i in 0..300 {
        std::fs::write(dir.join(format!("s{i:03}.jsonl")), &bytes).unwrap();
    }
    let bin = assert_cmd::cargo::cargo_bin("sesstree");
    let script = format!("ulimit -n 64 && '{}' --json stats many | wc -l", bin.display());
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(env.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "300");
}

#[test]
fn a_bad_file_says_so_once_and_the_others_are_still_counted() {
    let env = TestEnv::new();
    env.write("bad.jsonl", "{\"type\":\"message\",\"id\":\"a\"}\n");
    env.fixture("branched.jsonl");
    let out = env.run(&["--json", "stats", "bad.jsonl", "branched.jsonl"]);
    let (stdout, stderr) = out.split_once("------- stderr -------\n").unwrap();
    assert!(stdout.starts_with("{\"file\":\"branched.jsonl\""), "{stdout}");
    assert_snapshot!(stderr, @"
    error: bad.jsonl:1: no valid session header (the first record is of type 'message', not 'session'); `sesstree fsck --repair` restores one
    [exit status: 3]
    ");
}

/// Over several files, a text listing ends with their totals.
#[test]
fn several_files_end_with_their_total() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    env.fixture("pi.jsonl");
    let out = env.run(&["stats", "linear.jsonl", "pi.jsonl"]);
    let total: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("total")).collect();
    assert_snapshot!(total.join("\n"), @"
    total (2 files)
      entries:       19
      usage (files): 7736 in, 262 out, 14624 cache read, 10600 cache write, 33222 total tokens, cost $0.0561
      usage (paths): 7736 in, 262 out, 14624 cache read, 10600 cache write, 33222 total tokens, cost $0.0561
    ");
    // One file, or JSON Lines (one object a file: `jq -s` sums them), has no total.
    assert!(!env.run(&["stats", "pi.jsonl"]).contains("total ("));
    assert!(!env.run(&["--json", "stats", "linear.jsonl", "pi.jsonl"]).contains("total ("));
}

/// pi 1.6.0 counts the usage of every entry of the file: assistant messages (by
/// `provider/(responseModel ?? model)`), `usage` entries, and the usage on tool results,
/// compactions and branch summaries (`AgentSession.getSessionStats`, `getUsageCostBreakdown`).
/// pi itself, reading this fixture through its SessionManager, gives a cost of
/// 0.054000000000000006, 496 in, 87 out, 103 cache read, 204 cache write, and this breakdown.
#[test]
fn a_pi_1_6_0_file_costs_what_pi_says() {
    let env = TestEnv::new();
    env.fixture("pi-usage.jsonl");
    let out = env.run(&["--json", "stats", "pi-usage.jsonl"]);
    let stats: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let usage = &stats["usage"];
    let figures = ["input", "output", "cacheRead", "cacheWrite", "cost"].map(|f| &usage[f]);
    assert_eq!(figures.map(|f| f.to_string()).join(" "), "496 87 103 204 0.054000000000000006");
    // What pi's `JSON.stringify(getUsageCostBreakdown(entries))` prints, byte for byte.
    assert_eq!(
        stats["costBreakdown"].to_string(),
        r#"[{"key":"openrouter/anthropic/claude-opus-4","cost":0.02,"tokens":12},{"key":"anthropic/claude-sonnet-4-5","cost":0.018000000000000002,"tokens":340},{"key":"Tools/summaries","cost":0.015000000000000001,"tokens":505},{"key":"openai/gpt-5-mini","cost":0.001,"tokens":33}]"#
    );
    assert_snapshot!(env.run(&["stats", "pi-usage.jsonl"]), @"
    pi-usage.jsonl
      entries:       10 (branch_summary 1, compaction 1, message 6, model_change 1, usage 1)
      shape:         1 root, 2 leaves, 1 branch point, depth 8
      labels:        0
      usage (file):  496 in, 87 out, 103 cache read, 204 cache write, 890 total tokens, cost $0.0540
        openrouter/anthropic/claude-opus-4: $0.0200 (12 tokens)
        anthropic/claude-sonnet-4-5: $0.0180 (340 tokens)
        Tools/summaries: $0.0150 (505 tokens)
        openai/gpt-5-mini: $0.0010 (33 tokens)
      usage (path):  111 in, 32 out, 103 cache read, 204 cache write, 450 total tokens, cost $0.0200
    ");
}

/// The same over a file pi 1.6.0 wrote itself (tests/fixtures/agents: usage on an assistant
/// message, a `usage` entry, a tool result, a compaction and a branch summary): pi's own
/// `getSessionStats` loop and `getUsageCostBreakdown` over it give these figures.
#[test]
fn a_file_pi_1_6_0_wrote_costs_what_pi_says() {
    let env = TestEnv::new();
    let file = crate::common::fixtures().join("agents/pi-1.6.0/usage-sources.jsonl");
    let out = env.run(&["--json", "stats", &file.display().to_string()]);
    let stats: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let usage = &stats["usage"];
    let figures = ["input", "output", "cacheRead", "cacheWrite", "cost"].map(|f| &usage[f]);
    assert_eq!(figures.map(|f| f.to_string()).join(" "), "700 140 0 0 0.08200000000000002");
    assert_eq!(
        stats["costBreakdown"].to_string(),
        r#"[{"key":"anthropic/claude-sonnet-4-5","cost":0.064,"tokens":480},{"key":"Tools/summaries","cost":0.018,"tokens":360}]"#
    );
}
