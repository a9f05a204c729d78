//! The oracle suite (issue 34, issue 43): every file sesstree writes is one the agents open,
//! continue and read as sesstree meant, and sesstree reads what the agents write as they do.
//!
//! The agents' own session code runs from their published packages, which
//! `tests/oracle/package.json` pins and `npm ci` installs there: pi 1.x
//! (`@earendil-works/pi-coding-agent`), pi 0.x (`@mariozechner/pi-coding-agent`, pi's old name)
//! and oh-my-pi (`@oh-my-pi/pi-coding-agent`, run by the `bun` package). The harness scripts in
//! `tests/oracle/harness` open a file exactly as the agent resumes a session and print what it
//! sees (tests/oracle/README.md). Every case runs against every agent of its dialect.
//!
//! For every writer on every clean fixture (the hand-made ones and those the agents wrote,
//! `tests/fixtures/agents`) and a generated session, the suite runs the writer on a copy, opens
//! the result in the agents of its dialect (and in the other agent when both read the file: no
//! title slot), lets the agent continue (`appendUser`, `appendAssistant`, `reopen`) and
//! compares, before and after the continuation:
//!
//! * the agent's leaf with the last entry of the file (where sesstree left the conversation);
//! * the agent's path, past trailing labels and a move marker (the `@` rule), with `log`;
//! * the agent's model context (role and content of each message) with `context --flavor`;
//! * the labels in effect on existing entries with `label --json`, the name with `name`;
//! * that opening never rewrote the file, and the continuation hangs under that leaf.
//!
//! Then the other way round: files the agents wrote with their own operations (label,
//! setName, navigate with a summary, branchWithSummary, fork) read in sesstree as in the agent;
//! and sessions the agents write from nothing through their API, one per scenario (compactions
//! that keep nothing, system-prompt patches, context edits, usage outside replies, …), read in
//! sesstree as in the agent, `fsck` clean, the agent messages message for message and `stats`'
//! cost equal to the agent's own total. `SESSTREE_ORACLE_FIXTURES=tests/fixtures/agents` keeps
//! those sessions as fixtures (one folder per agent version): that is how they are made anew
//! when a version moves.
//!
//! Claude Code transcripts and Codex rollouts (tests/fixtures/claude, codex) imported by
//! `sesstree import` are compared record for record with what oh-my-pi's own importer writes of
//! them (`harness/foreign-import.ts`), and opened and continued in oh-my-pi and pi.
//!
//! Run it with `(cd tests/oracle && npm ci) && cargo test --test oracle` (`.ci/run` does). It
//! needs node 20 or later; without the installed agents it fails, it never skips. It is not
//! part of a plain `cargo test` (`test = false` in Cargo.toml). `SESSTREE_ORACLE_JOBS` sets the
//! number of parallel cases (default: the number of CPUs), `SESSTREE_ORACLE_FILTER` keeps the
//! cases whose name contains it, `SESSTREE_ORACLE_REPORT=FILE` appends the report to FILE.
//!
//! Differences that are right are listed in [`EXPECTED`] with the reason; any other fails.

use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::time::Instant;

use serde_json::{Value, json};

/// Differences that are right: (a part of the case name, agent (`*`, a dialect, or a dialect
/// and version prefix such as `pi 0.`), check, why).
const EXPECTED: &[(&str, &str, &str, &str)] = &[
    (
        "agent-fork",
        "*",
        "no file",
        "the agent writes this fork only later: a fork of the root prompt starts an empty session (all agents), pi 0.x writes a session only at its first reply, oh-my-pi at its first write (FORMAT §4.7, CHANGES R5)",
    ),
    (
        "",
        "omp",
        "migratedOnWrite",
        "oh-my-pi migrates a file below version 3 at its first write and rewrites it whole, with a title slot (FORMAT §4.2, §11)",
    ),
    (
        " writers-pi",
        "pi 0.",
        "continue",
        "the fixture holds no assistant message, a file pi 0.x never leaves on disk: continuing one, pi 0.x writes its header and entries again (FORMAT §4.7; pi 1.x writes at the first user message, CHANGES R5)",
    ),
    (
        "written null-content",
        "pi 0.",
        "context",
        "an assistant message without content: pi 0.x passes the missing content through, pi 1.x reads it as [] (CHANGES R1), and sesstree follows the newest",
    ),
    (
        "written null-content",
        "pi 0.",
        "agent messages",
        "an assistant message without content: pi 0.x passes the missing content through, pi 1.x reads it as [] (CHANGES R1), and sesstree follows the newest",
    ),
    (
        "branch writers-omp",
        "pi 0.",
        "continue",
        "the fork holds user messages and no reply, a file sesstree writes as pi 1.x does (CHANGES R5); pi 0.x, which wrote a session only at its first reply, writes its header and entries again when it continues one (FORMAT §4.7)",
    ),
    (
        "fork-at-user writers-omp",
        "pi 0.",
        "continue",
        "the fork holds user messages and no reply, a file sesstree writes as pi 1.x does (CHANGES R5); pi 0.x, which wrote a session only at its first reply, writes its header and entries again when it continues one (FORMAT §4.7)",
    ),
    (
        "prune-abandoned markers",
        "pi 0.",
        "continue",
        "pruning the abandoned first root leaves only a branch summary and a move marker, no message: a file pi 0.x never leaves on disk, so continuing it pi 0.x writes its header and entries again (FORMAT §4.7; pi 1.x and oh-my-pi continue it in place)",
    ),
    (
        "",
        "pi",
        "migratedOnOpen",
        "pi migrates a file below version 3 as it opens it (FORMAT §11); sesstree appends at the file's version",
    ),
];

/// The fixtures that are files an agent writes. The damaged ones (FORMAT §4), the empty ones,
/// `future-version` (writers refuse it) and `odd-fields` (ids that are not strings) are left
/// out on purpose: they test sesstree's tolerance, not files to continue.
const CLEAN: &[&str] = &[
    "linear.jsonl",
    "branched.jsonl",
    "labeled.jsonl",
    "omp-title.jsonl",
    "pi.jsonl",
    "v1.jsonl",
    "v2-hook.jsonl",
    "v4.jsonl",
    "version-string.jsonl",
    "compactions.jsonl",
    "archive.jsonl",
    "markers.jsonl",
    "roles.jsonl",
    "all-types.jsonl",
    "selector.jsonl",
    "escapes.jsonl",
    "branch-omp.jsonl",
    "branch-omp-noslot.jsonl",
    "branch-pi.jsonl",
    "writers-omp.jsonl",
    "writers-pi.jsonl",
    "writers-slot.jsonl",
    "maint-pi-v1.jsonl",
    "prune-labels.jsonl",
];

struct Env {
    /// tests/oracle: the harness scripts and the agents installed by `npm ci`.
    oracle: PathBuf,
    bin: PathBuf,
    repo: PathBuf,
    agents: Vec<Agent>,
}

/// One agent release from the registry, as `tests/oracle/package.json` pins it.
#[derive(Clone, Debug)]
struct Agent {
    /// Whose files it writes and reads: `pi` or `omp` (sesstree's `--flavor`).
    dialect: &'static str,
    /// The npm package, under tests/oracle/node_modules.
    package: &'static str,
    /// Its version, read from the installed package.
    version: String,
}

/// The agents the suite runs, newest pi first. Moving to a new release is its version in
/// tests/oracle/package.json (and `npm install` there to update the lockfile).
const AGENTS: &[(&str, &str)] = &[
    ("pi", "@earendil-works/pi-coding-agent"),
    ("pi", "@mariozechner/pi-coding-agent"),
    ("omp", "@oh-my-pi/pi-coding-agent"),
];

impl Agent {
    /// `pi 1.6.0`, as rows and messages name it.
    fn tag(&self) -> String {
        format!("{} {}", self.dialect, self.version)
    }

