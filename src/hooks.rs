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

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

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
        let path = self.dir.as_ref()?.join(event);
        is_executable(&path).then_some(path)
    }

    /// A file named after `event` that is not executable: git ignores such a hook, and so do
    /// we, but the binary says so, since it is usually a forgotten `chmod +x`.
    pub fn ignored(&self, event: &str) -> Option<PathBuf> {
        let path = self.dir.as_ref()?.join(event);
        (path.is_file() && !is_executable(&path)).then_some(path)
    }

    /// Runs the hook for `event`, if there is one, with `{"type": event, ...fields}` on its
    /// standard input, and returns the object it printed. No hook, empty output or `null` give
    /// `None`.
    ///
    /// Fails with [`Error::Cancelled`] when the hook exits non-zero, prints something other
    /// than a JSON object, runs past the time limit (it is killed), or the cancel flag is set.
    pub fn run(
        &self,
        event: &str,
        fields: Map<String, Value>,
    ) -> Result<Option<Map<String, Value>>> {
        let Some(path) = self.find(event) else { return Ok(None) };
        let mut payload = Map::new();
        payload.insert("type".into(), event.into());
        payload.extend(fields);
        let input = serde_json::to_vec(&Value::Object(payload)).unwrap_or_default();
        let fail =
            |what: String| Error::Cancelled(format!("{event} hook {}: {what}", path.display()));
        let run = process::run(Command::new(&path), &input, Some(self.timeout), &self.cancel);
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
    pub fn run_before(
        &self,
        event: &str,
        fields: Map<String, Value>,
    ) -> Result<Option<Map<String, Value>>> {
        let reply = self.run(event, fields)?;
        if let Some(r) = &reply
            // A hook's reply, not an entry.
            && r.get("cancel") == Some(&Value::Bool(true))
        {
            let path = self.find(event).unwrap_or_default();
            return Err(Error::Cancelled(format!(
                "{event} hook {} cancelled the operation; nothing was written",
                path.display()
            )));
        }
        Ok(reply)
    }
}

/// A hook's standard output as its reply: nothing, `null`, or one JSON object.
fn parse_reply(stdout: &[u8]) -> std::result::Result<Option<Map<String, Value>>, String> {
    if stdout.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice::<Value>(stdout) {
        Ok(Value::Object(m)) => Ok(Some(m)),
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

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies() {
        assert_eq!(parse_reply(b"").unwrap(), None);
        assert_eq!(parse_reply(b" \n").unwrap(), None);
        assert_eq!(parse_reply(b"null\n").unwrap(), None);
        assert!(parse_reply(b"{\"cancel\":true}\n").unwrap().is_some());
        assert!(parse_reply(b"[1]").unwrap_err().contains("not an object"));
        assert!(parse_reply(b"hello").unwrap_err().contains("not JSON"));
    }

    #[test]
    fn no_dir_no_hooks() {
        let hooks = Hooks::disabled();
        assert_eq!(hooks.find(SESSION_TREE), None);
        assert_eq!(hooks.run(SESSION_TREE, Map::new()).unwrap(), None);
    }
}
