//! Claude Code's and Codex's directories: `ls` (and `ls --agent`) and `grep` without PATH
//! search them besides the agents' sessions, where CLAUDE_CONFIG_DIR and CODEX_HOME put them.

use crate::common::{TestEnv, fixtures};

/// A home with a Claude Code transcript, a Codex rollout, an oh-my-pi session (the demo) and
/// a pi session, each where its agent keeps it.
fn homes(claude: &str, codex: &str) -> TestEnv {
    let env = TestEnv::new();
    let put = |dir: &str, name: &str, from: std::path::PathBuf| {
        let dir = env.path().join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), std::fs::read(from).unwrap()).unwrap();
    };
    put(
        &format!("{claude}/projects/-home-u-tally"),
        "5f1c8e2a.jsonl",
        fixtures().join("claude/rewind.jsonl"),
    );
    put(
        &format!("{codex}/sessions/2026/03/02"),
        "rollout-2026-03-02T09-00-00-0199a1b2.jsonl",
        fixtures().join("codex/rollback.jsonl"),
    );
    put("home/.omp/agent/sessions/-proj", "demo.jsonl", crate::common::demo());
    put("home/.pi/agent/sessions/--proj--", "pi.jsonl", fixtures().join("pi.jsonl"));
    env
}

/// The paths `ls -0` prints, as the test directory names them.
fn listed(env: &TestEnv, args: &[&str], vars: &[(&str, String)]) -> Vec<String> {
    let output =
        env.cmd().args(["ls", "-0"]).args(args).envs(vars.iter().cloned()).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let tmp = env.path().display().to_string();
    let mut paths: Vec<String> =
        text.split('\0').filter(|p| !p.is_empty()).map(|p| p.replace(&tmp, "$TMP")).collect();
    paths.sort();
    paths
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn ls_lists_every_agent_s_sessions_and_agent_keeps_one() {
    let env = homes("home/.claude", "home/.codex");
    assert_eq!(
        listed(&env, &[], &[]),
        [
            "$TMP/home/.claude/projects/-home-u-tally/5f1c8e2a.jsonl",
            "$TMP/home/.codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-0199a1b2.jsonl",
            "$TMP/home/.omp/agent/sessions/-proj/demo.jsonl",
            "$TMP/home/.pi/agent/sessions/--proj--/pi.jsonl",
        ]
    );
    for (agent, path) in [
        ("claude", "$TMP/home/.claude/projects/-home-u-tally/5f1c8e2a.jsonl"),
        (
            "codex",
            "$TMP/home/.codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-0199a1b2.jsonl",
        ),
        ("omp", "$TMP/home/.omp/agent/sessions/-proj/demo.jsonl"),
        ("pi", "$TMP/home/.pi/agent/sessions/--proj--/pi.jsonl"),
    ] {
        assert_eq!(listed(&env, &["--agent", agent], &[]), [path], "--agent {agent}");
    }
    // A transcript is listed as the session it is read as: its id, name and cwd.
    let json = env.run(&["--json", "ls", "--agent", "claude"]);
    let row: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(row["sessionId"], "5f1c8e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b");
    assert_eq!(row["name"], "tally --json");
    assert_eq!(row["cwd"], "/home/u/tally");
    assert_eq!(row["firstPrompt"], "Add a --json flag to tally stats.");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn claude_config_dir_and_codex_home_move_them() {
    let env = homes("claude", "codex");
    let vars = [
        ("CLAUDE_CONFIG_DIR", env.path().join("claude").display().to_string()),
        ("CODEX_HOME", env.path().join("codex").display().to_string()),
    ];
    assert_eq!(
        listed(&env, &["--agent", "claude"], &vars),
        ["$TMP/claude/projects/-home-u-tally/5f1c8e2a.jsonl"]
    );
    assert_eq!(
        listed(&env, &["--agent", "codex"], &vars),
        ["$TMP/codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-0199a1b2.jsonl"]
    );
    // Without the variables, ~/.claude and ~/.codex hold nothing here.
    assert!(listed(&env, &["--agent", "claude"], &[]).is_empty());
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn grep_without_path_searches_the_transcripts_too() {
    let env = homes("home/.claude", "home/.codex");
    let output = env.cmd().args(["grep", "-l", "serde"]).output().unwrap();
    let text = env.render(&output);
    insta::assert_snapshot!(text, @r"
    $TMP/home/.omp/agent/sessions/-proj/demo.jsonl
    $TMP/home/.claude/projects/-home-u-tally/5f1c8e2a.jsonl
    $TMP/home/.codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-0199a1b2.jsonl
    ");
}
