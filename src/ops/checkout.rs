//! Planning a `checkout`: moving the leaf in the same file as the agent's `/tree` navigation
//! does (FORMAT §6.2–§6.4, SPEC `checkout`).
//!
//! [`navigate`] works out everything that does not depend on a hook or a summarizer: the
//! position the move starts from, the no-op rule, the common ancestor and the abandoned
//! entries (`collectEntriesForBranchSummary`), the new leaf and the editor prefill. [`plan`]
//! then turns that and the summary, if any, into the lines to append. [`run`] is the whole
//! checkout `sesstree checkout` and the tree selector do once the move is known: the
//! `session_before_tree` hook, the choice of the summary, the plan and its append; [`notify`]
//! then tells the `session_tree` hook. What they print is the caller's.
//!
//! The agent keeps the leaf in memory and persists a bare move only when something is appended
//! next; sesstree exits right away, so a move without a summary is persisted with the marker
//! the agent itself uses for that, a `branch_summary` with an empty summary. When the current
//! leaf is such a marker, the position it marks (its parent) is where the next move starts.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::format::Dialect;
use crate::format::entry::{Content, Object, Payload, Role};
use crate::hooks::{Hooks, SESSION_BEFORE_TREE, SESSION_TREE};
use crate::id::EntryId;
use crate::id_gen::IdGen;
use crate::ops::label::normalize;
use crate::ops::{entry_line, id_taken};
use crate::process::CancelToken;
use crate::row::entry::Entry;
use crate::row::text::is_user_request;
use crate::session::Session;
use crate::store::Locked;
use crate::summarize::{self, FileOps};

/// Where a checkout starts, where it goes, and what it leaves behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Navigation {
    /// The entry the user named.
    pub target: u32,
    /// The file's current leaf (the last record), when it has an id.
    pub leaf: Option<u32>,
    /// Where the move starts: the leaf, or the parent of an empty-summary marker leaf.
    pub old_leaf: Option<u32>,
    /// The target is where the leaf already is, or the leaf would not move (a user message
    /// whose parent is the position): nothing to do ("Already at this point"); a user
    /// message's prefill is still in `editor_text`.
    pub noop: bool,
    /// The deepest entry on both the old path and the target's path.
    pub common_ancestor: Option<u32>,
    /// The abandoned entries, oldest first: the old path below the common ancestor.
    pub entries: Vec<u32>,
    /// Where the leaf goes: the target, or its parent for a user request or custom message
    /// (`None`: the target was a root, so the next entry is a new root).
    pub new_leaf: Option<u32>,
    /// The text the agent would put back into the editor, for a target the leaf moves past.
    pub editor_text: Option<String>,
}

/// Works out a checkout of `target` (steps 1–4 of SPEC `checkout`).
pub fn navigate(session: &Session, target: u32) -> Result<Navigation> {
    let leaf = session.leaf();
    // The position `@` names: the leaf, or the entry a trailing move marker marks.
    let old_leaf = session.position()?;
    let value = session.value(target)?;
    // The newest agent still rewinds past a user prompt that is already the leaf (§6.4 step 3).
    // A checkout of the marker itself is a no-op too: it is where the leaf is.
    let user_message = Payload::from_value(&value).role() == Some(Role::User);
    let at_leaf = Some(target) == old_leaf || Some(target) == leaf;
    let (noop, common_ancestor, entries, new_leaf, editor_text) = if at_leaf && !user_message {
        (true, Some(target), Vec::new(), Some(target), None)
    } else {
        let (entries, common) = collect_entries_for_branch_summary(session, old_leaf, target);
        let (new_leaf, editor_text) = destination(session, target, &value);
        // A user message whose parent is already the position (`checkout U` again, after the
        // first left a marker under U's parent): the leaf would not move and nothing is
        // abandoned (U is off the old path), so another marker would only repeat the last one.
        // The prefill is still given. The position must be known: an id-less last record
        // gives no position.
        let known = old_leaf.is_some() || leaf != old_leaf;
        (new_leaf == old_leaf && known, common, entries, new_leaf, editor_text)
    };
    Ok(Navigation { target, leaf, old_leaf, noop, common_ancestor, entries, new_leaf, editor_text })
}

/// FORMAT §6.4 step 9: a user request or a custom message moves the leaf to its parent and
/// gives its text back to the editor; anything else becomes the leaf.
fn destination(session: &Session, target: u32, value: &Value) -> (Option<u32>, Option<String>) {
    // The content and details sit on the message, or on a custom message's entry.
    let none = Object::default();
    let (members, content, custom_message) = match Payload::from_value(value) {
        Payload::Message(m) => (m.members, m.content, false),
        Payload::CustomMessage(m) => (m.members, m.content, true),
        _ => (none, Content::Absent, false),
    };
    let skill = members.text("customType").is_some_and(|t| t.is("skill-prompt"));
    if is_user_request(&Entry::from_value(value, None)) {
        // A user request is a `message` (role user, or a custom-role prompt) or a
        // `custom_message`. For a skill the user invoked, the editor gets what they typed, not
        // the skill's body.
        let details = members.member("details").and_then(|d| d.object()).filter(|_| skill);
        let typed = details.and_then(|d| d.text("prompt"));
        let text = typed.map_or_else(|| content.text(), |t| t.decode()).into_owned();
        return (session.parent(target), Some(text));
    }
    if custom_message && !skill {
        return (session.parent(target), Some(content.text().into_owned()));
    }
    (Some(target), None)
}

