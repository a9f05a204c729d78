//! No injection (issue 8): what a session file holds reaches hooks and the summarizer only as
//! data on their standard input, never as a shell word, an argument or an environment variable;
//! files sesstree creates are never more open than their source (0600 without one); `-o` never
//! writes through a symbolic link or onto a directory.

use std::path::Path;

use crate::common::TestEnv;

/// Shell syntax that would run `touch` if it were ever handed to a shell as code.
const PAYLOADS: &[&str] = &[
    "$(touch pwned1)",
    "`touch pwned2`",
    "; touch pwned3 #",
    "' ; touch pwned4 ; '",
    "\" && touch pwned5 && \"",
    "\n touch pwned6\n",
    "${IFS}touch${IFS}pwned7",
];

fn payload() -> String {
    PAYLOADS.concat()
}

/// A session whose ids, text, tool arguments and name are all shell syntax.
fn session() -> String {
    let p = serde_json::Value::from(payload()).to_string();
    let id = serde_json::Value::from(format!("u2{}", PAYLOADS[0])).to_string();
    [
        format!(
            r#"{{"type":"session","version":3,"id":{p},"timestamp":"2026-01-01T00:00:00.000Z","cwd":{p},"title":{p}}}"#
        ),
        r#"{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"start"}}"#.to_string(),
        format!(
            r#"{{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{{"role":"assistant","content":[{{"type":"text","text":{p}}}],"stopReason":"stop"}}}}"#
        ),
        format!(
            r#"{{"type":"message","id":{id},"parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","message":{{"role":"user","content":{p}}}}}"#
        ),
        format!(
            r#"{{"type":"message","id":"a2","parentId":{id},"timestamp":"2026-01-01T00:00:04.000Z","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c1","name":"edit","arguments":{{"path":{p}}}}}],"stopReason":"toolUse"}}}}"#
        ),
        format!(
            r#"{{"type":"message","id":"r2","parentId":"a2","timestamp":"2026-01-01T00:00:05.000Z","message":{{"role":"toolResult","toolCallId":"c1","toolName":"edit","content":{p}}}}}"#
        ),
    ]
    .join("\n")
        + "\n"
}

/// An executable script that records its arguments, environment and standard input under
/// `NAME.args`, `NAME.env`, `NAME.stdin`, then prints `reply`.
fn recorder(env: &TestEnv, path: &str, name: &str, reply: &str) {
    let full = env.path().join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    let out = env.path().join("rec").join(name);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let out = out.display();
    std::fs::write(
        &full,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$#\" \"$@\" > '{out}.args'\nenv > '{out}.env'\ncat > '{out}.stdin'\nprintf '%s' '{reply}'\n"
        ),
    )
    .unwrap();
    crate::common::set_mode(&full, 0o755);
}

