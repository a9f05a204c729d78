//! `sesstree export`: the Markdown export as transcripts, where the output goes, refusals and
//! errors, and a hostile transcript that must not get anything to run in the HTML page.
//! (The page in a real browser: tests/browser.)

use insta::assert_snapshot;

use crate::common::{TestEnv, demo};

/// A session with a branch summary whose text has headings of its own, as the agents write
/// them (`## Goal`), and HTML.
const SUMMARY: &str = concat!(
    r###"{"type":"session","version":3,"id":"019cadfd-0000-7000-8000-000000000001","timestamp":"2026-03-02T10:00:00.000Z","cwd":"/home/ann/w"}"###,
    "\n",
    r###"{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z","message":{"role":"user","content":"# Plan\nDo it.\nTitle\n===\n</details><b>x</b>","timestamp":1}}"###,
    "\n",
    r###"{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-03-02T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Running it."},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"echo ```"}}],"model":"m1"}}"###,
    "\n",
    r###"{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-03-02T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"```\n</details>"}],"isError":false}}"###,
    "\n",
    r###"{"type":"branch_summary","id":"a0000004","parentId":"a0000001","timestamp":"2026-03-02T10:00:04.000Z","fromId":"a0000003","summary":"## Goal\nShip it.\n\n## Outcome\nAbandoned.\n```\nunclosed"}"###,
    "\n",
    r###"{"type":"label","id":"a0000005","parentId":"a0000004","timestamp":"2026-03-02T10:00:05.000Z","targetId":"a0000001","label":"start"}"###,
    "\n",
);

#[test]
fn markdown_of_a_tree_nests_branches_after_their_branch_point() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "export", "--format", "markdown", "-o", "-"]), @r#"
        # Session 019cadfd-8900-75e2-a7f1-c0b8d3e4f6a9

        - Session: `019cadfd-8900-75e2-a7f1-c0b8d3e4f6a9`
        - Directory: `/home/u/strings`
        - Started: 2026-03-02 10:00:00
        - 11 entries, 3 branches off the active path; leaf `f4b5c6d7`

        ## Active path

        **user** · `a0c1e2f3` · 2026-03-02 10:00:00

        Write a Rust function that reverses a string.

        **assistant · claude-sonnet-4-5** · `b1a2c3d4` · 2026-03-02 10:00:05

        ```rust
        fn reverse(s: &str) -> String {
            s.chars().rev().collect()
        }
        ```

        ### Branch of 2 entries from `b1a2c3d4`

        **user** · `d3e4f5a6` · 2026-03-02 10:01:00

        The input is ASCII only; reverse the bytes instead.

        **assistant · claude-sonnet-4-5** · `d4f5a6b7` · 2026-03-02 10:01:04

        ```rust
        fn reverse(s: &str) -> String {
            let mut b = s.as_bytes().to_vec();
            b.reverse();
            String::from_utf8(b).expect("ASCII input")
        }
        ```

        ### Branch of 2 entries from `b1a2c3d4`

        **user** · `e5f6a7b8` · 2026-03-02 10:03:00

        Add a unit test for it.

        **assistant · claude-sonnet-4-5** · `b1a2f0e9` · 2026-03-02 10:03:06

        ```rust
        #[test]
        fn reverses() {
            assert_eq!(reverse("abc"), "cba");
        }
        ```

        ### Active path, continued after `b1a2c3d4`

        **user** · `c7d0e1f2` · 2026-03-02 10:02:00

        Make it handle grapheme clusters.

        **assistant · claude-sonnet-4-5** · `c8e9f0a1` · 2026-03-02 10:02:08

        Use the `unicode-segmentation` crate:

        ```rust
        use unicode_segmentation::UnicodeSegmentation;

        fn reverse(s: &str) -> String {
            s.graphemes(true).rev().collect()
        }
        ```

        ### Branch of 1 entry from `c8e9f0a1`

        **user** · `f1e2d3c4` · 2026-03-02 10:04:00

        Without adding a dependency, please.

        ### Active path, continued after `c8e9f0a1`

        **user** · `f3a4b5c6` · 2026-03-02 10:03:30

        Add it to Cargo.toml for me.

        **assistant · claude-sonnet-4-5** · `f4b5c6d7` · 2026-03-02 10:03:41 · **← active**

        Added `unicode-segmentation = "1.12"` under `[dependencies]`.
        "#);
}