/// `collectEntriesForBranchSummary` (FORMAT §6.2): the entries on the old path below the
/// deepest entry it shares with the target's path, oldest first, and that shared entry.
pub(crate) fn collect_entries_for_branch_summary(
    session: &Session,
    old_leaf: Option<u32>,
    target: u32,
) -> (Vec<u32>, Option<u32>) {
    let Some(old_leaf) = old_leaf else { return (Vec::new(), None) };
    let old_path: HashSet<u32> = session.path_to_root(old_leaf).into_iter().collect();
    let common = session.path_to_root(target).into_iter().rev().find(|i| old_path.contains(i));
    let mut entries = Vec::new();
    let mut cur = Some(old_leaf);
    while let Some(i) = cur {
        if Some(i) == common {
            break;
        }
        entries.push(i);
        cur = session.parent(i);
    }
    entries.reverse();
    (entries, common)
}

/// A summary to hang at the destination.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The summary text (an empty one is no summary).
    pub text: String,
    /// The `details` to store, if any.
    pub details: Option<Value>,
    /// Whether a hook supplied it (`fromExtension: true`).
    pub from_extension: bool,
}

/// What a checkout appends.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// The new lines, without newlines, in order.
    pub lines: Vec<Vec<u8>>,
    /// The new entries, parsed (for `--dry-run` and hooks).
    pub entries: Vec<Value>,
    /// Their ids, in order.
    pub appended: Vec<EntryId>,
    /// The `branch_summary` carrying a summary, if one was written (never the bare marker).
    pub summary_entry: Option<Value>,
}

/// Step 5 of SPEC `checkout`: the entries that make the move survive the exit.
///
/// With a non-empty summary, a `branch_summary` under the new leaf (`branchWithSummary`);
/// otherwise the marker, a `branch_summary` with `summary: ""` and
/// `details: {"kind": "checkout"}`. Either records the position the move left in
/// `details.from` (which the agents ignore), for `checkout -` and `reflog`. A `None` new leaf
/// gives a new root. `fromId` is what the `dialect`'s `branchWithSummary` stores: pi (≥ 0.84.3)
/// the leaf being left, the file's last entry (`"root"` when there is none); oh-my-pi (18.2.3)
/// the new leaf (`"root"` for a new root) (CHANGES R5b).
/// A `label` (trimmed as [`normalize`] trims it; nothing left means none) labels the summary
/// entry, or the target when there is no summary, with a `label` entry appended after (pi's
/// `navigateTree` label option).
pub fn plan(
    session: &Session,
    nav: &Navigation,
    summary: Option<&Summary>,
    label: Option<&str>,
    dialect: Dialect,
    ids: &mut IdGen,
    timestamp: &str,
) -> Result<Plan> {
    let summary = summary.filter(|s| !s.text.is_empty());
    let new_leaf = nav.new_leaf.map(|i| id_of(session, i)).transpose()?;
    let mut taken: Vec<String> = Vec::new();
    let mut next_id = |ids: &mut IdGen| {
        // Checked as any writer checks (numeric ids too), and against the ids drawn already.
        let id = ids.entry_id(|c| id_taken(session, c) || taken.iter().any(|t| t == c));
        taken.push(id.clone());
        id
    };

    let from_id = match dialect {
        Dialect::Pi => nav.leaf.and_then(|l| session.record(l).id.clone()),
        Dialect::Omp => new_leaf.clone(),
    };
    let from_id = from_id.as_ref().map_or_else(|| Value::from("root"), EntryId::to_value);
    let from = nav.old_leaf.map(|old| id_of(session, old)).transpose()?.map(|id| id.to_value());
    // Without a summary, the marker: an empty one whose details say it is a checkout.
    let marker = Summary {
        text: String::new(),
        details: Some(json!({"kind": "checkout"})),
        from_extension: false,
    };
    let s = summary.unwrap_or(&marker);
    let mut fields: Vec<(&str, Value)> =
        vec![("fromId", from_id), ("summary", s.text.clone().into())];
    // Where the move came from, for `checkout -` and `reflog` (the agents read a summary's
    // details only for its file lists); an extension's details are its own.
    let from = from.as_ref().filter(|_| !s.from_extension);
    match (&s.details, from) {
        (Some(Value::Object(d)), Some(from)) => {
            let mut d = d.clone();
            d.insert("from".into(), from.clone());
            fields.push(("details", Value::Object(d)));
        }
        (Some(d), _) => fields.push(("details", d.clone())),
        (None, Some(from)) => fields.push(("details", json!({ "from": from }))),
        (None, None) => {}
    }
    if s.from_extension {
        fields.push(("fromExtension", true.into()));
    }
    let summary_id = next_id(ids);
    let mut out = Plan::default();
    let line = entry_line("branch_summary", &summary_id, new_leaf.as_ref(), timestamp, fields);
    push(&mut out, &summary_id, line);
    if summary.is_some() {
        out.summary_entry = out.entries.last().cloned();
    }

    // Trimmed as `label` trims it; a blank label is no label.
    if let Some(label) = normalize(label) {
        let target = if summary.is_some() {
            EntryId::new(summary_id.as_str())
        } else {
            id_of(session, nav.target)?
        };
        let parent = EntryId::new(summary_id.as_str());
        let fields = vec![("targetId", target.to_value()), ("label", label.into())];
        let label_id = next_id(ids);
        push(&mut out, &label_id, entry_line("label", &label_id, Some(&parent), timestamp, fields));
    }
    Ok(out)
}

