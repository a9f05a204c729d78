//! `sesstree show`: one entry, readable, raw, JSON.

use insta::assert_snapshot;

use crate::common::TestEnv;

/// Like `git show`: a header (id, type, role, parent, time, label, model), then the text whole;
/// an assistant turn's calls with their arguments and results; a tool result with its call.
/// The same goes to a pipe as to a terminal.
#[test]
fn readable_as_git_show_is() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    env.fixture("labeled.jsonl");
    // A user message, then an assistant turn that only calls a tool.
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "show", "5f3a"]), @"
    entry 5f3a9c01 (message, user)
    Date:   2026-03-02 09:00:05 +0000

        List the files in src/
    ");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "show", "8b21"]), @r#"
    entry 8b21d4e7 (message, assistant)
    Parent: 5f3a9c01
    Date:   2026-03-02 09:00:09 +0000
    Model:  openai/gpt-5

    Tool call bash (call_Qm3xV8kPz1):
        {
          "command": "ls src"
        }
    Result:
        lib.rs
        main.rs
    "#);
    // A tool result, with the call it answers.
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "show", "@^"]), @r#"
    entry 0a4b7e2d (message, toolResult)
    Parent: f6c3d098
    Date:   2026-03-02 09:01:05 +0000

    Result of read (call_Tn7bW2cLs4), called with:
        {
          "path": "src/main.rs"
        }

        fn main() {
            let args: Vec<String> = std::env::args().skip(1).collect();
            proj::run(&args);
        }
    "#);
    // A label in effect.
    assert_snapshot!(env.run(&["-f", "labeled.jsonl", "show", "begin"]), @"
    entry 1b2c3d4e (message, user)
    Date:   2026-03-02 11:00:01 +0000
    Label:  begin

        Start a CHANGELOG.md for v0.4.
    ");
}

/// Entries that are not messages show their summary, or their fields.
#[test]
fn other_entries_show_their_fields() {
    let env = TestEnv::new();
    env.fixture("all-types.jsonl");
    assert_snapshot!(env.run(&["-f", "all-types.jsonl", "show", "cadbecfd"]), @r#"
    entry cadbecfd (future_thing)
    Parent: b9cadbec
    Date:   2026-03-10 09:12:00 +0000

        schema: 2
        payload: {"z":1,"a":[true,null,1.5e+3]}
        note: spaced, escaped café and / kept as written
    "#);
}

#[test]
fn raw_is_the_line() {
    let env = TestEnv::new();
    let path = env.fixture("linear.jsonl");
    let out = env.cmd().args(["-f", "linear.jsonl", "show", "--raw", "@"]).output().unwrap();
    let text = std::fs::read(path).unwrap();
    let last = text.split(|&b| b == b'\n').rfind(|l| !l.is_empty()).unwrap();
    assert_eq!(out.stdout, [last, b"\n"].concat());
}

#[test]
fn unknown_types_survive() {
    let env = TestEnv::new();
    env.fixture("all-types.jsonl");
    assert_snapshot!(env.run(&["-f", "all-types.jsonl", "--json", "show", "cadbecfd"]), @r#"{"schema":2,"type":"future_thing","id":"cadbecfd","parentId":"b9cadbec","timestamp":"2026-03-10T09:12:00.000Z","payload":{"z":1,"a":[true,null,1.5e+3]},"note":"spaced, escaped café and / kept as written"}"#);
}

/// `show` writes an entry as serde_json writes the value it parses, walking the line rather
/// than building the value: a key written twice keeps its first place with its last value,
/// escapes are decoded and written again, numbers stay as written (but for an exponent's `E`,
/// which serde_json writes `e`), and a marker object of serde_json's own (read as a number)
/// is still read as serde_json reads it.
#[test]
fn json_is_what_serde_json_writes_of_the_line() {
    let env = session(concat!(
        r#"{"type":"x","id":"a","parentId":null,"k":1,"n":[1.50,-0,1E+2],"k":{"t":"\u00e9\/\u0007"},"e":[],"o":{}}"#,
        "\n",
        r#"{"type":"x","id":"b","parentId":"a","m":{"$serde_json::private::Number":"12"}}"#,
        "\n",
    ));
    assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "show", "a"]), @r#"{"type":"x","id":"a","parentId":null,"k":{"t":"é/\u0007"},"n":[1.50,-0,1e+2],"e":[],"o":{}}"#);
    assert_snapshot!(env.run(&["-f", "s.jsonl", "show", "a"]), @r#"
    entry a (x)

        k: {"t":"é/\u0007"}
        n: [1.50,-0,1e+2]
        e: []
        o: {}
    "#);
    assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "show", "b"]), @r#"{"type":"x","id":"b","parentId":"a","m":12}"#);
}

