//! `sesstree tree`: ordering, markers, filters, search, leaf, ASCII, archives.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn demo_tree() {
    let env = TestEnv::new();
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo.jsonl");
    std::fs::copy(demo, env.path().join("demo.jsonl")).unwrap();
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "tree"]), @r#"
    • 8a41d0e6 user: tally stats prints a table. Add a --json flag to `tally stats` that prints the same numbers as one JSON object per file.
    • e91c4a07 assistant: I'll look at how `stats` is wired up and printed first.
    • 1d6b83f2 [read: src/main.rs]
    • 7c3e05ab [checkpoint-1] [read: src/stats.rs]
    ├─ • 58e0b3c6 [branch summary]: The user explored a different conversation branch before returning here. Summary of that exploration:  ## Goal Add a `--json` flag to `tally stats`.  ## What was tried - Added `serde` (derive) and `serde_json` to Cargo.toml and derived `Serialize` on `Stats`. - `cargo test` failed before compiling: this machine is offline and cannot reach the crates.io index, and nothing is vendored.  ## Outcome Abandoned. Any approach must build without new dependencies.  <files> tests/cli.rs (Read) Cargo.toml (Write) src/stats.rs (Write) </files>
    │  • 13c9d5a8 user: Let's not add dependencies. Write the JSON by hand in a new src/json.rs (escape strings properly) and keep the table output byte-for-byte unchanged.
    │  • 6f4a0e21 assistant: Writing a small encoder in `src/json.rs`, then wiring the flag into `stats`.
    │  • e3b81c7d [write: src/json.rs]
    │  • 09d6f4b2 [edit: src/stats.rs]
    │  • 4a7e2d95 [edit: src/main.rs]
    │  • c6b05a3e assistant: Now the branch in `run`, then the tests.
    │  • c0e95d17 [edit: src/stats.rs]
    │  • 85f3e1c0 [tests-green] [bash: cargo test 2>&1 | tail -n 20]
    │  • 1f6c9b47 assistant: `tally stats --json` now prints one object per file, e.g.  ``` {"path":"tests/data/two-lines.txt","lines":2,"words":5,"bytes":24} ```  The encoder is in `src/json.rs` (no new dependencies) and the tab…
    │  • 70c4e2a9 [compaction: 48k tokens]
    │  • d91b7f40 [clippy]: cargo clippy: 1 warning src/stats.rs:21:13: variables can be used directly in the `format!` string (clippy::uninlined_format_args)
    │  • 5c07a3d4 user: Fix that clippy warning, then commit with a short message.
    │  • 31a9d6c2 [edit: src/stats.rs]
    │  • 47b2c8e3 [bash: cargo clippy --all-targets -q && git add -A && git...]
    │  • fa60d15c assistant: Fixed the warning (`println!("{line}")`); clippy is clean. Committed as `3f2a9c1 stats: add --json output`. ← active
    └─ 4e8a2c59 assistant: `run` formats each row with `println!`. Let me check how the output is tested before changing it.
       a6f1d374 [read: tests/cli.rs]
       0b97e4c1 assistant: The simplest route is serde: derive `Serialize` on `Stats` and print it with `serde_json`.
       d58c2a60 [edit: Cargo.toml]
       6e2b9f15 [edit: src/stats.rs]
       f04a61bd [bash: cargo test]
       2c85ef37 assistant: The build stops before compiling: this machine can't reach the crates.io index, so `serde_json` can't be downloaded and there is no vendored copy.  Two ways forward: 1. Vendor serde/serde_json (`cargo…
    "#);
}

#[test]
fn branch_points_and_timestamp_order() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "tree"]), @r#"
    • a0c1e2f3 user: Write a Rust function that reverses a string.
    • b1a2c3d4 assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    ├─ • c7d0e1f2 user: Make it handle grapheme clusters.
    │  • c8e9f0a1 assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    │  ├─ • f3a4b5c6 user: Add it to Cargo.toml for me.
    │  │  • f4b5c6d7 assistant: Added `unicode-segmentation = "1.12"` under `[dependencies]`. ← active
    │  └─ f1e2d3c4 user: Without adding a dependency, please.
    ├─ d3e4f5a6 user: The input is ASCII only; reverse the bytes instead.
    │  d4f5a6b7 assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect("ASCII input") } ```
    └─ e5f6a7b8 user: Add a unit test for it.
       b1a2f0e9 assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse("abc"), "cba"); } ```
    "#);
}

#[test]
fn file_order_and_ascii() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "tree", "--order", "file", "--ascii"]), @r#"
    * a0c1e2f3 user: Write a Rust function that reverses a string.
    * b1a2c3d4 assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    |--d3e4f5a6 user: The input is ASCII only; reverse the bytes instead.
    |  d4f5a6b7 assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect("ASCII input") } ```
    |--* c7d0e1f2 user: Make it handle grapheme clusters.
    |  * c8e9f0a1 assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    |  |--* f3a4b5c6 user: Add it to Cargo.toml for me.
    |  |  * f4b5c6d7 assistant: Added `unicode-segmentation = "1.12"` under `[dependencies]`. <- active
    |  '--f1e2d3c4 user: Without adding a dependency, please.
    '--e5f6a7b8 user: Add a unit test for it.
       b1a2f0e9 assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse("abc"), "cba"); } ```
    "#);
}

#[test]
fn leaf_override() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "tree", "--leaf", "f1e2d3c4"]), @r#"
    • a0c1e2f3 user: Write a Rust function that reverses a string.
    • b1a2c3d4 assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```
    ├─ • c7d0e1f2 user: Make it handle grapheme clusters.
    │  • c8e9f0a1 assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```
    │  ├─ • f1e2d3c4 user: Without adding a dependency, please. ← active
    │  └─ f3a4b5c6 user: Add it to Cargo.toml for me.
    │     f4b5c6d7 assistant: Added `unicode-segmentation = "1.12"` under `[dependencies]`.
    ├─ d3e4f5a6 user: The input is ASCII only; reverse the bytes instead.
    │  d4f5a6b7 assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect("ASCII input") } ```
    └─ e5f6a7b8 user: Add a unit test for it.
       b1a2f0e9 assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse("abc"), "cba"); } ```
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
    • 6c0d1e2f user: Here is a screenshot of the layout bug: the sidebar overflows.
    • 7d1e2f30 developer: Repository rule: run `just check` before declaring success.
    • 8e2f3041 assistant: Looking at the layout styles.
    • 9f304152 [grep: /overflow-x/ in src/styles]
    • a0415263 [glob: .]
    • b1526374 [ls: src]
    • c2637485 [read: src/styles/layout.css:40-59]
    • d3748596 [web_search: {"query":"css grid child overflow min-wi...]
    • e4859607 assistant: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
    • f5960718 assistant: (aborted)
    • 06a71829 [bash]: npm run build
    • 17b8293a [bash]: git status --short
    • 28c93a4b [pythonExecution]
    • 39da4b5c [custom]
    • 4aeb5c6d [fileMention]
    • 5bfc6d7e assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    --- no-tools
    • 6c0d1e2f user: Here is a screenshot of the layout bug: the sidebar overflows.
    • 7d1e2f30 developer: Repository rule: run `just check` before declaring success.
    • 8e2f3041 assistant: Looking at the layout styles.
    • e4859607 assistant: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
    • f5960718 assistant: (aborted)
    • 06a71829 [bash]: npm run build
    • 17b8293a [bash]: git status --short
    • 28c93a4b [pythonExecution]
    • 39da4b5c [custom]
    • 4aeb5c6d [fileMention]
    • 5bfc6d7e assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    --- user-only
    • 6c0d1e2f user: Here is a screenshot of the layout bug: the sidebar overflows.
    • 39da4b5c [custom] ← active (leaf 5bfc6d7e hidden)
    --- labeled-only
    ------- stderr -------
    note: 16 entries hidden by the current filter [labeled-only]
    --- all
    • 6c0d1e2f user: Here is a screenshot of the layout bug: the sidebar overflows.
    • 7d1e2f30 developer: Repository rule: run `just check` before declaring success.
    • 8e2f3041 assistant: Looking at the layout styles.
    • 9f304152 [grep: /overflow-x/ in src/styles]
    • a0415263 [glob: .]
    • b1526374 [ls: src]
    • c2637485 [read: src/styles/layout.css:40-59]
    • d3748596 [web_search: {"query":"css grid child overflow min-wi...]
    • e4859607 assistant: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
    • f5960718 assistant: (aborted)
    • 06a71829 [bash]: npm run build
    • 17b8293a [bash]: git status --short
    • 28c93a4b [pythonExecution]
    • 39da4b5c [custom]
    • 4aeb5c6d [fileMention]
    • 5bfc6d7e assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    "#);
}

#[test]
fn labeled_only_and_labels() {
    let env = TestEnv::new();
    env.fixture("labeled.jsonl");
    assert_snapshot!(env.run(&["-f", "labeled.jsonl", "tree", "--filter", "labeled-only"]), @"
    • 1b2c3d4e [begin] user: Start a CHANGELOG.md for v0.4.
    • 2c3d4e5f [reviewed] assistant: Created `CHANGELOG.md` with an `## [0.4.0] - Unreleased` section. ← active (leaf 3d4e5f60 hidden)
    ");
}