/// Adds the entry `line`, whose id is `id`, to the plan.
fn push(plan: &mut Plan, id: &str, line: Vec<u8>) {
    let value: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
    plan.appended.push(EntryId::new(id));
    plan.entries.push(value);
    plan.lines.push(line);
}

/// The id the appended entries name `idx` by. It must name `idx` when the file is read back:
/// an entry whose id a later duplicate shadows (FORMAT §4.5) cannot be named, and a marker
/// under its id would land on the later entry (found by the `plan` fuzz target). A REV never
/// resolves to such an entry; this guards the library's index-based API.
fn id_of(session: &Session, idx: u32) -> Result<EntryId> {
    let r = session.record(idx);
    let id = r.id.clone().ok_or_else(|| {
        Error::Usage(format!("{}:{}: the entry has no id", session.path.display(), r.line))
    })?;
    match session.lookup(&id) {
        Some(i) if i == idx => Ok(id),
        later => Err(Error::Usage(format!(
            "{}:{}: entry {id} is shadowed by the later entry with the same id{}; it cannot be named",
            session.path.display(),
            r.line,
            later.map_or(String::new(), |i| format!(" on line {}", session.record(i).line)),
        ))),
    }
}

/// The `TreePreparation` a `session_before_tree` hook gets (FORMAT §6.3), as event fields;
/// `entries` are the parsed [`Navigation::entries`].
pub fn preparation(
    session: &Session,
    nav: &Navigation,
    entries: &[Value],
    user_wants_summary: bool,
) -> Map<String, Value> {
    let mut prep = Map::new();
    prep.insert("targetId".into(), id_value(session, Some(nav.target)));
    prep.insert("oldLeafId".into(), id_value(session, nav.old_leaf));
    prep.insert("commonAncestorId".into(), id_value(session, nav.common_ancestor));
    prep.insert("entriesToSummarize".into(), Value::Array(entries.to_vec()));
    prep.insert("userWantsSummary".into(), user_wants_summary.into());
    let mut fields = Map::new();
    fields.insert("preparation".into(), Value::Object(prep));
    fields
}

/// The hook events a checkout fires: before the move (which may cancel it or give the
/// summary), and after it.
pub const HOOK_EVENTS: [&str; 2] = [SESSION_BEFORE_TREE, SESSION_TREE];

/// How a checkout gets the summary of the abandoned branch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SummarySource {
    /// None: the move alone.
    #[default]
    None,
    /// This text, as given (`--summary`, `--summary-file`, the text typed in the tree
    /// selector).
    Given(String),
    /// The `session_before_tree` hook's summary, else the summarizer's (`--summarize`).
    Summarize {
        /// The command that summarizes ([`summarize::run`]).
        summarizer: Option<String>,
        /// What it is told to do ([`summarize::instructions`]).
        instructions: String,
    },
}

/// A checkout as its caller asks for it, once the move is known ([`navigate`]).
#[derive(Debug)]
pub struct Request<'a> {
    /// Where the summary comes from.
    pub summary: SummarySource,
    /// The label of the summary entry, or of the target without a summary ([`plan`]).
    pub label: Option<&'a str>,
    /// Whose session it is: how a summary lists the files, and what `fromId` names ([`plan`]).
    pub dialect: Dialect,
    /// The `session_before_tree` and `session_tree` hooks.
    pub hooks: &'a Hooks,
    /// Stops a hook or the summarizer; once set, nothing is written.
    pub cancel: &'a CancelToken,
}

/// What a checkout says while it runs, for its caller to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// A summary was asked for, but the move leaves nothing behind: it goes on without one.
    /// `below`: the target is below the current position (else the file has none).
    NothingToSummarize {
        /// Whether the move goes down from the current position.
        below: bool,
    },
    /// The summarizer starts; it may take a while.
    Summarizing,
}

/// What a checkout appended (or, in a dry run, would append).
#[derive(Debug, Clone, PartialEq)]
pub struct Checkout {
    /// The summary of the abandoned branch, if one was had.
    pub summary: Option<Summary>,
    /// The entries.
    pub plan: Plan,
}

/// Refuses, before anything is loaded, a summary asked of nobody: `--summarize` without a
/// summarizer or a `session_before_tree` hook (hooks do not run in a dry run).
pub fn require_summarizer(source: &SummarySource, hooks: &Hooks, dry_run: bool) -> Result<()> {
    let SummarySource::Summarize { summarizer: None, .. } = source else { return Ok(()) };
    if hooks.find(SESSION_BEFORE_TREE).is_some() {
        return Ok(());
    }
    let why = if dry_run { " (hooks do not run with --dry-run)" } else { "" };
    Err(Error::Usage(format!(
        "summarization needs an active model: give --summarizer CMD, set SESSTREE_SUMMARIZER, or install a session_before_tree hook{why}"
    )))
}

