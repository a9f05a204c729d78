//! A command without `-f` works on the current directory's newest session in the agents'
//! session directories, as `omp --continue` and `pi -c` pick it.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use insta::assert_snapshot;

use crate::common::{TestEnv, fixtures};

/// The project directory (under the test's home) and the directories the agents keep its
/// sessions in.
struct Project {
    env: TestEnv,
    cwd: PathBuf,
    omp: PathBuf,
    pi: PathBuf,
}

impl Project {
    fn new() -> Project {
        let env = TestEnv::new();
        let home = sesstree::platform::canonicalize(env.path()).unwrap().join("home");
        let cwd = home.join("proj");
        std::fs::create_dir_all(&cwd).unwrap();
        let omp = home.join(".omp/agent/sessions/-proj");
        let pi = home.join(".pi/agent/sessions").join(format!("--{}--", encoded(&cwd)));
        Project { env, cwd, omp, pi }
    }

    /// Puts fixture `name` at `path`, last modified `age` seconds ago.
    fn session(&self, path: &Path, name: &str, age: u64) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(fixtures().join(name), path).unwrap();
        let when = SystemTime::now() - Duration::from_secs(age);
        std::fs::File::options().write(true).open(path).unwrap().set_modified(when).unwrap();
    }

    fn run(&self, args: &[&str]) -> String {
        let output = self.env.cmd().current_dir(&self.cwd).args(args).output().unwrap();
        let text = self.env.render(&output);
        let real = sesstree::platform::canonicalize(self.env.path()).unwrap();
        text.replace(&real.display().to_string(), "$TMP").replace(&encoded(&real), "$ENCODED_TMP")
    }
}

/// A path as the agents encode it into a directory name.
fn encoded(path: &Path) -> String {
    path.to_string_lossy().trim_start_matches('/').replace(['/', '\\', ':'], "-")
}

#[test]
fn the_newest_session_of_the_directory_is_used() {
    let p = Project::new();
    p.session(&p.omp.join("2026-01-01T00-00-00-000Z_a.jsonl"), "linear.jsonl", 300);
    p.session(&p.pi.join("2026-01-02T00-00-00-000Z_b.jsonl"), "pi.jsonl", 100);
    // Newer, but another directory's.
    p.session(&p.omp.parent().unwrap().join("-other/c.jsonl"), "labeled.jsonl", 1);
    let pi = p.run(&[
        "-f",
        &p.pi.join("2026-01-02T00-00-00-000Z_b.jsonl").display().to_string(),
        "log",
        "-n",
        "1",
    ]);
    assert_eq!(p.run(&["log", "-n", "1"]), pi, "the pi session is the newer one");
    // `-f` still wins.
    assert_snapshot!(p.run(&["-f", &fixtures().join("linear.jsonl").display().to_string(), "log", "-n", "1"]), @"17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.");
    p.session(&p.omp.join("2026-01-03T00-00-00-000Z_d.jsonl"), "linear.jsonl", 0);
    assert_snapshot!(p.run(&["log", "-n", "1"]), @"17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.");
}