    /// Whether the suite opens `source` (or what a writer made of it) in this agent: a session
    /// an agent wrote (`tests/fixtures/agents/<agent>-<version>`) only in that agent, since an
    /// older or other agent does not know what a newer one writes; any other file in every
    /// agent.
    fn reads(&self, source: &Path) -> bool {
        let folder = source.parent().and_then(Path::file_name).and_then(|f| f.to_str());
        let from_agent =
            source.parent().and_then(Path::parent).is_some_and(|p| p.ends_with("fixtures/agents"));
        !from_agent || folder == Some(self.tag().replace(' ', "-").as_str())
    }

    /// The harness command for this agent: node for pi's compiled JavaScript, bun for
    /// oh-my-pi's TypeScript sources.
    fn command(&self, env: &Env) -> Command {
        let harness = env.oracle.join("harness");
        if self.dialect == "omp" {
            let mut cmd = Command::new(env.oracle.join("node_modules/.bin/bun"));
            cmd.arg(harness.join("omp.ts"));
            cmd
        } else {
            let mut cmd = Command::new("node");
            cmd.arg(harness.join("pi.mjs")).arg("--package").arg(self.package);
            cmd
        }
    }
}

fn env() -> Env {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let oracle = std::env::var_os("SESSTREE_ORACLE")
        .map_or_else(|| repo.join("tests/oracle"), PathBuf::from);
    let modules = oracle.join("node_modules");
    let agents = AGENTS
        .iter()
        .map(|&(dialect, package)| {
            let manifest = modules.join(package).join("package.json");
            let text = std::fs::read_to_string(&manifest).unwrap_or_else(|e| {
                panic!(
                    "{}: {e}: install the agents first: (cd tests/oracle && npm ci)",
                    manifest.display()
                )
            });
            let v: Value = serde_json::from_str(&text).unwrap();
            Agent { dialect, package, version: v["version"].as_str().unwrap().to_string() }
        })
        .collect();
    let node = Command::new("node").arg("--version").output();
    let version = match node {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => panic!("node is missing: the oracle suite needs node 20 or later on PATH"),
    };
    let major: u32 = version.trim_start_matches('v').split('.').next().unwrap().parse().unwrap();
    assert!(major >= 20, "node {version} is too old: the oracle needs node 20 or later");
    Env { oracle, bin: PathBuf::from(env!("CARGO_BIN_EXE_sesstree")), repo, agents }
}

// ---------------------------------------------------------------------------------------------
// Running the two programs.

fn sesstree(env: &Env, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(&env.bin);
    cmd.current_dir(dir).args(args);
    for var in ["SESSTREE_FILE", "SESSTREE_SUMMARIZER", "PI_CODING_AGENT_DIR", "PI_CONFIG_DIR"] {
        cmd.env_remove(var);
    }
    cmd.env("HOME", dir.join("home"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("NO_COLOR", "1")
        .env("SESSTREE_PAGER", "cat");
    cmd.output().expect("run sesstree")
}

/// `sesstree --json ARGS -f FILE` as JSON lines (one value per line).
fn sesstree_json(env: &Env, file: &Path, args: &[&str]) -> Result<Vec<Value>, String> {
    let dir = file.parent().unwrap();
    let mut all = vec!["-f", file.to_str().unwrap(), "--json"];
    all.extend_from_slice(args);
    let out = sesstree(env, dir, &all);
    if !out.status.success() {
        return Err(format!(
            "sesstree {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{}: {e}: {l}", args.join(" "))))
        .collect()
}

/// The agent opens `file` (a copy of it; a new session in `keep` when `file` is `None`), with
/// the blobs of `blobs` in its blob store, applies `ops` and prints what it sees.
fn agent(
    env: &Env,
    agent: &Agent,
    file: Option<&Path>,
    ops: &Value,
    keep: Option<&Path>,
    blobs: Option<&Path>,
) -> Value {
    let scratch = tempfile::tempdir().unwrap();
    let ops_file = scratch.path().join("ops.json");
    std::fs::write(&ops_file, ops.to_string()).unwrap();
    let mut cmd = agent.command(env);
    // The harness gives the agent a fresh HOME, but bun's `os.homedir()` reads HOME once, as the
    // process starts: without this, oh-my-pi's directories (its blob store among them) would be
    // the user's own.
    cmd.env("HOME", scratch.path());
    if let Some(b) = blobs {
        cmd.arg("--blobs").arg(b);
    }
    match file {
        Some(f) => cmd.arg(f),
        None => cmd.arg("--new"),
    };
    cmd.arg("--ops-file").arg(&ops_file);
    if let Some(k) = keep {
        cmd.arg("--keep").arg(k);
    }
    let out = cmd.output().expect("run the agent harness");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{} {}: no JSON ({e}): {}",
            agent.tag(),
            file.map_or("--new".into(), |f| f.display().to_string()),
            String::from_utf8_lossy(&out.stderr).chars().rev().take(800).collect::<String>()
        )
    })
}

fn continuation() -> Value {
    json!([
        {"op": "appendUser", "text": "oracle: go on from here"},
        {"op": "appendAssistant", "text": "oracle: going on"},
        {"op": "reopen"},
    ])
}

// ---------------------------------------------------------------------------------------------
// What a file says.

/// The records of a file: the parsed lines after a title slot, blank lines skipped.
fn records(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("type").and_then(Value::as_str) != Some("title"))
        .collect()
}

