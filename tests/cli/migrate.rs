//! Tests for `sesstree migrate`. `maint-pi-v1.jsonl` is the first six lines of pi-mono's
//! `packages/coding-agent/test/fixtures/large-session.jsonl` (MIT, (c) Mario Zechner): a real
//! version-1 file.

use crate::common::TestEnv;

const V1: &str = concat!(
    r#"{"type":"session","id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
    "\n",
    r#"{"type":"message","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}"#,
    "\n",
    r#"{"type":"message","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hello"}]}}"#,
    "\n",
    r#"{"type":"compaction","timestamp":"2026-01-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}"#,
    "\n",
    r#"{"type":"message","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"hookMessage","customType":"x","content":"note","display":true}}"#,
    "\n",
);

const V2: &str = concat!(
    r#"{"type":"session","version":2,"id":"s2","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
    "\n",
    r#"{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"hookMessage","customType":"x","content":"note","display":true,"extra":1.0}}"#,
    "\n",
    r#"{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"hookMessage"}}"#,
    "\n",
);

#[test]
fn v1_gets_the_ids_it_is_shown_with() {
    let env = TestEnv::new();
    env.write("v1.jsonl", V1);
    let before = env.run(&["-f", "v1.jsonl", "log", "--filter", "all"]);
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate"]), @"v1.jsonl: migrated from version 1 to 3: 4 entries given ids, 1 compaction index converted, 1 hookMessage role renamed (original kept as v1.jsonl.bak)");
    insta::assert_snapshot!(String::from_utf8(env.read("v1.jsonl")).unwrap(), @r#"
    {"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"8a5d4925","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
    {"type":"message","id":"088c7ca6","parentId":"8a5d4925","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hello"}]}}
    {"type":"compaction","id":"4592199b","parentId":"088c7ca6","timestamp":"2026-01-01T00:00:03.000Z","summary":"s","firstKeptEntryId":"088c7ca6","tokensBefore":5}
    {"type":"message","id":"d7cb5559","parentId":"4592199b","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"custom","customType":"x","content":"note","display":true}}
    "#);
    // The same entries and ids; v3 names the hook message's role `custom`.
    let after = env.run(&["-f", "v1.jsonl", "log", "--filter", "all"]);
    assert_eq!(after, before.replace("[hookMessage]", "[custom]"));
    assert_eq!(env.read("v1.jsonl.bak"), V1.as_bytes());
    insta::assert_snapshot!(env.run(&["fsck", "v1.jsonl"]), @"v1.jsonl: ok");
}

/// Windows replaces no open file: a rewrite while another program holds the session open is a
/// conflict that leaves the file as it was, and no backup.
#[test]
#[cfg(windows)]
fn a_rewrite_while_another_program_has_the_file_open_writes_nothing() {
    let env = TestEnv::new();
    env.write("v1.jsonl", V1);
    let held = std::fs::File::open(env.path().join("v1.jsonl")).unwrap();
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate"]), @r"
    ------- stderr -------
    error: v1.jsonl: another program has the file open; nothing was written (close it there, then run the command again)
    [exit status: 5]
    ");
    assert_eq!(env.read("v1.jsonl"), V1.as_bytes());
    assert!(!env.path().join("v1.jsonl.bak").exists());
    drop(held);
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate", "--json"]), @r#"{"file":"v1.jsonl","fromVersion":1,"toVersion":3,"changed":true,"backup":"v1.jsonl.bak"}"#);
}