#[test]
fn pi_session_directory_holds_sessions_of_every_directory() {
    let p = Project::new();
    let flat = p.env.path().join("pi-sessions");
    p.session(&flat.join("other.jsonl"), "labeled.jsonl", 1);
    let mut mine = std::fs::read_to_string(fixtures().join("linear.jsonl")).unwrap();
    let header_end = mine.find('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(&mine[..header_end]).unwrap();
    header["cwd"] = p.cwd.display().to_string().into();
    mine.replace_range(..header_end, &header.to_string());
    std::fs::write(flat.join("mine.jsonl"), mine).unwrap();
    let output = p
        .env
        .cmd()
        .current_dir(&p.cwd)
        .env("PI_CODING_AGENT_SESSION_DIR", &flat)
        .args(["log", "-n", "1"])
        .output()
        .unwrap();
    assert_snapshot!(p.env.render(&output), @"17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn without_a_session_the_error_names_the_directories_searched() {
    let p = Project::new();
    assert_snapshot!(p.run(&["log"]), @"
    ------- stderr -------
    error: no session file: no session of this directory or a parent in ~/.omp/agent/sessions/-proj, ~/.omp/agent/sessions/--$ENCODED_TMP-home-proj--, ~/.pi/agent/sessions/--$ENCODED_TMP-home-proj--; give -f FILE or set SESSTREE_FILE
    [exit status: 2]
    ");
}

/// Issue 44: from a subdirectory of a project, as git looks upward for its repository, the
/// current session is the nearest parent directory's (the agents, pi 1.6.0's `continueRecent`,
/// look only at the directory itself); the directory's own sessions come first.
#[test]
fn a_subdirectory_takes_the_nearest_parent_s_session() {
    let p = Project::new();
    let pi = p.pi.join("2026-01-02T00-00-00-000Z_b.jsonl");
    p.session(&pi, "pi.jsonl", 100);
    let sub = p.cwd.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let output = p.env.cmd().current_dir(&sub).args(["log", "-n", "1"]).output().unwrap();
    let from_sub = p.env.render(&output);
    assert!(output.status.success(), "{from_sub}");
    assert_eq!(from_sub, p.run(&["-f", &pi.display().to_string(), "log", "-n", "1"]));
    // A session of the subdirectory itself wins, however old.
    p.session(&p.omp.with_file_name("-proj-src").join("a.jsonl"), "linear.jsonl", 9000);
    let own = p.omp.with_file_name("-proj-src").join("a.jsonl").display().to_string();
    let output = p.env.cmd().current_dir(p.cwd.join("src")).args(["log", "-n", "1"]).output();
    assert_eq!(p.env.render(&output.unwrap()), p.run(&["-f", &own, "log", "-n", "1"]));
}

/// `--session ID|NAME` picks a session by id prefix or by name in every session directory of
/// both agents, whatever the current directory.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn a_session_is_picked_by_id_prefix_or_name() {
    let p = Project::new();
    let home = p.cwd.parent().unwrap().to_path_buf();
    p.session(&home.join(".omp/agent/sessions/-elsewhere/a.jsonl"), "linear.jsonl", 10);
    p.session(&home.join(".omp/agent/sessions/-proj/b.jsonl"), "labeled.jsonl", 10);
    p.session(&home.join(".pi/agent/sessions/--x--/c.jsonl"), "pi.jsonl", 10);
    let first = |args: &[&str]| p.run(args).lines().next().unwrap_or_default().to_owned();
    assert_snapshot!(first(&["--session", "019cadc6", "log", "-n", "1"]), @"17de5c8f message 2026-03-02 09:01:11 +0000 assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.");
    assert_snapshot!(first(&["--session", "6f1c", "log", "-n", "1"]), @"d2f8a614 message 2026-03-04 08:05:58 +0000 assistant: Updated `package.json` (`@mariozechner/pi-agent-core`) and 14 import sites; `npm run check` passes.");
    p.session(&home.join(".omp/agent/sessions/-proj/d.jsonl"), "omp-title.jsonl", 10);
    assert_snapshot!(first(&["--session", "Fix flaky login test — CI", "log", "-n", "1"]), @"e7b4a6f5 message 2026-03-03 14:04:52 +0000 assistant: Done: `login.spec.ts` now waits for the `session` cookie (up to 5 s) before checking the URL.");
    // Both agents' ids of 2026 start alike: a prefix that names two is refused, with the files.
    assert_snapshot!(p.run(&["--session", "019ca", "log"]), @"
    ------- stderr -------
    error: '019ca' names 2 sessions: $TMP/home/.omp/agent/sessions/-proj/b.jsonl, $TMP/home/.omp/agent/sessions/-elsewhere/a.jsonl; give more of the id, or -f FILE
    [exit status: 4]
    ");
    assert_snapshot!(p.run(&["--session", "nothing-like-it", "log"]), @"
    ------- stderr -------
    error: no session has the id or name 'nothing-like-it' in $TMP/home/.omp/agent/sessions, $TMP/home/.pi/agent/sessions
    [exit status: 4]
    ");
}