/// A value that a later one with its key replaces is still read, as serde_json reads it: a
/// lone surrogate there fails `show` as it always did, though the value is not shown.
#[test]
fn a_replaced_value_that_does_not_decode_fails_show() {
    let env =
        session(concat!(r#"{"type":"x","id":"a","parentId":null,"k":"\ud800","k":1}"#, "\n",));
    assert_snapshot!(env.run(&["-f", "s.jsonl", "--json", "show", "a"]), @"
    ------- stderr -------
    error: s.jsonl:2: the line cannot be read in full: unexpected end of hex escape at line 1 column 49
    [exit status: 3]
    ");
}

/// A test folder with `s.jsonl`: a version-3 header, then `entries` (lines, each ending in a
/// newline).
fn session(entries: &str) -> TestEnv {
    let env = TestEnv::new();
    let header =
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#;
    env.write("s.jsonl", format!("{header}\n{entries}"));
    env
}

/// A REV that names nothing says what would: a prefix needs four characters, and an ancestor
/// count past the root says how long the path is.
#[test]
fn a_rev_that_names_nothing_says_why() {
    let env = crate::common::TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "show", "5c0"]), @"
    ------- stderr -------
    error: no entry matches '5c0': an id prefix needs at least 4 characters
    [exit status: 4]
    ");
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "show", "@~100"]), @"
    ------- stderr -------
    error: no entry matches '@~100': the path above @ holds 28 entries
    [exit status: 4]
    ");
    insta::assert_snapshot!(env.run(&["-f", "demo.jsonl", "show", "zzz"]), @"
    ------- stderr -------
    error: no entry matches 'zzz'
    [exit status: 4]
    ");
}

/// `show` names an oh-my-pi blob image by its type and its size in the blob store, as
/// `context` does (CHANGES O6), and reads no path that is not a digest.
#[test]
fn show_names_a_blob_image_by_its_size_in_the_store() {
    let env = crate::common::TestEnv::new();
    env.fixture("roles.jsonl");
    let image = |env: &crate::common::TestEnv| {
        let out = env.run(&["-f", "roles.jsonl", "show", "6c0d1e2f"]);
        out.lines().map(str::trim).find(|l| l.starts_with("[image")).unwrap().to_string()
    };
    assert_eq!(image(&env), "[image image/png, blob 9f2c4e1a not in the blob store]");
    let hex = "9f2c4e1a7b3d5f608c1e2a4b6d8f0a1c3e5b7d9f1a2c4e6b8d0f2a4c6e8b0d2f";
    std::fs::create_dir_all(env.path().join("home/.omp/agent/blobs")).unwrap();
    env.write(&format!("home/.omp/agent/blobs/{hex}"), vec![0u8; 1234]);
    assert_eq!(image(&env), "[image image/png, 1234 bytes, blob 9f2c4e1a]");
    let odd = String::from_utf8(env.read("roles.jsonl")).unwrap().replace(hex, "../x");
    env.write("roles.jsonl", odd);
    env.write("home/.omp/agent/x", "not an image");
    assert_eq!(image(&env), "[image image/png, blob ../x not in the blob store]");
}

/// pi 1.6.0's `nestedCalls` on a tool result: the calls the tool made itself (a codemode
/// script's), recorded without results and never sent to the model. Each is shown as a call
/// is: name, id, status, duration, its arguments (or their size where pi left them out), its
/// error; and whether pi's record is incomplete.
#[test]
fn a_tool_result_shows_the_calls_the_tool_made() {
    let env = TestEnv::new();
    env.fixture("pi-usage.jsonl");
    assert_snapshot!(env.run(&["-f", "pi-usage.jsonl", "show", "c3000004"]), @r#"
    entry c3000004 (message, toolResult)
    Parent: c3000003
    Date:   2026-10-01 10:00:04 +0000

    Result of codemode (call_1), called with:
        {
          "code": "const src = await tools.read({path: \"src/main.rs\"}); return src.match(/TODO/g).length;"
        }

        3

    Nested calls: 3 (incomplete record)

    Nested call read (n1), ok, 12 ms:
        {
          "path": "src/main.rs"
        }

    Nested call bash (n2), error, 850 ms:
        [arguments omitted, 40000 bytes]
    Error:
        exit status 1

    Nested call grep (n3), unfinished:
        {
          "pattern": "FIXME",
          "path": "src"
        }
    "#);
}
