//! `sesstree tree -i` (and `checkout` on a terminal): the real binary in a real terminal. Each
//! test runs it in its own tmux server (80×24, no status line), sends keys with `send-keys`,
//! and reads the screen with `capture-pane`, polling with a deadline instead of sleeping.
//! Without tmux the tests print a note and pass (CI installs tmux).

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use insta::assert_snapshot;

use crate::common::TestEnv;

/// How long any one expected screen may take to appear.
const DEADLINE: Duration = Duration::from_secs(15);

/// A tmux server of our own (its own socket), killed when the test ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `sesstree ARGS` in a fresh 80×24 pane inside `env`'s directory, with the
    /// harness's pinned environment; when it exits the pane shows `[exit N]` and stays.
    fn start(env: &TestEnv, args: &str) -> Option<Tmux> {
        Tmux::start_with(env, "", args)
    }

    /// [`Tmux::start`] with extra `VAR=value` settings for the environment.
    fn start_with(env: &TestEnv, extra: &str, args: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("note: tmux is not installed; skipping the tree -i terminal test");
            return None;
        }
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let socket =
            format!("sesstree-test-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::SeqCst));
        let conf = env.write("tmux.conf", "set -g status off\nset -g escape-time 0\n");
        let bin = assert_cmd::cargo::cargo_bin("sesstree");
        let dir = env.path();
        let script = format!(
            "cd {dir} && env -u SESSTREE_FILE -u NO_COLOR -u CLICOLOR_FORCE -u FORCE_COLOR \
             -u COLUMNS -u SESSTREE_SUMMARIZER -u COMPLETE -u RUST_BACKTRACE -u SESSTREE_PAGER \
             PAGER=cat HOME={home} XDG_CONFIG_HOME={config} \
             SESSTREE_NOW=2026-03-01T12:00:00.000Z SESSTREE_SEED=42 TZ=UTC {extra} {bin} {args}; \
             echo \"[exit $?]\"; sleep 600",
            dir = quote(dir),
            home = quote(&dir.join("home")),
            config = quote(&dir.join("config")),
            bin = quote(&bin),
        );
        let tmux = Tmux { socket };
        let out = tmux.run(&[
            "-f",
            conf.to_str().expect("utf-8 path"),
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "t",
            &script,
        ]);
        assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux")
    }

    /// Sends tmux key names (`Up`, `C-o`, `M-d`, `Enter`, or a plain letter like `L`).
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success(), "send-keys {keys:?}");
    }

    /// Types text literally.
    fn type_text(&self, text: &str) {
        assert!(self.run(&["send-keys", "-t", "t", "-l", text]).status.success());
    }

    /// The screen, each line with its trailing blanks trimmed.
    fn screen(&self) -> String {
        let out = self.run(&["capture-pane", "-p", "-t", "t"]);
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines.join("\n") + "\n"
    }

    /// Polls the screen until `done` holds for it, and returns it; fails with the last screen
    /// seen once the deadline passes.
    fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            if start.elapsed() > DEADLINE {
                panic!("timed out waiting for {what}; the screen was:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Waits until the screen shows `text`.
    fn wait_text(&self, text: &str) -> String {
        self.wait_for(&format!("{text:?}"), |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// A path quoted for the shell.
fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn draws_moves_labels_and_checks_out() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let Some(tmux) = Tmux::start(&env, "tree -i -f selector.jsonl") else { return };

    let screen = tmux.wait_text("(8/10)");
    assert_snapshot!(screen, @"
    Session tree · selector.jsonl
      • [start] user: Add a --json flag to the CLI
      • assistant: I will read the parser first.
      • [read: /work/src/cli.rs]
      • assistant: Done: the flag prints JSON lines.
      ├─ • user: Rather document the flag in the README
      │  • assistant: README updated with a JSON section.
      │  • user: Also add a changelog entry
    › │  • assistant: Changelog entry added. ← active
      └─ user: Now write the tests
         assistant: Tests written and passing.






      (8/10)

      ↑/↓ move · ←/→ PgUp/PgDn page · Home/End first/last
      Alt+↑/↓ prev/next message · Enter check out
      Shift+Enter (Alt+Enter) summarize and check out · Ctrl+L label · Ctrl+O filter
      Alt+D/T/U/L/A default/no-tools/user/labeled/all · Alt+R archived · Tab preview
      Ctrl+←/→ fold/unfold · type to search · Esc clear search/quit
    ");

    // Move: Home, then down twice past the tool result with Alt+Down.
    tmux.keys(&["Home"]);
    tmux.wait_text("› • [start] user: Add a --json flag");
    tmux.keys(&["M-Down", "M-Down"]);
    tmux.wait_text("› • assistant: Done: the flag prints JSON lines.");

    // Ctrl+L: the prompt comes pre-filled with the current label (none here); type one.
    tmux.keys(&["C-l"]);
    tmux.wait_text("Label (empty to remove):");
    tmux.type_text("json-done");
    tmux.wait_text("Label (empty to remove): json-done");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_text("Label set");
    assert!(
        screen.contains("› • [json-done] assistant: Done: the flag prints JSON lines."),
        "{screen}"
    );

    // Enter on the side branch's user message: the leaf moves to its parent and the message
    // is printed for the editor once the screen is back.
    tmux.keys(&["End", "Up"]);
    tmux.wait_text("› └─ user: Now write the tests");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_text("[exit 0]");
    assert_snapshot!(screen, @r#"
    Labelled a0000002 "json-done"
    Now write the tests
    Moved from a0000005 to a0000002; appended branch_summary 6104d986 (`checkout -`
    goes back)
    [exit 0]
    "#);

    assert_snapshot!(env.run(&["-f", "selector.jsonl", "label", "--list"]), @"
    start	d0000001 user: Add a --json flag to the CLI
    json-done	a0000002 assistant: Done: the flag prints JSON lines.
    ");
    assert_snapshot!(env.run(&["-f", "selector.jsonl", "log", "-n", "3"]), @"
    a0000002 message 2026-01-01 10:00:04 +0000 [json-done] assistant: Done: the flag prints JSON lines.
    e0000001 message 2026-01-01 10:00:03 +0000 [read: /work/src/cli.rs]
    a0000001 message 2026-01-01 10:00:02 +0000 assistant: I will read the parser first.
    ");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn enter_on_the_leaf_is_already_there() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let before = env.read("selector.jsonl");
    let Some(tmux) = Tmux::start(&env, "tree -i -f selector.jsonl") else { return };
    tmux.wait_text("(8/10)");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_text("[exit 0]");
    assert_snapshot!(screen, @r"
    Already at this point
    [exit 0]
    ");
    assert_eq!(env.read("selector.jsonl"), before, "nothing is written");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn search_filters_and_escape() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let Some(tmux) = Tmux::start(&env, "tree -i -f selector.jsonl") else { return };
    tmux.wait_text("(8/10)");
    tmux.keys(&["M-u"]);
    tmux.wait_text("(3/4) [user]");
    tmux.keys(&["C-o"]);
    tmux.wait_text("(1/1) [labeled]");
    tmux.keys(&["M-a"]);
    tmux.wait_text("[all]");
    tmux.type_text("readme");
    let screen = tmux.wait_text("Search: readme");
    assert!(screen.contains("(1/2) [all]"), "{screen}");
    // See: issue 44. A capital letter types into the search, even into an empty one: with the
    // agent's Shift+L, "Let" opened the label editor and Enter wrote the label "et".
    tmux.keys(&["C-u"]);
    tmux.wait_for("the search to clear", |s| s.contains("[all]") && !s.contains("Search:"));
    tmux.type_text("Let");
    let screen = tmux.wait_text("Search: Let");
    assert!(!screen.contains("Label (empty to remove)"), "{screen}");
    // Esc clears the search, a second Esc closes with nothing written.
    tmux.keys(&["Escape"]);
    tmux.wait_for("the search to clear", |s| s.contains("[all]") && !s.contains("Search:"));
    tmux.keys(&["Escape"]);
    assert_snapshot!(tmux.wait_text("[exit 0]"), @"[exit 0]");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn ctrl_c_restores_the_terminal_and_exits_7() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let Some(tmux) = Tmux::start(&env, "tree -i -f selector.jsonl") else { return };
    tmux.wait_text("(8/10)");
    tmux.keys(&["C-c"]);
    // The alternate screen is gone: only what the shell printed is left.
    assert_snapshot!(tmux.wait_text("[exit 7]"), @"[exit 7]");
    // Raw mode is off again: the terminal echoes typed text (the pane's `sleep` reads none).
    tmux.type_text("echoed");
    tmux.wait_text("echoed");
}

/// The pid of the `sesstree` the pane runs (a child of the pane's shell).
fn sesstree_pid(tmux: &Tmux) -> String {
    let out = tmux.run(&["list-panes", "-t", "t", "-F", "#{pane_pid}"]);
    let shell = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let children = std::fs::read_dir("/proc").expect("/proc").filter_map(|e| {
        let pid = e.ok()?.file_name().into_string().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid …`: the comm may hold spaces, so split after its `)`.
        let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.to_owned();
        let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
        (ppid == shell && exe.ends_with("sesstree")).then_some(pid)
    });
    children.into_iter().next().expect("sesstree runs in the pane")
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn sigterm_and_sighup_restore_the_terminal_and_exit_7() {
    for signal in ["TERM", "HUP"] {
        let env = TestEnv::new();
        env.fixture("selector.jsonl");
        let Some(tmux) = Tmux::start(&env, "tree -i -f selector.jsonl") else { return };
        tmux.wait_text("(8/10)");
        let pid = sesstree_pid(&tmux);
        let kill = Command::new("kill").args([&format!("-{signal}"), &pid]).status();
        assert!(kill.is_ok_and(|s| s.success()), "kill -{signal} {pid}");
        // The alternate screen is gone: only the status the shell printed is left.
        assert_eq!(tmux.wait_text("[exit 7]").trim_end(), "[exit 7]", "SIG{signal}");
        // Out of raw mode: the terminal echoes again.
        tmux.type_text("echoed");
        tmux.wait_text("echoed");
    }
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn narrow_terminal_and_no_colour() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let Some(tmux) = Tmux::start(&env, "--color never tree -i --ascii -f selector.jsonl") else {
        return;
    };
    tmux.wait_text("(8/10)");
    assert!(tmux.run(&["resize-window", "-t", "t", "-x", "36", "-y", "24"]).status.success());
    // The help footer is packed anew for the width: wait for that redraw.
    let screen = tmux.wait_text("\n  Left/Right PgUp/PgDn page\n");
    assert_snapshot!(screen, @"
    Session tree | selector.jsonl
      * assistant: Done: the flag print…
      |--* user: Rather document the fl…
      |  * assistant: README updated wi…
      |  * user: Also add a changelog e…
    > |  * assistant: Changel… <- active
      '--user: Now write the tests
         assistant: Tests written and p…
      (8/10)

      Up/Down move
      Left/Right PgUp/PgDn page
      Home/End first/last
      Alt+Up/Down prev/next message
      Enter check out
      Shift+Enter (Alt+Enter) summarize
      and check out | Ctrl+L label
      Ctrl+O filter
      Alt+D/T/U/L/A
      default/no-tools/user/labeled/all
      Alt+R archived | Tab preview
      Ctrl+Left/Right fold/unfold
      type to search
      Esc clear search/quit
    ");
    // Without colour there are no escape sequences but the selection is still marked (reverse
    // video), which capture-pane shows with -e.
    let styled = tmux.run(&["capture-pane", "-p", "-e", "-t", "t"]);
    let styled = String::from_utf8_lossy(&styled.stdout);
    for n in (30..=37)
        .chain(40..=47)
        .chain(90..=97)
        .map(|n| n.to_string())
        .chain(["38;".into(), "48;".into()])
    {
        assert!(!styled.contains(&format!("\x1b[{n}")), "no colour {n}: {styled:?}");
    }
    assert!(
        styled.contains("\x1b[1;7m> |  * assistant: Changel… <- active"),
        "bold, reversed: {styled:?}"
    );
    tmux.keys(&["Escape"]);
    tmux.wait_text("[exit 0]");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn an_empty_session_has_no_entries() {
    let env = TestEnv::new();
    env.fixture("empty.jsonl");
    let Some(tmux) = Tmux::start(&env, "tree -i -f empty.jsonl") else { return };
    assert_snapshot!(tmux.wait_text("[exit 0]"), @r"
    No entries in session
    [exit 0]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn refuses_without_a_terminal() {
    // The harness runs the binary with pipes for stdin and stdout.
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    assert_snapshot!(env.run(&["-f", "selector.jsonl", "tree", "-i"]), @"
    ------- stderr -------
    error: tree -i needs a terminal: standard input and output must both be one
    [exit status: 2]
    ");
    assert_snapshot!(env.run(&["-f", "selector.jsonl", "--json", "tree", "-i"]), @"
    ------- stderr -------
    error: tree -i draws on the terminal; it has no --json
    [exit status: 2]
    ");
    assert_snapshot!(env.run(&["-f", "selector.jsonl", "tree", "-i", "--leaf", "@"]), @"
    ------- stderr -------
    error: the argument '--interactive' cannot be used with '--leaf <REV>'

    Usage: sesstree tree --interactive

    For more information, try '--help'.
    [exit status: 2]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn a_hook_cancel_keeps_the_tree_and_alt_enter_writes_a_summary() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let hooks = env.path().join("config/sesstree/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let hook = hooks.join("session_before_tree");
    std::fs::write(&hook, "#!/bin/sh\ncat >/dev/null\necho '{\"cancel\": true}'\n").unwrap();
    crate::common::set_mode(&hook, 0o755);
    let before = env.read("selector.jsonl");
    let Some(tmux) = Tmux::start(&env, "tree -i -f selector.jsonl") else { return };
    tmux.wait_text("(8/10)");

    // The hook cancels: nothing is written and the tree comes back with the reason.
    tmux.keys(&["End", "Up"]);
    tmux.wait_text("› └─ user: Now write the tests");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_text("Navigation cancelled");
    assert!(screen.contains("› └─ user: Now write the tests"), "{screen}");
    assert_eq!(env.read("selector.jsonl"), before);

    // Without the hook, Alt+Enter asks for the summary, which hangs at the destination.
    std::fs::remove_file(&hook).unwrap();
    tmux.keys(&["M-Enter"]);
    tmux.wait_text("Summary (empty asks the summarizer):");
    tmux.type_text("Tried the README first.");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_text("[exit 0]");
    assert!(screen.contains("to a0000002; appended branch_summary"), "{screen}");
    assert_snapshot!(env.run(&["-f", "selector.jsonl", "log", "-n", "2"]), @"
    15780b2e branch_summary 2026-03-01 12:00:00 +0000 [branch summary]: Tried the README first.
    a0000002 message 2026-01-01 10:00:04 +0000 assistant: Done: the flag prints JSON lines.
    ");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn a_panic_gives_the_terminal_back() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let Some(tmux) =
        Tmux::start_with(&env, "SESSTREE_TEST_PANIC_ON_KEY=z", "tree -i -f selector.jsonl")
    else {
        return;
    };
    tmux.wait_text("(8/10)");
    tmux.type_text("z");
    let screen = tmux.wait_text("[exit 101]");
    // The panic message is on the normal screen, readable, and nothing of the tree is left.
    assert!(screen.contains("test panic on key 'z'"), "{screen}");
    assert!(!screen.contains("Session tree"), "{screen}");
    // Out of raw mode: the terminal echoes again.
    tmux.type_text("echoed");
    tmux.wait_text("echoed");
}

#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn ctrl_c_stops_the_summarizer_each_time() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    let before = env.read("selector.jsonl");
    let Some(tmux) = Tmux::start(&env, "tree -i --summarizer 'sleep 60' -f selector.jsonl") else {
        return;
    };
    tmux.wait_text("(8/10)");
    tmux.keys(&["End", "Up"]);
    tmux.wait_text("› └─ user: Now write the tests");
    // Twice: a second checkout in the same process must be just as interruptible.
    for _ in 0..2 {
        tmux.keys(&["M-Enter"]);
        tmux.wait_text("Summary (empty asks the summarizer):");
        tmux.keys(&["Enter"]);
        // The screen goes back to the shell while the summarizer runs.
        tmux.wait_text("Summarizing the abandoned branch… (Ctrl-C cancels)");
        tmux.keys(&["C-c"]);
        let screen = tmux.wait_text("Navigation cancelled");
        assert!(screen.contains("› └─ user: Now write the tests"), "{screen}");
    }
    assert_eq!(env.read("selector.jsonl"), before, "nothing is written");
    tmux.keys(&["Escape"]);
    tmux.wait_text("[exit 0]");
}

/// `checkout` prints a user message's text for the editor: exactly into a pipe or a file (to
/// be captured and sent again), but escaped on a terminal, where a transcript's escape
/// sequences would otherwise clear the screen or set the window title (SECURITY.md §3).
#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn the_checkout_prefill_is_escaped_on_a_terminal_only() {
    const HOSTILE: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"Start"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}
{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"Redo \u001b[2J\u001b]0;pwn\u0007this \u009b31mred"}}
"#;
    let env = TestEnv::new();
    env.write("h.jsonl", HOSTILE);
    env.write("t.jsonl", HOSTILE);
    let piped = env.cmd().args(["-f", "h.jsonl", "checkout", "u2"]).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&piped.stdout),
        "Redo \u{1b}[2J\u{1b}]0;pwn\u{7}this \u{9b}31mred\n",
        "a pipe gets the text exactly"
    );
    let Some(tmux) = Tmux::start(&env, "-f t.jsonl checkout u2") else { return };
    let screen = tmux.wait_text("[exit 0]");
    assert_snapshot!(screen, @r"
    Redo \x1b[2J\x1b]0;pwn\x07this \x9b31mred
    Moved from u2 to a1; appended branch_summary 15780b2e (`checkout -` goes back)
    [exit 0]
    ");
}

/// On a terminal, `log` (and `tree`, `show`, `context`, `reflog`) goes through the pager:
/// `$SESSTREE_PAGER`, else `$PAGER`; `--no-pager` and `cat` turn it off. Writers never page.
#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn reading_commands_page_on_a_terminal() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let paged = |extra: &str, args: &str| -> Option<(String, String)> {
        let _ = std::fs::remove_file(env.path().join("paged.txt"));
        let tmux = Tmux::start_with(&env, extra, args)?;
        let screen = tmux.wait_text("[exit 0]");
        let file = std::fs::read_to_string(env.path().join("paged.txt")).unwrap_or_default();
        Some((screen, file))
    };
    let Some((screen, file)) =
        paged("SESSTREE_PAGER='cat > paged.txt'", "-f demo.jsonl --color never log -n 1")
    else {
        return;
    };
    assert_eq!(screen, "[exit 0]\n");
    assert!(file.starts_with("fa60d15c message"), "{file}");
    // $PAGER when $SESSTREE_PAGER is not set (the harness sets PAGER=cat, which is none).
    let (_, file) =
        paged("PAGER='cat > paged.txt'", "-f demo.jsonl --color never tree --filter user-only")
            .unwrap();
    assert!(file.contains("8a41d0e6 user: tally stats"), "{file}");
    let (screen, file) =
        paged("SESSTREE_PAGER='cat > paged.txt'", "-f demo.jsonl --no-pager log -n 1").unwrap();
    assert!(screen.starts_with("fa60d15c message"), "{screen}");
    assert_eq!(file, "");
    let (screen, file) = paged("SESSTREE_PAGER='cat > paged.txt'", "-f demo.jsonl label").unwrap();
    assert!(screen.starts_with("checkpoint-1"), "{screen}");
    assert_eq!(file, "");
}

/// See: issue 44 (a day with sesstree, second pass). A `PAGER` that does not exist went through
/// `sh -c`, which failed after starting: the output was lost and the exit status was 0. As jj
/// does ("Failed to spawn pager"), sesstree warns and prints to the terminal instead.
#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn a_pager_that_cannot_run_is_skipped_with_a_warning() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let Some(tmux) =
        Tmux::start_with(&env, "PAGER='no-such-pager -R'", "-f demo.jsonl --color never log -n 1")
    else {
        return;
    };
    assert_snapshot!(tmux.wait_text("[exit 0]"), @"
    warning: cannot run the pager no-such-pager (from PAGER): not found; printing wi
    thout it
    hint: set SESSTREE_PAGER to a pager that exists, or pass --no-pager
    fa60d15c message 2026-02-16 10:27:49 +0000 assistant: Fixed the warning (`print…
    [exit 0]
    ");
    // A pager that exists but is not a plain word is left to the shell.
    let Some(tmux) =
        Tmux::start_with(&env, "SESSTREE_PAGER='\"cat\"'", "-f demo.jsonl --color never log -n 1")
    else {
        return;
    };
    assert!(tmux.wait_text("[exit 0]").starts_with("fa60d15c message"));
}

/// On a terminal, `tree` and `log` rows are cut to its width (80 columns here), through the
/// pager too, never wrapped, with `← active` in sight; in a pipe they are whole.
#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn rows_fit_the_terminal_width() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let Some(tmux) = Tmux::start(&env, "-f demo.jsonl --no-pager tree --filter user-only") else {
        return;
    };
    assert_snapshot!(tmux.wait_text("[exit 0]"), @"
    • 8a41d0e6 user: tally stats prints a table. Add a --json flag to `tally stats`…
    │  • 13c9d5a8 user: Let's not add dependencies. Write the JSON by hand in a new…
    │  • 5c07a3d4 user: Fix that clippy warning, th… ← active (leaf fa60d15c hidden)
    [exit 0]
    ");
    drop(tmux);
    let tmux = Tmux::start_with(
        &env,
        "SESSTREE_PAGER='cat > paged.txt'",
        "-f demo.jsonl --color never log",
    )
    .unwrap();
    tmux.wait_text("[exit 0]");
    let paged = std::fs::read_to_string(env.path().join("paged.txt")).unwrap();
    // 20 rows, and once at the end what the filter hid (issue 44): the rows are for reading.
    assert_eq!(paged.lines().count(), 21, "{paged}");
    assert_eq!(
        paged.lines().last(),
        Some("(9 entries hidden by the filter [default]; --filter all shows every entry)")
    );
    let widest = paged.lines().map(|l| l.chars().count()).max();
    assert_eq!(widest, Some(80), "{paged}");
    // A pipe gets whole rows.
    let piped = env.cmd().args(["-f", "demo.jsonl", "log"]).output().unwrap();
    let piped = String::from_utf8(piped.stdout).unwrap();
    assert!(piped.lines().any(|l| l.chars().count() > 200), "{piped}");
}

/// On a terminal a checkout that asks for a summary says "Summarizing…" only while a
/// summarizer runs: not when the session_before_tree hook gives the summary (`tree -i` said it
/// for every Shift+Enter), and `checkout --summarize` says it too.
#[test]
#[cfg_attr(windows, ignore = "drives the selector in tmux")]
fn summarizing_is_said_only_while_a_summarizer_runs() {
    let env = TestEnv::new();
    env.fixture("selector.jsonl");
    crate::checkout::script(
        &env,
        "config/sesstree/hooks/session_before_tree",
        r#"cat >/dev/null; echo '{"summary": {"summary": "From the hook."}}'"#,
    );
    let Some(tmux) = Tmux::start(&env, "tree -i -f selector.jsonl") else {
        return;
    };
    tmux.wait_text("(8/10)");
    tmux.keys(&["End", "Up"]);
    tmux.wait_text("› └─ user: Now write the tests");
    tmux.keys(&["M-Enter"]);
    tmux.wait_text("Summary (empty asks the summarizer):");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_text("[exit 0]");
    assert!(screen.contains("appended branch_summary"), "{screen}");
    assert!(!screen.contains("Summarizing"), "{screen}");
    drop(tmux);
    std::fs::remove_file(env.path().join("config/sesstree/hooks/session_before_tree")).unwrap();
    let tmux =
        Tmux::start(&env, "-f selector.jsonl checkout a0000002 --summarize --summarizer 'echo S'")
            .unwrap();
    let screen = tmux.wait_text("[exit 0]");
    assert!(screen.contains("Summarizing the abandoned branch… (Ctrl-C cancels)"), "{screen}");
}
