//! The agents' extension events as git-style hooks (SPEC §4): an executable named after the
//! event in the hooks directory gets the event as one JSON object on standard input and may
//! answer with one JSON object on standard output.
//!
//! The event travels only on standard input: the hook runs directly, with no arguments and no
//! shell line, so nothing from the transcript can turn into a command. A hook that fails, answers
//! with something that is not JSON, or runs past its time limit stops the operation with
//! [`Error::Cancelled`] before anything is written; that is why every operation runs its
//! `session_before_*` hook before it plans its writes.
//!
//! Events: `session_before_tree` / `session_tree` (`checkout`), `session_before_branch` /
//! `session_branch` (`branch`). The directory is chosen by the binary (`--hooks-dir`,
//! `$XDG_CONFIG_HOME/sesstree/hooks`); the library only takes it.
//!
//! On Windows, where no permission bit says what runs, a hook is a file named after the event
//! with an extension Windows runs (`PATHEXT`, by default `.COM;.EXE;.BAT;.CMD`), as a command
//! is found there: `session_tree.cmd`. Programs (`.exe`, `.com`) run directly, the others
//! (batch files, scripts) through `cmd /C`, which starts them as Windows does.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::process::{self, CancelToken, RunError};
use crate::terminal::ellipsize;

/// `checkout`'s hook before the move: may cancel it or supply the summary.
pub const SESSION_BEFORE_TREE: &str = "session_before_tree";
/// `checkout`'s hook after the move.
pub const SESSION_TREE: &str = "session_tree";
/// `branch`'s hook before the new file is written: may cancel it.
pub const SESSION_BEFORE_BRANCH: &str = "session_before_branch";
/// `branch`'s hook after the new file is written.
pub const SESSION_BRANCH: &str = "session_branch";

/// How long a hook may run when the user does not say (SPEC §4).
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Where the hooks live, how long they may run, and the flag that interrupts them.
#[derive(Debug, Clone)]
pub struct Hooks {
    dir: Option<PathBuf>,
    timeout: Duration,
    cancel: CancelToken,
}

impl Hooks {
    /// Hooks from `dir` (none when `dir` is `None` or does not exist), each allowed `timeout`,
    /// stopped when `cancel` is set.
    pub fn new(dir: Option<PathBuf>, timeout: Duration, cancel: CancelToken) -> Hooks {
        Hooks { dir, timeout, cancel }
    }

    /// No hooks at all (`--no-hooks`, `--dry-run`).
    pub fn disabled() -> Hooks {
        Hooks::new(None, DEFAULT_TIMEOUT, CancelToken::default())
    }

    /// The executable that handles `event`, if there is one.
    pub fn find(&self, event: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        if cfg!(windows) {
            // Names compare without case, as Windows does; the path keeps the file's own.
            let names: Vec<String> = std::fs::read_dir(dir)
                .ok()?
                .flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .collect();
            let runnable = windows_extensions(std::env::var("PATHEXT").ok().as_deref());
            return runnable.iter().find_map(|ext| {
                let wanted = format!("{event}{ext}");
                let name = names.iter().find(|n| n.eq_ignore_ascii_case(&wanted))?;
                Some(dir.join(name)).filter(|path| path.is_file())
            });
        }
        let path = dir.join(event);
        is_executable(&path).then_some(path)
    }

    /// A file named after `event` that is not executable: git ignores such a hook, and so do
    /// we, but the binary says so, since it is usually a forgotten `chmod +x` (on Windows, a
    /// missing extension).
    pub fn ignored(&self, event: &str) -> Option<PathBuf> {
        let path = self.dir.as_ref()?.join(event);
        (path.is_file() && self.find(event).is_none()).then_some(path)
    }

    /// Runs the hook for `event`, if there is one, with `{"type": event, ...fields}` on its
    /// standard input, and returns the object it printed as a reply. No hook, empty output or
    /// `null` give `None`.
    ///
    /// Fails with [`Error::Cancelled`] when the hook exits non-zero, prints something other
    /// than a JSON object, runs past the time limit (it is killed), or the cancel flag is set.
    pub fn run(&self, event: &str, fields: Map<String, Value>) -> Result<Option<Reply>> {
        let Some(path) = self.find(event) else { return Ok(None) };
        let mut payload = Map::new();
        payload.insert("type".into(), event.into());
        payload.extend(fields);
        let input = serde_json::to_vec(&Value::Object(payload)).unwrap_or_default();
        let fail =
            |what: String| Error::Cancelled(format!("{event} hook {}: {what}", path.display()));
        let run = process::run(hook_command(&path), &input, Some(self.timeout), &self.cancel);
        let done = run.map_err(|e| {
            fail(match e {
                RunError::Spawn(e) => format!("could not run it: {e}"),
                RunError::TimedOut(t) => {
                    format!("ran past its {} s time limit and was stopped", t.as_secs_f64())
                }
                RunError::Cancelled => "interrupted".into(),
            })
        })?;
        if !done.status.success() {
            return Err(fail(format!("exited with {}", process::describe_status(done.status))));
        }
        parse_reply(&done.stdout).map_err(fail)
    }

    /// Like [`run`](Hooks::run), for a `session_before_*` event: a reply with `"cancel": true`
    /// cancels the operation.
    pub fn run_before(&self, event: &str, fields: Map<String, Value>) -> Result<Option<Reply>> {
        let reply = self.run(event, fields)?;
        if reply.as_ref().is_some_and(|r| r.cancel == Value::Bool(true)) {
            let path = self.find(event).unwrap_or_default();
            return Err(Error::Cancelled(format!(
                "{event} hook {} cancelled the operation; nothing was written",
                path.display()
            )));
        }
        Ok(reply)
    }
}

