//! `sesstree context`: the CLI around the context builder (its rules are unit-tested in the
//! library).

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn flavour_is_detected_and_reported() {
    let env = TestEnv::new();
    env.fixture("pi.jsonl");
    env.fixture("linear.jsonl");
    let pi = env.cmd().args(["-f", "pi.jsonl", "--json", "context"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&pi.stdout).unwrap();
    assert_eq!(v["flavor"], "pi");
    let omp = env.cmd().args(["-f", "linear.jsonl", "--json", "context"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&omp.stdout).unwrap();
    assert_eq!(v["flavor"], "omp");
    // A file with nothing but messages reads as omp's whatever its session id: pi's ids were
    // v4 UUIDs, but pi makes v7 ones now and takes any id the caller gives (CHANGES P1).
    env.write(
        "bare-pi.jsonl",
        concat!(
            r#"{"type":"session","version":3,"id":"4f8e2a10-9c1d-4e5b-8a7f-3b2c1d0e9f8a","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w"}"#,
            "\n",
            r#"{"type":"message","id":"1b2c3d4e","parentId":null,"timestamp":"2026-02-16T10:21:00.000Z","message":{"role":"user","content":"hi","timestamp":1}}"#,
            "\n",
        ),
    );
    let bare = env.cmd().args(["-f", "bare-pi.jsonl", "--json", "context"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&bare.stdout).unwrap();
    assert_eq!(v["flavor"], "omp");
    let forced = env
        .cmd()
        .args(["-f", "linear.jsonl", "--json", "context", "--flavor", "pi"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&forced.stdout).unwrap();
    assert_eq!(v["flavor"], "pi");
}

#[test]
fn compactions_and_reset() {
    let env = TestEnv::new();
    env.fixture("compactions.jsonl");
    assert_snapshot!(env.run(&["-f", "compactions.jsonl", "context"]), @"
    leaf: a64e18ba
    flavor: omp
    thinking level: off
    models: default=anthropic/claude-sonnet-4-5
    mode: none

    === 1. user (2026-03-06T09:30:00.000Z) ===
    Prior model work/tool state available.
    MUST build on prior work; NEVER duplicate prior work.

    <summary>
    MSRV is 1.89 (Cargo.toml and CI).
    </summary>

    === 2. user (2026-03-06T09:30:09.997Z) ===
    Continue: update the README badge too.
    ");
    assert_snapshot!(env.run(&["-f", "compactions.jsonl", "--json", "context", "--agent-messages"]), @r#"{"leafId":"a64e18ba","flavor":"omp","thinkingLevel":"off","configuredThinkingLevel":null,"models":{"default":"anthropic/claude-sonnet-4-5"},"serviceTier":null,"mode":"none","modeData":null,"injectedTtsrRules":[],"mcpToolSelection":{"selectedMCPToolNames":[],"hasPersistedMCPToolSelection":false},"messages":[{"role":"compactionSummary","summary":"MSRV is 1.89 (Cargo.toml and CI).","shortSummary":"MSRV bumped","tokensBefore":21400,"tokensAfter":1900,"timestamp":1772789400000},{"role":"user","content":"Continue: update the README badge too.","timestamp":1772789409997}]}"#);
}

#[test]
fn from_a_non_leaf_rev_and_markdown() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "context", "@~2", "--format", "markdown"]), @r#"
    # Session context

    - **leaf:** `f6c3d098`
    - **flavor:** `omp`
    - **thinking level:** `off`
    - **models:** `default=openai/gpt-5`
    - **mode:** `none`

    ## 1. user

    *2026-03-02T09:00:05.117Z*

    List the files in src/

    ## 2. assistant

    *openai/gpt-5 · toolUse · 2026-03-02T09:00:09.478Z*

    **Tool call** `bash` (`call_Qm3xV8kPz1`)

    ```json
    {
      "command": "ls src"
    }
    ```

    ## 3. toolResult

    *bash · call\_Qm3xV8kPz1 · 2026-03-02T09:00:09.610Z*

    ```
    lib.rs
    main.rs
    ```

    ## 4. assistant

    *openai/gpt-5 · stop · 2026-03-02T09:00:12.903Z*

    There are two files in src/: `lib.rs` and `main.rs` (café not included).

    ## 5. user

    *2026-03-02T09:01:02.374Z*

    What does main.rs do?
    "#);
}

#[test]
fn an_orphan_as_rev() {
    let env = TestEnv::new();
    env.fixture("dangling-parent.jsonl");
    assert_snapshot!(env.run(&["-f", "dangling-parent.jsonl", "--json", "context", "4c5d6e7f"]), @r#"
    {"leafId":"4c5d6e7f","flavor":"omp","thinkingLevel":"off","configuredThinkingLevel":null,"models":{},"serviceTier":null,"mode":"none","modeData":null,"injectedTtsrRules":[],"mcpToolSelection":{"selectedMCPToolNames":[],"hasPersistedMCPToolSelection":false},"messages":[{"role":"user","content":"My parent 9999aaaa is not in this file.","timestamp":1772721059997,"attribution":"user"}]}
    ------- stderr -------
    dangling-parent.jsonl:4: warning: parent 9999aaaa of entry 4c5d6e7f not found; the entry counts as a root
    "#);
}

#[test]
fn undefined_leaf_falls_back_to_the_last_record() {
    let env = TestEnv::new();
    env.fixture("non-object.jsonl");
    assert_snapshot!(env.run(&["-f", "non-object.jsonl", "--json", "context"]), @r#"
    {"leafId":null,"flavor":"omp","thinkingLevel":"off","configuredThinkingLevel":null,"models":{"default":"anthropic/claude-sonnet-4-5"},"serviceTier":null,"mode":"none","modeData":null,"injectedTtsrRules":[],"mcpToolSelection":{"selectedMCPToolNames":[],"hasPersistedMCPToolSelection":false},"messages":[{"role":"user","content":"List three colours.","timestamp":1772724600997,"attribution":"user"},{"role":"assistant","content":[{"type":"text","text":"Red, green, blue."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":3,"output":6,"cacheRead":0,"cacheWrite":300,"totalTokens":309,"cost":{"input":0.000009,"output":0.00009,"cacheRead":0,"cacheWrite":0.001125,"total":0.001224}},"stopReason":"stop","timestamp":1772724603998},{"role":"user","content":"Two more.","timestamp":1772724619997,"attribution":"user"},{"role":"assistant","content":[{"type":"text","text":"Cyan, magenta."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":3,"output":6,"cacheRead":300,"cacheWrite":20,"totalTokens":329,"cost":{"input":0.000009,"output":0.00009,"cacheRead":0.00009,"cacheWrite":0.000075,"total":0.000264}},"stopReason":"stop","timestamp":1772724622998}]}
    ------- stderr -------
    non-object.jsonl:3: warning: record is not a JSON object
    non-object.jsonl:5: warning: record is not a JSON object
    non-object.jsonl:6: warning: entry has no id
    non-object.jsonl:8: warning: entry has no id
    "#);
}

/// oh-my-pi keeps images out of its session files as `blob:sha256:<hex>` references to its
/// blob store beside the sessions root (FORMAT §4.6, CHANGES O3/O6). The context names such an
/// image by its type and its size in the store, and never reads a path the reference could
/// otherwise make up.
#[test]
fn a_blob_reference_is_an_image_of_its_size_in_the_blob_store() {
    let env = TestEnv::new();
    env.fixture("roles.jsonl");
    let image = |env: &TestEnv| {
        let out = env.run(&["-f", "roles.jsonl", "context", "6c0d1e2f"]);
        out.lines().find(|l| l.starts_with("[image")).unwrap().to_string()
    };
    assert_eq!(image(&env), "[image image/png, blob 9f2c4e1a not in the blob store]");
    let hex = "9f2c4e1a7b3d5f608c1e2a4b6d8f0a1c3e5b7d9f1a2c4e6b8d0f2a4c6e8b0d2f";
    std::fs::create_dir_all(env.path().join("home/.omp/agent/blobs")).unwrap();
    env.write(&format!("home/.omp/agent/blobs/{hex}"), vec![0u8; 1234]);
    assert_eq!(image(&env), "[image image/png, 1234 bytes, blob 9f2c4e1a]");
    // A reference that is not a digest names no file, even when one of its name exists.
    let odd = String::from_utf8(env.read("roles.jsonl")).unwrap().replace(hex, "../x");
    env.write("roles.jsonl", odd);
    env.write("home/.omp/agent/x", "not an image");
    assert_eq!(image(&env), "[image image/png, blob ../x not in the blob store]");
}

/// A summary's own headings (`## Goal`) and HTML stay inside its message: the only headings of
/// the Markdown are the document's (`# Session context`, `## N. role`).
#[test]
fn markdown_headings_of_the_transcript_are_escaped() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let out = env.run(&["-f", "demo.jsonl", "context", "--format", "markdown"]);
    assert!(out.contains("\n\\## Goal\n"), "{out}");
    for line in out.lines().filter(|l| l.starts_with('#')) {
        let numbered = line.strip_prefix("## ").and_then(|l| l.split_once(". "));
        assert!(line == "# Session context" || numbered.is_some(), "{line}");
    }
}

/// `context --flavor pi --agent-messages --json` gives, message for message, what pi 1.6.0's
/// `SessionManager.buildSessionContext().messages` gives for the same file and leaf, recorded
/// in `tests/fixtures/pi-1.6.0/<file>@<leaf>.messages.json` (CHANGES R1, R3): system messages
/// in place as a patch stream, a compaction's `systemMessage` before its summary with the
/// kept range's system messages left out, context edits among the context entries only (the
/// latest per target, `null` omitting any entry), and null content read as `""` or `[]`.
/// Without --agent-messages the messages are pi's `convertToLlm` of them, which keeps system
/// messages in place too.
#[test]
fn pi_messages_are_pi_1_6_0_build_session_context() {
    let dir = crate::common::fixtures().join("pi-1.6.0");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".messages.json"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 7, "{names:?}");
    let env = TestEnv::new();
    for name in names {
        let (file, leaf) = name.trim_end_matches(".messages.json").split_once('@').unwrap();
        let path = match dir.join(format!("{file}.jsonl")) {
            p if p.exists() => p,
            _ => crate::common::fixtures().join(format!("{file}.jsonl")),
        };
        let expected: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(&name)).unwrap()).unwrap();
        let path = path.to_str().unwrap();
        let out =
            env.run(&["-f", path, "--json", "context", "--flavor", "pi", "--agent-messages", leaf]);
        let got: serde_json::Value = serde_json::from_str(&out).expect(&out);
        assert_eq!(got["messages"], expected, "{name}");
    }
}

/// pi 1.6.0's `convertToLlm` passes system messages through in place, as user, assistant and
/// tool result messages: the LLM messages of a pi context keep them where they are.
#[test]
fn pi_llm_messages_keep_system_messages_in_place() {
    let env = TestEnv::new();
    let file = crate::common::fixtures().join("pi-1.6.0/pi-system-patches.jsonl");
    let file = file.to_str().unwrap();
    let out = env.run(&["-f", file, "--json", "context", "--flavor", "pi", "c1000007"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect(&out);
    let roles: Vec<&str> =
        v["messages"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["system", "user", "assistant", "system", "user", "system", "assistant"]);
    assert_eq!(v["messages"][5]["content"], "", "null content reads as empty");
}

/// Read by a person, pi's system messages are the one prompt they fold into, first, as pi
/// 1.6.0's `collapseSystemMessages` gives it to a provider without mid-conversation system
/// messages: the texts appended, the sections patched by name, the tools added and removed.
#[test]
fn pi_text_shows_the_folded_prompt_first() {
    let env = TestEnv::new();
    let file = crate::common::fixtures().join("pi-1.6.0/pi-system-patches.jsonl");
    let file = file.to_str().unwrap();
    assert_snapshot!(env.run(&["-f", file, "context", "--flavor", "pi", "--agent-messages"]), @"
    leaf: c1000010
    flavor: pi
    thinking level: off
    model: anthropic/claude-sonnet-4-5

    === 1. system (2026-10-02T09:00:08.000Z) ===
    You are pi.

    Also be kind.

    After the compaction.

    Be very brief.

    none
    [tools: edit]

    === 2. compactionSummary (500 tokens before, 2026-10-02T09:00:08.000Z) ===
    The user said hello.

    === 3. user (2026-10-02T09:00:05.000Z) ===
    Next?

    === 4. assistant (anthropic/claude-sonnet-4-5, stop, 2026-10-02T09:00:07.000Z) ===
    Done.

    === 5. user (2026-10-02T09:00:10.000Z) ===
    And now?
    ");
    let md =
        env.run(&["-f", file, "context", "--flavor", "pi", "--format", "markdown", "c1000007"]);
    assert!(md.contains("## 1. system\n\n*2026-10-02T09:00:01.000Z*\n\nYou are pi.\n\nAlso be kind.\n\nBe very brief.\n\nnone\n\n*[tools: read, edit]*\n\n## 2. user\n"), "{md}");
    assert_eq!(md.matches("system").count(), 1, "{md}");
}
