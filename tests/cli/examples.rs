//! Every example in `--help` (and so in the man pages) is real: it runs against the README's
//! example session, examples/demo.jsonl, and succeeds without a warning. Lines whose commands
//! do not start with `sesstree` (an environment assignment first, `source <(…)`), and `tree
//! -i`, which needs a terminal, are shown but not run.
//!
//! An example is a line of the "Examples:" block that does not end with a colon (those
//! describe the commands below them); the block is in `after_long_help`, or at the end of a
//! `verbatim_doc_comment`. Its pipeline, up to the last
//! `sesstree` stage, runs through `sh` in a temporary directory holding `session.jsonl` (a copy
//! of the demo), with `SESSTREE_FILE=session.jsonl`, a `plans/` directory, and the demo under
//! `~/.omp/agent/sessions`. Later stages (`jq`) and the redirection of the output are dropped,
//! so the check needs no tool but sh.

use crate::common::{TestEnv, demo, fixtures, subcommands};

/// The example command lines of `sesstree ARGS --help`.
fn examples(env: &TestEnv, args: &[&str]) -> Vec<String> {
    let output = env.cmd().args(args).arg("--help").output().expect("run");
    let help = String::from_utf8_lossy(&output.stdout).into_owned();
    let Some((_, block)) = help.split_once("\nExamples:\n") else { return Vec::new() };
    block
        .lines()
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .filter(|l| !l.ends_with(':'))
        .map(str::to_string)
        .collect()
}

/// The commands of an example to run: each `&&` part that runs sesstree, cut after its last
/// `sesstree` stage and without the redirection of its output.
fn sesstree_parts(example: &str) -> Vec<String> {
    let is_sesstree = |stage: &str| stage == "sesstree" || stage.starts_with("sesstree ");
    example
        .split(" && ")
        .filter_map(|command| {
            let stages: Vec<&str> = command.split(" | ").map(str::trim).collect();
            let last = stages.iter().rposition(|s| is_sesstree(s))?;
            let mut kept: Vec<&str> = stages[..=last].to_vec();
            kept[last] = kept[last].split(" > ").next().unwrap_or(kept[last]).trim();
            Some(kept.join(" | "))
        })
        .collect()
}

/// The files the examples name: `session.jsonl` (the demo), `old.jsonl` (a version 1 file),
/// `broken.jsonl` (a torn last line), `claude.jsonl` (a Claude Code transcript), `plans/`, and the demo in the oh-my-pi session directory
/// of the test's directory, with that directory as its `cwd`, as the agent would have put it.
fn setup(env: &TestEnv) {
    let demo_bytes = std::fs::read(demo()).expect("demo");
    env.write("session.jsonl", &demo_bytes);
    env.write("old.jsonl", std::fs::read(fixtures().join("v1.jsonl")).expect("v1"));
    env.write(
        "broken.jsonl",
        std::fs::read(fixtures().join("torn-last-line.jsonl")).expect("torn"),
    );
    std::fs::create_dir_all(env.path().join("plans/migrate-mcp-loader")).expect("mkdir");
    let claude = fixtures().join("claude/rewind.jsonl");
    env.write("claude.jsonl", std::fs::read(claude).expect("a Claude Code transcript"));
    let here = env.path().display().to_string();
    let home = env.path().join("home");
    let dir = sesstree::discover::omp_dir_name(
        &here,
        &home.display().to_string(),
        &std::env::temp_dir().display().to_string(),
    );
    let sessions = home.join(".omp/agent/sessions").join(dir);
    std::fs::create_dir_all(&sessions).expect("mkdir");
    // The header's cwd is a JSON string: the temporary path needs no escaping on Unix.
    let rehomed = String::from_utf8(demo_bytes).expect("utf-8").replacen(
        "\"cwd\":\"/home/ana/src/tally\"",
        &format!("\"cwd\":\"{here}\""),
        1,
    );
    std::fs::write(sessions.join("demo.jsonl"), rehomed).expect("write");
}