/// Runs a checkout that moves the leaf (`nav` is not a no-op): the `session_before_tree` hook
/// (which may cancel, or give the summary), the summary from the first source that has one,
/// the [`plan`], and its append to the file `locked` holds, which is then let go, so that the
/// `session_tree` hook ([`notify`]) may run sesstree on the file. Without `locked` (a dry run)
/// nothing is written.
pub fn run(
    session: &Session,
    nav: &Navigation,
    request: &Request,
    locked: Option<Locked>,
    ids: &mut IdGen,
    clock: &Clock,
    note: &mut dyn FnMut(Note),
) -> Result<Checkout> {
    let hooks = request.hooks;
    let wants_summary = request.summary != SummarySource::None;
    // Payloads are parsed only when something reads them: large abandoned branches are common.
    let before_hook = hooks.find(SESSION_BEFORE_TREE).is_some();
    let entries = if wants_summary || before_hook {
        nav.entries.iter().map(|&i| session.value(i)).collect::<Result<Vec<_>>>()?
    } else {
        Vec::new()
    };
    let reply = if before_hook {
        let fields = preparation(session, nav, &entries, wants_summary);
        hooks.run_before(SESSION_BEFORE_TREE, fields)?
    } else {
        None
    };
    let hook_summary = reply.as_ref().and_then(|r| r.summary.as_ref());
    let given = matches!(request.summary, SummarySource::Given(_));
    let summary = if !wants_summary {
        None
    } else if entries.is_empty() && !given {
        // Nothing is abandoned only on a move down from the position (a move up abandons what is
        // below the target), or from a file without one.
        note(Note::NothingToSummarize { below: nav.old_leaf.is_some() });
        None
    } else {
        Some(summary_of(request, hook_summary, &entries, note)?)
    };

    let plan = plan(
        session,
        nav,
        summary.as_ref(),
        request.label,
        request.dialect,
        ids,
        &clock.now_iso(),
    )?;
    let Some(locked) = locked else { return Ok(Checkout { summary, plan }) };
    if request.cancel.is_cancelled() {
        return Err(Error::Cancelled("interrupted; nothing was written".into()));
    }
    locked.append(session, &plan.lines)?;
    drop(locked);
    Ok(Checkout { summary, plan })
}

/// The summary of a non-empty abandoned branch, from the first source that has one:
/// `--summary`/`--summary-file`, the `session_before_tree` hook, the summarizer.
fn summary_of(
    request: &Request,
    hook_summary: Option<&Value>,
    entries: &[Value],
    note: &mut dyn FnMut(Note),
) -> Result<Summary> {
    if let SummarySource::Given(text) = &request.summary {
        let details = Some(FileOps::collect(entries).details());
        return Ok(Summary { text: text.clone(), details, from_extension: false });
    }
    if let Some(h) = hook_summary {
        return from_hook(h);
    }
    let SummarySource::Summarize { summarizer: Some(cmd), instructions } = &request.summary else {
        return Err(Error::Usage(
            "summarization needs an active model: the session_before_tree hook gave no summary; give --summarizer CMD or set SESSTREE_SUMMARIZER".into(),
        ));
    };
    note(Note::Summarizing);
    let (text, details) =
        summarize::run(cmd, request.cancel, entries, instructions, request.dialect)?;
    Ok(Summary { text, details: Some(details), from_extension: false })
}

/// The summary a `session_before_tree` hook supplies (SPEC §4).
#[derive(Deserialize)]
struct HookSummary {
    summary: String,
    /// `null` is none.
    #[serde(default)]
    details: Option<Value>,
}

/// A hook's `{"summary": "...", "details": ...}`.
fn from_hook(value: &Value) -> Result<Summary> {
    // An object only: serde would also read an array as the members in order.
    let given = value.is_object().then(|| HookSummary::deserialize(value).ok()).flatten();
    let HookSummary { summary, details } = given.ok_or_else(|| {
        Error::Cancelled(
            "the session_before_tree hook's summary must be {\"summary\": TEXT, \"details\": ...}; nothing was written".into(),
        )
    })?;
    Ok(Summary { text: summary, details, from_extension: true })
}

/// Tells the `session_tree` hook about a written checkout. The move stays when the hook fails,
/// which is not a cancel: it fails as [`Error::Failed`] (exit 1), so that no script takes it
/// for "nothing happened".
pub fn notify(hooks: &Hooks, session: &Session, nav: &Navigation, done: &Checkout) -> Result<()> {
    let mut fields = Map::new();
    fields.insert("newLeafId".into(), id_value(session, nav.new_leaf));
    fields.insert("oldLeafId".into(), id_value(session, nav.old_leaf));
    fields.insert("summaryEntry".into(), done.plan.summary_entry.clone().unwrap_or(Value::Null));
    let from_extension = done
        .summary
        .as_ref()
        .filter(|_| done.plan.summary_entry.is_some())
        .map(|s| s.from_extension);
    fields.insert("fromExtension".into(), from_extension.map_or(Value::Null, Value::Bool));
    hooks
        .run(SESSION_TREE, fields)
        .map_err(|e| Error::Failed(format!("the checkout was written, but {e}")))?;
    Ok(())
}