fn has_slot(bytes: &[u8]) -> bool {
    bytes.starts_with(br#"{"type":"title""#)
}

fn version(recs: &[Value]) -> i64 {
    let v = recs.first().and_then(|h| h.get("version"));
    match v {
        Some(Value::Number(n)) => n.as_i64().unwrap_or(1),
        Some(Value::String(s)) => s.parse().unwrap_or(1),
        _ => 1,
    }
}

fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// Whether a record is a move marker: a `branch_summary` with an empty summary.
fn is_marker(rec: &Value) -> bool {
    rec.get("type").and_then(Value::as_str) == Some("branch_summary")
        && rec.get("summary").is_none_or(|s| s.as_str().is_some_and(|s| s.trim().is_empty()))
}

/// The blob store of the oh-my-pi files sesstree wrote in `file`'s directory, when there is
/// one: `sesstree` runs there with that directory's `home` as HOME.
fn blob_store(file: &Path) -> Option<PathBuf> {
    Some(file.parent()?.join("home/.omp/agent/blobs")).filter(|d| d.is_dir())
}

/// Puts back, in place, the base64 of every image `data` that names a blob of `store`
/// (`blob:sha256:<hash>`), as oh-my-pi's loader does (`resolveImageData`, blob-store.ts); a
/// blob the store does not hold stays a reference, as there.
fn resolve_blobs(v: &mut Value, store: &Path) {
    match v {
        Value::Object(o) => {
            let blob =
                o.get("data").and_then(Value::as_str).and_then(|d| d.strip_prefix("blob:sha256:"));
            if let Some(bytes) = blob.and_then(|hash| std::fs::read(store.join(hash)).ok()) {
                o.insert("data".into(), Value::String(base64(&bytes)));
            }
            o.values_mut().for_each(|x| resolve_blobs(x, store));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| resolve_blobs(x, store)),
        _ => {}
    }
}

/// Standard padded base64, as `Buffer.toString("base64")` writes it.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            let c = if i <= chunk.len() { ABC[(n >> (18 - 6 * i) & 63) as usize] } else { b'=' };
            out.push(char::from(c));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The comparison.

/// Compares what the agent saw (`view`) with what sesstree reads from `file`, images that name
/// a blob of `blobs` read from there as oh-my-pi reads them. `name_too`: the agent is the file's
/// own, whose name sesstree reports.
fn compare(
    env: &Env,
    agent_name: &str,
    view: &Value,
    file: &Path,
    blobs: Option<&Path>,
    name_too: bool,
    diffs: &mut Vec<(String, String)>,
) {
    let bytes = std::fs::read(file).unwrap();
    let recs = records(&bytes);
    let ids_stable = version(&recs) >= 2;
    let mut diff = |check: &str, text: String| diffs.push((check.to_string(), text));

    // The leaf: the last entry in the file (FORMAT §4.3), where sesstree left the conversation.
    let agent_leaf = view.get("leafId").and_then(id_text);
    if ids_stable {
        let last =
            recs.last().filter(|_| recs.len() > 1).and_then(|r| r.get("id")).and_then(id_text);
        if agent_leaf != last {
            diff("leaf", format!("agent {agent_leaf:?}, last entry {last:?}"));
        }
    }

    // The path, past trailing labels, title changes and session names, then one move marker
    // (the `@` rule, `Session::position`), with sesstree's `@` (`show @`) and the parents in
    // the file.
    let by_id =
        |id: &str| recs.iter().rev().find(|r| r.get("id").and_then(id_text).as_deref() == Some(id));
    let mut path: Vec<String> = view["branch"]
        .as_array()
        .map(|a| a.iter().filter_map(id_text).collect())
        .unwrap_or_default();
    while path.last().and_then(|id| by_id(id)).is_some_and(|r| {
        matches!(r["type"].as_str(), Some("label" | "title_change" | "session_info"))
    }) {
        path.pop();
    }
    if path.last().and_then(|id| by_id(id)).is_some_and(is_marker) {
        path.pop();
    }
    let at = match sesstree_json(env, file, &["show", "@"]) {
        Ok(v) => v.first().and_then(|e| e.get("id")).and_then(id_text),
        Err(_) => None,
    };
    let mut ours = Vec::new();
    let mut next = at;
    while let Some(id) = next.take() {
        if ours.contains(&id) {
            break;
        }
        // A parent that is not in the file ends the path (an orphan is a root).
        let Some(rec) = by_id(&id) else { break };
        next = rec.get("parentId").and_then(id_text);
        ours.push(id);
    }
    ours.reverse();
    if ids_stable && ours != path {
        diff("path", format!("agent {path:?}\n      sesstree {ours:?}"));
    }

    // The context, message by message: role and content.
    let pick = |m: &Value| json!([m.get("role"), m.get("content")]);
    if let Some(d) = messages_differ(
        env,
        file,
        &view["context"]["llm"],
        &["context", "--flavor", agent_name],
        blobs,
        pick,
    ) {
        diff("context", d);
    }

    // The labels in effect whose target exists (`label --list` leaves the others to fsck).
    let ids: HashSet<String> =
        view["ids"].as_array().map(|a| a.iter().filter_map(id_text).collect()).unwrap_or_default();
    let theirs: Vec<Value> = view["labels"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|l| l.get("targetId").and_then(id_text).is_some_and(|t| ids.contains(&t)))
                .map(|l| json!([l.get("targetId").and_then(id_text), l["label"]]))
                .collect()
        })
        .unwrap_or_default();
    match sesstree_json(env, file, &["label"]) {
        Ok(rows) => {
            let ours: Vec<Value> = rows
                .iter()
                .map(|l| json!([l.get("targetId").and_then(id_text), l["label"]]))
                .collect();
            if ids_stable && ours != theirs {
                diff("labels", format!("agent {theirs:?}, sesstree {ours:?}"));
            }
        }
        Err(e) => diff("labels", e),
    }

    if name_too {
        let theirs = view.get("sessionName").cloned().unwrap_or(Value::Null);
        match sesstree_json(env, file, &["name"]) {
            Ok(v) => {
                let ours = v.first().map_or(Value::Null, |n| n["name"].clone());
                if ours != theirs {
                    diff("name", format!("agent {theirs}, sesstree {ours}"));
                }
            }
            Err(e) => diff("name", e),
        }
    }
}

/// Whether the agent's messages (`theirs`, a JSON array) and those of `sesstree --json ARGS`
/// differ in what `pick` takes of each message: where they first do, or sesstree's error.
/// sesstree's images that name a blob of `blobs` are read from there first, as oh-my-pi reads
/// them.
fn messages_differ(
    env: &Env,
    file: &Path,
    theirs: &Value,
    args: &[&str],
    blobs: Option<&Path>,
    pick: impl Fn(&Value) -> Value,
) -> Option<String> {
    let theirs: Vec<Value> =
        theirs.as_array().map(|a| a.iter().map(&pick).collect()).unwrap_or_default();
    let mut ours = match sesstree_json(env, file, args) {
        Ok(mut v) if !v.is_empty() => v.swap_remove(0)["messages"].take(),
        Ok(_) => Value::Null,
        Err(e) => return Some(e),
    };
    if let Some(store) = blobs {
        resolve_blobs(&mut ours, store);
    }
    let ours: Vec<Value> =
        ours.as_array().map(|a| a.iter().map(&pick).collect()).unwrap_or_default();
    if ours == theirs {
        return None;
    }
    let at =
        ours.iter().zip(&theirs).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
    Some(format!(
        "{} vs {} messages, first difference at {at}:\n      agent    {}\n      sesstree {}",
        theirs.len(),
        ours.len(),
        theirs.get(at).map_or("-".into(), |m| cut(&m.to_string())),
        ours.get(at).map_or("-".into(), |m| cut(&m.to_string())),
    ))
}