/// What a hook answered: the members the events read (SPEC §4), and no other. A
/// `session_before_*` hook may cancel the operation, and `session_before_tree`'s may supply the
/// summary of the abandoned branch.
#[derive(Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Reply {
    /// `cancel`: `true` cancels the operation; any other value does not.
    cancel: Value,
    /// `summary`: `{"summary": TEXT, "details": ...}`, as the hook wrote it (`null` is none).
    pub summary: Option<Value>,
}

/// A hook's standard output as its reply: nothing, `null`, or one JSON object.
fn parse_reply(stdout: &[u8]) -> std::result::Result<Option<Reply>, String> {
    if stdout.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice::<Value>(stdout) {
        // Every member has a default and takes any value: an object is always a reply.
        Ok(reply @ Value::Object(_)) => {
            Reply::deserialize(&reply).map(Some).map_err(|e| e.to_string())
        }
        Ok(Value::Null) => Ok(None),
        Ok(other) => Err(format!(
            "printed JSON that is not an object: {}",
            ellipsize(other.to_string().trim(), 80)
        )),
        Err(e) => Err(format!(
            "printed something that is not JSON ({e}): {}",
            ellipsize(String::from_utf8_lossy(stdout).trim(), 80)
        )),
    }
}

/// Whether the file at `path` may run: a regular file with an execute bit (Unix).
fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The extensions Windows runs, in its order of preference, from `PATHEXT` (`;`-separated,
/// any case), else its default.
fn windows_extensions(pathext: Option<&str>) -> Vec<String> {
    let list = pathext.filter(|p| !p.trim().is_empty()).unwrap_or(".COM;.EXE;.BAT;.CMD");
    list.split(';').map(str::trim).filter(|e| e.starts_with('.')).map(str::to_owned).collect()
}

/// How a hook is started: a Windows batch file or script through `cmd /C`, a program (and on
/// Unix anything) directly.
fn hook_command(path: &Path) -> Command {
    let program = path.extension().is_none_or(|e| {
        e.eq_ignore_ascii_case("exe") || e.eq_ignore_ascii_case("com") || cfg!(unix)
    });
    if program {
        Command::new(path)
    } else {
        let mut cmd = Command::new("cmd");
        cmd.arg("/C").arg(path);
        cmd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies() {
        assert_eq!(parse_reply(b"").unwrap(), None);
        assert_eq!(parse_reply(b" \n").unwrap(), None);
        assert_eq!(parse_reply(b"null\n").unwrap(), None);
        let cancel = parse_reply(b"{\"cancel\":true,\"other\":1}\n").unwrap();
        assert_eq!(cancel, Some(Reply { cancel: Value::Bool(true), summary: None }));
        let summary = parse_reply(b"{\"summary\":{\"summary\":\"s\"}}").unwrap();
        let summary = summary.and_then(|r| r.summary).unwrap_or_default();
        assert_eq!(summary, serde_json::json!({"summary": "s"}));
        assert_eq!(parse_reply(b"{\"summary\":null}").unwrap(), Some(Reply::default()));
        assert!(parse_reply(b"[1]").unwrap_err().contains("not an object"));
        assert!(parse_reply(b"hello").unwrap_err().contains("not JSON"));
    }

    #[test]
    fn windows_runs_what_pathext_names() {
        assert_eq!(windows_extensions(None), [".COM", ".EXE", ".BAT", ".CMD"]);
        assert_eq!(windows_extensions(Some(" ")), [".COM", ".EXE", ".BAT", ".CMD"]);
        assert_eq!(windows_extensions(Some(".exe;;.Ps1;junk")), [".exe", ".Ps1"]);
        let program = |p: &str| hook_command(Path::new(p)).get_program().to_owned();
        let batch = if cfg!(windows) { "cmd" } else { "h/session_tree.CMD" };
        assert_eq!(program("h/session_tree.CMD"), batch);
        assert_eq!(program("h/session_tree.exe"), "h/session_tree.exe");
        assert_eq!(program("h/session_tree"), "h/session_tree");
    }

    /// A hook of each kind Windows runs, found by its extension and run (Wine or Windows).
    #[cfg(windows)]
    #[test]
    fn windows_hooks_are_found_by_extension_and_run() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SESSION_TREE), "no extension: not run").unwrap();
        let hooks = Hooks::new(Some(dir.path().into()), DEFAULT_TIMEOUT, CancelToken::default());
        assert_eq!(hooks.find(SESSION_TREE), None);
        assert_eq!(hooks.ignored(SESSION_TREE), Some(dir.path().join(SESSION_TREE)));
        let script = dir.path().join("session_tree.Cmd");
        std::fs::write(&script, "@echo {\"summary\": true}\r\n").unwrap();
        assert_eq!(hooks.find(SESSION_TREE), Some(script));
        assert_eq!(hooks.ignored(SESSION_TREE), None);
        let reply = hooks.run(SESSION_TREE, Map::new()).unwrap().unwrap();
        assert_eq!(reply.summary, Some(Value::Bool(true)));
    }

    #[test]
    fn no_dir_no_hooks() {
        let hooks = Hooks::disabled();
        assert_eq!(hooks.find(SESSION_TREE), None);
        assert_eq!(hooks.run(SESSION_TREE, Map::new()).unwrap(), None);
    }
}
