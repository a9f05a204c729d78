//! The test environment: a temporary directory per test, a pinned environment, and a runner
//! that renders stdout, stderr and the exit status as one snapshot text.
#![allow(dead_code)] // each test module uses a different part of the harness

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A temporary directory with the fixtures a test needs, and a pinned environment.
pub struct TestEnv {
    dir: tempfile::TempDir,
}

/// The directory of the hand-made fixtures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The example session of the README, examples/demo.jsonl.
pub fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo.jsonl")
}

/// The visible subcommands, as `sesstree --help` lists them (without `help`).
pub fn subcommands(env: &TestEnv) -> Vec<String> {
    let output = env.cmd().arg("--help").output().expect("run");
    let help = String::from_utf8_lossy(&output.stdout).into_owned();
    let (_, list) = help.split_once("Commands:\n").expect("a Commands section");
    list.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Sets the Unix permission bits of `path`, for tests that are skipped on Windows (it has
/// none; such a test is `#[cfg_attr(windows, ignore = ...)]`).
pub fn set_mode(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    #[cfg(not(unix))]
    panic!("no mode bits to set {mode:o} on {} here", path.display());
}

/// The Unix permission bits of `path` (see [`set_mode`]).
pub fn mode(path: &Path) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).expect("stat").permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    panic!("no mode bits to read on {} here", path.display());
}

/// A symbolic link at `link` to `target` (on Windows one needs a privilege Wine and most users
/// lack: the tests that make one are skipped there).
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, link).expect("symlink");
    #[cfg(windows)]
    std::os::windows::fs::symlink_file(target, link).expect("symlink");
}

impl TestEnv {
    /// A fresh environment.
    pub fn new() -> TestEnv {
        TestEnv { dir: tempfile::tempdir().expect("tempdir") }
    }

    /// The temporary directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Copies a fixture into the directory and returns its new path.
    pub fn fixture(&self, name: &str) -> PathBuf {
        let src = fixtures().join(name);
        let dst = self.dir.path().join(name);
        std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
        dst
    }

    /// Writes a file into the directory.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let dst = self.dir.path().join(name);
        std::fs::write(&dst, contents).expect("write");
        dst
    }

    /// A `sesstree` command running in the directory with a pinned environment.
    pub fn cmd(&self) -> Command {
        self.pinned(Command::cargo_bin("sesstree").expect("binary"))
    }

    /// Any command (a shell wrapping `sesstree`, say) with the directory and environment of
    /// [`cmd`](TestEnv::cmd).
    pub fn pinned(&self, mut cmd: Command) -> Command {
        cmd.current_dir(self.dir.path());
        for var in [
            "SESSTREE_FILE",
            "NO_COLOR",
            "CLICOLOR_FORCE",
            "FORCE_COLOR",
            "COLUMNS",
            "SESSTREE_SUMMARIZER",
            "COMPLETE",
            // Where the agents keep sessions (a command without -f looks there).
            "PI_CONFIG_DIR",
            "OMP_PROFILE",
            "PI_PROFILE",
            "PI_CODING_AGENT_DIR",
            "PI_CODING_AGENT_SESSION_DIR",
            // Where Claude Code and Codex keep theirs (`ls` and `grep` search them).
            "CLAUDE_CONFIG_DIR",
            "CODEX_HOME",
        ] {
            cmd.env_remove(var);
        }
        cmd.env("HOME", self.dir.path().join("home"));
        // Windows' home directory, as the agents' `os.homedir()` reads it there.
        cmd.env("USERPROFILE", self.dir.path().join("home"));
        cmd.env("XDG_CONFIG_HOME", self.dir.path().join("config"));
        cmd.env("XDG_DATA_HOME", self.dir.path().join("data"));
        cmd.env("SESSTREE_NOW", "2026-03-01T12:00:00.000Z");
        cmd.env("SESSTREE_SEED", "42");
        cmd.env("TZ", "UTC");
        cmd
    }

    /// Runs `sesstree ARGS` and renders the outcome.
    pub fn run(&self, args: &[&str]) -> String {
        let output = self.cmd().args(args).output().expect("run");
        self.render(&output)
    }

    /// Runs with standard input.
    pub fn run_stdin(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> String {
        let output = self.cmd().args(args).write_stdin(stdin.into()).output().expect("run");
        self.render(&output)
    }

    /// stdout, then stderr, then the exit status, with the temporary directory as `$TMP`.
    pub fn render(&self, output: &std::process::Output) -> String {
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !stderr.is_empty() {
            text.push_str("------- stderr -------\n");
            text.push_str(&stderr);
        }
        match output.status.code() {
            Some(0) => {}
            Some(code) => text.push_str(&format!("[exit status: {code}]\n")),
            None => text.push_str("[killed by a signal]\n"),
        }
        let tmp = self.dir.path().display().to_string();
        text.replace(&tmp, "$TMP")
    }

    /// The bytes of a file in the directory.
    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.dir.path().join(name)).expect("read")
    }
}