/// The `--json` object of SPEC §5: the move, and what was (or would be) appended; no plan
/// when the leaf does not move.
pub fn outcome_json(
    session: &Session,
    nav: &Navigation,
    plan: Option<&Plan>,
    dry_run: bool,
) -> Value {
    let ids = |list: &[u32]| list.iter().map(|&i| id_value(session, Some(i))).collect::<Vec<_>>();
    json!({
        "oldLeafId": id_value(session, nav.old_leaf),
        "newLeafId": id_value(session, nav.new_leaf),
        "editorText": nav.editor_text,
        "commonAncestorId": id_value(session, nav.common_ancestor),
        "entriesToSummarize": ids(&nav.entries),
        "summaryEntry": plan.and_then(|p| p.summary_entry.clone()),
        "appended": plan.map_or(Vec::new(), |p| p.appended.iter().map(EntryId::to_value).collect()),
        "appendedEntries": plan.map_or(Vec::new(), |p| p.entries.clone()),
        "noop": nav.noop,
        "dryRun": dry_run,
    })
}

/// The id of the entry at `idx` as JSON, `null` for none.
fn id_value(session: &Session, idx: Option<u32>) -> Value {
    idx.and_then(|i| session.record(i).id.as_ref()).map_or(Value::Null, EntryId::to_value)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const HEADER: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#;

    fn user(id: &str, parent: Option<&str>, text: &str) -> String {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"{text}"}}}}"#
        )
    }

    fn assistant(id: &str, parent: &str) -> String {
        format!(
            r#"{{"type":"message","id":"{id}","parentId":"{parent}","timestamp":"2026-01-01T00:00:02.000Z","message":{{"role":"assistant","content":[{{"type":"text","text":"ok"}}]}}}}"#
        )
    }

    /// The summary a hook supplies is an object with a string `summary`; `details` is kept as
    /// written, `null` being none.
    #[test]
    fn a_hook_summary_is_read_from_an_object_only() {
        let summary = from_hook(&json!({"summary": "s", "details": {"n": 1.50}, "x": 1})).unwrap();
        assert_eq!((summary.text.as_str(), summary.details), ("s", Some(json!({"n": 1.50}))));
        assert!(summary.from_extension);
        assert_eq!(from_hook(&json!({"summary": "s", "details": null})).unwrap().details, None);
        for wrong in [json!({"summary": 1}), json!({"details": {}}), json!(["s", {}]), json!("s")] {
            let error = from_hook(&wrong).map(|s| s.text).unwrap_err().to_string();
            assert!(error.contains("must be {\"summary\": TEXT"), "{wrong}: {error}");
        }
    }

    fn session(lines: &[String]) -> Session {
        let text = [&[HEADER.to_string()], lines].concat().join("\n") + "\n";
        Session::from_bytes(Path::new("t.jsonl"), text.into_bytes()).unwrap()
    }

    fn idx(s: &Session, id: &str) -> u32 {
        s.lookup(&EntryId::new(id)).unwrap()
    }

    fn ids(s: &Session, list: &[u32]) -> Vec<String> {
        list.iter().map(|&i| s.record(i).id.as_ref().unwrap().as_str().to_string()).collect()
    }

    /// u1 ─ a1 ─ u2 ─ a2        (the old branch, leaf a2)
    ///            └─ u3 ─ a3    (file order puts a3 last, so it is the leaf)
    fn forked() -> Session {
        session(&forked_lines())
    }

    #[test]
    fn collect_from_old_leaf_to_target() {
        let s = forked();
        let cases: [(&str, &str, &[&str], &str); 3] = [
            // Old leaf and target on different branches: from the fork point (not included)
            // down to the old leaf.
            ("a3", "a2", &["u3", "a3"], "a1"),
            // Target an ancestor of the old leaf: the entries after the target.
            ("a3", "u1", &["a1", "u3", "a3"], "u1"),
            // Target a descendant of the old leaf: common ancestor = old leaf, nothing abandoned.
            ("a1", "a3", &[], "a1"),
        ];
        for (old, target, abandoned, common) in cases {
            let (entries, got) =
                collect_entries_for_branch_summary(&s, Some(idx(&s, old)), idx(&s, target));
            assert_eq!(ids(&s, &entries), abandoned, "{old} to {target}");
            assert_eq!(got, Some(idx(&s, common)), "{old} to {target}");
        }
    }

    #[test]
    fn collect_without_old_leaf_or_common_ancestor() {
        let s = session(&[user("u1", None, "one"), user("r2", None, "two"), assistant("b", "r2")]);
        assert_eq!(collect_entries_for_branch_summary(&s, None, idx(&s, "u1")), (vec![], None));
        // Two roots: no common ancestor, so the whole old path is abandoned.
        let (entries, common) =
            collect_entries_for_branch_summary(&s, Some(idx(&s, "b")), idx(&s, "u1"));
        assert_eq!(ids(&s, &entries), ["r2", "b"]);
        assert_eq!(common, None);
    }

    #[test]
    fn a_user_target_rewinds_to_its_parent_any_other_becomes_the_leaf() {
        let s = forked();
        // A root user message has no new leaf.
        for (target, new_leaf, text) in
            [("u2", Some("a1"), Some("two")), ("u1", None, Some("one")), ("a2", Some("a2"), None)]
        {
            let nav = navigate(&s, idx(&s, target)).unwrap();
            assert_eq!(nav.new_leaf, new_leaf.map(|l| idx(&s, l)), "{target}");
            assert_eq!(nav.editor_text.as_deref(), text, "{target}");
        }
        let nav = navigate(&s, idx(&s, "u2")).unwrap();
        assert!(!nav.noop);
        assert_eq!(ids(&s, &nav.entries), ["u3", "a3"]);
    }

    #[test]
    fn the_leaf_is_a_noop_unless_it_is_a_user_message() {
        let s = forked();
        let nav = navigate(&s, idx(&s, "a3")).unwrap();
        assert!(nav.noop);
        let s = session(&[
            user("u1", None, "one"),
            assistant("a1", "u1"),
            user("u2", Some("a1"), "two"),
        ]);
        let nav = navigate(&s, idx(&s, "u2")).unwrap();
        assert!(!nav.noop);
        assert_eq!(nav.new_leaf, Some(idx(&s, "a1")));
        // As in the agent, the entries are collected up to the target, so the prompt being
        // rewound is not among them.
        assert!(nav.entries.is_empty());
    }

    #[test]
    fn a_marker_leaf_starts_from_its_parent() {
        let mut lines = forked_lines();
        lines.push(r#"{"type":"branch_summary","id":"m","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z","fromId":"a2","summary":"","details":{"kind":"checkout"}}"#.to_string());
        let s = session(&lines);
        assert_eq!(navigate(&s, idx(&s, "a2")).unwrap().old_leaf, Some(idx(&s, "a2")));
        assert!(navigate(&s, idx(&s, "a2")).unwrap().noop);
        assert!(navigate(&s, idx(&s, "m")).unwrap().noop);
        let nav = navigate(&s, idx(&s, "a3")).unwrap();
        // The marker is not among the abandoned entries: the move starts at a2.
        assert_eq!(ids(&s, &nav.entries), ["u2", "a2"]);
    }

    fn forked_lines() -> Vec<String> {
        vec![
            user("u1", None, "one"),
            assistant("a1", "u1"),
            user("u2", Some("a1"), "two"),
            assistant("a2", "u2"),
            user("u3", Some("a1"), "three"),
            assistant("a3", "u3"),
        ]
    }

    #[test]
    fn a_user_message_under_the_position_again_is_a_noop_with_its_prefill() {
        let mut lines = forked_lines();
        // After `checkout u3`: the marker under a1 (u3's parent) is the leaf.
        lines.push(r#"{"type":"branch_summary","id":"m","parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","fromId":"a1","summary":"","details":{"kind":"checkout"}}"#.to_string());
        let s = session(&lines);
        let nav = navigate(&s, idx(&s, "u3")).unwrap();
        assert!(nav.noop);
        assert_eq!(nav.new_leaf, Some(idx(&s, "a1")));
        assert_eq!(nav.editor_text.as_deref(), Some("three"));
        assert!(nav.entries.is_empty());
        // The same for the root message, after a marker made a new root.
        lines.push(r#"{"type":"branch_summary","id":"r","parentId":null,"timestamp":"2026-01-01T00:00:04.000Z","fromId":"root","summary":"","details":{"kind":"checkout"}}"#.to_string());
        let s = session(&lines);
        let nav = navigate(&s, idx(&s, "u1")).unwrap();
        assert!(nav.noop);
        assert_eq!((nav.new_leaf, nav.editor_text.as_deref()), (None, Some("one")));
        // Without a marker the position is a3: u3 rewinds to a1, a move.
        let s = forked();
        assert!(!navigate(&s, idx(&s, "u3")).unwrap().noop);
    }

    #[test]
    fn custom_messages() {
        let mut lines = forked_lines();
        lines.push(r#"{"type":"custom_message","customType":"note","content":[{"type":"text","text":"hi"}],"display":true,"id":"c1","parentId":"a3","timestamp":"2026-01-01T00:00:04.000Z"}"#.to_string());
        lines.push(r#"{"type":"custom_message","customType":"skill-prompt","content":"BODY","display":true,"details":{"name":"x","prompt":"/skill:x go"},"attribution":"user","id":"c2","parentId":"c1","timestamp":"2026-01-01T00:00:05.000Z"}"#.to_string());
        lines.push(r#"{"type":"custom_message","customType":"skill-prompt","content":"BODY","display":true,"attribution":"agent","id":"c3","parentId":"c2","timestamp":"2026-01-01T00:00:06.000Z"}"#.to_string());
        lines.push(assistant("a4", "c3"));
        let s = session(&lines);
        let nav = navigate(&s, idx(&s, "c1")).unwrap();
        assert_eq!((nav.new_leaf, nav.editor_text.as_deref()), (Some(idx(&s, "a3")), Some("hi")));
        let nav = navigate(&s, idx(&s, "c2")).unwrap();
        assert_eq!(
            (nav.new_leaf, nav.editor_text.as_deref()),
            (Some(idx(&s, "c1")), Some("/skill:x go"))
        );
        let nav = navigate(&s, idx(&s, "c3")).unwrap();
        assert_eq!((nav.new_leaf, nav.editor_text), (Some(idx(&s, "c3")), None));
    }

    fn text(line: &[u8]) -> &str {
        std::str::from_utf8(line).unwrap()
    }

    #[test]
    fn plan_with_summary_and_label() {
        let s = forked();
        let nav = navigate(&s, idx(&s, "u2")).unwrap();
        let summary = Summary {
            text: "S".into(),
            details: Some(json!({"readFiles":[]})),
            from_extension: true,
        };
        let mut idgen = IdGen::from_seed(1);
        let p =
            plan(&s, &nav, Some(&summary), Some("here"), Dialect::Omp, &mut idgen, "T").unwrap();
        assert_eq!(p.lines.len(), 2);
        let sid = p.appended[0].as_str();
        assert_eq!(
            text(&p.lines[0]),
            format!(
                r#"{{"type":"branch_summary","id":"{sid}","parentId":"a1","timestamp":"T","fromId":"a1","summary":"S","details":{{"readFiles":[]}},"fromExtension":true}}"#
            )
        );
        assert_eq!(
            text(&p.lines[1]),
            format!(
                r#"{{"type":"label","id":"{}","parentId":"{sid}","timestamp":"T","targetId":"{sid}","label":"here"}}"#,
                p.appended[1].as_str()
            )
        );
        assert_eq!(p.summary_entry.as_ref(), Some(&p.entries[0]));
    }

    #[test]
    fn plan_marker_new_root_and_label_on_target() {
        let s = forked();
        let nav = navigate(&s, idx(&s, "u1")).unwrap();
        let mut idgen = IdGen::from_seed(1);
        let p = plan(&s, &nav, None, Some("start"), Dialect::Omp, &mut idgen, "T").unwrap();
        let mid = p.appended[0].as_str();
        assert_eq!(
            text(&p.lines[0]),
            format!(
                r#"{{"type":"branch_summary","id":"{mid}","parentId":null,"timestamp":"T","fromId":"root","summary":"","details":{{"kind":"checkout","from":"a3"}}}}"#
            )
        );
        assert!(text(&p.lines[1]).ends_with(r#""targetId":"u1","label":"start"}"#));
        assert_eq!(p.summary_entry, None);
        // An empty summary text is no summary.
        let empty = Summary { text: String::new(), details: None, from_extension: false };
        let p = plan(&s, &nav, Some(&empty), None, Dialect::Omp, &mut idgen, "T").unwrap();
        assert_eq!(p.lines.len(), 1);
        assert!(
            text(&p.lines[0]).contains(r#""summary":"","details":{"kind":"checkout","from":"a3"}"#)
        );
    }

    /// pi 1.6 `branchWithSummary` stores the leaf being left as `fromId` (its leaf after
    /// loading a file is the last entry, a move marker too); oh-my-pi 18.2.3 the target
    /// (CHANGES R5b).
    #[test]
    fn a_pi_summary_comes_from_the_leaf_it_leaves() {
        let from = |s: &Session, target: &str, dialect| {
            let nav = navigate(s, idx(s, target)).unwrap();
            let summary = Summary { text: "S".into(), details: None, from_extension: false };
            let p = plan(s, &nav, Some(&summary), None, dialect, &mut IdGen::from_seed(1), "T");
            p.unwrap().entries[0]["fromId"].clone()
        };
        let s = forked();
        assert_eq!(from(&s, "a1", Dialect::Pi), "a3");
        assert_eq!(from(&s, "a1", Dialect::Omp), "a1");
        // A new root.
        assert_eq!(from(&s, "u1", Dialect::Pi), "a3");
        assert_eq!(from(&s, "u1", Dialect::Omp), "root");
        // The leaf is a move marker: pi's leaf is the marker itself.
        let mut lines = forked_lines();
        lines.push(r#"{"type":"branch_summary","id":"m","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z","fromId":"a2","summary":"","details":{"kind":"checkout"}}"#.to_string());
        let s = session(&lines);
        assert_eq!(from(&s, "a1", Dialect::Pi), "m");
    }

    #[test]
    fn new_ids_never_repeat_a_numeric_id() {
        // A seed whose first draw is all decimal digits, so the file can hold it as a number.
        let (seed, drawn) = (0u64..)
            .map(|seed| (seed, IdGen::from_seed(seed).entry_id(|_| false)))
            .find(|(_, id)| id.bytes().all(|b| b.is_ascii_digit()) && !id.starts_with('0'))
            .unwrap();
        let mut lines = forked_lines();
        lines.push(format!(
            r#"{{"type":"message","id":{drawn},"parentId":"a3","timestamp":"2026-01-01T00:00:03.000Z","message":{{"role":"user","content":"n"}}}}"#
        ));
        let s = session(&lines);
        let nav = navigate(&s, idx(&s, "u2")).unwrap();
        let p = plan(&s, &nav, None, None, Dialect::Omp, &mut IdGen::from_seed(seed), "T").unwrap();
        assert_ne!(p.appended[0].as_str(), drawn);
    }

    #[test]
    fn an_entry_shadowed_by_a_later_duplicate_cannot_be_the_new_leaf() {
        // Found by the `plan` fuzz target: the earlier e0 is only reachable by index; a
        // marker under "e0" would land on the later e0 when the file is read back.
        let s = session(&[
            assistant("e0", "x"),
            r#"{"type":"title_change","id":"e0","parentId":"e0","timestamp":"2026-01-01T00:00:02.000Z","title":"t"}"#.to_string(),
        ]);
        let nav = navigate(&s, 0).unwrap();
        assert_eq!(nav.new_leaf, Some(0));
        let err =
            plan(&s, &nav, None, None, Dialect::Omp, &mut IdGen::from_seed(1), "T").unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.jsonl:2: entry e0 is shadowed by the later entry with the same id on line 3; it cannot be named"
        );
        // The entry the id names is fine: it is the leaf, so the move is a no-op.
        assert!(navigate(&s, idx(&s, "e0")).unwrap().noop);
    }

    #[test]
    fn preparation_payload() {
        let s = forked();
        let nav = navigate(&s, idx(&s, "a2")).unwrap();
        let entries: Vec<Value> = nav.entries.iter().map(|&i| s.value(i).unwrap()).collect();
        let prep = preparation(&s, &nav, &entries, true);
        let p = &prep["preparation"];
        assert_eq!(p["targetId"], "a2");
        assert_eq!(p["oldLeafId"], "a3");
        assert_eq!(p["commonAncestorId"], "a1");
        assert_eq!(p["userWantsSummary"], true);
        assert_eq!(p["entriesToSummarize"].as_array().unwrap().len(), 2);
        assert_eq!(p["entriesToSummarize"][0]["id"], "u3");
    }

    /// `run` without a lock (a dry run): nothing to write to, the plan comes back.
    fn dry_run(s: &Session, target: &str, summary: SummarySource) -> (Result<Checkout>, Vec<Note>) {
        let nav = navigate(s, idx(s, target)).unwrap();
        assert!(!nav.noop, "{target}");
        let (hooks, cancel) = (Hooks::disabled(), CancelToken::default());
        let request =
            Request { summary, label: None, dialect: Dialect::Pi, hooks: &hooks, cancel: &cancel };
        let clock = Clock::pinned_at("2026-03-01T12:00:00.000Z").unwrap();
        let mut notes = Vec::new();
        let done = run(s, &nav, &request, None, &mut IdGen::from_seed(1), &clock, &mut |n| {
            notes.push(n);
        });
        (done, notes)
    }

    #[test]
    fn a_run_takes_the_given_summary_and_plans_it_at_the_clocks_time() {
        let s = forked();
        let (done, notes) = dry_run(&s, "a2", SummarySource::Given("tried u3".into()));
        let done = done.unwrap();
        assert_eq!(done.summary.as_ref().map(|s| s.text.as_str()), Some("tried u3"));
        assert!(!done.summary.unwrap().from_extension);
        let entry = done.plan.summary_entry.unwrap();
        assert_eq!(
            (entry["summary"].as_str(), entry["parentId"].as_str()),
            (Some("tried u3"), Some("a2"))
        );
        assert_eq!(entry["timestamp"], "2026-03-01T12:00:00.000Z");
        assert!(notes.is_empty());
    }

    #[test]
    fn a_run_that_abandons_nothing_says_so_and_moves_without_a_summary() {
        // A bare move to a1 (the marker last): a3 is below the position, nothing is left behind.
        let mut lines = forked_lines();
        lines.push(
            r#"{"type":"branch_summary","id":"mk","parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","fromId":"a3","summary":""}"#.into(),
        );
        let s = session(&lines);
        let summarize = SummarySource::Summarize { summarizer: None, instructions: String::new() };
        let (done, notes) = dry_run(&s, "a3", summarize);
        let done = done.unwrap();
        assert_eq!(done.summary, None);
        assert_eq!(done.plan.summary_entry, None);
        assert_eq!(notes, [Note::NothingToSummarize { below: true }]);
    }

    #[test]
    fn a_summary_asked_of_nobody_is_refused() {
        let s = forked();
        let nobody = SummarySource::Summarize { summarizer: None, instructions: String::new() };
        let err = require_summarizer(&nobody, &Hooks::disabled(), true).unwrap_err();
        assert!(err.to_string().ends_with("(hooks do not run with --dry-run)"), "{err}");
        assert!(
            require_summarizer(&SummarySource::Given("x".into()), &Hooks::disabled(), false)
                .is_ok()
        );
        // Past that check, a summary still needs a source when no hook gave one.
        let (done, _) = dry_run(&s, "a2", nobody);
        assert!(
            done.unwrap_err().to_string().contains("the session_before_tree hook gave no summary")
        );
    }
}
