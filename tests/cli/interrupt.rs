//! Interrupted writers leave nothing behind: Ctrl-C or SIGTERM during `export`, `migrate` or
//! `prune --save` removes the temporary file and leaves the target (and the save file) as it
//! was; a temporary file of a process
//! that was killed outright is swept by the next write into its directory once stale.

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use crate::common::TestEnv;

/// A session of `n` messages with some text each: large enough that writing its export or
/// migration takes a while in a debug build.
fn large_session(version: u32, n: usize) -> String {
    let mut text = format!(
        r#"{{"type":"session","version":{version},"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}}"#
    );
    text.push('\n');
    let words = "lorem ipsum dolor sit amet ".repeat(8);
    for i in 0..n {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        let ids = if version >= 2 {
            let parent = if i == 0 { "null".to_string() } else { format!("\"e{:07}\"", i - 1) };
            format!(r#""id":"e{i:07}","parentId":{parent},"#)
        } else {
            String::new()
        };
        text.push_str(&format!(
            r#"{{"type":"message",{ids}"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"{role}","content":"{i} {words}","timestamp":1}}}}"#
        ));
        text.push('\n');
    }
    text
}

/// The names of the hidden temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".sesstree-") && n.ends_with(".tmp"))
        .collect()
}

/// Runs `sesstree ARGS`, sends `signal` once its temporary file appears, and returns its exit
/// status and standard error; `setup` writes the files it works on.
fn interrupt(
    env: &TestEnv,
    args: &[&str],
    signal: &str,
    setup: impl Fn(),
) -> (Option<i32>, String) {
    interrupt_once(env, args, signal, setup, || true)
}

/// How many runs [`interrupt_once`] makes before it gives up on landing its signal mid-write.
const TRIES: usize = 5;

/// [`interrupt`], once `ready` holds as well. A run that finishes its write before the signal
/// reaches it (the window is a few milliseconds, and a loaded machine may not poll in time)
/// tests nothing: it is run again, after `setup` puts the files back, up to [`TRIES`] times.
fn interrupt_once(
    env: &TestEnv,
    args: &[&str],
    signal: &str,
    setup: impl Fn(),
    ready: impl Fn() -> bool,
) -> (Option<i32>, String) {
    for _ in 0..TRIES {
        setup();
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sesstree"))
            .current_dir(env.path())
            .env("HOME", env.path().join("home"))
            .env_remove("SESSTREE_FILE")
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let t0 = Instant::now();
        let mut finished = false;
        while temporaries(env.path()).is_empty() || !ready() {
            if child.try_wait().unwrap().is_some() {
                finished = true;
                break;
            }
            assert!(t0.elapsed() < Duration::from_secs(60), "no temporary file appeared");
            std::thread::sleep(Duration::from_millis(2));
        }
        if finished {
            continue;
        }
        let status = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        // Done before the signal arrived, or it arrived after the rename ("interrupted", with
        // nothing left to undo).
        if out.status.success() || stderr == "error: interrupted\n" {
            continue;
        }
        return (out.status.code(), stderr);
    }
    panic!("{args:?} finished before its signal arrived, {TRIES} times");
}

#[test]
#[cfg_attr(windows, ignore = "sends POSIX signals")]
fn ctrl_c_during_export_leaves_no_temporary_file_and_the_target_as_it_was() {
    let env = TestEnv::new();
    env.write("big.jsonl", large_session(3, 60_000));
    let args = ["-f", "big.jsonl", "export", "-o", "out.html", "--force"];
    let (code, stderr) = interrupt(&env, &args, "-INT", || {
        env.write("out.html", "old export\n");
    });
    assert_eq!(code, Some(7), "{stderr}");
    insta::assert_snapshot!(stderr, @"error: interrupted; nothing was written");
    assert_eq!(temporaries(env.path()), Vec::<String>::new());
    assert_eq!(env.read("out.html"), b"old export\n");
}

#[test]
#[cfg_attr(windows, ignore = "sends POSIX signals")]
fn sigterm_during_migrate_leaves_no_temporary_file_and_no_target() {
    let env = TestEnv::new();
    env.write("old.jsonl", large_session(1, 150_000));
    let args = ["migrate", "old.jsonl", "-o", "new.jsonl"];
    let (code, stderr) = interrupt(&env, &args, "-TERM", || {
        let _ = std::fs::remove_file(env.path().join("new.jsonl"));
    });
    assert_eq!(code, Some(7), "{stderr}");
    insta::assert_snapshot!(stderr, @"error: interrupted; nothing was written");
    assert_eq!(temporaries(env.path()), Vec::<String>::new());
    assert!(!env.path().join("new.jsonl").exists());
}

