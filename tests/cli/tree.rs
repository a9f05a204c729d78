//! `sesstree tree`: ordering, markers, filters, search, leaf, ASCII, archives.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn demo_tree() {
    let env = TestEnv::new();
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo.jsonl");
    std::fs::copy(demo, env.path().join("demo.jsonl")).unwrap();
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "tree"]), @r#"
    • user: tally stats prints a table. Add a --json flag to `tally stats` that prints the same numbers as one JSON object per file.
    • assistant: I'll look at how `stats` is wired up and printed first.
    • [read: src/main.rs]
    • [checkpoint-1] [read: src/stats.rs]
    ├─ • [branch summary]: The user explored a different conversation branch before returning here. Summary of that exploration:  ## Goal Add a `--json` flag to `tally stats`.  ## What was tried - Added `serde` (derive) and `serde_json` to Cargo.toml and derived `Serialize` on `Stats`. - `cargo test` failed before compiling: this machine is offline and cannot reach the crates.io index, and nothing is vendored.  ## Outcome Abandoned. Any approach must build without new dependencies.  <files> tests/cli.rs (Read) Cargo.toml (Write) src/stats.rs (Write) </files>
    │  • user: Let's not add dependencies. Write the JSON by hand in a new src/json.rs (escape strings properly) and keep the table output byte-for-byte unchanged.
    │  • assistant: Writing a small encoder in `src/json.rs`, then wiring the flag into `stats`.
    │  • [write: src/json.rs]
    │  • [edit: src/stats.rs]
    │  • [edit: src/main.rs]
    │  • assistant: Now the branch in `run`, then the tests.
    │  • [edit: src/stats.rs]
    │  • [tests-green] [bash: cargo test 2>&1 | tail -n 20]
    │  • assistant: `tally stats --json` now prints one object per file, e.g.  ``` {"path":"tests/data/two-lines.txt","lines":2,"words":5,"bytes":24} ```  The encoder is in `src/json.rs` (no new dependencies) and the tab
    │  • [compaction: 48k tokens]
    │  • [clippy]: cargo clippy: 1 warning src/stats.rs:21:13: variables can be used directly in the `format!` string (clippy::uninlined_format_args)
    │  • user: Fix that clippy warning, then commit with a short message.
    │  • [edit: src/stats.rs]
    │  • [bash: cargo clippy --all-targets -q && git add -A && git...]
    │  • assistant: Fixed the warning (`println!("{line}")`); clippy is clean. Committed as `3f2a9c1 stats: add --json output`. ← active
    └─ assistant: `run` formats each row with `println!`. Let me check how the output is tested before changing it.
       [read: tests/cli.rs]
       assistant: The simplest route is serde: derive `Serialize` on `Stats` and print it with `serde_json`.
       [edit: Cargo.toml]
       [edit: src/stats.rs]
       [bash: cargo test]
       assistant: The build stops before compiling: this machine can't reach the crates.io index, so `serde_json` can't be downloaded and there is no vendored copy.  Two ways forward: 1. Vendor serde/serde_json (`cargo
    "#);
}

#[test]
fn branch_points_and_timestamp_order() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "tree"]), @r#"
    • user: Write a Rust function that reverses a string.
    • assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    ├─ • user: Make it handle grapheme clusters.
    │  • assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    │  ├─ • user: Add it to Cargo.toml for me.
    │  │  • assistant: Added `unicode-segmentation = "1.12"` under `[dependencies]`. ← active
    │  └─ user: Without adding a dependency, please.
    ├─ user: The input is ASCII only; reverse the bytes instead.
    │  assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect("ASCII input") } ```
    └─ user: Add a unit test for it.
       assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse("abc"), "cba"); } ```
    "#);
}

#[test]
fn file_order_and_ascii() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "tree", "--order", "file", "--ascii"]), @r#"
    * user: Write a Rust function that reverses a string.
    * assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    |--user: The input is ASCII only; reverse the bytes instead.
    |  assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect("ASCII input") } ```
    |--* user: Make it handle grapheme clusters.
    |  * assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    |  |--* user: Add it to Cargo.toml for me.
    |  |  * assistant: Added `unicode-segmentation = "1.12"` under `[dependencies]`. <- active
    |  '--user: Without adding a dependency, please.
    '--user: Add a unit test for it.
       assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse("abc"), "cba"); } ```
    "#);
}

#[test]
fn leaf_override() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "tree", "--leaf", "f1e2d3c4"]), @r#"
    • user: Write a Rust function that reverses a string.
    • assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    ├─ • user: Make it handle grapheme clusters.
    │  • assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    │  ├─ • user: Without adding a dependency, please. ← active
    │  └─ user: Add it to Cargo.toml for me.
    │     assistant: Added `unicode-segmentation = "1.12"` under `[dependencies]`.
    ├─ user: The input is ASCII only; reverse the bytes instead.
    │  assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect("ASCII input") } ```
    └─ user: Add a unit test for it.
       assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse("abc"), "cba"); } ```
    "#);
}

#[test]
fn each_filter_mode() {
    let env = TestEnv::new();
    env.fixture("roles.jsonl");
    let mut all = String::new();
    for mode in ["default", "no-tools", "user-only", "labeled-only", "all"] {
        all.push_str(&format!("--- {mode}\n"));
        all.push_str(&env.run(&["-f", "roles.jsonl", "tree", "--filter", mode]));
    }
    assert_snapshot!(all, @r#"
    --- default
    • user: Here is a screenshot of the layout bug: the sidebar overflows.
    • developer: Repository rule: run `just check` before declaring success.
    • assistant: Looking at the layout styles.
    • [grep: /overflow-x/ in src/styles]
    • [glob: .]
    • [ls: src]
    • [read: src/styles/layout.css:40-59]
    • [web_search: {"query":"css grid child overflow min-wi...]
    • assistant: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
    • assistant: (aborted)
    • [bash]: npm run build
    • [bash]: git status --short
    • [pythonExecution]
    • [custom]
    • [fileMention]
    • assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    --- no-tools
    • user: Here is a screenshot of the layout bug: the sidebar overflows.
    • developer: Repository rule: run `just check` before declaring success.
    • assistant: Looking at the layout styles.
    • assistant: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
    • assistant: (aborted)
    • [bash]: npm run build
    • [bash]: git status --short
    • [pythonExecution]
    • [custom]
    • [fileMention]
    • assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    --- user-only
    • user: Here is a screenshot of the layout bug: the sidebar overflows.
    • [custom]
    --- labeled-only
    ------- stderr -------
    note: 16 entries hidden by the current filter [labeled-only]
    --- all
    • user: Here is a screenshot of the layout bug: the sidebar overflows.
    • developer: Repository rule: run `just check` before declaring success.
    • assistant: Looking at the layout styles.
    • [grep: /overflow-x/ in src/styles]
    • [glob: .]
    • [ls: src]
    • [read: src/styles/layout.css:40-59]
    • [web_search: {"query":"css grid child overflow min-wi...]
    • assistant: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
    • assistant: (aborted)
    • [bash]: npm run build
    • [bash]: git status --short
    • [pythonExecution]
    • [custom]
    • [fileMention]
    • assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    "#);
}

#[test]
fn labeled_only_and_labels() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    assert_snapshot!(env.run(&["-f", "labeled.jsonl", "tree", "--filter", "labeled-only"]), @"
    • [begin] user: Start a CHANGELOG.md for v0.4.
    • [reviewed] assistant: Created `CHANGELOG.md` with an `## [0.4.0] - Unreleased` section.
    ");
}