fn cut(s: &str) -> String {
    if s.chars().count() > 300 {
        format!("{}…", s.chars().take(300).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Opens `file` in `who`, continues, reopens, and compares both views with sesstree.
/// Returns the differences.
fn check_in_agent(env: &Env, who: &Agent, file: &Path, name_too: bool) -> Vec<(String, String)> {
    let agent_name = who.dialect;
    let mut diffs = Vec::new();
    let keep = file.parent().unwrap().join(format!("kept-{}", who.tag().replace(' ', "-")));
    let _ = std::fs::remove_dir_all(&keep);
    let blobs = blob_store(file).filter(|_| who.dialect == "omp");
    let out = agent(env, who, Some(file), &continuation(), Some(&keep), blobs.as_deref());
    if let Some(e) = out.get("openError").and_then(Value::as_str) {
        diffs.push(("open".into(), cut(e.lines().next().unwrap_or(e))));
        return diffs;
    }
    let written = &out["writtenOnOpen"];
    if written.as_object().is_some_and(|o| !o.is_empty()) {
        // pi migrates a file below version 3 as it opens it: its own rewrite, not a broken file.
        let old = version(&records(&std::fs::read(file).unwrap())) < 3;
        let check = if old { "migratedOnOpen" } else { "writtenOnOpen" };
        diffs.push((check.into(), cut(&written.to_string())));
    }
    compare(env, agent_name, &out["view"], file, blobs.as_deref(), name_too, &mut diffs);

    // The continuation hangs under the leaf sesstree left, and the agent's file reads the same.
    let ops = out["ops"].as_array().cloned().unwrap_or_default();
    if let Some(e) = ops.iter().find_map(|o| o.get("error")) {
        diffs.push(("continue".into(), e.to_string()));
        return diffs;
    }
    let user = ops.first().and_then(|o| o["result"]["id"].as_str()).unwrap_or_default().to_string();
    let reply = ops.get(1).and_then(|o| o["result"]["id"].as_str()).unwrap_or_default().to_string();
    let after = &out["viewAfter"];
    let node =
        |id: &str| after["tree"].as_array().and_then(|t| t.iter().find(|n| n["id"] == id)).cloned();
    let leaf_before = out["view"].get("leafId").cloned().unwrap_or(Value::Null);
    let parent = node(&user).map_or(Value::Null, |n| n["parentId"].clone());
    if parent != leaf_before {
        diffs.push((
            "continue".into(),
            format!("the new prompt hangs under {parent}, the leaf was {leaf_before}"),
        ));
    }
    if after["leafId"] != reply.as_str() {
        diffs.push((
            "continue".into(),
            format!("leaf after reopening {}, not the reply {reply}", after["leafId"]),
        ));
    }
    let name = file.file_name().unwrap().to_str().unwrap();
    let appended = &out["written"][name];
    let lines: Vec<Value> = appended["appended"]
        .as_array()
        .map(|a| {
            a.iter().filter_map(|l| l.as_str().and_then(|l| serde_json::from_str(l).ok())).collect()
        })
        .unwrap_or_default();
    let new_ids: Vec<Value> =
        lines.iter().map(|l| l.get("id").cloned().unwrap_or(Value::Null)).collect();
    let old = version(&records(&std::fs::read(file).unwrap())) < 3;
    if appended.get("rewritten").is_some() && old {
        // oh-my-pi migrates a file below version 3 at its first write, rewriting it whole.
        diffs.push(("migratedOnWrite".into(), String::new()));
    } else if appended.get("rewritten").is_some() || new_ids != [json!(user), json!(reply)] {
        diffs.push((
            "continue".into(),
            format!("the agent wrote more than its two entries: {}", cut(&appended.to_string())),
        ));
    }
    let mut expected: Vec<Value> = out["view"]["branch"].as_array().cloned().unwrap_or_default();
    expected.push(user.into());
    expected.push(reply.into());
    if after["branch"].as_array() != Some(&expected) {
        diffs.push((
            "continue".into(),
            format!("path after reopening {}", cut(&after["branch"].to_string())),
        ));
    }
    let work = keep.join(file.file_name().unwrap());
    if work.is_file() {
        let mut more = Vec::new();
        compare(env, agent_name, after, &work, blobs.as_deref(), name_too, &mut more);
        diffs.extend(more.into_iter().map(|(c, t)| (format!("{c} after continuing"), t)));
    } else {
        diffs.push(("continue".into(), format!("no kept file {}", work.display())));
    }
    diffs
}

// ---------------------------------------------------------------------------------------------
// The cases.

#[derive(Clone, Debug)]
struct Case {
    /// `writer fixture`, e.g. `checkout-user linear`.
    name: String,
    source: PathBuf,
    /// sesstree commands run in order on the copy (`FILE` stands for it).
    steps: Vec<Vec<String>>,
    /// The file to open: the copy itself, or the new file a step writes.
    output: Option<&'static str>,
}

struct Row {
    name: String,
    agent: String,
    outcome: String,
    unexpected: Vec<String>,
}

fn steps(list: &[&[&str]]) -> Vec<Vec<String>> {
    list.iter().map(|s| s.iter().map(|a| (*a).to_string()).collect()).collect()
}

/// The cases of every writer on one source, with REVs taken from sesstree's own reading.
fn writer_cases(env: &Env, label: &str, source: &Path) -> Vec<Case> {
    let path_rows =
        sesstree_json(env, source, &["log", "--filter", "all", "--reverse"]).unwrap_or_default();
    let is_user = |r: &&Value| r["text"].as_str().is_some_and(|t| t.starts_with("user:"));
    let id = |r: &Value| r.get("id").and_then(id_text);
    let users: Vec<&Value> = path_rows.iter().filter(is_user).collect();
    let root_user =
        path_rows.first().filter(|r| is_user(r) && r["parentId"].is_null()).and_then(id);
    let later_user = users.iter().rev().find(|r| !r["parentId"].is_null()).and_then(|r| id(r));
    // A non-user entry in the middle of the path, not the position itself.
    let middle = {
        let n = path_rows.len();
        path_rows
            .iter()
            .take(n.saturating_sub(1))
            .skip(n / 2)
            .chain(path_rows.iter().take(n / 2))
            .find(|r| !is_user(r) && r["type"] != "label")
            .and_then(id)
    };
    let mut out = Vec::new();
    let mut add = |writer: &str, list: &[&[&str]], output: Option<&'static str>| {
        out.push(Case {
            name: format!("{writer} {label}"),
            source: source.to_path_buf(),
            steps: steps(list),
            output,
        });
    };
    if let Some(u) = &later_user {
        add("checkout-user", &[&["checkout", u]], None);
        add(
            "checkout-summary",
            &[&["checkout", u, "--summary", "oracle: the abandoned part"]],
            None,
        );
        add("branch", &[&["branch", u, "-o", "new.jsonl"]], Some("new.jsonl"));
        add("fork-at-user", &[&["fork", "--at", u, "-o", "new.jsonl"]], Some("new.jsonl"));
    }
    if let Some(m) = &middle {
        add("checkout-entry", &[&["checkout", m]], None);
        add("checkout-label", &[&["checkout", m, "--label", "oracle-here"]], None);
        add("checkout-back", &[&["checkout", m], &["checkout", "-"]], None);
        add("label", &[&["label", m, "oracle-mark"]], None);
    }
    if let Some(r) = &root_user {
        add("checkout-root", &[&["checkout", r]], None);
        add(
            "checkout-root-summary",
            &[&["checkout", r, "--summary", "oracle: from the top"]],
            None,
        );
        add("branch-root", &[&["branch", r, "-o", "new.jsonl"]], Some("new.jsonl"));
    }
    add("fork-at", &[&["fork", "--at", "@", "-o", "new.jsonl"]], Some("new.jsonl"));
    add("name", &[&["name", "Oracle name"]], None);
    add("name-omp", &[&["name", "--dialect", "omp", "Oracle name"]], None);
    add("name-pi", &[&["name", "--dialect", "pi", "Oracle name"]], None);
    add("migrate", &[&["migrate", "--no-backup"]], None);
    add("fsck-repair", &[&["fsck", "--repair", "-o", "new.jsonl"]], Some("new.jsonl"));
    add("prune-abandoned", &[&["prune", "--abandoned", "--no-backup"]], None);
    add("prune-markers", &[&["prune", "--markers", "--no-backup"]], None);
    add(
        "prune-restore",
        &[
            &["prune", "--abandoned", "--save", "saved.jsonl"],
            &["prune", "--restore", "saved.jsonl", "--no-backup"],
        ],
        None,
    );
    out
}

/// Runs one writer case: the steps on a copy, then the result in each agent that reads it.
fn run_case(env: &Env, case: &Case) -> Vec<Row> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(case.source.file_name().unwrap());
    std::fs::copy(&case.source, &file).unwrap();
    let before = std::fs::read(&file).unwrap();
    let row = |agent: &str, outcome: String, unexpected: Vec<String>| Row {
        name: case.name.clone(),
        agent: agent.to_string(),
        outcome,
        unexpected,
    };
    for step in &case.steps {
        let mut args = vec!["-f".to_string(), file.to_str().unwrap().to_string()];
        args.extend(step.iter().cloned());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = sesstree(env, dir.path(), &refs);
        let fsck_found = step[0] == "fsck" && out.status.code() == Some(1);
        if !out.status.success() && !fsck_found {
            let err = String::from_utf8_lossy(&out.stderr);
            let first = err.lines().find(|l| l.starts_with("error")).unwrap_or("").to_string();
            let mut unexpected = Vec::new();
            if std::fs::read(&file).unwrap() != before {
                unexpected.push("refused, but the file changed".to_string());
            }
            if case.output.is_some_and(|o| dir.path().join(o).exists()) {
                unexpected.push("refused, but a new file was written".to_string());
            }
            let code = out.status.code().unwrap_or(-1);
            return vec![row(
                "-",
                format!("refused (exit {code}): {}", cut(first.trim())),
                unexpected,
            )];
        }
    }
    let result = match case.output {
        Some(o) => dir.path().join(o),
        None => file.clone(),
    };
    if !result.exists() {
        return vec![row("-", "no file written".to_string(), Vec::new())];
    }
    let bytes = std::fs::read(&result).unwrap();
    // Whose file it is: a slot is oh-my-pi's, which pi cannot open; otherwise sesstree's
    // reading of its flavour, and both agents read it.
    let dialect = if has_slot(&bytes) {
        "omp".to_string()
    } else {
        sesstree_json(env, &result, &["context"])
            .ok()
            .and_then(|v| v.first().and_then(|c| c["flavor"].as_str().map(str::to_string)))
            .unwrap_or_else(|| "omp".to_string())
    };
    let forced = case.steps.iter().flatten().skip_while(|a| *a != "--dialect").nth(1).cloned();
    let dialect = forced.unwrap_or(dialect);
    let slot = has_slot(&bytes);
    env.agents
        .iter()
        .filter(|a| !slot || a.dialect == "omp")
        .filter(|a| a.reads(&case.source))
        .map(|a| {
            let own = a.dialect == dialect;
            let diffs = check_in_agent(env, a, &result, own);
            let tag = if own { a.tag() } else { format!("{} (other)", a.tag()) };
            judge(&case.name, a, tag, diffs)
        })
        .collect()
}

/// `prune --images` of an oh-my-pi file with inline images (tests/fixtures/images-omp.jsonl) in
/// one oh-my-pi version: the agent, its blob store holding what prune moved there, reads the
/// result as sesstree does (images read back from the store) and continues it; and it builds
/// from the result the same leaf, path, context, labels and name as from the original. Not run
/// in pi: prune refuses --images for pi files (pi has no blob store, and reads a `blob:`
/// reference as the image's data).
fn images_case(env: &Env, who: &Agent) -> Vec<Row> {
    let name = "prune-images images-omp";
    let source = env.repo.join("tests/fixtures/images-omp.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("images-omp.jsonl");
    std::fs::copy(&source, &file).unwrap();
    let path = file.to_str().unwrap();
    let out = sesstree(env, dir.path(), &["-f", path, "prune", "--images", "--no-backup"]);
    let moved = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).contains("blob:sha256:");
    let mut diffs = Vec::new();
    if !out.status.success() || !moved || blob_store(&file).is_none() {
        let err = String::from_utf8_lossy(&out.stderr);
        diffs.push(("prune".into(), format!("no image moved to the blob store: {}", cut(&err))));
        return vec![judge(name, who, who.tag(), diffs)];
    }
    diffs.extend(check_in_agent(env, who, &file, true));
    // The original as the agent reads it, against sesstree's reading of the result.
    let original = agent(env, who, Some(&source), &json!([]), None, None);
    let mut from_original = Vec::new();
    let blobs = blob_store(&file);
    compare(env, who.dialect, &original["view"], &file, blobs.as_deref(), true, &mut from_original);
    diffs.extend(from_original.into_iter().map(|(c, t)| (format!("{c} of the original"), t)));
    vec![judge(name, who, who.tag(), diffs)]
}

/// Sorts differences into the expected ones (with their reason) and the rest.
fn judge(name: &str, who: &Agent, tag: String, diffs: Vec<(String, String)>) -> Row {
    let mut outcome = Vec::new();
    let mut unexpected = Vec::new();
    for (check, text) in diffs {
        let known = EXPECTED.iter().find(|(pattern, a, c, _)| {
            let agent_fits = *a == "*" || who.tag().starts_with(a);
            name.contains(pattern) && agent_fits && check.starts_with(c)
        });
        match known {
            Some((_, _, _, why)) => outcome.push(format!("{check}: {why}")),
            None => unexpected.push(format!("{check}: {text}")),
        }
    }
    let outcome = match (outcome.is_empty(), unexpected.is_empty()) {
        (true, true) => "agrees".to_string(),
        (true, false) => "differs".to_string(),
        _ => outcome.join("; "),
    };
    Row { name: name.to_string(), agent: tag, outcome, unexpected }
}

/// The agents' own operations on a fixture of their dialect, read back in sesstree.
fn agent_case(env: &Env, who: &Agent, label: &str, source: &Path) -> Vec<Row> {
    let agent_name = who.dialect;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(source.file_name().unwrap());
    std::fs::copy(source, &file).unwrap();
    let path_rows =
        sesstree_json(env, &file, &["log", "--filter", "all", "--reverse"]).unwrap_or_default();
    let ids: Vec<String> = path_rows.iter().filter_map(|r| r.get("id").and_then(id_text)).collect();
    let users: Vec<String> = path_rows
        .iter()
        .filter(|r| r["text"].as_str().is_some_and(|t| t.starts_with("user:")))
        .filter_map(|r| r.get("id").and_then(id_text))
        .collect();
    let Some(mid) = ids.get(ids.len() / 2).cloned() else { return Vec::new() };
    let name = format!("agent-ops {label}");
    let mut ops = vec![
        json!({"op": "label", "target": mid, "label": "agent-mark"}),
        json!({"op": "setName", "name": "Agent name"}),
    ];
    if let Some(u) = users.last() {
        ops.push(json!({"op": "navigate", "target": u, "summary": "agent: the abandoned part"}));
    }
    ops.push(json!({"op": "branchWithSummary", "from": mid, "summary": "agent: from the middle"}));
    ops.extend(continuation().as_array().unwrap().iter().cloned());
    let keep = dir.path().join("kept");
    let out = agent(env, who, Some(&file), &Value::Array(ops), Some(&keep), None);
    let mut diffs = Vec::new();
    if let Some(e) = out.get("openError").and_then(Value::as_str) {
        diffs.push(("open".to_string(), cut(e)));
    } else {
        for op in out["ops"].as_array().into_iter().flatten() {
            if let Some(e) = op.get("error") {
                diffs.push(("op".to_string(), format!("{} {e}", op["op"])));
            }
        }
        compare(
            env,
            agent_name,
            &out["viewAfter"],
            &keep.join(file.file_name().unwrap()),
            None,
            true,
            &mut diffs,
        );
    }
    let mut rows = vec![judge(&name, who, who.tag(), diffs)];

    // The agent's fork of the latest user message: a new file.
    if let Some(u) = users.iter().rev().find(|u| ids.first() != Some(u)).or(users.last()) {
        let name = format!("agent-fork {label}");
        let keep = dir.path().join("kept-fork");
        let ops = json!([{"op": "fork", "target": u}]);
        let out = agent(env, who, Some(&file), &ops, Some(&keep), None);
        let mut diffs = Vec::new();
        let created = out["written"].as_object().and_then(|w| {
            w.values().find(|f| f["created"] == true).and_then(|f| f["lines"].as_array()).cloned()
        });
        match created {
            Some(lines) => {
                let local = dir.path().join("forked.jsonl");
                let text: String =
                    lines.iter().filter_map(Value::as_str).map(|l| format!("{l}\n")).collect();
                std::fs::write(&local, text).unwrap();
                compare(env, agent_name, &out["viewAfter"], &local, None, true, &mut diffs);
            }
            // No file yet: pi writes a new session only once it holds an assistant message,
            // oh-my-pi a fork of a root prompt once it is renamed or continued (FORMAT §4.7).
            None if out["ops"][0].get("result").is_some() => {
                diffs.push(("no file".to_string(), String::new()));
            }
            None => diffs.push(("fork".to_string(), cut(&out["ops"].to_string()))),
        }
        rows.push(judge(&name, who, who.tag(), diffs));
    }
    rows
}

/// The sessions the newest agent of each dialect wrote (`tests/fixtures/agents/<agent>-<version>`,
/// made by [`what_the_agents_write_reads_the_same`]), labelled `<agent>-<version>/<scenario>`.
fn agent_fixtures(env: &Env) -> Vec<(String, PathBuf)> {
    let root = env.repo.join("tests/fixtures/agents");
    let mut out = Vec::new();
    for dialect in ["pi", "omp"] {
        let Some(newest) = env.agents.iter().find(|a| a.dialect == dialect) else { continue };
        let folder = newest.tag().replace(' ', "-");
        let Ok(dir) = std::fs::read_dir(root.join(&folder)) else { continue };
        let mut files: Vec<PathBuf> = dir.filter_map(|e| Some(e.ok()?.path())).collect();
        files.sort();
        for f in files.into_iter().filter(|f| f.extension().is_some_and(|e| e == "jsonl")) {
            let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
            out.push((format!("{folder}/{stem}"), f));
        }
    }
    out
}

/// A generated session (`gen-session.py`), small enough to run quickly.
fn generated(env: &Env, dir: &Path) -> PathBuf {
    let script = env.repo.join("bench/gen-session.py");
    let out = dir.join("generated.jsonl");
    let status = Command::new("python3")
        .arg(&script)
        .args(["-n", "400", "-b", "6", "--seed", "34", "--scale", "0.02", "-o"])
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("python3 {}: {e}", script.display()));
    assert!(status.success(), "{} failed", script.display());
    out
}