/// No file named `pwned…` anywhere under the test's directory.
fn assert_nothing_ran(root: &Path) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(!name.starts_with("pwned"), "file text ran as shell code: {}", path.display());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs POSIX shell scripts as hooks")]
fn file_text_reaches_hooks_and_the_summarizer_only_on_stdin() {
    let env = TestEnv::new();
    env.write("s.jsonl", session());
    recorder(&env, "config/sesstree/hooks/session_before_tree", "before_tree", "{}");
    recorder(&env, "config/sesstree/hooks/session_tree", "tree", "");
    recorder(&env, "config/sesstree/hooks/session_before_branch", "before_branch", "{}");
    recorder(&env, "config/sesstree/hooks/session_branch", "branch", "");
    recorder(&env, "bin/summarize", "summarizer", "the summary");
    let summarizer = env.path().join("bin/summarize").display().to_string();
    let u2 = format!("u2{}", PAYLOADS[0]);
    for args in [
        vec!["-f", "s.jsonl", "checkout", "a1", "--summarize", "--summarizer", &summarizer],
        vec!["-f", "s.jsonl", "branch", &u2, "-o", "b.jsonl"],
    ] {
        let out = env.cmd().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    assert_nothing_ran(env.path());
    for name in ["before_tree", "tree", "before_branch", "branch", "summarizer"] {
        let rec = |ext: &str| {
            String::from_utf8(env.read(&format!("rec/{name}.{ext}")))
                .unwrap_or_else(|e| panic!("{name}.{ext}: {e}"))
        };
        assert_eq!(rec("args"), "0\n", "{name} got arguments");
        assert!(!rec("env").contains("pwned"), "{name} got file text in its environment");
        assert!(!rec("stdin").is_empty(), "{name} got nothing on stdin");
    }
    // The text arrives whole, as data: JSON for the hooks, a transcript for the summarizer.
    let before = String::from_utf8(env.read("rec/before_tree.stdin")).unwrap();
    let event: serde_json::Value = serde_json::from_str(&before).unwrap();
    let entries = &event["preparation"]["entriesToSummarize"];
    assert_eq!(entries[0]["message"]["content"], payload().as_str());
    let transcript = String::from_utf8(env.read("rec/summarizer.stdin")).unwrap();
    assert!(transcript.contains("$(touch pwned1)`touch pwned2`; touch pwned3 #"), "{transcript}");
}

/// sesstree run with umask 000, so that only its own choice of mode limits the files it makes;
/// the arguments follow.
fn under_open_umask(env: &TestEnv) -> assert_cmd::Command {
    let mut cmd = env.pinned(assert_cmd::Command::new("sh"));
    cmd.arg("-c")
        .arg("umask 000; exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("sesstree"));
    cmd
}

/// Files made with a wide-open umask still get the source's permissions, never more.
#[test]
#[cfg_attr(windows, ignore = "Windows has no mode bits")]
fn new_files_are_never_more_open_than_their_source() {
    let env = TestEnv::new();
    let v1 = "{\"type\":\"session\",\"id\":\"s\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}\n{\"type\":\"message\",\"timestamp\":\"2026-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n";
    for (mode, name) in [(0o600, "private.jsonl"), (0o640, "group.jsonl")] {
        let path = env.write(name, session());
        crate::common::set_mode(&path, mode);
        let old = env.write(&format!("v1-{name}"), v1);
        crate::common::set_mode(&old, mode);
        let made = [
            (format!("b-{name}"), vec!["-f", name, "branch", "--through", "a1", "-o"]),
            (format!("m-{name}"), vec!["-f", name, "migrate", "-o"]),
            (format!("r-{name}"), vec!["-f", name, "fsck", "--repair", "-o"]),
            (format!("e-{name}.html"), vec!["-f", name, "export", "-o"]),
        ];
        for (out, args) in &made {
            let mut args = args.clone();
            args.push(out);
            let status = under_open_umask(&env).args(&args).output().unwrap();
            assert!(status.status.code().is_some_and(|c| c <= 1), "{args:?}: {status:?}");
            let got = crate::common::mode(&env.path().join(out));
            assert_eq!(got, mode, "{args:?}");
        }
        // Migrating in place keeps the mode, and the backup has it too.
        let v1_name = format!("v1-{name}");
        let out = env.cmd().args(["-f", &v1_name, "migrate"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        for file in [v1_name.clone(), format!("{v1_name}.bak")] {
            let got = crate::common::mode(&env.path().join(&file));
            assert_eq!(got, mode, "{file}");
        }
    }
    // A file made from standard input has no source to copy: 0600, whatever the umask.
    for (out, command) in [("m-stdin.jsonl", "migrate"), ("r-stdin.jsonl", "fsck")] {
        let mut args = vec!["-f", "-", command, "-o", out];
        if command == "fsck" {
            args.insert(3, "--repair");
        }
        let status = under_open_umask(&env).args(&args).write_stdin(session()).output().unwrap();
        assert!(status.status.code().is_some_and(|c| c <= 1), "{args:?}: {status:?}");
        let got = crate::common::mode(&env.path().join(out));
        assert_eq!(got, 0o600, "{args:?}");
    }
}

/// An export gets the mode `cp` gives a copy of its session (the session's, less the umask),
/// no longer 0600 whatever the session's (issue 44).
#[test]
#[cfg_attr(windows, ignore = "Windows has no mode bits")]
fn an_export_gets_the_mode_of_a_copy_of_its_session() {
    let env = TestEnv::new();
    let path = env.write("s.jsonl", session());
    crate::common::set_mode(&path, 0o644);
    for (umask, out, want) in [("022", "a.html", 0o644), ("027", "b.md", 0o640)] {
        let mut cmd = env.pinned(assert_cmd::Command::new("sh"));
        cmd.arg("-c")
            .arg(format!("umask {umask}; exec \"$0\" \"$@\""))
            .arg(assert_cmd::cargo::cargo_bin("sesstree"));
        let status = cmd.args(["-f", "s.jsonl", "export", "-o", out]).output().unwrap();
        assert!(status.status.success(), "{status:?}");
        let got = crate::common::mode(&env.path().join(out));
        assert_eq!(got, want, "umask {umask}");
    }
}

/// `-o` onto a symbolic link or a directory is refused, `--force` or not, and nothing is
/// written through the link.
#[test]
#[cfg_attr(windows, ignore = "makes a symbolic link")]
fn output_never_goes_through_a_symlink_or_onto_a_directory() {
    let env = TestEnv::new();
    env.write("s.jsonl", session());
    env.write("victim.txt", "precious\n");
    crate::common::symlink(env.path().join("victim.txt"), env.path().join("link.jsonl"));
    std::fs::create_dir(env.path().join("dir.jsonl")).unwrap();
    for target in ["link.jsonl", "dir.jsonl"] {
        for cmd in [
            vec!["-f", "s.jsonl", "branch", "--through", "a1", "-o", target],
            vec!["-f", "s.jsonl", "migrate", "-o", target],
            vec!["-f", "s.jsonl", "fsck", "--repair", "-o", target],
        ] {
            for force in [false, true] {
                let mut args = cmd.clone();
                if force {
                    args.push("--force");
                }
                let out = env.cmd().args(&args).output().unwrap();
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
                let why = if target == "link.jsonl" { "symbolic link" } else { "is a directory" };
                assert!(stderr.contains(why), "{args:?}: {stderr}");
                assert_eq!(env.read("victim.txt"), b"precious\n");
                let meta = std::fs::symlink_metadata(env.path().join("link.jsonl")).unwrap();
                assert!(meta.file_type().is_symlink());
                assert!(env.path().join("dir.jsonl").is_dir());
            }
        }
    }
}