#[test]
fn search_words_and_fuzzy() {
    let env = TestEnv::new();
    env.fixture("roles.jsonl");
    assert_snapshot!(env.run(&["-f", "roles.jsonl", "tree", "--filter", "all", "--search", "user"]), @"• user: Here is a screenshot of the layout bug: the sidebar overflows.");
    assert_snapshot!(env.run(&["-f", "roles.jsonl", "tree", "--search", "zzzz-nothing"]), @r#"
    ------- stderr -------
    note: no entries match search "zzzz-nothing"
    "#);
    assert_snapshot!(env.run(&["-f", "roles.jsonl", "tree", "--filter", "all", "--search", "rdtst", "--fuzzy"]), @r#"
    • [read: src/styles/layout.css:40-59]
    • [web_search: {"query":"css grid child overflow min-wi...]
    • [custom]
    • assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    "#);
}

#[test]
fn archived_subtrees() {
    let env = TestEnv::new();
    env.fixture("archive.jsonl");
    assert_snapshot!(env.run(&["-f", "archive.jsonl", "tree", "--filter", "all"]), @"
    • user: The CSV export is slow on big tables. Speed it up.
    • assistant: Three options: stream rows through a BufWriter, build the CSV in memory, or use the csv crate with a large buffer.
    ├─ • user: Try the csv crate's Writer with a 64 KiB buffer.
    │  • assistant: csv::Writer with 64 KiB buffer: 6.4 s, flat memory. Keeping this one.
    │  • [archived: 2f304152]
    │  • [archived: 41526374]
    │  • [restored: 41526374] ← active
    └─ user: Try building the whole CSV in memory first.
       assistant: In memory: 7.1 s, but peak RSS grows to 1.9 GB.
    ");
    assert_snapshot!(env.run(&["-f", "archive.jsonl", "tree", "--filter", "all", "--include-archived"]), @"
    • user: The CSV export is slow on big tables. Speed it up.
    • assistant: Three options: stream rows through a BufWriter, build the CSV in memory, or use the csv crate with a large buffer.
    ├─ • user: Try the csv crate's Writer with a 64 KiB buffer.
    │  • assistant: csv::Writer with 64 KiB buffer: 6.4 s, flat memory. Keeping this one.
    │  • [archived: 2f304152]
    │  • [archived: 41526374]
    │  • [restored: 41526374] ← active
    ├─ user: Try streaming rows with a BufWriter.
    │  assistant: Streaming: 41 s -> 9.8 s on the 2 M-row table.
    └─ user: Try building the whole CSV in memory first.
       assistant: In memory: 7.1 s, but peak RSS grows to 1.9 GB.
    ");
}

#[test]
fn json_rows() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "--json", "tree"]), @r#"
    {"id":"a0c1e2f3","parentId":null,"type":"message","timestamp":"2026-03-02T10:00:00.412Z","label":null,"text":"user: Write a Rust function that reverses a string.","depth":0,"onActivePath":true,"isLeaf":false}
    {"id":"b1a2c3d4","parentId":"a0c1e2f3","type":"message","timestamp":"2026-03-02T10:00:05.000Z","label":null,"text":"assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```","depth":0,"onActivePath":true,"isLeaf":false}
    {"id":"c7d0e1f2","parentId":"b1a2c3d4","type":"message","timestamp":"2026-03-02T10:02:00.000Z","label":null,"text":"user: Make it handle grapheme clusters.","depth":1,"onActivePath":true,"isLeaf":false}
    {"id":"c8e9f0a1","parentId":"c7d0e1f2","type":"message","timestamp":"2026-03-02T10:02:08.000Z","label":null,"text":"assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```","depth":1,"onActivePath":true,"isLeaf":false}
    {"id":"f3a4b5c6","parentId":"c8e9f0a1","type":"message","timestamp":"2026-03-02T10:03:30.000Z","label":null,"text":"user: Add it to Cargo.toml for me.","depth":2,"onActivePath":true,"isLeaf":false}
    {"id":"f4b5c6d7","parentId":"f3a4b5c6","type":"message","timestamp":"2026-03-02T10:03:41.000Z","label":null,"text":"assistant: Added `unicode-segmentation = \"1.12\"` under `[dependencies]`.","depth":2,"onActivePath":true,"isLeaf":true}
    {"id":"f1e2d3c4","parentId":"c8e9f0a1","type":"message","timestamp":"2026-03-02T10:04:00.000Z","label":null,"text":"user: Without adding a dependency, please.","depth":2,"onActivePath":false,"isLeaf":false}
    {"id":"d3e4f5a6","parentId":"b1a2c3d4","type":"message","timestamp":"2026-03-02T10:01:00.000Z","label":null,"text":"user: The input is ASCII only; reverse the bytes instead.","depth":1,"onActivePath":false,"isLeaf":false}
    {"id":"d4f5a6b7","parentId":"d3e4f5a6","type":"message","timestamp":"2026-03-02T10:01:04.000Z","label":null,"text":"assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect(\"ASCII input\") } ```","depth":1,"onActivePath":false,"isLeaf":false}
    {"id":"e5f6a7b8","parentId":"b1a2c3d4","type":"message","timestamp":"2026-03-02T10:03:00.000Z","label":null,"text":"user: Add a unit test for it.","depth":1,"onActivePath":false,"isLeaf":false}
    {"id":"b1a2f0e9","parentId":"e5f6a7b8","type":"message","timestamp":"2026-03-02T10:03:06.000Z","label":null,"text":"assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse(\"abc\"), \"cba\"); } ```","depth":1,"onActivePath":false,"isLeaf":false}
    "#);
}

#[test]
fn several_roots_and_markers() {
    let env = TestEnv::new();
    env.fixture("markers.jsonl");
    assert_snapshot!(env.run(&["-f", "markers.jsonl", "tree", "--filter", "all"]), @"
    • [branch summary]: The user explored a different conversation branch before returning here. Summary of that exploration:  The borrow error in src/cache.rs comes from `get` returning a borrow of the map while `insert` needs `&mut self`; lifetimes were explained with a small example.  <files> src/cache.rs (Read) </files> ← active
    ├─ user: Rewrite src/cache.rs to store owned Strings and return clones.
    │  assistant: Done: `Cache` stores `String`s and `get` returns `Option<String>`; it compiles.
    └─ [branch summary]:
    user: Why does src/cache.rs fail the borrow checker?
       assistant: `get` returns a `&str` borrowed from the map while `insert` needs `&mut self` in the same scope.
       ├─ user: Show me a fix.
       │  assistant: Clone the value out before inserting: `let v = self.get(k).to_owned();`.
       └─ [branch summary]:
          user: Explain lifetimes first, with a small example.
          assistant: A lifetime names how long a borrow is valid: `fn first<'a>(v: &'a [String]) -> &'a str`.
    ");
}

#[test]
fn both_dialects_and_all_types() {
    let env = TestEnv::new();
    env.fixture("pi.jsonl");
    env.fixture("all-types.jsonl");
    assert_snapshot!(env.run(&["-f", "pi.jsonl", "tree", "--filter", "all"]), @"
    • [model: claude-sonnet-4-5]
    • [thinking: medium]
    • user: Rename the `agent` package to `agent-core`.
    • assistant: I'll move the directory with git so history is kept.
    • [bash: git mv packages/agent packages/agent-core]
    • [session info]
    • [git-status]: R  packages/agent -> packages/agent-core
    • [compaction: 52k tokens]
    • user: Now update the imports and the package name.
    • assistant: Updated `package.json` (`@mariozechner/pi-agent-core`) and 14 import sites; `npm run check` passes.
    • [session info] ← active
    ");
    assert_snapshot!(env.run(&["-f", "all-types.jsonl", "tree", "--filter", "all"]), @r#"
    • [session init]
    • [model: openai/gpt-5]
    • [thinking: high]
    • [service tier: openai:priority]
    • [mode: plan]
    • [credential pin: openai]
    • [ttsr injection]
    • [mcp tool selection]
    • [audit-start] user: Audit src/auth for timing attacks.
    • assistant: Delegating the search to an explore subagent.
    • [task: {"agent":"explore","task":"Find every co...]
    • [branch summary]: The user explored a different conversation branch before returning here. Summary of that exploration:  The user asked to include the password reset flow, then went back before any work was done.
    • [model usage: branch-summary smol openai/gpt-5-mini]
    • [custom: com.example.audit-state]
    • [lint-report]: semgrep: 1 finding src/auth/token.rs:88 rust.lang.security.timing-attack
    • [label: audit-start]
    • [archived: f1a2b3c4]
    • [title: Audit auth module]
    • [compaction: 31k tokens]
    • [future thing]
    • [reset boundary]
    • user: Start over: list the auth endpoints. ← active
    "#);
}

#[test]
fn narrow_columns_scroll_old_levels_off() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    // 28 columns keep max(24, 14) for the text: one level of gutter, so depth 2 scrolls.
    let out =
        env.cmd().env("COLUMNS", "28").args(["-f", "branched.jsonl", "tree"]).output().unwrap();
    assert_snapshot!(env.render(&out), @r#"
    • user: Write a Rust function that reverses a string.
    • assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    ├─ • user: Make it handle grapheme clusters.
    │  • assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    …  • user: Add it to Cargo.toml for me.
    …  • assistant: Added `unicode-segmentation = "1.12"` under `[dependencies]`. ← active
    …  user: Without adding a dependency, please.
    ├─ user: The input is ASCII only; reverse the bytes instead.
    │  assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect("ASCII input") } ```
    └─ user: Add a unit test for it.
       assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse("abc"), "cba"); } ```
    "#);
}

#[test]
fn children_with_unparseable_timestamps_keep_file_order() {
    let env = TestEnv::new();
    env.fixture("odd-fields.jsonl");
    assert_snapshot!(env.run(&["-f", "odd-fields.jsonl", "tree", "--filter", "all"]), @r#"
    • user: No parentId field: a root. ← active
    │  [label: (cleared)]
    │  [label: numeric-target]
    [numeric-target] user: My id is the number 1.
       assistant: Mine is the string "1"; my parentId is the number 1.
       user: A Snowflake-style id (the fallback when 8-hex ids collide).
       [42] assistant: An old oh-my-pi nanoid(8) id with upper case.
       ├─ user: A nanoid with _ and -, and a timestamp that does not parse.
       ├─ user: No timestamp field at all.
       └─ user: A normal timestamp, after two siblings whose timestamps do not parse.
    "#);
}
