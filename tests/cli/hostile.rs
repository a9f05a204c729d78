//! Hostile input (issue 8): whatever a file holds, the reading commands end in bounded time with
//! a documented exit status, never a panic (101) or a signal, and nothing from the transcript
//! drives the terminal. Every input is generated in the test's own temporary directory.
//!
//! Each run is bounded: a wall-clock timeout (a hang fails the test instead of stalling CI)
//! and an address-space limit through `ulimit -v` (a runaway allocation fails instead of
//! swapping the machine).

use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::TestEnv;

/// Every command that reads a session, as a user or a script would call it.
const READERS: &[&[&str]] = &[
    &["log"],
    &["log", "--filter", "all"],
    &["--json", "log", "--filter", "all"],
    &["tree", "--filter", "all"],
    &["--json", "tree", "--filter", "all"],
    &["show"],
    &["--json", "show"],
    &["context"],
    &["--json", "context"],
    &["context", "--format", "markdown"],
    &["stats"],
    &["--json", "stats"],
];

/// The commands the issue names, for the big inputs: each run reads the whole file, and a
/// debug build reads it an order of magnitude slower than a release build.
const BIG_READERS: &[&[&str]] =
    &[&["log"], &["--json", "tree"], &["show"], &["--json", "context"], &["stats"]];

/// No run may take longer: far above what any of them needs, even in a debug build on a
/// loaded machine, so only a hang trips it.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Address space per run (KiB for `ulimit -v`): a few hundred MB of payload at most.
const MEMORY_KIB: u64 = 4 * 1024 * 1024;

/// Runs `sesstree ARGS` under the time and memory bounds.
fn bounded(env: &TestEnv, args: &[&str]) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("sesstree");
    env.pinned(assert_cmd::Command::new("sh"))
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB}; exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .timeout(TIMEOUT)
        .output()
        .expect("run")
}

/// Runs every reader over `file` and returns `command → status` lines; fails on a panic, a
/// signal (a timeout kills with one) or an undocumented status.
fn survive(env: &TestEnv, file: &str) -> String {
    survive_with(env, file, READERS)
}

fn survive_with(env: &TestEnv, file: &str, readers: &[&[&str]]) -> String {
    let mut report = String::new();
    for args in readers {
        let mut full = vec!["-f", file];
        full.extend_from_slice(args);
        let output = bounded(env, &full);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let status = output.status.code().unwrap_or_else(|| {
            panic!("sesstree {full:?} was killed by a signal (timeout or memory limit): {stderr}")
        });
        assert!(!stderr.contains("panicked"), "sesstree {full:?} panicked: {stderr}");
        assert!((0..=7).contains(&status), "sesstree {full:?}: undocumented status {status}");
        report.push_str(&format!("{} → {status}\n", args.join(" ")));
    }
    report
}

const HEADER: &str =
    r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#;

fn message(id: &str, parent: Option<&str>, text: &str) -> String {
    let parent = parent.map_or("null".to_string(), |p| format!("{p:?}"));
    format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":{}}}}}"#,
        serde_json::Value::from(text)
    )
}

/// A small deterministic generator (xorshift), so random inputs are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random bytes with newlines every so often, so they form many short lines.
fn random_lines(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            let r = rng.next();
            if r.is_multiple_of(40) { b'\n' } else { (r >> 8) as u8 }
        })
        .collect()
}