#[test]
fn markdown_headings_are_only_the_document_s() {
    let env = TestEnv::new();
    env.write("s.jsonl", SUMMARY);
    let out = env.run(&["-f", "s.jsonl", "export", "--format", "markdown", "-o", "-"]);
    assert_snapshot!(out, @r#"
        # Session 019cadfd-0000-7000-8000-000000000001

        - Session: `019cadfd-0000-7000-8000-000000000001`
        - Directory: `/home/ann/w`
        - Started: 2026-03-02 10:00:00
        - 5 entries, 2 branches off the active path; leaf `a0000004`

        ## Active path

        **user** · `a0000001` · 2026-03-02 10:00:01 · label `start`

        \# Plan
        Do it.
        Title
        \===
        &lt;/details>&lt;b>x&lt;/b>

        ### Branch of 2 entries from `a0000001`

        **assistant · m1** · `a0000002` · 2026-03-02 10:00:02

        <details><summary>Thinking · 1 line</summary>

        hmm

        </details>

        Running it.

        <details><summary>Tool call: bash echo ```</summary>

        ````json
        {
          "command": "echo ```"
        }
        ````

        </details>

        **result of bash** · `a0000003` · 2026-03-02 10:00:03

        <details><summary>bash: echo ``` · 2 lines</summary>

        ````
        ```
        </details>
        ````

        </details>

        ### Active path, continued after `a0000001`

        **branch summary** · `a0000004` · 2026-03-02 10:00:04 · **← active**

        > What was tried on the branch left at `a0000003`:
        >
        > \## Goal
        > Ship it.
        >
        > \## Outcome
        > Abandoned.
        > ```
        > unclosed
        > ```

        ### Branch of 1 entry from `a0000004`

        **label** · `a0000005` · 2026-03-02 10:00:05

        *\[label: start\]*
        "#);
    let headings: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        headings,
        [
            "# Session 019cadfd-0000-7000-8000-000000000001",
            "## Active path",
            "### Branch of 2 entries from `a0000001`",
            "### Active path, continued after `a0000001`",
            "### Branch of 1 entry from `a0000004`",
        ]
    );
}

#[test]
fn active_only_leaves_the_other_branches_out() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    let out = env.run(&[
        "-f",
        "branched.jsonl",
        "export",
        "--active-only",
        "-o",
        "-",
        "--format",
        "markdown",
    ]);
    assert!(!out.contains("Branch of") && !out.contains("continued"), "{out}");
    assert!(out.contains("Add it to Cargo.toml for me."), "{out}");
    assert!(!out.contains("Add a unit test") && !out.contains("reverse the bytes"), "{out}");
    // Nor does the page's sidebar list them.
    let html = env.run(&["-f", "branched.jsonl", "export", "--active-only"]);
    assert!(html.contains("href=\"#f4b5c6d7\"") && !html.contains("d3e4f5a6"), "{html}");
}

#[test]
fn rev_chooses_the_leaf() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    let out = env.run(&[
        "-f",
        "branched.jsonl",
        "export",
        "d4f5a6b7",
        "--active-only",
        "--format",
        "markdown",
    ]);
    assert!(out.contains("reverse the bytes instead"), "{out}");
    assert!(out.contains("`d4f5a6b7` · 2026-03-02 10:01:04 · **← active**"), "{out}");
    assert!(!out.contains("Add a unit test"), "{out}");
    // And FILE:REV, as grep prints it.
    let out =
        env.run(&["export", "branched.jsonl:d4f5a6b7", "--active-only", "--format", "markdown"]);
    assert!(out.contains("**← active**") && out.contains("reverse the bytes"), "{out}");
}