/// `migrate` in place keeps a backup, then renames the migrated file over the original: an
/// interrupt in between removes the backup too, and the original stays as it was.
#[test]
#[cfg_attr(windows, ignore = "sends POSIX signals")]
fn an_interrupted_migration_in_place_leaves_no_backup() {
    let env = TestEnv::new();
    let original = large_session(1, 150_000);
    env.write("old.jsonl", &original);
    let backup = env.path().join("old.jsonl.bak");
    let setup = || {
        env.write("old.jsonl", &original);
        let _ = std::fs::remove_file(&backup);
    };
    let (code, stderr) =
        interrupt_once(&env, &["migrate", "old.jsonl"], "-INT", setup, || backup.exists());
    assert_eq!(code, Some(7), "{stderr}");
    insta::assert_snapshot!(stderr, @"error: interrupted; nothing was written");
    assert_eq!(temporaries(env.path()), Vec::<String>::new());
    assert!(!backup.exists());
    assert_eq!(env.read("old.jsonl"), original.as_bytes());
}

/// A session whose first entry has a branch of `branch` messages off the active path, then
/// an active path of `path` more: `prune --abandoned --save` appends the branch to the save
/// file, then rewrites the file without it.
fn branched_session(branch: usize, path: usize) -> String {
    let words = "lorem ipsum dolor sit amet ".repeat(8);
    let line = |id: &str, parent: &str, i: usize| {
        format!(
            r#"{{"type":"message","id":"{id}","parentId":"{parent}","timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"{i} {words}","timestamp":1}}}}"#
        ) + "\n"
    };
    let mut text = concat!(
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
        "\n",
        r#"{"type":"message","id":"root","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}"#,
        "\n",
    )
    .to_string();
    for i in 0..branch {
        let parent = if i == 0 { "root".to_string() } else { format!("b{:07}", i - 1) };
        text.push_str(&line(&format!("b{i:07}"), &parent, i));
    }
    for i in 0..path {
        let parent = if i == 0 { "root".to_string() } else { format!("p{:07}", i - 1) };
        text.push_str(&line(&format!("p{i:07}"), &parent, i));
    }
    text
}

/// `prune --save` appends the removed lines to the save file before it replaces the session:
/// an interrupt after the append (while the pruned file is written) cuts the save file back to
/// what it held, or removes it when the prune made it, and leaves the session as it was.
#[test]
#[cfg_attr(windows, ignore = "sends POSIX signals")]
fn an_interrupted_prune_leaves_the_save_file_as_it_was() {
    let env = TestEnv::new();
    let original = branched_session(20_000, 100_000);
    env.write("s.jsonl", &original);
    let saved = env.path().join("saved.jsonl");
    let earlier = "{\"type\":\"session\",\"version\":3,\"id\":\"s\"}\n";
    for old in [Some(earlier), None] {
        let setup = || {
            env.write("s.jsonl", &original);
            match old {
                Some(text) => drop(env.write("saved.jsonl", text)),
                None => drop(std::fs::remove_file(&saved)),
            }
        };
        let appended = || {
            let len = std::fs::metadata(&saved).map_or(0, |m| m.len());
            len > old.map_or(0, |t| t.len() as u64)
        };
        let args = ["-f", "s.jsonl", "prune", "--abandoned", "--save", "saved.jsonl"];
        let (code, stderr) = interrupt_once(&env, &args, "-INT", setup, appended);
        assert_eq!(code, Some(7), "{stderr}");
        assert_eq!(stderr, "error: interrupted; nothing was written\n");
        assert_eq!(temporaries(env.path()), Vec::<String>::new());
        assert_eq!(env.read("s.jsonl"), original.as_bytes());
        match old {
            Some(text) => assert_eq!(env.read("saved.jsonl"), text.as_bytes()),
            None => assert!(!saved.exists(), "the save file the prune made is still there"),
        }
    }
}

/// A process id that is certainly not running: a child that has been waited for.
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
#[cfg_attr(windows, ignore = "runs true, which Windows lacks")]
fn a_write_sweeps_stale_temporary_files_of_dead_processes_only() {
    let env = TestEnv::new();
    env.write("s.jsonl", large_session(3, 2));
    let dead = dead_pid();
    let live = std::process::id();
    let old = SystemTime::now() - Duration::from_secs(11 * 60);
    let make = |name: &str, modified: SystemTime| {
        let path = env.write(name, "half");
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(modified).unwrap();
    };
    make(&format!(".sesstree-{dead}-aB3xYz.tmp"), old); // killed long ago: swept
    make(".sesstree-qW8rTy.tmp", old); // an older sesstree's name, no pid: swept by age
    make(&format!(".sesstree-{dead}-fresh1.tmp"), SystemTime::now()); // may be a clock skew: kept
    make(&format!(".sesstree-{live}-alive1.tmp"), old); // its process runs: kept
    make(".sesstree-other.txt", old); // not ours: kept
    let out = env.run(&["-f", "s.jsonl", "export", "-o", "s.md"]);
    insta::assert_snapshot!(out, @"s.md");
    let mut left = temporaries(env.path());
    left.sort();
    let mut kept = [format!(".sesstree-{dead}-fresh1.tmp"), format!(".sesstree-{live}-alive1.tmp")];
    kept.sort();
    assert_eq!(left, kept);
    assert!(env.path().join(".sesstree-other.txt").exists());
}
