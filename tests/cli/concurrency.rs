//! Write safety (SPEC §7) through the binary: concurrent writers, torn lines, a file changed
//! under a writer, and files no writer may build on. Every failing command must leave the
//! file byte for byte as it was.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::TestEnv;

const HEADER: &str =
    r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w"}"#;
const MSG: &str = r#"{"type":"message","id":"m1","parentId":null,"timestamp":"2026-02-16T10:21:00.000Z","message":{"role":"user","content":"hi","timestamp":1771237260000}}"#;

/// Runs `sesstree ARGS` and asserts that the file was not touched.
fn run_untouched(env: &TestEnv, file: &str, args: &[&str]) -> String {
    let before = env.read(file);
    let out = env.run(args);
    assert_eq!(env.read(file), before, "{args:?} changed {file}");
    out
}

fn lines(bytes: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
#[cfg_attr(
    windows,
    ignore = "eight threads start 200 processes at once: Wine fails some (error 1359)"
)]
fn concurrent_labels_all_land_in_one_chain() {
    const PROCS: usize = 8;
    const EACH: usize = 25;
    let env = TestEnv::new();
    env.write("c.jsonl", format!("{HEADER}\n{MSG}\n"));
    std::thread::scope(|scope| {
        for p in 0..PROCS {
            let env = &env;
            scope.spawn(move || {
                for i in 0..EACH {
                    let text = format!("p{p}-{i}");
                    let mut tries = 0;
                    loop {
                        // Real ids and times: every process would draw the same pinned ids.
                        let out = env
                            .cmd()
                            .env_remove("SESSTREE_SEED")
                            .env_remove("SESSTREE_NOW")
                            .args(["-f", "c.jsonl", "label", "m1", &text])
                            .output()
                            .unwrap();
                        let stderr = String::from_utf8_lossy(&out.stderr);
                        // Waiting out the lock is the documented behaviour; on a loaded
                        // machine a writer may wait longer than its timeout, so retry that.
                        if out.status.code() == Some(5) && stderr.contains("holds the lock") {
                            tries += 1;
                            assert!(tries < 5, "starved: {stderr}");
                            continue;
                        }
                        assert!(out.status.success(), "{text}: {stderr}");
                        break;
                    }
                }
            });
        }
    });
    let records = lines(&env.read("c.jsonl"));
    assert_eq!(records.len(), 2 + PROCS * EACH);
    let labels = &records[2..];
    let mut prev = "m1".to_string();
    let mut seen = std::collections::HashSet::new();
    let mut next_of = [0usize; PROCS];
    for l in labels {
        assert_eq!(l["type"], "label");
        assert_eq!(l["targetId"], "m1");
        assert_eq!(l["parentId"], prev.as_str(), "each label hangs at the one before");
        let id = l["id"].as_str().unwrap().to_string();
        assert!(id.len() == 8 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        assert!(seen.insert(id.clone()), "duplicate id {id}");
        // Each process's labels land in the order it wrote them.
        let text = l["label"].as_str().unwrap();
        let (p, i) = text[1..].split_once('-').unwrap();
        let (p, i): (usize, usize) = (p.parse().unwrap(), i.parse().unwrap());
        assert_eq!(next_of[p], i, "{text}");
        next_of[p] += 1;
        prev = id;
    }
    assert_eq!(next_of, [EACH; PROCS]);
    insta::assert_snapshot!(env.run(&["-f", "c.jsonl", "--json", "label", "--list"]).lines().count(), @"1");
}

#[test]
fn a_writer_killed_mid_append_leaves_a_file_that_takes_the_next_append() {
    let env = TestEnv::new();
    // What a crash in the middle of a write leaves: half a line, no newline.
    let torn = r#"{"type":"label","id":"deadbeef","parentId":"m1","timestamp":"2026-02-16T10:2"#;
    env.write("t.jsonl", format!("{HEADER}\n{MSG}\n{torn}"));
    let before = env.read("t.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "t.jsonl", "label", "m1", "after-crash"]), @r#"
    Labelled m1 "after-crash"
    ------- stderr -------
    t.jsonl:3: warning: truncated last line: EOF while parsing a string at line 1 column 76
    "#);
    let after = env.read("t.jsonl");
    assert!(after.starts_with(&before));
    // The torn line gets its newline first, so the new entry stands on its own line; it hangs
    // at the last complete entry.
    insta::assert_snapshot!(String::from_utf8_lossy(&after[before.len()..]), @r#"

    {"type":"label","id":"15780b2e","parentId":"m1","timestamp":"2026-03-01T12:00:00.000Z","targetId":"m1","label":"after-crash"}
    "#);
    insta::assert_snapshot!(env.run(&["-f", "t.jsonl", "label", "--list"]), @"
    after-crash	m1 user: hi
    ------- stderr -------
    t.jsonl:3: warning: unparseable line: EOF while parsing a string at line 1 column 76
    ");
    // And the next append goes straight after it.
    insta::assert_snapshot!(env.run(&["-f", "t.jsonl", "--json", "label", "@", "next"]), @r#"
    {"id":"6104d986","targetId":"m1","label":"next"}
    ------- stderr -------
    t.jsonl:3: warning: unparseable line: EOF while parsing a string at line 1 column 76
    "#);
}

#[test]
fn a_complete_last_line_without_newline_is_kept_and_extended() {
    let env = TestEnv::new();
    env.write("n.jsonl", format!("{HEADER}\n{MSG}"));
    insta::assert_snapshot!(env.run(&["-f", "n.jsonl", "label", "@", "x"]), @r#"Labelled m1 "x""#);
    let text = String::from_utf8(env.read("n.jsonl")).unwrap();
    assert!(text.starts_with(&format!("{HEADER}\n{MSG}\n{{\"type\":\"label\"")), "{text}");
    assert!(text.ends_with("\"label\":\"x\"}\n"));
    assert!(text.contains(r#""parentId":"m1""#));
}

/// Starts `sesstree ARGS` with the test-only pause between planning and writing.
fn spawn_paused(env: &TestEnv, pause: &Path, args: &[&str]) -> std::process::Child {
    spawn(env, Some(pause), args)
}

/// Starts `sesstree ARGS` in the background, with the test-only pause if `pause` is given.
fn spawn(env: &TestEnv, pause: Option<&Path>, args: &[&str]) -> std::process::Child {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("sesstree"));
    cmd.current_dir(env.path())
        .env_remove("SESSTREE_FILE")
        .env("HOME", env.path().join("home"))
        .env("SESSTREE_NOW", "2026-03-01T12:00:00.000Z")
        .env("SESSTREE_SEED", "42");
    match pause {
        Some(p) => cmd.env("SESSTREE_TEST_PAUSE_BEFORE_WRITE", p),
        None => cmd.env_remove("SESSTREE_TEST_PAUSE_BEFORE_WRITE"),
    };
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Waits until `child` is paused before writing (it created `pause`).
fn wait_for_pause(env: &TestEnv, child: &mut std::process::Child, pause: &Path) {
    let start = Instant::now();
    while !pause.exists() {
        if let Ok(Some(status)) = child.try_wait() {
            let mut out = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut out);
            }
            panic!(
                "exited before the pause ({status}): {}",
                out.replace(&env.path().display().to_string(), "$TMP")
            );
        }
        assert!(start.elapsed() < Duration::from_secs(30), "never paused");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs a writing command, appends a line to its file while it is paused before writing (as an
/// agent that does not lock would), and returns its rendered outcome; the file must then hold
/// exactly the bytes before plus the agent's line.
fn changed_under(env: &TestEnv, file: &str, args: &[&str]) -> String {
    let pause = env.path().join("pause");
    let mut child = spawn_paused(env, &pause, args);
    wait_for_pause(env, &mut child, &pause);
    let mut expected = env.read(file);
    let n = expected.iter().filter(|&&b| b == b'\n').count();
    let agent_line = format!(
        r#"{{"type":"message","id":"agent{n:03}","parentId":"m1","timestamp":"2026-03-01T12:00:01.000Z","message":{{"role":"user","content":"from the agent","timestamp":1772366401000}}}}{}"#,
        "\n"
    );
    expected.extend_from_slice(agent_line.as_bytes());
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().append(true).open(env.path().join(file)).unwrap();
        f.write_all(agent_line.as_bytes()).unwrap();
    }
    std::fs::remove_file(&pause).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(env.read(file), expected, "nothing but the agent's line may be added");
    env.render(&out)
}

#[test]
fn a_file_changed_under_a_writer_is_a_conflict_and_nothing_is_written() {
    let env = TestEnv::new();
    env.write("c.jsonl", format!("{HEADER}\n{MSG}\n"));
    insta::assert_snapshot!(changed_under(&env, "c.jsonl", &["-f", "c.jsonl", "label", "m1", "x"]), @"
    ------- stderr -------
    error: c.jsonl: the file changed while sesstree was working; nothing was written (run the command again)
    [exit status: 5]
    ");
    // name, both ways it writes: adding a slot (a rewrite) and patching it in place.
    insta::assert_snapshot!(changed_under(&env, "c.jsonl", &["-f", "c.jsonl", "name", "--dialect", "omp", "N"]), @"
    ------- stderr -------
    error: c.jsonl: the file changed while sesstree was working; nothing was written (run the command again)
    [exit status: 5]
    ");
    insta::assert_snapshot!(env.run(&["-f", "c.jsonl", "name", "--dialect", "omp", "First"]), @"First");
    insta::assert_snapshot!(changed_under(&env, "c.jsonl", &["-f", "c.jsonl", "name", "Second"]), @"
    ------- stderr -------
    error: c.jsonl: the file changed while sesstree was working; nothing was written (run the command again)
    [exit status: 5]
    ");
}

#[test]
fn a_writer_waiting_for_the_lock_takes_the_file_another_writer_rewrote() {
    let env = TestEnv::new();
    env.write("w.jsonl", format!("{HEADER}\n{MSG}\n"));
    let pause = env.path().join("pause");
    // name holds the lock, paused before it adds a title slot (a rewrite: a new file).
    let mut name = spawn_paused(&env, &pause, &["-f", "w.jsonl", "name", "--dialect", "omp", "N"]);
    wait_for_pause(&env, &mut name, &pause);
    // label opens the old file and waits for its lock.
    let label = spawn(&env, None, &["-f", "w.jsonl", "label", "@", "x"]);
    std::thread::sleep(Duration::from_millis(500));
    std::fs::remove_file(&pause).unwrap();
    let name = name.wait_with_output().unwrap();
    insta::assert_snapshot!(env.render(&name), @"N");
    // The lock label gets is on the replaced file: it must take the new one, not fail.
    let label = label.wait_with_output().unwrap();
    // `@` steps over the title_change name appended: the label is on the message.
    insta::assert_snapshot!(env.render(&label), @r#"Labelled m1 "x""#);
    let records = lines(&env.read("w.jsonl"));
    insta::assert_snapshot!(records.iter().map(|r| r["type"].as_str().unwrap()).collect::<Vec<_>>().join(" "), @"title session message title_change label");
    // Planned on the rewritten file: the label hangs at name's entry.
    assert_eq!(records[4]["parentId"], records[3]["id"]);
}

#[test]
#[cfg_attr(windows, ignore = "makes a symbolic link")]
fn a_rewrite_through_a_symlink_replaces_the_real_file_and_keeps_the_link() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join("real")).unwrap();
    env.write("real/s.jsonl", format!("{HEADER}\n{MSG}\n"));
    let link = env.path().join("link.jsonl");
    crate::common::symlink("real/s.jsonl", &link);
    // The file has no title slot: name adds one in front, a full rewrite.
    insta::assert_snapshot!(env.run(&["-f", "link.jsonl", "name", "--dialect", "omp", "Through the link"]), @"Through the link");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    let real = String::from_utf8(env.read("real/s.jsonl")).unwrap();
    // The slot in front, the old lines, the title_change entry.
    let last = real.lines().last().unwrap();
    assert!(real.ends_with(&format!("{HEADER}\n{MSG}\n{last}\n")), "{real}");
    insta::assert_snapshot!(real.lines().next().unwrap(), @r#"{"type":"title","v":1,"title":"Through the link","source":"user","updatedAt":"2026-03-01T12:00:00.000Z","pad":"                                                                                                                                              "}"#);
    insta::assert_snapshot!(env.run(&["-f", "real/s.jsonl", "name"]), @"Through the link");
    // No temporary file is left next to the link or the file.
    let mut names: Vec<_> = std::fs::read_dir(env.path().join("real"))
        .unwrap()
        .chain(std::fs::read_dir(env.path()).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // oh-my-pi's gate is made beside the real file, which the rename replaced.
    assert_eq!(names, [".s.jsonl.lock.os", "link.jsonl", "real", "s.jsonl"]);
}

#[test]
fn files_no_writer_may_build_on_are_refused_untouched() {
    let env = TestEnv::new();
    let cases: [(&str, String); 6] = [
        ("too-new.jsonl", format!("{}\n{MSG}\n", HEADER.replace("\"version\":3", "\"version\":5"))),
        (
            "v1.jsonl",
            format!(
                "{}\n{}\n",
                HEADER.replace("\"version\":3,", ""),
                r#"{"type":"message","timestamp":"2026-02-16T10:21:00.000Z","message":{"role":"user","content":"hi"}}"#
            ),
        ),
        ("empty.jsonl", String::new()),
        ("blank.jsonl", "\n  \n".to_string()),
        ("no-header.jsonl", format!("{MSG}\n")),
        ("damaged.jsonl", format!("{HEADER}\n{{oops\n{MSG}\n")),
    ];
    for (name, text) in &cases {
        env.write(name, text);
    }
    let both = |file: &str| {
        let label = run_untouched(&env, file, &["-f", file, "label", "@", "x"]);
        let name = run_untouched(&env, file, &["-f", file, "name", "N"]);
        // checkout refuses as they do, --dry-run too (REV @~9 does not exist: the file is
        // refused before any REV is looked at).
        let checkout = run_untouched(&env, file, &["-f", file, "checkout", "@~9"]);
        let dry_run = run_untouched(&env, file, &["-f", file, "checkout", "@~9", "--dry-run"]);
        assert_eq!(checkout, name, "{file}: checkout refuses as name does");
        assert_eq!(dry_run, name, "{file}: checkout --dry-run refuses as name does");
        format!("label: {label}name: {name}")
    };
    insta::assert_snapshot!(both("too-new.jsonl"), @"
    label: ------- stderr -------
    error: too-new.jsonl: session version 5 is newer than this sesstree understands (4)
    [exit status: 6]
    name: ------- stderr -------
    error: too-new.jsonl: session version 5 is newer than this sesstree understands (4)
    [exit status: 6]
    ");
    insta::assert_snapshot!(both("v1.jsonl"), @"
    label: ------- stderr -------
    error: v1.jsonl: the file is version 1 (entries without ids); run `sesstree migrate` first
    [exit status: 3]
    name: ------- stderr -------
    error: v1.jsonl: the file is version 1 (entries without ids); run `sesstree migrate` first
    [exit status: 3]
    ");
    insta::assert_snapshot!(both("empty.jsonl"), @"
    label: ------- stderr -------
    error: empty.jsonl: the file holds no session
    [exit status: 3]
    name: ------- stderr -------
    error: empty.jsonl: the file holds no session
    [exit status: 3]
    ");
    insta::assert_snapshot!(both("blank.jsonl"), @"
    label: ------- stderr -------
    error: blank.jsonl: the file holds no session
    [exit status: 3]
    name: ------- stderr -------
    error: blank.jsonl: the file holds no session
    [exit status: 3]
    ");
    insta::assert_snapshot!(both("no-header.jsonl"), @"
    label: ------- stderr -------
    error: no-header.jsonl:1: no valid session header (the first record is of type 'message', not 'session'); `sesstree fsck --repair` restores one
    [exit status: 3]
    name: ------- stderr -------
    error: no-header.jsonl:1: no valid session header (the first record is of type 'message', not 'session'); `sesstree fsck --repair` restores one
    [exit status: 3]
    ");
    // Damage is a warning for writers too, and an error with --strict.
    insta::assert_snapshot!(run_untouched(&env, "damaged.jsonl", &["-f", "damaged.jsonl", "--strict", "label", "@", "x"]), @"
    ------- stderr -------
    error: damaged.jsonl:2: unparseable line: key must be a string at line 1 column 2
    [exit status: 3]
    ");
    insta::assert_snapshot!(run_untouched(&env, "damaged.jsonl", &["-f", "damaged.jsonl", "--strict", "name", "N"]), @"
    ------- stderr -------
    error: damaged.jsonl:2: unparseable line: key must be a string at line 1 column 2
    [exit status: 3]
    ");
    insta::assert_snapshot!(run_untouched(&env, "damaged.jsonl", &["-f", "damaged.jsonl", "--strict", "checkout", "m1"]), @"
    ------- stderr -------
    error: damaged.jsonl:2: unparseable line: key must be a string at line 1 column 2
    [exit status: 3]
    ");
    // Without --strict the damage is a warning, and a REV that names nothing writes nothing.
    insta::assert_snapshot!(run_untouched(&env, "damaged.jsonl", &["-f", "damaged.jsonl", "checkout", "nosuch"]), @"
    ------- stderr -------
    damaged.jsonl:2: warning: unparseable line: key must be a string at line 1 column 2
    error: no entry matches 'nosuch'
    [exit status: 4]
    ");
    // A missing file is not created.
    for args in [["name", "N"], ["checkout", "@"]] {
        let out = env.cmd().args(["-f", "missing.jsonl"]).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(!env.path().join("missing.jsonl").exists(), "{args:?}");
    }
}

#[test]
fn writers_refuse_standard_input() {
    let env = TestEnv::new();
    let text = format!("{HEADER}\n{MSG}\n");
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "label", "@", "x"], text.clone()), @"
    ------- stderr -------
    error: this command writes the file; it cannot read standard input
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "name", "N"], text.clone()), @"
    ------- stderr -------
    error: this command writes the file; it cannot read standard input
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "checkout", "m1"], text.clone()), @"
    ------- stderr -------
    error: this command writes the file; it cannot read standard input
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "checkout", "m1", "--dry-run"], text.clone()), @"
    ------- stderr -------
    error: this command writes the file; it cannot read standard input
    [exit status: 2]
    ");
    // Reading the name from standard input is fine.
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "name"], text), @"
    ------- stderr -------
    note: the session has no name
    ");
}

#[test]
fn a_write_waits_for_oh_my_pis_publish_lock() {
    let env = TestEnv::new();
    env.write("s.jsonl", format!("{HEADER}\n{MSG}\n"));
    // oh-my-pi's gate (CHANGES O2), held as oh-my-pi holds it around one of its writes.
    let gate = env.write(".s.jsonl.lock.os", "");
    let held = std::fs::File::open(&gate).unwrap();
    held.lock().unwrap();
    let mut child = spawn(&env, None, &["-f", "s.jsonl", "label", "m1", "x"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "the write waits for the gate");
    assert_eq!(env.read("s.jsonl"), format!("{HEADER}\n{MSG}\n").into_bytes());
    drop(held);
    let out = child.wait_with_output().unwrap();
    insta::assert_snapshot!(env.render(&out), @r#"Labelled m1 "x""#);
    assert!(gate.exists(), "the gate is never deleted");
    assert!(!env.path().join(".s.jsonl.lock").exists(), "no lockfile is left behind");
}

/// A writer that follows oh-my-pi's publish protocol for appends (`session-storage.ts`,
/// `#withAppendLock`): `flock` the gate `.<name>.lock.os` (made if missing), wait out a
/// lockfile `.<name>.lock` if one is there, then append one line with `O_APPEND`. Each line
/// is a user message whose parent is the last line's entry, as the agent chains its entries.
const AGENT_WRITER: &str = r#"
import fcntl, json, os, sys, time, uuid
path, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
d, name = os.path.split(path)
gate_path = os.path.join(d, "." + name + ".lock.os")
lock_path = os.path.join(d, "." + name + ".lock")
for i in range(count):
    gate = os.open(gate_path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(gate, fcntl.LOCK_EX)
    while os.path.exists(lock_path):
        time.sleep(0.002)
    with open(path, "rb") as f:
        last = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    parent = json.loads(last)["id"]
    entry = {"type": "message", "id": uuid.uuid4().hex[:8], "parentId": parent,
             "timestamp": "2026-03-01T12:00:00.000Z",
             "message": {"role": "user", "content": "%s-%d" % (tag, i), "timestamp": 1772366400000}}
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    os.write(fd, (json.dumps(entry) + "\n").encode())
    os.close(fd)
    fcntl.flock(gate, fcntl.LOCK_UN)
    os.close(gate)
"#;

#[test]
#[cfg_attr(windows, ignore = "runs python3, which Windows lacks")]
fn sesstree_and_an_agent_writing_together_lose_nothing() {
    const PROCS: usize = 8;
    const EACH: usize = 25;
    let env = TestEnv::new();
    env.write("c.jsonl", format!("{HEADER}\n{MSG}\n"));
    let file = env.path().join("c.jsonl");
    std::thread::scope(|scope| {
        for p in 0..PROCS {
            let env = &env;
            scope.spawn(move || {
                for i in 0..EACH {
                    let text = format!("s{p}-{i}");
                    for tries in 0.. {
                        let out = env
                            .cmd()
                            .env_remove("SESSTREE_SEED")
                            .env_remove("SESSTREE_NOW")
                            .args(["-f", "c.jsonl", "label", "m1", &text])
                            .output()
                            .unwrap();
                        if out.status.success() {
                            break;
                        }
                        // The agent appended between sesstree's read and its write: sesstree
                        // wrote nothing and says so (exit 5), and the user runs it again.
                        let stderr = String::from_utf8_lossy(&out.stderr);
                        assert_eq!(out.status.code(), Some(5), "{text}: {stderr}");
                        assert!(tries < 500, "starved: {stderr}");
                    }
                }
            });
            let file = &file;
            scope.spawn(move || {
                let tag = format!("a{p}");
                let out = Command::new("python3")
                    .args(["-c", AGENT_WRITER])
                    .arg(file)
                    .args([&tag, &EACH.to_string()])
                    .output()
                    .expect("python3 runs the agent's writer");
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            });
        }
    });
    let records = lines(&env.read("c.jsonl"));
    assert_eq!(records.len(), 2 + 2 * PROCS * EACH, "no line lost or glued to another");
    let mut prev = "m1".to_string();
    let mut seen = std::collections::HashSet::new();
    let (mut ours, mut theirs) = ([0usize; PROCS], [0usize; PROCS]);
    for r in &records[2..] {
        assert_eq!(r["parentId"], prev.as_str(), "the tree is still one chain");
        let id = r["id"].as_str().unwrap().to_string();
        assert!(seen.insert(id.clone()), "duplicate id {id}");
        let text = match r["type"].as_str() {
            Some("label") => r["label"].as_str().unwrap(),
            _ => r["message"]["content"].as_str().unwrap(),
        };
        let (who, i) = text.split_once('-').unwrap();
        let (p, i): (usize, usize) = (who[1..].parse().unwrap(), i.parse().unwrap());
        let next = if who.starts_with('s') { &mut ours[p] } else { &mut theirs[p] };
        assert_eq!(*next, i, "{text} in its writer's order");
        *next += 1;
        prev = id;
    }
    assert_eq!((ours, theirs), ([EACH; PROCS], [EACH; PROCS]));
    assert!(!env.path().join(".c.jsonl.lock").exists());
    insta::assert_snapshot!(env.run(&["-f", "c.jsonl", "fsck"]), @"c.jsonl: ok");
}
