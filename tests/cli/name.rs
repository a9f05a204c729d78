//! Tests for `name`: reading the name, and storing one as each agent would (title slot and
//! `title_change` for oh-my-pi, `session_info` for pi).

use crate::common::TestEnv;

const SLOT: usize = 256;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// See: issue 44 (a day with sesstree, second pass). `name` printed `Title (source)` where a
/// script wants the title alone; as `git config user.name` prints the value, the plain output
/// is the name, byte for byte, and --json carries the source.
#[test]
fn plain_output_is_the_name_alone() {
    let env = TestEnv::new();
    env.fixture("writers-slot.jsonl");
    let out = env.cmd().args(["-f", "writers-slot.jsonl", "name"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "Old title\n");
    assert!(out.stderr.is_empty() && out.status.success());
    let out = env.cmd().args(["-f", "writers-slot.jsonl", "name", "New"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "New\n");
}

#[test]
fn shows_the_name_in_effect_and_its_source() {
    let env = TestEnv::new();
    env.fixture("writers-slot.jsonl");
    env.fixture("writers-pi.jsonl");
    env.fixture("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name"]), @"Old title");
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "--json", "name"]), @r#"{"name":"Old title","source":"auto","changed":false,"id":null}"#);
    insta::assert_snapshot!(env.run(&["-f", "writers-pi.jsonl", "name"]), @"Json flag");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "name"]), @r"
    ------- stderr -------
    note: the session has no name
    ");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "--json", "name"]), @r#"{"name":null,"source":null,"changed":false,"id":null}"#);
}

#[test]
fn a_slot_is_patched_in_place_byte_exact() {
    let env = TestEnv::new();
    env.fixture("writers-slot.jsonl");
    let before = env.read("writers-slot.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name", "Fix session naming"]), @"Fix session naming");
    let after = env.read("writers-slot.jsonl");
    // Only the slot changed; everything after it is as it was, then one line was appended.
    assert_eq!(after[SLOT..before.len()], before[SLOT..]);
    insta::assert_snapshot!(text(&after[..SLOT]), @r#"{"type":"title","v":1,"title":"Fix session naming","source":"user","updatedAt":"2026-03-01T12:00:00.000Z","pad":"                                                                                                                                            "}"#);
    insta::assert_snapshot!(text(&after[before.len()..]), @r#"{"type":"title_change","id":"15780b2e","parentId":"e5f6a7b8","timestamp":"2026-03-01T12:00:00.000Z","title":"Fix session naming","source":"user","previousTitle":"Old title"}"#);
    assert_eq!(after[SLOT - 1], b'\n');
    // Reopening shows the new name, and the header was left alone (the slot wins).
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name"]), @"Fix session naming");
    assert!(text(&after).contains(r#""title":"Old title","titleSource":"auto"}"#));
}

#[test]
fn a_file_without_a_slot_gets_one_and_keeps_every_byte() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "name", "--dialect", "omp", "--trigger", "cli", "First name"]), @"First name");
    let after = env.read("writers-omp.jsonl");
    assert_eq!(after[SLOT..SLOT + before.len()], before[..]);
    insta::assert_snapshot!(text(&after[..SLOT]), @r#"{"type":"title","v":1,"title":"First name","source":"user","updatedAt":"2026-03-01T12:00:00.000Z","pad":"                                                                                                                                                    "}"#);
    insta::assert_snapshot!(text(&after[SLOT + before.len()..]), @r#"{"type":"title_change","id":"15780b2e","parentId":"e5f6a7b8","timestamp":"2026-03-01T12:00:00.000Z","title":"First name","source":"user","trigger":"cli"}"#);
    // From now on renames patch the slot.
    let before = after;
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "name", "Second"]), @"Second");
    let after = env.read("writers-omp.jsonl");
    assert_eq!(after[SLOT..before.len()], before[SLOT..]);
}