#[test]
fn where_the_export_goes() {
    let env = TestEnv::new();
    std::fs::copy(demo(), env.path().join("demo.jsonl")).unwrap();
    // Not a terminal: standard output.
    let out = env.cmd().args(["-f", "demo.jsonl", "export"]).output().unwrap();
    assert!(out.status.success());
    assert!(out.stdout.starts_with(b"<!DOCTYPE html>"));
    assert!(!env.path().join("demo.html").exists());
    // -o FILE: the file, and its path printed; .md means Markdown.
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "export", "-o", "out.md"]), @"out.md");
    assert!(env.read("out.md").starts_with(b"# Add --json flag to tally\n"));
    // An existing file is refused, and left as it was.
    env.write("taken.html", "mine");
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "export", "-o", "taken.html"]), @"
        ------- stderr -------
        error: taken.html: already exists; pass --force to overwrite it, or -o another file
        [exit status: 5]
        ");
    assert_eq!(env.read("taken.html"), b"mine");
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "export", "-o", "taken.html", "--force"]), @"taken.html");
    assert!(env.read("taken.html").starts_with(b"<!DOCTYPE html>"));
    // Never over the session itself, never into a directory.
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "export", "-o", "demo.jsonl", "--force"]), @"
        ------- stderr -------
        error: demo.jsonl: -o names the session file itself; give another file
        [exit status: 2]
        ");
    std::fs::create_dir(env.path().join("d")).unwrap();
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "export", "-o", "d", "--force"]), @"
        ------- stderr -------
        error: d: is a directory
        [exit status: 2]
        ");
}

