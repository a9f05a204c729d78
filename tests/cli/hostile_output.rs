//! Text output never passes raw control characters from the file to the terminal (SPEC §3):
//! ids, labels and names holding ESC, a C1 control (U+009B, the one-byte CSI) and BEL, printed
//! by the writing commands on stdout and in their stderr notes, warnings and errors.

use crate::common::TestEnv;

/// U ─ A ─ B ─ C ─ L1 ─ T ─ L2 (leaf), every id and label hostile:
/// U user, A assistant (labelled), B user, C assistant (labelled), T the title_change of the
/// header's title.
const HOSTILE: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","title":"Ti\u001b]0;pwn\u0007tle","titleSource":"user"}
{"type":"message","id":"U\u001b]0;pwn\u0007","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
{"type":"message","id":"A\u009b31m","parentId":"U\u001b]0;pwn\u0007","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}
{"type":"message","id":"B\u0007bell","parentId":"A\u009b31m","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"again \u009b2J"}}
{"type":"message","id":"C\u001b[2Jx","parentId":"B\u0007bell","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}]}}
{"type":"label","id":"L1\u001b]0;x\u0007","parentId":"C\u001b[2Jx","timestamp":"2026-01-01T00:00:05.000Z","targetId":"A\u009b31m","label":"lab\u001b]0;pwn\u0007el"}
{"type":"title_change","id":"T\u009bq","parentId":"L1\u001b]0;x\u0007","timestamp":"2026-01-01T00:00:06.000Z","title":"Ti\u001b]0;pwn\u0007tle","source":"user"}
{"type":"label","id":"L2\u009b2J","parentId":"T\u009bq","timestamp":"2026-01-01T00:00:07.000Z","targetId":"C\u001b[2Jx","label":"cp\u009b31m\u0007"}
"#;

/// A duplicate id, and two ids that share a 4-character prefix ending in a C1 control.
const DUPES: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"D\u001b]0;pwn\u0007","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
{"type":"message","id":"D\u001b]0;pwn\u0007","parentId":null,"timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"twice"}}
{"type":"message","id":"Dxy\u009bA","parentId":"D\u001b]0;pwn\u0007","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"a"}]}}
{"type":"message","id":"Dxy\u009bB","parentId":"D\u001b]0;pwn\u0007","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"b"}]}}
"#;

/// A control character in one piece of a `log` row at a time (the id, the type, the time as
/// ISO-8601 and as anything else, the text, the label), and a row with none whose text is not
/// ASCII (`£`, `°`: bytes that a control check cannot tell from a C1 control at once).
const ONE_PIECE: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"plain001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"nothing to escape"}}
{"type":"message","id":"idx\u0007abcd","parentId":"plain001","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"the id"}}
{"type":"message\u001b[1m","id":"kind0001","parentId":"idx\u0007abcd","timestamp":"2026-01-01T00:00:03.000Z"}
{"type":"message","id":"time0001","parentId":"kind0001","timestamp":"2026-01-01T00:00:0\u00074.000Z","message":{"role":"user","content":"the time"}}
{"type":"message","id":"time0002","parentId":"time0001","timestamp":"yesterday\u009b","message":{"role":"user","content":"an odd time"}}
{"type":"message","id":"text0001","parentId":"time0002","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"user","content":"te\u001b]0;x\u0007xt"}}
{"type":"message","id":"labl0001","parentId":"text0001","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"user","content":"labelled"}}
{"type":"label","id":"lab00001","parentId":"labl0001","timestamp":"2026-01-01T00:00:07.000Z","targetId":"labl0001","label":"l\u009bb"}
{"type":"message","id":"pund0001","parentId":"lab00001","timestamp":"2026-01-01T00:00:08.000Z","message":{"role":"user","content":"£5 at 20° and no control"}}
"#;

/// Runs `sesstree ARGS` on fresh copies of the two files, asserts that neither stream holds
/// a control character other than newline and tab, and renders the outcome.
fn run(args: &[&str]) -> String {
    let env = TestEnv::new();
    env.write("h.jsonl", HOSTILE);
    env.write("d.jsonl", DUPES);
    env.write("p.jsonl", ONE_PIECE);
    let out = env.cmd().args(args).output().unwrap();
    for stream in [&out.stdout, &out.stderr] {
        let text = String::from_utf8_lossy(stream);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n' && c != '\t'),
            "{args:?} printed a control character: {text:?}"
        );
    }
    env.render(&out)
}

#[test]
fn checkout() {
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "checkout", "A\u{9b}31m"]), @r"
    ------- stderr -------
    Moved from C\x1b[2Jx to A\x9b31m; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "checkout", "A\u{9b}31m", "--dry-run"]), @r#"
    {"type":"branch_summary","id":"15780b2e","parentId":"A\x9b31m","timestamp":"2026-03-01T12:00:00.000Z","fromId":"A\x9b31m","summary":"","details":{"kind":"checkout","from":"C\u001b[2Jx"}}
    ------- stderr -------
    dry run: would move the leaf to A\x9b31m; nothing was written
    "#);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn branch() {
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "branch", "B\u{7}bell"]), @r"
    again \x9b2J
    ------- stderr -------
    Branched to $TMP/2026-03-01T12-00-00-000Z_019ca945-0a00-7716-a104-d9866d113a7e.jsonl
    ");
}

#[test]
fn label() {
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "label", "A\u{9b}31m", "new\u{1b}[1m"]), @r#"
    ------- stderr -------
    error: the label "new\x1b[1m" could never be used as a REV: it holds control characters
    [exit status: 2]
    "#);
    // The same label as A's: the warning names A.
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "label", "C\u{1b}[2Jx", "lab\u{1b}]0;pwn\u{7}el"]), @r#"
    ------- stderr -------
    error: the label "lab\x1b]0;pwn\x07el" could never be used as a REV: it holds control characters
    [exit status: 2]
    "#);
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "label", "C\u{1b}[2Jx", "--clear"]), @r#"Removed the label of C\x1b[2Jx (was "cp\x9b31m\x07")"#);
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "label", "--list"]), @r"
    lab\x1b]0;pwn\x07el	A\x9b31m assistant: ok
    cp\x9b31m\x07	C\x1b[2Jx assistant: done
    ");
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "label", "@", "x", "--dry-run"]), @r#"{"type":"label","id":"15780b2e","parentId":"L2\x9b2J","timestamp":"2026-03-01T12:00:00.000Z","targetId":"C\u001b[2Jx","label":"x"}"#);
}