fn run_parallel<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> Vec<R> + Sync) -> Vec<R> {
    let jobs = std::env::var("SESSTREE_ORACLE_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, usize::from));
    let n = items.len();
    let queue = Mutex::new(items.into_iter().enumerate().collect::<VecDeque<_>>());
    let results = Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let next = queue.lock().unwrap().pop_front();
                    let Some((i, item)) = next else { break };
                    let r = f(item);
                    results.lock().unwrap().push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().flat_map(|(_, r)| r).collect()
}

#[test]
fn every_write_is_one_the_agents_continue() {
    let env = env();
    let start = Instant::now();
    let scratch = tempfile::tempdir().unwrap();
    let mut sources: Vec<(String, PathBuf)> = CLEAN
        .iter()
        .map(|f| {
            (f.trim_end_matches(".jsonl").to_string(), env.repo.join("tests/fixtures").join(f))
        })
        .collect();
    sources.extend(agent_fixtures(&env));
    sources.push(("demo".into(), env.repo.join("examples/demo.jsonl")));
    sources.push(("generated".into(), generated(&env, scratch.path())));
    let filter = std::env::var("SESSTREE_ORACLE_FILTER").unwrap_or_default();

    let mut cases: Vec<Case> =
        sources.iter().flat_map(|(label, path)| writer_cases(&env, label, path)).collect();
    cases.retain(|c| c.name.contains(&filter));
    let mut rows = run_parallel(cases, |c| run_case(&env, &c));
    let omp = env.agents.iter().filter(|a| a.dialect == "omp");
    let images: Vec<&Agent> =
        omp.filter(|a| format!("prune-images images-omp {}", a.tag()).contains(&filter)).collect();
    rows.extend(run_parallel(images, |a| images_case(&env, a)));

    // The agents' own operations, on the sources of their dialect that they open.
    let agent_sources: Vec<(&Agent, String, PathBuf)> = sources
        .iter()
        .filter(|(_, p)| version(&records(&std::fs::read(p).unwrap())) >= 3)
        .flat_map(|(label, p)| {
            let slot = has_slot(&std::fs::read(p).unwrap());
            env.agents
                .iter()
                .filter(move |a| (!slot || a.dialect == "omp") && a.reads(p))
                .map(move |a| (a, label.clone(), p.clone()))
        })
        .filter(|(a, label, _)| format!("agent-ops {label} {}", a.tag()).contains(&filter))
        .collect();
    rows.extend(run_parallel(agent_sources, |(a, label, p)| agent_case(&env, a, &label, &p)));
    report(&rows, start);
}

/// Prints the rows (and writes them to `$SESSTREE_ORACLE_REPORT`), and fails on any
/// unexpected difference.
fn report(rows: &[Row], start: Instant) {
    let mut report = String::new();
    let mut failures = 0;
    for r in rows {
        let mark = if r.unexpected.is_empty() { "ok  " } else { "FAIL" };
        writeln!(report, "{mark} {:<40} {:<20} {}", r.name, r.agent, r.outcome).unwrap();
        for u in &r.unexpected {
            failures += 1;
            writeln!(report, "       {u}").unwrap();
        }
    }
    writeln!(
        report,
        "{} rows, {failures} unexpected differences, {:.1} s",
        rows.len(),
        start.elapsed().as_secs_f64()
    )
    .unwrap();
    println!("{report}");
    if let Ok(path) = std::env::var("SESSTREE_ORACLE_REPORT") {
        use std::io::Write as _;
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
        f.write_all(report.as_bytes()).unwrap();
    }
    assert_eq!(failures, 0, "the agents disagree with sesstree:\n{report}");
}

// ---------------------------------------------------------------------------------------------
// Files the agents write through their own API.

/// A usage block costing `cost` (pi-ai's `Usage`).
fn usage(cost: f64) -> Value {
    json!({"input": 100, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 120,
           "cost": {"input": cost / 2.0, "output": cost / 2.0, "cacheRead": 0, "cacheWrite": 0, "total": cost}})
}

fn assistant(content: Value, stop: &str, cost: f64) -> Value {
    json!({"op": "appendMessage", "message": {"role": "assistant", "content": content,
        "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5",
        "usage": usage(cost), "stopReason": stop}})
}

/// A conversation of six entries: `$0` user, `$1` a tool call, `$2` its result, `$3` the
/// answer, `$4` user, `$5` the answer.
fn conversation() -> Vec<Value> {
    vec![
        json!({"op": "appendUser", "text": "Read src/main.rs and tell me what it does."}),
        assistant(
            json!([{"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": "src/main.rs"}}]),
            "toolUse",
            0.01,
        ),
        json!({"op": "appendMessage", "message": {"role": "toolResult", "toolCallId": "call_1",
            "toolName": "read", "content": [{"type": "text", "text": "fn main() { println!(\"hi\"); }"}], "isError": false}}),
        assistant(json!([{"type": "text", "text": "It prints hi."}]), "stop", 0.02),
        json!({"op": "appendUser", "text": "Make it print hello instead."}),
        assistant(json!([{"type": "text", "text": "Done: it prints hello."}]), "stop", 0.03),
    ]
}