#[test]
fn a_rewrite_drops_a_byte_order_mark_and_steps_over_a_torn_line() {
    let env = TestEnv::new();
    let body = std::fs::read(crate::common::fixtures().join("writers-omp.jsonl")).unwrap();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(&body);
    bytes.extend_from_slice(br#"{"type":"message","id":"torn"#);
    env.write("b.jsonl", &bytes);
    insta::assert_snapshot!(env.run(&["-f", "b.jsonl", "name", "--dialect", "omp", "X"]), @"
    X
    ------- stderr -------
    b.jsonl:7: warning: truncated last line: EOF while parsing a string at line 1 column 28
    ");
    let after = env.read("b.jsonl");
    assert_eq!(after[SLOT..SLOT + bytes.len() - 3], bytes[3..]);
    insta::assert_snapshot!(text(&after[SLOT + bytes.len() - 3..]), @r#"

    {"type":"title_change","id":"15780b2e","parentId":"e5f6a7b8","timestamp":"2026-03-01T12:00:00.000Z","title":"X","source":"user"}
    "#);
    insta::assert_snapshot!(env.run(&["-f", "b.jsonl", "name"]), @"
    X
    ------- stderr -------
    b.jsonl:8: warning: unparseable line: EOF while parsing a string at line 1 column 28
    ");
}

#[test]
fn pi_files_get_session_info() {
    let env = TestEnv::new();
    env.fixture("writers-pi.jsonl");
    let before = env.read("writers-pi.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-pi.jsonl", "name", "Pi name"]), @"Pi name");
    let after = env.read("writers-pi.jsonl");
    assert!(after.starts_with(&before));
    insta::assert_snapshot!(text(&after[before.len()..]), @r#"{"type":"session_info","id":"15780b2e","parentId":"2c3d4e5f","timestamp":"2026-03-01T12:00:00.000Z","name":"Pi name"}"#);
    insta::assert_snapshot!(env.run(&["-f", "writers-pi.jsonl", "--json", "name"]), @r#"{"name":"Pi name","source":null,"changed":false,"id":null}"#);
    // pi records no source: its names count as the user's.
    insta::assert_snapshot!(env.run(&["-f", "writers-pi.jsonl", "name", "--source", "auto", "Auto"]), @r"
    Pi name
    ------- stderr -------
    note: an auto name never replaces a user name; the name is unchanged
    ");
}

#[test]
fn auto_never_replaces_user() {
    let env = TestEnv::new();
    env.fixture("writers-slot.jsonl");
    // An auto name replaces an auto name.
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name", "--source", "auto", "Auto two"]), @"Auto two");
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name", "Mine"]), @"Mine");
    let before = env.read("writers-slot.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "--json", "name", "--source", "auto", "Auto three"]), @r#"
    {"name":"Mine","source":"user","changed":false,"id":null}
    ------- stderr -------
    note: an auto name never replaces a user name; the name is unchanged
    "#);
    assert_eq!(env.read("writers-slot.jsonl"), before);
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name", "Mine again"]), @"Mine again");
}

#[test]
fn from_plan_names_only_an_unnamed_session() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    env.fixture("writers-slot.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "name", "--dialect", "omp", "--from-plan", "fix_session--naming"]), @"Fix session naming");
    let before = env.read("writers-slot.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name", "--from-plan", "migrate-mcp-loader"]), @r"
    Old title
    ------- stderr -------
    note: the session already has a name; a plan title does not replace it
    ");
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name", "--from-plan=---"]), @"
    Old title
    ------- stderr -------
    note: the plan title gives no name; the name is unchanged
    ");
    assert_eq!(env.read("writers-slot.jsonl"), before);
    insta::assert_snapshot!(env.run(&["-f", "writers-slot.jsonl", "name", "--from-plan", "x", "--source", "user"]), @"
    ------- stderr -------
    error: the argument '--from-plan <PLAN_TITLE>' cannot be used with '--source <SOURCE>'

    Usage: sesstree name --from-plan <PLAN_TITLE> [TEXT]

    For more information, try '--help'.
    [exit status: 2]
    ");
}

#[test]
fn control_characters_are_cleaned() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "--json", "name", "--dialect", "omp", " Fix\u{1b}[2J\tthe\r\n\u{85}loader  "]), @r#"{"name":"Fix [2J the loader","source":"user","changed":true,"id":"15780b2e"}"#);
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "name", " \t\u{7f} "]), @r"
    ------- stderr -------
    error: the name is empty once control characters and spaces are removed
    [exit status: 2]
    ");
    assert_eq!(env.read("writers-omp.jsonl"), before);
}

#[test]
fn a_long_name_is_cut_in_the_slot_only() {
    let env = TestEnv::new();
    env.fixture("writers-slot.jsonl");
    let long = "word ".repeat(50);
    let out = env.run(&["-f", "writers-slot.jsonl", "name", &long]);
    insta::assert_snapshot!(out, @"
    word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word wor
    ------- stderr -------
    note: the title slot holds the first 158 characters of the name; the title_change entry holds all of it
    ");
    let after = text(&env.read("writers-slot.jsonl"));
    assert!(after.lines().last().unwrap().contains(long.trim()));
}

#[test]
fn dry_run_writes_nothing() {
    let env = TestEnv::new();
    env.fixture("writers-omp.jsonl");
    let before = env.read("writers-omp.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "writers-omp.jsonl", "name", "--dialect", "omp", "--dry-run", "N"]), @r#"
    {"type":"title_change","id":"15780b2e","parentId":"e5f6a7b8","timestamp":"2026-03-01T12:00:00.000Z","title":"N","source":"user"}
    ------- stderr -------
    note: dry run; would add a title slot in front (a full rewrite) and append this line, nothing written
    "#);
    assert_eq!(env.read("writers-omp.jsonl"), before);
}

/// pi makes UUIDv7 session ids now, as oh-my-pi does, and refuses a file whose first line is
/// not its header: a file that says nothing certain of its agent gets no title slot unless
/// `--dialect` says so, and is left byte for byte (exit 2).
#[test]
fn a_file_of_no_certain_agent_needs_a_dialect() {
    let env = TestEnv::new();
    let pi = concat!(
        r#"{"type":"session","version":3,"id":"019a3b2c-7d4e-7f60-8a1b-2c3d4e5f6a7b","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}"#,
        "\n",
        r#"{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-05-01T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1777629601000}}"#,
        "\n",
    );
    env.write("p.jsonl", pi);
    insta::assert_snapshot!(env.run(&["-f", "p.jsonl", "name", "My session"]), @"
    ------- stderr -------
    error: p.jsonl: cannot tell whether oh-my-pi or pi wrote this session (no title slot, entries of neither agent or of both, and not in either agent's sessions directory), and pi refuses a file that starts with oh-my-pi's title slot: give --dialect omp or --dialect pi
    [exit status: 2]
    ");
    assert_eq!(text(&env.read("p.jsonl")), pi, "nothing written");
    insta::assert_snapshot!(env.run(&["-f", "p.jsonl", "name", "--dialect", "pi", "My session"]), @"My session");
    let after = text(&env.read("p.jsonl"));
    assert!(after.starts_with(pi), "the header stays the first line");
    assert!(after[pi.len()..].starts_with(r#"{"type":"session_info","#), "{after}");
    // Now the file says it is pi's.
    insta::assert_snapshot!(env.run(&["-f", "p.jsonl", "name", "Again"]), @"Again");
    insta::assert_snapshot!(env.run(&["-f", "p.jsonl", "name", "--dialect", "omp"]), @"
    ------- stderr -------
    error: --trigger, --dialect and --dry-run need a name to set (TEXT or --from-plan)
    [exit status: 2]
    ");
}