/// Text output that reaches a terminal: no C0 control but newline and tab (sesstree's own
/// column separators), no DEL, no C1 control.
fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Some(c) = text.chars().find(|&c| c.is_control() && !matches!(c, '\n' | '\t')) {
        panic!("{what}: control character {c:?} reaches the terminal:\n{text}");
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn arbitrary_bytes() {
    let env = TestEnv::new();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    env.write("noise.jsonl", random_lines(&mut rng, 256 * 1024));
    let mut with_header = format!("{HEADER}\n").into_bytes();
    with_header.extend(random_lines(&mut rng, 256 * 1024));
    env.write("noise-after-header.jsonl", with_header);
    // Random bytes have no header: every reader refuses them (exit 3), none crashes.
    let report = survive(&env, "noise.jsonl");
    assert!(report.lines().all(|l| l.ends_with("→ 3")), "{report}");
    // After a valid header, the noise is damage the readers step over; the last record has no
    // id, so `@` is undefined and `show` (which needs an entry) says so.
    insta::assert_snapshot!(survive(&env, "noise-after-header.jsonl"), @"
    log → 0
    log --filter all → 0
    --json log --filter all → 0
    tree --filter all → 0
    --json tree --filter all → 0
    show → 4
    --json show → 4
    context → 0
    --json context → 0
    context --format markdown → 0
    stats → 0
    --json stats → 0
    ");
}

#[test]
fn arbitrary_bytes_on_stdin() {
    let env = TestEnv::new();
    let mut rng = Rng(42);
    let mut bytes = format!("{HEADER}\n").into_bytes();
    bytes.extend(random_lines(&mut rng, 64 * 1024));
    for args in [&["-f", "-", "log", "--filter", "all"][..], &["-f", "-", "--json", "tree"]] {
        let output = env.cmd().args(args).write_stdin(bytes.clone()).timeout(TIMEOUT).output();
        assert_eq!(output.expect("run").status.code(), Some(0), "{args:?}");
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn invalid_utf8_everywhere() {
    let env = TestEnv::new();
    let lines: Vec<&[u8]> = vec![
        HEADER.as_bytes(),
        b"{\"type\":\"message\",\"id\":\"a\xff\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:0\xc3\xa9.000Z\",\"message\":{\"role\":\"user\",\"content\":\"\xfe\xfftext\"}}",
        b"{\"type\":\"mess\xc0ge\",\"id\":\"b\",\"parentId\":\"a\xff\",\"timestamp\":\"2026-01-01T00:00:0\xff.000Z\"}",
        b"{\"type\":\"label\",\"id\":\"c\",\"parentId\":\"b\",\"targetId\":\"a\xff\",\"label\":\"\xed\xa0\x80\"}",
        b"{\"ty\xffpe\":\"message\",\"id\":\"d\",\"parentId\":\"c\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"\xf4\x90\x80\x80\"}]}}",
        b"{\"type\":\"message\",\"id\":\"e\",\"parentId\":\"d\",\"timestamp\":\"2026-01-01T00:00:01.00\xe2\x82\xac\",\"message\":{\"role\":\"user\",\"content\":\"\xe2\x82\"}}",
    ];
    env.write("utf8.jsonl", lines.join(&b"\n"[..]));
    insta::assert_snapshot!(survive(&env, "utf8.jsonl"), @r"
    log → 0
    log --filter all → 0
    --json log --filter all → 0
    tree --filter all → 0
    --json tree --filter all → 0
    show → 0
    --json show → 0
    context → 0
    --json context → 0
    context --format markdown → 0
    stats → 0
    --json stats → 0
    ");
}

/// A timestamp whose 19th byte falls inside a multi-byte character: the short time of `log`
/// must not slice through it.
#[test]
fn timestamp_with_multibyte_character_at_the_cut() {
    let env = TestEnv::new();
    let entry = r#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:0é.000Z","message":{"role":"user","content":"hi"}}"#;
    env.write("ts.jsonl", format!("{HEADER}\n{entry}\n"));
    insta::assert_snapshot!(env.run(&["-f", "ts.jsonl", "log"]), @"a message 2026-01-01T00:00:0é.000Z user: hi");
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn five_megabyte_line() {
    let env = TestEnv::new();
    let big = "x\u{1b}[31m\u{7}é".repeat(5 * 1024 * 1024 / 9);
    let file = [
        HEADER.to_string(),
        message("a", None, &big),
        message("b", Some("a"), "after the big one"),
        message("c", Some("b"), &big),
    ]
    .join("\n");
    env.write("big.jsonl", format!("{file}\n"));
    insta::assert_snapshot!(survive_with(&env, "big.jsonl", BIG_READERS), @"
    log → 0
    --json tree → 0
    show → 0
    --json context → 0
    stats → 0
    ");
    let output = bounded(&env, &["-f", "big.jsonl", "log"]);
    assert_terminal_safe("log", &output.stdout);
    // A row shows at most 200 characters of the text, escapes counted after the cut.
    assert!(output.stdout.len() < 4096, "{}", output.stdout.len());
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn deep_json_nesting() {
    let env = TestEnv::new();
    let depth = 100_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    let lines = [
        HEADER.to_string(),
        message("a", None, "before"),
        arrays.clone(),
        objects.clone(),
        format!(
            r#"{{"type":"message","id":"b","parentId":"a","message":{{"role":"user","content":{arrays}}}}}"#
        ),
        format!(r#"{{"type":"label","id":"c","parentId":"a","targetId":"a","label":{objects}}}"#),
        format!(r#"{{"type":"message","id":{arrays},"parentId":"a"}}"#),
        // Nesting just under serde_json's limit parses: the payload is deep but valid.
        format!(
            r#"{{"type":"message","id":"d","parentId":"a","message":{{"role":"user","content":{}{}}}}}"#,
            "[".repeat(120),
            "]".repeat(120)
        ),
        "[".repeat(depth),
    ];
    env.write("deep.jsonl", lines.join("\n"));
    // Too deep is unparseable (a warning); the file still reads.
    insta::assert_snapshot!(survive(&env, "deep.jsonl"), @r"
    log → 0
    log --filter all → 0
    --json log --filter all → 0
    tree --filter all → 0
    --json tree --filter all → 0
    show → 0
    --json show → 0
    context → 0
    --json context → 0
    context --format markdown → 0
    stats → 0
    --json stats → 0
    ");
    // A deep header is no header.
    env.write("deep-header.jsonl", format!("{objects}\n{}\n", message("a", None, "x")));
    let report = survive(&env, "deep-header.jsonl");
    assert!(report.lines().all(|l| l.ends_with("→ 3")), "{report}");
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn huge_numbers() {
    let env = TestEnv::new();
    let lines = [
        r#"{"type":"session","version":1e999999,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
        r#"{"type":"message","id":1e999999,"parentId":null,"timestamp":1e999999,"message":{"role":"assistant","content":[{"type":"toolCall","id":"t","name":"read","arguments":{"path":"/x","offset":1e999999,"limit":-1e999999}}],"usage":{"input":1e999999,"output":1.7976931348623157e308,"cost":{"total":1e999999}},"stopReason":"toolUse"}}"#,
        r#"{"type":"message","id":"b","parentId":1e999999,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"toolResult","toolCallId":"t","toolName":"read","content":"x"}}"#,
        r#"{"type":"message","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[],"usage":{"input":1.7976931348623157e308,"output":-1e999999},"stopReason":"error","errorMessage":1e999999}}"#,
        r#"{"type":"compaction","id":"d","parentId":"c","timestamp":"2026-01-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":1e999999,"firstKeptEntryId":1e999999,"tokensBefore":1e999999}"#,
        r#"{"type":"label","id":"e","parentId":"d","targetId":1e999999,"label":1e999999}"#,
        r#"{"type":"message","id":"f","parentId":"e","timestamp":"+275760-09-13T00:00:00.001Z","message":{"role":"user","content":"far future","timestamp":-1e999999}}"#,
    ];
    env.write("numbers.jsonl", lines.join("\n"));
    insta::assert_snapshot!(survive(&env, "numbers.jsonl"), @r"
    log → 0
    log --filter all → 0
    --json log --filter all → 0
    tree --filter all → 0
    --json tree --filter all → 0
    show → 0
    --json show → 0
    context → 0
    --json context → 0
    context --format markdown → 0
    stats → 0
    --json stats → 0
    ");
    // The same numbers in a version string, and a version that overflows every integer type.
    for version in [r#""1e999999""#, "18446744073709551616", "-1", r#""NaN""#, "3.5"] {
        let header = HEADER.replace(r#""version":3"#, &format!(r#""version":{version}"#));
        env.write("v.jsonl", format!("{header}\n{}\n", message("a", None, "x")));
        survive(&env, "v.jsonl");
    }
}

/// A chain of 200,000 entries, each the parent of the next: paths, layout and context are
/// walked without recursion and in linear time.
#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn deep_chain_200k() {
    let env = TestEnv::new();
    let n = 200_000;
    let mut file = String::with_capacity(n * 100);
    file.push_str(HEADER);
    file.push('\n');
    for i in 0..n {
        let parent = (i > 0).then(|| format!("{:08x}", i - 1));
        file.push_str(&message(&format!("{i:08x}"), parent.as_deref(), "x"));
        file.push('\n');
    }
    env.write("chain.jsonl", file);
    let start = Instant::now();
    let report = survive_with(&env, "chain.jsonl", BIG_READERS);
    assert!(report.lines().all(|l| l.ends_with("→ 0")), "{report}");
    eprintln!("deep_chain_200k: {} runs in {:?}", BIG_READERS.len(), start.elapsed());
    let output = bounded(&env, &["-f", "chain.jsonl", "log", "-n", "1", "00000000~0"]);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "00000000 message 2026-01-01 00:00:01 +0000 user: x\n"
    );
    let output = bounded(&env, &["-f", "chain.jsonl", "show", "--raw", "@~199999"]);
    assert!(String::from_utf8_lossy(&output.stdout).contains(r#""id":"00000000""#));
}

/// 200,000 children of one entry.
#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn wide_200k() {
    let env = TestEnv::new();
    let n = 200_000;
    let mut file = String::with_capacity(n * 100);
    file.push_str(HEADER);
    file.push('\n');
    file.push_str(&message("root", None, "root"));
    file.push('\n');
    for i in 0..n {
        file.push_str(&message(&format!("{i:08x}"), Some("root"), "x"));
        file.push('\n');
    }
    env.write("wide.jsonl", file);
    let report = survive_with(&env, "wide.jsonl", BIG_READERS);
    assert!(report.lines().all(|l| l.ends_with("→ 0")), "{report}");
}

/// A comb: every entry has two children, one of which continues. Each branch point adds a
/// level, so rows get deeper and deeper; drawing them must stay linear in the entries, not in
/// entries × depth.
#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn comb_of_branch_points() {
    let env = TestEnv::new();
    let n = 20_000;
    let mut file = String::with_capacity(n * 200);
    file.push_str(HEADER);
    file.push('\n');
    file.push_str(&message("c0", None, "x"));
    file.push('\n');
    for i in 1..n {
        file.push_str(&message(&format!("t{i}"), Some(&format!("c{}", i - 1)), "side"));
        file.push('\n');
        file.push_str(&message(&format!("c{i}"), Some(&format!("c{}", i - 1)), "x"));
        file.push('\n');
    }
    env.write("comb.jsonl", file);
    let output = bounded(&env, &["-f", "comb.jsonl", "tree"]);
    assert_eq!(output.status.code(), Some(0));
    // Rows are bounded in width however deep the tree is.
    let widest = output.stdout.split(|&b| b == b'\n').map(<[u8]>::len).max().unwrap_or(0);
    assert!(widest < 1024, "a row of {widest} bytes");
    let output = bounded(&env, &["-f", "comb.jsonl", "--json", "tree"]);
    assert_eq!(output.status.code(), Some(0));
    let deepest = output
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice::<serde_json::Value>(l).unwrap()["depth"].as_u64().unwrap())
        .max();
    assert_eq!(deepest, Some(n as u64 - 1), "--json keeps the real depth");
}

#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn cycles_self_parents_duplicates_and_odd_records() {
    let env = TestEnv::new();
    let lines = [
        HEADER.to_string(),
        message("a", Some("c"), "in a cycle"),
        message("b", Some("a"), "in a cycle"),
        message("c", Some("b"), "closes the cycle"),
        message("s", Some("s"), "my own parent"),
        message("a", Some("s"), "a duplicate of a"),
        message("d", Some("a"), "under the duplicate"),
        "[1,2,3]".to_string(),
        "42".to_string(),
        "\"a string\"".to_string(),
        "null".to_string(),
        r#"{"type":"message","parentId":"d"}"#.to_string(),
        r#"{"type":7,"id":"n","parentId":"d"}"#.to_string(),
        r#"{"id":{"x":1},"parentId":["d"]}"#.to_string(),
        message("e", Some("d"), "the leaf"),
        message("x", Some("y"), "a two-cycle"),
        message("y", Some("x"), "a two-cycle"),
    ];
    env.write("odd.jsonl", lines.join("\n"));
    insta::assert_snapshot!(survive(&env, "odd.jsonl"), @r"
    log → 0
    log --filter all → 0
    --json log --filter all → 0
    tree --filter all → 0
    --json tree --filter all → 0
    show → 0
    --json show → 0
    context → 0
    --json context → 0
    context --format markdown → 0
    stats → 0
    --json stats → 0
    ");
    // Only odd records at the end: `@` is undefined.
    env.write("odd-tail.jsonl", format!("{HEADER}\n{}\n[1]\n", message("a", None, "x")));
    insta::assert_snapshot!(survive(&env, "odd-tail.jsonl"), @r"
    log → 0
    log --filter all → 0
    --json log --filter all → 0
    tree --filter all → 0
    --json tree --filter all → 0
    show → 4
    --json show → 4
    context → 0
    --json context → 0
    context --format markdown → 0
    stats → 0
    --json stats → 0
    ");
}

/// Escape sequences and control characters in every field a command prints, in the REV typed
/// on the command line and in the file's name: text output shows them escaped, never raw.
#[test]
#[cfg_attr(windows, ignore = "makes a file name Windows forbids")]
fn nothing_hostile_reaches_the_terminal() {
    let env = TestEnv::new();
    let evil = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{85}\r\u{8}\u{7f}\u{0}";
    let j = |s: &str| serde_json::Value::from(s).to_string();
    let id = format!("id{evil}");
    let lines = [
        format!(
            r#"{{"type":"session","version":3,"id":{},"timestamp":{},"cwd":{},"title":{}}}"#,
            j(evil),
            j(evil),
            j(evil),
            j(evil)
        ),
        format!(
            r#"{{"type":"message","id":{},"parentId":null,"timestamp":{},"message":{{"role":"user","content":{}}}}}"#,
            j(&id),
            j(&format!("2026-01-01T{evil}")),
            j(evil)
        ),
        format!(
            r#"{{"type":"message","id":"b","parentId":{},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"t","name":{},"arguments":{{"command":{}}}}},{{"type":"toolCall","id":"u","name":"bash","arguments":{{"command":{}}}}}],"model":{},"stopReason":"toolUse"}}}}"#,
            j(&id),
            j(evil),
            j(evil),
            j(evil),
            j(evil)
        ),
        format!(
            r#"{{"type":"message","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z","message":{{"role":"toolResult","toolCallId":"t","toolName":{},"content":{}}}}}"#,
            j(evil),
            j(evil)
        ),
        format!(
            r#"{{"type":"message","id":"c2","parentId":"c","timestamp":"2026-01-01T00:00:02.000Z","message":{{"role":"toolResult","toolCallId":"u","toolName":"bash","content":{}}}}}"#,
            j(evil)
        ),
        format!(
            r#"{{"type":{},"id":"d","parentId":"c2","timestamp":"2026-01-01T00:00:03.000Z","x":{}}}"#,
            j(evil),
            j(evil)
        ),
        format!(
            r#"{{"type":"custom_message","id":"e","parentId":"d","timestamp":"2026-01-01T00:00:04.000Z","customType":{},"content":{},"display":true}}"#,
            j(evil),
            j(evil)
        ),
        format!(
            r#"{{"type":"branch_summary","id":"f","parentId":"e","timestamp":"2026-01-01T00:00:05.000Z","fromId":{},"summary":{}}}"#,
            j(evil),
            j(evil)
        ),
        format!(
            r#"{{"type":"compaction","id":"g","parentId":"f","timestamp":"2026-01-01T00:00:06.000Z","summary":{},"firstKeptEntryId":"f","tokensBefore":1}}"#,
            j(evil)
        ),
        format!(
            r#"{{"type":"model_change","id":"h","parentId":"g","timestamp":"2026-01-01T00:00:07.000Z","model":{}}}"#,
            j(evil)
        ),
        format!(
            r#"{{"type":"title_change","id":"i","parentId":"h","timestamp":"2026-01-01T00:00:08.000Z","title":{}}}"#,
            j(evil)
        ),
        format!(
            r#"{{"type":"label","id":"k","parentId":"i","timestamp":"2026-01-01T00:00:09.000Z","targetId":"i","label":{}}}"#,
            j(evil)
        ),
        format!(r#"{{"type":"message","id":"dup","parentId":{}}}"#, j(evil)),
        format!(r#"{{"type":"message","id":"dup","parentId":{},"oops"#, j(evil)),
    ];
    let name = format!("evil{evil}.jsonl").replace(['\0', '/'], "");
    env.write(&name, lines.join("\n"));
    let mut runs: Vec<Vec<&str>> = READERS.iter().map(|a| a.to_vec()).collect();
    runs.push(vec!["log", "--filter", "all", "--reverse"]);
    runs.push(vec!["tree", "--filter", "all", "--ascii"]);
    // An argument cannot hold a NUL; everything else of the sequence goes on the command line.
    let arg = evil.replace('\0', "");
    let id_arg = id.replace('\0', "");
    runs.push(vec!["show", &id_arg]);
    runs.push(vec!["show", "i"]);
    runs.push(vec!["context", "--agent-messages"]);
    runs.push(vec!["context", "--flavor", "pi"]);
    runs.push(vec!["show", &arg]);
    runs.push(vec!["log", &arg]);
    runs.push(vec!["tree", "--search", &arg]);
    runs.push(vec!["tree", "--leaf", &arg]);
    runs.push(vec!["label", "--list"]);
    runs.push(vec!["fsck"]);
    for args in &runs {
        let mut full = vec!["-f", name.as_str()];
        full.extend_from_slice(args);
        let output = bounded(&env, &full);
        if !full.contains(&"--json") {
            assert_terminal_safe(&format!("stdout of {args:?}"), &output.stdout);
        }
        assert_terminal_safe(&format!("stderr of {args:?}"), &output.stderr);
    }
    // `stats DIR` finds the file by name and warns about its damage with the name.
    let output = bounded(&env, &["stats", "."]);
    assert_terminal_safe("stats stdout", &output.stdout);
    assert_terminal_safe("stats stderr", &output.stderr);
    assert!(String::from_utf8_lossy(&output.stderr).contains("warning"));
    // So do `fsck DIR` and `ls DIR`, which print the names they found.
    for args in [&["fsck", "."][..], &["ls", "."]] {
        let output = bounded(&env, args);
        assert_terminal_safe(&format!("stdout of {args:?}"), &output.stdout);
        assert_terminal_safe(&format!("stderr of {args:?}"), &output.stderr);
        assert!(!output.stdout.is_empty(), "{args:?} found nothing");
    }
}

/// `--json` is exact: the hostile text comes back as the very string that was written.
#[test]
#[cfg_attr(windows, ignore = "runs sh, which Windows lacks")]
fn json_output_is_exact() {
    let env = TestEnv::new();
    let evil = "\u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{7}\u{9b}\u{0}\u{7f}\u{2028}\"\\é";
    let file = [HEADER.to_string(), message("a", None, evil)].join("\n");
    env.write("exact.jsonl", file);
    let output = bounded(&env, &["-f", "exact.jsonl", "--json", "show"]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["message"]["content"], evil);
    let output = bounded(&env, &["-f", "exact.jsonl", "--json", "context"]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["messages"][0]["content"], evil, "{value}");
}
