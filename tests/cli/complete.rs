//! Shell completion through `COMPLETE=<shell> sesstree`: the registration script, and the
//! candidates the shell glue gets back, entry ids and labels included.
//!
//! The glue calls `sesstree -- <words>` with `COMPLETE` set. bash also passes the index of the
//! word being completed in `_CLAP_COMPLETE_INDEX` and the separator in `_CLAP_IFS` (see
//! clap_complete's `env/shells.rs`); fish and zsh complete the last word and print
//! `value<TAB>description` lines.

use insta::assert_snapshot;

use crate::common::TestEnv;

/// Runs the completion request a shell would make for `words` (the last one being completed).
fn complete(env: &TestEnv, shell: &str, words: &[&str], vars: &[(&str, &str)]) -> String {
    let mut cmd = env.cmd();
    cmd.env("COMPLETE", shell).arg("--").arg("sesstree").args(words);
    if shell == "bash" {
        cmd.env("_CLAP_COMPLETE_INDEX", words.len().to_string()).env("_CLAP_IFS", "\n");
    }
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let output = cmd.output().expect("run");
    let mut text = env.render(&output);
    if !text.ends_with('\n') && !text.is_empty() {
        text.push('\n');
    }
    text
}

#[test]
fn registration_scripts() {
    let env = TestEnv::new();
    let bash = env.cmd().env("COMPLETE", "bash").output().expect("run");
    let bash = String::from_utf8_lossy(&bash.stdout).into_owned();
    assert!(
        bash.contains(
            "complete -o nospace -o bashdefault -o nosort -F _clap_complete_sesstree sesstree"
        ),
        "{bash}"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let output = env.cmd().env("COMPLETE", shell).output().expect("run");
        assert!(output.status.success() && !output.stdout.is_empty(), "COMPLETE={shell}");
    }
}

#[test]
fn bash_completes_ids_from_the_file_on_the_line() {
    let env = TestEnv::new();
    env.write("demo.jsonl", std::fs::read(crate::common::demo()).expect("demo"));
    assert_snapshot!(complete(&env, "bash", &["-f", "demo.jsonl", "log", "5"], &[]), @"
    5c07a3d4
    58e0b3c6
    5b0f6d28
    ");
    assert_snapshot!(complete(&env, "bash", &["show", "--file=demo.jsonl", "t"], &[]), @"tests-green");
    assert_snapshot!(complete(&env, "bash", &["-f", "demo.jsonl", "tree", "--leaf", "@"], &[]), @"@");
}

#[test]
fn fish_shows_descriptions() {
    let env = TestEnv::new();
    env.write("demo.jsonl", std::fs::read(crate::common::demo()).expect("demo"));
    assert_snapshot!(complete(&env, "fish", &["-f", "demo.jsonl", "context", "c"], &[]), @"
    checkpoint-1	[checkpoint-1] [read: src/stats.rs]
    c0e95d17	[edit: src/stats.rs]
    c6b05a3e	assistant: Now the branch in `run`, then the tests.
    c2e7a913	[title: Json output for tally stats]
    ");
    assert_snapshot!(complete(&env, "fish", &["-f", "demo.jsonl", "show", "@"], &[]), @r#"@	the current leaf: assistant: Fixed the warning (`println!("…"#);
}

#[test]
fn the_file_can_come_from_the_environment() {
    let env = TestEnv::new();
    env.write("demo.jsonl", std::fs::read(crate::common::demo()).expect("demo"));
    let vars = [("SESSTREE_FILE", "demo.jsonl")];
    assert_snapshot!(complete(&env, "bash", &["log", "fa"], &vars), @"fa60d15c");
    // -f on the line wins over the environment.
    env.write("other.jsonl", "");
    assert_snapshot!(complete(&env, "bash", &["-f", "other.jsonl", "log", "fa"], &vars), @"");
}

#[test]
fn no_file_no_candidates_and_no_noise() {
    let env = TestEnv::new();
    // Nothing on stdout but what matches, nothing at all on stderr, exit 0.
    assert_snapshot!(complete(&env, "bash", &["log", "fa"], &[]), @"");
    assert_snapshot!(complete(&env, "bash", &["-f", "missing.jsonl", "show", "fa"], &[]), @"");
    env.write("junk.jsonl", "not json\n");
    assert_snapshot!(complete(&env, "bash", &["-f", "junk.jsonl", "show", "fa"], &[]), @"");
    env.write("empty.jsonl", "");
    assert_snapshot!(complete(&env, "bash", &["-f", "empty.jsonl", "show", "fa"], &[]), @"");
}

#[test]
fn standard_input_is_never_read() {
    let env = TestEnv::new();
    let demo = std::fs::read(crate::common::demo()).expect("demo");
    let output = env
        .cmd()
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", "4")
        .args(["--", "sesstree", "-f", "-", "show", "fa"])
        .write_stdin(demo)
        .output()
        .expect("run");
    assert_snapshot!(env.render(&output), @"");
}

#[test]
fn commands_and_options_still_complete() {
    let env = TestEnv::new();
    // The hidden `generate` is not offered.
    assert_snapshot!(complete(&env, "bash", &["g"], &[]), @"grep");
    assert_snapshot!(complete(&env, "bash", &["lo"], &[]), @"log");
    assert_snapshot!(complete(&env, "bash", &["log", "--fi"], &[]), @"
    --file
    --filter
    ");
}
