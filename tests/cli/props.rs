//! Property tests (issue 8): random trees and random sequences of writing commands, run through
//! the binary and checked against a small model after every step. `label` moves the leaf onto
//! a new entry under the old leaf and sets the label in effect, while `@` stays where it was;
//! `checkout` moves the position as the agent's `/tree` does; `name` sets the name in effect;
//! and every command that fails leaves the file byte for byte as it was. (The branch and
//! migrate properties live next to their code: `ops::branch` and `migrate` unit tests.)

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;

use crate::common::TestEnv;

const HEADER: &str =
    r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w"}"#;

/// One command of a sequence. Indexes pick among the entries the model knows at that point.
#[derive(Debug, Clone)]
enum Op {
    Label(Index, String),
    Clear(Index),
    Checkout(Index),
    Name(String),
    Fail(u8, Index),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<Index>(), "( ?)[a-z]{1,6}( [a-z]{1,4})?( ?)").prop_map(|(i, t)| Op::Label(i, t)),
        1 => any::<Index>().prop_map(Op::Clear),
        3 => any::<Index>().prop_map(Op::Checkout),
        1 => "[A-Z][a-z]{2,8}( [a-z]{2,6}){0,2}".prop_map(Op::Name),
        2 => (0u8..6, any::<Index>()).prop_map(|(k, i)| Op::Fail(k, i)),
    ]
}

/// A tree of messages: each entry's parent is an earlier one (or none, another root), users
/// and assistants mixed.
fn tree() -> impl Strategy<Value = Vec<(Option<Index>, bool)>> {
    prop::collection::vec((prop::option::weighted(0.9, any::<Index>()), any::<bool>()), 1..10)
}

/// What the model knows of one entry.
#[derive(Debug, Clone)]
struct Entry {
    id: String,
    parent: Option<String>,
    user: bool,
}

#[derive(Debug)]
struct Model {
    entries: Vec<Entry>,
    /// The last entry (the leaf).
    leaf: String,
    /// What `@` names: the leaf, or the entry a bare-move marker marks (`None`: before the
    /// first prompt).
    position: Option<String>,
    /// The labels in effect, in the label map's order.
    labels: Vec<(String, String)>,
    name: Option<String>,
    /// The file has a damaged line (a torn tail, stepped over by the next append).
    damaged: bool,
}

impl Model {
    fn pick(&self, i: &Index) -> &Entry {
        &self.entries[i.index(self.entries.len())]
    }

    /// A bookkeeping entry (a `label`, or the `title_change` of `name`): the leaf, but `@`
    /// steps over it and stays where it was.
    fn append_bookkeeping(&mut self, id: &str, user: bool) {
        self.entries.push(Entry { id: id.to_string(), parent: Some(self.leaf.clone()), user });
        self.leaf = id.to_string();
    }

    fn set_label(&mut self, target: &str, text: Option<String>) {
        let pos = self.labels.iter().position(|(t, _)| t == target);
        match (pos, text) {
            (Some(p), Some(text)) => self.labels[p].1 = text,
            (None, Some(text)) => self.labels.push((target.to_string(), text)),
            (Some(p), None) => {
                self.labels.remove(p);
            }
            (None, None) => {}
        }
    }
}

/// Writes the tree and returns the model of it.
fn write_tree(env: &TestEnv, shape: &[(Option<Index>, bool)], torn: bool) -> Model {
    let mut text = format!("{HEADER}\n");
    let mut entries: Vec<Entry> = Vec::new();
    for (i, (parent, user)) in shape.iter().enumerate() {
        let id = format!("e{i:07}");
        let parent = match (parent, i) {
            (Some(p), i) if i > 0 => Some(entries[p.index(i)].id.clone()),
            _ => None,
        };
        let role = if *user { "user" } else { "assistant" };
        let content = if *user {
            format!("\"prompt {i}\"")
        } else {
            format!(r#"[{{"type":"text","text":"answer {i}"}}]"#)
        };
        let parent_json = parent.as_ref().map_or("null".to_string(), |p| format!("\"{p}\""));
        text.push_str(&format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent_json},"timestamp":"2026-02-16T10:21:{:02}.000Z","message":{{"role":"{role}","content":{content}}}}}"#,
            i % 60
        ));
        text.push('\n');
        entries.push(Entry { id, parent, user: *user });
    }
    if torn {
        text.push_str(r#"{"type":"message","id":"torn","parentId":"e0"#);
    }
    env.write("p.jsonl", &text);
    let leaf = entries.last().expect("at least one entry").id.clone();
    Model {
        entries,
        position: Some(leaf.clone()),
        leaf,
        labels: Vec::new(),
        name: None,
        damaged: torn,
    }
}