/// The scenarios: (name, the agents that write it (a dialect, or a dialect and version prefix),
/// the ops after the conversation).
fn scenarios() -> Vec<(&'static str, &'static [&'static str], Vec<Value>)> {
    let both: &[&str] = &["pi", "omp"];
    let pi: &[&str] = &["pi"];
    // What only pi 1.x writes (CHANGES.md Part R): pi 0.x never wrote these entries.
    let pi1: &[&str] = &["pi 1."];
    let omp: &[&str] = &["omp"];
    let cont = || continuation().as_array().unwrap().clone();
    let mut out = vec![
        ("conversation", both, cont()),
        (
            "labels-name",
            both,
            vec![
                json!({"op": "label", "target": "$0", "label": "start"}),
                json!({"op": "setName", "name": "Scenario name"}),
                json!({"op": "label", "target": "$3", "label": "answer"}),
                json!({"op": "label", "target": "$0", "label": null}),
                json!({"op": "setName", "name": "Renamed scenario"}),
            ],
        ),
        ("navigate-summary", both, {
            let mut v =
                vec![json!({"op": "navigate", "target": "$4", "summary": "agent: tried hello"})];
            v.extend(cont());
            v
        }),
        ("navigate-entry", both, {
            let mut v = vec![json!({"op": "navigate", "target": "$2"})];
            v.extend(cont());
            v
        }),
        ("branch-summary", both, {
            let mut v = vec![
                json!({"op": "branchWithSummary", "from": "$1", "summary": "agent: from the call"}),
            ];
            v.extend(cont());
            v
        }),
        ("compaction-kept", both, {
            let mut v = vec![
                json!({"op": "appendCompaction", "summary": "agent: the story so far", "firstKept": "$4"}),
            ];
            v.extend(cont());
            v
        }),
        ("fork-before", both, {
            let mut v = vec![json!({"op": "fork", "target": "$4"})];
            v.extend(cont());
            v
        }),
        (
            "custom-message",
            both,
            vec![
                json!({"op": "appendCustomMessage", "customType": "note", "content": "an extension's note"}),
                json!({"op": "appendUser", "text": "go on"}),
            ],
        ),
        (
            "settings-pi",
            pi,
            vec![
                json!({"op": "appendModelChange", "provider": "openai", "modelId": "gpt-5"}),
                json!({"op": "appendThinkingLevelChange", "level": "high"}),
                json!({"op": "appendUser", "text": "and now?"}),
            ],
        ),
        (
            "settings-omp",
            omp,
            vec![
                json!({"op": "appendModelChange", "model": "openai/gpt-5"}),
                json!({"op": "appendThinkingLevelChange", "level": "high"}),
                json!({"op": "appendUser", "text": "and now?"}),
            ],
        ),
        // pi 1.x: the rest are CHANGES.md Part R.
        ("compaction-none", pi, {
            let mut v = vec![
                json!({"op": "appendCompaction", "summary": "agent: nothing kept", "firstKept": null}),
            ];
            v.extend(cont());
            v
        }),
        ("fork-at", pi1, {
            let mut v = vec![json!({"op": "fork", "target": "$3", "position": "at"})];
            v.extend(cont());
            v
        }),
        (
            "system-patches",
            pi1,
            vec![
                json!({"op": "appendMessage", "message": {"role": "system", "content": "You are a careful agent.",
                    "sections": {"rules": "Be brief."},
                    "toolsAdded": [{"name": "read", "description": "Read a file", "parameters": {"type": "object"}}]}}),
                json!({"op": "appendUser", "text": "again"}),
                assistant(json!([{"type": "text", "text": "again"}]), "stop", 0.0),
                json!({"op": "appendMessage", "message": {"role": "system", "content": "Also: answer in English.",
                    "sections": {"rules": null, "style": "Plain."}, "toolsRemoved": [{"name": "read"}]}}),
                json!({"op": "appendUser", "text": "once more"}),
            ],
        ),
        (
            "system-compaction",
            pi1,
            vec![
                json!({"op": "appendMessage", "message": {"role": "system", "content": "You are a careful agent."}}),
                json!({"op": "appendUser", "text": "again"}),
                json!({"op": "appendCompaction", "summary": "agent: compacted", "firstKept": "$7"}),
                json!({"op": "appendMessage", "message": {"role": "system", "content": "A later patch."}}),
                json!({"op": "appendUser", "text": "once more"}),
            ],
        ),
        (
            "context-edits",
            pi1,
            vec![
                json!({"op": "appendContextEdit", "target": "$2", "replacement": {"content": "[elided]"}}),
                json!({"op": "appendContextEdit", "target": "$0", "replacement": null}),
                json!({"op": "appendContextEdit", "target": "$2", "replacement": {"content": "[elided again]"}}),
                json!({"op": "appendUser", "text": "go on"}),
            ],
        ),
        (
            "usage-sources",
            pi1,
            vec![
                json!({"op": "appendUsage", "kind": "cache_warm", "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage(0.004)}),
                json!({"op": "appendMessage", "message": {"role": "toolResult", "toolCallId": "call_9", "toolName": "task",
                    "content": [{"type": "text", "text": "sub-agent done"}], "isError": false, "usage": usage(0.005)}}),
                json!({"op": "appendCompaction", "summary": "agent: compacted", "firstKept": "$4", "usage": usage(0.006)}),
                json!({"op": "branchWithSummary", "from": "$3", "summary": "agent: summarized", "usage": usage(0.007)}),
            ],
        ),
        (
            "nested-calls",
            pi1,
            vec![
                assistant(
                    json!([{"type": "toolCall", "id": "call_2", "name": "codemode", "arguments": {"code": "tools.read('a')"}}]),
                    "toolUse",
                    0.0,
                ),
                json!({"op": "appendMessage", "message": {"role": "toolResult", "toolCallId": "call_2", "toolName": "codemode",
                    "content": [{"type": "text", "text": "ok"}], "isError": false,
                    "nestedCalls": {"complete": true, "calls": [
                        {"id": "n1", "name": "read", "arguments": {"path": "a"}, "status": "ok", "durationMs": 3},
                        {"id": "n2", "name": "bash", "argumentsBytes": 12, "status": "error", "error": "exit 1"}]}}}),
            ],
        ),
        (
            "null-content",
            pi,
            vec![
                json!({"op": "appendMessage", "message": {"role": "assistant", "api": "anthropic-messages",
                "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage(0.0), "stopReason": "stop"}}),
                json!({"op": "appendUser", "text": "hello?"}),
            ],
        ),
    ];
    for (_, _, ops) in &mut out {
        let mut all = conversation();
        all.append(ops);
        *ops = all;
    }
    out
}

/// Sesstree's reading of a file an agent wrote, beyond `compare`: fsck finds nothing, the
/// agent messages match, and (where the agent totals it) the cost.
fn compare_written(
    env: &Env,
    who: &Agent,
    view: &Value,
    file: &Path,
    diffs: &mut Vec<(String, String)>,
) {
    let dir = file.parent().unwrap();
    let out = sesstree(env, dir, &["-f", file.to_str().unwrap(), "fsck"]);
    if !out.status.success() {
        diffs.push(("fsck".into(), cut(&String::from_utf8_lossy(&out.stdout))));
    }
    let pick =
        |m: &Value| json!([m.get("role"), m.get("content"), m.get("summary"), m.get("customType")]);
    let args = ["context", "--flavor", who.dialect, "--agent-messages"];
    let theirs = &view["context"]["agentMessages"];
    if let Some(d) = messages_differ(env, file, theirs, &args, None, pick) {
        diffs.push(("agent messages".into(), d));
    }
    if let Some(total) = view["cost"]["total"].as_f64() {
        match sesstree_json(env, file, &["stats"]) {
            Ok(v) => {
                let ours = v.first().and_then(|s| s["usage"]["cost"].as_f64()).unwrap_or(f64::NAN);
                if (ours - total).abs() > 1e-9 {
                    diffs.push(("cost".into(), format!("agent {total}, sesstree {ours}")));
                }
            }
            Err(e) => diffs.push(("cost".into(), e)),
        }
    }
}

/// One scenario in one agent: the agent writes a new session, sesstree reads it.
fn scenario_case(env: &Env, who: &Agent, name: &str, ops: &[Value]) -> Vec<Row> {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("kept");
    let out = agent(env, who, None, &Value::Array(ops.to_vec()), Some(&keep), None);
    let case = format!("written {name}");
    let row = |outcome: &str| {
        vec![Row {
            name: case.clone(),
            agent: who.tag(),
            outcome: outcome.into(),
            unexpected: Vec::new(),
        }]
    };
    let mut diffs = Vec::new();
    for op in out["ops"].as_array().into_iter().flatten() {
        if let Some(e) = op["error"].as_str() {
            if e.contains("is not a function") {
                return row(&format!("n/a: {} is not in this version", op["op"]));
            }
            diffs.push(("op".to_string(), format!("{} {e}", op["op"])));
        }
    }
    let Some(file) = out["workFile"].as_str().map(PathBuf::from).filter(|f| f.is_file()) else {
        diffs.push(("no file".into(), cut(&out.to_string())));
        return vec![judge(&case, who, who.tag(), diffs)];
    };
    if let Some(dest) = std::env::var_os("SESSTREE_ORACLE_FIXTURES") {
        let dest = PathBuf::from(dest).join(who.tag().replace(' ', "-"));
        std::fs::create_dir_all(&dest).unwrap();
        std::fs::copy(&file, dest.join(format!("{name}.jsonl"))).unwrap();
    }
    compare(env, who.dialect, &out["viewAfter"], &file, None, true, &mut diffs);
    compare_written(env, who, &out["viewAfter"], &file, &mut diffs);
    vec![judge(&case, who, who.tag(), diffs)]
}

#[test]
fn what_the_agents_write_reads_the_same() {
    let env = env();
    let start = Instant::now();
    let filter = std::env::var("SESSTREE_ORACLE_FILTER").unwrap_or_default();
    let cases: Vec<(&Agent, &str, Vec<Value>)> = scenarios()
        .into_iter()
        .flat_map(|(name, dialects, ops)| {
            env.agents
                .iter()
                .filter(move |a| dialects.iter().any(|d| a.tag().starts_with(d)))
                .map(move |a| (a, name, ops.clone()))
        })
        .filter(|(a, name, _)| format!("written {name} {}", a.tag()).contains(&filter))
        .collect();
    let rows = run_parallel(cases, |(a, name, ops)| scenario_case(&env, a, name, &ops));
    report(&rows, start);
}

// ---------------------------------------------------------------------------------------------
// Claude Code transcripts and Codex rollouts imported (issue 48).

/// The hand-made Claude Code transcripts and Codex rollouts of tests/fixtures.
const FOREIGN: &[&str] = &[
    "claude/rewind.jsonl",
    "claude/compact.jsonl",
    "claude/edit.jsonl",
    "claude/sidechain.jsonl",
    "claude/sidechain/subagents/agent-d4e5f6.jsonl",
    "codex/rollback.jsonl",
    "codex/compact.jsonl",
];

/// A file's records with what each import makes afresh replaced: the session id and the
/// times of the slot, the header and the entries the import appends, and the ids those entries
/// get (numbered in order of appearance, so the links between them still compare).
fn without_fresh_fields(lines: &[Value]) -> Vec<Value> {
    let mut fresh: Vec<String> = Vec::new();
    let mut name = |id: &Value| match id.as_str() {
        Some(s) if !s.starts_with("claude-") && !s.starts_with("codex-") => {
            let n = fresh.iter().position(|f| f == s).unwrap_or_else(|| {
                fresh.push(s.to_string());
                fresh.len() - 1
            });
            json!(format!("fresh-{n}"))
        }
        _ => id.clone(),
    };
    lines
        .iter()
        .map(|line| {
            let mut line = line.clone();
            let kind = line["type"].as_str().unwrap_or_default().to_string();
            let Some(map) = line.as_object_mut() else { return line };
            match kind.as_str() {
                "title" => {
                    map.remove("updatedAt");
                }
                "session" => {
                    map.remove("id");
                    map.remove("timestamp");
                }
                "title_change" | "custom" => {
                    map.remove("timestamp");
                }
                _ => {}
            }
            for key in ["id", "parentId"] {
                if let Some(v) = map.get(key).cloned() {
                    map.insert(key.into(), name(&v));
                }
            }
            line
        })
        .collect()
}

/// `sesstree import --to AGENT` of one transcript, opened and continued in the agent as
/// sesstree reads it; for oh-my-pi, also the same records as its own importer writes (but for
/// what each import makes afresh).
fn claude_case(env: &Env, who: &Agent, fixture: &str) -> Vec<Row> {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join(fixture.replace('/', "-"));
    std::fs::copy(env.repo.join("tests/fixtures").join(fixture), &source).unwrap();
    let imported = dir.path().join("imported.jsonl");
    let (src, out_file) = (source.to_str().unwrap(), imported.to_str().unwrap());
    let out = sesstree(env, dir.path(), &["import", src, "--to", who.dialect, "-o", out_file]);
    let name = format!("import-{} {fixture}", who.dialect);
    let mut diffs = Vec::new();
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    if !out.status.success() && who.dialect == "pi" && stderr.contains("nothing to import") {
        let outcome = "n/a: no message outside sidechains, and pi writes no session without one";
        return vec![Row { name, agent: who.tag(), outcome: outcome.into(), unexpected: vec![] }];
    }
    if !out.status.success() {
        diffs.push(("import".into(), stderr));
        return vec![judge(&name, who, who.tag(), diffs)];
    }
    if who.dialect == "omp" {
        let agent = fixture.split('/').next().unwrap_or_default();
        diffs.extend(importer_differences(env, agent, &source, &imported));
    }
    diffs.extend(check_in_agent(env, who, &imported, true));
    vec![judge(&name, who, who.tag(), diffs)]
}

/// How sesstree's oh-my-pi import of `source` differs from oh-my-pi's own.
fn importer_differences(
    env: &Env,
    agent: &str,
    source: &Path,
    imported: &Path,
) -> Vec<(String, String)> {
    let fixture = source.display();
    let mut diffs = Vec::new();
    let ours: Vec<Value> = String::from_utf8_lossy(&std::fs::read(imported).unwrap())
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let cwd = ours.get(1).and_then(|h| h["cwd"].as_str()).unwrap_or_default().to_string();
    // A Codex rollout's creation time is its `session_meta`'s, as oh-my-pi lists it.
    let text = std::fs::read_to_string(source).unwrap();
    let first: Value =
        serde_json::from_str(text.lines().next().unwrap_or("{}")).unwrap_or_default();
    let created = first["payload"]["timestamp"].as_str().unwrap_or_default().to_string();
    let harness = env.oracle.join("harness/foreign-import.ts");
    let run = Command::new(env.oracle.join("node_modules/.bin/bun"))
        .arg(harness)
        .args([agent, source.to_str().unwrap(), &cwd, &created])
        .output()
        .expect("run the import harness");
    let theirs: Value = serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "foreign-import.ts {fixture}: no JSON ({e}): {}",
            String::from_utf8_lossy(&run.stderr)
        )
    });
    let theirs: Vec<Value> = theirs["lines"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| serde_json::from_str(l.as_str()?).ok())
        .collect();
    let (ours_cmp, theirs_cmp) = (without_fresh_fields(&ours), without_fresh_fields(&theirs));
    if ours_cmp.len() != theirs_cmp.len() {
        diffs.push((
            "records".into(),
            format!("{} records, oh-my-pi's importer writes {}", ours_cmp.len(), theirs_cmp.len()),
        ));
    }
    if let Some((i, (a, b))) =
        ours_cmp.iter().zip(&theirs_cmp).enumerate().find(|(_, (a, b))| a != b)
    {
        diffs.push((
            "records".into(),
            format!("line {}: {} vs {}", i + 1, cut(&a.to_string()), cut(&b.to_string())),
        ));
    }
    diffs
}

#[test]
fn foreign_imports_are_the_importer_s_own_and_the_agents_continue_them() {
    let env = env();
    let start = Instant::now();
    let filter = std::env::var("SESSTREE_ORACLE_FILTER").unwrap_or_default();
    let cases: Vec<(&Agent, &str)> = env
        .agents
        .iter()
        .flat_map(|a| FOREIGN.iter().map(move |f| (a, *f)))
        .filter(|(a, f)| format!("import-{} {f} {}", a.dialect, a.tag()).contains(&filter))
        .collect();
    let rows = run_parallel(cases, |(a, f)| claude_case(&env, a, f));
    report(&rows, start);
}