/// On a terminal, without -o, the page is written to `<session>.html` and its path printed.
#[test]
#[cfg_attr(windows, ignore = "runs script, which Windows lacks")]
fn on_a_terminal_the_page_is_a_file() {
    let env = TestEnv::new();
    std::fs::copy(demo(), env.path().join("demo.jsonl")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("sesstree");
    let run = |extra: &str| {
        let command = format!("{} -f demo.jsonl export {extra}", bin.display());
        let mut script = std::process::Command::new("script");
        script.args(["-qec", &command, "/dev/null"]);
        let out = env.pinned(assert_cmd::Command::from_std(script)).output().expect("script");
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
    };
    assert_eq!(run(""), "demo.html\n");
    assert!(env.read("demo.html").starts_with(b"<!DOCTYPE html>"));
    assert_eq!(run("--format markdown"), "demo.md\n");
    assert!(run("").contains("demo.html: already exists; pass --force to overwrite it"));
    assert_eq!(run("--force"), "demo.html\n");
}

#[test]
#[cfg_attr(windows, ignore = "snapshots Unix error texts")]
fn errors_say_what_to_do() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "export", "nope"]), @"
        ------- stderr -------
        error: no entry matches 'nope'
        [exit status: 4]
        ");
    assert_snapshot!(env.run(&["-f", "missing.jsonl", "export"]), @"
        ------- stderr -------
        error: missing.jsonl: No such file or directory (os error 2)
        [exit status: 1]
        ");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "--json", "export"]), @"
        ------- stderr -------
        error: export writes HTML or Markdown; it has no --json
        [exit status: 2]
        ");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "export", "--format", "pdf"]), @"
        ------- stderr -------
        error: invalid value 'pdf' for '--format <FORMAT>'
          [possible values: html, markdown]

        For more information, try '--help'.
        [exit status: 2]
        ");
    env.write("empty.jsonl", "");
    assert_snapshot!(env.run(&["-f", "empty.jsonl", "export", "--format", "markdown"]), @"
        # Session

        - 0 entries, 0 branches off the active path

        ## Active path

        This session has no entries.
        ");
}

#[test]
fn redact_takes_out_keys_and_the_home_directory() {
    let env = TestEnv::new();
    let home = env.path().join("home").display().to_string();
    let session = format!(
        "{}\n{}\n",
        r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T10:00:00.000Z","cwd":"/w"}"#,
        serde_json::json!({"type":"message","id":"m1","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z",
            "message":{"role":"user","content":format!("key sk-ant-api03-abcdefghijklmnopqrstuvwxyz in {home}/src")}})
    );
    env.write("s.jsonl", session);
    for format in ["markdown", "html"] {
        let plain = env.run(&["-f", "s.jsonl", "export", "--format", format]);
        assert!(plain.contains("sk-ant-api03-abcdefghijklmnopqrstuvwxyz"), "{plain}");
        let out = env.run(&["-f", "s.jsonl", "export", "--format", format, "--redact"]);
        assert!(out.contains("key [REDACTED] in ~/src"), "{out}");
        assert!(!out.contains("sk-ant") && !out.contains("/home/src"), "{out}");
    }
}

/// The block of facts the page compares two branches by (`diff --stat` in the browser): per
/// sidebar row, in its order, the parent row back (`p`), the flags (`f`: prompt 1, turn 2,
/// errors 4), the time (`t`), tokens (`k`) and cost (`c`); the tool calls, files and commands
/// of the entries that have any (`x`), as indexes into the strings (`s`). The browser test
/// checks that the page's sums are `diff`'s.
#[test]
fn the_page_carries_what_diff_sums_per_entry() {
    let env = TestEnv::new();
    env.fixture("diff.jsonl");
    let html = env.run(&["-f", "diff.jsonl", "export", "-o", "-"]);
    let facts =
        regex::Regex::new(r#"<script type="application/json" id="facts">(.*)</script>"#).unwrap();
    let block = &facts.captures(&html).expect("the facts block")[1];
    // A line per member.
    let block = ["s", "p", "f", "t", "k", "c", "x"].iter().fold(block.to_owned(), |b, key| {
        b.replace(&format!(",\"{key}\":"), &format!(",\n\"{key}\":"))
    });
    assert_snapshot!(block, @r#"
    {"t0":1773133204000,
    "s":["bash","cargo insta test","cargo test","edit","git commit -am 'cli: add --verbose'","read","src/main.rs","tests/cli.rs","tests/verbose.rs","write"],
    "p":[0,1,1,1,1,1,1,1,1,1,1,1,10,1,1,1,1,1],
    "f":[1,2,0,1,2,0,0,0,1,2,0,2,1,2,0,4,2,0],
    "t":[0,4000,8000,36000,40000,44000,48000,52000,56000,60000,64000,68000,12000,16000,20000,24000,28000,32000],
    "k":[0,1240,0,0,1720,0,0,0,0,930,0,962,0,1580,0,0,1730,0],
    "c":[0,0.004,0,0,0.007,0,0,0,0,0.003,0,0.002,0,0.006,0,0,0.005,0],
    "x":[[1,[5],[6]],[4,[0,9],[],[8],[1]],[9,[0],[],[],[4]],[13,[0,3],[],[7],[2]]]}
    "#);
}

/// With --redact, the files and commands the page compares are redacted too.
#[test]
fn redact_takes_keys_out_of_the_compared_files_and_commands() {
    let env = TestEnv::new();
    let home = env.path().join("home").display().to_string();
    let call = serde_json::json!({"type":"message","id":"m2","parentId":"m1","timestamp":"2026-03-02T10:00:02.000Z",
        "message":{"role":"assistant","content":[
            {"type":"toolCall","id":"c1","name":"read","arguments":{"path":format!("{home}/src/a.rs")}},
            {"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"curl -H 'x-api-key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz'"}}]}});
    let session = format!(
        "{}\n{}\n{call}\n",
        r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T10:00:00.000Z","cwd":"/w"}"#,
        r#"{"type":"message","id":"m1","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z","message":{"role":"user","content":"go"}}"#,
    );
    env.write("s.jsonl", session);
    let html = env.run(&["-f", "s.jsonl", "export", "--redact", "-o", "-"]);
    let facts = html.split("id=\"facts\">").nth(1).and_then(|f| f.split("</script>").next());
    let facts = facts.expect("the facts block");
    assert!(facts.contains(r#""~/src/a.rs""#), "{facts}");
    assert!(facts.contains("x-api-key: [REDACTED]"), "{facts}");
    assert!(!html.contains("sk-ant") && !html.contains("/home/src"), "{html}");
}

/// A key that straddles the point where a gist, a title or a sidebar row is cut is redacted
/// whole, before the cut: no part of it is left.
#[test]
fn redact_comes_before_any_cut() {
    let env = TestEnv::new();
    let key = "AKIAABCDEFGHIJKLMNOP";
    let command = format!("{} {key}", "x".repeat(90));
    let lines = [
        r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T10:00:00.000Z","cwd":"/w"}"#.to_string(),
        serde_json::json!({"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z",
            "message":{"role":"user","content":format!("{} {key}", "y".repeat(150))}}).to_string(),
        serde_json::json!({"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-02T10:00:02.000Z",
            "message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":command}}]}}).to_string(),
    ];
    env.write("s.jsonl", lines.join("\n") + "\n");
    for format in ["markdown", "html"] {
        let plain = env.run(&["-f", "s.jsonl", "export", "--format", format]);
        assert!(plain.contains("AKIAABCD"), "{plain}");
        let out = env.run(&["-f", "s.jsonl", "export", "--format", format, "--redact"]);
        assert!(!out.contains("AKIAAB"), "{format}: {out}");
    }
}

#[test]
fn images_come_from_the_message_or_the_blob_store() {
    let env = TestEnv::new();
    let hex = "ab".repeat(32);
    let blobs = env.path().join("home/.omp/agent/blobs");
    std::fs::create_dir_all(&blobs).unwrap();
    std::fs::write(blobs.join(&hex), b"\x89PNG\r\n").unwrap();
    let session = format!(
        "{}\n{}\n",
        r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T10:00:00.000Z","cwd":"/w"}"#,
        serde_json::json!({"type":"message","id":"m1","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z",
            "message":{"role":"user","content":[
                {"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="},
                {"type":"image","mimeType":"image/png","data":format!("blob:sha256:{hex}")},
                {"type":"image","mimeType":"image/png","data":format!("blob:sha256:{}", "cd".repeat(32))},
                {"type":"image","mimeType":"image/svg+xml","data":"PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+"}]}})
    );
    env.write("s.jsonl", session);
    let html = env.run(&["-f", "s.jsonl", "export"]);
    assert!(html.contains(r#"src="data:image/png;base64,iVBORw0KGgo=">"#), "{html}");
    assert!(html.contains(r#"src="data:image/png;base64,iVBORw0K">"#), "{html}");
    assert!(html.contains("[image: image/png — not in the blob store]"), "{html}");
    assert!(
        html.contains("[image: image/svg+xml, 36 B — not a raster image type; not shown]"),
        "{html}"
    );
    let md = env.run(&["-f", "s.jsonl", "export", "--format", "markdown"]);
    assert!(md.contains("*\\[image: image/png, 6 B\\]*"), "{md}");
}

/// A transcript that tries everything: nothing of it may run, link, load or close the
/// page's own elements.
#[test]
fn a_hostile_transcript_gets_nothing_to_run() {
    let env = TestEnv::new();
    let evil = "<script>alert(1)</script></textarea></template></details><img src=x onerror=alert(1)> \
                <a href=\"javascript:alert(1)\">x</a> [y](javascript:alert(2)) \u{1b}[31m\u{0}\u{7}\u{85}";
    let big = format!("{}{evil}", "x".repeat(10 << 20));
    let entry = |id: &str, parent: Option<&str>, message: serde_json::Value| {
        serde_json::json!({"type":"message","id":id,"parentId":parent,"timestamp":"2026-03-02T10:00:01.000Z","message":message}).to_string()
    };
    let lines = [
        serde_json::json!({"type":"session","version":3,"id":"s1\"><script>alert(3)</script>","timestamp":"2026-03-02T10:00:00.000Z","cwd":evil,"title":evil}).to_string(),
        entry("m1\" onmouseover=\"alert(4)", None, serde_json::json!({"role":"user","content":evil})),
        entry("m2", Some("m1\" onmouseover=\"alert(4)"), serde_json::json!({"role":"assistant","model":evil,"content":[
            {"type":"text","text":evil},{"type":"thinking","thinking":evil},
            {"type":"toolCall","id":"c1","name":evil,"arguments":{"command":evil}},
            {"type":"toolCall","id":"c2","name":"read","arguments":{"path":evil}},
            {"type":"toolCall","id":"c3","name":"bash","arguments":{"command":evil}},
            {"type":"image","mimeType":"image/svg+xml","data":"PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"},
            {"type":"image","mimeType":"image/png\" onerror=\"alert(5)","data":"iVBORw0KGgo="},
            {"type":"image","mimeType":"image/png","data":"javascript:alert(6)"},
            {"type":evil}]})),
        entry("m3", Some("m2"), serde_json::json!({"role":"toolResult","toolCallId":"c1","toolName":evil,"content":[{"type":"text","text":big}]})),
        entry("m4", Some("m1\" onmouseover=\"alert(4)"), serde_json::json!({"role":"user","content":evil})),
        serde_json::json!({"type":"label","id":"l1","parentId":"m3","timestamp":"2026-03-02T10:00:02.000Z","targetId":"m2","label":evil}).to_string(),
        serde_json::json!({"type":"custom_message","id":"c9","parentId":"l1","timestamp":"2026-03-02T10:00:03.000Z","customType":evil,"content":evil,"display":true}).to_string(),
        serde_json::json!({"type":"branch_summary","id":"b1","parentId":"c9","timestamp":"2026-03-02T10:00:04.000Z","fromId":evil,"summary":evil}).to_string(),
    ];
    env.write("evil.jsonl", lines.join("\n") + "\n");
    let started = std::time::Instant::now();
    let out = env.cmd().args(["-f", "evil.jsonl", "export", "-o", "-"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(html.len() > 10 << 20);
    // The page's three scripts (the branch list, the facts it compares branches by, and its
    // own) and no other.
    assert_eq!(html.matches("<script").count(), 3);
    assert_eq!(html.matches("<script>").count(), 1);
    assert_eq!(html.matches("<style>").count(), 1);
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;/textarea&gt;&lt;/template&gt;")
    );
    // No element of the transcript's: every tag is the page's own, none with an event handler,
    // every link within the page, every image a raster data URL.
    let tags = regex::Regex::new(r"<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>").unwrap();
    let allowed = [
        "html", "head", "meta", "title", "style", "body", "header", "h1", "p", "span", "code", "a",
        "div", "nav", "input", "main", "article", "time", "details", "summary", "template", "pre",
        "b", "img", "script", "button", "section",
    ];
    let values = regex::Regex::new(r#"="[^"]*""#).unwrap();
    let pairs = regex::Regex::new(r#"\s([a-z-]+)="([^"]*)""#).unwrap();
    for t in tags.captures_iter(&html) {
        let (name, attrs) = (&t[1], &t[2]);
        assert!(allowed.contains(&name), "<{name}{attrs}>");
        // The attribute names, once the (quoted, escaped) values are taken out.
        let names = values.replace_all(attrs, "");
        for attr in names.split_whitespace() {
            assert!(
                [
                    "lang",
                    "charset",
                    "http-equiv",
                    "content",
                    "name",
                    "class",
                    "id",
                    "href",
                    "data-b",
                    "data-c",
                    "data-n",
                    "data-m",
                    "role",
                    "type",
                    "placeholder",
                    "autocomplete",
                    "spellcheck",
                    "aria-label",
                    "aria-controls",
                    "aria-pressed",
                    "hidden",
                    "title",
                    "alt",
                    "src",
                    "open"
                ]
                .contains(&attr),
                "<{name}{attrs}>: {attr}"
            );
        }
        for (attr, value) in
            pairs.captures_iter(attrs).map(|c| (c[1].to_string(), c[2].to_string()))
        {
            match attr.as_str() {
                "href" => assert!(value.starts_with('#'), "href={value}"),
                "src" => assert!(value.starts_with("data:image/png;base64,"), "src={value}"),
                _ => {
                    assert!(!value.to_ascii_lowercase().contains("javascript:") || attr == "title");
                }
            }
        }
    }
    assert_eq!(html.matches("<template>").count(), html.matches("</template>").count());
    assert_eq!(html.matches("<details").count(), html.matches("</details>").count());
    assert!(!html.contains("</textarea"));
    assert!(!html.bytes().any(|b| b < 0x20 && b != b'\n' && b != b'\t'), "a raw control character");
    assert!(!html.contains('\u{85}'));
    // The policy comes first in the head, before anything it governs.
    let csp = html.find("Content-Security-Policy").unwrap();
    assert!(csp < html.find("<style>").unwrap() && csp < html.find("<title>").unwrap());
    // Markdown: nothing of the transcript outside its text and fences.
    let md =
        env.cmd().args(["-f", "evil.jsonl", "export", "--format", "markdown"]).output().unwrap();
    assert!(md.status.success());
    let md = String::from_utf8(md.stdout).unwrap();
    // Outside the fences (where GitHub shows code as code), no raw HTML but the document's.
    let spans = regex::Regex::new(r"`[^`]*`").unwrap();
    let mut fenced = false;
    let (mut opened, mut closed) = (0, 0);
    for line in md.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans show their text as code, too.
        let line = spans.replace_all(line, "");
        assert!(
            !line.contains("<script") && !line.contains("<a ") && !line.contains("<img"),
            "{line}"
        );
        opened += usize::from(line.starts_with("<details><summary>"));
        closed += usize::from(line == "</details>");
    }
    assert!(!fenced, "a fence left open");
    assert_eq!(opened, closed);
    assert!(!md.bytes().any(|b| b < 0x20 && b != b'\n' && b != b'\t'));
}

/// A pi system message patches the prompt of the ones before it (CHANGES R1): the export shows
/// the prompt in effect at each one first (folded, as pi 1.6.0's `getCurrentSystemMessage`
/// gives it), then what a patch changes, in pi 1.6.0's own HTML export's words.
#[test]
fn a_pi_system_message_shows_the_prompt_in_effect_then_its_patch() {
    let env = TestEnv::new();
    let file = crate::common::fixtures().join("pi-1.6.0/pi-system-patches.jsonl");
    let file = file.to_str().unwrap();
    let md = env.run(&["-f", file, "export", "--format", "markdown", "--active-only"]);
    let start = md.find("**system prompt update: instructions, tools -read**").expect(&md);
    let end = md.find("**user** · `c1000010`").expect(&md);
    assert_snapshot!(md[start..end].to_string(), @r#"
    **system prompt update: instructions, tools -read** · `c1000009` · 2026-10-02 09:00:09

    <details><summary>system prompt · 9 lines</summary>

    ```
    You are pi.

    Also be kind.

    After the compaction.

    Be very brief.

    none
    ```

    </details>

    *tools: edit*

    After the compaction.
    "#);
    let html = env.run(&["-f", file, "export", "--format", "html"]);
    assert!(html.contains(r#"<article class="e system on" id="c1000001">"#), "{html}");
    assert!(html.contains(r#"<span class="who">system prompt</span>"#), "{html}");
}

/// With --redact, the prompt in effect, folded from other entries, is redacted too.
#[test]
fn redact_takes_keys_out_of_the_folded_prompt() {
    let env = TestEnv::new();
    let lines = [
        r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T10:00:00.000Z","cwd":"/w"}"#,
        r#"{"type":"message","id":"s1","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z","message":{"role":"system","content":"key sk-ant-api03-abcdefghijklmnopqrstuvwxyz","timestamp":1}}"#,
        r#"{"type":"message","id":"s2","parentId":"s1","timestamp":"2026-03-02T10:00:02.000Z","message":{"role":"system","content":"more","timestamp":2}}"#,
    ];
    env.write("s.jsonl", lines.join("\n") + "\n");
    for format in ["markdown", "html"] {
        let out = env.run(&["-f", "s.jsonl", "export", "--format", format, "--redact"]);
        assert_eq!(out.matches("key [REDACTED]").count(), 2, "{out}");
        assert!(!out.contains("sk-ant"), "{out}");
    }
}