/// Runs `sesstree -f p.jsonl ARGS`: exit status, stdout, stderr.
fn run(env: &TestEnv, args: &[&str]) -> (i32, String, String) {
    let out = env.cmd().arg("-f").arg("p.jsonl").args(args).output().expect("run");
    (
        out.status.code().expect("no signal"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{stdout}: {e}"))
}

fn last_line(env: &TestEnv) -> Value {
    let bytes = env.read("p.jsonl");
    let text = String::from_utf8_lossy(&bytes);
    json(text.lines().last().expect("a line"))
}

/// Applies one op to the file (through the binary) and to the model, checking the outcome.
fn step(env: &TestEnv, m: &mut Model, op: &Op) -> Result<(), TestCaseError> {
    let before = env.read("p.jsonl");
    match op {
        Op::Label(i, text) => {
            let target = m.pick(i).id.clone();
            let (code, out, err) = run(env, &["--json", "label", &target, text]);
            // A label that looks like the start of an id (lower-case hex) is refused.
            let trimmed = text.trim();
            if trimmed.len() >= 4 && trimmed.chars().all(|c| ('a'..='f').contains(&c)) {
                prop_assert_eq!(code, 2, "{}", err);
                prop_assert_eq!(env.read("p.jsonl"), before, "a refused label writes nothing");
                return Ok(());
            }
            prop_assert_eq!(code, 0, "{}", err);
            let id = json(&out)["id"].as_str().expect("id").to_string();
            let line = last_line(env);
            prop_assert_eq!(&line["parentId"], &Value::from(m.leaf.as_str()), "under the old leaf");
            prop_assert_eq!(&line["targetId"], &Value::from(target.as_str()));
            prop_assert_eq!(&line["label"], &Value::from(text.trim()));
            m.set_label(&target, Some(text.trim().to_string()));
            m.append_bookkeeping(&id, false);
        }
        Op::Clear(i) => {
            let target = m.pick(i).id.clone();
            let (code, out, err) = run(env, &["--json", "label", &target, "--clear"]);
            prop_assert_eq!(code, 0, "{}", err);
            let id = json(&out)["id"].as_str().expect("id").to_string();
            prop_assert!(last_line(env).get("label").is_none(), "a clear has no label field");
            m.set_label(&target, None);
            m.append_bookkeeping(&id, false);
        }
        Op::Checkout(i) => {
            let target = m.pick(i).clone();
            // FORMAT §6.4: a user message goes back to the editor, so the leaf moves to its
            // parent; anything else becomes the leaf. The current position is a no-op.
            let at = m.position.as_deref() == Some(target.id.as_str()) || m.leaf == target.id;
            let new_leaf =
                if target.user { target.parent.clone() } else { Some(target.id.clone()) };
            let noop = (at && !target.user) || new_leaf == m.position;
            let (code, out, err) = run(env, &["--json", "checkout", &target.id]);
            prop_assert_eq!(code, 0, "{}", err);
            let report = json(&out);
            prop_assert_eq!(&report["noop"], &Value::from(noop), "{}", report);
            prop_assert_eq!(
                &report["newLeafId"],
                &new_leaf.as_deref().map_or(Value::Null, Value::from)
            );
            if noop {
                prop_assert_eq!(env.read("p.jsonl"), before, "a no-op writes nothing");
            } else {
                let line = last_line(env);
                prop_assert_eq!(&line["type"], "branch_summary");
                prop_assert_eq!(&line["summary"], "");
                prop_assert_eq!(
                    &line["parentId"],
                    &new_leaf.as_deref().map_or(Value::Null, Value::from)
                );
                let id = line["id"].as_str().expect("id").to_string();
                m.entries.push(Entry { id: id.clone(), parent: new_leaf.clone(), user: false });
                m.leaf = id;
                m.position = new_leaf;
            }
        }
        Op::Name(text) => {
            let (code, out, err) = run(env, &["--json", "name", "--dialect", "omp", text]);
            prop_assert_eq!(code, 0, "{}", err);
            let report = json(&out);
            prop_assert_eq!(&report["name"], &Value::from(text.as_str()));
            let id = report["id"].as_str().expect("id").to_string();
            m.append_bookkeeping(&id, false);
            m.name = Some(text.clone());
        }
        Op::Fail(kind, i) => {
            let some_id = m.pick(i).id.clone();
            let assistant = m.entries.iter().find(|e| !e.user && e.id.starts_with('e'));
            let (args, expected): (Vec<&str>, i32) = match kind {
                0 => (vec!["label", "zzzz9999", "x"], 4),
                1 => (vec!["checkout", "zzzz9999"], 4),
                2 => (vec!["label", &some_id], 2),
                3 => (vec!["name", "   "], 2),
                4 if m.damaged => (vec!["--strict", "label", &some_id, "x"], 3),
                5 if assistant.is_some() => {
                    (vec!["branch", &assistant.expect("checked").id, "-o", "b.jsonl"], 2)
                }
                _ => (vec!["checkout", &some_id, "--summarize"], 2),
            };
            let (code, _, err) = run(env, &args);
            // The last form may be a no-op (exit 0, nothing to summarize): also untouched.
            if !(args.last() == Some(&"--summarize") && code == 0) {
                prop_assert_eq!(code, expected, "{:?}: {}", args, err);
            }
            prop_assert_eq!(env.read("p.jsonl"), before, "{:?} changed the file", args);
            prop_assert!(!env.path().join("b.jsonl").exists());
            return Ok(());
        }
    }
    // The torn tail, if any, was stepped over by the first append and is a damaged line now.
    check(env, m)
}

/// The reloaded file agrees with the model: `@`, the labels in effect, the name.
fn check(env: &TestEnv, m: &Model) -> Result<(), TestCaseError> {
    let (code, out, err) = run(env, &["--json", "show", "@"]);
    match &m.position {
        Some(p) => {
            prop_assert_eq!(code, 0, "{}", err);
            prop_assert_eq!(&json(&out)["id"], &Value::from(p.as_str()), "@ is the model's");
        }
        None => prop_assert_eq!(code, 4, "@ is undefined before the first prompt: {}", out),
    }
    let (code, out, err) = run(env, &["--json", "label", "--list"]);
    prop_assert_eq!(code, 0, "{}", err);
    let labels: Vec<(String, String)> = out
        .lines()
        .map(|l| {
            let v = json(l);
            (v["targetId"].as_str().unwrap().to_string(), v["label"].as_str().unwrap().to_string())
        })
        .collect();
    prop_assert_eq!(&labels, &m.labels, "labels in effect, in map order");
    if let Some(name) = &m.name {
        let (code, out, err) = run(env, &["--json", "name"]);
        prop_assert_eq!(code, 0, "{}", err);
        prop_assert_eq!(&json(&out)["name"], &Value::from(name.as_str()));
    }
    Ok(())
}

proptest! {
    // Every case runs the binary a few dozen times: few cases, each a long sequence.
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn writing_commands_follow_the_model(
        shape in tree(),
        torn in prop::bool::weighted(0.25),
        ops in prop::collection::vec(op(), 1..8),
    ) {
        let env = TestEnv::new();
        let mut m = write_tree(&env, &shape, torn);
        for op in &ops {
            step(&env, &mut m, op)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every hit of `grep --json` names its entry: `show` of its `rev` is the entry of its
    /// `entryId`, on the line it gives, and `onActivePath` says whether the leaf's path holds it.
    #[test]
    fn every_grep_hit_rev_resolves_to_its_entry(shape in tree(), torn in prop::bool::weighted(0.25)) {
        let env = TestEnv::new();
        let m = write_tree(&env, &shape, torn);
        let out = env.cmd().args(["grep", "--json", "[0-9]", "p.jsonl"]).output().expect("run");
        prop_assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let hits: Vec<Value> = stdout.lines().map(json).collect();
        // Every entry holds a digit, so every entry is a hit, once, in file order.
        let ids: Vec<&str> = hits.iter().map(|h| h["entryId"].as_str().unwrap()).collect();
        let all: Vec<&str> = m.entries.iter().map(|e| e.id.as_str()).collect();
        prop_assert_eq!(&ids, &all);
        let mut on_path = std::collections::HashSet::new();
        let mut at = Some(m.leaf.clone());
        while let Some(id) = at {
            at = m.entries.iter().find(|e| e.id == id).and_then(|e| e.parent.clone());
            on_path.insert(id);
        }
        let text = String::from_utf8_lossy(&env.read("p.jsonl")).into_owned();
        for hit in &hits {
            let rev = hit["rev"].as_str().unwrap();
            let shown = env.cmd().args(["show", "--json", rev]).output().expect("run");
            prop_assert_eq!(shown.status.code(), Some(0));
            let entry = json(&String::from_utf8_lossy(&shown.stdout));
            prop_assert_eq!(&entry["id"], &hit["entryId"]);
            let line = hit["line"].as_u64().unwrap() as usize;
            let written: Value = serde_json::from_str(text.lines().nth(line - 1).unwrap()).unwrap();
            prop_assert_eq!(&written["id"], &hit["entryId"]);
            let id = hit["entryId"].as_str().unwrap();
            prop_assert_eq!(hit["onActivePath"].as_bool(), Some(on_path.contains(id)));
        }
    }
}