#[test]
fn search_words_and_fuzzy() {
    let env = TestEnv::new();
    env.fixture("roles.jsonl");
    assert_snapshot!(env.run(&["-f", "roles.jsonl", "tree", "--filter", "all", "--search", "user"]), @"• 6c0d1e2f user: Here is a screenshot of the layout bug: the sidebar overflows. ← active (leaf 5bfc6d7e hidden)");
    assert_snapshot!(env.run(&["-f", "roles.jsonl", "tree", "--search", "zzzz-nothing"]), @r#"
    ------- stderr -------
    note: no entries match search "zzzz-nothing"
    "#);
    assert_snapshot!(env.run(&["-f", "roles.jsonl", "tree", "--filter", "all", "--search", "rdtst", "--fuzzy"]), @r#"
    • c2637485 [read: src/styles/layout.css:40-59]
    • d3748596 [web_search: {"query":"css grid child overflow min-wi...]
    • 39da4b5c [custom]
    • 5bfc6d7e assistant: Set `min-width: 0` on `.sidebar > *` so the grid children can shrink, and fix the TS2322 error in main.ts by parsing the width with `Number(` ← active
    "#);
}

#[test]
fn archived_subtrees() {
    let env = TestEnv::new();
    env.fixture("archive.jsonl");
    assert_snapshot!(env.run(&["-f", "archive.jsonl", "tree", "--filter", "all"]), @"
    • 0d1e2f30 user: The CSV export is slow on big tables. Speed it up.
    • 1e2f3041 assistant: Three options: stream rows through a BufWriter, build the CSV in memory, or use the csv crate with a large buffer.
    ├─ • 63748596 user: Try the csv crate's Writer with a 64 KiB buffer.
    │  • 748596a7 assistant: csv::Writer with 64 KiB buffer: 6.4 s, flat memory. Keeping this one.
    │  • 8596a7b8 [archived: 2f304152]
    │  • 96a7b8c9 [archived: 41526374]
    │  • a7b8c9da [restored: 41526374] ← active
    └─ 41526374 user: Try building the whole CSV in memory first.
       52637485 assistant: In memory: 7.1 s, but peak RSS grows to 1.9 GB.
    ");
    assert_snapshot!(env.run(&["-f", "archive.jsonl", "tree", "--filter", "all", "--include-archived"]), @"
    • 0d1e2f30 user: The CSV export is slow on big tables. Speed it up.
    • 1e2f3041 assistant: Three options: stream rows through a BufWriter, build the CSV in memory, or use the csv crate with a large buffer.
    ├─ • 63748596 user: Try the csv crate's Writer with a 64 KiB buffer.
    │  • 748596a7 assistant: csv::Writer with 64 KiB buffer: 6.4 s, flat memory. Keeping this one.
    │  • 8596a7b8 [archived: 2f304152]
    │  • 96a7b8c9 [archived: 41526374]
    │  • a7b8c9da [restored: 41526374] ← active
    ├─ 2f304152 user: Try streaming rows with a BufWriter.
    │  30415263 assistant: Streaming: 41 s -> 9.8 s on the 2 M-row table.
    └─ 41526374 user: Try building the whole CSV in memory first.
       52637485 assistant: In memory: 7.1 s, but peak RSS grows to 1.9 GB.
    ");
}

#[test]
fn json_rows() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    assert_snapshot!(env.run(&["-f", "branched.jsonl", "--json", "tree"]), @r#"
    {"id":"a0c1e2f3","parentId":null,"type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T10:00:00.412Z","label":null,"text":"user: Write a Rust function that reverses a string.","textTruncated":false,"depth":0,"onActivePath":true,"isLeaf":false}
    {"id":"b1a2c3d4","parentId":"a0c1e2f3","type":"message","role":"assistant","toolName":null,"timestamp":"2026-03-02T10:00:05.000Z","label":null,"text":"assistant: ```rust fn reverse(s: &str) -> String {     s.chars().rev().collect() } ```","textTruncated":false,"depth":0,"onActivePath":true,"isLeaf":false}
    {"id":"c7d0e1f2","parentId":"b1a2c3d4","type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T10:02:00.000Z","label":null,"text":"user: Make it handle grapheme clusters.","textTruncated":false,"depth":1,"onActivePath":true,"isLeaf":false}
    {"id":"c8e9f0a1","parentId":"c7d0e1f2","type":"message","role":"assistant","toolName":null,"timestamp":"2026-03-02T10:02:08.000Z","label":null,"text":"assistant: Use the `unicode-segmentation` crate:  ```rust use unicode_segmentation::UnicodeSegmentation;  fn reverse(s: &str) -> String {     s.graphemes(true).rev().collect() } ```","textTruncated":false,"depth":1,"onActivePath":true,"isLeaf":false}
    {"id":"f3a4b5c6","parentId":"c8e9f0a1","type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T10:03:30.000Z","label":null,"text":"user: Add it to Cargo.toml for me.","textTruncated":false,"depth":2,"onActivePath":true,"isLeaf":false}
    {"id":"f4b5c6d7","parentId":"f3a4b5c6","type":"message","role":"assistant","toolName":null,"timestamp":"2026-03-02T10:03:41.000Z","label":null,"text":"assistant: Added `unicode-segmentation = \"1.12\"` under `[dependencies]`.","textTruncated":false,"depth":2,"onActivePath":true,"isLeaf":true}
    {"id":"f1e2d3c4","parentId":"c8e9f0a1","type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T10:04:00.000Z","label":null,"text":"user: Without adding a dependency, please.","textTruncated":false,"depth":2,"onActivePath":false,"isLeaf":false}
    {"id":"d3e4f5a6","parentId":"b1a2c3d4","type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T10:01:00.000Z","label":null,"text":"user: The input is ASCII only; reverse the bytes instead.","textTruncated":false,"depth":1,"onActivePath":false,"isLeaf":false}
    {"id":"d4f5a6b7","parentId":"d3e4f5a6","type":"message","role":"assistant","toolName":null,"timestamp":"2026-03-02T10:01:04.000Z","label":null,"text":"assistant: ```rust fn reverse(s: &str) -> String {     let mut b = s.as_bytes().to_vec();     b.reverse();     String::from_utf8(b).expect(\"ASCII input\") } ```","textTruncated":false,"depth":1,"onActivePath":false,"isLeaf":false}
    {"id":"e5f6a7b8","parentId":"b1a2c3d4","type":"message","role":"user","toolName":null,"timestamp":"2026-03-02T10:03:00.000Z","label":null,"text":"user: Add a unit test for it.","textTruncated":false,"depth":1,"onActivePath":false,"isLeaf":false}
    {"id":"b1a2f0e9","parentId":"e5f6a7b8","type":"message","role":"assistant","toolName":null,"timestamp":"2026-03-02T10:03:06.000Z","label":null,"text":"assistant: ```rust #[test] fn reverses() {     assert_eq!(reverse(\"abc\"), \"cba\"); } ```","textTruncated":false,"depth":1,"onActivePath":false,"isLeaf":false}
    "#);
}

#[test]
fn several_roots_and_markers() {
    let env = TestEnv::new();
    env.fixture("markers.jsonl");
    assert_snapshot!(env.run(&["-f", "markers.jsonl", "tree", "--filter", "all"]), @"
    • 02a57689 [branch summary]: The user explored a different conversation branch before returning here. Summary of that exploration:  The borrow error in src/cache.rs comes from `get` returning a borrow of the map while `insert` needs `&mut self`; lifetimes were explained with a small example.  <files> src/cache.rs (Read) </files> ← active
    │  35d8a9bc [branch summary]:
    │  13b6879a user: Rewrite src/cache.rs to store owned Strings and return clones.
    │  24c798ab assistant: Done: `Cache` stores `String`s and `get` returns `Option<String>`; it compiles.
    9b3e0f12 user: Why does src/cache.rs fail the borrow checker?
       ac4f1023 assistant: `get` returns a `&str` borrowed from the map while `insert` needs `&mut self` in the same scope.
       df724356 [branch summary]:
       ├─ bd502134 user: Show me a fix.
       │  ce613245 assistant: Clone the value out before inserting: `let v = self.get(k).to_owned();`.
       └─ e0835467 user: Explain lifetimes first, with a small example.
          f1946578 assistant: A lifetime names how long a borrow is valid: `fn first<'a>(v: &'a [String]) -> &'a str`.
    ");
}

#[test]
fn both_dialects_and_all_types() {
    let env = TestEnv::new();
    env.fixture("pi.jsonl");
    env.fixture("all-types.jsonl");
    assert_snapshot!(env.run(&["-f", "pi.jsonl", "tree", "--filter", "all"]), @"
    • 7f3e2a10 [model: claude-sonnet-4-5]
    • 9c41b0d2 [thinking: medium]
    • 1e8d5f37 user: Rename the `agent` package to `agent-core`.
    • 4a92c6e1 assistant: I'll move the directory with git so history is kept.
    • b07d3a58 [bash: git mv packages/agent packages/agent-core]
    • e6f1094c [session info]
    • 3d5a8b72 [git-status]: R  packages/agent -> packages/agent-core
    • c82e4f19 [compaction: 52k tokens]
    • 5b7c9e03 user: Now update the imports and the package name.
    • d2f8a614 assistant: Updated `package.json` (`@mariozechner/pi-agent-core`) and 14 import sites; `npm run check` passes. ← active
    8e0b47c5 [session info]
    ");
    assert_snapshot!(env.run(&["-f", "all-types.jsonl", "tree", "--filter", "all"]), @r#"
    • a0b1c2d3 [session init]
    • b1c2d3e4 [model: openai/gpt-5]
    • c2d3e4f5 [thinking: high]
    • d3e4f5a6 [service tier: openai:priority]
    • e4f5a6b7 [mode: plan]
    • f5a6b7c8 [credential pin: openai]
    • a6b7c8d9 [ttsr injection]
    • b7c8d9e0 [mcp tool selection]
    • c8d9e0f1 [audit-start] user: Audit src/auth for timing attacks.
    • d9e0f1a2 assistant: Delegating the search to an explore subagent.
    • e0f1a2b3 [task: {"agent":"explore","task":"Find every co...]
    • a2b3c4d5 [branch summary]: The user explored a different conversation branch before returning here. Summary of that exploration:  The user asked to include the password reset flow, then went back before any work was done.
    • b3c4d5e6 [model usage: branch-summary smol openai/gpt-5-mini]
    • c4d5e6f7 [custom: com.example.audit-state]
    • d5e6f7a8 [lint-report]: semgrep: 1 finding src/auth/token.rs:88 rust.lang.security.timing-attack
    • e6f7a8b9 [label: audit-start]
    • f7a8b9ca [archived: f1a2b3c4]
    • a8b9cadb [title: Audit auth module]
    • b9cadbec [compaction: 31k tokens]
    • cadbecfd [future thing]
    • dbecfd0e [reset boundary]
    • ecfd0e1f user: Start over: list the auth endpoints. ← active
    "#);
}

#[test]
fn narrow_columns_scroll_old_levels_off() {
    let env = TestEnv::new();
    env.fixture("branched.jsonl");
    // 28 columns keep max(24, 14) for the text: one level of gutter, so depth 2 scrolls.
    let out =
        env.cmd().env("COLUMNS", "28").args(["-f", "branched.jsonl", "tree"]).output().unwrap();
    assert_snapshot!(env.render(&out), @"
    • a0c1e2f3 user: Write a Ru…
    • b1a2c3d4 assistant: ```ru…
    ├─ • c7d0e1f2 user: Make it…
    │  • c8e9f0a1 assistant: Us…
    …  • f3a4b5c6 user: Add it …
    …  • f4b5c6d7 assi… ← active
    …  f1e2d3c4 user: Without a…
    ├─ d3e4f5a6 user: The input…
    │  d4f5a6b7 assistant: ```r…
    └─ e5f6a7b8 user: Add a uni…
       b1a2f0e9 assistant: ```r…
    ");
}

#[test]
fn children_with_unparseable_timestamps_keep_file_order() {
    let env = TestEnv::new();
    env.fixture("odd-fields.jsonl");
    assert_snapshot!(env.run(&["-f", "odd-fields.jsonl", "tree", "--filter", "all"]), @r#"
    • c0ffee00 user: No parentId field: a root. ← active
    │  c0ffee03 [label: (cleared)]
    │  c0ffee04 [label: numeric-target]
    1 [numeric-target] user: My id is the number 1.
       1 assistant: Mine is the string "1"; my parentId is the number 1.
       72417364 user: A Snowflake-style id (the fallback when 8-hex ids collide).
       V1StGXR8 [42] assistant: An old oh-my-pi nanoid(8) id with upper case.
       ├─ _-aB3x9Z user: A nanoid with _ and -, and a timestamp that does not parse.
       ├─ c0ffee01 user: No timestamp field at all.
       └─ c0ffee02 user: A normal timestamp, after two siblings whose timestamps do not parse.
    "#);
}

/// The markers bare checkouts leave behind carry no text: `tree` and `log` fold them away, and
/// `--filter all` shows them, each below the entry it marks; they open no branch (issue 44:
/// each drew a connector to a row no filter but `all` shows, one level deeper each time).
#[test]
fn move_markers_are_folded_unless_the_filter_is_all() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    for _ in 0..3 {
        let out = env.run(&["-f", "linear.jsonl", "checkout", "@^"]);
        assert!(!out.contains("[exit status"), "{out}");
    }
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "tree"]), @"
    • 5f3a9c01 user: List the files in src/
    • c04e6f12 [bash: ls src]
    • d9a7b3c5 assistant: There are two files in src/: `lib.rs` and `main.rs` (café not included). ← active
    e2f81a6b user: What does main.rs do?
    0a4b7e2d [read: src/main.rs]
    17de5c8f assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.
    ");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "tree", "--filter", "all"]), @"
    • 5f3a9c01 user: List the files in src/
    • c04e6f12 [bash: ls src]
    • d9a7b3c5 assistant: There are two files in src/: `lib.rs` and `main.rs` (café not included). ← active
    ae175332 [branch summary]:
    e2f81a6b user: What does main.rs do?
    6104d986 [branch summary]:
    0a4b7e2d [read: src/main.rs]
    15780b2e [branch summary]:
    17de5c8f assistant: `main.rs` collects the command-line arguments (skipping the program name) and passes them to `proj::run` in `lib.rs`.
    ");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "log"]), @"
    d9a7b3c5 message 2026-03-02 09:00:12 +0000 assistant: There are two files in src/: `lib.rs` and `main.rs` (café not included).
    c04e6f12 message 2026-03-02 09:00:09 +0000 [bash: ls src]
    5f3a9c01 message 2026-03-02 09:00:05 +0000 user: List the files in src/
    ");
}

/// After the README's `checkout 5c07a3d4` the leaf is a `title_change`, which the default
/// filter hides: the nearest shown entry on its path stands in for it, and says so; `log`
/// says where it starts from.
#[test]
fn a_hidden_leaf_is_marked_on_the_nearest_shown_entry() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let out = env.run(&["-f", "demo.jsonl", "checkout", "5c07a3d4"]);
    assert!(!out.contains("[exit status"), "{out}");
    let tree = env.run(&["-f", "demo.jsonl", "tree"]);
    let marked: Vec<&str> = tree.lines().filter(|l| l.contains("active")).collect();
    assert_snapshot!(marked.join("\n"), @"│  • d91b7f40 [clippy]: cargo clippy: 1 warning src/stats.rs:21:13: variables can be used directly in the `format!` string (clippy::uninlined_format_args) ← active (leaf 26e8c5b1 hidden)");
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "log", "-n", "1"]), @"
    d91b7f40 custom_message 2026-02-16 10:26:52 +0000 [clippy]: cargo clippy: 1 warning src/stats.rs:21:13: variables can be used directly in the `format!` string (clippy::uninlined_format_args)
    ------- stderr -------
    note: 26e8c5b1 (title_change) is hidden by the filter [default]; --filter all shows it
    ");
    // Root-level: nothing on the path is shown.
    let out = env.run(&["-f", "demo.jsonl", "checkout", "3f9c2b71"]);
    assert!(!out.contains("[exit status"), "{out}");
    assert_snapshot!(env.run(&["-f", "demo.jsonl", "log"]), @"
    ------- stderr -------
    note: 3f9c2b71 (model_change) is hidden by the filter [default]; --filter all shows it
    ");
    let tree = env.run(&["-f", "demo.jsonl", "tree"]);
    let (rows, note) = tree.split_once("------- stderr -------\n").unwrap();
    assert!(!rows.contains("active"), "{rows}");
    assert_snapshot!(note, @"note: the leaf 3f9c2b71 is hidden by the filter");
}

/// A chain of `depth` user messages, each with a one-message side branch, so that every level
/// is a branch point and the rows nest `depth` deep.
fn deep(depth: usize) -> String {
    let mut text = String::from(
        r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
    );
    text.push('\n');
    for d in 0..depth {
        let parent = if d == 0 { "null".to_string() } else { format!("\"m{:03}\"", d - 1) };
        text.push_str(&format!(
            r#"{{"type":"message","id":"m{d:03}","parentId":{parent},"timestamp":"2026-01-01T00:{d:02}:00.000Z","message":{{"role":"user","content":"deep message number {d}"}}}}"#
        ));
        text.push('\n');
        text.push_str(&format!(
            r#"{{"type":"message","id":"s{d:03}","parentId":"m{d:03}","timestamp":"2026-01-01T00:{d:02}:01.000Z","message":{{"role":"assistant","content":[{{"type":"text","text":"side {d}"}}]}}}}"#
        ));
        text.push('\n');
    }
    text
}

/// On a terminal, deep rows keep their text in sight (issue 44): a long label is cut like the
/// text, and the row standing in for a hidden leaf gives up gutter levels (marked `…`) for its
/// long mark rather than its text.
#[test]
fn deep_rows_keep_their_text_in_sight() {
    let env = TestEnv::new();
    env.write("d.jsonl", deep(30));
    let label = "a-rather-long-label-someone-wrote-for-this-checkpoint";
    env.cmd().args(["-f", "d.jsonl", "label", "m020", label]).assert().success();
    let run = |args: &[&str]| {
        let out = env.cmd().env("COLUMNS", "70").args(args).output().unwrap();
        env.render(&out)
    };
    let rows = run(&["-f", "d.jsonl", "tree", "--order", "file"]);
    let labelled = rows.lines().find(|l| l.contains("m020")).unwrap();
    assert_snapshot!(labelled, @"…                             └─ • m020 [a-rather-l…] user: deep mess…");
    let rows = run(&["-f", "d.jsonl", "tree", "--filter", "user-only"]);
    assert_snapshot!(rows.lines().rev().take(2).collect::<Vec<_>>().join("\n"), @"
    …  │  │  │  ├─ • m029 user: deep message … ← active (leaf s029 hidden)
    …  │  │  │  │  │  │  │  │  │  ├─ • m028 user: deep message number 28
    ");
    for line in rows.lines() {
        assert!(line.chars().count() <= 70, "{line}");
    }
}

/// `COLUMNS` sets the width rows are cut to (the terminal's otherwise, and none in a pipe):
/// the text is cut with `…`, the id, the label and `← active` stay.
#[test]
fn columns_cut_rows_to_the_width() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    let run = |args: &[&str]| {
        let out = env.cmd().env("COLUMNS", "50").args(args).output().unwrap();
        env.render(&out)
    };
    assert_snapshot!(run(&["-f", "demo.jsonl", "tree", "--filter", "user-only"]), @"
    • 8a41d0e6 user: tally stats prints a table. Add …
    │  • 13c9d5a8 user: Let's not add dependencies. W…
    │  • 5c07a3d4 use… ← active (leaf fa60d15c hidden)
    ");
    assert_snapshot!(run(&["-f", "demo.jsonl", "log", "-n", "3", "checkpoint-1"]), @"
    7c3e05ab message 2026-02-16 10:21:08 +0000 [checkpoint-1] 
    1d6b83f2 message 2026-02-16 10:21:08 +0000 [read:…
    e91c4a07 message 2026-02-16 10:21:08 +0000 assist…
    ");
    // JSON rows are never cut.
    let json = run(&["-f", "demo.jsonl", "--json", "log", "-n", "1"]);
    assert!(json.len() > 200, "{json}");
}

/// See: issue 44 (a day with sesstree, second pass). When the filter hid the leaf, the text
/// said `← active (leaf X hidden)` but no `--json` row had `isLeaf` and nothing named X: the
/// row that stands for the leaf carries `"leafHidden": "<leaf id>"`.
#[test]
fn json_names_a_hidden_leaf_on_the_row_that_stands_for_it() {
    let env = TestEnv::new();
    std::fs::copy(crate::common::demo(), env.path().join("demo.jsonl")).unwrap();
    // As README's tour does: back to before a prompt, so the leaf is an assistant message.
    env.run(&["-f", "demo.jsonl", "checkout", "5c07a3d4"]);
    let json = env.run(&["-f", "demo.jsonl", "--json", "tree", "--filter", "user-only"]);
    let marked: Vec<&str> = json.lines().filter(|l| l.contains("leafHidden")).collect();
    insta::assert_snapshot!(marked.join("\n"), @r#"{"id":"13c9d5a8","parentId":"ad2f7e94","type":"message","role":"user","toolName":null,"timestamp":"2026-02-16T10:24:31.655Z","label":null,"text":"user: Let's not add dependencies. Write the JSON by hand in a new src/json.rs (escape strings properly) and keep the table output byte-for-byte unchanged.","textTruncated":false,"depth":1,"onActivePath":true,"isLeaf":false,"leafHidden":"26e8c5b1"}"#);
    assert!(!json.contains(r#""isLeaf":true"#), "{json}");
    // With the leaf shown, no row has the member.
    let json = env.run(&["-f", "demo.jsonl", "--json", "tree", "--filter", "all"]);
    assert!(json.contains(r#""isLeaf":true"#) && !json.contains("leafHidden"), "{json}");
}

/// See: issue 44 (a day with sesstree, second pass). `checkout X` then `checkout -` shifted
/// the tree one level right for good, as the move markers (the empty `branch_summary` a bare
/// checkout appends) opened branches no row showed, leaving `├─` pointing at nothing; `stats`
/// counted them as leaves and branch points. Markers are folded with their level.
#[test]
fn a_checkout_and_back_leave_the_tree_as_it_was() {
    let env = crate::checkout::forked();
    let before = env.run(&["-f", "s.jsonl", "tree"]);
    let shape = |env: &TestEnv| {
        let stats = env.run(&["-f", "s.jsonl", "stats"]);
        stats.lines().find(|l| l.contains("shape")).unwrap_or_default().trim().to_owned()
    };
    let shape_before = shape(&env);
    for rev in ["a1", "-", "a3", "-", "u1", "-"] {
        env.run(&["-f", "s.jsonl", "checkout", rev]);
    }
    assert_eq!(env.run(&["-f", "s.jsonl", "tree"]), before);
    assert_snapshot!(before, @"
    • u1 user: Add a --json flag
    • a1 assistant: Reading main.rs
    • t1 [read: src/main.rs]
    ├─ • u2 user: Use serde
    │  • a2 assistant: (no content) ← active
    └─ u3 user: Write the printer by hand
       a3 assistant: Done by hand.
    ");
    assert_eq!(shape(&env), shape_before);
    assert_snapshot!(shape_before, @"shape:         1 root, 2 leaves, 1 branch point, depth 5");
    // `--filter all` shows each marker right below the entry it marks, at its level.
    assert_snapshot!(env.run(&["-f", "s.jsonl", "tree", "--filter", "all"]), @"
    fde6dc7f [branch summary]:
    • u1 user: Add a --json flag
    • a1 assistant: Reading main.rs
    15780b2e [branch summary]:
    • t1 [read: src/main.rs]
    ├─ • u2 user: Use serde
    │  • a2 assistant: (no content) ← active
    │  6104d986 [branch summary]:
    │  ecb8ad47 [branch summary]:
    │  c50da531 [branch summary]:
    └─ u3 user: Write the printer by hand
       a3 assistant: Done by hand.
       ae175332 [branch summary]:
    ");
}