#[test]
fn log_rows_escape_a_control_in_any_one_piece() {
    // Rows without colours are written whole and checked once: a control in any one piece
    // sends the row back through the piece-by-piece escaping, as with colours.
    insta::assert_snapshot!(run(&["-f", "p.jsonl", "log", "--filter", "all"]), @r#"
    pund0001 message 2026-01-01 00:00:08 +0000 user: £5 at 20° and no control
    lab00001 label 2026-01-01 00:00:07 +0000 [label: l\x9bb]
    labl0001 message 2026-01-01 00:00:06 +0000 [l\x9bb] user: labelled
    text0001 message 2026-01-01 00:00:05 +0000 user: te\x1b]0;x\x07xt
    time0002 message yesterday\x9b user: an odd time
    time0001 message 2026-01-01T00:00:0\x074.000Z user: the time
    kind0001 message\x1b[1m 2026-01-01 00:00:03 +0000 [message\x1b[1m]
    idx\x07abcd message 2026-01-01 00:00:02 +0000 user: the id
    plain001 message 2026-01-01 00:00:01 +0000 user: nothing to escape
    "#);
    // With colours, every piece is escaped on its own: the only controls left are the
    // colours' own SGR sequences.
    let env = TestEnv::new();
    env.write("p.jsonl", ONE_PIECE);
    let mut log = env.cmd();
    log.args(["--color", "always", "-f", "p.jsonl", "log", "--filter", "all"]);
    let out = String::from_utf8(log.output().unwrap().stdout).unwrap();
    let mut plain = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find("\u{1b}[") {
        plain.push_str(&rest[..at]);
        let end = rest[at..].find('m').expect("an SGR sequence ends in m");
        rest = &rest[at + end + 1..];
    }
    plain.push_str(rest);
    assert!(!plain.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    assert!(plain.contains("yesterday\\x9b") && plain.contains("te\\x1b]0;x\\x07xt"), "{plain}");
}

#[test]
fn name() {
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "name"]), @r"Ti\x1b]0;pwn\x07tle");
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "name", "N", "--dry-run"]), @r#"
    {"type":"title_change","id":"15780b2e","parentId":"L2\x9b2J","timestamp":"2026-03-01T12:00:00.000Z","title":"N","source":"user","previousTitle":"Ti\u001b]0;pwn\u0007tle"}
    ------- stderr -------
    note: dry run; would add a title slot in front (a full rewrite) and append this line, nothing written
    "#);
    insta::assert_snapshot!(run(&["-f", "h.jsonl", "name", "N\u{1b}]0;x\u{7}"]), @"N ]0;x");
}

#[test]
fn errors_and_warnings() {
    // An ambiguous REV lists its candidates.
    insta::assert_snapshot!(run(&["-f", "d.jsonl", "checkout", "Dxy\u{9b}"]), @r"
    ------- stderr -------
    d.jsonl:3: warning: duplicate id D\x1b]0;pwn\x07 (first on line 2); the later entry wins
    error: 'Dxy\x9b' is ambiguous; it matches Dxy\x9bA, Dxy\x9bB
    [exit status: 4]
    ");
    insta::assert_snapshot!(run(&["-f", "d.jsonl", "label", "Dxy\u{9b}", "x"]), @r"
    ------- stderr -------
    d.jsonl:3: warning: duplicate id D\x1b]0;pwn\x07 (first on line 2); the later entry wins
    error: 'Dxy\x9b' is ambiguous; it matches Dxy\x9bA, Dxy\x9bB
    [exit status: 4]
    ");
    // A duplicate id is a warning that names it.
    insta::assert_snapshot!(run(&["-f", "d.jsonl", "checkout", "Dxy\u{9b}A"]), @r"
    ------- stderr -------
    d.jsonl:3: warning: duplicate id D\x1b]0;pwn\x07 (first on line 2); the later entry wins
    Moved from Dxy\x9bB to Dxy\x9bA; appended branch_summary 15780b2e (`checkout -` goes back)
    ");
    insta::assert_snapshot!(run(&["-f", "d.jsonl", "name", "--dialect", "omp", "N"]), @r"
    N
    ------- stderr -------
    d.jsonl:3: warning: duplicate id D\x1b]0;pwn\x07 (first on line 2); the later entry wins
    ");
}