/// Whether exit status 1 is a check's answer ("problems found", SPEC §6), not a failure.
fn is_check(command: &str) -> bool {
    command.contains("sesstree fsck") || command.contains("--check")
}

/// Whether a command opens the full-screen selector, which needs a terminal: such examples are
/// shown but not run here (tests/cli has tmux tests for `tree -i`).
fn needs_terminal(command: &str) -> bool {
    command.split_whitespace().any(|w| w == "-i" || w == "--interactive")
}

fn run_example(example: &str) {
    for part in sesstree_parts(example).into_iter().filter(|p| !needs_terminal(p)) {
        let env = TestEnv::new();
        setup(&env);
        let bin = assert_cmd::cargo::cargo_bin("sesstree");
        let dir = bin.parent().expect("bin dir").display().to_string();
        let path = format!("{dir}:{}", std::env::var("PATH").unwrap_or_default());
        let output = std::process::Command::new("sh")
            .args(["-c", &part])
            .current_dir(env.path())
            .env("PATH", path)
            .envs(pinned(&env))
            .stdin(std::process::Stdio::null())
            .output()
            .expect("sh");
        let shown = env.render(&output);
        let stderr = String::from_utf8_lossy(&output.stderr);
        // Notes ("Moved to …", "dry run") are fine; warnings and errors are not.
        let status_ok =
            output.status.success() || (output.status.code() == Some(1) && is_check(&part));
        assert!(
            status_ok && !stderr.contains("warning:") && !stderr.contains("error:"),
            "example `{example}` failed:\n{shown}"
        );
        if !part.contains("sesstree generate") {
            assert!(
                !output.stdout.is_empty() || !output.stderr.is_empty(),
                "example `{example}` printed nothing"
            );
        }
    }
}

/// The pinned environment of `TestEnv::cmd`, plus the session file.
fn pinned(env: &TestEnv) -> Vec<(String, String)> {
    let cmd = env.cmd();
    let mut vars: Vec<(String, String)> = cmd
        .get_envs()
        .filter_map(|(k, v)| Some((k.to_str()?.to_string(), v?.to_str()?.to_string())))
        .collect();
    vars.push(("SESSTREE_FILE".into(), "session.jsonl".into()));
    vars
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn every_command_has_examples_that_run() {
    let env = TestEnv::new();
    let mut commands: Vec<Vec<&str>> = vec![vec![], vec!["generate"]];
    let names = subcommands(&env);
    commands.extend(names.iter().map(|c| vec![c.as_str()]));
    for args in commands {
        let examples = examples(&env, &args);
        let runnable: usize = examples.iter().map(|e| sesstree_parts(e).len()).sum();
        assert!(runnable >= 1, "sesstree {} --help has no runnable example", args.join(" "));
        if !args.is_empty() && args != ["generate"] {
            assert!(examples.len() >= 2, "sesstree {} --help has fewer than two examples", args[0]);
        }
        for example in &examples {
            run_example(example);
        }
    }
}

#[test]
fn pipelines_are_cut_to_their_sesstree_parts() {
    assert_eq!(sesstree_parts("sesstree log --raw @~2 | jq -c ."), ["sesstree log --raw @~2"]);
    assert_eq!(
        sesstree_parts("ls plans/ | sesstree humanize-title | cat"),
        ["ls plans/ | sesstree humanize-title"]
    );
    assert_eq!(sesstree_parts("sesstree context > t.md"), ["sesstree context"]);
    assert_eq!(sesstree_parts("sesstree a && sesstree b"), ["sesstree a", "sesstree b"]);
    assert!(sesstree_parts("source <(COMPLETE=bash sesstree)").is_empty());
    assert!(needs_terminal("sesstree tree -i -f session.jsonl"));
    assert!(!needs_terminal("sesstree tree --filter user-only --search \"-i\""));
}
