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
      usage (path):  52100 in, 2300 out, 12000 cache read, 0 cache write, 66400 total tokens, cost $0.0222, 0.5 premium requests (subagents $0.0165)
    ");
}

#[test]
fn a_directory_as_json() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join("d")).unwrap();
    for f in ["branched.jsonl", "pi.jsonl"] {
        std::fs::copy(crate::common::fixtures().join(f), env.path().join("d").join(f)).unwrap();
    }
    assert_snapshot!(env.run(&["--json", "stats", "d"]), @r#"
    {"file":"d/branched.jsonl","name":null,"entries":11,"byType":{"message":11},"roots":1,"leaves":4,"branchPoints":2,"depth":6,"labels":0,"problems":0,"usage":{"input":15,"output":194,"cacheRead":0,"cacheWrite":3272,"totalTokens":3481,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.015224999999999999,"subagentCost":0.0},"pathUsage":{"input":9,"output":113,"cacheRead":0,"cacheWrite":1991,"totalTokens":2113,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.009188249999999999,"subagentCost":0.0}}
    {"file":"d/pi.jsonl","name":"Rename agent → agent-core","entries":11,"byType":{"compaction":1,"custom_message":1,"message":5,"model_change":1,"session_info":2,"thinking_level_change":1},"roots":1,"leaves":1,"branchPoints":0,"depth":11,"labels":0,"problems":0,"usage":{"input":6,"output":126,"cacheRead":9120,"cacheWrite":10600,"totalTokens":19852,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.044394,"subagentCost":0.0},"pathUsage":{"input":6,"output":126,"cacheRead":9120,"cacheWrite":10600,"totalTokens":19852,"orchestrationInput":0,"orchestrationOutput":0,"orchestrationCacheRead":0,"premiumRequests":0,"cost":0.044394,"subagentCost":0.0}}
    "#);
}

#[test]
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
