//! Fault injection (issue 8): writers killed at random points, a read-only file, a full disk, a
//! file-size limit. A command that fails or is killed leaves every earlier byte as it was; a
//! kill leaves at most a torn last line, which the next append steps over. The concurrent
//! writers test (8 × 25 labels) is in concurrency.rs.
//!
//! The mount-based tests need root (CI runs as root); elsewhere they say so and pass.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::TestEnv;

const HEADER: &str =
    r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w"}"#;
const MSG: &str = r#"{"type":"message","id":"m1","parentId":null,"timestamp":"2026-02-16T10:21:00.000Z","message":{"role":"user","content":"hi"}}"#;

/// A small deterministic generator (xorshift), so the kill points are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Starts `sesstree ARGS` on the environment's directory, with real ids and times (writers
/// racing with the same seed would still get distinct ids, but real ones are what users run).
fn spawn(env: &TestEnv, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("sesstree"))
        .current_dir(env.path())
        .env_remove("SESSTREE_FILE")
        .env_remove("SESSTREE_SEED")
        .env_remove("SESSTREE_NOW")
        .env("HOME", env.path().join("home"))
        .env("XDG_CONFIG_HOME", env.path().join("config"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

/// Complete lines (each ended by a newline) that are not JSON, and whether the file ends in a
/// partial line.
fn damage(bytes: &[u8]) -> (Vec<String>, bool) {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let torn_tail = !lines.pop().unwrap_or_default().is_empty();
    let bad = lines
        .iter()
        .filter(|l| serde_json::from_slice::<serde_json::Value>(l).is_err())
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    (bad, torn_tail)
}

#[test]
#[cfg_attr(windows, ignore = "a killed process exits with a status on Windows, not a signal")]
fn writers_killed_at_random_points() {
    let env = TestEnv::new();
    env.write("k.jsonl", format!("{HEADER}\n{MSG}\n"));
    let mut rng = Rng(0x0dd_ba11_5eed);
    let mut kills = 0;
    let mut torn = Vec::new();
    for round in 0..30 {
        let before = env.read("k.jsonl");
        // Two writers race for the lock; one of them is killed after a random short delay,
        // before, while or after it writes.
        let mut a = spawn(&env, &["-f", "k.jsonl", "label", "m1", &format!("a{round}")]);
        let mut b = spawn(&env, &["-f", "k.jsonl", "label", "m1", &format!("b{round}")]);
        std::thread::sleep(Duration::from_micros(rng.below(40_000)));
        let victim = if rng.below(2) == 0 { &mut a } else { &mut b };
        if victim.kill().is_ok() {
            kills += 1;
        }
        for child in [&mut a, &mut b] {
            let out = child.wait_with_output_ref();
            // A survivor wrote its label (or, on a very loaded machine, gave up waiting for the
            // lock): never a crash.
            let waited_too_long = out.0.code() == Some(5) && out.1.contains("holds the lock");
            assert!(
                out.0.code().is_none_or(|c| c == 0) || waited_too_long,
                "round {round}: {}",
                out.1
            );
        }
        let after = env.read("k.jsonl");
        assert!(after.starts_with(&before), "round {round}: earlier bytes changed");
        let (bad, torn_tail) = damage(&after);
        // At most one torn line, at the end; earlier torn tails were stepped over.
        assert!(bad.iter().all(|l| torn.contains(l)), "round {round}: interleaved: {bad:?}");
        if torn_tail {
            let tail = after.rsplit(|&b| b == b'\n').next().unwrap_or_default();
            torn.push(String::from_utf8_lossy(tail).into_owned());
        }
        // Readers take whatever the kills left.
        let log = env.cmd().args(["-f", "k.jsonl", "--json", "log", "--filter", "all"]).output();
        assert_eq!(log.unwrap().status.code(), Some(0), "round {round}");
    }
    // The next writer appends after whatever is there, on a line of its own.
    let out = env.cmd().args(["-f", "k.jsonl", "label", "m1", "final"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = env.read("k.jsonl");
    assert!(after.ends_with(b"\"label\":\"final\"}\n"));
    let (bad, torn_tail) = damage(&after);
    assert!(!torn_tail);
    assert!(bad.len() <= torn.len());
    eprintln!("{kills} writers killed, {} torn lines left by them", torn.len());
}

/// `wait_with_output` for a `&mut Child` whose stdout is discarded.
trait WaitRef {
    fn wait_with_output_ref(&mut self) -> (std::process::ExitStatus, String);
}

impl WaitRef for Child {
    fn wait_with_output_ref(&mut self) -> (std::process::ExitStatus, String) {
        let mut err = String::new();
        if let Some(mut e) = self.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        (self.wait().expect("wait"), err)
    }
}

/// A writer killed while it holds the lock, just before it writes: nothing is written, and the
/// lock dies with it, so the next writer does not wait.
#[test]
fn a_writer_killed_holding_the_lock_writes_nothing_and_frees_it() {
    let env = TestEnv::new();
    env.write("p.jsonl", format!("{HEADER}\n{MSG}\n"));
    let before = env.read("p.jsonl");
    let pause = env.path().join("pause");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sesstree"))
        .current_dir(env.path())
        .env("HOME", env.path().join("home"))
        .env("SESSTREE_TEST_PAUSE_BEFORE_WRITE", &pause)
        .args(["-f", "p.jsonl", "label", "m1", "never"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !pause.exists() {
        assert!(start.elapsed() < Duration::from_secs(30), "never paused");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(env.read("p.jsonl"), before);
    let start = Instant::now();
    insta::assert_snapshot!(env.run(&["-f", "p.jsonl", "label", "m1", "next"]), @r#"Labelled m1 "next""#);
    assert!(start.elapsed() < Duration::from_secs(5), "waited for a dead writer's lock");
}

/// `start` followed by a line of spaces (a blank line, which readers skip) up to `len` bytes.
fn padded(mut start: Vec<u8>, len: usize) -> Vec<u8> {
    start.resize(len - 1, b' ');
    start.push(b'\n');
    start
}

/// Runs `sh -c SCRIPT` with `sesstree` as `$0`-style first argument, in the pinned environment.
fn sh(env: &TestEnv, script: &str, args: &[&str]) -> std::process::Output {
    env.pinned(assert_cmd::Command::new("sh"))
        .arg("-c")
        .arg(script)
        .arg(assert_cmd::cargo::cargo_bin("sesstree"))
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("sh")
}

/// With a file-size limit (`ulimit -f`) that the append crosses half-way, the kernel writes
/// part of the line and refuses the rest (EFBIG). sesstree blocks SIGXFSZ, so it is not killed
/// half-way: it cuts the file back and fails with exit 1.
#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn a_file_size_limit_is_a_failed_write_not_a_torn_line() {
    let env = TestEnv::new();
    // 40 bytes under a 2048-byte limit, so the label line crosses it.
    let text = padded(format!("{HEADER}\n{MSG}\n").into_bytes(), 2048 - 40);
    let text = String::from_utf8(text).unwrap();
    env.write("f.jsonl", &text);
    // dash counts `ulimit -f` in 512-byte blocks: 4 blocks = 2048 bytes.
    let limit = "ulimit -f 4; exec \"$0\" \"$@\"";
    for args in [
        &["-f", "f.jsonl", "label", "m1", "over the limit"][..],
        &["-f", "f.jsonl", "checkout", "m1", "--summary", "a summary that does not fit"],
    ] {
        let out = sh(&env, limit, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("File too large"), "{stderr}");
        assert_eq!(env.read("f.jsonl"), text.as_bytes(), "{args:?} left bytes behind");
    }
    // Without the limit the same append goes through.
    insta::assert_snapshot!(env.run(&["-f", "f.jsonl", "label", "m1", "fits"]), @r#"Labelled m1 "fits""#);
}

/// A tmpfs mounted for one test, unmounted when dropped. `None` when mounting is not allowed
/// (not root, no mount namespace): the test is then skipped.
struct Mount {
    dir: PathBuf,
}

impl Mount {
    fn tmpfs(env: &TestEnv, options: &str) -> Option<Mount> {
        let dir = env.path().join("mnt");
        std::fs::create_dir_all(&dir).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipped: cannot mount a tmpfs here (not root?)");
            return None;
        }
        Some(Mount { dir })
    }

    fn remount(&self, options: &str) -> bool {
        Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(&self.dir)
            .status()
            .is_ok_and(|s| s.success())
    }

    fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}

/// Fills the file system holding `dir` to the last byte.
fn fill(dir: &Path) {
    use std::io::Write;
    let mut f = std::fs::File::create(dir.join("filler")).unwrap();
    let block = vec![0u8; 4096];
    while f.write_all(&block).is_ok() {}
    let mut byte = [0u8; 1];
    while f.write_all(&byte).is_ok() {
        byte[0] = 0;
    }
}

#[test]
fn a_full_disk_leaves_every_file_as_it_was() {
    let env = TestEnv::new();
    let Some(mnt) = Mount::tmpfs(&env, "size=256k") else { return };
    let dir = mnt.dir.clone();
    // Files whose last page is nearly full, so any append needs a page the disk no longer has.
    let text = padded(format!("{HEADER}\n{MSG}\n").into_bytes(), 2 * 4096 - 30);
    std::fs::write(dir.join("d.jsonl"), &text).unwrap();
    std::fs::write(dir.join("n.jsonl"), &text).unwrap();
    let slot =
        sesstree::format::title::encode_slot("Old name", None, "2026-02-16T10:20:30.000Z").unwrap();
    let omp = padded([slot, format!("{HEADER}\n{MSG}\n").into_bytes()].concat(), 2 * 4096 - 30);
    std::fs::write(dir.join("o.jsonl"), &omp).unwrap();
    fill(&dir);
    let files = mnt.files();
    let runs: &[&[&str]] = &[
        &["-f", "d.jsonl", "label", "m1", "no room"],
        &["-f", "d.jsonl", "checkout", "m1", "--summary", "no room either"],
        &["-f", "o.jsonl", "name", "A new name"],
        &["-f", "n.jsonl", "name", "--dialect", "omp", "A name that needs a slot"],
        // A root prompt: only a file with a slot gets a new file (slot, header, title_change).
        &["-f", "o.jsonl", "branch", "m1", "-o", "new.jsonl"],
        &["-f", "d.jsonl", "migrate", "-o", "migrated.jsonl"],
    ];
    for args in runs {
        let out = env.cmd().current_dir(&dir).args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("No space left on device"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read(dir.join("d.jsonl")).unwrap(), text, "{args:?}");
        assert_eq!(std::fs::read(dir.join("n.jsonl")).unwrap(), text, "{args:?}");
        assert_eq!(std::fs::read(dir.join("o.jsonl")).unwrap(), omp, "{args:?}");
        // oh-my-pi's gate beside a session written to (made if missing) is no leftover.
        let left: Vec<_> = mnt.files().into_iter().filter(|f| !f.ends_with(".lock.os")).collect();
        assert_eq!(left, files, "{args:?} left a file behind");
    }
    // Room again: the same commands go through.
    std::fs::remove_file(dir.join("filler")).unwrap();
    let out = env.cmd().current_dir(&dir).args(runs[0]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
#[cfg_attr(windows, ignore = "Windows has no mode bits; the test remounts a tmpfs")]
fn a_read_only_file_is_refused_with_nothing_written() {
    let env = TestEnv::new();
    let text = format!("{HEADER}\n{MSG}\n");
    let path = env.write("r.jsonl", &text);
    crate::common::set_mode(&path, 0o444);
    // Root writes through file permissions; a read-only mount stops it too.
    let mount;
    let (dir, file) = if std::fs::OpenOptions::new().append(true).open(&path).is_ok() {
        let Some(m) = Mount::tmpfs(&env, "size=64k") else { return };
        std::fs::write(m.dir.join("r.jsonl"), &text).unwrap();
        if !m.remount("ro") {
            eprintln!("skipped: cannot remount read-only");
            return;
        }
        mount = m;
        (mount.dir.clone(), mount.dir.join("r.jsonl"))
    } else {
        (env.path().to_path_buf(), path)
    };
    for args in [
        &["-f", "r.jsonl", "label", "m1", "x"][..],
        &["-f", "r.jsonl", "checkout", "m1"],
        &["-f", "r.jsonl", "name", "n"],
    ] {
        let out = env.cmd().current_dir(&dir).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("Permission denied") || stderr.contains("Read-only file system"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.starts_with("error: ") && stderr.lines().count() <= 2, "{stderr}");
        assert_eq!(std::fs::read(&file).unwrap(), text.as_bytes());
    }
}
