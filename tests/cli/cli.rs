//! Global behaviour: REV forms and errors, exit codes, colour, closed pipes, usage errors.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn rev_forms() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    let mut all = String::new();
    for rev in ["@", "@^", "@~2", "reviewed", "reviewed^", "2c3d"] {
        all.push_str(&format!("--- {rev}\n"));
        all.push_str(&env.run(&["-f", "labeled.jsonl", "log", "-n", "1", "--filter", "all", rev]));
    }
    assert_snapshot!(all, @"
    --- @
    3d4e5f60 message 2026-03-02 11:00:30 +0000 user: Add an entry for the new --json flag.
    --- @^
    2c3d4e5f message 2026-03-02 11:00:07 +0000 [reviewed] assistant: Created `CHANGELOG.md` with an `## [0.4.0] - Unreleased` section.
    --- @~2
    1b2c3d4e message 2026-03-02 11:00:01 +0000 [begin] user: Start a CHANGELOG.md for v0.4.
    --- reviewed
    2c3d4e5f message 2026-03-02 11:00:07 +0000 [reviewed] assistant: Created `CHANGELOG.md` with an `## [0.4.0] - Unreleased` section.
    --- reviewed^
    1b2c3d4e message 2026-03-02 11:00:01 +0000 [begin] user: Start a CHANGELOG.md for v0.4.
    --- 2c3d
    2c3d4e5f message 2026-03-02 11:00:07 +0000 [reviewed] assistant: Created `CHANGELOG.md` with an `## [0.4.0] - Unreleased` section.
    ");
}

#[test]
fn ambiguous_and_unknown_revs_exit_4() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "show", "b1a2"]), @"
    ------- stderr -------
    error: 'b1a2' is ambiguous; it matches b1a2c3d4, b1a2f0e9
    [exit status: 4]
    ");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "show", "nope1234"]), @"
    ------- stderr -------
    error: no entry matches 'nope1234'
    [exit status: 4]
    ");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "show", "@~99"]), @"
    ------- stderr -------
    error: no entry matches '@~99': the path above @ holds 5 entries
    [exit status: 4]
    ");
}

#[test]
fn ids_are_json_values() {
    let env = TestEnv::new();
    env.fixture("odd-fields.jsonl");
    assert_snapshot!(env.run(&["-f", "odd-fields.jsonl", "--json", "log", "--filter", "all"]), @r#"{"id":"c0ffee00","parentId":null,"type":"message","role":"user","toolName":null,"timestamp":"2026-03-08T12:03:00.000Z","label":null,"text":"user: No parentId field: a root.","textTruncated":false,"depth":0,"onActivePath":true,"isLeaf":true}"#);
}

/// The usage line names the program `sesstree` whatever the file is called: `sesstree.exe`
/// on Windows, or a copy under another name.
#[test]
fn usage_names_the_program_whatever_its_file_is_called() {
    let env = TestEnv::new();
    let copy = env.path().join(format!("renamed{}", std::env::consts::EXE_SUFFIX));
    let bin = env!("CARGO_BIN_EXE_sesstree");
    // A link opens nothing for writing; a copy does, and a child another test thread starts
    // meanwhile inherits that handle, so that running the copy can fail as "text file busy"
    // until the child has started: then it is tried again.
    std::fs::hard_link(bin, &copy).or_else(|_| std::fs::copy(bin, &copy).map(drop)).unwrap();
    let mut tries = 0;
    let output = loop {
        match std::process::Command::new(&copy).args(["log", "--bogus"]).output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            output => break output.unwrap(),
        }
    };
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("\nUsage: sesstree log [OPTIONS] [REV]\n"), "{stderr}");
}

