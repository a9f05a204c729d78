//! oh-my-pi's ownership lease (CHANGES R6): a writer refuses a session that an oh-my-pi
//! process has open (exit 5, the file byte for byte as it was), unless `--even-if-open`.
//!
//! This test process plays oh-my-pi: it holds the lease as oh-my-pi ≥ 18.5.0 does on macOS and
//! the BSDs, a `flock` on `<owners>/<session id>.lock` (the lock path `tryAcquireSessionLease`
//! hands to pi-natives' `FileLock`, whose `flock` backend locks the path itself). On Linux
//! oh-my-pi binds an abstract socket named after that path instead; that form, and its name,
//! are tested in `src/lease.rs` against the names the real native module binds.

use std::fs::File;
use std::path::Path;

use crate::common::TestEnv;

const ID: &str = "0198f3a2-7c41-7d2e-9a55-3b1f0c6e2a10";

/// Holds a `flock` on `path` (made with its directories) until dropped.
fn hold(path: &Path) -> File {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = File::create(path).unwrap();
    file.lock().unwrap();
    file
}

/// The outcome with this process's id (the lease's holder) written as `[PID]`.
fn run(env: &TestEnv, args: &[&str]) -> String {
    let out = env.cmd().env_remove("XDG_STATE_HOME").args(args).output().unwrap();
    env.render(&out).replace(&format!("pid {}", std::process::id()), "pid [PID]")
}

/// The owners directory of oh-my-pi ≥ 18.5.0 under the test's home (`getSessionOwnersDir`).
fn owners(env: &TestEnv) -> std::path::PathBuf {
    env.path().join("home/.omp/run/session-owners")
}

#[test]
#[cfg_attr(windows, ignore = "oh-my-pi's Windows lease is a named mutex, never looked for")]
fn every_writer_refuses_a_session_open_in_oh_my_pi_and_writes_nothing() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let _lease = hold(&owners(&env).join(format!("{ID}.lock")));
    let before = env.read("writers-omp.jsonl");
    let writers: [&[&str]; 4] = [
        &["label", "a1b2", "x"],
        &["name", "--dialect", "omp", "New name"],
        &["checkout", "a1b2"],
        &["label", "start", "--clear"],
    ];
    for args in writers {
        let args = [&["-f", "writers-omp.jsonl"], args].concat();
        insta::allow_duplicates! {
            insta::assert_snapshot!(run(&env, &args), @r"
            ------- stderr -------
            error: writers-omp.jsonl: session is open in oh-my-pi (pid [PID]); nothing was written (close it there, or give --even-if-open)
            [exit status: 5]
            ");
        }
        assert_eq!(env.read("writers-omp.jsonl"), before, "{args:?}");
    }
    // Reading is not writing.
    insta::assert_snapshot!(run(&env, &["-f", "writers-omp.jsonl", "log", "-n", "1"]), @"e5f6a7b8 message 2026-02-16 10:23:00 +0000 assistant: Done");
    assert!(env.path().read_dir().unwrap().count() == 2, "no backup, no temporary file");
}

#[test]
fn even_if_open_writes_and_a_released_lease_needs_nothing() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let lease = hold(&owners(&env).join(format!("{ID}.lock")));
    insta::assert_snapshot!(run(&env, &["-f", "writers-omp.jsonl", "--even-if-open", "label", "a1b2", "x"]), @r#"Labelled a1b2c3d4 "x" (was "start")"#);
    // oh-my-pi exited: the kernel dropped its lock; the sidecar file stays, unlocked.
    drop(lease);
    insta::assert_snapshot!(run(&env, &["-f", "writers-omp.jsonl", "label", "a1b2", "y"]), @r#"Labelled a1b2c3d4 "y" (was "x")"#);
}

#[test]
#[cfg_attr(windows, ignore = "oh-my-pi's Windows lease is a named mutex, never looked for")]
fn migrate_in_place_refuses_and_keeps_no_backup() {
    let env = TestEnv::new();
    env.fixture("v2-hook.jsonl");
    let _lease = hold(&owners(&env).join("Vq3nK8xLb2RtY7mZc4PwA.lock"));
    let before = env.read("v2-hook.jsonl");
    insta::assert_snapshot!(run(&env, &["migrate", "v2-hook.jsonl"]), @r"
    ------- stderr -------
    error: v2-hook.jsonl: session is open in oh-my-pi (pid [PID]); nothing was written (close it there, or give --even-if-open)
    [exit status: 5]
    ");
    assert_eq!(env.read("v2-hook.jsonl"), before);
    assert!(!env.path().join("v2-hook.jsonl.bak").exists(), "the backup is taken back");
}

/// Where the lease is: `PI_CONFIG_DIR` (joined to the home as Node's `path.join` joins, an
/// absolute one too), `$XDG_STATE_HOME/omp`, a hashed name for an id that is not a plain
/// token (`h-` and `Bun.hash.wyhash` of it, Bun 1.4.5), and oh-my-pi 18.4.9–18.4.12's lease
/// beside the file (`.<file>.owner.lock`).
#[test]
#[cfg_attr(windows, ignore = "oh-my-pi's Windows lease is a named mutex, never looked for")]
fn the_lease_is_found_where_each_oh_my_pi_keeps_it() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let odd = "not a plain id: é/..";
    let text = String::from_utf8(env.read("writers-omp.jsonl")).unwrap().replacen(ID, odd, 1);
    env.write("odd.jsonl", text);
    let home = env.path().join("home");
    let cases = [
        (
            "writers-omp.jsonl",
            home.join("cfg/run/session-owners").join(format!("{ID}.lock")),
            Some("cfg"),
            None,
        ),
        (
            "writers-omp.jsonl",
            home.join("abs/cfg/run/session-owners").join(format!("{ID}.lock")),
            Some("/abs/cfg"),
            None,
        ),
        (
            "writers-omp.jsonl",
            env.path().join("state/omp/run/session-owners").join(format!("{ID}.lock")),
            None,
            Some("state"),
        ),
        ("odd.jsonl", owners(&env).join("h-29aef68a2f670034.lock"), None, None),
        ("writers-omp.jsonl", env.path().join(".writers-omp.jsonl.owner.lock"), None, None),
    ];
    for (file, lock, config, state) in cases {
        let before = env.read(file);
        let _lease = hold(&lock);
        let mut cmd = env.cmd();
        cmd.env_remove("XDG_STATE_HOME");
        if let Some(config) = config {
            cmd.env("PI_CONFIG_DIR", config);
        }
        if let Some(state) = state {
            cmd.env("XDG_STATE_HOME", env.path().join(state));
        }
        let out = cmd.args(["-f", file, "label", "a1b2", "x"]).output().unwrap();
        assert_eq!(out.status.code(), Some(5), "{}: {out:?}", lock.display());
        assert_eq!(env.read(file), before);
    }
}