#[test]
fn a_real_v1_file() {
    let env = TestEnv::new();
    env.fixture("maint-pi-v1.jsonl");
    let original = env.read("maint-pi-v1.jsonl");
    let before = env.run(&["-f", "maint-pi-v1.jsonl", "log", "--filter", "all"]);
    insta::assert_snapshot!(env.run(&["-f", "maint-pi-v1.jsonl", "migrate", "--json"]), @r#"{"file":"maint-pi-v1.jsonl","fromVersion":1,"toVersion":3,"changed":true,"backup":"maint-pi-v1.jsonl.bak"}"#);
    assert_eq!(env.run(&["-f", "maint-pi-v1.jsonl", "log", "--filter", "all"]), before);
    insta::assert_snapshot!(env.run(&["fsck", "maint-pi-v1.jsonl"]), @"maint-pi-v1.jsonl: ok");
    // Every line is the original with `"id":…,"parentId":…` after its type (the header: a
    // version), nothing else.
    let migrated = env.read("maint-pi-v1.jsonl");
    let strip = |line: &str| {
        let re_start =
            line.find(r#","id":""#).filter(|_| !line.starts_with(r#"{"type":"session""#));
        match re_start {
            Some(at) => {
                let rest = &line[at..];
                let end = rest.find(r#","timestamp""#).unwrap();
                format!("{}{}", &line[..at], &rest[end..])
            }
            None => line.replacen(r#","version":3"#, "", 1),
        }
    };
    let got: Vec<String> = String::from_utf8(migrated).unwrap().lines().map(strip).collect();
    let want: Vec<String> =
        String::from_utf8(original).unwrap().lines().map(String::from).collect();
    assert_eq!(got, want);
}

#[test]
fn v2_hook_messages_become_custom() {
    let env = TestEnv::new();
    env.write("v2.jsonl", V2);
    insta::assert_snapshot!(env.run(&["-f", "v2.jsonl", "migrate", "--no-backup"]), @"v2.jsonl: migrated from version 2 to 3: 1 hookMessage role renamed");
    insta::assert_snapshot!(String::from_utf8(env.read("v2.jsonl")).unwrap(), @r#"
    {"type":"session","version":3,"id":"s2","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"custom","customType":"x","content":"note","display":true,"extra":1.0}}
    {"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"hookMessage"}}
    "#);
    assert!(!env.path().join("v2.jsonl.bak").exists());
}

#[test]
fn idempotent_and_deterministic() {
    let env = TestEnv::new();
    env.write("a.jsonl", V1);
    env.write("b.jsonl", V1);
    env.run(&["-f", "a.jsonl", "migrate"]);
    env.run(&["-f", "b.jsonl", "migrate", "--no-backup"]);
    assert_eq!(env.read("a.jsonl"), env.read("b.jsonl"));
    let once = env.read("a.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "a.jsonl", "migrate", "--json"]), @r#"{"file":"a.jsonl","fromVersion":3,"toVersion":3,"changed":false,"backup":null}"#);
    assert_eq!(env.read("a.jsonl"), once);
}

#[test]
fn check_reports_and_writes_nothing() {
    let env = TestEnv::new();
    env.write("v1.jsonl", V1);
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate", "--check"]), @"
    v1.jsonl: version 1 needs migrating to 3
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate", "--check", "--json"]), @r#"
    {"file":"v1.jsonl","fromVersion":1,"toVersion":3,"changed":true,"backup":null}
    [exit status: 1]
    "#);
    assert_eq!(env.read("v1.jsonl"), V1.as_bytes());
    assert!(!env.path().join("v1.jsonl.bak").exists());
    env.write("v3.jsonl", V2.replace(r#""version":2"#, r#""version":3"#));
    insta::assert_snapshot!(env.run(&["-f", "v3.jsonl", "migrate", "--check"]), @"v3.jsonl: version 3, up to date");
}

#[test]
fn dry_run_prints_the_result() {
    let env = TestEnv::new();
    env.write("v2.jsonl", V2);
    insta::assert_snapshot!(env.run(&["-f", "v2.jsonl", "migrate", "--dry-run"]), @r#"
    {"type":"session","version":3,"id":"s2","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
    {"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"custom","customType":"x","content":"note","display":true,"extra":1.0}}
    {"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"hookMessage"}}
    "#);
    assert_eq!(env.read("v2.jsonl"), V2.as_bytes());
    insta::assert_snapshot!(env.run_stdin(&["-f", "-", "migrate", "--dry-run", "--json"], V2), @r#"{"file":"-","fromVersion":2,"toVersion":3,"changed":true,"backup":null}"#);
}

#[test]
fn output_elsewhere() {
    let env = TestEnv::new();
    env.write("v1.jsonl", V1);
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate", "-o", "new.jsonl"]), @"v1.jsonl: migrated from version 1 to 3: 4 entries given ids, 1 compaction index converted, 1 hookMessage role renamed; written to new.jsonl");
    assert_eq!(env.read("v1.jsonl"), V1.as_bytes());
    assert!(!env.path().join("v1.jsonl.bak").exists());
    env.write("inplace.jsonl", V1);
    env.run(&["-f", "inplace.jsonl", "migrate"]);
    assert_eq!(env.read("new.jsonl"), env.read("inplace.jsonl"));
    // An existing target needs --force; -o onto the file itself is refused.
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate", "-o", "new.jsonl"]), @"
    ------- stderr -------
    error: new.jsonl: already exists (use --force to overwrite)
    [exit status: 5]
    ");
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate", "-o", "v1.jsonl"]), @"
    ------- stderr -------
    error: v1.jsonl: -o names the file itself; leave -o out to migrate in place
    [exit status: 2]
    ");
    // A current file is copied as it is.
    let current = env.read("new.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "new.jsonl", "migrate", "-o", "copy.jsonl", "--json"]), @r#"{"file":"new.jsonl","fromVersion":3,"toVersion":3,"changed":false,"backup":null}"#);
    assert_eq!(env.read("copy.jsonl"), current);
}

#[test]
fn a_current_file_is_left_alone() {
    let env = TestEnv::new();
    let v3 = V2.replace(r#""version":2"#, r#""version":3"#);
    env.write("v3.jsonl", &v3);
    insta::assert_snapshot!(env.run(&["-f", "v3.jsonl", "migrate"]), @"v3.jsonl: already at version 3, nothing to migrate");
    assert_eq!(env.read("v3.jsonl"), v3.as_bytes());
    assert!(!env.path().join("v3.jsonl.bak").exists());
}

#[test]
fn an_existing_backup_is_not_overwritten() {
    let env = TestEnv::new();
    env.write("v1.jsonl", V1);
    env.write("v1.jsonl.bak", "precious\n");
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate"]), @"
    ------- stderr -------
    error: v1.jsonl.bak: already exists; nothing was migrated (--force overwrites it, --no-backup skips it)
    [exit status: 5]
    ");
    assert_eq!(env.read("v1.jsonl"), V1.as_bytes());
    assert_eq!(env.read("v1.jsonl.bak"), b"precious\n");
    env.run(&["-f", "v1.jsonl", "migrate", "--force"]);
    assert_eq!(env.read("v1.jsonl.bak"), V1.as_bytes());
}

#[test]
fn refusals() {
    let env = TestEnv::new();
    env.write("new.jsonl", "{\"type\":\"session\",\"version\":5,\"id\":\"s\"}\n");
    env.write("headless.jsonl", "{\"type\":\"message\",\"id\":\"a\"}\n");
    env.write("empty.jsonl", "");
    insta::assert_snapshot!(env.run(&["-f", "new.jsonl", "migrate"]), @"
    ------- stderr -------
    error: new.jsonl: session version 5 is newer than this sesstree understands (4)
    [exit status: 6]
    ");
    insta::assert_snapshot!(env.run(&["-f", "new.jsonl", "migrate", "--check"]), @"
    ------- stderr -------
    error: new.jsonl: session version 5 is newer than this sesstree understands (4)
    [exit status: 6]
    ");
    insta::assert_snapshot!(env.run(&["-f", "headless.jsonl", "migrate"]), @"
    ------- stderr -------
    error: headless.jsonl:1: no valid session header (the first record is of type 'message', not 'session'); `sesstree fsck --repair` restores one
    [exit status: 3]
    ");
    insta::assert_snapshot!(env.run(&["-f", "empty.jsonl", "migrate"]), @"
    ------- stderr -------
    error: empty.jsonl: the file holds no session
    [exit status: 3]
    ");
    insta::assert_snapshot!(env.run(&["-f", "-", "migrate"]), @"
    ------- stderr -------
    error: this command writes the file; it cannot read standard input
    [exit status: 2]
    ");
}

#[test]
fn the_v1_fixture_reads_the_same_before_and_after() {
    let env = TestEnv::new();
    env.fixture("v1.jsonl");
    let log = |env: &TestEnv| env.run(&["-f", "v1.jsonl", "--json", "log", "--filter", "all"]);
    let context = |env: &TestEnv| env.run(&["-f", "v1.jsonl", "--json", "context"]);
    let (log_before, context_before) = (log(&env), context(&env));
    insta::assert_snapshot!(env.run(&["-f", "v1.jsonl", "migrate"]), @"v1.jsonl: migrated from version 1 to 3: 9 entries given ids, 1 compaction index converted (original kept as v1.jsonl.bak)");
    assert_eq!(log(&env), log_before);
    assert_eq!(context(&env), context_before, "the compaction keeps the same entries");
    let text = String::from_utf8(env.read("v1.jsonl")).unwrap();
    let compaction = text.lines().nth(7).unwrap();
    let fourth = text.lines().nth(3).unwrap();
    let id = &fourth[r#"{"type":"message","id":""#.len()..][..8];
    assert!(compaction.contains(&format!(r#""firstKeptEntryId":"{id}""#)), "{compaction}");
    assert_eq!(env.run(&["fsck", "v1.jsonl"]), "v1.jsonl: ok\n");
}

#[test]
fn the_v2_and_v4_fixtures() {
    let env = TestEnv::new();
    env.fixture("v2-hook.jsonl");
    env.fixture("v4.jsonl");
    let original = env.read("v2-hook.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "v2-hook.jsonl", "migrate", "--json"]), @r#"{"file":"v2-hook.jsonl","fromVersion":2,"toVersion":3,"changed":true,"backup":"v2-hook.jsonl.bak"}"#);
    let migrated = String::from_utf8(env.read("v2-hook.jsonl")).unwrap();
    let expected = String::from_utf8(original)
        .unwrap()
        .replacen(r#""version":2"#, r#""version":3"#, 1)
        .replacen(r#""role":"hookMessage""#, r#""role":"custom""#, 1);
    assert_eq!(migrated, expected);
    let v4 = env.read("v4.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "v4.jsonl", "migrate", "--check"]), @"v4.jsonl: version 4, up to date");
    insta::assert_snapshot!(env.run(&["-f", "v4.jsonl", "migrate"]), @"v4.jsonl: already at version 4, nothing to migrate");
    assert_eq!(env.read("v4.jsonl"), v4);
}

/// `migrate` takes many files and directories, as `fsck` and `stats` do: each is migrated on
/// its own, one that fails does not stop the others, `--check` fails when any needs it, and
/// `-o` and `--dry-run` take one file.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn many_files_and_directories() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.path().join("dir/sub")).unwrap();
    let v1 = std::fs::read(crate::common::fixtures().join("v1.jsonl")).unwrap();
    env.write("dir/a.jsonl", &v1);
    env.write("dir/sub/b.jsonl", &v1);
    std::fs::copy(crate::common::demo(), env.path().join("dir/c.jsonl")).unwrap();
    insta::assert_snapshot!(env.run(&["migrate", "--check", "dir"]), @"
    dir/a.jsonl: version 1 needs migrating to 3
    dir/c.jsonl: version 3, up to date
    dir/sub/b.jsonl: version 1 needs migrating to 3
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.run(&["migrate", "-o", "x.jsonl", "dir"]), @"
    ------- stderr -------
    error: -o takes one file; 3 were given (leave -o out to migrate them in place)
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["migrate", "dir", "missing.jsonl"]), @"
    dir/a.jsonl: migrated from version 1 to 3: 9 entries given ids, 1 compaction index converted (original kept as dir/a.jsonl.bak)
    dir/c.jsonl: already at version 3, nothing to migrate
    dir/sub/b.jsonl: migrated from version 1 to 3: 9 entries given ids, 1 compaction index converted (original kept as dir/sub/b.jsonl.bak)
    ------- stderr -------
    error: missing.jsonl: No such file or directory (os error 2)
    [exit status: 1]
    ");
    insta::assert_snapshot!(env.run(&["migrate", "--check", "dir/a.jsonl", "dir/sub"]), @"
    dir/a.jsonl: version 3, up to date
    dir/sub/b.jsonl: version 3, up to date
    ");
    insta::assert_snapshot!(env.run(&["--json", "migrate", "--check", "dir"]), @r#"
    {"file":"dir/a.jsonl","fromVersion":3,"toVersion":3,"changed":false,"backup":null}
    {"file":"dir/c.jsonl","fromVersion":3,"toVersion":3,"changed":false,"backup":null}
    {"file":"dir/sub/b.jsonl","fromVersion":3,"toVersion":3,"changed":false,"backup":null}
    "#);
}
