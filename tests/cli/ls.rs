//! Tests for `sesstree ls`: a home directory with both agents' session directories, built in
//! the test's temporary directory.

use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use crate::common::TestEnv;

fn header(id: &str, cwd: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"session","version":3,"id":"{id}","timestamp":"2026-01-01T00:00:00.000Z","cwd":"{cwd}"{extra}}}"#
    )
}

fn user(id: &str, parent: Option<&str>, time: &str, text: &str) -> String {
    let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
    format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"{time}","message":{{"role":"user","content":{}}}}}"#,
        serde_json::Value::from(text)
    )
}

fn assistant(id: &str, parent: &str, time: &str) -> String {
    format!(
        r#"{{"type":"message","id":"{id}","parentId":"{parent}","timestamp":"{time}","message":{{"role":"assistant","content":[{{"type":"text","text":"ok"}}]}}}}"#
    )
}

/// Writes `lines` (one per line) to `path` under the temporary directory.
fn put(env: &TestEnv, path: &str, lines: &[String]) {
    let full = env.path().join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(&full, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
}

/// pi's directory for `~/proj` has the temporary directory's random name in it.
fn pi_dir(env: &TestEnv) -> String {
    sesstree::discover::pi_dir_name(&format!("{}/home/proj", env.path().display()))
}

/// Runs `sesstree ARGS` with the output made stable.
fn run(env: &TestEnv, args: &[&str]) -> String {
    env.run(args).replace(&pi_dir(env), "$PI_DIR")
}

/// Renders an output made by hand, made stable.
fn render(env: &TestEnv, output: &std::process::Output) -> String {
    env.render(output).replace(&pi_dir(env), "$PI_DIR")
}

/// A home with sessions of both agents, for the project `~/proj` and another one.
fn home(env: &TestEnv) -> String {
    let home = env.path().join("home").display().to_string();
    let proj = format!("{home}/proj");
    let pi_dir = pi_dir(env);
    put(
        env,
        "home/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl",
        &[
            header("omp-1", &proj, r#","title":"Fix the parser""#),
            user("a1", None, "2026-01-01T00:00:01.000Z", "The parser\nchokes on tabs"),
            assistant("a2", "a1", "2026-01-01T00:10:00.000Z"),
        ],
    );
    // The session's artifact directory holds a subagent's transcript: not listed.
    put(
        env,
        "home/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1/task.jsonl",
        &[header("sub", &proj, ""), user("s1", None, "2026-02-01T00:00:00.000Z", "subtask")],
    );
    // Same encoded directory, another project (`~/proj` and `~/proj/` are one; this is not).
    put(
        env,
        "home/.omp/agent/sessions/-proj/2026-01-03T00-00-00-000Z_omp-2.jsonl",
        &[
            header("omp-2", &format!("{home}/elsewhere"), ""),
            user("b1", None, "2026-01-03T00:00:00.000Z", "elsewhere"),
        ],
    );
    put(
        env,
        "home/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3.jsonl",
        &[
            // oh-my-pi keeps the name in the header and logs the rename.
            header("omp-3", &format!("{home}/other"), r#","title":"Renamed","titleSource":"user""#),
            r#"{"type":"title_change","id":"t1","parentId":null,"timestamp":"2026-01-02T00:00:00.000Z","title":"Renamed","source":"user"}"#.into(),
            user("c1", Some("t1"), "2026-01-02T00:00:01.000Z", "hello from other"),
        ],
    );
    put(
        env,
        &format!("home/.pi/agent/sessions/{pi_dir}/2026-01-05T00-00-00-000Z_pi-1.jsonl"),
        &[
            header("pi-1", &format!("{proj}/"), ""),
            user("d1", None, "2026-01-05T00:00:00.000Z", "pi asks"),
            r#"{"type":"session_info","id":"d2","parentId":"d1","timestamp":"2026-01-05T00:00:05.000Z","name":"Pi session"}"#.into(),
        ],
    );
    // A header and nothing else: its time is the file's.
    put(env, "home/.pi/agent/sessions/--x--/fresh.jsonl", &[header("pi-2", "/x", "")]);
    let fresh = std::fs::File::options()
        .write(true)
        .open(env.path().join("home/.pi/agent/sessions/--x--/fresh.jsonl"))
        .unwrap();
    fresh.set_modified(UNIX_EPOCH + Duration::from_secs(1_767_000_000)).unwrap();
    home
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn lists_both_agents_newest_first() {
    let env = TestEnv::new();
    home(&env);
    insta::assert_snapshot!(run(&env, &["ls"]), @"
    LAST ACTIVITY              ENTRIES  SESSION  NAME            CWD          FIRST PROMPT               FILE
    2026-01-05 00:00:05 +0000  2        pi-1     Pi session      ~/proj/      pi asks                    ~/.pi/agent/sessions/$PI_DIR/2026-01-05T00-00-00-000Z_pi-1.jsonl
    2026-01-03 00:00:00 +0000  1        omp-2                    ~/elsewhere  elsewhere                  ~/.omp/agent/sessions/-proj/2026-01-03T00-00-00-000Z_omp-2.jsonl
    2026-01-02 00:00:01 +0000  2        omp-3    Renamed         ~/other      hello from other           ~/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3.jsonl
    2026-01-01 00:10:00 +0000  2        omp-1    Fix the parser  ~/proj       The parser chokes on tabs  ~/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl
    2025-12-29 09:20:00 +0000  0        pi-2                     /x                                      ~/.pi/agent/sessions/--x--/fresh.jsonl
    ");
    insta::assert_snapshot!(run(&env, &["ls", "--json"]), @r#"
    {"path":"$TMP/home/.pi/agent/sessions/$PI_DIR/2026-01-05T00-00-00-000Z_pi-1.jsonl","sessionId":"pi-1","name":"Pi session","cwd":"$TMP/home/proj/","entries":2,"lastActivity":"2026-01-05T00:00:05.000Z","firstPrompt":"pi asks","laneFormat":false,"current":false}
    {"path":"$TMP/home/.omp/agent/sessions/-proj/2026-01-03T00-00-00-000Z_omp-2.jsonl","sessionId":"omp-2","name":null,"cwd":"$TMP/home/elsewhere","entries":1,"lastActivity":"2026-01-03T00:00:00.000Z","firstPrompt":"elsewhere","laneFormat":false,"current":false}
    {"path":"$TMP/home/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3.jsonl","sessionId":"omp-3","name":"Renamed","cwd":"$TMP/home/other","entries":2,"lastActivity":"2026-01-02T00:00:01.000Z","firstPrompt":"hello from other","laneFormat":false,"current":false}
    {"path":"$TMP/home/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl","sessionId":"omp-1","name":"Fix the parser","cwd":"$TMP/home/proj","entries":2,"lastActivity":"2026-01-01T00:10:00.000Z","firstPrompt":"The parser chokes on tabs","laneFormat":false,"current":false}
    {"path":"$TMP/home/.pi/agent/sessions/--x--/fresh.jsonl","sessionId":"pi-2","name":null,"cwd":"/x","entries":0,"lastActivity":"2025-12-29T09:20:00.000Z","firstPrompt":null,"laneFormat":false,"current":false}
    "#);
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn one_project() {
    let env = TestEnv::new();
    let home = home(&env);
    let proj = format!("{home}/proj");
    insta::assert_snapshot!(run(&env, &["ls", "--cwd", &proj]), @"
    LAST ACTIVITY              ENTRIES  SESSION  NAME            CWD      FIRST PROMPT               FILE
    2026-01-05 00:00:05 +0000  2        pi-1     Pi session      ~/proj/  pi asks                    ~/.pi/agent/sessions/$PI_DIR/2026-01-05T00-00-00-000Z_pi-1.jsonl
    2026-01-01 00:10:00 +0000  2        omp-1    Fix the parser  ~/proj   The parser chokes on tabs  ~/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl
    ");
    // A relative --cwd is resolved first.
    let rel = env
        .cmd()
        .current_dir(Path::new(&home))
        .args(["ls", "--json", "--cwd", "proj"])
        .output()
        .unwrap();
    insta::assert_snapshot!(render(&env, &rel), @r#"
    {"path":"$TMP/home/.pi/agent/sessions/$PI_DIR/2026-01-05T00-00-00-000Z_pi-1.jsonl","sessionId":"pi-1","name":"Pi session","cwd":"$TMP/home/proj/","entries":2,"lastActivity":"2026-01-05T00:00:05.000Z","firstPrompt":"pi asks","laneFormat":false,"current":false}
    {"path":"$TMP/home/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl","sessionId":"omp-1","name":"Fix the parser","cwd":"$TMP/home/proj","entries":2,"lastActivity":"2026-01-01T00:10:00.000Z","firstPrompt":"The parser chokes on tabs","laneFormat":false,"current":false}
    "#);
    // With directories given, the header's cwd decides.
    insta::assert_snapshot!(run(&env, &["ls", "--cwd", &proj, "home/.omp"]), @"
    LAST ACTIVITY              ENTRIES  SESSION  NAME            CWD     FIRST PROMPT               FILE
    2026-01-01 00:10:00 +0000  2        omp-1    Fix the parser  ~/proj  The parser chokes on tabs  home/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl
    ");
    insta::assert_snapshot!(run(&env, &["ls", "--cwd", "/nowhere"]), @"
    ------- stderr -------
    note: no sessions of /nowhere in $TMP/home/.omp/agent/sessions, $TMP/home/.pi/agent/sessions
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn given_directories_and_files() {
    let env = TestEnv::new();
    home(&env);
    insta::assert_snapshot!(run(&env, &["ls", "home/.omp/agent/sessions/-other", "home/.pi/agent/sessions/--x--/fresh.jsonl"]), @"
    LAST ACTIVITY              ENTRIES  SESSION  NAME     CWD      FIRST PROMPT      FILE
    2026-01-02 00:00:01 +0000  2        omp-3    Renamed  ~/other  hello from other  home/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3.jsonl
    2025-12-29 09:20:00 +0000  0        pi-2              /x                         home/.pi/agent/sessions/--x--/fresh.jsonl
    ");
    insta::assert_snapshot!(run(&env, &["ls", "missing"]), @"
    ------- stderr -------
    error: missing: No such file or directory (os error 2)
    [exit status: 1]
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn nothing_to_list() {
    let env = TestEnv::new();
    // Issue 44: an empty listing says so on stderr, exit status 0.
    insta::assert_snapshot!(run(&env, &["ls"]), @"
    ------- stderr -------
    note: no sessions in $TMP/home/.omp/agent/sessions, $TMP/home/.pi/agent/sessions
    ");
    insta::assert_snapshot!(run(&env, &["ls", "--json"]), @"
    ------- stderr -------
    note: no sessions in $TMP/home/.omp/agent/sessions, $TMP/home/.pi/agent/sessions
    ");
    std::fs::create_dir(env.path().join("empty")).unwrap();
    insta::assert_snapshot!(run(&env, &["ls", "empty"]), @"
    ------- stderr -------
    note: no sessions in empty
    ");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn width_and_colour() {
    let env = TestEnv::new();
    home(&env);
    // Narrow: rows would wrap even without the name, the directory and the prompt; the
    // session id goes (the file names hold it), then the paths are cut, one line per row.
    let narrow = env.cmd().env("COLUMNS", "100").args(["ls"]).output().unwrap();
    insta::assert_snapshot!(render(&env, &narrow), @"
    LAST ACTIVITY              ENTRIES  FILE
    2026-01-05 00:00:05 +0000  2        ~/.pi/agent/sessions/$PI_DIR/2026-01-0…
    2026-01-03 00:00:00 +0000  1        ~/.omp/agent/sessions/-proj/2026-01-03T00-00-00-000Z_omp-2.…
    2026-01-02 00:00:01 +0000  2        ~/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3…
    2026-01-01 00:10:00 +0000  2        ~/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.…
    2025-12-29 09:20:00 +0000  0        ~/.pi/agent/sessions/--x--/fresh.jsonl
    ");
    // Wider: the name, the directory and the prompt share what the rest leaves.
    let wide = env.cmd().env("COLUMNS", "170").args(["ls"]).output().unwrap();
    insta::assert_snapshot!(render(&env, &wide), @"
    LAST ACTIVITY              ENTRIES  SESSION  NAME            CWD          FILE
    2026-01-05 00:00:05 +0000  2        pi-1     Pi session      ~/proj/      ~/.pi/agent/sessions/$PI_DIR/2026-01-05T00-00-00-000Z_pi-1.jsonl
    2026-01-03 00:00:00 +0000  1        omp-2                    ~/elsewhere  ~/.omp/agent/sessions/-proj/2026-01-03T00-00-00-000Z_omp-2.jsonl
    2026-01-02 00:00:01 +0000  2        omp-3    Renamed         ~/other      ~/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3.jsonl
    2026-01-01 00:10:00 +0000  2        omp-1    Fix the parser  ~/proj       ~/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl
    2025-12-29 09:20:00 +0000  0        pi-2                     /x           ~/.pi/agent/sessions/--x--/fresh.jsonl
    ");
    let coloured = run(&env, &["ls", "--color", "always", "home/.omp/agent/sessions/-other"]);
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    let plain = env
        .cmd()
        .env("NO_COLOR", "1")
        .args(["ls", "home/.omp/agent/sessions/-other"])
        .output()
        .unwrap();
    assert!(!render(&env, &plain).contains('\u{1b}'));
}

#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn control_characters_are_escaped() {
    let env = TestEnv::new();
    put(
        &env,
        "d/s.jsonl",
        &[
            header("evil", "/w", r#","title":"bad\u001b[31mred""#),
            user("e1", None, "2026-01-01T00:00:00.000Z", "ring\u{7}"),
        ],
    );
    insta::assert_snapshot!(run(&env, &["ls", "d"]), @r#"
    LAST ACTIVITY              ENTRIES  SESSION  NAME            CWD  FIRST PROMPT  FILE
    2026-01-01 00:00:00 +0000  1        evil     bad\x1b[31mred  /w   ring\x07      d/s.jsonl
    "#);
}

/// Without DIR, `ls` lists the roots the agents' variables name: here pi's session directory,
/// whose files sit in it directly.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn the_agents_variables_move_the_listed_roots() {
    let env = TestEnv::new();
    let flat = env.path().join("pi-sessions");
    std::fs::create_dir_all(&flat).unwrap();
    std::fs::copy(crate::common::fixtures().join("pi.jsonl"), flat.join("a.jsonl")).unwrap();
    let output = env
        .cmd()
        .env("PI_CODING_AGENT_SESSION_DIR", &flat)
        .args(["--json", "ls"])
        .output()
        .unwrap();
    let text = env.render(&output);
    assert!(text.contains(r#""path":"$TMP/pi-sessions/a.jsonl""#), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
}

/// `-0` prints only the paths, each ended by a NUL byte, for `xargs -0`; a path is never cut,
/// on a terminal or in a pipe.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn null_ended_paths_for_xargs() {
    let env = TestEnv::new();
    home(&env);
    let out = env.cmd().args(["ls", "-0"]).output().unwrap();
    let text = render(&env, &out).replace('\0', "<NUL>\n");
    insta::assert_snapshot!(text, @"
    $TMP/home/.pi/agent/sessions/$PI_DIR/2026-01-05T00-00-00-000Z_pi-1.jsonl<NUL>
    $TMP/home/.omp/agent/sessions/-proj/2026-01-03T00-00-00-000Z_omp-2.jsonl<NUL>
    $TMP/home/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3.jsonl<NUL>
    $TMP/home/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl<NUL>
    $TMP/home/.pi/agent/sessions/--x--/fresh.jsonl<NUL>
    ");
    rows_fit_and_piped_paths_are_whole(&env);
    insta::assert_snapshot!(run(&env, &["ls", "-0", "--json"]), @"
    ------- stderr -------
    error: the argument '--null' cannot be used with '--json'

    Usage: sesstree ls --null [DIR]...

    For more information, try '--help'.
    [exit status: 2]
    ");
}

/// On a terminal every row fits its width (a row that wrapped took two lines or more, issue
/// 44): a path too long for what is left is cut at the end with a `…`. In a pipe (no
/// `COLUMNS`) the FILE column holds whole paths.
fn rows_fit_and_piped_paths_are_whole(env: &TestEnv) {
    for columns in [60, 100, 200] {
        let out = env.cmd().env("COLUMNS", columns.to_string()).args(["ls"]).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        for line in text.lines() {
            assert!(line.chars().count() <= columns, "{columns}: {line}");
            let path = line.split_whitespace().last().unwrap();
            assert!(path == "FILE" || path.ends_with(".jsonl") || path.ends_with('…'), "{line}");
        }
    }
    let out = env.cmd().args(["ls"]).output().unwrap();
    for line in String::from_utf8(out.stdout).unwrap().lines().skip(1) {
        assert!(line.split_whitespace().last().unwrap().ends_with(".jsonl"), "{line}");
    }
}

/// Issue 44: `ls` marks the current session, the one a command without -f works on (the
/// newest by modification time of the directory's, as pi 1.6.0's `findMostRecentSession`
/// picks it), which need not be the first row (ordered by last activity): `*` before its row,
/// `"current": true` in --json.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn the_current_session_is_marked() {
    let env = TestEnv::new();
    let home = home(&env);
    let pi =
        format!("{home}/.pi/agent/sessions/{}/2026-01-05T00-00-00-000Z_pi-1.jsonl", pi_dir(&env));
    let omp = format!("{home}/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl");
    let other = format!("{home}/.omp/agent/sessions/-proj/2026-01-03T00-00-00-000Z_omp-2.jsonl");
    for (path, secs) in [(&other, 0), (&pi, 1_000), (&omp, 2_000)] {
        let when = UNIX_EPOCH + Duration::from_secs(1_767_000_000 + secs);
        std::fs::File::options().write(true).open(path).unwrap().set_modified(when).unwrap();
    }
    let proj = Path::new(&home).join("proj/src");
    std::fs::create_dir_all(&proj).unwrap();
    let ls =
        |args: &[&str]| render(&env, &env.cmd().current_dir(&proj).args(args).output().unwrap());
    insta::assert_snapshot!(ls(&["ls", "--cwd", ".."]), @"
      LAST ACTIVITY              ENTRIES  SESSION  NAME            CWD      FIRST PROMPT               FILE
      2026-01-05 00:00:05 +0000  2        pi-1     Pi session      ~/proj/  pi asks                    ~/.pi/agent/sessions/$PI_DIR/2026-01-05T00-00-00-000Z_pi-1.jsonl
    * 2026-01-01 00:10:00 +0000  2        omp-1    Fix the parser  ~/proj   The parser chokes on tabs  ~/.omp/agent/sessions/-proj/2026-01-01T00-00-00-000Z_omp-1.jsonl
    ");
    let marks: Vec<String> = ls(&["ls", "--json"])
        .lines()
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).unwrap();
            format!("{} {}", row["sessionId"], row["current"])
        })
        .collect();
    insta::assert_snapshot!(marks.join("\n"), @r#"
    "pi-1" false
    "omp-2" false
    "omp-3" false
    "omp-1" true
    "pi-2" false
    "#);
    // Not marked: no session of the directory or its parents.
    insta::assert_snapshot!(run(&env, &["ls", "--cwd", "home/other"]), @"
    LAST ACTIVITY              ENTRIES  SESSION  NAME     CWD      FIRST PROMPT      FILE
    2026-01-02 00:00:01 +0000  2        omp-3    Renamed  ~/other  hello from other  ~/.omp/agent/sessions/-other/2026-01-02T00-00-00-000Z_omp-3.jsonl
    ");
}

/// `ls --tree`: forks under the session they came from, by the path (pi, `sesstree fork`) or
/// the session id (oh-my-pi 18.2.3's `fork()`) in `parentSession`; oh-my-pi 18.2.3's subagent
/// transcripts (`<session>/<agent>.jsonl`) under their session, with or without a
/// `parentSession`; a parent that is not listed leaves a session at the top.
#[test]
#[cfg_attr(windows, ignore = "headers name their parents by Unix paths")]
fn tree_of_forks_and_subagents() {
    let env = TestEnv::new();
    let dir = env.path().display().to_string();
    let line = |id: &str, time: &str| user(id, None, time, "Go");
    put(
        &env,
        "s/root.jsonl",
        &[header("root-id", "/p", ""), line("a1", "2026-01-01T00:00:01.000Z")],
    );
    let by_path = format!(r#","parentSession":"{dir}/s/root.jsonl""#);
    put(
        &env,
        "s/fork.jsonl",
        &[header("fork-id", "/p", &by_path), line("a1", "2026-01-01T00:00:03.000Z")],
    );
    let by_id = r#","parentSession":"fork-id""#;
    put(
        &env,
        "s/omp-fork.jsonl",
        &[header("omp-fork-id", "/p", by_id), line("a1", "2026-01-01T00:00:04.000Z")],
    );
    put(
        &env,
        "s/root/AgentA.jsonl",
        &[header("sub-a", "/p", &by_path), line("b1", "2026-01-01T00:00:02.000Z")],
    );
    put(
        &env,
        "s/root/AgentA/Nested.jsonl",
        &[header("sub-n", "/p", ""), line("b2", "2026-01-01T00:00:02.500Z")],
    );
    let gone = r#","parentSession":"/nowhere/gone.jsonl""#;
    put(
        &env,
        "s/orphan.jsonl",
        &[header("orphan-id", "/p", gone), line("c1", "2026-01-01T00:00:05.000Z")],
    );
    insta::assert_snapshot!(run(&env, &["ls", "--tree", "s"]), @"
    s/orphan.jsonl  1 entry  2026-01-01 00:00:05 +0000
    s/root.jsonl  1 entry  2026-01-01 00:00:01 +0000
    ├─ s/fork.jsonl  1 entry  2026-01-01 00:00:03 +0000
    │  └─ s/omp-fork.jsonl  1 entry  2026-01-01 00:00:04 +0000
    └─ s/root/AgentA.jsonl  1 entry  2026-01-01 00:00:02 +0000
       └─ s/root/AgentA/Nested.jsonl  1 entry  2026-01-01 00:00:02 +0000
    ");
    insta::assert_snapshot!(run(&env, &["ls", "--tree", "--json", "s"]), @r#"
    {"path":"s/orphan.jsonl","sessionId":"orphan-id","name":null,"cwd":"/p","entries":1,"lastActivity":"2026-01-01T00:00:05.000Z","firstPrompt":"Go","laneFormat":false,"current":false,"parent":null}
    {"path":"s/root.jsonl","sessionId":"root-id","name":null,"cwd":"/p","entries":1,"lastActivity":"2026-01-01T00:00:01.000Z","firstPrompt":"Go","laneFormat":false,"current":false,"parent":null}
    {"path":"s/fork.jsonl","sessionId":"fork-id","name":null,"cwd":"/p","entries":1,"lastActivity":"2026-01-01T00:00:03.000Z","firstPrompt":"Go","laneFormat":false,"current":false,"parent":"s/root.jsonl"}
    {"path":"s/omp-fork.jsonl","sessionId":"omp-fork-id","name":null,"cwd":"/p","entries":1,"lastActivity":"2026-01-01T00:00:04.000Z","firstPrompt":"Go","laneFormat":false,"current":false,"parent":"s/fork.jsonl"}
    {"path":"s/root/AgentA.jsonl","sessionId":"sub-a","name":null,"cwd":"/p","entries":1,"lastActivity":"2026-01-01T00:00:02.000Z","firstPrompt":"Go","laneFormat":false,"current":false,"parent":"s/root.jsonl"}
    {"path":"s/root/AgentA/Nested.jsonl","sessionId":"sub-n","name":null,"cwd":"/p","entries":1,"lastActivity":"2026-01-01T00:00:02.500Z","firstPrompt":"Go","laneFormat":false,"current":false,"parent":"s/root/AgentA.jsonl"}
    "#);
    // A plain listing leaves the subagents out, as before.
    insta::assert_snapshot!(run(&env, &["ls", "-0", "s"]).replace('\0', "\n"), @"
    s/orphan.jsonl
    s/omp-fork.jsonl
    s/fork.jsonl
    s/root.jsonl
    ");
}

/// Two sessions naming each other are both drawn, once.
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn tree_with_a_parent_cycle() {
    let env = TestEnv::new();
    let line = |time: &str| user("a1", None, time, "Go");
    put(
        &env,
        "s/x.jsonl",
        &[header("x-id", "/p", r#","parentSession":"y-id""#), line("2026-01-01T00:00:01.000Z")],
    );
    put(
        &env,
        "s/y.jsonl",
        &[header("y-id", "/p", r#","parentSession":"x-id""#), line("2026-01-01T00:00:02.000Z")],
    );
    insta::assert_snapshot!(run(&env, &["ls", "--tree", "s"]), @"
    s/y.jsonl  1 entry  2026-01-01 00:00:02 +0000
    └─ s/x.jsonl  1 entry  2026-01-01 00:00:01 +0000
    ");
}