#[test]
fn no_file_is_a_usage_error() {
    let env = TestEnv::new();
    // Where it looked is in tests/cli/default_session.rs.
    let text = env.run(&["log"]);
    assert!(text.starts_with("------- stderr -------\nerror: no session file: "), "{text}");
    assert!(text.ends_with("; give -f FILE or set SESSTREE_FILE\n[exit status: 2]\n"), "{text}");
    assert_snapshot!(env.run(&["log", "--bogus"]), @"
    ------- stderr -------
    error: unexpected argument '--bogus' found

      tip: to pass '--bogus' as a value, use '-- --bogus'

    Usage: sesstree log [OPTIONS] [REV]

    For more information, try '--help'.
    [exit status: 2]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots Unix error texts")]
fn missing_file_is_exit_1() {
    let env = TestEnv::new();
    assert_snapshot!(env.run(&["-f", "nope.jsonl", "log"]), @"
    ------- stderr -------
    error: nope.jsonl: No such file or directory (os error 2)
    [exit status: 1]
    ");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    let plain = env.cmd().args(["-f", "labeled.jsonl", "log"]).output().unwrap();
    assert!(!plain.stdout.contains(&0x1b));
    let forced =
        env.cmd().args(["-f", "labeled.jsonl", "--color", "always", "log"]).output().unwrap();
    assert!(forced.stdout.contains(&0x1b));
    let no_color = env
        .cmd()
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "1")
        .args(["-f", "labeled.jsonl", "log"])
        .output()
        .unwrap();
    assert!(!no_color.stdout.contains(&0x1b), "NO_COLOR beats CLICOLOR_FORCE");
}

/// `sesstree ARGS | READER` in `env`'s directory: sesstree's exit status and its stderr.
fn through_a_pipe(env: &TestEnv, args: &str, reader: &str) -> (String, String) {
    let bin = assert_cmd::cargo::cargo_bin("sesstree");
    let script =
        format!("'{}' {args} | {reader} >/dev/null; echo ${{PIPESTATUS[0]}}", bin.display());
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(env.path())
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (text(&out.stdout).trim().to_owned(), text(&out.stderr))
}

#[test]
#[cfg_attr(windows, ignore = "runs bash, which Windows lacks")]
fn a_closed_pipe_exits_0_quietly() {
    let env = TestEnv::new();
    let mut lines = vec![r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}"#.to_string()];
    let mut parent = "null".to_string();
    for i in 0..20000 {
        lines.push(format!(
            r#"{{"type":"message","id":"e{i:07}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"line {i}"}}}}"#
        ));
        parent = format!("\"e{i:07}\"");
    }
    env.write("big.jsonl", lines.join("\n"));
    assert_eq!(through_a_pipe(&env, "-f big.jsonl log", "head -n 1"), ("0".into(), "".into()));
}

/// Every command and output, JSON written through serde_json too, exits 0 quietly when its
/// reader goes away (the README promises it).
#[test]
#[cfg_attr(windows, ignore = "runs bash, which Windows lacks")]
fn a_closed_pipe_exits_0_quietly_for_json_too() {
    let env = TestEnv::new();
    for i in 0..300 {
        env.write(&format!("s{i:03}.jsonl"), std::fs::read(crate::common::demo()).unwrap());
    }
    for command in [
        "--json stats .",
        "--json ls .",
        "-f s000.jsonl --json context",
        "-f s000.jsonl --json tree",
        "-f s000.jsonl --json log",
    ] {
        let got = through_a_pipe(&env, command, "head -c 10");
        assert_eq!(got, ("0".into(), "".into()), "{command}");
    }
}

#[test]
fn help_lists_exit_statuses() {
    let env = TestEnv::new();
    let out = env.cmd().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Exit status:"));
    assert!(text.contains("7  cancelled by a hook or by the user"));
}

#[test]
fn a_string_id_and_a_number_id_with_the_same_text_are_ambiguous() {
    let env = TestEnv::new();
    env.fixture("odd-fields.jsonl");
    assert_snapshot!(env.run(&["-f", "odd-fields.jsonl", "show", "1"]), @r#"
    ------- stderr -------
    error: '1' is ambiguous; it matches "1" (a string id), 1 (a number id)
    [exit status: 4]
    "#);
}

#[test]
fn strict_does_not_call_a_newer_version_damage() {
    let env = TestEnv::new();
    env.fixture("future-version.jsonl");
    assert_snapshot!(env.run(&["-f", "future-version.jsonl", "--strict", "log", "-n", "1"]), @"
    cc22dd33 message 2027-06-01 09:00:04 +0000 assistant: Hi!
    ------- stderr -------
    future-version.jsonl:1: warning: session version 9 is newer than this sesstree understands
    ");
}

/// Every command that takes a REV spells out the grammar in its `--help` (and so in its man
/// page), not only the README.
#[test]
fn every_command_taking_a_rev_explains_it() {
    let env = TestEnv::new();
    for command in ["log", "show", "checkout", "branch", "label", "context", "tree"] {
        let out = env.cmd().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("A REV: an id, a prefix of 4 or more characters, a label"),
            "{command}"
        );
    }
}

/// A command lists only the options it uses: `humanize-title` reads no session and prints no
/// colour or time, `ls` takes no `-f` and no `--strict`; given anyway, they are accepted. The
/// variables only the tests set are not in the user's man pages.
#[test]
fn commands_list_only_the_options_they_use() {
    let env = TestEnv::new();
    let help = |command: &str| {
        let out = env.cmd().args([command, "--help"]).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let title = help("humanize-title");
    for option in ["--file", "--session", "--strict", "--color", "--no-pager", "--utc"] {
        assert!(!title.contains(option), "humanize-title lists {option}:\n{title}");
    }
    assert!(title.contains("--json"));
    let ls = help("ls");
    for option in ["--file", "--session", "--strict", "--no-pager"] {
        assert!(!ls.contains(option), "ls lists {option}:\n{ls}");
    }
    assert!(ls.contains("--color") && ls.contains("--json") && ls.contains("--utc"));
    assert!(help("log").contains("--strict"));
    assert_snapshot!(env.run(&["humanize-title", "-f", "x.jsonl", "--color", "never", "a_b"]), @"A b");
    let pages =
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man")).unwrap();
    for page in pages {
        let text = std::fs::read_to_string(page.unwrap().path()).unwrap();
        assert!(!text.contains("SESSTREE_NOW") && !text.contains("SESSTREE_SEED"));
    }
}

/// See: issue 44 (a day with sesstree, second pass). A variable set but empty counts as unset,
/// as git reads its own: `SESSTREE_FILE=` failed as "a value is required for '--file'", and
/// `SESSTREE_SUMMARIZER=` ran an empty command.
#[test]
fn empty_environment_variables_count_as_unset() {
    let env = TestEnv::new();
    env.write("demo.jsonl", std::fs::read(crate::common::demo()).unwrap());
    let out = env.cmd().env("SESSTREE_FILE", "").args(["log", "-n", "1"]).output().unwrap();
    let text = env.render(&out);
    // As without the variable: no session of this directory, exit 2.
    assert!(text.contains("error: no session file: no session of this directory"), "{text}");
    assert!(text.ends_with("give -f FILE or set SESSTREE_FILE\n[exit status: 2]\n"), "{text}");
    let args = ["-f", "demo.jsonl", "log", "-n", "1"];
    assert!(env.cmd().env("SESSTREE_FILE", "").args(args).output().unwrap().status.success());
    let summarize = ["-f", "demo.jsonl", "checkout", "--dry-run", "--summarize", "13c9"];
    let out = env.cmd().env("SESSTREE_SUMMARIZER", "").args(summarize).output().unwrap();
    assert_snapshot!(env.render(&out), @"
    ------- stderr -------
    error: summarization needs an active model: give --summarizer CMD, set SESSTREE_SUMMARIZER, or install a session_before_tree hook (hooks do not run with --dry-run)
    [exit status: 2]
    ");
}

/// Issue 44: `log demo.jsonl`, as `git log FILE` habit types it, names a file where a REV
/// goes; the error hints at -f. A REV that names no file gets no hint.
#[test]
fn a_rev_that_names_a_file_hints_at_the_file_option() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    env.fixture("linear.jsonl");
    assert_snapshot!(env.run(&["-f", "labeled.jsonl", "log", "linear.jsonl"]), @"
    ------- stderr -------
    error: no entry matches 'linear.jsonl'
    hint: 'linear.jsonl' is a file; to work on it, give -f linear.jsonl
    [exit status: 4]
    ");
    assert_snapshot!(env.run(&["-f", "labeled.jsonl", "show", "no-such.jsonl"]), @"
    ------- stderr -------
    error: no entry matches 'no-such.jsonl'
    [exit status: 4]
    ");
}
