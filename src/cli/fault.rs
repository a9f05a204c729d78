//! A test-only fault point for the write-safety tests: with `SESSTREE_TEST_PAUSE_BEFORE_WRITE`
//! set to a path, a writing command that has loaded and planned creates that file and waits
//! (up to 30 s) until it is removed before it writes. A test uses the pause to change the
//! session file under the command, as an agent that does not lock would, and checks that
//! nothing is written. Not documented for users; unset, it costs one environment lookup.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Pauses here when the test hook asks for it.
pub fn before_write() {
    // Unset or empty: no pause.
    let path = std::env::var_os("SESSTREE_TEST_PAUSE_BEFORE_WRITE").unwrap_or_default();
    let path = PathBuf::from(path);
    if path.as_os_str().is_empty() || std::fs::write(&path, b"paused\n").is_err() {
        return;
    }
    let start = Instant::now();
    while path.exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether the selector should panic now that `c` was typed: the tmux test of `tree -i` types
/// the key named by `SESSTREE_TEST_PANIC_ON_KEY` to check that a panic gives the terminal back.
pub fn panic_on_key(c: char) -> bool {
    std::env::var("SESSTREE_TEST_PANIC_ON_KEY").is_ok_and(|v| v.chars().eq(std::iter::once(c)))
}
